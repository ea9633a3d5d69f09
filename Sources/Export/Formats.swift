// SPDX-License-Identifier: GPL-3.0-or-later

import Dispatch
import Encode
import Foundation
import Render
import Spec
import Timeline

/// Animated GIF (`NAME.gif`): GIF89a through `GIFEncoder`, at most 50 fps.
public struct GIFFormat: OutputFormat {
    /// GIF players cannot show delays under 2 cs (semantics §8.4), so GIFs top out at 50 fps.
    public static let maximumFrameRate = 50.0

    /// A GIF format value.
    public init() {}
    /// `.gif`.
    public var kind: OutputFormatKind { .gif }
    /// `gif`.
    public var fileExtensions: [String] { ["gif"] }
    /// `image/gif`.
    public var mediaType: String { "image/gif" }
    /// `animated GIF`.
    public var title: String { "animated GIF" }

    /// `plan`, or one at `maximumFrameRate` when `plan.fps` is higher; in both cases with at most
    /// one frame per 2 cs of the period, so that no delay rounds below 2 cs (semantics §8.4) even
    /// when the period is not a whole number of frames.
    /// - Throws: `LoopPlanError` as `LoopPlan.make` does.
    public func framePlan(for plan: LoopPlan, of composition: Composition, duration: Double?) throws(LoopPlanError)
        -> LoopPlan
    {
        var gifPlan =
            plan.fps > Self.maximumFrameRate
            ? try LoopPlan.make(for: composition, fps: Self.maximumFrameRate, duration: duration) : plan
        let mostFrames = max(1, Int((gifPlan.period * 100).rounded()) / 2)
        if gifPlan.frameCount > mostFrames { gifPlan.frameCount = mostFrames }
        return gifPlan
    }

    /// GIF frames are 1…65535 pixels a side (GIF89a's logical screen is 16-bit).
    public func preflight(plan: LoopPlan, width: Int, height: Int, settings: ExportSettings) -> [String] {
        width <= 65535 && height <= 65535
            ? [] : ["a GIF is at most 65535 pixels a side; these frames are \(width)×\(height)"]
    }

    /// Encodes with `GIFEncoder`; the timing report reads the delays back from the file.
    /// - Throws: `EncodeError`, `RenderError`, or the sink's `WriteError`.
    public func encode(
        _ frames: any FrameSource, target: OutputTarget, context: EncodeContext, sink: any OutputSink
    ) throws -> FormatProduct {
        var options = context.settings.gif
        options.workers = context.workers
        let delays = FrameTiming.centisecondDelays(period: context.plan.period, frameCount: context.plan.frameCount)
        let encoded = try GIFEncoder.encode(
            frames: try frames.frames(0..<frames.frameCount), delays: delays, options: options)
        try sink.put(OutputFile(path: target.path, bytes: encoded.bytes))
        var product = FormatProduct(target: target)
        product.byteCount = encoded.bytes.count
        product.facts = "\(encoded.paletteSize) colours\(encoded.quantized ? " (quantised)" : "")"
        if encoded.collapsedEdgePixels > 0 {
            product.warnings.append(
                "\(target.path): \(encoded.collapsedEdgePixels) half-transparent edge pixels were made fully opaque or transparent (GIF has 1-bit alpha); pass --matte COLOR (the page colour) for smooth edges, or write APNG or WebP (real alpha)"
            )
        }
        // The delays as the file holds them (merged frames summed); decoding the file back to
        // read them held every frame's pixels at once.
        product.timing = TimingReport.make(plan: context.plan, delays: encoded.delays, grid: .centiseconds)
        if context.keepBytes { product.previewBytes = encoded.bytes }
        return product
    }
}

/// Sprite sheet (`NAME.png` + `NAME.json`) through `SpriteSheetBuilder` and `SheetPNGEncoder`.
public struct SheetFormat: OutputFormat {
    /// Largest sheet side written, pixels: the largest texture desktop GPUs accept.
    public static let maximumSide = 16384
    /// Largest sheet written, pixels: Pillow refuses images over twice its `MAX_IMAGE_PIXELS`
    /// (89 478 485) as decompression bombs, so every sheet we write opens there.
    public static let maximumPixels = 178_956_970

    /// A sheet format value.
    public init() {}
    /// `.sheet`.
    public var kind: OutputFormatKind { .sheet }
    /// `png`.
    public var fileExtensions: [String] { ["png"] }
    /// `sprite sheet + NAME.json`.
    public var title: String { "sprite sheet + NAME.json" }

    /// The PNG, then its JSON beside it (`x.png` → `x.json`).
    public func paths(of target: OutputTarget, frameCount: Int) -> [FilePath] {
        [target.path, Self.jsonPath(target.path)]
    }

    /// `dir/NAME.json` for `dir/NAME.png`.
    public static func jsonPath(_ png: FilePath) -> FilePath { png.deletingPathExtension + ".json" }

    /// Refuses a sheet larger than `maximumSide` or `maximumPixels` (sized without trimming, the
    /// largest it can be) before anything is rendered.
    public func preflight(plan: LoopPlan, width: Int, height: Int, settings: ExportSettings) -> [String] {
        guard let size = Self.untrimmedSize(frames: plan.frameCount, width: width, height: height, settings: settings)
        else { return ["the sprite sheet's size overflows; use fewer frames (--fps) or a smaller --scale"] }
        if size.width <= Self.maximumSide, size.height <= Self.maximumSide,
            size.width * size.height <= Self.maximumPixels
        {
            return []
        }
        return [
            "the sprite sheet of \(plan.frameCount) frames of \(width)×\(height) px would be \(size.width)×\(size.height) px (limits: \(Self.maximumSide) px a side, \(Self.maximumPixels) px in all, so that GPUs and image libraries load it); use a smaller --scale, a lower --fps, --columns, or write a GIF, APNG or WebP instead (--format)"
        ]
    }

    /// The sheet size `SpriteSheetBuilder` gives without trimming, or nil on overflow.
    static func untrimmedSize(frames count: Int, width: Int, height: Int, settings: ExportSettings)
        -> (width: Int, height: Int)?
    {
        let e = settings.extrude
        let p = settings.padding
        func span(_ cells: Int, _ side: Int) -> Int? {
            let (pitch, o1) = (side + 2 * e).addingReportingOverflow(p)
            let (all, o2) = pitch.multipliedReportingOverflow(by: cells)
            let (total, o3) = all.addingReportingOverflow(p)
            return o1 || o2 || o3 ? nil : total
        }
        switch settings.layout {
        case .grid:
            var columns = settings.columns ?? 1
            if settings.columns == nil { while columns * columns < count { columns += 1 } }
            columns = max(1, min(columns, count))
            let rows = (count + columns - 1) / columns
            guard let w = span(columns, width), let h = span(rows, height) else { return nil }
            return (w, h)
        case .horizontal:
            guard let w = span(count, width), let h = span(1, height) else { return nil }
            return (w, h)
        case .vertical:
            guard let w = span(1, width), let h = span(count, height) else { return nil }
            return (w, h)
        }
    }

    /// Builds the sheet, then writes its PNG and, after it, the JSON that describes it.
    /// - Throws: `EncodeError`, `RenderError`, or the sink's `WriteError`.
    public func encode(
        _ frames: any FrameSource, target: OutputTarget, context: EncodeContext, sink: any OutputSink
    ) throws -> FormatProduct {
        let plan = context.plan
        let s = context.settings
        let durations = FrameTiming.millisecondDurations(period: plan.period, frameCount: plan.frameCount)
        let options = SpriteSheetOptions(
            name: context.composition.name, imageName: target.path.lastComponent.unicode,
            columns: s.columns, padding: s.padding, extrude: s.extrude, trim: s.trim, layout: s.layout,
            scale: context.scale, frameRate: Double(plan.frameCount) / plan.period, loopSeconds: plan.period,
            version: s.version)
        let sheet = try SpriteSheetBuilder.build(source: frames, durations: durations, options: options)
        let png = try SheetPNGEncoder.encode(sheet.image, maximumColors: s.sheetColors).bytes
        let json = Self.jsonPath(target.path)
        try sink.put(OutputFile(path: target.path, bytes: png))
        try sink.put(OutputFile(path: json, bytes: sheet.json, describesEarlier: true))
        var product = FormatProduct(target: target)
        product.byteCount = png.count
        product.facts = "\(sheet.image.width)×\(sheet.image.height) sheet + \(json.lastComponent)"
        product.timing = TimingReport.make(plan: plan, delays: durations, grid: .milliseconds)
        product.sheet = SheetSummary(sheet)
        if context.keepBytes { product.previewBytes = png }
        return product
    }
}

/// Every frame as a PNG (`NAME-000.png`, …), at least three digits.
public struct FramesFormat: OutputFormat {
    /// A frames format value.
    public init() {}
    /// `.frames`.
    public var kind: OutputFormatKind { .frames }
    /// None: `--format frames` or `--frames DIR` ask for it.
    public var fileExtensions: [String] { [] }
    /// `PNG frames`.
    public var title: String { "PNG frames" }

    /// The prefix `directory/stem`.
    public func target(directory: FilePath, stem: String) -> OutputTarget {
        OutputTarget(kind: .frames, path: directory.appending(stem))
    }

    /// `prefix-000.png` … for every frame.
    public func paths(of target: OutputTarget, frameCount: Int) -> [FilePath] {
        (0..<frameCount).map { Self.framePath(target.path, $0, frameCount: frameCount) }
    }

    /// `prefix-007.png`, with at least three digits and as many as the last frame needs.
    public static func framePath(_ prefix: FilePath, _ index: Int, frameCount: Int) -> FilePath {
        let digits = max(3, String(max(0, frameCount - 1)).count)
        let number = String(index)
        return prefix + "-\(String(repeating: "0", count: max(0, digits - number.count)))\(number).png"
    }

    /// Encodes each batch's PNGs on `context.workers` threads and hands them over in order.
    /// - Throws: `PNGCodec.CodecError`, `RenderError`, or the sink's `WriteError`.
    public func encode(
        _ frames: any FrameSource, target: OutputTarget, context: EncodeContext, sink: any OutputSink
    ) throws -> FormatProduct {
        var product = FormatProduct(target: target)
        let count = frames.frameCount
        try frames.forEachBatch { first, images in
            let encoded = try pngs(images, workers: context.workers)
            for (offset, bytes) in encoded.enumerated() {
                try sink.put(
                    OutputFile(path: Self.framePath(target.path, first + offset, frameCount: count), bytes: bytes))
                product.byteCount += bytes.count
            }
        }
        product.facts = "\(count) PNG frames"
        return product
    }
}

/// One frame as a PNG (`--frame N`, `--time SEC`); its frames are a one-frame source.
public struct StillFormat: OutputFormat {
    /// A still format value.
    public init() {}
    /// `.still`.
    public var kind: OutputFormatKind { .still }
    /// `png`, chosen with `--frame`/`--time`.
    public var fileExtensions: [String] { [] }
    /// `one frame`.
    public var title: String { "one frame as PNG" }

    /// Frame 0 of `frames` as a PNG.
    /// - Throws: `PNGCodec.CodecError`, `RenderError`, or the sink's `WriteError`.
    public func encode(
        _ frames: any FrameSource, target: OutputTarget, context: EncodeContext, sink: any OutputSink
    ) throws -> FormatProduct {
        let bytes = try PNGCodec.encode(try frames.frames(0..<1)[0])
        try sink.put(OutputFile(path: target.path, bytes: bytes))
        var product = FormatProduct(target: target)
        product.byteCount = bytes.count
        if context.keepBytes { product.previewBytes = bytes }
        return product
    }
}

/// PNG-encodes `images` on up to `workers` threads, results in order.
func pngs(_ images: [RGBAImage], workers: Int) throws -> [[UInt8]] {
    let slots = Slots<[UInt8]>(count: images.count)
    DispatchQueue.concurrentPerform(iterations: max(1, min(workers, images.count))) { _ in
        while let i = slots.claim() { slots.set(i, Result { try PNGCodec.encode(images[i]) }) }
    }
    return try slots.values()
}
