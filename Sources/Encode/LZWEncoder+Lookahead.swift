// SPDX-License-Identifier: GPL-3.0-or-later

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Non-greedy LZW parsing: a decoder rebuilds the dictionary from whatever codes it reads (each
/// code adds the previous string plus the first symbol of this one), so the encoder is free to
/// emit a shorter string than the longest match when that lets the next string reach further.
/// This is one-step lookahead "flexible parsing" (LZW-FP: R. N. Horspool, "The effect of
/// non-greedy parsing in Ziv-Lempel compression methods", DCC 1995): at each string start, of
/// the lengths `l` from the longest match `L` down to `L − lookaheadParseDepth`, take the one
/// that maximises `l + L(next start)`; ties keep the longer string. Lengths that could not win
/// even if the next string were the dictionary's longest are not tried. The output is an ordinary
/// GIF LZW stream (same code widths and clears as `compress`).
extension LZWEncoder {
    /// How many lengths shorter than the longest match are tried at each string start.
    static let lookaheadParseDepth = 8

    /// Compresses `symbols` (no flexible pixels) with the lookahead parse.
    ///
    /// - Parameters:
    ///   - symbols: palette indices, each `< 1 << minimumCodeSize`, at least one.
    ///   - minimumCodeSize: the LZW minimum code size byte of the image, 2…8.
    /// - Returns: the packed code stream (without the code-size byte or sub-block lengths).
    func compressWithLookahead(_ symbols: [UInt8], minimumCodeSize: Int) -> [UInt8] {
        guard !symbols.isEmpty else { return [] }
        return symbols.withUnsafeBufferPointer { symbols in
            var run = LZWRun(
                table: table, symbols: symbols, flexible: nil, alternative: 0, minimumCodeSize: minimumCodeSize)
            return run.compressWithLookahead()
        }
    }
}

/// What the lookahead parse knows about runs, so that walking a dictionary string through a
/// run of one symbol costs one step instead of one per pixel (long runs of transparency are
/// what most frames are made of, and every candidate length walks them again).
///
/// The dictionary is prefix-closed, so the strings that are all symbol `t` are exactly
/// `t¹ … tᴷ` for some `K`; their codes are kept in order. A walk from a position whose run of
/// `t` has `R` symbols left then stops at `tᴷ` with length `K` when `R > K`, and otherwise
/// reaches `tᴿ` in one step and goes on from there symbol by symbol, exactly as before.
/// Grown as needed and kept by the `LZWTable`, so repeated compressions reuse the memory, and a
/// stream equal to the last one indexed reuses the index itself.
final class LZWRunIndex {
    private var capacity = 1
    /// A copy of the stream `runEnd` indexes (its first `indexedCount` symbols), so the next
    /// parse of the same symbols (for one, the greedy parse and then the lookahead parse of a
    /// frame with no flexible pixels) reuses the index after one comparison instead of a pass.
    private var indexed: UnsafeMutablePointer<UInt8> = .allocate(capacity: 1)
    private var indexedCount = -1
    /// The storage as plain pointers (`runEnd` is replaced when a longer stream comes).
    private(set) var view = LZWRuns(
        runEnd: .allocate(capacity: 1), runCodes: .allocate(capacity: 256 << 12), runCount: .allocate(capacity: 256),
        runSymbol: .allocate(capacity: 4096))

    init() {
        view.runCount.initialize(repeating: 1, count: 256)
        view.runSymbol.initialize(repeating: -1, count: 4096)
    }

    deinit {
        view.runEnd.deallocate()
        indexed.deallocate()
        view.runCodes.deallocate()
        view.runCount.deallocate()
        view.runSymbol.deallocate()
    }

    /// Indexes the runs of `symbols` (or keeps the index, when they equal the stream indexed
    /// last) and forgets every run string but the single symbols.
    /// - Returns: the index to walk and keep current during this stream.
    func start(_ symbols: UnsafeBufferPointer<UInt8>, alphabet: Int) -> LZWRuns {
        if let base = symbols.baseAddress, symbols.count == indexedCount, memcmp(base, indexed, indexedCount) == 0 {
            view.reset(alphabet: alphabet)
            return view
        }
        if symbols.count > capacity {
            view.runEnd.deallocate()
            indexed.deallocate()
            capacity = symbols.count
            view.runEnd = .allocate(capacity: capacity)
            indexed = .allocate(capacity: capacity)
        }
        indexedCount = -1
        if let base = symbols.baseAddress {
            indexed.update(from: base, count: symbols.count)
            indexedCount = symbols.count
        }
        let runEnd = view.runEnd
        // Run by run: the next change is found eight symbols at a time (a word compared with
        // itself shifted by one symbol), then the run's positions are filled.
        let count = symbols.count
        if let base = symbols.baseAddress {
            let raw = UnsafeRawPointer(base)
            var runStart = 0
            while runStart < count {
                var end = runStart + 1
                while end + 8 < count {
                    let here = raw.loadUnaligned(fromByteOffset: end - 1, as: UInt64.self)
                    let next = raw.loadUnaligned(fromByteOffset: end, as: UInt64.self)
                    guard here == next else { break }
                    end += 8
                }
                while end < count && symbols[end] == symbols[end - 1] { end += 1 }
                let value = Int32(end)
                for p in runStart..<end { runEnd[p] = value }
                runStart = end
            }
        }
        view.reset(alphabet: alphabet)
        return view
    }
}

/// An `LZWRunIndex`'s storage as plain pointers, so the parse loops do no reference counting.
/// Valid while its index lives and until its next `start`.
struct LZWRuns {
    /// Per position of the stream: where its run of equal symbols ends (exclusive).
    var runEnd: UnsafeMutablePointer<Int32>
    /// `runCodes[t << 12 + k − 1]`: the code of `t` repeated `k` times, for k = 1…`runCount[t]`.
    /// Left uninitialised (2 MiB): an entry is only read after `reset` or `added` wrote it.
    let runCodes: UnsafeMutablePointer<UInt16>
    /// `runCount[t]`: how many run strings of symbol `t` the dictionary holds (K, ≥ 1).
    let runCount: UnsafeMutablePointer<Int>
    /// Per code: the symbol it repeats when it is a run, else −1.
    let runSymbol: UnsafeMutablePointer<Int16>

    /// After a clear code: only the single symbols (codes 0..<alphabet) remain.
    func reset(alphabet: Int) {
        for t in 0..<alphabet {
            runCount[t] = 1
            runCodes[t << 12] = UInt16(t)
            runSymbol[t] = Int16(t)
        }
    }

    /// Records that `code` now stands for `prefix` followed by `symbol` (`inserted`: whether the
    /// table took it; a string already present keeps its first code).
    @inline(__always) func added(_ code: Int, prefix: Int, symbol: UInt8, inserted: Bool) {
        let t = Int(symbol)
        if inserted && Int(runSymbol[prefix]) == t {
            // `prefix` is the longest run of `t` (a shorter one would make this a duplicate).
            runCodes[t << 12 + runCount[t]] = UInt16(code)
            runCount[t] += 1
            runSymbol[code] = Int16(t)
        } else {
            runSymbol[code] = -1
        }
    }
}

extension LZWRun {
    /// The longest dictionary string that starts at `start`: its length, and how far the run at
    /// `start` carries it (the codes of lengths up to that are `runs.runCodes`; `tail`, when
    /// given, receives the codes of the longer lengths). The last code is `last`.
    @inline(__always) func walk(
        from start: Int, _ runs: LZWRuns, tail: UnsafeMutablePointer<Int32>?
    ) -> (length: Int, runPart: Int, last: Int) {
        let t = Int(symbols[start])
        let remaining = Int(runs.runEnd[start]) - start
        let known = runs.runCount[t]
        if remaining > known {
            return (known, known, Int(runs.runCodes[t << 12 + known - 1]))
        }
        var code = Int(runs.runCodes[t << 12 + remaining - 1])
        var j = start + remaining
        var n = 0
        while j < symbols.count {
            let found = table.lookup(code, symbols[j])
            guard found >= 0 else { break }
            code = found
            tail?[n] = Int32(found)
            n += 1
            j += 1
        }
        return (j - start, remaining, code)
    }

    /// The greedy parse of a stream without choices (what `compress` does for it, code for
    /// code), walking runs in one step; nil when the stream is longer than `limit` bytes (found
    /// out, and the work stopped, as soon as its output passes that).
    mutating func compressGreedy(limit: Int = .max) -> [UInt8]? {
        begin()
        let runs = runIndex.start(symbols, alphabet: clearCode)
        var start = 0
        while true {
            let match = walk(from: start, runs, tail: nil)
            guard start + match.length < symbols.count else {
                let stream = end(with: match.last)
                return stream.count > limit ? nil : stream
            }
            close(match.last, startingNextWith: symbols[start + match.length], runs: runs)
            if out.count > limit { return nil }
            start += match.length
        }
    }

    mutating func compressWithLookahead() -> [UInt8] {
        begin()
        let count = symbols.count
        let runs = runIndex.start(symbols, alphabet: clearCode)
        // The codes of the start's match beyond its run: at most 4096 strings.
        let tail = UnsafeMutablePointer<Int32>.allocate(capacity: 4096)
        defer { tail.deallocate() }
        // The longest string in the dictionary: a shorter first string of length l can only win
        // when l plus this beats the best reach so far.
        var longestString = 1
        var start = 0
        while true {
            let match = walk(from: start, runs, tail: tail)
            let longest = match.length
            guard start + longest < count else { return end(with: match.last) }
            var chosen = longest
            var bestReach = longest + walk(from: start + longest, runs, tail: nil).length
            var length = longest - 1
            while length >= max(1, longest - LZWEncoder.lookaheadParseDepth), length + longestString > bestReach {
                let reach = length + walk(from: start + length, runs, tail: nil).length
                if reach > bestReach {
                    bestReach = reach
                    chosen = length
                }
                length -= 1
            }
            let t = Int(symbols[start])
            let prefix =
                chosen <= match.runPart
                ? Int(runs.runCodes[t << 12 + chosen - 1]) : Int(tail[chosen - match.runPart - 1])
            // A shorter string plus its next symbol may already be in the dictionary; the
            // decoder still spends a code on it, and so does this encoder.
            if close(prefix, startingNextWith: symbols[start + chosen], runs: runs) {
                longestString = 1
            } else {
                longestString = max(longestString, chosen + 1)
            }
            start += chosen
        }
    }
}
