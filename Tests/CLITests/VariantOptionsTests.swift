// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Testing
import ToolOptions

/// `--size`, `--speed`, `--poster`, `--zip` and `--name` through the real binary: the exact
/// files written, their pixels and delays decoded by Pillow, and the frames compared with the
/// ones the default loop renders.
struct VariantOptionsTests {
    static let circular = packageRoot + "/presets/circular.json"
    static let loadingDots = packageRoot + "/presets/loading-dots.json"

    /// Prints `WxH frames total_ms` and every delay of each file, decoded by Pillow.
    static let timing = #"""
        import sys
        from PIL import Image
        for path in sys.argv[1:]:
            im = Image.open(path)
            delays = []
            for k in range(getattr(im, "n_frames", 1)):
                im.seek(k)
                delays.append(int(im.info.get("duration", 0)))
            print(f"{im.size[0]}x{im.size[1]} {len(delays)} {sum(delays)}")
        """#

    static func decodedTiming(_ paths: [String]) throws -> [String] {
        let run = try runPython(timing, arguments: paths)
        #expect(run.status == 0, "\(run.stderr)")
        return run.stdout.split(separator: "\n").map(String.init)
    }

    /// Frame `i` of `dir`'s PNG frames of `stem`.
    static func frame(_ dir: String, _ stem: String, _ i: Int) -> [UInt8] {
        readBytes(dir + "/" + stem + "-" + String(format: "%03d", i) + ".png")
    }

    // MARK: --size

    @Test func sizesScaleTheLargerSideAndNameTheFiles() throws {
        let dir = try temporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir + "/out", withIntermediateDirectories: true)
        let run = try runTool([Self.circular, "--size", "24,32", "-o", "out/", "--format", "gif", "-q"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(listing(dir + "/out") == ["circular-24.gif", "circular-32.gif"])
        #expect(
            try Self.decodedTiming([dir + "/out/circular-24.gif", dir + "/out/circular-32.gif"]) == [
                "24x24 120 4000", "32x32 120 4000",
            ])
        // --size 32 on the 64 pt canvas is --scale 0.5: the same bytes.
        #expect(try runTool([Self.circular, "--scale", "0.5", "-o", "half.gif", "-q"], in: dir).status == 0)
        #expect(readBytes(dir + "/half.gif") == readBytes(dir + "/out/circular-32.gif"))
    }

    @Test func aWideCanvasFitsItsWidthAndFileOutputsGetTheSizeWhenSeveral() throws {
        let dir = try temporaryDirectory()
        // loading-dots is 176×56 pt: 88 px wide is half, 28 px high.
        let run = try runTool([Self.loadingDots, "--size", "88,44", "-o", "dots.apng", "-q"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(listing(dir) == ["dots-44.apng", "dots-88.apng"])
        let sizes = try Self.decodedTiming([dir + "/dots-88.apng", dir + "/dots-44.apng"]).map {
            $0.split(separator: " ").first.map(String.init) ?? ""
        }
        #expect(sizes == ["88x28", "44x14"])
        // One size and a named file: the name as given.
        #expect(try runTool([Self.loadingDots, "--size", "88", "-o", "one.gif", "-q"], in: dir).status == 0)
        #expect(listing(dir).contains("one.gif"))
    }

    @Test(arguments: [
        (["--size", "32", "--scale", "2"], "error: --size sets the scale from the canvas"),
        (["--size", "32", "--scale", "1"], "error: --size sets the scale from the canvas"),
        (["--size", "0"], "error: --size 0: expected a pixel size 1…16384 (the larger canvas side)"),
        (["--size", "24,24"], "error: --size 24,24: 24 is repeated"),
        (["--size", "12.5"], "error: --size 12.5: expected a pixel size"),
        (["--speed", "0"], "error: --speed 0: expected a speed factor 0.01…100 without a unit (2 plays twice as fast"),
        (["--speed", "fast"], "error: --speed fast: expected a speed factor 0.01…100"),
        (["--speed", "101"], "error: --speed 101: expected a speed factor 0.01…100"),
        (["--poster", "100%"], "error: --poster 100%: expected a percentage of the loop, 0 ≤ P < 100"),
        (["--poster", "-1"], "error: --poster -1: expected seconds into the loop ≥ 0"),
        (["--poster", "1", "--frame", "3"], "error: --poster picks frame 0 of an animation"),
        (
            ["--zip"],
            "error: --zip pairs up fan-out lists row by row; give --set NAME=V1,V2,… (or --size/--scale with several values) at least once"
        ),
        (
            ["--zip", "--set", "size=24,32", "--set", "strokeWidth=2,3,4"],
            "error: --zip pairs the fan-out lists row by row, so they need the same number of values: size has 2, strokeWidth has 3"
        ),
        (
            ["--zip", "--set", "strokeWidth=2,3", "--size", "24,32,48"],
            "error: --zip pairs the fan-out lists row by row, so they need the same number of values: strokeWidth has 2, --size has 3"
        ),
        (["--set", "size=24,24"], "error: --set size=24,24: a value is repeated"),
        (["--name", "fixed"], "error: --name fixed: the template has no placeholder"),
        (["--name", "a/{preset}"], "error: --name a/{preset}: a name template may not contain /"),
        (["--name", "{preset"], "error: --name {preset: a placeholder is not closed with }"),
        (
            ["--name", "{preset}", "-o", "x.gif"],
            "error: --name names the files in -o DIR/; -o x.gif names its file itself"
        ),
    ])
    func badOptionsAreUsageErrors(arguments: [String], message: String) throws {
        let dir = try temporaryDirectory()
        let run = try runTool([Self.circular] + arguments, in: dir)
        #expect(run.status == 64)
        #expect(run.stderr.hasPrefix(message), "\(run.stderr)")
        #expect(listing(dir).isEmpty)
    }

    @Test func aSizeOverThePixelBudgetSaysWhichScaleItMeant() throws {
        let dir = try temporaryDirectory()
        let run = try runTool([Self.circular, "--size", "5000", "-o", "big.gif"], in: dir)
        #expect(run.status == 64)
        #expect(
            run.stderr
                == "\(Self.circular): error: --scale: 64×64 pt at --scale 78.125 is 5000×5000 = 25000000 pixels per frame, more than the limit of 16777216 (4096×4096); --size 5000 is --scale 78.125 for this 64×64 pt canvas\n\(Self.circular): note: 1 error; nothing written\n"
        )
        #expect(listing(dir).isEmpty)
    }

    // MARK: --speed

    @Test func speedTwoHalvesTheLoopAndSamplesEveryOtherInstant() throws {
        let dir = try temporaryDirectory()
        let normal = try runTool([Self.circular, "--frames", "n", "-o", "n.gif", "-q"], in: dir)
        #expect(normal.status == 0, "\(normal.stderr)")
        let fast = try runTool([Self.circular, "--speed", "2", "--frames", "f", "-o", "f.gif", "-o", "f.png"], in: dir)
        #expect(fast.status == 0, "\(fast.stderr)")
        #expect(fast.stdout.hasPrefix("f.gif: 60 frames, 2 s loop, 64×64 px"), "\(fast.stdout)")
        #expect(listing(dir + "/f").count == 60)
        // The Timer that switches grow and shrink runs twice as fast too: frame i at 2× is the
        // instant of frame 2i of the preset's own loop, pixel for pixel.
        for i in [0, 1, 14, 15, 29, 30, 31, 59] {
            #expect(Self.frame(dir + "/f", "circular", i) == Self.frame(dir + "/n", "circular", 2 * i), "frame \(i)")
        }
        #expect(try Self.decodedTiming([dir + "/f.gif", dir + "/n.gif"]) == ["64x64 60 2000", "64x64 120 4000"])
        let sheet = try JSONSerialization.jsonObject(with: Data(readBytes(dir + "/f.json"))) as? [String: Any]
        let frames = sheet?["frames"] as? [String: Any]
        let durations = (frames ?? [:]).values.compactMap { ($0 as? [String: Any])?["duration"] as? Int }
        #expect(durations.count == 60)
        #expect(durations.reduce(0, +) == 2000)
    }

    @Test func halfSpeedDoublesTheLoopAndDurationIsTheFilesPeriod() throws {
        let dir = try temporaryDirectory()
        try writeFile(squarePreset(), to: dir + "/square.json")
        #expect(try runTool(["square.json", "--frames", "n", "-o", "n.gif", "-q"], in: dir).status == 0)
        let slow = try runTool(["square.json", "--speed", "0.5", "--frames", "s", "-o", "s.gif", "-q"], in: dir)
        #expect(slow.status == 0, "\(slow.stderr)")
        #expect(listing(dir + "/s").count == 20)
        for i in 0..<10 {
            #expect(Self.frame(dir + "/s", "square", 2 * i) == Self.frame(dir + "/n", "square", i), "frame \(i)")
        }
        // --duration is the file's period: 1 s at half speed covers 0.5 s of the preset.
        let cut = try runTool(
            ["square.json", "--speed", "0.5", "--duration", "1", "--frames", "d", "-o", "d.gif", "-q"], in: dir)
        #expect(cut.status == 0, "\(cut.stderr)")
        #expect(listing(dir + "/d").count == 10)
        #expect(Self.frame(dir + "/d", "square", 2) == Self.frame(dir + "/n", "square", 1))
        #expect(try Self.decodedTiming([dir + "/s.gif", dir + "/d.gif"]) == ["20x20 20 2000", "20x20 10 1000"])
    }

    @Test func aSpeedThatLeavesNoGIFFrameNamesTheOption() throws {
        let dir = try temporaryDirectory()
        try writeFile(squarePreset(), to: dir + "/square.json")
        let run = try runTool(["square.json", "--speed", "100", "-o", "a.gif"], in: dir)
        #expect(run.status == 64)
        #expect(
            run.stderr
                == "square.json: error: --speed: the 1 s loop at speed 100 lasts 0.01 s, shorter than 0.02 s (one GIF frame); use a speed up to 50\nsquare.json: note: 1 error; nothing written\n"
        )
        #expect(listing(dir) == ["square.json"])
    }

    // MARK: --poster

    @Test func posterRotatesTheSameFramesInEveryFormat() throws {
        // circular-linear's loop starts with nothing drawn (the trim at 0): a client showing
        // only the first image shows an empty square.
        let preset = packageRoot + "/presets/circular-linear.json"
        let stem = "circular-linear"
        let dir = try temporaryDirectory()
        #expect(try runTool([preset, "--frames", "n", "-o", "n.gif", "-q"], in: dir).status == 0)
        let run = try runTool(
            [
                preset, "--poster", "50%", "--frames", "p", "-o", "p.gif", "-o", "p.apng", "-o", "p.webp", "-o",
                "p.png",
                "-q",
            ], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        // Frame i of the file is frame (i + 30) mod 60 of the 2 s loop.
        #expect(listing(dir + "/p").count == 60)
        for i in [0, 1, 29, 30, 31, 59] {
            #expect(Self.frame(dir + "/p", stem, i) == Self.frame(dir + "/n", stem, (i + 30) % 60), "frame \(i)")
        }
        // Seconds: 0.5 s into the loop is frame 15.
        #expect(try runTool([preset, "--poster", "0.5", "--frames", "s", "-o", "s.gif", "-q"], in: dir).status == 0)
        #expect(Self.frame(dir + "/s", stem, 0) == Self.frame(dir + "/n", stem, 15))
        #expect(Self.frame(dir + "/s", stem, 59) == Self.frame(dir + "/n", stem, 14))
        // What a client showing only the first image sees: frame 0 of each file, decoded by
        // Pillow, is the loop's frame 30 (the sheet's cell "0" too), where the default file
        // shows nothing; the timing is unchanged.
        let firstFrames = #"""
            import sys, json
            from PIL import Image
            d, stem = sys.argv[1], sys.argv[2]
            want = Image.open(d + "/n/" + stem + "-030.png").convert("RGBA")
            def same(im):
                a, b = im.convert("RGBA").tobytes(), want.tobytes()
                return all(a[p + 3] == b[p + 3] and (a[p + 3] == 0 or a[p:p + 3] == b[p:p + 3]) for p in range(0, len(a), 4))
            out = []
            for ext in ["apng", "webp"]:
                out.append(f"{ext} {same(Image.open(d + '/p.' + ext))}")
            sheet = json.load(open(d + "/p.json"))
            r = sheet["frames"]["0"]["frame"]
            cell = Image.open(d + "/p.png").convert("RGBA").crop((r["x"], r["y"], r["x"] + r["w"], r["y"] + r["h"]))
            out.append(f"sheet {same(cell)}")
            for name in ["n", "p"]:
                out.append(f"{name}.gif {Image.open(d + '/' + name + '.gif').convert('RGBA').getextrema()[3]}")
            print(" ".join(out))
            """#
        let check = try runPython(firstFrames, arguments: [dir, stem])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout == "apng True webp True sheet True n.gif (0, 0) p.gif (0, 255)\n")
        #expect(try Self.decodedTiming([dir + "/p.gif", dir + "/n.gif"]) == ["64x64 60 2000", "64x64 60 2000"])
    }

    // MARK: --zip and --name

    @Test func zipPairsListsRowByRowWhereSetMultiplies() throws {
        let dir = try temporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir + "/all", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: dir + "/zip", withIntermediateDirectories: true)
        let lists = ["--set", "size=24,32,48", "--set", "strokeWidth=2,3,4", "--format", "gif", "-q"]
        #expect(try runTool([Self.circular, "-o", "all/"] + lists, in: dir).status == 0)
        #expect(listing(dir + "/all").count == 9)
        let zipped = try runTool([Self.circular, "-o", "zip/", "--zip"] + lists, in: dir)
        #expect(zipped.status == 0, "\(zipped.stderr)")
        #expect(
            listing(dir + "/zip") == [
                "circular-size-24-strokeWidth-2.gif", "circular-size-32-strokeWidth-3.gif",
                "circular-size-48-strokeWidth-4.gif",
            ])
        // Each row is the cartesian file of the same pair.
        for (size, width) in [(24, 2), (32, 3), (48, 4)] {
            let name = "/circular-size-\(size)-strokeWidth-\(width).gif"
            #expect(readBytes(dir + "/zip" + name) == readBytes(dir + "/all" + name))
        }
        // Under --zip a column may repeat a value.
        let repeated = try runTool(
            [Self.circular, "--zip", "--set", "size=24,24", "--set", "color=red,blue", "-o", "zip/", "-q"], in: dir)
        #expect(repeated.status == 0, "\(repeated.stderr)")
        #expect(listing(dir + "/zip").contains("circular-size-24-color-blue.gif"))
    }

    @Test func zipPairsSizeListsWithSetListsAndReportsSpeedAndPoster() throws {
        let dir = try temporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir + "/z", withIntermediateDirectories: true)
        let run = try runTool(
            [
                Self.circular, "--zip", "--set", "strokeWidth=2,3", "--size", "24,32", "-o", "z/", "--format", "gif",
                "--speed", "2", "--poster", "25%", "--report", "r.json", "-q",
            ], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(listing(dir + "/z") == ["circular-strokeWidth-2-24.gif", "circular-strokeWidth-3-32.gif"])
        // Each row is the file the pair alone makes.
        for (width, px) in [(2, 24), (3, 32)] {
            let alone = try runTool(
                [
                    Self.circular, "--set", "strokeWidth=\(width)", "--size", "\(px)", "-o", "a\(px).gif",
                    "--speed", "2", "--poster", "25%", "-q",
                ], in: dir)
            #expect(alone.status == 0, "\(alone.stderr)")
            #expect(readBytes(dir + "/a\(px).gif") == readBytes(dir + "/z/circular-strokeWidth-\(width)-\(px).gif"))
        }
        // The report says the speed and the poster: 4 s loop at speed 2 lasts 2 s, 60 frames at
        // 30 fps, a quarter in is loop frame 15.
        let data = try Data(contentsOf: URL(fileURLWithPath: dir + "/r.json"))
        let root = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        let animations = root?["animations"] as? [[String: Any]] ?? []
        #expect(animations.count == 2)
        for animation in animations {
            let loop = animation["loop"] as? [String: Any] ?? [:]
            #expect(loop["period"] as? Double == 2)
            #expect(loop["speed"] as? Double == 2)
            #expect(loop["clockPeriod"] as? Double == 4)
            let poster = loop["poster"] as? [String: Any] ?? [:]
            #expect(poster["phase"] as? Double == 0.25)
            #expect(poster["frame"] as? Int == 15)
        }
        // Without the options: speed 1, poster 0.
        #expect(try runTool([Self.circular, "-o", "p.gif", "--report", "p.json", "-q"], in: dir).status == 0)
        let plain = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/p.json")))
        let plainLoop = ((plain as? [String: Any])?["animations"] as? [[String: Any]])?.first?["loop"] as? [String: Any]
        #expect(plainLoop?["speed"] as? Double == 1)
        #expect(plainLoop?["clockPeriod"] as? Double == 4)
        #expect((plainLoop?["poster"] as? [String: Any])?["frame"] as? Int == 0)
    }

    @Test func nameTemplatesFillPresetParametersScaleAndPixels() throws {
        let dir = try temporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir + "/o", withIntermediateDirectories: true)
        let run = try runTool(
            [
                Self.circular, "--zip", "--set", "size=24,32", "--set", "strokeWidth=2,3", "--name",
                "{preset}-{size}-w{strokeWidth}-{color}", "-o", "o/", "--format", "gif,sheet", "-q",
            ], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            listing(dir + "/o") == [
                "circular-24-w2-007AFF.gif", "circular-24-w2-007AFF.json", "circular-24-w2-007AFF.png",
                "circular-32-w3-007AFF.gif", "circular-32-w3-007AFF.json", "circular-32-w3-007AFF.png",
            ])
        let sizes = try run2x(dir)
        #expect(sizes == ["circular@2x-128.gif", "circular@3x-192.gif"])
    }

    /// `{scale}` and `{px}` with `--scale 2,3`.
    private func run2x(_ dir: String) throws -> [String] {
        try FileManager.default.createDirectory(atPath: dir + "/s", withIntermediateDirectories: true)
        let run = try runTool(
            [Self.circular, "--scale", "2,3", "--name", "{preset}@{scale}x-{px}", "-o", "s/", "--format", "gif", "-q"],
            in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        return listing(dir + "/s")
    }

    @Test func aTemplateThatNamesTwoOutputsAlikeOrAnUnknownPlaceholderIsRefused() throws {
        let dir = try temporaryDirectory()
        let same = try runTool([Self.circular, "--set", "size=24,32", "--name", "{preset}", "-o", "./"], in: dir)
        #expect(same.status == 64)
        #expect(
            same.stderr
                == "\(Self.circular): error: --name {preset} gives two outputs the name circular; add what varies: {size}\n"
        )
        let unknown = try runTool([Self.circular, "--name", "{preset}-{sise}", "-o", "./"], in: dir)
        #expect(unknown.status == 64)
        #expect(
            unknown.stderr
                == "\(Self.circular): error: --name {sise}: circular has no parameter sise; use {preset}, {scale}, {px}, {fps}, {speed}, {color}, {size}, {strokeWidth}, {animationDuration}, {rotationDuration}; did you mean {size}?\n"
        )
        #expect(listing(dir).isEmpty)
    }
}
