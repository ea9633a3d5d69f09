// SPDX-License-Identifier: GPL-3.0-or-later

import Raster
import Spec
import Testing

@testable import Encode

/// Partial alphas on the anti-aliased edge column of `blendFrame`.
private let edgeAlphas: [UInt8] = [40, 100, 127, 128, 200, 250]

/// 16×16: transparent background, a red 6×6 square moving 2 px per frame, an opaque
/// 16-shade blue→yellow blend in rows 12–13 and a partially transparent green edge in column 15.
private func blendFrame(_ k: Int) -> RGBAImage {
    makeImage(width: 16, height: 16) { x, y in
        if (12..<14).contains(y) {
            let v = UInt8(x * 16)
            return Pixel(v, v, 255 - v)
        }
        if x == 15, y < edgeAlphas.count { return Pixel(10, 200, 30, edgeAlphas[y]) }
        if (2 * k..<2 * k + 6).contains(x), (2..<8).contains(y) { return Pixel(255, 0, 0) }
        return .clear
    }
}

/// What a GIF without matte must show: alpha ≥ threshold opaque, else cleared.
private func thresholded(_ image: RGBAImage, threshold: UInt8 = 128) -> RGBAImage {
    makeImage(width: image.width, height: image.height) { x, y in
        let p = pixel(image, x, y)
        return p.a >= max(threshold, 1) ? Pixel(p.r, p.g, p.b) : .clear
    }
}

@Test func exactPaletteRoundTripsFlatColoursAndBlendsWithDedicatedTransparency() throws {
    let frames = (0..<4).map(blendFrame)
    let delays = [5, 6, 7, 8]
    let result = try GIFEncoder.encode(frames: frames, delays: delays, options: GIFOptions())
    #expect(result.quantized == false)
    #expect(result.hasTransparency)
    #expect(result.paletteSize == 18)  // 16 blend shades, red, green edge
    #expect(result.collapsedEdgePixels == edgeAlphas.count * 4)

    let decoded = try GIFDecoder.decode(result.bytes)
    #expect(decoded.width == 16 && decoded.height == 16)
    #expect(decoded.frames.count == 4)
    #expect(decoded.frames.map(\.delay) == delays)
    // Every frame's square must partly disappear in the next (frame 3's in frame 0, for the
    // next loop), so every frame erases by disposal 2 or 3, never by transparency over 1.
    #expect(decoded.frames.allSatisfy { $0.disposal == 2 || $0.disposal == 3 })
    #expect(decoded.loopCount == 0)
    #expect(decoded.globalColorTableSize == 32)  // 18 + transparency → 32
    // Frame 0 covers only its opaque pixels: rows 2–13 (square, edge rows 3–5, blend rows).
    #expect(decoded.frames[0].rect == GIFRect(x: 0, y: 2, width: 16, height: 12))
    for (k, frame) in decoded.frames.enumerated() {
        #expect(frame.hasLocalColorTable == false)
        let transparent = try #require(frame.transparentIndex)
        #expect(transparent == decoded.backgroundIndex)
        #expect(frame.canvas == thresholded(frames[k]))
    }
}

@Test func fileStartsWithGIF89aAndPutsTheLoopBlockAfterTheGlobalTable() throws {
    let result = try GIFEncoder.encode(
        frames: [blendFrame(0)], delays: [10], options: GIFOptions(loop: .plays(5)))
    let bytes = result.bytes
    #expect(Array(bytes.prefix(6)) == Array("GIF89a".utf8))
    let packed = bytes[10]
    #expect(packed & 0x80 != 0)  // global colour table present
    let tableSize = 2 << Int(packed & 0x07)
    let start = 13 + 3 * tableSize
    let expected: [UInt8] =
        [0x21, 0xFF, 0x0B] + Array("NETSCAPE2.0".utf8) + [0x03, 0x01, 4, 0, 0x00]
    #expect(Array(bytes[start..<(start + expected.count)]) == expected)
    // The first Graphic Control Extension follows immediately.
    #expect(
        Array(bytes[(start + expected.count)..<(start + expected.count + 3)]) == [0x21, 0xF9, 0x04])
    #expect(bytes.last == 0x3B)
}

@Test func opaqueAnimationUsesDisposalOneAndAFreeTransparencyIndex() throws {
    let colours = [Pixel(255, 0, 0), Pixel(0, 255, 0), Pixel(0, 0, 255)]
    let frames = (0..<3).map { k in
        makeImage(width: 8, height: 8) { x, y in colours[(x / 3 + y / 3 + k) % 3] }
    }
    let result = try GIFEncoder.encode(
        frames: frames, delays: [3, 4, 3], options: GIFOptions(loop: .plays(3)))
    #expect(result.hasTransparency == false)
    #expect(result.paletteSize == 3)
    #expect(result.collapsedEdgePixels == 0)
    let decoded = try GIFDecoder.decode(result.bytes)
    #expect(decoded.loopCount == 2)  // plays(3) → NETSCAPE count 2
    #expect(decoded.globalColorTableSize == 4)
    #expect(decoded.frames.map(\.disposal) == [1, 1, 1])
    // 3 colours fit a 4-entry table with room for a transparency index, which differencing
    // uses for unchanged pixels; no pixel is ever transparent on screen.
    #expect(decoded.frames.map(\.transparentIndex) == [0, 0, 0])
    #expect(
        decoded.frames.allSatisfy {
            $0.canvas.pixels.enumerated().allSatisfy { $0.offset % 4 != 3 || $0.element == 255 }
        })
    #expect(decoded.frames.map(\.delay) == [3, 4, 3])
    #expect(decoded.frames.map(\.canvas) == frames)
}

@Test func opaquePowerOfTwoColourCountGetsNoTransparencyIndex() throws {
    // 4 colours exactly fill a 4-entry table; a transparency index would double it.
    let colours = [Pixel(255, 0, 0), Pixel(0, 255, 0), Pixel(0, 0, 255), Pixel(9, 9, 9)]
    let frames = (0..<2).map { k in
        makeImage(width: 8, height: 8) { x, y in colours[(x / 2 + y / 4 + k) % 4] }
    }
    let result = try GIFEncoder.encode(frames: frames, delays: [5, 5], options: GIFOptions())
    let decoded = try GIFDecoder.decode(result.bytes)
    #expect(decoded.globalColorTableSize == 4)
    #expect(decoded.frames.map(\.transparentIndex) == [nil, nil])
    #expect(decoded.frames.map(\.canvas) == frames)
}

@Test func playingOnceWritesNoLoopBlock() throws {
    let result = try GIFEncoder.encode(
        frames: [blendFrame(0), blendFrame(1)], delays: [4, 4], options: GIFOptions(loop: .plays(1)))
    let decoded = try GIFDecoder.decode(result.bytes)
    #expect(decoded.loopCount == nil)
    #expect(decoded.frames.count == 2)
    let netscape = Array("NETSCAPE".utf8)
    let found = (0...(result.bytes.count - netscape.count)).contains {
        Array(result.bytes[$0..<($0 + netscape.count)]) == netscape
    }
    #expect(found == false)
}

@Test func matteBlendsPartialAlphaOntoThePageColour() throws {
    let frame = makeImage(width: 5, height: 1) { x, _ in
        [
            Pixel(0, 122, 255, 128), .clear, Pixel(255, 0, 0), Pixel(0, 122, 255, 1),
            Pixel(10, 250, 128, 64),
        ][x]
    }
    let result = try GIFEncoder.encode(
        frames: [frame], delays: [10], options: GIFOptions(matte: .white))
    #expect(result.collapsedEdgePixels == 0)
    #expect(result.hasTransparency)
    let canvas = try GIFDecoder.decode(result.bytes).frames[0].canvas
    // (0,122,255)·(128/255) + white·(127/255) = (127.0, 188.2, 255) → (127, 188, 255).
    #expect(pixel(canvas, 0, 0) == Pixel(127, 188, 255))
    #expect(pixel(canvas, 1, 0) == .clear)
    #expect(pixel(canvas, 2, 0) == Pixel(255, 0, 0))
    // Alpha 1 of 255 is almost all page: (254.0, 254.48, 255) → (254, 254, 255).
    #expect(pixel(canvas, 3, 0) == Pixel(254, 254, 255))
    // Rounds to nearest, not down: (193.51, 253.75, 223.13) → (194, 254, 223).
    #expect(pixel(canvas, 4, 0) == Pixel(194, 254, 223))
}

@Test func matteColourIsRoundedFromUnitChannels() throws {
    let frame = makeImage(width: 1, height: 1) { _, _ in Pixel(200, 100, 0, 64) }
    let matte = RGBAColor(red: 0.5, green: 0, blue: 1)  // → (128, 0, 255)
    let result = try GIFEncoder.encode(
        frames: [frame], delays: [10], options: GIFOptions(matte: matte))
    let canvas = try GIFDecoder.decode(result.bytes).frames[0].canvas
    // r = (200·64 + 128·191)/255 = 146.07; g = 100·64/255 = 25.10; b = 255·191/255 = 191.
    #expect(pixel(canvas, 0, 0) == Pixel(146, 25, 191))
}

@Test func thresholdDecidesOpacityAndCountsCollapsedPixels() throws {
    let alphas: [UInt8] = [0, 1, 127, 128, 254, 255]
    let frame = makeImage(width: alphas.count, height: 1) { x, _ in Pixel(50, 60, 70, alphas[x]) }
    let solid = Pixel(50, 60, 70)

    let byDefault = try GIFEncoder.encode(frames: [frame], delays: [10], options: GIFOptions())
    #expect(byDefault.collapsedEdgePixels == 4)
    let defaultCanvas = try GIFDecoder.decode(byDefault.bytes).frames[0].canvas
    #expect(
        (0..<6).map { pixel(defaultCanvas, $0, 0) } == [.clear, .clear, .clear, solid, solid, solid])

    let strict = try GIFEncoder.encode(
        frames: [frame], delays: [10], options: GIFOptions(alphaThreshold: 200))
    let strictCanvas = try GIFDecoder.decode(strict.bytes).frames[0].canvas
    #expect(
        (0..<6).map { pixel(strictCanvas, $0, 0) } == [.clear, .clear, .clear, .clear, solid, solid])

    let lenient = try GIFEncoder.encode(
        frames: [frame], delays: [10], options: GIFOptions(alphaThreshold: 0))
    let lenientCanvas = try GIFDecoder.decode(lenient.bytes).frames[0].canvas
    #expect(
        (0..<6).map { pixel(lenientCanvas, $0, 0) } == [.clear, solid, solid, solid, solid, solid])
}

@Test func fullyOpaqueFramesNeverCollapse() throws {
    let frame = makeImage(width: 3, height: 3) { x, y in Pixel(UInt8(x * 80), UInt8(y * 80), 9) }
    let result = try GIFEncoder.encode(frames: [frame], delays: [2], options: GIFOptions())
    #expect(result.collapsedEdgePixels == 0)
    #expect(result.paletteSize == 9)
    #expect(try GIFDecoder.decode(result.bytes).frames[0].canvas == frame)
}

@Test func twoHundredFiftySixColoursStayExactWithoutTransparency() throws {
    let frame = makeImage(width: 16, height: 16) { x, y in Pixel(UInt8(x * 16), UInt8(y * 16), 7) }
    let result = try GIFEncoder.encode(frames: [frame], delays: [10], options: GIFOptions())
    #expect(result.quantized == false)
    #expect(result.paletteSize == 256)
    let decoded = try GIFDecoder.decode(result.bytes)
    #expect(decoded.globalColorTableSize == 256)
    #expect(decoded.frames[0].canvas == frame)
}

@Test func twoHundredFiftySixColoursPlusTransparencyNeedTheQuantiser() throws {
    // 256 opaque colours in rows 0–15, and one transparent pixel in row 16.
    let frame = makeImage(width: 16, height: 17) { x, y in
        y < 16 ? Pixel(UInt8(x * 16), UInt8(y * 16), 7) : (x == 0 ? .clear : Pixel(0, 0, 7))
    }
    let result = try GIFEncoder.encode(frames: [frame], delays: [10], options: GIFOptions())
    #expect(result.quantized)
    #expect(result.hasTransparency)
    #expect(result.paletteSize <= 255)
    let decoded = try GIFDecoder.decode(result.bytes)
    let canvas = decoded.frames[0].canvas
    #expect(pixel(canvas, 0, 16) == .clear)
    let transparent = try #require(decoded.frames[0].transparentIndex)
    #expect(decoded.frames[0].indices.filter { Int($0) == transparent }.count == 1)
}

@Test func encodingIsDeterministic() throws {
    let frames = (0..<4).map(blendFrame)
    let a = try GIFEncoder.encode(frames: frames, delays: [4, 4, 4, 4], options: GIFOptions())
    let b = try GIFEncoder.encode(frames: frames, delays: [4, 4, 4, 4], options: GIFOptions())
    #expect(a == b)
}

@Test func invalidArgumentsAreRejectedWithMessages() {
    let frame = blendFrame(0)
    let small = makeImage(width: 8, height: 8) { _, _ in Pixel(1, 2, 3) }
    #expect(throws: EncodeError("cannot encode a GIF without frames")) {
        try GIFEncoder.encode(frames: [], delays: [], options: GIFOptions())
    }
    #expect(throws: EncodeError("frame 1 is 8×8, expected 16×16")) {
        try GIFEncoder.encode(frames: [frame, small], delays: [4, 4], options: GIFOptions())
    }
    #expect(throws: EncodeError("1 delays for 2 frames")) {
        try GIFEncoder.encode(frames: [frame, frame], delays: [4], options: GIFOptions())
    }
    #expect(
        throws: EncodeError(
            "frame 1 has a delay of 1 cs; GIF delays must be 2…65535 cs (browsers play 0 and 1 cs as 10 cs)"
        )
    ) {
        try GIFEncoder.encode(frames: [frame, frame], delays: [4, 1], options: GIFOptions())
    }
    #expect(
        throws: EncodeError("loop count 0 is out of range: a GIF plays 1…65536 times or forever")
    ) {
        try GIFEncoder.encode(frames: [frame], delays: [4], options: GIFOptions(loop: .plays(0)))
    }
}

@Test func decoderRejectsData() {
    #expect(throws: EncodeError.self) { try GIFDecoder.decode([]) }
    #expect(throws: EncodeError.self) { try GIFDecoder.decode(Array("not a gif at all".utf8)) }
}

@Test func decoderReportsATruncatedFile() throws {
    let bytes = try GIFEncoder.encode(frames: [blendFrame(0)], delays: [4], options: GIFOptions())
        .bytes
    let error = #expect(throws: EncodeError.self) {
        try GIFDecoder.decode(Array(bytes.prefix(bytes.count - 20)))
    }
    #expect(error?.message.hasPrefix("giflib ") == true)
}
