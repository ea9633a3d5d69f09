// SPDX-License-Identifier: GPL-3.0-or-later

import Dispatch
import Encode
import Foundation
import OutputFiles
import Raster
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
        var gifPlan = plan
        if plan.fps > Self.maximumFrameRate {
            // The same loop (speed and poster included) at the rate GIF can play.
            gifPlan = try LoopPlan.make(
                for: composition, fps: Self.maximumFrameRate, duration: duration, fpsIsOption: false, speed: plan.speed)
            gifPlan.posterPhase = plan.posterPhase
        }
        let mostFrames = max(1, Int((gifPlan.period * 100).rounded()) / 2)
        if gifPlan.frameCount > mostFrames { gifPlan.frameCount = mostFrames }
        return gifPlan
    }

    /// GIF frames are 1…65535 pixels a side (GIF89a's logical screen is 16-bit).
    public func preflight(plan: LoopPlan, width: Int, height: Int, settings: ExportSettings) -> [String] {
        width <= 65535 && height <= 65535
            ? [] : ["a GIF is at most 65535 pixels a side; these frames are \(width)×\(height)"]
    }

    /// Encodes with `GIFEncoder.encode(source:delays:options:)`, streaming `frames`; the timing
    /// report takes the delays as written (merged frames summed).
    /// - Throws: `EncodeError`, `RenderError`, or the sink's `WriteError`.
    public func encode(
        _ frames: any FrameSource, target: OutputTarget, context: EncodeContext, sink: any OutputSink
    ) throws -> FormatProduct {
        var options = context.settings.gif
        options.workers = context.workers
        let delays = FrameTiming.centisecondDelays(period: context.plan.period, frameCount: context.plan.frameCount)
        // Streamed: the encoder's three passes each ask for the frames batch by batch, so a
        // loop larger than the frame cache is rendered again per pass instead of held whole.
        let encoded = try GIFEncoder.encode(source: frames, delays: delays, options: options)
        try sink.put(OutputFile(path: target.path, bytes: encoded.bytes))
        var product = FormatProduct(target: target)
        product.byteCount = encoded.bytes.count
        product.facts =
            "\(counted(encoded.paletteSize, "colour"))\(encoded.quantized ? " (quantised)" : "")"
        if let warning = encoded.collapsedEdgeWarning {
            product.warnings.append(FileWarning(file: target.path.description, message: warning))
        }
        // The delays as the file holds them (merged frames summed); decoding the file back to
        // read them held every frame's pixels at once.
        product.timing = TimingReport.make(plan: context.plan, delays: encoded.delays, grid: .centiseconds)
        if context.keepBytes { product.previewBytes = encoded.bytes }
        return product
    }
}

/// Sprite sheet (`NAME.png`, or for a multipack `NAME-0.png`, `NAME-1.png`, …, plus the data
/// file(s) of the target's `sheetData`: `NAME.json` per page, or one `NAME.json`, `NAME.tres` or
/// `NAME.css`) through `SpriteSheetBuilder`, `SheetPNGEncoder` and `SheetData`.
public struct SheetFormat: OutputFormat {
    /// Largest page side written, pixels: the largest texture desktop GPUs accept.
    public static let maximumSide = SpriteSheetBuilder.maximumPageSide
    /// Largest page written, pixels: Pillow refuses images over twice its `MAX_IMAGE_PIXELS`
    /// (89 478 485) as decompression bombs, so every page we write opens there.
    public static let maximumPixels = SpriteSheetBuilder.maximumPagePixels
    /// Pages with a side above this get a warning: many mobile WebGL contexts stop at 4096 or
    /// 8192 px.
    public static let warningSide = 8192

    /// A sheet format value.
    public init() {}
    /// `.sheet`.
    public var kind: OutputFormatKind { .sheet }
    /// `png`.
    public var fileExtensions: [String] { ["png"] }
    /// `sprite sheet + data file`.
    public var title: String { "sprite sheet + NAME.json" }

    /// True without `trim` and `mergeDuplicates`: `SpriteSheetBuilder` then draws the cells in
    /// one pass over the frames, in order; with either it makes a first pass to find the boxes
    /// and duplicates (and may ask for an earlier frame again).
    public func readsFramesOnce(settings: ExportSettings) -> Bool { !settings.trim && !settings.mergeDuplicates }

    /// The PNG, then its data file beside it (`x.png` → `x.json`, `x.tres` or `x.css`): a
    /// one-page sheet.
    public func paths(of target: OutputTarget, frameCount: Int) -> [FilePath] {
        [target.path] + Self.dataPaths(target, pageImages: [target.path])
    }

    /// Every page PNG, then every page's data file. The page count is exact without `--trim`
    /// and `--merge-duplicates`; with either it depends on the pixels, so the list holds every
    /// file the sheet can need: `NAME.png` and `NAME-0.png` … `NAME-K.png` up to the untrimmed
    /// count (`SpriteSheetBuilder.pageCountBound`), which no trimmed or merged sheet exceeds.
    public func paths(
        of target: OutputTarget, plan: LoopPlan, width: Int, height: Int, settings: ExportSettings
    ) -> [FilePath] {
        let options = Self.options(target: target, settings: settings, frameRate: 1, loopSeconds: 0, scale: 1)
        let bound = SpriteSheetBuilder.pageCountBound(
            frameCount: plan.frameCount, width: width, height: height, options: options)
        var pngs: [FilePath] = []
        if bound <= 1 || settings.trim || settings.mergeDuplicates { pngs.append(target.path) }
        if bound > 1 { pngs += (0..<bound).map { Self.pagePath(target.path, page: $0, of: bound) } }
        return pngs + Self.dataPaths(target, pageImages: pngs)
    }

    /// `dir/NAME.json` for `dir/NAME.png`.
    public static func jsonPath(_ png: FilePath) -> FilePath { png.deletingPathExtension + ".json" }

    /// Page `k` of `count` of the sheet `png`: `png` itself for one page, else `dir/NAME-k.png`
    /// (`SpriteSheetBuilder.pageName`'s rule, on the file name's bytes).
    public static func pagePath(_ png: FilePath, page k: Int, of count: Int) -> FilePath {
        guard count > 1 else { return png }
        let ext = png.pathExtension
        return ext.isEmpty ? png + "-\(k)" : png.deletingPathExtension + "-\(k).\(ext)"
    }

    /// The data files of `target` whose pages are the PNG paths `pageImages` (page 0 is
    /// `target.path`), in commit order: one per page named after it for the per-page formats,
    /// else one named after the target.
    public static func dataPaths(_ target: OutputTarget, pageImages: [FilePath]) -> [FilePath] {
        // `SheetData.fileNames`'s rule, applied to the paths' bytes so a name that is not UTF-8
        // keeps them.
        let format = target.sheetData
        guard format.filePerPage else { return [target.path.deletingPathExtension + "." + format.fileExtension] }
        return pageImages.map { $0.deletingPathExtension + "." + format.fileExtension }
    }

    /// `NAME` of `dir/NAME.png`: what the single-file data formats are named after (as text, so
    /// invalid UTF-8 reads as U+FFFD inside the data file).
    static func dataStem(_ target: OutputTarget) -> String {
        target.path.lastComponent.deletingPathExtension.unicode
    }

    /// Refuses, before anything is rendered, a frame that with its extrusion and padding is
    /// larger than a page (`--max-size`), sized without trimming, the largest it can be.
    public func preflight(plan: LoopPlan, width: Int, height: Int, settings: ExportSettings) -> [String] {
        let options = Self.options(
            target: OutputTarget(kind: .sheet, path: "x.png"), settings: settings, frameRate: 1, loopSeconds: 0,
            scale: 1)
        let limits = SpriteSheetBuilder.pageLimits(options)
        let (cellWidth, o1) = width.addingReportingOverflow(2 * settings.extrude + 2 * settings.padding)
        let (cellHeight, o2) = height.addingReportingOverflow(2 * settings.extrude + 2 * settings.padding)
        guard o1 || o2 || cellWidth > limits.width || cellHeight > limits.height else { return [] }
        return [
            "a sprite sheet frame of \(width)×\(height) px with \(settings.extrude) px extrusion and \(settings.padding) px padding does not fit a page of \(limits.width)×\(limits.height) px (--max-size \(settings.maxSize)\(settings.powerOfTwo ? ", --pot" : "")); use a smaller --scale, a larger --max-size (at most \(Self.maximumSide)), or write a GIF, APNG or WebP instead (--format)"
        ]
    }

    /// The builder's options for `target` and `settings`.
    static func options(
        target: OutputTarget, settings s: ExportSettings, frameRate: Double, loopSeconds: Double, scale: Double,
        name: String = ""
    ) -> SpriteSheetOptions {
        SpriteSheetOptions(
            name: name, imageName: target.path.lastComponent.unicode, columns: s.columns,
            padding: s.padding, extrude: s.extrude, trim: s.trim, layout: s.layout, maxSize: s.maxSize,
            powerOfTwo: s.powerOfTwo, mergeDuplicates: s.mergeDuplicates, scale: scale, frameRate: frameRate,
            loopSeconds: loopSeconds, version: s.version)
    }

    /// Builds the sheet page by page, writing each page's PNG as soon as it is drawn (so one
    /// page is held at a time), then the data file(s) that describe every page after all the
    /// PNGs (`target.sheetData`, frame names from `settings.frameNameTemplate` or the format's
    /// default).
    /// - Throws: `EncodeError` (also for a frame-name template that names two frames alike),
    ///   `RenderError`, or the sink's `WriteError`.
    public func encode(
        _ frames: any FrameSource, target: OutputTarget, context: EncodeContext, sink: any OutputSink
    ) throws -> FormatProduct {
        let plan = context.plan
        let s = context.settings
        let durations = FrameTiming.millisecondDurations(period: plan.period, frameCount: plan.frameCount)
        let options = Self.options(
            target: target, settings: s, frameRate: Double(plan.frameCount) / plan.period, loopSeconds: plan.period,
            scale: context.scale, name: context.composition.name)
        var product = FormatProduct(target: target)
        var pagePaths: [FilePath] = []
        var firstPNG: [UInt8]?
        let layout = try SpriteSheetBuilder.build(source: frames, durations: durations, options: options) {
            k, image, layout in
            // The files were planned for at most `bound` pages (`paths`); never write others.
            let bound = SpriteSheetBuilder.pageCountBound(
                frameCount: frames.frameCount, width: frames.width, height: frames.height, options: options)
            if k == 0, layout.pages.count > max(1, bound) {
                throw EncodeError(
                    "\(target.path): the sheet needs \(layout.pages.count) pages, more than the \(bound) planned")
            }
            let png = try SheetPNGEncoder.encode(image, maximumColors: s.sheetColors).bytes
            let path = Self.pagePath(target.path, page: k, of: layout.pages.count)
            try sink.put(OutputFile(path: path, bytes: png))
            product.byteCount += png.count
            if k == 0 { firstPNG = png }
            pagePaths.append(path)
            if image.width > Self.warningSide || image.height > Self.warningSide {
                product.warnings.append(
                    FileWarning(
                        file: path.description,
                        message:
                            "the page is \(image.width)×\(image.height) px; many mobile GPUs stop at 4096 or 8192 px a side (--max-size)"
                    ))
            }
        }
        let data = try Self.dataFiles(
            target: target, pages: layout.pages, frames: layout.frames, durations: durations, context: context)
        let dataPaths = Self.dataPaths(target, pageImages: pagePaths)
        for (path, file) in zip(dataPaths, data) {
            try sink.put(OutputFile(path: path, bytes: file.bytes, describesEarlier: true))
        }
        let names = data.map(\.name)
        if layout.pages.count == 1, let page = layout.pages.first {
            product.facts = "\(page.width)×\(page.height) sheet + \(names.joined(separator: ", "))"
            product.sheet = SheetSummary(layout)
            if context.keepBytes { product.previewBytes = firstPNG }
        } else {
            let widest = layout.pages.map(\.width).max() ?? 0
            let highest = layout.pages.map(\.height).max() ?? 0
            product.facts =
                "\(layout.pages.count) sheet pages of up to \(widest)×\(highest) + "
                + (names.count == 1 ? names[0] : "\(names.first ?? "")…\(names.last ?? "")")
        }
        product.timing = TimingReport.make(plan: plan, delays: durations, grid: .milliseconds)
        return product
    }
}

extension SheetFormat {
    /// The data files (`target.sheetData`) for a laid-out sheet of `pages` and `frames`.
    /// - Throws: `EncodeError` for a frame-name template that names two frames alike, or
    ///   frames that do not fit their pages.
    static func dataFiles(
        target: OutputTarget, pages: [SheetPage], frames: [SheetFrame], durations: [Int], context: EncodeContext
    ) throws -> [SheetDataFile] {
        let format = target.sheetData
        let s = context.settings
        let plan = context.plan
        let title = context.composition.name
        let animation = SheetAnimation(
            title: title, durations: durations, frameRate: Double(plan.frameCount) / plan.period, loop: s.loop,
            scale: context.scale, app: "animexport", version: s.version,
            pixelFormat: s.sheetColors == nil ? "RGBA8888" : "I8")
        do {
            let names =
                format.namesFrames
                ? try SheetData.frameNames(
                    template: s.frameNameTemplate ?? format.defaultFrameNameTemplate, title: title,
                    tags: animation.tags, count: frames.count)
                : frames.indices.map(String.init)
            return try SheetData.files(
                format: format, stem: dataStem(target), pages: pages, frames: frames, names: names,
                animation: animation)
        } catch {
            throw EncodeError("\(target.path): \(error.message)")
        }
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

    /// `prefix-007.png`, with at least three digits and as many as the last frame needs. A
    /// prefix ending in a scale suffix (`NAME@2x`) keeps the suffix last, `NAME-007@2x.png`, as
    /// UIKit's `UIImage(named:)` and Xcode asset catalogs look the scale up just before the
    /// extension.
    public static func framePath(_ prefix: FilePath, _ index: Int, frameCount: Int) -> FilePath {
        let digits = max(3, String(max(0, frameCount - 1)).count)
        let number = String(index)
        return suffixed(prefix, "-\(String(repeating: "0", count: max(0, digits - number.count)))\(number)")
    }

    /// `prefix` + `insert` + `.png`, with a trailing scale suffix (`@2x`, `@1.5x`) of `prefix`'s
    /// file name moved after `insert`; the other bytes of `prefix` are kept as they are.
    public static func suffixed(_ prefix: FilePath, _ insert: String) -> FilePath {
        let bytes = prefix.bytes
        let split = scaleSuffixStart(bytes) ?? bytes.endIndex
        return FilePath(
            bytes: Array(bytes[..<split]) + Array(insert.utf8) + Array(bytes[split...]) + Array(".png".utf8))
    }

    /// Where `@` + a number + `x` ends the file name of `bytes` (`dir/NAME@2x`, `NAME@1.5x`):
    /// the index of that `@`, or nil when the name has no such suffix or nothing before it.
    public static func scaleSuffixStart(_ bytes: [UInt8]) -> Int? {
        guard bytes.last == UInt8(ascii: "x"), let at = bytes.lastIndex(of: UInt8(ascii: "@")) else { return nil }
        let number = bytes[(at + 1)..<(bytes.count - 1)]
        let isDigit = { (b: UInt8) in b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }
        guard at > 0, bytes[at - 1] != UInt8(ascii: "/"), let first = number.first, let last = number.last,
            isDigit(first), isDigit(last), number.allSatisfy({ isDigit($0) || $0 == UInt8(ascii: ".") })
        else { return nil }
        return at
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
        product.facts = counted(count, "PNG frame")
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
