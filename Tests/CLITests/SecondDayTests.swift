// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Raster
import Render
import Spec
import Testing

/// Issue 19's second round of fresh-user findings, each through the real binary in a temporary
/// folder: the exact message, the exit code, and what is (not) left on disk.
struct SecondDayTests {
    static let circular = packageRoot + "/presets/circular.json"

    /// A 10 × 10 pt preset with one red square that moves for `duration` seconds at `fps`.
    static func preset(name: String = "dot", fps: Double = 30, duration: Double = 1, extra: String = "") -> String {
        """
        {"version": 1, "name": "\(name)", "canvas": {"width": 10, "height": 10}, "fps": \(fps), "duration": \(duration),\(extra)
         "layers": [{"type": "rect", "center": [5, 5], "size": [4, 4], "fill": "#FF3B30",
           "animations": [{"keyPath": "opacity", "fromValue": 0, "toValue": 1, "duration": \(duration)}]}]}
        """
    }

    // MARK: 1. counts

    @Test func countsAgreeWithTheirNouns() {
        #expect(counted(1, "frame") == "1 frame")
        #expect(counted(0, "frame") == "0 frames")
        #expect(counted(3, "frame") == "3 frames")
        #expect(
            counted(1, "lint (an error under --strict)", plural: "lints (errors under --strict)")
                == "1 lint (an error under --strict)")
        #expect(
            counted(3, "lint (an error under --strict)", plural: "lints (errors under --strict)")
                == "3 lints (errors under --strict)")
    }

    @Test func validateCountsLintsUnderStrictInTheirPlural() throws {
        let dir = try temporaryDirectory()
        // fps 60 is one lint (fps-above-50), about GIF output, so --format gif makes it count;
        // the opacity keyframes are fine.
        try writeFile(Self.preset(fps: 60), to: dir + "/p.json")
        let one = try runTool(["validate", "p.json", "--strict", "--format", "gif"], in: dir)
        #expect(one.status == 65)
        #expect(one.stderr.hasSuffix("p.json: note: 1 lint (an error under --strict)\n"), "\(one.stderr)")
        // Three presets' worth in one file is not possible; three lints in one preset: fps,
        // and two strokeEnd keyframes outside 0…1 on two layers.
        let three = """
            {"version": 1, "name": "t", "canvas": {"width": 10, "height": 10}, "fps": 60, "duration": 1,
             "layers": [
              {"type": "line", "from": [0, 0], "to": [10, 10], "stroke": {"color": "#000000", "width": 1},
               "animations": [{"keyPath": "strokeEnd", "fromValue": 0, "toValue": 2, "duration": 1}]},
              {"type": "line", "from": [0, 10], "to": [10, 0], "stroke": {"color": "#000000", "width": 1},
               "animations": [{"keyPath": "strokeEnd", "fromValue": 0, "toValue": 3, "duration": 1}]}]}
            """
        try writeFile(three, to: dir + "/t.json")
        let run = try runTool(["validate", "t.json", "--strict", "--format", "gif"], in: dir)
        #expect(run.status == 65)
        #expect(run.stderr.hasSuffix("t.json: note: 3 lints (errors under --strict)\n"), "\(run.stderr)")
        #expect(!run.stderr.contains(")s"))
        #expect(listing(dir) == ["p.json", "t.json"])
    }

    @Test func aOneFrameLoopSaysOneFrame() throws {
        let dir = try temporaryDirectory()
        // 0.1 s at 10 fps: one frame.
        try writeFile(Self.preset(fps: 10, duration: 0.1), to: dir + "/p.json")
        let run = try runTool(["validate", "p.json"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "p.json: valid (0.1 s loop, 1 frame at 10 fps, 10×10 pt)\n")
        let list = try runTool(["list", "p.json"], in: dir)
        #expect(list.stdout.contains("1 frame\n") || list.stdout.contains("1 frame,"), "\(list.stdout)")
        #expect(!list.stdout.contains("1 frames"))
    }

    // MARK: 2. budget refusals say nothing was written

    @Test func aBudgetRefusalSaysNothingWasWritten() throws {
        let dir = try temporaryDirectory()
        try writeFile(
            ##"{"version": 1, "name": "big", "canvas": {"width": 300, "height": 300}, "layers": [{"type": "rect", "center": [5, 5], "size": [4, 4], "fill": "#FF3B30"}]}"##,
            to: dir + "/big.json")
        let run = try runTool(["big.json", "--scale", "16", "-o", "out/"], in: dir)
        #expect(run.status == 64)
        #expect(
            run.stderr
                == "big.json: error: --scale: 300×300 pt at --scale 16 is 4800×4800 = 23040000 pixels per frame, more than the limit of 16777216 (4096×4096)\nbig.json: note: 1 error; nothing written\n"
        )
        #expect(listing(dir) == ["big.json"])
    }

    // MARK: 3. colour names

    @Test func misspeltColourNamesGetTheNearestName() throws {
        let dir = try temporaryDirectory()
        let set = try runTool([Self.circular, "--set", "color=sytemRed", "-o", "x.gif"], in: dir)
        #expect(set.status == 64)
        #expect(set.stderr.hasPrefix("\(Self.circular): error: --set color=sytemRed: expected a colour ("))
        #expect(set.stderr.hasSuffix("; did you mean color=systemRed?\n"), "\(set.stderr)")
        let option = try runTool([Self.circular, "--background", "tomatoe", "-o", "x.gif"], in: dir)
        #expect(option.status == 64)
        #expect(option.stderr.contains("; did you mean tomato?"), "\(option.stderr)")
        // In a preset: a fill, and a colour-typed parameter's default.
        let fill = Self.preset().replacingOccurrences(of: "\"#FF3B30\"", with: "\"sytemRed\"")
        try writeFile(fill, to: dir + "/fill.json")
        let inFile = try runTool(["fill.json", "-o", "x.gif"], in: dir)
        #expect(inFile.status == 65)
        #expect(inFile.stderr.contains("found \"sytemRed\"; did you mean \"systemRed\"?"), "\(inFile.stderr)")
        let param = Self.preset(extra: #" "params": {"color": {"default": "sytemRed", "type": "color"}},"#)
        try writeFile(param, to: dir + "/param.json")
        let inParam = try runTool(["validate", "param.json"], in: dir)
        #expect(inParam.status == 65)
        #expect(inParam.stderr.contains("found \"sytemRed\"; did you mean \"systemRed\"?"), "\(inParam.stderr)")
        #expect(listing(dir) == ["fill.json", "param.json"])
    }

    // MARK: 4. the folder of a file output is created

    @Test func aFileOutputInANewFolderCreatesIt() throws {
        let dir = try temporaryDirectory()
        let run = try runTool([Self.circular, "-o", "newdir/deeper/x.gif"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr == "note: created folder newdir/deeper/\n")
        #expect(listing(dir + "/newdir/deeper") == ["x.gif"])
        // check creates nothing.
        let check = try runTool(["check", Self.circular, "-o", "other/x.gif"], in: dir)
        #expect(check.status == 1)
        #expect(check.stderr == "error: cannot check other/x.gif: directory other does not exist\n")
        #expect(listing(dir) == ["newdir"])
    }

    @Test func aFolderThatCannotBeMadeIsNamedWithItsReason() throws {
        let dir = try temporaryDirectory()
        try writeFile("not a folder", to: dir + "/plain")
        let run = try runTool([Self.circular, "-o", "plain/sub/x.gif"], in: dir)
        #expect(run.status == 1)
        #expect(run.stderr == "error: cannot create the folder plain: plain is a file, not a directory\n")
        #expect(listing(dir) == ["plain"])
    }

    // MARK: 5. an unwritable place

    @Test func anUnwritablePlaceSaysWhy() throws {
        let dir = try temporaryDirectory()
        let run = try runTool([Self.circular, "-o", "/proc/x.gif"], in: dir)
        #expect(run.status == 1)
        #expect(
            run.stderr
                == "error: cannot write /proc/x.gif: directory /proc is not writable: /proc accepts no new files (a virtual file system such as /proc or /sys)\n"
        )
        try writeFile("x", to: dir + "/plain")
        let file = try runTool([Self.circular, "-o", "plain/x.gif"], in: dir)
        #expect(file.status == 1)
        #expect(file.stderr == "error: cannot write plain/x.gif: plain is not a directory\n")
        #expect(listing(dir) == ["plain"])
    }

    // MARK: 7. units

    @Test(arguments: [
        (
            ["--poster", "2s"],
            "error: --poster 2s: expected seconds into the loop ≥ 0 without a unit (--poster 1.5 is 1.5 s, taken modulo the loop) or a percentage of the loop, 0 ≤ P < 100 (--poster 25%); write it without the unit: --poster 2"
        ),
        (
            ["--poster", "150%"],
            "error: --poster 150%: expected a percentage of the loop, 0 ≤ P < 100 (--poster 25%; 100% is the start again: --poster 0%), or seconds into the loop without a unit (--poster 1.5)"
        ),
        (
            ["--speed", "0"],
            "error: --speed 0: expected a speed factor 0.01…100 without a unit (2 plays twice as fast, 0.5 half as fast)"
        ),
        (
            ["--speed", "2x"],
            "error: --speed 2x: expected a speed factor 0.01…100 without a unit (2 plays twice as fast, 0.5 half as fast); write it without the unit: --speed 2"
        ),
        (
            ["--duration", "1s"],
            "error: --duration 1s: expected a loop period in seconds, 0.02…600, without a unit (--duration 1.5 is 1.5 s; a GIF frame lasts at least 2 cs); write it without the unit: --duration 1"
        ),
        (
            ["--duration", "250ms"],
            "error: --duration 250ms: expected a loop period in seconds, 0.02…600, without a unit (--duration 1.5 is 1.5 s; a GIF frame lasts at least 2 cs); write it without the unit: --duration 0.25"
        ),
        (
            ["--fps", "30fps"],
            "error: --fps 30fps: expected frames per second 0.1…120; write it without the unit: --fps 30"
        ),
        (
            ["--time", "1s"],
            "error: --time 1s: expected seconds ≥ 0 on the preset's clock, without a unit (--time 1.5); write it without the unit: --time 1"
        ),
    ])
    func valuesWithUnitsSayTheAcceptedForms(arguments: [String], message: String) throws {
        let dir = try temporaryDirectory()
        let run = try runTool([Self.circular, "-o", "x.gif"] + arguments, in: dir)
        #expect(run.status == 64)
        #expect(run.stderr == message + "\nnote: run 'animexport --help' for usage\n")
        #expect(listing(dir).isEmpty)
    }

    // MARK: 8. --help on fan-out

    @Test func helpSaysListsMultiplyAndZipPairsThem() throws {
        let run = try runTool(["--help"], in: try temporaryDirectory())
        #expect(run.status == 0)
        #expect(run.stdout.contains("several lists make every combination (two lists of 2: 4 outputs)"))
        #expect(run.stdout.contains("2 outputs, not 4; every list needs the same length"))
        #expect(!run.stdout.contains("--set lists pair up"))
        // What it says is what happens: two lists of two are 4 files, 2 with --zip.
        let dir = try temporaryDirectory()
        let product = try runTool(
            [Self.circular, "--set", "size=24,32", "--set", "strokeWidth=2,3", "-o", "a/", "--format", "gif", "-q"],
            in: dir)
        #expect(product.status == 0, "\(product.stderr)")
        #expect(listing(dir + "/a").count == 4)
        let zipped = try runTool(
            [
                Self.circular, "--set", "size=24,32", "--set", "strokeWidth=2,3", "--zip", "-o", "b/", "--format",
                "gif",
                "-q",
            ], in: dir)
        #expect(zipped.status == 0, "\(zipped.stderr)")
        #expect(listing(dir + "/b").count == 2)
    }

    // MARK: 9. validate and the GIF grid lint

    @Test func validateStrictFailsOnTheGIFGridLintOnlyForGIF() throws {
        let dir = try temporaryDirectory()
        // 1.005 s is off the 1/100 s grid.
        try writeFile(Self.preset(duration: 1.005), to: dir + "/p.json")
        let plain = try runTool(["validate", "p.json", "--strict"], in: dir)
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(
            plain.stderr
                == "p.json: warning: $.duration: the loop period 1.005 s does not land on the 1/100 s grid of GIF delays, so the GIF lasts 1.01 s; make the period a whole number of centiseconds (applies to GIF output only; --strict fails on it with --format gif) [period-off-grid]\n"
        )
        #expect(plain.stdout.hasSuffix("; 1 warning for GIF output only\n"), "\(plain.stdout)")
        let gif = try runTool(["validate", "p.json", "--strict", "--format", "gif"], in: dir)
        #expect(gif.status == 65)
        #expect(gif.stderr.hasPrefix("p.json: error: $.duration: the loop period 1.005 s"), "\(gif.stderr)")
        #expect(gif.stderr.hasSuffix("p.json: note: 1 lint (an error under --strict)\n"))
        let apng = try runTool(["validate", "p.json", "--strict", "--format", "apng,webp"], in: dir)
        #expect(apng.status == 0, "\(apng.stderr)")
        #expect(listing(dir) == ["p.json"])
    }

    // MARK: 10. stills have no timing warnings

    @Test func aOneFrameLottieGetsNoTimingWarnings() throws {
        let dir = try temporaryDirectory()
        // One frame (op − ip = 1) at 60 fps.
        let lottie = #"""
            {"v": "5.7.4", "fr": 60, "ip": 0, "op": 1, "w": 10, "h": 10, "layers": [
             {"ty": 4, "ind": 1, "ip": 0, "op": 1, "st": 0, "ks": {}, "shapes": [
              {"ty": "rc", "p": {"a": 0, "k": [5, 5]}, "s": {"a": 0, "k": [4, 4]}, "r": {"a": 0, "k": 0}},
              {"ty": "fl", "c": {"a": 0, "k": [1, 0, 0, 1]}, "o": {"a": 0, "k": 100}}]}]}
            """#
        try writeFile(lottie, to: dir + "/still.json")
        let run = try runTool(["still.json", "-o", "still.gif"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!run.stderr.contains("fps"), "\(run.stderr)")
        // 1/60 s is off the GIF's 1/100 s grid, but one frame has no loop to be off it.
        #expect(!run.stderr.contains("period-off-grid"), "\(run.stderr)")
        #expect(run.stdout.hasPrefix("still.gif: 1 frame, "), "\(run.stdout)")
        #expect(listing(dir) == ["still.gif", "still.json"])
    }

    // MARK: 11. check on a subset of a batch

    @Test func checkOnASubsetOfABatchAnswersFromItsManifests() throws {
        let dir = try temporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir + "/presets", withIntermediateDirectories: true)
        try writeFile(Self.preset(name: "dot"), to: dir + "/presets/dot.json")
        try writeFile(Self.preset(name: "other", duration: 2), to: dir + "/presets/other.json")
        let batch = try runTool(["presets/", "-o", "out/", "--format", "gif", "-q"], in: dir)
        #expect(batch.status == 0, "\(batch.stderr)")
        for spelling in ["presets/dot.json", "./presets/dot.json", dir + "/presets/dot.json", "presets//dot.json"] {
            let check = try runTool(["check", spelling, "-o", "out/", "--format", "gif"], in: dir)
            #expect(check.status == 0, "\(spelling): \(check.stderr)")
            #expect(check.stdout == "check: the 1 file is up to date (1 answered from manifests)\n", "\(spelling)")
        }
        #expect(listing(dir + "/out") == ["dot.gif", "other.gif"])
    }

    // MARK: 12. one form for every message line

    /// Every stderr line of `run` has the one form, `FILE[:LINE:COL]: SEVERITY: …` or
    /// `SEVERITY: …` (the pattern docs/cli.md, Messages, gives), and the file of each is
    /// `files[i]` (nil for a line about no file).
    static func expectForm(
        _ run: ToolRun, files: [String?], sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws {
        let messageForm = try Regex(#"^(?:(.+?)(?::(\d+):(\d+))?: )?(error|warning|note): (.*)$"#)
        let lines = run.stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        #expect(lines.count == files.count, "\(run.stderr)", sourceLocation: sourceLocation)
        for (line, file) in zip(lines, files) {
            let match = line.wholeMatch(of: messageForm)
            #expect(match != nil, "\(line)", sourceLocation: sourceLocation)
            let found = match?.output[1].substring.map(String.init)
            #expect(found == file, "\(line)", sourceLocation: sourceLocation)
        }
    }

    @Test func warningsAndNotesAboutAFileStartWithTheFile() throws {
        let dir = try temporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir + "/presets", withIntermediateDirectories: true)
        try writeFile(Self.preset(name: "dot"), to: dir + "/presets/dot.json")
        try writeFile("[1, 2]", to: dir + "/presets/list.json")
        // A batch: the stray JSON is skipped with a note about it; the folder note is about no file.
        let batch = try runTool(["presets/", "-o", "out/", "--format", "apng"], in: dir)
        #expect(batch.status == 0, "\(batch.stderr)")
        #expect(
            batch.stderr
                == "presets/list.json: note: not a preset (an array, not an object); skipped\nnote: created folder out/\n"
        )
        try Self.expectForm(batch, files: ["presets/list.json", nil])
        // An output's warning names the output; the GIF lint keeps its line:column and id.
        try writeFile(Self.preset(name: "fast", fps: 60), to: dir + "/fast.json")
        let gif = try runTool(["fast.json", "-o", "fast.gif"], in: dir)
        #expect(gif.status == 0, "\(gif.stderr)")
        #expect(
            gif.stderr == """
                fast.json:1:78: warning: $.fps: 60 fps is above what GIF can play: delays under 2 cs play as 10 cs in browsers, so GIF output is resampled to 50 fps [fps-above-50]
                fast.gif: warning: 784 half-transparent edge pixels were made fully opaque or transparent (GIF has 1-bit alpha); pass --matte COLOR (the page colour) for smooth edges, or write APNG or WebP (real alpha)

                """)
        try Self.expectForm(gif, files: ["fast.json", "fast.gif"])
        // A refusal: the error and its note name the preset the same way.
        try writeFile(
            ##"{"version": 1, "name": "big", "canvas": {"width": 300, "height": 300}, "layers": [{"type": "rect", "center": [5, 5], "size": [4, 4], "fill": "#FF3B30"}]}"##,
            to: dir + "/big.json")
        let big = try runTool(["big.json", "--scale", "16", "-o", "big/"], in: dir)
        #expect(big.status == 64)
        try Self.expectForm(big, files: ["big.json", "big.json"])
        // validate's count and a bad --set; the usage note after a bad option has no file.
        let set = try runTool(["validate", "fast.json", "--set", "colr=red"], in: dir)
        #expect(set.status == 64)
        #expect(set.stderr == "fast.json: error: --set colr: the preset has no parameter \"colr\"\n")
        try Self.expectForm(set, files: ["fast.json"])
        let frame = try runTool(["fast.json", "--frame", "60", "-o", "f.png"], in: dir)
        #expect(frame.status == 64)
        #expect(frame.stderr == "fast.json: error: --frame 60: the loop has 60 frames (0…59)\n")
        let usage = try runTool(["fast.json", "--fsp", "2"], in: dir)
        #expect(usage.status == 64)
        try Self.expectForm(usage, files: [nil, nil])
        #expect(listing(dir) == ["big.json", "fast.gif", "fast.json", "out", "presets"])
        #expect(listing(dir + "/out") == ["dot.apng"])
    }

    // MARK: 13. round(), floor() and ceil() in bind

    @Test func bindExpressionsRoundFloorAndCeilWithHalvesAwayFromZero() throws {
        let dir = try temporaryDirectory()
        // n steps 0, 1, 2, 3 every 0.25 s; opacity (round(n/2) + floor(n/2) + ceil(n/2)) / 5 is
        // 0, 2/5, 3/5, 5/5. Halves to even would give round(0.5) = 0 and 1/5 at n = 1.
        let preset = """
            {"version": 1, "name": "b", "canvas": {"width": 10, "height": 10}, "fps": 4,
             "state": {"n": 0},
             "events": [{"every": 0.25, "set": {"n": "($n + 1) % 4"}}],
             "layers": [{"type": "rect", "center": [5, 5], "size": [10, 10], "fill": "#FF0000",
               "bind": {"opacity": "(round($n / 2) + floor($n / 2) + ceil($n / 2)) / 5"}}]}
            """
        try writeFile(preset, to: dir + "/b.json")
        let valid = try runTool(["validate", "b.json"], in: dir)
        #expect(valid.status == 0, "\(valid.stderr)")
        #expect(valid.stdout == "b.json: valid (1 s loop, 4 frames at 4 fps, 10×10 pt)\n")
        let run = try runTool(["b.json", "-o", "b.webp", "--frames", "fr/", "-q"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        let alphas = try (0..<4).map { k in
            try PNGCodec.decode(readBytes(dir + "/fr/b-00\(k).png"))[5, 5].a
        }
        #expect(alphas == [0, 102, 153, 255])
        // A function without its parentheses is an error at the key, with the column.
        try writeFile(preset.replacingOccurrences(of: "round($n / 2)", with: "round $n"), to: dir + "/bad.json")
        let bad = try runTool(["validate", "bad.json"], in: dir)
        #expect(bad.status == 65)
        #expect(
            bad.stderr == """
                bad.json:5:32: error: $.layers[0].bind.opacity: expected '(' after round at offset 7, found '$' in "(round $n + floor($n / 2) + ceil($n / 2)) / 5"
                bad.json: note: 1 error

                """)
        #expect(listing(dir) == ["b.json", "b.webp", "bad.json", "fr"])
    }

    // MARK: 14. fps-above-50 is a GIF lint

    @Test func fpsAbove50AppliesToGIFOutputOnly() throws {
        let dir = try temporaryDirectory()
        try writeFile(Self.preset(fps: 60), to: dir + "/p.json")
        let lint =
            "p.json:1:77: warning: $.fps: 60 fps is above what GIF can play: delays under 2 cs play as 10 cs in browsers, so GIF output is resampled to 50 fps"
        // validate without --format gif: said with what it applies to, counted apart, and
        // --strict passes.
        for arguments in [
            ["validate", "p.json"], ["validate", "p.json", "--strict"],
            ["validate", "p.json", "--strict", "--format", "apng,webp"],
        ] {
            let run = try runTool(arguments, in: dir)
            #expect(run.status == 0, "\(arguments): \(run.stderr)")
            #expect(
                run.stderr
                    == lint + " (applies to GIF output only; --strict fails on it with --format gif) [fps-above-50]\n",
                "\(arguments)")
            #expect(
                run.stdout
                    == "p.json: valid (1 s loop, 60 frames at 60 fps, 10×10 pt); 1 warning for GIF output only\n",
                "\(arguments)")
        }
        // Asked for GIF: an ordinary lint, and --strict fails on it.
        let gif = try runTool(["validate", "p.json", "--strict", "--format", "gif,apng"], in: dir)
        #expect(gif.status == 65)
        #expect(
            gif.stderr
                == lint.replacingOccurrences(of: ": warning: ", with: ": error: ")
                + " [fps-above-50]\np.json: note: 1 lint (an error under --strict)\n")
        let warned = try runTool(["validate", "p.json", "--format", "gif"], in: dir)
        #expect(warned.status == 0)
        #expect(warned.stderr == lint + " [fps-above-50]\n")
        #expect(warned.stdout == "p.json: valid (1 s loop, 60 frames at 60 fps, 10×10 pt); 1 warning\n")
        // Export: only a run that writes a GIF says it (the GIF is the default output), once,
        // in place of the resampling warning.
        for (arguments, said) in [
            (["p.json", "-o", "p.webp"], false), (["p.json", "-o", "s.png"], false),
            (["p.json", "-o", "out/", "--format", "gif,apng"], true), (["p.json", "-q"], true),
        ] {
            let run = try runTool(arguments, in: dir)
            #expect(run.status == 0, "\(arguments): \(run.stderr)")
            #expect(run.stderr.contains("[fps-above-50]") == said, "\(arguments): \(run.stderr)")
            #expect(!run.stderr.contains("the GIF is resampled"), "\(arguments): \(run.stderr)")
        }
        #expect(listing(dir) == ["out", "output", "p.json", "p.webp", "s.json", "s.png"])
        #expect(listing(dir + "/out") == ["dot.apng", "dot.gif"])
        #expect(listing(dir + "/output") == ["dot.gif"])
    }
}
