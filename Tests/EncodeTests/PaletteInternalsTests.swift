// SPDX-License-Identifier: GPL-3.0-or-later

import Testing

@testable import Encode

/// Deterministic pseudo-random numbers (64-bit LCG, Knuth's MMIX constants).
private struct LCG {
    var state: UInt64
    mutating func next() -> UInt32 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return UInt32(truncatingIfNeeded: state >> 33)
    }
}

/// Brute force over every entry, lowest position winning ties: the reference.
private func bruteForceNearest(_ color: UInt32, in palette: [UInt32]) -> Int {
    func channels(_ c: UInt32) -> (Int, Int, Int) {
        (Int(c >> 16 & 0xFF), Int(c >> 8 & 0xFF), Int(c & 0xFF))
    }
    let (r, g, b) = channels(color)
    var best = 0
    var bestDistance = Int.max
    for (k, entry) in palette.enumerated() {
        let (er, eg, eb) = channels(entry)
        let d = (er - r) * (er - r) + (eg - g) * (eg - g) + (eb - b) * (eb - b)
        if d < bestDistance {
            bestDistance = d
            best = k
        }
    }
    return best
}

@Test func nearestColorSearchMatchesBruteForceIncludingTies() {
    var random = LCG(state: 42)
    // Random palette with duplicates and coarse values, so exact ties are common.
    var palette = (0..<200).map { _ in random.next() & 0xE0_E0_E0 }
    palette += palette.prefix(20)
    let search = NearestColorSearch(colors: palette)
    for _ in 0..<20_000 {
        let query = random.next() & 0xFF_FF_FF
        #expect(search.nearest(to: query) == bruteForceNearest(query, in: palette))
    }
    // Every entry finds itself (or an earlier duplicate of itself).
    for (k, color) in palette.enumerated() {
        #expect(palette[search.nearest(to: color)] == color)
        #expect(search.nearest(to: color) <= k)
    }
}

@Test func colorIndexTableStoresAndGrows() {
    var table = ColorIndexTable(minimumCapacity: 4)
    var random = LCG(state: 7)
    var reference: [UInt32: Int32] = [:]
    for i in 0..<50_000 {
        let key = random.next() & 0xFF_FF_FF
        let (value, inserted) = table.findOrInsert(key, newValue: Int32(i))
        if let known = reference[key] {
            #expect(!inserted && value == known)
        } else {
            #expect(inserted && value == Int32(i))
            reference[key] = Int32(i)
        }
    }
    #expect(table.count == reference.count)
    for (key, value) in reference {
        #expect(table.value(for: key) == value)
    }
    #expect(table.value(for: 0x12_34_56) == reference[0x12_34_56])
}

@Test func histogramReductionMergesAtTheWeightedMean() {
    let histogram = ColorHistogram(
        colors: [0x00_00_00, 0x01_01_01, 0x80_80_80, 0x81_80_80], counts: [1, 3, 2, 2])
    // Dropping one bit puts the first two and the last two together.
    let reduced = histogram.reduced(toAtMost: 2)
    // (0·1 + 1·3)/4 = 0.75 → 1; (128·2 + 129·2)/4 = 128.5 → 129 (halves round up).
    #expect(reduced.colors == [0x01_01_01, 0x81_80_80])
    #expect(reduced.counts == [4, 4])
    #expect(histogram.reduced(toAtMost: 4).colors == histogram.colors)
}
