// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Raster
import Testing

@testable import Encode

/// `GIFOptions.lossy`: every displayed pixel stays within N levels per channel of its input,
/// transparency is exact, and 0 changes nothing.
@Suite struct GIFLossyTests {
    /// Shaded, jittering animations with transparent holes: a stepped gradient background whose
    /// shades drift by up to 2 levels per frame, a moving disc with a ramp of edge shades, and
    /// a transparent hole that moves. 24×18, 10 frames, under 255 colours (an exact palette, so
    /// the tolerance is the only loss).
    static func shaded(seed: UInt64) -> [RGBAImage] {
        var random = TestRandom(state: seed)
        let jitter = (0..<(10 * 24 * 18)).map { _ in random.next(5) - 2 }
        return (0..<10).map { k in
            makeImage(width: 24, height: 18) { x, y in
                if (k + x / 3) % 6 == 0 && y > 12 { return .clear }
                let dx = x - 4 - 2 * k
                let dy = y - 9
                let d = dx * dx + dy * dy
                if d < 16 {
                    let shade = UInt8(40 + 12 * d)
                    return Pixel(shade, 20, 200 - shade / 2)
                }
                let j = jitter[(k * 18 + y) * 24 + x]
                return Pixel(UInt8(100 + 8 * (x / 2) + j), UInt8(150 + 20 * (y / 9)), UInt8(90 - j))
            }
        }
    }

    /// The input frame shown at each input frame's time: merged frames cover several.
    static func shownFrames(_ decoded: DecodedGIF, delays: [Int]) -> [RGBAImage] {
        var ends: [Int] = []
        var total = 0
        for frame in decoded.frames {
            total += frame.delay
            ends.append(total)
        }
        var start = 0
        return delays.map { delay in
            defer { start += delay }
            let k = ends.firstIndex { $0 > start } ?? decoded.frames.count - 1
            return decoded.frames[k].canvas
        }
    }

    @Test(arguments: [1, 4, 16, 64])
    func everyPixelStaysWithinTheToleranceAndAlphaIsExact(lossy: Int) throws {
        for seed in [UInt64(3), 17, 99] {
            let frames = Self.shaded(seed: seed)
            let delays = Array(repeating: 4, count: frames.count)
            let encoded = try GIFEncoder.encode(frames: frames, delays: delays, options: GIFOptions(lossy: lossy))
            #expect(!encoded.quantized)
            let decoded = try GIFDecoder.decode(encoded.bytes)
            #expect(decoded.frames.map(\.delay).reduce(0, +) == 40)
            var worst = 0
            for (input, shown) in zip(frames, Self.shownFrames(decoded, delays: delays)) {
                for i in stride(from: 0, to: input.pixels.count, by: 4) {
                    #expect(input.pixels[i + 3] == shown.pixels[i + 3], "alpha at pixel \(i / 4)")
                    guard input.pixels[i + 3] == 255 else { continue }
                    for c in 0..<3 { worst = max(worst, abs(Int(input.pixels[i + c]) - Int(shown.pixels[i + c]))) }
                }
            }
            #expect(worst <= lossy, "seed \(seed)")
            // The tolerance is used, and pays.
            let exact = try GIFEncoder.encode(frames: frames, delays: delays, options: GIFOptions())
            #expect(worst > 0)
            #expect(encoded.bytes.count < exact.bytes.count, "seed \(seed): \(encoded.bytes.count)")
        }
    }

    /// A disc that grows from 5 to 19 pixels' radius and shrinks back, 24 frames of 48×48, its
    /// anti-aliased edge either blended over a light page (opaque, 95 colours) or as alpha
    /// over transparency (one colour).
    static func pulsing(transparent: Bool) -> [RGBAImage] {
        (0..<24).map { k in
            let radius = 5 + 14 * sin(Double.pi * Double(k) / 24)
            return makeImage(width: 48, height: 48) { x, y in
                let dx = Double(x) - 23.5
                let dy = Double(y) - 23.5
                let coverage = min(1, max(0, radius - (dx * dx + dy * dy).squareRoot() + 0.5))
                if transparent {
                    return coverage == 0 ? .clear : Pixel(200, 40, 60, UInt8((coverage * 255).rounded()))
                }
                func mix(_ a: Double, _ b: Double) -> UInt8 { UInt8((a * coverage + b * (1 - coverage)).rounded()) }
                return Pixel(mix(200, 240), mix(40, 240), mix(60, 250))
            }
        }
    }

    @Test(arguments: [1, 2, 4, 8])
    func toleranceNeverMakesAFileLarger(lossy: Int) throws {
        // Keeping shades within tolerance drifts the screen from the input, and on this pulse
        // that cost the shrinking frames more than the growing ones saved. Before the frame
        // choices: opaque, N = 1, 4 831 bytes against 4 389 exact; with one colour, where
        // tolerance has nothing to merge, 1 753 against 1 707. With them, only the whole-file
        // choice keeps N = 2 (4 439) and N = 4 (4 399) from exceeding the exact 4 389.
        for transparent in [false, true] {
            let frames = Self.pulsing(transparent: transparent)
            let delays = Array(repeating: 4, count: frames.count)
            let exact = try GIFEncoder.encode(frames: frames, delays: delays, options: GIFOptions())
            let near = try GIFEncoder.encode(frames: frames, delays: delays, options: GIFOptions(lossy: lossy))
            #expect(near.bytes.count <= exact.bytes.count, "transparent: \(transparent)")
            // Whichever plan was written, every pixel is within the tolerance of the input after
            // the alpha policy (no matte: alpha 128 and above is opaque).
            let shown = Self.shownFrames(try GIFDecoder.decode(near.bytes), delays: delays)
            for (input, output) in zip(frames, shown) {
                for i in stride(from: 0, to: input.pixels.count, by: 4) {
                    let opaque = input.pixels[i + 3] >= 128
                    #expect(output.pixels[i + 3] == (opaque ? 255 : 0))
                    guard opaque else { continue }
                    for c in 0..<3 { #expect(abs(Int(input.pixels[i + c]) - Int(output.pixels[i + c])) <= lossy) }
                }
            }
        }
    }

    @Test func aFrameIsNeverLongerThanWrittenExactlyOverTheSameScreen() throws {
        // Eight colours 16 levels apart and a tolerance of 4: no colour may stand in for another,
        // so every screen is the exact plan's, and each lossy frame must be no longer than the
        // exact one (its stream is the shortest of the exact stream and the lossy parses).
        // Each frame paints a few more pixels of a still pattern of colours 5…8 with colour 1:
        // exact, the unchanged pattern is written as the transparency index in 2-bit codes; the
        // lossy parse alone kept the pattern's colours and needed 4-bit codes.
        let palette = GIFPalette(
            opaqueColors: (1...8).map { UInt32($0) * 0x10_10_10 }, transparentIndex: 0, quantized: false)
        let frames = (0..<12).map { k in
            IndexedFrame(
                indices: (0..<(40 * 40)).map { p in
                    let x = p % 40
                    let y = p / 40
                    if (x * 7 + y * 13) % 16 < k { return 1 }
                    return UInt8(5 + (x * 7 + y * 3) % 4)
                })
        }
        let delays = Array(repeating: 5, count: frames.count)
        let exact = try GIFFrameOptimizer.plan(
            frames: frames, delays: delays, palette: palette, width: 40, height: 40, loopCount: 0)
        let lossy = try GIFFrameOptimizer.plan(
            frames: frames, delays: delays, palette: palette, width: 40, height: 40, loopCount: 0, lossy: 4)
        #expect(lossy.frames.map(\.rect) == exact.frames.map(\.rect))
        #expect(lossy.frames.map(\.disposal) == exact.frames.map(\.disposal))
        for (k, (a, b)) in zip(lossy.frames, exact.frames).enumerated() {
            #expect(a.imageData.count <= b.imageData.count, "frame \(k)")
        }
    }

    @Test func aRareFarIndexIsWrittenAsANearSmallOneForShorterCodes() throws {
        // Entry 8 is one level from entry 1; entries 2…7 are 16 levels apart. Frame 1 draws a
        // checkerboard of entries 2 and 8 over entry 5: exact, index 8 needs 4-bit codes; at
        // a tolerance of 1 the lossy frame writes entry 1 instead and fits 2-bit codes.
        let colours = (1...7).map { UInt32($0) * 0x10_10_10 } + [0x11_11_11]
        let palette = GIFPalette(opaqueColors: colours, transparentIndex: 0, quantized: false)
        let frame0 = [UInt8](repeating: 5, count: 24 * 24)
        let frame1 = (0..<(24 * 24)).map { p -> UInt8 in (p % 24 + p / 24) % 2 == 0 ? 2 : 8 }
        let frames = [frame0, frame1].map { IndexedFrame(indices: $0) }
        let exact = try GIFFrameOptimizer.plan(
            frames: frames, delays: [10, 10], palette: palette, width: 24, height: 24, loopCount: 0)
        let lossy = try GIFFrameOptimizer.plan(
            frames: frames, delays: [10, 10], palette: palette, width: 24, height: 24, loopCount: 0, lossy: 1)
        #expect(exact.frames[1].minimumCodeSize == 4)
        #expect(lossy.frames[1].minimumCodeSize == 2)
        #expect(lossy.frames[1].imageData.count < exact.frames[1].imageData.count)
        // Every pixel shows its colour or one within a level.
        let decoded = try GIFDecoder.decode(try GIFWriter.write(lossy))
        let shown = decoded.frames[1].canvas
        for p in 0..<(24 * 24) {
            let want = colours[Int(frame1[p]) - 1]
            for c in 0..<3 {
                let wanted = Int((want >> UInt32(16 - 8 * c)) & 0xFF)
                #expect(abs(Int(shown.pixels[4 * p + c]) - wanted) <= 1, "pixel \(p)")
            }
            #expect(shown.pixels[4 * p + 3] == 255)
        }
    }

    @Test(arguments: [1, 3, 8])
    func randomPlansStayWithinTheTolerance(lossy: Int) throws {
        // Palettes of 60 entries in clusters a few levels wide, shuffled so near entries lie far
        // apart in the table (every candidate stream then has choices, the narrowed one too),
        // and frames of blobs of random entries over the last frame, with transparent holes.
        // Even seeds have 64 opaque entries and no transparency index: index 0 is a colour.
        for seed in UInt64(1)...12 {
            let opaque = seed % 2 == 0
            let entries = opaque ? 64 : 60
            var random = TestRandom(state: seed)
            var colours: [UInt32] = []
            while colours.count < entries {
                let base = (0..<3).map { _ in 8 + random.next(240) }
                for _ in 0..<(1 + random.next(6)) where colours.count < entries {
                    let c = base.map { UInt32(max(0, min(255, $0 + random.next(9) - 4))) }
                    let colour = c[0] << 16 | c[1] << 8 | c[2]
                    if !colours.contains(colour) { colours.append(colour) }
                }
            }
            for i in stride(from: colours.count - 1, to: 0, by: -1) { colours.swapAt(i, random.next(i + 1)) }
            let palette = GIFPalette(opaqueColors: colours, transparentIndex: opaque ? nil : 0, quantized: false)
            let (w, h) = (6 + random.next(30), 6 + random.next(30))
            // The index of entry e: e + 1 beside a transparency index at 0, else e.
            let first = opaque ? 0 : 1
            var frame = [UInt8](repeating: UInt8(first + random.next(entries)), count: w * h)
            var frames: [IndexedFrame] = []
            for _ in 0..<8 {
                for _ in 0..<(1 + random.next(5)) {
                    let (x0, y0) = (random.next(w), random.next(h))
                    let (bw, bh) = (1 + random.next(w / 2 + 1), 1 + random.next(h / 2 + 1))
                    let index = !opaque && random.next(6) == 0 ? 0 : UInt8(first + random.next(entries))
                    for y in y0..<min(h, y0 + bh) {
                        for x in x0..<min(w, x0 + bw) where random.next(4) != 0 { frame[y * w + x] = index }
                    }
                }
                frames.append(IndexedFrame(indices: frame))
            }
            let delays = (0..<frames.count).map { _ in 2 + random.next(5) }
            let plan = try GIFFrameOptimizer.plan(
                frames: frames, delays: delays, palette: palette, width: w, height: h, loopCount: 0, lossy: lossy)
            let decoded = try GIFDecoder.decode(try GIFWriter.write(plan))
            #expect(decoded.frames.map(\.delay).reduce(0, +) == delays.reduce(0, +))
            for (k, shown) in Self.shownFrames(decoded, delays: delays).enumerated() {
                for p in 0..<(w * h) {
                    let index = Int(frames[k].indices[p])
                    let clear = !opaque && index == 0
                    #expect((shown.pixels[4 * p + 3] == 0) == clear, "seed \(seed), frame \(k), pixel \(p)")
                    guard !clear else { continue }
                    let want = colours[index - first]
                    for c in 0..<3 {
                        let wanted = Int((want >> UInt32(16 - 8 * c)) & 0xFF)
                        #expect(abs(Int(shown.pixels[4 * p + c]) - wanted) <= lossy, "seed \(seed), frame \(k)")
                    }
                }
            }
        }
    }

    @Test func anOpaqueFirstFrameThatMergesStillCoversTheScreen() throws {
        // Four opaque colours: no transparency index, so frame 0 must cover the whole screen
        // (a player starts it transparent). Frame 1 is within a level of frame 0 and merges
        // into it; the merged frame once took a later frame's number and covered only the
        // pixels that differ from index 0 (one pixel here), leaving three transparent.
        let colours: [Pixel] = [Pixel(81, 183, 223), Pixel(82, 182, 224), Pixel(200, 40, 60), Pixel(201, 41, 61)]
        let frames = colours.map { colour in makeImage(width: 2, height: 2) { _, _ in colour } }
        let encoded = try GIFEncoder.encode(
            frames: frames, delays: [4, 4, 4, 4], options: GIFOptions(lossy: 1))
        #expect(!encoded.hasTransparency)
        let decoded = try GIFDecoder.decode(encoded.bytes)
        #expect(decoded.frames.map(\.delay) == [8, 8])
        for (frame, colour) in zip(decoded.frames, [colours[0], colours[2]]) {
            for y in 0..<2 {
                for x in 0..<2 {
                    let shown = pixel(frame.canvas, x, y)
                    #expect(shown.a == 255, "(\(x), \(y))")
                    #expect(
                        abs(Int(shown.r) - Int(colour.r)) <= 1 && abs(Int(shown.g) - Int(colour.g)) <= 1
                            && abs(Int(shown.b) - Int(colour.b)) <= 1)
                }
            }
        }
    }

    @Test func zeroIsTheLosslessEncoding() throws {
        for frames in [Self.shaded(seed: 5), GIFSamples.blink(), GIFSamples.noise(), GIFSamples.random(seed: 7)] {
            let delays = Array(repeating: 3, count: frames.count)
            let lossless = try GIFEncoder.encode(frames: frames, delays: delays, options: GIFOptions(lossy: 0))
            let plain = try GIFEncoder.encode(frames: frames, delays: delays, options: GIFOptions())
            #expect(lossless.bytes == plain.bytes)
            let decoded = try GIFDecoder.decode(lossless.bytes)
            #expect(Self.shownFrames(decoded, delays: delays) == frames)
        }
    }

    @Test func framesShownWithinTheToleranceMerge() throws {
        // Four frames that differ by 2 levels: one image, its delay the sum.
        let frames = (0..<4).map { k in
            makeImage(width: 8, height: 8) { x, _ in x < 2 ? .clear : Pixel(UInt8(100 + 2 * (k % 2)), 50, 50) }
        }
        let encoded = try GIFEncoder.encode(frames: frames, delays: [3, 4, 3, 4], options: GIFOptions(lossy: 2))
        let decoded = try GIFDecoder.decode(encoded.bytes)
        #expect(decoded.frames.map(\.delay) == [14])
        #expect(pixel(decoded.frames[0].canvas, 5, 5) == Pixel(100, 50, 50))
        #expect(pixel(decoded.frames[0].canvas, 1, 5) == .clear)
    }

    @Test(arguments: [-1, 256])
    func toleranceOutsideTheRangeIsRefused(lossy: Int) {
        #expect(throws: EncodeError.self) {
            try GIFEncoder.encode(
                frames: GIFSamples.blink(), delays: Array(repeating: 4, count: 6),
                options: GIFOptions(lossy: lossy))
        }
    }

    @Test func paletteSlotsLibimagequantLeavesFreeTakeTheWorstServedColours() {
        // Black is in the palette. White costs 3 · 3·255² = 585 225, grey 10 · 3·127² = 483 870,
        // so white comes first, then grey (still 3·127² from black), then nothing is left.
        let histogram = ColorHistogram(colors: [0x000000, 0x7F7F7F, 0xFFFFFF], counts: [50, 10, 3])
        #expect(GIFPalette.completed([0x000000], from: histogram, toAtMost: 255) == [0x000000, 0xFFFFFF, 0x7F7F7F])
        #expect(GIFPalette.completed([0x000000], from: histogram, toAtMost: 2) == [0x000000, 0xFFFFFF])
    }
}
