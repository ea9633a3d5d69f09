// SPDX-License-Identifier: GPL-3.0-or-later

/// Maps opaque colours to palette indices: exact colours to their own entry, any other colour
/// to the nearest entry (squared RGB distance; the lowest index wins a tie).
///
/// Every answer is cached, so one source colour always gets the same index in every frame and
/// static areas cannot shimmer. No dithering.
struct PaletteMapper {
    private let palette: GIFPalette
    private var cache: [UInt32: UInt8] = [:]

    init(palette: GIFPalette) {
        self.palette = palette
        cache.reserveCapacity(palette.opaqueColors.count * 4)
        // Reversed so that the first of any duplicate entries wins.
        for (k, color) in palette.opaqueColors.enumerated().reversed() {
            cache[color] = UInt8(k + palette.firstOpaqueIndex)
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
        if let cached = cache[color] { return cached }
        let found = UInt8(nearest(to: color) + palette.firstOpaqueIndex)
        cache[color] = found
        return found
    }

    /// Position in `opaqueColors` of the nearest colour by squared RGB distance.
    private func nearest(to color: UInt32) -> Int {
        let r = Int(color >> 16 & 0xFF)
        let g = Int(color >> 8 & 0xFF)
        let b = Int(color & 0xFF)
        var best = 0
        var bestDistance = Int.max
        for (k, entry) in palette.opaqueColors.enumerated() {
            let dr = Int(entry >> 16 & 0xFF) - r
            let dg = Int(entry >> 8 & 0xFF) - g
            let db = Int(entry & 0xFF) - b
            let distance = dr * dr + dg * dg + db * db
            if distance < bestDistance {
                bestDistance = distance
                best = k
            }
        }
        return best
    }
}
