// SPDX-License-Identifier: GPL-3.0-or-later

import Glibc

/// A damped spring moving progress from 0 to 1: `m·x'' + c·x' + k·(x − 1) = 0`, `x(0) = 0`,
/// `x'(0) = initialVelocity` (fractions of the distance per second). SwiftUI's springs
/// (`spring(response:dampingFraction:)`, `spring(duration:bounce:)`, `smooth`, `snappy`,
/// `bouncy`, `interpolatingSpring`) all reduce to this (semantics.md §2, after OpenSwiftUI's
/// Spring+DurationBounce.swift and Spring+ResponseDampingRatio.swift).
///
/// The physics lives here, beside the model, because the decoder needs the settling time to give
/// a spring animation its default duration.
public struct Spring: Equatable, Sendable {
    /// Mass, > 0 (SwiftUI's conversions always use 1).
    public var mass: Double
    /// Stiffness k, > 0.
    public var stiffness: Double
    /// Damping coefficient c, ≥ 0.
    public var damping: Double
    /// Initial velocity in fractions of the distance per second (default 0).
    public var initialVelocity: Double
    /// Whether a damping ratio above 1 moves as an overdamped spring. When false (the default,
    /// as SwiftUI's `Spring(mass:stiffness:damping:allowOverDamping:)` defaults to false) such a
    /// spring "is treated as critically damped": it moves as the critical spring of the same
    /// stiffness and mass.
    public var allowsOverdamping: Bool

    /// A spring from its physical constants (SwiftUI `interpolatingSpring(mass:stiffness:damping:initialVelocity:)`,
    /// `Spring(mass:stiffness:damping:allowOverDamping:)`).
    public init(
        mass: Double = 1, stiffness: Double, damping: Double, initialVelocity: Double = 0,
        allowsOverdamping: Bool = false
    ) {
        self.mass = mass
        self.stiffness = stiffness
        self.damping = damping
        self.initialVelocity = initialVelocity
        self.allowsOverdamping = allowsOverdamping
    }

    /// SwiftUI `spring(response:dampingFraction:)`: ω0 = 2π / response, k = ω0², c = 2·ζ·ω0 = 4π·ζ / response.
    /// - Parameters:
    ///   - response: seconds, > 0 (SwiftUI default 0.5).
    ///   - dampingFraction: ζ, > 0 (SwiftUI default 0.825); 1 is critically damped.
    public init(response: Double, dampingFraction: Double) {
        let omega = 2 * Double.pi / response
        self.init(stiffness: omega * omega, damping: 2 * dampingFraction * omega)
    }

    /// SwiftUI `spring(duration:bounce:)`: response = duration; ζ = 1 − bounce for bounce ≥ 0,
    /// ζ = 1 / (1 + bounce) for −1 < bounce < 0. A negative bounce is overdamped ("negative
    /// values indicate overdamped springs", Apple's `Spring.bounce` documentation), so it moves
    /// as one (`allowsOverdamping`).
    public init(duration: Double, bounce: Double) {
        let zeta = bounce >= 0 ? 1 - bounce : 1 / (1 + bounce)
        self.init(response: duration, dampingFraction: zeta)
        allowsOverdamping = bounce < 0
    }

    /// Undamped angular frequency ω0 = √(k/m), radians per second.
    public var naturalFrequency: Double { (stiffness / mass).squareRoot() }

    /// Damping ratio ζ = c / (2·√(k·m)); < 1 underdamped (bounces), 1 critical.
    public var dampingRatio: Double { damping / (2 * (stiffness * mass).squareRoot()) }

    /// Progress x(t) at `t` seconds after the spring starts (closed form, semantics §2.3):
    /// - ζ < 1: `1 − e^(−ζω0t)·[cos(ωd·t) + ((ζω0 − v0)/ωd)·sin(ωd·t)]`, ωd = ω0·√(1 − ζ²);
    /// - ζ = 1, or ζ > 1 without `allowsOverdamping`: `1 − (1 + (ω0 − v0)·t)·e^(−ω0·t)`;
    /// - ζ > 1 with `allowsOverdamping`: `1 − A·e^(r1·t) − B·e^(r2·t)`, r1,2 = −ω0·(ζ ∓ √(ζ² − 1)),
    ///   A = (v0 + r2) / (r2 − r1), B = 1 − A (x(0) = 0, x′(0) = v0).
    /// - Returns: progress, 0 at t = 0, tending to 1; may overshoot 1 when ζ < 1.
    public func value(at t: Double) -> Double {
        guard t > 0 else { return 0 }
        let omega0 = naturalFrequency
        let zeta = dampingRatio
        let v0 = initialVelocity
        if zeta < 1 {
            let omegaD = omega0 * (1 - zeta * zeta).squareRoot()
            let envelope = exp(-zeta * omega0 * t)
            return 1 - envelope * (cos(omegaD * t) + (zeta * omega0 - v0) / omegaD * sin(omegaD * t))
        }
        if zeta > 1 && allowsOverdamping {
            let root = (zeta * zeta - 1).squareRoot()
            let r1 = -omega0 * (zeta - root)
            let r2 = -omega0 * (zeta + root)
            let a = (v0 + r2) / (r2 - r1)
            return 1 - a * exp(r1 * t) - (1 - a) * exp(r2 * t)
        }
        return 1 - (1 + (omega0 - v0) * t) * exp(-omega0 * t)
    }

    /// Longest settling time `settlingDuration` looks for, in seconds (60).
    public static let settlingLimit = 60.0

    /// The time after which `|1 − x(t)|` stays below `epsilon` for good, in seconds
    /// (semantics §2.4: a repeated spring leg lasts this long). Found by scanning in 1 ms steps
    /// up to `settlingLimit`, then refined by bisection to 1 µs; a spring still outside after
    /// `settlingLimit` (a strongly overdamped one: bounce −0.99 has ζ = 100) returns
    /// `settlingLimit`. The scan stops early, with the same result, once `settledBound` says no
    /// later step can be outside: a spring that settles in 1 s took 60 000 evaluations of
    /// `value(at:)` (about 5 ms per spring, twice per export of circular-progress), now about 1 000.
    /// - Parameter epsilon: settle tolerance, default 0.001.
    public func settlingDuration(epsilon: Double = 0.001) -> Double {
        let step = 0.001
        let limit = Self.settlingLimit
        let bound = settledBound()
        var lastOutside = 0.0
        var t = step
        while t <= limit {
            if abs(1 - value(at: t)) >= epsilon {
                lastOutside = t
            } else if t >= bound.from, bound.value(t) < epsilon / 2 {
                // |1 − x| ≤ bound.value, which falls from `bound.from` on: every later step is
                // inside by a margin of ε/2, far above the rounding of `value(at:)`.
                break
            }
            t += step
        }
        var lo = lastOutside
        var hi = min(lastOutside + step, limit)
        while hi - lo > 1e-6 {
            let mid = (lo + hi) / 2
            if abs(1 - value(at: mid)) >= epsilon { lo = mid } else { hi = mid }
        }
        return hi
    }

    /// An upper bound on `|1 − x(t)|` from `value(at:)`'s closed forms, non-increasing for
    /// `t ≥ from`: `e^(−ζω0t)·√(1 + K²)` with K = (ζω0 − v0)/ωd when ζ < 1 (|cos + K·sin| ≤
    /// √(1 + K²)); `|A|·e^(r1·t) + |B|·e^(r2·t)` when overdamped; `(1 + |ω0 − v0|·t)·e^(−ω0·t)`
    /// when critical, falling once t ≥ (c − ω0)/(ω0·c), c = |ω0 − v0|. A NaN bound never stops
    /// the scan.
    func settledBound() -> (from: Double, value: (Double) -> Double) {
        let omega0 = naturalFrequency
        let zeta = dampingRatio
        let v0 = initialVelocity
        if zeta < 1 {
            let omegaD = omega0 * (1 - zeta * zeta).squareRoot()
            let k = (zeta * omega0 - v0) / omegaD
            let amplitude = (1 + k * k).squareRoot()
            return (0, { t in exp(-zeta * omega0 * t) * amplitude })
        }
        if zeta > 1 && allowsOverdamping {
            let root = (zeta * zeta - 1).squareRoot()
            let r1 = -omega0 * (zeta - root)
            let r2 = -omega0 * (zeta + root)
            let a = (v0 + r2) / (r2 - r1)
            return (0, { t in abs(a) * exp(r1 * t) + abs(1 - a) * exp(r2 * t) })
        }
        let c = abs(omega0 - v0)
        let from = c > omega0 ? (c - omega0) / (omega0 * c) : 0
        return (from, { t in (1 + c * t) * exp(-omega0 * t) })
    }
}
