// SPDX-License-Identifier: GPL-3.0-or-later

import Dispatch
public import Encode
import Foundation
public import Render
public import Spec
public import Timeline

/// Frames of one preset, rendered for one frame rate and scale.
public struct RenderedAnimation: Equatable, Sendable {
    /// The composition the frames show (after command-line overrides).
    public var composition: Composition
    /// Which instants the frames are.
    public var plan: LoopPlan
    /// Pixels per point the frames were rendered at.
    public var scale: Double
    /// One straight-alpha image per frame, `plan.frameCount` of them.
    public var frames: [RGBAImage]

    /// Frames already rendered; see the properties.
    public init(composition: Composition, plan: LoopPlan, scale: Double, frames: [RGBAImage]) {
        self.composition = composition
        self.plan = plan
        self.scale = scale
        self.frames = frames
    }
}

/// The library face of the command: render a composition's frames, then encode them. The CLI and
/// the benchmark both go through here.
public enum Exporter {
    /// Whether fontconfig has a font family (for the decoder's `font-missing` lint).
    public static let fontAvailable: @Sendable (String) -> Bool = { FontLibrary.installedFamily($0) != nil }

    /// GIF players cannot show delays under 2 cs (semantics §8.4), so GIFs top out at 50 fps.
    public static let maximumGIFFrameRate = 50.0

    /// The loop plan a GIF of `composition` uses when the frames are planned by `plan`: the same
    /// plan, or one at `maximumGIFFrameRate` when `plan.fps` is higher; in both cases with at most
    /// one frame per 2 cs of the period, so that no delay rounds below 2 cs (semantics §8.4) even
    /// when the period is not a whole number of frames.
    /// - Parameters:
    ///   - plan: the plan at the requested frame rate.
    ///   - composition: the composition `plan` was made for.
    ///   - duration: the same period override `plan` was made with, in seconds, or nil.
    /// - Throws: `LoopPlanError` as `LoopPlan.make` does.
    public static func gifPlan(for plan: LoopPlan, of composition: Composition, duration: Double?)
        throws(LoopPlanError)
        -> LoopPlan
    {
        var gifPlan =
            plan.fps > maximumGIFFrameRate
            ? try LoopPlan.make(for: composition, fps: maximumGIFFrameRate, duration: duration) : plan
        let mostFrames = max(1, Int((gifPlan.period * 100).rounded()) / 2)
        if gifPlan.frameCount > mostFrames { gifPlan.frameCount = mostFrames }
        return gifPlan
    }

    /// Renders every frame of one loop.
    /// - Parameters:
    ///   - composition: the validated preset.
    ///   - fps: frames per second, > 0.
    ///   - duration: loop period override in seconds, or nil to use the preset's or the computed one.
    ///   - scale: pixels per point, > 0.
    ///   - workers: frames rendered at once, ≥ 1 (default: one per core). The frames are the same
    ///     whatever the number: each is a pure function of its time.
    ///   - progress: called once per finished frame, from any thread.
    /// - Throws: `LoopPlanError` when no loop period can be found; `RenderError` when Cairo fails.
    public static func render(
        _ composition: Composition, fps: Double, duration: Double? = nil, scale: Double = 1,
        workers: Int? = nil, progress: (@Sendable () -> Void)? = nil
    ) throws -> RenderedAnimation {
        let plan = try LoopPlan.make(for: composition, fps: fps, duration: duration)
        return try render(composition, plan: plan, scale: scale, workers: workers, progress: progress)
    }

    /// Renders the frames of an existing loop plan; see `render(_:fps:duration:scale:workers:progress:)`.
    /// - Throws: `RenderError` when Cairo fails.
    public static func render(
        _ composition: Composition, plan: LoopPlan, scale: Double = 1, workers: Int? = nil,
        progress: (@Sendable () -> Void)? = nil
    ) throws -> RenderedAnimation {
        let frames = try renderFrames(
            composition, times: plan.frameTimes, scale: scale, workers: workers, progress: progress)
        return RenderedAnimation(composition: composition, plan: plan, scale: scale, frames: frames)
    }

    /// Renders the one frame at `time` seconds on the preset's clock (for `--frame`/`--time`).
    /// - Throws: `RenderError` when Cairo fails.
    public static func still(_ composition: Composition, at time: Double, scale: Double = 1) throws -> RGBAImage {
        try SceneRenderer.render(SceneEvaluator.scene(of: composition, at: time), scale: scale)
    }

    /// Renders the scenes at `times` (seconds) on up to `workers` threads (default: one per core),
    /// in any order: each frame is a pure function of its time, so the result never depends on
    /// the thread count. `progress` is called once per finished frame.
    /// - Throws: the first `RenderError` in frame order.
    public static func renderFrames(
        _ composition: Composition, times: [Double], scale: Double, workers: Int? = nil,
        progress: (@Sendable () -> Void)? = nil
    ) throws -> [RGBAImage] {
        let results = ResultSlots(count: times.count)
        let threads = max(1, min(workers ?? ProcessInfo.processInfo.activeProcessorCount, times.count))
        DispatchQueue.concurrentPerform(iterations: threads) { _ in
            while let i = results.claim() {
                let scene = SceneEvaluator.scene(of: composition, at: times[i])
                do throws(RenderError) {
                    results.set(i, .success(try SceneRenderer.render(scene, scale: scale)))
                } catch {
                    results.set(i, .failure(error))
                }
                progress?()
            }
        }
        return try results.values()
    }

    /// Encodes the frames as a looping GIF with delays by cumulative rounding.
    public static func gif(_ animation: RenderedAnimation, options: GIFOptions) throws -> GIFEncoding {
        let delays = FrameTiming.centisecondDelays(
            period: animation.plan.period, frameCount: animation.plan.frameCount)
        return try GIFEncoder.encode(frames: animation.frames, delays: delays, options: options)
    }

    /// Lays the frames out as a sprite sheet with its JSON data.
    public static func sheet(
        _ animation: RenderedAnimation, imageName: String, columns: Int?, padding: Int, extrude: Int = 0,
        trim: Bool = false, layout: SheetLayout = .grid
    ) throws -> SpriteSheet {
        let plan = animation.plan
        let durations = FrameTiming.millisecondDurations(period: plan.period, frameCount: plan.frameCount)
        let options = SpriteSheetOptions(
            name: animation.composition.name, imageName: imageName, columns: columns,
            padding: padding, extrude: extrude, trim: trim, layout: layout, scale: animation.scale,
            frameRate: Double(plan.frameCount) / plan.period, loopSeconds: plan.period,
            version: Command.version)
        return try SpriteSheetBuilder.build(frames: animation.frames, durations: durations, options: options)
    }
}

/// Per-frame results written from several threads, each index exactly once.
private final class ResultSlots: @unchecked Sendable {
    private var slots: [Result<RGBAImage, RenderError>?]
    private var nextUnclaimed = 0
    private let lock = NSLock()

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    /// The next frame index no thread has taken yet, or nil when all are taken.
    func claim() -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard nextUnclaimed < slots.count else { return nil }
        nextUnclaimed += 1
        return nextUnclaimed - 1
    }

    func set(_ index: Int, _ result: Result<RGBAImage, RenderError>) {
        lock.lock()
        slots[index] = result
        lock.unlock()
    }

    func values() throws(RenderError) -> [RGBAImage] {
        var images: [RGBAImage] = []
        images.reserveCapacity(slots.count)
        for slot in slots {
            switch slot {
            case .success(let image)?: images.append(image)
            case .failure(let error)?: throw error
            case nil: throw RenderError("a frame was not rendered")
            }
        }
        return images
    }
}
