import Encode
import Foundation
import Testing
import ToolOptions

/// Bad input: each case gives a clear `error:` line, its documented exit code, and leaves no
/// file behind.
@Suite(.serialized) struct BadInputTests {
    static let circular = packageRoot + "/presets/circular.json"

    static func write(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    @Test(arguments: [
        (["--fps", "0"], "--fps 0: expected frames per second 0.1…120"),
        (["--scale", "-1"], "--scale -1: expected a scale factor 0.01…16"),
        (["--loop", "0.5"], "--loop 0.5: expected a number of plays"),
        (["--colums", "3"], "unknown option --colums; did you mean --columns?"),
        (["-o", "x.mp4"], "-o x.mp4 has the extension .mp4"),
        (["--set", "colr=#FF0000"], "did you mean \"color\"?"),
        (["--set", "strokeWidth=wide"], "--set strokeWidth=wide: expected a number"),
        (["--matte", "bleu"], "did you mean blue?"),
        (["--fps"], "--fps needs frames per second"),
    ])
    func usageErrorsExit64(arguments: [String], message: String) throws {
        let dir = try temporaryDirectory()
        let run = try runTool([Self.circular] + arguments, in: dir)
        #expect(run.status == 64)
        #expect(run.stderr.contains("error: " + message) || run.stderr.contains(message), "stderr: \(run.stderr)")
        #expect(listing(dir).isEmpty)
    }

    @Test(arguments: [
        (["--scale", "1,-1"], "--scale -1: expected a scale factor 0.01…16"),
        (["--scale", "2,2"], "--scale 2,2: 2 is repeated"),
        (["--scale", "1,,2"], "--scale 1,,2: empty item in the comma-separated list"),
        (["--jobs", "0"], "--jobs 0: expected a number of threads 1…256"),
        (
            ["--format", "gifs", "-o", "./"],
            "--format gifs: expected gif, apng, webp, sheet, frames or lottie; did you mean gif?"
        ),
        (
            ["--format", "gif", "-o", "a.gif"],
            "--format chooses what goes into a folder (-o DIR/), and -o a.gif names a file: its extension already says the format, so leave --format out, or give a folder (-o DIR/)"
        ),
        (
            ["--format", "apng", "-o", "out"],
            "--format chooses what goes into a folder (-o DIR/), and -o out names a file: write -o out/ to fill that folder"
        ),
        (["--preview", "page.txt"], "--preview page.txt: expected a file name ending in .html"),
        (["--report", "dir/"], "--report dir/: expected a file name ending in .json"),
        (["--set", "strokeWidth=4,"], "--set strokeWidth=4,: empty value in the list"),
        (["--set", "strokeWidth=4,4"], "--set strokeWidth=4,4: a value is repeated"),
        (["--set", "strokeWidth=4,99"], "--set strokeWidth=99: must be at most 32"),
        (["--set", "colr=red,blue"], "--set colr: the preset has no parameter \"colr\"; did you mean \"color\"?"),
        (["--strict"], "--strict does not apply when exporting"),
        (["--scale", "300"], "--scale 300: expected a scale factor 0.01…16"),
        (["--scale", "1e-9"], "--scale 1e-9: expected a scale factor 0.01…16"),
        (["--duration", "1e-9"], "--duration 1e-9: expected a loop period in seconds, 0.02…600"),
        (["--duration", "601"], "--duration 601: expected a loop period in seconds, 0.02…600"),
        (
            ["--scale", "16", "--set", "size=4096"],
            "--scale: 4096×4096 pt at --scale 16 is 65536×65536 = 4294967296 pixels per frame, more than the limit of 16777216"
        ),
    ])
    func moreUsageErrorsExit64(arguments: [String], message: String) throws {
        let dir = try temporaryDirectory()
        let run = try runTool([Self.circular] + arguments, in: dir)
        #expect(run.status == 64)
        // A problem of an option with this preset (a --set value, a size) names the preset first.
        let aboutPreset =
            message.hasPrefix("--set strokeWidth=99") || message.hasPrefix("--set colr")
            || message.hasPrefix("--scale:")
        let prefix = aboutPreset ? "\(Self.circular): error: " : "error: "
        #expect(run.stderr.hasPrefix(prefix) && run.stderr.contains(message), "stderr: \(run.stderr)")
        #expect(listing(dir).isEmpty)
    }

    @Test(arguments: [
        ["check", "--report", "r.json", "-o", "./"], ["check", "--watch", "-o", "./"], ["list", "-o", "x/"],
    ])
    func subcommandsRefuseOptionsThatDoNotApply(arguments: [String]) throws {
        let dir = try temporaryDirectory()
        let run = try runTool(arguments + [Self.circular], in: dir)
        #expect(run.status == 64)
        #expect(run.stderr.hasPrefix("error: \(arguments[1]) does not apply when '\(arguments[0])'"))
        #expect(listing(dir).isEmpty)
    }

    @Test func unwritableOutputFolderExits1BeforeRendering() throws {
        let dir = try temporaryDirectory()
        // /proc accepts no new files, even from root (file modes would not stop root).
        let run = try runTool([Self.circular, "-o", "/proc/", "--report", "r.json"], in: dir)
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("error: cannot write /proc/circular.gif: directory /proc is not writable"))
        #expect(listing(dir).isEmpty)
        let file = try runTool([Self.circular, "-o", "/proc/x.gif"], in: dir)
        #expect(file.status == 1)
        #expect(listing(dir).isEmpty)
    }

    /// Runs the tool under a file size limit of `bytes` (`ulimit -f`) with SIGXFSZ at its
    /// default action and unblocked, whatever the test runner passes down: Python's subprocess
    /// restores the action, `limit` unblocks it (the runner's threads block it, and a shell can
    /// change neither: a signal ignored on entry stays ignored).
    static func runUnderFileSizeLimit(_ bytes: Int, _ arguments: [String], in dir: String) throws -> (
        status: Int32, stderr: String
    ) {
        let script = """
            import resource, signal, subprocess, sys
            def limit():
                signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGXFSZ])
                resource.setrlimit(resource.RLIMIT_FSIZE, (int(sys.argv[2]), int(sys.argv[2])))
            done = subprocess.run(sys.argv[3:], cwd=sys.argv[1], preexec_fn=limit, capture_output=True, text=True)
            sys.stdout.write(str(done.returncode) + "\\n" + done.stderr)
            """
        let python = try runPython(script, arguments: [dir, String(bytes), toolPath] + arguments)
        let lines = python.stdout.split(separator: "\n", maxSplits: 1).map(String.init)
        return (Int32(lines.first ?? "") ?? -1, lines.count > 1 ? lines[1] : python.stderr)
    }

    @Test func aWriteStoppedByTheFileSizeLimitLeavesNoPartialFile() throws {
        // circular-progress's GIF is 313 KB; at 150 000 bytes its write fails part-way. Before
        // the tool ignored SIGXFSZ, the signal killed it (status −25 here, 153 in a shell) and
        // its temporary .c.gif.XXXXXX stayed behind.
        let progress = packageRoot + "/presets/circular-progress.json"
        let dir = try temporaryDirectory()
        let run = try Self.runUnderFileSizeLimit(150_000, [progress, "-o", "c.gif", "-q"], in: dir)
        #expect(run.status == 1)
        #expect(run.stderr == "error: cannot write c.gif: File too large\n")
        #expect(listing(dir).isEmpty)
        // In a batch the files written before the failure are whole and stay; the job stops there.
        let batch = try temporaryDirectory()
        let loading = packageRoot + "/presets/loading-dots.json"
        let second = try Self.runUnderFileSizeLimit(150_000, [loading, progress, "-o", "./", "-q"], in: batch)
        #expect(second.status == 1)
        #expect(second.stderr == "error: cannot write ./circular-progress.gif: File too large\n")
        #expect(listing(batch) == ["loading-dots.gif", "loading-dots.json", "loading-dots.png"])
        #expect(try GIFDecoder.decode(readBytes(batch + "/loading-dots.gif")).frames.count == 46)
    }

    @Test func outputFolderThatIsAFileExits1() throws {
        let dir = try temporaryDirectory()
        try Self.write("x", to: dir + "/plain")
        let run = try runTool([Self.circular, "-o", "plain/"], in: dir)
        #expect(run.status == 1)
        #expect(run.stderr == "error: cannot write plain/circular.gif: plain is not a directory\n")
        #expect(listing(dir) == ["plain"])
    }

    @Test func folderInThePlaceOfASheetsJSONStopsEverythingBeforeRendering() throws {
        let dir = try temporaryDirectory()
        // The sheet's NAME.json is derived from -o NAME.png; a folder there once let the GIF and
        // the PNG be written before the JSON's rename failed.
        try FileManager.default.createDirectory(atPath: dir + "/c.json/inside", withIntermediateDirectories: true)
        let run = try runTool([Self.circular, "-o", "c.gif", "-o", "c.png"], in: dir)
        #expect(run.status == 1)
        #expect(run.stderr == "error: cannot write c.json: a folder of that name is in the way\n")
        #expect(listing(dir) == ["c.json"])
    }

    @Test func unreadablePresetInABatchStopsEverything() throws {
        let dir = try temporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir + "/out", withIntermediateDirectories: false)
        let run = try runTool([Self.circular, "missing.json", "-o", "out/"], in: dir)
        #expect(run.status == 1)
        #expect(run.stderr == "error: cannot read missing.json: no such file\n")
        #expect(listing(dir + "/out").isEmpty)
    }

    @Test func noPresetIsAUsageError() throws {
        let dir = try temporaryDirectory()
        let run = try runTool([], in: dir)
        #expect(run.status == 64)
        #expect(run.stderr.hasPrefix("error: no preset given"))
    }

    @Test func invalidPresetReportsEveryProblemWithLocationsAndExits65() throws {
        let dir = try temporaryDirectory()
        try Self.write(
            """
            {
              "version": 1, "name": "broken",
              "canvas": { "width": 64, "height": 64 },
              "layers": [
                { "type": "circle", "center": [32, 32], "radius": "$size",
                  "stroke": { "color": "#007AFF", "widht": 4 },
                  "animations": [ { "keyPath": "strokeEnd", "toValue": 1, "duration": 1, "repeatCount": "forever" } ] }
              ]
            }
            """, to: dir + "/broken.json")
        let run = try runTool(["broken.json", "-o", "out.gif"], in: dir)
        #expect(run.status == 65)
        let lines = run.stderr.split(separator: "\n").map(String.init)
        #expect(
            lines.contains(
                "broken.json:5:55: error: $.layers[0].radius: unknown parameter $size (the preset declares no params)"))
        #expect(
            lines.contains {
                $0.hasPrefix(
                    "broken.json:6:39: error: $.layers[0].stroke.widht: unknown key \"widht\" in a stroke; did you mean \"width\"?"
                )
            })
        #expect(
            lines.contains {
                $0.hasPrefix(
                    "broken.json:7:93: error: $.layers[0].animations[0].repeatCount: expected a count ≥ 0 or \"infinity\", found \"forever\""
                )
            })
        #expect(lines.last == "broken.json: note: 3 errors; nothing written")
        #expect(listing(dir) == ["broken.json"])
    }

    @Test func unreadablePresetExits1() throws {
        let dir = try temporaryDirectory()
        let run = try runTool(["missing.json"], in: dir)
        #expect(run.status == 1)
        #expect(run.stderr.contains("error: cannot read missing.json: no such file"))
        #expect(listing(dir).isEmpty)
    }

    @Test func missingOutputDirectoryIsCheckedNotCreatedByCheck() throws {
        // An export creates the folder of -o FILE (SecondDayTests); check creates nothing.
        let dir = try temporaryDirectory()
        let run = try runTool(["check", Self.circular, "-o", "nowhere/loader.gif"], in: dir)
        #expect(run.status == 1)
        #expect(run.stderr.contains("error: cannot check nowhere/loader.gif: directory nowhere does not exist"))
        #expect(listing(dir).isEmpty)
    }

    @Test func unwritableOutputLeavesNoTemporaryFile() throws {
        let dir = try temporaryDirectory()
        // A directory where the GIF should go: rename over it fails after the temp file is written.
        try FileManager.default.createDirectory(atPath: dir + "/taken.gif", withIntermediateDirectories: false)
        try FileManager.default.createDirectory(atPath: dir + "/taken.gif/inside", withIntermediateDirectories: false)
        let run = try runTool([Self.circular, "-o", "out/", "-o", "taken.gif"], in: dir)
        #expect(run.status != 0)
        #expect(listing(dir) == ["taken.gif"])
    }

    @Test func helpAndVersion() throws {
        let dir = try temporaryDirectory()
        let help = try runTool(["--help"], in: dir)
        #expect(help.status == 0)
        #expect(help.stdout.contains("USAGE"))
        #expect(help.stdout.contains("--matte COLOR"))
        let version = try runTool(["--version"], in: dir)
        #expect(version.status == 0)
        #expect(version.stdout.hasPrefix("animexport "))
    }

    @Test func defaultOutputIsOutputDirectory() throws {
        let dir = try temporaryDirectory()
        let run = try runTool([Self.circular, "--quiet"], in: dir)
        #expect(run.status == 0)
        #expect(run.stdout.isEmpty)
        #expect(listing(dir + "/output") == ["circular.gif"])
    }

    @Test func loopOptionControlsNetscapeBlock() throws {
        let dir = try temporaryDirectory()
        _ = try runTool([Self.circular, "--loop", "1", "-o", "once.gif", "--fps", "10"], in: dir)
        _ = try runTool([Self.circular, "--loop", "3", "-o", "three.gif", "--fps", "10"], in: dir)
        let once = try Data(contentsOf: URL(fileURLWithPath: dir + "/once.gif"))
        let three = try Data(contentsOf: URL(fileURLWithPath: dir + "/three.gif"))
        let netscape = Data("NETSCAPE2.0".utf8)
        #expect(once.range(of: netscape) == nil)
        guard let r = three.range(of: netscape) else {
            Issue.record("no NETSCAPE2.0 block")
            return
        }
        // 03 01 <count lo> <count hi> 00 follows: 3 plays in total = 2 repeats.
        let tail = [UInt8](three[r.upperBound..<(r.upperBound + 5)])
        #expect(tail == [3, 1, 2, 0, 0])
    }

    @Test func highFrameRateGIFIsResampledWithAWarning() throws {
        let dir = try temporaryDirectory()
        let run = try runTool([Self.circular, "--fps", "60", "-o", "fast.gif", "--duration", "1"], in: dir)
        #expect(run.status == 0)
        #expect(run.stderr.contains("warning:") && run.stderr.contains("resampled to 50 fps"))
        #expect(run.stdout.contains("fast.gif: 50 frames, 1 s loop"))
    }
}

/// An output that would replace an input is refused before anything is written: a designer's
/// first "export next to my preset" must not turn the preset into sprite-sheet data.
@Suite struct OverwriteInputTests {
    @Test(arguments: [
        ["circular.json", "-o", "circular.png"], ["./", "-o", "./"],
        ["circular.json", "-o", "circular.json.gif", "-o", "./"],
    ])
    func outputOverAPresetIsRefused(arguments: [String]) throws {
        let dir = try temporaryDirectory()
        let original = try Data(contentsOf: URL(fileURLWithPath: packageRoot + "/presets/circular.json"))
        try original.write(to: URL(fileURLWithPath: dir + "/circular.json"))
        let run = try runTool(arguments, in: dir)
        #expect(run.status == 64)
        #expect(run.stderr.contains("would overwrite the preset"), "\(run.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir + "/circular.json")) == original)
        #expect(listing(dir) == ["circular.json"])
    }
}

/// Loops that will visibly misbehave are said on export, not only under `validate`.
@Suite struct ExportWarningTests {
    @Test func cutCycleAndOffGridPeriodWarnOnExport() throws {
        let dir = try temporaryDirectory()
        let run = try runTool([packageRoot + "/presets/circular.json", "--duration", "1.234", "-o", "x.gif"], in: dir)
        #expect(run.status == 0)
        #expect(run.stderr.contains("holds no whole number of the 4 s cycle") && run.stderr.contains("[loop-cut]"))
        #expect(run.stderr.contains("[period-off-grid]"))
        // APNG and WebP delays express 1.234 s: no GIF-grid warning when no GIF is written;
        // the cut cycle jumps in every format and is still said.
        for name in ["x.apng", "x.webp"] {
            let other = try runTool(
                [packageRoot + "/presets/circular.json", "--duration", "1.234", "-o", name], in: dir)
            #expect(other.status == 0)
            #expect(other.stderr.contains("[loop-cut]"), "\(other.stderr)")
            #expect(!other.stderr.contains("period-off-grid"), "\(other.stderr)")
        }
        // A Lottie file's loop is (op - ip) / fr; the warning points at op, not at a missing key.
        let lottie = packageRoot + "/../shared/lottie/skia-sample_1.json"
        if FileManager.default.fileExists(atPath: lottie) {
            let run = try runTool([lottie, "-o", "s.gif"], in: dir)
            #expect(run.stderr.contains("warning: $.op: the loop period 3.333333 s"), "\(run.stderr)")
        }
    }

    @Test func emptyOutputWarns() throws {
        let dir = try temporaryDirectory()
        try writeFile(
            ##"{ "version": 1, "name": "off", "canvas": { "width": 20, "height": 20 }, "duration": 1, "layers": [ { "type": "circle", "center": [100, 100], "radius": 5, "fill": "red" } ] }"##,
            to: dir + "/off.json")
        let run = try runTool(["off.json", "-o", "off.gif"], in: dir)
        #expect(run.status == 0)
        #expect(run.stderr.contains("off.json: warning: off: every frame is empty"), "\(run.stderr)")
    }
}
