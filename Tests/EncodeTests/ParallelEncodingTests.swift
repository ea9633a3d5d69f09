// SPDX-License-Identifier: GPL-3.0-or-later

import Raster
import Spec
import Synchronization
import Testing

@testable import Encode

#if canImport(Glibc)
    import Glibc
#endif

/// The encoder splits its per-frame work over `GIFOptions.workers` threads; nothing it writes
/// may depend on how many.
@Suite struct ParallelEncodingTests {
    /// Animations that exercise every stage: transparency that must be erased (disposal 2 and
    /// 3), merged frames, a quantised gradient, tolerance.
    static func samples() -> [(name: String, frames: [RGBAImage], options: GIFOptions)] {
        let gradient = (0..<6).map { k in
            makeImage(width: 48, height: 40) { x, y in
                if (6 * k..<6 * k + 9).contains(x), (10..<22).contains(y) { return .clear }
                return Pixel(UInt8(x * 5), UInt8(y * 6), UInt8((x + 2 * y) * 2))
            }
        }
        var samples: [(String, [RGBAImage], GIFOptions)] = [
            ("blink", GIFSamples.blink(), GIFOptions()),
            ("moving square", GIFSamples.movingSquare(), GIFOptions()),
            ("repeats", GIFSamples.repeats(), GIFOptions()),
            ("shaded, lossy 6", GIFLossyTests.shaded(seed: 3), GIFOptions(lossy: 6)),
        ]
        for dither in GIFDither.allCases {
            samples.append(("gradient, dither \(dither)", gradient, GIFOptions(dither: dither)))
        }
        for seed in 1...6 {
            samples.append(("random \(seed)", GIFSamples.random(seed: UInt64(seed)), GIFOptions()))
        }
        return samples
    }

    @Test func bytesDoNotDependOnTheWorkerCount() throws {
        for sample in Self.samples() {
            let delays = Array(repeating: 4, count: sample.frames.count)
            var options = sample.options
            options.workers = 1
            let single = try GIFEncoder.encode(frames: sample.frames, delays: delays, options: options)
            for workers in [2, 3, 8] {
                options.workers = workers
                let parallel = try GIFEncoder.encode(frames: sample.frames, delays: delays, options: options)
                #expect(parallel.bytes == single.bytes, "\(sample.name), \(workers) workers")
                #expect(parallel.collapsedEdgePixels == single.collapsedEdgePixels, "\(sample.name)")
            }
            // And the one-thread file still shows the frames (the tolerance sample within 6).
            let decoded = try GIFDecoder.decode(single.bytes)
            #expect(decoded.frames.map(\.delay).reduce(0, +) == delays.reduce(0, +), "\(sample.name)")
        }
    }

    @Test func parallelMapKeepsIndexOrderAndPerThreadState() throws {
        // Each thread's state counts the items it ran; the sum over threads is every item once.
        let results = ParallelWork.map(count: 1000, workers: 4, makeState: { 0 }) { i, ran in
            ran += 1
            return (i * i, ran)
        }
        #expect(results.map(\.0) == (0..<1000).map { $0 * $0 })
        // A thread's n-th item has ran == n, so the ones are the threads' first items.
        let firsts = results.filter { $0.1 == 1 }.count
        #expect((1...4).contains(firsts))
        #expect(ParallelWork.map(count: 0, workers: 4) { $0 }.isEmpty)
    }

    @Test(arguments: [1, 2, 5])
    func parallelUpdateRewritesEachBufferInPlace(workers: Int) {
        // 40 buffers of 5 000 bytes, each rewritten through a table: every byte must change as
        // the table says, in its own buffer, and no buffer may be copied on the way (the
        // point of `update`: the encoder rewrites 11 MB of index buffers this way).
        var buffers = (0..<40).map { k in (0..<5000).map { UInt8(truncatingIfNeeded: $0 * 7 + k) } }
        let expected = buffers.map { $0.map { $0 &+ 3 } }
        let before = buffers.map { $0.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) } }
        ParallelWork.update(&buffers, workers: workers, makeState: { 0 }) { _, buffer, ran in
            ran += 1
            buffer.withUnsafeMutableBufferPointer { bytes in
                for p in 0..<bytes.count { bytes[p] &+= 3 }
            }
        }
        #expect(buffers == expected)
        #expect(buffers.map { $0.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) } } == before)
        var empty: [[UInt8]] = []
        ParallelWork.update(&empty, workers: workers) { _, _ in Issue.record("no items, no calls") }
        #expect(empty.isEmpty)
    }

    @Test(arguments: [1, 2, 5])
    func pipelineConsumesEveryItemOnceInIndexOrder(workers: Int) {
        let consumed = Mutex<[Int]>([])
        let results = ParallelWork.pipeline(
            count: 500, workers: workers, makeState: { 0 },
            produce: { emit in for i in 0..<500 { emit(i * 3) } },
            consume: { i, item, ran in
                ran += 1
                consumed.withLock { $0.append(i) }
                return item + i
            })
        #expect(results == (0..<500).map { $0 * 4 })
        #expect(consumed.withLock { $0.sorted() } == Array(0..<500))
    }

    @Test func pipelineConsumesWhileTheProducerStillRuns() {
        // The producer emits item 0 and then waits until some thread has consumed it; if
        // consumers only started after production, item 0 would never be seen (the wait gives
        // up after 10 s, so a regression fails instead of hanging).
        let seen = Atomic<Bool>(false)
        var sawItDuringProduction = false
        _ = ParallelWork.pipeline(
            count: 3, workers: 2, makeState: {},
            produce: { emit in
                emit(0)
                for _ in 0..<10_000 where !seen.load(ordering: .acquiring) { usleep(1000) }
                sawItDuringProduction = seen.load(ordering: .acquiring)
                emit(1)
                emit(2)
            },
            consume: { i, item, _ in
                if i == 0 { seen.store(true, ordering: .releasing) }
                return item
            })
        #expect(sawItDuringProduction)
    }

    /// A pipeline of up to 200 items whose producer emits `emitted` items and then throws
    /// `Failure(index: emitted)`, and whose consumer throws at the `failing` indices: the error
    /// it throws and how many items were consumed.
    func failingPipeline(workers: Int, emitted: Int, failing: Set<Int>) -> (error: Failure?, consumed: Int) {
        let consumed = Atomic<Int>(0)
        do throws(Failure) {
            _ = try ParallelWork.pipeline(
                count: 200, workers: workers, makeState: {},
                produce: { (emit: (Int) -> Void) throws(Failure) in
                    for i in 0..<emitted { emit(i) }
                    throw Failure(index: emitted)
                },
                consume: { (i: Int, item: Int, _: inout Void) throws(Failure) -> Int in
                    consumed.add(1, ordering: .relaxed)
                    if failing.contains(i) { throw Failure(index: i) }
                    return item
                })
            return (nil, consumed.load(ordering: .relaxed))
        } catch {
            return (error, consumed.load(ordering: .relaxed))
        }
    }

    @Test(arguments: [1, 3])
    func pipelineThrowsTheLowestFailingItemThenTheProducersError(workers: Int) {
        #expect(failingPipeline(workers: workers, emitted: 200, failing: [17, 150]).error == Failure(index: 17))
        // The producer stops after 40 items: those are consumed, then its error is thrown.
        let stopped = failingPipeline(workers: workers, emitted: 40, failing: [])
        #expect(stopped.error == Failure(index: 40))
        #expect(stopped.consumed == 40)
    }

    struct Failure: Error, Equatable { var index: Int }

    @Test(arguments: [1, 3])
    func parallelMapThrowsTheLowestFailingIndex(workers: Int) {
        #expect(throws: Failure(index: 17)) {
            _ = try ParallelWork.map(count: 200, workers: workers) { (i: Int) throws(Failure) -> Int in
                if i == 17 || i == 150 || i == 199 { throw Failure(index: i) }
                return i
            }
        }
    }

    /// Every alpha (0, 1…254, 255) at every offset of the blocks the flattening works in,
    /// against `GIFAlphaPolicy.blend` and the threshold applied pixel by pixel.
    @Test(arguments: [nil, RGBAColor(red: 0.2, green: 0.6, blue: 1, alpha: 1)])
    func flatteningMatchesThePolicyPixelByPixel(matte: RGBAColor?) {
        var random = TestRandom(state: 77)
        let width = 67
        let height = 129
        let size = GIFAlphaPolicy.blockSize
        // Opaque and clear pixels at random, and one edge alpha per block, so a block whose only
        // edge pixel has a rare alpha still has to be found. Over the blocks of the three frames
        // (1 620 of 16 pixels, read four at a time, and each frame's last 3 pixels, read one at a
        // time, whose edge pixel is at offset 0, 1 and 2 in turn) the edge alphas run through
        // 1…254 and the offsets through all.
        let frames = (0..<3).map { k in
            makeImage(width: width, height: height) { x, y in
                let p = y * width + x
                let block = k * ((width * height + size - 1) / size) + p / size
                let r = UInt8(random.next(256))
                let g = UInt8(random.next(256))
                let b = UInt8(random.next(256))
                let pixelsInBlock = min(size, width * height - p / size * size)
                if p % size == block % pixelsInBlock { return Pixel(r, g, b, UInt8(1 + block % 254)) }
                return Pixel(r, g, b, random.next(2) == 0 ? 255 : 0)
            }
        }
        let options = GIFOptions(matte: matte, alphaThreshold: 100)
        let policy = GIFAlphaPolicy(options: options)
        let flattened = policy.flatten(frames, width: width, height: height)
        var collapsed = 0
        var anyTransparent = false
        for (k, frame) in frames.enumerated() {
            let got = flattened.frame(k)
            for p in 0..<(width * height) {
                let r = Int(frame.pixels[4 * p])
                let g = Int(frame.pixels[4 * p + 1])
                let b = Int(frame.pixels[4 * p + 2])
                let a = Int(frame.pixels[4 * p + 3])
                var want: UInt32
                switch (a, policy.matte) {
                case (0, _):
                    want = FlattenedFrames.transparent
                case (255, _):
                    want = GIFAlphaPolicy.pack(r, g, b)
                case (_, let m?):
                    want = GIFAlphaPolicy.pack(
                        GIFAlphaPolicy.blend(r, m.r, a), GIFAlphaPolicy.blend(g, m.g, a),
                        GIFAlphaPolicy.blend(b, m.b, a))
                case (_, nil):
                    collapsed += 1
                    want = a >= 100 ? GIFAlphaPolicy.pack(r, g, b) : FlattenedFrames.transparent
                }
                if want == FlattenedFrames.transparent { anyTransparent = true }
                #expect(got[p] == want, "frame \(k) pixel \(p) alpha \(a)")
            }
        }
        let survey = flattened.survey(workers: 2)
        #expect(survey.collapsedEdgePixels == collapsed)
        #expect(collapsed > 0 || matte != nil)
        #expect(survey.hasTransparency == anyTransparent)
        #expect(
            survey.histogram.counts.reduce(0, +)
                == (0..<3).reduce(0) { sum, k in
                    sum + flattened.frame(k).filter { $0 != FlattenedFrames.transparent }.count
                })
    }

    /// Frames are mapped through their survey slots (one byte per pixel up to 255 colours, two
    /// beyond); the indices must be the ones flattening and mapping again gives, for an exact
    /// palette and a quantised one (with a frame of about 1 050 colours).
    @Test(arguments: [false, true])
    func slotMappingMatchesMappingFlattenedFrames(quantised: Bool) throws {
        let frames = (0..<4).map { k in
            makeImage(width: 40, height: 30) { x, y in
                if (x + k) % 9 == 0 { return .clear }
                // Frame 3 of the quantised case: about 1 050 colours; the others: a handful.
                if quantised && k == 3 { return Pixel(UInt8((y * 40 + x) % 256), UInt8((y * 40 + x) / 256 * 50), 7) }
                return Pixel(UInt8(20 * ((x / 5 + k) % 6)), UInt8(30 * (y / 10)), 90)
            }
        }
        let flattened = GIFAlphaPolicy(options: GIFOptions()).flatten(frames, width: 40, height: 30)
        let survey = flattened.survey(workers: 2)
        #expect(
            survey.frameSlots.map { $0 != nil } == (quantised ? [true, true, true, false] : [true, true, true, true]))
        // The frame of more than 255 colours has two-byte slots instead.
        #expect(survey.frameWideSlots.map { $0 != nil } == [false, false, false, quantised])
        let palette = try GIFPalette.build(histogram: survey.histogram, hasTransparency: survey.hasTransparency)
        #expect(palette.quantized == quantised)
        var viaSlots = PaletteMapper(palette: palette)
        var viaColours = PaletteMapper(palette: palette)
        let a = viaSlots.index(
            flattened, colors: survey.frameColors, slots: survey.frameSlots, wideSlots: survey.frameWideSlots,
            workers: 2
        ).map(\.indices)
        let b = viaColours.index(flattened, workers: 1).map(\.indices)
        #expect(a == b)
        #expect(Set(a.joined()).count > 5)
    }
}
