import Geometry
import Spec
import Testing

@testable import Timeline

private let circle = BezierPath.circle(center: Point(x: 60, y: 60), radius: 48)

@Test func pacedPositionAndHeadingOnAClockwiseCircle() throws {
    let flight = PathAnimation(path: circle, calculationMode: .paced, rotationMode: .auto)
    // Starts at 3 o'clock heading down (90°); a quarter later at 6 o'clock heading left (180°);
    // at 12 o'clock the heading is 0° (semantics §4.6).
    let cases: [(Double, Double, Double, Double)] = [
        (0, 108, 60, 90), (0.25, 60, 108, 180), (0.5, 12, 60, -90), (0.75, 60, 12, 0),
    ]
    for (u, x, y, heading) in cases {
        let p = try #require(flight.point(at: u))
        #expect(abs(p.position.x - x) < 1e-6 && abs(p.position.y - y) < 1e-6, "u = \(u)")
        let d = (p.heading - heading).truncatingRemainder(dividingBy: 360)
        #expect(abs(d) < 0.1 || abs(abs(d) - 360) < 0.1, "u = \(u): heading \(p.heading)")
    }
    // Constant speed: equal time, equal arc length.
    let measure = PathMeasure(circle)
    let at01 = try #require(flight.point(at: 0.1)).position
    let expected = try #require(measure.point(atDistance: 0.1 * measure.length)).position
    #expect(abs(at01.x - expected.x) < 1e-9 && abs(at01.y - expected.y) < 1e-9)
}

@Test func airplaneNoseSitsOnTheTrailEndWithNoseOnTrail() throws {
    let composition = try PresetLoader.load(
        contentsOf: packageRoot + "/presets/airplane.json", overrides: ["noseOnTrail": "1"]
    ).composition
    let trail = composition.layers[0]
    let plane = composition.layers[1]
    let measure = PathMeasure(trail.state.shape.path)
    for u in [0.1, 1.0 / 3, 0.5, 0.75, 0.9] {
        let t = u * 1.5
        let trailState = AnimationEvaluator.presentation(of: trail.state, animations: trail.animations, at: t)
        let planeState = AnimationEvaluator.presentation(of: plane.state, animations: plane.animations, at: t)
        // semantics §4.5: start = clamp(−0.5 + 1.5u), end = clamp(u); visible = u up to 1/3, then 0.5 − 0.5u.
        let start = min(max(trailState.strokeStart, 0), 1)
        let end = min(max(trailState.strokeEnd, 0), 1)
        #expect(abs(end - u) < 1e-12)
        #expect(abs((end - start) - (u <= 1.0 / 3 ? u : 0.5 - 0.5 * u)) < 1e-12, "u = \(u)")
        let endPoint = try #require(measure.point(atFraction: end))
        let nose = planeState.transform.apply(to: planeState.anchorLocation)
        #expect(abs(nose.x - endPoint.position.x) < 1e-6 && abs(nose.y - endPoint.position.y) < 1e-6, "u = \(u)")
        #expect(abs(planeState.pathRotation - endPoint.heading) < 1e-6)
    }
}

@Test func linearPathModeSplitsTimeByElement() throws {
    // Two lines of lengths 10 and 30: linear mode spends half the time on each.
    let path = try BezierPath(svgPathData: "M0 0 L10 0 L10 30")
    let linear = PathAnimation(path: path, calculationMode: .linear, rotationMode: nil)
    let paced = PathAnimation(path: path, calculationMode: .paced, rotationMode: nil)
    #expect(try #require(linear.point(at: 0.5)).position == Point(x: 10, y: 0))
    #expect(abs(try #require(paced.point(at: 0.5)).position.y - 10) < 1e-9)
}
