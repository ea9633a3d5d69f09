import AnimexportCLI
import Export
import Foundation
import Raster
import Render
import Spec
import Testing
import Timeline

/// Every file in presets/ is documentation and fixture at once: each must validate against the
/// JSON Schema, decode without warnings, render, and loop without a seam.
struct PresetCatalogTests {
    static let presetFiles: [String] = {
        let dir = packageRoot + "/presets"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted().map { dir + "/" + $0 }
    }()

    @Test func thereArePresets() {
        #expect(Self.presetFiles.contains(packageRoot + "/presets/circular.json"))
    }

    @Test func everyPresetValidatesAgainstTheSchema() throws {
        let script = """
            import json, sys, jsonschema
            schema = json.load(open(sys.argv[1]))
            jsonschema.Draft7Validator.check_schema(schema)
            validator = jsonschema.Draft7Validator(schema)
            bad = 0
            for path in sys.argv[2:]:
                for error in validator.iter_errors(json.load(open(path))):
                    bad += 1
                    print(path, "/".join(str(p) for p in error.absolute_path), error.message)
            print("checked", len(sys.argv) - 2, "problems", bad)
            """
        let run = try runPython(script, arguments: [packageRoot + "/schema/preset.schema.json"] + Self.presetFiles)
        #expect(run.status == 0, "python: \(run.stderr)")
        #expect(run.stdout.hasSuffix("checked \(Self.presetFiles.count) problems 0\n"), "\(run.stdout)")
    }

    @Test func schemaRejectsAnUnknownKey() throws {
        // The schema must be strict enough to catch typos in an editor, like the tool does.
        let script = """
            import json, sys, jsonschema
            schema = json.load(open(sys.argv[1]))
            preset = json.load(open(sys.argv[2]))
            preset["layers"][0]["radiuss"] = 3
            preset["events"][0]["animation"]["durration"] = 1
            errors = list(jsonschema.Draft7Validator(schema).iter_errors(preset))
            del preset["layers"][0]["radiuss"]
            nested = list(jsonschema.Draft7Validator(schema).iter_errors(preset))
            print(len(errors) > 0 and len(nested) > 0)
            """
        let run = try runPython(
            script, arguments: [packageRoot + "/schema/preset.schema.json", packageRoot + "/presets/circular.json"])
        #expect(run.stdout == "True\n", "\(run.stdout) \(run.stderr)")
    }

    @Test(arguments: presetFiles)
    func presetDecodesRendersAndLoopsSeamlessly(path: String) throws {
        let loaded = try PresetLoader.load(contentsOf: path, measureText: Exporter.measureText)
        #expect(loaded.warnings.isEmpty, "\(loaded.warnings.map(\.description))")
        let composition = loaded.composition
        #expect(URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent == composition.name)
        #expect(!composition.description.isEmpty)
        let plan = try LoopPlan.make(for: composition, fps: composition.fps)
        #expect(plan.frameCount >= 2)

        // The frame one period after frame 0 is frame 0 again (evaluation is periodic), so the
        // loop has no seam; frame N−1 must differ from frame 0 or the seam would hold still.
        let first = try SceneRenderer.render(SceneEvaluator.scene(of: composition, at: plan.time(ofFrame: 0)))
        let afterLoop = try SceneRenderer.render(
            SceneEvaluator.scene(of: composition, at: plan.time(ofFrame: 0) + plan.period))
        let last = try SceneRenderer.render(
            SceneEvaluator.scene(of: composition, at: plan.time(ofFrame: plan.frameCount - 1)))
        #expect(maxDifference(first, afterLoop) <= 1)
        if maxDifference(first, last) == 0 {
            // Identical across the seam is fine only where the animation really holds still:
            // then the instant halfway between the last frame and the loop's end looks the same.
            let between = try SceneRenderer.render(
                SceneEvaluator.scene(
                    of: composition, at: plan.time(ofFrame: 0) + plan.period * (1 - 0.5 / Double(plan.frameCount))))
            #expect(maxDifference(first, between) == 0, "frame 0 repeats at the seam but the animation moves there")
        }
    }
}

/// Largest per-channel difference between two same-sized images (255 when sizes differ).
func maxDifference(_ a: RGBAImage, _ b: RGBAImage) -> Int {
    guard a.width == b.width, a.height == b.height else { return 255 }
    var worst = 0
    for i in 0..<a.pixels.count {
        worst = max(worst, abs(Int(a.pixels[i]) - Int(b.pixels[i])))
    }
    return worst
}
