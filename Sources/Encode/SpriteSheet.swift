// SPDX-License-Identifier: GPL-3.0-or-later

public import Render

/// A sprite sheet: all frames on one grid image plus its JSON data file.
public struct SpriteSheet: Equatable, Sendable {
    /// The sheet, straight alpha; padding is fully transparent. Encode with `PNGCodec.encode`.
    public var image: RGBAImage
    /// One record per frame, in frame order.
    public var frames: [SheetFrame]
    /// Cells per row.
    public var columns: Int
    /// Rows of cells.
    public var rows: Int
    /// The JSON data file: UTF-8, pretty-printed with a fixed key order, trailing newline, in
    /// the default data format (Aseprite json-hash, `SheetDataFormat.defaultFormat`).
    public var json: [UInt8]

    /// A sheet with the given fields.
    public init(image: RGBAImage, frames: [SheetFrame], columns: Int, rows: Int, json: [UInt8]) {
        self.image = image
        self.frames = frames
        self.columns = columns
        self.rows = rows
        self.json = json
    }
}
