// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Testing

/// Issue 19's acceptance round: what a fresh designer hit writing four presets from the docs
/// alone (their pulse-dot and progress-bar presets are in Fixtures/designer/, without the
/// `$schema` line, which named a path on their machine). Each through the real binary in a
/// temporary folder: exact messages, exit codes and folder listings.
struct FreshDesignerTests {
    static let fixtures = packageRoot + "/Tests/CLITests/Fixtures/designer"

    /// A folder holding a copy of the designer's `name`, and a run helper with its own manifest
    /// key (its own `XDG_CACHE_HOME`, outside the folder so listings stay exact).
    static func folder(with names: [String] = ["pulse-dot.json"]) throws -> (
        dir: String, run: ([String]) throws -> ToolRun
    ) {
        let dir = try temporaryDirectory()
        let cache = try temporaryDirectory()
        for name in names {
            try FileManager.default.copyItem(atPath: fixtures + "/" + name, toPath: dir + "/" + name)
        }
        let run: ([String]) throws -> ToolRun = { arguments in
            try runTool(arguments, in: dir, environment: ["XDG_CACHE_HOME": cache])
        }
        return (dir, run)
    }

    /// The text of the manifest at `path`.
    static func text(_ path: String) -> String { String(decoding: readBytes(path), as: UTF8.self) }

    // MARK: 1. a run with fewer -o keeps the tool's own earlier outputs its own

    @Test func aRunWithFewerOutputsKeepsTheOthersOwned() throws {
        let (dir, run) = try Self.folder()
        let both = ["pulse-dot.json", "-o", "r/p.gif", "-o", "r/p.apng", "-q"]
        let first = try run(both)
        #expect(first.status == 0, "\(first.stderr)")
        let apng = readBytes(dir + "/r/p.apng")
        let gifOnly = try run(["pulse-dot.json", "-o", "r/p.gif", "-q"])
        #expect(gifOnly.status == 0, "\(gifOnly.stderr)")
        #expect(manifests(in: dir + "/r") == [".p.gif.animexport.json"])
        let manifest = Self.text(dir + "/r/.p.gif.animexport.json")
        #expect(manifest.contains("\n  \"kept\": [\n    { \"path\": \"r/p.apng\", \"bytes\": "), "\(manifest)")
        // The same gif-only run again is up to date: the kept entry is stable.
        let again = try run(["pulse-dot.json", "-o", "r/p.gif"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout == "pulse-dot.json: pulse-dot: up to date (1 file)\n")
        // Both again: the APNG is still the tool's own, no --force needed; nothing else changed.
        let back = try run(both)
        #expect(back.status == 0, "\(back.stderr)")
        #expect(back.stderr == "", "\(back.stderr)")
        #expect(readBytes(dir + "/r/p.apng") == apng)
        #expect(listing(dir + "/r") == ["p.apng", "p.gif"])
        #expect(!Self.text(dir + "/r/.p.gif.animexport.json").contains("\"kept\""))
    }

    @Test func aKeptEntryNeverPassesAChangedFile() throws {
        let (dir, run) = try Self.folder()
        let both = ["pulse-dot.json", "-o", "r/p.gif", "-o", "r/p.apng", "-q"]
        #expect(try run(both).status == 0)
        #expect(try run(["pulse-dot.json", "-o", "r/p.gif", "-q"]).status == 0)
        // `check` of both renders (the manifest is the GIF job's) and passes the right files.
        let check = try run(["check"] + both.dropLast())
        #expect(check.status == 0, "\(check.stderr)")
        #expect(
            check.stdout.hasPrefix("pulse-dot.json: pulse-dot: rendered to compare (options differ)\n"),
            "\(check.stdout)")
        // Change the kept APNG: `check` finds it, and the GIF job's run drops the entry, so the
        // edited file is no longer the tool's own.
        var apng = readBytes(dir + "/r/p.apng")
        apng[apng.count - 13] ^= 0xFF
        try Data(apng).write(to: URL(fileURLWithPath: dir + "/r/p.apng"))
        let differs = try run(["check"] + both.dropLast())
        #expect(differs.status == 2, "\(differs.stdout)\(differs.stderr)")
        #expect(differs.stdout.contains("differs: r/p.apng\n"), "\(differs.stdout)")
        let gifOnly = try run(["pulse-dot.json", "-o", "r/p.gif"])
        #expect(gifOnly.status == 0, "\(gifOnly.stderr)")
        #expect(!gifOnly.stdout.contains("up to date"), "\(gifOnly.stdout)")
        #expect(!Self.text(dir + "/r/.p.gif.animexport.json").contains("\"kept\""))
        let refused = try run(both)
        #expect(refused.status == 64)
        #expect(
            refused.stderr
                == "error: r/p.apng exists and was not written by animexport (no animexport manifest beside it lists these bytes); give --force to replace it, or write to another name or folder\n"
        )
        #expect(readBytes(dir + "/r/p.apng") == apng)
    }

    @Test func aFolderBatchWithFewerFormatsKeepsTheOthersOwned() throws {
        let (dir, run) = try Self.folder()
        try FileManager.default.createDirectory(atPath: dir + "/presets", withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: dir + "/pulse-dot.json", toPath: dir + "/presets/pulse-dot.json")
        let two = try run(["presets/", "--format", "gif,webp", "-o", "out/", "-q"])
        #expect(two.status == 0, "\(two.stderr)")
        let one = try run(["presets/", "--format", "gif", "-o", "out/", "-q"])
        #expect(one.status == 0, "\(one.stderr)")
        let again = try run(["presets/", "--format", "gif,webp", "-o", "out/", "-q"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr == "")
        #expect(listing(dir + "/out") == ["pulse-dot.gif", "pulse-dot.webp"])
    }

    // MARK: 2. --speed with a preset duration: no false loop-cut, formats named, validate --speed

    /// Five lines: `duration` and one repeating animation of `cycle` seconds.
    static func timed(duration: Double, cycle: Double) -> String {
        """
        {"version": 1, "name": "bar", "canvas": {"width": 10, "height": 10}, "duration": \(duration),
         "layers": [{"type": "rect", "center": [5, 5], "size": [4, 4], "fill": "#FF3B30",
           "animations": [{"keyPath": "opacity", "fromValue": 0, "toValue": 1, "duration": \(cycle), "repeatCount": "infinity"}]}]}
        """
    }

    @Test func speedDividesTheDurationAndTheCycleAlike() throws {
        let dir = try temporaryDirectory()
        try writeFile(Self.timed(duration: 2, cycle: 2), to: dir + "/bar.json")
        let fast = try runTool(["bar.json", "--speed", "2", "-o", "bar.apng"], in: dir)
        #expect(fast.status == 0, "\(fast.stderr)")
        #expect(fast.stderr == "", "\(fast.stderr)")
        #expect(fast.stdout.hasPrefix("bar.apng: 30 frames, 1 s loop, 10×10 px, "), "\(fast.stdout)")
        // The designer's progress bar: 2.5 s duration and a 2.5 s cycle.
        try FileManager.default.copyItem(atPath: Self.fixtures + "/progress-bar.json", toPath: dir + "/pb.json")
        let bar = try runTool(["pb.json", "--speed", "2", "-o", "pb.apng", "-q"], in: dir)
        #expect(bar.status == 0, "\(bar.stderr)")
        #expect(!bar.stderr.contains("loop-cut"), "\(bar.stderr)")
        let validate = try runTool(["validate", "pb.json", "--speed", "2"], in: dir)
        #expect(validate.status == 0, "\(validate.stderr)")
        #expect(
            validate.stdout == "pb.json: valid (1.25 s loop, 38 frames at 30 fps, 200×50 pt)\n", "\(validate.stdout)")
        #expect(listing(dir) == ["bar.apng", "bar.json", "pb.apng", "pb.json"])
    }

    @Test func aRealCutIsSaidInTheFilesSecondsForTheFormatsWritten() throws {
        let dir = try temporaryDirectory()
        // 3 s holds 1.5 of a 2 s cycle; at --speed 2, 1.5 s of a 1 s cycle.
        try writeFile(Self.timed(duration: 3, cycle: 2), to: dir + "/bar.json")
        let apng = try runTool(["bar.json", "--speed", "2", "-o", "bar.apng", "-q"], in: dir)
        #expect(apng.status == 0, "\(apng.stderr)")
        #expect(
            apng.stderr
                == "bar.json: warning: $.duration: the loop of 1.5 s holds no whole number of the 1 s cycle, so the APNG jumps at the seam; use a multiple of the cycle or leave the duration to the tool [loop-cut]\n",
            "\(apng.stderr)")
        let both = try runTool(["bar.json", "-o", "b.gif", "-o", "b.webp", "-q"], in: dir)
        #expect(both.status == 0)
        #expect(
            both.stderr.contains(
                "the loop of 3 s holds no whole number of the 2 s cycle, so the GIF and WebP jump at the seam;"),
            "\(both.stderr)")
        let validate = try runTool(["validate", "bar.json", "--speed", "2"], in: dir)
        #expect(validate.status == 0)
        #expect(
            validate.stderr.contains(
                "the loop of 1.5 s holds no whole number of the 1 s cycle, so the loop jumps at the seam;"),
            "\(validate.stderr)")
        #expect(
            validate.stdout == "bar.json: valid (1.5 s loop, 45 frames at 30 fps, 10×10 pt); 1 warning\n",
            "\(validate.stdout)")
        let strict = try runTool(["validate", "bar.json", "--speed", "2", "--strict"], in: dir)
        #expect(strict.status == 65)
        #expect(listing(dir) == ["b.gif", "b.webp", "bar.apng", "bar.json"])
    }

    // MARK: 3. --frames DIR removes the tool's own stale frames

    @Test func fewerFramesRemoveTheEarlierRunsStaleFrames() throws {
        let (dir, run) = try Self.folder()
        try FileManager.default.createDirectory(atPath: dir + "/f", withIntermediateDirectories: true)
        // Not the tool's: a file of the frames' pattern that no manifest lists.
        try writeFile("mine", to: dir + "/f/pulse-dot-099.png")
        let first = try run(["pulse-dot.json", "--frames", "f", "-o", "p.apng", "-q"])
        #expect(first.status == 0, "\(first.stderr)")
        let full = (0..<48).map { String(format: "pulse-dot-%03d.png", $0) }
        #expect(listing(dir + "/f") == full + ["pulse-dot-099.png"])
        // Edited since: the tool's name, but not its bytes, so it stays.
        try writeFile("edited", to: dir + "/f/pulse-dot-040.png")
        let fast = try run(["pulse-dot.json", "--speed", "2", "--frames", "f", "-o", "p.apng"])
        #expect(fast.status == 0, "\(fast.stderr)")
        #expect(
            fast.stderr == "pulse-dot.json: note: pulse-dot: removed 23 stale frames of an earlier run from f\n",
            "\(fast.stderr)")
        let half = (0..<24).map { String(format: "pulse-dot-%03d.png", $0) }
        #expect(listing(dir + "/f") == half + ["pulse-dot-040.png", "pulse-dot-099.png"])
        #expect(Self.text(dir + "/f/pulse-dot-099.png") == "mine")
        // Nothing stale the second time: no note, and the manifest keeps no removed frame.
        let again = try run(["pulse-dot.json", "--speed", "2", "--frames", "f", "-o", "p.apng", "--force"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stderr == "", "\(again.stderr)")
        #expect(!Self.text(dir + "/.p.apng.animexport.json").contains("pulse-dot-030.png"))
    }

    @Test func aStillNamedLikeAFrameIsAnotherJobsFile() throws {
        let (dir, run) = try Self.folder()
        // `--frame 40 -o f/` writes f/pulse-dot-040.png, the first output of a job of its own.
        let still = try run(["pulse-dot.json", "--frame", "40", "-o", "f/", "-q"])
        #expect(still.status == 0, "\(still.stderr)")
        #expect(listing(dir + "/f") == ["pulse-dot-040.png"])
        let frames = try run(["pulse-dot.json", "--speed", "2", "--frames", "f", "-o", "p.apng"])
        #expect(frames.status == 0, "\(frames.stderr)")
        #expect(frames.stderr == "", "\(frames.stderr)")
        let half = (0..<24).map { String(format: "pulse-dot-%03d.png", $0) }
        #expect(listing(dir + "/f") == half + ["pulse-dot-040.png"])
        let again = try run(["pulse-dot.json", "--frame", "40", "-o", "f/"])
        #expect(again.stdout == "pulse-dot.json: pulse-dot: up to date (1 file)\n", "\(again.stdout)")
    }

    // MARK: 4. a unit in a parameter default

    @Test func aUnitInANumberDefaultGetsTheHintAlone() throws {
        let dir = try temporaryDirectory()
        var text = String(decoding: readBytes(Self.fixtures + "/pulse-dot.json"), as: UTF8.self)
        text = text.replacingOccurrences(
            of: #""animationDuration": { "default": 0.8,"#, with: #""animationDuration": { "default": "800ms","#)
        try writeFile(text, to: dir + "/p.json")
        let run = try runTool(["validate", "p.json"], in: dir)
        #expect(run.status == 65)
        #expect(
            run.stderr
                == "p.json:11:39: error: $.params.animationDuration.default: expected a number of seconds without a unit, e.g. 0.8, found \"800ms\"\np.json: note: 1 error\n",
            "\(run.stderr)")
        let export = try runTool(["p.json", "-o", "p.gif"], in: dir)
        #expect(export.status == 65)
        #expect(export.stderr.contains("expected a number of seconds without a unit, e.g. 0.8, found \"800ms\""))
        #expect(!export.stderr.contains("min and max"), "\(export.stderr)")
        #expect(!export.stderr.contains("is a string"), "\(export.stderr)")
        #expect(listing(dir) == ["p.json"])
    }

    // MARK: 5. the Lottie summary says what was written

    @Test func theLottieSummarySaysKeyframesNotBakedFrames() throws {
        let (dir, run) = try Self.folder()
        let lottie = try run(["pulse-dot.json", "-o", "p.lottie.json"])
        #expect(lottie.status == 0, "\(lottie.stderr)")
        #expect(lottie.stdout.hasPrefix("p.lottie.json: 48 frames, 1.6 s loop, 48×48 px, "), "\(lottie.stdout)")
        #expect(
            lottie.stdout.hasSuffix(", Lottie 1.0, 8 keyframes on o, s; 0 properties baked per frame\n"),
            "\(lottie.stdout)")
        #expect(!lottie.stdout.contains("baked frames"))
        #expect(listing(dir) == ["p.lottie.json", "pulse-dot.json"])
    }

    // MARK: the fresh user's clean-clone afternoon (round 15)

    /// A bare name run outside the repository says where it looked.
    @Test func aBareNameSaysWhereItLooked() throws {
        let (dir, run) = try Self.folder(with: [])
        let missing = try run(["circular", "-o", "x.gif"])
        #expect(missing.status == 1)
        #expect(
            missing.stderr
                == "error: cannot read circular: no such file, nor presets/circular.json in this folder (a bare name is looked up in ./presets/)\n"
        )
        #expect(listing(dir).isEmpty)
    }

    /// `--size 32px` gets the unit hint the other number options give.
    @Test func aSizeWithAUnitGetsTheHint() throws {
        let (dir, run) = try Self.folder()
        let sized = try run(["pulse-dot.json", "--size", "32px", "-o", "x.gif"])
        #expect(sized.status == 64)
        #expect(
            sized.stderr.hasPrefix(
                "error: --size 32px: expected a pixel size 1…16384 (the larger canvas side); write it without the unit: --size 32\n"
            ), "\(sized.stderr)")
        #expect(listing(dir) == ["pulse-dot.json"])
    }

    /// `make demo` writes with `--format gif,sheet`, the default of a folder batch spelled out;
    /// a `check` without it is the same job and answers from the manifests, rendering nothing.
    @Test func anExplicitDefaultFormatIsTheSameJobForCheck() throws {
        let (dir, run) = try Self.folder()
        try FileManager.default.createDirectory(atPath: dir + "/presets", withIntermediateDirectories: false)
        try FileManager.default.moveItem(atPath: dir + "/pulse-dot.json", toPath: dir + "/presets/pulse-dot.json")
        let demo = try run(["presets/", "-o", "out/", "--format", "gif,sheet", "-q"])
        #expect(demo.status == 0, "\(demo.stderr)")
        let check = try run(["check", "presets/", "-o", "out/"])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout == "check: all 3 files are up to date (3 answered from manifests)\n", "\(check.stdout)")
        let again = try run(["presets/", "-o", "out/"])
        #expect(again.stdout == "presets/pulse-dot.json: pulse-dot: up to date (3 files)\n", "\(again.stdout)")
    }
}
