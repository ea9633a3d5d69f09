// SPDX-License-Identifier: GPL-3.0-or-later

internal import CDeflate

/// An LZ77 parse of the project's own (RFC 1951 §4's model: matches of length 3…258 at
/// distances 1…32 768), written for PNG scanlines that are mostly long runs of one byte, as sprite
/// sheets are (the bundled presets' sheet pages at 1×–3×: 896 MB of scanlines, about 99 % in
/// runs of transparent pixels; docs/encoding.md, "Sheet deflate").
///
/// zlib at level 9 spends most of its time there on positions inside runs: it puts every
/// position into its hash chains, so a run shorter than 258 bytes walks up to 4 096 earlier run
/// positions, each compared byte by byte until the run ends. This parse keeps runs out of the hash
/// chains and finds their matches another way:
///
/// - A **run position** is one whose next three bytes are equal. Its match is the longest of a
///   distance-1 match (the run itself, up to 258) and, for each earlier run of the same byte that
///   is at least as long as what is left of this one, the match that starts the same number of
///   bytes before that run's end, so it also covers what follows both runs (the row above's
///   sprite pixels after the same gap), taken over the distance-1 match only when it reaches
///   `runExtension` bytes further. Run positions are never put into the hash chains.
/// - Every other position is matched by hash chains over 3-byte prefixes, zlib's way at level 9
///   (chains of at most `maximumChain` candidates, a quarter of that once a match of
///   `goodLength` is found, stop at `niceLength`; length-3 matches farther than 4 096 bytes
///   dropped).
/// - zlib's one-step lazy evaluation on both: a match is deferred by one literal when the next
///   position has a longer one (never for matches of `lazyLimit` bytes or more).
///
/// The tokens then go to `DeflateRecoder.encode`, which chooses block boundaries and optimal
/// Huffman codes for them. The result is a valid zlib stream for any input; only its size
/// depends on the input being run-heavy.
enum DeflateParser {
    typealias Token = DeflateRecoder.Token

    /// Longest hash chain walked per position (zlib level 9: 4 096).
    static let maximumChain = 4096
    /// A match this long cuts the rest of the chain to a quarter (zlib level 9: 32).
    static let goodLength = 32
    /// A match this long ends the search (zlib level 9: 258).
    static let niceLength = 258
    /// Matches at least this long are taken without looking one position ahead (zlib: 258).
    static let lazyLimit = 258
    /// Earlier runs looked at per run position, most recent first.
    static let runsSearched = 512
    /// How far past a run a match from an earlier run must reach to be taken over the run's own
    /// distance-1 match: a minimum match (3). One or two bytes more at a distance of thousands
    /// cost more bits than a distance-1 match and the next token; on the bundled presets' sheet
    /// pages 3 gave −0.73 % against taking any longer match (2: −0.52 %, 4: −0.63 %, 5: −0.49 %),
    /// and no page grew.
    static let runExtension = 3

    static let windowSize = 32768
    static let hashBits = 16

    /// `data` as a zlib stream (RFC 1950: header 0x78 0xDA, the deflate data, Adler-32).
    static func zlib(_ data: [UInt8]) -> [UInt8] {
        var done = false
        return zlib {
            guard !done else { return nil }
            done = true
            return data
        }
    }

    /// Bytes handed to the parse per piece by callers that build their input as they go
    /// (`SheetPNGEncoder`): about 2 MiB, so a 4096² RGBA sheet page is never held twice.
    static let pieceSize = 1 << 21

    /// Tokens held before they are written as blocks (4 MiB of them): the bundled presets'
    /// sheet pages have at most 360 000, so they are written in one go, while a page of
    /// incompressible pixels (about one token a byte) is written chunk by chunk and its tokens
    /// never take more memory than the page's pieces.
    static let flushTokens = 1 << 20

    /// The zlib stream (RFC 1950: header 0x78 0xDA, the deflate data, Adler-32) of the bytes
    /// `next` returns piece after piece until it returns nil. Each piece is parsed with the
    /// last `windowSize` bytes before it as history, so matches reach back across pieces as in
    /// one parse of the whole; only a match cannot run on past a piece's end. Tokens are
    /// written as blocks whenever `flushTokens` have gathered after a piece, and at the end.
    static func zlib(flushTokens: Int = flushTokens, pieces next: () -> [UInt8]?) -> [UInt8] {
        var tokens: [Token] = []
        var writer = DeflateRecoder.BitWriter()
        var chunkHistory: [UInt8] = []  // the bytes before `tokens`' first one, up to a window
        var buffer: [UInt8] = []
        var check = adler32(0, nil, 0)
        while let piece = next() {
            let keep = min(buffer.count, windowSize)
            buffer.removeFirst(buffer.count - keep)
            buffer.append(contentsOf: piece)
            piece.withUnsafeBufferPointer { bytes in
                var offset = 0
                // zlib's adler32 takes a 32-bit length.
                while offset < bytes.count, let base = bytes.baseAddress {
                    let n = min(bytes.count - offset, 1 << 30)
                    check = adler32(check, base + offset, UInt32(n))
                    offset += n
                }
            }
            buffer.withUnsafeBufferPointer { parse($0, history: keep, into: &tokens) }
            if tokens.count >= flushTokens {
                DeflateRecoder.encode(tokens, history: chunkHistory, final: false, into: &writer)
                tokens.removeAll(keepingCapacity: true)
                chunkHistory = Array(buffer.suffix(windowSize))
            }
        }
        DeflateRecoder.encode(tokens, history: chunkHistory, final: true, into: &writer)
        let body = writer.finish()
        var out: [UInt8] = [0x78, 0xDA]
        out.reserveCapacity(body.count + 6)
        out.append(contentsOf: body)
        for shift in stride(from: 24, through: 0, by: -8) {
            out.append(UInt8(truncatingIfNeeded: check >> UInt(shift)))
        }
        return out
    }

    /// One earlier run: `byte` repeated over `start..<end`.
    struct Run {
        var start: Int
        var end: Int
        var byte: UInt8
    }

    /// The parse of `data` as literals and matches (`DeflateRecoder.Token`).
    static func tokens(_ data: [UInt8]) -> [Token] {
        var out: [Token] = []
        data.withUnsafeBufferPointer { parse($0, history: 0, into: &out) }
        return out
    }

    /// Appends to `out` the parse of `data[history...]`, which may match back into
    /// `data[..<history]` (at most `windowSize` bytes of what came before).
    static func parse(_ data: UnsafeBufferPointer<UInt8>, history: Int, into out: inout [Token]) {
        guard data.count > history, let base = data.baseAddress else { return }
        out.reserveCapacity(out.count + (data.count - history) / 64 + 16)
        var state = Parse(data: base, count: data.count)
        defer { state.deallocate() }
        state.run(from: history, into: &out)
    }

    /// The matcher's state over one buffer. Its tables are raw memory and its steps mutating
    /// methods, so no access needs a run-time exclusivity check (closures over local arrays
    /// spent a third of the parse in them).
    struct Parse {
        let d: UnsafePointer<UInt8>
        let raw: UnsafeRawPointer
        let n: Int
        /// Newest position of each 3-byte hash, −1 for none.
        let head: UnsafeMutablePointer<Int32>
        /// The position before each one (by `position & (windowSize − 1)`) with the same hash.
        let prev: UnsafeMutablePointer<Int32>
        /// The last `runsSearched` runs seen, a ring.
        let runs: UnsafeMutablePointer<Run>
        /// Runs recorded so far; the newest is at `(runCount − 1) % runsSearched`.
        var runCount = 0
        /// The run the parse is in, when `start < end`.
        var current = Run(start: 0, end: 0, byte: 0)

        init(data: UnsafePointer<UInt8>, count: Int) {
            d = data
            raw = UnsafeRawPointer(data)
            n = count
            head = .allocate(capacity: 1 << DeflateParser.hashBits)
            head.initialize(repeating: -1, count: 1 << DeflateParser.hashBits)
            prev = .allocate(capacity: windowSize)
            prev.initialize(repeating: -1, count: windowSize)
            runs = .allocate(capacity: runsSearched)
            runs.initialize(repeating: Run(start: 0, end: 0, byte: 0), count: runsSearched)
        }

        func deallocate() {
            head.deallocate()
            prev.deallocate()
            runs.deallocate()
        }

        @inline(__always) func hash(_ p: Int) -> Int {
            let v = UInt32(d[p]) << 16 | UInt32(d[p + 1]) << 8 | UInt32(d[p + 2])
            return Int((v &* 2_654_435_761) >> UInt32(32 - DeflateParser.hashBits))
        }

        @inline(__always) func isRunPosition(_ p: Int) -> Bool {
            p + 2 < n && d[p] == d[p + 1] && d[p] == d[p + 2]
        }

        @inline(__always) func insert(_ p: Int) {
            guard p + 2 < n, !isRunPosition(p) else { return }
            let h = hash(p)
            prev[p & (windowSize - 1)] = head[h]
            head[h] = Int32(truncatingIfNeeded: p)
        }

        /// Bytes equal at `a` and `b` (a < b), at most `limit` (`b + limit` ≤ n), eight at a time.
        @inline(__always) func common(_ a: Int, _ b: Int, _ limit: Int) -> Int {
            var k = 0
            while k + 8 <= limit {
                let x = raw.loadUnaligned(fromByteOffset: a + k, as: UInt64.self)
                let y = raw.loadUnaligned(fromByteOffset: b + k, as: UInt64.self)
                if x != y { return k + (x ^ y).littleEndian.trailingZeroBitCount / 8 }
                k += 8
            }
            while k < limit && d[a + k] == d[b + k] { k += 1 }
            return k
        }

        /// The first position at or after `p` that does not hold `byte`, eight at a time.
        @inline(__always) func runEnd(from p: Int, byte: UInt8) -> Int {
            let pattern = UInt64(byte) &* 0x0101_0101_0101_0101
            var end = p
            while end + 8 <= n {
                let x = raw.loadUnaligned(fromByteOffset: end, as: UInt64.self) ^ pattern
                if x != 0 { return end + x.littleEndian.trailingZeroBitCount / 8 }
                end += 8
            }
            while end < n && d[end] == byte { end += 1 }
            return end
        }

        /// The run containing run position `p`, recorded when it is new.
        mutating func runAt(_ p: Int) -> Run {
            if current.start <= p && p < current.end { return current }
            let byte = d[p]
            let end = runEnd(from: p + 3, byte: byte)
            var start = p
            while start > 0 && d[start - 1] == byte && p - start < windowSize { start -= 1 }
            current = Run(start: start, end: end, byte: byte)
            runs[runCount % runsSearched] = current
            runCount += 1
            return current
        }

        /// The best match at run position `p`: (length, distance), length 0 when none.
        mutating func runMatch(_ p: Int) -> (Int, Int) {
            let run = runAt(p)
            let left = run.end - p
            var bestLength = 0
            var bestDistance = 0
            if p > 0 && d[p - 1] == run.byte {
                bestLength = min(left, 258)
                bestDistance = 1
            }
            if bestLength == 258 { return (258, 1) }
            let room = min(258, n - p)
            // Earlier runs of the same byte, newest first (the current one is the newest).
            var k = runCount - 2
            let oldest = max(0, runCount - runsSearched)
            while k >= oldest && room > bestLength {
                let other = runs[k % runsSearched]
                k -= 1
                let distance = run.end - other.end
                if distance > windowSize { break }
                guard other.byte == run.byte, other.end - other.start >= left, distance > 0 else { continue }
                // Both runs agree over `left` bytes; then compare what follows them.
                let length = left >= room ? room : left + common(other.end, run.end, room - left)
                // Over the run's own distance-1 match, only a match reaching `runExtension`
                // bytes past it pays for its longer distance.
                let gain = bestDistance == 1 ? runExtension : 1
                if length >= bestLength + gain || (length == bestLength && distance < bestDistance) {
                    bestLength = length
                    bestDistance = distance
                    if length >= niceLength { break }
                }
            }
            return bestLength >= 3 ? (bestLength, bestDistance) : (0, 0)
        }

        /// The best match at `p` from the hash chains: (length, distance), length 0 when none.
        /// (Unlike zlib's look-ahead, which searches only for a match longer than the one it
        /// holds and so walks whole chains when there is none, the look-ahead here searches
        /// from scratch and stops at the first `niceLength` match: on the bundled presets' sheet
        /// pages 2.4 times faster for 9 bytes more in 2 MB.)
        func chainMatch(_ p: Int) -> (Int, Int) {
            guard p + 2 < n else { return (0, 0) }
            var candidate = Int(head[hash(p)])
            let limit = p - windowSize
            let room = min(258, n - p)
            var chain = maximumChain
            var bestLength = 2
            var bestDistance = 0
            while candidate > limit && candidate >= 0 && candidate < p && chain > 0 {
                if d[candidate + bestLength] == d[p + bestLength] && d[candidate] == d[p] {
                    let length = common(candidate, p, room)
                    if length > bestLength {
                        bestLength = length
                        bestDistance = p - candidate
                        if length >= niceLength || length >= room { break }
                        if length >= goodLength && chain > maximumChain / 4 { chain = maximumChain / 4 }
                    }
                }
                let next = Int(prev[candidate & (windowSize - 1)])
                guard next < candidate else { break }
                candidate = next
                chain -= 1
            }
            guard bestDistance > 0, !(bestLength == 3 && bestDistance > 4096) else { return (0, 0) }
            return (bestLength, bestDistance)
        }

        @inline(__always) mutating func match(_ p: Int) -> (Int, Int) {
            isRunPosition(p) ? runMatch(p) : chainMatch(p)
        }

        /// Puts the positions `from..<to` into the hash chains, skipping a run's inside at once.
        mutating func insertRange(_ from: Int, _ to: Int) {
            var q = from
            while q < to {
                if isRunPosition(q) {
                    let run = runAt(q)
                    // Run positions stay out; the two before the run's end are not run positions.
                    q = max(q + 1, min(to, run.end - 2))
                    continue
                }
                insert(q)
                q += 1
            }
        }

        /// Parses `d[history..<n]` into `out`, `d[..<history]` being only what matches may
        /// reach back into.
        mutating func run(from history: Int, into out: inout [Token]) {
            insertRange(0, history)
            var p = history
            var pending: (Int, Int)? = nil  // the match found at p by the previous step's look-ahead
            while p < n {
                let (length, distance) = pending ?? match(p)
                pending = nil
                if length < 3 {
                    out.append(Token(d[p]))
                    insert(p)
                    p += 1
                    continue
                }
                if length < lazyLimit && p + 1 < n {
                    insert(p)
                    let next = match(p + 1)
                    if next.0 > length {
                        out.append(Token(d[p]))
                        p += 1
                        pending = next
                        continue
                    }
                    out.append(Token(length) << 16 | Token(distance))
                    insertRange(p + 1, p + length)
                    p += length
                    continue
                }
                out.append(Token(length) << 16 | Token(distance))
                insertRange(p, p + length)
                p += length
            }
        }
    }
}
