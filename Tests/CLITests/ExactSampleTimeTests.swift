import Export
import Foundation
import Raster
import Render
import Spec
import Testing
import Timeline

/// Frame times are exact fractions (`LoopPlan.sampleTime(ofFrame:)`), so a label that should
/// read 10 % at frame 9 reads 10 %, not 9 % (issue 16). The label is read back from the pixels
/// by matching it against reference renderings of every possible label, not by asking the
/// evaluator.
@Suite struct ExactSampleTimeTests {
    static let preset = packageRoot + "/presets/circular-progress.json"

    /// The label area: inside the ring's inner edge (radius 80 around (124, 124)).
    static func crop(_ image: RGBAImage) -> [UInt8] {
        var out: [UInt8] = []
        for y in 104..<144 {
            for x in 74..<174 {
                let p = image[x, y]
                out += [p.r, p.g, p.b, p.a]
            }
        }
        return out
    }

    @Test func everyPercentageLabelIsTheExactFloorOfProgress() throws {
        let composition = try PresetLoader.load(contentsOf: Self.preset).composition
        guard let index = composition.layers.firstIndex(where: { $0.name == "percentage" }) else {
            Issue.record("no percentage layer")
            return
        }
        // Reference labels: the same text layer, still, showing a literal "N%".
        var references: [[UInt8]] = []
        for n in 0...100 {
            var still = composition
            var label = composition.layers[index]
            label.animations = []
            if case .text(var text) = label.state.shape {
                text.template = "\(n)%"
                label.state.shape = .text(text)
            }
            still.layers = [label]
            references.append(Self.crop(try Exporter.still(still, at: 0)))
        }
        #expect(Set(references).count == 101, "every label renders differently")

        let rendered = try Exporter.render(composition, fps: 30)
        #expect(rendered.plan.frameCount == 180)
        #expect(rendered.plan.period == 6)
        // The seed's code, run independently: every display frame (60 Hz) adds the step (0.5 in
        // the preset) while the counter is under 100; frame i at i/30 s has seen 2i ticks, and
        // the label is Int(counter). The bolt replaces the label from frame 100 on.
        var counter = 0.0
        var read: [Int] = []
        for i in 0..<100 {
            let crop = Self.crop(rendered.frames[i])
            let expected = Int(counter)
            let found = references.firstIndex(of: crop) ?? -1
            read.append(found)
            #expect(found == expected, "frame \(i): read \(found) %, expected \(expected) %")
            for _ in 0..<2 where counter < 100 { counter += 0.5 }
        }
        #expect(read == Array(0..<100))
        for i in 100..<180 {
            #expect(
                references.firstIndex(of: Self.crop(rendered.frames[i])) == nil, "frame \(i) shows the bolt, no label")
        }
    }

    /// The seed's own step, 0.005 per display frame, accumulates in binary doubles: after 400
    /// frames the counter is 1.9999999999999793, so `Int()` still says 1 % one frame after 2 %
    /// was due (43 of the 100 labels come a frame late, and the fill needs 20 001 frames; 7 in the first 60 s). The
    /// evaluator adds the same doubles the device adds.
    @Test func theSeedsOwnStepShowsTheDevicesLateLabels() throws {
        let composition = try PresetLoader.load(
            contentsOf: Self.preset, overrides: ["step": "0.005", "loopSeconds": "60"]
        ).composition
        var counter = 0.0
        var late: [Int] = []
        for tick in 1..<3600 {
            counter += 0.005
            if Int(counter) != tick / 200 { late.append(tick) }
        }
        // 400, 600, …, 1600 within the 60 s before the restart.
        #expect(late == Array(stride(from: 400, through: 1600, by: 200)))
        for tick in [200, 399, 400, 401, 600, 601, 1600, 1601, 1800, 3599] {
            let scene = SceneEvaluator.scene(of: composition, at: SampleTime(exact: Rational(Int64(tick), 60)!))
            let texts = scene.nodes.compactMap { node -> String? in
                if case .text(let t) = node.content { return t.string }
                return nil
            }
            let expected = late.contains(tick) ? tick / 200 - 1 : tick / 200
            #expect(texts == ["\(expected)%"], "tick \(tick)")
        }
    }
}
