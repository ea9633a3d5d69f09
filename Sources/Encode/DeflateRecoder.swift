// SPDX-License-Identifier: GPL-3.0-or-later

/// A deflate back end of the project's own: it keeps another compressor's parse (the sequence
/// of literals and length/distance pairs) and writes it again with block boundaries and
/// Huffman codes chosen for the fewest bits (docs/encoding.md, APNG, round 16).
///
/// `recode(zlib:)` inflates a zlib stream (RFC 1950) into its symbols (RFC 1951 §3.2.3–3.2.7),
/// splits them into blocks by dynamic programming over candidate split points with the exact
/// size of each block, stored (§3.2.4), fixed (§3.2.6) or dynamic (§3.2.7), whichever is
/// smallest; a dynamic block's codes are optimal length-limited Huffman codes (at most 15 bits,
/// the code-length code at most 7, §3.2.7), its header the smallest of the eight ways of using
/// the repeat codes 16, 17 and 18. The bundled presets' APNGs (libdeflate 12's and zlib 9's
/// streams) shrink by 0.08–0.88 % this way.
enum DeflateRecoder {
    /// A literal byte (0…255) or a match: length 3…258 in the high 16 bits, distance
    /// 1…32 768 in the low 16.
    typealias Token = UInt32

    /// At most this many blocks' worth of split points are tried per stream (the split search
    /// costs their square): 20, and at least `minimumSplitStep` tokens apart. 40 points 64 apart
    /// saved 0–16 bytes more per preset for 10–25 % more of the recoder's time (round 16).
    static let splitCandidates = 20
    /// The fewest tokens between two candidate split points.
    static let minimumSplitStep = 128

    /// A zlib stream holding the same bytes as `stream` with the same header and Adler-32,
    /// its deflate data re-encoded by `encode(_:)`, when that is shorter; nil when it is not,
    /// when `stream` uses a preset dictionary, or when it is not valid deflate data (so the
    /// caller keeps `stream`).
    static func recode(zlib stream: [UInt8]) -> [UInt8]? {
        guard stream.count >= 7, stream[1] & 0x20 == 0 else { return nil }
        guard let parsed = tokens(deflate: stream, from: 2, end: stream.count - 4) else { return nil }
        return rewrapped(stream, body: encode(parsed.tokens))
    }

    /// `stream`'s zlib header, `body` as its deflate data and `stream`'s Adler-32, when that
    /// is shorter than `stream`; else nil.
    static func rewrapped(_ stream: [UInt8], body: [UInt8]) -> [UInt8]? {
        guard body.count + 6 < stream.count else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(body.count + 6)
        out.append(contentsOf: stream[0..<2])
        out.append(contentsOf: body)
        out.append(contentsOf: stream[(stream.count - 4)...])
        return out
    }

    // MARK: - Tables (RFC 1951 §3.2.5)

    static let lengthBase: [Int] = [
        3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227,
        258,
    ]
    static let lengthExtra: [Int] = [
        0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
    ]
    static let distanceBase: [Int] = [
        1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073,
        4097, 6145, 8193, 12289, 16385, 24577,
    ]
    static let distanceExtra: [Int] = [
        0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
    ]
    /// The order the code-length code's lengths are sent in (§3.2.7).
    static let codeLengthOrder: [Int] = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    /// The length code (0…28, symbol 257 + it) of each match length 0…258 (0 below 3).
    static let lengthSymbol: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 259)
        var code = 0
        for length in 3...258 {
            while code < 28 && length >= lengthBase[code + 1] && !(code + 1 == 28 && length != 258) { code += 1 }
            table[length] = UInt8(code)
        }
        return table
    }()

    /// The distance code (0…29) of each distance 0…32 768 (0 for 0).
    static let distanceSymbol: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 32769)
        var code = 0
        for distance in 1...32768 {
            while code < 29 && distance >= distanceBase[code + 1] { code += 1 }
            table[distance] = UInt8(code)
        }
        return table
    }()

    static let fixedLiteralLengths: [UInt8] =
        Array(repeating: 8, count: 144) + Array(repeating: 9, count: 112) + Array(repeating: 7, count: 24)
        + Array(repeating: 8, count: 8)

    // MARK: - Inflating into symbols

    /// The tokens of the deflate data in `data[start..<end]` and the number of bytes they
    /// expand to; nil when the data is not valid deflate (bad block type, code, length or
    /// distance, or it runs past `end`).
    static func tokens(deflate data: [UInt8], from start: Int, end: Int) -> (tokens: [Token], size: Int)? {
        var reader = BitReader(data: data, position: start, end: end)
        var tokens: [Token] = []
        tokens.reserveCapacity((end - start) * 2)
        var size = 0
        while true {
            guard let final = reader.bits(1), let type = reader.bits(2) else { return nil }
            switch type {
            case 0:
                guard let count = reader.storedLength() else { return nil }
                for _ in 0..<count {
                    guard let byte = reader.bits(8) else { return nil }
                    tokens.append(Token(byte))
                }
                size += count
            case 1, 2:
                let literal: HuffmanDecoder
                let distance: HuffmanDecoder
                if type == 1 {
                    literal = HuffmanDecoder(lengths: fixedLiteralLengths)
                    distance = HuffmanDecoder(lengths: [UInt8](repeating: 5, count: 30))
                } else {
                    guard let codes = readDynamicHeader(&reader) else { return nil }
                    (literal, distance) = codes
                }
                while true {
                    guard let symbol = literal.decode(&reader) else { return nil }
                    if symbol < 256 {
                        tokens.append(Token(symbol))
                        size += 1
                        continue
                    }
                    if symbol == 256 { break }
                    let code = symbol - 257
                    guard code < 29, let more = reader.bits(lengthExtra[code]) else { return nil }
                    let length = lengthBase[code] + more
                    guard let dcode = distance.decode(&reader), dcode < 30,
                        let dmore = reader.bits(distanceExtra[dcode])
                    else { return nil }
                    let dist = distanceBase[dcode] + dmore
                    guard dist <= size else { return nil }
                    tokens.append(Token(length) << 16 | Token(dist))
                    size += length
                }
            default:
                return nil
            }
            if final == 1 { break }
        }
        return (tokens, size)
    }

    /// Reads a dynamic block's code lengths (§3.2.7) into the literal/length and distance decoders.
    private static func readDynamicHeader(_ reader: inout BitReader) -> (HuffmanDecoder, HuffmanDecoder)? {
        guard let hlit = reader.bits(5), let hdist = reader.bits(5), let hclen = reader.bits(4) else { return nil }
        let (literals, distances) = (hlit + 257, hdist + 1)
        guard literals <= 286, distances <= 30 else { return nil }
        var codeLengths = [UInt8](repeating: 0, count: 19)
        for i in 0..<(hclen + 4) {
            guard let length = reader.bits(3) else { return nil }
            codeLengths[codeLengthOrder[i]] = UInt8(length)
        }
        let codeLengthDecoder = HuffmanDecoder(lengths: codeLengths)
        var lengths: [UInt8] = []
        lengths.reserveCapacity(literals + distances)
        while lengths.count < literals + distances {
            guard let symbol = codeLengthDecoder.decode(&reader) else { return nil }
            switch symbol {
            case 0..<16:
                lengths.append(UInt8(symbol))
            case 16:
                guard let last = lengths.last, let more = reader.bits(2) else { return nil }
                lengths.append(contentsOf: repeatElement(last, count: 3 + more))
            case 17:
                guard let more = reader.bits(3) else { return nil }
                lengths.append(contentsOf: repeatElement(0, count: 3 + more))
            default:
                guard let more = reader.bits(7) else { return nil }
                lengths.append(contentsOf: repeatElement(0, count: 11 + more))
            }
        }
        guard lengths.count == literals + distances, lengths[256] > 0 else { return nil }
        return (
            HuffmanDecoder(lengths: Array(lengths[0..<literals])),
            HuffmanDecoder(lengths: Array(lengths[literals...]))
        )
    }

    /// Reads bits least significant first (§3.1.1).
    struct BitReader {
        let data: [UInt8]
        var position: Int
        let end: Int
        var buffer: UInt64 = 0
        var count = 0

        init(data: [UInt8], position: Int, end: Int) {
            self.data = data
            self.position = position
            self.end = end
        }

        /// The next `n` bits (0…16) as a number, or nil past the end.
        mutating func bits(_ n: Int) -> Int? {
            while count < n {
                guard position < end else { return nil }
                buffer |= UInt64(data[position]) << UInt64(count)
                position += 1
                count += 8
            }
            let value = Int(buffer & ((1 << UInt64(n)) - 1))
            buffer >>= UInt64(n)
            count -= n
            return value
        }

        /// Skips to the byte boundary and reads a stored block's LEN and NLEN (§3.2.4).
        mutating func storedLength() -> Int? {
            _ = bits(count % 8)
            guard let length = bits(16), let complement = bits(16), length ^ complement == 0xFFFF else { return nil }
            return length
        }
    }

    /// Canonical Huffman decoding (§3.2.2): codes of each length are consecutive, in symbol order.
    struct HuffmanDecoder {
        var counts = [Int](repeating: 0, count: 16)
        var symbols: [Int] = []

        init(lengths: [UInt8]) {
            for length in lengths { counts[Int(length)] += 1 }
            counts[0] = 0
            // Symbols sorted by code length, then by symbol (one counting pass).
            var offsets = [Int](repeating: 0, count: 16)
            for length in 1..<15 { offsets[length + 1] = offsets[length] + counts[length] }
            symbols = [Int](repeating: 0, count: offsets[15] + counts[15])
            for (symbol, length) in lengths.enumerated() where length > 0 {
                symbols[offsets[Int(length)]] = symbol
                offsets[Int(length)] += 1
            }
        }

        /// The next symbol, or nil for a code that is not in the table or the end of the data.
        func decode(_ reader: inout BitReader) -> Int? {
            var code = 0
            var first = 0
            var index = 0
            for length in 1...15 {
                guard let bit = reader.bits(1) else { return nil }
                code |= bit
                let count = counts[length]
                if code - first < count { return symbols[index + code - first] }
                index += count
                first = (first + count) << 1
                code <<= 1
            }
            return nil
        }
    }

    // MARK: - Encoding

    /// Symbol counts of a run of tokens: 286 literal/length counts, then 30 distance counts.
    typealias Histogram = [Int]

    /// The deflate data (RFC 1951, no zlib wrapper) of `tokens`: split into blocks at the
    /// candidate points (every max(`minimumSplitStep`, count / `splitCandidates` + 1) tokens)
    /// that minimise the total bits, each block stored, fixed or dynamic, whichever is smallest
    /// (a dynamic block costed with all three repeat codes in its header; the header written is
    /// the smallest of the eight choices, so never larger), the last one marked final. Empty
    /// `tokens` give one empty fixed block.
    static func encode(_ tokens: [Token]) -> [UInt8] {
        encodeWithBlocks(tokens).bytes
    }

    /// `encode(_:)`'s bytes and the token ranges of the blocks it wrote, in order.
    static func encodeWithBlocks(_ tokens: [Token]) -> (bytes: [UInt8], blocks: [Range<Int>]) {
        var writer = BitWriter()
        let (points, segments) = plan(tokens)
        write(tokens, points: points, segments: segments, history: [], final: true, into: &writer)
        return (writer.finish(), segments.map { points[$0.0]..<points[$0.1] })
    }

    /// Appends to `writer` the blocks of `tokens`, chosen as `encode(_:)` chooses them, the
    /// last one marked final when `final` (so a long stream can be written in chunks of
    /// tokens, each costing its own memory only). `history` holds the bytes before the tokens'
    /// first one (at least as far back as their matches reach, at most 32 768 are kept); they
    /// are needed only to write a stored block, whose bytes are expanded with a 32 KiB window.
    static func encode(_ tokens: [Token], history: [UInt8], final: Bool, into writer: inout BitWriter) {
        let (points, segments) = plan(tokens)
        write(tokens, points: points, segments: segments, history: history, final: final, into: &writer)
    }

    /// Writes the blocks `plan` chose.
    private static func write(
        _ tokens: [Token], points: [Int], segments: [(Int, Int, BlockKind)], history: [UInt8], final: Bool,
        into writer: inout BitWriter
    ) {
        var expander = segments.contains { $0.2 == .stored } ? RollingExpander(history: history) : nil
        for (n, (a, b, kind)) in segments.enumerated() {
            let slice = tokens[points[a]..<points[b]]
            let bytes = expander?.expand(slice, keep: kind == .stored) ?? []
            write(slice, kind: kind, final: final && n == segments.count - 1, stored: bytes[...], to: &writer)
        }
    }

    /// The candidate split points (token indices) and the blocks chosen among them (indices
    /// into the points, and each block's kind), by the dynamic programming `encode` describes.
    private static func plan(_ tokens: [Token]) -> (points: [Int], segments: [(Int, Int, BlockKind)]) {
        let step = max(minimumSplitStep, tokens.count / splitCandidates + 1)
        var points = Array(stride(from: 0, to: tokens.count, by: step))
        points.append(tokens.count)
        if tokens.isEmpty { points = [0, 0] }
        // Prefix histograms and byte counts at each point.
        var prefixes: [Histogram] = []
        var prefixBytes: [Int] = []
        var histogram = Histogram(repeating: 0, count: 316)
        var bytes = 0
        var next = 0
        for (i, token) in tokens.enumerated() {
            while next < points.count && points[next] == i {
                prefixes.append(histogram)
                prefixBytes.append(bytes)
                next += 1
            }
            count(token, into: &histogram, bytes: &bytes)
        }
        while next < points.count {
            prefixes.append(histogram)
            prefixBytes.append(bytes)
            next += 1
        }
        let k = points.count
        var best = [Int](repeating: Int.max, count: k)
        var back = [Int](repeating: 0, count: k)
        var kinds = [BlockKind](repeating: .fixed, count: k)
        best[0] = 0
        var block = Histogram(repeating: 0, count: 316)
        for j in 1..<k {
            for i in 0..<j {
                for s in 0..<316 { block[s] = prefixes[j][s] - prefixes[i][s] }
                block[256] += 1
                let (bits, kind) = cheapest(block, bytes: prefixBytes[j] - prefixBytes[i])
                if best[i] + bits < best[j] {
                    best[j] = best[i] + bits
                    back[j] = i
                    kinds[j] = kind
                }
            }
        }
        var segments: [(Int, Int, BlockKind)] = []
        var j = k - 1
        while j > 0 {
            segments.append((back[j], j, kinds[j]))
            j = back[j]
        }
        segments.reverse()
        return (points, segments)
    }

    /// Expands tokens block after block, keeping only the 32 KiB their matches can reach back
    /// into, and the bytes of a block that will be stored.
    struct RollingExpander {
        var window: [UInt8]

        init(history: [UInt8]) { window = Array(history.suffix(32768)) }

        /// The bytes of `tokens` when `keep`, else none (the window moves on either way).
        mutating func expand(_ tokens: ArraySlice<Token>, keep: Bool) -> [UInt8] {
            let start = window.count
            for token in tokens {
                if token < 256 {
                    window.append(UInt8(token))
                } else {
                    let length = Int(token >> 16)
                    let distance = Int(token & 0xFFFF)
                    for _ in 0..<length { window.append(window[window.count - distance]) }
                }
                if !keep && window.count > 4 * 32768 { window.removeFirst(window.count - 32768) }
            }
            let bytes = keep ? Array(window[start...]) : []
            if window.count > 32768 { window.removeFirst(window.count - 32768) }
            return bytes
        }
    }

    /// Adds `token`'s symbols to `histogram` and its expanded length to `bytes`.
    @inline(__always)
    static func count(_ token: Token, into histogram: inout Histogram, bytes: inout Int) {
        if token < 256 {
            histogram[Int(token)] += 1
            bytes += 1
        } else {
            let length = Int(token >> 16)
            histogram[257 + Int(lengthSymbol[length])] += 1
            histogram[286 + Int(distanceSymbol[Int(token & 0xFFFF)])] += 1
            bytes += length
        }
    }

    enum BlockKind { case stored, fixed, dynamic }

    /// The bits of the extra fields (§3.2.5) of the matches counted in `histogram`.
    static func extraBits(_ histogram: Histogram) -> Int {
        var bits = 0
        for code in 0..<29 { bits += histogram[257 + code] * lengthExtra[code] }
        for code in 0..<30 { bits += histogram[286 + code] * distanceExtra[code] }
        return bits
    }

    /// The size in bits of a block of `histogram` (end-of-block counted) holding `bytes` bytes,
    /// as the cheapest kind. A stored block is counted with the most padding (7 bits) and one
    /// 5-byte header per 65 535 bytes, so the bits written are never more.
    static func cheapest(_ histogram: Histogram, bytes: Int) -> (Int, BlockKind) {
        let extra = extraBits(histogram)
        var fixed = 3 + extra
        for s in 0..<286 { fixed += histogram[s] * Int(fixedLiteralLengths[s]) }
        for s in 286..<316 { fixed += histogram[s] * 5 }
        let dynamic = 3 + extra + DynamicCode(histogram, everyRepeatChoice: false).bits
        let storedBlocks = max(1, (bytes + 65534) / 65535)
        let stored = storedBlocks * (3 + 7 + 32) + 8 * bytes
        var result = (dynamic, BlockKind.dynamic)
        if fixed < result.0 { result = (fixed, .fixed) }
        if stored < result.0 { result = (stored, .stored) }
        return result
    }

    /// A dynamic block's codes for `histogram` and its size without the 3-bit block header
    /// and the extra bits: the code lengths' header (§3.2.7) plus the Huffman-coded symbols.
    struct DynamicCode {
        var literalLengths: [UInt8]
        var distanceLengths: [UInt8]
        var header: Header
        var bits: Int

        /// `everyRepeatChoice` false tries only the header with all three repeat codes (the
        /// split search's cost, 8 times cheaper; the header written is never larger).
        init(_ histogram: Histogram, everyRepeatChoice: Bool = true) {
            var literal = DeflateRecoder.huffmanLengths(Array(histogram[0..<286]), limit: 15)
            var distance = DeflateRecoder.huffmanLengths(Array(histogram[286..<316]), limit: 15)
            DeflateRecoder.complete(&literal, spare: 0)
            DeflateRecoder.complete(&distance, spare: 0)
            literalLengths = literal
            distanceLengths = distance
            var data = 0
            for s in 0..<286 { data += histogram[s] * Int(literal[s]) }
            for s in 0..<30 { data += histogram[286 + s] * Int(distance[s]) }
            header = Header(literal: literal, distance: distance, everyRepeatChoice: everyRepeatChoice)
            bits = data + header.bits
        }
    }

    /// A code-length sequence as sent (§3.2.7): HLIT, HDIST, HCLEN, the code-length code and
    /// the run-length coded lengths, the smallest of the eight choices of which of the repeat
    /// codes 16, 17 and 18 are used.
    struct Header {
        var literalCount: Int
        var distanceCount: Int
        var codeLengthCount: Int
        var codeLengths: [UInt8]
        /// (symbol 0…18, extra value, extra bit count).
        var runs: [(UInt8, UInt8, UInt8)]
        var bits: Int

        init(literal: [UInt8], distance: [UInt8], everyRepeatChoice: Bool = true) {
            var hlit = 286
            while hlit > 257 && literal[hlit - 1] == 0 { hlit -= 1 }
            var hdist = 30
            while hdist > 1 && distance[hdist - 1] == 0 { hdist -= 1 }
            let all = Array(literal[0..<hlit]) + Array(distance[0..<hdist])
            var chosen = (bits: Int.max, hclen: 4, lengths: [UInt8](), runs: [(UInt8, UInt8, UInt8)]())
            for use in 0..<(everyRepeatChoice ? 8 : 1) {
                let runs = Header.runLengths(all, use16: use & 1 == 0, use17: use & 2 == 0, use18: use & 4 == 0)
                var frequencies = [Int](repeating: 0, count: 19)
                for run in runs { frequencies[Int(run.0)] += 1 }
                let lengths = DeflateRecoder.huffmanLengths(frequencies, limit: 7)
                var hclen = 19
                while hclen > 4 && lengths[codeLengthOrder[hclen - 1]] == 0 { hclen -= 1 }
                var bits = 14 + 3 * hclen
                for run in runs { bits += Int(lengths[Int(run.0)]) + Int(run.2) }
                if bits < chosen.bits { chosen = (bits, hclen, lengths, runs) }
            }
            literalCount = hlit
            distanceCount = hdist
            codeLengthCount = chosen.hclen
            codeLengths = chosen.lengths
            runs = chosen.runs
            bits = chosen.bits
        }

        /// `lengths` run-length coded: runs of zeros by 18 (11…138) and 17 (3…10), runs of
        /// four or more of another length by the length and 16 (3…6 repeats), when allowed.
        static func runLengths(_ lengths: [UInt8], use16: Bool, use17: Bool, use18: Bool) -> [(UInt8, UInt8, UInt8)] {
            var out: [(UInt8, UInt8, UInt8)] = []
            var i = 0
            while i < lengths.count {
                let value = lengths[i]
                var j = i
                while j < lengths.count && lengths[j] == value { j += 1 }
                var run = j - i
                if value == 0 && (use17 || use18) {
                    while run >= 3 {
                        if run >= 11 && use18 {
                            let r = min(run, 138)
                            out.append((18, UInt8(r - 11), 7))
                            run -= r
                        } else if use17 {
                            let r = min(run, 10)
                            out.append((17, UInt8(r - 3), 3))
                            run -= r
                        } else {
                            break
                        }
                    }
                } else if value != 0 && use16 && run >= 4 {
                    out.append((value, 0, 0))
                    run -= 1
                    while run >= 3 {
                        let r = min(run, 6)
                        out.append((16, UInt8(r - 3), 2))
                        run -= r
                    }
                }
                for _ in 0..<run { out.append((value, 0, 0)) }
                i = j
            }
            return out
        }
    }

    /// Gives a code with a single used symbol a second one-bit code (`spare`, or the next
    /// symbol when `spare` is the used one), and a code with none the two, so every code is
    /// complete (§3.2.7 allows one distance code; zlib's inflater accepts complete codes always).
    static func complete(_ lengths: inout [UInt8], spare: Int) {
        var used = 0
        var first = 0
        for (symbol, length) in lengths.enumerated() where length > 0 {
            if used == 0 { first = symbol }
            used += 1
            if used >= 2 { return }
        }
        if used == 0 {
            lengths[spare] = 1
            lengths[spare + 1] = 1
            return
        }
        lengths[first] = 1
        lengths[first == spare ? spare + 1 : spare] = 1
    }

    /// Optimal prefix-code lengths for `frequencies` (Huffman), at most `limit` bits long:
    /// when Huffman's longest code exceeds `limit`, the package-merge algorithm (Larmore and
    /// Hirschberg 1990) gives the optimal lengths under the limit. Unused symbols get 0; a
    /// single used symbol gets 1.
    static func huffmanLengths(_ frequencies: [Int], limit: Int) -> [UInt8] {
        var lengths = [UInt8](repeating: 0, count: frequencies.count)
        // Used symbols by weight, then symbol (one sort of plain integers).
        var keys: [Int] = []
        keys.reserveCapacity(frequencies.count)
        for (symbol, frequency) in frequencies.enumerated() where frequency > 0 { keys.append(frequency << 9 | symbol) }
        keys.sort()
        let used = keys.map { $0 & 511 }
        if used.isEmpty { return lengths }
        if used.count == 1 {
            lengths[used[0]] = 1
            return lengths
        }
        // Huffman by two queues over the sorted leaves: nodes 0..<n are leaves, n... internal.
        let n = used.count
        var weight = [Int](repeating: 0, count: 2 * n - 1)
        for i in 0..<n { weight[i] = keys[i] >> 9 }
        var parent = [Int](repeating: 0, count: 2 * n - 1)
        var leaf = 0
        var node = n
        for made in n..<(2 * n - 1) {
            for _ in 0..<2 {
                let pick: Int
                if leaf < n && (node >= made || weight[leaf] <= weight[node]) {
                    pick = leaf
                    leaf += 1
                } else {
                    pick = node
                    node += 1
                }
                parent[pick] = made
                weight[made] += weight[pick]
            }
        }
        var depth = [Int](repeating: 0, count: 2 * n - 1)
        var longest = 0
        for i in stride(from: 2 * n - 3, through: 0, by: -1) {
            depth[i] = depth[parent[i]] + 1
            if i < n { longest = max(longest, depth[i]) }
        }
        if longest <= limit {
            for i in 0..<n { lengths[used[i]] = UInt8(depth[i]) }
            return lengths
        }
        // Package-merge: each item is a weight and how many times it holds each leaf.
        let leaves = (0..<n).map { i -> (Int, [Int16]) in
            var c = [Int16](repeating: 0, count: n)
            c[i] = 1
            return (weight[i], c)
        }
        var list = leaves
        for _ in 1..<limit {
            var packages: [(Int, [Int16])] = []
            var i = 0
            while i + 1 < list.count {
                var c = list[i].1
                for s in 0..<n { c[s] += list[i + 1].1[s] }
                packages.append((list[i].0 + list[i + 1].0, c))
                i += 2
            }
            // Merge two sorted lists, leaves first on equal weights.
            var merged: [(Int, [Int16])] = []
            merged.reserveCapacity(leaves.count + packages.count)
            var (p, q) = (0, 0)
            while p < leaves.count || q < packages.count {
                if q >= packages.count || (p < leaves.count && leaves[p].0 <= packages[q].0) {
                    merged.append(leaves[p])
                    p += 1
                } else {
                    merged.append(packages[q])
                    q += 1
                }
            }
            list = merged
        }
        var total = [Int](repeating: 0, count: n)
        for item in list.prefix(2 * n - 2) {
            for s in 0..<n { total[s] += Int(item.1[s]) }
        }
        for i in 0..<n { lengths[used[i]] = UInt8(total[i]) }
        return lengths
    }

    /// Canonical codes for `lengths` (§3.2.2), bit-reversed so they can be written least
    /// significant bit first.
    static func canonicalCodes(_ lengths: [UInt8]) -> [UInt16] {
        var counts = [Int](repeating: 0, count: 16)
        for length in lengths { counts[Int(length)] += 1 }
        counts[0] = 0
        var next = [Int](repeating: 0, count: 16)
        var code = 0
        for bits in 1...15 {
            code = (code + counts[bits - 1]) << 1
            next[bits] = code
        }
        var codes = [UInt16](repeating: 0, count: lengths.count)
        for (symbol, length) in lengths.enumerated() where length > 0 {
            var value = next[Int(length)]
            next[Int(length)] += 1
            var reversed = 0
            for _ in 0..<Int(length) {
                reversed = reversed << 1 | value & 1
                value >>= 1
            }
            codes[symbol] = UInt16(reversed)
        }
        return codes
    }

    /// Writes one block of `tokens` as `kind` (§3.2.3–3.2.7).
    /// `stored` is the block's bytes, needed for a stored block only.
    static func write(
        _ tokens: ArraySlice<Token>, kind: BlockKind, final: Bool, stored bytes: ArraySlice<UInt8>,
        to writer: inout BitWriter
    ) {
        if kind == .stored {
            var start = bytes.startIndex
            repeat {
                let end = min(bytes.endIndex, start + 65535)
                writer.put(final && end == bytes.endIndex ? 1 : 0, 1)
                writer.put(0, 2)
                writer.alignToByte()
                writer.put(end - start, 16)
                writer.put(0xFFFF ^ (end - start), 16)
                for byte in bytes[start..<end] { writer.put(Int(byte), 8) }
                start = end
            } while start < bytes.endIndex
            return
        }
        writer.put(final ? 1 : 0, 1)
        let literal: [UInt8]
        let distance: [UInt8]
        if kind == .fixed {
            writer.put(1, 2)
            literal = fixedLiteralLengths
            distance = [UInt8](repeating: 5, count: 30)
        } else {
            writer.put(2, 2)
            var histogram = Histogram(repeating: 0, count: 316)
            var bytes = 0
            for token in tokens { count(token, into: &histogram, bytes: &bytes) }
            histogram[256] += 1
            let code = DynamicCode(histogram)
            literal = code.literalLengths
            distance = code.distanceLengths
            let header = code.header
            writer.put(header.literalCount - 257, 5)
            writer.put(header.distanceCount - 1, 5)
            writer.put(header.codeLengthCount - 4, 4)
            for i in 0..<header.codeLengthCount { writer.put(Int(header.codeLengths[codeLengthOrder[i]]), 3) }
            let codes = canonicalCodes(header.codeLengths)
            for run in header.runs {
                writer.put(Int(codes[Int(run.0)]), Int(header.codeLengths[Int(run.0)]))
                writer.put(Int(run.1), Int(run.2))
            }
        }
        let literalCodes = canonicalCodes(literal)
        let distanceCodes = canonicalCodes(distance)
        for token in tokens {
            if token < 256 {
                writer.put(Int(literalCodes[Int(token)]), Int(literal[Int(token)]))
                continue
            }
            let length = Int(token >> 16)
            let dist = Int(token & 0xFFFF)
            let lcode = Int(lengthSymbol[length])
            let dcode = Int(distanceSymbol[dist])
            writer.put(Int(literalCodes[257 + lcode]), Int(literal[257 + lcode]))
            writer.put(length - lengthBase[lcode], lengthExtra[lcode])
            writer.put(Int(distanceCodes[dcode]), Int(distance[dcode]))
            writer.put(dist - distanceBase[dcode], distanceExtra[dcode])
        }
        writer.put(Int(literalCodes[256]), Int(literal[256]))
    }

    /// Writes bits least significant first (§3.1.1).
    struct BitWriter {
        var bytes: [UInt8] = []
        var buffer: UInt64 = 0
        var count = 0

        /// Appends the low `n` bits (0…16) of `value`.
        mutating func put(_ value: Int, _ n: Int) {
            buffer |= (UInt64(value) & ((1 << UInt64(n)) - 1)) << UInt64(count)
            count += n
            while count >= 8 {
                bytes.append(UInt8(truncatingIfNeeded: buffer))
                buffer >>= 8
                count -= 8
            }
        }

        /// Pads with zero bits to the next byte boundary.
        mutating func alignToByte() {
            if count > 0 { put(0, 8 - count) }
        }

        /// The bytes written, the last one zero-padded.
        mutating func finish() -> [UInt8] {
            alignToByte()
            return bytes
        }
    }
}
