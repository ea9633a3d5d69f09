// SPDX-License-Identifier: GPL-3.0-or-later

internal import CDeflate

/// The common PNG, decoded without libpng: 8-bit samples, not interlaced, every chunk well
/// formed. The zlib stream is inflated by libdeflate (its Adler-32 checked) and every chunk's
/// CRC-32 by libdeflate's CRC; the project does the rest, the row filters and the expansion to
/// RGBA8 (PNG specification, https://www.w3.org/TR/png/ §§ 7.3, 9.2, 11.2–11.3).
///
/// `PNGCodec.decode` tries this first and hands every file it declines to libpng, so libpng
/// still decides about everything unusual and writes every error message: this decoder only
/// accepts files on which libpng, with `PNGCodec`'s transforms (`png_set_expand`, grey to RGB,
/// alpha filler 255), gives no warning and no error, and for those it gives the same pixels.
/// Tested against libpng on every colour type, filter type and tRNS form it accepts.
///
/// Why: decoding 60 frames of loading-dots (176×56) took 4.5 ms through libpng and zlib (inflate
/// and Adler-32 were a quarter of `animexport assemble`'s CPU time) and 1.8 ms this way;
/// circular-progress's 180 frames 74 → 22 ms (docs/encoding.md, "Round 19").
enum PNGDirectDecoder {
    /// `bytes` as straight RGBA8, or nil for a file this decoder leaves to libpng.
    ///
    /// Declined: bit depths other than 8, Adam7 interlacing, an image over `maximumPixelCount`
    /// pixels or a side over 1 000 000 (libpng's default user limit); any chunk failing its
    /// CRC, cut short or with a name that is not four ASCII letters; an unknown critical chunk;
    /// PLTE or tRNS repeated, out of order, on a colour type that cannot have it, or of a
    /// length or value libpng would warn about; IDAT chunks not in one run; bytes after IEND or
    /// no IEND; a zlib stream that is not valid or does not end exactly at the end of the data
    /// with exactly the rows' bytes; a filter type above 4; a palette index past the palette.
    static func decode(_ bytes: [UInt8], maximumPixelCount: Int) -> RGBAImage? {
        bytes.withUnsafeBufferPointer { file in
            guard let layout = Layout(file), layout.width * layout.height <= maximumPixelCount else { return nil }
            return pixels(file, layout)
        }
    }

    /// The chunk-level facts `decode` needs, read and checked in one pass over the file.
    private struct Layout {
        var width = 0
        var height = 0
        /// PNG colour type: 0 grey, 2 RGB, 3 palette, 4 grey + alpha, 6 RGBA.
        var colorType: UInt8 = 0
        /// The PLTE chunk's data, 3 bytes an entry.
        var palette: Range<Int>?
        /// The tRNS chunk's data.
        var transparency: Range<Int>?
        /// Every IDAT chunk's data, in file order.
        var data: [Range<Int>] = []

        /// Samples a pixel: 1, 2, 3 or 4 bytes at 8 bits.
        var channels: Int {
            switch colorType {
            case 2: 3
            case 4: 2
            case 6: 4
            default: 1
            }
        }

        init?(_ file: UnsafeBufferPointer<UInt8>) {
            let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            guard let base = file.baseAddress, file.count >= 8,
                signature.indices.allSatisfy({ file[$0] == signature[$0] })
            else { return nil }
            func word(_ i: Int) -> Int {
                Int(file[i]) << 24 | Int(file[i + 1]) << 16 | Int(file[i + 2]) << 8 | Int(file[i + 3])
            }
            var offset = 8
            var sawHeader = false
            var dataClosed = false
            while true {
                guard file.count - offset >= 12 else { return nil }
                let length = word(offset)
                // §5.3: lengths are at most 2^31 − 1; the chunk and its CRC must be in the file.
                guard length <= 0x7FFF_FFFF, file.count - offset - 12 >= length else { return nil }
                let name = offset + 4
                let start = offset + 8
                let end = start + length
                // §5.3: a chunk name is four ASCII letters.
                guard (name..<start).allSatisfy({ (0x61...0x7A).contains(file[$0] | 0x20) }),
                    aex_crc32(base + name, length + 4) == UInt32(word(end))
                else { return nil }
                offset = end + 4
                let type = word(name)
                if !sawHeader {
                    guard type == Self.IHDR, length == 13, readHeader(file, at: start) else { return nil }
                    sawHeader = true
                    continue
                }
                if !data.isEmpty, type != Self.IDAT { dataClosed = true }
                switch type {
                case Self.IDAT:
                    guard !dataClosed else { return nil }
                    data.append(start..<end)
                case Self.PLTE:
                    // §11.2.3: before IDAT and tRNS, once, 1…256 entries, only for colour types 2, 3, 6.
                    guard palette == nil, transparency == nil, data.isEmpty, length > 0, length % 3 == 0,
                        length <= 768, [2, 3, 6].contains(colorType)
                    else { return nil }
                    palette = start..<end
                case Self.tRNS:
                    // §11.3.2.1: before IDAT, after PLTE, once; one 16-bit sample a channel (here
                    // at most 255, an 8-bit image's range) or at most one alpha a palette entry.
                    guard transparency == nil, data.isEmpty else { return nil }
                    switch colorType {
                    case 0, 2:
                        guard length == (colorType == 0 ? 2 : 6),
                            stride(from: start, to: end, by: 2).allSatisfy({ file[$0] == 0 })
                        else { return nil }
                    case 3:
                        guard let palette, length >= 1, length <= palette.count / 3 else { return nil }
                    default:
                        return nil
                    }
                    transparency = start..<end
                case Self.IEND:
                    guard length == 0, !data.isEmpty, offset == file.count,
                        colorType != 3 || palette != nil
                    else { return nil }
                    return
                case Self.IHDR:
                    return nil
                default:
                    // §5.4: bit 5 of the first byte clear marks a critical chunk, which a decoder
                    // must understand.
                    guard file[name] & 0x20 != 0 else { return nil }
                }
            }
        }

        /// Reads IHDR's 13 bytes at `start`; false for anything this decoder leaves to libpng.
        private mutating func readHeader(_ file: UnsafeBufferPointer<UInt8>, at start: Int) -> Bool {
            func word(_ i: Int) -> Int {
                Int(file[i]) << 24 | Int(file[i + 1]) << 16 | Int(file[i + 2]) << 8 | Int(file[i + 3])
            }
            width = word(start)
            height = word(start + 4)
            colorType = file[start + 9]
            // Bit depth 8; compression, filter method 0; interlace 0 (§11.2.2).
            return (1...1_000_000).contains(width) && (1...1_000_000).contains(height) && file[start + 8] == 8
                && [0, 2, 3, 4, 6].contains(colorType) && file[start + 10] == 0 && file[start + 11] == 0
                && file[start + 12] == 0
        }

        private static let IHDR = 0x4948_4452
        private static let PLTE = 0x504C_5445
        private static let IDAT = 0x4944_4154
        private static let IEND = 0x4945_4E44
        private static let tRNS = 0x7452_4E53
    }

    /// Inflates, unfilters and expands the image `layout` describes.
    private static func pixels(_ file: UnsafeBufferPointer<UInt8>, _ layout: Layout) -> RGBAImage? {
        guard let base = file.baseAddress else { return nil }
        let width = layout.width
        let height = layout.height
        let channels = layout.channels
        let rowBytes = width * channels
        let filtered = height * (rowBytes + 1)
        let outputCount = width * height * 4

        /// Inflates the IDAT data into `target` (`filtered` bytes); false for a bad stream.
        func inflate(into target: UnsafeMutablePointer<UInt8>) -> Bool {
            if layout.data.count == 1, let only = layout.data.first {
                return aex_inflate_zlib_exact(base + only.lowerBound, only.count, target, filtered) == 1
            }
            var stream = [UInt8]()
            stream.reserveCapacity(layout.data.reduce(0) { $0 + $1.count })
            for range in layout.data { stream.append(contentsOf: UnsafeBufferPointer(rebasing: file[range])) }
            return stream.withUnsafeBufferPointer { joined in
                aex_inflate_zlib_exact(joined.baseAddress, joined.count, target, filtered) == 1
            }
        }

        if layout.colorType == 6 {
            // RGBA8: inflate into the output itself (h bytes larger for the filter bytes) and
            // unfilter each row down into its final place, so memory holds the image once.
            var valid = false
            let pixels = [UInt8](unsafeUninitializedCapacity: outputCount + height) { buffer, initialized in
                initialized = 0
                guard let out = buffer.baseAddress, inflate(into: out) else { return }
                for y in 0..<height {
                    let source = out + y * (rowBytes + 1)
                    let row = out + y * rowBytes
                    guard
                        unfilter(
                            source.pointee, source: source + 1, into: row, above: y == 0 ? nil : row - rowBytes,
                            count: rowBytes, bytesPerPixel: 4)
                    else { return }
                }
                initialized = outputCount
                valid = true
            }
            return valid ? RGBAImage(width: width, height: height, pixels: pixels) : nil
        }

        let raw = UnsafeMutablePointer<UInt8>.allocate(capacity: filtered)
        defer { raw.deallocate() }
        guard inflate(into: raw) else { return nil }
        for y in 0..<height {
            let row = raw + y * (rowBytes + 1)
            guard
                unfilter(
                    row.pointee, source: row + 1, into: row + 1, above: y == 0 ? nil : row + 1 - (rowBytes + 1),
                    count: rowBytes, bytesPerPixel: channels)
            else { return nil }
        }
        var valid = false
        let pixels = [UInt8](unsafeUninitializedCapacity: outputCount) { buffer, initialized in
            initialized = 0
            guard let out = buffer.baseAddress else { return }
            valid = expand(raw, layout: layout, file: file, into: out)
            if valid { initialized = outputCount }
        }
        return valid ? RGBAImage(width: width, height: height, pixels: pixels) : nil
    }

    /// Writes grey, grey + alpha, RGB or palette rows (unfiltered, each after its filter byte
    /// in `raw`) to `out` as RGBA8, as libpng's `png_set_expand`, `png_set_gray_to_rgb` and
    /// `png_set_add_alpha(0xff)` do: a tRNS sample makes exactly the pixels equal to it
    /// transparent; palette entries past tRNS are opaque. False for a palette index past the
    /// palette.
    private static func expand(
        _ raw: UnsafeMutablePointer<UInt8>, layout: Layout, file: UnsafeBufferPointer<UInt8>,
        into out: UnsafeMutablePointer<UInt8>
    ) -> Bool {
        let width = layout.width
        let key = layout.transparency.map { range in
            stride(from: range.lowerBound + 1, to: range.upperBound, by: 2).map { file[$0] }
        }
        var target = out
        switch layout.colorType {
        case 3:
            guard let palette = layout.palette else { return false }
            let entries = palette.count / 3
            // Each entry as RGBA bytes; entries past the palette stay nil.
            var table = [(UInt8, UInt8, UInt8, UInt8)?](repeating: nil, count: 256)
            for i in 0..<entries {
                let p = palette.lowerBound + 3 * i
                var alpha: UInt8 = 255
                if let transparency = layout.transparency, i < transparency.count {
                    alpha = file[transparency.lowerBound + i]
                }
                table[i] = (file[p], file[p + 1], file[p + 2], alpha)
            }
            for y in 0..<layout.height {
                let row = raw + y * (width + 1) + 1
                for x in 0..<width {
                    guard let (r, g, b, a) = table[Int(row[x])] else { return false }
                    target[0] = r
                    target[1] = g
                    target[2] = b
                    target[3] = a
                    target += 4
                }
            }
        case 0:
            let transparent = key?[0]
            for y in 0..<layout.height {
                let row = raw + y * (width + 1) + 1
                for x in 0..<width {
                    let v = row[x]
                    target[0] = v
                    target[1] = v
                    target[2] = v
                    target[3] = v == transparent ? 0 : 255
                    target += 4
                }
            }
        case 4:
            for y in 0..<layout.height {
                let row = raw + y * (2 * width + 1) + 1
                for x in 0..<width {
                    let v = row[2 * x]
                    target[0] = v
                    target[1] = v
                    target[2] = v
                    target[3] = row[2 * x + 1]
                    target += 4
                }
            }
        default:  // 2, RGB
            let keyed = key != nil
            let (kr, kg, kb) = key.map { ($0[0], $0[1], $0[2]) } ?? (0, 0, 0)
            for y in 0..<layout.height {
                let row = raw + y * (3 * width + 1) + 1
                for x in 0..<width {
                    let r = row[3 * x]
                    let g = row[3 * x + 1]
                    let b = row[3 * x + 2]
                    target[0] = r
                    target[1] = g
                    target[2] = b
                    target[3] = keyed && r == kr && g == kg && b == kb ? 0 : 255
                    target += 4
                }
            }
        }
        return true
    }

    /// Reverses one row's filter (PNG §9.2: None, Sub, Up, Average, Paeth) from `source` into
    /// `row`, `count` bytes, with `above` the previous row already unfiltered (nil for the first
    /// row: zeros). `row` may be `source` or start before it in the same buffer: each byte is
    /// read before any write reaches it. False for a filter type above 4.
    @inline(__always)
    private static func unfilter(
        _ filter: UInt8, source: UnsafeMutablePointer<UInt8>, into row: UnsafeMutablePointer<UInt8>,
        above: UnsafeMutablePointer<UInt8>?, count: Int, bytesPerPixel bpp: Int
    ) -> Bool {
        switch (filter, above) {
        case (0, _), (2, nil):
            if row != source { UnsafeMutableRawPointer(row).copyMemory(from: source, byteCount: count) }
        case (1, _), (4, nil):
            // Paeth with the row above all zero predicts the left byte, as Sub does.
            for x in 0..<min(bpp, count) { row[x] = source[x] }
            var x = bpp
            while x < count {
                row[x] = source[x] &+ row[x - bpp]
                x += 1
            }
        case (2, let above?):
            // Up is most rows of the presets' frames (6 232 of 14 640 on flipping-square; 6 809
            // None): 16 bytes at a time. Each block is loaded before it is stored, so a `row`
            // before `source` in the same buffer only overwrites bytes already read.
            var x = 0
            while x + 16 <= count {
                let left = UnsafeRawPointer(source + x).loadUnaligned(as: SIMD16<UInt8>.self)
                let up = UnsafeRawPointer(above + x).loadUnaligned(as: SIMD16<UInt8>.self)
                UnsafeMutableRawPointer(row + x).storeBytes(of: left &+ up, as: SIMD16<UInt8>.self)
                x += 16
            }
            while x < count {
                row[x] = source[x] &+ above[x]
                x += 1
            }
        case (3, nil):
            for x in 0..<min(bpp, count) { row[x] = source[x] }
            var x = bpp
            while x < count {
                row[x] = source[x] &+ row[x - bpp] >> 1
                x += 1
            }
        case (3, let above?):
            for x in 0..<min(bpp, count) { row[x] = source[x] &+ above[x] >> 1 }
            var x = bpp
            while x < count {
                row[x] = source[x] &+ UInt8(truncatingIfNeeded: (Int(row[x - bpp]) + Int(above[x])) >> 1)
                x += 1
            }
        case (4, let above?):
            // Left byte 0 and upper-left 0 on the first pixel: the predictor is the byte above.
            for x in 0..<min(bpp, count) { row[x] = source[x] &+ above[x] }
            var x = bpp
            while x < count {
                let a = Int(row[x - bpp])
                let b = Int(above[x])
                let c = Int(above[x - bpp])
                let pa = abs(b - c)
                let pb = abs(a - c)
                let pc = abs(a + b - 2 * c)
                let predictor = pa <= pb && pa <= pc ? a : pb <= pc ? b : c
                row[x] = source[x] &+ UInt8(truncatingIfNeeded: predictor)
                x += 1
            }
        default:
            return false
        }
        return true
    }
}
