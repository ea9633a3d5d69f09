import Spec
import Testing

@testable import Timeline

/// semantics.md §1: progress at u = 0.1, 0.25, 0.5, 0.75, 0.9, to four decimals.
@Test(arguments: [
    (TimingFunction.easeIn, [0.0170, 0.0935, 0.3154, 0.6219, 0.8394]),
    (TimingFunction.easeOut, [0.1606, 0.3781, 0.6846, 0.9065, 0.9830]),
    (TimingFunction.easeInOut, [0.0197, 0.1292, 0.5000, 0.8708, 0.9803]),
    (TimingFunction.caDefault, [0.0948, 0.4085, 0.8024, 0.9605, 0.9943]),
])
func namedCurvesMatchReferenceTable(curve: TimingFunction, expected: [Double]) {
    let inputs = [0.1, 0.25, 0.5, 0.75, 0.9]
    for (u, p) in zip(inputs, expected) {
        #expect(abs(curve.progress(u) - p) < 0.00005, "u = \(u)")
    }
}

@Test func curvesHitTheirEndsAndClampInput() {
    for curve in [TimingFunction.easeIn, .easeOut, .easeInOut, .caDefault, .linear] {
        #expect(curve.progress(0) == 0)
        #expect(curve.progress(1) == 1)
        #expect(curve.progress(-3) == 0)
        #expect(curve.progress(7) == 1)
    }
    #expect(TimingFunction.linear.progress(0.37) == 0.37)
}

@Test func solverInvertsXToTightTolerance() {
    // For (0.42, 0, 0.58, 1), x(s) solved for u must reproduce u within 1e-7 (semantics §1).
    for i in 1..<100 {
        let u = Double(i) / 100
        let s = TimingFunction.solve(u, 0.42, 0.58)
        #expect(abs(TimingFunction.bezier(s, 0.42, 0.58) - u) < 1e-7)
    }
}

@Test func overshootingCurveLeavesUnitRange() {
    // A back-out style curve overshoots 1 in the middle.
    let back = TimingFunction.cubicBezier(x1: 0.34, y1: 1.56, x2: 0.64, y2: 1)
    #expect(back.progress(0.6) > 1)
}
