import Export
import Raster
import Render
import Spec
import Testing
import Timeline

// Issue 20: one cache budget for the whole process, so jobs that run side by side do not each
// keep up to 256 MiB of frames; frames are kept run-length packed and given back as the last
// reader goes.

/// circular's loop at 1× and the packed bytes of all its frames (measured with a roomy pool).
private func circularLoop() throws -> (composition: Composition, plan: LoopPlan, packedBytes: Int) {
    let composition = try PresetLoader.load(contentsOf: BadInputTests.circular).composition
    let plan = try LoopPlan.make(for: composition, fps: composition.fps)
    let pool = FrameCachePool(capacity: 1 << 30)
    let source = RenderedFrames(composition, sampleTimes: plan.sampleTimes, scale: 1, workers: 2, pool: pool)
    let frames = try source.frames(0..<source.frameCount)
    let packed = frames.reduce(0) { $0 + PackedFrame($1).byteCount }
    #expect(source.reservedBytes == packed)
    #expect(pool.reservedBytes == packed)
    return (composition, plan, packed)
}

@Test func jobsSideBySideShareOneFrameCache() throws {
    let (composition, plan, packedBytes) = try circularLoop()
    let count = plan.sampleTimes.count
    // circular's 120 frames of 64×64 pack to 12.6 % of their 1 966 080 RGBA bytes (its
    // anti-aliased ring is most of a frame this small).
    #expect(packedBytes * 4 < count * 64 * 64 * 4)
    // Room for one packed loop: the first job keeps its frames, the second none.
    let pool = FrameCachePool(capacity: packedBytes)
    func frames() -> RenderedFrames {
        RenderedFrames(composition, sampleTimes: plan.sampleTimes, scale: 1, workers: 2, pool: pool)
    }
    /// Two passes over the loop, as a GIF's survey and encode make: the frames rendered.
    func twoPasses(_ source: RenderedFrames) throws -> Int {
        for _ in 0..<2 { _ = try source.frames(0..<source.frameCount) }
        return source.renderCount
    }
    var first: RenderedFrames? = frames()
    let second = frames()
    #expect(pool.reservedBytes == 0)
    #expect(try twoPasses(try #require(first)) == count)
    #expect(pool.reservedBytes == packedBytes)
    #expect(first?.keptFrameCount == count)
    #expect(try twoPasses(second) == 2 * count)
    #expect(second.keptFrameCount == 0)
    // Rendered again or unpacked, the pixels are the same.
    #expect(try first?.frames(7..<8).first?.pixels == second.frames(7..<8).first?.pixels)
    first = nil
    #expect(pool.reservedBytes == 0)
    let third = frames()
    #expect(try twoPasses(third) == count)
    #expect(pool.reservedBytes == packedBytes)
}

// A source keeps what its own limit allows, frame by frame, and renders only the rest again.
@Test func aLoopLargerThanTheLimitKeepsWhatFits() throws {
    let (composition, plan, packedBytes) = try circularLoop()
    let count = plan.sampleTimes.count
    let pool = FrameCachePool(capacity: 1 << 30)
    let source = RenderedFrames(
        composition, sampleTimes: plan.sampleTimes, scale: 1, workers: 1, cacheLimit: packedBytes / 2, pool: pool)
    let firstPass = try source.frames(0..<count)
    let kept = source.keptFrameCount
    #expect(kept > 0 && kept < count)
    #expect(source.reservedBytes <= packedBytes / 2)
    #expect(pool.reservedBytes == source.reservedBytes)
    #expect(try source.frames(0..<count) == firstPass)
    #expect(source.renderCount == 2 * count - kept)
    // No limit: nothing kept, every pass renders.
    let none = RenderedFrames(
        composition, sampleTimes: plan.sampleTimes, scale: 1, workers: 1, cacheLimit: 0, pool: pool)
    _ = try none.frames(0..<4)
    _ = try none.frames(0..<4)
    #expect(none.renderCount == 8)
    #expect(none.reservedBytes == 0)
}

// The last reader of a cached loop (a GIF + sheet job's sheet) drops each frame as it reads it,
// so the pool gets the bytes back while the sheet's pages are drawn.
@Test func framesReleasedAfterReadingGoBackToThePool() throws {
    let (composition, plan, packedBytes) = try circularLoop()
    let count = plan.sampleTimes.count
    let pool = FrameCachePool(capacity: packedBytes)
    let source = RenderedFrames(composition, sampleTimes: plan.sampleTimes, scale: 1, workers: 2, pool: pool)
    let kept = try source.frames(0..<count)  // the GIF's passes: rendered once, kept
    #expect(source.renderCount == count)
    #expect(pool.reservedBytes == packedBytes)
    source.releaseFramesAfterReading()
    #expect(pool.reservedBytes == packedBytes)
    var read = 0
    try source.forEachBatch { first, frames in
        read += frames.count
        #expect(frames == Array(kept[first..<(first + frames.count)]))
        let left = kept[read...].reduce(0) { $0 + PackedFrame($1).byteCount }
        #expect(pool.reservedBytes == left)
        #expect(source.reservedBytes == left)
        #expect(source.keptFrameCount == count - read)
    }
    // Read from the cache, not rendered again.
    #expect(source.renderCount == count)
    #expect(pool.reservedBytes == 0)
    // Another job can now keep its whole loop.
    let other = RenderedFrames(composition, sampleTimes: plan.sampleTimes, scale: 1, workers: 2, pool: pool)
    _ = try other.frames(0..<count)
    #expect(pool.reservedBytes == packedBytes)
    // A frame asked for again is rendered again, alike, and not kept.
    #expect(try source.frames(5..<7) == Array(kept[5..<7]))
    #expect(source.renderCount == count + 2)
    _ = try source.frames(5..<7)
    #expect(source.renderCount == count + 4)
    #expect(source.reservedBytes == 0)
}

// Only the last target reading a plan's frames may let them go.
@Test func lastReaderOfEachPlan() throws {
    let composition = try PresetLoader.load(contentsOf: BadInputTests.circular).composition
    let plan = try LoopPlan.make(for: composition, fps: composition.fps)
    let other = try LoopPlan.make(for: composition, fps: composition.fps / 2)
    func target(_ kind: OutputFormatKind) -> OutputTarget { OutputTarget(kind: kind, path: "out/x") }
    #expect(Exporter.lastReaders([target(.gif), target(.sheet)], plans: [plan, plan]) == [false, true])
    #expect(Exporter.lastReaders([target(.sheet), target(.gif)], plans: [plan, plan]) == [false, true])
    #expect(Exporter.lastReaders([target(.gif), target(.sheet)], plans: [other, plan]) == [true, true])
    // A Lottie file reads no frames and a still has frames of its own.
    #expect(
        Exporter.lastReaders([target(.gif), target(.lottie), target(.still)], plans: [plan, plan, plan])
            == [true, false, false])
    // Only a format that reads each frame once, in order, is allowed to drop them.
    #expect(SheetFormat().readsFramesOnce(settings: ExportSettings()))
    var trimmed = ExportSettings()
    trimmed.trim = true
    #expect(!SheetFormat().readsFramesOnce(settings: trimmed))
    #expect(!GIFFormat().readsFramesOnce(settings: ExportSettings()))
}

@Test func packedFramesUnpackToTheSamePixels() throws {
    // 10 transparent, 2 literals, 5 blue: run (2 words), literal (3 words), run (2 words).
    let transparent: [UInt8] = [0, 0, 0, 0]
    let red: [UInt8] = [255, 0, 0, 255]
    let half: [UInt8] = [255, 0, 0, 128]
    let blue: [UInt8] = [0, 0, 255, 255]
    let row =
        Array([[UInt8]](repeating: transparent, count: 10).joined()) + red + half
        + Array([[UInt8]](repeating: blue, count: 5).joined())
    let image = try #require(RGBAImage(width: 17, height: 1, pixels: row))
    let packed = PackedFrame(image)
    #expect(packed.isPacked)
    #expect(packed.byteCount == 7 * 4)
    #expect(packed.unpacked() == image)
    // Runs of 1, 2 and 3 at the edges and between runs; a run of exactly `minimumRun`.
    let pattern: [[UInt8]] = [red, blue, blue, red, red, red, half, half, transparent, transparent, transparent]
    let mixed = try #require(RGBAImage(width: 11, height: 1, pixels: Array(pattern.joined())))
    #expect(PackedFrame(mixed).unpacked() == mixed)
    // Nothing repeats: kept as RGBA, the same bytes.
    var noise: [UInt8] = []
    var state: UInt32 = 12345
    for _ in 0..<(64 * 64 * 4) {
        state = state &* 1_103_515_245 &+ 12345
        noise.append(UInt8(truncatingIfNeeded: state >> 16))
    }
    let random = try #require(RGBAImage(width: 64, height: 64, pixels: noise))
    let kept = PackedFrame(random)
    #expect(!kept.isPacked)
    #expect(kept.byteCount == 64 * 64 * 4)
    #expect(kept.unpacked() == random)
    // An empty frame: one run.
    let empty = RGBAImage(width: 300, height: 200)
    #expect(PackedFrame(empty).byteCount == 8)
    #expect(PackedFrame(empty).unpacked() == empty)
    // A rendered frame round-trips.
    let composition = try PresetLoader.load(contentsOf: BadInputTests.circular).composition
    let frame = try Exporter.still(composition, at: 0.4, scale: 3)
    #expect(PackedFrame(frame).isPacked)
    #expect(PackedFrame(frame).unpacked() == frame)
}
