// SPDX-License-Identifier: GPL-3.0-or-later

/// Lossy LZW parsing for `GIFOptions.lossy`: where a pixel may show any of several palette
/// entries (all within the tolerance of its wanted colour), the parse extends the current
/// dictionary string with whichever of them the dictionary already knows, so strings run
/// through anti-aliased edges whose exact shades would each start a new code. The idea is
/// the one gifsicle's `--lossy` uses (approximate string matches); the bound here is a per-
/// pixel, per-channel error against the wanted colour, so it never accumulates.
extension LZWEncoder {
    /// Compresses one frame rectangle, choosing each pixel's symbol among its candidates.
    ///
    /// - Parameters:
    ///   - symbols: per pixel the default symbol (exact, or the shown one within tolerance).
    ///   - flexible: empty, or per pixel whether `alternative` (the transparency index) also
    ///     displays acceptably.
    ///   - wanted: per pixel the index whose `similar` list may stand in, or nil for none.
    ///   - similar: per palette index, the other indices within tolerance, nearest first.
    ///   - alternative: the transparency index (or any symbol when `flexible` is empty).
    ///   - minimumCodeSize: 2…8. Entries of `similar` at or above `1 << minimumCodeSize` are
    ///     not written; every default symbol and `alternative` must lie below it.
    /// - Returns: the code stream and the symbol written for every pixel.
    func compressLossy(
        _ symbols: [UInt8], flexible: [Bool], wanted: [Int16], similar: [[UInt8]], alternative: UInt8,
        minimumCodeSize: Int
    ) -> (data: [UInt8], written: [UInt8]) {
        guard !symbols.isEmpty else { return ([], []) }
        let hasFlexible = flexible.count == symbols.count
        return symbols.withUnsafeBufferPointer { symbolBuffer in
            flexible.withUnsafeBufferPointer { flexibleBuffer in
                var run = LZWRun(
                    table: table, symbols: symbolBuffer, flexible: hasFlexible ? flexibleBuffer : nil,
                    alternative: alternative, minimumCodeSize: minimumCodeSize)
                return run.compressLossy(wanted: wanted, similar: similar)
            }
        }
    }
}

extension LZWRun {
    /// Pixels to look ahead when several candidates continue the current string.
    static let lossyLookahead = 6

    /// The greedy lossy parse: at each pixel the candidate (default symbol, then the
    /// alternative, then `similar[wanted]`) whose continuation absorbs the most of the next
    /// pixels wins; when none continues the string, it is closed and the next one starts with
    /// the default symbol (or the alternative after an alternative).
    mutating func compressLossy(wanted: [Int16], similar: [[UInt8]]) -> (data: [UInt8], written: [UInt8]) {
        begin()
        var written = [UInt8](repeating: 0, count: symbols.count)
        var first = symbols[0]
        if let flexible, flexible[0] { first = alternative }
        written[0] = first
        var current = Int(first)
        var candidates: [UInt8] = []
        candidates.reserveCapacity(64)
        for i in 1..<symbols.count {
            gather(i, wanted: wanted, similar: similar, into: &candidates)
            var best = -1
            var bestSymbol: UInt8 = 0
            var bestReach = -1
            for c in candidates {
                let code = table.lookup(current, c)
                guard code >= 0 else { continue }
                let reach = candidates.count == 1 ? 0 : reachLossy(code, from: i + 1, wanted: wanted, similar: similar)
                if reach > bestReach {
                    best = code
                    bestSymbol = c
                    bestReach = reach
                }
                if bestReach >= Self.lossyLookahead { break }
            }
            if best >= 0 {
                current = best
                written[i] = bestSymbol
                continue
            }
            // A new string starts with the candidate whose strings reach furthest.
            var start = symbols[i]
            if let flexible, flexible[i], written[i - 1] == alternative { start = alternative }
            if candidates.count > 1 {
                var startReach = reachLossy(Int(start), from: i + 1, wanted: wanted, similar: similar)
                for c in candidates where c != start && startReach < Self.lossyLookahead {
                    let reach = reachLossy(Int(c), from: i + 1, wanted: wanted, similar: similar)
                    if reach > startReach {
                        start = c
                        startReach = reach
                    }
                }
            }
            close(current, startingNextWith: start)
            current = Int(start)
            written[i] = start
        }
        return (end(with: current), written)
    }

    /// Pixel `i`'s acceptable symbols, the default first.
    @inline(__always) func gather(_ i: Int, wanted: [Int16], similar: [[UInt8]], into list: inout [UInt8]) {
        list.removeAll(keepingCapacity: true)
        let own = symbols[i]
        list.append(own)
        if let flexible, flexible[i], alternative != own { list.append(alternative) }
        let w = wanted[i]
        if w >= 0 {
            // The wanted colour itself, when the default is the colour the screen shows. Neither
            // it nor `similar` holds the transparency index, so neither repeats `alternative`
            // when that was offered; without a transparency index, `alternative` is just
            // index 0, a colour like any other.
            let exact = UInt8(w)
            if exact != own && Int(exact) < clearCode { list.append(exact) }
            for s in similar[Int(w)] where s != own && Int(s) < clearCode { list.append(s) }
        }
    }

    /// How many pixels from `start` on extend `code`, each by its first candidate the
    /// dictionary knows, up to `lossyLookahead`.
    func reachLossy(_ code: Int, from start: Int, wanted: [Int16], similar: [[UInt8]]) -> Int {
        var code = code
        var j = start
        let end = min(symbols.count, start + Self.lossyLookahead)
        outer: while j < end {
            var found = table.lookup(code, symbols[j])
            if found < 0, let flexible, flexible[j] { found = table.lookup(code, alternative) }
            if found < 0, wanted[j] >= 0 {
                if Int(wanted[j]) < clearCode { found = table.lookup(code, UInt8(wanted[j])) }
                for s in similar[Int(wanted[j])] where found < 0 && Int(s) < clearCode {
                    found = table.lookup(code, s)
                    if found >= 0 { break }
                }
            }
            guard found >= 0 else { break outer }
            code = found
            j += 1
        }
        return j - start
    }
}
