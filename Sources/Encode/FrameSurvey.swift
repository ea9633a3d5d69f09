// SPDX-License-Identifier: GPL-3.0-or-later

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension FlattenedFrames {
    /// Every frame's opaque colours, counted, with whether any pixel is transparent and how
    /// many edge pixels collapsed, and every pixel as a slot (a small number standing for its
    /// colour) for `PaletteMapper`.
    ///
    /// The frames are cut into segments of consecutive frames (`segments`), surveyed on up to
    /// `workers` threads by `FrameSurveyor`, which takes each block of pixels whose RGBA bytes
    /// equal the previous frame's from that frame instead of flattening and counting it again. The
    /// segments' histograms are merged in frame order, so the histogram keeps the order of
    /// first appearance. The histogram, transparency and collapsed count are the same for any
    /// number of workers, and so is the colour every pixel's slot stands for; the runs, and so
    /// the slot numbers and widths, depend on where segments start.
    func survey(workers: Int = 1) -> FrameSurvey {
        let segments = Self.segments(count: count, workers: workers)
        let parts = ParallelWork.map(count: segments.count, workers: workers) { s in
            var surveyor = FrameSurveyor(frames: self)
            for k in segments[s] { surveyor.add(k) }
            return surveyor.finished()
        }
        var survey = FrameSurvey(
            histogram: ColorHistogram(merging: parts.flatMap(\.histograms)),
            hasTransparency: parts.contains { $0.hasTransparency },
            collapsedEdgePixels: parts.reduce(0) { $0 + $1.collapsed }, frameColors: [], frameSlots: [],
            frameWideSlots: [])
        for part in parts {
            survey.frameColors += part.frameColors
            survey.frameSlots += part.frameSlots
            survey.frameWideSlots += part.frameWideSlots
        }
        return survey
    }

    /// `0..<count` cut for `workers` threads (none when empty): one segment for one thread;
    /// otherwise segments that shrink as the frames run out (each a `2 × workers`th of the
    /// frames left, at least an `8 × workers`th of all), so the threads, taking them in order,
    /// finish close together while few frames start a segment (a segment's first frame cannot
    /// take rows from the frame before it).
    static func segments(count: Int, workers: Int) -> [Range<Int>] {
        guard count > 0 else { return [] }
        guard workers > 1 else { return [0..<count] }
        let smallest = max(1, count / (8 * workers))
        var segments: [Range<Int>] = []
        var start = 0
        while start < count {
            let left = count - start
            let size = min(left, max(smallest, (left + 2 * workers - 1) / (2 * workers)))
            segments.append(start..<(start + size))
            start += size
        }
        return segments
    }
}

/// What `FlattenedFrames.survey` finds.
struct FrameSurvey: Sendable {
    /// Every opaque colour of every frame with its pixel count, first appearance first.
    var histogram: ColorHistogram
    /// Whether any pixel of any frame is transparent.
    var hasTransparency: Bool
    /// Pixels with 0 < alpha < 255 that became fully opaque or fully transparent without a
    /// matte (0 with a matte).
    var collapsedEdgePixels: Int
    /// Per frame, the colours its slots stand for, in order of first appearance: the colours of
    /// the run of consecutive frames it was surveyed in (`FrameSurveyor`), so frames of one run
    /// share one array. Holds every colour of the frame, and maybe colours only other frames of
    /// its run show.
    var frameColors: [[UInt32]]
    /// Per frame whose run has at most 255 colours, every pixel as its position in
    /// `frameColors` (`ColorHistogram.transparentSlot` when transparent); nil for the others.
    var frameSlots: [[UInt8]?]
    /// Per frame whose run has 256…65 535 colours, every pixel as its position in
    /// `frameColors` (`ColorHistogram.wideTransparentSlot` when transparent); nil for the
    /// others.
    var frameWideSlots: [[UInt16]?]

    /// `frameSlots`, handed over: the survey keeps none, so the caller holds the only reference
    /// to each buffer and can rewrite it in place (`PaletteMapper.index`).
    mutating func takeSlots() -> [[UInt8]?] {
        defer { frameSlots = [] }
        return frameSlots
    }
}

/// Surveys consecutive frames in order, in runs: the frames of a run number their colours
/// together (slot `s` is the same colour in all of them, in order of first appearance in the
/// run), so a block of 16 pixels of a frame whose RGBA bytes equal the previous frame's takes
/// that frame's slots and colour counts as they are. Only the blocks that changed are
/// flattened and counted (from one frame to the next 79–99 % of the presets' blocks do not:
/// arc-rotation 83 %, circular-progress 98 %).
///
/// A run's slot width is set by its first frame: one byte while the run has at most 255
/// colours, two while it has at most 65 535 (what is written so far is widened when the first
/// frame passes 255), none beyond (such a frame is a run of its own). A later frame that would
/// bring more colours than its width holds starts a new run instead (and is surveyed again
/// from its first row), so a frame's slots are never wider than its run's first frame needs.
///
/// Counts stay exact: on a changed row the previous frame's pixels are taken off the counts
/// of the frame being surveyed and the new ones added, and each frame's counts are added to
/// the run's totals when the frame ends.
struct FrameSurveyor {
    /// What a surveyor found, frame by frame, for `FlattenedFrames.survey` to join.
    struct Result: Sendable {
        /// One histogram per run, in frame order.
        var histograms: [ColorHistogram] = []
        /// Per frame, its run's colours (`FrameSurvey.frameColors`).
        var frameColors: [[UInt32]] = []
        /// Per frame, its one-byte slots, if its run has them.
        var frameSlots: [[UInt8]?] = []
        /// Per frame, its two-byte slots, if its run has them.
        var frameWideSlots: [[UInt16]?] = []
        /// Whether any pixel is transparent.
        var hasTransparency = false
        /// Edge pixels collapsed, summed over the frames.
        var collapsed = 0
    }

    private let frames: FlattenedFrames
    /// Whether each frame's slots and colours are kept in the result (for `PaletteMapper`);
    /// a streaming survey, which wants only the counts, keeps none.
    private let keepsSlots: Bool
    private var result = Result()
    /// The run of each frame surveyed so far (an index into `result.histograms`, whose entry is
    /// appended when the run ends).
    private var frameRun: [Int] = []
    /// The open run's colours and counts.
    private var counts = RunCounts()
    /// Slot width of the open run's frames: 1 or 2 bytes, or 0 (no slots).
    private var width = 1
    /// Frames in the open run.
    private var runLength = 0
    /// The last frame surveyed in the open run, and its slots.
    private var previous = -1
    private var previousSlots: [UInt8] = []
    private var previousWideSlots: [UInt16] = []
    /// Half-transparent pixels made opaque or transparent without a matte: in the frame being
    /// surveyed (so far), and in the last frame surveyed.
    private var collapsed = 0
    private var previousCollapsed = 0

    init(frames: FlattenedFrames, keepsSlots: Bool = true) {
        self.frames = frames
        self.keepsSlots = keepsSlots
    }

    /// Surveys frame `k`, the frame after the last one added (if any).
    mutating func add(_ k: Int) {
        if runLength > 0 && width != 0 && previous == k - 1 && survey(k, extending: true) { return }
        endRun()
        survey(k, extending: false)
    }

    /// Everything found, once every frame is added.
    mutating func finished() -> Result {
        endRun()
        result.frameColors = frameRun.map { result.histograms[$0].colors }
        return result
    }

    /// Closes the open run, if any, and opens an empty one.
    private mutating func endRun() {
        if runLength > 0 {
            result.histograms.append(ColorHistogram(colors: counts.colors, counts: counts.totals))
        }
        counts = RunCounts()
        width = 1
        runLength = 0
        previous = -1
        previousSlots = []
        previousWideSlots = []
    }

    /// Surveys frame `k` into the open run; `extending`: the run has frames, and rows equal to
    /// the previous frame's are taken from it.
    /// - Returns: false when a colour of a later frame found no slot of the run's width (the
    ///   frame is then not in the run, and the run's colours and totals are as before it).
    @discardableResult
    private mutating func survey(_ k: Int, extending: Bool) -> Bool {
        let pixelCount = frames.width * frames.height
        let known = counts.colors.count
        collapsed = extending ? previousCollapsed : 0
        // Pixels surveyed so far; a first frame passing its width goes on with wider slots.
        var done = 0
        var slots: [UInt8]? = nil
        var wideSlots: [UInt16]? = nil
        if width == 1 {
            slots = [UInt8](unsafeUninitializedCapacity: pixelCount) { buffer, initialized in
                initialized = pixelCount
                done = surveyPixels(
                    k, extending: extending, from: 0, slots: buffer.baseAddress, previous: previousSlots,
                    transparent: ColorHistogram.transparentSlot, limit: Int(ColorHistogram.transparentSlot))
            }
            if done < pixelCount {
                guard !extending else { return gaveUp(known) }
                width = 2
            }
        }
        if width == 2 {
            let narrow = slots ?? []
            let resumed = done
            wideSlots = [UInt16](unsafeUninitializedCapacity: pixelCount) { buffer, initialized in
                initialized = pixelCount
                narrow.withUnsafeBufferPointer { narrow in
                    for p in 0..<resumed {
                        let slot = narrow[p]
                        buffer[p] =
                            slot == ColorHistogram.transparentSlot ? ColorHistogram.wideTransparentSlot : UInt16(slot)
                    }
                }
                done = surveyPixels(
                    k, extending: extending, from: resumed, slots: buffer.baseAddress, previous: previousWideSlots,
                    transparent: ColorHistogram.wideTransparentSlot, limit: Int(ColorHistogram.wideTransparentSlot))
            }
            slots = nil
            if done < pixelCount {
                guard !extending else { return gaveUp(known) }
                width = 0
                wideSlots = nil
            }
        }
        if width == 0 {
            let none: UnsafeMutablePointer<UInt8>? = nil
            surveyPixels(k, extending: false, from: done, slots: none, previous: [], transparent: 0, limit: .max)
        }
        if keepsSlots {
            result.frameSlots.append(slots)
            result.frameWideSlots.append(wideSlots)
            frameRun.append(result.histograms.count)
        }
        previousSlots = slots ?? []
        previousWideSlots = wideSlots ?? []
        counts.endFrame()
        result.collapsed += collapsed
        previousCollapsed = collapsed
        runLength += 1
        previous = k
        return true
    }

    /// Gives up a later frame whose colours no longer fit the run's slot width: the run's
    /// colours and totals go back to the `known` it had before the frame; returns false. The
    /// run must be ended next (`add` does), since its table and `current` still hold the frame.
    private mutating func gaveUp(_ known: Int) -> Bool {
        counts.drop(after: known)
        return false
    }

    /// `survey`'s pixel loop for frame `k`, keeping `collapsed` and `result.hasTransparency`.
    /// A first frame (`extending` false) is flattened and counted row by row. A later one goes
    /// over each row in blocks of `blockSize` pixels: a stretch of blocks whose RGBA bytes equal
    /// the previous frame's takes that frame's slots; a stretch of changed blocks has the
    /// previous frame's pixels there taken off the counts (and its half-transparent ones off
    /// `collapsed`), then is flattened and counted.
    /// - Parameters:
    ///   - from: the first pixel to survey: 0, or where a first frame goes on with wider slots
    ///     (the pixels before it are counted and their slots written already).
    ///   - slots: the frame's slot buffer (`width × height`), or nil for no slots.
    ///   - previous: the previous frame's slots, read when `extending`.
    ///   - transparent: the slot transparent pixels get.
    ///   - limit: how many colours the run's slots can number.
    /// - Returns: the pixel whose colour found no slot, or the pixel count.
    @discardableResult
    private mutating func surveyPixels<Slot: FixedWidthInteger & UnsignedInteger>(
        _ k: Int, extending: Bool, from: Int, slots: UnsafeMutablePointer<Slot>?, previous: [Slot],
        transparent: Slot, limit: Int
    ) -> Int {
        let width = frames.width
        let height = frames.height
        let images = frames.images
        let policy = frames.policy
        let block = Self.blockSize
        var row = [UInt32](repeating: 0, count: width)
        return images[k].pixels.withUnsafeBytes { now in
            images[extending ? k - 1 : k].pixels.withUnsafeBytes { before in
                previous.withUnsafeBufferPointer { previous in
                    row.withUnsafeMutableBufferPointer { row in
                        // Frames have at least one pixel.
                        guard let now = now.baseAddress, let before = before.baseAddress else { return width * height }
                        /// Flattens pixels `first ..< end` and counts them from `countFrom` on
                        /// (their facts are kept unless `resumed`); returns the pixel whose colour
                        /// found no slot, or nil.
                        func changed(_ first: Int, _ end: Int, countFrom: Int, resumed: Bool) -> Int? {
                            let span = UnsafeMutableBufferPointer(rebasing: row[0..<(end - first)])
                            let facts = policy.flatten(
                                bytes: UnsafeRawBufferPointer(start: now + 4 * first, count: 4 * (end - first)),
                                into: span)
                            if !resumed {
                                if facts.hasTransparency { result.hasTransparency = true }
                                collapsed += facts.collapsed
                            }
                            let counted = counts.count(
                                UnsafeBufferPointer(span), from: countFrom - first, slots: slots.map { $0 + first },
                                transparent: transparent, limit: limit)
                            return counted < end - first ? first + counted : nil
                        }
                        for y in (from / width)..<height {
                            let start = y * width
                            guard extending, let slots, let previous = previous.baseAddress else {
                                // The row a frame goes on in was flattened, and its facts kept,
                                // before the slots were widened, even when it stopped at the
                                // row's first pixel.
                                let resumed = from > 0 && y == from / width
                                if let stop = changed(
                                    start, start + width, countFrom: max(start, from), resumed: resumed)
                                {
                                    return stop
                                }
                                continue
                            }
                            var x = start
                            let end = start + width
                            while x < end {
                                // Equal blocks first, then changed ones.
                                var stretch = x
                                while stretch < end,
                                    Self.equal(
                                        now + 4 * stretch, before + 4 * stretch, count: min(block, end - stretch))
                                {
                                    stretch += min(block, end - stretch)
                                }
                                if stretch > x {
                                    (slots + x).update(from: previous + x, count: stretch - x)
                                    x = stretch
                                    continue
                                }
                                while stretch < end,
                                    !Self.equal(
                                        now + 4 * stretch, before + 4 * stretch, count: min(block, end - stretch))
                                {
                                    stretch += min(block, end - stretch)
                                }
                                counts.uncount(previous + x, count: stretch - x)
                                if policy.matte == nil {
                                    collapsed -= Self.halfTransparent(before + 4 * x, count: stretch - x)
                                }
                                if let stop = changed(x, stretch, countFrom: x, resumed: false) { return stop }
                                x = stretch
                            }
                        }
                        return width * height
                    }
                }
            }
        }
    }

    /// Pixels per block compared with the previous frame's (as many as the flattening's
    /// blocks): 64 bytes, four 16-byte loads.
    static let blockSize = 16

    /// Whether `count` RGBA pixels at `a` and `b` are byte for byte equal: a whole block in four
    /// 16-byte loads each, the differences gathered and tested once; a ragged end by `memcmp`.
    @inline(__always)
    private static func equal(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, count: Int) -> Bool {
        guard count == blockSize else { return memcmp(a, b, 4 * count) == 0 }
        var differ = SIMD4<UInt32>.zero
        for offset in stride(from: 0, to: 64, by: 16) {
            differ |=
                a.loadUnaligned(fromByteOffset: offset, as: SIMD4<UInt32>.self)
                ^ b.loadUnaligned(fromByteOffset: offset, as: SIMD4<UInt32>.self)
        }
        return differ == .zero
    }

    /// How many of `count` RGBA pixels at `pixels` have 0 < alpha < 255.
    private static func halfTransparent(_ pixels: UnsafeRawPointer, count: Int) -> Int {
        var found = 0
        for p in 0..<count {
            let alpha = pixels.load(fromByteOffset: 4 * p + 3, as: UInt8.self)
            found += alpha &- 1 < 254 ? 1 : 0
        }
        return found
    }
}

/// The colours of a `FrameSurveyor` run, numbered in order of first appearance, with their
/// pixel counts: `totals` over the run's frames ended so far, `current` for the frame being
/// surveyed (one entry per colour, and one more where taking off a transparent pixel lands;
/// a colour new to the run resets the entry it takes).
private struct RunCounts {
    var table = ColorIndexTable()
    var colors: [UInt32] = []
    var totals: [Int] = []
    var current: [Int] = [0]

    /// Counts `row` from position `from` on, span by span of one colour, adding each span to
    /// `current` and writing its slots into `slots` when given (`transparent` for transparency).
    /// A colour new to the run takes the next slot while fewer than `limit` colours are known.
    /// - Returns: the position of the first colour that found no slot, or `row.count`.
    mutating func count<Slot: FixedWidthInteger & UnsignedInteger>(
        _ row: UnsafeBufferPointer<UInt32>, from: Int, slots: UnsafeMutablePointer<Slot>?, transparent: Slot,
        limit: Int
    ) -> Int {
        guard let base = row.baseAddress else { return 0 }
        let raw = UnsafeRawPointer(base)
        let n = row.count
        var p = from
        while p < n {
            let color = row[p]
            // The span: four pixels at a time while all four are `color`.
            var end = p + 1
            let four = SIMD4<UInt32>(repeating: color)
            while end + 4 <= n, raw.loadUnaligned(fromByteOffset: end &* 4, as: SIMD4<UInt32>.self) == four {
                end += 4
            }
            while end < n && row[end] == color { end += 1 }
            var value = transparent
            if color != FlattenedFrames.transparent {
                let slot: Int
                if colors.count < limit {
                    let (found, inserted) = table.findOrInsert(color, newValue: Int32(colors.count))
                    slot = Int(found)
                    if inserted {
                        colors.append(color)
                        totals.append(0)
                        current[slot] = 0
                        current.append(0)
                    }
                } else if let found = table.value(for: color) {
                    slot = Int(found)
                } else {
                    return p
                }
                current[slot] += end - p
                value = Slot(truncatingIfNeeded: slot)
            }
            slots?.advanced(by: p).update(repeating: value, count: end - p)
            p = end
        }
        return n
    }

    /// The previous frame's `count` slots at `slots` taken off `current`, span by span of one
    /// slot.
    mutating func uncount<Slot: FixedWidthInteger & UnsignedInteger>(_ slots: UnsafePointer<Slot>, count n: Int) {
        let spare = colors.count
        let raw = UnsafeRawPointer(slots)
        // Eight bytes of slots at a time while all are the span's (arc-rotation: a third of
        // its survey went on finding span ends slot by slot).
        let perWord = 8 / MemoryLayout<Slot>.size
        var p = 0
        while p < n {
            let slot = slots[p]
            let word = UInt64(truncatingIfNeeded: slot) &* (UInt64.max / UInt64(Slot.max))
            var end = p + 1
            while end + perWord <= n,
                raw.loadUnaligned(fromByteOffset: end &* MemoryLayout<Slot>.size, as: UInt64.self) == word
            {
                end += perWord
            }
            while end < n && slots[end] == slot { end += 1 }
            current[min(Int(slot), spare)] -= end - p
            p = end
        }
    }

    /// The frame's counts added to the run's totals.
    mutating func endFrame() {
        for s in colors.indices { totals[s] += current[s] }
    }

    /// Forgets, in `colors` and `totals`, the colours found after the first `known` (the frame
    /// that found them is not in the run). `table` and `current` keep them: the run must end.
    mutating func drop(after known: Int) {
        colors.removeSubrange(known...)
        totals.removeSubrange(known...)
    }
}
