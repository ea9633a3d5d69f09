// SPDX-License-Identifier: GPL-3.0-or-later

/// The single global colour table of a GIF (semantics.md §8.2).
///
/// Layout: index 0 is the dedicated transparency index when there is one (no opaque colour
/// uses it); the opaque colours follow; black pads the table to a power of two, 2…256 entries.
///
/// A transparency index is reserved when any pixel is transparent, and also for fully opaque
/// animations whenever it costs no table bits (the colour count is not a power of two, or the
/// palette is quantised): frame differencing writes unchanged pixels as transparency.
struct GIFPalette {
    /// Opaque colours as `0x00RRGGBB`; colour `k` has index `k + firstOpaqueIndex`.
    var opaqueColors: [UInt32]
    /// 0 when the animation has transparency, otherwise `nil`.
    var transparentIndex: Int?
    /// `true` when libimagequant chose `opaqueColors`, `false` when they are exact.
    var quantized: Bool

    /// Index of the first opaque colour.
    var firstOpaqueIndex: Int { transparentIndex == nil ? 0 : 1 }

    /// Entries in the written table: the smallest power of two ≥ the used entries, at least 2.
    var tableSize: Int { Self.tableEntries(opaqueColors.count + firstOpaqueIndex) }

    /// `tableSize` RGB triples, ready for giflib.
    var colorTable: [UInt8] {
        var table = [UInt8](repeating: 0, count: tableSize * 3)
        for (k, color) in opaqueColors.enumerated() {
            let i = (k + firstOpaqueIndex) * 3
            table[i] = UInt8(truncatingIfNeeded: color >> 16)
            table[i + 1] = UInt8(truncatingIfNeeded: color >> 8)
            table[i + 2] = UInt8(truncatingIfNeeded: color)
        }
        return table
    }

    /// The exact colours when they fit (255 beside a transparency index, or 256 in a fully
    /// opaque animation), in order of first appearance; otherwise 255 colours chosen by
    /// libimagequant from the histogram of all frames, plus the transparency index.
    /// - Throws: `EncodeError` when libimagequant fails.
    static func build(histogram: ColorHistogram, hasTransparency: Bool) throws -> GIFPalette {
        let count = histogram.colors.count
        if count <= 255 {
            let reserve = hasTransparency || tableEntries(count + 1) == tableEntries(count)
            return GIFPalette(
                opaqueColors: histogram.colors, transparentIndex: reserve ? 0 : nil, quantized: false)
        }
        if count == 256 && !hasTransparency {
            return GIFPalette(opaqueColors: histogram.colors, transparentIndex: nil, quantized: false)
        }
        let chosen = try ImageQuantizer.palette(for: histogram, maximumColors: 255)
        let colors = completed(chosen, from: histogram, toAtMost: 255)
        return GIFPalette(opaqueColors: colors, transparentIndex: 0, quantized: true)
    }

    /// The same colours renumbered by use, and `frames` remapped to match.
    ///
    /// A frame written with the global table needs an LZW code size of only the bits of the
    /// largest index it must write (`GIFFrameOptimizer`), so the order of the table matters.
    /// Each frame's needs are estimated as the colours of the pixels that differ from the
    /// previous frame (frame 0: all of them), weighed by the number of runs of equal indices
    /// among those pixels (a stand-in for the LZW codes the frame takes). Four orders are
    /// tried, and the one whose frames' streams are shortest in total is kept (each frame's
    /// length is `LZWEncoder.streamBits` of its runs at the code size its largest index needs):
    /// - colours that the most frames change to come first;
    /// - frames taken from the fewest colours to the most, each adding its colours;
    /// - frames taken from the most runs to the fewest, each adding its colours;
    /// - packed code size by code size: from 2 bits up, while the colours of some frame still
    ///   fit in the `2^b − first` smallest slots, the frame with the most runs per colour not
    ///   yet placed adds its colours (a greedy answer to which frames to give small codes).
    /// Ties keep the old order (first appearance for exact palettes); the transparency index
    /// stays 0. Every pixel shows the same colour as before; the frames' index buffers are
    /// rewritten in place.
    func reorderedByUse(_ frames: consuming [IndexedFrame], workers: Int = 1) -> (GIFPalette, [IndexedFrame]) {
        let (palette, table) = reordered(byUse: needs(of: frames, after: nil, workers: workers))
        guard let remap = table else { return (self, frames) }
        var remapped = consume frames
        ParallelWork.update(&remapped, workers: workers) { _, frame in
            remap.withUnsafeBufferPointer { remap in
                frame.indices.withUnsafeMutableBufferPointer { indices in
                    for p in 0..<indices.count { indices[p] = remap[Int(indices[p])] }
                }
            }
        }
        return (palette, remapped)
    }

    /// What one frame needs of the table (`reorderedByUse`): the opaque ranks (index − first)
    /// its pixels that differ from the previous frame's show, ascending, and the runs of equal
    /// indices those pixels form.
    struct Need: Sendable, Equatable {
        var ranks: [UInt8]
        var runs: Int
    }

    /// The palette in `reorderedByUse`'s order for frames whose `needs` these are, and the
    /// table (256 entries) taking an old index to its new one; nil when the order is unchanged.
    func reordered(byUse needs: [Need]) -> (GIFPalette, [UInt8]?) {
        let order = useOrder(needs)
        guard order != Array(0..<opaqueColors.count) else { return (self, nil) }
        let first = firstOpaqueIndex
        var table = [UInt8](repeating: 0, count: 256)
        for i in 0..<first { table[i] = UInt8(i) }
        for (newRank, oldRank) in order.enumerated() { table[oldRank + first] = UInt8(newRank + first) }
        var palette = self
        palette.opaqueColors = order.map { opaqueColors[$0] }
        return (palette, table)
    }

    /// Per frame: what it needs of the table (`Need`). Frame 0 is compared with `before` (the
    /// frame before it, when `frames` continue an animation; nil: the empty screen, so every
    /// pixel counts as changed).
    func needs(of frames: [IndexedFrame], after before: [UInt8]?, workers: Int) -> [Need] {
        let first = firstOpaqueIndex
        let colorCount = opaqueColors.count
        return ParallelWork.map(count: frames.count, workers: workers) { k in
            var seen = [Bool](repeating: false, count: 256)
            let runs = frames[k].indices.withUnsafeBufferPointer { now in
                (k > 0 ? frames[k - 1].indices : before ?? []).withUnsafeBufferPointer { before in
                    seen.withUnsafeMutableBufferPointer { seen in
                        var runs = 0
                        /// Pixel `p`, which differs from the previous frame.
                        func changed(_ p: Int) {
                            seen[Int(now[p])] = true
                            if p == 0 || now[p] != now[p - 1] { runs += 1 }
                        }
                        // Frame 0 changes every pixel (from the empty screen).
                        guard before.count == now.count, let before = before.baseAddress, let base = now.baseAddress
                        else {
                            for p in now.indices { changed(p) }
                            return runs
                        }
                        // Eight pixels at a time while they equal the previous frame's.
                        let raw = UnsafeRawPointer(base)
                        let rawBefore = UnsafeRawPointer(before)
                        var p = 0
                        while p < now.count {
                            if p + 8 <= now.count
                                && raw.loadUnaligned(fromByteOffset: p, as: UInt64.self)
                                    == rawBefore.loadUnaligned(fromByteOffset: p, as: UInt64.self)
                            {
                                p += 8
                                continue
                            }
                            let end = min(p + 8, now.count)
                            while p < end {
                                if now[p] != before[p] { changed(p) }
                                p += 1
                            }
                        }
                        return runs
                    }
                }
            }
            return Need(
                ranks: (first..<(first + colorCount)).filter { seen[$0] }.map { UInt8(truncatingIfNeeded: $0 - first) },
                runs: runs)
        }
    }

    /// The order of `reorderedByUse`'s description, as old ranks, chosen from the frames' needs.
    private func useOrder(_ needs: [Need]) -> [Int] {
        let first = firstOpaqueIndex
        let colorCount = opaqueColors.count
        var frameCounts = [Int](repeating: 0, count: colorCount)
        for need in needs {
            for rank in need.ranks { frameCounts[Int(rank)] += 1 }
        }
        let byFrameCount = (0..<colorCount).sorted { (-frameCounts[$0], $0) < (-frameCounts[$1], $1) }
        // Each frame's colours in that order (sorted as positions in it: plain integers).
        var place = [Int](repeating: 0, count: colorCount)
        for (position, rank) in byFrameCount.enumerated() { place[rank] = position }
        let busiestFirst = needs.map { need in need.ranks.map { place[Int($0)] }.sorted().map { byFrameCount[$0] } }
        // Frames taken in `sequence`, each adding the colours not placed yet (the ones the most
        // frames use first), then the colours no frame changes to.
        func adding(_ sequence: [Int]) -> [Int] {
            var order: [Int] = []
            var placed = [Bool](repeating: false, count: colorCount)
            for k in sequence {
                for rank in busiestFirst[k] where !placed[rank] {
                    placed[rank] = true
                    order.append(rank)
                }
            }
            return order + (0..<colorCount).filter { !placed[$0] }
        }
        let fewestColoursFirst = needs.indices.sorted { (needs[$0].ranks.count, $0) < (needs[$1].ranks.count, $1) }
        let mostRunsFirst = needs.indices.sorted { (-needs[$0].runs, $0) < (-needs[$1].runs, $1) }
        // The frames' stream lengths under an order, in bits.
        func cost(_ order: [Int]) -> Int {
            var position = [Int](repeating: 0, count: colorCount)
            for (newRank, oldRank) in order.enumerated() { position[oldRank] = newRank }
            var bits = 0
            for need in needs {
                var largest = 0
                for rank in need.ranks { largest = max(largest, position[Int(rank)] + first) }
                bits += LZWEncoder.streamBits(
                    codes: need.runs, minimumCodeSize: GIFFramePlan.minimumCodeSize(forTableOf: largest + 1))
            }
            return bits
        }
        // Code size by code size from the smallest up (frames whose colours are all placed
        // already come free).
        func packed() -> [Int] {
            var framesOf = [[Int]](repeating: [], count: colorCount)
            for (k, need) in needs.enumerated() {
                for rank in need.ranks { framesOf[Int(rank)].append(k) }
            }
            var missing = needs.map(\.ranks.count)
            var covered = [Bool](repeating: false, count: needs.count)
            var placed = [Bool](repeating: false, count: colorCount)
            var order: [Int] = []
            for bits in 2...8 {
                let capacity = (1 << bits) - first
                while true {
                    var best = -1
                    for k in needs.indices where !covered[k] {
                        if missing[k] == 0 {
                            covered[k] = true
                            continue
                        }
                        guard order.count + missing[k] <= capacity else { continue }
                        if best < 0 || needs[k].runs * missing[best] > needs[best].runs * missing[k] { best = k }
                    }
                    guard best >= 0 else { break }
                    covered[best] = true
                    for rank in busiestFirst[best] where !placed[rank] {
                        placed[rank] = true
                        order.append(rank)
                        for k in framesOf[rank] { missing[k] -= 1 }
                    }
                }
            }
            return order + byFrameCount.filter { !placed[$0] }
        }
        let candidates = [byFrameCount, adding(fewestColoursFirst), adding(mostRunsFirst), packed()]
        let costs = candidates.map(cost)
        return candidates[costs.indices.min { (costs[$0], $0) < (costs[$1], $1) } ?? 0]
    }

    /// `palette` with its free slots filled from `histogram`. libimagequant may stop well short
    /// of the allowed count (55 of 255 entries for the airplane preset's 459 colours), leaving
    /// table slots unused; each slot then takes, one at a time, the histogram colour with the
    /// largest `count × squared distance` to its nearest entry so far. Entries only get added,
    /// so no pixel maps farther than before; ties go to the earlier histogram entry.
    static func completed(_ palette: [UInt32], from histogram: ColorHistogram, toAtMost limit: Int) -> [UInt32] {
        var result = palette
        guard result.count < limit, !result.isEmpty else { return result }
        let colors = histogram.reduced(toAtMost: ImageQuantizer.maximumHistogramEntries)
        func distance(_ a: UInt32, _ b: UInt32) -> Int {
            let dr = Int(a >> 16 & 0xFF) - Int(b >> 16 & 0xFF)
            let dg = Int(a >> 8 & 0xFF) - Int(b >> 8 & 0xFF)
            let db = Int(a & 0xFF) - Int(b & 0xFF)
            return dr * dr + dg * dg + db * db
        }
        var nearest = colors.colors.map { c in result.map { distance(c, $0) }.min() ?? 0 }
        while result.count < limit {
            var best = -1
            var bestCost = 0
            for (i, d) in nearest.enumerated() where d > 0 && d * colors.counts[i] > bestCost {
                best = i
                bestCost = d * colors.counts[i]
            }
            guard best >= 0 else { break }
            let added = colors.colors[best]
            result.append(added)
            for i in nearest.indices where nearest[i] > 0 {
                nearest[i] = min(nearest[i], distance(colors.colors[i], added))
            }
        }
        return result
    }

    /// The smallest power of two ≥ `used`, at least 2.
    static func tableEntries(_ used: Int) -> Int {
        var size = 2
        while size < used { size *= 2 }
        return size
    }
}
