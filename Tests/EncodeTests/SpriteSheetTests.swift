// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Raster
import Testing

@testable import Encode

/// 3×2 frame `k`: every pixel distinct per frame, with partial alpha.
private func cell(_ k: Int) -> RGBAImage {
    makeImage(width: 3, height: 2) { x, y in
        Pixel(UInt8(10 * k + x), UInt8(100 + y), UInt8(200 + k), UInt8(60 + 40 * x + 20 * y))
    }
}

/// The `width`×`height` region of `image` at (x, y).
private func crop(_ image: RGBAImage, x: Int, y: Int, width: Int, height: Int) -> RGBAImage {
    makeImage(width: width, height: height) { u, v in pixel(image, x + u, y + v) }
}

private func options(columns: Int? = nil, padding: Int = 0) -> SpriteSheetOptions {
    SpriteSheetOptions(
        name: "circular", imageName: "circular.png", columns: columns, padding: padding,
        frameRate: 30, loopSeconds: 1, version: "1.2.3")
}

@Test func defaultGridIsCeilSqrtColumnsWithPaddingEverywhere() throws {
    let frames = (0..<5).map(cell)
    let sheet = try SpriteSheetBuilder.build(
        frames: frames, durations: [200, 200, 200, 200, 200], options: options(padding: 1))
    // ceil(sqrt(5)) = 3 columns, 2 rows: 3·3 + 4·1 = 13 by 2·2 + 3·1 = 7.
    #expect(sheet.columns == 3 && sheet.rows == 2)
    #expect(sheet.image.width == 13 && sheet.image.height == 7)
    #expect(sheet.frames.map(\.x) == [1, 5, 9, 1, 5])
    #expect(sheet.frames.map(\.y) == [1, 1, 1, 4, 4])
    #expect(sheet.frames.map(\.filename) == (0..<5).map { "circular \($0).png" })
    var covered = Set<Int>()
    for (k, frame) in sheet.frames.enumerated() {
        #expect(frame.width == 3 && frame.height == 2)
        #expect(crop(sheet.image, x: frame.x, y: frame.y, width: 3, height: 2) == frames[k])
        for v in 0..<2 { for u in 0..<3 { covered.insert((frame.y + v) * 13 + frame.x + u) } }
    }
    // Padding and the unused sixth cell are fully transparent (all four bytes 0).
    for i in 0..<(13 * 7) where !covered.contains(i) {
        #expect(sheet.image.pixels[(4 * i)..<(4 * i + 4)] == [0, 0, 0, 0])
    }
}

@Test func explicitColumnsAndNoPadding() throws {
    let frames = (0..<5).map(cell)
    let sheet = try SpriteSheetBuilder.build(
        frames: frames, durations: [1, 2, 3, 4, 5], options: options(columns: 2))
    #expect(sheet.columns == 2 && sheet.rows == 3)
    #expect(sheet.image.width == 6 && sheet.image.height == 6)
    #expect(sheet.frames.map { [$0.x, $0.y] } == [[0, 0], [3, 0], [0, 2], [3, 2], [0, 4]])
    #expect(sheet.frames.map(\.duration) == [1, 2, 3, 4, 5])
    for (k, frame) in sheet.frames.enumerated() {
        #expect(crop(sheet.image, x: frame.x, y: frame.y, width: 3, height: 2) == frames[k])
    }
    // More columns than frames gives one row of exactly N cells.
    let row = try SpriteSheetBuilder.build(
        frames: frames, durations: [1, 1, 1, 1, 1], options: options(columns: 9, padding: 2))
    #expect(row.columns == 5 && row.rows == 1)
    #expect(row.image.width == 5 * 3 + 6 * 2 && row.image.height == 2 + 2 * 2)
}

@Test func jsonHasTheAsepriteHashShape() throws {
    let frames = (0..<4).map(cell)
    let durations = FrameTiming.millisecondDurations(period: 1, frameCount: 4)
    let sheet = try SpriteSheetBuilder.build(
        frames: frames, durations: durations, options: options(padding: 1))
    #expect(sheet.json.last == 0x0A)
    let root = try #require(
        try JSONSerialization.jsonObject(with: Data(sheet.json)) as? [String: Any])
    #expect(Set(root.keys) == ["frames", "meta"])

    // Aseprite json-hash keyed "0"…"3" (`{frame}`), the names Phaser's createFromAseprite asks for.
    let hash = try #require(root["frames"] as? [String: [String: Any]])
    #expect(Set(hash.keys) == ["0", "1", "2", "3"])
    let list = try (0..<4).map { try #require(hash[String($0)]) }
    let second = list[1]
    #expect(second["filename"] == nil)
    #expect(second["frame"] as? [String: Int] == ["x": 5, "y": 1, "w": 3, "h": 2])
    #expect(second["rotated"] as? Bool == false)
    #expect(second["trimmed"] as? Bool == false)
    #expect(second["spriteSourceSize"] as? [String: Int] == ["x": 0, "y": 0, "w": 3, "h": 2])
    #expect(second["sourceSize"] as? [String: Int] == ["w": 3, "h": 2])
    let jsonDurations = list.compactMap { $0["duration"] as? Int }
    #expect(jsonDurations == [250, 250, 250, 250])
    #expect(jsonDurations.reduce(0, +) == 1000)

    let meta = try #require(root["meta"] as? [String: Any])
    #expect(meta["app"] as? String == "animexport")
    #expect(meta["version"] as? String == "1.2.3")
    #expect(meta["image"] as? String == "circular.png")
    #expect(meta["format"] as? String == "RGBA8888")
    #expect(meta["size"] as? [String: Int] == ["w": 9, "h": 7])
    #expect(meta["scale"] as? String == "1")
    #expect(meta["frameRate"] == nil && meta["loopSeconds"] == nil)
    let tags = try #require(meta["frameTags"] as? [[String: Any]])
    #expect(tags.count == 1)
    #expect(tags[0]["name"] as? String == "circular")
    #expect(tags[0]["from"] as? Int == 0)
    #expect(tags[0]["to"] as? Int == 3)
    #expect(tags[0]["direction"] as? String == "forward")
}

@Test func jsonTextIsExactlyStable() throws {
    var sheetOptions = options()
    sheetOptions.name = "dots \"q\""
    sheetOptions.imageName = "dots.png"
    sheetOptions.scale = 2
    sheetOptions.frameRate = 12.5
    sheetOptions.loopSeconds = 0.16
    let sheet = try SpriteSheetBuilder.build(
        frames: [cell(0), cell(1)], durations: [80, 80], options: sheetOptions)
    let expected = """
        {
          "frames": {
            "0": {
              "frame": { "x": 0, "y": 0, "w": 3, "h": 2 },
              "rotated": false,
              "trimmed": false,
              "spriteSourceSize": { "x": 0, "y": 0, "w": 3, "h": 2 },
              "sourceSize": { "w": 3, "h": 2 },
              "duration": 80
            },
            "1": {
              "frame": { "x": 3, "y": 0, "w": 3, "h": 2 },
              "rotated": false,
              "trimmed": false,
              "spriteSourceSize": { "x": 0, "y": 0, "w": 3, "h": 2 },
              "sourceSize": { "w": 3, "h": 2 },
              "duration": 80
            }
          },
          "meta": {
            "app": "animexport",
            "version": "1.2.3",
            "image": "dots.png",
            "format": "RGBA8888",
            "size": { "w": 6, "h": 2 },
            "scale": "2",
            "frameTags": [
              { "name": "dots \\"q\\"", "from": 0, "to": 1, "direction": "forward" }
            ]
          }
        }

        """
    #expect(String(decoding: sheet.json, as: UTF8.self) == expected)
}

@Test func jsonNumbersAndStringsAreFormattedPortably() {
    let numbers = JSONText.array([.number(30), .number(-2), .number(0.1), .number(29.97), .number(1.0 / 3), .null])
        .rendered()
    #expect(numbers == "[30, -2, 0.1, 29.97, 0.333333, null]\n")
    let text = JSONText.object(["k": .string("a\\b\n\u{01}\u{08}é")]).rendered()
    #expect(text == "{ \"k\": \"a\\\\b\\n\\u0001\\bé\" }\n")
}

@Test func sheetPNGRoundTripsExactly() throws {
    let sheet = try SpriteSheetBuilder.build(
        frames: (0..<3).map(cell), durations: [10, 10, 10], options: options(padding: 1))
    let png = try PNGCodec.encode(sheet.image)
    #expect(try PNGCodec.decode(png) == sheet.image)
}

@Test func spriteSheetRejectsBadArguments() {
    let frames = [cell(0), cell(1)]
    #expect(throws: EncodeError("cannot build a sprite sheet without frames")) {
        try SpriteSheetBuilder.build(frames: [], durations: [], options: options())
    }
    #expect(throws: EncodeError("frame 1 is 2×2, expected 3×2")) {
        try SpriteSheetBuilder.build(
            frames: [cell(0), makeImage(width: 2, height: 2) { _, _ in .clear }], durations: [1, 1],
            options: options())
    }
    #expect(throws: EncodeError("1 durations for 2 frames")) {
        try SpriteSheetBuilder.build(frames: frames, durations: [1], options: options())
    }
    #expect(throws: EncodeError("frame 0 has a duration of 0 ms; it must be > 0")) {
        try SpriteSheetBuilder.build(frames: frames, durations: [0, 5], options: options())
    }
    #expect(throws: EncodeError("sprite sheet columns must be ≥ 1, got 0")) {
        try SpriteSheetBuilder.build(frames: frames, durations: [1, 1], options: options(columns: 0))
    }
    #expect(throws: EncodeError("sprite sheet padding must be 0…65535 pixels, got -1")) {
        try SpriteSheetBuilder.build(frames: frames, durations: [1, 1], options: options(padding: -1))
    }
    var nanRate = options()
    nanRate.frameRate = .nan
    #expect(throws: EncodeError("frame rate must be a finite number > 0, got nan")) {
        try SpriteSheetBuilder.build(frames: frames, durations: [1, 1], options: nanRate)
    }
}

@Test func ceilingSquareRootIsExact() {
    #expect(
        (1...17).map(SheetPlanner.ceilingSquareRoot) == [
            1, 2, 2, 2, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 5,
        ])
}
