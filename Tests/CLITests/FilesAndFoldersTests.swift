import Foundation
import Testing

/// Issue 19, "Folders, batches and files" and the command-line papercuts, end to end through the
/// real binary in temporary folders: the exact message, the exit code, and which files exist
/// (or kept their bytes) afterwards.
struct FilesAndFoldersTests {
    /// A folder with `p.json` (the square preset: 10 frames of 20×20 px).
    static func workspace() throws -> String {
        let dir = try temporaryDirectory()
        try writeFile(squarePreset(), to: dir + "/p.json")
        return dir
    }

    // MARK: Output folders

    @Test func outputFolderIsCreatedWithItsParentsAndSaid() throws {
        let dir = try Self.workspace()
        let run = try runTool(["p.json", "-o", "icons/small/", "--format", "gif"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr == "note: created folder icons/small/\n")
        #expect(run.stdout.hasPrefix("icons/small/square.gif: 10 frames, 1 s loop, 20×20 px, "))
        #expect(listing(dir + "/icons/small") == ["square.gif"])
        // The folder exists now: no note the second time, and -q says nothing at all.
        let again = try runTool(["p.json", "-o", "icons/small/", "--format", "gif"], in: dir)
        #expect(again.status == 0 && again.stderr.isEmpty, "\(again.stderr)")
        let quiet = try runTool(["p.json", "-o", "q/", "--format", "gif", "-q"], in: dir)
        #expect(quiet.status == 0 && quiet.stderr.isEmpty && quiet.stdout.isEmpty)
        #expect(listing(dir + "/q") == ["square.gif"])
    }

    @Test func aFailedRunTakesBackTheFoldersItMade() throws {
        let dir = try Self.workspace()
        // Refused while checking the folders: nothing is said about folders, none is left.
        let proc = try runTool(["p.json", "-o", "new/deep/", "--report", "/proc/r.json"], in: dir)
        #expect(proc.status == 1)
        #expect(
            proc.stderr.hasPrefix(
                "error: cannot write /proc/r.json: directory /proc is not writable: /proc accepts no new files"))
        #expect(!proc.stderr.contains("folder"), "\(proc.stderr)")
        #expect(listing(dir) == ["p.json"])
        // A write that fails (a file size limit of 8 blocks; the circular GIF is 46.7 KB) after
        // the folders were made: both levels are removed again, and said so.
        let circular = packageRoot + "/presets/circular.json"
        let limited = try runProcess(
            "/bin/sh", ["-c", "ulimit -f 8; exec \"$0\" \"$1\" -o new/deep/ --format gif", toolPath, circular], in: dir)
        #expect(limited.status == 1)
        #expect(
            limited.stderr == """
                note: created folder new/deep/
                error: cannot write new/deep/circular.gif: File too large
                note: removed the empty folder new/deep/ again
                note: removed the empty folder new/ again

                """)
        #expect(listing(dir) == ["p.json"])
    }

    @Test func outputWithoutSlashOrExtensionSuggestsTheFolder() throws {
        let dir = try Self.workspace()
        let run = try runTool(["p.json", "-o", "out"], in: dir)
        #expect(run.status == 64)
        #expect(
            run.stderr
                == "error: -o out has no extension and is no folder; write -o out/ for a folder (it is created), or a file name such as out.gif\n"
        )
        #expect(listing(dir) == ["p.json"])
    }

    @Test func outputNamedLikeAGIFThatIsAFolderIsRefused() throws {
        let dir = try Self.workspace()
        try FileManager.default.createDirectory(atPath: dir + "/x.gif", withIntermediateDirectories: false)
        let run = try runTool(["p.json", "-o", "x.gif"], in: dir)
        #expect(run.status == 64)
        #expect(
            run.stderr
                == "error: -o x.gif is a folder, but its name reads as a .gif file; write -o x.gif/ to write into the folder, or name another file\n"
        )
        #expect(listing(dir + "/x.gif").isEmpty)
        #expect(listing(dir) == ["p.json", "x.gif"])
    }

    // MARK: Folder batches

    @Test func folderBatchSkipsJSONThatIsNotAPreset() throws {
        let dir = try temporaryDirectory()
        let presets = dir + "/presets"
        try FileManager.default.createDirectory(atPath: presets, withIntermediateDirectories: false)
        try writeFile(squarePreset(), to: presets + "/p.json")
        let package = "{ \"name\": \"site\", \"version\": \"1.0.0\" }\n"
        try writeFile(package, to: presets + "/package.json")
        try writeFile("[1, 2]\n", to: presets + "/list.json")
        // A sheet and a report of our own, written into the folder by an earlier run.
        let first = try runTool(
            ["presets/p.json", "-o", "presets/sheet.png", "--report", "presets/report.json", "-q"], in: dir)
        #expect(first.status == 0, "\(first.stderr)")

        let run = try runTool(["presets/", "-o", "out/", "--format", "gif"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stderr == """
                presets/list.json: note: not a preset (an array, not an object); skipped
                presets/package.json: note: not a preset (no "layers" and no numeric "version"); skipped
                presets/report.json: note: not a preset (a --report written by animexport); skipped
                presets/sheet.json: note: not a preset (sprite-sheet data written by animexport); skipped
                note: created folder out/

                """)
        #expect(listing(dir + "/out") == ["square.gif"])
        #expect(String(decoding: readBytes(presets + "/package.json"), as: UTF8.self) == package)

        // A broken preset is still a preset: its errors are reported, nothing is written.
        try writeFile("{ \"version\": 1, \"layers\": [ { \"type\": \"blob\" } ] }", to: presets + "/q.json")
        let broken = try runTool(["presets/", "-o", "out2/", "-q"], in: dir)
        #expect(broken.status == 65)
        #expect(broken.stderr.contains("presets/q.json:1:"), "\(broken.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/out2"))
    }

    @Test func excludeLeavesOutMatchingFileNames() throws {
        let dir = try temporaryDirectory()
        let presets = dir + "/in"
        try FileManager.default.createDirectory(atPath: presets, withIntermediateDirectories: false)
        try writeFile(squarePreset(name: "a"), to: presets + "/a.json")
        try writeFile(squarePreset(name: "b"), to: presets + "/b.draft.json")
        try writeFile(squarePreset(name: "c"), to: presets + "/c.json")
        let run = try runTool(
            ["in", "-o", "out/", "--format", "gif", "-q", "--exclude", "*.draft.json", "--exclude", "c.*"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(listing(dir + "/out") == ["a.gif"])
        // Everything excluded: a usage error, nothing made.
        let none = try runTool(["in", "-o", "none/", "--exclude", "*"], in: dir)
        #expect(none.status == 64)
        #expect(none.stderr == "error: in holds no .json presets\n")
        #expect(!FileManager.default.fileExists(atPath: dir + "/none"))
        // validate takes it too; list as well.
        let validate = try runTool(["validate", "in", "--exclude", "[ab]*"], in: dir)
        #expect(validate.status == 0)
        #expect(validate.stdout == "in/c.json: valid (1 s loop, 10 frames at 10 fps, 20×20 pt)\n")
    }

    // MARK: Files the tool did not write

    @Test func sheetDataNeverReplacesAnUnrelatedJSONWithoutForce() throws {
        let dir = try Self.workspace()
        let package = "{\n  \"name\": \"site\",\n  \"version\": \"1.0.0\"\n}\n"
        try writeFile(package, to: dir + "/package.json")
        let run = try runTool(["p.json", "-o", "package.png"], in: dir)
        #expect(run.status == 64)
        #expect(
            run.stderr
                == "error: package.json exists and was not written by animexport (no \"meta\": {\"app\": \"animexport\"} or \"tool\": \"animexport\" in it); give --force to replace it, or write to another name or folder\n"
        )
        #expect(listing(dir) == ["p.json", "package.json"])
        #expect(String(decoding: readBytes(dir + "/package.json"), as: UTF8.self) == package)

        let forced = try runTool(["p.json", "-o", "package.png", "--force", "-q"], in: dir)
        #expect(forced.status == 0, "\(forced.stderr)")
        let sheet = try JSONSerialization.jsonObject(with: Data(readBytes(dir + "/package.json"))) as? [String: Any]
        #expect((sheet?["meta"] as? [String: Any])?["app"] as? String == "animexport")
        // Now the file is ours: a second run replaces it without --force.
        let again = try runTool(["p.json", "-o", "package.png", "-q"], in: dir)
        #expect(again.status == 0, "\(again.stderr)")
    }

    @Test func imageReportAndPreviewTargetsAreGuarded() throws {
        let dir = try Self.workspace()
        let foreign: [(name: String, text: String, why: String)] = [
            ("loader.gif", "not an image\n", "not a GIF"),
            (
                "r.json", "{ \"tool\": \"other\" }\n",
                "no \"meta\": {\"app\": \"animexport\"} or \"tool\": \"animexport\" in it"
            ),
            ("r.html", "<!doctype html><title>notes</title>\n", "not an animexport preview page"),
        ]
        for file in foreign { try writeFile(file.text, to: dir + "/" + file.name) }
        let before = try sha256Sums(dir)
        let run = try runTool(["p.json", "-o", "loader.gif", "--report", "r.json", "--preview", "r.html"], in: dir)
        #expect(run.status == 64)
        // Every such file is named, in the order the run would write them.
        #expect(
            run.stderr
                == foreign.map {
                    "error: \($0.name) exists and was not written by animexport (\($0.why)); give --force to replace it, or write to another name or folder\n"
                }.joined())
        #expect(try sha256Sums(dir) == before)
        #expect(listing(dir) == ["loader.gif", "p.json", "r.html", "r.json"])

        // With --force they are replaced; the run after that needs no --force: they are ours.
        let forced = try runTool(
            ["p.json", "-o", "loader.gif", "--report", "r.json", "--preview", "r.html", "--force", "-q"], in: dir)
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(readBytes(dir + "/loader.gif").starts(with: Array("GIF89a".utf8)))
        let again = try runTool(["p.json", "-o", "loader.gif", "--report", "r.json", "--preview", "r.html"], in: dir)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.components(separatedBy: "\n").filter { !$0.isEmpty }.count == 3)
    }

    /// Writes real images of each format with Pillow (another program's files): `x.gif`,
    /// `x.apng`, `x.webp`, `x.png` in `out` and `square-000.png` in `frames`.
    static func foreignImages(out: String, frames: String) throws {
        let script = #"""
            import sys
            from PIL import Image
            out, frames = sys.argv[1], sys.argv[2]
            a, b = Image.new("RGBA", (20, 20), (255, 0, 0, 255)), Image.new("RGBA", (20, 20), (0, 0, 255, 255))
            a.save(out + "/square.gif", save_all=True, append_images=[b], duration=100, loop=0)
            a.save(out + "/square.apng", format="PNG", save_all=True, append_images=[b], duration=100)
            a.save(out + "/square.webp", save_all=True, append_images=[b], duration=100, lossless=True)
            a.save(out + "/square.png")
            a.save(frames + "/square-000.png")
            """#
        let run = try runPython(script, arguments: [out, frames])
        #expect(run.status == 0, "\(run.stderr)")
    }

    @Test func foreignImagesOfTheSameFormatAreRefusedOwnOnesReplacedWhateverTheKey() throws {
        let dir = try Self.workspace()
        let caches = try temporaryDirectory()
        let keyA = ["XDG_CACHE_HOME": caches + "/a"]
        let keyB = ["XDG_CACHE_HOME": caches + "/b"]
        for sub in ["out", "frames"] {
            try FileManager.default.createDirectory(atPath: dir + "/" + sub, withIntermediateDirectories: true)
        }
        try Self.foreignImages(out: dir + "/out", frames: dir + "/frames")
        let before = try [sha256Sums(dir + "/out"), sha256Sums(dir + "/frames")]
        let command = ["p.json", "-o", "out/", "--format", "gif,apng,webp,sheet", "--frames", "frames", "-q"]
        let refused = try runTool(command, in: dir, environment: keyA)
        #expect(refused.status == 64)
        let why = "no animexport manifest beside it lists these bytes"
        #expect(
            refused.stderr
                == ["out/square.gif", "out/square.apng", "out/square.webp", "out/square.png", "frames/square-000.png"]
                .map {
                    "error: \($0) exists and was not written by animexport (\(why)); give --force to replace it, or write to another name or folder\n"
                }.joined())
        // Nothing replaced, nothing added (no sheet JSON, no manifest, no other frame).
        #expect(try [sha256Sums(dir + "/out"), sha256Sums(dir + "/frames")] == before)
        #expect(manifests(in: dir + "/out").isEmpty)
        #expect(listing(dir + "/frames") == ["square-000.png"])

        // --force replaces them; from then on they are ours, also for another user's key (the
        // manifests are not trusted for skipping, but they still say whose files these are).
        let forced = try runTool(command + ["--force"], in: dir, environment: keyA)
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(try sha256Sums(dir + "/out")["square.gif"] != before[0]["square.gif"])
        #expect(try sha256Sums(dir + "/frames")["square-000.png"] != before[1]["square-000.png"])
        let otherKey = try runTool(command, in: dir, environment: keyB)
        #expect(otherKey.status == 0, "\(otherKey.stderr)")
        let sameKey = try runTool(command, in: dir, environment: keyA)
        #expect(sameKey.status == 0, "\(sameKey.stderr)")

        // A checkout elsewhere (CI) with the outputs and their manifests: still ours. With the
        // outputs alone (manifests gitignored): foreign until --force once.
        for (name, withManifests) in [("ci", true), ("bare", false)] {
            let copy = try temporaryDirectory() + "/" + name
            try FileManager.default.createDirectory(atPath: copy, withIntermediateDirectories: true)
            for item in ["p.json", "out", "frames"] {
                try FileManager.default.copyItem(atPath: dir + "/" + item, toPath: copy + "/" + item)
            }
            if !withManifests {
                for folder in ["/out", "/frames"] {
                    for m in manifests(in: copy + folder) {
                        try FileManager.default.removeItem(atPath: copy + folder + "/" + m)
                    }
                }
            }
            let copied = try sha256Sums(copy + "/out")
            let run = try runTool(command, in: copy, environment: keyB)
            if withManifests {
                #expect(run.status == 0, "\(run.stderr)")
            } else {
                #expect(run.status == 64)
                #expect(run.stderr.hasPrefix("error: out/square.gif exists and was not written by animexport (\(why))"))
                #expect(try sha256Sums(copy + "/out") == copied)
            }
        }
    }

    // MARK: Watch

    @Test func watchedFolderRendersPresetsAddedLaterOneLinePerRender() throws {
        let dir = try temporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir + "/in", withIntermediateDirectories: false)
        try writeFile(squarePreset(name: "a"), to: dir + "/in/a.json")
        let watch = try LiveProcess(
            ["in/", "-o", "out/", "--format", "gif", "--watch", "--report", "r.json", "--preview", "r.html"], in: dir)
        func lines(_ out: String) -> [String] { out.split(separator: "\n").map(String.init) }
        #expect(watch.wait { out, _ in lines(out).count == 1 }, "no first render: \(watch.stderr)")
        try writeFile(squarePreset(name: "b"), to: dir + "/in/b.json")
        #expect(watch.wait { out, _ in lines(out).count == 2 }, "new preset not seen: \(watch.stdout) \(watch.stderr)")
        #expect(watch.terminate() == 0)
        let out = lines(watch.stdout)
        // `HH:MM:SS in/b.json: 3 files in 0.12 s`: the GIF, the report and the preview.
        #expect(out.count == 2, "\(out)")
        #expect(out.first?.dropFirst(9).hasPrefix("in/a.json: 3 files in ") == true, "\(out)")
        #expect(out.last?.dropFirst(9).hasPrefix("in/b.json: 3 files in ") == true, "\(out)")
        #expect(listing(dir + "/out") == ["a.gif", "b.gif"])
        #expect(watch.stderr.contains("watching 1 preset and new presets in in/; Ctrl-C to stop"))
    }

    // MARK: Did you mean

    @Test func misspeltCommandsAndHelpGetASuggestion() throws {
        let dir = try Self.workspace()
        let typo = try runTool(["valdiate", "p.json"], in: dir)
        #expect(typo.status == 64)
        #expect(
            typo.stderr
                == "error: no preset or command called valdiate; did you mean 'animexport validate'? (a file called valdiate is given as ./valdiate)\n"
        )
        let help = try runTool(["help"], in: dir)
        #expect(help.status == 64)
        #expect(help.stderr == "error: no preset or command called help; did you mean 'animexport --help'?\n")
        #expect(listing(dir) == ["p.json"])
    }

    @Test func bareNameResolvesToThePresetsFolder() throws {
        let dir = try temporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir + "/presets", withIntermediateDirectories: false)
        try writeFile(squarePreset(), to: dir + "/presets/square.json")
        let run = try runTool(["square", "-o", "s.gif"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr == "note: square is no file; using presets/square.json\n")
        #expect(FileManager.default.fileExists(atPath: dir + "/s.gif"))
        let validate = try runTool(["validate", "square"], in: dir)
        #expect(validate.stdout == "presets/square.json: valid (1 s loop, 10 frames at 10 fps, 20×20 pt)\n")
        // A name with no such preset stays a file that cannot be read.
        let missing = try runTool(["round", "-o", "r.gif"], in: dir)
        #expect(missing.status == 1)
        #expect(
            missing.stderr
                == "error: cannot read round: no such file, nor presets/round.json in this folder (a bare name is looked up in ./presets/)\n"
        )
        // A name close to a preset there: still refused as typed, with what was meant.
        let typo = try runTool(["sqare.json", "-o", "t.gif"], in: dir)
        #expect(typo.status == 1)
        #expect(
            typo.stderr
                == "note: sqare.json is no file; did you mean presets/square.json?\nerror: cannot read sqare.json: no such file\n"
        )
        #expect(!FileManager.default.fileExists(atPath: dir + "/t.gif"))
        // The same typo with its folder written out is looked up in that folder.
        let inFolder = try runTool(["presets/sqare.json", "-o", "t.gif"], in: dir)
        #expect(inFolder.status == 1)
        #expect(
            inFolder.stderr
                == "note: presets/sqare.json is no file; did you mean presets/square.json?\nerror: cannot read presets/sqare.json: no such file\n"
        )
        #expect(!FileManager.default.fileExists(atPath: dir + "/t.gif"))
    }

    @Test func parameterWrittenAsAnOptionPointsToSet() throws {
        let dir = try Self.workspace()
        let run = try runTool(["p.json", "--color", "red"], in: dir)
        #expect(run.status == 64)
        #expect(
            run.stderr == """
                error: unknown option --color; preset parameters are set with --set: --set color=red
                note: run 'animexport --help' for usage

                """)
        let inline = try runTool(["p.json", "--strokeWidth=3"], in: dir)
        #expect(
            inline.stderr.hasPrefix(
                "error: unknown option --strokeWidth; preset parameters are set with --set: --set strokeWidth=3\n"))
        // Close to a real option: that one is suggested instead.
        let near = try runTool(["p.json", "--scael", "2"], in: dir)
        #expect(near.stderr.hasPrefix("error: unknown option --scael; did you mean --scale?\n"))
        #expect(listing(dir) == ["p.json"])
    }

    @Test func matteForFormatsWithRealAlphaWarns() throws {
        let dir = try Self.workspace()
        let run = try runTool(["p.json", "--matte", "#FFFFFF", "-o", "p.webp", "-o", "p.apng"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stderr
                == "warning: --matte applies to GIF only (1-bit alpha); APNG, WebP, sprite sheets and PNG frames keep real alpha, so it changes nothing here\n"
        )
        // With a GIF among the outputs the matte is used: no warning.
        let gif = try runTool(["p.json", "--matte", "#FFFFFF", "-o", "p.gif", "-o", "p2.webp"], in: dir)
        #expect(gif.status == 0 && gif.stderr.isEmpty, "\(gif.stderr)")
    }

    /// `--lossy` (GIF) and `--quality` (WebP) for a run without that format say they do nothing
    /// (a fresh user's `-o x.apng --quality 50` was silently the default file).
    @Test func formatOptionsWithoutTheirFormatWarn() throws {
        let dir = try Self.workspace()
        let apng = try runTool(["p.json", "--quality", "50", "--lossy", "20", "-o", "p.apng"], in: dir)
        #expect(apng.status == 0, "\(apng.stderr)")
        #expect(
            apng.stderr
                == "warning: --lossy applies to GIF only and no GIF is written, so it changes nothing here\n"
                + "warning: --quality applies to WebP only and no WebP is written, so it changes nothing here\n"
        )
        // Each is quiet when its format is among the outputs.
        let both = try runTool(["p.json", "--quality", "50", "--lossy", "20", "-o", "q.gif", "-o", "q.webp"], in: dir)
        #expect(both.status == 0 && both.stderr.isEmpty, "\(both.stderr)")
    }

    @Test func oneFrameIsSingular() throws {
        let dir = try temporaryDirectory()
        try writeFile(
            """
            { "version": 1, "name": "still", "canvas": { "width": 8, "height": 8, "background": "#FFFFFF" },
              "duration": 1,
              "layers": [ { "type": "rect", "center": [4, 4], "size": [4, 4], "fill": "#FF0000" } ] }
            """, to: dir + "/s.json")
        let run = try runTool(["s.json", "-o", "s.gif", "--fps", "1"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("s.gif: 1 frame, 1 s loop, 8×8 px, "), "\(run.stdout)")
        #expect(run.stdout.hasSuffix(", 2 colours\n"), "\(run.stdout)")
        let validate = try runTool(["validate", "s.json", "--fps", "1"], in: dir)
        #expect(validate.stdout == "s.json: valid (1 s loop, 1 frame at 1 fps, 8×8 pt)\n", "\(validate.stdout)")
    }
}
