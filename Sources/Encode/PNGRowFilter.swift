// SPDX-License-Identifier: GPL-3.0-or-later

import Glibc

/// How `APNGEncoder` picks each row's PNG filter type (PNG specification §9.2) when it tries
/// filtered rows beside unfiltered ones.
public enum APNGRowFilterHeuristic: Sendable, Equatable, CaseIterable {
    /// The type whose filtered bytes have the smallest sum of |signed value|: libpng's adaptive
    /// choice (its `png_write_find_filter`) and the PNG specification's suggestion (§12.8).
    case minimumSum
    /// The type whose filtered bytes have the smallest Shannon entropy (bits per byte of the
    /// row's byte histogram).
    case entropy
}

/// PNG row filtering (PNG specification §9, filter method 0) of scanlines built with filter
/// type 0 (None) on every row, for `APNGEncoder`.
///
/// The five filter types of §9.2, with `a` the byte `bpp` to the left, `b` the byte above and
/// `c` the byte above `a` (0 outside the frame's rectangle, §9.2: the first row's "prior" row is
/// all zeros, as is everything left of the first pixel):
///
/// - 0 None: `x`; 1 Sub: `x − a`; 2 Up: `x − b`; 3 Average: `x − ⌊(a + b)/2⌋`;
///   4 Paeth: `x − PaethPredictor(a, b, c)` (§9.4), all modulo 256.
enum PNGRowFilter {
    /// `raw` (rows of `1 + rowBytes` bytes, each a 0 filter byte and the row) with every row
    /// filtered by the type `heuristic` picks for it; `bpp` is the bytes per complete pixel,
    /// at least 1 (§9.2). Ties go to the lower type.
    ///
    /// Works on one flat trial buffer through pointers (no per-row array copies or bounds
    /// checks): the sprite sheet's filter trial spent 5–6 % of a circular-progress 3× job here
    /// (docs/encoding.md, "Batch throughput"); the output is the same.
    static func filter(_ raw: [UInt8], rowBytes: Int, bpp: Int, heuristic: APNGRowFilterHeuristic) -> [UInt8] {
        let stride = rowBytes + 1
        let rows = rowBytes > 0 ? raw.count / stride : 0
        var out = [UInt8](repeating: 0, count: raw.count)
        guard rows > 0 else { return out }
        var trial = [UInt8](repeating: 0, count: 5 * rowBytes)
        let zeros = [UInt8](repeating: 0, count: rowBytes)
        var histogram = [Int](repeating: 0, count: 256)
        raw.withUnsafeBufferPointer { raw in
            zeros.withUnsafeBufferPointer { zeros in
                trial.withUnsafeMutableBufferPointer { trial in
                    out.withUnsafeMutableBufferPointer { out in
                        guard let start = raw.baseAddress, let none = zeros.baseAddress,
                            let trials = trial.baseAddress, let target = out.baseAddress
                        else { return }
                        for row in 0..<rows {
                            let line = start + row * stride + 1
                            let prior = row == 0 ? none : start + (row - 1) * stride + 1
                            var best = 0
                            var bestScore = Double.infinity
                            for type in 0..<5 {
                                let t = trials + type * rowBytes
                                apply(type, line: line, prior: prior, count: rowBytes, bpp: bpp, into: t)
                                let score: Double
                                switch heuristic {
                                case .minimumSum:
                                    var sum = 0
                                    for i in 0..<rowBytes { sum &+= Int(Int8(bitPattern: t[i]).magnitude) }
                                    score = Double(sum)
                                case .entropy:
                                    score = entropy(t, count: rowBytes, histogram: &histogram)
                                }
                                if score < bestScore {
                                    bestScore = score
                                    best = type
                                }
                            }
                            target[row * stride] = UInt8(best)
                            (target + row * stride + 1).update(from: trials + best * rowBytes, count: rowBytes)
                        }
                    }
                }
            }
        }
        return out
    }

    /// Shannon entropy, bits per byte, of the `count` bytes at `bytes` (their histogram).
    private static func entropy(_ bytes: UnsafeMutablePointer<UInt8>, count: Int, histogram: inout [Int]) -> Double {
        for k in 0..<256 { histogram[k] = 0 }
        for i in 0..<count { histogram[Int(bytes[i])] += 1 }
        var bits = 0.0
        let total = Double(count)
        for n in histogram where n > 0 {
            let p = Double(n) / total
            bits -= p * log2(p)
        }
        return bits
    }

    /// Filters one row of `count` bytes by `type` (0…4) into `out`; the first `bpp` bytes
    /// have no byte to their left (`a` = `c` = 0).
    private static func apply(
        _ type: Int, line: UnsafePointer<UInt8>, prior: UnsafePointer<UInt8>, count: Int, bpp: Int,
        into out: UnsafeMutablePointer<UInt8>
    ) {
        let edge = min(bpp, count)
        switch type {
        case 0:
            out.update(from: line, count: count)
        case 1:
            for i in 0..<edge { out[i] = line[i] }
            for i in edge..<count { out[i] = line[i] &- line[i - bpp] }
        case 2:
            for i in 0..<count { out[i] = line[i] &- prior[i] }
        case 3:
            for i in 0..<edge { out[i] = line[i] &- (prior[i] >> 1) }
            for i in edge..<count {
                out[i] = line[i] &- UInt8(truncatingIfNeeded: (UInt16(line[i - bpp]) + UInt16(prior[i])) >> 1)
            }
        default:
            for i in 0..<edge { out[i] = line[i] &- UInt8(paeth(0, Int(prior[i]), 0)) }
            for i in edge..<count {
                out[i] = line[i] &- UInt8(paeth(Int(line[i - bpp]), Int(prior[i]), Int(prior[i - bpp])))
            }
        }
    }

    /// PaethPredictor (PNG specification §9.4): whichever of `a`, `b`, `c` is nearest to
    /// `a + b − c`, ties in the order a, b, c.
    static func paeth(_ a: Int, _ b: Int, _ c: Int) -> Int {
        let p = a + b - c
        let pa = abs(p - a)
        let pb = abs(p - b)
        let pc = abs(p - c)
        if pa <= pb && pa <= pc { return a }
        return pb <= pc ? b : c
    }
}
