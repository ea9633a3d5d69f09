import Export
import Foundation
import Raster
import Render
import Spec
import Testing
import Timeline

/// The one place golden-image tolerance is set. Two knobs:
/// - `channel`: how far (0…255) any channel of a pixel may differ before the pixel counts as
///   different: absorbs antialiasing differences between Cairo/pixman builds. Colour channels
///   are compared premultiplied by alpha, as they show on a page: in straight alpha an edge
///   pixel of alpha 1 can only be 0, 128 or 255 per channel, so one level of coverage would
///   otherwise count as a difference of 128;
/// - `share`: what fraction of the pixels may differ by more than that: absorbs a glyph edge or
///   a curve's last pixel moving, never a shape that moved or a colour that changed.
enum GoldenTolerance {
    static let channel = 24
    static let share = 0.002
}

/// Every preset is rendered at 0 %, 25 %, 50 % and 75 % of its loop and compared with the PNGs in
/// Fixtures/goldens/. Set ANIMEXPORT_RECORD_GOLDENS=1 to (re)write them; a run that records always
/// fails, so a recording can never pass silently. On a mismatch, expected, actual and diff PNGs
/// are written under .build/golden-failures/.
struct GoldenImageTests {
    static let goldenDirectory = packageRoot + "/Tests/CLITests/Fixtures/goldens"
    static let failureDirectory = packageRoot + "/.build/golden-failures"
    static let checkpoints = [0, 25, 50, 75]

    static let cases: [(String, Int)] = PresetCatalogTests.presetFiles.flatMap { path in
        checkpoints.map { (path, $0) }
    }

    @Test(arguments: cases)
    func frameMatchesGolden(preset: String, percent: Int) throws {
        let composition = try PresetLoader.load(contentsOf: preset, measureText: Exporter.measureText).composition
        let plan = try LoopPlan.make(for: composition, fps: composition.fps)
        let index = Int((Double(plan.frameCount) * Double(percent) / 100).rounded())
        let actual = try SceneRenderer.render(SceneEvaluator.scene(of: composition, at: plan.time(ofFrame: index)))
        let name = "\(composition.name)-\(percent)"
        let goldenPath = "\(Self.goldenDirectory)/\(name).png"

        if ProcessInfo.processInfo.environment["ANIMEXPORT_RECORD_GOLDENS"] == "1" {
            try FileManager.default.createDirectory(atPath: Self.goldenDirectory, withIntermediateDirectories: true)
            try Data(try PNGCodec.encode(actual)).write(to: URL(fileURLWithPath: goldenPath))
            Issue.record("recorded \(name).png; run again without ANIMEXPORT_RECORD_GOLDENS to check it")
            return
        }
        guard let data = FileManager.default.contents(atPath: goldenPath) else {
            Issue.record(
                "no golden \(goldenPath); record it with ANIMEXPORT_RECORD_GOLDENS=1 swift test --filter GoldenImageTests"
            )
            return
        }
        let expected = try PNGCodec.decode([UInt8](data))
        #expect(expected.width == actual.width && expected.height == actual.height, "\(name): size changed")
        guard expected.width == actual.width, expected.height == actual.height else { return }
        var diff = RGBAImage(width: actual.width, height: actual.height)
        var different = 0
        for i in stride(from: 0, to: actual.pixels.count, by: 4) {
            let alphaA = Int(actual.pixels[i + 3])
            let alphaE = Int(expected.pixels[i + 3])
            var worst = abs(alphaA - alphaE)
            for c in 0..<3 {
                let a = (Int(actual.pixels[i + c]) * alphaA + 127) / 255
                let e = (Int(expected.pixels[i + c]) * alphaE + 127) / 255
                worst = max(worst, abs(a - e))
            }
            if worst > GoldenTolerance.channel {
                different += 1
                diff.pixels[i] = 255
                diff.pixels[i + 3] = 255
            } else if worst > 0 {
                diff.pixels[i + 2] = 255
                diff.pixels[i + 3] = UInt8(min(255, 64 + worst * 8))
            }
        }
        let share = Double(different) / Double(actual.width * actual.height)
        if share > GoldenTolerance.share {
            try FileManager.default.createDirectory(atPath: Self.failureDirectory, withIntermediateDirectories: true)
            let base = "\(Self.failureDirectory)/\(name)"
            try Data(try PNGCodec.encode(expected)).write(to: URL(fileURLWithPath: base + "-expected.png"))
            try Data(try PNGCodec.encode(actual)).write(to: URL(fileURLWithPath: base + "-actual.png"))
            try Data(try PNGCodec.encode(diff)).write(to: URL(fileURLWithPath: base + "-diff.png"))
        }
        #expect(
            share <= GoldenTolerance.share,
            "\(name): \(different) pixels (\(String(format: "%.3f", share * 100)) %) differ by more than \(GoldenTolerance.channel); see \(Self.failureDirectory)/\(name)-diff.png"
        )
    }
}
