// SPDX-License-Identifier: GPL-3.0-or-later

public import Render

/// A sprite sheet's PNG file and how it was stored.
public struct SheetPNGEncoding: Equatable, Sendable {
    /// The PNG file.
    public var bytes: [UInt8]
    /// Palette entries when the file is a palette PNG, nil for RGBA.
    public var paletteSize: Int?
    /// Whether libimagequant reduced the colours (lossy); false for RGBA and exact palettes.
    public var quantized: Bool

    /// A value with the given fields.
    public init(bytes: [UInt8], paletteSize: Int?, quantized: Bool) {
        self.bytes = bytes
        self.paletteSize = paletteSize
        self.quantized = quantized
    }
}

/// Writes sprite-sheet PNGs small and fast (measurements in docs/encoding.md):
///
/// - A sheet with at most 256 distinct RGBA values (loaders: one colour at many alphas) is
///   written as an exact palette PNG (lossless): 1 byte per pixel before compression instead
///   of 4, translucent entries first so the tRNS chunk is short.
/// - With `maximumColors` N and more colours than N, libimagequant reduces it to N colours
///   (no dithering, so equal cells stay equal) and the palette PNG is kept when it is smaller
///   than the RGBA one.
/// - Palette images use no row filter (filters only scramble indices); RGBA images use the
///   row filters (none, or libpng's adaptive choice) that compress better in a fast zlib level 1
///   trial. Then zlib level 9 with the default strategy, which on sheets beat Z_FILTERED and
///   Z_RLE in size.
public enum SheetPNGEncoder {
    /// Encodes a sheet image.
    /// - Parameters:
    ///   - image: straight alpha, at least 1×1.
    ///   - maximumColors: nil (exact palette only when it is lossless, else RGBA) or 2…256 to
    ///     allow a quantised palette.
    /// - Throws: `EncodeError` for a bad colour count or a libimagequant failure; `PNGCodec`'s
    ///   `CodecError` for libpng failures.
    public static func encode(_ image: RGBAImage, maximumColors: Int? = nil) throws -> SheetPNGEncoding {
        if let maximumColors, !(2...256).contains(maximumColors) {
            throw EncodeError("sheet colours must be 2…256, got \(maximumColors)")
        }
        let paletteCompression = PNGCompression(level: 9, strategy: .standard, filters: .none)
        if let exact = exactPalette(image, limit: maximumColors ?? 256) {
            let bytes = try PNGCodec.encodeIndexed(
                width: image.width, height: image.height, indices: exact.indices, palette: exact.palette,
                compression: paletteCompression)
            return SheetPNGEncoding(bytes: bytes, paletteSize: exact.palette.count, quantized: false)
        }
        let rgba = try PNGCodec.encode(image, compression: rgbaCompression(image))
        guard let maximumColors else {
            return SheetPNGEncoding(bytes: rgba, paletteSize: nil, quantized: false)
        }
        let reduced = try ImageQuantizer.remap(
            pixels: image.pixels, width: image.width, height: image.height, maximumColors: maximumColors)
        let palette = reduced.palette.map { PNGPaletteEntry(red: $0.r, green: $0.g, blue: $0.b, alpha: $0.a) }
        let indexed = try PNGCodec.encodeIndexed(
            width: image.width, height: image.height, indices: reduced.indices, palette: palette,
            compression: paletteCompression)
        guard indexed.count < rgba.count else {
            return SheetPNGEncoding(bytes: rgba, paletteSize: nil, quantized: false)
        }
        return SheetPNGEncoding(bytes: indexed, paletteSize: palette.count, quantized: true)
    }

    /// Level 9, default strategy, with the filters that win a level 1 trial.
    static func rgbaCompression(_ image: RGBAImage) throws -> PNGCompression {
        let plain = try PNGCodec.encode(image, compression: PNGCompression(level: 1, filters: .none)).count
        let filtered = try PNGCodec.encode(image, compression: PNGCompression(level: 1, filters: .adaptive)).count
        return PNGCompression(level: 9, strategy: .standard, filters: filtered < plain ? .adaptive : .none)
    }

    /// The image's RGBA values (translucent ones first, each group in order of first
    /// appearance) and every pixel's index, or nil when there are more than `limit`.
    static func exactPalette(_ image: RGBAImage, limit: Int) -> (palette: [PNGPaletteEntry], indices: [UInt8])? {
        var table = ColorIndexTable(minimumCapacity: 512)
        var colors: [UInt32] = []
        var raw = [Int32](repeating: 0, count: image.width * image.height)
        // `UInt32.max` (opaque white) cannot be a table key; it gets its own slot.
        var whiteSlot: Int32 = -1
        var last: UInt32 = 0
        var lastSlot: Int32 = -1
        let fits = image.pixels.withUnsafeBufferPointer { p -> Bool in
            for i in 0..<(image.width * image.height) {
                let key =
                    UInt32(p[4 * i]) << 24 | UInt32(p[4 * i + 1]) << 16 | UInt32(p[4 * i + 2]) << 8
                    | UInt32(p[4 * i + 3])
                if key != last || lastSlot < 0 {
                    if key == UInt32.max {
                        if whiteSlot < 0 {
                            whiteSlot = Int32(colors.count)
                            colors.append(key)
                        }
                        lastSlot = whiteSlot
                    } else {
                        let (slot, inserted) = table.findOrInsert(key, newValue: Int32(colors.count))
                        if inserted { colors.append(key) }
                        lastSlot = slot
                    }
                    last = key
                    if colors.count > limit { return false }
                }
                raw[i] = lastSlot
            }
            return true
        }
        guard fits else { return nil }
        // Translucent entries first: tRNS then stops at the last of them.
        let order =
            colors.indices.filter { colors[$0] & 0xFF != 0xFF } + colors.indices.filter { colors[$0] & 0xFF == 0xFF }
        var position = [UInt8](repeating: 0, count: colors.count)
        for (k, original) in order.enumerated() { position[original] = UInt8(k) }
        let palette = order.map { i -> PNGPaletteEntry in
            let c = colors[i]
            return PNGPaletteEntry(
                red: UInt8(truncatingIfNeeded: c >> 24), green: UInt8(truncatingIfNeeded: c >> 16),
                blue: UInt8(truncatingIfNeeded: c >> 8), alpha: UInt8(truncatingIfNeeded: c))
        }
        return (palette, raw.map { position[Int($0)] })
    }
}
