import Foundation
import Testing

/// Every bundled preset speaks one vocabulary (docs/preset-format.md, Parameter vocabulary):
/// `size` and `color` everywhere, `strokeWidth` where a line is drawn, and every other length
/// following `size`, so `--set size=32` works on the whole folder and draws what a smaller
/// scale draws.
struct PresetVocabularyTests {
    /// Each bundled preset with its default `size` and whether it draws a stroke.
    static let presets: [(name: String, size: Int, stroke: Bool)] = [
        ("airplane", 120, true), ("arc-rotation", 200, true), ("blink-dots", 104, false),
        ("circular", 64, true), ("circular-autoreverse", 64, true), ("circular-linear", 64, true),
        ("circular-progress", 248, true), ("flipping-square", 244, false), ("loading-dots", 56, false),
        ("loading-dots-modifier", 56, false), ("triangle-dots", 160, false), ("twin-circle-scale", 150, false),
    ]

    @Test func theListIsEveryBundledPreset() {
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: packageRoot + "/presets")) ?? [])
            .filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
        #expect(files == Self.presets.map(\.name))
    }

    @Test func everyPresetHasSizeColorAndStrokeWidthWhereItStrokes() throws {
        for preset in Self.presets {
            let json =
                try JSONSerialization.jsonObject(
                    with: Data(readBytes(packageRoot + "/presets/\(preset.name).json"))) as? [String: Any]
            let params = json?["params"] as? [String: Any] ?? [:]
            let size = params["size"] as? [String: Any]
            #expect(size?["default"] as? Int == preset.size, "\(preset.name)")
            #expect(params["color"] != nil, "\(preset.name)")
            #expect((params["strokeWidth"] != nil) == preset.stroke, "\(preset.name)")
            for old in ["height", "lineWidth", "canvas"] {
                #expect(params[old] == nil, "\(preset.name) still has \(old)")
            }
        }
    }

    @Test func setSizeWorksOnTheWholeFolder() throws {
        let dir = try temporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir + "/out", withIntermediateDirectories: true)
        let run = try runTool(
            [packageRoot + "/presets", "--set", "size=32", "--frame", "0", "-o", "out/", "-q"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(listing(dir + "/out") == Self.presets.map { "\($0.name)-000.png" })
    }

    /// Half the default size draws, pixel for pixel, what `--scale 0.5` draws: strokes, dots,
    /// gaps, dashes, text and glyphs all follow `size`. Not the two loading-dots presets: their
    /// dots start at `ceil(@label.width)`, the whole point SwiftUI's HStack gives the text's
    /// frame, so at size 28 they start at ceil(64.19) = 65 pt where half the 56-pt layout is
    /// 129 / 2 = 64.5 pt (as on a device); `measuredTextWidthFeedsExpressions` and the
    /// rounded-width test check those presets' layout at several sizes instead.
    @Test(arguments: presets.map(\.name).filter { !$0.hasPrefix("loading-dots") })
    func halfTheSizeIsHalfTheScale(name: String) throws {
        let preset = try #require(Self.presets.first { $0.name == name })
        let dir = try temporaryDirectory()
        let file = packageRoot + "/presets/\(name).json"
        let set = try runTool(
            [file, "--set", "size=\(preset.size / 2)", "--frame", "10", "-o", "set.png", "-q"], in: dir)
        #expect(set.status == 0, "\(set.stderr)")
        let scaled = try runTool([file, "--scale", "0.5", "--frame", "10", "-o", "scaled.png", "-q"], in: dir)
        #expect(scaled.status == 0, "\(scaled.stderr)")
        #expect(!readBytes(dir + "/set.png").isEmpty)
        #expect(readBytes(dir + "/set.png") == readBytes(dir + "/scaled.png"))
    }
}
