// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Testing

/// Every bundled preset's APNG and WebP, as the binary writes them, read by two decoders
/// independent of Pillow (`AnimatedFormatTests`) and of each other: ImageMagick 6 and headless
/// Chromium's WebCodecs `ImageDecoder`. Each decoded frame must equal the rendered straight-alpha
/// frames it stands for (`--format frames`, read by Pillow; frames the encoder merged stand for
/// several), alpha exactly everywhere and colour wherever alpha > 0, and last exactly as long as
/// they do in the decoder's own units. With equal straight alpha the composite on white, black
/// and #1C1C1E is equal too under any one compositor (a page colour only meets the pixel's alpha
/// and its colour where alpha > 0), so the page colours are `AnimatedFormatTests`' check.
///
/// The pixel work is in `Fixtures/decoders/decoders.py` (ImageMagick's frames, the Chromium
/// run) and `Fixtures/decoders/imagedecoder.html` (the test page); frames are compared as
/// SHA-256 digests of their RGBA bytes with alpha-0 pixels zeroed, never as golden file bytes,
/// so an encoder that writes other bytes for the same frames passes.
///
/// What each decoder can check, and what it cannot (docs/encoding.md, "Independent decoders"):
/// - ImageMagick 6.9.11, WebP: every frame's pixels, its centisecond delay (ImageMagick
///   truncates milliseconds to its 1/100 s ticks, so an error inside one centisecond goes
///   unseen), the loop count. Its `-coalesce` is wrong for these files (it blends frames that
///   say "do not blend"), so its decoded frame rectangles are assembled by the WebP container
///   specification's rules, with the blend bit from `webpmux -info`.
/// - ImageMagick, APNG: only through its ffmpeg delegate (`apng:`), which writes frames at a
///   constant rate and reports no delays: each of those frames must be the rendered frame of
///   its step, so a delay off by half a frame or more shows; finer timing does not. Its own PNG
///   reader gives the default image, which must be rendered frame 0.
/// - Chromium: every frame's pixels, its timestamp and duration in µs, the repetition count.
///   WebP durations are the file's milliseconds; APNG delays are truncated to whole ms
///   (`delay_num·1000/delay_den` in integer arithmetic: 1/30 s is 33 ms), so circular's 4 s
///   loop lasts 3.96 s there, and that is what is asserted.
@Suite struct IndependentDecoderTests {
    static let presets = AnimatedFormatTests.presets
    static let helper = packageRoot + "/Tests/CLITests/Fixtures/decoders/decoders.py"
    static let page = packageRoot + "/Tests/CLITests/Fixtures/decoders/imagedecoder.html"
    static let imageMagickTools = ["/usr/bin/convert", "/usr/bin/identify", "/usr/bin/webpmux", "/usr/bin/ffmpeg"]
    static let hasImageMagick = imageMagickTools.allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }
    static let chromium = PreviewTests.chromium

    // MARK: ImageMagick

    @Test(
        .enabled(
            if: hasImageMagick,
            "needs ImageMagick (convert, identify), webpmux and ffmpeg: Debian imagemagick, webp, ffmpeg (make deps)"),
        arguments: presets)
    func imageMagick(preset: String) throws {
        let export = try PresetExport.shared(preset)

        let webp = try Self.helperJSON(["imagemagick-webp", export.webp])
        #expect(webp["width"] as? Int == export.width && webp["height"] as? Int == export.height, "\(webp)")
        // The canvas starts transparent black in browsers; the specification's background
        // colour agrees only when it is that.
        #expect(webp["background"] as? String == "0x00000000")
        #expect(webp["loop"] as? Int == 0)
        #expect(webp["iterations"] as? String == "0", "ImageMagick's loop count")
        let webpFrames = (webp["frames"] as? [[String: Any]]) ?? []
        for (k, frame) in webpFrames.enumerated() {
            // ImageMagick's disposal is the ANMF bit webpmux reads.
            let dispose = (frame["dispose"] as? String)?.lowercased()
            #expect(dispose == frame["webpmuxDispose"] as? String, "\(preset).webp frame \(k): \(frame)")
            #expect(frame["translucentBlended"] as? Int == 0, "\(preset).webp frame \(k) blends translucent pixels")
            // ImageMagick's ticks are 1/100 s: the ANMF milliseconds, truncated.
            let milliseconds = frame["webpmuxDuration"] as? Int
            #expect(frame["delay"] as? Int == milliseconds.map { $0 / 10 }, "\(preset).webp frame \(k): \(frame)")
        }
        let webpProblems = Self.align(
            webpFrames.map { ($0["digest"] as? String ?? "", $0["delay"] as? Int ?? -1) }, with: export.frames
        ) { start, count in
            (export.millisecondStart(start + count) - export.millisecondStart(start)) / 10
        }
        #expect(webpFrames.count > 0 && webpProblems.isEmpty, "\(preset).webp in ImageMagick: \(webpProblems)")

        let apng = try Self.helperJSON(["imagemagick-apng", export.apng])
        #expect(apng["width"] as? Int == export.width && apng["height"] as? Int == export.height, "\(apng)")
        #expect(apng["default"] as? [String] == Array(export.frames.prefix(1)), "\(preset).apng's default image")
        let apngFrames = (apng["frames"] as? [String]) ?? []
        let apngProblems = Self.align(apngFrames.map { ($0, nil) }, with: export.frames) { _, _ in 0 }
        #expect(
            apngFrames.count > 0 && apngProblems.isEmpty,
            """
            \(preset).apng in ImageMagick: \(apngProblems) (its frames are ffmpeg's steps at the rate ffmpeg \
            guessed: \(apngFrames.count) for \(export.frames.count) rendered frames)
            """)
    }

    // MARK: Chromium

    /// Every preset in both formats, and loading-dots with `--loop 3` and `--loop 1`, decoded in
    /// one Chromium run.
    @Test(.enabled(if: chromium != nil, "needs Chromium (Debian chromium, make deps)"))
    func chromiumImageDecoder() throws {
        let exports = try Self.presets.map { try PresetExport.shared($0) }
        let plays3 = try PresetExport.render("loading-dots", extra: ["--loop", "3"])
        let plays1 = try PresetExport.render("loading-dots", extra: ["--loop", "1"])
        var files: [(name: String, path: String, type: String)] = []
        for export in exports {
            files.append((export.preset + ".apng", export.apng, "image/png"))
            files.append((export.preset + ".webp", export.webp, "image/webp"))
        }
        for (export, tag) in [(plays3, "-plays3"), (plays1, "-plays1")] {
            files.append((export.preset + tag + ".apng", export.apng, "image/png"))
            files.append((export.preset + tag + ".webp", export.webp, "image/webp"))
        }
        let dir = try temporaryDirectory()
        var script = "const FILES = [\n"
        for file in files {
            let data = try Data(contentsOf: URL(fileURLWithPath: file.path)).base64EncodedString()
            script += "  { name: \"\(file.name)\", type: \"\(file.type)\", data: \"\(data)\" },\n"
        }
        script += "];\n"
        try writeFile(script, to: dir + "/files.js")
        try FileManager.default.copyItem(atPath: Self.page, toPath: dir + "/imagedecoder.html")
        let results = try Self.helperJSON(["chromium", dir + "/imagedecoder.html", dir + "/chromium-profile"])

        for export in exports + [plays3, plays1] {
            let tag = export === plays3 ? "-plays3" : export === plays1 ? "-plays1" : ""
            for ext in ["apng", "webp"] {
                let name = export.preset + tag + "." + ext
                guard let result = results[name] as? [String: Any] else {
                    Issue.record("Chromium gave nothing for \(name)")
                    continue
                }
                #expect(result["error"] == nil, "\(name): \(result["error"] ?? "")")
                #expect(result["supported"] as? Bool == true, "\(name)")
                let frames = (result["frames"] as? [[String: Any]]) ?? []
                #expect(result["frameCount"] as? Int == frames.count && !frames.isEmpty, "\(name)")
                // ImageDecoder's repetitionCount counts the plays after the first: the APNG's
                // num_plays and the WebP's loop count are total plays, 0 = forever.
                let repetitions = export === plays3 ? "2" : export === plays1 ? "0" : "Infinity"
                #expect("\(result["repetitionCount"] ?? "none")" == repetitions, "\(name)")
                var time = 0
                for (k, frame) in frames.enumerated() {
                    #expect(frame["width"] as? Int == export.width && frame["height"] as? Int == export.height)
                    #expect(frame["complete"] as? Bool == true, "\(name) frame \(k)")
                    // Each frame starts where the one before it ends.
                    #expect(frame["timestamp"] as? Int == time, "\(name) frame \(k): \(frame)")
                    time += frame["duration"] as? Int ?? 0
                }
                // (A missing duration is -1, which fits no run.)
                let decoded = frames.map { ($0["digest"] as? String ?? "", $0["duration"] as? Int ?? -1) }
                let problems: [String]
                if ext == "webp" {
                    problems = Self.align(decoded, with: export.frames) { start, count in
                        1000 * (export.millisecondStart(start + count) - export.millisecondStart(start))
                    }
                    // The loop lasts exactly its period, in whole milliseconds.
                    #expect(time == 1000 * export.millisecondStart(export.frames.count), "\(name): \(time) µs")
                } else {
                    // The file's delays are the exact fractions n·P/N (APNGTiming: exact on every
                    // bundled preset), which Chromium truncates to whole milliseconds.
                    problems = Self.align(decoded, with: export.frames) { _, count in
                        1000 * (count * export.periodMicroseconds / (1000 * export.frames.count))
                    }
                }
                #expect(problems.isEmpty, "\(name) in Chromium: \(problems)")
            }
        }
        // Chromium's APNG clock, measured: circular's 120 frames of 1/30 s are 33 ms each.
        if let circular = results["circular.apng"] as? [String: Any],
            let frames = circular["frames"] as? [[String: Any]], let last = frames.last
        {
            #expect((last["timestamp"] as? Int ?? 0) + (last["duration"] as? Int ?? 0) == 3_960_000)
        }
    }

    // MARK: Helpers

    /// Lines decoded frames up with the rendered ones. Decoded frame k, reporting `duration`
    /// in the decoder's unit, stands for the run of rendered frames that starts where frame
    /// k − 1's ended and whose length n makes `expected(start, n)` that duration (n = 1 when
    /// the decoder reports none); each rendered frame in the run must have the decoded frame's
    /// digest, and the runs must end at the last rendered frame. Returns what went wrong, in
    /// words (empty when nothing did); the walk stops at a frame whose duration fits no run.
    static func align(
        _ decoded: [(digest: String, duration: Int?)], with rendered: [String], expected: (Int, Int) -> Int
    ) -> [String] {
        var problems: [String] = []
        var start = 0
        for (k, frame) in decoded.enumerated() {
            guard start < rendered.count else {
                problems.append("decoded frame \(k) comes after the last rendered frame")
                break
            }
            var count = 1
            if let duration = frame.duration {
                let fits = (1...(rendered.count - start)).filter { expected(start, $0) == duration }
                guard fits.count == 1 else {
                    problems.append(
                        "decoded frame \(k) lasts \(duration), which "
                            + (fits.isEmpty ? "fits no run" : "fits runs of \(fits) frames")
                            + " from rendered frame \(start) (one frame: \(expected(start, 1)))")
                    break
                }
                count = fits[0]
            }
            if let wrong = (start..<start + count).first(where: { rendered[$0] != frame.digest }) {
                problems.append(
                    "decoded frame \(k) (rendered frames \(start)..<\(start + count)) differs from rendered frame \(wrong)"
                )
            }
            start += count
        }
        if problems.isEmpty, start != rendered.count {
            problems.append(
                "the \(decoded.count) decoded frames stand for \(start) of \(rendered.count) rendered frames")
        }
        return problems
    }

    /// Runs `decoders.py` with `arguments`; its JSON object.
    static func helperJSON(_ arguments: [String]) throws -> [String: Any] {
        let run = try runProcess("/usr/bin/python3", [helper] + arguments)
        guard run.status == 0,
            let object = try? JSONSerialization.jsonObject(with: run.output) as? [String: Any]
        else {
            throw DecoderTestError("decoders.py \(arguments.first ?? ""): exit \(run.status): \(run.stderr)")
        }
        return object
    }
}

/// A failure of the test machinery, with what went wrong.
struct DecoderTestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// One preset exported once as APNG, WebP and PNG frames (`-o DIR/ --format apng,webp,frames`)
/// with its timing report; shared by the tests of this process.
final class PresetExport: Sendable {
    /// The preset's file name without `.json`.
    let preset: String
    /// The folder holding the files, the frames as `NAME-000.png`, … (no other PNG).
    let directory: String
    let apng: String
    let webp: String
    /// Digests of the rendered frames, in order (`decoders.py digests`).
    let frames: [String]
    /// Canvas size in pixels.
    let width: Int
    let height: Int
    /// The loop period from `--report`, in whole microseconds.
    let periodMicroseconds: Int

    init(
        preset: String, directory: String, apng: String, webp: String, frames: [String], width: Int, height: Int,
        period: Int
    ) {
        self.preset = preset
        self.directory = directory
        self.apng = apng
        self.webp = webp
        self.frames = frames
        self.width = width
        self.height = height
        self.periodMicroseconds = period
    }

    /// Where rendered frame `i` starts on a 1 ms grid: `i·P/N` rounded, halves up (the
    /// cumulative rounding the WebP durations follow, semantics.md §7.3).
    func millisecondStart(_ i: Int) -> Int {
        let denominator = 1000 * frames.count
        return (2 * i * periodMicroseconds + denominator) / (2 * denominator)
    }

    private static let lock = NSLock()
    nonisolated(unsafe) private static var exports: [String: PresetExport] = [:]
    nonisolated(unsafe) private static var presetLocks: [String: NSLock] = [:]

    /// The export of `preset`, made by the first test that asks.
    static func shared(_ preset: String) throws -> PresetExport {
        lock.lock()
        let presetLock = presetLocks[preset] ?? NSLock()
        presetLocks[preset] = presetLock
        lock.unlock()
        presetLock.lock()
        defer { presetLock.unlock() }
        lock.lock()
        let done = exports[preset]
        lock.unlock()
        if let done { return done }
        let export = try render(preset)
        lock.lock()
        exports[preset] = export
        lock.unlock()
        return export
    }

    /// Exports `presets/NAME.json` with `extra` options into a fresh directory.
    static func render(_ preset: String, extra: [String] = []) throws -> PresetExport {
        let dir = try temporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir + "/out", withIntermediateDirectories: true)
        let formats = ["--format", "apng,webp,frames", "--report", "r.json", "-q"]
        let run = try runTool([packageRoot + "/presets/\(preset).json", "-o", "out/"] + formats + extra, in: dir)
        guard run.status == 0 else { throw DecoderTestError("\(preset): exit \(run.status): \(run.stderr)") }
        let data = try Data(contentsOf: URL(fileURLWithPath: dir + "/r.json"))
        let report = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        guard let animation = (report?["animations"] as? [[String: Any]])?.first,
            let files = animation["files"] as? [String],
            let period = (animation["loop"] as? [String: Any])?["period"] as? Double, period.isFinite, period > 0,
            period < 1e6,
            let apng = files.first(where: { $0.hasSuffix(".apng") }),
            let webp = files.first(where: { $0.hasSuffix(".webp") })
        else { throw DecoderTestError("\(preset): no APNG, WebP or period in the report") }
        let pngs = files.filter { $0.hasSuffix(".png") }.map { dir + "/" + $0 }.sorted()
        let digests = try runProcess("/usr/bin/python3", [IndependentDecoderTests.helper, "digests"] + pngs)
        guard digests.status == 0, let frames = try JSONSerialization.jsonObject(with: digests.output) as? [String],
            frames.count == pngs.count, !frames.isEmpty
        else { throw DecoderTestError("\(preset): digests: \(digests.stderr)") }
        // The canvas size from the first frame's IHDR (bytes 16–23, big-endian).
        let header = readBytes(pngs[0])
        guard header.count >= 24 else { throw DecoderTestError("\(pngs[0]) is no PNG") }
        let be = { (at: Int) in header[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        return PresetExport(
            preset: preset, directory: dir + "/out", apng: dir + "/" + apng, webp: dir + "/" + webp, frames: frames,
            width: be(16),
            height: be(20), period: Int((period * 1_000_000).rounded()))
    }
}
