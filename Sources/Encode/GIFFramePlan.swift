// SPDX-License-Identifier: GPL-3.0-or-later

/// Everything `GIFWriter` puts in the file, decided before any byte is written: screen,
/// colour table, loop block and, per frame, the rectangle, indices, delay, disposal and
/// transparency. Later optimisations (frame differencing, merging identical frames) rewrite
/// the plan and leave the writer alone.
struct GIFFramePlan {
    /// One image with its Graphic Control Extension.
    struct Frame {
        /// Where the image sits on the logical screen.
        var rect: GIFRect
        /// `rect.width·rect.height` palette indices, row-major.
        var indices: [UInt8]
        /// Centiseconds, 0…65535.
        var delay: Int
        /// GIF disposal method 0…3 (semantics.md §8.1).
        var disposal: Int
        /// The transparency index, or nil when the frame has none.
        var transparentIndex: Int?
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

    /// Every frame as a full-canvas image. With transparency each frame uses disposal 2, so
    /// the next frame starts from a cleared canvas (transparency cannot erase under
    /// disposal 1, semantics.md §8.2); without transparency disposal 1.
    static func fullCanvas(
        frames: [IndexedFrame], delays: [Int], palette: GIFPalette, width: Int, height: Int,
        loopCount: Int?
    ) -> GIFFramePlan {
        let disposal = palette.transparentIndex == nil ? doNotDispose : restoreToBackground
        let rect = GIFRect(x: 0, y: 0, width: width, height: height)
        let planned = zip(frames, delays).map { frame, delay in
            Frame(
                rect: rect, indices: frame.indices, delay: delay, disposal: disposal,
                transparentIndex: palette.transparentIndex)
        }
        return GIFFramePlan(
            width: width, height: height, colorTable: palette.colorTable,
            backgroundIndex: palette.transparentIndex ?? 0, loopCount: loopCount, frames: planned)
    }
}
