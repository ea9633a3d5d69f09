// SPDX-License-Identifier: GPL-3.0-or-later

public import Raster

/// Writes animated PNGs (APNG specification, https://wiki.mozilla.org/APNG_Specification;
/// section names below refer to it).
///
/// Debian's libpng has no APNG API, so the encoder writes every chunk itself (`IHDR`, `acTL`,
/// `PLTE`, `tRNS`, `fcTL`, `IDAT`, `fdAT`, `IEND`, the sequence numbers) and compresses each
/// frame's scanlines with zlib and libdeflate. The file:
///
/// - `IHDR`, `acTL`, `PLTE` and `tRNS` (indexed only), then per frame `fcTL` and its data.
///   Frame 0's data is the `IDAT` ("Structure": the default image is part of the animation),
///   so a viewer without APNG support shows frame 0 as a still PNG.
/// - Identical consecutive frames (equal RGBA, every alpha-0 pixel counted equal whatever its
///   colour) become one frame with the delays summed; delays as in `APNGTiming`.
/// - Indexed colour (`PLTE` + `tRNS`, 1, 2, 4 or 8 bits) when the whole animation has at most
///   256 RGBA values (alpha-0 pixels count as one, transparent black), truecolour with alpha
///   otherwise. Both are lossless: every frame decodes to its input exactly. An indexed
///   animation is written with its palette in two orders (first seen; by alpha, then luma)
///   and, when `PLTE` and `tRNS` are a tenth of that file or more, as truecolour too; the
///   smallest file is kept.
/// - Rows (PNG specification §9): each chosen frame's scanlines are compressed unfiltered and,
///   when a libdeflate 6 estimate says they may win, with the filter type of least absolute sum
///   per row (libpng's heuristic), the smaller kept; the frames of a batch are finished in
///   parallel. Each colour mode's file is held as an `APNGFile`; the smallest is kept and only
///   its frames are parsed again by `DeflateSqueeze` (and, at `.max`, Zopfli), each kept when
///   shorter (docs/encoding.md, APNG, round 21).
/// - Frame differencing ("`fcTL`: dispose_op, blend_op"): for each frame after the first, the
///   encoder tries every way the previous frame may be disposed of (`NONE`, `BACKGROUND`,
///   `PREVIOUS`) and both blend operations (`SOURCE`; `OVER` when every pixel that changes
///   becomes opaque, so unchanged pixels can be sent fully transparent, or, where they are
///   opaque and continue the row's run, as themselves), each on the bounding box of the pixels
///   that differ, compresses each, and keeps the smallest.
///
/// Memory: two passes over `source` (colours and identical frames first, then encoding), each
/// holding a batch of frames and three canvases, plus the compressed output.
public enum APNGEncoder {
    /// Encodes `source` as one loop of an APNG.
    /// - Parameters:
    ///   - source: the frames, straight-alpha RGBA, frame `i` shown at `i·period/frameCount`.
    ///   - period: the loop's length in seconds, finite, > 0 and ≤ 1 000 000.
    ///   - options: loop count, effort, threads.
    /// - Returns: the file with its frame count, colour mode and delays.
    /// - Throws: `EncodeError` for a bad period or loop count, a frame of the wrong size, or
    ///   an oversized image (each side must fit PNG's 31 bits); `PNGCodec.CodecError` when libpng
    ///   fails; what `source.frames(_:)` throws.
    public static func encode(_ source: some FrameSource, period: Double, options: APNGOptions = APNGOptions())
        throws -> APNGEncoding
    {
        let width = source.width
        let height = source.height
        guard width > 0, height > 0, width <= Int(Int32.max), height <= Int(Int32.max),
            width.multipliedReportingOverflow(by: height).partialValue <= PNGCodec.maximumPixelCount,
            !width.multipliedReportingOverflow(by: height).overflow
        else {
            throw EncodeError("cannot write a \(width)×\(height) APNG")
        }
        guard source.frameCount >= 1 else { throw EncodeError("an APNG needs at least one frame") }
        let plays: UInt32
        switch options.loop {
        case .forever: plays = 0
        case .plays(let n):
            guard n >= 1, n <= Int(Int32.max) else {
                throw EncodeError("loop count \(n) is out of range: an APNG plays 1…2147483647 times or forever")
            }
            plays = UInt32(n)
        }
        let survey = try APNGSurvey.make(source)
        let timing = try APNGTiming.delays(period: period, runs: survey.runs, exactPeriod: options.exactPeriod)
        // An indexed animation is written with the palette in both orders (APNGColorMode.order)
        // in the same pass, and the smaller file kept (the first of equal sizes): which one wins
        // depends on the animation. When its PLTE and tRNS chunks are a tenth of that file or
        // more (a small animation with many shades), a second pass writes it as truecolour
        // with alpha too, kept if smaller (docs/encoding.md, "Colour").
        let first = APNGColorMode(survey: survey, sortPalette: false)
        var modes = [first]
        if first.isIndexed && options.sortPalette { modes.append(APNGColorMode(survey: survey, sortPalette: true)) }
        var (file, mode) = try write(
            source, modes: modes, delays: timing.delays, runs: survey.runs, plays: plays, options)
        if first.isIndexed && options.tryTruecolor, 10 * first.paletteChunkBytes >= file.byteCount {
            let rgba = APNGColorMode(survey: survey, truecolor: true)
            let other = try write(
                source, modes: [rgba], delays: timing.delays, runs: survey.runs, plays: plays, options)
            if other.file.byteCount < file.byteCount { (file, mode) = other }
        }
        // The harder compression runs on the kept file only: it takes a few tenths of a per cent
        // off each mode's file, less than the modes differ by (the same choice on the eight
        // presets compared, round 21).
        try file.refine(
            mode: mode, zopfli: options.effort == .max, zopfliIterations: options.zopfliIterations,
            squeezePasses: options.squeezePasses ?? DeflateSqueeze.passes(for: options.effort),
            squeezeDepth: options.squeezeDepth ?? DeflateSqueeze.searchDepth,
            workers: max(1, options.workers ?? ParallelWork.processorCount))
        let bytes = file.takeBytes()
        return APNGEncoding(
            bytes: bytes, frameCount: survey.runs.count, colorType: mode.type,
            paletteSize: mode.palette.map(\.count), delays: timing.delays, timingExact: timing.exact)
    }

    /// One pass over `source`: the animation written in each of `modes` at once; returns the
    /// smallest file (the first of equal sizes) and its mode.
    private static func write(
        _ source: some FrameSource, modes: [APNGColorMode], delays: [APNGDelay], runs: [Int], plays: UInt32,
        _ options: APNGOptions
    ) throws -> (file: APNGFile, mode: APNGColorMode) {
        let (width, height) = (source.width, source.height)
        var writers = modes.map {
            APNGWriter(width: width, height: height, mode: $0, options: options, frameCount: runs.count, plays: plays)
        }
        var runIndex = 0
        var nextStart = 0
        try source.forEachFrame { index, image in
            guard image.width == width, image.height == height else {
                throw EncodeError("frame \(index) is \(image.width)×\(image.height), expected \(width)×\(height)")
            }
            guard index == nextStart, runIndex < runs.count else { return }
            let packed = APNGCanvas.pack(image)
            for k in writers.indices { try writers[k].add(packed, delay: delays[runIndex]) }
            nextStart += runs[runIndex]
            runIndex += 1
        }
        guard runIndex == runs.count else {
            throw EncodeError("the frame source gave \(runIndex) distinct frames, then \(runs.count)")
        }
        var best: (file: APNGFile, mode: APNGColorMode)? = nil
        for k in writers.indices {
            let file = try writers[k].finish()
            if let kept = best, kept.file.byteCount <= file.byteCount { continue }
            best = (file, modes[k])
        }
        guard let best else { throw EncodeError("an APNG needs a colour mode") }
        return best
    }
}

/// Frame pixels as 32-bit keys `r<<24 | g<<16 | b<<8 | a`, every alpha-0 pixel 0.
enum APNGCanvas {
    /// `image` packed, transparent pixels made transparent black.
    static func pack(_ image: RGBAImage) -> [UInt32] {
        let count = image.width * image.height
        return image.pixels.withUnsafeBufferPointer { p in
            [UInt32](unsafeUninitializedCapacity: count) { out, initialized in
                for i in 0..<count {
                    let a = p[4 * i + 3]
                    out[i] =
                        a == 0
                        ? 0
                        : UInt32(p[4 * i]) << 24 | UInt32(p[4 * i + 1]) << 16 | UInt32(p[4 * i + 2]) << 8
                            | UInt32(a)
                }
                initialized = count
            }
        }
    }
}

/// Pass 1: the animation's colours (up to 257 of them: enough to know whether 256 suffice),
/// and its runs of identical frames.
struct APNGSurvey {
    /// Distinct packed colours in order of first appearance; stops growing past 256.
    var colors: [UInt32] = []
    /// Input frames per output frame.
    var runs: [Int] = []

    static func make(_ source: some FrameSource) throws -> APNGSurvey {
        var survey = APNGSurvey()
        var seen: [UInt32: Int] = [:]
        var previous: [UInt32] = []
        try source.forEachFrame { index, image in
            guard image.width == source.width, image.height == source.height else {
                throw EncodeError(
                    "frame \(index) is \(image.width)×\(image.height), expected \(source.width)×\(source.height)")
            }
            let packed = APNGCanvas.pack(image)
            if index > 0, packed == previous, let last = survey.runs.indices.last {
                survey.runs[last] += 1
                return
            }
            survey.runs.append(1)
            if survey.colors.count <= 256 {
                var last: UInt32? = nil
                for key in packed where key != last {
                    last = key
                    if seen[key] == nil {
                        seen[key] = survey.colors.count
                        survey.colors.append(key)
                        if survey.colors.count > 256 { break }
                    }
                }
            }
            previous = packed
        }
        return survey
    }
}

/// How the file stores pixels (PNG specification §11.2.2 `IHDR` colour types).
public enum APNGColorType: Equatable, Sendable {
    /// Colour type 3: palette indices of 1, 2, 4 or 8 bits, alpha in `tRNS`.
    case indexed
    /// Colour type 6: 8-bit RGBA.
    case truecolorAlpha

    /// `IHDR`'s colour type byte.
    var pngValue: UInt8 {
        switch self {
        case .indexed: 3
        case .truecolorAlpha: 6
        }
    }
}

/// Indexed (≤ 256 colours) or truecolour with alpha.
struct APNGColorMode: Sendable {
    /// The colour type written.
    let type: APNGColorType
    /// The palette when indexed: translucent entries first (so `tRNS` stops early), transparent
    /// black among them whenever it fits, so `OVER` frames can send unchanged pixels.
    let palette: [PNGPaletteEntry]?
    /// Palette index of each packed colour.
    let index: [UInt32: UInt8]
    /// The index of transparent black, when the palette has it.
    let transparentIndex: UInt8?

    /// `colors` translucent first (so `tRNS` stops early), then opaque; with `byLuma` each group
    /// sorted by alpha, then luma (0.299 R + 0.587 G + 0.114 B, in integers), then the key, so
    /// neighbouring shades get neighbouring indices and the row filters' differences stay small;
    /// else in order of first appearance.
    static func order(_ colors: [UInt32], byLuma: Bool) -> [UInt32] {
        let translucent = colors.filter { $0 & 0xFF != 0xFF }
        let opaque = colors.filter { $0 & 0xFF == 0xFF }
        guard byLuma else { return translucent + opaque }
        func luma(_ c: UInt32) -> UInt32 { 299 * (c >> 24) + 587 * (c >> 16 & 0xFF) + 114 * (c >> 8 & 0xFF) }
        let sorted: ([UInt32]) -> [UInt32] = {
            $0.sorted { ($0 & 0xFF, luma($0), $0) < ($1 & 0xFF, luma($1), $1) }
        }
        return sorted(translucent) + sorted(opaque)
    }

    init(survey: APNGSurvey, sortPalette: Bool = false, truecolor: Bool = false) {
        var colors = survey.colors
        if colors.count < 256, !colors.contains(0) { colors.append(0) }
        guard colors.count <= 256, !truecolor else {
            palette = nil
            index = [:]
            transparentIndex = nil
            // Opaque animations too: RGB (colour type 2) can only blend OVER through a tRNS key
            // colour, which Pillow 9.4 (Debian 12) ignores, and without OVER it was larger
            // (airplane 32 751 against 29 272 bytes; docs/encoding.md).
            type = .truecolorAlpha
            return
        }
        type = .indexed
        let ordered = APNGColorMode.order(colors, byLuma: sortPalette)
        var index: [UInt32: UInt8] = [:]
        for (k, c) in ordered.enumerated() { index[c] = UInt8(k) }
        self.index = index
        transparentIndex = index[0]
        palette = ordered.map {
            PNGPaletteEntry(
                red: UInt8(truncatingIfNeeded: $0 >> 24), green: UInt8(truncatingIfNeeded: $0 >> 16),
                blue: UInt8(truncatingIfNeeded: $0 >> 8), alpha: UInt8(truncatingIfNeeded: $0))
        }
    }

    /// Bytes of the `PLTE` and `tRNS` chunks (12 bytes of chunk framing each), 0 for truecolour.
    var paletteChunkBytes: Int {
        guard let palette else { return 0 }
        let translucent = palette.lastIndex(where: { $0.alpha != 255 }).map { $0 + 1 + 12 } ?? 0
        return 12 + 3 * palette.count + translucent
    }

    /// Whether the file is a palette PNG.
    var isIndexed: Bool { palette != nil }

    /// Bits per palette index (1, 2, 4 or 8; PNG specification §11.2.2), 8 for truecolour.
    var bitDepth: Int {
        guard let palette else { return 8 }
        return palette.count <= 2 ? 1 : palette.count <= 4 ? 2 : palette.count <= 16 ? 4 : 8
    }

    /// Bytes per complete pixel for the filters (PNG specification §9.2 "bpp", at least 1).
    var filterStride: Int {
        switch type {
        case .indexed: 1
        case .truecolorAlpha: 4
        }
    }

    /// Bytes of one row of `width` pixels, without the filter byte.
    func rowBytes(width: Int) -> Int {
        switch type {
        case .indexed: (width * bitDepth + 7) / 8
        case .truecolorAlpha: 4 * width
        }
    }
}
