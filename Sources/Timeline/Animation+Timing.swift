// SPDX-License-Identifier: GPL-3.0-or-later

public import Spec

extension Animation {
    /// Whether the animation never ends.
    public var repeatsForever: Bool { activeDuration.isInfinite }

    /// Length of one repeat cycle in the parent's time (seconds): `cycleLength / speed`.
    public var period: Double { cycleLength / speed }

    /// When the animation stops being active, in the parent's time (seconds); `.infinity` when
    /// it repeats forever.
    public var endTime: Double { beginTime + activeDuration / speed }

    /// Progress through the current pass at parent time `t`, following CAMediaTiming:
    ///
    /// 1. local time `l = (t − beginTime) · speed`;
    /// 2. before 0 or after `activeDuration` the animation is inactive (`nil`) unless `fillMode`
    ///    holds its first (`backwards`) or last (`forwards`) value;
    /// 3. the time within the cycle, `l mod cycleLength`; with `autoreverses` the second half is
    ///    reflected in time, so the reverse half plays `e(1 − u)`, an exact rewind (Core Animation
    ///    rule; SwiftUI's `1 − e(u)` differs for asymmetric curves, semantics §4.3);
    /// 4. the elapsed fraction `u` of the pass goes through `timingFunction`.
    ///
    /// - Parameter t: parent time in seconds.
    /// - Returns: the eased progress (usually 0…1), or `nil` when the animation is not active
    ///   and does not fill at `t`.
    public func progress(at t: Double) -> Double? {
        if style == .swiftUI { return swiftUIProgress(at: t) }
        var local = (t - beginTime) * speed
        let active = activeDuration
        let cycle = cycleLength
        var cycleTime: Double
        if local < 0 {
            guard fillMode == .backwards || fillMode == .both else { return nil }
            local = 0
            cycleTime = 0
        } else if local >= active {
            guard fillMode == .forwards || fillMode == .both else { return nil }
            // The state at the very end of the last (possibly partial) cycle: a whole number of
            // cycles ends at the cycle's end, not at its start.
            let whole = (active / cycle).rounded(.up) - 1
            cycleTime = active - max(whole, 0) * cycle
        } else {
            cycleTime = local.truncatingRemainder(dividingBy: cycle)
        }
        var simple = cycleTime
        if autoreverses && cycleTime > duration {
            simple = 2 * duration - cycleTime
        }
        let u = min(max(simple / duration, 0), 1)
        return timingFunction.progress(u, duration: duration)
    }

    /// SwiftUI's repeat rules (semantics §3): leg k starts at `k · legLength`, holds for `delay`,
    /// then moves for `duration`; reversed legs (odd k with `autoreverses`) give `1 − e(u)`.
    /// Before `beginTime` the "from" value shows (0), after the last leg the "to" value (1).
    func swiftUIProgress(at t: Double) -> Double {
        let local = (t - beginTime) * speed
        guard local > 0 else { return 0 }
        guard local < activeDuration else { return 1 }
        let leg = (local / legLength).rounded(.down)
        let within = local - leg * legLength
        let u = within <= delay ? 0 : min((within - delay) / duration, 1)
        let eased = timingFunction.progress(u, duration: duration)
        // Parity compared as a Double: `Int(_:)` of a leg index past 2^63 (or NaN) would trap.
        let reversed = autoreverses && leg.truncatingRemainder(dividingBy: 2) == 1
        return reversed ? 1 - eased : eased
    }
}
