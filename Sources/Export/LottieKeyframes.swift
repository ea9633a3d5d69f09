// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Spec
import Timeline

/// A cubic timing curve from (0, 0) to (1, 1) with control points (x1, y1) and (x2, y2):
/// CAMediaTimingFunction's control points, and a Lottie keyframe's easing (Lottie 1.0,
/// Keyframe: the out handle `o` = (x1, y1) of a keyframe and the in handle `i` = (x2, y2) it
/// carries for the way to the next one). x1 and x2 lie in 0…1, so x is monotonic.
struct LottieCurve: Equatable {
    var x1: Double
    var y1: Double
    var x2: Double
    var y2: Double

    /// (0, 0, 1, 1): progress equals elapsed time.
    static let linear = LottieCurve(x1: 0, y1: 0, x2: 1, y2: 1)

    /// The curve of a Bézier timing function; nil for a spring (which follows seconds, not a
    /// fraction of the pass, and has no Bézier form).
    init?(_ function: TimingFunction) {
        guard case .cubicBezier(let x1, let y1, let x2, let y2) = function else { return nil }
        self.init(x1: x1, y1: y1, x2: x2, y2: y2)
    }

    init(x1: Double, y1: Double, x2: Double, y2: Double) {
        self.x1 = x1
        self.y1 = y1
        self.x2 = x2
        self.y2 = y2
    }

    private func coordinate(_ s: Double, _ c1: Double, _ c2: Double) -> Double {
        let m = 1 - s
        return 3 * m * m * s * c1 + 3 * m * s * s * c2 + s * s * s
    }

    /// The curve parameter s with x(s) = u, by bisection to 2⁻⁵⁰.
    private func parameter(atX u: Double) -> Double {
        if u <= 0 { return 0 }
        if u >= 1 { return 1 }
        var lo = 0.0
        var hi = 1.0
        for _ in 0..<50 {
            let mid = (lo + hi) / 2
            if coordinate(mid, x1, x2) < u { lo = mid } else { hi = mid }
        }
        return (lo + hi) / 2
    }

    /// Progress (y) at the elapsed fraction `u` (x), 0…1.
    func progress(_ u: Double) -> Double {
        if self == .linear { return u }
        return coordinate(parameter(atX: u), y1, y2)
    }

    /// The same motion played backwards in time (Core Animation's `autoreverses` half, whose
    /// progress is e(1 − u)), as a curve from its own start: the curve turned 180° about
    /// (½, ½).
    var reversed: LottieCurve { LottieCurve(x1: 1 - x2, y1: 1 - y2, x2: 1 - x1, y2: 1 - y1) }

    /// The piece of the curve over elapsed fractions `u0`…`u1` rescaled to the unit square (a
    /// piece of a cubic Bézier is a cubic Bézier: its control points are the blossom values
    /// B(s0,s0,s0), B(s0,s0,s1), B(s0,s1,s1), B(s1,s1,s1)); nil when the progress is the same at
    /// both ends.
    func part(_ u0: Double, _ u1: Double) -> LottieCurve? {
        if u0 <= 0 && u1 >= 1 { return self }
        let s0 = parameter(atX: u0)
        let s1 = parameter(atX: u1)
        let points = [(0.0, 0.0), (x1, y1), (x2, y2), (1.0, 1.0)]
        func lerp(_ p: (Double, Double), _ q: (Double, Double), _ t: Double) -> (Double, Double) {
            (p.0 + (q.0 - p.0) * t, p.1 + (q.1 - p.1) * t)
        }
        func blossom(_ a: Double, _ b: Double, _ c: Double) -> (Double, Double) {
            let l1 = [lerp(points[0], points[1], a), lerp(points[1], points[2], a), lerp(points[2], points[3], a)]
            let l2 = [lerp(l1[0], l1[1], b), lerp(l1[1], l1[2], b)]
            return lerp(l2[0], l2[1], c)
        }
        let q0 = blossom(s0, s0, s0)
        let q1 = blossom(s0, s0, s1)
        let q2 = blossom(s0, s1, s1)
        let q3 = blossom(s1, s1, s1)
        let dx = q3.0 - q0.0
        let dy = q3.1 - q0.1
        guard dx > 1e-12, abs(dy) > 1e-12 else { return nil }
        return LottieCurve(
            x1: (q1.0 - q0.0) / dx, y1: (q1.1 - q0.1) / dy, x2: (q2.0 - q0.0) / dx, y2: (q2.1 - q0.1) / dy)
    }
}

/// A stretch of time over which one animation's own progress follows one curve (`curve`), or,
/// with `curve` nil, only where something changes (a spring, a paced or cubic keyframe
/// segment, a path, a discrete value): its ends are instants where a value may bend or jump.
struct LottiePiece: Equatable {
    /// Start and end, in seconds of the animation's parent time (later: Lottie frames).
    var start: Double
    var end: Double
    var curve: LottieCurve?
}

/// Where an animation's timing functions take effect on the loop: `LottiePiece`s from
/// CAMediaTiming's passes and repeats, `autoreverses` (the reversed curve), keyframe segments
/// with their `keyTimes` and `timingFunctions`, groups (their children in the group's local
/// time, clipped to its duration), SwiftUI legs (the delay held, reversed legs playing the curve
/// forward towards the "from" value).
enum LottiePieces {
    /// Pieces per leaf beyond which the leaf is baked at every frame instead (an animation
    /// repeating many times in a long loop).
    static let limit = 4096

    /// The pieces of `animation` between parent times `lo` and `hi`, appended to `out`; false
    /// when there are more than `limit`. `progressOnly`: the animation is a state change's
    /// transaction, whose value follows its progress like a basic animation.
    static func collect(
        _ animation: Animation, from lo: Double, to hi: Double, into out: inout [LottiePiece],
        progressOnly: Bool = false
    ) -> Bool {
        let a = animation
        guard a.duration > 0, a.speed > 0, a.duration.isFinite, a.speed.isFinite, lo < hi else { return true }
        let begin = a.beginTime
        let end = a.endTime
        var local: [LottiePiece] = [LottiePiece(start: begin, end: begin, curve: nil)]
        if end.isFinite { local.append(LottiePiece(start: end, end: end, curve: nil)) }
        if a.style == .swiftUI {
            let leg = a.legLength / a.speed
            guard leg > 0 else { return true }
            var k = max(0, ((lo - begin) / leg).rounded(.down))
            while begin + k * leg <= hi, begin + k * leg < end {
                let ls = begin + k * leg
                let moveStart = ls + a.delay / a.speed
                if a.delay > 0 { local.append(LottiePiece(start: ls, end: moveStart, curve: nil)) }
                var curve: LottieCurve?
                if case .basic = a.content { curve = LottieCurve(a.timingFunction) }
                if progressOnly { curve = LottieCurve(a.timingFunction) }
                local.append(LottiePiece(start: moveStart, end: ls + leg, curve: curve))
                k += 1
                if local.count > limit { return false }
            }
        } else {
            let cycle = a.cycleLength / a.speed
            let pass = a.duration / a.speed
            var k = max(0, ((lo - begin) / cycle).rounded(.down))
            while begin + k * cycle <= hi, begin + k * cycle < end {
                let cs = begin + k * cycle
                guard
                    let forward = progressOnly
                        ? [LottiePiece(start: cs, end: cs + pass, curve: LottieCurve(a.timingFunction))]
                        : passPieces(a, from: cs, to: cs + pass)
                else { return false }
                local += forward
                if a.autoreverses {
                    let mirror = 2 * (cs + pass)
                    local += forward.reversed().map {
                        LottiePiece(start: mirror - $0.end, end: mirror - $0.start, curve: $0.curve?.reversed)
                    }
                }
                k += 1
                if local.count > limit { return false }
            }
        }
        for piece in local where piece.start <= end {
            out.append(clipped(piece, from: -.infinity, to: end))
        }
        return out.count <= limit
    }

    /// The pieces of a state machine's changes between `lo` and `hi` (seconds): each change's
    /// instant, and its transaction's curve from there (`StateEvaluator`: a change under a
    /// curve animates its delta from its own start; SwiftUI legs). Past the first steady loop
    /// the schedule repeats every period (`StateSchedule.loopStart`, `period`), so the changes
    /// of that loop are repeated up to `hi`. Nil past `limit`.
    static func state(_ machine: StateMachine, from lo: Double, to hi: Double) -> [LottiePiece]? {
        let schedule = machine.schedule
        let loopStart = schedule.loopStart.doubleValue
        let period = schedule.period?.doubleValue ?? 0
        let steadyEnd = period > 0 ? loopStart + period : max(hi, loopStart)
        var base: [LottiePiece] = []
        for change in schedule.changes {
            let tau = change.time.doubleValue
            base.append(LottiePiece(start: tau, end: tau, curve: nil))
            guard change.event < machine.events.count,
                case .curve(let animation) = machine.events[change.event].transaction
            else { continue }
            var own: [LottiePiece] = []
            guard collect(animation, from: 0, to: steadyEnd - tau, into: &own, progressOnly: true) else { return nil }
            base += own.map { LottiePiece(start: $0.start + tau, end: $0.end + tau, curve: $0.curve) }
            if base.count > limit { return nil }
        }
        guard period > 0, hi > steadyEnd else { return base.filter { $0.end >= lo && $0.start <= hi } }
        var out = base.filter { $0.end >= lo && $0.start <= steadyEnd }.map {
            clipped($0, from: -.infinity, to: steadyEnd)
        }
        let first = max(1, ((lo - loopStart) / period).rounded(.down))
        var m = first
        while loopStart + m * period <= hi {
            let shift = m * period
            for piece in base where piece.end >= loopStart && piece.start <= steadyEnd {
                let c = clipped(piece, from: loopStart, to: steadyEnd)
                out.append(LottiePiece(start: c.start + shift, end: c.end + shift, curve: c.curve))
            }
            m += 1
            if out.count > limit { return nil }
        }
        return out
    }

    /// `piece` cut to lo…hi, its curve cut with it.
    static func clipped(_ piece: LottiePiece, from lo: Double, to hi: Double) -> LottiePiece {
        guard piece.start < lo || piece.end > hi else { return piece }
        let start = max(piece.start, lo)
        let end = min(piece.end, hi)
        let length = piece.end - piece.start
        var curve: LottieCurve?
        if let c = piece.curve, length > 0, end > start {
            curve = c.part((start - piece.start) / length, (end - piece.start) / length)
        }
        return LottiePiece(start: start, end: max(start, end), curve: curve)
    }

    /// One forward pass from `start` to `end` (parent seconds); nil past `limit`.
    private static func passPieces(_ a: Animation, from start: Double, to end: Double) -> [LottiePiece]? {
        let length = end - start
        let whole = [LottiePiece(start: start, end: end, curve: nil)]
        guard let eased = LottieCurve(a.timingFunction) else { return whole }
        switch a.content {
        case .basic:
            return [LottiePiece(start: start, end: end, curve: eased)]
        case .keyframes(_, let keyframes):
            // An animation-level curve composed with per-keyframe curves is no single Bézier.
            guard eased == .linear else { return whole }
            let times = keyframes.keyTimes
            guard times.count >= 2 else { return whole }
            var out: [LottiePiece] = []
            for i in 0..<(times.count - 1) {
                let piece = LottiePiece(
                    start: start + times[i] * length, end: start + times[i + 1] * length, curve: nil)
                switch keyframes.calculationMode {
                case .linear:
                    var p = piece
                    p.curve = i < keyframes.timingFunctions.count ? LottieCurve(keyframes.timingFunctions[i]) : .linear
                    out.append(p)
                case .discrete, .cubic:
                    out.append(piece)
                case .paced, .cubicPaced:
                    return whole
                }
            }
            return out
        case .path:
            return whole
        case .group(let children):
            guard eased == .linear else { return whole }
            var inner: [LottiePiece] = []
            for child in children {
                guard collect(child, from: 0, to: a.duration, into: &inner) else { return nil }
            }
            var out = whole
            for piece in inner where piece.end >= 0 && piece.start <= a.duration {
                let c = clipped(piece, from: 0, to: a.duration)
                out.append(
                    LottiePiece(start: start + c.start / a.speed, end: start + c.end / a.speed, curve: c.curve))
            }
            return out
        }
    }
}

/// Writes one property's values, sampled over the loop, as Lottie keyframes: one keyframe per
/// stretch of the loop that a timing curve of the preset (or a straight line, or a constant)
/// reproduces at every sample, with that curve as the keyframe's easing; a stretch nothing
/// reproduces is baked, one linear keyframe per loop frame.
///
/// Samples: every loop frame, every instant where an animation of the leaf (or of an
/// ancestor) starts, ends, repeats, reverses or changes keyframe segment, the instant just
/// before each of those (the left limit, so a jump is seen), and the midpoint between each two
/// neighbouring instants (so a curve is checked between frames too). A candidate curve over
/// the stretch from key instant a to key instant b must give every sample in it within 10⁻⁵ of
/// the value's own size (at least 10⁻⁵). Stretches are grown greedily from each key instant to
/// the farthest one a curve still covers.
struct LottieKeyframer {
    /// Lottie frame of each sample, increasing; the last is the loop's end (left limit).
    var frames: [Double]
    /// Whether sample i is a loop frame (a whole Lottie frame).
    var isFrame: [Bool]
    /// Indices of the key instants among the samples: 0 first, the last sample last; every
    /// other one has its left limit at index − 1.
    var breaks: [Int]
    /// The leaf's pieces, in Lottie frames.
    var pieces: [LottiePiece]
    /// The loop's frame count (`op`).
    var frameCount: Int

    /// One keyframe: time in Lottie frames, value, and the curve to the next (nil on the last).
    struct Key: Equatable {
        var t: Double
        var value: [Double]
        var curve: LottieCurve?
    }

    private func tolerance(_ a: Double, _ b: Double) -> Double { 1e-5 * max(1, abs(a), abs(b)) }

    private func close(_ u: [Double], _ v: [Double]) -> Bool {
        guard u.count == v.count else { return false }
        for c in u.indices where abs(u[c] - v[c]) > tolerance(u[c], v[c]) { return false }
        return true
    }

    private func leftLimit(_ j: Int) -> Int { j == breaks.count - 1 ? breaks[j] : breaks[j] - 1 }

    private func time(ofBreak j: Int) -> Double { j == breaks.count - 1 ? Double(frameCount) : frames[breaks[j]] }

    /// Which samples show the leaf; a value where it is hidden is free (nil: all shown).
    var shown: [Bool]?

    /// The same keyframer with every sample counted (for opacity, 0 where the leaf is hidden).
    var unmasked: LottieKeyframer {
        var copy = self
        copy.shown = nil
        return copy
    }

    private func isShown(_ s: Int) -> Bool { shown.map { $0[s] } ?? true }

    /// One stretch of keyframes: from key instant `i` to key instant `j`, either one curve
    /// from `va` to `vb`, or baked keys.
    private struct Stretch {
        var i: Int
        var j: Int
        var curve: LottieCurve?
        var va: [Double]
        var vb: [Double]
        var baked: [Key] = []
    }

    /// The curve that carries `values` from key instant i to key instant j with its end values
    /// (solved from the first and last shown samples when an end is hidden), or nil.
    private func fit(_ values: [[Double]], _ i: Int, _ j: Int) -> Stretch? {
        let ta = time(ofBreak: i)
        let tb = time(ofBreak: j)
        let first = breaks[i]
        let last = leftLimit(j)
        guard tb > ta, last >= first else { return nil }
        let visible = (first...last).filter(isShown)
        guard let p0 = visible.first, let p1 = visible.last else {
            // Hidden throughout: any value does; keep the one before.
            let v = values[first]
            return Stretch(i: i, j: j, curve: .linear, va: v, vb: v)
        }
        func tau(_ s: Int) -> Double { s == last && j == breaks.count - 1 ? 1 : (frames[s] - ta) / (tb - ta) }
        func attempt(_ curve: LottieCurve?) -> Stretch? {
            func y(_ s: Int) -> Double { curve.map { s == first ? 0 : $0.progress(tau(s)) } ?? 0 }
            let v0 = values[p0]
            let v1 = values[p1]
            var va = v0
            var vb = v0
            if curve != nil {
                let y0 = y(p0)
                let y1 = y(p1)
                guard abs(y1 - y0) > 1e-9, v0.count == v1.count else { return nil }
                va = v0.indices.map { c in v0[c] - (v1[c] - v0[c]) / (y1 - y0) * y0 }
                vb = v0.indices.map { c in va[c] + (v1[c] - v0[c]) / (y1 - y0) }
            }
            for s in visible {
                let v = values[s]
                guard v.count == va.count else { return nil }
                let ys = y(s)
                for c in v.indices {
                    let expected = va[c] + (vb[c] - va[c]) * ys
                    if abs(v[c] - expected) > tolerance(va[c], vb[c]) { return nil }
                }
            }
            return Stretch(i: i, j: j, curve: curve ?? .linear, va: va, vb: vb)
        }
        if let still = attempt(nil) { return still }
        var candidates: [LottieCurve] = []
        for piece in pieces where piece.curve != nil && piece.start <= ta + 1e-9 && piece.end >= tb - 1e-9 {
            let length = piece.end - piece.start
            guard length > 0, let c = piece.curve?.part((ta - piece.start) / length, (tb - piece.start) / length),
                !candidates.contains(c)
            else { continue }
            candidates.append(c)
        }
        if !candidates.contains(.linear) { candidates.append(.linear) }
        for c in candidates {
            if let found = attempt(c) { return found }
        }
        return nil
    }

    /// The keyframes of `values` (one vector per sample); the last keyframe is at `frameCount`.
    func keys(_ values: [[Double]]) -> [Key] {
        var stretches: [Stretch] = []
        var i = 0
        let lastBreak = breaks.count - 1
        while i < lastBreak {
            // The farthest key instant a single curve reaches from i (fits are monotonic: a curve
            // that covers a stretch covers every part of it).
            var best = fit(values, i, i + 1)
            if best != nil, i + 1 < lastBreak {
                if let whole = fit(values, i, lastBreak) {
                    best = whole
                } else {
                    var lo = i + 1
                    var hi = lastBreak
                    while hi - lo > 1 {
                        let mid = (lo + hi) / 2
                        if let found = fit(values, i, mid) {
                            best = found
                            lo = mid
                        } else {
                            hi = mid
                        }
                    }
                }
            }
            if let best {
                stretches.append(best)
                i = best.j
                continue
            }
            // Baked: the shown loop frames inside the stretch (and its start), linear.
            var baked: [Key] = []
            for s in breaks[i]..<max(breaks[i] + 1, leftLimit(i + 1)) where (s == breaks[i] || isFrame[s]) && isShown(s)
            {
                baked.append(Key(t: s == breaks[i] ? time(ofBreak: i) : frames[s], value: values[s], curve: .linear))
            }
            let end = isShown(leftLimit(i + 1)) ? values[leftLimit(i + 1)] : (baked.last?.value ?? values[breaks[i]])
            if baked.isEmpty || baked[0].t != time(ofBreak: i) {
                baked.insert(Key(t: time(ofBreak: i), value: baked.first?.value ?? end, curve: .linear), at: 0)
            }
            stretches.append(Stretch(i: i, j: i + 1, curve: nil, va: baked[0].value, vb: end, baked: baked))
            i += 1
        }
        var keys: [Key] = []
        for (n, stretch) in stretches.enumerated() {
            if stretch.curve == nil {
                keys += stretch.baked
            } else {
                keys.append(Key(t: time(ofBreak: stretch.i), value: stretch.va, curve: stretch.curve))
            }
            if n + 1 < stretches.count, !close(stretch.vb, stretches[n + 1].va) {
                // A jump at the next key instant: this stretch ends a thousandth of a frame early
                // on its own end value, and a straight keyframe leads to the new value.
                let tb = time(ofBreak: stretch.j)
                let room = tb - (keys.last?.t ?? 0)
                keys.append(Key(t: tb - min(1e-3, room / 4), value: stretch.vb, curve: .linear))
            }
        }
        keys.append(Key(t: Double(frameCount), value: stretches.last?.vb ?? values[values.count - 1], curve: nil))
        return keys
    }
}
