// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Testing

/// `animexport assemble` (issue 22): PNG frames from any tool encoded by the preset encoders, in a
/// process that does not load the renderer.
@Suite(.serialized) struct AssembleTests {
    /// The frames of a preset, assembled at the preset's frame rate, give the very bytes the CLI
    /// writes from the preset: the same encoders, the same timing (cumulative rounding of i/fps).
    @Test(arguments: ["loading-dots", "blink-dots"])
    func framesAssembleToTheCLIsFiles(preset: String) throws {
        let export = try PresetExport.shared(preset)
        let fps = Double(export.frames.count) / (Double(export.periodMicroseconds) / 1_000_000)
        let dir = try temporaryDirectory()
        for ext in ["webp", "apng"] {
            let run = try runTool(
                ["assemble", export.directory, "-o", "a.\(ext)", "--fps", String(fps)], in: dir)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(
                run.stdout
                    == "a.\(ext): \(export.frames.count) frames, \(formatted(Double(export.periodMicroseconds) / 1e6)) s loop, \(export.width)×\(export.height) px, \(sizeText(dir + "/a.\(ext)"))\n"
            )
            let want = readBytes(ext == "webp" ? export.webp : export.apng)
            #expect(!want.isEmpty && readBytes(dir + "/a.\(ext)") == want, "\(preset).\(ext)")
        }
    }

    /// GIF too, with the preset's matte given as `--matte`; and frames listed one by one play in
    /// the order given.
    @Test func gifAndExplicitFileOrder() throws {
        let dir = try temporaryDirectory()
        let export = try runTool(
            [packageRoot + "/presets/loading-dots.json", "-o", "out/", "--format", "gif,frames", "-q"], in: dir)
        #expect(export.status == 0, "\(export.stderr)")
        let frames = try FileManager.default.contentsOfDirectory(atPath: dir + "/out").filter { $0.hasSuffix(".png") }
            .sorted().map { "out/" + $0 }
        #expect(frames.count == 60)
        let gif = try runTool(["assemble", "out", "-o", "a.gif", "--matte", "white", "-q"], in: dir)
        #expect(gif.status == 0 && gif.stdout.isEmpty, "\(gif.stderr)")
        #expect(readBytes(dir + "/a.gif") == readBytes(dir + "/out/loading-dots.gif"))
        // Without a matte the translucent edges are thresholded, and said so, as the CLI says it.
        let bare = try runTool(["assemble", "out", "-o", "bare.gif", "-q"], in: dir)
        #expect(bare.status == 0)
        #expect(
            bare.stderr.hasPrefix("bare.gif: warning: ")
                && bare.stderr.contains(" half-transparent edge pixels were made fully opaque or transparent"),
            "\(bare.stderr)")

        // Frame 30 first, then all 60 in order: the file starts with frame 30's pixels.
        let reordered = [frames[30]] + frames
        let run = try runTool(["assemble"] + reordered + ["-o", "b.apng", "-q"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        let check = try runPython(
            """
            import sys
            from PIL import Image
            im = Image.open(sys.argv[1]); im.seek(0)
            first = im.convert("RGBA").tobytes()
            print(first == Image.open(sys.argv[2]).convert("RGBA").tobytes(),
                  first == Image.open(sys.argv[3]).convert("RGBA").tobytes())
            """, arguments: [dir + "/b.apng", dir + "/" + frames[30], dir + "/" + frames[0]])
        #expect(check.stdout == "True False\n", "\(check.stdout) \(check.stderr)")
    }

    /// `--duration` spreads the loop evenly (60 frames in 1.5 s: 25 ms each, exact in APNG as
    /// 1/40 s, 25 ms in WebP), `--loop 3` is three plays in both.
    @Test func durationAndLoop() throws {
        let export = try PresetExport.shared("loading-dots")
        let dir = try temporaryDirectory()
        for ext in ["apng", "webp"] {
            let run = try runTool(
                ["assemble", export.directory, "-o", "t.\(ext)", "--duration", "1.5", "--loop", "3", "-q"], in: dir)
            #expect(run.status == 0, "\(run.stderr)")
        }
        let facts = try runPython(
            """
            import sys
            from PIL import Image
            for path in sys.argv[1:]:
                im = Image.open(path); ds = []
                for k in range(im.n_frames):
                    im.seek(k); im.load(); ds.append(im.info.get("duration"))
                print(round(sum(ds)), all(round(d) % 25 == 0 for d in ds), im.info.get("loop"))
            """, arguments: [dir + "/t.apng", dir + "/t.webp"])
        // Identical frames may be merged (their durations summed), so each duration is a whole
        // number of 25 ms frames and the loop 1500 ms; Pillow reports both files' loop as 3
        // plays (APNG num_plays; WebP's ANIM count, docs/encoding.md).
        #expect(facts.stdout == "1500 True 3\n1500 True 3\n", "\(facts.stdout) \(facts.stderr)")
        // APNG exactly: every delay a multiple of 1/40 s, 3/2 s in all.
        let delays = fcTLDelays(readBytes(dir + "/t.apng"))
        #expect(!delays.isEmpty && delays.allSatisfy { ($0.0 * 40) % $0.1 == 0 })
        #expect(delays.reduce(0) { $0 + $1.0 * 1200 / $1.1 } == 1800)
    }

    /// A frame rate that does not divide a whole number of microseconds is still exact in APNG:
    /// 10 frames at 7 fps are 1/7 s each (not 1428/10000), at 29.97 fps 100/2997 s.
    @Test func apngDelaysAreTheFrameRatesExactFraction() throws {
        let export = try PresetExport.shared("loading-dots")
        let dir = try temporaryDirectory()
        let frames = (0..<10).map { export.directory + "/loading-dots-" + String(format: "%03d", $0 * 6) + ".png" }
        for (fps, want) in [("7", (1, 7)), ("29.97", (100, 2997)), ("24", (1, 24))] {
            let run = try runTool(["assemble"] + frames + ["-o", "r.apng", "--fps", fps, "--force", "-q"], in: dir)
            #expect(run.status == 0, "\(run.stderr)")
            let delays = fcTLDelays(readBytes(dir + "/r.apng"))
            // Merged identical frames last a whole number of frame times: num/den = k·want.
            #expect(!delays.isEmpty, "\(fps)")
            #expect(delays.allSatisfy { ($0.0 * want.1) % ($0.1 * want.0) == 0 }, "\(fps): \(delays)")
            #expect(delays.reduce(0) { $0 + $1.0 * want.1 / ($1.1 * want.0) } == 10, "\(fps): \(delays)")
        }
    }

    /// Bad command lines and bad frames: the exit code of docs/cli.md, a message that names the
    /// file or option, and no output (or the old file untouched) after any refusal.
    @Test func refusalsNameTheProblemAndWriteNothing() throws {
        let export = try PresetExport.shared("loading-dots")
        let dir = try temporaryDirectory()
        let frames = export.directory
        try Data("not a png".utf8).write(to: URL(fileURLWithPath: dir + "/junk.png"))
        try FileManager.default.createDirectory(atPath: dir + "/empty", withIntermediateDirectories: true)
        try Data("old".utf8).write(to: URL(fileURLWithPath: dir + "/old.webp"))
        let first = frames + "/loading-dots-000.png"
        // A 2×2 PNG: another size than the preset's frames.
        let small = try runPython(
            "import sys\nfrom PIL import Image\nImage.new('RGBA', (2, 2)).save(sys.argv[1])",
            arguments: [dir + "/small.png"])
        #expect(small.status == 0, "\(small.stderr)")
        let cases: [([String], Int32, String)] = [
            (["assemble"], 64, "error: assemble needs PNG frames"),
            (["assemble", frames], 64, "error: assemble needs -o OUT.gif, OUT.apng or OUT.webp"),
            (["assemble", frames, "-o", "x.png"], 64, "write .apng"),
            (["assemble", frames, "-o", "x.webp", "--fsp", "3"], 64, "unknown option --fsp; did you mean --fps?"),
            (["assemble", frames, "-o", "x.webp", "--fps", "30fps"], 64, "write it without the unit: --fps 30"),
            (["assemble", frames, "-o", "x.webp", "--fps", "0"], 64, "expected frames per second 0.1…120"),
            (
                ["assemble", frames, "-o", "x.webp", "--fps", "3", "--duration", "1"], 64,
                "give one of --fps and --duration"
            ),
            (["assemble", frames, "-o", "x.gif", "--fps", "60"], 64, "60 fps; a GIF plays at most 50"),
            (["assemble", frames, "-o", "x.apng", "--quality", "50"], 64, "--quality is for WebP"),
            (
                ["assemble", frames, "-o", "x.webp", "--fps", "120"], 64,
                "60 frames in 0.5 s: the shortest lasts 8 ms; a WebP frame lasts at least 11 ms"
            ),
            (
                ["assemble", first, "-o", "x.webp", "--fps", "120"], 64,
                "a loop of 1 frame at 120 fps would last 0.008333 s; a loop lasts 0.01…600 s"
            ),
            (
                ["assemble", frames, "-o", "x.webp", "--loop", "65536"], 64,
                "--loop 65536: a WebP plays at most 65535 times"
            ),
            (
                [packageRoot + "/presets/circular.json", "-o", "x.webp", "--loop", "65536"], 64,
                "a WebP plays at most 65535 times"
            ),
            (["assemble", frames, "-o", "x.apng", "--quality", "9"], 64, "-o x.apng names an APNG"),
            (
                ["assemble", frames, "-o", "x.webp", "--matte", "red"], 64,
                "--matte is for GIF; a WebP keeps every pixel's alpha"
            ),
            (["assemble", frames, "-o", "old.webp"], 64, "error: old.webp exists; pass --force to replace it"),
            (
                ["assemble", first, "junk.png", "-o", "x.webp"], 65,
                "junk.png: error: is not a PNG file (no PNG signature)"
            ),
            (
                ["assemble", first, "small.png", "-o", "x.apng"], 65,
                "small.png: error: is 2×2 px; every frame must be the size of the first, 176×56 px"
            ),
            (
                ["assemble", "missing.png", "-o", "x.webp"], 1,
                "missing.png: error: cannot be read: no such file or folder"
            ),
            (["assemble", "empty", "-o", "x.webp"], 65, "empty: error: holds no .png file"),
        ]
        for (arguments, status, message) in cases {
            let run = try runTool(arguments, in: dir)
            #expect(run.status == status, "\(arguments): \(run.stderr)")
            #expect(run.stderr.contains(message), "\(arguments): \(run.stderr)")
            #expect(run.stdout.isEmpty, "\(arguments)")
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        #expect(left == ["empty", "junk.png", "old.webp", "small.png"], "\(left)")
        #expect(readBytes(dir + "/old.webp") == Array("old".utf8))
        let forced = try runTool(["assemble", frames, "-o", "old.webp", "--force", "-q"], in: dir)
        #expect(forced.status == 0 && readBytes(dir + "/old.webp") == readBytes(export.webp), "\(forced.stderr)")
    }

    /// The front execs `animexport-assemble` for this command; that executable loads none of the
    /// renderer's libraries (the point of the command's own process: issue 22, start-up), and the
    /// core runs the same command with the same output.
    @Test func runsWithoutTheRenderersLibraries() throws {
        let dir = try temporaryDirectory()
        let assemble = URL(fileURLWithPath: toolPath).deletingLastPathComponent()
            .appendingPathComponent("animexport-assemble").path
        let needed = try runProcess("/usr/bin/readelf", ["-d", assemble]).stdout
            .split(separator: "\n").filter { $0.contains("(NEEDED)") }
        #expect(needed.contains { $0.contains("libwebp") } && needed.contains { $0.contains("libpng") })
        for heavy in ["libcairo", "libharfbuzz", "libfontconfig", "libfreetype", "libX11", "libglib"] {
            #expect(!needed.contains { $0.contains(heavy) }, "\(heavy) in \(needed)")
        }
        let front = try runTool(["assemble", "--help"], in: dir)
        let core = try runProcess(corePath, ["assemble", "--help"], in: dir)
        let direct = try runProcess(assemble, ["--help"], in: dir)
        #expect(front.status == 0 && front.stdout.hasPrefix("usage: animexport assemble FRAMES..."))
        #expect(front.output == core.output && front.output == direct.output)
    }

    /// `delay_num`/`delay_den` of every fcTL chunk, in order.
    func fcTLDelays(_ png: [UInt8]) -> [(Int, Int)] {
        var out: [(Int, Int)] = []
        var pos = 8
        func word(_ i: Int, _ n: Int) -> Int { png[i..<(i + n)].reduce(0) { $0 << 8 | Int($1) } }
        while pos + 8 <= png.count {
            let length = word(pos, 4)
            if Array(png[(pos + 4)..<(pos + 8)]) == Array("fcTL".utf8) {
                out.append((word(pos + 8 + 20, 2), word(pos + 8 + 22, 2)))
            }
            pos += 12 + length
        }
        return out
    }

    func sizeText(_ path: String) -> String {
        let n = readBytes(path).count
        return n < 10_000 ? "\(n) bytes" : String(format: "%.1f KB", locale: nil, Double(n) / 1000)
    }

    func formatted(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}
