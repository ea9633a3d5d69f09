// SPDX-License-Identifier: GPL-3.0-or-later

public import Spec

/// What the screen shows for a property bound to state, under SwiftUI's rules
/// (docs/swiftui-semantics.md):
///
/// - a change without animation jumps;
/// - a change under a timing curve animates its own delta `Δ = new − old` from its own start,
///   and curves that overlap add up: `shown = model(t) − Σ Δ_k·(1 − p_k(t − τ_k))`, so each
///   change starts from the current presentation value;
/// - a change under a spring retargets a spring still running on the property: the offset from
///   the new target and the velocity carry over, and the spring `y″ + c·y′ + k·y = 0` runs on;
/// - `repeatCount` / `repeatForever` / `autoreverses` / `delay` / `speed` follow SwiftUI's legs
///   (semantics §3; `Animation.progress(at:)` in `.swiftUI` style).
///
/// Pure in time: past the first steady loop the time is folded back into it
/// (`StateSchedule.loopStart`, `period`).
public enum StateEvaluator {
    /// The value of `binding` for replicator copy `instance` at `t`.
    /// With `animated` false, the model value alone (for `hidden`, which cannot interpolate).
    public static func value(
        of binding: StateBinding, in machine: StateMachine, instance: Int, at t: SampleTime, animated: Bool = true
    ) -> Double {
        let schedule = machine.schedule
        let time = folded(t, schedule)
        let initial = machine.variables.map(\.initial)
        func model(_ k: Int) -> Double {
            binding.expression.evaluate(k < 0 ? initial : schedule.changes[k].values, instance: instance)
        }
        let last = lastChange(atOrBefore: time, schedule.changes)
        var shown = model(last)
        guard last >= 0, animated else { return shown }
        let longest = schedule.longestFiniteLength
        var springs: [(index: Int, delta: Double, spring: Spring)] = []
        var k = last
        while k >= 0 {
            let change = schedule.changes[k]
            let age = elapsed(time, since: change.time)
            if age > longest, !schedule.hasForever { break }
            let delta = model(k) - model(k - 1)
            if delta != 0 {
                switch machine.events[change.event].transaction {
                case .none:
                    break
                case .curve(let animation):
                    if animation.repeatsForever || age <= animation.activeDuration / animation.speed + 1e-9 {
                        let p = animation.progress(at: age) ?? 1
                        shown -= delta * (1 - p)
                    }
                case .spring(let spring):
                    if age <= longest + 1e-9 { springs.append((k, delta, spring)) }
                }
            }
            k -= 1
        }
        if !springs.isEmpty {
            shown += springOffset(springs.reversed(), schedule.changes, at: time)
        }
        return shown
    }

    /// The spring chain's offset from the model value at `time`: each change moves the target
    /// by Δ (the offset jumps by −Δ, the velocity is kept) and the newest spring carries on.
    static func springOffset(
        _ chain: ReversedCollection<[(index: Int, delta: Double, spring: Spring)]>, _ changes: [ScheduledChange],
        at time: SampleTime
    ) -> Double {
        var y = 0.0
        var v = 0.0
        var current: Spring?
        var clock = 0.0
        for link in chain {
            let start = changes[link.index].time.doubleValue
            if let current {
                (y, v) = advance(current, y: y, v: v, by: start - clock)
            }
            y -= link.delta
            v += link.delta * link.spring.initialVelocity
            current = link.spring
            clock = start
        }
        guard let current else { return 0 }
        return advance(current, y: y, v: v, by: time.seconds - clock).y
    }

    /// Offset and velocity `dt` seconds on for a spring starting at offset `y`, velocity `v`:
    /// `y(t) = y·(1 − x₀(t)) + v·(x₁(t) − x₀(t))`, with x₀, x₁ the spring's unit step responses
    /// for initial velocity 0 and 1 (the equation is linear).
    static func advance(_ spring: Spring, y: Double, v: Double, by dt: Double) -> (y: Double, v: Double) {
        guard dt > 0 else { return (y, v) }
        var s0 = spring
        s0.initialVelocity = 0
        var s1 = spring
        s1.initialVelocity = 1
        func at(_ t: Double) -> Double { y * (1 - s0.value(at: t)) + v * (s1.value(at: t) - s0.value(at: t)) }
        let h = 1e-6
        return (at(dt), (at(dt + h) - at(dt)) / h)
    }

    /// `t` folded into the first steady loop when past it.
    static func folded(_ t: SampleTime, _ s: StateSchedule) -> SampleTime {
        guard let period = s.period else { return t }
        if let e = t.exact, let end = s.loopStart.adding(period) {
            guard !(e < end) else { return t }
            if let into = e.subtracting(s.loopStart), let r = into.floorRemainder(period), let f = s.loopStart.adding(r)
            {
                return SampleTime(exact: f)
            }
        }
        let start = s.loopStart.doubleValue
        let p = period.doubleValue
        guard t.seconds >= start + p else { return t }
        let r = (t.seconds - start).truncatingRemainder(dividingBy: p)
        return SampleTime(inexact: start + r)
    }

    /// Index of the last change at or before `t`, -1 when none.
    static func lastChange(atOrBefore t: SampleTime, _ changes: [ScheduledChange]) -> Int {
        var lo = 0
        var hi = changes.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if isAtOrBefore(changes[mid].time, t) { lo = mid + 1 } else { hi = mid }
        }
        return lo - 1
    }

    static func isAtOrBefore(_ time: Rational, _ t: SampleTime) -> Bool {
        if let e = t.exact { return time <= e }
        return time.doubleValue <= t.seconds
    }

    /// Seconds from `start` to `t`, exact before rounding when `t` is exact.
    static func elapsed(_ t: SampleTime, since start: Rational) -> Double {
        if let e = t.exact, let d = e.subtracting(start) { return d.doubleValue }
        return t.seconds - start.doubleValue
    }
}
