// SPDX-License-Identifier: GPL-3.0-or-later

import CDeflate
import Testing

@testable import Encode

@Suite("Deflate recoder")
struct DeflateRecoderTests {
    /// Each input through libdeflate 12 and zlib 9, then recoded: zlib inflates the recoded
    /// stream to the input, and it is never longer than the stream it came from.
    @Test(arguments: [
        "empty", "one byte", "runs of 258", "random", "random 70 000", "low entropy", "disc rows", "long disc",
    ])
    func recodedStreamsInflateToTheInput(sample: String) throws {
        let input = deflateSample(sample)
        for stream in [try PNGChunks.deflate(input, level: 12), try PNGChunks.zlib(input, filtered: false)] {
            #expect(zlibInflate(stream, size: input.count) == input)
            let recoded = DeflateRecoder.recode(zlib: stream)
            if let recoded {
                #expect(recoded.count < stream.count, "\(sample): recode must only return shorter streams")
                #expect(zlibInflate(recoded, size: input.count) == input, "\(sample)")
                #expect(Array(recoded.prefix(2)) == Array(stream.prefix(2)))
                #expect(Array(recoded.suffix(4)) == Array(stream.suffix(4)))
            }
            // The encoder alone (whether or not it wins) writes a stream zlib inflates.
            let parsed = try #require(DeflateRecoder.tokens(deflate: stream, from: 2, end: stream.count - 4))
            #expect(parsed.size == input.count)
            let body = DeflateRecoder.encode(parsed.tokens)
            #expect(zlibInflate(zlibWrapped(body, holding: input), size: input.count) == input)
        }
    }

    /// Tokens using all 256 literals, all 29 length codes and all 30 distance codes (RFC 1951
    /// §3.2.5) in one stream: zlib inflates it, and the recoder's inflater reads the same tokens back.
    @Test func everyLiteralLengthAndDistanceCodeRoundTrips() throws {
        // All literals, then 33 540 bytes by runs of 258 (so every distance reaches back into
        // the data), then matches of each length code's shortest and longest length at each
        // distance code's longest distance (half the distance codes for each length code).
        var tokens: [UInt32] = (0..<256).map { UInt32($0) } + Array(repeating: 258 << 16 | 1, count: 130)
        for code in 0..<29 {
            let shortest = DeflateRecoder.lengthBase[code]
            for length in [shortest, min(257, shortest + (1 << DeflateRecoder.lengthExtra[code]) - 1)] {
                for dcode in stride(from: code % 2, to: 30, by: 2) {
                    let dist = DeflateRecoder.distanceBase[dcode] + (1 << DeflateRecoder.distanceExtra[dcode]) - 1
                    tokens.append(UInt32(code == 28 ? 258 : length) << 16 | UInt32(dist))
                }
            }
        }
        let bytes = expanded(tokens)
        let body = DeflateRecoder.encode(tokens)
        let stream = zlibWrapped(body, holding: bytes)
        #expect(zlibInflate(stream, size: bytes.count) == bytes)
        let back = try #require(DeflateRecoder.tokens(deflate: stream, from: 2, end: stream.count - 4))
        #expect(back.tokens.count == tokens.count)
        #expect(back.tokens.indices.first { back.tokens[$0] != tokens[$0] } == nil, "first token that differs")
        #expect(back.size == bytes.count)
        // The histogram really covers every code.
        var histogram = [Int](repeating: 0, count: 316)
        var size = 0
        for t in tokens { DeflateRecoder.count(t, into: &histogram, bytes: &size) }
        #expect(histogram[0..<256].allSatisfy { $0 > 0 } && histogram[257..<286].allSatisfy { $0 > 0 })
        #expect(histogram[286..<316].allSatisfy { $0 > 0 })
    }

    /// One stored block of 70 000 bytes is written as two stored blocks (65 535 + 4 465 bytes,
    /// RFC 1951 §3.2.4), the last one final, and zlib inflates them.
    @Test func storedBlockLongerThan65535Bytes() throws {
        var random = Sequence64(state: 5)
        let bytes = (0..<70_000).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        let tokens = bytes.map { DeflateRecoder.Token($0) }
        var writer = DeflateRecoder.BitWriter()
        DeflateRecoder.write(tokens[...], kind: .stored, final: true, stored: bytes[...], to: &writer)
        let body = writer.finish()
        #expect(body.count == 70_000 + 2 * 5)
        #expect(Array(body[0..<5]) == [0x00, 0xFF, 0xFF, 0x00, 0x00])
        #expect(Array(body[65_540..<65_545]) == [0x01, 0x71, 0x11, 0x8E, 0xEE])
        #expect(zlibInflate(zlibWrapped(body, holding: bytes), size: bytes.count) == bytes)
    }

    /// Corrupt or truncated data and preset dictionaries are refused (nil), never a crash.
    @Test func invalidStreamsAreRefused() throws {
        let good = try PNGChunks.deflate(discRows(side: 32, phase: 1), level: 12)
        #expect(DeflateRecoder.recode(zlib: Array(good.prefix(good.count / 2))) == nil)
        #expect(DeflateRecoder.recode(zlib: [0x78, 0x01, 0xFF, 0xFF, 0xFF, 0, 0, 0, 1]) == nil)
        var dictionary = good
        dictionary[1] |= 0x20
        #expect(DeflateRecoder.recode(zlib: dictionary) == nil)
        #expect(DeflateRecoder.recode(zlib: []) == nil)
        // A stored block whose NLEN is not LEN's complement.
        #expect(DeflateRecoder.tokens(deflate: [0x01, 0x02, 0x00, 0x00, 0x00, 0xAA, 0xBB], from: 0, end: 7) == nil)
    }

    /// Huffman lengths: optimal when short enough, limited by package-merge otherwise; the
    /// Kraft sum of a limited code is exactly 1 (complete) and its cost the optimal one.
    @Test func lengthLimitedHuffmanCodes() {
        #expect(DeflateRecoder.huffmanLengths([5, 0, 1, 1, 2], limit: 15) == [1, 0, 3, 3, 2])
        #expect(DeflateRecoder.huffmanLengths([0, 9, 0], limit: 7) == [0, 1, 0])
        // Fibonacci weights: Huffman would go 19 deep; limited to 15 (and to 7).
        var fib = [1, 1]
        while fib.count < 20 { fib.append(fib[fib.count - 1] + fib[fib.count - 2]) }
        for limit in [15, 7] {
            let lengths = DeflateRecoder.huffmanLengths(fib, limit: limit)
            #expect(lengths.max() == UInt8(limit))
            let kraft = lengths.reduce(0) { $0 + (1 << (limit - Int($1))) }
            #expect(kraft == 1 << limit)
        }
        // Weights 1, 1, 2, 4, 8 in at most 3 bits: the complete codes are 3,3,3,3,1 (cost 32
        // bits) and 3,3,2,2,2 (34), so the optimum is the first; unlimited, Huffman's 4,4,3,2,1.
        #expect(DeflateRecoder.huffmanLengths([1, 1, 2, 4, 8], limit: 3) == [3, 3, 3, 3, 1])
        #expect(DeflateRecoder.huffmanLengths([1, 1, 2, 4, 8], limit: 15) == [4, 4, 3, 2, 1])
    }

    /// The header's run-length coding (RFC 1951 §3.2.7): zeros by 18 and 17, repeats by 16.
    @Test func codeLengthRuns() {
        let lengths: [UInt8] = Array(repeating: 0, count: 140) + [5, 5, 5, 5, 5, 5, 5, 5] + [0, 0, 0, 4, 0, 0]
        let runs = DeflateRecoder.Header.runLengths(lengths, use16: true, use17: true, use18: true)
        let text = runs.map { "\($0.0)/\($0.1)/\($0.2)" }
        #expect(
            text == ["18/127/7", "0/0/0", "0/0/0", "5/0/0", "16/3/2", "5/0/0", "17/0/3", "4/0/0", "0/0/0", "0/0/0"])
        let plain = DeflateRecoder.Header.runLengths(lengths, use16: false, use17: false, use18: false)
        #expect(plain.count == lengths.count)
    }
}
