// SPDX-License-Identifier: GPL-3.0-or-later

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// GIF's variable-length-code LZW compression (GIF89a, appendix F), with one freedom giflib's
/// encoder lacks: a pixel may accept two symbols.
///
/// Inside a frame-difference rectangle a pixel that already shows the right colour can be
/// written either as its own index or as the transparency index; both display the same. The
/// encoder picks, pixel by pixel, whichever continues the current dictionary string, so runs
/// of "unchanged" pixels merge with runs of transparency or of their own colour, whichever the
/// dictionary already knows. When both continue it, or neither does and a new string must
/// start, it looks up to 12 pixels ahead and takes the symbol whose string absorbs more of
/// them (a tie keeps the previous pixel's kind, so runs stay together).
///
/// Code sizes follow giflib's encoder exactly (so every GIF decoder reads the stream): codes
/// start at `minimumCodeSize + 1` bits; a code is widened after the one written when the next
/// free code reaches `1 << bits`; at code 4095 a clear code resets the table. The first code
/// of the stream is a clear code, the last an end-of-information code; bits are packed least
/// significant first.
struct LZWEncoder {
    let table = LZWTable()

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
    func compress(_ symbols: [UInt8], flexible: [Bool], alternative: UInt8, minimumCodeSize: Int) -> [UInt8] {
        guard !symbols.isEmpty else { return [] }
        // Without a single flexible pixel the stream is the plain greedy parse.
        let hasFlexible = flexible.count == symbols.count && flexible.anySet
        return symbols.withUnsafeBufferPointer { symbols in
            flexible.withUnsafeBufferPointer { flexible in
                var run = LZWRun(
                    table: table, symbols: symbols, flexible: hasFlexible ? flexible : nil, alternative: alternative,
                    minimumCodeSize: minimumCodeSize)
                return hasFlexible ? run.compress() : run.compressGreedy() ?? []
            }
        }
    }

    /// The greedy parse of `symbols` (no flexible pixels), or nil when it is longer than `limit`
    /// bytes; the work stops as soon as the output passes `limit`. For comparing candidate
    /// streams, where a loser need not be finished.
    /// - Parameters: `symbols` and `minimumCodeSize` as for `compress`; `limit` in bytes, ≥ 0.
    func compress(_ symbols: [UInt8], minimumCodeSize: Int, unlessLongerThan limit: Int) -> [UInt8]? {
        guard !symbols.isEmpty else { return [] }
        return symbols.withUnsafeBufferPointer { symbols in
            var run = LZWRun(
                table: table, symbols: symbols, flexible: nil, alternative: 0, minimumCodeSize: minimumCodeSize)
            return run.compressGreedy(limit: limit)
        }
    }

    /// The length in bits of a stream of `codes` data codes (≥ 0) under `minimumCodeSize`
    /// (2…8): the clear code first, widths growing and a clear at code 4095 as `compress`
    /// writes them, the end-of-information code last. What a smaller code size saves depends on
    /// the code count this way: the first ones are a bit narrower, later ones hardly.
    static func streamBits(codes: Int, minimumCodeSize: Int) -> Int {
        let firstFree = (1 << minimumCodeSize) + 2
        var bits = minimumCodeSize + 1
        var total = bits
        var remaining = codes
        var next = firstFree
        while remaining > 0 {
            // Codes written while the next free code is next…last have the width `bits`.
            let last = bits == 12 ? 4095 : 1 << bits
            let written = min(remaining, last - next + 1)
            total += written * bits
            remaining -= written
            next += written
            guard remaining > 0 else { break }
            if bits == 12 {
                total += bits
                next = firstFree
                bits = minimumCodeSize + 1
            } else {
                bits += 1
            }
        }
        return total + bits
    }
}

/// The dictionary from `prefix << 8 | symbol` to a code, indexed directly: 4096 prefixes ×
/// 256 symbols of `UInt16` (2 MiB), 0 meaning absent (no dictionary code is below 6). Clearing
/// zeroes only the entries set since the last clear (at most 4096).
final class LZWTable {
    static let capacity = 4096 << 8
    /// The storage, as plain pointers for the parse loops.
    let dictionary: LZWDictionary
    /// Scratch for the run-walking parses.
    let runs = LZWRunIndex()

    init() {
        // Zeroed by `calloc`. Under glibc's default settings a block this large is fresh zero
        // pages, of which a stream faults in only those it touches (a 64×64 frame: a few of
        // the 512); the executables raise the mmap threshold (`MemoryTuning`), so there it is
        // heap memory cleared once. Mapping it directly instead was slower (arc-rotation's
        // first encode 29 → 39 ms: every table's touched pages faulted in, and unmapped at
        // its end, on every encode).
        guard let zeroed = calloc(Self.capacity, MemoryLayout<UInt16>.stride) else {
            fatalError("out of memory for a 2 MiB LZW table")
        }
        let touched = UnsafeMutablePointer<Int32>.allocate(capacity: 4096)
        touched.initialize(repeating: 0, count: 4096)
        let touchedCount = UnsafeMutablePointer<Int>.allocate(capacity: 1)
        touchedCount.initialize(to: 0)
        dictionary = LZWDictionary(
            codes: zeroed.bindMemory(to: UInt16.self, capacity: Self.capacity), touched: touched,
            touchedCount: touchedCount)
    }

    deinit {
        free(dictionary.codes)
        dictionary.touched.deallocate()
        dictionary.touchedCount.deallocate()
    }
}

/// An `LZWTable`'s storage as plain pointers: a parse loop that holds this instead of the
/// class does no reference counting per code (retains and releases around every dictionary
/// insert cost circular-progress 6 % of its encode). Valid while its table lives.
struct LZWDictionary {
    /// `prefix << 8 | symbol` → code, 0 for absent.
    let codes: UnsafeMutablePointer<UInt16>
    /// Keys set since the last clear.
    let touched: UnsafeMutablePointer<Int32>
    /// How many keys `touched` holds.
    let touchedCount: UnsafeMutablePointer<Int>

    /// Forgets every entry.
    func clear() {
        for i in 0..<touchedCount.pointee { codes[Int(touched[i])] = 0 }
        touchedCount.pointee = 0
    }

    /// The code for `prefix` followed by `symbol`, or −1.
    @inline(__always) func lookup(_ prefix: Int, _ symbol: UInt8) -> Int {
        let code = codes[prefix << 8 | Int(symbol)]
        return code == 0 ? -1 : Int(code)
    }

    /// Adds `prefix` + `symbol` as `code`; a string already present keeps its first code (the
    /// lookahead parse may add one twice, and both codes stand for the same string).
    /// - Returns: whether it was added.
    @discardableResult
    @inline(__always) func insert(_ prefix: Int, _ symbol: UInt8, code: Int) -> Bool {
        let key = prefix << 8 | Int(symbol)
        let count = touchedCount.pointee
        guard codes[key] == 0, count < 4096 else { return false }
        codes[key] = UInt16(truncatingIfNeeded: code)
        touched[count] = Int32(key)
        touchedCount.pointee = count + 1
        return true
    }
}

/// One compression: code-size state, the bit packer and the greedy parse.
struct LZWRun {
    let table: LZWDictionary
    /// Where the run-walking parses keep their index (`table`'s owner keeps it alive).
    let runIndex: LZWRunIndex
    let symbols: UnsafeBufferPointer<UInt8>
    let flexible: UnsafeBufferPointer<Bool>?
    let alternative: UInt8
    let minimumCodeSize: Int
    let clearCode: Int
    let endCode: Int
    var nextCode: Int
    var bits: Int
    var limit: Int
    var buffer: UInt64 = 0
    var buffered = 0
    var out: [UInt8] = []

    init(
        table: LZWTable, symbols: UnsafeBufferPointer<UInt8>, flexible: UnsafeBufferPointer<Bool>?,
        alternative: UInt8, minimumCodeSize: Int
    ) {
        self.table = table.dictionary
        runIndex = table.runs
        self.symbols = symbols
        self.flexible = flexible
        self.alternative = alternative
        self.minimumCodeSize = minimumCodeSize
        clearCode = 1 << minimumCodeSize
        endCode = clearCode + 1
        nextCode = endCode + 1
        bits = minimumCodeSize + 1
        limit = 1 << bits
        out.reserveCapacity(symbols.count / 2 + 16)
    }

    /// Packs `code` in the current width, then widens when the next free code needs it.
    @inline(__always) mutating func emit(_ code: Int) {
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

    /// Starts the stream: an empty dictionary and a clear code.
    mutating func begin() {
        table.clear()
        emit(clearCode)
    }

    /// Ends the string `current`; the next string starts with `start`. `runs`, when given, is
    /// kept current (`LZWRunIndex`).
    /// - Returns: whether the table was full, so a clear code was written instead of an entry.
    @discardableResult
    @inline(__always) mutating func close(
        _ current: Int, startingNextWith start: UInt8, runs: LZWRuns? = nil
    ) -> Bool {
        emit(current)
        if nextCode >= 4095 {
            emit(clearCode)
            nextCode = endCode + 1
            bits = minimumCodeSize + 1
            limit = 1 << bits
            table.clear()
            runs?.reset(alphabet: clearCode)
            return true
        }
        let inserted = table.insert(current, start, code: nextCode)
        runs?.added(nextCode, prefix: current, symbol: start, inserted: inserted)
        nextCode += 1
        return false
    }

    /// Ends the stream with `last`, the end-of-information code and the last partial byte.
    mutating func end(with last: Int) -> [UInt8] {
        emit(last)
        emit(endCode)
        if buffered > 0 { out.append(UInt8(truncatingIfNeeded: buffer)) }
        return out
    }

    mutating func compress() -> [UInt8] {
        begin()
        var previousWasAlternative = flexible?[0] ?? false
        var current = Int(previousWasAlternative ? alternative : symbols[0])
        for i in 1..<symbols.count {
            let own = symbols[i]
            if let flexible, flexible[i] {
                let viaOwn = table.lookup(current, own)
                let viaAlternative = table.lookup(current, alternative)
                if viaOwn >= 0 || viaAlternative >= 0 {
                    let takeAlternative: Bool
                    if viaOwn < 0 {
                        takeAlternative = true
                    } else if viaAlternative < 0 {
                        takeAlternative = false
                    } else {
                        takeAlternative = prefersAlternative(
                            viaAlternative, viaOwn, next: i + 1, previousWasAlternative, flexible)
                    }
                    current = takeAlternative ? viaAlternative : viaOwn
                    previousWasAlternative = takeAlternative
                    continue
                }
                let startAlternative =
                    own == alternative
                    || prefersAlternative(Int(alternative), Int(own), next: i + 1, previousWasAlternative, flexible)
                let start = startAlternative ? alternative : own
                close(current, startingNextWith: start)
                current = Int(start)
                previousWasAlternative = startAlternative
                continue
            }
            let found = table.lookup(current, own)
            if found >= 0 {
                current = found
            } else {
                close(current, startingNextWith: own)
                current = Int(own)
            }
            previousWasAlternative = false
        }
        return end(with: current)
    }

    /// Pixels to look ahead when choosing between two symbols.
    static let lookahead = 12

    /// Whether continuing with code `a` (the alternative) beats `b` (the pixel's own symbol):
    /// the one whose string absorbs more of the next `lookahead` pixels greedily wins; a tie
    /// keeps the kind of the previous pixel.
    func prefersAlternative(
        _ a: Int, _ b: Int, next: Int, _ previousWasAlternative: Bool, _ flexible: UnsafeBufferPointer<Bool>
    ) -> Bool {
        let viaA = reach(a, from: next, alternativeBefore: true, flexible)
        let viaB = reach(b, from: next, alternativeBefore: false, flexible)
        return viaA == viaB ? previousWasAlternative : viaA > viaB
    }

    /// How many pixels from `start` on extend the string `code` in the current dictionary.
    func reach(_ code: Int, from start: Int, alternativeBefore: Bool, _ flexible: UnsafeBufferPointer<Bool>) -> Int {
        var code = code
        var alternativeBefore = alternativeBefore
        var j = start
        let end = min(symbols.count, start + Self.lookahead)
        while j < end {
            let own = symbols[j]
            if flexible[j] {
                let viaAlternative = table.lookup(code, alternative)
                let viaOwn = table.lookup(code, own)
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
                let found = table.lookup(code, own)
                guard found >= 0 else { break }
                code = found
                alternativeBefore = false
            }
            j += 1
        }
        return j - start
    }
}

extension [Bool] {
    /// Whether any flag is set, found with `memchr` (a Swift `Bool` is one byte holding 0 or
    /// 1), which scans many bytes per step where `contains(true)` tests one.
    var anySet: Bool {
        withUnsafeBytes { bytes in
            guard let base = bytes.baseAddress else { return false }
            return memchr(base, 1, bytes.count) != nil
        }
    }
}
