// SPDX-License-Identifier: GPL-3.0-or-later

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

extension LZWRun {
    /// The length of the longest dictionary string that starts at `start`.
    @inline(__always) func longestMatch(from start: Int) -> Int {
        guard start < symbols.count else { return 0 }
        var code = Int(symbols[start])
        var j = start + 1
        while j < symbols.count {
            let found = table.lookup(code, symbols[j])
            guard found >= 0 else { break }
            code = found
            j += 1
        }
        return j - start
    }

    mutating func compressWithLookahead() -> [UInt8] {
        table.clear()
        emit(clearCode)
        let count = symbols.count
        // prefixes[l − 1]: the code of the string of the l symbols from `start`.
        var prefixes: [Int] = []
        prefixes.reserveCapacity(256)
        // The longest string in the dictionary: a shorter first string of length l can only win
        // when l plus this beats the best reach so far.
        var longestString = 1
        var start = 0
        while start < count {
            prefixes.removeAll(keepingCapacity: true)
            var code = Int(symbols[start])
            prefixes.append(code)
            var j = start + 1
            while j < count {
                let found = table.lookup(code, symbols[j])
                guard found >= 0 else { break }
                code = found
                prefixes.append(code)
                j += 1
            }
            let longest = prefixes.count
            guard start + longest < count else {
                emit(code)
                break
            }
            var chosen = longest
            var bestReach = longest + longestMatch(from: start + longest)
            var length = longest - 1
            while length >= max(1, longest - LZWEncoder.lookaheadParseDepth), length + longestString > bestReach {
                let reach = length + longestMatch(from: start + length)
                if reach > bestReach {
                    bestReach = reach
                    chosen = length
                }
                length -= 1
            }
            // A shorter string plus its next symbol may already be in the dictionary; the
            // decoder still spends a code on it, and so does `close`.
            close(prefixes[chosen - 1], startingNextWith: symbols[start + chosen])
            longestString = nextCode == endCode + 1 ? 1 : max(longestString, chosen + 1)
            start += chosen
        }
        emit(endCode)
        if buffered > 0 { out.append(UInt8(truncatingIfNeeded: buffer)) }
        return out
    }
}
