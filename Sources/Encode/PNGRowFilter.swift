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
    /// at least 1 (§9.2).
    static func filter(_ raw: [UInt8], rowBytes: Int, bpp: Int, heuristic: APNGRowFilterHeuristic) -> [UInt8] {
        let stride = rowBytes + 1
        let rows = rowBytes > 0 ? raw.count / stride : 0
        var out = [UInt8](repeating: 0, count: raw.count)
        var trial = [[UInt8]](repeating: [UInt8](repeating: 0, count: rowBytes), count: 5)
        let zeros = [UInt8](repeating: 0, count: rowBytes)
        var histogram = [Int](repeating: 0, count: 256)
        raw.withUnsafeBufferPointer { raw in
            zeros.withUnsafeBufferPointer { zeros in
                guard let start = raw.baseAddress, let none = zeros.baseAddress else { return }
                for row in 0..<rows {
                    let line = start + row * stride + 1
                    let prior = row == 0 ? none : start + (row - 1) * stride + 1
                    for type in 0..<5 {
                        trial[type].withUnsafeMutableBufferPointer { t in
                            guard let into = t.baseAddress else { return }
                            apply(type, line: line, prior: prior, count: rowBytes, bpp: bpp, into: into)
                        }
                    }
                    var best = 0
                    var bestScore = Double.infinity
                    for type in 0..<5 {
                        let score: Double
                        switch heuristic {
                        case .minimumSum:
                            var sum = 0
                            for v in trial[type] { sum += v < 128 ? Int(v) : 256 - Int(v) }
                            score = Double(sum)
                        case .entropy:
                            for k in 0..<256 { histogram[k] = 0 }
                            for v in trial[type] { histogram[Int(v)] += 1 }
                            var bits = 0.0
                            let total = Double(rowBytes)
                            for n in histogram where n > 0 {
                                let p = Double(n) / total
                                bits -= p * log2(p)
                            }
                            score = bits
                        }
                        if score < bestScore {
                            bestScore = score
                            best = type
                        }
                    }
                    out[row * stride] = UInt8(best)
                    out.replaceSubrange((row * stride + 1)..<((row + 1) * stride), with: trial[best])
                }
            }
        }
        return out
    }

    /// Filters one row of `count` bytes by `type` (0…4) into `out`.
    private static func apply(
        _ type: Int, line: UnsafePointer<UInt8>, prior: UnsafePointer<UInt8>, count: Int, bpp: Int,
        into out: UnsafeMutablePointer<UInt8>
    ) {
        switch type {
        case 0:
            for i in 0..<count { out[i] = line[i] }
        case 1:
            for i in 0..<count { out[i] = line[i] &- (i >= bpp ? line[i - bpp] : 0) }
        case 2:
            for i in 0..<count { out[i] = line[i] &- prior[i] }
        case 3:
            for i in 0..<count {
                let a = i >= bpp ? Int(line[i - bpp]) : 0
                out[i] = line[i] &- UInt8((a + Int(prior[i])) >> 1)
            }
        default:
            for i in 0..<count {
                let a = i >= bpp ? Int(line[i - bpp]) : 0
                let b = Int(prior[i])
                let c = i >= bpp ? Int(prior[i - bpp]) : 0
                out[i] = line[i] &- UInt8(paeth(a, b, c))
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
