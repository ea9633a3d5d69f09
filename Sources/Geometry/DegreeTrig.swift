// SPDX-License-Identifier: GPL-3.0-or-later

import Glibc

/// Cosine and sine of angles given in degrees, exact at multiples of 90°.
///
/// `cos(.pi / 2)` is 6.1e-17, not 0; shapes built from quarter turns (circles, rounded corners,
/// 90° rotations) should land on exact coordinates, so multiples of 90° are special-cased.
enum DegreeTrig {
    /// `(cos θ, sin θ)` for `θ` in degrees.
    static func cosSin(_ degrees: Double) -> (cos: Double, sin: Double) {
        let reduced = degrees.truncatingRemainder(dividingBy: 360)
        switch reduced {
        case 0: return (1, 0)
        case 90, -270: return (0, 1)
        case 180, -180: return (-1, 0)
        case 270, -90: return (0, -1)
        default:
            let radians = reduced * .pi / 180
            return (cos(radians), sin(radians))
        }
    }

    /// Degrees to radians.
    static func radians(_ degrees: Double) -> Double { degrees * .pi / 180 }

    /// Radians to degrees.
    static func degrees(_ radians: Double) -> Double { radians * 180 / .pi }
}
