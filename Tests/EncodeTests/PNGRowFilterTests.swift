// SPDX-License-Identifier: GPL-3.0-or-later

import Testing

@testable import Encode

/// The test's own reconstruction of filtered scanlines (PNG specification §9.2, the decoder's
/// side: `Recon(x) = Filt(x) + predictor`, modulo 256), sharing no code with the encoder.
private func unfilter(_ data: [UInt8], rowBytes: Int, bpp: Int) -> [UInt8]? {
    let stride = rowBytes + 1
    guard data.count % stride == 0 else { return nil }
    var out = data
    for row in 0..<(data.count / stride) {
        let start = row * stride + 1
        let type = data[row * stride]
        for i in 0..<rowBytes {
            let a = i >= bpp ? Int(out[start + i - bpp]) : 0
            let b = row > 0 ? Int(out[start - stride + i]) : 0
            let c = i >= bpp && row > 0 ? Int(out[start - stride + i - bpp]) : 0
            let predictor: Int
            switch type {
            case 0: predictor = 0
            case 1: predictor = a
            case 2: predictor = b
            case 3: predictor = (a + b) / 2
            case 4:
                // §9.4 as written there: nearest of a, b, c to a + b − c, ties a, then b.
                let p = a + b - c
                let (pa, pb, pc) = (abs(p - a), abs(p - b), abs(p - c))
                predictor = pa <= pb && pa <= pc ? a : pb <= pc ? b : c
            default: return nil
            }
            out[start + i] = UInt8((Int(data[start + i]) + predictor) & 0xFF)
        }
        out[row * stride] = 0
    }
    return out
}

/// Scanlines with filter type 0 on every row: `rows` rows of `rowBytes` bytes from `byte`.
private func scanlines(rows: Int, rowBytes: Int, _ byte: (Int, Int) -> UInt8) -> [UInt8] {
    var out: [UInt8] = []
    for y in 0..<rows {
        out.append(0)
        for x in 0..<rowBytes { out.append(byte(x, y)) }
    }
    return out
}

@Suite("PNG row filters")
struct PNGRowFilterTests {
    /// PaethPredictor on hand-worked cases of §9.4 (p = a + b − c, the nearest wins, ties to a, then b).
    @Test func paethPredictor() {
        #expect(PNGRowFilter.paeth(10, 20, 15) == 15)  // p 15: c exact
        #expect(PNGRowFilter.paeth(10, 20, 5) == 20)  // p 25: b nearer (5) than a (15), c (20)
        #expect(PNGRowFilter.paeth(3, 3, 3) == 3)
        #expect(PNGRowFilter.paeth(0, 255, 0) == 255)  // p 255 = b
        #expect(PNGRowFilter.paeth(200, 100, 150) == 150)  // p 150 = c
        #expect(PNGRowFilter.paeth(10, 4, 6) == 10)  // p 8: a and c tie at 2, a wins
        #expect(PNGRowFilter.paeth(4, 10, 6) == 10)  // p 8: b and c tie at 2, b wins
    }

    /// Whatever filter each row gets, the decoder's reconstruction gives the rows back, for
    /// one-byte and four-byte pixels, both heuristics, and rows whose bytes wrap around.
    @Test(arguments: [1, 4], APNGRowFilterHeuristic.allCases)
    func reconstructionGivesTheRowsBack(bpp: Int, heuristic: APNGRowFilterHeuristic) {
        var seed: UInt32 = 12345
        func next() -> UInt8 {
            seed = seed &* 1_103_515_245 &+ 12345
            return UInt8(truncatingIfNeeded: seed >> 16)
        }
        let samples: [[UInt8]] = [
            scanlines(rows: 9, rowBytes: 7 * bpp) { _, _ in next() },
            scanlines(rows: 6, rowBytes: 5 * bpp) { x, y in UInt8((x * 37 + y * 11) % 256) },
            scanlines(rows: 5, rowBytes: 4 * bpp) { x, _ in x % 2 == 0 ? 250 : 3 },
            scanlines(rows: 1, rowBytes: bpp) { _, _ in 200 },
        ]
        for (k, (raw, rowBytes)) in zip(samples, [7 * bpp, 5 * bpp, 4 * bpp, bpp]).enumerated() {
            let filtered = PNGRowFilter.filter(raw, rowBytes: rowBytes, bpp: bpp, heuristic: heuristic)
            #expect(filtered.count == raw.count)
            #expect(unfilter(filtered, rowBytes: rowBytes, bpp: bpp) == raw, "sample \(k)")
        }
    }

    /// Minimum sum of |signed byte|: a ramp 0, 1, 2, … under a zero prior row is Sub (all 1s),
    /// the same ramp again below it is Up (all 0s), and a row of 128s has sum 128 per byte
    /// under None but 0 under Sub after the first byte.
    @Test func minimumSumPicksTheExpectedTypes() {
        let raw = scanlines(rows: 3, rowBytes: 16) { x, y in y < 2 ? UInt8(x) : 128 }
        let filtered = PNGRowFilter.filter(raw, rowBytes: 16, bpp: 1, heuristic: .minimumSum)
        #expect(filtered[0] == 1)
        #expect(Array(filtered[1..<17]) == [0] + [UInt8](repeating: 1, count: 15))
        #expect(filtered[17] == 2)
        #expect(Array(filtered[18..<34]) == [UInt8](repeating: 0, count: 16))
        #expect(filtered[34] == 1)
        #expect(unfilter(filtered, rowBytes: 16, bpp: 1) == raw)
    }

    /// The filter's output is, row by row, the type with the least sum of |signed byte| (ties
    /// to the lower type) as the test computes it from §9.2 by itself: on noise, ramps, runs
    /// and a sheet-like stretch of transparent pixels, for 1-, 3- and 4-byte pixels.
    @Test(arguments: [1, 3, 4])
    func minimumSumMatchesTheSpecificationByHand(bpp: Int) {
        var seed: UInt32 = 777
        func next() -> UInt8 {
            seed = seed &* 1_103_515_245 &+ 12345
            return UInt8(truncatingIfNeeded: seed >> 16)
        }
        let rowBytes = 23 * bpp
        let raw = scanlines(rows: 40, rowBytes: rowBytes) { x, y in
            switch y % 4 {
            case 0: next()
            case 1: UInt8((x * 7 + y) % 256)
            case 2: x < rowBytes / 2 ? 0 : 255
            default: x % (2 * bpp) < bpp ? next() : 128
            }
        }
        let stride = rowBytes + 1
        var expected: [UInt8] = []
        for row in 0..<40 {
            let line = Array(raw[(row * stride + 1)..<((row + 1) * stride)])
            let prior =
                row == 0
                ? [UInt8](repeating: 0, count: rowBytes) : Array(raw[((row - 1) * stride + 1)..<(row * stride)])
            var best: (type: Int, sum: Int, bytes: [UInt8]) = (-1, Int.max, [])
            for type in 0..<5 {
                let bytes = (0..<rowBytes).map { i -> UInt8 in
                    let a = i >= bpp ? Int(line[i - bpp]) : 0
                    let b = Int(prior[i])
                    let c = i >= bpp ? Int(prior[i - bpp]) : 0
                    let p = a + b - c
                    let (pa, pb, pc) = (abs(p - a), abs(p - b), abs(p - c))
                    let predictor = [0, a, b, (a + b) / 2, pa <= pb && pa <= pc ? a : pb <= pc ? b : c][type]
                    return UInt8((Int(line[i]) - predictor) & 0xFF)
                }
                let sum = bytes.reduce(0) { $0 + ($1 < 128 ? Int($1) : 256 - Int($1)) }
                if sum < best.sum { best = (type, sum, bytes) }
            }
            expected += [UInt8(best.type)] + best.bytes
        }
        #expect(PNGRowFilter.filter(raw, rowBytes: rowBytes, bpp: bpp, heuristic: .minimumSum) == expected)
    }
}
