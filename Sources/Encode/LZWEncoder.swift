// SPDX-License-Identifier: GPL-3.0-or-later

/// GIF's variable-length-code LZW compression (GIF89a, appendix F), with one freedom giflib's
/// encoder lacks: a pixel may accept two symbols.
///
/// Inside a frame-difference rectangle a pixel that already shows the right colour can be
/// written either as its own index or as the transparency index; both display the same. The
/// encoder picks, pixel by pixel, whichever continues the current dictionary string, so runs
/// of "unchanged" pixels merge with runs of transparency or of their own colour, whichever the
/// dictionary already knows. When neither continues the string, a new string starts with the
/// symbol chosen for the previous pixel's kind (transparency after transparency), which keeps
/// long runs together.
///
/// Code sizes follow giflib's encoder exactly (so every GIF decoder reads the stream): codes
/// start at `minimumCodeSize + 1` bits; a code is widened after the one written when the next
/// free code reaches `1 << bits`; at code 4095 a clear code resets the table. The first code
/// of the stream is a clear code, the last an end-of-information code; bits are packed least
/// significant first.
struct LZWEncoder {
    /// Open-addressing table from `prefix << 8 | symbol` to a code, 8192 slots (at most 3838
    /// entries live between clears). A slot is live when its stamp equals `generation`, so a
    /// clear is O(1).
    private static let slotBits = 13
    private var keys = [UInt32](repeating: 0, count: 1 << slotBits)
    private var codes = [UInt16](repeating: 0, count: 1 << slotBits)
    private var stamps = [UInt32](repeating: 0, count: 1 << slotBits)
    private var generation: UInt32 = 0

    /// Compresses `symbols`.
    ///
    /// - Parameters:
    ///   - symbols: palette indices, each `< 1 << minimumCodeSize`, at least one.
    ///   - flexible: empty, or one flag per symbol: a set flag means `alternative` is as good as
    ///     the symbol itself for that pixel.
    ///   - alternative: the second acceptable symbol of flexible pixels (the transparency
    ///     index), `< 1 << minimumCodeSize`.
    ///   - minimumCodeSize: the LZW minimum code size byte of the image, 2…8.
    /// - Returns: the packed code stream (without the code-size byte or sub-block lengths).
    mutating func compress(
        _ symbols: [UInt8], flexible: [Bool], alternative: UInt8, minimumCodeSize: Int
    ) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(symbols.count / 2 + 16)
        guard let first = symbols.first else { return out }
        let clearCode = 1 << minimumCodeSize
        let endCode = clearCode + 1
        var nextCode = endCode + 1
        var bits = minimumCodeSize + 1
        var limit = 1 << bits
        var buffer: UInt64 = 0
        var buffered = 0
        let hasFlexible = flexible.count == symbols.count

        func emit(_ code: Int) {
            buffer |= UInt64(code) << UInt64(buffered)
            buffered += bits
            while buffered >= 8 {
                out.append(UInt8(truncatingIfNeeded: buffer))
                buffer >>= 8
                buffered -= 8
            }
            if nextCode >= limit && bits < 12 {
                bits += 1
                limit = 1 << bits
            }
        }

        generation &+= 1
        if generation == 0 { resetStamps() }
        emit(clearCode)

        var previousWasAlternative = hasFlexible && flexible[0]
        var current = Int(previousWasAlternative ? alternative : first)
        for i in 1..<symbols.count {
            let own = symbols[i]
            if hasFlexible && flexible[i] {
                let viaOwn = lookup(current, own)
                let viaAlternative = lookup(current, alternative)
                if viaOwn >= 0 || viaAlternative >= 0 {
                    let takeAlternative: Bool
                    if viaOwn < 0 {
                        takeAlternative = true
                    } else if viaAlternative < 0 {
                        takeAlternative = false
                    } else {
                        takeAlternative = prefersAlternative(
                            viaAlternative, viaOwn, next: i + 1, previousWasAlternative,
                            symbols, flexible, alternative)
                    }
                    current = takeAlternative ? viaAlternative : viaOwn
                    previousWasAlternative = takeAlternative
                    continue
                }
                let startAlternative =
                    own == alternative
                    || prefersAlternative(
                        Int(alternative), Int(own), next: i + 1, previousWasAlternative, symbols, flexible,
                        alternative)
                let start = startAlternative ? alternative : own
                emit(current)
                if nextCode >= 4095 {
                    emit(clearCode)
                    reset(&nextCode, &bits, &limit, endCode: endCode, minimumCodeSize: minimumCodeSize)
                } else {
                    insert(current, start, code: nextCode)
                    nextCode += 1
                }
                current = Int(start)
                previousWasAlternative = startAlternative
                continue
            }
            let found = lookup(current, own)
            if found >= 0 {
                current = found
                previousWasAlternative = false
                continue
            }
            emit(current)
            if nextCode >= 4095 {
                emit(clearCode)
                reset(&nextCode, &bits, &limit, endCode: endCode, minimumCodeSize: minimumCodeSize)
            } else {
                insert(current, own, code: nextCode)
                nextCode += 1
            }
            current = Int(own)
            previousWasAlternative = false
        }
        emit(current)
        emit(endCode)
        if buffered > 0 { out.append(UInt8(truncatingIfNeeded: buffer)) }
        return out
    }

    /// Pixels a string can absorb greedily from `next` on when it continues with code `a`
    /// (the alternative) or `b` (the pixel's own symbol), looking at most `lookahead` pixels
    /// ahead; the longer reach wins, a tie keeps the kind of the previous pixel.
    private func prefersAlternative(
        _ a: Int, _ b: Int, next: Int, _ previousWasAlternative: Bool, _ symbols: [UInt8],
        _ flexible: [Bool], _ alternative: UInt8
    ) -> Bool {
        let viaA = reach(a, from: next, alternativeBefore: true, symbols, flexible, alternative)
        let viaB = reach(b, from: next, alternativeBefore: false, symbols, flexible, alternative)
        return viaA == viaB ? previousWasAlternative : viaA > viaB
    }

    /// Pixels to look ahead when choosing between two symbols.
    private static let lookahead = 12

    /// How many pixels from `start` on extend the string `code` in the current dictionary.
    private func reach(
        _ code: Int, from start: Int, alternativeBefore: Bool, _ symbols: [UInt8], _ flexible: [Bool],
        _ alternative: UInt8
    ) -> Int {
        var code = code
        var alternativeBefore = alternativeBefore
        var j = start
        let end = min(symbols.count, start + Self.lookahead)
        while j < end {
            let own = symbols[j]
            if flexible[j] {
                let viaAlternative = lookup(code, alternative)
                let viaOwn = lookup(code, own)
                if viaAlternative >= 0 && (alternativeBefore || viaOwn < 0) {
                    code = viaAlternative
                    alternativeBefore = true
                } else if viaOwn >= 0 {
                    code = viaOwn
                    alternativeBefore = false
                } else {
                    break
                }
            } else {
                let found = lookup(code, own)
                guard found >= 0 else { break }
                code = found
                alternativeBefore = false
            }
            j += 1
        }
        return j - start
    }

    private mutating func reset(
        _ nextCode: inout Int, _ bits: inout Int, _ limit: inout Int, endCode: Int, minimumCodeSize: Int
    ) {
        nextCode = endCode + 1
        bits = minimumCodeSize + 1
        limit = 1 << bits
        generation &+= 1
        if generation == 0 { resetStamps() }
    }

    private mutating func resetStamps() {
        for i in stamps.indices { stamps[i] = 0 }
        generation = 1
    }

    private static func slot(_ key: UInt32) -> Int {
        Int((key &* 0x9E37_79B1) >> UInt32(32 - slotBits))
    }

    /// The code for `prefix` followed by `symbol`, or −1.
    private func lookup(_ prefix: Int, _ symbol: UInt8) -> Int {
        let key = UInt32(prefix) << 8 | UInt32(symbol)
        let mask = (1 << Self.slotBits) - 1
        var s = Self.slot(key)
        while stamps[s] == generation {
            if keys[s] == key { return Int(codes[s]) }
            s = (s + 1) & mask
        }
        return -1
    }

    private mutating func insert(_ prefix: Int, _ symbol: UInt8, code: Int) {
        let key = UInt32(prefix) << 8 | UInt32(symbol)
        let mask = (1 << Self.slotBits) - 1
        var s = Self.slot(key)
        while stamps[s] == generation { s = (s + 1) & mask }
        stamps[s] = generation
        keys[s] = key
        codes[s] = UInt16(code)
    }
}
