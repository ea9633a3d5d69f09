// SPDX-License-Identifier: GPL-3.0-or-later

/// Layout and metadata choices for `SpriteSheetBuilder.build`.
public struct SpriteSheetOptions: Equatable, Sendable {
    /// Animation name: `SheetFrame.filename` is `"<name> <i>.png"`, and the JSON's single frame
    /// tag carries it.
    public var name: String
    /// File name of the sheet image as the JSON refers to it (`meta.image`), e.g.
    /// `"circular.png"`.
    public var imageName: String
    /// Cells per row for `.grid`, ≥ 1; nil picks `ceil(sqrt(N))` for N frames. Never more than
    /// N. Must be nil for the other layouts.
    public var columns: Int?
    /// Transparent pixels between cells and around the border, 0…65535.
    public var padding: Int
    /// Pixels, 0…64, by which every cell's edge rows and columns are repeated outwards (corners
    /// from the corner pixel), so bilinear sampling at a frame's border never reads a
    /// neighbour or the padding. The JSON `frame` rectangle stays the frame itself.
    public var extrude: Int
    /// Whether each frame is cut to the bounding box of its pixels with alpha > 0 (a fully
    /// transparent frame keeps its top-left pixel). The JSON then says where the cut sits in
    /// the frame: `spriteSourceSize {x, y, w, h}`, `sourceSize {w, h}`, `trimmed: true`.
    public var trim: Bool
    /// How cells are arranged.
    public var layout: SheetLayout
    /// Largest page side, pixels, 1…`SpriteSheetBuilder.maximumPageSide` (default 4096, what
    /// most mobile GPUs accept); cells that do not fit one page continue on the next.
    public var maxSize: Int
    /// Whether every page's width and height are rounded up to powers of two (then no larger
    /// than the largest power of two ≤ `maxSize`).
    public var powerOfTwo: Bool
    /// Whether frames whose stored pixels and trim offset equal an earlier frame's share its
    /// cell (Aseprite's `--merge-duplicates`).
    public var mergeDuplicates: Bool
    /// Pixel density the frames were rendered at (`meta.scale`, written as a string such as
    /// `"1"` or `"2"`, as Aseprite does), finite and > 0.
    public var scale: Double
    /// Frames per second, finite and > 0 (checked; the default JSON has per-frame durations).
    public var frameRate: Double
    /// Loop period in seconds, finite and ≥ 0 (checked; not written in the default JSON).
    public var loopSeconds: Double
    /// `meta.app`, the program that wrote the sheet.
    public var app: String
    /// `meta.version`, that program's version.
    public var version: String

    /// Options with the given values; by default a grid with automatic columns on pages of at
    /// most 4096 px, no padding, extrusion, trimming or merging, scale 1.
    public init(
        name: String, imageName: String, columns: Int? = nil, padding: Int = 0, extrude: Int = 0,
        trim: Bool = false, layout: SheetLayout = .grid, maxSize: Int = 4096, powerOfTwo: Bool = false,
        mergeDuplicates: Bool = false, scale: Double = 1, frameRate: Double,
        loopSeconds: Double, app: String = "animexport", version: String = "0.1.0"
    ) {
        self.name = name
        self.imageName = imageName
        self.columns = columns
        self.padding = padding
        self.extrude = extrude
        self.trim = trim
        self.layout = layout
        self.maxSize = maxSize
        self.powerOfTwo = powerOfTwo
        self.mergeDuplicates = mergeDuplicates
        self.scale = scale
        self.frameRate = frameRate
        self.loopSeconds = loopSeconds
        self.app = app
        self.version = version
    }
}
