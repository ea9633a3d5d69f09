// SPDX-License-Identifier: GPL-3.0-or-later

public import Render

/// Animated GIF encoding with giflib, in five stages:
/// alpha policy (`GIFAlphaPolicy`) → palette (`GIFPalette`: exact, or libimagequant over a
/// histogram of all frames) → indexed frames (`PaletteMapper`, dithered per `GIFDither`) →
/// frame plan (`GIFFrameOptimizer`: merging, differencing, disposal, local tables, LZW by
/// `LZWEncoder`) → bytes (`GIFWriter`). `docs/encoding.md` describes the choices.
///
/// Output rules (semantics.md §8): GIF89a; logical screen = frame size; one global colour
/// table; a dedicated transparency index (also the background index) when any pixel is
/// transparent; frame 0 covers the screen, later frames only what changed; every composited
/// frame equals the input after the alpha policy (with `GIFOptions.lossy` N, each opaque pixel
/// within N levels per channel of it, alpha exact); consecutive identical frames (within N)
/// are merged with their delays summed, so the total duration is exactly the sum of `delays`; the
/// NETSCAPE2.0 block per `LoopCount`. Identical input gives identical bytes on any machine.
public enum GIFEncoder {
    /// Encodes an animation.
    ///
    /// - Parameters:
    ///   - frames: at least one image, all the same size (1…65535 pixels per side), straight
    ///     alpha.
    ///   - delays: one per frame, centiseconds, each 2…65535 (browsers play 0 or 1 cs as 10 cs,
    ///     semantics.md §8.4). Use `FrameTiming.centisecondDelays`.
    ///   - options: looping, matte, alpha threshold, dithering and tolerance (`lossy`).
    /// - Returns: the file and facts about its palette.
    /// - Throws: `EncodeError` for bad arguments (no frames, mismatched sizes or counts, delays,
    ///   loop count or `lossy` out of range) and for libimagequant or giflib failures.
    public static func encode(frames: [RGBAImage], delays: [Int], options: GIFOptions) throws
        -> GIFEncoding
    {
        let (width, height) = try validate(frames: frames, delays: delays)
        let loopCount = try options.loop.netscapeCount()
        guard (0...255).contains(options.lossy) else {
            throw EncodeError("lossy tolerance \(options.lossy) is outside 0…255 levels")
        }

        let workers = max(1, options.workers ?? ParallelWork.processorCount)
        let flattened = GIFAlphaPolicy(options: options).flatten(frames, width: width, height: height)
        var survey = flattened.survey(workers: workers)
        let palette = try GIFPalette.build(
            histogram: survey.histogram, hasTransparency: survey.hasTransparency)
        var mapper = PaletteMapper(palette: palette, dither: options.dither)
        let (ordered, indexed) = palette.reorderedByUse(
            mapper.index(
                flattened, colors: survey.frameColors, slots: survey.takeSlots(), wideSlots: survey.frameWideSlots,
                workers: workers),
            workers: workers)
        // Tolerance is chosen frame by frame over the screen the frames before left, which can
        // drift from the input and cost later frames more than it saved; the exact plan is
        // made as well and written when it comes out no larger, so `lossy` never makes a file
        // larger. The lossy plan's decision pass is serial, so the exact one is made beside it.
        let tolerances = options.lossy > 0 ? [options.lossy, 0] : [0]
        let plans = try ParallelWork.map(count: tolerances.count, workers: workers) {
            (i: Int) throws -> (plan: GIFFramePlan, bytes: [UInt8]) in
            let plan = try GIFFrameOptimizer.plan(
                frames: indexed, delays: delays, palette: ordered, width: width, height: height,
                loopCount: loopCount, lossy: tolerances[i],
                // Side by side, the lossy plan (serial but for its last, light stage) takes one
                // thread and the exact plan the rest: `workers` threads in all.
                workers: tolerances.count == 1 ? workers : i == 0 ? 1 : max(1, workers - 1))
            return (plan, try GIFWriter.write(plan))
        }
        let (plan, bytes) = plans.count == 2 && plans[1].bytes.count <= plans[0].bytes.count ? plans[1] : plans[0]

        return GIFEncoding(
            bytes: bytes, paletteSize: ordered.opaqueColors.count, quantized: ordered.quantized,
            hasTransparency: survey.hasTransparency,
            collapsedEdgePixels: survey.collapsedEdgePixels, frameCount: plan.frames.count)
    }

    /// The common frame size.
    private static func validate(frames: [RGBAImage], delays: [Int]) throws -> (Int, Int) {
        guard let first = frames.first else {
            throw EncodeError("cannot encode a GIF without frames")
        }
        let width = first.width
        let height = first.height
        guard (1...65535).contains(width), (1...65535).contains(height) else {
            throw EncodeError("GIF frames are \(width)×\(height); each side must be 1…65535 pixels")
        }
        for (number, frame) in frames.enumerated()
        where frame.width != width || frame.height != height
            || frame.pixels.count != width * height * 4
        {
            throw EncodeError(
                "frame \(number) is \(frame.width)×\(frame.height), expected \(width)×\(height)")
        }
        guard delays.count == frames.count else {
            throw EncodeError("\(delays.count) delays for \(frames.count) frames")
        }
        if let bad = delays.enumerated().first(where: { !(2...65535).contains($0.element) }) {
            throw EncodeError(
                "frame \(bad.offset) has a delay of \(bad.element) cs; GIF delays must be 2…65535 cs "
                    + "(browsers play 0 and 1 cs as 10 cs)")
        }
        return (width, height)
    }
}
