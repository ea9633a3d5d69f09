// SPDX-License-Identifier: GPL-3.0-or-later

public import Spec

/// Choices for `GIFEncoder.encode`: looping, how partial alpha becomes GIF's 1-bit
/// transparency (semantics.md §8.2, §8.5) and how a quantised palette is dithered.
public struct GIFOptions: Equatable, Sendable {
    /// How many times the GIF plays; `.forever` by default.
    public var loop: LoopCount
    /// The page colour half-transparent pixels are blended onto, or `nil`.
    ///
    /// With a matte, every pixel with alpha > 0 becomes opaque with the straight-alpha blend
    /// `c·a + m·(1 − a)` per channel (rounded to 8 bits) and alpha 0 stays transparent.
    /// The matte's own alpha is ignored (a page is opaque).
    public var matte: RGBAColor?
    /// Without a matte: alpha ≥ threshold is opaque with its straight colour, anything less is
    /// transparent. 0…255, default 128. Alpha 0 is always transparent, so 0 acts like 1.
    public var alphaThreshold: UInt8
    /// How a quantised palette approximates colours it lacks; `.none` by default (see
    /// `GIFDither`). Has no effect when the animation's colours fit an exact palette.
    public var dither: GIFDither
    /// Near-lossless frame differencing: the largest difference, in levels per channel
    /// (0…255), by which a displayed opaque pixel may differ from its colour after the alpha
    /// policy and palette. A pixel whose wanted colour is within this of what the screen
    /// already shows keeps it instead of being redrawn, and frames the screen already shows
    /// within it merge with the previous one, and the LZW parse may write any colour within it.
    /// Transparency is always exact. The file is never larger than with 0 (the default, which
    /// is lossless): when the exact encoding comes out no larger, it is the one written.
    public var lossy: Int
    /// Threads the encoder may use, ≥ 1 (values below 1 count as 1); nil (the default) means
    /// one per online core. The bytes written never depend on it: the work is split by frame
    /// and every result is put back in frame order.
    public var workers: Int?

    /// Options with the given values; the defaults loop forever, use no matte, a threshold of
    /// 128, no dithering and no loss, on every core.
    public init(
        loop: LoopCount = .forever, matte: RGBAColor? = nil, alphaThreshold: UInt8 = 128,
        dither: GIFDither = .none, lossy: Int = 0, workers: Int? = nil
    ) {
        self.loop = loop
        self.matte = matte
        self.alphaThreshold = alphaThreshold
        self.dither = dither
        self.lossy = lossy
        self.workers = workers
    }
}
