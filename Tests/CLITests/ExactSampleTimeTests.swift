import Export
import Foundation
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
        var read: [Int] = []
        for i in 0..<90 {
            let crop = Self.crop(rendered.frames[i])
            // Frame i is at i/30 s; the ring fills in 3 s, so progress = i/90 and the label
            // is floor(100·i/90), in integers.
            let expected = 100 * i / 90
            let found = references.firstIndex(of: crop) ?? -1
            read.append(found)
            #expect(found == expected, "frame \(i): read \(found) %, expected \(expected) %")
        }
        // The four frames the floating-point times got wrong (issue 16).
        #expect(read[9] == 10 && read[18] == 20 && read[63] == 70 && read[81] == 90)
    }
}
