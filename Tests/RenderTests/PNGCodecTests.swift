// SPDX-License-Identifier: GPL-3.0-or-later

import Testing

@testable import Raster
@testable import Render

// MARK: - Fixtures

/// A deterministic RGBA image with every kind of alpha (0, partial, 255) and colours that
/// change straight-alpha values under premultiplication, so any lossy step would show.
private func patternImage(width: Int, height: Int) -> RGBAImage {
    var state: UInt32 = 12345
    var bytes: [UInt8] = []
    for _ in 0..<(width * height) {
        for _ in 0..<4 {
            state = state &* 1_103_515_245 &+ 12345  // LCG (glibc constants)
            bytes.append(UInt8(truncatingIfNeeded: state >> 16))
        }
    }
    return RGBAImage(width: width, height: height, pixels: bytes) ?? RGBAImage(width: 0, height: 0)
}

/// A minimal PNG writer for test input libpng's writer cannot produce (other colour types, bit
/// depths, tRNS, Adam7): the row filter `filter(y)` (PNG §9.2; 0 by default; a value above 4
/// writes the row unfiltered under that invalid type), zlib stored blocks, IDAT chunks of at
/// most `idatSize` bytes, CRC-32 and Adler-32 per RFC 2083 / RFC 1950.
private enum TestPNG {
    static func file(
        width: Int, height: Int, bitDepth: UInt8, colorType: UInt8, interlaced: Bool = false,
        palette: [UInt8]? = nil, transparency: [UInt8]? = nil, filter: (Int) -> UInt8 = { _ in 0 },
        idatSize: Int = Int.max, rows: (_ pass: [(Int, Int)]) -> [[UInt8]]
    ) -> [UInt8] {
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var header = be32(width) + be32(height)
        header += [bitDepth, colorType, 0, 0, interlaced ? 1 : 0]
        out += chunk("IHDR", header)
        if let palette { out += chunk("PLTE", palette) }
        if let transparency { out += chunk("tRNS", transparency) }
        var raw: [UInt8] = []
        let passes: [(Int, Int, Int, Int)] =
            interlaced
            ? [
                (0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2),
                (0, 1, 1, 2),
            ]
            : [(0, 0, 1, 1)]
        for (x0, y0, dx, dy) in passes {
            // The pixel coordinates of this pass, row by row.
            let ys = Array(stride(from: y0, to: height, by: dy))
            let xs = Array(stride(from: x0, to: width, by: dx))
            guard !ys.isEmpty, !xs.isEmpty else { continue }
            let channels: Int = [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][colorType] ?? 1
            let bytesPerPixel = max(1, channels * Int(bitDepth) / 8)
            var above: [UInt8]?
            for y in ys {
                let row = rows(xs.map { ($0, y) }).flatMap { $0 }
                let type = filter(y)
                raw.append(type)
                raw += filtered(row, above: above, type: type, bytesPerPixel: bytesPerPixel)
                above = row
            }
        }
        let stream = zlibStored(raw)
        for start in stride(from: 0, to: stream.count, by: min(idatSize, stream.count)) {
            out += chunk("IDAT", Array(stream[start..<min(stream.count, start + idatSize)]))
        }
        out += chunk("IEND", [])
        return out
    }

    /// `row` filtered with `type` against `above` (nil: the first row, zeros), PNG §9.2.
    static func filtered(_ row: [UInt8], above: [UInt8]?, type: UInt8, bytesPerPixel bpp: Int) -> [UInt8] {
        row.indices.map { x in
            let a = x >= bpp ? Int(row[x - bpp]) : 0
            let b = above.map { Int($0[x]) } ?? 0
            let c = x >= bpp ? above.map { Int($0[x - bpp]) } ?? 0 : 0
            let predictor: Int
            switch type {
            case 1: predictor = a
            case 2: predictor = b
            case 3: predictor = (a + b) / 2
            case 4:
                let (pa, pb, pc) = (abs(b - c), abs(a - c), abs(a + b - 2 * c))
                predictor = pa <= pb && pa <= pc ? a : pb <= pc ? b : c
            default: predictor = 0
            }
            return UInt8(truncatingIfNeeded: Int(row[x]) - predictor)
        }
    }

    static func be32(_ v: Int) -> [UInt8] {
        [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return be32(data.count) + body + be32(Int(crc32(body)))
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var start = 0
        repeat {
            let count = min(65535, data.count - start)
            let final: UInt8 = start + count == data.count ? 1 : 0
            out += [
                final, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF),
                UInt8(~count >> 8 & 0xFF),
            ]
            out += data[start..<(start + count)]
            start += count
        } while start < data.count
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return out + be32(Int(b << 16 | a))
    }
}

/// The chunk types of a PNG file, in order.
private func chunkTypes(_ png: [UInt8]) -> [String] {
    var types: [String] = []
    var offset = 8
    while offset + 8 <= png.count {
        let length = png[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
        types.append(String(decoding: png[(offset + 4)..<(offset + 8)], as: UTF8.self))
        offset += 12 + length
    }
    return types
}

// MARK: - Writing

@Test func pngRoundTripIsExactIncludingPartialAlpha() throws {
    let image = patternImage(width: 37, height: 23)
    #expect(image.pixels.contains(0) && image.pixels.contains(255))
    let png = try PNGCodec.encode(image)
    #expect(try PNGCodec.decode(png) == image)
}

@Test func pngBytesAreStableAndCarryNoTimeChunk() throws {
    let image = patternImage(width: 16, height: 16)
    let first = try PNGCodec.encode(image)
    let second = try PNGCodec.encode(image)
    #expect(first == second)
    #expect(Array(first.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    #expect(chunkTypes(first) == ["IHDR", "IDAT", "IEND"])
    // IHDR: 16×16, bit depth 8, colour type 6 (RGBA), compression 0, filter 0, interlace 0.
    #expect(Array(first[16..<29]) == [0, 0, 0, 16, 0, 0, 0, 16, 8, 6, 0, 0, 0])
}

@Test func compressionLevelTradesSizeNotPixels() throws {
    // A smooth image compresses well at level 9 and not at all at level 0.
    var bytes: [UInt8] = []
    for i in 0..<(64 * 64) {
        let x = UInt8(i % 64 * 4)
        let y = UInt8(i / 64 * 4)
        bytes += [x, y, 128, 255]
    }
    let smooth = try #require(RGBAImage(width: 64, height: 64, pixels: bytes))
    let stored = try PNGCodec.encode(smooth, compressionLevel: 0)
    let smallest = try PNGCodec.encode(smooth)
    #expect(stored.count > 64 * 64 * 4)
    #expect(smallest.count < stored.count / 4)
    #expect(try PNGCodec.decode(stored) == smooth)
    #expect(try PNGCodec.decode(smallest) == smooth)
}

@Test func pngEncoderRejectsBadArguments() {
    #expect(throws: PNGCodec.CodecError("PNG compression level must be 0…9, got 10")) {
        try PNGCodec.encode(patternImage(width: 2, height: 2), compressionLevel: 10)
    }
    #expect(throws: PNGCodec.CodecError("cannot write a 0×0 PNG")) {
        try PNGCodec.encode(RGBAImage(width: 0, height: 0))
    }
}

// MARK: - Reading other colour types

@Test func decodesGreyscaleAtEightAndOneBit() throws {
    let grey = TestPNG.file(width: 2, height: 2, bitDepth: 8, colorType: 0) { pixels in
        pixels.map { x, y in [UInt8([0, 85, 170, 255][y * 2 + x])] }
    }
    #expect(
        try PNGCodec.decode(grey).pixels == [
            0, 0, 0, 255, 85, 85, 85, 255, 170, 170, 170, 255, 255, 255, 255, 255,
        ])

    // 1-bit: one byte holds 8 pixels, most significant bit first: 1011 0010.
    let bits = TestPNG.file(width: 8, height: 1, bitDepth: 1, colorType: 0) { _ in [[0b1011_0010]] }
    let decoded = try PNGCodec.decode(bits)
    #expect((0..<8).map { decoded[$0, 0].r } == [255, 0, 255, 255, 0, 0, 255, 0])
    #expect((0..<8).allSatisfy { decoded[$0, 0].a == 255 })
}

@Test func decodesGreyWithAlpha() throws {
    let png = TestPNG.file(width: 2, height: 1, bitDepth: 8, colorType: 4) { pixels in
        pixels.map { x, _ in x == 0 ? [40, 0] : [200, 77] }
    }
    #expect(try PNGCodec.decode(png).pixels == [40, 40, 40, 0, 200, 200, 200, 77])
}

@Test func decodesPaletteWithTransparency() throws {
    // 2-bit indices 0, 1, 2, 3 in one byte; tRNS covers the first three entries only.
    let png = TestPNG.file(
        width: 4, height: 1, bitDepth: 2, colorType: 3,
        palette: [255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255], transparency: [255, 128, 0]
    ) { _ in [[0b00_01_10_11]] }
    #expect(
        try PNGCodec.decode(png).pixels == [
            255, 0, 0, 255, 0, 255, 0, 128, 0, 0, 255, 0, 255, 255, 255, 255,
        ])
}

@Test func decodesSixteenBitRGBWithRounding() throws {
    // libpng's png_set_scale_16: v·255/65535 rounded. 0x7FFF → 127.498 → 127, 0x8080 → 128.
    let png = TestPNG.file(width: 1, height: 1, bitDepth: 16, colorType: 2) { _ in
        [[0x7F, 0xFF, 0x80, 0x80, 0xFF, 0xFF]]
    }
    #expect(try PNGCodec.decode(png).pixels == [127, 128, 255, 255])
}

@Test func decodesRGBColourKeyAsTransparency() throws {
    let png = TestPNG.file(
        width: 2, height: 1, bitDepth: 8, colorType: 2, transparency: [0, 10, 0, 20, 0, 30]
    ) { pixels in pixels.map { x, _ in x == 0 ? [10, 20, 30] : [10, 20, 31] } }
    let decoded = try PNGCodec.decode(png)
    #expect(decoded[0, 0].a == 0)
    #expect(decoded.pixels[4...] == [10, 20, 31, 255])
}

@Test func decodesAdam7Interlacing() throws {
    let image = patternImage(width: 11, height: 9)
    let png = TestPNG.file(width: 11, height: 9, bitDepth: 8, colorType: 6, interlaced: true) {
        pixels in
        pixels.map { x, y in
            let p = image[x, y]
            return [p.r, p.g, p.b, p.a]
        }
    }
    #expect(try PNGCodec.decode(png) == image)
}

@Test func pngDecoderReportsLibpngErrors() throws {
    let notPNG = #expect(throws: PNGCodec.CodecError.self) {
        try PNGCodec.decode(Array("hello, world".utf8))
    }
    #expect(notPNG?.message.hasPrefix("libpng read: ") == true)
    #expect(throws: PNGCodec.CodecError.self) { try PNGCodec.decode([]) }

    let png = try PNGCodec.encode(patternImage(width: 8, height: 8))
    let truncated = #expect(throws: PNGCodec.CodecError.self) {
        try PNGCodec.decode(Array(png.prefix(60)))
    }
    #expect(truncated?.message.hasPrefix("libpng read: ") == true)

    var corrupted = png
    corrupted[40] ^= 0xFF  // inside IDAT: the CRC no longer matches
    #expect(throws: PNGCodec.CodecError.self) { try PNGCodec.decode(corrupted) }
}

// MARK: - The direct decoder (libdeflate) against libpng

/// Pseudo-random bytes (glibc's LCG constants), `count` of them, each below `bound`.
private func noise(_ count: Int, seed: UInt32, below bound: Int = 256) -> [UInt8] {
    var state = seed
    return (0..<count).map { _ in
        state = state &* 1_103_515_245 &+ 12345
        return UInt8(Int(state >> 16) % bound)
    }
}

/// Every colour type at 8 bits, with and without tRNS, every filter type on every row position
/// (the first row too, where "above" is zeros), IDAT split into many chunks: the direct decoder
/// takes each file and gives libpng's pixels exactly.
@Test func directDecoderGivesLibpngsPixelsOnEveryColourTypeAndFilter() throws {
    let (width, height) = (13, 11)
    let palette = noise(3 * 200, seed: 7)
    let cases: [(colorType: UInt8, channels: Int, palette: [UInt8]?, transparency: [UInt8]?, bound: Int)] = [
        (0, 1, nil, nil, 256), (0, 1, nil, [0, 3], 8),  // grey; grey with a key (values 0…7, so it occurs)
        (2, 3, nil, nil, 256), (2, 3, nil, [0, 1, 0, 2, 0, 3], 4),  // RGB; RGB with a key colour
        (3, 1, palette, nil, 200), (3, 1, palette, noise(150, seed: 9), 200),  // palette, alphas for 150 of 200
        (4, 2, nil, nil, 256), (6, 4, nil, nil, 256), (2, 3, palette, nil, 256),  // grey+alpha, RGBA, RGB with PLTE
    ]
    var keyedPixels = 0
    for (n, test) in cases.enumerated() {
        let samples = noise(width * height * test.channels, seed: UInt32(n + 1), below: test.bound)
        for shift in 0..<5 {
            let png = TestPNG.file(
                width: width, height: height, bitDepth: 8, colorType: test.colorType, palette: test.palette,
                transparency: test.transparency, filter: { UInt8(($0 + shift) % 5) }, idatSize: 97
            ) { pixels in
                pixels.map { x, y in Array(samples[((y * width + x) * test.channels)...].prefix(test.channels)) }
            }
            let reference = try PNGCodec.decodeWithLibpng(png)
            let direct = try #require(
                PNGDirectDecoder.decode(png, maximumPixelCount: PNGCodec.maximumPixelCount),
                "colour type \(test.colorType) case \(n) shift \(shift) was left to libpng")
            #expect(direct == reference, "colour type \(test.colorType) case \(n), filters from \(shift)")
            #expect(try PNGCodec.decode(png) == reference)
            if test.transparency != nil, test.colorType != 3 {
                keyedPixels += (0..<(width * height)).filter { reference.pixels[4 * $0 + 3] == 0 }.count
            }
        }
    }
    #expect(keyedPixels > 20, "the key colours must occur for the tRNS cases to test anything")

    // libpng's own writer (adaptive filters, real deflate at levels 1 and 9): exact round trip.
    let image = patternImage(width: 37, height: 23)
    for level in [1, 9] {
        let png = try PNGCodec.encode(image, compressionLevel: level)
        #expect(PNGDirectDecoder.decode(png, maximumPixelCount: PNGCodec.maximumPixelCount) == image)
    }
}

/// Files the direct decoder declines, so that libpng decides: the result (pixels or error
/// message) of `PNGCodec.decode` is libpng's own.
@Test func directDecoderLeavesEverythingUnusualToLibpng() throws {
    let rgba = noise(6 * 5 * 4, seed: 3)
    func file(
        colorType: UInt8 = 6, bitDepth: UInt8 = 8, interlaced: Bool = false, palette: [UInt8]? = nil,
        transparency: [UInt8]? = nil, filter: @escaping (Int) -> UInt8 = { _ in 1 }
    ) -> [UInt8] {
        let channels: Int = [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][colorType] ?? 1
        let bytes = max(1, channels * Int(bitDepth) / 8)
        return TestPNG.file(
            width: 6, height: 5, bitDepth: bitDepth, colorType: colorType, interlaced: interlaced, palette: palette,
            transparency: transparency, filter: filter
        ) { pixels in pixels.map { x, y in Array(rgba[((y * 6 + x) * 4)...].prefix(bytes)) } }
    }
    let good = file()
    #expect(PNGDirectDecoder.decode(good, maximumPixelCount: PNGCodec.maximumPixelCount) != nil)
    let iend = good.count - 12
    var badCRC = good
    badCRC[iend - 5] ^= 0x01  // the last byte of IDAT's data
    var badAncillaryCRC = Array(good[..<iend]) + TestPNG.chunk("tEXt", Array("a\u{0}b".utf8)) + good[iend...]
    badAncillaryCRC[iend + 12] ^= 0x01
    let unknownCritical = Array(good[..<33]) + TestPNG.chunk("ABCD", [1]) + good[33...]
    let digitInName = Array(good[..<33]) + TestPNG.chunk("ab1d", [1]) + good[33...]
    let afterIEND = good + [0]
    let noIEND = Array(good[..<iend])
    let shortData = TestPNG.file(width: 6, height: 6, bitDepth: 8, colorType: 6) { pixels in
        pixels.map { x, y in y == 5 ? [] : Array(rgba[((y * 6 + x) * 4)...].prefix(4)) }
    }
    let cases: [(String, [UInt8])] = [
        ("16-bit", file(colorType: 2, bitDepth: 16)), ("1-bit grey", file(colorType: 0, bitDepth: 1)),
        ("Adam7", file(interlaced: true, filter: { _ in 0 })), ("IDAT CRC", badCRC),
        ("ancillary CRC", badAncillaryCRC), ("unknown critical chunk", unknownCritical),
        ("chunk name with a digit", digitInName), ("byte after IEND", afterIEND),
        ("no IEND", noIEND), ("filter type 5", file(filter: { $0 == 2 ? 5 : 1 })),
        ("rows missing", shortData), ("tRNS on RGBA", file(transparency: [0, 1])),
        ("grey key above 255", file(colorType: 0, transparency: [1, 0])),
        ("index past the palette", file(colorType: 3, palette: [1, 2, 3, 4, 5, 6])),
        ("tRNS longer than PLTE", file(colorType: 3, palette: noise(768, seed: 1), transparency: noise(257, seed: 2))),
        ("palette without PLTE", file(colorType: 3)),
    ]
    func outcome(_ decode: ([UInt8]) throws -> RGBAImage, _ png: [UInt8]) -> String {
        do { return "\(try decode(png).pixels)" } catch { return "error: \(error)" }
    }
    for (name, png) in cases {
        #expect(PNGDirectDecoder.decode(png, maximumPixelCount: PNGCodec.maximumPixelCount) == nil, "\(name)")
        #expect(outcome(PNGCodec.decode, png) == outcome(PNGCodec.decodeWithLibpng, png), "\(name)")
    }
}
