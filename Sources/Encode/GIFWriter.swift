// SPDX-License-Identifier: GPL-3.0-or-later

internal import CGif

/// Writes a `GIFFramePlan` through giflib's sequential encoder into memory
/// (`EGifOpen` with an output callback; no temporary files).
///
/// Write order (semantics.md §8.6): `EGifSetGifVersion(gif89)`, `EGifPutScreenDesc` with the
/// global colour table, the NETSCAPE2.0 block, then per frame a Graphic Control Extension,
/// `EGifPutImageDesc` (with a local colour table when the plan has one) and the frame's
/// LZW stream, already compressed by `LZWEncoder`, through `EGifPutCode`/`EGifPutCodeNext`
/// in sub-blocks of at most 255 bytes, and `EGifCloseFile` (the trailer).
final class GIFWriter {
    /// Collects the bytes giflib hands to the output callback.
    private final class Sink {
        var bytes: [UInt8] = []
    }

    private let sink = Sink()
    /// The open encoder; nil once closed.
    private var file: UnsafeMutablePointer<GifFileType>?

    /// The complete file for `plan`.
    /// - Throws: `EncodeError` naming the giflib call that failed, or an inconsistent plan.
    static func write(_ plan: GIFFramePlan) throws -> [UInt8] {
        let writer = try GIFWriter()
        try writer.putScreen(
            width: plan.width, height: plan.height, colorTable: plan.colorTable,
            backgroundIndex: plan.backgroundIndex)
        if let count = plan.loopCount {
            try writer.putLoopBlock(count: count)
        }
        for (number, frame) in plan.frames.enumerated() {
            try writer.putFrame(frame, number: number)
        }
        return try writer.close()
    }

    private init() throws {
        var error: Int32 = 0
        let opened = EGifOpen(
            Unmanaged.passUnretained(sink).toOpaque(),
            { gif, data, length in
                guard let gif, let user = gif.pointee.UserData else { return 0 }
                guard let data, length > 0 else { return 0 }
                let sink = Unmanaged<Sink>.fromOpaque(user).takeUnretainedValue()
                sink.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
                return length
            }, &error)
        guard let opened else { throw EncodeError.giflib("EGifOpen", code: error) }
        file = opened
        EGifSetGifVersion(opened, true)
    }

    deinit {
        if let file { _ = EGifCloseFile(file, nil) }
    }

    private func openFile() throws -> UnsafeMutablePointer<GifFileType> {
        guard let file else { throw EncodeError("GIF writer used after close") }
        return file
    }

    private func check(_ status: Int32, _ function: String) throws {
        guard status != GIF_OK else { return }
        throw EncodeError.giflib(function, code: file?.pointee.Error ?? 0)
    }

    private func putScreen(width: Int, height: Int, colorTable: [UInt8], backgroundIndex: Int)
        throws
    {
        let gif = try openFile()
        guard (1...65535).contains(width), (1...65535).contains(height) else {
            throw EncodeError("GIF canvas \(width)×\(height) is outside 1…65535 pixels per side")
        }
        let entries = colorTable.count / 3
        guard (0..<entries).contains(backgroundIndex) else {
            throw EncodeError("GIF background index \(backgroundIndex) is outside the \(entries)-entry table")
        }
        let map = try Self.makeMap(colorTable)
        defer { GifFreeMapObject(map) }
        try check(
            EGifPutScreenDesc(gif, Int32(width), Int32(height), 8, Int32(backgroundIndex), map),
            "EGifPutScreenDesc")
    }

    /// `21 FF 0B "NETSCAPE2.0" 03 01 <count lo> <count hi> 00` (semantics.md §8.3).
    private func putLoopBlock(count: Int) throws {
        let gif = try openFile()
        guard (0...65535).contains(count) else {
            throw EncodeError("NETSCAPE2.0 loop count \(count) is outside 0…65535")
        }
        let identifier = Array("NETSCAPE2.0".utf8)
        let subBlock: [UInt8] = [1, UInt8(count & 0xFF), UInt8(count >> 8)]
        try check(EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE), "EGifPutExtensionLeader")
        try check(
            EGifPutExtensionBlock(gif, Int32(identifier.count), identifier), "EGifPutExtensionBlock")
        try check(
            EGifPutExtensionBlock(gif, Int32(subBlock.count), subBlock), "EGifPutExtensionBlock")
        try check(EGifPutExtensionTrailer(gif), "EGifPutExtensionTrailer")
    }

    private func putFrame(_ frame: GIFFramePlan.Frame, number: Int) throws {
        let gif = try openFile()
        let rect = frame.rect
        guard rect.width > 0, rect.height > 0, rect.x >= 0, rect.y >= 0,
            rect.x + rect.width <= Int(gif.pointee.SWidth),
            rect.y + rect.height <= Int(gif.pointee.SHeight)
        else {
            throw EncodeError(
                "GIF frame \(number): rectangle \(rect.width)×\(rect.height) at (\(rect.x), \(rect.y)) "
                    + "does not fit the canvas")
        }
        guard (0...65535).contains(frame.delay), (0...3).contains(frame.disposal) else {
            throw EncodeError(
                "GIF frame \(number): delay \(frame.delay) cs or disposal \(frame.disposal) out of range")
        }

        var control = GraphicsControlBlock(
            DisposalMode: Int32(frame.disposal), UserInputFlag: false, DelayTime: Int32(frame.delay),
            TransparentColor: Int32(frame.transparentIndex ?? Int(NO_TRANSPARENT_COLOR)))
        var extensionBytes = [UInt8](repeating: 0, count: 4)
        let length = EGifGCBToExtension(&control, &extensionBytes)
        try check(
            EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, Int32(length), extensionBytes),
            "EGifPutExtension")
        let localMap = try frame.localColorTable.map { try Self.makeMap($0) }
        defer { if let localMap { GifFreeMapObject(localMap) } }
        // giflib writes the LZW minimum code size byte inside EGifPutImageDesc, from the
        // `BitsPerPixel` of the table in force (at least 2). A local table is written at that
        // size, so its code size is its own. Without one, the global table already went out
        // with the screen descriptor, and a frame whose indices all fit fewer bits may use a
        // smaller code size (GIF89a §22 and appendix F: the code size is the image's, not the
        // table's); the global map's `BitsPerPixel` is lowered only for this call.
        let tableMap = localMap ?? gif.pointee.SColorMap
        let tableBits = Int(tableMap?.pointee.BitsPerPixel ?? 0)
        guard (2...max(2, tableBits)).contains(frame.minimumCodeSize),
            localMap == nil || max(2, tableBits) == frame.minimumCodeSize
        else {
            throw EncodeError(
                "GIF frame \(number): LZW code size \(frame.minimumCodeSize) does not fit its "
                    + "\(tableBits)-bit colour table")
        }
        if localMap == nil, let global = gif.pointee.SColorMap {
            global.pointee.BitsPerPixel = Int32(frame.minimumCodeSize)
        }
        let described = EGifPutImageDesc(
            gif, Int32(rect.x), Int32(rect.y), Int32(rect.width), Int32(rect.height), false, localMap)
        if localMap == nil, let global = gif.pointee.SColorMap { global.pointee.BitsPerPixel = Int32(tableBits) }
        try check(described, "EGifPutImageDesc")
        // The compressed stream in data sub-blocks of at most 255 bytes, then the terminator.
        var block = [UInt8](repeating: 0, count: 256)
        var start = 0
        while start < frame.imageData.count {
            let count = min(255, frame.imageData.count - start)
            block[0] = UInt8(count)
            for i in 0..<count { block[1 + i] = frame.imageData[start + i] }
            let status =
                start == 0
                ? EGifPutCode(gif, Int32(frame.minimumCodeSize), block)
                : EGifPutCodeNext(gif, block)
            try check(status, start == 0 ? "EGifPutCode" : "EGifPutCodeNext")
            start += count
        }
        try check(EGifPutCodeNext(gif, nil), "EGifPutCodeNext")
    }

    /// A giflib colour map for RGB triples (2…256 entries, a power of two); free it with
    /// `GifFreeMapObject`.
    private static func makeMap(_ table: [UInt8]) throws -> UnsafeMutablePointer<ColorMapObject> {
        let entries = table.count / 3
        guard table.count % 3 == 0, [2, 4, 8, 16, 32, 64, 128, 256].contains(entries) else {
            throw EncodeError("GIF colour table of \(entries) entries is not a power of two 2…256")
        }
        let colors = stride(from: 0, to: table.count, by: 3).map {
            GifColorType(Red: table[$0], Green: table[$0 + 1], Blue: table[$0 + 2])
        }
        guard let map = GifMakeMapObject(Int32(entries), colors) else {
            throw EncodeError("giflib GifMakeMapObject: could not make a \(entries)-entry colour map")
        }
        return map
    }

    /// Writes the trailer and frees the encoder; returns the file.
    private func close() throws -> [UInt8] {
        let gif = try openFile()
        file = nil
        var error: Int32 = 0
        guard EGifCloseFile(gif, &error) == GIF_OK else {
            throw EncodeError.giflib("EGifCloseFile", code: error)
        }
        return sink.bytes
    }
}
