// SPDX-License-Identifier: GPL-3.0-or-later

public import Raster

/// A GIF read back by `GIFDecoder`: the file's structure plus each frame composited the way
/// browsers show it.
public struct DecodedGIF: Equatable, Sendable {
    /// One image of the file with its Graphic Control Extension.
    public struct Frame: Equatable, Sendable {
        /// The whole logical screen after this frame is drawn (earlier frames' disposals
        /// applied; canvas starts transparent), straight alpha.
        public var canvas: RGBAImage
        /// Delay in centiseconds (0 when the frame has no Graphic Control Extension).
        public var delay: Int
        /// Disposal method 0…7 as written (0 unspecified, 1 keep, 2 restore to background,
        /// 3 restore to previous).
        public var disposal: Int
        /// The image descriptor's rectangle on the logical screen.
        public var rect: GIFRect
        /// The transparency index from the Graphic Control Extension, or nil.
        public var transparentIndex: Int?
        /// The raw colour indices of the image, `rect.width·rect.height`, row-major (interlaced
        /// images already put in row order).
        public var indices: [UInt8]
        /// Whether the image carries a local colour table.
        public var hasLocalColorTable: Bool

        /// A frame with the given fields.
        public init(
            canvas: RGBAImage, delay: Int, disposal: Int, rect: GIFRect, transparentIndex: Int?,
            indices: [UInt8], hasLocalColorTable: Bool
        ) {
            self.canvas = canvas
            self.delay = delay
            self.disposal = disposal
            self.rect = rect
            self.transparentIndex = transparentIndex
            self.indices = indices
            self.hasLocalColorTable = hasLocalColorTable
        }
    }

    /// Logical screen width in pixels.
    public var width: Int
    /// Logical screen height in pixels.
    public var height: Int
    /// The frames in file order.
    public var frames: [Frame]
    /// The NETSCAPE2.0 (or ANIMEXTS1.0) loop count, 0 = forever; nil when the file has no
    /// such block (plays once).
    public var loopCount: Int?
    /// Entries in the global colour table (2…256), nil when there is none.
    public var globalColorTableSize: Int?
    /// The global colour table as RGB triples; empty when there is none.
    public var globalColorTable: [UInt8]
    /// The logical screen's background colour index.
    public var backgroundIndex: Int

    /// A value with the given fields.
    public init(
        width: Int, height: Int, frames: [Frame], loopCount: Int?, globalColorTableSize: Int?,
        globalColorTable: [UInt8], backgroundIndex: Int
    ) {
        self.width = width
        self.height = height
        self.frames = frames
        self.loopCount = loopCount
        self.globalColorTableSize = globalColorTableSize
        self.globalColorTable = globalColorTable
        self.backgroundIndex = backgroundIndex
    }
}
