// SPDX-License-Identifier: GPL-3.0-or-later

/// The box of one line of text as the renderer sets it, in points at font size `size`: the
/// advance width (the sum of the glyphs' advances, Cairo's `x_advance`, no hinting) and the
/// font's ascent + descent. It is the box a text layer's `anchorPoint` is relative to, and what
/// the expressions `@name.width` and `@name.height` read (docs/preset-format.md, "Measured
/// text").
public struct TextMeasurement: Equatable, Sendable {
    /// Advance width in points, ≥ 0.
    public var width: Double
    /// Ascent + descent in points, ≥ 0.
    public var height: Double

    /// A measurement; see the properties.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
}

/// Measures `string` in the font of `content` (family, size, weight), or returns nil when no
/// font can be loaded. `Spec` has no fonts; the renderer supplies this (`Exporter.measureText`).
public typealias TextMeasurer = @Sendable (_ string: String, _ content: TextContent) -> TextMeasurement?
