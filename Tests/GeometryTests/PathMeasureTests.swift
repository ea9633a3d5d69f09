// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Geometry
import Testing

@Suite struct PathMeasureLengthTests {
    @Test func circleLengthIsTheCubicApproximationsLength() {
        let measure = PathMeasure(.circle(center: Point(x: 32, y: 32), radius: 50))
        // Reference computed independently at 30 digits (see TestSupport).
        expectClose(measure.length, unitCubicCircleLength * 50, tolerance: 50 * 1e-11)
        // The 4-cubic circle is 0.01403 % longer than 2πr: inside the ~0.03 % bound, not equal.
        let excess = measure.length / (2 * Double.pi * 50) - 1
        expectClose(excess, 1.4029271e-4, tolerance: 1e-10)
    }

    @Test func cuspAndLoopCubicsAreMeasuredAccurately() throws {
        // A cusp at t = 0.5 where the derivative vanishes; mpmath.quad: 182.842712474619…
        let cusp = PathMeasure(try BezierPath(svgPathData: "M0 0C100 100 0 100 100 0"))
        expectClose(cusp.length, 182.842712474619009760, tolerance: 182.84 * 1e-9)
        // A self-intersecting loop; mpmath.quad: 350.648968195188795906…
        let loop = PathMeasure(try BezierPath(svgPathData: "M0 0C300 100 -200 100 100 0"))
        expectClose(loop.length, 350.648968195188795906, tolerance: 350.65 * 1e-9)
        // A straight cubic with uneven control points is as long as its chord.
        let straight = PathMeasure(try BezierPath(svgPathData: "M0 0C90 0 95 0 10 0"))
        expectClose(straight.length, 10 + 2 * (Cubic1D.maxReach(0, 90, 95, 10) - 10), tolerance: 1e-7)
    }

    @Test func closeCountsAndSubpathsAdd() throws {
        let path = try BezierPath(svgPathData: "M0 0h3v4z M10 10 h5 M20 20")
        let measure = PathMeasure(path)
        expectClose(measure.length, 12 + 5, tolerance: 1e-12)
        #expect(PathMeasure(BezierPath()).length == 0)
        // Raw element lists follow Cairo: a leading line is a move, a leading cubic starts at its
        // first control point.
        let leadingLine = BezierPath(elements: [
            .line(to: Point(x: 1, y: 1)), .line(to: Point(x: 4, y: 5)),
        ])
        expectClose(PathMeasure(leadingLine).length, 5, tolerance: 1e-12)
        let leadingCubic = BezierPath(elements: [
            .cubic(to: Point(x: 3, y: 4), control1: Point(x: 0, y: 0), control2: Point(x: 3, y: 4))
        ])
        expectClose(PathMeasure(leadingCubic).length, 5, tolerance: 1e-9)
        #expect(PathMeasure(BezierPath()).point(atFraction: 0.5) == nil)
        #expect(PathMeasure(BezierPath()).flattened(tolerance: 0.1).isEmpty)
    }
}

/// A one-dimensional cubic's farthest reach along its line, found by dense sampling, for the
/// straight-cubic length check (the curve runs out to that point and back).
enum Cubic1D {
    static func maxReach(_ a: Double, _ b: Double, _ c: Double, _ d: Double) -> Double {
        var best = -Double.infinity
        for i in 0...200_000 {
            let t = Double(i) / 200_000
            let u = 1 - t
            best = max(best, u * u * u * a + 3 * u * u * t * b + 3 * u * t * t * c + t * t * t * d)
        }
        return best
    }
}

@Suite struct TrimTests {
    /// The SVG specification's smooth-curve example plus a straight tail: lines and curves mixed.
    static let mixed: BezierPath = {
        (try? BezierPath(svgPathData: "M10 80 C40 10 65 10 95 80 S150 150 180 80 L180 140 H60"))
            ?? BezierPath()
    }()

    @Test func airplaneTrailTable() {
        // semantics.md §4.5: start = clamp(−0.5 + 1.5u), end = clamp(u); visible = u for u ≤ 1/3,
        // then 0.5 − 0.5u.
        let table: [(u: Double, visible: Double)] = [
            (0.1, 0.1), (1.0 / 3, 1.0 / 3), (0.5, 0.25), (0.75, 0.125), (0.9, 0.05),
        ]
        for shape in [Self.mixed, BezierPath.circle(center: Point(x: 32, y: 32), radius: 25)] {
            let measure = PathMeasure(shape)
            #expect(!Self.mixed.isEmpty)
            for (u, visible) in table {
                let trimmed = measure.trimmed(from: -0.5 + 1.5 * u, to: u)
                let fraction = PathMeasure(trimmed).length / measure.length
                expectClose(fraction, visible, tolerance: 1e-9, "u = \(u)")
                expectClose(fraction, u <= 1.0 / 3 ? u : 0.5 - 0.5 * u, tolerance: 1e-9)
            }
            // u = 0 and u = 1 draw nothing at all: no subpath that a round cap could turn into a dot.
            #expect(measure.trimmed(from: -0.5, to: 0).elements.isEmpty)
            #expect(measure.trimmed(from: 1, to: 1).elements.isEmpty)
        }
    }

    @Test func emptyRangesGiveNoElements() {
        let measure = PathMeasure(.circle(center: .zero, radius: 10))
        #expect(measure.trimmed(from: 0.6, to: 0.4).elements.isEmpty)
        #expect(measure.trimmed(from: 0.5, to: 0.5).elements.isEmpty)
        #expect(measure.trimmed(from: 1.2, to: 1.5).elements.isEmpty)
        #expect(measure.trimmed(from: -1, to: 0).elements.isEmpty)
        #expect(measure.trimmed(from: .nan, to: 0).elements.isEmpty)
        // A zero-length closed subpath (a dot) is kept only by the full range.
        let dot = BezierPath(elements: [.move(to: Point(x: 2, y: 2)), .close])
        #expect(PathMeasure(dot).trimmed(from: 0, to: 1) == dot)
        #expect(PathMeasure(dot).trimmed(from: 0, to: 0.5).elements.isEmpty)
    }

    @Test func fullRangeKeepsTheClosedPath() {
        let circle = BezierPath.circle(center: Point(x: 5, y: 5), radius: 10)
        let measure = PathMeasure(circle)
        #expect(measure.trimmed(from: 0, to: 1) == circle)
        #expect(measure.trimmed(from: -0.5, to: 2) == circle)
        expectClose(
            PathMeasure(measure.trimmed(from: 0, to: 1)).length, measure.length, tolerance: 1e-12)
    }

    @Test func trimmedLengthsAndCurvesStayCurves() {
        let measure = PathMeasure(.circle(center: .zero, radius: 40))
        let trimmed = measure.trimmed(from: 0.1, to: 0.6)
        expectClose(
            PathMeasure(trimmed).length, 0.5 * measure.length, tolerance: measure.length * 1e-10)
        // 36° … 216°: the end of quarter one, quarter two whole, the start of quarter three.
        #expect(trimmed.elements.count == 4)
        #expect(trimmed.elements.dropFirst().allSatisfy { if case .cubic = $0 { true } else { false } })
        let mixed = PathMeasure(Self.mixed)
        for (a, b) in [(0.0, 0.3), (0.25, 0.8), (0.5, 1.0), (0.05, 0.07)] {
            let piece = PathMeasure(mixed.trimmed(from: a, to: b))
            expectClose(
                piece.length, (b - a) * mixed.length, tolerance: mixed.length * 1e-10, "\(a)…\(b)")
        }
    }

    @Test func trimmedEndpointsLieOnTheCircleAtTheRightAngle() throws {
        let center = Point(x: 50, y: 50)
        let measure = PathMeasure(.circle(center: center, radius: 40))
        // 0 … 0.25 ends exactly at 6 o'clock (y down).
        #expect(measure.trimmed(from: 0, to: 0.25).currentPoint == Point(x: 50, y: 90))
        // 0 … 0.125 ends at the first quarter's midpoint, which lies exactly on the circle at 45°.
        let eighth = try #require(measure.trimmed(from: 0, to: 0.125).currentPoint)
        let diagonal = 40 / 2.0.squareRoot()
        expectClose(eighth, Point(x: 50 + diagonal, y: 50 + diagonal), tolerance: 1e-9)
        // 0.1 … 0.6: starts near 36°, ends near 216°, within the cubic circle's 0.03 % radial error.
        let piece = measure.trimmed(from: 0.1, to: 0.6)
        let start = try #require(endPoints(piece).first)
        let end = try #require(piece.currentPoint)
        for (point, degrees) in [(start, 36.0), (end, -144.0)] {
            expectClose(point.distance(to: center), 40, tolerance: 40 * 3e-4)
            expectClose(atan2(point.y - 50, point.x - 50) * 180 / .pi, degrees, tolerance: 0.05)
        }
    }

    @Test func trimsAcrossSubpaths() throws {
        // A closed 10×10 square (length 40) then a 40 px line: 80 in all.
        let path = try BezierPath(svgPathData: "M0 0h10v10h-10z M100 0h40")
        let measure = PathMeasure(path)
        // Covering the square completely keeps it closed; the line is cut in half.
        #expect(
            measure.trimmed(from: 0, to: 0.75).elements == [
                .move(to: Point(x: 0, y: 0)), .line(to: Point(x: 10, y: 0)), .line(to: Point(x: 10, y: 10)),
                .line(to: Point(x: 0, y: 10)), .close, .move(to: Point(x: 100, y: 0)),
                .line(to: Point(x: 120, y: 0)),
            ])
        // Ending exactly at the square's end adds no zero-length subpath for the line.
        #expect(measure.trimmed(from: 0, to: 0.5).elements.count == 5)
        // A partial piece of the closed square is open and includes part of the closing line.
        #expect(
            measure.trimmed(from: 0.3125, to: 0.625).elements == [
                .move(to: Point(x: 5, y: 10)), .line(to: Point(x: 0, y: 10)), .line(to: Point(x: 0, y: 0)),
                .move(to: Point(x: 100, y: 0)), .line(to: Point(x: 110, y: 0)),
            ])
    }
}

@Suite struct PacedPointTests {
    @Test func headingsAroundAClockwiseCircle() throws {
        let measure = PathMeasure(.circle(center: Point(x: 50, y: 50), radius: 40))
        let expected: [(Double, Point, Double)] = [
            (0, Point(x: 90, y: 50), 90),  // 3 o'clock: moving down the screen
            (0.25, Point(x: 50, y: 90), 180),  // 6 o'clock: moving left
            (0.5, Point(x: 10, y: 50), -90),  // 9 o'clock: moving up
            (0.75, Point(x: 50, y: 10), 0),  // 12 o'clock: moving right
            (1, Point(x: 90, y: 50), 90),
        ]
        for (fraction, position, heading) in expected {
            let point = try #require(measure.point(atFraction: fraction))
            expectClose(point.position, position, tolerance: 1e-9, "fraction \(fraction)")
            expectClose(point.heading, heading, tolerance: 1e-9, "fraction \(fraction)")
        }
        let eighth = try #require(measure.point(atFraction: 0.125))
        expectClose(eighth.heading, 135, tolerance: 1e-9)
        expectClose(eighth.position.distance(to: Point(x: 50, y: 50)), 40, tolerance: 1e-9)
        // In general the heading is the polar angle + 90°, within the cubic approximation: its
        // tangent leans off the circle's by at most 0.0722° (dense sampling in numpy), and arc
        // length runs ahead of or behind the angle by at most 0.0012°.
        for fraction in [0.03, 0.3, 0.45, 0.6, 0.9] {
            let point = try #require(measure.point(atFraction: fraction))
            let polar = atan2(point.position.y - 50, point.position.x - 50) * 180 / .pi
            var difference = point.heading - polar - 90
            difference -= 360 * (difference / 360).rounded()
            expectClose(difference, 0, tolerance: 0.073, "fraction \(fraction)")
            expectClose(polar < 0 ? polar + 360 : polar, fraction * 360, tolerance: 0.0013)
        }
    }

    @Test func distancesAlongLinesAndClamping() throws {
        let measure = PathMeasure(
            .polygon([Point(x: 0, y: 0), Point(x: 10, y: 0), Point(x: 10, y: 10)], closed: false))
        let cases: [(Double, Point, Double)] = [
            (-5, Point(x: 0, y: 0), 0), (5, Point(x: 5, y: 0), 0), (10, Point(x: 10, y: 0), 90),
            (15, Point(x: 10, y: 5), 90), (20, Point(x: 10, y: 10), 90), (99, Point(x: 10, y: 10), 90),
        ]
        for (distance, position, heading) in cases {
            let point = try #require(measure.point(atDistance: distance))
            #expect(point == PathPoint(position: position, heading: heading), "distance \(distance)")
        }
    }

    @Test func degenerateTangentsFallBackToTheChord() throws {
        // Control points on the end points: B′ vanishes at both ends, the curve is a straight
        // line from (0,0) to (10,10), heading 45° all along.
        let path = try BezierPath(svgPathData: "M0 0C0 0 10 10 10 10")
        let measure = PathMeasure(path)
        expectClose(measure.length, 200.0.squareRoot(), tolerance: 1e-9)
        for fraction in [0.0, 0.5, 1.0] {
            let point = try #require(measure.point(atFraction: fraction))
            expectClose(point.heading, 45, tolerance: 1e-6, "fraction \(fraction)")
            expectClose(point.position, Point(x: 10 * fraction, y: 10 * fraction), tolerance: 1e-9)
        }
    }
}

@Suite struct FlattenTests {
    /// Largest distance from densely sampled curve points to the polyline.
    func worstDeviation(_ path: BezierPath, _ polylines: [Polyline]) -> Double {
        var worst = 0.0
        var current = Point.zero
        var segments: [(Point, Point)] = []
        for polyline in polylines {
            for (a, b) in zip(polyline.points, polyline.points.dropFirst()) { segments.append((a, b)) }
            if polyline.closed, let first = polyline.points.first, let last = polyline.points.last {
                segments.append((last, first))
            }
        }
        for element in path.elements {
            switch element {
            case .move(let p), .line(let p):
                current = p
            case .cubic(let p, let c1, let c2):
                for i in 0...400 {
                    let q = bezierPoint(current, c1, c2, p, Double(i) / 400)
                    let nearest = segments.map { distance(from: q, toSegment: $0.0, $0.1) }.min() ?? .infinity
                    worst = max(worst, nearest)
                }
                current = p
            case .close:
                break
            }
        }
        return worst
    }

    @Test func toleranceIsRespected() throws {
        let shapes = [
            BezierPath.circle(center: Point(x: 100, y: 100), radius: 100),
            try BezierPath(svgPathData: "M10 80 C40 10 65 10 95 80 S150 150 180 80"),
            try BezierPath(svgPathData: "M0 0C300 100 -200 100 100 0"),
        ]
        for shape in shapes {
            var previousCount = 0
            for tolerance in [1.0, 0.1, 0.01] {
                let polylines = PathMeasure(shape).flattened(tolerance: tolerance)
                let worst = worstDeviation(shape, polylines)
                #expect(worst <= tolerance, "deviation \(worst) > \(tolerance)")
                #expect(worst > tolerance / 100, "suspiciously fine: \(worst) for \(tolerance)")
                let count = polylines.reduce(0) { $0 + $1.points.count }
                #expect(count > previousCount)
                previousCount = count
            }
        }
    }

    @Test func circleFlattensToOneClosedPolylineWithoutARepeatedStart() throws {
        let polylines = PathMeasure(.circle(center: .zero, radius: 100)).flattened(tolerance: 0.1)
        #expect(polylines.count == 1)
        let ring = try #require(polylines.first)
        #expect(ring.closed)
        #expect(ring.points.first == Point(x: 100, y: 0))
        #expect(ring.points.last != ring.points.first)
        #expect(ring.points.count < 120)
    }

    @Test func linesArePassedThrough() throws {
        let path = try BezierPath(svgPathData: "M0 0h10v10z M20 20 l5 5 M50 50")
        #expect(
            PathMeasure(path).flattened(tolerance: 0.5) == [
                Polyline(
                    points: [Point(x: 0, y: 0), Point(x: 10, y: 0), Point(x: 10, y: 10)], closed: true),
                Polyline(points: [Point(x: 20, y: 20), Point(x: 25, y: 25)], closed: false),
            ])
    }
}
