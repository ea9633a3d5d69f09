import Foundation
import Geometry
import Spec
import Testing

@testable import Timeline

/// Exact frame instants (issue 16) and the airplane's anchor.
@Suite struct SampleTimeTests {
    @Test func sampleTimesAreExactFractions() {
        let plan = LoopPlan(period: 6, start: 0, frameCount: 180, fps: 30, source: .explicit)
        for i in 0..<180 {
            let t = plan.sampleTime(ofFrame: i)
            #expect(t.exact == Rational(Int64(i), 30))
            #expect(t.seconds == Double(i) / 30)
        }
        let shifted = LoopPlan(period: 2.45, start: 4.9, frameCount: 49, fps: 20, source: .explicit)
        #expect(shifted.sampleTime(ofFrame: 7).exact == Rational(21, 4))
    }

    @Test func airplaneCentreRidesTheTrailUnlessNoseOnTrail() throws {
        for nose in [false, true] {
            let loaded = try PresetLoader.load(
                contentsOf: packageRoot + "/presets/airplane.json", overrides: nose ? ["noseOnTrail": "1"] : [:])
            let c = loaded.composition
            let u = 0.3
            let t = 1.5 * u
            let scene = SceneEvaluator.scene(of: c, at: t)
            // The plane (20 × 18 pt, nose at x = 20) is the last node; map its box points.
            let plane = try #require(scene.nodes.last)
            let centre = plane.transform.apply(to: Point(x: 10, y: 9))
            let noseTip = plane.transform.apply(to: Point(x: 20, y: 9))
            // The trail's end at u: angle 360°·u clockwise from 3 o'clock on radius 48 about (60, 60).
            let a = 2 * Double.pi * u
            let end = Point(x: 60 + 48 * cos(a), y: 60 + 48 * sin(a))
            let onTrail = nose ? noseTip : centre
            // 0.05 pt: the circle is four Bézier quarters, 0.03 % off the true circle.
            #expect(
                abs(onTrail.x - end.x) < 0.05 && abs(onTrail.y - end.y) < 0.05,
                "noseOnTrail \(nose): \(onTrail) vs \(end), centre \(centre), nose \(noseTip)")
            // The nose leads the centre by 10 pt along the heading.
            let dx = noseTip.x - centre.x
            let dy = noseTip.y - centre.y
            let lead = (dx * dx + dy * dy).squareRoot()
            #expect(abs(lead - 10) < 1e-9)
            // The nose is ahead: the heading at u is clockwise, (−sin a, cos a).
            #expect((noseTip.x - centre.x) * -sin(a) + (noseTip.y - centre.y) * cos(a) > 9.99)
        }
    }
}
