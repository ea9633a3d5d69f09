import Spec
import Testing

@testable import Timeline

/// semantics.md §2.3: x(t) for v0 = 0 at t = 0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1.0 s.
@Test(arguments: [
    ("spring", [0.1394, 0.3936, 0.7996, 0.9685, 1.0084, 1.0003, 0.9999]),
    ("spring(response: 0.55, dampingFraction: 0.825)", [0.1189, 0.3465, 0.7451, 0.9405, 1.0101, 1.0011, 0.9999]),
    ("spring(response: 0.55, dampingFraction: 1)", [0.1125, 0.3165, 0.6656, 0.8562, 0.9778, 0.9982, 0.9999]),
    ("smooth", [0.1313, 0.3577, 0.7154, 0.8900, 0.9864, 0.9992, 1.0000]),
    ("snappy", [0.1382, 0.3881, 0.7864, 0.9564, 1.0060, 1.0004, 1.0000]),
    ("bouncy", [0.1457, 0.4233, 0.8737, 1.0339, 1.0145, 0.9982, 1.0001]),
])
func springPositionsMatchTheReferenceTable(text: String, expected: [Double]) throws {
    guard case .success(.spring(let spring)) = TimingFunctionSyntaxProbe.parse(text) else {
        Issue.record("\(text) did not parse as a spring")
        return
    }
    let times = [0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1.0]
    for (t, x) in zip(times, expected) {
        #expect(abs(spring.value(at: t) - x) < 0.00006, "\(text) at \(t)")
    }
}

/// A negative bounce is overdamped (Apple, `Spring.bounce`): ζ = 1 / (1 + bounce) = 2 here. The
/// references come from integrating m·x″ + c·x′ + k·(x − 1) = 0 with RK4 (h = 1e-5 s) at
/// t = 0.05, 0.1, 0.25, 0.5, 1.0 s, not from the closed form under test.
@Test(arguments: [
    ("spring(duration: 0.5, bounce: -0.5)", [0.0969977234, 0.2313615091, 0.5357276746, 0.7999263754, 0.9628445303]),
    (
        "interpolatingSpring(duration: 0.5, bounce: -0.5, initialVelocity: 3)",
        [0.1486294356, 0.279942144, 0.5654258023, 0.8127247165, 0.9652212972]
    ),
])
func overdampedSpringsFollowThePhysics(text: String, expected: [Double]) throws {
    guard case .success(.spring(let spring)) = TimingFunctionSyntaxProbe.parse(text) else {
        Issue.record("\(text) did not parse as a spring")
        return
    }
    #expect(spring.allowsOverdamping && abs(spring.dampingRatio - 2) < 1e-12)
    for (t, x) in zip([0.05, 0.1, 0.25, 0.5, 1.0], expected) {
        #expect(abs(spring.value(at: t) - x) < 1e-8, "\(text) at \(t)")
    }
}

@Test func overdampedPhysicalConstantsMoveAsTheCriticalSpring() throws {
    // Spring(mass:stiffness:damping:allowOverDamping:) defaults to false: "treated as critically
    // damped". k = 100, c = 40 is ζ = 2; it moves as 1 − (1 + 10t)·e^(−10t).
    guard
        case .success(.spring(let spring)) = TimingFunctionSyntaxProbe.parse(
            "interpolatingSpring(stiffness: 100, damping: 40)")
    else {
        Issue.record("did not parse")
        return
    }
    #expect(!spring.allowsOverdamping)
    #expect(abs(spring.value(at: 0.1) - 0.2642411177) < 1e-9)
    #expect(abs(spring.value(at: 0.3) - 0.8008517265) < 1e-9)
}

@Test func springConstantsFollowTheConversions() throws {
    // semantics §2.1–2.2: .spring() k = 157.914, c = 20.735; .bouncy ζ = 0.7 → c = 17.593.
    guard case .success(.spring(let s)) = TimingFunctionSyntaxProbe.parse("spring"),
        case .success(.spring(let b)) = TimingFunctionSyntaxProbe.parse("bouncy"),
        case .success(.spring(let d)) = TimingFunctionSyntaxProbe.parse("bouncy(duration: 0.5, extraBounce: 0.1)")
    else {
        Issue.record("springs did not parse")
        return
    }
    #expect(abs(s.stiffness - 157.914) < 0.001)
    #expect(abs(s.damping - 20.735) < 0.001)
    #expect(abs(b.damping - 17.593) < 0.001)
    #expect(abs(d.dampingRatio - 0.6) < 1e-12)  // base bounce 0.3 + 0.1 extra
}

@Test func peaksAndSettleTimesMatch() throws {
    // semantics §2.3: .bouncy peaks at 1.0460 near 0.350 s; settle times for |1 − x| < 1e-3.
    guard case .success(.spring(let bouncy)) = TimingFunctionSyntaxProbe.parse("bouncy") else { return }
    var peak = (t: 0.0, x: 0.0)
    for i in 1...1000 {
        let t = Double(i) / 1000
        let x = bouncy.value(at: t)
        if x > peak.x { peak = (t, x) }
    }
    #expect(abs(peak.x - 1.0460) < 0.00006)
    #expect(abs(peak.t - 0.350) < 0.0015)
    let settle: [(String, Double)] = [
        ("spring", 0.689), ("smooth", 0.735), ("snappy", 0.697), ("bouncy", 0.819),
        ("spring(response: 0.55, dampingFraction: 1)", 0.808), ("interactiveSpring", 0.209),
    ]
    for (text, expected) in settle {
        guard case .success(.spring(let s)) = TimingFunctionSyntaxProbe.parse(text) else {
            Issue.record("\(text)")
            continue
        }
        #expect(abs(s.settlingDuration() - expected) < 0.0006, "\(text): \(s.settlingDuration())")
    }
}

@Test func springAnimationDefaultsToItsSettleTime() throws {
    let loaded = try PresetLoader.decode(
        bytes: Array(
            """
            { "version": 1, "name": "s", "canvas": { "width": 10, "height": 10 },
              "layers": [ { "type": "circle", "center": [5, 5], "radius": 2, "fill": "red",
                "animations": [ { "keyPath": "scale", "fromValue": 1, "toValue": 2, "timingFunction": "spring",
                                  "style": "swiftUI", "autoreverses": true, "repeatCount": "infinity" } ] } ] }
            """.utf8), file: "s.json")
    let a = loaded.composition.layers[0].animations[0]
    // The settle time, 0.688596 s, rounded up to a whole millisecond, so the loop is exact:
    // two legs, 1.378 s, 41.34 frames at 30 fps (off the frame grid, but a period exists).
    #expect(a.duration == 0.689)
    let plan = try LoopPlan.make(for: loaded.composition, fps: 30)
    #expect(abs(plan.period - 1.378) < 1e-12)
    // Leg boundaries: the forward leg reaches exactly 1, the reverse leg starts from it.
    #expect(a.progress(at: a.duration - 1e-9).map { abs($0 - 1) < 0.001 } == true)
    #expect(a.progress(at: a.duration) == 1)
}

@Test func aSpringThatNeverSettlesIsLintedAndCutAt60Seconds() throws {
    // bounce −0.99: ζ = 100, still 2 % short of its end after 60 s.
    let loaded = try PresetLoader.decode(
        bytes: Array(
            """
            { "version": 1, "name": "s", "canvas": { "width": 10, "height": 10 },
              "layers": [ { "type": "circle", "center": [5, 5], "radius": 2, "fill": "red",
                "animations": [ { "keyPath": "scale", "fromValue": 1, "toValue": 2,
                                  "timingFunction": "spring(duration: 0.5, bounce: -0.99)",
                                  "style": "swiftUI", "repeatCount": "infinity" } ] } ] }
            """.utf8), file: "s.json")
    #expect(loaded.composition.layers[0].animations[0].duration == 60)
    let lint = loaded.warnings.first { $0.lint == "spring-unsettled" }
    #expect(lint?.path == "$.layers[0].animations[0].timingFunction")
    #expect(lint?.message.contains("after 60 s (damping ratio 100)") == true)
}

/// `settlingDuration` stops its 1 ms scan early once a bound says nothing later is outside; it
/// must return exactly what the whole 60 s scan returns, for every kind of spring: under-, over-
/// and critically damped, with initial velocities of both signs, undamped (never settles) and
/// overdamped beyond 60 s.
@Test func settlingDurationEqualsTheFullScan() {
    func fullScan(_ spring: Spring, epsilon: Double = 0.001) -> Double {
        let step = 0.001
        var lastOutside = 0.0
        var t = step
        while t <= Spring.settlingLimit {
            if abs(1 - spring.value(at: t)) >= epsilon { lastOutside = t }
            t += step
        }
        var lo = lastOutside
        var hi = min(lastOutside + step, Spring.settlingLimit)
        while hi - lo > 1e-6 {
            let mid = (lo + hi) / 2
            if abs(1 - spring.value(at: mid)) >= epsilon { lo = mid } else { hi = mid }
        }
        return hi
    }
    var springs: [Spring] = [
        Spring(response: 0.5, dampingFraction: 0.825), Spring(response: 0.55, dampingFraction: 1),
        Spring(duration: 0.5, bounce: 0.3), Spring(duration: 0.4, bounce: -0.5), Spring(duration: 1, bounce: -0.99),
        Spring(stiffness: 100, damping: 0), Spring(stiffness: 170, damping: 26, initialVelocity: 40),
        Spring(stiffness: 170, damping: 26, initialVelocity: -40), Spring(stiffness: 1, damping: 0.05),
    ]
    for (zeta, v0) in [(0.1, 0.0), (0.5, 5.0), (0.99, -3.0), (1.0, 30.0), (1.5, -10.0), (3.0, 50.0)] {
        for overdamping in [false, true] {
            let omega = 2 * Double.pi / 0.6
            springs.append(
                Spring(
                    stiffness: omega * omega, damping: 2 * zeta * omega, initialVelocity: v0,
                    allowsOverdamping: overdamping))
        }
    }
    for spring in springs {
        #expect(spring.settlingDuration() == fullScan(spring), "\(spring)")
        #expect(spring.settlingDuration(epsilon: 0.01) == fullScan(spring, epsilon: 0.01), "\(spring)")
    }
    // The cases the early stop must not cut short: undamped and beyond the limit.
    #expect(Spring(stiffness: 100, damping: 0).settlingDuration() > 59.99)
    #expect(Spring(duration: 1, bounce: -0.99).settlingDuration() == Spring.settlingLimit)
}
