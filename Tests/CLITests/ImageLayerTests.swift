import Encode
import Foundation
import Raster
import Render
import Testing

/// An image layer reads a PNG next to the preset and draws it scaled into its box.
struct ImageLayerTests {
    @Test func imageLayerDrawsThePNGBesideThePreset() throws {
        let dir = try temporaryDirectory()
        // A 2×2 PNG: red, green / blue, transparent.
        let tile = RGBAImage(width: 2, height: 2, pixels: [255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 0, 0, 0, 0])
        try Data(try PNGCodec.encode(try #require(tile))).write(to: URL(fileURLWithPath: dir + "/tile.png"))
        try Data(
            """
            { "version": 1, "name": "tiles", "description": "an image layer", "canvas": { "width": 40, "height": 40 }, "duration": 1, "fps": 2,
              "layers": [ { "type": "image", "file": "tile.png", "center": [20, 20], "size": [40, 40],
                            "animations": [ { "keyPath": "opacity", "values": [1, 1], "duration": 1, "repeatCount": "infinity" } ] } ] }
            """.utf8
        ).write(to: URL(fileURLWithPath: dir + "/tiles.json"))
        let run = try runTool(["tiles.json", "--frames", "frames", "-o", "sheet.png"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        let frame = try PNGCodec.decode([UInt8](Data(contentsOf: URL(fileURLWithPath: dir + "/frames/tiles-000.png"))))
        #expect(frame.width == 40)
        // Quadrant centres (away from the filtered seams) show the four source pixels.
        #expect(frame[5, 5] == (255, 0, 0, 255))
        #expect(frame[34, 5] == (0, 255, 0, 255))
        #expect(frame[5, 34] == (0, 0, 255, 255))
        #expect(frame[34, 34].a == 0)
    }

    @Test func missingImageIsAPresetError() throws {
        let dir = try temporaryDirectory()
        try Data(
            """
            { "version": 1, "name": "x", "canvas": { "width": 4, "height": 4 },
              "layers": [ { "type": "image", "file": "nope.png", "center": [2, 2] } ] }
            """.utf8
        ).write(to: URL(fileURLWithPath: dir + "/x.json"))
        let run = try runTool(["x.json"], in: dir)
        #expect(run.status == 65)
        #expect(
            run.stderr.contains("x.json:2:42: error: $.layers[0].file: cannot read the image \"nope.png\""),
            "\(run.stderr)")
    }
}
