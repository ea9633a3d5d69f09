// SPDX-License-Identifier: GPL-3.0-or-later

public import Encode
import Foundation
import OutputFiles
public import Raster
import Render
public import Spec
public import Timeline
import ToolInfo

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

/// One composition at one scale, exported to a set of targets: what `Exporter.export` takes.
public struct ExportRequest: Sendable {
    /// The validated composition (overrides applied).
    public var composition: Composition
    /// The frames asked for (`--fps`, `--duration`); each format may use fewer (`framePlan`).
    public var plan: LoopPlan
    /// The period override `plan` was made with, seconds, or nil.
    public var duration: Double?
    /// Pixels per point, > 0.
    public var scale: Double
    /// What to make, in order.
    public var targets: [OutputTarget]
    /// Every format option.
    public var settings: ExportSettings
    /// For `.still` targets: the instant on the preset's clock, seconds.
    public var stillTime: Double?
    /// For `.still` targets named by frame (`--frame N`): the frame of `plan` they are. It is
    /// drawn at `plan.sampleTime(ofFrame:)`, the exact instant the loop's own frames are drawn
    /// at, so it is frame N of `--frames` pixel for pixel; `stillTime` alone is a double, which
    /// read back as a decimal can fall an ulp before a boundary (circular-progress's frame 22,
    /// 191/15 s, read "21%" where the loop's frame 22 reads "22%").
    public var stillFrame: Int?

    /// A request; see the properties.
    public init(
        composition: Composition, plan: LoopPlan, duration: Double? = nil, scale: Double = 1,
        targets: [OutputTarget], settings: ExportSettings = ExportSettings(), stillTime: Double? = nil,
        stillFrame: Int? = nil
    ) {
        self.composition = composition
        self.plan = plan
        self.duration = duration
        self.scale = scale
        self.targets = targets
        self.settings = settings
        self.stillTime = stillTime
        self.stillFrame = stillFrame
    }

    /// Each target's own frame plan (`OutputFormat.framePlan`), in target order.
    /// - Throws: `LoopPlanError` as `LoopPlan.make` does.
    public func framePlans() throws(LoopPlanError) -> [LoopPlan] {
        var plans: [LoopPlan] = []
        for target in targets {
            plans.append(
                target.kind == .still
                    ? plan : try target.kind.format.framePlan(for: plan, of: composition, duration: duration))
        }
        return plans
    }

    /// Frame width and height in pixels.
    public var pixelSize: (width: Int, height: Int) {
        SceneRenderer.pixelSize(width: composition.canvas.width, height: composition.canvas.height, scale: scale)
    }

    /// Every problem the targets' formats find before rendering (`OutputFormat.preflight`).
    /// - Throws: `LoopPlanError` as `framePlans` does.
    public func preflight() throws(LoopPlanError) -> [String] {
        let plans = try framePlans()
        let size = pixelSize
        return zip(targets, plans).flatMap { target, plan in
            target.kind.format.preflight(plan: plan, width: size.width, height: size.height, settings: settings)
        }
    }

    /// Every file the request writes, in order (targets made only for preview left out).
    /// - Throws: `LoopPlanError` as `framePlans` does.
    public func paths() throws(LoopPlanError) -> [FilePath] {
        let plans = try framePlans()
        let size = pixelSize
        return zip(targets, plans).filter { $0.0.written }.flatMap {
            $0.0.paths(plan: $0.1, width: size.width, height: size.height, settings: settings)
        }
    }

    /// Frames rendered when every target is made and the loop fits the frame cache: one render
    /// per distinct frame plan.
    /// - Throws: `LoopPlanError` as `framePlans` does.
    public func framesToRender() throws(LoopPlanError) -> Int {
        if stillTime != nil, targets.allSatisfy({ $0.kind == .still }) { return 1 }
        var seen: [LoopPlan] = []
        for p in try framePlans() where !seen.contains(p) { seen.append(p) }
        return seen.map(\.frameCount).reduce(0, +)
    }
}

/// What `Exporter.export` made: one product per target, and warnings about the whole request.
public struct ExportResult: Sendable {
    /// One per target, in target order.
    public var products: [FormatProduct]
    /// Warnings without the `warning: ` prefix (an animation whose every frame is empty).
    public var warnings: [String]
}

/// The library face of the tool: render a composition's frames and encode them into files. The
/// CLI and the benchmark both go through here.
public enum Exporter {
    /// The tool's version, written into sheet metadata and reports.
    public static let version = ToolInfo.version

    /// Whether fontconfig has a font family (for the decoder's `font-missing` lint).
    public static let fontAvailable: @Sendable (String) -> Bool = { FontLibrary.installedFamily($0) != nil }

    /// Measures text as the renderer sets it (`FontLibrary.measure`), for the decoder's
    /// `@name.width` and `@name.height`.
    public static let measureText: TextMeasurer = { string, content in
        FontLibrary.measure(
            string, family: content.fontFamily, size: content.fontSize, weight: content.fontWeight,
            features: content.features)
    }

    /// Makes every target of `request` and hands its files to `sink` (targets with
    /// `written == false` are made but their files dropped). Targets with the same frame plan
    /// share one `RenderedFrames`, so a loop that fits its cache is rendered once; each format
    /// streams its frames in batches, so memory does not grow with the loop beyond that cache.
    /// - Parameters:
    ///   - workers: threads for rendering and encoding, ≥ 1.
    ///   - keepBytes: keep each product's main file bytes (for `--preview`).
    ///   - progress: called once per frame rendered, from any thread.
    /// - Throws: `LoopPlanError`, `RenderError`, `EncodeError`, `PNGCodec.CodecError` or the
    ///   sink's `WriteError`; what the sink already took stays with it.
    public static func export(
        _ request: ExportRequest, to sink: any OutputSink, workers: Int, keepBytes: Bool = false,
        progress: (@Sendable () -> Void)? = nil
    ) throws -> ExportResult {
        let plans = try request.framePlans()
        var sources: [(plan: LoopPlan, frames: RenderedFrames)] = []
        func frames(for plan: LoopPlan, still: Bool) -> RenderedFrames {
            if still {
                let instant =
                    request.stillFrame.map(request.plan.sampleTime(ofFrame:))
                    ?? SampleTime(request.stillTime ?? plan.start)
                return RenderedFrames(
                    request.composition, sampleTimes: [instant], scale: request.scale, workers: 1,
                    progress: progress)
            }
            if let shared = sources.first(where: { $0.plan == plan }) { return shared.frames }
            let made = RenderedFrames(
                request.composition, sampleTimes: plan.sampleTimes, scale: request.scale, workers: workers,
                progress: progress)
            sources.append((plan, made))
            return made
        }
        let discard = DiscardingSink()
        var products: [FormatProduct] = []
        let lastReader = lastReaders(request.targets, plans: plans)
        for (index, (target, plan)) in zip(request.targets, plans).enumerated() {
            // A format that reads no pixels (Lottie) gets frames of its own that are never
            // rendered, so they do not count for the empty-loop warning.
            let source =
                target.kind.format.readsFrames
                ? frames(for: plan, still: target.kind == .still)
                : RenderedFrames(
                    request.composition, sampleTimes: plan.sampleTimes, scale: request.scale, workers: 1,
                    progress: nil)
            // The last reader of a shared loop that reads each frame once lets it go as it
            // reads, so the loop's cache shrinks while that reader's own buffers (a sheet
            // page) grow.
            if lastReader[index], target.kind.format.readsFramesOnce(settings: request.settings) {
                source.releaseFramesAfterReading()
            }
            let context = EncodeContext(
                composition: request.composition, plan: plan, scale: request.scale, settings: request.settings,
                workers: workers, keepBytes: keepBytes || !target.written)
            products.append(
                try target.kind.format.encode(
                    source, target: target, context: context, sink: target.written ? sink : discard))
        }
        var warnings: [String] = []
        if !sources.isEmpty, sources.allSatisfy({ !$0.frames.hasInk }) {
            let size = request.pixelSize
            warnings.append(
                "every frame is empty: nothing drawn lies on the \(size.width)×\(size.height) px canvas; check the layer positions and sizes against the canvas (and the params you set)"
            )
        }
        return ExportResult(products: products, warnings: warnings)
    }

    /// For each target, whether it is the last of `targets` to read the frames of its plan
    /// (stills, which get frames of their own, and formats that read no frames are never).
    public static func lastReaders(_ targets: [OutputTarget], plans: [LoopPlan]) -> [Bool] {
        var last = Array(repeating: false, count: targets.count)
        var seen: [LoopPlan] = []
        for index in targets.indices.reversed() {
            let kind = targets[index].kind
            guard kind.format.readsFrames, kind != .still, !seen.contains(plans[index]) else { continue }
            seen.append(plans[index])
            last[index] = true
        }
        return last
    }

    /// Renders every frame of one loop into memory (tests and the benchmark; exports stream
    /// through `export` instead).
    /// - Parameters:
    ///   - composition: the validated preset.
    ///   - fps: frames per second, > 0.
    ///   - duration: loop period override in seconds, or nil to use the preset's or the computed one.
    ///   - scale: pixels per point, > 0.
    ///   - workers: frames rendered at once, ≥ 1 (default: one per core). The frames are the same
    ///     whatever the number: each is a pure function of its time.
    /// - Throws: `LoopPlanError` when no loop period can be found; `RenderError` when Cairo fails.
    public static func render(
        _ composition: Composition, fps: Double, duration: Double? = nil, scale: Double = 1,
        workers: Int? = nil
    ) throws -> RenderedAnimation {
        let plan = try LoopPlan.make(for: composition, fps: fps, duration: duration)
        return try render(composition, plan: plan, scale: scale, workers: workers)
    }

    /// Renders the frames of an existing loop plan; see `render(_:fps:duration:scale:workers:)`.
    /// - Throws: `RenderError` when Cairo fails.
    public static func render(
        _ composition: Composition, plan: LoopPlan, scale: Double = 1, workers: Int? = nil
    ) throws -> RenderedAnimation {
        let source = RenderedFrames(
            composition, sampleTimes: plan.sampleTimes, scale: scale, workers: workers, cacheLimit: 0)
        let frames = try source.frames(0..<source.frameCount)
        return RenderedAnimation(composition: composition, plan: plan, scale: scale, frames: frames)
    }

    /// Renders the one frame at `time` seconds on the preset's clock.
    /// - Throws: `RenderError` when Cairo fails.
    public static func still(_ composition: Composition, at time: Double, scale: Double = 1) throws -> RGBAImage {
        try SceneRenderer.render(SceneEvaluator.scene(of: composition, at: time), scale: scale)
    }

    /// Encodes rendered frames as a looping GIF with delays by cumulative rounding.
    /// - Throws: `EncodeError` as `GIFEncoder.encode` does.
    public static func gif(_ animation: RenderedAnimation, options: GIFOptions) throws -> GIFEncoding {
        let delays = FrameTiming.centisecondDelays(
            period: animation.plan.period, frameCount: animation.plan.frameCount)
        return try GIFEncoder.encode(frames: animation.frames, delays: delays, options: options)
    }

    /// Lays rendered frames out as a sprite sheet with its JSON data.
    /// - Throws: `EncodeError` as `SpriteSheetBuilder.build` does.
    public static func sheet(
        _ animation: RenderedAnimation, imageName: String, columns: Int?, padding: Int, extrude: Int = 0,
        trim: Bool = false, layout: SheetLayout = .grid, maxSize: Int = 4096, powerOfTwo: Bool = false,
        mergeDuplicates: Bool = false
    ) throws -> SpriteSheet {
        let plan = animation.plan
        let durations = FrameTiming.millisecondDurations(period: plan.period, frameCount: plan.frameCount)
        let options = SpriteSheetOptions(
            name: animation.composition.name, imageName: imageName, columns: columns,
            padding: padding, extrude: extrude, trim: trim, layout: layout, maxSize: maxSize, powerOfTwo: powerOfTwo,
            mergeDuplicates: mergeDuplicates, scale: animation.scale,
            frameRate: Double(plan.frameCount) / plan.period, loopSeconds: plan.period,
            version: version)
        return try SpriteSheetBuilder.build(frames: animation.frames, durations: durations, options: options)
    }
}

/// Per-index results written from several threads, each index exactly once.
final class Slots<T: Sendable>: @unchecked Sendable {
    private var slots: [Result<T, any Error>?]
    private var nextUnclaimed = 0
    private let lock = NSLock()

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    /// The next index no thread has taken yet, or nil when all are taken.
    func claim() -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard nextUnclaimed < slots.count else { return nil }
        nextUnclaimed += 1
        return nextUnclaimed - 1
    }

    func set(_ index: Int, _ result: Result<T, any Error>) {
        lock.lock()
        slots[index] = result
        lock.unlock()
    }

    /// Every value in index order.
    /// - Throws: the first failure in index order.
    func values() throws -> [T] {
        var values: [T] = []
        values.reserveCapacity(slots.count)
        for slot in slots {
            switch slot {
            case .success(let value)?: values.append(value)
            case .failure(let error)?: throw error
            case nil: throw RenderError("a frame was not produced")
            }
        }
        return values
    }
}
