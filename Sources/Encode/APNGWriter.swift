// SPDX-License-Identifier: GPL-3.0-or-later

import Raster

/// A frame's rectangle on the canvas, in pixels (`fcTL` width, height, x_offset, y_offset).
struct APNGRect: Equatable, Sendable {
    var x: Int
    var y: Int
    var width: Int
    var height: Int
}

/// `fcTL` dispose_op values (APNG specification, `fcTL`): what happens to the frame's region
/// of the output buffer before the next frame is rendered.
enum APNGDispose: UInt8, Sendable {
    /// `APNG_DISPOSE_OP_NONE`: left as it is.
    case none = 0
    /// `APNG_DISPOSE_OP_BACKGROUND`: cleared to fully transparent black.
    case background = 1
    /// `APNG_DISPOSE_OP_PREVIOUS`: reverted to what it was before the frame was rendered.
    case previous = 2
}

/// `fcTL` blend_op values (APNG specification, `fcTL`).
enum APNGBlend: UInt8, Sendable {
    /// `APNG_BLEND_OP_SOURCE`: the frame's pixels replace the region, alpha included.
    case source = 0
    /// `APNG_BLEND_OP_OVER`: the frame is composited over the region.
    case over = 1
}

/// One frame's rectangle, blend and compressed data (one zlib stream), with its delay and,
/// once the next frame has been chosen, its dispose op.
struct APNGQueuedFrame: Sendable {
    var rect: APNGRect
    var blend: APNGBlend
    /// Until `flush`, the zlib 9 stream the frame was chosen by; then the final stream.
    var stream: [UInt8]
    /// The unfiltered scanlines (filter bytes included) `stream` holds, until `flush` has made
    /// the final stream from them.
    var raw: [UInt8]?
    var delay: APNGDelay
    var dispose: APNGDispose?
}

/// Pass 2: chooses each frame's rectangle, blend and the previous frame's dispose op, and
/// writes the chunks (APNG specification, "Structure", `acTL`, `fcTL`, `fdAT`, "Chunk
/// Sequence Numbers").
struct APNGWriter {
    let width: Int
    let height: Int
    let mode: APNGColorMode
    /// libdeflate level (0…12) every candidate is compressed at.
    let level: Int
    let selectByFinal: Bool
    /// Row-filter heuristics whose filtered scanlines are also compressed for each chosen frame.
    let rowFilters: [APNGRowFilterHeuristic]
    /// Whether `OVER` frames are also tried with unchanged opaque pixels sent as themselves where
    /// they continue the row's last value (an opaque pixel sent over itself, or a fully
    /// transparent one, leaves it alike; a translucent one would blend, so it is never sent).
    let overRuns: Bool
    /// Per mille of the unfiltered zlib 9 size a filtered variant's zlib 9 size may reach and
    /// still be compressed by libdeflate; nil compresses every variant.
    let filterGate: Int?
    /// libdeflate level the candidates (and the filter gate's variants) are compared by; nil
    /// compares their zlib level 9 streams.
    let estimateLevel: Int?
    /// With `estimateLevel`, whether the chosen frame's unfiltered rows are also compressed by
    /// zlib 9 for the final choice (zlib still wins on some frames).
    let finalZlib: Bool
    /// With `estimateLevel`: candidates whose estimate is within this many per mille of the
    /// smallest are compressed by zlib 9 too and chosen by that, the rest dropped; the frame's
    /// final streams are then made as without an estimate. nil: choose by the estimate alone.
    let estimateMargin: Int?
    /// Whether each frame's final stream is re-encoded by `DeflateRecoder`, the shorter kept.
    let recode: Bool
    let workers: Int
    /// Fewest pixels (summed over a frame's candidate rectangles, or over the frames of a
    /// flushed batch) worth spreading over threads, a grain size: below it the second thread's
    /// hand-off costs more CPU than its share of the work saves. Measured (docs/encoding.md,
    /// "Round 18"): loading-dots, whose changed rectangles are small, 67.3 ms of CPU with
    /// threads everywhere and 62.7 with this bound, the same wall time; circular (seven 64 × 64
    /// candidates a frame) keeps its threads (wall 108 against 170 ms on one).
    static let parallelPixels = 8192
    let frameCount: Int
    let plays: UInt32

    /// The chunks before frame 0's `fcTL`.
    private var out: [UInt8] = []
    private var frames: [APNGWrittenFrame] = []
    private var emitted: Int { frames.count }
    private var queue: [APNGQueuedFrame] = []
    /// The canvas shown after the last frame added (the frame itself: every frame is exact).
    private var shown: [UInt32] = []
    /// The canvas the last frame was rendered on (after the one before it was disposed of).
    private var base: [UInt32] = []
    private var lastRect = APNGRect(x: 0, y: 0, width: 0, height: 0)

    init(width: Int, height: Int, mode: APNGColorMode, options: APNGOptions, frameCount: Int, plays: UInt32) {
        self.width = width
        self.height = height
        self.mode = mode
        self.level = min(12, max(0, options.deflateLevel))
        self.selectByFinal = options.selectByFinal
        self.rowFilters = options.rowFilters
        self.overRuns = options.overRuns
        self.filterGate = options.rowFilterGate
        switch options.estimate {
        case .zlib: self.estimateLevel = nil
        case .libdeflate(let level): self.estimateLevel = min(12, max(0, level))
        }
        self.finalZlib = options.finalZlib
        self.estimateMargin = options.estimateMargin.map { max(0, $0) }
        self.recode = options.recode
        self.workers = max(1, options.workers ?? ParallelWork.processorCount)
        self.frameCount = frameCount
        self.plays = plays
    }

    /// Adds the next distinct frame (packed by `APNGCanvas.pack`) lasting `delay`.
    mutating func add(_ target: [UInt32], delay: APNGDelay) throws {
        if emitted == 0 && queue.isEmpty {
            let full = APNGRect(x: 0, y: 0, width: width, height: height)
            let indices = mode.isIndexed ? indexFrame(target) : []
            let raw = APNGWriter.scanlines(
                target: target, indices: indices, base: [], rect: full, blend: .source, canvasWidth: width, mode: mode)
            let trial = try APNGWriter.estimate(raw, mode: mode, level: estimateMargin == nil ? estimateLevel : nil)
            out = PNGChunks.signature
            // IHDR (PNG specification §11.2.2): width, height, bit depth, colour type,
            // compression 0, filter method 0, no interlace.
            var header: [UInt8] = []
            PNGChunks.appendUInt32(UInt32(width), to: &header)
            PNGChunks.appendUInt32(UInt32(height), to: &header)
            header += [UInt8(mode.bitDepth), mode.type.pngValue, 0, 0, 0]
            PNGChunks.append("IHDR", header, to: &out)
            // acTL (APNG specification, `acTL`): num_frames, num_plays (0 = forever); before IDAT.
            var control: [UInt8] = []
            PNGChunks.appendUInt32(UInt32(frameCount), to: &control)
            PNGChunks.appendUInt32(plays, to: &control)
            PNGChunks.append("acTL", control, to: &out)
            if let palette = mode.palette {
                // PLTE (§11.2.3) RGB triples; tRNS (§11.3.2) alpha up to the last translucent entry.
                PNGChunks.append("PLTE", palette.flatMap { [$0.red, $0.green, $0.blue] }, to: &out)
                if let last = palette.lastIndex(where: { $0.alpha != 255 }) {
                    PNGChunks.append("tRNS", palette[...last].map(\.alpha), to: &out)
                }
            }
            queue.append(
                APNGQueuedFrame(
                    rect: full, blend: .source, stream: trial, raw: raw, delay: delay, dispose: nil))
            shown = target
            base = [UInt32](repeating: 0, count: width * height)
            lastRect = full
            return
        }
        try addDifference(target, delay: delay)
        try flush(final: false)
    }

    /// Every way to reach `target` from the previous frame, compressed; the smallest wins.
    private mutating func addDifference(_ target: [UInt32], delay: APNGDelay) throws {
        var cleared = shown
        for y in lastRect.y..<(lastRect.y + lastRect.height) {
            for x in lastRect.x..<(lastRect.x + lastRect.width) { cleared[y * width + x] = 0 }
        }
        var bases: [(APNGDispose, [UInt32])] = [(.none, shown)]
        if cleared != shown { bases.append((.background, cleared)) }
        // The first frame's PREVIOUS counts as BACKGROUND (APNG specification, `fcTL`): no new base.
        if emitted + queue.count >= 2, base != shown, base != cleared { bases.append((.previous, base)) }
        struct Candidate: Sendable {
            var dispose: APNGDispose
            var base: [UInt32]
            var rect: APNGRect
            var blend: APNGBlend
            var runs = false
        }
        var candidates: [Candidate] = []
        for (dispose, canvas) in bases {
            let rect = differenceBox(target, canvas) ?? APNGRect(x: 0, y: 0, width: 1, height: 1)
            candidates.append(Candidate(dispose: dispose, base: canvas, rect: rect, blend: .source))
            if overAllowed(target, canvas, rect) {
                candidates.append(Candidate(dispose: dispose, base: canvas, rect: rect, blend: .over))
                if overRuns {
                    candidates.append(Candidate(dispose: dispose, base: canvas, rect: rect, blend: .over, runs: true))
                }
            }
        }
        let indices = mode.isIndexed ? indexFrame(target) : []
        let (mode, level, width, selectByFinal, estimateLevel) = (
            self.mode, self.level, self.width, self.selectByFinal, self.estimateLevel
        )
        let tried = candidates
        // Threads only for enough pixels: the hand-off to a second thread costs more CPU than it
        // saves on small rectangles (see `parallelPixels`); the bytes never depend on it.
        let pixels = tried.reduce(0) { $0 + $1.rect.width * $1.rect.height }
        let workers = pixels >= APNGWriter.parallelPixels ? self.workers : 1
        let raws = ParallelWork.map(count: tried.count, workers: workers) { i in
            let c = tried[i]
            return APNGWriter.scanlines(
                target: target, indices: indices, base: c.base, rect: c.rect, blend: c.blend, runs: c.runs,
                canvasWidth: width, mode: mode)
        }
        // Candidates often send the same bytes (a `SOURCE` rectangle does not depend on its
        // base; `OVER` runs change nothing where no unchanged pixel is opaque): on the bundled
        // presets 246 of loading-dots' 393 and 187 of twin-circle-scale's 575. Each distinct
        // scanline buffer is compressed once and its stream shared, so the sizes, and the choice
        // (ties to the first), are those of compressing every candidate.
        var first = Array(raws.indices)
        for i in raws.indices {
            if let j = (0..<i).first(where: { first[$0] == $0 && raws[$0] == raws[i] }) { first[i] = j }
        }
        let distinct = raws.indices.filter { first[$0] == $0 }
        let compressed = try ParallelWork.map(count: distinct.count, workers: workers) { k throws(EncodeError) in
            let raw = raws[distinct[k]]
            return selectByFinal
                ? try PNGChunks.deflate(raw, level: level)
                : try APNGWriter.estimate(raw, mode: mode, level: estimateLevel)
        }
        // slot[i]: the index in `compressed` of candidate i's stream (first[i] ≤ i comes first).
        var slot = [Int](repeating: 0, count: raws.count)
        for (k, i) in distinct.enumerated() { slot[i] = k }
        for i in raws.indices { slot[i] = slot[first[i]] }
        let results = raws.indices.map { i in (raw: raws[i], stream: compressed[slot[i]]) }
        var best = 0
        for i in results.indices where results[i].stream.count < results[best].stream.count { best = i }
        var stream = results[best].stream
        if estimateLevel != nil, let margin = estimateMargin, !selectByFinal {
            // Re-rank the candidates near the estimate's best by their zlib 9 streams.
            let limit = results[best].stream.count * (1000 + margin)
            let near = results.indices.filter { 1000 * results[$0].stream.count <= limit }
            let exact = try ParallelWork.map(count: near.count, workers: workers) { k throws(EncodeError) in
                try PNGChunks.zlib(results[near[k]].raw, filtered: mode.isIndexed)
            }
            var pick = 0
            // `near` is in candidate order, so ties go to the first, as without an estimate.
            for k in exact.indices where exact[k].count < exact[pick].count { pick = k }
            best = near[pick]
            stream = exact[pick]
        }
        let chosen = candidates[best]
        if let last = queue.indices.last { queue[last].dispose = chosen.dispose }
        queue.append(
            APNGQueuedFrame(
                rect: chosen.rect, blend: chosen.blend, stream: stream, raw: results[best].raw,
                delay: delay, dispose: nil))
        base = chosen.base
        shown = target
        lastRect = chosen.rect
    }

    /// The stream candidates are compared by: zlib level 9 of `raw` (`Z_FILTERED` for palette
    /// indices) when `level` is nil, else libdeflate's at `level`.
    private static func estimate(_ raw: [UInt8], mode: APNGColorMode, level: Int?) throws(EncodeError) -> [UInt8] {
        guard let level else { return try PNGChunks.zlib(raw, filtered: mode.isIndexed) }
        return try PNGChunks.deflate(raw, level: level)
    }

    /// The frame's final stream and the scanlines it holds: `trial` (the estimate, or
    /// libdeflate when `selectByFinal`, the stream the candidate was chosen by, of the
    /// unfiltered `raw`), zlib 9's of `raw` when the estimate is not zlib 9 and `finalZlib`,
    /// libdeflate's at `level` of `raw`, or libdeflate's of `raw` row-filtered by each of
    /// `rowFilters` (PNG specification §9), whichever is smallest, the first of equal sizes.
    /// zlib still wins on some frames (`Z_FILTERED` on palette indices, docs/encoding.md).
    ///
    /// A filtered variant is compressed by libdeflate only when its estimate is at most
    /// `filterGate` per mille of `trial` (the unfiltered rows' estimate): libdeflate 12 is
    /// slowest on filtered rows, which win on few frames (docs/encoding.md, "Row filters").
    private static func final(
        _ raw: [UInt8], _ trial: [UInt8], width rectWidth: Int, mode: APNGColorMode, level: Int,
        heuristics: [APNGRowFilterHeuristic], gate: Int?, selectByFinal: Bool, estimateLevel: Int?, finalZlib: Bool
    ) throws(EncodeError) -> (stream: [UInt8], raw: [UInt8]) {
        let filtered = heuristics.map {
            PNGRowFilter.filter(raw, rowBytes: mode.rowBytes(width: rectWidth), bpp: mode.filterStride, heuristic: $0)
        }
        var variants: [[UInt8]] = selectByFinal ? [] : [raw]
        for lines in filtered {
            if selectByFinal || gate == nil {
                variants.append(lines)
                continue
            }
            let estimate = try APNGWriter.estimate(lines, mode: mode, level: estimateLevel).count
            if let gate, 1000 * estimate <= gate * trial.count { variants.append(lines) }
        }
        var best = (stream: trial, raw: raw)
        if estimateLevel != nil && finalZlib && !selectByFinal {
            let stream = try PNGChunks.zlib(raw, filtered: mode.isIndexed)
            if stream.count < best.stream.count { best = (stream, raw) }
        }
        for lines in variants {
            let stream = try PNGChunks.deflate(lines, level: level)
            if stream.count < best.stream.count { best = (stream, lines) }
        }
        return best
    }

    /// Writes the last frame; returns the file.
    mutating func finish() throws -> APNGFile {
        // The last frame's dispose op has no effect: each play starts from a transparent
        // canvas (APNG specification, "Output buffer").
        if let last = queue.indices.last { queue[last].dispose = APNGDispose.none }
        try flush(final: true)
        return APNGFile(head: out, frames: frames)
    }

    /// Emits the queued frames whose dispose op is known, once there are at least
    /// `max(4, 2·workers)` of them or at the end: first each frame's final stream (`final`,
    /// then `DeflateRecoder`'s blocks when shorter), the frames of a batch on `workers` threads
    /// at once, so the slow libdeflate 12 runs of one frame overlap those of the next. Zopfli
    /// and `DeflateSqueeze` come later, on the kept colour mode's file only (`APNGFile.refine`).
    private mutating func flush(final: Bool) throws {
        let ready = queue.prefix { $0.dispose != nil }.count
        guard ready > 0, final || ready >= max(4, 2 * workers) else { return }
        let batch = Array(queue.prefix(ready))
        let (mode, level, heuristics, gate, selectByFinal) = (
            self.mode, self.level, self.rowFilters, self.filterGate, self.selectByFinal
        )
        // With a margin the queued stream is zlib 9's, so the final streams are made as without an estimate.
        let (estimateLevel, finalZlib) = (estimateMargin == nil ? self.estimateLevel : nil, self.finalZlib)
        let recode = self.recode
        let pixels = batch.reduce(0) { $0 + ($1.raw == nil ? 0 : $1.rect.width * $1.rect.height) }
        let workers = pixels >= APNGWriter.parallelPixels ? self.workers : 1
        let streams = try ParallelWork.map(count: batch.count, workers: workers) { i throws(EncodeError) in
            guard let raw = batch[i].raw else { return batch[i].stream }
            let kept = try APNGWriter.final(
                raw, batch[i].stream, width: batch[i].rect.width, mode: mode, level: level, heuristics: heuristics,
                gate: gate, selectByFinal: selectByFinal, estimateLevel: estimateLevel, finalZlib: finalZlib)
            // The same symbols in better blocks and codes; kept only when shorter (round 16).
            if recode, let shorter = DeflateRecoder.recode(zlib: kept.stream) { return shorter }
            return kept.stream
        }
        for i in 0..<ready {
            queue[i].stream = streams[i]
            queue[i].raw = nil
        }
        for frame in queue.prefix(ready) { emit(frame) }
        queue.removeFirst(ready)
    }

    /// The frame as written, its dispose op known by now.
    private mutating func emit(_ frame: APNGQueuedFrame) {
        frames.append(
            APNGWrittenFrame(
                rect: frame.rect, delay: frame.delay, dispose: frame.dispose ?? .none, blend: frame.blend,
                stream: frame.stream))
    }

    /// The palette index of every pixel of `target` (indexed mode; every colour is in the
    /// palette, since pass 1 collected them all).
    private func indexFrame(_ target: [UInt32]) -> [UInt8] {
        var last: UInt32 = 0
        var lastIndex = mode.index[0] ?? 0
        return target.map { key in
            if key != last {
                last = key
                lastIndex = mode.index[key] ?? 0
            }
            return lastIndex
        }
    }

    /// The smallest box holding every pixel where `a` and `b` differ, nil when none does.
    private func differenceBox(_ a: [UInt32], _ b: [UInt32]) -> APNGRect? {
        var (minX, minY, maxX, maxY) = (width, height, -1, -1)
        a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                for y in 0..<height {
                    let row = y * width
                    var x = 0
                    while x < width && a[row + x] == b[row + x] { x += 1 }
                    guard x < width else { continue }
                    var right = width - 1
                    while a[row + right] == b[row + right] { right -= 1 }
                    minX = min(minX, x)
                    maxX = max(maxX, right)
                    minY = min(minY, y)
                    maxY = y
                }
            }
        }
        guard maxY >= 0 else { return nil }
        return APNGRect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
    }

    /// Whether `OVER` reproduces `target` exactly: every pixel that differs from `canvas` is
    /// opaque (so it replaces what is under it), and unchanged pixels can be sent as fully
    /// transparent (which leaves them), which needs transparent black in an indexed palette.
    /// Partly transparent source pixels are never blended: decoders round that differently.
    private func overAllowed(_ target: [UInt32], _ canvas: [UInt32], _ rect: APNGRect) -> Bool {
        switch mode.type {
        case .indexed: if mode.transparentIndex == nil { return false }
        case .truecolorAlpha: break
        }
        for y in rect.y..<(rect.y + rect.height) {
            for x in rect.x..<(rect.x + rect.width) {
                let i = y * width + x
                if target[i] != canvas[i] && target[i] & 0xFF != 0xFF { return false }
            }
        }
        return true
    }

    /// The rectangle's pixels as the frame sends them, as PNG scanlines with filter type 0
    /// (None) before each row (PNG specification §7.2, §9.2): `target` for `SOURCE`; for
    /// `OVER`, fully transparent (transparent black or the transparent palette index) where
    /// `target` equals `base`, except, with `runs`, an opaque unchanged pixel equal to the one
    /// sent before it in the row, which is sent as itself (OVER of an opaque pixel on itself
    /// leaves it; a translucent one would blend). The opacity check is defensive: what is sent
    /// before is a changed pixel (opaque, or `OVER` is not allowed), transparent, or such a
    /// run, so a translucent unchanged pixel never equals it. Indices are packed most significant bits first
    /// (§7.2) at `mode.bitDepth`.
    static func scanlines(
        target: [UInt32], indices: [UInt8], base: [UInt32], rect: APNGRect, blend: APNGBlend, runs: Bool = false,
        canvasWidth: Int, mode: APNGColorMode
    ) -> [UInt8] {
        let rowBytes = mode.rowBytes(width: rect.width)
        let stride = rowBytes + 1
        var out = [UInt8](repeating: 0, count: stride * rect.height)
        let over = blend == .over
        out.withUnsafeMutableBufferPointer { out in
            target.withUnsafeBufferPointer { target in
                base.withUnsafeBufferPointer { base in
                    indices.withUnsafeBufferPointer { indices in
                        for row in 0..<rect.height {
                            let y = rect.y + row
                            var k = row * stride + 1
                            switch mode.type {
                            case .indexed:
                                let clear = mode.transparentIndex ?? 0
                                let depth = mode.bitDepth
                                let perByte = 8 / depth
                                var previous = clear
                                for column in 0..<rect.width {
                                    let i = y * canvasWidth + rect.x + column
                                    var value = indices[i]
                                    if over && target[i] == base[i]
                                        && !(runs && previous == value && target[i] & 0xFF == 0xFF)
                                    {
                                        value = clear
                                    }
                                    previous = value
                                    let shift = 8 - depth * (column % perByte + 1)
                                    out[k + column / perByte] |= value << UInt8(shift)
                                }
                            case .truecolorAlpha:
                                var previous: UInt32 = 0
                                for column in 0..<rect.width {
                                    let i = y * canvasWidth + rect.x + column
                                    var key = target[i]
                                    if over && target[i] == base[i] && !(runs && previous == key && key & 0xFF == 0xFF)
                                    {
                                        key = 0
                                    }
                                    previous = key
                                    out[k] = UInt8(truncatingIfNeeded: key >> 24)
                                    out[k + 1] = UInt8(truncatingIfNeeded: key >> 16)
                                    out[k + 2] = UInt8(truncatingIfNeeded: key >> 8)
                                    out[k + 3] = UInt8(truncatingIfNeeded: key)
                                    k += 4
                                }
                            }
                        }
                    }
                }
            }
        }
        return out
    }
}
