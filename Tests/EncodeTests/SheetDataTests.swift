// SPDX-License-Identifier: GPL-3.0-or-later

import Encode
import Foundation
import Testing

/// The data writers over layouts today's grid builder does not make: two pages (a multipack)
/// and aliased frames (two frames on one rectangle), and the frame-name templates.
@Suite struct SheetDataTests {
    static let pages = [
        SheetPage(imageName: "run-0.png", width: 20, height: 10),
        SheetPage(imageName: "run-1.png", width: 8, height: 8),
    ]
    /// Frame 2 aliases frame 0; frame 1 is trimmed, on page 1.
    static let frames = [
        SheetFrame(filename: "", x: 0, y: 0, width: 10, height: 10, duration: 100),
        SheetFrame(
            filename: "", x: 1, y: 2, width: 4, height: 5, duration: 100, sourceX: 3, sourceY: 1, sourceWidth: 10,
            sourceHeight: 10, page: 1),
        SheetFrame(filename: "", x: 0, y: 0, width: 10, height: 10, duration: 100),
    ]
    static let animation = SheetAnimation(
        title: "run", durations: [100, 120, 80], frameRate: 10, loop: .plays(3), scale: 2)

    static func files(_ format: SheetDataFormat, names: [String] = ["0", "1", "2"]) throws -> [SheetDataFile] {
        try SheetData.files(
            format: format, stem: "run", pages: pages, frames: frames, names: names, animation: animation)
    }

    static func json(_ file: SheetDataFile) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(file.bytes)) as? [String: Any])
    }

    @Test func perPageFormatsWriteOneFilePerPageNamedAfterIt() throws {
        for format in [SheetDataFormat.aseprite, .asepriteArray, .texturepacker, .texturepackerArray, .pixi] {
            let files = try Self.files(format)
            #expect(files.map(\.name) == ["run-0.json", "run-1.json"])
            #expect(
                SheetData.fileNames(format: format, stem: "run", pageImages: ["run-0.png", "run-1.png"])
                    == files.map(\.name))
            let first = try Self.json(files[0])
            let meta = try #require(first["meta"] as? [String: Any])
            #expect(meta["image"] as? String == "run-0.png")
            #expect(meta["size"] as? [String: Int] == ["w": 20, "h": 10])
            #expect(meta["scale"] as? String == "2")
        }
        // Aseprite hash: the aliased frames share one rectangle under their own names.
        let hash = try #require(try Self.json(Self.files(.aseprite)[0])["frames"] as? [String: [String: Any]])
        #expect(Set(hash.keys) == ["0", "2"])
        #expect(hash["0"]?["frame"] as? [String: Int] == hash["2"]?["frame"] as? [String: Int])
        #expect(hash["2"]?["duration"] as? Int == 80)
        let second = try #require(try Self.json(Self.files(.aseprite)[1])["frames"] as? [String: [String: Any]])
        #expect(second["1"]?["spriteSourceSize"] as? [String: Int] == ["x": 3, "y": 1, "w": 4, "h": 5])
        #expect(second["1"]?["trimmed"] as? Bool == true)
        // PixiJS: the first page lists the others and carries the animation.
        let pixi = try Self.json(Self.files(.pixi)[0])
        #expect((pixi["meta"] as? [String: Any])?["related_multi_packs"] as? [String] == ["run-1.json"])
        #expect(pixi["animations"] as? [String: [String]] == ["run": ["0", "1", "2"]])
        #expect((try Self.json(Self.files(.pixi)[1]))["animations"] == nil)
    }

    @Test func multiatlasListsEveryPage() throws {
        let files = try Self.files(.phaserMultiatlas)
        #expect(files.map(\.name) == ["run.json"])
        let textures = try #require(try Self.json(files[0])["textures"] as? [[String: Any]])
        #expect(textures.compactMap { $0["image"] as? String } == ["run-0.png", "run-1.png"])
        #expect(
            textures.map { ($0["frames"] as? [[String: Any]])?.compactMap { $0["filename"] as? String } ?? [] } == [
                ["0", "2"], ["1"],
            ])
        #expect(textures[0]["scale"] as? Int == 2)
    }

    @Test func godotResourceSharesAliasedRegionsAndNamesEveryPage() throws {
        let text = String(decoding: try Self.files(.godot)[0].bytes, as: UTF8.self)
        let expected = """
            [gd_resource type="SpriteFrames" load_steps=5 format=2]

            [ext_resource path="run-0.png" type="Texture" id=1]
            [ext_resource path="run-1.png" type="Texture" id=2]

            [sub_resource type="AtlasTexture" id=1]
            atlas = ExtResource( 1 )
            region = Rect2( 0, 0, 10, 10 )
            filter_clip = true

            [sub_resource type="AtlasTexture" id=2]
            atlas = ExtResource( 2 )
            region = Rect2( 1, 2, 4, 5 )
            margin = Rect2( 3, 1, 6, 5 )
            filter_clip = true

            [resource]
            animations = [ {
            "frames": [ SubResource( 1 ), SubResource( 2 ), SubResource( 1 ) ],
            "loop": false,
            "name": "run",
            "speed": 10.0
            } ]

            """
        #expect(text == expected)
    }

    @Test func cssAnimatesBoxAndPageWhenTheyChange() throws {
        let text = String(decoding: try Self.files(.css)[0].bytes, as: UTF8.self)
        // Scale 2: CSS pixels are half the sheet's; starts at 0, 100 and 220 of 300 ms.
        #expect(
            text.contains(
                ".run {\n  display: inline-block;\n  position: relative;\n  overflow: hidden;\n  width: 5px;\n  height: 5px;\n}"
            ))
        #expect(text.contains("animation-duration: 0.3s;") && text.contains("animation-iteration-count: 3;"))
        #expect(
            text.contains(
                "  0% { background-image: url(\"run-0.png\"); left: 0; top: 0; width: 5px; height: 5px; background-position: 0 0; background-size: 10px 5px; }"
            ))
        #expect(
            text.contains(
                "  33.333333% { background-image: url(\"run-1.png\"); left: 1.5px; top: 0.5px; width: 2px; height: 2.5px; background-position: -0.5px -1px; background-size: 4px 4px; }"
            ))
        #expect(text.contains("  73.333333% { background-image: url(\"run-0.png\");"))
        #expect(text.contains("  100% { background-image: url(\"run-0.png\");"))
    }

    @Test func cssIdentifiersAndStringsAreEscaped() throws {
        let files = try SheetData.files(
            format: .css, stem: "x", pages: [SheetPage(imageName: "a \"b\".png", width: 10, height: 10)],
            frames: [SheetFrame(filename: "", x: 0, y: 0, width: 10, height: 10, duration: 50)], names: ["0"],
            animation: SheetAnimation(title: "3d spin.v2", durations: [50], frameRate: 20))
        let text = String(decoding: files[0].bytes, as: UTF8.self)
        #expect(text.contains(".\\33 d\\ spin\\.v2 {"))
        #expect(text.contains("@keyframes \\33 d\\ spin\\.v2-frames {"))
        #expect(text.contains("url(\"a \\\"b\\\".png\")"))
    }

    @Test func frameNameTemplatesFollowAseprite() throws {
        let tags = [SheetTag(name: "walk", from: 0, to: 1), SheetTag(name: "jump", from: 2, to: 11)]
        #expect(try SheetData.frameNames(template: "{frame}", title: "t", tags: tags, count: 3) == ["0", "1", "2"])
        #expect(
            try SheetData.frameNames(template: "{title} {frame000}.{extension}", title: "t", tags: tags, count: 2)
                == ["t 000.png", "t 001.png"])
        // The digits set the start as well as the width: {frame01} counts 01, 02, …
        #expect(try SheetData.frameNames(template: "{frame01}", title: "t", tags: tags, count: 2) == ["01", "02"])
        #expect(
            try SheetData.frameNames(template: "{tag}-{tagframe00}", title: "t", tags: tags, count: 12).suffix(2)
                == ["jump-08", "jump-09"])
        #expect(throws: SheetDataError.self) {
            try SheetData.frameNames(
                template: "{tag}-{tagframe}", title: "t",
                tags: [SheetTag(name: "a", from: 0, to: 0), SheetTag(name: "a", from: 1, to: 1)], count: 2)
        }
        #expect(throws: SheetDataError.self) { try SheetData.checkTemplate("{title}") }
    }

    @Test func badInputIsAnErrorNotATrap() {
        let off = [SheetFrame(filename: "", x: 15, y: 0, width: 10, height: 10, duration: 100)]
        #expect(throws: SheetDataError.self) {
            try SheetData.files(
                format: .aseprite, stem: "x", pages: [SheetPage(imageName: "x.png", width: 20, height: 10)],
                frames: off, names: ["0"], animation: SheetAnimation(title: "x", durations: [100], frameRate: 10))
        }
        #expect(throws: SheetDataError.self) {
            try SheetData.files(
                format: .godot, stem: "x", pages: [], frames: off, names: ["0"],
                animation: SheetAnimation(title: "x", durations: [100], frameRate: 10))
        }
        #expect(throws: SheetDataError.self) {
            try SheetData.files(
                format: .css, stem: "x", pages: Self.pages, frames: Self.frames, names: ["a", "a", "b"],
                animation: Self.animation)
        }
    }
}
