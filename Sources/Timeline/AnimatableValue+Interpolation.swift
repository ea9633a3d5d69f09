// SPDX-License-Identifier: GPL-3.0-or-later

import Geometry
public import Spec

extension AnimatableValue {
    /// The value `fraction` of the way from `self` to `other`: `a + (b − a)·fraction` per
    /// component (colours per channel, straight alpha). `fraction` may leave 0…1 (overshooting
    /// curves). Booleans switch only when `fraction` ≥ 1. Mismatched kinds return `self`.
    public func interpolated(to other: AnimatableValue, fraction: Double) -> AnimatableValue {
        switch (self, other) {
        case let (.number(a), .number(b)):
            return .number(a + (b - a) * fraction)
        case let (.point(a), .point(b)):
            return .point(Point(x: a.x + (b.x - a.x) * fraction, y: a.y + (b.y - a.y) * fraction))
        case let (.color(a), .color(b)):
            return .color(a.interpolated(to: b, fraction: fraction))
        case (.bool, .bool):
            return fraction >= 1 ? other : self
        default:
            return self
        }
    }
}
