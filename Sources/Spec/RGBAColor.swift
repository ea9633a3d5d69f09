// SPDX-License-Identifier: GPL-3.0-or-later

/// A colour in sRGB with straight alpha; every channel is a `Double` in 0…1.
///
/// Colours interpolate per channel in this straight-alpha sRGB space (see
/// `interpolated(to:fraction:)`), which is what the preset format documents.
public struct RGBAColor: Equatable, Hashable, Sendable {
    /// Red, 0…1.
    public var red: Double
    /// Green, 0…1.
    public var green: Double
    /// Blue, 0…1.
    public var blue: Double
    /// Opacity, 0 (transparent) … 1 (opaque).
    public var alpha: Double

    /// A colour from channels in 0…1; values outside are clamped.
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = min(max(red, 0), 1)
        self.green = min(max(green, 0), 1)
        self.blue = min(max(blue, 0), 1)
        self.alpha = min(max(alpha, 0), 1)
    }

    /// Fully transparent black.
    public static let clear = RGBAColor(red: 0, green: 0, blue: 0, alpha: 0)
    /// Opaque white.
    public static let white = RGBAColor(red: 1, green: 1, blue: 1)
    /// Opaque black.
    public static let black = RGBAColor(red: 0, green: 0, blue: 0)

    /// Per-channel linear interpolation `self + (other − self)·fraction`; `fraction` may leave
    /// 0…1 (springs overshoot) and the result is clamped to valid channel values.
    public func interpolated(to other: RGBAColor, fraction: Double) -> RGBAColor {
        RGBAColor(
            red: red + (other.red - red) * fraction,
            green: green + (other.green - green) * fraction,
            blue: blue + (other.blue - blue) * fraction,
            alpha: alpha + (other.alpha - alpha) * fraction)
    }
}
