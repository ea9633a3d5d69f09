import Spec
import Testing

@testable import Timeline

private func swiftUI(
    duration: Double = 1, repeatCount: Double = .infinity, autoreverses: Bool = true, delay: Double = 0,
    beginTime: Double = 0, timing: TimingFunction = .linear
) -> Animation {
    Animation(
        content: .basic(property: .opacity, from: .number(0), to: .number(1)), beginTime: beginTime,
        duration: duration, repeatCount: repeatCount, autoreverses: autoreverses, timingFunction: timing,
        style: .swiftUI, delay: delay)
}

@Test func reversedLegPlaysTheCurveForwardTowardFrom() {
    // semantics §4.3: easeIn a quarter into the reverse leg → SwiftUI 1 − e(0.25) = 0.9065
    // (Core Animation would give e(0.75) = 0.6219).
    let a = swiftUI(timing: .easeIn)
    let p = a.progress(at: 1.25) ?? -1
    #expect(abs(p - 0.9065) < 0.00005)
}

@Test func repeatCountCountsLegs() {
    // semantics §3.1: n = 2 with autoreverse is forward, back, stop; then "to" shows (a jump).
    let a = swiftUI(repeatCount: 2)
    #expect(a.activeDuration == 2)
    #expect(a.progress(at: 1.5) == 0.5)
    #expect(a.progress(at: 1.999)! < 0.01)
    #expect(a.progress(at: 2.5) == 1)
    // n = 3: forward, back, forward.
    let b = swiftUI(repeatCount: 3)
    #expect(b.progress(at: 2.5) == 0.5)
    #expect(b.progress(at: 3.5) == 1)
}

@Test func delayInsideRepeatHoldsEveryLeg() {
    // semantics §3.4: .easeInOut(1.3).delay(0.1).repeatForever(autoreverses: true): period 2.8 s;
    // during a reversed leg's delay the output holds at "to".
    let a = swiftUI(duration: 1.3, delay: 0.1, timing: .easeInOut)
    #expect(abs(a.cycleLength - 2.8) < 1e-12)
    #expect(a.progress(at: 0.05) == 0)
    #expect(abs((a.progress(at: 0.75) ?? 0) - 0.5) < 1e-9)
    #expect(a.progress(at: 1.45) == 1)  // reverse leg, still in its delay
    #expect(abs((a.progress(at: 2.15) ?? 0) - 0.5) < 1e-9)
}

@Test func beforeBeginTimeShowsFrom() {
    let a = swiftUI(autoreverses: false, beginTime: 1)
    #expect(a.progress(at: 0.5) == 0)
    #expect(a.progress(at: 1.5) == 0.5)
}
