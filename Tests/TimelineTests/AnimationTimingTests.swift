import Spec
import Testing

@testable import Timeline

private func number(_ a: Animation, at t: Double, from: Double = 0, to: Double = 1) -> Double? {
    guard let p = a.progress(at: t) else { return nil }
    return from + (to - from) * p
}

private func basic(
    duration: Double = 1, repeatCount: Double = .infinity, autoreverses: Bool = false,
    beginTime: Double = 0, speed: Double = 1, timing: TimingFunction = .linear,
    fill: FillMode = .removed, repeatDuration: Double? = nil
) -> Animation {
    Animation(
        content: .basic(property: .opacity, from: .number(0), to: .number(1)), beginTime: beginTime,
        duration: duration, repeatCount: repeatCount, repeatDuration: repeatDuration,
        autoreverses: autoreverses, speed: speed, timingFunction: timing, fillMode: fill)
}

@Test func forwardPassesRepeat() {
    let a = basic(duration: 2)
    #expect(a.progress(at: 0) == 0)
    #expect(a.progress(at: 0.5) == 0.25)
    #expect(a.progress(at: 2) == 0)  // a new pass starts
    #expect(a.progress(at: 5) == 0.5)
}

@Test func coreAnimationAutoreverseRewindsTime() {
    // semantics §4.3: easeIn, a quarter of the way into the reverse half → e(0.75) = 0.6219
    // (SwiftUI's 1 − e(0.25) would be 0.9065).
    let a = basic(duration: 1, autoreverses: true, timing: .easeIn)
    let p = a.progress(at: 1.25)
    #expect(p != nil)
    #expect(abs((p ?? 0) - 0.6219) < 0.00005)
    #expect(a.cycleLength == 2)
    #expect(a.progress(at: 1) == 1)
    #expect(a.progress(at: 2) == 0)
}

@Test func repeatCountOneWithAutoreverseLastsTwoDurations() {
    let a = basic(duration: 1, repeatCount: 1, autoreverses: true)
    #expect(a.activeDuration == 2)
    #expect(a.progress(at: 1.5) == 0.5)
    #expect(a.progress(at: 2.0) == nil)  // removed: the model value shows
}

@Test func fillModesHoldEnds() {
    let forwards = basic(duration: 1, repeatCount: 1.5, fill: .forwards)
    #expect(forwards.progress(at: 10) == 0.5)  // ended mid-pass
    let whole = basic(duration: 1, repeatCount: 2, fill: .both)
    #expect(whole.progress(at: 10) == 1)  // a whole number of passes ends at the end
    let late = basic(duration: 1, beginTime: 3, fill: .backwards)
    #expect(late.progress(at: 1) == 0)
    #expect(basic(duration: 1, beginTime: 3).progress(at: 1) == nil)
}

@Test func speedAndBeginTimeShiftLocalTime() {
    let a = basic(duration: 2, beginTime: 1, speed: 2)
    // local = (t − 1)·2; at t = 1.5 that is 1 s of a 2 s pass.
    #expect(a.progress(at: 1.5) == 0.5)
    #expect(a.period == 1)
}

@Test func repeatDurationEndsTheAnimation() {
    let a = basic(duration: 1.5, repeatCount: 1, repeatDuration: 5)
    #expect(a.activeDuration == 5)
    #expect(abs((a.progress(at: 4.5) ?? -1) - 0) < 1e-12)  // 3 passes done
    #expect(a.progress(at: 5.1) == nil)
}

@Test func discreteKeyframesHoldEachValue() {
    let k = Keyframes(
        values: [.number(10), .number(20), .number(30)], keyTimes: [0, 0.5, 0.75, 1],
        timingFunctions: [], calculationMode: .discrete)
    #expect(k.value(at: 0) == .number(10))
    #expect(k.value(at: 0.49) == .number(10))
    #expect(k.value(at: 0.5) == .number(20))
    #expect(k.value(at: 0.8) == .number(30))
    #expect(k.value(at: 1) == .number(30))
}

@Test func linearKeyframesEaseEachSegment() {
    let k = Keyframes(
        values: [.number(0), .number(1), .number(1)], keyTimes: [0, 0.5, 1],
        timingFunctions: [.easeOut, .linear], calculationMode: .linear)
    guard case .number(let v) = k.value(at: 0.25) else {
        Issue.record("not a number")
        return
    }
    #expect(abs(v - 0.6846) < 0.00005)  // easeOut(0.5)
    #expect(k.value(at: 0.75) == .number(1))
}

@Test func groupChildrenAreClippedNotScaled() {
    // semantics §4.4: a 10 s child in a 5 s group shows only its first 5 s.
    let child = Animation(
        content: .basic(property: .opacity, from: .number(0), to: .number(1)), duration: 10)
    let group = Animation(content: .group([child]), duration: 5, repeatCount: .infinity)
    var state = LayerState(shape: .circle(center: .init(x: 0, y: 0), radius: 1))
    AnimationEvaluator.apply(group, at: 4, to: &state)
    #expect(abs(state.opacity - 0.4) < 1e-12)
    AnimationEvaluator.apply(group, at: 6, to: &state)  // second group pass, child at 1 s
    #expect(abs(state.opacity - 0.1) < 1e-12)
}

@Test func colorsInterpolatePerChannel() {
    let a = AnimatableValue.color(RGBAColor(red: 0, green: 0.5, blue: 1, alpha: 1))
    let b = AnimatableValue.color(RGBAColor(red: 1, green: 0.5, blue: 0, alpha: 0))
    #expect(a.interpolated(to: b, fraction: 0.25) == .color(RGBAColor(red: 0.25, green: 0.5, blue: 0.75, alpha: 0.75)))
}
