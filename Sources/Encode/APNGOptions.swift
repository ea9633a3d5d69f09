// SPDX-License-Identifier: GPL-3.0-or-later

/// How hard `APNGEncoder` compresses each frame's image data.
public enum APNGEffort: Equatable, Sendable, CaseIterable {
    /// Every candidate frame compressed by zlib level 9 and the smallest chosen; the chosen one
    /// then by libdeflate level 12 (Debian `libdeflate-dev`) on unfiltered scanlines and, when
    /// their zlib 9 stream is no larger (`rowFilterGate`), on row-filtered ones, the smallest
    /// stream kept, then its symbols re-encoded in better blocks and Huffman codes
    /// (`DeflateRecoder`) when that is shorter; the frames of a batch on `workers` threads
    /// (docs/encoding.md, "APNG", round 16).
    case `default`
    /// As `.default`, then every frame's chosen data compressed again with Zopfli (Debian
    /// `libzopfli-dev`), keeping whichever stream is smaller (and re-encoded by
    /// `DeflateRecoder` after that choice): a few per cent smaller, many times slower
    /// (docs/encoding.md, "APNG").
    case max
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
    /// libdeflate level 0…12 the candidates of a frame, and the row-filter gate's variants, are
    /// compared by (nil: zlib level 9, `Z_FILTERED` for palette indices), for the measurements
    /// in docs/encoding.md.
    @_spi(Measure) public var estimateLevel: Int? = nil
    /// With `estimateLevel` set, whether each chosen frame's unfiltered rows are also compressed
    /// by zlib 9 and kept when smaller, for the measurements in docs/encoding.md.
    @_spi(Measure) public var finalZlib = true
    /// With `estimateLevel` set, candidates within this many per mille of the smallest estimate
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

    /// Options with the given values: by default loop forever, default effort, every core.
    public init(loop: LoopCount = .forever, effort: APNGEffort = .default, workers: Int? = nil) {
        self.loop = loop
        self.effort = effort
        self.workers = workers
    }
}
