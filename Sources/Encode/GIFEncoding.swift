// SPDX-License-Identifier: GPL-3.0-or-later

/// A finished GIF and the facts about it the CLI reports.
public struct GIFEncoding: Equatable, Sendable {
    /// The complete GIF89a file.
    public var bytes: [UInt8]
    /// Opaque colours in the global colour table (not counting the transparency index or the
    /// padding up to a power of two), 0…256.
    public var paletteSize: Int
    /// `true` when the animation had more colours than fit (255, or 256 without transparency)
    /// and libimagequant chose the palette; `false` when the palette is exact (lossless).
    public var quantized: Bool
    /// `true` when some pixel of some frame is transparent, so the palette holds a dedicated
    /// transparency index.
    public var hasTransparency: Bool
    /// Pixels (summed over all frames) with 0 < alpha < 255 that lost their partial alpha
    /// because no matte was given; 0 with a matte. The CLI warns with this number.
    public var collapsedEdgePixels: Int
    /// Images in the file: the input frames less those merged into the one before (an
    /// identical one; with `GIFOptions.lossy`, one the screen already shows within tolerance).
    public var frameCount: Int
    /// Each image's delay as written, in centiseconds, `frameCount` values (merged frames
    /// carry the sum of theirs); empty when the caller built the value without them.
    public var delays: [Int]

    /// A value with the given fields.
    public init(
        bytes: [UInt8], paletteSize: Int, quantized: Bool, hasTransparency: Bool,
        collapsedEdgePixels: Int, frameCount: Int, delays: [Int] = []
    ) {
        self.frameCount = frameCount
        self.delays = delays
        self.bytes = bytes
        self.paletteSize = paletteSize
        self.quantized = quantized
        self.hasTransparency = hasTransparency
        self.collapsedEdgePixels = collapsedEdgePixels
    }

    /// The warning for `collapsedEdgePixels` the tools print after the file name, or nil when
    /// no pixel was collapsed: `N half-transparent edge pixels were made fully opaque or …`.
    public var collapsedEdgeWarning: String? {
        guard collapsedEdgePixels > 0 else { return nil }
        return
            "\(collapsedEdgePixels) half-transparent edge pixels were made fully opaque or transparent (GIF has 1-bit alpha); pass --matte COLOR (the page colour) for smooth edges, or write APNG or WebP (real alpha)"
    }
}
