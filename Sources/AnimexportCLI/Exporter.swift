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
    /// GIF players cannot show delays under 2 cs (semantics §8.4), so GIFs top out at 50 fps.
    public static let maximumGIFFrameRate = 50.0

    /// Renders every frame of one loop.
    /// - Parameters:
    ///   - composition: the validated preset.
    ///   - fps: frames per second, > 0.
    ///   - duration: loop period override in seconds, or nil to use the preset's or the computed one.
    ///   - scale: pixels per point, > 0.
    /// - Throws: `LoopPlanError` when no loop period can be found; `RenderError` when Cairo fails.
    public static func render(
        _ composition: Composition, fps: Double, duration: Double? = nil, scale: Double = 1
    ) throws -> RenderedAnimation {
        let plan = try LoopPlan.make(for: composition, fps: fps, duration: duration)
        let frames = try renderFrames(composition, times: plan.frameTimes, scale: scale)
        return RenderedAnimation(composition: composition, plan: plan, scale: scale, frames: frames)
    }

    /// Renders the scenes at `times` in parallel (each frame is a pure function of its time).
    public static func renderFrames(_ composition: Composition, times: [Double], scale: Double)
        throws -> [RGBAImage]
    {
        let results = ResultSlots(count: times.count)
        DispatchQueue.concurrentPerform(iterations: times.count) { i in
            let scene = SceneEvaluator.scene(of: composition, at: times[i])
            do throws(RenderError) {
                results.set(i, .success(try SceneRenderer.render(scene, scale: scale)))
            } catch {
                results.set(i, .failure(error))
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
    private let lock = NSLock()

    init(count: Int) { slots = Array(repeating: nil, count: count) }

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
