// SPDX-License-Identifier: GPL-3.0-or-later

internal import CDeflate
public import Raster

/// A sprite sheet's PNG file and how it was stored.
public struct SheetPNGEncoding: Equatable, Sendable {
    /// The PNG file.
    public var bytes: [UInt8]
    /// Palette entries when the file is a palette PNG, nil for RGBA.
    public var paletteSize: Int?
    /// Whether libimagequant reduced the colours (lossy); false for RGBA and exact palettes.
    public var quantized: Bool

    /// A value with the given fields.
    public init(bytes: [UInt8], paletteSize: Int?, quantized: Bool) {
        self.bytes = bytes
        self.paletteSize = paletteSize
        self.quantized = quantized
    }
}

/// Writes sprite-sheet PNGs small and fast (measurements in docs/encoding.md):
///
/// - A sheet with at most 256 distinct RGBA values (loaders: one colour at many alphas) is
///   written as an exact palette PNG (lossless): 1 byte per pixel before compression instead
///   of 4, translucent entries first so the tRNS chunk is short.
/// - With `maximumColors` N and more colours than N, libimagequant reduces it to N colours
///   (no dithering, so equal cells stay equal) and the palette PNG is kept when it is smaller
///   than the RGBA one.
/// - Palette images use no row filter (filters only scramble indices); RGBA images use the
///   row filters (none, or libpng's adaptive choice) that compress better in a fast zlib level 1
///   trial on a sample of the rows (`sampleBands`).
/// - The scanlines are compressed by the project's own deflate (`DeflateParser` for the parse,
///   `DeflateRecoder` for blocks and Huffman codes), written for rows that are mostly runs of
///   transparent pixels: on the bundled presets' sheet pages at 1×–3× it is 1.6 % smaller than
///   zlib level 9 and about two and a half times faster (docs/encoding.md, "Sheet deflate"). The chunks
///   are written here, not by libpng.
public enum SheetPNGEncoder {
    /// Encodes a sheet image.
    /// - Parameters:
    ///   - image: straight alpha, at least 1×1.
    ///   - maximumColors: nil (exact palette only when it is lossless, else RGBA) or 2…256 to
    ///     allow a quantised palette.
    /// - Throws: `EncodeError` for a bad colour count or a libimagequant failure; `PNGCodec`'s
    ///   `CodecError` for libpng failures.
    public static func encode(_ image: RGBAImage, maximumColors: Int? = nil) throws -> SheetPNGEncoding {
        if let maximumColors, !(2...256).contains(maximumColors) {
            throw EncodeError("sheet colours must be 2…256, got \(maximumColors)")
        }
        guard image.width > 0, image.height > 0, image.width * image.height <= PNGCodec.maximumPixelCount,
            image.pixels.count == image.width * image.height * 4
        else {
            throw EncodeError("cannot write a \(image.width)×\(image.height) sheet PNG")
        }
        if let exact = exactPalette(image, limit: maximumColors ?? 256) {
            let bytes = indexedFile(
                width: image.width, height: image.height, indices: exact.indices, palette: exact.palette)
            return SheetPNGEncoding(bytes: bytes, paletteSize: exact.palette.count, quantized: false)
        }
        let rgba = rgbaFile(image, filtered: filteredRowsWin(image))
        guard let maximumColors else {
            return SheetPNGEncoding(bytes: rgba, paletteSize: nil, quantized: false)
        }
        let reduced = try ImageQuantizer.remap(
            pixels: image.pixels, width: image.width, height: image.height, maximumColors: maximumColors)
        let palette = reduced.palette.map { PNGPaletteEntry(red: $0.r, green: $0.g, blue: $0.b, alpha: $0.a) }
        let indexed = indexedFile(width: image.width, height: image.height, indices: reduced.indices, palette: palette)
        guard indexed.count < rgba.count else {
            return SheetPNGEncoding(bytes: rgba, paletteSize: nil, quantized: false)
        }
        return SheetPNGEncoding(bytes: indexed, paletteSize: palette.count, quantized: true)
    }

    // MARK: - The file (PNG specification §5, §11)

    /// An RGBA8 PNG (colour type 6) of `image`, its rows unfiltered or each filtered by
    /// `PNGRowFilter`'s least-sum rule (the same choice libpng's adaptive filtering makes).
    /// The scanlines are built and compressed a piece at a time (`DeflateParser.pieceSize`).
    static func rgbaFile(_ image: RGBAImage, filtered: Bool) -> [UInt8] {
        let rowBytes = image.width * 4
        let stride = rowBytes + 1
        let rowsPerPiece = max(1, DeflateParser.pieceSize / stride)
        var y = 0
        let stream = DeflateParser.zlib {
            guard y < image.height else { return nil }
            // A filtered piece starts one row early: the filters predict from the row above.
            let first = filtered ? max(0, y - 1) : y
            let end = min(image.height, y + rowsPerPiece)
            var piece = [UInt8](repeating: 0, count: (end - first) * stride)
            image.pixels.withUnsafeBufferPointer { pixels in
                piece.withUnsafeMutableBufferPointer { out in
                    guard let source = pixels.baseAddress, let target = out.baseAddress else { return }
                    for row in first..<end {
                        (target + (row - first) * stride + 1).update(from: source + row * rowBytes, count: rowBytes)
                    }
                }
            }
            if filtered {
                piece = PNGRowFilter.filter(piece, rowBytes: rowBytes, bpp: 4, heuristic: .minimumSum)
                if first < y { piece.removeFirst(stride) }
            }
            y = end
            return piece
        }
        return file(width: image.width, height: image.height, bitDepth: 8, colorType: 6, palette: [], stream: stream)
    }

    /// A palette PNG (colour type 3) with unfiltered rows: `indices` row-major, one per pixel,
    /// each below `palette.count` (1…256), packed to 1, 2 or 4 bits per pixel when the palette
    /// is that small (§7.2: leftmost pixel in the high bits).
    static func indexedFile(width: Int, height: Int, indices: [UInt8], palette: [PNGPaletteEntry]) -> [UInt8] {
        let depth = palette.count <= 2 ? 1 : palette.count <= 4 ? 2 : palette.count <= 16 ? 4 : 8
        let perByte = 8 / depth
        let rowBytes = (width + perByte - 1) / perByte
        let stride = rowBytes + 1
        let rowsPerPiece = max(1, DeflateParser.pieceSize / stride)
        var y = 0
        let stream = DeflateParser.zlib {
            guard y < height else { return nil }
            let end = min(height, y + rowsPerPiece)
            var piece = [UInt8](repeating: 0, count: (end - y) * stride)
            indices.withUnsafeBufferPointer { indices in
                piece.withUnsafeMutableBufferPointer { out in
                    for row in y..<end {
                        let line = (row - y) * stride + 1
                        let pixels = row * width
                        if depth == 8 {
                            for x in 0..<width { out[line + x] = indices[pixels + x] }
                            continue
                        }
                        for x in 0..<width {
                            let shift = 8 - depth * (x % perByte + 1)
                            out[line + x / perByte] |= indices[pixels + x] << UInt8(shift)
                        }
                    }
                }
            }
            y = end
            return piece
        }
        return file(width: width, height: height, bitDepth: depth, colorType: 3, palette: palette, stream: stream)
    }

    /// The PNG file: signature, IHDR (§11.2.2), PLTE and a tRNS cut after the last entry that is
    /// not opaque (§11.2.3, §11.3.2.1) for a palette, the zlib `stream` of the scanlines in
    /// IDAT chunks of at most `PNGChunks.maximumChunkLength`, IEND.
    static func file(
        width: Int, height: Int, bitDepth: Int, colorType: UInt8, palette: [PNGPaletteEntry], stream: [UInt8]
    ) -> [UInt8] {
        var out = PNGChunks.signature
        out.reserveCapacity(stream.count + 3 * palette.count + 256)
        var header: [UInt8] = []
        PNGChunks.appendUInt32(UInt32(width), to: &header)
        PNGChunks.appendUInt32(UInt32(height), to: &header)
        header += [UInt8(bitDepth), colorType, 0, 0, 0]
        PNGChunks.append("IHDR", header, to: &out)
        if !palette.isEmpty {
            PNGChunks.append("PLTE", palette.flatMap { [$0.red, $0.green, $0.blue] }, to: &out)
            let translucent = palette.lastIndex { $0.alpha != 255 }.map { $0 + 1 } ?? 0
            if translucent > 0 { PNGChunks.append("tRNS", palette.prefix(translucent).map(\.alpha), to: &out) }
        }
        var offset = 0
        repeat {
            let end = min(stream.count, offset + PNGChunks.maximumChunkLength)
            PNGChunks.append("IDAT", Array(stream[offset..<end]), to: &out)
            offset = end
        } while offset < stream.count
        PNGChunks.append("IEND", [], to: &out)
        return out
    }

    /// Rows per sampled band in the filter trial.
    static let sampleBandRows = 16
    /// One band of `sampleBandRows` is sampled in every this many rows (1/8 of the image).
    static let sampleBandSpacing = 128

    /// The row ranges the filter trial compresses: the whole image when it has at most
    /// `2 · sampleBandSpacing` rows, else bands of `sampleBandRows` rows every
    /// `sampleBandSpacing` rows, centred in their stretch (so the top and bottom padding of a
    /// sheet are not all that is seen).
    static func sampleBands(height: Int) -> [Range<Int>] {
        guard height > 2 * sampleBandSpacing else { return [0..<height] }
        let offset = (sampleBandSpacing - sampleBandRows) / 2
        return stride(from: 0, to: height, by: sampleBandSpacing).compactMap { start in
            let lower = start + offset
            let upper = min(height, lower + sampleBandRows)
            return lower < upper ? lower..<upper : nil
        }
    }

    /// Whether libpng's adaptive row filters compress the image better than no filter, judged
    /// on `sampleBands`: each band's rows are filtered both ways (the adaptive way by the same
    /// least-sum-of-|signed byte| rule libpng uses, `PNGRowFilter`, each band's first row
    /// filtered against the real row above it) and both samples go through zlib level 1, the
    /// smaller winning (ties: no filter).
    ///
    /// This replaced two whole-image libpng + zlib level 1 trials, which cost about a quarter
    /// of a GIF + sheet batch's CPU (docs/encoding.md, "Batch throughput"); on the bundled
    /// presets at 1×–3× both choose no filter on every RGBA page (the whole-image trial by
    /// 3–24 %), so the files did not change.
    static func filteredRowsWin(_ image: RGBAImage) -> Bool {
        let rowBytes = image.width * 4
        let stride = rowBytes + 1
        let bands = sampleBands(height: image.height)
        var plain: [UInt8] = []
        var filtered: [UInt8] = []
        for band in bands {
            // Scanlines with a 0 filter byte, starting one row above the band when there is one.
            let first = max(0, band.lowerBound - 1)
            var raw = [UInt8](repeating: 0, count: (band.upperBound - first) * stride)
            image.pixels.withUnsafeBufferPointer { pixels in
                raw.withUnsafeMutableBufferPointer { out in
                    guard let source = pixels.baseAddress, let target = out.baseAddress else { return }
                    for (k, y) in (first..<band.upperBound).enumerated() {
                        (target + k * stride + 1).update(from: source + y * rowBytes, count: rowBytes)
                    }
                }
            }
            let adaptive = PNGRowFilter.filter(raw, rowBytes: rowBytes, bpp: 4, heuristic: .minimumSum)
            let skip = (band.lowerBound - first) * stride
            plain.append(contentsOf: raw[skip...])
            filtered.append(contentsOf: adaptive[skip...])
        }
        guard let plainSize = zlibLevel1Size(plain), let filteredSize = zlibLevel1Size(filtered) else {
            return false
        }
        return filteredSize < plainSize
    }

    /// Length of `data`'s zlib level 1 stream (default strategy), nil when zlib fails.
    static func zlibLevel1Size(_ data: [UInt8]) -> Int? {
        let capacity = aex_deflate_zlib_bound(data.count)
        var output = [UInt8](repeating: 0, count: capacity)
        let written = data.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                aex_zlib_compress(1, Z_DEFAULT_STRATEGY, input.baseAddress, input.count, out.baseAddress, capacity)
            }
        }
        return written > 0 ? written : nil
    }

    /// The image's RGBA values (translucent ones first, each group in order of first
    /// appearance) and every pixel's index, or nil when there are more than `limit`.
    static func exactPalette(_ image: RGBAImage, limit: Int) -> (palette: [PNGPaletteEntry], indices: [UInt8])? {
        var table = ColorIndexTable(minimumCapacity: 512)
        var colors: [UInt32] = []
        let count = image.width * image.height
        // `UInt32.max` (opaque white) cannot be a table key; it gets its own slot.
        var whiteSlot: Int32 = -1
        var last: UInt32 = 0
        var lastSlot: Int32 = -1
        var fits = true
        // Each pixel's slot (< limit ≤ 256, so one byte), written as the scan goes: most RGBA
        // pages leave after a few rows, and a buffer cleared up front was 4 bytes a pixel of
        // page faults (64 MiB for a 4096² page) whatever the outcome.
        var indices = [UInt8](unsafeUninitializedCapacity: count) { slots, initialized in
            image.pixels.withUnsafeBufferPointer { p in
                for i in 0..<count {
                    let key =
                        UInt32(p[4 * i]) << 24 | UInt32(p[4 * i + 1]) << 16 | UInt32(p[4 * i + 2]) << 8
                        | UInt32(p[4 * i + 3])
                    if key != last || lastSlot < 0 {
                        if key == UInt32.max {
                            if whiteSlot < 0 {
                                whiteSlot = Int32(colors.count)
                                colors.append(key)
                            }
                            lastSlot = whiteSlot
                        } else {
                            let (slot, inserted) = table.findOrInsert(key, newValue: Int32(colors.count))
                            if inserted { colors.append(key) }
                            lastSlot = slot
                        }
                        last = key
                        if colors.count > limit {
                            fits = false
                            initialized = i
                            return
                        }
                    }
                    slots[i] = UInt8(truncatingIfNeeded: lastSlot)
                }
                initialized = count
            }
        }
        guard fits else { return nil }
        // Translucent entries first: tRNS then stops at the last of them.
        let order =
            colors.indices.filter { colors[$0] & 0xFF != 0xFF } + colors.indices.filter { colors[$0] & 0xFF == 0xFF }
        var position = [UInt8](repeating: 0, count: colors.count)
        for (k, original) in order.enumerated() { position[original] = UInt8(k) }
        let palette = order.map { i -> PNGPaletteEntry in
            let c = colors[i]
            return PNGPaletteEntry(
                red: UInt8(truncatingIfNeeded: c >> 24), green: UInt8(truncatingIfNeeded: c >> 16),
                blue: UInt8(truncatingIfNeeded: c >> 8), alpha: UInt8(truncatingIfNeeded: c))
        }
        indices.withUnsafeMutableBufferPointer { slots in
            for i in slots.indices { slots[i] = position[Int(slots[i])] }
        }
        return (palette, indices)
    }
}
