// SPDX-License-Identifier: GPL-3.0-or-later

import Glibc

/// A position on a path together with the direction of travel there.
public struct PathPoint: Equatable, Sendable {
    /// The point on the path, in pixels (y down).
    public var position: Point
    /// The tangent heading in degrees, `atan2(dy, dx)` in y-down coordinates, in (−180, 180]:
    /// 0 points right, 90 points down the screen. This is Core Animation's `rotationMode`
    /// `.rotateAuto` angle (semantics.md §4.6); on a clockwise circle it is the polar angle + 90°.
    public var heading: Double

    /// A position and heading.
    public init(position: Point, heading: Double) {
        self.position = position
        self.heading = heading
    }
}
