// SPDX-License-Identifier: GPL-3.0-or-later

public import Geometry

/// A value an animation moves between: its kind follows the key path (`AnimatableProperty`).
public enum AnimatableValue: Equatable, Sendable {
    /// A scalar: points, degrees, seconds or a 0…1 fraction depending on the key path.
    case number(Double)
    /// A pair such as a position or a size, in points (or scale factors).
    case point(Point)
    /// A colour (interpolated per channel, straight alpha).
    case color(RGBAColor)
    /// A flag (`hidden`); never interpolated, it switches at keyframes.
    case bool(Bool)
}

/// The kind of value a key path takes.
public enum AnimatableValueKind: String, Equatable, Sendable {
    /// A JSON number or expression.
    case number
    /// `[x, y]`.
    case point
    /// A colour string.
    case color
    /// `true` / `false`.
    case bool
    /// A number (uniform) or `[x, y]` (per axis); stored as a point.
    case scale

    /// How messages describe an expected value of this kind.
    public var expectation: String {
        switch self {
        case .number: "a number or an expression"
        case .point: "a point [x, y]"
        case .color: "a colour"
        case .bool: "true or false"
        case .scale: "a number or [x, y]"
        }
    }
}
