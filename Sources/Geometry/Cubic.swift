// SPDX-License-Identifier: GPL-3.0-or-later

import Glibc

/// A cubic Bézier curve `B(t)`, t in 0…1, with the numerics the path code needs: evaluation,
/// de Casteljau splitting, axis extrema, arc length and its inverse, and flattening counts.
struct Cubic: Equatable, Sendable {
    var p0: Point
    var p1: Point
    var p2: Point
    var p3: Point

    /// A straight line from `a` to `b` as a cubic with evenly spaced control points, so its
    /// parameter is proportional to arc length.
    static func line(from a: Point, to b: Point) -> Cubic {
        Cubic(
            p0: a, p1: a.interpolated(to: b, fraction: 1.0 / 3.0),
            p2: a.interpolated(to: b, fraction: 2.0 / 3.0), p3: b)
    }

    /// `B(t)` (Bernstein form).
    func point(at t: Double) -> Point {
        let u = 1 - t
        let b0 = u * u * u
        let b1 = 3 * u * u * t
        let b2 = 3 * u * t * t
        let b3 = t * t * t
        return Point(
            x: b0 * p0.x + b1 * p1.x + b2 * p2.x + b3 * p3.x,
            y: b0 * p0.y + b1 * p1.y + b2 * p2.y + b3 * p3.y)
    }

    /// `B′(t)`.
    func derivative(at t: Double) -> Point {
        let u = 1 - t
        let w0 = 3 * u * u
        let w1 = 6 * u * t
        let w2 = 3 * t * t
        return Point(
            x: w0 * (p1.x - p0.x) + w1 * (p2.x - p1.x) + w2 * (p3.x - p2.x),
            y: w0 * (p1.y - p0.y) + w1 * (p2.y - p1.y) + w2 * (p3.y - p2.y))
    }

    /// The direction of travel at `t`: `B′(t)`, or where that vanishes (a control point on an
    /// end point, a cusp) the direction of a nearby chord, then of the whole chord. Nil only when
    /// the curve is a single point.
    func tangent(at t: Double) -> Point? {
        let scale = max(p0.distance(to: p1) + p1.distance(to: p2) + p2.distance(to: p3), 1e-300)
        let d = derivative(at: t)
        if d.length > scale * 1e-9 { return d }
        let h = 1e-4
        let chord = point(at: min(t + h, 1)) - point(at: max(t - h, 0))
        if chord.length > scale * 1e-12 { return chord }
        let whole = p3 - p0
        if whole.length > 0 { return whole }
        let polygon = (p2 - p1).length > 0 ? p2 - p1 : p1 - p0
        return polygon.length > 0 ? polygon : nil
    }

    /// The two halves at `t` (de Casteljau); both are exact pieces of the same curve.
    func split(at t: Double) -> (Cubic, Cubic) {
        let a = p0.interpolated(to: p1, fraction: t)
        let b = p1.interpolated(to: p2, fraction: t)
        let c = p2.interpolated(to: p3, fraction: t)
        let ab = a.interpolated(to: b, fraction: t)
        let bc = b.interpolated(to: c, fraction: t)
        let mid = ab.interpolated(to: bc, fraction: t)
        return (Cubic(p0: p0, p1: a, p2: ab, p3: mid), Cubic(p0: mid, p1: bc, p2: c, p3: p3))
    }

    /// The piece between parameters `a` < `b`, with its end points exactly `point(at:)` values
    /// (and exactly `p0` / `p3` at 0 and 1).
    func subcurve(from a: Double, to b: Double) -> Cubic {
        if a <= 0 && b >= 1 { return self }
        if a <= 0 { return split(at: b).0 }
        if b >= 1 { return split(at: a).1 }
        let left = split(at: b).0
        return left.split(at: a / b).1
    }

    /// Calls `body` with each parameter in the open interval (0, 1) where `x′` or `y′` is zero.
    func forEachExtremumParameter(_ body: (Double) -> Void) {
        func roots(_ v0: Double, _ v1: Double, _ v2: Double, _ v3: Double) {
            // B′/3 = a·t² + b·t + c for one coordinate.
            let a = -v0 + 3 * v1 - 3 * v2 + v3
            let b = 2 * (v0 - 2 * v1 + v2)
            let c = v1 - v0
            func report(_ t: Double) { if t > 0 && t < 1 { body(t) } }
            if a == 0 {
                if b != 0 { report(-c / b) }
                return
            }
            let disc = b * b - 4 * a * c
            guard disc >= 0 else { return }
            // Numerically stable quadratic roots.
            let q = -0.5 * (b + (b < 0 ? -disc.squareRoot() : disc.squareRoot()))
            if q != 0 {
                report(q / a)
                report(c / q)
            } else {
                report(0)
            }
        }
        roots(p0.x, p1.x, p2.x, p3.x)
        roots(p0.y, p1.y, p2.y, p3.y)
    }

    /// Length of the control polygon: an upper bound of the arc length.
    var polygonLength: Double {
        p0.distance(to: p1) + p1.distance(to: p2) + p2.distance(to: p3)
    }

    /// 8-point Gauss–Legendre abscissae (positive half) and weights on [−1, 1]; values from
    /// Abramowitz & Stegun table 25.4, checked against numpy.polynomial.legendre.leggauss(8).
    private static let abscissae: (Double, Double, Double, Double) = (
        0.18343464249564978, 0.525532409916329, 0.7966664774136267, 0.9602898564975362
    )
    private static let weights: (Double, Double, Double, Double) = (
        0.36268378337836166, 0.3137066458778869, 0.22238103445337443, 0.10122853629037706
    )

    /// ∫ |B′(t)| dt over [a, b] by one 8-point Gauss–Legendre rule.
    private func gaussLegendre(_ a: Double, _ b: Double) -> Double {
        let half = (b - a) / 2
        let mid = (a + b) / 2
        let x = Cubic.abscissae
        let w = Cubic.weights
        func pair(_ xi: Double) -> Double {
            derivative(at: mid - half * xi).length + derivative(at: mid + half * xi).length
        }
        return half * (w.0 * pair(x.0) + w.1 * pair(x.1) + w.2 * pair(x.2) + w.3 * pair(x.3))
    }

    /// Adaptive Gauss–Legendre: split until the two halves agree with the whole within
    /// `tolerance` (absolute, pixels).
    private func adaptiveLength(
        _ a: Double, _ b: Double, whole: Double, tolerance: Double, depth: Int
    ) -> Double {
        let mid = (a + b) / 2
        let left = gaussLegendre(a, mid)
        let right = gaussLegendre(mid, b)
        let sum = left + right
        if depth >= 40 || abs(sum - whole) <= tolerance || !sum.isFinite { return sum }
        return adaptiveLength(a, mid, whole: left, tolerance: tolerance / 2, depth: depth + 1)
            + adaptiveLength(mid, b, whole: right, tolerance: tolerance / 2, depth: depth + 1)
    }

    /// Arc length of the piece between parameters `a` ≤ `b`, to about 1e-11 of the control
    /// polygon's length.
    func length(from a: Double, to b: Double) -> Double {
        guard b > a else { return 0 }
        let tolerance = max(polygonLength * (b - a) * 1e-11, 1e-300)
        return adaptiveLength(a, b, whole: gaussLegendre(a, b), tolerance: tolerance, depth: 0)
    }

    /// The whole curve's arc length.
    var length: Double { length(from: 0, to: 1) }

    /// The parameter `t` whose arc length from the start equals `target` (0…`totalLength`, the
    /// curve's `length`): safeguarded Newton on the arc-length function, bisection when a step
    /// would leave the bracket.
    func parameter(atLength target: Double, totalLength: Double) -> Double {
        guard target > 0, totalLength > 0 else { return 0 }
        guard target < totalLength else { return 1 }
        let tolerance = totalLength * 1e-12
        var lower = 0.0
        var upper = 1.0
        var t = target / totalLength
        var reached = length(from: 0, to: t)
        for _ in 0..<100 {
            let error = reached - target
            if abs(error) <= tolerance { break }
            if error > 0 { upper = t } else { lower = t }
            if upper - lower <= 1e-15 { break }
            let speed = derivative(at: t).length
            var next = t - error / speed
            if !(speed > 0) || !(next > lower && next < upper) { next = (lower + upper) / 2 }
            reached += next > t ? length(from: t, to: next) : -length(from: next, to: t)
            t = next
        }
        return t
    }

    /// The number of equal parameter steps after which the polyline through the sampled points
    /// stays within `tolerance` pixels of the curve. Wang's formula for a cubic:
    /// `n = ⌈√(3·2/8 · max‖Pᵢ − 2Pᵢ₊₁ + Pᵢ₊₂‖ / tolerance)⌉` (the linear-interpolation error
    /// bound h²/8·max‖B″‖ with ‖B″‖ ≤ 6·max‖Δ²P‖). Clamped to 1…65 536.
    func flatteningSteps(tolerance: Double) -> Int {
        let m = max((p0 - 2 * p1 + p2).length, (p1 - 2 * p2 + p3).length)
        let n = (0.75 * m / tolerance).squareRoot().rounded(.up)
        guard n.isFinite else { return 65_536 }
        return Int(min(max(n, 1), 65_536))
    }
}
