// SPDX-License-Identifier: GPL-3.0-or-later

public import Encode
import Glibc
public import OutputFiles
import Raster
public import Spec
import Timeline
public import ToolOptions

/// `animexport assemble FRAMES… -o OUT.gif|OUT.apng|OUT.webp`: PNG frames made by any tool,
/// encoded as one looping animation by the same encoders `animexport` uses for presets
/// (docs/cli.md, "assemble"). The frames play in the order given, a folder's `.png` files in byte
/// order of their names, each for `1/fps` s (`--fps`, default 30) or the loop split evenly
/// (`--duration`).
///
/// It runs in `animexport-assemble`, an executable linked without the renderer (no Cairo,
/// HarfBuzz, fontconfig or X11), which the `animexport` front execs for this command; the
/// bytes are those `animexport -o OUT` writes for the same frames and timing.
public enum AssembleCommand {
    /// The options after the word `assemble`.
    public struct Options: Equatable, Sendable {
        /// The PNG files and folders, in order.
        public var inputs: [FilePath] = []
        /// `-o`: the file to write; its extension chooses the format.
        public var output: FilePath?
        /// `--fps`: frames per second, 0.1 … 120 (30 when neither it nor `duration` is given).
        public var fps: Double?
        /// `--duration`: the loop period in seconds, 0.02 … 600, split evenly among the frames.
        public var duration: Double?
        /// `--loop`: plays, with the meaning of `animexport --loop`.
        public var loop = LoopCount.forever
        /// `--effort max`: the smallest APNG (Zopfli) or WebP (every lossless method).
        public var maximumEffort = false
        /// `--quality`: lossy WebP at this quality, 0 … 100.
        public var quality: Int?
        /// `--matte`: the colour a GIF's translucent pixels are blended onto; nil (`none`, the
        /// default) keeps them transparent by the alpha threshold.
        public var matte: RGBAColor?
        /// `--force`: replace an existing output file.
        public var force = false
        /// `--quiet`: no summary line.
        public var quiet = false
        /// `--help`.
        public var help = false

        /// No inputs, no output, every default.
        public init() {}
    }

    /// The output formats, by the extension of `-o`.
    public enum Format: String, Equatable, Sendable {
        /// GIF89a, palette of at most 256 colours, 1-bit transparency.
        case gif
        /// APNG, exact RGBA.
        case apng
        /// Animated WebP, lossless unless `--quality`.
        case webp

        /// `a GIF`, `an APNG`, `a WebP`, for messages.
        public var withArticle: String {
            switch self {
            case .gif: "a GIF"
            case .apng: "an APNG"
            case .webp: "a WebP"
            }
        }
    }

    /// The help text of `animexport assemble --help`.
    public static let help = """
        usage: animexport assemble FRAMES... -o OUT.gif|OUT.apng|OUT.webp [options]

        Encodes PNG frames (files, or folders whose .png files play in name order) as one
        looping GIF, APNG or animated WebP, with the encoders animexport uses for presets.

          -o FILE            the animation to write; .gif, .apng or .webp
          --fps N            frames per second, 0.1...120 (default 30; a GIF plays at most 50)
          --duration S       the loop period in seconds instead, split evenly among the frames
          --loop N|forever   play N times in all (default forever)
          --effort standard|max  max: smallest APNG or WebP, many times slower (default standard)
          --quality Q        lossy WebP at quality 0...100 (default lossless)
          --matte COLOR      GIF only: blend translucent pixels onto COLOR (default none)
          --force            replace OUT if it exists
          -q, --quiet        no summary line
        """

    /// Reads `arguments` (the words after `assemble`, as bytes), writes the file and returns
    /// the exit code; messages go to standard error, the summary line to standard output.
    /// - Returns: `.success`; `.usage` (64) for a bad command line, an existing output without
    ///   `--force`, or a GIF above 50 fps; `.badPreset` (65) for a frame that is not a usable PNG
    ///   or not the first frame's size; `.failure` (1) when a frame cannot be read, the output
    ///   cannot be written, or an encoder fails.
    public static func run(_ arguments: [[UInt8]]) -> ExitCode {
        let options: Options
        do {
            options = try parse(arguments)
        } catch {
            say("error: \(error.message)")
            say("note: run 'animexport assemble --help' for usage")
            return .usage
        }
        if options.help {
            print(help)
            return .success
        }
        do {
            return try write(options)
        } catch let error as FrameFileError {
            say("\(error.path): error: \(error.message)")
            return error.isReadFailure ? .failure : .badPreset
        } catch let error as UsageError {
            say("error: \(error.message)")
            return .usage
        } catch let error as WriteError {
            say("error: \(error.message)")
            return .failure
        } catch {
            say("\(options.output ?? FilePath("-")): error: \(error)")
            return .failure
        }
    }

    /// Parses the words after `assemble`.
    /// - Throws: `UsageError` for an unknown option, a bad value, no frames, or no `-o`.
    public static func parse(_ arguments: [[UInt8]]) throws(UsageError) -> Options {
        var options = Options()
        var rest = arguments[...]
        var onlyPaths = false
        while let word = rest.popFirst() {
            let text = String(decoding: word, as: UTF8.self)
            if onlyPaths || !text.hasPrefix("-") || text == "-" {
                options.inputs.append(FilePath(bytes: word))
                continue
            }
            if text == "--" {
                onlyPaths = true
                continue
            }
            var name = text
            var inline: [UInt8]?
            if text.hasPrefix("--"), let eq = word.firstIndex(of: UInt8(ascii: "=")) {
                name = String(decoding: word[..<eq], as: UTF8.self)
                inline = Array(word[(eq + 1)...])
            }
            switch name {
            case "--force": options.force = true
            case "--quiet", "-q": options.quiet = true
            case "--help", "-h": options.help = true
            default:
                guard let what = valued[name] else {
                    var message = "unknown option \(name.count > 40 ? String(name.prefix(40)) + "…" : name)"
                    if name.count <= 40,
                        let near = suggestion(for: name, among: Array(valued.keys) + ["--force", "--quiet", "--help"])
                    {
                        message += "; did you mean \(near)?"
                    }
                    throw UsageError(message: message)
                }
                guard let value = inline ?? rest.popFirst() else { throw UsageError(message: "\(name) needs \(what)") }
                try apply(name, value, to: &options)
            }
        }
        if options.help { return options }
        guard !options.inputs.isEmpty else {
            throw UsageError(message: "assemble needs PNG frames: files, or folders of them")
        }
        guard let output = options.output else {
            throw UsageError(message: "assemble needs -o OUT.gif, OUT.apng or OUT.webp")
        }
        let format = try format(of: output)
        if options.fps != nil, options.duration != nil {
            throw UsageError(message: "give one of --fps and --duration")
        }
        if options.quality != nil, format != .webp {
            throw UsageError(message: "--quality is for WebP; -o \(output) names \(format.withArticle)")
        }
        if options.matte != nil, format != .gif {
            throw UsageError(
                message: "--matte is for GIF; \(format.withArticle) keeps every pixel's alpha")
        }
        if format == .webp, case .plays(let n) = options.loop, n > WebPEncoder.maximumPlays {
            throw UsageError(
                message:
                    "--loop \(n): a WebP plays at most \(WebPEncoder.maximumPlays) times (its loop count is 16 bits); give \(WebPEncoder.maximumPlays) or forever"
            )
        }
        if options.maximumEffort, format == .gif {
            throw UsageError(message: "--effort is for APNG and WebP; a GIF is always encoded one way")
        }
        return options
    }

    /// The options that take a value, with what they take (for "needs …" messages).
    static let valued: [String: String] = [
        "-o": "an output path", "--output": "an output path", "--fps": "frames per second",
        "--duration": "a loop period in seconds", "--loop": "a play count or forever",
        "--effort": "standard or max", "--quality": "a WebP quality 0…100", "--matte": "a colour or none",
    ]

    private static func apply(_ name: String, _ bytes: [UInt8], to options: inout Options) throws(UsageError) {
        let value = String(decoding: bytes, as: UTF8.self)
        switch name {
        case "-o", "--output":
            guard !bytes.isEmpty else { throw UsageError(message: "\(name) needs an output path") }
            guard options.output == nil else { throw UsageError(message: "assemble writes one file; give -o once") }
            options.output = FilePath(bytes: bytes)
        case "--fps":
            options.fps = try OptionValues.number(value, name, "frames per second 0.1…120") { $0 >= 0.1 && $0 <= 120 }
        case "--duration":
            options.duration = try OptionValues.number(
                value, name, "a loop period in seconds, 0.02…600, without a unit (--duration 1.5 is 1.5 s)"
            ) { $0 >= 0.02 && $0 <= 600 }
        case "--loop":
            guard let loop = LoopCount(option: value) else {
                throw UsageError(message: "--loop \(value): expected \(LoopCount.optionForms)")
            }
            options.loop = loop
        case "--effort":
            options.maximumEffort = try OptionValues.choice(
                value, name, ["standard": false, "max": true], "standard or max")
        case "--quality":
            options.quality = try OptionValues.integer(value, name, "a lossy WebP quality 0…100", 0...100)
        default:  // --matte
            options.matte = value == "none" ? nil : try OptionValues.color(value, name)
        }
    }

    /// The format `path`'s extension names.
    /// - Throws: `UsageError` for any other extension (a `.png` gets the APNG hint).
    public static func format(of path: FilePath) throws(UsageError) -> Format {
        let ext = path.pathExtension.lowercased()
        if let format = Format(rawValue: ext), !path.hasTrailingSlash { return format }
        var message = "-o \(path): expected a file name ending in .gif, .apng or .webp"
        if ext == "png" {
            message += "; write .apng (a server may send it as image/png: docs/cli.md, \"APNG as .png\")"
        }
        throw UsageError(message: message)
    }

    /// The frames' files: each input file as is, each folder's `.png` entries in byte order.
    /// - Throws: `FrameFileError` for an input that does not exist or a folder that cannot be
    ///   listed (read failures) or holds no `.png` file; `UsageError` for more frames than
    ///   `ExportBudget.maximumFrameCount`.
    public static func framePaths(_ inputs: [FilePath]) throws -> [FilePath] {
        var paths: [FilePath] = []
        for input in inputs {
            switch input.kind {
            case .none:
                throw FrameFileError(
                    path: input, message: "cannot be read: no such file or folder", isReadFailure: true)
            case .directory:
                let entries: [FilePath]
                do {
                    entries = try input.entries()
                } catch {
                    throw FrameFileError(path: input, message: "cannot be listed: \(error.reason)", isReadFailure: true)
                }
                let frames = entries.filter { $0.pathExtension.lowercased() == "png" }.map { input.appending($0) }
                guard !frames.isEmpty else {
                    throw FrameFileError(path: input, message: "holds no .png file")
                }
                paths += frames
            default:
                paths.append(input)
            }
            guard paths.count <= ExportBudget.maximumFrameCount else {
                throw UsageError(
                    message: "more than \(ExportBudget.maximumFrameCount) frames (the most one animation may have)")
            }
        }
        return paths
    }

    /// Encodes the frames and writes the file.
    private static func write(_ options: Options) throws -> ExitCode {
        guard let output = options.output else { return .usage }
        let format = try format(of: output)
        if output.isDirectory {
            throw UsageError(message: "-o \(output) is a folder; name the file to write")
        }
        if output.exists, !options.force {
            throw UsageError(message: "\(output) exists; pass --force to replace it")
        }
        let folder = output.directory
        let createFolder = !folder.exists
        if !createFolder { try AtomicFile.checkDirectory(of: output, writable: true) }
        let source = try PNGSequence(try framePaths(options.inputs), batchLimit: format == .gif ? 8 : 1)
        let count = source.frameCount
        let side = format == .webp ? WebPEncoder.maximumSide : format == .gif ? 65_535 : Int.max
        guard max(source.width, source.height) <= side else {
            throw FrameFileError(
                path: source.paths[0],
                message:
                    "is \(source.width)×\(source.height) px; \(format.withArticle) frame is at most \(side) px a side (write .apng)"
            )
        }
        let period = options.duration ?? Double(count) / (options.fps ?? 30)
        guard period >= ExportBudget.minimumPeriod, period <= ExportBudget.maximumPeriod else {
            throw UsageError(
                message:
                    "a loop of \(frames(count)) at \(formatNumber(options.fps ?? 30)) fps would last \(formatNumber(period)) s; a loop lasts \(formatNumber(ExportBudget.minimumPeriod))…\(formatNumber(ExportBudget.maximumPeriod)) s"
            )
        }
        let bytes: [UInt8]
        var warnings: [String] = []
        switch format {
        case .gif:
            // GIF delays are whole centiseconds of at least 2 (semantics.md §8.4).
            guard Double(count) / period <= 50 else {
                throw UsageError(
                    message:
                        "\(frames(count)) in \(formatNumber(period)) s is \(formatNumber(Double(count) / period)) fps; a GIF plays at most 50 (2 cs a frame): lower --fps or write .apng or .webp"
                )
            }
            var gif = GIFOptions()
            gif.loop = options.loop
            gif.matte = options.matte
            let encoded = try GIFEncoder.encode(
                source: source, delays: FrameTiming.centisecondDelays(period: period, frameCount: count), options: gif)
            bytes = encoded.bytes
            if let warning = encoded.collapsedEdgeWarning { warnings.append(warning) }
        case .apng:
            var apng = APNGOptions(loop: options.loop, effort: options.maximumEffort ? .max : .default)
            // The period as the fraction the options meant (10 frames at 7 fps: 10/7 s), so each
            // delay is exact (1/7 s) where 16-bit terms can hold it.
            if let duration = options.duration {
                apng.exactPeriod = SecondsFraction(approximating: duration)
            } else if let rate = SecondsFraction(approximating: options.fps ?? 30) {
                let (n, overflow) = count.multipliedReportingOverflow(by: rate.denominator)
                if !overflow { apng.exactPeriod = SecondsFraction(numerator: n, denominator: rate.numerator) }
            }
            bytes = try APNGEncoder.encode(source, period: period, options: apng).bytes
        case .webp:
            // WebP durations are whole milliseconds; browsers play 10 ms or less as 100 ms.
            let shortest = FrameTiming.millisecondDurations(period: period, frameCount: count).min() ?? 0
            guard shortest >= WebPEncoder.minimumDuration else {
                throw UsageError(
                    message:
                        "\(frames(count)) in \(formatNumber(period)) s: the shortest lasts \(shortest) ms; a WebP frame lasts at least \(WebPEncoder.minimumDuration) ms (browsers play 10 ms or less as 100 ms): lower --fps or write .apng"
                )
            }
            let webp = WebPOptions(
                loop: options.loop, quality: options.quality, effort: options.maximumEffort ? .max : .default)
            bytes = try WebPEncoder.encode(source, period: period, options: webp).bytes
        }
        if createFolder {
            do {
                try folder.createDirectories()
            } catch {
                throw WriteError(path: output, reason: error.reason)
            }
            say("note: created folder \(folder)/")
        }
        _ = try AtomicFile.write(bytes, to: output)
        for warning in warnings { say("\(output): warning: \(warning)") }
        if !options.quiet {
            let size =
                bytes.count < 10_000
                ? "\(bytes.count) bytes" : formatC("%.1f KB", Double(bytes.count) / 1000)
            print(
                "\(output): \(frames(count)), \(formatNumber(period)) s loop, \(source.width)×\(source.height) px, \(size)"
            )
        }
        return .success
    }

    /// `1 frame`, `60 frames`.
    private static func frames(_ n: Int) -> String { n == 1 ? "1 frame" : "\(n) frames" }

    /// One line on standard error.
    private static func say(_ line: String) {
        var text = line + "\n"
        text.withUTF8 { buffer in
            var done = 0
            while done < buffer.count {
                let n = Glibc.write(2, buffer.baseAddress.map { $0 + done }, buffer.count - done)
                if n < 0, errno == EINTR { continue }
                guard n > 0 else { return }
                done += n
            }
        }
    }
}
