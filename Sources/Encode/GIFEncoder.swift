// SPDX-License-Identifier: GPL-3.0-or-later

public import Raster

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
    /// Encodes an animation held in memory: `encode(source:delays:options:)` over
    /// `FrameArray(frames)`.
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
        _ = try validate(frames: frames, delays: delays)
        let source: FrameArray
        do {
            source = try FrameArray(frames)
        } catch {
            throw EncodeError(error.message)
        }
        return try encode(source: source, delays: delays, options: options)
    }

    /// Encodes an animation whose frames `source` hands out batch by batch, holding a few
    /// frames at a time (docs/encoding.md, "Streaming: passes and memory").
    ///
    /// The frames are asked for three times, in order, at most `source.batchSize` per call:
    /// 1. the survey: every frame's opaque colours counted, whether any pixel is transparent
    ///    and how many edge pixels collapse (`FrameSurveyor`), for the palette;
    /// 2. each frame's palette indices, and which colours the pixels that changed from the
    ///    frame before use, for the order of the table (`GIFPalette.reordered(byUse:)`);
    /// 3. the indices again, renumbered, into the frame plan (`GIFFrameOptimizer.Builder`:
    ///    merging, rectangles and disposals decided frame after frame, each batch of decided
    ///    frames compressed in parallel); with `lossy`, the exact plan is built beside the
    ///    lossy one from the same batches.
    /// Peak memory is a constant plus O(`batchSize`) frames plus the compressed output and a
    /// few numbers per frame (delays, each frame's colour ranks), whatever `frameCount` is. The
    /// bytes are those of `encode(frames:delays:options:)` over the same frames, for any
    /// `batchSize` and any `workers`.
    ///
    /// - Parameters:
    ///   - source: at least one frame of 1…65535 pixels per side, straight alpha; it must give
    ///     the same pixels on every pass.
    ///   - delays: one per frame, centiseconds, each 2…65535 (semantics.md §8.4).
    ///   - options: looping, matte, alpha threshold, dithering and tolerance (`lossy`).
    /// - Returns: the file and facts about its palette.
    /// - Throws: `EncodeError` for bad arguments (no frames, a frame of another size or a batch
    ///   of another count than asked, delays, loop count or `lossy` out of range) and for
    ///   libimagequant or giflib failures; what `source.frames(_:)` throws.
    public static func encode(source: some FrameSource, delays: [Int], options: GIFOptions) throws
        -> GIFEncoding
    {
        let width = source.width
        let height = source.height
        let frameCount = source.frameCount
        guard frameCount > 0 else { throw EncodeError("cannot encode a GIF without frames") }
        guard (1...65535).contains(width), (1...65535).contains(height) else {
            throw EncodeError("GIF frames are \(width)×\(height); each side must be 1…65535 pixels")
        }
        try validate(delays: delays, frameCount: frameCount)
        let loopCount = try options.loop.netscapeCount()
        guard (0...255).contains(options.lossy) else {
            throw EncodeError("lossy tolerance \(options.lossy) is outside 0…255 levels")
        }
        let workers = max(1, options.workers ?? ParallelWork.processorCount)
        let policy = GIFAlphaPolicy(options: options)
        /// Every frame, `batchSize` at a time, flattened lazily, with the number of the first.
        func pass(_ body: (_ first: Int, _ frames: FlattenedFrames) throws -> Void) throws {
            try source.forEachBatch { first, frames in
                try check(frames, first: first, of: source)
                try body(first, policy.flatten(frames, width: width, height: height))
            }
        }

        // Pass 1: the colours and their counts, for the palette.
        var histogram = ColorHistogramAccumulator()
        var hasTransparency = false
        var collapsed = 0
        try pass { _, flattened in
            let segments = Self.segments(count: flattened.count, parts: workers)
            let parts = ParallelWork.map(count: segments.count, workers: workers) { s in
                var surveyor = FrameSurveyor(frames: flattened, keepsSlots: false)
                for k in segments[s] { surveyor.add(k) }
                return surveyor.finished()
            }
            for part in parts {
                for run in part.histograms { histogram.add(run) }
                hasTransparency = hasTransparency || part.hasTransparency
                collapsed += part.collapsed
            }
        }
        let palette = try GIFPalette.build(histogram: histogram.histogram, hasTransparency: hasTransparency)

        // Pass 2: what each frame needs of the table, for its order.
        var needs: [GIFPalette.Need] = []
        needs.reserveCapacity(frameCount)
        var indexer = FrameIndexer(palette: palette, dither: options.dither, workers: workers)
        var last: [UInt8]?
        try pass { _, flattened in
            let indexed = indexer.index(flattened)
            needs += palette.needs(of: indexed, after: last, workers: workers)
            last = indexed.last?.indices
        }
        last = nil
        let (ordered, remap) = palette.reordered(byUse: needs)
        needs = []

        // Pass 3: the frames renumbered, into the plans.
        // Tolerance is chosen frame by frame over the screen the frames before left, which can
        // drift from the input and cost later frames more than it saved; the exact plan is
        // made as well and written when it comes out no larger, so `lossy` never makes a file
        // larger. The lossy plan's decision pass is serial, so the exact one is made beside it:
        // the lossy plan (serial but for its last, light stage) takes one thread and the exact
        // plan the rest, `workers` threads in all.
        let tolerances = options.lossy > 0 ? [options.lossy, 0] : [0]
        var builders = tolerances.enumerated().map { i, lossy in
            GIFFrameOptimizer.Builder(
                palette: ordered, width: width, height: height, loopCount: loopCount, lossy: lossy,
                workers: tolerances.count == 1 ? workers : i == 0 ? 1 : max(1, workers - 1))
        }
        indexer = FrameIndexer(palette: palette, dither: options.dither, workers: workers, remap: remap)
        try pass { first, flattened in
            let indexed = indexer.index(flattened)
            let batch = indexed.enumerated().map { k, frame in (indices: frame.indices, delay: delays[first + k]) }
            if builders.count == 1 {
                for frame in batch { try builders[0].add(frame.indices, delay: frame.delay) }
            } else {
                ParallelWork.update(&builders, workers: workers) { _, builder in builder.add(batch) }
                if let failure = builders.lazy.compactMap(\.failure).first { throw failure }
            }
        }
        let added = builders
        let plans = try ParallelWork.map(count: added.count, workers: workers) {
            (i: Int) throws -> (plan: GIFFramePlan, bytes: [UInt8]) in
            var builder = added[i]
            let plan = try builder.finish()
            return (plan, try GIFWriter.write(plan))
        }
        let (plan, bytes) = plans.count == 2 && plans[1].bytes.count <= plans[0].bytes.count ? plans[1] : plans[0]

        return GIFEncoding(
            bytes: bytes, paletteSize: ordered.opaqueColors.count, quantized: ordered.quantized,
            hasTransparency: hasTransparency, collapsedEdgePixels: collapsed, frameCount: plan.frames.count,
            delays: plan.frames.map(\.delay))
    }

    /// `0..<count` in at most `parts` consecutive pieces of nearly equal size, none empty.
    static func segments(count: Int, parts: Int) -> [Range<Int>] {
        let pieces = max(1, min(parts, count))
        return (0..<pieces).map { (count * $0 / pieces)..<(count * ($0 + 1) / pieces) }
    }

    /// A batch `source` gave for the frames from `first` on: as many as asked, each of the
    /// source's size.
    private static func check(_ frames: [RGBAImage], first: Int, of source: some FrameSource) throws {
        let asked = min(source.frameCount - first, max(1, source.batchSize))
        guard frames.count == asked else {
            throw EncodeError(
                "the frame source gave \(frames.count) frames from frame \(first); \(asked) were asked for")
        }
        for (offset, frame) in frames.enumerated()
        where frame.width != source.width || frame.height != source.height
            || frame.pixels.count != source.width * source.height * 4
        {
            throw EncodeError(
                "frame \(first + offset) is \(frame.width)×\(frame.height), expected \(source.width)×\(source.height)")
        }
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
        try validate(delays: delays, frameCount: frames.count)
        return (width, height)
    }

    /// One delay per frame, each in GIF's range.
    private static func validate(delays: [Int], frameCount: Int) throws {
        guard delays.count == frameCount else {
            throw EncodeError("\(delays.count) delays for \(frameCount) frames")
        }
        if let bad = delays.enumerated().first(where: { !(2...65535).contains($0.element) }) {
            throw EncodeError(
                "frame \(bad.offset) has a delay of \(bad.element) cs; GIF delays must be 2…65535 cs "
                    + "(browsers play 0 and 1 cs as 10 cs)")
        }
    }
}
