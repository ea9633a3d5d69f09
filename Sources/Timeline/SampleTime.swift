// SPDX-License-Identifier: GPL-3.0-or-later

public import Spec

/// An instant on the composition's clock: the exact fraction when one is known, and the double
/// nearest it.
///
/// `LoopPlan.sampleTime(ofFrame:)` gives frame `i` of `N` as the exact `start + i·P/N`, so a
/// frame meant to land on a boundary (a discrete keyframe's key time, a timer tick, the instant
/// a label reads 10 %) lands on it, not one ulp before. The evaluator keeps the fraction through
/// every step that is exact in rationals (replicator lags, CAMediaTiming's local time and cycle,
/// linear progress, linear keyframes of numbers, state events) and converts to seconds only where
/// a curve needs a double (Bézier solving, springs, paths).
public struct SampleTime: Equatable, Sendable {
    /// Seconds; `exact.doubleValue` when `exact` is set.
    public var seconds: Double
    /// The exact time in seconds, or nil when it is not representable in 64-bit fractions.
    public var exact: Rational?

    /// The time `seconds`, taken to mean its shortest decimal spelling (0.3 is 3/10).
    public init(_ seconds: Double) {
        self.seconds = seconds
        self.exact = Rational(decimal: seconds)
    }

    /// The exact time `exact` seconds.
    public init(exact: Rational) {
        self.seconds = exact.doubleValue
        self.exact = exact
    }

    /// `self − count · offset` seconds, exact when both are (a replicator's copy `count` lags
    /// `count · instanceDelay`).
    public func minus(_ offset: Double, times count: Int = 1) -> SampleTime {
        if let e = exact, let o = Rational(decimal: offset), let k = o.multiplied(by: Rational(Int64(count))),
            let r = e.subtracting(k)
        {
            return SampleTime(exact: r)
        }
        return SampleTime(inexact: seconds - Double(count) * offset)
    }

    /// A time known only as a double.
    init(inexact seconds: Double) {
        self.seconds = seconds
        self.exact = nil
    }
}

extension LoopPlan {
    /// Frame `index` (0-based) as an exact instant on the composition's clock:
    /// `start + j · clockPeriod / frameCount` in fractions, where `j` is `index` rotated by
    /// `posterOffset`, with `start` and `clockPeriod` read as the decimals they print as (a
    /// computed period is a whole number of milliseconds). Falls back to the double formula when a
    /// fraction would overflow.
    public func sampleTime(ofFrame index: Int) -> SampleTime {
        // `--poster` rotates the loop: frame `index` of the file is loop frame `j`.
        let offset = posterOffset
        let j = offset == 0 ? index : (index % frameCount + offset) % frameCount
        let period = clockPeriod
        if let p = Rational(decimal: period), let s = Rational(decimal: start),
            let step = p.divided(by: Rational(Int64(frameCount))),
            let offset = step.multiplied(by: Rational(Int64(j))),
            let t = s.adding(offset)
        {
            return SampleTime(exact: t)
        }
        return SampleTime(inexact: start + Double(j) * period / Double(frameCount))
    }

    /// All frame instants in order (see `sampleTime(ofFrame:)`).
    public var sampleTimes: [SampleTime] { (0..<frameCount).map(sampleTime(ofFrame:)) }
}

extension Animation {
    /// The exact eased progress at `t` (the same rules as `progress(at:)`: CAMediaTiming, or
    /// SwiftUI's legs): `.inactive` where `progress(at:)` is nil, `.notExact` when the timing
    /// function is not linear, a timing field is not a short decimal, or a fraction overflows.
    public func exactProgress(at t: Rational) -> ExactProgress {
        guard let p = exactProgressValue(at: t) else { return .notExact }
        return p.map(ExactProgress.progress) ?? .inactive
    }

    /// nil: not exact; .some(nil): inactive; .some(p): progress p.
    private func exactProgressValue(at t: Rational) -> Rational?? {
        guard timingFunction.isLinear, let begin = Rational(decimal: beginTime),
            let speedR = Rational(decimal: speed), let durationR = Rational(decimal: duration),
            durationR > .zero, let elapsed = t.subtracting(begin), let local = elapsed.multiplied(by: speedR)
        else { return nil }
        let activeR: Rational? = activeDuration.isInfinite ? nil : Rational(decimal: activeDuration)
        if !activeDuration.isInfinite && activeR == nil { return nil }
        if style == .swiftUI {
            guard local > .zero else { return .some(.zero) }
            if let activeR, !(local < activeR) { return .some(.one) }
            guard let delayR = Rational(decimal: delay), let legR = Rational(decimal: legLength),
                let legIndex = local.divided(by: legR)?.floor,
                let legStart = legR.multiplied(by: Rational(legIndex)), let within = local.subtracting(legStart)
            else { return nil }
            var u = Rational.zero
            if within > delayR {
                guard let moved = within.subtracting(delayR)?.divided(by: durationR) else { return nil }
                u = min(moved, .one)
            }
            let reversed = autoreverses && legIndex % 2 != 0
            guard reversed else { return .some(u) }
            return Rational.one.subtracting(u).map { .some($0) }
        }
        guard let cycleR = Rational(decimal: cycleLength) else { return nil }
        var cycleTime: Rational
        if local < .zero {
            guard fillMode == .backwards || fillMode == .both else { return .some(nil) }
            cycleTime = .zero
        } else if let activeR, !(local < activeR) {
            guard fillMode == .forwards || fillMode == .both else { return .some(nil) }
            guard let cycles = activeR.divided(by: cycleR) else { return nil }
            // Whole cycles before the last (possibly partial) one: ceil(active / cycle) − 1.
            let ceil = cycles.denominator == 1 ? cycles.numerator : cycles.floor + 1
            guard let before = cycleR.multiplied(by: Rational(max(ceil - 1, 0))),
                let end = activeR.subtracting(before)
            else { return nil }
            cycleTime = end
        } else {
            guard let r = local.floorRemainder(cycleR) else { return nil }
            cycleTime = r
        }
        var simple = cycleTime
        if autoreverses && cycleTime > durationR {
            guard let twice = durationR.multiplied(by: Rational(2)), let back = twice.subtracting(cycleTime) else {
                return nil
            }
            simple = back
        }
        guard let u = simple.divided(by: durationR) else { return nil }
        return .some(min(max(u, .zero), .one))
    }
}

/// What `Animation.exactProgress(at:)` found.
public enum ExactProgress: Equatable, Sendable {
    /// Not active and not filling: the animation changes nothing.
    case inactive
    /// The exact eased progress.
    case progress(Rational)
    /// No exact answer; use `progress(at:)`.
    case notExact
}

extension Keyframes {
    /// The value at exact progress `p` where it can be found exactly: in `discrete` mode the
    /// value whose key-time interval holds `p` (any value type); in `linear`/`paced` mode a
    /// number on a segment with a linear timing function, with `number` the exact fraction.
    /// Nil otherwise (the caller uses `value(at:duration:)`). Key times and numbers are read as
    /// the decimals they print as.
    public func exactValue(at p: Rational) -> (value: AnimatableValue, number: Rational?)? {
        guard calculationMode == .linear || calculationMode == .discrete || calculationMode == .paced else {
            return nil
        }
        var times: [Rational] = []
        for k in keyTimes {
            guard let r = Rational(decimal: k) else { return nil }
            times.append(r)
        }
        guard let first = times.first, let lastTime = times.last, !values.isEmpty else { return nil }
        // The largest i with times[i] ≤ p, limited to the last segment start.
        var i = 0
        for k in 1..<max(times.count - 1, 1) where times[k] <= p { i = k }
        func exact(_ k: Int) -> (value: AnimatableValue, number: Rational?) {
            let v = values[min(max(k, 0), values.count - 1)]
            if case .number(let x) = v { return (v, Rational(decimal: x)) }
            return (v, nil)
        }
        if calculationMode == .discrete { return exact(i) }
        if p <= first { return exact(0) }
        if p >= lastTime { return exact(values.count - 1) }
        guard i + 1 < times.count, i + 1 < values.count, case .number = values[i],
            let a = exact(i).number, let b = exact(i + 1).number
        else { return nil }
        let t0 = times[i]
        let t1 = times[i + 1]
        guard t0 < t1 else { return exact(i + 1) }
        if i < timingFunctions.count, !timingFunctions[i].isLinear { return nil }
        guard let span = t1.subtracting(t0), let into = p.subtracting(t0), let s = into.divided(by: span),
            let delta = b.subtracting(a), let moved = delta.multiplied(by: s), let value = a.adding(moved)
        else { return nil }
        return (.number(value.doubleValue), value)
    }
}
