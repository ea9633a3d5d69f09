// SPDX-License-Identifier: GPL-3.0-or-later

/// Where one animation frame sits in a sprite sheet, and how long it shows.
public struct SheetFrame: Equatable, Sendable {
    /// `"<name> <index>.png"`, a label for the frame; the data files name frames by their own
    /// template instead (`SheetData.frameNames`, `--frame-name`).
    public var filename: String
    /// Left edge of the cell in the sheet, pixels.
    public var x: Int
    /// Top edge of the cell in the sheet, pixels.
    public var y: Int
    /// Width of the (trimmed) frame in the sheet, pixels.
    public var width: Int
    /// Height of the (trimmed) frame in the sheet, pixels.
    public var height: Int
    /// How long the frame shows, milliseconds (> 0).
    public var duration: Int
    /// Where the stored rectangle sits in the untrimmed frame (`spriteSourceSize.x`), pixels.
    public var sourceX: Int
    /// `spriteSourceSize.y`, pixels.
    public var sourceY: Int
    /// The untrimmed frame's width (`sourceSize.w`), pixels.
    public var sourceWidth: Int
    /// The untrimmed frame's height (`sourceSize.h`), pixels.
    public var sourceHeight: Int
    /// Which page (sheet image) of a multipack holds the cell, 0-based; 0 for a one-page sheet.
    /// Index into the `SheetPage` list that goes with the frames.
    public var page: Int

    /// Whether the stored rectangle is smaller than the frame (the JSON `trimmed`).
    public var trimmed: Bool { width != sourceWidth || height != sourceHeight }

    /// A frame record with the given fields; by default untrimmed (the source is the frame).
    public init(
        filename: String, x: Int, y: Int, width: Int, height: Int, duration: Int, sourceX: Int = 0,
        sourceY: Int = 0, sourceWidth: Int? = nil, sourceHeight: Int? = nil, page: Int = 0
    ) {
        self.filename = filename
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.duration = duration
        self.sourceX = sourceX
        self.sourceY = sourceY
        self.sourceWidth = sourceWidth ?? width
        self.sourceHeight = sourceHeight ?? height
        self.page = page
    }
}
