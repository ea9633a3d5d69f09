// SPDX-License-Identifier: GPL-3.0-or-later

public import Spec

extension Animation {
    /// Length of one repeat cycle in the animation's local time (seconds): `duration`, or
    /// `2 · duration` with `autoreverses` (Core Animation: one cycle is forward and back,
    /// semantics §4.3).
    public var cycleLength: Double { autoreverses ? 2 * duration : duration }

    /// Total active time in local seconds: `repeatDuration`, or `repeatCount · cycleLength`;
    /// `.infinity` when the animation repeats forever.
    public var activeDuration: Double {
        if let repeatDuration { return repeatDuration }
        return repeatCount.isInfinite ? .infinity : repeatCount * cycleLength
    }

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
        return timingFunction.progress(u)
    }
}
