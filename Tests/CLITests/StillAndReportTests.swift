import Encode
import Foundation
import Raster
import Render
import Testing

/// `--frame N` / `--time SEC` write one PNG; `--report` writes per-frame timing.
struct StillAndReportTests {
    static let circular = packageRoot + "/presets/circular.json"

    @Test func frameAndTimeEqualTheMatchingFrameOfTheSequence() throws {
        let dir = try temporaryDirectory()
        let frames = try runTool([Self.circular, "--frames", "all", "-o", "x.gif", "-q"], in: dir)
        #expect(frames.status == 0, "\(frames.stderr)")
        #expect(listing(dir + "/all").count == 120)
        let one = try runTool([Self.circular, "--frame", "45", "-o", "f45.png"], in: dir)
        #expect(one.status == 0, "\(one.stderr)")
        #expect(one.stdout == "f45.png: frame at 9.5 s, 64×64 px, \(readBytes(dir + "/f45.png").count) bytes\n")
        #expect(readBytes(dir + "/f45.png") == readBytes(dir + "/all/circular-045.png"))
        // 9.5 s on the preset's clock is frame 45 at 30 fps (the loop starts at 8 s, the steady
        // state after the Timer's first ticks).
        let atTime = try runTool([Self.circular, "--time", "9.5", "-o", "t.png", "-q"], in: dir)
        #expect(atTime.status == 0)
        #expect(readBytes(dir + "/t.png") == readBytes(dir + "/all/circular-045.png"))
        // Not a sheet: one 64×64 PNG and no JSON beside it.
        #expect(try PNGCodec.decode(readBytes(dir + "/t.png")).width == 64)
        #expect(!FileManager.default.fileExists(atPath: dir + "/t.json"))
    }

    /// `--frame N` is drawn at the loop's exact instant of frame N, as `--frames` draws it: on
    /// circular-progress, whose label steps at frame boundaries, 35 of the 180 frames read one
    /// less ("21%" at frame 22) while `--frame` passed the instant on as a double (12.7333… s read
    /// back as its decimal, an ulp before 191/15). Frames 1, 2, 22 and 31 were among them.
    @Test func frameOnALabelStepEqualsTheSequencesFrame() throws {
        let dir = try temporaryDirectory()
        let progress = packageRoot + "/presets/circular-progress.json"
        let frames = try runTool([progress, "--frames", "all", "-o", "x.gif", "-q"], in: dir)
        #expect(frames.status == 0, "\(frames.stderr)")
        try #require(listing(dir + "/all").count == 180)
        for n in [1, 2, 22, 31] {
            let name = String(format: "%03d", n)
            let one = try runTool([progress, "--frame", String(n), "-o", "f\(name).png", "-q"], in: dir)
            #expect(one.status == 0, "\(one.stderr)")
            let same = readBytes(dir + "/f\(name).png") == readBytes(dir + "/all/circular-progress-\(name).png")
            #expect(same, "--frame \(n) differs from --frames' frame \(n)")
        }
    }

    @Test func stillsIntoAFolderAreNamedByFrameOrTime() throws {
        let dir = try temporaryDirectory()
        #expect(try runTool([Self.circular, "--frame", "7", "--scale", "1,2", "-q"], in: dir).status == 0)
        #expect(try runTool([Self.circular, "--time", "0.25", "-q"], in: dir).status == 0)
        #expect(
            listing(dir + "/output") == ["circular-007.png", "circular-007@2x.png", "circular-t0.25s.png"])
        #expect(try PNGCodec.decode(readBytes(dir + "/output/circular-007@2x.png")).width == 128)
    }

    @Test(arguments: [
        // "@" stands for the preset's path: a frame past the loop is about that preset.
        (["--frame", "120"], 64, "@: error: --frame 120: the loop has 120 frames (0…119)\n"),
        (["--frame", "-1"], 64, "error: --frame -1: expected a frame number ≥ 0"),
        (["--time", "x"], 64, "error: --time x: expected seconds ≥ 0"),
        (["--frame", "1", "-o", "a.gif"], 64, "error: --frame/--time write one PNG; -o a.gif names a GIF"),
        (["--frame", "1", "--time", "1"], 64, "error: give one of --frame and --time"),
    ])
    func badStillRequests(arguments: [String], status: Int32, message: String) throws {
        let dir = try temporaryDirectory()
        let run = try runTool([Self.circular] + arguments, in: dir)
        #expect(run.status == status)
        #expect(run.stderr.hasPrefix(message.replacingOccurrences(of: "@", with: Self.circular)), "\(run.stderr)")
        #expect(listing(dir).isEmpty)
    }

    /// `--report` for the real-alpha formats: the APNG's delays on its own grid (1/30 s for
    /// circular, so every frame is one step and the total has no error at all) and the WebP's
    /// milliseconds (33/34 by cumulative rounding, 4000 in all), each equal to what the file
    /// stores, read back from the fcTL and ANMF chunks.
    @Test func reportGivesAPNGAndWebPDelaysAndTotalError() throws {
        let dir = try temporaryDirectory()
        let run = try runTool(
            [Self.circular, "-o", "out/", "--format", "apng,webp", "--report", "timing.json", "-q"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        let entry = try Self.report(dir + "/timing.json").first ?? [:]
        let apng = entry["apng"] as? [String: Any] ?? [:]
        let webp = entry["webp"] as? [String: Any] ?? [:]
        #expect(apng["unit"] as? String == "1/30 s")
        #expect(webp["unit"] as? String == "ms")
        for timing in [apng, webp] {
            #expect(timing["frameCount"] as? Int == 120)
            #expect(timing["totalDuration"] as? Double == 4)
            #expect(timing["durationError"] as? Double == 0)
        }
        let apngDelays = (apng["frames"] as? [[String: Any]] ?? []).compactMap { $0["delay"] as? Int }
        let webpDelays = (webp["frames"] as? [[String: Any]] ?? []).compactMap { $0["delay"] as? Int }
        #expect(apngDelays == Array(repeating: 1, count: 120))
        let expected = (0..<120).map { i in
            Int((1000.0 * Double(i + 1) / 30).rounded()) - Int((1000.0 * Double(i) / 30).rounded())
        }
        #expect(webpDelays == expected)
        // The files say the same: fcTL delay_num/delay_den and ANMF durations.
        let chunks = #"""
            import sys
            def walk(data, start, big):
                pos = start
                while pos + 8 <= len(data):
                    n = int.from_bytes(data[pos:pos + 4], "big") if big else int.from_bytes(data[pos + 4:pos + 8], "little")
                    kind = data[pos + 4:pos + 8] if big else data[pos:pos + 4]
                    yield kind, data[pos + 8:pos + 8 + n]
                    pos += (12 + n) if big else (8 + n + (n & 1))
            apng = [f"{int.from_bytes(b[20:22], 'big')}/{int.from_bytes(b[22:24], 'big')}"
                    for k, b in walk(open(sys.argv[1], "rb").read(), 8, True) if k == b"fcTL"]
            webp = [str(int.from_bytes(b[12:15], "little"))
                    for k, b in walk(open(sys.argv[2], "rb").read(), 12, False) if k == b"ANMF"]
            print(" ".join(apng)); print(" ".join(webp))
            """#
        let files = try runPython(chunks, arguments: [dir + "/out/circular.apng", dir + "/out/circular.webp"])
        let lines = files.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(files.stdout) \(files.stderr)")
        #expect(lines.first == Array(repeating: "1/30", count: 120).joined(separator: " "))
        #expect(lines.last == expected.map(String.init).joined(separator: " "))
    }

    static func report(_ path: String) throws -> [[String: Any]] {
        let json = try JSONSerialization.jsonObject(with: Data(readBytes(path))) as? [String: Any]
        return json?["animations"] as? [[String: Any]] ?? []
    }

    @Test func reportHasIntendedTimesEncodedDelaysAndWarnings() throws {
        let dir = try temporaryDirectory()
        let run = try runTool([Self.circular, "-o", "c.gif", "--report", "timing.json", "-q"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        let animations = try Self.report(dir + "/timing.json")
        #expect(animations.count == 1)
        let entry = animations.first ?? [:]
        #expect(entry["name"] as? String == "circular")
        #expect(entry["files"] as? [String] == ["c.gif"])
        #expect((entry["params"] as? [String: Any])?["color"] as? String == "#007AFF")
        #expect((entry["params"] as? [String: Any])?["strokeWidth"] as? Double == 4)
        let gif = entry["gif"] as? [String: Any] ?? [:]
        let frames = gif["frames"] as? [[String: Any]] ?? []
        #expect(frames.count == 120)
        #expect(gif["durationError"] as? Double == 0)
        #expect(gif["totalDuration"] as? Double == 4)
        // Delays read back from the GIF: 3, 4, 3, … by cumulative rounding of i/30 s.
        let expected = (0..<120).map { i in
            Int((100.0 * Double(i + 1) / 30).rounded()) - Int((100.0 * Double(i) / 30).rounded())
        }
        #expect(frames.compactMap { $0["delay"] as? Int } == expected)
        // Intended time i/30 s (6 decimals); encoded time = sum of earlier delays.
        #expect(frames[1]["time"] as? Double == 0.033333)
        #expect(frames[1]["encodedTime"] as? Double == 0.03)
        #expect(frames[2]["encodedTime"] as? Double == 0.07)
        let warnings = gif["warnings"] as? [String] ?? []
        #expect(
            warnings.contains {
                $0.hasPrefix("120 of 120 frames have delays under 10 cs") && $0.contains("12 s instead of 4 s")
            })
        let sheet = entry["sheet"] as? [String: Any] ?? [:]
        #expect((sheet["frames"] as? [[String: Any]])?.compactMap { $0["delay"] as? Int }.reduce(0, +) == 4000)
        #expect(sheet["unit"] as? String == "ms")
    }

    @Test func reportShowsTheErrorOffTheGridAndTheResampledGIF() throws {
        let dir = try temporaryDirectory()
        try writeFile(
            squarePreset().replacingOccurrences(of: "\"duration\": 1,", with: "\"duration\": 1.234,"),
            to: dir + "/odd.json")
        let run = try runTool(["odd.json", "-o", "o.gif", "--fps", "60", "--report", "r.json", "-q"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("resampled to 50 fps"))
        let gif = (try Self.report(dir + "/r.json").first?["gif"] as? [String: Any]) ?? [:]
        #expect(gif["fps"] as? Double == 50)
        // round(1.234 · 50) = 62 frames would need a 1 cs delay; 61 is the most 123 cs hold.
        #expect(gif["frameCount"] as? Int == 61)
        #expect(gif["totalDuration"] as? Double == 1.23)
        let error = gif["durationError"] as? Double ?? 0
        #expect(abs(error - -0.004) < 1e-9)
        let warnings = gif["warnings"] as? [String] ?? []
        #expect(
            warnings.contains(
                "the loop period 1.234 s is not a whole number of centiseconds, so the file lasts 1.23 s (-4 ms off)"))
        #expect(warnings.contains { $0.hasPrefix("61 frames in 1.234 s is 49.432739 fps, not 50") })
    }

    @Test func reportCoversEveryJobOfABatch() throws {
        let dir = try temporaryDirectory()
        try writeFile(squarePreset(), to: dir + "/sq.json")
        let run = try runTool(
            ["sq.json", "--set", "size=10,20", "--scale", "1,2", "-o", "./", "--report", "all.json", "-q"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        let outputs = try Self.report(dir + "/all.json").compactMap { $0["output"] as? String }
        #expect(
            outputs
                == ["sq-size-10", "sq-size-10@2x", "sq-size-20", "sq-size-20@2x"].map {
                    $0.replacingOccurrences(of: "sq", with: "square")
                })
    }
}
