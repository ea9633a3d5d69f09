// SPDX-License-Identifier: GPL-3.0-or-later

import Render
import Testing

@testable import Encode

/// Encodes with default options and decodes with giflib.
private func roundTrip(_ frames: [RGBAImage], delays: [Int]? = nil) throws -> (GIFEncoding, DecodedGIF) {
    let encoded = try GIFEncoder.encode(
        frames: frames, delays: delays ?? Array(repeating: 4, count: frames.count), options: GIFOptions())
    return (encoded, try GIFDecoder.decode(encoded.bytes))
}

@Test func identicalConsecutiveFramesMergeWithSummedDelays() throws {
    let frames = GIFSamples.repeats()
    let (encoded, decoded) = try roundTrip(frames, delays: [3, 4, 3, 3, 4, 3])
    #expect(encoded.frameCount == 3)
    #expect(decoded.frames.map(\.delay) == [7, 10, 3])
    #expect(decoded.frames.map(\.delay).reduce(0, +) == 20)
    #expect(decoded.frames.map(\.canvas) == [frames[0], frames[2], frames[5]])
}

@Test func mergingNeverOverflowsTheSixteenBitDelay() throws {
    let frame = GIFSamples.repeats()[0]
    let (_, decoded) = try roundTrip([frame, frame, frame], delays: [40000, 30000, 2])
    #expect(decoded.frames.map(\.delay) == [40000, 30002])
}

@Test func laterFramesCoverOnlyWhatChanged() throws {
    // Opaque 16×16 grey with a 2×2 black dot moving one pixel right per frame.
    let frames = (0..<4).map { k in
        makeImage(width: 16, height: 16) { x, y in
            (5 + k..<7 + k).contains(x) && (9..<11).contains(y) ? Pixel(0, 0, 0) : Pixel(128, 128, 128)
        }
    }
    let (_, decoded) = try roundTrip(frames)
    #expect(decoded.frames[0].rect == GIFRect(x: 0, y: 0, width: 16, height: 16))
    for k in 1..<4 {
        // Column 4+k turns grey, column 6+k turns black.
        #expect(decoded.frames[k].rect == GIFRect(x: 4 + k, y: 9, width: 3, height: 2))
        #expect(decoded.frames[k].disposal == 1)
    }
    #expect(decoded.frames.map(\.canvas) == frames)
}

@Test func erasingUsesDisposalTwoOrThreeNeverTransparencyOverOne() throws {
    for frames in [GIFSamples.movingSquare(), GIFSamples.blink()] {
        let (_, decoded) = try roundTrip(frames)
        #expect(decoded.frames.map(\.canvas) == frames)
        // Wherever the next frame (frame 0 after the last) is transparent but this one is
        // not, this frame must have a disposal that erases.
        for (k, frame) in decoded.frames.enumerated() {
            let next = frames[(k + 1) % frames.count]
            let mustErase = (0..<(next.width * next.height)).contains {
                next.pixels[4 * $0 + 3] == 0 && frame.canvas.pixels[4 * $0 + 3] != 0
            }
            if mustErase {
                #expect(frame.disposal == 2 || frame.disposal == 3, "frame \(k)")
            } else {
                #expect(frame.disposal == 1, "frame \(k)")
            }
        }
    }
}

@Test func blinkingOverlayIsRestoredWithDisposalThree() throws {
    let frames = GIFSamples.blink()
    let (_, decoded) = try roundTrip(frames)
    // Frames 1, 3, 5 add the dot over transparency: restoring the previous screen erases it
    // and leaves the next frame one pixel to paint.
    #expect(decoded.frames.map(\.disposal).prefix(5) == [1, 3, 1, 3, 1])
    // The last frame prepares frame 0; either erasing disposal costs the same there.
    #expect([2, 3].contains(decoded.frames[5].disposal))
    #expect(decoded.frames.map(\.canvas) == frames)
}

@Test func emptyFirstFrameIsOnePixel() throws {
    let clear = makeImage(width: 30, height: 20) { _, _ in .clear }
    let dot = makeImage(width: 30, height: 20) { x, y in x == 10 && y == 5 ? Pixel(1, 2, 3) : .clear }
    let (_, decoded) = try roundTrip([clear, dot])
    #expect(decoded.frames[0].rect == GIFRect(x: 0, y: 0, width: 1, height: 1))
    #expect(decoded.frames[1].rect == GIFRect(x: 10, y: 5, width: 1, height: 1))
    #expect(decoded.frames.map(\.canvas) == [clear, dot])
}

/// The LZW minimum code size byte of every image in `gif`, read by walking the blocks
/// (GIF89a §17–§27), independently of giflib.
private func lzwCodeSizes(_ gif: [UInt8]) -> [Int] {
    var sizes: [Int] = []
    var p = 13
    if gif[10] & 0x80 != 0 { p += 3 << (Int(gif[10] & 7) + 1) }
    func skipSubBlocks() {
        while gif[p] != 0 { p += Int(gif[p]) + 1 }
        p += 1
    }
    while p < gif.count {
        switch gif[p] {
        case 0x21:
            p += 2
            skipSubBlocks()
        case 0x2C:
            let flags = gif[p + 9]
            p += 10
            if flags & 0x80 != 0 { p += 3 << (Int(flags & 7) + 1) }
            sizes.append(Int(gif[p]))
            p += 1
            skipSubBlocks()
        default:
            return sizes
        }
    }
    return sizes
}

/// Bits for index `largest` as an LZW minimum code size (at least 2).
private func bits(for largest: Int) -> Int {
    var bits = 2
    while 1 << bits <= largest { bits += 1 }
    return bits
}

@Test func aFrameOfFewColoursGetsSmallGlobalIndicesAndCodeSize() throws {
    let frames = GIFSamples.fewColoursLater()
    let (encoded, decoded) = try roundTrip(frames)
    #expect(decoded.globalColorTableSize == 256)
    // Frame 1's two colours are ordered first (after the transparency index), so it needs no
    // local table: 2-bit codes with the global one.
    #expect(decoded.frames.map(\.hasLocalColorTable) == [false, false])
    #expect(decoded.frames[1].rect == GIFRect(x: 8, y: 8, width: 24, height: 24))
    #expect(Set(decoded.frames[1].indices) == [1, 2])
    #expect(lzwCodeSizes(encoded.bytes) == [8, 2])
    #expect(decoded.frames.map(\.canvas) == frames)
}

@Test func localColourTablesOnlyWhereGlobalIndicesCannotBeSmall() throws {
    let frames = GIFSamples.fourNewColoursPerFrame()
    let (encoded, decoded) = try roundTrip(frames)
    #expect(decoded.frames.map(\.canvas) == frames)
    let sizes = lzwCodeSizes(encoded.bytes)
    #expect(sizes.count == 40)
    // The first frames' colours take the smallest global indices; later frames would need 7 or
    // 8 bits and carry a local table instead (the transparency index and four colours: 8
    // entries, 3-bit codes).
    #expect(decoded.frames[0].hasLocalColorTable == false)
    #expect(sizes[0] == 3)
    let lastTenHaveLocalTables = decoded.frames.suffix(10).allSatisfy { $0.hasLocalColorTable }
    #expect(lastTenHaveLocalTables)
    for (frame, size) in zip(decoded.frames, sizes) {
        if frame.hasLocalColorTable {
            #expect(size == 3)
        } else {
            // With the global table, the code size is exactly what the largest index needs.
            #expect(size == bits(for: Int(frame.indices.max() ?? 0)))
        }
    }
}

@Test(arguments: 0..<20)
func globalTableFramesUseTheSmallestCodeSizeTheirIndicesAllow(seed: Int) throws {
    let frames = GIFSamples.random(seed: UInt64(seed))
    let (encoded, decoded) = try roundTrip(frames)
    let sizes = lzwCodeSizes(encoded.bytes)
    #expect(sizes.count == decoded.frames.count)
    for (frame, size) in zip(decoded.frames, sizes) where !frame.hasLocalColorTable {
        let largest = max(Int(frame.indices.max() ?? 0), frame.transparentIndex ?? 0)
        #expect(size == bits(for: largest), "seed \(seed)")
    }
}

@Test func lzwStreamsThatFillTheTableDecode() throws {
    let frames = GIFSamples.noise()
    let (encoded, decoded) = try roundTrip(frames)
    #expect(decoded.frames.map(\.canvas) == frames)
    // 24 000 random pixels of 5 colours need several table clears; the file is still far
    // smaller than one byte per pixel.
    #expect(encoded.bytes.count < 200 * 120)
}

@Test(arguments: 1...60)
func randomAnimationsDecodeExactly(seed: Int) throws {
    let frames = GIFSamples.random(seed: UInt64(seed))
    var random = TestRandom(state: UInt64(seed) + 1000)
    let delays = frames.map { _ in 2 + random.next(9) }
    let (encoded, decoded) = try roundTrip(frames, delays: delays)
    // Expand merged frames back over time: frame i of the input shows during its delay.
    var shown: [RGBAImage] = []
    for frame in decoded.frames {
        var remaining = frame.delay
        while remaining > 0, shown.count < delays.count {
            remaining -= delays[shown.count]
            shown.append(frame.canvas)
        }
    }
    #expect(shown == frames, "seed \(seed)")
    #expect(decoded.frames.map(\.delay).reduce(0, +) == delays.reduce(0, +))
    #expect(encoded.frameCount == collapsingRepeats(frames).count)
}

@Test func lzwStreamWithoutChoicesDecodesInGiflib() throws {
    // 20 000 pixels of a 4-bit image: the code width grows to 12 bits and the table clears.
    var random = TestRandom(state: 5)
    let symbols = (0..<20000).map { _ in UInt8(random.next(3) == 0 ? random.next(16) : 7) }
    let encoder = LZWEncoder()
    let data = encoder.compress(symbols, flexible: [], alternative: 0, minimumCodeSize: 4)
    // Wrap in a minimal GIF by hand and read it with giflib.
    var gif: [UInt8] = Array("GIF89a".utf8) + [200, 0, 100, 0, 0x83, 0, 0]
    gif += (0..<16).flatMap { [UInt8($0 * 16), UInt8($0), 0] }
    gif += [0x2C, 0, 0, 0, 0, 200, 0, 100, 0, 0, 4]
    var start = 0
    while start < data.count {
        let count = min(255, data.count - start)
        gif.append(UInt8(count))
        gif += data[start..<(start + count)]
        start += count
    }
    gif += [0, 0x3B]
    let decoded = try GIFDecoder.decode(gif)
    #expect(decoded.frames[0].indices == symbols)
}
