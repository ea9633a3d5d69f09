// SPDX-License-Identifier: GPL-3.0-or-later

/// Maps opaque colours to palette indices: exact colours to their own entry, any other colour
/// to the nearest entry (squared RGB distance; the lowest index wins a tie).
///
/// Every answer is cached, so one source colour always gets the same index in every frame and
/// static areas cannot shimmer. No dithering.
struct PaletteMapper {
    private let palette: GIFPalette
    private let search: NearestColorSearch
    private var cache = ColorIndexTable(minimumCapacity: 1024)

    init(palette: GIFPalette) {
        self.palette = palette
        search = NearestColorSearch(colors: palette.opaqueColors)
        // The first of any duplicate entries wins.
        for (k, color) in palette.opaqueColors.enumerated() {
            _ = cache.findOrInsert(color, newValue: Int32(k + palette.firstOpaqueIndex))
        }
    }

    /// Indices for every frame; transparent pixels get `palette.transparentIndex`.
    mutating func index(_ flattened: FlattenedFrames) -> [IndexedFrame] {
        let transparentIndex = UInt8(palette.transparentIndex ?? 0)
        return flattened.frames.map { frame in
            var indices = [UInt8](repeating: transparentIndex, count: frame.count)
            var lastColor = FlattenedFrames.transparent
            var lastIndex = transparentIndex
            for (i, color) in frame.enumerated() where color != FlattenedFrames.transparent {
                if color != lastColor {
                    lastColor = color
                    lastIndex = index(of: color)
                }
                indices[i] = lastIndex
            }
            return IndexedFrame(indices: indices)
        }
    }

    /// The palette index for an opaque colour `0x00RRGGBB`.
    mutating func index(of color: UInt32) -> UInt8 {
        if let cached = cache.value(for: color) { return UInt8(cached) }
        let found = search.nearest(to: color) + palette.firstOpaqueIndex
        _ = cache.findOrInsert(color, newValue: Int32(found))
        return UInt8(found)
    }
}
