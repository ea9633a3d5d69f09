// SPDX-License-Identifier: GPL-3.0-or-later

/// Layout and metadata choices for `SpriteSheetBuilder.build`.
public struct SpriteSheetOptions: Equatable, Sendable {
    /// Animation name: frame filenames are `"<name> <i>.png"` (Aseprite's `{title} {frame}`
    /// pattern) and the single frame tag carries it.
    public var name: String
    /// File name of the sheet image as the JSON refers to it (`meta.image`), e.g.
    /// `"circular.png"`.
    public var imageName: String
    /// Cells per row, ≥ 1; nil picks `ceil(sqrt(N))` for N frames. Never more than N.
    public var columns: Int?
    /// Transparent pixels between cells and around the border, ≥ 0.
    public var padding: Int
    /// Pixel density the frames were rendered at (`meta.scale`, written as a string such as
    /// `"1"` or `"2"`, as Aseprite does), finite and > 0.
    public var scale: Double
    /// Frames per second (`meta.frameRate`), finite and > 0.
    public var frameRate: Double
    /// Loop period in seconds (`meta.loopSeconds`), finite and ≥ 0.
    public var loopSeconds: Double
    /// `meta.app`, the program that wrote the sheet.
    public var app: String
    /// `meta.version`, that program's version.
    public var version: String

    /// Options with the given values; by default no padding, scale 1, columns automatic.
    public init(
        name: String, imageName: String, columns: Int? = nil, padding: Int = 0, scale: Double = 1,
        frameRate: Double, loopSeconds: Double, app: String = "animexport",
        version: String = "0.1.0"
    ) {
        self.name = name
        self.imageName = imageName
        self.columns = columns
        self.padding = padding
        self.scale = scale
        self.frameRate = frameRate
        self.loopSeconds = loopSeconds
        self.app = app
        self.version = version
    }
}
