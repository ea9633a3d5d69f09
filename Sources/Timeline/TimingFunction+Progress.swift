// SPDX-License-Identifier: GPL-3.0-or-later

public import Spec

extension TimingFunction {
    /// Progress `p` for the elapsed fraction `u` of one pass lasting `duration` seconds.
    ///
    /// `u` outside 0…1 is clamped. For a cubic Bézier this solves `x(s) = u` for the curve
    /// parameter `s` (Newton's method, falling back to bisection, to 1e-9 in x; semantics.md §1
    /// asks for ≤ 1e-7) and returns `y(s)`; `duration` does not matter. Reference values
    /// (semantics §1): easeOut(0.5) = 0.6846, easeIn(0.25) = 0.0935, easeInOut(0.5) = 0.5,
    /// default(0.1) = 0.0948.
    ///
    /// A spring follows real time: `p = x(u · duration)` (`Spring.value(at:)`), and the pass
    /// ends exactly at 1 so a repeated leg starts from rest.
    /// - Parameters:
    ///   - u: elapsed fraction of the pass, 0…1.
    ///   - duration: the pass's length in seconds (springs only).
    /// - Returns: progress, usually 0…1 (may overshoot for springs and for y1, y2 outside 0…1).
    public func progress(_ u: Double, duration: Double = 1) -> Double {
        let u = min(max(u, 0), 1)
        switch self {
        case .spring(let spring):
            return u >= 1 ? 1 : spring.value(at: u * duration)
        case .cubicBezier(let x1, let y1, let x2, let y2):
            if x1 == y1 && x2 == y2 { return u }  // the diagonal: linear
            if u == 0 || u == 1 { return u }
            let s = Self.solve(u, x1, x2)
            return Self.bezier(s, y1, y2)
        }
    }

    /// One coordinate of a cubic Bézier with end points 0 and 1 and control values c1, c2.
    @inline(__always)
    static func bezier(_ s: Double, _ c1: Double, _ c2: Double) -> Double {
        // B(s) = 3(1−s)²s·c1 + 3(1−s)s²·c2 + s³, written in Horner form.
        let a = 1 + 3 * c1 - 3 * c2
        let b = 3 * c2 - 6 * c1
        let c = 3 * c1
        return ((a * s + b) * s + c) * s
    }

    @inline(__always)
    static func bezierSlope(_ s: Double, _ c1: Double, _ c2: Double) -> Double {
        let a = 1 + 3 * c1 - 3 * c2
        let b = 3 * c2 - 6 * c1
        let c = 3 * c1
        return (3 * a * s + 2 * b) * s + c
    }

    /// The curve parameter s in 0…1 with x(s) = u. x(s) is monotonic because x1, x2 ∈ 0…1.
    static func solve(_ u: Double, _ x1: Double, _ x2: Double) -> Double {
        let tolerance = 1e-9
        var s = u
        for _ in 0..<8 {
            let error = bezier(s, x1, x2) - u
            if abs(error) < tolerance { return s }
            let slope = bezierSlope(s, x1, x2)
            if abs(slope) < 1e-6 { break }
            s -= error / slope
            if s < 0 || s > 1 { break }
        }
        var lo = 0.0
        var hi = 1.0
        s = u
        for _ in 0..<64 {
            let x = bezier(s, x1, x2)
            if abs(x - u) < tolerance { return s }
            if x < u { lo = s } else { hi = s }
            s = (lo + hi) / 2
        }
        return s
    }
}
