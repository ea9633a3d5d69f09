// SPDX-License-Identifier: GPL-3.0-or-later

public import Spec

/// Applies animations to a layer's model values at one instant. Stateless: the result depends
/// only on the animations, the model values and the time.
public enum AnimationEvaluator {
    /// The presentation values of a layer at parent time `t` (seconds): `model` with every active
    /// animation applied in preset order (a later animation on the same key path wins).
    public static func presentation(
        of model: LayerState, animations: [Animation], at t: Double
    ) -> LayerState {
        var state = model
        for animation in animations {
            apply(animation, at: t, to: &state)
        }
        return state
    }

    /// Applies one animation (recursing into groups) at parent time `t`.
    static func apply(_ animation: Animation, at t: Double, to state: inout LayerState) {
        guard let p = animation.progress(at: t) else { return }
        switch animation.content {
        case .basic(let property, let from, let to):
            property.apply(from.interpolated(to: to, fraction: p), to: &state)
        case .keyframes(let property, let keyframes):
            property.apply(keyframes.value(at: p), to: &state)
        case .group(let children):
            // Children run in the group's local time and are clipped, not scaled, to the group's
            // duration (CAAnimationGroup, semantics §4.4).
            let local = p * animation.duration
            for child in children {
                apply(child, at: local, to: &state)
            }
        }
    }
}

extension Keyframes {
    /// The value at progress `p` (0…1) of the pass.
    ///
    /// - `linear`/`paced`: find the segment with `keyTimes[i] ≤ p < keyTimes[i+1]` (binary
    ///   search), ease the fraction through `timingFunctions[i]`, interpolate `values[i]` →
    ///   `values[i+1]`.
    /// - `discrete`: `values[i]` holds from `keyTimes[i]` until `keyTimes[i+1]`.
    ///
    /// Before the first key time the first value shows; from the last key time on, the last.
    public func value(at p: Double) -> AnimatableValue {
        guard let first = values.first, let last = values.last else { return .number(0) }
        switch calculationMode {
        case .discrete:
            // keyTimes has values.count + 1 entries.
            let i = segment(containing: p)
            return values[min(max(i, 0), values.count - 1)]
        case .linear, .paced:
            if p <= keyTimes[0] { return first }
            if p >= keyTimes[keyTimes.count - 1] { return last }
            let i = segment(containing: p)
            let t0 = keyTimes[i]
            let t1 = keyTimes[i + 1]
            guard t1 > t0 else { return values[i + 1] }
            let s = (p - t0) / (t1 - t0)
            let eased = i < timingFunctions.count ? timingFunctions[i].progress(s) : s
            return values[i].interpolated(to: values[i + 1], fraction: eased)
        }
    }

    /// The largest i with keyTimes[i] ≤ p, limited to the last segment start.
    private func segment(containing p: Double) -> Int {
        var lo = 0
        var hi = keyTimes.count - 1
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if keyTimes[mid] <= p { lo = mid } else { hi = mid }
        }
        return lo
    }
}
