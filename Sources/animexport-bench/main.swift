// SPDX-License-Identifier: GPL-3.0-or-later
//
// animexport-bench: measures one preset at one scale and prints one table row.
// `make bench` runs it once per scale, each in its own process so peak memory is per run.
//
//   animexport-bench PRESET [--scale S] [--header]
//
// `make bench-peers` also uses it to encode a directory of PNG frames (as `animexport --frames`
// writes them) into a GIF, so animexport and the peer tools start from the same files; the
// preset supplies the loop period and the matte (`--matte none` thresholds instead):
//
//   animexport-bench --encode-frames DIR PRESET -o OUT.gif [--matte COLOR|none] [--dither MODE]
//                    [--lossy N] [--workers N] [--repeat N]
//   animexport-bench --encode-frames DIR PRESET -o OUT.apng|OUT.webp [--effort max] [--workers N]
//                    [--repeat N] [--deflate-level N] [--filter-gate N|off] [--estimate zlib|N[,nozlib]] [--estimate-margin N] [--recode 0|1] [--squeeze N[,DEPTH]]
//                    [--webp M,Q,EXACT,MINSIZE]...
//                    [--stream]
//
// The same with `-o OUT.apng` or `-o OUT.webp` encodes the frames (at the preset's own frame
// rate: the frame count must match) with `APNGEncoder` or `WebPEncoder` instead, as the CLI
// would (`--effort max` as `animexport --effort max`; `--matte`, `--dither` and `--lossy` are
// GIF-only). For the measurements in docs/encoding.md, `--deflate-level N` (APNG, 0…12) and
// `--webp M,Q,EXACT,MINSIZE` (WebP: one libwebp encoder, method M, lossless effort Q, `exact` and
// `minimize_size` 0 or 1; repeatable, the smallest file kept) override the measured settings.
// `--stream` (WebP only) decodes the PNGs a batch at a time inside the encode, as img2webp reads
// its files, and prints `decode-and-encode-ms`: the like-for-like process against img2webp.
//
// (`--repeat N` encodes N times in the one process and prints the fastest encode; every run
// must give the same bytes. Later runs reuse memory the first one faulted in, so this suits
// comparing arithmetic, not memory use.)
//
// and to measure PNG compression choices on one image (docs/encoding.md has the table):
//
//   animexport-bench --png-strategies IMAGE.png
//
// and to measure a whole export's peak memory as the CLI runs it (frames streamed from
// `RenderedFrames` through each format, files counted and dropped; one process per row):
//
//   animexport-bench --export PRESET [--scale S] [--fps F] [--duration SEC] [--formats gif,sheet] [--header]

import Dispatch
@_spi(Measure) import Encode
import Encode
import Export
import Foundation
import OutputFiles
import Raster
import Render
import Spec
import Timeline

#if canImport(Glibc)
    import Glibc
#endif

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

func peakMemoryMB() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_maxrss) / 1024  // ru_maxrss is in KiB on Linux
}

func pad(_ s: String, _ n: Int) -> String { s.count >= n ? s : String(repeating: " ", count: n - s.count) + s }

/// Writes `message` on stderr and exits with `code`.
func fail(_ message: String, _ code: Int32) -> Never {
    FileHandle.standardError.write(Data("error: \(message)\n".utf8))
    exit(code)
}

/// Per-frame results written from several threads, each index once.
final class DecodedSlots: @unchecked Sendable {
    private var slots: [Result<RGBAImage, any Error>?]
    private let lock = NSLock()
    init(count: Int) { slots = Array(repeating: nil, count: count) }
    func set(_ i: Int, _ result: Result<RGBAImage, any Error>) { lock.withLock { slots[i] = result } }
    func values() throws -> [RGBAImage] {
        try slots.map { try ($0 ?? .failure(EncodeError("a frame was not decoded"))).get() }
    }
}

/// Settings of `--encode-frames` for the APNG and WebP encoders.
struct AnimatedSettings {
    var effort = APNGEffort.default
    var deflateLevel: Int?
    var rowFilters: [APNGRowFilterHeuristic]?
    var overRuns: Bool?
    /// `--filter-gate N|off`: `APNGOptions.rowFilterGate` (per mille), `.some(nil)` for off.
    var filterGate: Int??
    /// `--estimate zlib|N[,nozlib]`: `APNGOptions.estimate` and `finalZlib` (false with `,nozlib`).
    var estimate: APNGEstimate?
    var finalZlib: Bool?
    /// `--estimate-margin N`: `APNGOptions.estimateMargin` (per mille).
    var estimateMargin: Int?
    var sortPalette: Bool?
    var tryTruecolor: Bool?
    /// `--recode 0|1`: `APNGOptions.recode`.
    var recode: Bool?
    /// `--squeeze N[,DEPTH]`: `APNGOptions.squeezePasses` and `squeezeDepth`.
    var squeeze: (Int, Int?)?
    var webpTunings: [WebPEncoder.Tuning] = []
    /// `--stream` (WebP): decode the PNGs a batch at a time inside the encode, as img2webp
    /// reads one file after another, instead of all of them up front on every core.
    var stream = false
}

/// The PNG frames of a folder as a `FrameSource` that decodes each batch when the encoder asks
/// for it (`--stream`): one batch in memory, like img2webp's one picture at a time.
struct PNGFolderSource: FrameSource {
    let paths: [String]
    let width: Int
    let height: Int
    var frameCount: Int { paths.count }
    var batchSize: Int { 8 }

    /// The files in `directory` ending in .png, sorted by name; frame 0 is decoded for the size.
    init(_ directory: String) throws {
        paths = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".png") }
            .sorted().map { directory + "/" + $0 }
        guard let first = paths.first else { throw FrameSourceError("\(directory) has no PNG frames") }
        let image = try PNGCodec.decode([UInt8](Data(contentsOf: URL(fileURLWithPath: first))))
        (width, height) = (image.width, image.height)
    }

    func frames(_ range: Range<Int>) throws -> [RGBAImage] {
        try range.map { try PNGCodec.decode([UInt8](Data(contentsOf: URL(fileURLWithPath: paths[$0])))) }
    }
}

/// Reads the PNG frames in `directory` (sorted by name) on every core, as any tool reading a
/// frame sequence would; returns them and the nanoseconds it took.
func decodeFrames(_ directory: String) throws -> ([RGBAImage], UInt64) {
    let names = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".png") }.sorted()
    let start = DispatchTime.now().uptimeNanoseconds
    let slots = DecodedSlots(count: names.count)
    DispatchQueue.concurrentPerform(iterations: names.count) { i in
        slots.set(
            i,
            Result { try PNGCodec.decode([UInt8](Data(contentsOf: URL(fileURLWithPath: directory + "/" + names[i])))) })
    }
    let frames = try slots.values()
    return (frames, DispatchTime.now().uptimeNanoseconds - start)
}

/// Encodes `repeats` times with `body`, checks every run gives the same bytes; returns them and
/// the fastest run in nanoseconds.
func fastestEncode(repeats: Int, _ body: () throws -> [UInt8]) throws -> ([UInt8], UInt64) {
    var bytes: [UInt8] = []
    var fastest = UInt64.max
    for run in 0..<repeats {
        let begin = DispatchTime.now().uptimeNanoseconds
        let again = try body()
        fastest = min(fastest, DispatchTime.now().uptimeNanoseconds - begin)
        if run == 0 {
            bytes = again
        } else if again != bytes {
            fail("--repeat: a later encode wrote different bytes", 1)
        }
    }
    return (bytes, fastest)
}

/// Encodes the PNG frames in `directory` (sorted by name) as the preset's GIF, APNG or WebP
/// (by `output`'s extension).
func encodeFrames(
    _ directory: String, preset: String, output: String, matte: String?, dither: GIFDither, lossy: Int,
    workers: Int?, repeats: Int, animated: AnimatedSettings
) throws {
    // Only the loop's timing is read from the preset (the frames are the PNGs), so text is not
    // shaped: a text box of 1×1 pt stands for every measurement, which moves layout, not time.
    // (bench-peers checks the file equals the CLI's, so a period that moved would show.)
    let composition = try PresetLoader.load(
        contentsOf: preset, measureText: { _, _ in TextMeasurement(width: 1, height: 1) }
    ).composition
    let isGIF = !(output.hasSuffix(".apng") || output.hasSuffix(".webp"))
    let plan = try LoopPlan.make(
        for: composition, fps: isGIF ? min(composition.fps, GIFFormat.maximumFrameRate) : composition.fps)
    if animated.stream {
        guard output.hasSuffix(".webp") else { fail("--stream is for -o OUT.webp", 64) }
        let source = try PNGFolderSource(directory)
        guard source.frameCount == plan.frameCount else {
            fail("\(directory) has \(source.frameCount) PNG frames; the preset has \(plan.frameCount)", 64)
        }
        let options = WebPOptions(
            loop: .forever, effort: animated.effort == .max ? .max : .default, workers: workers)
        let tunings = animated.webpTunings
        let (bytes, fastest) = try fastestEncode(repeats: repeats) {
            try tunings.isEmpty
                ? WebPEncoder.encode(source, period: plan.period, options: options).bytes
                : WebPEncoder.encode(source, period: plan.period, options: options, tunings: tunings).bytes
        }
        try Data(bytes).write(to: URL(fileURLWithPath: output))
        print(String(format: "decode-and-encode-ms %.2f", Double(fastest) / 1e6))
        return
    }
    let (frames, decodeNanoseconds) = try decodeFrames(directory)
    guard frames.count == plan.frameCount else {
        fail("\(directory) has \(frames.count) PNG frames; the preset has \(plan.frameCount)", 64)
    }
    let bytes: [UInt8]
    let fastest: UInt64
    if output.hasSuffix(".apng") {
        var options = APNGOptions(loop: .forever, effort: animated.effort, workers: workers)
        if let level = animated.deflateLevel { options.deflateLevel = level }
        if let filters = animated.rowFilters { options.rowFilters = filters }
        if let runs = animated.overRuns { options.overRuns = runs }
        if let gate = animated.filterGate { options.rowFilterGate = gate }
        if let estimate = animated.estimate { options.estimate = estimate }
        if let finalZlib = animated.finalZlib { options.finalZlib = finalZlib }
        if let margin = animated.estimateMargin { options.estimateMargin = margin }
        if let sort = animated.sortPalette { options.sortPalette = sort }
        if let rgba = animated.tryTruecolor { options.tryTruecolor = rgba }
        if let recode = animated.recode { options.recode = recode }
        if let (passes, depth) = animated.squeeze {
            options.squeezePasses = passes
            options.squeezeDepth = depth
        }
        let source = try FrameArray(frames)
        (bytes, fastest) = try fastestEncode(repeats: repeats) {
            try APNGEncoder.encode(source, period: plan.period, options: options).bytes
        }
    } else if output.hasSuffix(".webp") {
        let options = WebPOptions(
            loop: .forever, effort: animated.effort == .max ? .max : .default, workers: workers)
        // Without --webp, the CLI's path (WebPEncoder.encode, with its choice of encoder); with
        // it, exactly the tunings given, every one encoding the whole loop, smallest file kept.
        let tunings = animated.webpTunings
        let source = try FrameArray(frames)
        (bytes, fastest) = try fastestEncode(repeats: repeats) {
            try tunings.isEmpty
                ? WebPEncoder.encode(source, period: plan.period, options: options).bytes
                : WebPEncoder.encode(source, period: plan.period, options: options, tunings: tunings).bytes
        }
    } else {
        var options = GIFOptions()
        options.matte = composition.canvas.matte
        options.dither = dither
        options.lossy = lossy
        options.workers = workers
        if let matte {
            if matte == "none" {
                options.matte = nil
            } else if let color = RGBAColor(parsing: matte) {
                options.matte = color
            } else {
                fail("--matte \(matte): not a colour", 64)
            }
        }
        let delays = FrameTiming.centisecondDelays(period: plan.period, frameCount: plan.frameCount)
        (bytes, fastest) = try fastestEncode(repeats: repeats) {
            try GIFEncoder.encode(frames: frames, delays: delays, options: options).bytes
        }
    }
    try Data(bytes).write(to: URL(fileURLWithPath: output))
    // In-process times for bench-peers: PNG decoding and encoding, milliseconds.
    print(
        String(
            format: "png-decode-ms %.2f encode-ms %.2f", Double(decodeNanoseconds) / 1e6, Double(fastest) / 1e6))
}

/// Times every zlib level/strategy/filter combination on an image, as RGBA and (when it has at
/// most 256 RGBA colours) as an exact palette PNG.
func pngStrategies(_ path: String) throws {
    let image = try PNGCodec.decode([UInt8](Data(contentsOf: URL(fileURLWithPath: path))))
    print("\(path): \(image.width)x\(image.height)")
    print(["kind", "level", "strategy", "filters", "ms", "bytes"].map { pad($0, 10) }.joined(separator: "  "))
    func row(_ kind: String, _ c: PNGCompression, _ body: () throws -> [UInt8]) rethrows {
        var bytes: [UInt8] = []
        var best = Double.infinity
        for _ in 0..<3 { best = min(best, try seconds { bytes = try body() }) }
        print(
            [
                kind, "\(c.level)", "\(c.strategy)", "\(c.filters)", String(format: "%.1f", best * 1000),
                "\(bytes.count)",
            ]
            .map { pad($0, 10) }.joined(separator: "  "))
    }
    for level in [6, 9] {
        for strategy in PNGCompression.Strategy.allCases {
            for filters in PNGCompression.Filters.allCases {
                let c = PNGCompression(level: level, strategy: strategy, filters: filters)
                try row("rgba", c) { try PNGCodec.encode(image, compression: c) }
            }
        }
    }
    var slots: [UInt32: UInt8] = [:]
    var palette: [PNGPaletteEntry] = []
    var indices: [UInt8] = []
    for i in stride(from: 0, to: image.pixels.count, by: 4) {
        let p = image.pixels
        let key = UInt32(p[i]) << 24 | UInt32(p[i + 1]) << 16 | UInt32(p[i + 2]) << 8 | UInt32(p[i + 3])
        if let index = slots[key] {
            indices.append(index)
        } else {
            guard palette.count < 256 else { return }
            slots[key] = UInt8(palette.count)
            indices.append(UInt8(palette.count))
            palette.append(PNGPaletteEntry(red: p[i], green: p[i + 1], blue: p[i + 2], alpha: p[i + 3]))
        }
    }
    for level in [6, 9] {
        for strategy in PNGCompression.Strategy.allCases {
            for filters in [PNGCompression.Filters.none, .adaptive] {
                let c = PNGCompression(level: level, strategy: strategy, filters: filters)
                try row("palette", c) {
                    try PNGCodec.encodeIndexed(
                        width: image.width, height: image.height, indices: indices, palette: palette, compression: c)
                }
            }
        }
    }
}

/// Counts the bytes of the files an export hands over, and drops them.
final class CountingSink: OutputSink, @unchecked Sendable {
    private let lock = NSLock()
    private(set) var files = 0
    private(set) var bytes = 0
    func put(_ file: OutputFile) throws {
        lock.withLock {
            files += 1
            bytes += file.bytes.count
        }
    }
}

/// One `--export` row: the export's wall time, peak RSS and output size.
func exportRow(
    _ preset: String, scale: Double, fps: Double?, duration: Double?, formats: [OutputFormatKind], header: Bool
)
    throws
{
    let columns = [
        ("preset", 18), ("scale", 5), ("fps", 4), ("loop s", 6), ("frames", 6), ("px", 9), ("formats", 12),
        ("wall s", 7), ("files", 5), ("bytes", 10), ("peak MB", 8),
    ]
    if header { print(columns.map { pad($0.0, $0.1) }.joined(separator: "  ")) }
    let composition = try PresetLoader.load(contentsOf: preset, measureText: Exporter.measureText).composition
    let plan = try LoopPlan.make(for: composition, fps: fps ?? composition.fps, duration: duration)
    let targets = formats.map { $0.format.target(directory: "/nonexistent", stem: composition.name) }
    var settings = ExportSettings()
    settings.gif.matte = composition.canvas.matte
    let request = ExportRequest(
        composition: composition, plan: plan, duration: duration, scale: scale, targets: targets, settings: settings)
    if let problem = try request.preflight().first { fail(problem, 64) }
    let sink = CountingSink()
    let wall = try seconds {
        _ = try Exporter.export(request, to: sink, workers: ProcessInfo.processInfo.activeProcessorCount)
    }
    let size = request.pixelSize
    let cells = [
        composition.name, formatNumber(scale) + "x", formatNumber(plan.fps), formatNumber(plan.period),
        "\(plan.frameCount)", "\(size.width)x\(size.height)", formats.map(\.rawValue).joined(separator: ","),
        String(format: "%.2f", wall), "\(sink.files)", "\(sink.bytes)", String(format: "%.1f", peakMemoryMB()),
    ]
    print(zip(cells, columns).map { pad($0, $1.1) }.joined(separator: "  "))
}

MemoryTuning.applyForEncoding()
FileSizeSignal.ignore()
if CommandLine.arguments.dropFirst().first == "--export" {
    var rest = Array(CommandLine.arguments.dropFirst(2))
    var preset: String?
    var scaleValue = 1.0
    var fpsValue: Double?
    var durationValue: Double?
    var formats: [OutputFormatKind] = [.gif, .sheet]
    var wantHeader = false
    while !rest.isEmpty {
        let a = rest.removeFirst()
        if a == "--header" {
            wantHeader = true
            continue
        }
        guard ["--scale", "--fps", "--duration", "--formats"].contains(a) else {
            preset = a
            continue
        }
        guard let value = rest.first else { fail("\(a) needs a value", 64) }
        rest.removeFirst()
        switch a {
        case "--formats":
            formats = value.split(separator: ",").map { name in
                guard let kind = OutputFormatKind(rawValue: String(name)) else {
                    fail("--formats \(value): \(name) is not one of gif, apng, webp, sheet, frames", 64)
                }
                return kind
            }
        default:
            guard let number = Double(value), number > 0 else { fail("\(a) \(value): expected a number > 0", 64) }
            if a == "--scale" {
                scaleValue = number
            } else if a == "--fps" {
                fpsValue = number
            } else {
                durationValue = number
            }
        }
    }
    guard let preset else { fail("--export needs a preset", 64) }
    do {
        try exportRow(
            preset, scale: scaleValue, fps: fpsValue, duration: durationValue, formats: formats, header: wantHeader)
    } catch {
        fail("\(error)", 1)
    }
    exit(0)
}
var arguments = Array(CommandLine.arguments.dropFirst())
var scale = 1.0
var header = false
var presetPath: String?
var framesDirectory: String?
var outputPath: String?
var matteArgument: String?
var dither = GIFDither.none
var lossy = 0
var workers: Int?
var repeats = 1
var animated = AnimatedSettings()
while !arguments.isEmpty {
    let a = arguments.removeFirst()
    switch a {
    case "--png-strategies":
        guard let value = arguments.first else { fail("\(a) needs an image", 64) }
        do { try pngStrategies(value) } catch { fail("\(error)", 1) }
        exit(0)
    case "--effort":
        guard let value = arguments.first, value == "max" || value == "default" else {
            fail("--effort needs default or max", 64)
        }
        arguments.removeFirst()
        animated.effort = value == "max" ? .max : .default
    case "--deflate-level":
        guard let value = arguments.first, let n = Int(value), (0...12).contains(n) else {
            fail("--deflate-level needs 0…12", 64)
        }
        arguments.removeFirst()
        animated.deflateLevel = n
    case "--try-truecolor":
        guard let value = arguments.first, value == "0" || value == "1" else {
            fail("--try-truecolor needs 0 or 1", 64)
        }
        arguments.removeFirst()
        animated.tryTruecolor = value == "1"
    case "--sort-palette":
        guard let value = arguments.first, value == "0" || value == "1" else { fail("--sort-palette needs 0 or 1", 64) }
        arguments.removeFirst()
        animated.sortPalette = value == "1"
    case "--squeeze":
        let parts = arguments.first?.split(separator: ",").map { Int($0) } ?? []
        guard (1...2).contains(parts.count), let passes = parts[0], passes >= 0,
            parts.count == 1 || (parts[1] ?? 0) > 0
        else { fail("--squeeze needs PASSES[,DEPTH]", 64) }
        arguments.removeFirst()
        animated.squeeze = (passes, parts.count == 2 ? parts[1] : nil)
    case "--recode":
        guard let value = arguments.first, value == "0" || value == "1" else { fail("--recode needs 0 or 1", 64) }
        arguments.removeFirst()
        animated.recode = value == "1"
    case "--over-runs":
        guard let value = arguments.first, value == "0" || value == "1" else { fail("--over-runs needs 0 or 1", 64) }
        arguments.removeFirst()
        animated.overRuns = value == "1"
    case "--row-filters":
        // none, or a comma-separated list of minsum, entropy
        guard let value = arguments.first else { fail("--row-filters needs none or minsum,entropy", 64) }
        arguments.removeFirst()
        var filters: [APNGRowFilterHeuristic] = []
        for name in value.split(separator: ",") where name != "none" {
            switch name {
            case "minsum": filters.append(.minimumSum)
            case "entropy": filters.append(.entropy)
            default: fail("--row-filters \(value): expected none or minsum,entropy", 64)
            }
        }
        animated.rowFilters = filters
    case "--filter-gate":
        guard let value = arguments.first else { fail("--filter-gate needs a per mille count or off", 64) }
        arguments.removeFirst()
        if value == "off" {
            animated.filterGate = .some(nil)
        } else if let n = Int(value), n >= 0, n <= 1_000_000 {
            animated.filterGate = n
        } else {
            fail("--filter-gate \(value): expected 0…1000000 (per mille) or off", 64)
        }
    case "--estimate":
        let parts = (arguments.first ?? "").split(separator: ",").map(String.init)
        guard let first = parts.first, first == "zlib" || (Int(first).map { (0...12).contains($0) } ?? false),
            parts.count == 1 || (parts.count == 2 && parts[1] == "nozlib")
        else { fail("--estimate needs zlib or a libdeflate level 0…12, optionally followed by ,nozlib", 64) }
        arguments.removeFirst()
        animated.estimate = Int(first).map { .libdeflate($0) } ?? .zlib
        animated.finalZlib = parts.count == 1
    case "--estimate-margin":
        guard let value = arguments.first, let n = Int(value), n >= 0 else {
            fail("--estimate-margin needs a per mille count ≥ 0", 64)
        }
        arguments.removeFirst()
        animated.estimateMargin = n
    case "--webp":
        let parts = (arguments.first ?? "").split(separator: ",").map(String.init)
        guard parts.count == 4, let method = Int32(parts[0]), (0...6).contains(method),
            let effort = Float(parts[1]), (0...100).contains(effort), ["0", "1"].contains(parts[2]),
            ["0", "1"].contains(parts[3])
        else { fail("--webp needs METHOD,EFFORT,EXACT,MINSIZE (0…6, 0…100, 0|1, 0|1)", 64) }
        arguments.removeFirst()
        animated.webpTunings.append(
            WebPEncoder.Tuning(
                method: method, losslessEffort: effort, minimizeSize: parts[3] == "1", kmin: 0, kmax: 0,
                allowMixed: false, exact: parts[2] == "1", threadLevel: 0))
    case "--stream": animated.stream = true
    case "--encode-frames", "-o", "--matte", "--dither", "--lossy", "--workers", "--repeat":
        guard let value = arguments.first else { fail("\(a) needs a value", 64) }
        arguments.removeFirst()
        switch a {
        case "--encode-frames": framesDirectory = value
        case "-o": outputPath = value
        case "--matte": matteArgument = value
        case "--lossy":
            guard let n = Int(value), (0...255).contains(n) else { fail("--lossy \(value): expected 0…255", 64) }
            lossy = n
        case "--workers":
            guard let n = Int(value), n >= 1 else { fail("--workers \(value): expected a count ≥ 1", 64) }
            workers = n
        case "--repeat":
            guard let n = Int(value), n >= 1 else { fail("--repeat \(value): expected a count ≥ 1", 64) }
            repeats = n
        default:
            switch value {
            case "none": dither = .none
            case "ordered": dither = .ordered
            case "fs": dither = .floydSteinberg
            default: fail("--dither \(value): expected none, ordered or fs", 64)
            }
        }
    case "--scale":
        guard let v = arguments.first.flatMap(Double.init), v > 0 else {
            FileHandle.standardError.write(Data("error: --scale needs a number > 0\n".utf8))
            exit(64)
        }
        arguments.removeFirst()
        scale = v
    case "--header": header = true
    default: presetPath = a
    }
}
let columns = [
    ("preset", 10), ("scale", 5), ("frames", 6), ("px", 9), ("render ms/f", 11), ("encode ms/f", 11),
    ("enc MP/s", 8), ("1-core MP/s", 11), ("sheet ms", 8), ("wall ms", 8), ("GIF bytes", 10), ("sheet bytes", 11),
    ("peak MB", 7),
]
if let framesDirectory {
    guard let presetPath, let outputPath else { fail("--encode-frames needs a preset and -o OUT.gif|.apng|.webp", 64) }
    do {
        try encodeFrames(
            framesDirectory, preset: presetPath, output: outputPath, matte: matteArgument, dither: dither,
            lossy: lossy, workers: workers, repeats: repeats, animated: animated)
    } catch {
        fail("\(error)", 1)
    }
    exit(0)
}
if header {
    print(columns.map { pad($0.0, $0.1) }.joined(separator: "  "))
}
guard let presetPath else { exit(0) }

do {
    let composition = try PresetLoader.load(contentsOf: presetPath, measureText: Exporter.measureText).composition
    let plan = try LoopPlan.make(for: composition, fps: composition.fps)
    let times = plan.frameTimes

    // Evaluate + render, one thread, so ms/frame is the cost of one frame.
    var frames: [RGBAImage] = []
    let renderSeconds = try seconds {
        for t in times {
            frames.append(try SceneRenderer.render(SceneEvaluator.scene(of: composition, at: t), scale: scale))
        }
    }
    let animation = RenderedAnimation(composition: composition, plan: plan, scale: scale, frames: frames)
    var options = GIFOptions()
    options.matte = composition.canvas.matte
    // The encoding on every core and on one thread (the cost per core), alternated and each the
    // best of three, so neither gets the cold first run or a burst of load alone.
    var gifBytes = 0
    var encodeSeconds = Double.infinity
    var oneCoreSeconds = Double.infinity
    for _ in 0..<3 {
        options.workers = nil
        encodeSeconds = min(
            encodeSeconds, try seconds { gifBytes = try Exporter.gif(animation, options: options).bytes.count })
        options.workers = 1
        oneCoreSeconds = min(oneCoreSeconds, try seconds { _ = try Exporter.gif(animation, options: options) })
    }
    options.workers = nil
    var sheetBytes = 0
    let sheetSeconds = try seconds {
        let sheet = try Exporter.sheet(animation, imageName: "bench.png", columns: nil, padding: 0)
        sheetBytes = try SheetPNGEncoder.encode(sheet.image).bytes.count
    }
    // The whole job as the CLI runs it: parallel render, then GIF and sheet.
    let wallSeconds = try seconds {
        let rendered = try Exporter.render(composition, fps: composition.fps, scale: scale)
        _ = try Exporter.gif(rendered, options: options)
        _ = try SheetPNGEncoder.encode(
            try Exporter.sheet(rendered, imageName: "bench.png", columns: nil, padding: 0).image)
    }
    let n = Double(frames.count)
    let pixels = frames.first.map { $0.width * $0.height } ?? 0
    let megapixels = Double(pixels) * n / 1e6
    let cells = [
        composition.name, formatNumber(scale) + "x", "\(frames.count)",
        frames.first.map { "\($0.width)x\($0.height)" } ?? "-",
        String(format: "%.3f", renderSeconds * 1000 / n), String(format: "%.3f", encodeSeconds * 1000 / n),
        String(format: "%.1f", megapixels / encodeSeconds), String(format: "%.1f", megapixels / oneCoreSeconds),
        String(format: "%.1f", sheetSeconds * 1000),
        String(format: "%.1f", wallSeconds * 1000), "\(gifBytes)", "\(sheetBytes)",
        String(format: "%.1f", peakMemoryMB()),
    ]
    let row = zip(cells, columns).map { cell, column in pad(cell, column.1) }
    print(row.joined(separator: "  "))
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(1)
}
