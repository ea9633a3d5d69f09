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
        var slots = ColorIndexTable()
        for part in parts {
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
    }

    /// The opaque pixels of one flattened frame (`FlattenedFrames.transparent` is skipped),
    /// and every pixel as its colour's position in `colors`: one byte each when the frame has
    /// at most 255 colours (`slots`, `ColorHistogram.transparentSlot` for transparency), two
    /// when it has at most 65 535 (`wideSlots`, `wideTransparentSlot`), neither beyond. With
    /// that, the frame's palette indices are a table lookup per pixel (`PaletteMapper`) instead
    /// of a second flattening and hashing.
    static func counting(frame: UnsafeBufferPointer<UInt32>) -> (
        histogram: ColorHistogram, slots: [UInt8]?, wideSlots: [UInt16]?
    ) {
        var histogram = ColorHistogram(colors: [], counts: [])
        var table = ColorIndexTable()
        var slots = [UInt8](repeating: transparentSlot, count: frame.count)
        var wideSlots: [UInt16] = []
        // 1: `slots`; 2: `wideSlots`; 0: too many colours for either.
        var width = 1
        // Runs of one colour are counted first and added once.
        var last = FlattenedFrames.transparent
        var lastSlot = -1
        var run = 0
        var runStart = 0
        /// Ends the run of `last` before pixel `end`.
        func close(_ end: Int) {
            guard lastSlot >= 0 else { return }
            histogram.counts[lastSlot] += run
            if width == 1 {
                let slot = UInt8(lastSlot)
                slots.withUnsafeMutableBufferPointer { slots in
                    for p in runStart..<end { slots[p] = slot }
                }
            } else if width == 2 {
                let slot = UInt16(lastSlot)
                wideSlots.withUnsafeMutableBufferPointer { slots in
                    for p in runStart..<end { slots[p] = slot }
                }
            }
        }
        let count = frame.count
        let raw = frame.baseAddress.map { UnsafeRawPointer($0) }
        var p = 0
        while p < count {
            let color = frame[p]
            if color == last {
                // The run goes on: four pixels at a time while all four are `last`.
                var end = p + 1
                if let raw {
                    let four = SIMD4<UInt32>(repeating: last)
                    while end + 4 <= count, raw.loadUnaligned(fromByteOffset: end &* 4, as: SIMD4<UInt32>.self) == four
                    {
                        end += 4
                    }
                }
                while end < count && frame[end] == last { end += 1 }
                run += end - p
                p = end
                continue
            }
            close(p)
            last = color
            run = 1
            runStart = p
            p += 1
            if color == FlattenedFrames.transparent {
                lastSlot = -1
                continue
            }
            let (slot, inserted) = table.findOrInsert(color, newValue: Int32(histogram.colors.count))
            if inserted {
                histogram.colors.append(color)
                histogram.counts.append(0)
                if width == 1 && histogram.colors.count > Int(transparentSlot) {
                    // Everything before this run is written (unwritten pixels are transparent).
                    // A plain loop over the buffers, which vectorises (`map` appended one by one).
                    wideSlots = [UInt16](unsafeUninitializedCapacity: count) { wide, initialized in
                        slots.withUnsafeBufferPointer { slots in
                            for p in 0..<count {
                                let slot = slots[p]
                                wide[p] = slot == transparentSlot ? wideTransparentSlot : UInt16(slot)
                            }
                        }
                        initialized = count
                    }
                    slots = []
                    width = 2
                } else if width == 2 && histogram.colors.count > Int(wideTransparentSlot) {
                    wideSlots = []
                    width = 0
                }
            }
            lastSlot = Int(slot)
        }
        close(count)
        return (histogram, width == 1 ? slots : nil, width == 2 ? wideSlots : nil)
    }

    /// The slot `counting(frame:)` gives transparent pixels.
    static let transparentSlot: UInt8 = 255
    /// The wide slot `counting(frame:)` gives transparent pixels.
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
