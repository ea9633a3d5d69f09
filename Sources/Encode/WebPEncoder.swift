// SPDX-License-Identifier: GPL-3.0-or-later

internal import CWebP
public import Raster

/// Animated WebP encoding through libwebp's `WebPAnimEncoder` (libwebpmux).
///
/// Frames are taken from the source a batch at a time and handed to `WebPAnimEncoderAdd` as they
/// come, so memory holds one batch, libwebp's two canvases and the compressed output, never the
/// whole loop. libwebp chooses each frame's rectangle, disposal (none or to background) and
/// blending, and merges a frame identical to the one before into it with the durations summed.
///
/// Output rules:
/// - Lossless (`WebPOptions.quality == nil`): VP8L frames, so every composited frame decodes to
///   the input RGBA exactly: alpha everywhere, colour wherever alpha > 0. `exact` is set, so
///   libwebp does not rewrite the colour under transparent pixels either (it may still show the
///   previous frame's there, through blending); `allow_mixed` off, so no frame is lossy.
/// - Lossy (`quality` 0…100): VP8 frames at that quality with the alpha plane at the same
///   quality; `allow_mixed` on as measured (docs/encoding.md), so a frame that compresses
///   smaller lossless is kept lossless.
/// - Timing: frame `i` starts at `Σ_{j<i} d_j` ms with `d = FrameTiming.millisecondDurations`
///   (cumulative rounding), and a last `WebPAnimEncoderAdd(NULL, end)` gives the last frame its
///   duration, so the loop totals exactly `round(1000·P)` ms (1 s at 30 fps: 1000 ms of 33/34 ms
///   frames).
/// - The ANIM chunk's loop count per `WebPOptions.loop`, background colour transparent black.
/// - Identical input gives identical bytes on any machine and with any `workers`.
/// - Lossless at the default effort, one encoder: frame 0 chooses its method (`Choice`).
public enum WebPEncoder {
    /// Encodes the animation in `source`, looping over `period` seconds.
    ///
    /// - Parameters:
    ///   - source: the frames, 1…16 383 pixels per side (WebP's limit), straight alpha.
    ///   - period: the loop's length in seconds, finite and > 0; with `source.frameCount`
    ///     it must give every frame a duration of 11…16 777 215 ms (browsers play 10 ms or
    ///     less as 100 ms: Chromium's `DeferredImageDecoder::FrameDurationAtIndex`, Firefox's
    ///     `FrameTimeout::FromRawMilliseconds`; ANMF durations are 24-bit, WebP container
    ///     specification).
    ///   - options: looping, lossless or lossy quality, effort, threads.
    /// - Returns: the file, its frame count and every frame's timestamp.
    /// - Throws: `EncodeError` for bad arguments (size, period, durations, loop count or quality
    ///   out of range, a frame of the wrong size) and for every libwebp failure, naming the
    ///   step; whatever `source.frames(_:)` throws.
    public static func encode(_ source: some FrameSource, period: Double, options: WebPOptions) throws
        -> WebPEncoding
    {
        try encode(
            source, period: period, options: options, tunings: tunings(for: options),
            choosing: options.quality == nil && options.effort == .default ? .byFirstFrame : .smallestFile)
    }

    /// Frames of fewer pixels than this (256 × 256) compress the probe's stills one after the
    /// other on the calling thread (`Choice.byFirstFrame`).
    static let parallelProbePixels = 256 * 256

    /// Frames of fewer pixels than this (128 × 128) skip the probe of `Choice.byFirstFrame` and
    /// take the last tuning (method 4, img2webp's default). A still costs libwebp a fixed set-up
    /// besides its pixels (clearing its tables: 6.5 M of the two stills' 9.8 M instructions on
    /// loading-dots, 176 × 56), so on small frames the stills were 2–6 % of the whole
    /// `assemble` (loading-dots 9.8 M of 178 M instructions, circular-linear 4.2 M of 219 M);
    /// and on every bundled preset below this size both methods wrote the same file (round 13),
    /// so the probe never changed a byte there (docs/encoding.md, "Round 19").
    static let probePixels = 128 * 128

    /// How `encode(_:period:options:tunings:choosing:)` picks among its tunings.
    @_spi(Measure) public enum Choice: Sendable {
        /// Every tuning encodes the whole animation (side by side) and the smallest file wins.
        case smallestFile
        /// Frame 0 is compressed as a still image with each tuning's `WebPConfig`, and only the
        /// tuning with the smallest still (the last of equal sizes) encodes the animation: one
        /// encoder's work instead of one per tuning. Frames under `probePixels` take the last
        /// tuning without the stills. Lossless `.default` uses it (measured in
        /// docs/encoding.md, "Round 13": methods 3 and 4 wrote the same file on ten of
        /// the twelve bundled presets; method 3 was 3.2 % smaller on arc-rotation, whose frame
        /// 0 is smaller in method 3 too, and method 4 4 bytes smaller on flipping-square, whose
        /// frame 0 is equal in both, so the last of equal sizes, method 4, img2webp's
        /// default, is the tie-break). A prediction, not a bound: on other frames the tuning not
        /// chosen may have been smaller.
        case byFirstFrame
    }

    /// libwebp settings for one encoder. `tunings(for:)` picks them from `WebPOptions`; the
    /// measurements in docs/encoding.md vary them directly (`animexport-bench --encode-frames`).
    @_spi(Measure) public struct Tuning: Equatable, Sendable {
        /// `WebPConfig.method`, 0…6: how many strategies a frame's compression tries.
        public var method: Int32
        /// Lossless: `WebPConfig.quality` as effort (0…100, 100 the hardest). Lossy: unused.
        public var losslessEffort: Float
        /// `WebPAnimEncoderOptions.minimize_size`: try both disposals on every frame.
        public var minimizeSize: Bool
        /// `WebPAnimEncoderOptions.kmin` / `kmax`; `kmin` ≤ 0 disables key-frame insertion.
        public var kmin: Int32
        /// See `kmin`.
        public var kmax: Int32
        /// `WebPAnimEncoderOptions.allow_mixed`: lossy or lossless chosen per frame.
        public var allowMixed: Bool
        /// `WebPConfig.exact`: keep the RGB of transparent pixels.
        public var exact: Bool
        /// `WebPConfig.thread_level`: 0 one thread, 1 up to two per frame.
        public var threadLevel: Int32

        /// Settings with the given values (each as its libwebp field).
        public init(
            method: Int32, losslessEffort: Float, minimizeSize: Bool, kmin: Int32, kmax: Int32, allowMixed: Bool,
            exact: Bool, threadLevel: Int32
        ) {
            self.method = method
            self.losslessEffort = losslessEffort
            self.minimizeSize = minimizeSize
            self.kmin = kmin
            self.kmax = kmax
            self.allowMixed = allowMixed
            self.exact = exact
            self.threadLevel = threadLevel
        }
    }

    /// The settings `options` ask for, one encoder each (measured in docs/encoding.md,
    /// "Animated WebP").
    ///
    /// - `.default`: method 3 and method 4 (img2webp's default) at lossless effort 75, no key
    ///   frames, one disposal guess per frame. Lossless, frame 0 compressed as a still picks
    ///   the one that encodes the animation (`Choice.byFirstFrame`): on the bundled presets that
    ///   is the file the two side by side gave (method 3 on arc-rotation, 3.2 % smaller; method
    ///   4 on flipping-square, 4 bytes smaller; the same bytes either way on the other ten) at
    ///   one encoder's cost. Lossy: both encode, the smaller file wins.
    /// - `.max`: three encoders with `minimize_size` (both disposals tried on every frame):
    ///   img2webp `-min_size`'s settings (method 4, effort 75), method 3 at effort 100 and
    ///   method 6 at effort 100; the smallest file wins, so it is never larger than the first.
    /// - Lossy (`quality` set): the same methods, with `allow_mixed` on, so libwebp may keep a
    ///   frame lossless where that is smaller: on the bundled presets at quality 75 it was never
    ///   larger than all-lossy and up to 40 % smaller (flat loaders compress better lossless).
    /// - `thread_level` 0 everywhere: libwebp's second thread per frame gained nothing measurable
    ///   on the presets, and one thread per encoder keeps the determinism argument trivial.
    @_spi(Measure) public static func tunings(for options: WebPOptions) -> [Tuning] {
        let lossless = options.quality == nil
        let settings: [(method: Int32, effort: Float)] =
            switch options.effort {
            case .default: [(3, 75), (4, 75)]
            case .max: [(4, 75), (3, 100), (6, 100)]
            }
        return settings.map { method, effort in
            Tuning(
                method: method, losslessEffort: effort, minimizeSize: options.effort == .max, kmin: 0, kmax: 0,
                allowMixed: !lossless, exact: lossless, threadLevel: 0)
        }
    }

    /// Largest side of a WebP image in pixels (WEBP_MAX_DIMENSION in libwebp's encode.h).
    public static let maximumSide = 16_383
    /// Most plays a WebP can ask for: the ANIM chunk's loop count is 16 bits (WebP container
    /// specification), 0 meaning forever.
    public static let maximumPlays = 65_535
    /// Largest ANMF frame duration in ms: the field is 24 bits (WebP container specification).
    static let maximumDuration = (1 << 24) - 1
    /// Shortest frame duration in ms that browsers play as written (they play 10 ms or less as
    /// 100 ms); `encode` refuses shorter frames.
    public static let minimumDuration = 11

    /// `encode` with explicit libwebp settings: one encoder per entry of `tunings`, all fed the
    /// same frames in one pass (side by side on up to `workers` threads), and the smallest file
    /// kept (the first of equal sizes), so the bytes do not depend on the thread count; with
    /// `choosing: .byFirstFrame` only the one encoder frame 0 picks (see `Choice`).
    @_spi(Measure) public static func encode(
        _ source: some FrameSource, period: Double, options: WebPOptions, tunings: [Tuning],
        choosing: Choice = .smallestFile
    ) throws
        -> WebPEncoding
    {
        let width = source.width
        let height = source.height
        guard (1...maximumSide).contains(width), (1...maximumSide).contains(height) else {
            throw EncodeError("WebP frames are \(width)×\(height); each side must be 1…\(maximumSide) pixels")
        }
        let count = source.frameCount
        let durations = FrameTiming.millisecondDurations(period: period, frameCount: count)
        guard durations.count == count, count >= 1 else {
            throw EncodeError("cannot time \(count) frames over a period of \(period) s")
        }
        if let bad = durations.enumerated().first(where: { !(minimumDuration...maximumDuration).contains($0.element) })
        {
            throw EncodeError(
                "frame \(bad.offset) would last \(bad.element) ms; WebP frames must last \(minimumDuration)…"
                    + "\(maximumDuration) ms (browsers play 10 ms or less as 100 ms)")
        }
        var timestamps = [0]
        timestamps.reserveCapacity(count + 1)
        for duration in durations { timestamps.append(timestamps[timestamps.count - 1] + duration) }
        // period ≤ 1 000 000 s (FrameTiming), so the total is ≤ 10^9 ms and fits Int32.
        guard let end = Int32(exactly: timestamps[count]) else {
            throw EncodeError("a loop of \(timestamps[count]) ms is too long for WebP timestamps")
        }
        let stamps = timestamps

        var candidates = try tunings.map { tuning throws(EncodeError) in
            try Candidate(width: width, height: height, loop: options.loop, quality: options.quality, tuning: tuning)
        }
        guard !candidates.isEmpty else { throw EncodeError("no WebP settings to encode with") }
        let workers = max(1, options.workers ?? ParallelWork.processorCount)

        try source.forEachBatch { first, frames in
            for (offset, frame) in frames.enumerated() {
                let index = first + offset
                guard frame.width == width, frame.height == height, frame.pixels.count == width * height * 4 else {
                    throw EncodeError("frame \(index) is \(frame.width)×\(frame.height), expected \(width)×\(height)")
                }
                if index == 0, choosing == .byFirstFrame, candidates.count > 1, width * height < probePixels {
                    candidates = [candidates[candidates.count - 1]]
                } else if index == 0, choosing == .byFirstFrame, candidates.count > 1 {
                    let all = candidates
                    // Side by side only where a still takes long enough to pay for starting
                    // the threads (on loading-dots, 176×56, the two stills on the calling thread
                    // took less CPU than the thread start-up); the choice is the same either way.
                    let probeWorkers = width * height >= parallelProbePixels ? workers : 1
                    let sizes = try ParallelWork.map(count: all.count, workers: probeWorkers) {
                        (k: Int) throws(EncodeError) in try all[k].stillSize(frame)
                    }
                    // The last of the smallest (see Choice.byFirstFrame).
                    var chosen = 0
                    for k in sizes.indices where sizes[k] <= sizes[chosen] { chosen = k }
                    candidates = [candidates[chosen]]
                }
                let active = candidates
                _ = try ParallelWork.map(count: active.count, workers: workers) { (k: Int) throws(EncodeError) in
                    try active[k].add(frame, index: index, timestamp: Int32(stamps[index]))
                }
            }
        }
        let finishing = candidates
        let files = try ParallelWork.map(count: finishing.count, workers: workers) { (k: Int) throws(EncodeError) in
            try finishing[k].finish(end: end)
        }
        // Non-empty: candidates is.
        var bytes = files[0]
        for file in files.dropFirst() where file.count < bytes.count { bytes = file }
        return WebPEncoding(bytes: bytes, frameCount: max(1, anmfCount(bytes)), timestamps: timestamps)
    }

    /// One `WebPAnimEncoder` with its settings. Used by one thread at a time: each frame's
    /// `add` (and the `finish`) runs once per candidate inside one `ParallelWork.map`.
    private final class Candidate: @unchecked Sendable {
        let encoder: WebPAnimEncoderHandle
        var config: WebPConfig
        let width: Int32
        let height: Int32

        init(width: Int, height: Int, loop: LoopCount, quality: Int?, tuning: Tuning) throws(EncodeError) {
            var animOptions = try WebPEncoder.animationOptions(loop: loop, tuning: tuning)
            config = try WebPEncoder.frameConfig(quality: quality, tuning: tuning)
            // Both ≤ maximumSide, checked by the caller.
            self.width = Int32(width)
            self.height = Int32(height)
            encoder = try WebPAnimEncoderHandle(width: self.width, height: self.height, options: &animOptions)
        }

        /// Adds frame `index`, starting at `timestamp` ms.
        func add(_ frame: RGBAImage, index: Int, timestamp: Int32) throws(EncodeError) {
            let picture = try WebPPictureHandle(rgba: frame.pixels, width: width, height: height, frame: index)
            guard WebPAnimEncoderAdd(encoder.pointer, &picture.picture, timestamp, &config) != 0 else {
                throw EncodeError(
                    "libwebp WebPAnimEncoderAdd (frame \(index)): \(encoder.lastError) "
                        + "(\(WebPEncoder.describe(picture.picture.error_code)))")
            }
        }

        /// The size in bytes of `frame` compressed alone as a still WebP with this encoder's
        /// `WebPConfig` (`WebPEncode` into a `WebPMemoryWriter`).
        func stillSize(_ frame: RGBAImage) throws(EncodeError) -> Int {
            let picture = try WebPPictureHandle(rgba: frame.pixels, width: width, height: height, frame: 0)
            let writer = UnsafeMutablePointer<WebPMemoryWriter>.allocate(capacity: 1)
            WebPMemoryWriterInit(writer)
            defer {
                WebPMemoryWriterClear(writer)
                writer.deallocate()
            }
            picture.picture.writer = WebPMemoryWrite
            picture.picture.custom_ptr = UnsafeMutableRawPointer(writer)
            guard WebPEncode(&config, &picture.picture) != 0 else {
                throw EncodeError("libwebp WebPEncode (frame 0): \(WebPEncoder.describe(picture.picture.error_code))")
            }
            return writer.pointee.size
        }

        /// Ends the last frame at `end` ms and assembles the file.
        func finish(end: Int32) throws(EncodeError) -> [UInt8] {
            guard WebPAnimEncoderAdd(encoder.pointer, nil, end, nil) != 0 else {
                throw EncodeError("libwebp WebPAnimEncoderAdd (end of loop at \(end) ms): \(encoder.lastError)")
            }
            let output = WebPDataHandle()
            guard WebPAnimEncoderAssemble(encoder.pointer, &output.data) != 0 else {
                throw EncodeError("libwebp WebPAnimEncoderAssemble: \(encoder.lastError)")
            }
            return output.bytes
        }
    }

    /// The animation-wide settings, checked by libwebp's initialiser.
    fileprivate static func animationOptions(loop: LoopCount, tuning: Tuning) throws(EncodeError)
        -> WebPAnimEncoderOptions
    {
        var options = WebPAnimEncoderOptions()
        guard aex_webp_anim_options_init(&options) != 0 else {
            throw EncodeError("libwebp WebPAnimEncoderOptionsInit: ABI mismatch")
        }
        options.anim_params.loop_count = try loop.webpLoopCount()
        // A hint viewers may ignore (container specification); browsers and libwebp's own
        // decoder show transparency, so say so.
        options.anim_params.bgcolor = 0
        options.minimize_size = tuning.minimizeSize ? 1 : 0
        options.kmin = tuning.kmin
        options.kmax = tuning.kmax
        options.allow_mixed = tuning.allowMixed ? 1 : 0
        options.verbose = 0
        return options
    }

    /// The per-frame settings, validated by libwebp.
    fileprivate static func frameConfig(quality: Int?, tuning: Tuning) throws(EncodeError) -> WebPConfig {
        var config = WebPConfig()
        guard aex_webp_config_init(&config) != 0 else {
            throw EncodeError("libwebp WebPConfigInit: ABI mismatch")
        }
        if let quality {
            guard (0...100).contains(quality) else {
                throw EncodeError("WebP quality \(quality) is outside 0…100")
            }
            config.lossless = 0
            config.quality = Float(quality)
            config.alpha_quality = Int32(quality)
        } else {
            config.lossless = 1
            config.quality = tuning.losslessEffort
        }
        config.method = tuning.method
        config.exact = tuning.exact ? 1 : 0
        config.thread_level = tuning.threadLevel
        guard WebPValidateConfig(&config) != 0 else {
            throw EncodeError("libwebp WebPValidateConfig: settings refused (method \(tuning.method))")
        }
        return config
    }

    /// ANMF chunks in a RIFF WebP file (0 for a still image or a damaged file).
    static func anmfCount(_ bytes: [UInt8]) -> Int {
        var count = 0
        var offset = 12  // "RIFF", size, "WEBP"
        while offset + 8 <= bytes.count {
            let size =
                Int(bytes[offset + 4]) | Int(bytes[offset + 5]) << 8 | Int(bytes[offset + 6]) << 16
                | Int(bytes[offset + 7]) << 24
            if bytes[offset..<offset + 4].elementsEqual("ANMF".utf8) { count += 1 }
            offset += 8 + size + (size & 1)
        }
        return count
    }

    /// libwebp's name for an encoding error code.
    static func describe(_ code: WebPEncodingError) -> String {
        switch code {
        case VP8_ENC_OK: "no error code"
        case VP8_ENC_ERROR_OUT_OF_MEMORY: "out of memory"
        case VP8_ENC_ERROR_BITSTREAM_OUT_OF_MEMORY: "out of memory for the bitstream"
        case VP8_ENC_ERROR_NULL_PARAMETER: "null parameter"
        case VP8_ENC_ERROR_INVALID_CONFIGURATION: "invalid configuration"
        case VP8_ENC_ERROR_BAD_DIMENSION: "bad dimension"
        case VP8_ENC_ERROR_PARTITION0_OVERFLOW: "partition 0 overflow"
        case VP8_ENC_ERROR_PARTITION_OVERFLOW: "partition overflow"
        case VP8_ENC_ERROR_BAD_WRITE: "bad write"
        case VP8_ENC_ERROR_FILE_TOO_BIG: "file too big"
        case VP8_ENC_ERROR_USER_ABORT: "user abort"
        default: "error code \(code.rawValue)"
        }
    }
}

extension LoopCount {
    /// The ANIM chunk's loop count: 0 for `.forever`, `n` for `.plays(n)` (WebP counts plays in
    /// total, see `WebPOptions.loop`).
    /// - Throws: `EncodeError` when `n` is outside 1…65 535 (the field is 16 bits).
    func webpLoopCount() throws(EncodeError) -> Int32 {
        switch self {
        case .forever:
            return 0
        case .plays(let n):
            guard n >= 1, n <= WebPEncoder.maximumPlays else {
                throw EncodeError("loop count \(n) is out of range: a WebP plays 1…65535 times or forever")
            }
            return Int32(n)
        }
    }
}
