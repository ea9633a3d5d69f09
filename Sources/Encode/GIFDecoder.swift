// SPDX-License-Identifier: GPL-3.0-or-later

internal import CGif
internal import Raster

/// Reads a GIF from memory with giflib and composites its frames the way browsers do, so tests
/// can check what an encoder wrote.
///
/// Reading uses giflib's record-by-record API (`DGifGetRecordType`, `DGifGetImageDesc`,
/// `DGifGetLine`, `DGifGetExtension`) rather than `DGifSlurp`, so each image rectangle is
/// checked before any pixel is read and a hostile size cannot crash or exhaust memory.
///
/// Compositing: the canvas starts fully transparent. Before frame k+1 is drawn, frame k's
/// disposal is applied: 2 clears its rectangle to transparent (what browsers do, not the
/// background colour; semantics.md §8.1), 3 restores the canvas from before frame k,
/// 0 and 1 keep it. Pixels with the frame's transparency index leave the canvas unchanged.
public enum GIFDecoder {
    /// Largest logical screen accepted, in pixels (keeps canvases ≤ 1 GiB).
    public static let maximumPixelCount = 1 << 28

    /// Decodes a whole GIF.
    /// - Parameter bytes: a complete GIF87a or GIF89a file.
    /// - Returns: the structure and composited frames.
    /// - Throws: `EncodeError` naming the giflib call that failed, or describing a frame that
    ///   lies outside the screen, a missing colour table, or a colour index past its table.
    public static func decode(_ bytes: [UInt8]) throws -> DecodedGIF {
        let reader = try GIFReader(bytes)
        // `gif` points into memory the reader frees in deinit: keep the reader alive throughout.
        return try withExtendedLifetime(reader) { try decodeRecords(reader) }
    }

    private static func decodeRecords(_ reader: GIFReader) throws -> DecodedGIF {
        let gif = reader.file
        let width = Int(gif.pointee.SWidth)
        let height = Int(gif.pointee.SHeight)
        guard width > 0, height > 0, width * height <= maximumPixelCount else {
            throw EncodeError("GIF logical screen \(width)×\(height) is empty or too large")
        }
        let globalTable = colorTable(gif.pointee.SColorMap)

        var state = CompositingState(width: width, height: height)
        var frames: [DecodedGIF.Frame] = []
        var control: GraphicsControlBlock?
        var loopCount: Int?

        reading: while true {
            var record = UNDEFINED_RECORD_TYPE
            try reader.check(DGifGetRecordType(gif, &record), "DGifGetRecordType")
            switch record {
            case IMAGE_DESC_RECORD_TYPE:
                try reader.check(DGifGetImageDesc(gif), "DGifGetImageDesc")
                let frame = try readImage(
                    reader, number: frames.count, control: control, globalTable: globalTable,
                    state: &state)
                frames.append(frame)
                control = nil
            case EXTENSION_RECORD_TYPE:
                let (code, blocks) = try readExtension(reader)
                if code == GRAPHICS_EXT_FUNC_CODE, let first = blocks.first {
                    var block = GraphicsControlBlock()
                    try reader.check(
                        DGifExtensionToGCB(first.count, first, &block), "DGifExtensionToGCB")
                    control = block
                } else if code == APPLICATION_EXT_FUNC_CODE, let count = netscapeLoopCount(blocks) {
                    loopCount = count
                }
            case TERMINATE_RECORD_TYPE:
                break reading
            default:
                continue
            }
        }
        guard !frames.isEmpty else { throw EncodeError("GIF has no images") }
        return DecodedGIF(
            width: width, height: height, frames: frames, loopCount: loopCount,
            globalColorTableSize: globalTable.map { $0.count / 3 },
            globalColorTable: globalTable ?? [], backgroundIndex: Int(gif.pointee.SBackGroundColor))
    }

    /// The canvas between frames and the pending disposal of the last frame.
    private struct CompositingState {
        var canvas: RGBAImage
        var pendingDisposal = 0
        var pendingRect = GIFRect(x: 0, y: 0, width: 0, height: 0)
        var savedCanvas: RGBAImage?

        init(width: Int, height: Int) {
            canvas = RGBAImage(width: width, height: height)
        }

        /// Applies the previous frame's disposal before the next frame draws.
        mutating func dispose() {
            switch pendingDisposal {
            case 2:
                let r = pendingRect
                for y in r.y..<(r.y + r.height) {
                    let start = canvas.offset(x: r.x, y: y)
                    for i in start..<(start + r.width * 4) { canvas.pixels[i] = 0 }
                }
            case 3:
                if let saved = savedCanvas { canvas = saved }
            default:
                break
            }
            savedCanvas = nil
        }
    }

    private static func readImage(
        _ reader: GIFReader, number: Int, control: GraphicsControlBlock?, globalTable: [UInt8]?,
        state: inout CompositingState
    ) throws -> DecodedGIF.Frame {
        let gif = reader.file
        let descriptor = gif.pointee.Image
        let rect = GIFRect(
            x: Int(descriptor.Left), y: Int(descriptor.Top), width: Int(descriptor.Width),
            height: Int(descriptor.Height))
        guard rect.width > 0, rect.height > 0, rect.x >= 0, rect.y >= 0,
            rect.x + rect.width <= state.canvas.width, rect.y + rect.height <= state.canvas.height
        else {
            throw EncodeError(
                "GIF frame \(number): \(rect.width)×\(rect.height) at (\(rect.x), \(rect.y)) "
                    + "is empty or outside the \(state.canvas.width)×\(state.canvas.height) screen")
        }
        let localTable = colorTable(descriptor.ColorMap)
        guard let table = localTable ?? globalTable else {
            throw EncodeError("GIF frame \(number) has no colour table")
        }

        var indices = [UInt8](repeating: 0, count: rect.width * rect.height)
        let rowOrder: [Int]
        if descriptor.Interlace {
            // GIF89a appendix E: passes start at rows 0, 4, 2, 1 with steps 8, 8, 4, 2.
            rowOrder = [(0, 8), (4, 8), (2, 4), (1, 2)].flatMap { start, step in
                Array(stride(from: start, to: rect.height, by: step))
            }
        } else {
            rowOrder = Array(0..<rect.height)
        }
        try indices.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            for row in rowOrder {
                try reader.check(
                    DGifGetLine(gif, base + row * rect.width, Int32(rect.width)), "DGifGetLine")
            }
        }

        let disposal = Int(control?.DisposalMode ?? 0)
        let transparent = control.flatMap { $0.TransparentColor >= 0 ? Int($0.TransparentColor) : nil }
        state.dispose()
        if disposal == 3 { state.savedCanvas = state.canvas }
        let entries = table.count / 3
        for row in 0..<rect.height {
            for column in 0..<rect.width {
                let index = Int(indices[row * rect.width + column])
                if index == transparent { continue }
                guard index < entries else {
                    throw EncodeError(
                        "GIF frame \(number): colour index \(index) is past its \(entries)-entry table")
                }
                let o = state.canvas.offset(x: rect.x + column, y: rect.y + row)
                state.canvas.pixels[o] = table[3 * index]
                state.canvas.pixels[o + 1] = table[3 * index + 1]
                state.canvas.pixels[o + 2] = table[3 * index + 2]
                state.canvas.pixels[o + 3] = 255
            }
        }
        state.pendingDisposal = disposal
        state.pendingRect = rect
        return DecodedGIF.Frame(
            canvas: state.canvas, delay: Int(control?.DelayTime ?? 0), disposal: disposal, rect: rect,
            transparentIndex: transparent, indices: indices, hasLocalColorTable: localTable != nil)
    }

    /// The extension's function code and its data sub-blocks (copied out of giflib's buffer).
    private static func readExtension(_ reader: GIFReader) throws -> (Int32, [[UInt8]]) {
        var code: Int32 = 0
        var data: UnsafeMutablePointer<GifByteType>?
        try reader.check(DGifGetExtension(reader.file, &code, &data), "DGifGetExtension")
        var blocks: [[UInt8]] = []
        while let block = data {
            // giflib's sub-block: a length byte, then that many bytes.
            blocks.append(Array(UnsafeBufferPointer(start: block + 1, count: Int(block[0]))))
            try reader.check(DGifGetExtensionNext(reader.file, &data), "DGifGetExtensionNext")
        }
        return (code, blocks)
    }

    /// The count of a `NETSCAPE2.0` / `ANIMEXTS1.0` looping block: sub-block `01 lo hi`.
    private static func netscapeLoopCount(_ blocks: [[UInt8]]) -> Int? {
        guard blocks.count >= 2 else { return nil }
        let identifier = blocks[0]
        guard identifier == Array("NETSCAPE2.0".utf8) || identifier == Array("ANIMEXTS1.0".utf8)
        else { return nil }
        let sub = blocks[1]
        guard sub.count >= 3, sub[0] == 1 else { return nil }
        return Int(sub[1]) | Int(sub[2]) << 8
    }

    /// RGB triples of a giflib colour map, or nil.
    private static func colorTable(_ map: UnsafeMutablePointer<ColorMapObject>?) -> [UInt8]? {
        guard let map, let colors = map.pointee.Colors, map.pointee.ColorCount > 0 else {
            return nil
        }
        var table: [UInt8] = []
        table.reserveCapacity(Int(map.pointee.ColorCount) * 3)
        for i in 0..<Int(map.pointee.ColorCount) {
            table.append(colors[i].Red)
            table.append(colors[i].Green)
            table.append(colors[i].Blue)
        }
        return table
    }
}
