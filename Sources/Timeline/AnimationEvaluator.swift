// SPDX-License-Identifier: GPL-3.0-or-later

public import Geometry
public import Spec

/// Applies animations to a layer's model values at one instant. Stateless: the result depends
/// only on the animations, the model values and the time.
public enum AnimationEvaluator {
    /// The presentation values of a layer at parent time `t` (seconds): `model` with every active
    /// animation applied in preset order (a later animation on the same key path wins).
    public static func presentation(
        of model: LayerState, animations: [Animation], at t: Double
    ) -> LayerState {
        presentation(of: model, animations: animations, at: SampleTime(t))
    }

    /// `presentation(of:animations:at:)` at an instant that may be exact: progress, linear
    /// keyframes and basic animations of numbers, and discrete keyframe choices are computed in
    /// fractions when they can be (see `SampleTime`).
    public static func presentation(
        of model: LayerState, animations: [Animation], at t: SampleTime
    ) -> LayerState {
        var state = model
        for animation in animations {
            apply(animation, at: t, to: &state)
        }
        return state
    }

    /// Applies one animation at parent time `t` seconds (read as its shortest decimal).
    static func apply(_ animation: Animation, at t: Double, to state: inout LayerState) {
        apply(animation, at: SampleTime(t), to: &state)
    }

    /// Applies one animation (recursing into groups) at parent time `t`.
    static func apply(_ animation: Animation, at t: SampleTime, to state: inout LayerState) {
        var exact: Rational?
        let p: Double
        switch t.exact.map({ animation.exactProgress(at: $0) }) ?? .notExact {
        case .inactive: return
        case .progress(let e):
            exact = e
            p = e.doubleValue
        case .notExact:
            guard let q = animation.progress(at: t.seconds) else { return }
            p = q
        }
        switch animation.content {
        case .basic(let property, let from, let to):
            if let exact, case .number(let a) = from, case .number(let b) = to, let ra = Rational(decimal: a),
                let rb = Rational(decimal: b), let d = rb.subtracting(ra), let m = d.multiplied(by: exact),
                let v = ra.adding(m)
            {
                property.apply(.number(v.doubleValue), to: &state)
                if case .value(let name) = property { state.exactValues[name] = v }
            } else {
                property.apply(from.interpolated(to: to, fraction: p), to: &state)
            }
        case .keyframes(let property, let keyframes):
            if let exact, let found = keyframes.exactValue(at: exact) {
                property.apply(found.value, to: &state)
                if case .value(let name) = property, let number = found.number { state.exactValues[name] = number }
            } else {
                property.apply(keyframes.value(at: p, duration: animation.duration), to: &state)
            }
        case .path(let pathAnimation):
            guard let point = pathAnimation.point(at: p) else { return }
            state.position = point.position
            switch pathAnimation.rotationMode {
            case .auto?: state.pathRotation = point.heading
            case .autoReverse?: state.pathRotation = point.heading + 180
            case nil: break
            }
        case .group(let children):
            // Children run in the group's local time and are clipped, not scaled, to the group's
            // duration (CAAnimationGroup, semantics §4.4).
            let local: SampleTime
            if let exact, let d = Rational(decimal: animation.duration), let l = exact.multiplied(by: d) {
                local = SampleTime(exact: l)
            } else {
                local = SampleTime(inexact: p * animation.duration)
            }
            for child in children {
                apply(child, at: local, to: &state)
            }
        }
    }
}

extension PathAnimation {
    /// Position and heading at progress `p` (0…1) along the path.
    ///
    /// - `paced`, `cubicPaced`: distance proportional to `p` (constant speed by arc length).
    /// - `linear`, `cubic`: each path element (line or curve) gets an equal share of time and is
    ///   crossed at constant speed. Core Animation's exact split here is undocumented
    ///   (semantics §4.6 says prefer paced).
    public func point(at p: Double) -> PathPoint? {
        let measure = PathMeasure(path)
        let p = p.isNaN ? 0 : min(max(p, 0), 1)
        switch calculationMode {
        case .paced, .cubicPaced, .discrete:
            return measure.point(atFraction: p)
        case .linear, .cubic:
            let lengths = measure.segmentLengths
            guard !lengths.isEmpty else { return measure.point(atFraction: p) }
            let scaled = p * Double(lengths.count)
            // p is in 0…1 (NaN mapped to 0 above), so scaled is in 0…count: the conversion is safe.
            let index = min(Int(scaled), lengths.count - 1)
            let before = lengths[0..<index].reduce(0, +)
            return measure.point(atDistance: before + (scaled - Double(index)) * lengths[index])
        }
    }
}

extension Keyframes {
    /// The value at progress `p` (0…1) of a pass lasting `duration` seconds (the duration only
    /// matters for spring segment timing functions).
    ///
    /// - `linear`/`paced`: find the segment with `keyTimes[i] ≤ p < keyTimes[i+1]` (binary
    ///   search), ease the fraction through `timingFunctions[i]`, interpolate `values[i]` →
    ///   `values[i+1]`.
    /// - `cubic`: the same segments on a Catmull-Rom spline through the values (cubic Hermite
    ///   with tangents from the neighbouring keyframes, scaled by key times).
    /// - `cubicPaced`: the cubic spline traversed at constant speed.
    /// - `discrete`: `values[i]` holds from `keyTimes[i]` until `keyTimes[i+1]`.
    ///
    /// Before the first key time the first value shows; from the last key time on, the last.
    public func value(at p: Double, duration: Double = 1) -> AnimatableValue {
        guard let first = values.first, let last = values.last else { return .number(0) }
        switch calculationMode {
        case .discrete:
            // keyTimes has values.count + 1 entries.
            let i = segment(containing: p)
            return values[min(max(i, 0), values.count - 1)]
        case .cubicPaced:
            return pacedSplineValue(at: p)
        case .linear, .paced, .cubic:
            if p <= keyTimes[0] { return first }
            if p >= keyTimes[keyTimes.count - 1] { return last }
            let i = segment(containing: p)
            let t0 = keyTimes[i]
            let t1 = keyTimes[i + 1]
            guard t1 > t0 else { return values[i + 1] }
            let s = (p - t0) / (t1 - t0)
            let eased = i < timingFunctions.count ? timingFunctions[i].progress(s, duration: (t1 - t0) * duration) : s
            if calculationMode == .cubic {
                return splineValue(segment: i, fraction: eased)
            }
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

    /// Catmull-Rom (Kochanek–Bartels with zero tension, continuity and bias) on segment `i` at
    /// fraction `s`, with tangents m_i = (v_{i+1} − v_{i−1}) / (t_{i+1} − t_{i−1}) and one-sided
    /// differences at the ends, scaled to the segment's key-time span.
    func splineValue(segment i: Int, fraction s: Double) -> AnimatableValue {
        let n = values.count
        let t = keyTimes.count == n ? keyTimes : (0..<n).map { Double($0) / Double(max(n - 1, 1)) }
        func components(_ v: AnimatableValue) -> [Double]? {
            switch v {
            case .number(let x): [x]
            case .point(let p): [p.x, p.y]
            case .color(let c): [c.red, c.green, c.blue, c.alpha]
            case .bool: nil
            }
        }
        guard let a = components(values[i]), let b = components(values[i + 1]) else {
            return values[i].interpolated(to: values[i + 1], fraction: s)
        }
        func tangent(_ k: Int) -> [Double] {
            let lo = max(k - 1, 0)
            let hi = min(k + 1, n - 1)
            guard let vl = components(values[lo]), let vh = components(values[hi]), t[hi] > t[lo] else {
                return Array(repeating: 0, count: a.count)
            }
            return zip(vl, vh).map { ($1 - $0) / (t[hi] - t[lo]) }
        }
        let span = t[i + 1] - t[i]
        let m0 = tangent(i).map { $0 * span }
        let m1 = tangent(i + 1).map { $0 * span }
        let s2 = s * s
        let s3 = s2 * s
        let h00 = 2 * s3 - 3 * s2 + 1
        let h10 = s3 - 2 * s2 + s
        let h01 = -2 * s3 + 3 * s2
        let h11 = s3 - s2
        let out = (0..<a.count).map { k in h00 * a[k] + h10 * m0[k] + h01 * b[k] + h11 * m1[k] }
        switch values[i] {
        case .number: return .number(out[0])
        case .point: return .point(Point(x: out[0], y: out[1]))
        case .color: return .color(RGBAColor(red: out[0], green: out[1], blue: out[2], alpha: out[3]))
        case .bool: return values[i]
        }
    }

    /// The spline through the values (keyframes evenly spaced in time) re-timed so distance
    /// grows uniformly: 64 samples per segment give a cumulative length table.
    func pacedSplineValue(at p: Double) -> AnimatableValue {
        let segments = values.count - 1
        guard segments >= 1 else { return values.first ?? .number(0) }
        let steps = 64
        var samples: [(segment: Int, s: Double, length: Double)] = [(0, 0, 0)]
        var previous = splineValue(segment: 0, fraction: 0)
        var total = 0.0
        for i in 0..<segments {
            for k in 1...steps {
                let s = Double(k) / Double(steps)
                let v = splineValue(segment: i, fraction: s)
                total += previous.distance(to: v) ?? 0
                samples.append((i, s, total))
                previous = v
            }
        }
        guard total > 0 else { return values[0] }
        let target = min(max(p, 0), 1) * total
        var lo = 0
        var hi = samples.count - 1
        while hi - lo > 1 {
            let mid = (lo + hi) / 2
            if samples[mid].length <= target { lo = mid } else { hi = mid }
        }
        let a = samples[lo]
        let b = samples[hi]
        let f = b.length > a.length ? (target - a.length) / (b.length - a.length) : 0
        if a.segment == b.segment {
            return splineValue(segment: a.segment, fraction: a.s + (b.s - a.s) * f)
        }
        return splineValue(segment: b.segment, fraction: b.s * f)
    }
}
