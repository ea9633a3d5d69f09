// SPDX-License-Identifier: GPL-3.0-or-later

#if canImport(Glibc)
    import Glibc
#endif

/// Turns full-canvas indexed frames into the smallest `GIFFramePlan` this encoder knows that
/// still shows every frame exactly.
///
/// - **Merging**: consecutive identical frames become one whose delay is their sum (never
///   above 65535 cs), so the total duration is unchanged.
/// - **Differencing**: frame 0 covers the whole screen; every later frame covers only the
///   bounding box of the pixels that differ from what the screen shows before it is drawn.
///   Inside that box a pixel that already shows the right colour may be written as the
///   transparency index or as its own index, whichever `LZWEncoder` finds shorter.
/// - **Disposal**: under disposal 1 a transparent pixel keeps what is below it, so it can never
///   erase (semantics.md §8.2). When frame k shows pixels that frame k+1 must make transparent
///   (for the last frame: frame 0, so a player that does not clear between loops still shows
///   frame 0 right), frame k gets disposal 2 (its rectangle, grown to cover those pixels, is
///   cleared to transparent afterwards) or disposal 3 (the screen goes back to how it was
///   before frame k, allowed when all those pixels were transparent then), whichever leaves the
///   next frame fewer pixels to change (frame k itself costs the same either way: pixels that
///   were transparent before it and are opaque in it lie in its rectangle already). Otherwise
///   disposal 1. Frames with disposal 2 always name the transparency index, because Pillow and
///   ffmpeg clear to the background colour when a frame has none.
/// - **Code size**: a frame written with the global table uses the LZW minimum code size of the
///   largest index it must write; an unchanged pixel whose own index needs more is written as
///   the transparency index (`GIFPalette.reorderedByUse` gives busy colours small indices).
/// - **Parse**: of the greedy stream and the rules in `shortest`, the shortest under the
///   greedy parse is also tried with `LZWEncoder.compressWithLookahead`; the shorter is kept.
/// - **Local colour tables**: a frame whose rectangle uses few colours gets a smaller local
///   table when table plus shorter codes come out smaller than the global table's codes.
/// - **Tolerance** (`lossy` > 0, `GIFOptions.lossy`): a pixel whose wanted colour is within
///   `lossy` levels per channel of the opaque colour the screen already shows counts as
///   unchanged: it keeps the shown colour (written as its own index or the transparency index)
///   and stays out of the difference rectangle. The screen is tracked exactly as a decoder
///   composites it, and every comparison is against the wanted colour, so each displayed pixel
///   is within `lossy` of its frame whatever came before. A frame all of whose pixels are
///   within tolerance of what the previous frame displays is merged into it. Transparency is
///   never approximated: a transparent pixel is near only to transparency. Each frame is
///   written the shortest of its exact stream over that screen and the lossy parses (`encode`),
///   so no frame is longer than written exactly over the same screen; the whole file can still
///   be, and `GIFEncoder` then writes the exact plan.
struct GIFFrameOptimizer {
    let width: Int
    let height: Int
    /// The palette's transparency index, or nil (256 opaque colours: no differencing by
    /// transparency, and nothing ever needs erasing).
    let transparent: UInt8?
    private let globalTable: [UInt8]
    /// `near[shown << 8 | wanted]`: whether a pixel showing index `shown` may keep it when
    /// index `wanted` is asked for. Empty when exact (then only equal indices are near).
    let near: [Bool]
    /// Per palette index, the other indices within tolerance, nearest first (lossy only).
    let similar: [[UInt8]]
    /// Per palette index, the smallest index that may stand in for it: itself or one of
    /// `similar` (lossy only).
    let smallestSimilar: [Int]

    /// The plan for `frames` (full-canvas indices into `palette`) shown for `delays`
    /// centiseconds each: the frames added to a `Builder` one by one.
    /// - Parameters:
    ///   - lossy: 0 for exact frames, else the largest per-channel difference (levels) between
    ///     a displayed opaque pixel and its palette colour, 1…255.
    ///   - workers: threads for the per-frame compression (≥ 1); the plan is the same for any.
    /// - Throws: `EncodeError` if a frame would not reproduce its input (an internal error).
    static func plan(
        frames: [IndexedFrame], delays: [Int], palette: GIFPalette, width: Int, height: Int,
        loopCount: Int?, lossy: Int = 0, workers: Int = 1
    ) throws -> GIFFramePlan {
        var builder = Builder(
            palette: palette, width: width, height: height, loopCount: loopCount, lossy: lossy, workers: workers)
        for (frame, delay) in zip(frames, delays) { try builder.add(frame.indices, delay: delay) }
        return try builder.finish()
    }

    /// Consecutive equal frames joined, delays summed while the sum fits 16 bits. Which frames
    /// equal the one before is found on up to `workers` threads.
    static func merge(_ frames: [[UInt8]], delays: [Int], workers: Int = 1) -> [(indices: [UInt8], delay: Int)] {
        let repeats = ParallelWork.map(count: frames.count, workers: workers) { k in
            k > 0 && frames[k].count == frames[k - 1].count
                && frames[k].withUnsafeBytes { a in
                    frames[k - 1].withUnsafeBytes { b in
                        guard let a = a.baseAddress, let b = b.baseAddress else { return true }
                        return memcmp(a, b, frames[k].count) == 0
                    }
                }
        }
        var merged: [(indices: [UInt8], delay: Int)] = []
        for (k, (frame, delay)) in zip(frames, delays).enumerated() {
            // A frame equal to the one before equals the merged frame that holds it.
            if let last = merged.last, last.delay + delay <= 65535, repeats[k] {
                merged[merged.count - 1].delay += delay
            } else {
                merged.append((frame, delay))
            }
        }
        return merged
    }

    /// One frame's rectangle, compressed with the global table.
    struct Encoded: Sendable {
        var rect: GIFRect
        var symbols: [UInt8]
        var flexible: [Bool]
        /// The LZW minimum code size `data` was compressed with.
        var codeSize: Int
        var data: [UInt8]
    }

    /// What the screen shows between two frames: `base` with the rectangle `cleared`, when
    /// given, set to the transparency index. Without tolerance every screen is some frame's
    /// indices (shared, never copied) with at most the rectangle its disposal 2 cleared; with
    /// tolerance `base` is the screen as written and `cleared` nil.
    struct Screen: Sendable {
        var base: [UInt8]
        var cleared: GIFRect?
    }

    /// A frame whose rectangle and disposal are decided: `target` drawn over `canvas` in
    /// `rect`; when lossy, compressed already (the screen after it depends on the symbols its
    /// stream chose).
    private struct Decided: Sendable {
        var target: [UInt8]
        var canvas: Screen
        var rect: GIFRect
        var pinned: [Bool]
        var encoded: Encoded?
        var delay: Int
        var disposal: Int
    }

    /// A frame whose rectangle and disposal are still to be decided: a merged frame and, with
    /// tolerance, the later frames the screen already shows within it.
    private struct Group: Sendable {
        var target: [UInt8]
        var delay: Int
        /// The frame's number among the merged frames (0 for the first).
        var first: Int
        /// What the screen shows once this frame is drawn (the target itself when exact).
        var shown: [UInt8]
        /// Pixels where frames joined to this one differ from it: they must display `shown`
        /// exactly. Empty when none joined.
        var pinned: [Bool]
    }

    /// A plan made as the frames come, so only a few frames are held at once: full-canvas
    /// indexed frames go in one by one (`add`), in order; equal consecutive frames are merged
    /// (`merge`'s rule); each frame's rectangle and disposal are decided as soon as the frame
    /// after it is known (the decision needs only the screen before it, the frame and the next
    /// one, and for the last frame the first); decided frames are compressed `chunk` at a time
    /// on up to `workers` threads. The plan is the same for any `workers`, and equals
    /// `plan(frames:...)` over the same frames.
    struct Builder: Sendable {
        let optimizer: GIFFrameOptimizer
        let colorTable: [UInt8]
        let backgroundIndex: Int
        let loopCount: Int?
        let workers: Int
        /// Decided frames compressed together (each holds a frame and a screen until then).
        let chunk: Int
        /// The merged frame being added to (later equal frames join it).
        private var pending: (indices: [UInt8], delay: Int)?
        /// The first merged frame: the last frame's "next" (a loop starts over).
        private var firstFrame: [UInt8]?
        private var merged = 0
        private var group: Group?
        /// The screen before the group, as one array for the scans, and as a `Screen` for the
        /// frame's compression later. When disposal 2 clears a rectangle, the array is built in
        /// one of two scratch buffers that take turns (the one `canvas` is not), so no frame
        /// costs fresh memory in this pass, which cannot run in parallel.
        private var canvas: [UInt8]
        private var screen: Screen
        private var scratch: [[UInt8]] = [[], []]
        private var canvasScratch = -1
        private var decided: [Decided] = []
        private var planned: [GIFFramePlan.Frame] = []
        /// The first error `add` met, for callers that add from a non-throwing closure.
        private(set) var failure: EncodeError?

        /// A plan of `width × height` frames indexed into `palette`.
        /// - Parameters:
        ///   - lossy: 0 for exact frames, else the tolerance, 1…255 levels per channel.
        ///   - workers: threads for the per-frame compression (≥ 1).
        init(palette: GIFPalette, width: Int, height: Int, loopCount: Int?, lossy: Int = 0, workers: Int = 1) {
            let transparent = palette.transparentIndex.map { UInt8($0) }
            let table = palette.colorTable
            let similar = lossy > 0 ? GIFFrameOptimizer.similarLists(table, transparent: transparent, lossy: lossy) : []
            optimizer = GIFFrameOptimizer(
                width: width, height: height, transparent: transparent, globalTable: table,
                near: lossy > 0 ? GIFFrameOptimizer.nearTable(table, transparent: transparent, lossy: lossy) : [],
                similar: similar,
                smallestSimilar: similar.enumerated().map { index, list in min(index, Int(list.min() ?? UInt8(255))) })
            colorTable = table
            backgroundIndex = palette.transparentIndex ?? 0
            self.loopCount = loopCount
            self.workers = max(1, workers)
            chunk = max(8, 4 * self.workers)
            canvas = [UInt8](repeating: transparent ?? 0, count: width * height)
            screen = Screen(base: canvas, cleared: nil)
        }

        /// Adds the next frame: `indices` (`width·height` palette indices) shown for `delay`
        /// centiseconds (2…65535).
        /// - Throws: `EncodeError` if a frame would not reproduce its input (an internal error).
        mutating func add(_ indices: [UInt8], delay: Int) throws(EncodeError) {
            // A frame equal to the one before equals the merged frame that holds it.
            if let last = pending, last.delay + delay <= 65535, last.indices == indices {
                pending?.delay += delay
                return
            }
            if let last = pending { try receive(last) }
            pending = (indices, delay)
        }

        /// `add` for frames in order, keeping the first error in `failure` instead of throwing
        /// (for a thread of `ParallelWork.update`); does nothing once an error is kept.
        mutating func add(_ frames: [(indices: [UInt8], delay: Int)]) {
            guard failure == nil else { return }
            do throws(EncodeError) {
                for frame in frames { try add(frame.indices, delay: frame.delay) }
            } catch {
                failure = error
            }
        }

        /// The plan, once every frame is added.
        /// - Throws: `EncodeError` when no frame was added, or what `add` would.
        mutating func finish() throws(EncodeError) -> GIFFramePlan {
            if let failure { throw failure }
            guard let last = pending else { throw EncodeError("cannot plan a GIF without frames") }
            pending = nil
            try receive(last)
            if let group, let firstFrame {
                var lzw: LZWEncoder?
                try decide(group, next: firstFrame, isLast: true, lzw: &lzw)
                self.group = nil
            }
            try compressDecided()
            return GIFFramePlan(
                width: optimizer.width, height: optimizer.height, colorTable: colorTable,
                backgroundIndex: backgroundIndex, loopCount: loopCount, frames: planned)
        }

        /// A merged frame: it joins the group within tolerance, or the group is decided with it
        /// as the next frame and it starts the next group.
        private mutating func receive(_ frame: (indices: [UInt8], delay: Int)) throws(EncodeError) {
            if firstFrame == nil { firstFrame = frame.indices }
            // Only a lossy plan compresses while deciding (a table is 2 MiB to clear).
            var lzw: LZWEncoder?
            if var current = group {
                // Later frames the screen already shows within tolerance join this one.
                if !optimizer.near.isEmpty, current.delay + frame.delay <= 65535,
                    optimizer.differenceBox(current.shown, frame.indices) == nil
                {
                    current.delay += frame.delay
                    if current.pinned.isEmpty { current.pinned = [Bool](repeating: false, count: current.target.count) }
                    for (p, index) in frame.indices.enumerated() where index != current.target[p] {
                        current.pinned[p] = true
                    }
                    group = current
                    return
                }
                group = nil
                try decide(current, next: frame.indices, isLast: false, lzw: &lzw)
            }
            group = Group(
                target: frame.indices, delay: frame.delay, first: merged,
                shown: optimizer.display(frame.indices, over: canvas), pinned: [])
            merged += 1
        }

        /// The group's rectangle and disposal over the screen before it, given the frame after it
        /// (`next`; for the last frame, the first); the screen moves on past it.
        private mutating func decide(_ group: Group, next: [UInt8], isLast: Bool, lzw: inout LZWEncoder?)
            throws(EncodeError)
        {
            let width = optimizer.width
            let height = optimizer.height
            let transparent = optimizer.transparent
            let full = GIFRect(x: 0, y: 0, width: width, height: height)
            // When lossy, the screen after a frame depends on the symbols its parse chose.
            let lossy = !optimizer.similar.isEmpty
            let target = group.target
            let shown = group.shown
            let pinned = group.pinned
            let delay = group.delay
            // The screen starts transparent, so frame 0 too covers only what differs from that.
            let rect =
                transparent == nil && group.first == 0
                ? full : (optimizer.differenceBox(canvas, target) ?? GIFRect(x: 0, y: 0, width: 1, height: 1))
            var frame = Decided(
                target: target, canvas: screen, rect: rect, pinned: pinned, encoded: nil, delay: delay,
                disposal: GIFFramePlan.doNotDispose)
            if let t = transparent, let erase = optimizer.eraseScan(target: target, next: next, canvas: canvas, t: t) {
                // Disposal 2 over the rectangle grown to cover the pixels to erase.
                let grown = optimizer.union(rect, erase.box)
                frame.rect = grown
                frame.disposal = GIFFramePlan.restoreToBackground
                var clearedCanvas: [UInt8]
                var clearedScreen: Screen
                var clearedScratch = -1
                if lossy {
                    let encoded = try optimizer.encode(target, over: screen, in: grown, pinned: pinned, lzw.lazy())
                    frame.encoded = encoded
                    clearedCanvas = optimizer.written(encoded, over: canvas, shown: shown)
                    optimizer.fill(&clearedCanvas, grown, with: t)
                    clearedScreen = Screen(base: clearedCanvas, cleared: nil)
                } else {
                    clearedScratch = canvasScratch == 0 ? 1 : 0
                    if scratch[clearedScratch].isEmpty {
                        scratch[clearedScratch] = [UInt8](repeating: 0, count: width * height)
                    }
                    scratch[clearedScratch].withUnsafeMutableBufferPointer { out in
                        shown.withUnsafeBufferPointer { shown in
                            guard let out = out.baseAddress, let shown = shown.baseAddress else { return }
                            out.update(from: shown, count: width * height)
                        }
                    }
                    optimizer.fill(&scratch[clearedScratch], grown, with: t)
                    clearedCanvas = scratch[clearedScratch]
                    clearedScreen = Screen(base: shown, cleared: grown)
                }
                // Disposal 3 (the screen returns to `canvas`) is weighed against 2 by this frame's
                // bytes either way plus the next frame's. The pixels disposal 3 must erase were
                // transparent on `canvas` and are opaque in `target`, so they already lie in
                // `rect` (`grown == rect`) and this frame's bytes are the same either way. The
                // next frame's are estimated from how many of its pixels differ from each screen
                // (a trial compression of it cost more time than it saved bytes): the smaller
                // count wins, a tie goes to disposal 2. Outside `grown` both screens are
                // `canvas`, so only the pixels inside it are counted.
                if erase.restorable && !isLast {
                    let changed = optimizer.changedPixels(next, over: canvas, orClear: t, in: grown)
                    if changed.overPrevious < changed.overCleared { frame.disposal = GIFFramePlan.restoreToPrevious }
                }
                if frame.disposal == GIFFramePlan.restoreToBackground {
                    canvas = clearedCanvas
                    screen = clearedScreen
                    canvasScratch = clearedScratch
                }
            } else {
                if lossy {
                    let encoded = try optimizer.encode(target, over: screen, in: rect, pinned: pinned, lzw.lazy())
                    frame.encoded = encoded
                    canvas = optimizer.written(encoded, over: canvas, shown: shown)
                } else {
                    canvas = shown
                }
                screen = Screen(base: canvas, cleared: nil)
                canvasScratch = -1
            }
            if lossy {
                // Compressed already: only the stream is needed from here on.
                frame.target = []
                frame.canvas = Screen(base: [], cleared: nil)
                frame.pinned = []
            }
            decided.append(frame)
            if decided.count >= chunk { try compressDecided() }
        }

        /// The decided frames compressed, on up to `workers` threads, and added to the plan.
        private mutating func compressDecided() throws(EncodeError) {
            guard !decided.isEmpty else { return }
            let frames = decided
            decided = []
            let optimizer = self.optimizer
            planned += try ParallelWork.map(count: frames.count, workers: workers, makeState: { LZWEncoder() }) {
                (k: Int, lzw: inout LZWEncoder) throws(EncodeError) in
                try optimizer.compress(frames[k], lzw)
            }
        }
    }

    /// A decided frame as written: a lossy frame comes compressed, its stream chosen already
    /// (`encode`); an exact one is compressed here. Then `finish`.
    private func compress(_ frame: Decided, _ lzw: LZWEncoder) throws(EncodeError) -> GIFFramePlan.Frame {
        var chosen: Encoded
        if let encoded = frame.encoded {
            chosen = encoded
        } else {
            chosen = try encode(frame.target, over: frame.canvas, in: frame.rect, pinned: frame.pinned, lzw)
        }
        var written = finish(chosen, final: !near.isEmpty, delay: frame.delay, disposal: frame.disposal, lzw)
        written.imageData = Self.fitted(written.imageData)
        return written
    }

    /// `data` in a buffer of its own size. An LZW stream is built in a buffer reserved for half
    /// its rectangle's pixels (`LZWRun`), and the plan keeps every frame's stream until the file
    /// is written: kept as built, a 1984×1984 frame's 2 MB buffer held a 90 kB stream, and the
    /// unused capacity grew with the number of frames.
    static func fitted(_ data: [UInt8]) -> [UInt8] {
        guard data.capacity > data.count + data.count / 8 + 64 else { return data }
        return [UInt8](unsafeUninitializedCapacity: data.count) { out, initialized in
            data.withUnsafeBufferPointer { data in
                guard let from = data.baseAddress, let to = out.baseAddress else { return }
                to.update(from: from, count: data.count)
            }
            initialized = data.count
        }
    }

    /// The shortest stream this encoder finds for `greedy`'s pixels: the greedy choice at
    /// unchanged pixels and a few rules (all of them transparent; all of them their own colour;
    /// only the one or two commonest unchanged colours their own, the rest transparent: a large
    /// unchanged area of one colour is often cheapest as itself; `unchangedRuns`), the best of
    /// which is also tried with the lookahead parse. Every choice shows the same screen.
    /// - Returns: a rule's or the lookahead's stream (`flexible` empty), or `greedy` itself
    ///   when it is shortest.
    private func shortest(_ greedy: Encoded, _ lzw: LZWEncoder) -> Encoded {
        var encoded = greedy
        // The fixed stream the lookahead parse runs on: the frame's own symbols when it has no
        // unchanged pixels to decide, else the rule that the greedy parse compresses best.
        var best = (symbols: greedy.symbols, data: greedy.data)
        if let t = transparent, greedy.flexible.anySet {
            // The loops below read the flags through unchecked pointers, one per symbol.
            assert(greedy.flexible.count == greedy.symbols.count, "one flexible flag per symbol")
            // The flexible pixels fit the greedy code size whatever they become (`encode`).
            let counts = Self.unchangedCounts(greedy.symbols, flexible: greedy.flexible)
            let common = (0..<256).filter { counts[$0] > 0 }.sorted { (counts[$0], -$0) > (counts[$1], -$1) }
            // Each rule as the one colour that keeps its own index at unchanged pixels: none
            // (-1: all transparent), all (256), or one of the two commonest.
            var rules = [-1, 256]
            for colour in common.prefix(2) where common.count > 1 { rules.append(colour) }
            best.data = []
            // The colour rules, then the run rule (last, so it is kept only when strictly shorter).
            for rule in 0...rules.count {
                var fixed: [UInt8]
                if rule == rules.count {
                    // Skipped when it equals the first or second rule's stream.
                    guard
                        let runs = Self.unchangedRuns(greedy.symbols, flexible: greedy.flexible, transparent: t)
                    else { continue }
                    fixed = runs
                } else if rules[rule] == 256 {
                    // Every unchanged pixel its own colour: the symbols as they are.
                    fixed = greedy.symbols
                } else {
                    let kept = rules[rule]
                    fixed = [UInt8](unsafeUninitializedCapacity: greedy.symbols.count) { out, initialized in
                        greedy.symbols.withUnsafeBufferPointer { symbols in
                            greedy.flexible.withUnsafeBytes { flags in
                                // Branch-free and without a table lookup, so it vectorises: which
                                // pixels are unchanged follows the picture, and a branch on it was
                                // mispredicted often.
                                if kept < 0 {
                                    for p in 0..<symbols.count {
                                        let symbol = symbols[p]
                                        out[p] = symbol ^ ((symbol ^ t) & (0 &- flags[p]))
                                    }
                                } else {
                                    let colour = UInt8(kept)
                                    for p in 0..<symbols.count {
                                        let symbol = symbols[p]
                                        let clear = flags[p] & (symbol == colour ? 0 : 1)
                                        out[p] = symbol ^ ((symbol ^ t) & (0 &- clear))
                                    }
                                }
                            }
                        }
                        initialized = greedy.symbols.count
                    }
                }
                // A rule's stream is given up once it is longer than the best so far.
                let limit = best.data.isEmpty ? Int.max : best.data.count - 1
                guard
                    let data = lzw.compress(fixed, minimumCodeSize: greedy.codeSize, unlessLongerThan: limit)
                else { continue }
                if best.data.isEmpty || data.count < best.data.count { best = (fixed, data) }
            }
            if best.data.count < encoded.data.count {
                encoded = Encoded(
                    rect: greedy.rect, symbols: best.symbols, flexible: [], codeSize: greedy.codeSize, data: best.data)
            }
        }
        let parsed = lzw.compressWithLookahead(best.symbols, minimumCodeSize: greedy.codeSize)
        if parsed.count < encoded.data.count {
            encoded = Encoded(
                rect: greedy.rect, symbols: best.symbols, flexible: [], codeSize: greedy.codeSize, data: parsed)
        }
        return encoded
    }

    /// Per palette index, how many of `symbols` are unchanged pixels (`flexible`, same count)
    /// of that index: 256 counts.
    static func unchangedCounts(_ symbols: [UInt8], flexible: [Bool]) -> [Int] {
        precondition(flexible.count == symbols.count, "one flexible flag per symbol")
        // Four tallies, summed after: consecutive pixels are mostly the same colour, and one
        // tally made each addition wait for the one before through memory.
        var tallies = [Int](repeating: 0, count: 4 * 256)
        tallies.withUnsafeMutableBufferPointer { tallies in
            symbols.withUnsafeBufferPointer { symbols in
                flexible.withUnsafeBytes { flags in
                    // A flag's byte is 0 or 1: added, not branched on.
                    let count = symbols.count
                    var p = 0
                    while p + 4 <= count {
                        tallies[Int(symbols[p])] &+= Int(flags[p])
                        tallies[256 | Int(symbols[p + 1])] &+= Int(flags[p + 1])
                        tallies[512 | Int(symbols[p + 2])] &+= Int(flags[p + 2])
                        tallies[768 | Int(symbols[p + 3])] &+= Int(flags[p + 3])
                        p += 4
                    }
                    while p < count {
                        tallies[Int(symbols[p])] &+= Int(flags[p])
                        p += 1
                    }
                }
            }
        }
        var counts = [Int](repeating: 0, count: 256)
        for colour in 0..<256 {
            counts[colour] = tallies[colour] &+ tallies[256 | colour] &+ tallies[512 | colour] &+ tallies[768 | colour]
        }
        return counts
    }

    /// The frame as written: `shortest(greedy)` (unless `final`: chosen already), then a smaller
    /// local colour table when that saves bytes.
    private func finish(
        _ greedy: Encoded, final: Bool = false, delay: Int, disposal: Int, _ lzw: LZWEncoder
    ) -> GIFFramePlan.Frame {
        let encoded = final ? greedy : shortest(greedy, lzw)
        var frame = GIFFramePlan.Frame(
            rect: encoded.rect, imageData: encoded.data, minimumCodeSize: encoded.codeSize, delay: delay,
            disposal: disposal, transparentIndex: transparent.map(Int.init), localColorTable: nil)
        guard encoded.codeSize > 2 else { return frame }
        var used = [Bool](repeating: false, count: 256)
        for s in encoded.symbols { used[Int(s)] = true }
        // The transparency index always keeps a slot of its own: the frame's Graphic Control
        // Extension names it, so it must never land on a colour the frame draws (a frame with no
        // transparent pixel once had its only colour mapped onto the transparency index).
        if let t = transparent { used[Int(t)] = true }
        // Local order: the transparency index first (when present), then the rest ascending.
        var order: [Int] = []
        if let t = transparent, used[Int(t)] { order.append(Int(t)) }
        for i in 0..<256 where used[i] && i != transparent.map(Int.init) { order.append(i) }
        var entries = 2
        while entries < order.count { entries *= 2 }
        let codeSize = GIFFramePlan.minimumCodeSize(forTableOf: entries)
        // Every code is at least encoded.codeSize + 1 bits and shrinks by the difference at most,
        // which bounds what a local table can save; skip the trial when it cannot pay for itself.
        let bound = encoded.data.count * (encoded.codeSize - codeSize) / (encoded.codeSize + 1)
        guard codeSize < encoded.codeSize, bound > entries * 3 else { return frame }
        var local = [UInt8](repeating: 0, count: 256)
        var table = [UInt8](repeating: 0, count: entries * 3)
        for (k, g) in order.enumerated() {
            local[g] = UInt8(k)
            table[3 * k] = globalTable[3 * g]
            table[3 * k + 1] = globalTable[3 * g + 1]
            table[3 * k + 2] = globalTable[3 * g + 2]
        }
        let symbols = encoded.symbols.map { local[Int($0)] }
        let alternative = transparent.map { local[Int($0)] } ?? 0
        var data = lzw.compress(
            symbols, flexible: encoded.flexible, alternative: alternative, minimumCodeSize: codeSize)
        if encoded.flexible.isEmpty {
            let parsed = lzw.compressWithLookahead(symbols, minimumCodeSize: codeSize)
            if parsed.count < data.count { data = parsed }
        }
        guard data.count + table.count < encoded.data.count else { return frame }
        frame.imageData = data
        frame.minimumCodeSize = codeSize
        frame.localColorTable = table
        frame.transparentIndex = transparent.map { _ in Int(alternative) }
        return frame
    }

    /// The run rule, after gifsicle's heuristic for unchanged pixels (`transp_frame_data` in
    /// its optimize.c, whose idea this follows): a maximal run, in scan order across rows, of
    /// pixels that may be written as the transparency index (unchanged pixels, and pixels that
    /// are transparent anyway) becomes all transparency index when it holds two or more
    /// different indices, and keeps its own index when it holds one (a one-colour run is as
    /// long either way, and its own colour may continue the changed pixels next to it).
    /// Mixed unchanged areas, such as a dashed track the plane flies over, then collapse into
    /// one long run.
    /// - Parameters:
    ///   - symbols: the frame's rectangle in scan order: each pixel's own index, or `t`.
    ///   - flexible: per pixel, whether it is unchanged (may be written as `t`); same count.
    /// - Returns: the stream (`symbols.count` indices), or nil when it is the stream of all
    ///   unchanged pixels transparent or of all of them their own colour (rules tried already).
    static func unchangedRuns(_ symbols: [UInt8], flexible: [Bool], transparent t: UInt8) -> [UInt8]? {
        precondition(flexible.count == symbols.count, "one flag per pixel")
        let count = symbols.count
        // Whether some unchanged pixel of another colour than the transparency index is
        // written as the transparency index, and whether one keeps its colour.
        var cleared = false
        var kept = false
        let stream = [UInt8](unsafeUninitializedCapacity: count) { out, initialized in
            symbols.withUnsafeBufferPointer { symbols in
                flexible.withUnsafeBufferPointer { flexible in
                    var p = 0
                    while p < count {
                        guard flexible[p] || symbols[p] == t else {
                            out[p] = symbols[p]
                            p += 1
                            continue
                        }
                        let first = symbols[p]
                        var mixed = false
                        var end = p
                        while end < count && (flexible[end] || symbols[end] == t) {
                            mixed = mixed || symbols[end] != first
                            end += 1
                        }
                        // A mixed run clears at least one unchanged pixel of a colour other
                        // than `t`; a one-colour run keeps its colour, which counts when it is
                        // not `t` (the two flags tell this stream from the first two rules').
                        if mixed {
                            cleared = true
                            for i in p..<end { out[i] = t }
                        } else {
                            kept = kept || first != t
                            for i in p..<end { out[i] = first }
                        }
                        p = end
                    }
                }
            }
            initialized = count
        }
        return cleared && kept ? stream : nil
    }

    /// Compresses `target` inside `rect`, drawn over `canvas`: exact, the greedy stream (unchanged
    /// pixels flexible, for `finish`); when lossy, the stream `finish` takes as it is, where
    /// pixels not `pinned` may show any colour within tolerance of `target`'s.
    private func encode(
        _ target: [UInt8], over screen: Screen, in rect: GIFRect, pinned: [Bool] = [], _ lzw: LZWEncoder
    ) throws(EncodeError) -> Encoded {
        let count = rect.width * rect.height
        var symbols = [UInt8](repeating: 0, count: count)
        var flexible = [Bool](repeating: false, count: transparent == nil ? 0 : count)
        var bad = -1
        var largest = Int(transparent ?? 0)
        let lossy = !near.isEmpty
        // The largest symbol of a flexible pixel (so the pass below is skipped when all fit).
        var largestFlexible: UInt8 = .max
        if !lossy, let t = transparent {
            largestFlexible = 0
            // Exact with a transparency index: a pixel is written as itself, flexible where the
            // screen already shows it, and must not need erasing.
            let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: width)
            defer { scratch.deallocate() }
            target.withUnsafeBufferPointer { target in
                screen.base.withUnsafeBufferPointer { base in
                    symbols.withUnsafeMutableBufferPointer { symbols in
                        flexible.withUnsafeMutableBufferPointer { flexible in
                            guard let base = base.baseAddress else { return }
                            var largestFixed: UInt8 = t
                            var erasedAny: UInt8 = 0
                            // Bools written as their bytes (0 or 1) and no short-circuits, so the
                            // row loop vectorises.
                            let flags = UnsafeMutableRawPointer(flexible.baseAddress)
                            for y in rect.y..<(rect.y + rect.height) {
                                let from = y &* width &+ rect.x
                                let to = (y &- rect.y) &* rect.width
                                let canvas = span(y, rect.x, rect.width, of: base, cleared: screen.cleared, scratch)
                                for i in 0..<rect.width {
                                    let want = target[from &+ i]
                                    let shown = canvas[i]
                                    symbols[to &+ i] = want
                                    let same: UInt8 = (shown == want ? 1 : 0) & (want != t ? 1 : 0)
                                    flags?.storeBytes(of: same, toByteOffset: to &+ i, as: UInt8.self)
                                    erasedAny |= (want == t ? 1 : 0) & (shown != t ? 1 : 0)
                                    largestFixed = max(largestFixed, want & (same &- 1))
                                    largestFlexible = max(largestFlexible, want & (0 &- same))
                                }
                            }
                            let erased = erasedAny != 0
                            largest = Int(largestFixed)
                            if erased {
                                // Find it again for the message (this is an internal error).
                                for y in rect.y..<(rect.y + rect.height) {
                                    let canvas = span(y, 0, width, of: base, cleared: screen.cleared, scratch)
                                    for x in rect.x..<(rect.x + rect.width)
                                    where target[y * width + x] == t && canvas[x] != t {
                                        bad = y * width + x
                                    }
                                }
                            }
                        }
                    }
                }
            }
        } else {
            let canvas = materialized(screen)
            target.withUnsafeBufferPointer { target in
                canvas.withUnsafeBufferPointer { canvas in
                    near.withUnsafeBufferPointer { near in
                        symbols.withUnsafeMutableBufferPointer { symbols in
                            flexible.withUnsafeMutableBufferPointer { flexible in
                                var n = 0
                                for y in rect.y..<(rect.y + rect.height) {
                                    let row = y * width + rect.x
                                    for p in row..<(row + rect.width) {
                                        let want = target[p]
                                        let shown = canvas[p]
                                        // Within tolerance the pixel keeps what the screen shows.
                                        let keep = shown == want || (lossy && near[Int(shown) << 8 | Int(want)])
                                        symbols[n] = keep ? shown : want
                                        if let t = transparent {
                                            if want == t {
                                                if shown != t { bad = p }
                                            } else if keep {
                                                flexible[n] = true
                                            }
                                        }
                                        // Flexible pixels do not set the code size (below).
                                        if flexible.isEmpty || !flexible[n] { largest = max(largest, Int(symbols[n])) }
                                        n += 1
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        guard bad < 0 else {
            throw EncodeError("internal error: frame plan cannot erase pixel (\(bad % width), \(bad / width))")
        }
        // The code size serves the pixels that must be written; an unchanged pixel whose own
        // index does not fit it is written as the transparency index, which shows the same.
        let fits = 1 << GIFFramePlan.minimumCodeSize(forTableOf: largest + 1)
        if let t = transparent, Int(largestFlexible) >= fits {
            for n in 0..<count where flexible[n] && Int(symbols[n]) >= fits {
                symbols[n] = t
                flexible[n] = false
            }
        }
        if !similar.isEmpty {
            var wanted = [Int16](repeating: -1, count: count)
            var widest = largest
            var n = 0
            for y in rect.y..<(rect.y + rect.height) {
                let row = y * width + rect.x
                for p in row..<(row + rect.width) {
                    if target[p] != transparent && (pinned.isEmpty || !pinned[p]) {
                        wanted[n] = Int16(target[p])
                        widest = max(widest, Int(target[p]), Int(similar[Int(target[p])].max() ?? 0))
                    }
                    n += 1
                }
            }
            // The frame is written whichever way comes out shortest after `shortest`: its
            // symbols as they are (the exact screen within tolerance; unchanged pixels still
            // flexible for the rules); the lossy parse at the smallest code size every pixel fits
            // within tolerance (`narrowed`), else at the symbols' own; and the lossy parse at the
            // code size that lets every pixel take any colour within tolerance, when wider. So
            // tolerance never costs a frame bytes over writing it exactly over the same screen.
            let codeSize = GIFFramePlan.minimumCodeSize(forTableOf: largest + 1)
            let exact = Encoded(
                rect: rect, symbols: symbols, flexible: flexible, codeSize: codeSize,
                data: lzw.compress(
                    symbols, flexible: flexible, alternative: transparent ?? 0, minimumCodeSize: codeSize))
            var best = shortest(exact, lzw)
            var streams = [
                narrowed(symbols, flexible: flexible, wanted: wanted, codeSize: codeSize)
                    ?? (symbols: symbols, flexible: flexible, codeSize: codeSize)
            ]
            let wideCodeSize = GIFFramePlan.minimumCodeSize(forTableOf: widest + 1)
            if wideCodeSize != codeSize { streams.append((symbols, flexible, wideCodeSize)) }
            for stream in streams {
                let (data, written) = lzw.compressLossy(
                    stream.symbols, flexible: stream.flexible, wanted: wanted, similar: similar,
                    alternative: transparent ?? 0, minimumCodeSize: stream.codeSize)
                let parsed = shortest(
                    Encoded(rect: rect, symbols: written, flexible: [], codeSize: stream.codeSize, data: data), lzw)
                if parsed.data.count < best.data.count { best = parsed }
            }
            return best
        }
        let codeSize = GIFFramePlan.minimumCodeSize(forTableOf: largest + 1)
        let data = lzw.compress(
            symbols, flexible: flexible, alternative: transparent ?? 0, minimumCodeSize: codeSize)
        return Encoded(rect: rect, symbols: symbols, flexible: flexible, codeSize: codeSize, data: data)
    }

    /// A lossy frame's symbols at the smallest code size below `codeSize` that every pixel can
    /// be written in within tolerance, or nil when there is none: an unchanged pixel whose
    /// index does not fit becomes the transparency index (which shows the same), and a pixel
    /// whose wanted index does not fit takes the nearest entry within tolerance that does.
    /// Pixels with no `wanted` index (pinned, transparent) keep their symbol.
    private func narrowed(_ symbols: [UInt8], flexible: [Bool], wanted: [Int16], codeSize: Int)
        -> (symbols: [UInt8], flexible: [Bool], codeSize: Int)?
    {
        guard let t = transparent, codeSize > 2 else { return nil }
        // The smallest index each pixel may be written as.
        var need = Int(t)
        for n in 0..<symbols.count where flexible.isEmpty || !flexible[n] {
            let w = Int(wanted[n])
            let own = Int(symbols[n])
            need = max(need, w < 0 ? own : min(own, smallestSimilar[w]))
            if need >= 1 << (codeSize - 1) { return nil }
        }
        let size = GIFFramePlan.minimumCodeSize(forTableOf: need + 1)
        let limit = 1 << size
        var narrowSymbols = symbols
        var narrowFlexible = flexible
        for n in 0..<symbols.count where Int(symbols[n]) >= limit {
            if !flexible.isEmpty && flexible[n] {
                narrowSymbols[n] = t
                narrowFlexible[n] = false
            } else {
                // `need` was at most the smallest stand-in, so one below `limit` exists (and a
                // pixel with no wanted index fitted already).
                let w = Int(wanted[n])
                narrowSymbols[n] = w < limit ? UInt8(w) : similar[w].first { Int($0) < limit } ?? t
            }
        }
        return (narrowSymbols, narrowFlexible, size)
    }

    /// Inside `rect`, how many pixels of `next` differ from `canvas`, and how many from `t`
    /// (the screen disposal 2 leaves there); eight pixels at a time.
    private func changedPixels(_ next: [UInt8], over canvas: [UInt8], orClear t: UInt8, in rect: GIFRect)
        -> (overPrevious: Int, overCleared: Int)
    {
        next.withUnsafeBytes { next in
            canvas.withUnsafeBytes { canvas in
                let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
                let clear = UInt64(t) &* 0x0101_0101_0101_0101
                /// The number of non-zero bytes of `x`: the top bit of each byte of the result
                /// is set exactly where that byte of `x` is non-zero.
                func nonZeroBytes(_ x: UInt64) -> Int { ((((x & low7) &+ low7) | x) & ~low7).nonzeroBitCount }
                var previous = 0
                var cleared = 0
                for y in rect.y..<(rect.y + rect.height) {
                    var p = y * width + rect.x
                    let end = p + rect.width
                    while p + 8 <= end {
                        let word = next.loadUnaligned(fromByteOffset: p, as: UInt64.self)
                        previous &+= nonZeroBytes(word ^ canvas.loadUnaligned(fromByteOffset: p, as: UInt64.self))
                        cleared &+= nonZeroBytes(word ^ clear)
                        p += 8
                    }
                    while p < end {
                        previous &+= next[p] != canvas[p] ? 1 : 0
                        cleared &+= next[p] != t ? 1 : 0
                        p += 1
                    }
                }
                return (previous, cleared)
            }
        }
    }

    /// Pixels `x…x + count − 1` of row `y` of a screen (`base` with the rectangle `cleared`,
    /// when given, set to the transparency index): a pointer into `base` itself, or, where the
    /// row crosses the cleared rectangle, to a copy in `scratch` (≥ `count` bytes) with that
    /// part cleared. Element `i` is the screen's pixel `x + i`.
    @inline(__always) private func span(
        _ y: Int, _ x: Int, _ count: Int, of base: UnsafePointer<UInt8>, cleared: GIFRect?,
        _ scratch: UnsafeMutablePointer<UInt8>
    ) -> UnsafePointer<UInt8> {
        let start = base + y * width + x
        guard let cleared, let t = transparent, y >= cleared.y, y < cleared.y + cleared.height else { return start }
        let from = max(x, cleared.x)
        let to = min(x + count, cleared.x + cleared.width)
        guard from < to else { return start }
        scratch.update(from: start, count: count)
        (scratch + (from - x)).update(repeating: t, count: to - from)
        return UnsafePointer(scratch)
    }

    /// What `screen` shows, as one array (a copy only when a rectangle is cleared).
    private func materialized(_ screen: Screen) -> [UInt8] {
        guard let cleared = screen.cleared, let t = transparent else { return screen.base }
        var pixels = screen.base
        fill(&pixels, cleared, with: t)
        return pixels
    }

    /// Bounding box of the pixels where `b` (wanted) differs from `a` (shown), or nil: beyond
    /// tolerance when lossy, else any difference. Equal rows are skipped with `memcmp`-speed
    /// comparisons.
    private func differenceBox(_ a: [UInt8], _ b: [UInt8]) -> GIFRect? {
        if !near.isEmpty { return toleranceBox(shown: a, wanted: b) }
        var minX = width
        var maxX = -1
        var minY = height
        var maxY = -1
        a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                guard let pa = a.baseAddress, let pb = b.baseAddress else { return }
                for y in 0..<height {
                    let row = y * width
                    if memcmp(pa + row, pb + row, width) == 0 { continue }
                    var x = 0
                    while pa[row + x] == pb[row + x] { x += 1 }
                    var last = width - 1
                    while pa[row + last] == pb[row + last] { last -= 1 }
                    minX = min(minX, x)
                    maxX = max(maxX, last)
                    if minY > y { minY = y }
                    maxY = y
                }
            }
        }
        guard maxY >= 0 else { return nil }
        return GIFRect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
    }

    /// The pixels `target` shows opaque and `next` needs transparent: their bounding box, and
    /// whether all of them were transparent on `canvas` (so disposal 3 erases them); nil when
    /// there are none.
    private func eraseScan(target: [UInt8], next: [UInt8], canvas: [UInt8], t: UInt8)
        -> (box: GIFRect, restorable: Bool)?
    {
        var minX = width
        var maxX = -1
        var minY = height
        var maxY = -1
        var restorable = true
        target.withUnsafeBufferPointer { target in
            next.withUnsafeBufferPointer { next in
                canvas.withUnsafeBufferPointer { canvas in
                    for y in 0..<height {
                        let row = y * width
                        // A branch-free pass finds the rows with any such pixel.
                        var any: UInt8 = 0
                        for p in row..<(row + width) {
                            any |= (next[p] == t ? 1 : 0) & (target[p] != t ? 1 : 0)
                        }
                        guard any != 0 else { continue }
                        for x in 0..<width where next[row + x] == t && target[row + x] != t {
                            minX = min(minX, x)
                            maxX = max(maxX, x)
                            minY = min(minY, y)
                            maxY = y
                            if canvas[row + x] != t { restorable = false }
                        }
                    }
                }
            }
        }
        guard maxY >= 0 else { return nil }
        return (GIFRect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1), restorable)
    }

    private func union(_ a: GIFRect, _ b: GIFRect) -> GIFRect {
        let x = min(a.x, b.x)
        let y = min(a.y, b.y)
        return GIFRect(
            x: x, y: y, width: max(a.x + a.width, b.x + b.width) - x,
            height: max(a.y + a.height, b.y + b.height) - y)
    }

    private func fill(_ pixels: inout [UInt8], _ rect: GIFRect, with value: UInt8) {
        for y in rect.y..<(rect.y + rect.height) {
            let start = y * width + rect.x
            for p in start..<(start + rect.width) { pixels[p] = value }
        }
    }
}

extension Optional where Wrapped == LZWEncoder {
    /// The encoder, made on first use.
    fileprivate mutating func lazy() -> LZWEncoder {
        if let encoder = self { return encoder }
        let encoder = LZWEncoder()
        self = encoder
        return encoder
    }
}
