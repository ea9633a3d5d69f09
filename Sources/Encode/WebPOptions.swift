// SPDX-License-Identifier: GPL-3.0-or-later

/// Choices for `WebPEncoder.encode`: looping, lossless or lossy, and how hard libwebp works.
public struct WebPOptions: Equatable, Sendable {
    /// How many times the animation plays in total, with the same meaning as for GIF;
    /// `.forever` by default. Written as the ANIM chunk's loop count: `.forever` is 0,
    /// `.plays(n)` is `n`, 1…65 535 (the field is 16 bits). The WebP container specification
    /// (https://developers.google.com/speed/webp/docs/riff_container, "ANIM chunk") defines the
    /// count as the number of times to loop with 0 meaning infinitely, and Chromium plays a count
    /// `n` as `n` cycles in total (`WEBPImageDecoder::UpdateDemuxer`: "WebP defines loop count as
    /// the number of cycles, with 0 meaning infinite"), unlike GIF's NETSCAPE count of repeats.
    public var loop: LoopCount
    /// `nil` (the default) for lossless WebP: every frame decodes to the input exactly,
    /// alpha included. 0…100 for lossy WebP (VP8) at that quality, 100 the best and largest;
    /// the alpha plane is then quantised with the same quality (`WebPConfig.alpha_quality`),
    /// and libwebp may keep a frame lossless where that is smaller (`allow_mixed`).
    public var quality: Int?
    /// How hard libwebp searches for a small file; `.default` by default.
    public var effort: WebPEffort
    /// Threads the encoder may use, ≥ 1 (values below 1 count as 1); `nil` (the default) means
    /// one per online core. The encoders of an effort (two at `.default`, three at `.max`) run
    /// side by side. Each encoder is single-threaded (`thread_level` 0), so the bytes written never
    /// depend on it (a test holds them equal).
    public var workers: Int?

    /// Options with the given values; the defaults loop forever, lossless, at default effort,
    /// on every core.
    public init(loop: LoopCount = .forever, quality: Int? = nil, effort: WebPEffort = .default, workers: Int? = nil) {
        self.loop = loop
        self.quality = quality
        self.effort = effort
        self.workers = workers
    }
}

/// How long libwebp searches for a small file. `docs/encoding.md` ("Animated WebP") has the
/// measurements behind each level's settings.
public enum WebPEffort: String, CaseIterable, Equatable, Sendable {
    /// Fast and small: libwebp methods 3 and 4 at lossless effort 75, two encoders side by
    /// side, the smaller file kept.
    case `default`
    /// Slowest and smallest: three encoders with `minimize_size` (every frame tried with both
    /// disposals), img2webp `-min_size`'s settings among them, and the smallest file kept; 50–200×
    /// the default's time on the bundled presets.
    case max
}
