// SPDX-License-Identifier: GPL-3.0-or-later

/// Where one animation frame sits in a sprite sheet, and how long it shows.
public struct SheetFrame: Equatable, Sendable {
    /// `"<name> <index>.png"`, the JSON `filename`.
    public var filename: String
    /// Left edge of the cell in the sheet, pixels.
    public var x: Int
    /// Top edge of the cell in the sheet, pixels.
    public var y: Int
    /// Cell width, pixels (the frame width).
    public var width: Int
    /// Cell height, pixels (the frame height).
    public var height: Int
    /// How long the frame shows, milliseconds (> 0).
    public var duration: Int

    /// A frame record with the given fields.
    public init(filename: String, x: Int, y: Int, width: Int, height: Int, duration: Int) {
        self.filename = filename
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.duration = duration
    }
}
