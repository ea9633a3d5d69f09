// SPDX-License-Identifier: GPL-3.0-or-later

import Encode
import Foundation
import Render
import Timeline

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
