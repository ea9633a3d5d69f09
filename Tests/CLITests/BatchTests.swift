import Encode
import Foundation
import Raster
import Render
import Testing
import ToolOptions

/// Batch runs for CI: folders in, `-o DIR` out, `--format`, `--scale` lists, `--set` fan-out,
/// `--jobs`, byte-stable output, and `check` as a gate for committed assets.
@Suite(.serialized) struct BatchTests {
    /// A folder with two presets (`square`, `dot`) and an empty `out/`.
    static func workspace() throws -> String {
        let dir = try temporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir + "/presets", withIntermediateDirectories: false)
        try FileManager.default.createDirectory(atPath: dir + "/out", withIntermediateDirectories: false)
        try writeFile(squarePreset(), to: dir + "/presets/square.json")
        try writeFile(
            squarePreset(name: "dot").replacingOccurrences(of: "\"type\": \"rect\"", with: "\"type\": \"ellipse\""),
            to: dir + "/presets/dot.json")
        return dir
    }

    @Test func folderInFormatsAndScalesOut() throws {
        let dir = try Self.workspace()
        let run = try runTool(
            ["presets", "-o", "out/", "--format", "gif,sheet,frames", "--scale", "1,2", "--quiet"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.isEmpty && run.stderr.isEmpty)
        var expected: [String] = []
        for name in ["dot", "square"] {
            for scale in ["", "@2x"] {
                let stem = name + scale
                expected += ["\(stem).gif", "\(stem).json", "\(stem).png"]
                // Frames keep the scale suffix last, as UIKit and asset catalogs look it up.
                expected += (0..<10).map { "\(name)-00\($0)\(scale).png" }
            }
        }
        #expect(listing(dir + "/out") == expected.sorted())
        // @2x is rendered at twice the pixels, from vectors.
        let one = try GIFDecoder.decode(readBytes(dir + "/out/square.gif"))
        let two = try GIFDecoder.decode(readBytes(dir + "/out/square@2x.gif"))
        #expect(one.width == 20 && one.height == 20 && two.width == 40 && two.height == 40)
        #expect(two.frames.count == 10 && two.frames.map(\.delay) == Array(repeating: 10, count: 10))
        let json =
            try JSONSerialization.jsonObject(with: Data(readBytes(dir + "/out/square@2x.json"))) as? [String: Any]
        let meta = json?["meta"] as? [String: Any]
        #expect(meta?["image"] as? String == "square@2x.png")
        #expect(meta?["scale"] as? String == "2")  // Aseprite writes the scale as a string
        // Frame PNGs equal the sheet's cells' source frames: frame 0 is the unturned square.
        let frame0 = try PNGCodec.decode(readBytes(dir + "/out/square-000.png"))
        #expect(frame0.width == 20 && frame0[10, 10] == (255, 0, 0, 255) && frame0[1, 1] == (255, 255, 255, 255))
    }

    @Test func setListFansOutWithPredictableNames() throws {
        let dir = try Self.workspace()
        let run = try runTool(
            [
                "presets/square.json", "--set", "size=10,30", "--set", "color=#00FF00,blue", "-o", "out/", "--format",
                "gif",
            ],
            in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            listing(dir + "/out") == [
                "square-size-10-color-00FF00.gif", "square-size-10-color-blue.gif", "square-size-30-color-00FF00.gif",
                "square-size-30-color-blue.gif",
            ])
        let small = try GIFDecoder.decode(readBytes(dir + "/out/square-size-10-color-00FF00.gif"))
        #expect(small.width == 10)
        #expect(small.frames[0].canvas[5, 5] == (0, 255, 0, 255))
        let big = try GIFDecoder.decode(readBytes(dir + "/out/square-size-30-color-blue.gif"))
        #expect(big.width == 30)
        #expect(big.frames[0].canvas[15, 15] == (0, 122, 255, 255))
        // Summary lines come in job order.
        let names = run.stdout.split(separator: "\n").map { String($0.prefix { $0 != ":" }) }
        #expect(
            names == [
                "out/square-size-10-color-00FF00.gif", "out/square-size-10-color-blue.gif",
                "out/square-size-30-color-00FF00.gif", "out/square-size-30-color-blue.gif",
            ])
    }

    /// The issue's `--set color=rgb(255,59,48)`, once split into three values, is one colour;
    /// CSS names and functions reach the pixels.
    @Test func setTakesCSSColourFunctionsWhole() throws {
        let dir = try Self.workspace()
        let run = try runTool(
            ["presets/square.json", "--set", "color=rgb(0,255,0),Tomato", "-o", "out/", "--format", "gif"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        let files = listing(dir + "/out")
        #expect(files == ["square-color-Tomato.gif", "square-color-rgb_0_255_0_.gif"])
        let green = try GIFDecoder.decode(readBytes(dir + "/out/square-color-rgb_0_255_0_.gif"))
        #expect(green.frames[0].canvas[5, 5] == (0, 255, 0, 255))
        let tomato = try GIFDecoder.decode(readBytes(dir + "/out/square-color-Tomato.gif"))
        #expect(tomato.frames[0].canvas[5, 5] == (255, 99, 71, 255))
        // A colour space sRGB cannot hold without gamut mapping is refused with the forms listed.
        let bad = try runTool(["presets/square.json", "--set", "color=oklch(62% 0.25 29)", "-o", "x.gif"], in: dir)
        #expect(bad.status == 64)
        #expect(
            bad.stderr.contains("--set color=oklch(62% 0.25 29): expected a colour (#RRGGBB, #RRGGBBAA"),
            "\(bad.stderr)")
        #expect(bad.stderr.contains("hsl(4 100% 59%)"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/x.gif"))
    }

    @Test func fileOutputGetsVariantAndScaleSuffixes() throws {
        let dir = try Self.workspace()
        let run = try runTool(
            ["presets/square.json", "--set", "size=10,12", "--scale", "1,3", "-o", "loader.gif", "-q"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            listing(dir).filter { $0.hasSuffix(".gif") } == [
                "loader-size-10.gif", "loader-size-10@3x.gif", "loader-size-12.gif", "loader-size-12@3x.gif",
            ])
        // One scale: the name is used as given.
        let single = try runTool(["presets/square.json", "--scale", "2", "-o", "one@2x.gif", "-q"], in: dir)
        #expect(single.status == 0)
        #expect(try GIFDecoder.decode(readBytes(dir + "/one@2x.gif")).width == 40)
    }

    @Test func bytesAreIdenticalWhateverJobsClockAndLocale() throws {
        let dir = try Self.workspace()
        try FileManager.default.createDirectory(atPath: dir + "/out2", withIntermediateDirectories: false)
        let common = [
            "presets", packageRoot + "/presets/circular.json", "--format", "gif,sheet,frames", "--scale", "1,2", "-q",
        ]
        let a = try runTool(
            common + ["-o", "out/", "--jobs", "1"], in: dir, environment: ["TZ": "UTC", "LC_ALL": "C"])
        let b = try runTool(
            common + ["-o", "out2/", "--jobs", "4"], in: dir,
            environment: ["TZ": "Pacific/Kiritimati", "LC_ALL": "de_DE.UTF-8", "LANG": "fr_FR.UTF-8"])
        #expect(a.status == 0 && b.status == 0, "\(a.stderr) \(b.stderr)")
        let sumsA = try sha256Sums(dir + "/out")
        let sumsB = try sha256Sums(dir + "/out2")
        #expect(sumsA.count == 2 * 2 * 13 + 2 * 123)
        #expect(sumsA == sumsB)
        #expect(sumsA.values.allSatisfy { $0.count == 64 })
    }

    /// The real-alpha formats too (issue 22: libwebp may use threads, and `.max` runs three
    /// encoders side by side): every WebP and APNG, at both efforts, written by one job with
    /// TZ=UTC and the C locale and by four jobs in another time zone and locale, has the same
    /// SHA-256, and each effort's files are real animations of the preset's ten frames.
    @Test func webpAndAPNGBytesAreIdenticalWhateverJobsClockAndLocale() throws {
        let dir = try Self.workspace()
        try FileManager.default.copyItem(
            atPath: packageRoot + "/presets/circular.json", toPath: dir + "/presets/circular.json")
        var sums: [[String: String]] = []
        for (tag, jobs, environment) in [
            ("a", "1", ["TZ": "UTC", "LC_ALL": "C"]),
            ("b", "4", ["TZ": "Pacific/Kiritimati", "LC_ALL": "de_DE.UTF-8", "LANG": "fr_FR.UTF-8"]),
        ] {
            for effort in ["default", "max"] {
                let out = "\(tag)-\(effort)/"
                // circular (120 frames) at the default effort only: `.max` takes seconds a file.
                let inputs = effort == "max" ? ["presets/dot.json", "presets/square.json"] : ["presets"]
                let run = try runTool(
                    inputs + [
                        "--format", "webp,apng", "--effort", effort == "max" ? "max" : "standard", "--jobs", jobs, "-o",
                        out, "-q",
                    ], in: dir,
                    environment: environment)
                #expect(run.status == 0, "\(run.stderr)")
            }
            var merged: [String: String] = [:]
            for effort in ["default", "max"] {
                for (name, sum) in try sha256Sums(dir + "/\(tag)-\(effort)") { merged[effort + "/" + name] = sum }
            }
            sums.append(merged)
        }
        #expect(sums[0].count == 3 * 2 + 2 * 2, "\(sums[0].keys.sorted())")
        #expect(sums[0] == sums[1])
        // Not empty files that agree by accident: webpinfo reads an animation in each effort's WebP.
        for effort in ["default", "max"] {
            let info = try runProcess("/usr/bin/webpinfo", ["-summary", dir + "/a-\(effort)/dot.webp"])
            #expect(info.stdout.contains("No error detected."), "\(info.stdout)")
            #expect(info.stdout.contains("Number of frames:"), "\(info.stdout)")
        }
    }

    @Test func checkPassesOnFreshOutputAndNamesStaleFilesWithoutTouchingThem() throws {
        let dir = try Self.workspace()
        let arguments = ["presets", "-o", "out/", "--scale", "1,2"]
        #expect(try runTool(arguments + ["-q"], in: dir).status == 0)
        let fresh = try runTool(["check"] + arguments, in: dir)
        #expect(fresh.status == 0, "\(fresh.stderr)")
        // Answered from the manifests the export wrote (ManifestTests has the rest).
        #expect(fresh.stdout == "check: all 12 files are up to date (12 answered from manifests)\n")

        // Break two files and remove one; check must name them and change nothing.
        try FileManager.default.removeItem(atPath: dir + "/out/dot@2x.gif")
        try writeFile("stale", to: dir + "/out/square.json")
        var png = readBytes(dir + "/out/square@2x.png")
        png[png.count / 2] ^= 0xFF
        try Data(png).write(to: URL(fileURLWithPath: dir + "/out/square@2x.png"))
        let before = try sha256Sums(dir + "/out")
        let stale = try runTool(["check"] + arguments, in: dir)
        #expect(stale.status == 2)
        #expect(
            stale.stdout.split(separator: "\n").sorted() == [
                "differs: out/square.json", "differs: out/square@2x.png", "missing: out/dot@2x.gif",
                "presets/dot.json: dot@2x: rendered to compare (manifest stale)",
                "presets/square.json: square: rendered to compare (manifest stale)",
                "presets/square.json: square@2x: rendered to compare (manifest stale)",
            ])
        #expect(stale.stderr.hasPrefix("error: 3 of 12 files are missing or differ"))
        #expect(try sha256Sums(dir + "/out") == before)
        #expect(listing(dir + "/out").count == 11)
    }

    /// `check` covers the real-alpha formats: fresh APNG and WebP files pass (from the manifests
    /// and, with `--force`, by rendering and encoding again), and one changed byte in each is
    /// named, the files left as they were.
    @Test func checkCoversAPNGAndWebP() throws {
        let dir = try Self.workspace()
        let arguments = ["presets", "-o", "out/", "--format", "apng,webp"]
        #expect(try runTool(arguments + ["-q"], in: dir).status == 0)
        #expect(listing(dir + "/out").sorted() == ["dot.apng", "dot.webp", "square.apng", "square.webp"])
        let fresh = try runTool(["check"] + arguments, in: dir)
        #expect(fresh.status == 0, "\(fresh.stderr)")
        #expect(fresh.stdout == "check: all 4 files are up to date (4 answered from manifests)\n")
        let forced = try runTool(["check", "--force"] + arguments, in: dir)
        #expect(forced.status == 0, "\(forced.stdout) \(forced.stderr)")
        #expect(forced.stdout.hasSuffix("check: all 4 files are up to date\n"), "\(forced.stdout)")
        for name in ["dot.apng", "square.webp"] {
            var bytes = readBytes(dir + "/out/" + name)
            bytes[bytes.count / 2] ^= 0xFF
            try Data(bytes).write(to: URL(fileURLWithPath: dir + "/out/" + name))
        }
        let before = try sha256Sums(dir + "/out")
        let stale = try runTool(["check"] + arguments, in: dir)
        #expect(stale.status == 2, "\(stale.stdout) \(stale.stderr)")
        let named = stale.stdout.split(separator: "\n").filter { $0.hasPrefix("differs:") }.sorted()
        #expect(named == ["differs: out/dot.apng", "differs: out/square.webp"], "\(stale.stdout)")
        #expect(try sha256Sums(dir + "/out") == before)
    }

    @Test func checkWithAMissingFolderFails() throws {
        let dir = try Self.workspace()
        let run = try runTool(["check", "presets", "-o", "nowhere/"], in: dir)
        #expect(run.status == 1)
        #expect(run.stderr == "error: cannot check nowhere/dot.gif: directory nowhere does not exist\n")
        #expect(!FileManager.default.fileExists(atPath: dir + "/nowhere"))
    }

    @Test func oneInvalidPresetStopsTheWholeBatchBeforeWriting() throws {
        let dir = try Self.workspace()
        try writeFile("{ \"version\": 1 ", to: dir + "/presets/zzz.json")
        let run = try runTool(["presets", "-o", "out/"], in: dir)
        #expect(run.status == 65)
        #expect(run.stderr.contains("presets/zzz.json:1:"))
        #expect(listing(dir + "/out").isEmpty)
    }

    @Test func twoPresetsWithOneNameAreAUsageError() throws {
        let dir = try Self.workspace()
        try writeFile(squarePreset(), to: dir + "/presets/square-copy.json")
        let run = try runTool(["presets", "-o", "out/"], in: dir)
        #expect(run.status == 64)
        #expect(
            run.stderr
                == "error: out/square.gif would be written from both presets/square-copy.json and presets/square.json; give the presets different names or use separate -o folders\n"
        )
        #expect(listing(dir + "/out").isEmpty)
    }
}
