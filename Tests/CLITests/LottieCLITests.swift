// SPDX-License-Identifier: GPL-3.0-or-later

import Encode
import Foundation
import Testing

/// Lottie files through the real binary: recognised by their top-level members, rendered to
/// every format with the loop `op − ip` at `fr`, warnings and `--strict` for unsupported
/// features, exit 65 with line:column for malformed ones (`docs/lottie.md`).
@Suite struct LottieCLITests {
    static let fixtures = packageRoot + "/Tests/LottieImportTests/Fixtures/lottie"

    @Test func gifHasTheLoopsFramesDelaysAndPixels() throws {
        let dir = try temporaryDirectory()
        let run = try runTool([Self.fixtures + "/easing.json", "-o", "e.gif"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        let gif = try GIFDecoder.decode(readBytes(dir + "/e.gif"))
        // op 30 − ip 0 at fr 30: 1 s. The marker moves for frames 0…10 and then rests, so the
        // GIF keeps those 10 frames of 3–4 cs and merges the still rest into the last one.
        #expect(gif.frames.map(\.delay).reduce(0, +) == 100)
        #expect(gif.frames.count == 11)
        #expect(gif.frames.prefix(10).allSatisfy { $0.delay == 3 || $0.delay == 4 })
        #expect(gif.width == 200 && gif.height == 200)
        // Frame 5: x eased in-out to 50, y eased in to 31.5 (LottieImportTests); the 4×4
        // marker covers (50, 31), and frame 0's origin marker is gone from there.
        let frame = gif.frames[5].canvas
        let o = frame.offset(x: 50, y: 31)
        #expect(Array(frame.pixels[o..<o + 4]) == [255, 0, 0, 255])
        #expect(gif.frames[0].canvas.pixels[o + 3] == 0)
    }

    @Test func everyFormatScaleAndFpsWork() throws {
        let dir = try temporaryDirectory()
        let run = try runTool(
            [Self.fixtures + "/rect-fill.json", "-o", "out/", "--format", "gif,apng,webp,sheet,frames"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        let files = listing(dir + "/out").filter { !isManifestName($0) }
        // GIF, APNG, WebP, the sheet (PNG + its data) and the 30 frames of the loop.
        let expected =
            ["rect-fill.apng", "rect-fill.gif", "rect-fill.json", "rect-fill.png", "rect-fill.webp"]
            + (0..<30).map { String(format: "rect-fill-%03d.png", $0) }
        #expect(files.sorted() == expected.sorted(), "\(files)")
        let scaled = try runTool([Self.fixtures + "/rect-fill.json", "-o", "s.gif", "--scale", "2"], in: dir)
        #expect(scaled.status == 0, "\(scaled.stderr)")
        let gif = try GIFDecoder.decode(readBytes(dir + "/s.gif"))
        #expect(gif.width == 200 && gif.height == 160)
        // The loop is op − ip = 30 frames at fr 30: every frame as a PNG, 30 of them, or 10
        // at --fps 10.
        for (fps, count) in [(nil, 30), ("10", 10)] as [(String?, Int)] {
            let frames = "f\(fps ?? "")"
            let extra = fps.map { ["--fps", $0] } ?? []
            let run = try runTool(
                [Self.fixtures + "/easing.json", "-o", frames + "/", "--format", "frames"] + extra, in: dir)
            #expect(run.status == 0, "\(run.stderr)")
            let pngs = listing(dir + "/" + frames).filter { $0.hasSuffix(".png") }
            #expect(pngs.count == count, "\(pngs)")
        }
        let check = try runTool(["check", Self.fixtures + "/rect-fill.json", "-o", "out/"], in: dir)
        #expect(check.status == 0, "\(check.stdout) \(check.stderr)")
        let preview = try runTool([Self.fixtures + "/rect-fill.json", "-o", "p.gif", "--preview", "p.html"], in: dir)
        #expect(preview.status == 0, "\(preview.stderr)")
        #expect(FileManager.default.fileExists(atPath: dir + "/p.html"))
    }

    @Test func aFolderOfLottieFilesIsABatch() throws {
        let dir = try temporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir + "/in", withIntermediateDirectories: true)
        for name in ["rect-fill", "dashes"] {
            try FileManager.default.copyItem(atPath: "\(Self.fixtures)/\(name).json", toPath: "\(dir)/in/\(name).json")
        }
        let run = try runTool(["in", "-o", "out/"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        let files = listing(dir + "/out")
        #expect(files.contains("dashes.gif") && files.contains("rect-fill.gif"), "\(files)")
    }

    @Test func unsupportedFeaturesWarnOnExportAndFailStrictValidation() throws {
        let dir = try temporaryDirectory()
        let file = Self.fixtures + "/unsupported.json"
        let export = try runTool([file, "-o", "u.gif"], in: dir)
        #expect(export.status == 0, "\(export.stderr)")
        #expect(
            export.stderr.contains("unsupported.json:1:"),
            "warnings carry line:column: \(export.stderr)")
        #expect(export.stderr.contains("warning: $.layers[0].shapes[0].it[1]: merge paths (mm) is not supported"))
        let lax = try runTool(["validate", file], in: dir)
        #expect(lax.status == 0, "\(lax.stdout) \(lax.stderr)")
        let strict = try runTool(["validate", "--strict", file], in: dir)
        #expect(strict.status == 65, "\(strict.stdout) \(strict.stderr)")
        #expect(
            (strict.stdout + strict.stderr).contains(
                "error: $.layers[0].shapes[0].it[2]: trim paths (tm) on a filled shape"))
    }

    @Test func malformedLottieExits65WithItsPlaceAndWritesNothing() throws {
        let dir = try temporaryDirectory()
        try writeFile(
            #"""
            {"v":"5","fr":30,"ip":0,"op":10,"w":10,"h":10,"layers":[{"ty":4,"ip":0,"op":10,
            "ks":{"o":{"a":1,"k":[{"s":[0]}]}},"shapes":[]}]}
            """#, to: dir + "/bad.json")
        let run = try runTool(["bad.json", "-o", "bad.gif"], in: dir)
        #expect(run.status == 65)
        #expect(run.stderr.contains("bad.json:2:23: error: $.layers[0].ks.o.k[0]: missing \"t\""), "\(run.stderr)")
        #expect(listing(dir) == ["bad.json"])
    }
}
