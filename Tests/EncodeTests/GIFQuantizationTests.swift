// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Raster
import Testing

@testable import Encode

/// 64×64 smooth gradient (4096 distinct colours) with a white 8×8 square at x = 8k.
private func gradientFrame(_ k: Int) -> RGBAImage {
    makeImage(width: 64, height: 64) { x, y in
        if (8 * k..<8 * k + 8).contains(x), (20..<28).contains(y) { return Pixel(255, 255, 255) }
        return Pixel(UInt8(x * 4), UInt8(y * 4), UInt8((x + y) * 2))
    }
}

/// Whether (x, y) lies under the moving square in any of `frameCount` frames.
private func underSquare(_ x: Int, _ y: Int, frameCount: Int) -> Bool {
    (20..<28).contains(y) && x < 8 * frameCount
}

@Test func gradientGoesThroughLibimagequantWithinAPSNRBound() throws {
    let frames = (0..<3).map(gradientFrame)
    let result = try GIFEncoder.encode(frames: frames, delays: [5, 5, 5], options: GIFOptions())
    #expect(result.quantized)
    #expect(result.hasTransparency == false)
    #expect(result.paletteSize > 200 && result.paletteSize <= 256)
    let decoded = try GIFDecoder.decode(result.bytes)
    #expect(decoded.globalColorTableSize == 256)
    #expect(decoded.frames.count == 3)
    for (k, frame) in decoded.frames.enumerated() {
        // Measured 35.5 dB per frame with libimagequant 2.17 (Debian 12), speed 4.
        #expect(psnr(frame.canvas, frames[k]) >= 34)
        // White is in the histogram 3·64 times and maps exactly.
        #expect(pixel(frame.canvas, 8 * k + 3, 23) == Pixel(255, 255, 255))
    }
}

@Test(arguments: GIFDither.allCases)
func staticPixelsKeepTheirIndexInEveryFrame(dither: GIFDither) throws {
    let frames = (0..<3).map(gradientFrame)
    // Before differencing: every pixel the square never covers has one index in all frames.
    let flattened = GIFAlphaPolicy(options: GIFOptions()).flatten(frames, width: 64, height: 64)
    let palette = try GIFPalette.build(histogram: flattened.survey().histogram, hasTransparency: false)
    #expect(palette.quantized)
    var mapper = PaletteMapper(palette: palette, dither: dither)
    let indexed = mapper.index(flattened)
    var staticPixels = 0
    for y in 0..<64 {
        for x in 0..<64 where !underSquare(x, y, frameCount: 3) {
            let i = y * 64 + x
            let first = indexed[0].indices[i]
            #expect(indexed[1].indices[i] == first && indexed[2].indices[i] == first)
            staticPixels += 1
        }
    }
    #expect(staticPixels == 64 * 64 - 8 * 24)

    // In the file: frames 1 and 2 touch only the rows the square moves in.
    let result = try GIFEncoder.encode(
        frames: frames, delays: [5, 5, 5], options: GIFOptions(dither: dither))
    let decoded = try GIFDecoder.decode(result.bytes)
    for frame in decoded.frames.dropFirst() {
        #expect(frame.rect.y >= 20 && frame.rect.y + frame.rect.height <= 28, "\(frame.rect)")
    }
}

@Test func identicalSourceColoursGetIdenticalIndices() throws {
    // Left and right halves are the same gradient; every pair must share an index.
    let frame = makeImage(width: 64, height: 64) { x, y in
        let u = x % 32
        return Pixel(UInt8(u * 8), UInt8(y * 4), UInt8((u * 3 + y) % 256))
    }
    let result = try GIFEncoder.encode(frames: [frame], delays: [5], options: GIFOptions())
    #expect(result.quantized)
    let indices = try GIFDecoder.decode(result.bytes).frames[0].indices
    for y in 0..<64 {
        for x in 0..<32 {
            #expect(indices[y * 64 + x] == indices[y * 64 + x + 32])
        }
    }
}

@Test func quantisedEncodingIsDeterministic() throws {
    let frames = (0..<3).map(gradientFrame)
    let a = try GIFEncoder.encode(frames: frames, delays: [5, 5, 5], options: GIFOptions())
    let b = try GIFEncoder.encode(frames: frames, delays: [5, 5, 5], options: GIFOptions())
    #expect(a.bytes == b.bytes)
}

@Test func histogramsLargerThanTheQuantiserLimitAreMergedFirst() throws {
    // 300×300 distinct colours (90 000 > 65 536 histogram entries).
    let frame = makeImage(width: 300, height: 300) { x, y in
        Pixel(UInt8(x % 256), UInt8(y % 256), UInt8((x / 256) * 100 + (y / 256) * 50))
    }
    let result = try GIFEncoder.encode(frames: [frame], delays: [5], options: GIFOptions())
    #expect(result.quantized)
    let canvas = try GIFDecoder.decode(result.bytes).frames[0].canvas
    // Measured 34.8 dB (libimagequant 2.17, histogram merged to ≤ 65 536 entries).
    #expect(psnr(canvas, frame) >= 33)
}

@Test func quantiserRunsOnOneOpenMPThreadWhateverTheMachine() throws {
    // libgomp's per-thread team size, reached the way Sources/CImageQuant/shim.h reaches it.
    let everything = try #require(dlopen(nil, RTLD_LAZY))
    defer { dlclose(everything) }
    let setSymbol = try #require(dlsym(everything, "omp_set_num_threads"), "libimagequant is built with OpenMP")
    let getSymbol = try #require(dlsym(everything, "omp_get_max_threads"))
    let setThreads = unsafeBitCast(setSymbol, to: (@convention(c) (Int32) -> Void).self)
    let maximumThreads = unsafeBitCast(getSymbol, to: (@convention(c) () -> Int32).self)
    let frames = (0..<3).map(gradientFrame)
    setThreads(1)
    let reference = try GIFEncoder.encode(frames: frames, delays: [5, 5, 5], options: GIFOptions())
    setThreads(8)
    let wide = try GIFEncoder.encode(frames: frames, delays: [5, 5, 5], options: GIFOptions())
    #expect(maximumThreads() == 1, "the encoder must pin libimagequant to one thread")
    #expect(wide.bytes == reference.bytes)
    #expect(reference.quantized)
}
