import Export
import Spec
import Testing
import Timeline

// Issue 20: one cache budget for the whole process, so jobs that run side by side do not each
// keep up to 256 MiB of frames.

@Test func jobsSideBySideShareOneFrameCache() throws {
    let composition = try PresetLoader.load(contentsOf: BadInputTests.circular).composition
    let plan = try LoopPlan.make(for: composition, fps: composition.fps)
    let loopBytes = 64 * 64 * 4 * plan.sampleTimes.count
    // Room for one loop and a half: the first job keeps its frames, the second cannot.
    let pool = FrameCachePool(capacity: loopBytes * 3 / 2)
    func frames() -> RenderedFrames {
        RenderedFrames(composition, sampleTimes: plan.sampleTimes, scale: 1, workers: 2, pool: pool)
    }
    /// Two passes over the loop, as a GIF's survey and encode make: the frames rendered.
    func twoPasses(_ source: RenderedFrames) throws -> Int {
        for _ in 0..<2 { _ = try source.frames(0..<source.frameCount) }
        return source.renderCount
    }
    var first: RenderedFrames? = frames()
    #expect(pool.reservedBytes == loopBytes)
    let second = frames()
    #expect(pool.reservedBytes == loopBytes)
    #expect(try twoPasses(try #require(first)) == plan.sampleTimes.count)
    #expect(try twoPasses(second) == 2 * plan.sampleTimes.count)
    // Rendered again or kept, the pixels are the same.
    #expect(try first?.frames(7..<8).first?.pixels == second.frames(7..<8).first?.pixels)
    first = nil
    #expect(pool.reservedBytes == 0)
    let third = frames()
    #expect(pool.reservedBytes == loopBytes)
    #expect(try twoPasses(third) == plan.sampleTimes.count)
}
