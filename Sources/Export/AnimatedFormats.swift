// SPDX-License-Identifier: GPL-3.0-or-later

import Encode
import Foundation
import OutputFiles
import Raster
import Render
import Spec
import Timeline

/// Animated PNG (`NAME.apng`) through `APNGEncoder`: real 8-bit alpha, delays as exact fractions.
///
/// Viewers without APNG support show the default image, which is frame 0. To serve it as
/// `NAME.png`, rename it: the bytes are a valid PNG (docs/cli.md).
public struct APNGFormat: OutputFormat {
    /// An APNG format value.
    public init() {}
    /// `.apng`.
    public var kind: OutputFormatKind { .apng }
    /// `apng`.
    public var fileExtensions: [String] { ["apng"] }
    /// `image/apng`.
    public var mediaType: String { "image/apng" }
    /// `animated PNG`.
    public var title: String { "animated PNG" }

    /// Encodes with `APNGEncoder`; the timing report holds the fractions on their common grid.
    /// - Throws: `EncodeError`, `RenderError`, or the sink's `WriteError`.
    public func encode(
        _ frames: any FrameSource, target: OutputTarget, context: EncodeContext, sink: any OutputSink
    ) throws -> FormatProduct {
        let options = APNGOptions(
            loop: context.settings.loop, effort: context.settings.effort == .max ? .max : .default,
            workers: context.workers)
        let encoded = try APNGEncoder.encode(frames, period: context.plan.period, options: options)
        try sink.put(OutputFile(path: target.path, bytes: encoded.bytes))
        var product = FormatProduct(target: target)
        product.byteCount = encoded.bytes.count
        switch encoded.colorType {
        case .indexed:
            let colors = encoded.paletteSize ?? 0
            product.facts = "\(counted(colors, "RGBA colour")) (indexed)"
        case .truecolorAlpha: product.facts = "truecolour with alpha"
        }
        product.timing = Self.timing(encoded.delays, plan: context.plan)
        if context.keepBytes { product.previewBytes = encoded.bytes }
        return product
    }

    /// The delays on the least common multiple of their denominators (at most 10^6 steps per
    /// second; beyond that microseconds, rounded cumulatively).
    static func timing(_ delays: [APNGDelay], plan: LoopPlan) -> TimingReport {
        func gcd(_ a: Int, _ b: Int) -> Int { b == 0 ? a : gcd(b, a % b) }
        var steps = 1
        for d in delays where d.denominator > 0 {
            let next = steps / gcd(steps, d.denominator) * d.denominator
            if next > 1_000_000 {
                steps = 1_000_000
                break
            }
            steps = next
        }
        var units: [Int] = []
        var elapsed = 0.0
        var previous = 0
        for d in delays where d.denominator > 0 {
            elapsed += Double(d.numerator) / Double(d.denominator)
            let boundary = Int((elapsed * Double(steps)).rounded())
            units.append(boundary - previous)
            previous = boundary
        }
        return TimingReport.make(plan: plan, delays: units, grid: TimingReport.Grid(stepsPerSecond: steps))
    }
}

/// Animated WebP (`NAME.webp`) through libwebp's `WebPAnimEncoder`: lossless by default,
/// `--quality N` for lossy; timestamps in whole milliseconds by cumulative rounding.
public struct WebPFormat: OutputFormat {
    /// A WebP format value.
    public init() {}
    /// `.webp`.
    public var kind: OutputFormatKind { .webp }
    /// `webp`.
    public var fileExtensions: [String] { ["webp"] }
    /// `image/webp`.
    public var mediaType: String { "image/webp" }
    /// `animated WebP`.
    public var title: String { "animated WebP" }

    /// WebP canvases are at most 16383 pixels a side (the VP8L header's 14-bit sizes).
    public func preflight(plan: LoopPlan, width: Int, height: Int, settings: ExportSettings) -> [String] {
        width <= 16383 && height <= 16383
            ? [] : ["a WebP is at most 16383 pixels a side; these frames are \(width)×\(height)"]
    }

    /// Encodes with `WebPEncoder`.
    /// - Throws: `EncodeError`, `RenderError`, or the sink's `WriteError`.
    public func encode(
        _ frames: any FrameSource, target: OutputTarget, context: EncodeContext, sink: any OutputSink
    ) throws -> FormatProduct {
        let options = WebPOptions(
            loop: context.settings.loop, quality: context.settings.webpQuality,
            effort: context.settings.effort == .max ? .max : .default, workers: context.workers)
        let encoded = try WebPEncoder.encode(frames, period: context.plan.period, options: options)
        try sink.put(OutputFile(path: target.path, bytes: encoded.bytes))
        var product = FormatProduct(target: target)
        product.byteCount = encoded.bytes.count
        product.facts = context.settings.webpQuality.map { "lossy, quality \($0)" } ?? "lossless"
        product.timing = TimingReport.make(plan: context.plan, delays: encoded.durations, grid: .milliseconds)
        if context.keepBytes { product.previewBytes = encoded.bytes }
        return product
    }
}
