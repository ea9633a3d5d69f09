// SPDX-License-Identifier: GPL-3.0-or-later

/// How hard `APNGEncoder` compresses each frame's image data.
public enum APNGEffort: Equatable, Sendable, CaseIterable {
    /// Every candidate frame compressed by libdeflate level 6 and the smallest chosen; the
    /// chosen one then by libdeflate level 12 (Debian `libdeflate-dev`) and zlib level 9 on
    /// unfiltered scanlines and, when their libdeflate 6 stream is no larger
    /// (`rowFilterGate`), by libdeflate 12 on row-filtered ones, the smallest stream kept,
    /// then its symbols re-encoded in better blocks and Huffman codes (`DeflateRecoder`) when
    /// that is shorter; the frames of a batch on `workers` threads. Of the colour modes' files
    /// the smallest is kept, and each of its frames parsed again by the project's optimal
    /// parser (`DeflateSqueeze`, one pass, kept only when shorter) (docs/encoding.md, "APNG",
    /// rounds 16 and 21).
    case `default`
    /// As `.default`, with four passes of the parser, and every kept frame's data also
    /// compressed with Zopfli (Debian `libzopfli-dev`) and parsed again the same way, the
    /// shorter stream kept: a few per cent smaller, many times slower, never larger than
    /// `.default` (docs/encoding.md, "APNG", rounds 13, 20 and 21).
    case max
}

/// A duration of exactly `numerator / denominator` seconds.
public struct SecondsFraction: Equatable, Hashable, Sendable {
    /// ≥ 1.
    public var numerator: Int
    /// ≥ 1.
    public var denominator: Int

    /// `numerator / denominator` seconds.
    public init(numerator: Int, denominator: Int) {
        self.numerator = numerator
        self.denominator = denominator
    }

    /// The simplest fraction whose `Double` value is exactly `value`, with a denominator of at
    /// most `limit`, found among the convergents of `value`'s continued fraction: the fraction
    /// a person meant by a decimal they typed (`7` → 7/1, `29.97` → 2997/100, `0.4` → 2/5).
    /// Nil for a value ≤ 0, not finite, or not the value of such a fraction.
    public init?(approximating value: Double, denominatorLimit limit: Int = 1_000_000) {
        guard value.isFinite, value > 0, value < 1e12 else { return nil }
        // Convergents h/k of the continued fraction, h(-1)=1, h(-2)=0, k(-1)=0, k(-2)=1.
        var (h1, h2, k1, k2) = (1, 0, 0, 1)
        var x = value
        for _ in 0..<40 {
            let a = x.rounded(.down)
            guard a < 1e12 else { return nil }
            let whole = Int(a)
            let (hm, o1) = whole.multipliedReportingOverflow(by: h1)
            let (km, o2) = whole.multipliedReportingOverflow(by: k1)
            guard !o1, !o2 else { return nil }
            let (h, o3) = hm.addingReportingOverflow(h2)
            let (k, o4) = km.addingReportingOverflow(k2)
            guard !o3, !o4, k <= limit else { return nil }
            if h >= 1, Double(h) / Double(k) == value {
                self.init(numerator: h, denominator: k)
                return
            }
            (h2, h1, k2, k1) = (h1, h, k1, k)
            let rest = x - a
            guard rest > 0 else { return nil }
            x = 1 / rest
        }
        return nil
    }
}

/// What `APNGEncoder` ranks the candidates of a frame by (`APNGOptions.estimate`).
@_spi(Measure) public enum APNGEstimate: Equatable, Sendable {
    /// The size of zlib's level-9 stream (`Z_FILTERED` for palette indices).
    case zlib
    /// The size of libdeflate's stream at this level, 0…12 (clamped).
    case libdeflate(Int)
}

/// Choices for `APNGEncoder.encode`.
public struct APNGOptions: Equatable, Sendable {
    /// How many times the animation plays: `.forever` writes `num_plays` 0, `.plays(n)` writes
    /// n (1 … 2 147 483 647), the same meaning as for a GIF (APNG specification, `acTL`).
    public var loop: LoopCount
    /// How hard each frame is compressed; `.default` by default.
    public var effort: APNGEffort
    /// Threads the encoder may use, ≥ 1 (values below 1 count as 1); nil (the default) means
    /// one per online core. The bytes never depend on it.
    public var workers: Int?
    /// The loop period as an exact fraction of seconds, `numerator / denominator` (both ≥ 1),
    /// when the `period` passed to `APNGEncoder.encode` is only its nearest `Double` (10 frames at
    /// 7 fps: 10/7 s). The delays are made from it when every one reduces to 16-bit terms (1/7 s
    /// a frame); otherwise, and when nil, from `period` in whole microseconds (`APNGTiming`).
    public var exactPeriod: SecondsFraction?
    /// libdeflate level 0…12 for every frame (values outside are clamped); 12 (the default)
    /// measured smallest, for the measurements in docs/encoding.md.
    @_spi(Measure) public var deflateLevel: Int = 12
    /// Whether the candidates of a frame are compared by their libdeflate size (true) instead
    /// of their zlib level 9 size (false, the default, many times faster), for the measurements.
    @_spi(Measure) public var selectByFinal = false
    /// Zopfli iterations at `effort: .max`, ≥ 1 (default 15, Zopfli's own default), for the
    /// measurements in docs/encoding.md.
    @_spi(Measure) public var zopfliIterations: Int = 15
    /// Row-filter heuristics tried, besides unfiltered rows, on each chosen frame (PNG
    /// specification §9), for the measurements in docs/encoding.md.
    @_spi(Measure) public var rowFilters: [APNGRowFilterHeuristic] = [.minimumSum]
    /// A row-filtered variant is compressed by libdeflate only when its zlib level 9 stream is
    /// at most this many per mille of the unfiltered rows' (nil: always), for the measurements
    /// in docs/encoding.md.
    @_spi(Measure) public var rowFilterGate: Int? = 1000
    /// What the candidates of a frame, and the row-filter gate's variants, are compared by;
    /// by default libdeflate level 6 (16–45 % less CPU than zlib 9; docs/encoding.md, APNG,
    /// rounds 14 and 21), at both efforts, so `.max` compresses the frames `.default` chose; for
    /// the measurements in docs/encoding.md.
    @_spi(Measure) public var estimate: APNGEstimate = .libdeflate(6)
    /// With a libdeflate estimate, whether each chosen frame's unfiltered rows are also compressed
    /// by zlib 9 and kept when smaller, for the measurements in docs/encoding.md.
    @_spi(Measure) public var finalZlib = true
    /// With a libdeflate estimate, candidates within this many per mille of the smallest estimate
    /// are compressed by zlib 9 and chosen by that (nil: by the estimate alone), for the
    /// measurements in docs/encoding.md.
    @_spi(Measure) public var estimateMargin: Int? = nil
    /// Whether `OVER` frames are also tried with unchanged pixels sent as themselves where that
    /// continues a run, for the measurements in docs/encoding.md.
    @_spi(Measure) public var overRuns = true
    /// Whether an indexed palette is sorted by alpha and luma (true) or kept in order of first
    /// appearance, for the measurements in docs/encoding.md.
    @_spi(Measure) public var sortPalette = true
    /// Whether an animation that fits a palette is also written as truecolour with alpha, the
    /// smaller file kept, for the measurements in docs/encoding.md.
    @_spi(Measure) public var tryTruecolor = true
    /// Whether each frame's final stream is also re-encoded by `DeflateRecoder` (the same
    /// symbols, block boundaries and Huffman codes chosen for size) and the shorter stream kept
    /// (true, the default), for the measurements in docs/encoding.md (round 16).
    @_spi(Measure) public var recode = true
    /// Passes of `DeflateSqueeze`'s optimal parse on each frame of the file kept (nil: by
    /// effort, `DeflateSqueeze.passes(for:)`: 1 at `.default`, 4 at `.max`; 0: the recoder
    /// alone), for the measurements in docs/encoding.md (rounds 20 and 21).
    @_spi(Measure) public var squeezePasses: Int? = nil
    /// `DeflateSqueeze`'s search depth for the measurements (nil: `DeflateSqueeze.searchDepth`).
    @_spi(Measure) public var squeezeDepth: Int? = nil

    /// Options with the given values: by default loop forever, default effort, every core.
    public init(loop: LoopCount = .forever, effort: APNGEffort = .default, workers: Int? = nil) {
        self.loop = loop
        self.effort = effort
        self.workers = workers
    }
}
