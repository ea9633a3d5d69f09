// SPDX-License-Identifier: GPL-3.0-or-later

/// Everything `GIFWriter` puts in the file, decided before any byte is written: screen,
/// colour table, loop block and, per frame, the rectangle, the compressed image data, delay,
/// disposal, transparency and an optional local colour table. `GIFFrameOptimizer` makes it.
struct GIFFramePlan {
    /// One image with its Graphic Control Extension.
    struct Frame {
        /// Where the image sits on the logical screen.
        var rect: GIFRect
        /// The LZW code stream for `rect.width·rect.height` indices (no sub-block lengths).
        var imageData: [UInt8]
        /// The LZW minimum code size, 2…8: with a local table its log2; with the global table
        /// the bits of the largest index the frame writes (at most the table's log2).
        var minimumCodeSize: Int
        /// Centiseconds, 0…65535.
        var delay: Int
        /// GIF disposal method 1…3 (semantics.md §8.1).
        var disposal: Int
        /// The transparency index (into the table in force), or nil when the frame has none.
        var transparentIndex: Int?
        /// RGB triples of a local colour table (a power of two of entries), or nil to use the
        /// global one.
        var localColorTable: [UInt8]?
    }

    /// Logical screen width in pixels, 1…65535.
    var width: Int
    /// Logical screen height in pixels, 1…65535.
    var height: Int
    /// Global colour table: RGB triples, a power of two of entries, 2…256.
    var colorTable: [UInt8]
    /// Logical screen background colour index.
    var backgroundIndex: Int
    /// NETSCAPE2.0 loop count, nil for no block.
    var loopCount: Int?
    /// The images in display order.
    var frames: [Frame]

    /// Disposal 1, "do not dispose": the next frame paints over this one.
    static let doNotDispose = 1
    /// Disposal 2, "restore to background": browsers clear the rectangle to transparent.
    static let restoreToBackground = 2
    /// Disposal 3, "restore to previous": the canvas goes back to how it was before this frame.
    static let restoreToPrevious = 3

    /// The LZW minimum code size for a colour table of `entries` (a power of two): its log2,
    /// at least 2 (GIF89a appendix F; giflib writes the same).
    static func minimumCodeSize(forTableOf entries: Int) -> Int {
        var bits = 1
        while 1 << bits < entries { bits += 1 }
        return max(2, bits)
    }
}
