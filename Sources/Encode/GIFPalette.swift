// SPDX-License-Identifier: GPL-3.0-or-later

/// The single global colour table of a GIF (semantics.md §8.2).
///
/// Layout: index 0 is the dedicated transparency index when the animation has any transparent
/// pixel (no opaque colour uses it); the opaque colours follow; black pads the table to a
/// power of two, 2…256 entries.
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
    var tableSize: Int {
        let used = opaqueColors.count + firstOpaqueIndex
        var size = 2
        while size < used { size *= 2 }
        return size
    }

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

    /// The exact colours when they fit (255 with transparency, 256 without), in order of first
    /// appearance; otherwise a libimagequant palette of that many colours built from the
    /// histogram of all frames.
    /// - Throws: `EncodeError` when libimagequant fails.
    static func build(histogram: ColorHistogram, hasTransparency: Bool) throws -> GIFPalette {
        let capacity = hasTransparency ? 255 : 256
        let transparentIndex: Int? = hasTransparency ? 0 : nil
        if histogram.colors.count <= capacity {
            return GIFPalette(
                opaqueColors: histogram.colors, transparentIndex: transparentIndex, quantized: false)
        }
        let colors = try ImageQuantizer.palette(for: histogram, maximumColors: capacity)
        return GIFPalette(opaqueColors: colors, transparentIndex: transparentIndex, quantized: true)
    }
}
