// SPDX-License-Identifier: GPL-3.0-or-later

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An optimal LZ77 parse of the project's own for one PNG frame's deflate stream (docs/encoding.md,
/// APNG, round 20): it takes another compressor's stream, finds for every position of the bytes
/// it holds the matches the window allows, and chooses the sequence of literals and
/// length/distance pairs (RFC 1951 §3.2.5) that costs the fewest bits under a cost model taken
/// from the blocks of the previous parse, by dynamic programming over positions (the
/// shortest-path formulation of optimal parsing: every literal and every length of every match
/// is an edge). The tokens then go to `DeflateRecoder.encode` for block boundaries and Huffman
/// codes, and the next pass costs symbols by the blocks that produced, so each pass is priced
/// by the codes the previous one earned (the iteration Zopfli makes; written here without its
/// code).
///
/// - The **first model** is the input stream's own parse (libdeflate 12's, re-split by the
///   recoder), so pass one already starts where the best other compressor stopped.
/// - **Matches**: binary trees of earlier positions per 3-byte hash, ordered by the bytes that
///   follow each (the match finder of LZMA's BT modes and libdeflate's near-optimal levels, as
///   their documentation describes it), searched at most `searchDepth` nodes deep; every match
///   longer than all found before it is kept, so for every length a near distance reaching it
///   is known (a longer reach at a farther distance is never cheaper in the same distance code,
///   and rarely in another). A match of `niceLength` (258) ends the search, and the positions it
///   covers are not searched themselves (they still enter the trees): long runs cost one search
///   per 258 bytes. Depth 256: blink-dots' APNG 62 954 → 62 592 bytes with two passes,
///   62 901 at depth 128, 62 954 at 64 (round 20).
/// - **Runs**: a position where 3 or more equal bytes start goes into the tree of that byte and
///   its run length (at most 258) instead of its triple's (the idea of Zopfli's second hash for
///   runs, as its documentation describes it), and inside a run the match at distance 1, of
///   exactly the run's length, is taken as known. The triple's tree would hold every position of
///   every run of that byte in a chain, each inserted before the one after it, so each search
///   there walked the full depth; in a run's own tree the positions differ in what follows the
///   run. Round 21, default effort: blink-dots' whole encode 1.10 → 0.75 s of CPU (the squeeze
///   alone was 0.47 s), its file 62 637 → 62 663 bytes; at `--effort max` every preset within
///   3 bytes. Tried and not kept: at a run start, the nearer match a longer earlier run gives
///   (the triple's tree would have found it; 0 to −4 bytes), and keeping the nearest match
///   beside the 15 longest under the cap (−27 to +18 bytes a preset).
/// - **Costs** per block of the previous parse, in bits as floats: a symbol used `c` of `t`
///   times in its alphabet costs log2(t / c) (its ideal code length), one unused costs
///   log2(t) + 1; extra bits exactly.
///
/// The result is kept only when shorter than both the stream and its recoded form, so no
/// frame grows.
enum DeflateSqueeze {
    typealias Token = DeflateRecoder.Token

    /// Most tree nodes visited per position (256, measured: docs/encoding.md, round 20).
    static let searchDepth = 256
    /// A match this long ends a position's search and skips the positions it covers (258, the
    /// longest deflate allows).
    static let niceLength = 258
    /// Most matches kept per position (the longest ones), so the table stays within
    /// `4 · maximumMatches` bytes per byte whatever the data (crafted frames could otherwise
    /// give one match for each length 3…258 at each position).
    static let maximumMatches = 16
    /// The most parse passes at `--effort max`; passes end early once one is no shorter than
    /// the one before.
    static let maxEffortPasses = 4
    /// Passes at the default effort (measured: docs/encoding.md, APNG, round 21).
    static let defaultEffortPasses = 1

    /// The passes `effort` runs on each frame of the APNG kept.
    static func passes(for effort: APNGEffort) -> Int {
        effort == .max ? maxEffortPasses : defaultEffortPasses
    }
    /// Streams holding more bytes than this (4 MiB + 64 KiB: a 1024 × 1024 RGBA frame's
    /// 4 195 328 bytes of scanlines fit) are only recoded: the parse holds 20–35 bytes per byte
    /// on the presets' frames and at most about 85 (the match table, costs and back links, the
    /// tokens), so one frame being squeezed stays under about 360 MB.
    static let maximumBytes = (4 << 20) + (1 << 16)

    /// A zlib stream holding the same bytes as `stream`, with its header and Adler-32, when a
    /// squeezed parse (or, failing that, the recoder's blocks for the stream's own parse) is
    /// shorter; nil when neither is, when `stream` uses a preset dictionary or is not valid
    /// deflate data. `passes` ≥ 0 (0: only the recoder's blocks, as `DeflateRecoder.recode`),
    /// `depth` ≥ 1 nodes per search. Streams over `maximumBytes` are only recoded.
    static func squeeze(zlib stream: [UInt8], passes: Int = maxEffortPasses, depth: Int = searchDepth) -> [UInt8]? {
        guard stream.count >= 7, stream[1] & 0x20 == 0 else { return nil }
        guard let parsed = DeflateRecoder.tokens(deflate: stream, from: 2, end: stream.count - 4) else { return nil }
        let recoded = DeflateRecoder.encodeWithBlocks(parsed.tokens)
        var best = recoded.bytes
        if passes > 0 && parsed.size > 0 && parsed.size <= maximumBytes {
            let data = expand(parsed.tokens, size: parsed.size)
            let matches = MatchTable(data, depth: depth)
            var current = (tokens: parsed.tokens, blocks: recoded.blocks)
            var previous = best.count
            for _ in 0..<passes {
                let model = CostModel(current.tokens, blocks: current.blocks)
                let tokens = parse(data, matches, model)
                let (body, blocks) = DeflateRecoder.encodeWithBlocks(tokens)
                current = (tokens, blocks)
                if body.count < best.count { best = body }
                if body.count >= previous { break }
                previous = body.count
            }
        }
        return DeflateRecoder.rewrapped(stream, body: best)
    }

    /// The `size` bytes `tokens` expand to (the tokens come from a valid stream: every
    /// distance reaches back into bytes already written).
    static func expand(_ tokens: [Token], size: Int) -> [UInt8] {
        var data = [UInt8](repeating: 0, count: size)
        var at = 0
        data.withUnsafeMutableBufferPointer { out in
            for token in tokens {
                if token < 256 {
                    out[at] = UInt8(token)
                    at += 1
                } else {
                    let length = Int(token >> 16)
                    let distance = Int(token & 0xFFFF)
                    for k in 0..<length { out[at + k] = out[at + k - distance] }
                    at += length
                }
            }
        }
        return data
    }

    // MARK: - Matches

    /// For each position, the matches that are longer than every nearer one: `lengths[k]`
    /// (3…258) at `distances[k]` (1…32 768) for k in `starts[i]..<starts[i + 1]`, lengths
    /// increasing. A position covered by a match of `niceLength` found before it has none.
    struct MatchTable {
        var starts: [Int32]
        var lengths: [UInt16]
        var distances: [UInt16]

        init(_ data: [UInt8], depth searchDepth: Int) {
            let n = data.count
            starts = [Int32](repeating: 0, count: n + 1)
            lengths = []
            distances = []
            lengths.reserveCapacity(n)
            distances.reserveCapacity(n)
            // Tables no larger than the data needs (small frames are common): the window and
            // the hash at most 32 768 and 65 536 entries, powers of two.
            var window = 256
            while window < n && window < 32768 { window *= 2 }
            var hashBits = 8
            while (1 << hashBits) < n && hashBits < 16 { hashBits += 1 }
            var head = [Int32](repeating: -1, count: 1 << hashBits)
            // Binary trees of earlier positions per hash, ordered by the bytes that follow
            // them: child 2p (smaller) and 2p + 1 (larger) of the node at p mod window.
            var children = [Int32](repeating: -1, count: 2 * window)
            let nice = DeflateSqueeze.niceLength
            var skipUntil = 0
            // How many equal bytes start at each position (at most 258).
            let runs = DeflateSqueeze.runLengths(data)
            data.withUnsafeBufferPointer { bytes in
                children.withUnsafeMutableBufferPointer { child in
                    @inline(__always) func hash(_ i: Int) -> Int {
                        let key = UInt32(bytes[i]) | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2]) << 16
                        return Int((key &* 0x9E37_79B1) >> UInt32(32 - hashBits))
                    }
                    // A position starting a run of 3 or more equal bytes goes into the tree of
                    // its byte and run length (hashed like any key), not the byte triple's.
                    @inline(__always) func runHash(_ byte: UInt8, _ run: Int) -> Int {
                        let key = UInt32(byte) | UInt32(run) << 8 | 0x0100_0000
                        return Int((key &* 0x9E37_79B1) >> UInt32(32 - hashBits))
                    }
                    for i in 0..<n {
                        starts[i] = Int32(lengths.count)
                        guard i + 3 <= n else { continue }
                        let record = i >= skipUntil
                        let limit = min(258, n - i)
                        let run = Int(runs[i])
                        let h = run >= 3 ? runHash(bytes[i], run) : hash(i)
                        var best = 2
                        if run >= 3 && i > 0 && bytes[i - 1] == bytes[i] {
                            // Inside a run the byte before matches the run's length exactly.
                            best = min(run, limit)
                            if record {
                                lengths.append(UInt16(best))
                                distances.append(1)
                            }
                        }
                        var node = Int(head[h])
                        head[h] = Int32(i)
                        // Where the next smaller / larger node found is linked in.
                        var pendingSmaller = 2 * (i & (window - 1))
                        var pendingLarger = pendingSmaller + 1
                        var smallerLength = 0
                        var largerLength = 0
                        var depth = searchDepth
                        while true {
                            if node < 0 || i - node >= window || depth == 0 {
                                child[pendingSmaller] = -1
                                child[pendingLarger] = -1
                                break
                            }
                            depth -= 1
                            let length = DeflateSqueeze.common(
                                bytes, node, i, from: min(smallerLength, largerLength), limit: limit)
                            let slot = 2 * (node & (window - 1))
                            if length > best {
                                best = length
                                if record {
                                    lengths.append(UInt16(length))
                                    distances.append(UInt16(i - node))
                                }
                            }
                            if length >= limit {
                                child[pendingSmaller] = child[slot]
                                child[pendingLarger] = child[slot + 1]
                                break
                            }
                            if bytes[node + length] < bytes[i + length] {
                                child[pendingSmaller] = Int32(node)
                                pendingSmaller = slot + 1
                                smallerLength = length
                                node = Int(child[slot + 1])
                            } else {
                                child[pendingLarger] = Int32(node)
                                pendingLarger = slot
                                largerLength = length
                                node = Int(child[slot])
                            }
                        }
                        if record && best >= nice { skipUntil = i + best }
                        // At most `maximumMatches` per position, the longest: the first one kept
                        // also stands for every shorter length (a match's prefix matches too).
                        let excess = lengths.count - Int(starts[i]) - DeflateSqueeze.maximumMatches
                        if excess > 0 {
                            lengths.removeSubrange(Int(starts[i])..<(Int(starts[i]) + excess))
                            distances.removeSubrange(Int(starts[i])..<(Int(starts[i]) + excess))
                        }
                    }
                }
            }
            starts[n] = Int32(lengths.count)
        }
    }

    /// For each position of `data`, how many bytes from it on equal it (1…258).
    static func runLengths(_ data: [UInt8]) -> [UInt16] {
        var runs = [UInt16](repeating: 1, count: data.count)
        guard data.count > 1 else { return runs }
        for i in stride(from: data.count - 2, through: 0, by: -1) where data[i] == data[i + 1] {
            runs[i] = min(258, runs[i + 1] + 1)
        }
        return runs
    }

    /// The length of the common prefix of `bytes[a...]` and `bytes[b...]`, at least `from`
    /// (known equal), at most `limit` (both ranges hold `limit` bytes), compared eight bytes
    /// at a time.
    @inline(__always)
    static func common(_ bytes: UnsafeBufferPointer<UInt8>, _ a: Int, _ b: Int, from: Int, limit: Int) -> Int {
        var length = from
        guard let base = bytes.baseAddress else { return length }
        let raw = UnsafeRawPointer(base)
        while length + 8 <= limit {
            let x =
                UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: a + length, as: UInt64.self))
                ^ UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: b + length, as: UInt64.self))
            if x != 0 { return length + x.trailingZeroBitCount >> 3 }
            length += 8
        }
        while length < limit && bytes[a + length] == bytes[b + length] { length += 1 }
        return length
    }

    // MARK: - Costs

    /// Bit costs per block of a parse: `literal[b][s]` for symbols 0…285 of the
    /// literal/length alphabet (a length symbol's extra bits not included), `distance[b][s]`
    /// for distance codes 0…29, for block `b` covering bytes from `blockStarts[b]`.
    struct CostModel {
        var blockStarts: [Int]
        var literal: [[Float]]
        var distance: [[Float]]

        /// The costs of `tokens` split into `blocks` (token ranges, in order, as written).
        init(_ tokens: [Token], blocks: [Range<Int>]) {
            blockStarts = []
            literal = []
            distance = []
            var byte = 0
            for range in blocks {
                var histogram = DeflateRecoder.Histogram(repeating: 0, count: 316)
                var bytes = 0
                for token in tokens[range] { DeflateRecoder.count(token, into: &histogram, bytes: &bytes) }
                histogram[256] += 1
                blockStarts.append(byte)
                literal.append(CostModel.bits(histogram[0..<286]))
                distance.append(CostModel.bits(histogram[286..<316]))
                byte += bytes
            }
            if blockStarts.isEmpty {
                blockStarts = [0]
                literal = [[Float](repeating: 8, count: 286)]
                distance = [[Float](repeating: 5, count: 30)]
            }
        }

        /// log2(total / count) for each used symbol, log2(total) + 1 for an unused one.
        static func bits(_ counts: ArraySlice<Int>) -> [Float] {
            let total = max(1, counts.reduce(0, +))
            let logTotal = Float(log2(Double(total)))
            return counts.map { $0 > 0 ? logTotal - Float(log2(Double($0))) : logTotal + 1 }
        }
    }

    // MARK: - Parse

    /// The cheapest parse of `data` under `model`: a forward pass over positions keeping the
    /// least cost of reaching each one (a literal, or any length 3…reach of a match at the
    /// nearest distance reaching that length), then the path traced back.
    static func parse(_ data: [UInt8], _ matches: MatchTable, _ model: CostModel) -> [Token] {
        let n = data.count
        var cost = [Float](repeating: .infinity, count: n + 1)
        var edge = [UInt32](repeating: 0, count: n + 1)  // length << 16 | distance, or the literal (length 0)
        cost[0] = 0
        var block = 0
        var literal = model.literal[0]
        var lengthCost = CostModel.lengthCosts(literal)
        var distanceCost = CostModel.distanceCosts(model.distance[0])
        let distanceSymbol = DeflateRecoder.distanceSymbol
        cost.withUnsafeMutableBufferPointer { cost in
            edge.withUnsafeMutableBufferPointer { edge in
                for i in 0..<n {
                    while block + 1 < model.blockStarts.count && model.blockStarts[block + 1] <= i {
                        block += 1
                        literal = model.literal[block]
                        lengthCost = CostModel.lengthCosts(literal)
                        distanceCost = CostModel.distanceCosts(model.distance[block])
                    }
                    let here = cost[i]
                    let viaLiteral = here + literal[Int(data[i])]
                    if viaLiteral < cost[i + 1] {
                        cost[i + 1] = viaLiteral
                        edge[i + 1] = UInt32(data[i])
                    }
                    var shorter = 2
                    for k in Int(matches.starts[i])..<Int(matches.starts[i + 1]) {
                        let length = Int(matches.lengths[k])
                        let distance = Int(matches.distances[k])
                        let base = here + distanceCost[Int(distanceSymbol[distance])]
                        for l in (shorter + 1)...length {
                            let c = base + lengthCost[l]
                            if c < cost[i + l] {
                                cost[i + l] = c
                                edge[i + l] = UInt32(l) << 16 | UInt32(distance)
                            }
                        }
                        shorter = length
                    }
                }
            }
        }
        var tokens: [Token] = []
        var at = n
        while at > 0 {
            let e = edge[at]
            tokens.append(e)
            at -= e < 256 ? 1 : Int(e >> 16)
        }
        tokens.reverse()
        return tokens
    }
}

extension DeflateSqueeze.CostModel {
    /// Cost of each match length 0…258 (lengths below 3 unused): its symbol's bits plus its
    /// extra bits (RFC 1951 §3.2.5).
    static func lengthCosts(_ literal: [Float]) -> [Float] {
        var costs = [Float](repeating: 0, count: 259)
        for length in 3...258 {
            let code = Int(DeflateRecoder.lengthSymbol[length])
            costs[length] = literal[257 + code] + Float(DeflateRecoder.lengthExtra[code])
        }
        return costs
    }

    /// Cost of each distance code 0…29: its bits plus its extra bits.
    static func distanceCosts(_ distance: [Float]) -> [Float] {
        (0..<30).map { distance[$0] + Float(DeflateRecoder.distanceExtra[$0]) }
    }
}
