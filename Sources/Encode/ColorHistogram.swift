// SPDX-License-Identifier: GPL-3.0-or-later

/// Every opaque colour of an animation with its pixel count, in order of first appearance
/// (frame by frame, row-major), so anything built from it is deterministic.
struct ColorHistogram {
    /// Distinct opaque colours as `0x00RRGGBB`, first appearance first.
    private(set) var colors: [UInt32] = []
    /// Pixel counts, parallel to `colors`.
    private(set) var counts: [Int] = []

    /// A histogram with the given entries (`counts` parallel to `colors`).
    init(colors: [UInt32], counts: [Int]) {
        self.colors = colors
        self.counts = counts
    }

    /// The histograms of consecutive frames added up, in their order (so first appearance
    /// stays first appearance).
    init(merging parts: [ColorHistogram]) {
        var sum = ColorHistogramAccumulator()
        for part in parts { sum.add(part) }
        self = sum.histogram
    }

    /// The one-byte slot `FrameSurveyor` gives transparent pixels (`FrameSurvey.frameSlots`).
    static let transparentSlot: UInt8 = 255
    /// The two-byte slot `FrameSurveyor` gives transparent pixels (`FrameSurvey.frameWideSlots`).
    static let wideTransparentSlot: UInt16 = .max

    /// At most `limit` entries (≥ 1): with the fewest low bits `b` dropped from every channel
    /// that fits, colours sharing their high bits merge into one entry at their count-weighted
    /// mean colour (rounded), in order of first appearance. Unchanged when already small enough.
    ///
    /// This bounds the quantiser's work on animations with millions of distinct colours (moving
    /// gradients), as libimagequant's own `ignorebits` does for images it histograms itself.
    func reduced(toAtMost limit: Int) -> ColorHistogram {
        guard colors.count > max(limit, 1) else { return self }
        var dropped: UInt32 = 1
        while true {
            let mask: UInt32 = (0xFF << dropped & 0xFF) * 0x01_01_01
            var slots = ColorIndexTable(minimumCapacity: limit)
            var sums: [(r: Int, g: Int, b: Int, count: Int)] = []
            for (color, count) in zip(colors, counts) {
                let (found, inserted) = slots.findOrInsert(color & mask, newValue: Int32(sums.count))
                let slot = Int(found)
                if inserted { sums.append((0, 0, 0, 0)) }
                sums[slot].r += Int(color >> 16 & 0xFF) * count
                sums[slot].g += Int(color >> 8 & 0xFF) * count
                sums[slot].b += Int(color & 0xFF) * count
                sums[slot].count += count
            }
            if sums.count <= limit || dropped == 7 {
                let merged = sums.map { sum -> UInt32 in
                    let half = sum.count / 2
                    let r = UInt32((sum.r + half) / sum.count)
                    let g = UInt32((sum.g + half) / sum.count)
                    let b = UInt32((sum.b + half) / sum.count)
                    return r << 16 | g << 8 | b
                }
                return ColorHistogram(colors: merged, counts: sums.map(\.count))
            }
            dropped += 1
        }
    }
}

/// Histograms of consecutive frames added up as they come, in order: the same colours, order
/// and counts as `ColorHistogram(merging:)` of all of them, without holding the parts.
struct ColorHistogramAccumulator {
    private var slots = ColorIndexTable()
    private var colors: [UInt32] = []
    private var counts: [Int] = []

    /// Adds the histogram of the frames after those added so far.
    mutating func add(_ part: ColorHistogram) {
        for (color, count) in zip(part.colors, part.counts) {
            let (slot, inserted) = slots.findOrInsert(color, newValue: Int32(colors.count))
            if inserted {
                colors.append(color)
                counts.append(count)
            } else {
                counts[Int(slot)] += count
            }
        }
    }

    /// Everything added so far.
    var histogram: ColorHistogram { ColorHistogram(colors: colors, counts: counts) }
}
