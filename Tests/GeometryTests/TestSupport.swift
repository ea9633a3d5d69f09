// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Geometry
import Testing

/// Expects `|actual − expected| ≤ tolerance`, reporting both values on failure.
func expectClose(
    _ actual: Double, _ expected: Double, tolerance: Double,
    _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(
        abs(actual - expected) <= tolerance,
        "\(actual) is not within \(tolerance) of \(expected) \(comment.map { "(\($0))" } ?? "")",
        sourceLocation: sourceLocation)
}

/// Expects both coordinates of `actual` within `tolerance` of `expected`.
func expectClose(
    _ actual: Point?, _ expected: Point, tolerance: Double,
    _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation
) {
    guard let actual else {
        Issue.record("expected \(expected), got nil", sourceLocation: sourceLocation)
        return
    }
    #expect(
        abs(actual.x - expected.x) <= tolerance && abs(actual.y - expected.y) <= tolerance,
        "\(actual) is not within \(tolerance) of \(expected) \(comment.map { "(\($0))" } ?? "")",
        sourceLocation: sourceLocation)
}

/// The end point of every element (the subpath start for `close`), for checking shapes.
func endPoints(_ path: BezierPath) -> [Point] {
    var points: [Point] = []
    var start = Point.zero
    for element in path.elements {
        switch element {
        case .move(let p):
            start = p
            points.append(p)
        case .line(let p), .cubic(let p, _, _):
            points.append(p)
        case .close:
            points.append(start)
        }
    }
    return points
}

/// Signed area by the shoelace formula over the flattened path; in y-down screen coordinates a
/// positive value means the outline runs clockwise on screen.
func signedArea(_ polyline: Polyline) -> Double {
    let p = polyline.points
    var sum = 0.0
    for i in p.indices {
        let a = p[i]
        let b = p[(i + 1) % p.count]
        sum += a.x * b.y - b.x * a.y
    }
    return sum / 2
}

/// Evaluates the cubic Bézier curve with the given points at `t` (independent of the library).
func bezierPoint(_ p0: Point, _ p1: Point, _ p2: Point, _ p3: Point, _ t: Double) -> Point {
    let u = 1 - t
    return u * u * u * p0 + 3 * u * u * t * p1 + 3 * u * t * t * p2 + t * t * t * p3
}

/// Distance from `p` to the segment `a`–`b`.
func distance(from p: Point, toSegment a: Point, _ b: Point) -> Double {
    let ab = b - a
    let lengthSquared = ab.x * ab.x + ab.y * ab.y
    guard lengthSquared > 0 else { return p.distance(to: a) }
    let t = min(max(((p.x - a.x) * ab.x + (p.y - a.y) * ab.y) / lengthSquared, 0), 1)
    return p.distance(to: a + t * ab)
}

/// Arc length of the 4-cubic unit circle (k = 4/3·tan(π/8)), computed independently with
/// mpmath.quad at 30 digits: 4 × 1.57101669807385565130640175442. It exceeds 2π by 0.01403 %.
let unitCubicCircleLength = 6.28406679229542260522560701769
