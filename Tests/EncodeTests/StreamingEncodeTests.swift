// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Raster
import Spec
import Synchronization
import Testing

@testable import Encode

/// A `FrameSource` that draws each frame when asked (`draw(k)`) and logs every call's range,
/// so a test can see how the encoders ask: how many frames at once, in what order, how often.
struct CountingSource: FrameSource {
    /// The ranges asked for, in call order.
    final class Log: Sendable {
        private let calls = Mutex<[Range<Int>]>([])
        func record(_ range: Range<Int>) { calls.withLock { $0.append(range) } }
        var ranges: [Range<Int>] { calls.withLock { $0 } }
    }

    let frameCount: Int
    let width: Int
    let height: Int
    let batchSize: Int
    let draw: @Sendable (Int) -> RGBAImage
    let log = Log()

    func frames(_ range: Range<Int>) throws -> [RGBAImage] {
        log.record(range)
        guard range.lowerBound >= 0, range.upperBound <= frameCount else {
            throw FrameSourceError("frames \(range) asked of \(frameCount)")
        }
        return range.map(draw)
    }

    /// The calls cut into passes, each a run of calls from frame 0 that ends at `frameCount`;
    /// nil when some call is larger than `batchSize`, empty, or does not start where the one
    /// before ended (or at 0 after a pass ended).
    func passes() -> Int? {
        var passes = 0
        var next = 0
        for range in log.ranges {
            guard !range.isEmpty, range.count <= batchSize, range.lowerBound == next else { return nil }
            next = range.upperBound
            if next == frameCount {
                passes += 1
                next = 0
            }
        }
        return next == 0 ? passes : nil
    }
}

/// The streaming entry points (`GIFEncoder.encode(source:)`, `SpriteSheetBuilder.build(source:)`)
/// ask for frames a batch at a time and write the same bytes as the whole-array ones.
@Suite struct StreamingEncodeTests {
    /// Frame `k` of a 64×64 animation: a 12×12 square of one of seven colours moving over a
    /// transparent screen, and frame `k`'s number in binary (white 1, black 0) along the
    /// bottom row, so no two frames are alike.
    static func numbered(_ k: Int, width: Int = 64, height: Int = 64) -> RGBAImage {
        let colours = [
            Pixel(230, 40, 40), Pixel(40, 200, 60), Pixel(30, 60, 220), Pixel(240, 200, 20),
            Pixel(200, 40, 200), Pixel(20, 200, 200), Pixel(120, 120, 120),
        ]
        let sx = (k * 3) % (width - 12)
        let sy = (k * 7) % (height - 13)
        return makeImage(width: width, height: height) { x, y in
            if y == height - 1 && x < 12 { return k >> x & 1 == 1 ? Pixel(255, 255, 255) : Pixel(0, 0, 0) }
            if (sx..<(sx + 12)).contains(x), (sy..<(sy + 12)).contains(y) { return colours[k % colours.count] }
            return .clear
        }
    }

    /// Frame `k` of a 40×30 gradient with more colours than a GIF table holds, shifting with
    /// `k`, a hole moving through it and some half-transparent edge pixels.
    static func gradient(_ k: Int) -> RGBAImage {
        makeImage(width: 40, height: 30) { x, y in
            if (2 * k % 30..<(2 * k % 30 + 8)).contains(x), (8..<18).contains(y) { return .clear }
            let a: UInt8 = x == 39 ? 100 : 255
            return Pixel(UInt8((x * 6 + k) % 256), UInt8(y * 8), UInt8((x + 2 * y + 3 * k) % 256), a)
        }
    }

    @Test(arguments: [1, 3, 7, 64])
    func gifEncoderAsksInOrderAtMostABatchAtATime(batchSize: Int) throws {
        let cases: [(name: String, count: Int, draw: @Sendable (Int) -> RGBAImage, options: GIFOptions)] = [
            ("numbered", 23, { Self.numbered($0) }, GIFOptions()),
            ("gradient", 11, Self.gradient, GIFOptions()),
            ("gradient, lossy 6", 11, Self.gradient, GIFOptions(lossy: 6)),
            ("gradient, Floyd–Steinberg", 11, Self.gradient, GIFOptions(dither: .floydSteinberg)),
            (
                "gradient, ordered, matte", 11, Self.gradient,
                GIFOptions(matte: RGBAColor(red: 1, green: 1, blue: 1), dither: .ordered)
            ),
        ]
        for sample in cases {
            let delays = (0..<sample.count).map { 2 + $0 % 3 }
            let whole = try GIFEncoder.encode(
                frames: (0..<sample.count).map(sample.draw), delays: delays, options: sample.options)
            for workers in [1, 3] {
                var options = sample.options
                options.workers = workers
                let source = CountingSource(
                    frameCount: sample.count, width: sample.draw(0).width, height: sample.draw(0).height,
                    batchSize: batchSize, draw: sample.draw)
                let streamed = try GIFEncoder.encode(source: source, delays: delays, options: options)
                #expect(streamed == whole, "\(sample.name), batches of \(batchSize), \(workers) workers")
                // Survey, table order, plan: three passes, each in order, never above a batch.
                #expect(source.passes() == 3, "\(sample.name): \(source.log.ranges)")
            }
        }
    }

    @Test(arguments: [false, true])
    func sheetBuilderAsksInOrderAtMostABatchAtATime(trim: Bool) throws {
        let frames = (0..<13).map { Self.numbered($0, width: 30, height: 24) }
        let durations = (0..<13).map { 40 + $0 }
        let options = SpriteSheetOptions(
            name: "numbered", imageName: "numbered.png", padding: 2, extrude: 1, trim: trim, frameRate: 25,
            loopSeconds: 0.52)
        let whole = try SpriteSheetBuilder.build(frames: frames, durations: durations, options: options)
        for batchSize in [1, 4, 13] {
            let source = CountingSource(
                frameCount: 13, width: 30, height: 24, batchSize: batchSize,
                draw: { Self.numbered($0, width: 30, height: 24) })
            let streamed = try SpriteSheetBuilder.build(source: source, durations: durations, options: options)
            #expect(streamed.image == whole.image, "batches of \(batchSize)")
            #expect(streamed.json == whole.json, "batches of \(batchSize)")
            #expect(streamed.frames == whole.frames, "batches of \(batchSize)")
            // Trimming first finds the boxes, then blits; otherwise one pass blits.
            #expect(source.passes() == (trim ? 2 : 1), "\(source.log.ranges)")
        }
    }

    @Test func sourceGivingTheWrongFramesIsAnError() throws {
        // A source that ignores the range's length: the encoders say so instead of writing
        // a wrong file.
        struct Greedy: FrameSource {
            let frameCount = 5
            let width = 8
            let height = 8
            let batchSize = 2
            func frames(_ range: Range<Int>) throws -> [RGBAImage] {
                Array(repeating: StreamingEncodeTests.numbered(0, width: 8, height: 8), count: 3)
            }
        }
        #expect(throws: EncodeError.self) {
            try GIFEncoder.encode(source: Greedy(), delays: Array(repeating: 4, count: 5), options: GIFOptions())
        }
        #expect(throws: EncodeError.self) {
            try SpriteSheetBuilder.build(
                source: Greedy(), durations: Array(repeating: 40, count: 5),
                options: SpriteSheetOptions(name: "g", imageName: "g.png", frameRate: 25, loopSeconds: 0.2))
        }
    }

    @Test func longAnimationRoundTripsThroughGiflibAndPillow() throws {
        // 2000 frames of 64×64, drawn when asked, 8 at a time.
        let count = 2000
        let source = CountingSource(
            frameCount: count, width: 64, height: 64, batchSize: 8, draw: { Self.numbered($0) })
        let delays = (0..<count).map { 2 + $0 % 4 }
        let encoded = try GIFEncoder.encode(source: source, delays: delays, options: GIFOptions(workers: 2))
        #expect(source.passes() == 3)
        #expect(encoded.frameCount == count)
        #expect(!encoded.quantized)
        #expect(encoded.hasTransparency)
        let decoded = try GIFDecoder.decode(encoded.bytes)
        #expect(decoded.frames.count == count)
        #expect(decoded.frames.map(\.delay) == delays)
        var wrong: [Int] = []
        for (k, frame) in decoded.frames.enumerated() where visibleDifferences(frame.canvas, Self.numbered(k)) != 0 {
            wrong.append(k)
        }
        #expect(wrong.isEmpty, "frames that differ from their input: \(wrong.prefix(10))")

        let path = try temporaryFile(encoded.bytes, named: "streamed-2000.gif")
        let pillow = try ExternalDecoder.pillow.frames(of: path, width: 64, height: 64)
        #expect(pillow.count == count)
        let pillowWrong = pillow.indices.filter { visibleDifferences(pillow[$0], Self.numbered($0)) != 0 }
        #expect(pillowWrong.isEmpty, "Pillow: frames that differ: \(pillowWrong.prefix(10))")
    }
}
