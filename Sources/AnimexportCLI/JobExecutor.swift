// SPDX-License-Identifier: GPL-3.0-or-later

import Encode
import Foundation
import Render
import Spec
import Timeline

/// One file's bytes, made in memory before anything is written.
struct OutputFile: Equatable, Sendable {
    var path: String
    var bytes: [UInt8]
}

/// What one job produced: its files, its messages, and what `--report`/`--preview` show.
struct JobProduct: Sendable {
    var job: ExportJob
    var files: [OutputFile] = []
    /// One line per output for stdout (`loader.gif: 120 frames, …`).
    var summaries: [String] = []
    /// Warnings for stderr, without the `warning: ` prefix.
    var warnings: [String] = []
    /// The GIF, when one was made (for the preview).
    var gif: [UInt8]?
    /// The sprite sheet PNG and its frames, when one was made (for the preview).
    var sheet: SpriteSheet?
    var sheetPNG: [UInt8]?
    /// Timing of the GIF and of the sheet, when a report or preview asked for it.
    var gifTiming: TimingReport?
    var sheetTiming: TimingReport?
}

/// Renders and encodes one job in memory. Writing is the caller's business, so an encoder
/// failure never leaves a file.
enum JobExecutor {
    /// What the whole run needs from each job beyond its own files.
    struct Extras: Equatable, Sendable {
        /// Timing reports (for `--report` or `--preview`).
        var timing = false
        /// A GIF and a sheet even when not written (for `--preview`).
        var preview = false
    }

    /// Produces `job`'s files.
    /// - Parameters:
    ///   - workers: frames rendered (and GIF frames compressed) at once.
    ///   - progress: called per rendered frame.
    /// - Throws: `JobPlanner.JobError` (exit 1) naming the preset and the failing step.
    static func run(
        _ job: ExportJob, options: Options, extras: Extras, workers: Int, progress: (@Sendable () -> Void)?
    ) throws(JobPlanner.JobError) -> JobProduct {
        var product = JobProduct(job: job)
        let path = job.presetPath
        do {
            if let time = job.stillTime {
                let image = try Exporter.still(job.composition, at: time, scale: job.scale)
                let bytes = try PNGCodec.encode(image)
                for target in job.targets {
                    guard case .still(let file) = target else { continue }
                    product.files.append(OutputFile(path: file, bytes: bytes))
                    product.summaries.append(
                        "\(file): frame at \(formatNumber(time)) s, \(image.width)×\(image.height) px, \(Command.formatBytes(bytes.count))"
                    )
                }
                return product
            }
            let needGIF = job.wantsGIF || extras.preview
            let needSheet = job.wantsSheet || extras.preview
            let needFull = needSheet || job.wantsFrames || (needGIF && job.gifPlan == job.plan)
            let full =
                needFull
                ? try Exporter.render(
                    job.composition, plan: job.plan, scale: job.scale, workers: workers, progress: progress) : nil
            var forGIF: RenderedAnimation?
            if needGIF {
                forGIF =
                    job.gifPlan == job.plan
                    ? full
                    : try Exporter.render(
                        job.composition, plan: job.gifPlan, scale: job.scale, workers: workers, progress: progress)
            }
            if let animation = full ?? forGIF, animation.frames.allSatisfy(isBlank) {
                product.warnings.append(
                    "\(path): \(job.stem): every frame is empty: nothing drawn lies on the \(animation.frames.first.map { "\($0.width)×\($0.height)" } ?? "") px canvas; check the layer positions and sizes against the canvas (and the params you set)"
                )
            }
            if let animation = forGIF {
                try encodeGIF(
                    animation, job: job, options: options, extras: extras, workers: workers, into: &product)
            }
            if let animation = full {
                try encodeSheets(animation, job: job, options: options, extras: extras, into: &product)
                try encodeFrames(animation, job: job, into: &product)
            }
            if extras.timing {
                let durations = FrameTiming.millisecondDurations(
                    period: job.plan.period, frameCount: job.plan.frameCount)
                product.sheetTiming = TimingReport.make(plan: job.plan, delays: durations, grid: .milliseconds)
                if product.gifTiming == nil {
                    let delays = FrameTiming.centisecondDelays(
                        period: job.gifPlan.period, frameCount: job.gifPlan.frameCount)
                    product.gifTiming = TimingReport.make(plan: job.gifPlan, delays: delays, grid: .centiseconds)
                }
            }
        } catch {
            throw JobPlanner.JobError(code: .failure, message: "\(path): \(job.stem): \(error)")
        }
        return product
    }

    private static func encodeGIF(
        _ animation: RenderedAnimation, job: ExportJob, options: Options, extras: Extras, workers: Int,
        into product: inout JobProduct
    ) throws {
        var gifOptions = GIFOptions()
        gifOptions.workers = workers
        gifOptions.loop = options.loop
        gifOptions.matte = job.matte
        gifOptions.dither = options.dither
        gifOptions.lossy = options.lossy
        let encoded = try Exporter.gif(animation, options: gifOptions)
        product.gif = encoded.bytes
        if extras.timing {
            // The delays as the file holds them, read back through giflib.
            let delays = try GIFDecoder.decode(encoded.bytes).frames.map(\.delay)
            product.gifTiming = TimingReport.make(plan: animation.plan, delays: delays, grid: .centiseconds)
        }
        for target in job.targets {
            guard case .gif(let file) = target else { continue }
            if encoded.collapsedEdgePixels > 0 {
                product.warnings.append(
                    "\(file): \(encoded.collapsedEdgePixels) half-transparent edge pixels were made fully opaque or transparent (GIF has 1-bit alpha); pass --matte COLOR (the page colour) for smooth edges"
                )
            }
            product.files.append(OutputFile(path: file, bytes: encoded.bytes))
            product.summaries.append(
                summary(
                    file, animation, bytes: encoded.bytes.count,
                    extra: "\(encoded.paletteSize) colours\(encoded.quantized ? " (quantised)" : "")"))
        }
    }

    private static func encodeSheets(
        _ animation: RenderedAnimation, job: ExportJob, options: Options, extras: Extras,
        into product: inout JobProduct
    ) throws {
        for target in job.targets {
            guard case .sheet(let png, let json) = target else { continue }
            let sheet = try makeSheet(animation, imageName: (png as NSString).lastPathComponent, options: options)
            let pngBytes =
                try (product.sheet?.image == sheet.image ? product.sheetPNG : nil)
                ?? SheetPNGEncoder.encode(sheet.image, maximumColors: options.sheetColors).bytes
            product.sheet = sheet
            product.sheetPNG = pngBytes
            product.files.append(OutputFile(path: png, bytes: pngBytes))
            product.files.append(OutputFile(path: json, bytes: sheet.json))
            product.summaries.append(
                summary(
                    png, animation, bytes: pngBytes.count,
                    extra: "\(sheet.image.width)×\(sheet.image.height) sheet + \((json as NSString).lastPathComponent)")
            )
        }
        if extras.preview, product.sheet == nil {
            let sheet = try makeSheet(animation, imageName: job.stem + ".png", options: options)
            product.sheet = sheet
            product.sheetPNG = try SheetPNGEncoder.encode(sheet.image, maximumColors: options.sheetColors).bytes
        }
    }

    /// The sprite sheet with every sheet option the command line gave.
    private static func makeSheet(_ animation: RenderedAnimation, imageName: String, options: Options) throws
        -> SpriteSheet
    {
        try Exporter.sheet(
            animation, imageName: imageName, columns: options.columns, padding: options.padding,
            extrude: options.extrude, trim: options.trim, layout: options.sheetType)
    }

    private static func encodeFrames(
        _ animation: RenderedAnimation, job: ExportJob, into product: inout JobProduct
    ) throws {
        var encoded: [[UInt8]] = []
        for target in job.targets {
            guard case .frames(let directory, let stem) = target else { continue }
            if encoded.isEmpty { encoded = try animation.frames.map { try PNGCodec.encode($0) } }
            let count = animation.frames.count
            for (i, bytes) in encoded.enumerated() {
                product.files.append(
                    OutputFile(path: OutputPlan.framePath(directory, stem, i, frameCount: count), bytes: bytes))
            }
            product.summaries.append("\(directory)/\(stem)-*.png: \(count) PNG frames")
        }
    }

    static func summary(_ path: String, _ animation: RenderedAnimation, bytes: Int, extra: String) -> String {
        let plan = animation.plan
        let size = animation.frames.first.map { "\($0.width)×\($0.height)" } ?? "0×0"
        return
            "\(path): \(plan.frameCount) frames, \(formatNumber(plan.period)) s loop, \(size) px, \(Command.formatBytes(bytes)), \(extra)"
    }
}

/// Whether an image is fully transparent (every alpha byte 0).
private func isBlank(_ image: RGBAImage) -> Bool {
    image.pixels.withUnsafeBufferPointer { pixels in
        stride(from: 3, to: pixels.count, by: 4).allSatisfy { pixels[$0] == 0 }
    }
}
