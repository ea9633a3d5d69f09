import Geometry
import Spec
import Testing

@testable import Timeline

private func composition(_ animations: [Animation], duration: Double? = nil) -> Composition {
    let state = LayerState(shape: .circle(center: Point(x: 10, y: 10), radius: 5))
    return Composition(
        name: "t", canvas: Canvas(width: 20, height: 20), fps: 30, duration: duration,
        layers: [Layer(state: state, animations: animations)])
}

private func forever(_ d: Double, autoreverses: Bool = false, begin: Double = 0) -> Animation {
    Animation(
        content: .basic(property: .rotation, from: .number(0), to: .number(360)), beginTime: begin,
        duration: d, repeatCount: .infinity, autoreverses: autoreverses)
}

@Test func periodIsLCMOfCycles() throws {
    // semantics §7.1: rotation 1.0 s plus trim 1.5 s with autoreverse (3.0 s) → 3.0 s.
    let plan = try LoopPlan.make(for: composition([forever(1), forever(1.5, autoreverses: true)]), fps: 30)
    #expect(plan.period == 3)
    #expect(plan.frameCount == 90)
    #expect(plan.start == 0)
    #expect(plan.time(ofFrame: 1) == 3.0 / 90)
    #expect(plan.frameTimes.last == 3.0 * 89 / 90)  // never the period itself
}

@Test func delayedTracksStartTheLoopInSteadyState() throws {
    // semantics §3.5: t0 = ceil(maxDelay / P)·P.
    let plan = try LoopPlan.make(
        for: composition([forever(1.3, autoreverses: true, begin: 0.1), forever(2.6)]), fps: 30)
    #expect(plan.period == 2.6)
    #expect(plan.start == 2.6)
}

@Test func explicitDurationWins() throws {
    let plan = try LoopPlan.make(for: composition([forever(1)], duration: 2.5), fps: 24, duration: nil)
    #expect(plan.period == 2.5)
    #expect(plan.frameCount == 60)
    let cli = try LoopPlan.make(for: composition([forever(1)], duration: 2.5), fps: 24, duration: 1)
    #expect(cli.period == 1)
}

@Test func longLCMIsRefusedWithAHint() {
    #expect {
        try LoopPlan.make(for: composition([forever(7.001), forever(9.999)]), fps: 30)
    } throws: { error in
        guard let e = error as? LoopPlanError else { return false }
        return e.message.contains("--duration") && e.message.contains("7.001 s")
    }
}

@Test func offGridCycleIsRefused() {
    #expect(throws: LoopPlanError.self) {
        try LoopPlan.make(for: composition([forever(1.0 / 3)]), fps: 30)
    }
}

@Test func finiteAnimationsFitInTheLoop() throws {
    let once = Animation(
        content: .basic(property: .opacity, from: .number(0), to: .number(1)), beginTime: 0.5, duration: 2)
    let plan = try LoopPlan.make(for: composition([forever(1), once]), fps: 10)
    #expect(plan.period == 3)  // smallest multiple of 1 s that reaches 2.5 s
    #expect(plan.start == 0)
}

@Test func stillCompositionIsOneFrame() throws {
    let plan = try LoopPlan.make(for: composition([]), fps: 30)
    #expect(plan.frameCount == 1)
    #expect(plan.source == .still)
}
