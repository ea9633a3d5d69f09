// SPDX-License-Identifier: GPL-3.0-or-later

/// Maps opaque colours to palette indices: exact colours to their own entry; any other colour
/// by the palette's dither mode (`GIFDither`): its nearest entry (squared RGB distance, the
/// lowest index winning a tie), an ordered pattern, or error diffusion.
///
/// A pixel whose colour equals the previous frame's at the same place keeps the previous
/// frame's index, so static areas keep identical indices whatever the dither mode.
struct PaletteMapper {
    private let palette: GIFPalette
    private let dither: GIFDither
    private let search: NearestColorSearch
    /// Colour → nearest index (`.none`), or `n1 | n2 << 8 | level << 16` (`.ordered`).
    private var cache = ColorIndexTable(minimumCapacity: 1024)

    /// 8×8 Bayer threshold matrix, values 0…63 (the standard recursive construction).
    static let bayer: [Int] = {
        var m = [0]
        var size = 1
        while size < 8 {
            var next = [Int](repeating: 0, count: 4 * size * size)
            for y in 0..<size {
                for x in 0..<size {
                    let v = 4 * m[y * size + x]
                    next[y * 2 * size + x] = v
                    next[y * 2 * size + x + size] = v + 2
                    next[(y + size) * 2 * size + x] = v + 3
                    next[(y + size) * 2 * size + x + size] = v + 1
                }
            }
            m = next
            size *= 2
        }
        return m
    }()

    init(palette: GIFPalette, dither: GIFDither = .none) {
        self.palette = palette
        self.dither = palette.quantized ? dither : .none
        search = NearestColorSearch(colors: palette.opaqueColors)
        if !palette.quantized {
            // Exact: every colour is in the table; the first of any duplicates wins.
            for (k, color) in palette.opaqueColors.enumerated() {
                _ = cache.findOrInsert(color, newValue: Int32(k + palette.firstOpaqueIndex))
            }
        }
    }

    /// Indices for every frame; transparent pixels get `palette.transparentIndex`. Without
    /// error diffusion a pixel's index depends only on its colour and place, so frames are
    /// mapped on up to `workers` threads (each with its own cache); Floyd–Steinberg runs frame
    /// by frame, because it keeps the previous frame's index wherever the colour is unchanged.
    /// - Parameters:
    ///   - colors, slots, wideSlots: from the frames' survey (`FrameSurvey.frameColors`,
    ///     `frameSlots`, `frameWideSlots`), or empty. Without dithering, a frame with slots is
    ///     mapped through a table of its own colours instead of flattened again; a one-byte
    ///     slot buffer becomes the frame's index buffer (rewritten in place, so no fresh memory).
    mutating func index(
        _ flattened: FlattenedFrames, colors: [[UInt32]] = [], slots: consuming [[UInt8]?] = [],
        wideSlots: [[UInt16]?] = [], workers: Int = 1
    ) -> [IndexedFrame] {
        let width = flattened.width
        let transparentIndex = UInt8(palette.transparentIndex ?? 0)
        guard dither == .floydSteinberg else {
            let mapper = self
            let plain = dither == .none
            var frames = consume slots
            if frames.count != flattened.count { frames = [[UInt8]?](repeating: nil, count: flattened.count) }
            ParallelWork.update(
                &frames, workers: workers, makeState: { SlotMapping(mapper: mapper) }
            ) { k, frame, state in
                if plain, frame != nil {
                    let table = state.table(for: colors[k], transparentIndex: transparentIndex, entries: 256)
                    table.withUnsafeBufferPointer { table in
                        frame?.withUnsafeMutableBufferPointer { indices in
                            for p in 0..<indices.count { indices[p] = table[Int(indices[p])] }
                        }
                    }
                } else if plain, k < wideSlots.count, let wide = wideSlots[k] {
                    // One entry per colour, then the transparency index, where the transparent
                    // slot (above every position) is clamped to.
                    let last = UInt16(colors[k].count)
                    let table = state.table(
                        for: colors[k], transparentIndex: transparentIndex, entries: colors[k].count + 1)
                    frame = [UInt8](unsafeUninitializedCapacity: wide.count) { out, initialized in
                        table.withUnsafeBufferPointer { table in
                            wide.withUnsafeBufferPointer { wide in
                                for p in 0..<wide.count { out[p] = table[Int(min(wide[p], last))] }
                            }
                        }
                        initialized = wide.count
                    }
                } else {
                    flattened.flatten(k, into: &state.buffer)
                    frame = state.mapper.index(state.buffer, width: width, previous: nil)
                }
            }
            return frames.map { IndexedFrame(indices: $0 ?? []) }
        }
        var result: [IndexedFrame] = []
        result.reserveCapacity(flattened.count)
        var previous: (colors: [UInt32], indices: [UInt8])?
        for k in 0..<flattened.count {
            let frame = flattened.frame(k)
            let indices = index(frame, width: width, previous: previous)
            result.append(IndexedFrame(indices: indices))
            previous = (frame, indices)
        }
        return result
    }

    /// Whether indices depend on the previous frame (Floyd–Steinberg), so frames must be
    /// mapped one after another.
    var diffuses: Bool { dither == .floydSteinberg }

    /// Whether `index` maps frames with survey slots through their run's colour table (no
    /// dithering), so a survey of a batch saves flattening its frames again.
    var mapsBySlots: Bool { dither == .none }

    /// One frame's indices from its flattened colours (`FlattenedFrames`), the same as `index`
    /// gives it: `previous` is the previous frame's colours and indices when `diffuses`, else
    /// ignored.
    mutating func indices(
        of frame: [UInt32], width: Int, previous: (colors: [UInt32], indices: [UInt8])?
    ) -> [UInt8] {
        index(frame, width: width, previous: diffuses ? previous : nil)
    }

    /// A worker's mapper and scratch for `index`: the frames of one survey run share their
    /// colour array (`FrameSurvey.frameColors`), so the slot → index table of the last array
    /// seen is kept and used again while the same array comes back.
    private struct SlotMapping {
        var mapper: PaletteMapper
        var buffer: [UInt32] = []
        /// The array the table was made for, by its storage, and the table.
        var tableColors: (base: UnsafeRawPointer?, count: Int) = (nil, -1)
        var lastTable: [UInt8] = []

        init(mapper: PaletteMapper) { self.mapper = mapper }

        /// `entries` indices: each colour's nearest, then the transparency index.
        mutating func table(for colors: [UInt32], transparentIndex: UInt8, entries: Int) -> [UInt8] {
            let base = colors.withUnsafeBytes { UnsafeRawPointer($0.baseAddress) }
            if base != nil, base == tableColors.base, colors.count == tableColors.count, lastTable.count == entries {
                return lastTable
            }
            var table = [UInt8](repeating: transparentIndex, count: entries)
            for (slot, color) in colors.enumerated() { table[slot] = mapper.nearestIndex(of: color) }
            tableColors = (base, colors.count)
            lastTable = table
            return table
        }
    }

    /// One frame's indices. Where `previous` (the previous frame's colours and indices) shows
    /// the same colour, the pixel keeps the previous index.
    private mutating func index(_ frame: [UInt32], width: Int, previous: (colors: [UInt32], indices: [UInt8])?)
        -> [UInt8]
    {
        let transparentIndex = UInt8(palette.transparentIndex ?? 0)
        var indices = [UInt8](repeating: transparentIndex, count: frame.count)
        var changed = [Bool](repeating: false, count: dither == .floydSteinberg ? frame.count : 0)
        var anyChanged = false
        var lastColor = FlattenedFrames.transparent
        var lastIndex = transparentIndex
        let previousColors = previous?.colors ?? []
        let previousIndices = previous?.indices ?? []
        let hasPrevious = !previousColors.isEmpty
        frame.withUnsafeBufferPointer { colors in
            previousColors.withUnsafeBufferPointer { previousColors in
                previousIndices.withUnsafeBufferPointer { previousIndices in
                    indices.withUnsafeMutableBufferPointer { indices in
                        for i in 0..<colors.count {
                            let color = colors[i]
                            if color == FlattenedFrames.transparent { continue }
                            if hasPrevious && previousColors[i] == color {
                                indices[i] = previousIndices[i]
                                continue
                            }
                            switch dither {
                            case .none:
                                if color != lastColor {
                                    lastColor = color
                                    lastIndex = nearestIndex(of: color)
                                }
                                indices[i] = lastIndex
                            case .ordered:
                                indices[i] = orderedIndex(of: color, x: i % width, y: i / width)
                            case .floydSteinberg:
                                changed[i] = true
                                anyChanged = true
                            }
                        }
                    }
                }
            }
        }
        if anyChanged {
            diffuse(frame, changed: changed, width: width, into: &indices)
        }
        return indices
    }

    /// The palette index nearest to an opaque colour `0x00RRGGBB` (exact colours map to
    /// themselves).
    mutating func nearestIndex(of color: UInt32) -> UInt8 {
        if let cached = cache.value(for: color) { return UInt8(truncatingIfNeeded: cached) }
        let found = search.nearest(to: color) + palette.firstOpaqueIndex
        _ = cache.findOrInsert(color, newValue: Int32(found))
        return UInt8(found)
    }

    /// Ordered dithering between the nearest entry `n1` and `n2`, the entry nearest to the
    /// colour mirrored through `n1`: with `f` the colour's position along `n1 → n2` (0…1),
    /// the pixel takes `n2` where the Bayer threshold at (x mod 8, y mod 8) is below `64·f`.
    mutating func orderedIndex(of color: UInt32, x: Int, y: Int) -> UInt8 {
        let packed: Int32
        if let cached = cache.value(for: color) {
            packed = cached
        } else {
            packed = Self.orderedPlan(color, search: search, colors: palette.opaqueColors)
            _ = cache.findOrInsert(color, newValue: packed)
        }
        let n1 = Int(packed & 0xFF)
        let n2 = Int(packed >> 8 & 0xFF)
        let level = Int(packed >> 16)
        let chosen = Self.bayer[(y & 7) * 8 + (x & 7)] < level ? n2 : n1
        return UInt8(chosen + palette.firstOpaqueIndex)
    }

    /// `n1 | n2 << 8 | level << 16` for `orderedIndex`, positions in `colors`.
    private static func orderedPlan(_ color: UInt32, search: NearestColorSearch, colors: [UInt32]) -> Int32 {
        let c = channels(color)
        let n1 = search.nearest(to: color)
        let a = channels(colors[n1])
        let mirrored = pack(
            (2 * c.0 - a.0).clamped(), (2 * c.1 - a.1).clamped(), (2 * c.2 - a.2).clamped())
        let n2 = search.nearest(to: mirrored)
        let b = channels(colors[n2])
        let d = (b.0 - a.0, b.1 - a.1, b.2 - a.2)
        let length = d.0 * d.0 + d.1 * d.1 + d.2 * d.2
        guard n2 != n1, length > 0 else { return Int32(n1 | n1 << 8) }
        let along = (c.0 - a.0) * d.0 + (c.1 - a.1) * d.1 + (c.2 - a.2) * d.2
        let level = min(64, max(0, (64 * along + length / 2) / length))
        return Int32(n1 | n2 << 8 | level << 16)
    }

    /// Floyd–Steinberg over the `changed` pixels only, in raster order: each pixel takes the
    /// entry nearest to its colour plus the error carried to it, and passes its own error on
    /// to changed neighbours (right 7/16, below-left 3/16, below 5/16, below-right 1/16).
    /// Carried error is limited to ±64 per channel so it cannot streak.
    private func diffuse(_ frame: [UInt32], changed: [Bool], width: Int, into indices: inout [UInt8]) {
        let height = frame.count / width
        // Errors in 1/16ths, three channels, for this row and the next (one pixel margin).
        var current = [Int](repeating: 0, count: 3 * (width + 2))
        var below = [Int](repeating: 0, count: 3 * (width + 2))
        for y in 0..<height {
            for x in 0..<width {
                let i = y * width + x
                guard changed[i] else { continue }
                let c = Self.channels(frame[i])
                let e = 3 * (x + 1)
                let wanted = (
                    (c.0 + Self.limit(current[e]) / 16).clamped(),
                    (c.1 + Self.limit(current[e + 1]) / 16).clamped(),
                    (c.2 + Self.limit(current[e + 2]) / 16).clamped()
                )
                let n = search.nearest(to: Self.pack(wanted.0, wanted.1, wanted.2))
                indices[i] = UInt8(n + palette.firstOpaqueIndex)
                let got = Self.channels(palette.opaqueColors[n])
                let error = [wanted.0 - got.0, wanted.1 - got.1, wanted.2 - got.2]
                let right = x + 1 < width && changed[i + 1]
                let hasBelow = y + 1 < height
                for ch in 0..<3 {
                    if right { current[e + 3 + ch] += 7 * error[ch] }
                    if hasBelow {
                        if x > 0 && changed[i + width - 1] { below[e - 3 + ch] += 3 * error[ch] }
                        if changed[i + width] { below[e + ch] += 5 * error[ch] }
                        if x + 1 < width && changed[i + width + 1] { below[e + 3 + ch] += error[ch] }
                    }
                }
            }
            swap(&current, &below)
            for k in below.indices { below[k] = 0 }
        }
    }

    private static func limit(_ sixteenths: Int) -> Int { min(1024, max(-1024, sixteenths)) }

    private static func channels(_ color: UInt32) -> (Int, Int, Int) {
        (Int(color >> 16 & 0xFF), Int(color >> 8 & 0xFF), Int(color & 0xFF))
    }

    private static func pack(_ r: Int, _ g: Int, _ b: Int) -> UInt32 {
        UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b)
    }
}

extension Int {
    /// The value limited to a colour channel's 0…255.
    fileprivate func clamped() -> Int { Swift.min(255, Swift.max(0, self)) }
}
