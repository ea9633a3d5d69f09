// SPDX-License-Identifier: GPL-3.0-or-later

/// A rectangle on a GIF's logical screen, in pixels: the area one image descriptor covers.
public struct GIFRect: Equatable, Hashable, Sendable {
    /// Left edge, 0…65535.
    public var x: Int
    /// Top edge, 0…65535.
    public var y: Int
    /// Width, 0…65535.
    public var width: Int
    /// Height, 0…65535.
    public var height: Int

    /// A rectangle with the given origin and size.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}
