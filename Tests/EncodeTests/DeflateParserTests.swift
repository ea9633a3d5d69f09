// SPDX-License-Identifier: GPL-3.0-or-later

import CDeflate
import Testing

@testable import Encode

/// zlib's own deflate at level 9 (default strategy), the compressor the sheets used before.
private func zlibLevel9(_ input: [UInt8]) -> [UInt8] {
    var length = compressBound(UInt(input.count))
    var output = [UInt8](repeating: 0, count: Int(length))
    let result = input.withUnsafeBufferPointer { source in
        output.withUnsafeMutableBufferPointer { out in
            compress2(out.baseAddress, &length, source.baseAddress, UInt(source.count), 9)
        }
    }
    precondition(result == Z_OK)
    return Array(output[0..<Int(length)])
}

/// Palette-sheet-like scanlines: `rows` rows of `cells` cells, each cell `gap` transparent
/// (index 0) pixels then a sprite of `sprite` indices that changes a little from cell to
/// cell and from row to row, like the frames of a loader, and one filter byte 0 per row.
private func sheetRows(rows: Int, cells: Int, gap: Int, sprite: Int) -> [UInt8] {
    var out: [UInt8] = []
    for y in 0..<rows {
        out.append(0)
        for c in 0..<cells {
            out += [UInt8](repeating: 0, count: gap)
            for x in 0..<sprite {
                let inside = (x + y / 3 + c) % 11 < 7
                out.append(inside ? UInt8(1 + (x * 7 + c + y / 5) % 40) : 0)
            }
        }
    }
    return out
}

@Suite("Deflate parser")
struct DeflateParserTests {
    /// Every input gives a zlib stream that zlib's own `uncompress` inflates to it, and tokens
    /// that are legal deflate symbols (lengths 3…258, distances 1…32 768 reaching no further
    /// back than the data) and expand, by the test's own expander, to the input.
    @Test(arguments: [
        "empty", "one byte", "two equal bytes", "runs of every length", "random", "random 70 000",
        "low entropy", "disc rows", "long zero run", "sheet rows",
    ])
    func streamsInflateToTheInput(sample: String) throws {
        var random = Sequence64(state: 41)
        let input: [UInt8]
        switch sample {
        case "empty": input = []
        case "one byte": input = [0x5A]
        case "two equal bytes": input = [7, 7]
        // Runs of 1…600 bytes of one value, each ended by another value.
        case "runs of every length":
            var runs: [UInt8] = []
            for length in 1...600 {
                runs += [UInt8](repeating: UInt8(length % 3), count: length)
                runs.append(UInt8(3 + length % 250))
            }
            input = runs
        case "random": input = (0..<5000).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        case "random 70 000": input = (0..<70_000).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        case "low entropy": input = (0..<40_000).map { _ in UInt8(random.next() % 5) }
        case "disc rows": input = (0..<6).flatMap { discRows(side: 64, phase: $0) }
        case "long zero run": input = [9, 8] + [UInt8](repeating: 0, count: 200_000) + [7, 0, 0, 0]
        default: input = sheetRows(rows: 120, cells: 6, gap: 90, sprite: 40)
        }
        let stream = DeflateParser.zlib(input)
        #expect(zlibInflate(stream, size: input.count) == input, "\(sample)")
        let tokens = DeflateParser.tokens(input)
        var position = 0
        for token in tokens {
            if token < 256 {
                position += 1
                continue
            }
            let length = Int(token >> 16)
            let distance = Int(token & 0xFFFF)
            #expect(
                (3...258).contains(length) && (1...min(32768, position)).contains(distance), "\(sample) at \(position)")
            position += length
        }
        #expect(expanded(tokens) == input)
    }

    /// Handing the input over in pieces (as `SheetPNGEncoder` does) gives a stream that inflates
    /// to the same bytes, and matches reach back across the pieces: 400 copies of a 333-byte
    /// random row (133 200 bytes) compress to about 1 kB whether they come whole or in pieces,
    /// each piece boundary costing at most two bytes more (a match cannot run past a piece's end, so
    /// it ends early and its tail may become literals).
    @Test func piecesMatchBackAcrossTheirBoundaries() throws {
        var random = Sequence64(state: 7)
        let row = (0..<333).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        let input = (0..<400).flatMap { _ in row }
        let whole = DeflateParser.zlib(input)
        // 333 literals of random bytes (about 333 bytes) and two matches per later row.
        #expect(whole.count < 1100, "whole: \(whole.count) bytes")
        for size in [100, 997, 1000, 40_000] {
            var offset = 0
            let pieces = DeflateParser.zlib {
                guard offset < input.count else { return nil }
                let end = min(input.count, offset + size)
                defer { offset = end }
                return Array(input[offset..<end])
            }
            #expect(zlibInflate(pieces, size: input.count) == input, "pieces of \(size)")
            let boundaries = input.count / size
            #expect(pieces.count <= whole.count + 2 * boundaries + 40, "pieces of \(size): \(pieces.count) bytes")
        }
    }

    /// Tokens written as blocks chunk by chunk (here every 1 000 tokens instead of every 2²⁰)
    /// still make one stream zlib inflates to the input, stored blocks included: random bytes,
    /// which are stored, between runs and repeats, which are not.
    @Test func chunksOfTokensMakeOneStream() throws {
        var random = Sequence64(state: 3)
        var input: [UInt8] = []
        for k in 0..<12 {
            input += (0..<3000).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            input += [UInt8](repeating: UInt8(k), count: 5000)
            input += Array(input[(input.count - 7000)..<(input.count - 4000)])
        }
        for pieceSize in [4096, 50_000] {
            var offset = 0
            let stream = DeflateParser.zlib(flushTokens: 1000) {
                guard offset < input.count else { return nil }
                let end = min(input.count, offset + pieceSize)
                defer { offset = end }
                return Array(input[offset..<end])
            }
            #expect(zlibInflate(stream, size: input.count) == input, "pieces of \(pieceSize)")
            // The random parts cost their size; the rest next to nothing.
            #expect(stream.count < 12 * 3000 + 3000, "pieces of \(pieceSize): \(stream.count) bytes")
        }
    }

    /// A run's tail keeps its distance-1 match when an earlier run's offers only a byte more
    /// (`runExtension`): two 600-byte zero runs, each followed by 7 and then different bytes.
    /// The second run goes as 258 from the first run, 258 at distance 1, then its last 84 bytes:
    /// at distance 1 (84), not 85 at the first run's distance, which reaches one byte past.
    @Test func aRunTailKeepsDistanceOneForAOneByteLongerMatch() {
        var random = Sequence64(state: 9)
        let filler = (0..<50).map { _ in UInt8(100 + random.next() % 100) }
        let input =
            [UInt8](repeating: 0, count: 600) + [7, 9, 1, 2, 3] + filler + [UInt8](repeating: 0, count: 600)
            + [7, 8, 4, 5, 6]
        let tokens = DeflateParser.tokens(input)
        let distance = UInt32(600 + 5 + 50)
        #expect(tokens.contains(84 << 16 | 1), "\(tokens.filter { $0 >= 256 }.map { ($0 >> 16, $0 & 0xFFFF) })")
        #expect(!tokens.contains(85 << 16 | distance))
        #expect(zlibInflate(DeflateParser.zlib(input), size: input.count) == input)
    }

    /// On rows like a sheet's (long transparent runs, short sprites repeating from row to row),
    /// the stream is no longer than zlib level 9's, which the sheets used before; and a run's
    /// tail is matched together with the sprite after it one row up (distance = row length).
    @Test func sheetRowsAreNoLargerThanZlibLevel9() {
        let input = sheetRows(rows: 300, cells: 8, gap: 150, sprite: 48)
        let ours = DeflateParser.zlib(input).count
        let reference = zlibLevel9(input).count
        #expect(ours <= reference, "ours \(ours) B, zlib 9 \(reference) B")
        let stride = 1 + 8 * (150 + 48)
        let tokens = DeflateParser.tokens(input)
        let rowAbove = tokens.filter { $0 >= 256 && Int($0 & 0xFFFF) == stride && Int($0 >> 16) > 48 }
        #expect(rowAbove.count > 300, "\(rowAbove.count) matches one row up reaching past a sprite")
    }
}
