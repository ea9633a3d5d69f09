// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Testing

/// `--sheet-format`, `--frame-name` and the scale-last frame names on the command line.
@Suite struct SheetFormatOptionTests {
    static let circular = packageRoot + "/presets/circular.json"

    @Test(arguments: [
        (
            ["--sheet-format", "spine"],
            "--sheet-format spine: expected aseprite, aseprite-array, texturepacker, texturepacker-array, phaser-multiatlas, pixi, godot or css"
        ),
        (["--sheet-format", "aseprit"], "did you mean aseprite?"),
        (["--frame-name", "{title}"], "--frame-name: \"{title}\" has no frame number"),
        (["--frame-name", "{frame"], "--frame-name: \"{frame\" has a { without its }"),
        (["--frame-name", "{layer}-{frame}"], "--frame-name: \"{layer}-{frame}\" has the unknown field {layer}"),
        (["--frame-name", "{framex}"], "has the unknown field {framex}"),
        (["--sheet-format", "godot", "--frame-name", "{frame}"], "--sheet-format godot does not name its frames"),
    ])
    func badValuesExit64(arguments: [String], message: String) throws {
        let dir = try temporaryDirectory()
        let run = try runTool([Self.circular, "-o", "x.png"] + arguments, in: dir)
        #expect(run.status == 64)
        #expect(run.stderr.contains(message), "stderr: \(run.stderr)")
        #expect(listing(dir).isEmpty)
    }

    @Test func eachFormatNamesItsDataFileAfterTheSheet() throws {
        let dir = try temporaryDirectory()
        for (format, ext) in [("godot", "tres"), ("css", "css"), ("pixi", "json"), ("phaser-multiatlas", "json")] {
            let sub = "\(dir)/\(format)"
            try FileManager.default.createDirectory(atPath: sub, withIntermediateDirectories: true)
            let run = try runTool(
                [Self.circular, "-o", "loader.png", "--sheet-format", format, "--fps", "2", "-q"], in: sub)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(listing(sub) == ["loader.\(ext)", "loader.png"].sorted())
        }
        // The Godot resource names the sheet beside it; the CSS too.
        let tres = String(decoding: readBytes("\(dir)/godot/loader.tres"), as: UTF8.self)
        #expect(tres.contains("[ext_resource path=\"loader.png\" type=\"Texture\" id=1]"))
        #expect(tres.hasPrefix("[gd_resource type=\"SpriteFrames\" load_steps=10 format=2]\n"))
        let css = String(decoding: readBytes("\(dir)/css/loader.css"), as: UTF8.self)
        #expect(css.contains("background: url(\"loader.png\") no-repeat;"))
        #expect(css.contains("animation-duration: 4s;") && css.contains("animation-iteration-count: infinite;"))
        // `check` compares the same files.
        let check = try runTool(
            ["check", Self.circular, "-o", "loader.png", "--sheet-format", "godot", "--fps", "2"], in: "\(dir)/godot")
        #expect(check.status == 0, "\(check.stdout) \(check.stderr)")
    }

    @Test func frameNameTemplateReachesTheData() throws {
        let dir = try temporaryDirectory()
        let run = try runTool(
            [
                Self.circular, "-o", "s.png", "--sheet-format", "aseprite-array", "--frame-name", "{tag}_{frame01}",
                "--fps", "1",
            ],
            in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(readBytes(dir + "/s.json"))) as? [String: Any]
        let frames = json?["frames"] as? [[String: Any]] ?? []
        #expect(
            frames.compactMap { $0["filename"] as? String } == [
                "circular_01", "circular_02", "circular_03", "circular_04",
            ])
    }

    @Test func framesAndStillsKeepTheScaleSuffixLast() throws {
        let dir = try temporaryDirectory()
        for sub in ["out", "s"] {
            try FileManager.default.createDirectory(atPath: "\(dir)/\(sub)", withIntermediateDirectories: true)
        }
        let run = try runTool(
            [Self.circular, "--frames", "f/", "-o", "out/", "--format", "gif", "--scale", "2", "--fps", "1", "-q"],
            in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            listing(dir + "/f") == [
                "circular-000@2x.png", "circular-001@2x.png", "circular-002@2x.png", "circular-003@2x.png",
            ])
        #expect(listing(dir + "/out") == ["circular@2x.gif"])
        let still = try runTool(
            [Self.circular, "--frame", "3", "-o", "s/", "--scale", "1.5", "--fps", "1", "-q"], in: dir)
        #expect(still.status == 0, "\(still.stderr)")
        let time = try runTool([Self.circular, "--time", "0.5", "-o", "s/", "--scale", "3", "-q"], in: dir)
        #expect(time.status == 0, "\(time.stderr)")
        #expect(listing(dir + "/s") == ["circular-003@1.5x.png", "circular-t0.5s@3x.png"])
    }
}
