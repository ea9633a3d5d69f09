// SPDX-License-Identifier: GPL-3.0-or-later

public import Raster

/// A sprite sheet held in memory: every page image, the frame records and the data files.
public struct SpriteSheet: Equatable, Sendable {
    /// The page images in page order (one for a sheet that fits `maxSize`), straight alpha;
    /// padding and unused space are fully transparent. Encode with `SheetPNGEncoder`.
    public var pages: [RGBAImage]
    /// Where every frame sits and every page's name and size.
    public var layout: SheetLayoutResult
    /// The first page's JSON data file: UTF-8, pretty-printed with a fixed key order, trailing
    /// newline, in the default data format (Aseprite json-hash, `SheetDataFormat.defaultFormat`).
    public var json: [UInt8]
    /// Every page's JSON data file, in page order (`[json]` for one page).
    public var pageJSON: [[UInt8]]

    /// A sheet with the given fields.
    public init(pages: [RGBAImage], layout: SheetLayoutResult, json: [UInt8], pageJSON: [[UInt8]]) {
        self.pages = pages
        self.layout = layout
        self.json = json
        self.pageJSON = pageJSON
    }

    /// The first page (a 0×0 image when there is none).
    public var image: RGBAImage { pages.first ?? RGBAImage(width: 0, height: 0) }
    /// One record per frame, in frame order.
    public var frames: [SheetFrame] { layout.frames }
    /// Cells per row of the first page (0 for `.packed`).
    public var columns: Int { layout.columns }
    /// Rows of cells of the first page (0 for `.packed`).
    public var rows: Int { layout.rows }
}

/// A sheet's layout without its pixels: what `SpriteSheetBuilder.build` decides before it draws.
public struct SheetLayoutResult: Equatable, Sendable {
    /// One record per frame, in frame order; merged duplicates share `x, y, w, h, page`.
    public var frames: [SheetFrame]
    /// One per page, in page order; `SheetFrame.page` indexes it.
    public var pages: [SheetPage]
    /// Cells per row of the first page for `.grid` and the strips, 0 for `.packed`.
    public var columns: Int
    /// Rows of cells of the first page for `.grid` and the strips, 0 for `.packed`.
    public var rows: Int

    /// A layout with the given fields.
    public init(frames: [SheetFrame], pages: [SheetPage], columns: Int, rows: Int) {
        self.frames = frames
        self.pages = pages
        self.columns = columns
        self.rows = rows
    }
}
