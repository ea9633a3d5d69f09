// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Geometry
import Testing

@Suite struct SVGPathTests {
    func parse(_ text: String) throws -> BezierPath {
        try BezierPath(svgPathData: text)
    }

    func p(_ x: Double, _ y: Double) -> Point { Point(x: x, y: y) }

    @Test func absoluteAndRelativeLines() throws {
        #expect(try parse("M10 20 L30 40").elements == [.move(to: p(10, 20)), .line(to: p(30, 40))])
        let relative = try parse("m10 20 l5 5 h10 v-5 H0 V0 z")
        #expect(
            relative.elements == [
                .move(to: p(10, 20)), .line(to: p(15, 25)), .line(to: p(25, 25)), .line(to: p(25, 20)),
                .line(to: p(0, 20)), .line(to: p(0, 0)), .close,
            ])
        #expect(relative.currentPoint == p(10, 20))
    }

    @Test func implicitRepeatsAndMovetoPairsBecomeLines() throws {
        #expect(
            try parse("M0 0 10 10 20 0").elements == [
                .move(to: p(0, 0)), .line(to: p(10, 10)), .line(to: p(20, 0)),
            ])
        #expect(try parse("m1 1 2 2").elements == [.move(to: p(1, 1)), .line(to: p(3, 3))])
        #expect(
            try parse("M0,0 l1,1,1,1").elements == [
                .move(to: p(0, 0)), .line(to: p(1, 1)), .line(to: p(2, 2)),
            ])
        #expect(try parse("M0 0h1 2 3").currentPoint == p(6, 0))
        // A relative moveto at the very start is taken from (0, 0).
        #expect(try parse("m5 5").elements == [.move(to: p(5, 5))])
    }

    @Test func compactNumbers() throws {
        #expect(try parse("M.5.5L-1-2e1").elements == [.move(to: p(0.5, 0.5)), .line(to: p(-1, -20))])
        #expect(try parse("M1e-3,1E+2").elements == [.move(to: p(0.001, 100))])
        #expect(try parse("M5.-3").elements == [.move(to: p(5, -3))])
        #expect(try parse("M+1.5.25").elements == [.move(to: p(1.5, 0.25))])
        #expect(try parse("\n\tM 1 , 2\r\n").elements == [.move(to: p(1, 2))])
        #expect(try parse("").isEmpty)
        #expect(try parse("   ").isEmpty)
    }

    @Test func cubicsAndSmoothCubics() throws {
        let path = try parse("M0 0C10 0 20 10 20 20S30 40 40 40")
        #expect(
            path.elements == [
                .move(to: p(0, 0)),
                .cubic(to: p(20, 20), control1: p(10, 0), control2: p(20, 10)),
                // First control point: (20, 10) reflected about (20, 20).
                .cubic(to: p(40, 40), control1: p(20, 30), control2: p(30, 40)),
            ])
        // Without a preceding cubic, S starts its first control at the current point.
        #expect(
            try parse("M0 0 L5 5 S10 10 20 0").elements.last
                == .cubic(to: p(20, 0), control1: p(5, 5), control2: p(10, 10)))
        let relative = try parse("m10 10 c0 10 10 10 10 0 s10 -10 10 0")
        #expect(
            relative.elements == [
                .move(to: p(10, 10)),
                .cubic(to: p(20, 10), control1: p(10, 20), control2: p(20, 20)),
                .cubic(to: p(30, 10), control1: p(20, 0), control2: p(30, 0)),
            ])
    }

    @Test func quadraticsBecomeExactCubics() throws {
        let path = try parse("M0 0Q10 20 20 0T40 0")
        #expect(path.elements.count == 3)
        guard case .cubic(let to1, let a1, let b1) = path.elements[1],
            case .cubic(let to2, let a2, let b2) = path.elements[2]
        else {
            Issue.record("expected two cubics, got \(path.elements)")
            return
        }
        #expect(to1 == p(20, 0))
        expectClose(a1, p(20.0 / 3, 40.0 / 3), tolerance: 1e-12)
        expectClose(b1, p(40.0 / 3, 40.0 / 3), tolerance: 1e-12)
        // The quadratic Q(t) = (1−t)²P0 + 2t(1−t)C + t²P1 and the cubic agree everywhere.
        for t in stride(from: 0.0, through: 1.0, by: 0.125) {
            let quad = (1 - t) * (1 - t) * p(0, 0) + 2 * t * (1 - t) * p(10, 20) + t * t * p(20, 0)
            expectClose(bezierPoint(p(0, 0), a1, b1, to1, t), quad, tolerance: 1e-12)
        }
        // T reflects the control (10, 20) about (20, 0) to (30, −20).
        #expect(to2 == p(40, 0))
        expectClose(a2, p(20 + 20.0 / 3, -40.0 / 3), tolerance: 1e-12)
        expectClose(b2, p(40 - 20.0 / 3, -40.0 / 3), tolerance: 1e-12)
        // Relative forms, and T without a preceding Q is a straight line in cubic form.
        let relative = try parse("m0 0 q10 20 20 0 t20 0")
        #expect(relative.elements == path.elements)
        guard case .cubic(_, let c1, let c2) = try parse("M0 0 L3 0 T9 0").elements.last else {
            Issue.record("T did not give a cubic")
            return
        }
        expectClose(c1, p(3, 0), tolerance: 1e-12)
        expectClose(c2, p(5, 0), tolerance: 1e-12)
    }

    @Test func semicircleArcMidpointLiesOnTheCircle() throws {
        // Radius 50 from (0,0) to (100,0): centre (50,0). Sweep 1 = increasing angle = clockwise
        // on screen, which from 9 o'clock passes over the top (y = −50).
        for text in ["M0 0A50 50 0 0 1 100 0", "M0 0a50 50 0 01100 0", "M0,0A50,50,0,0,1,100,0"] {
            let path = try parse(text)
            #expect(path.elements.count == 3, "\(text)")
            #expect(endPoints(path) == [p(0, 0), endPoints(path)[1], p(100, 0)])
            expectClose(endPoints(path)[1], p(50, -50), tolerance: 1e-12, "\(text)")
            let measure = PathMeasure(path)
            expectClose(measure.point(atFraction: 0.5)?.position, p(50, -50), tolerance: 1e-9)
            expectClose(measure.length, unitCubicCircleLength * 25, tolerance: 1e-9)
        }
        let below = try parse("M0 0A50 50 0 0 0 100 0")
        expectClose(endPoints(below)[1], p(50, 50), tolerance: 1e-12)
        // Radii too small to reach are scaled up (F.6.6): the same semicircle.
        let scaled = try parse("M0 0A10 10 0 0 1 100 0")
        expectClose(endPoints(scaled)[1], p(50, -50), tolerance: 1e-12)
        // Negative radii lose their sign.
        let negative = try parse("M0 0A-50 -50 0 0 1 100 0")
        expectClose(endPoints(negative)[1], p(50, -50), tolerance: 1e-12)
    }

    @Test func largeArcAndSweepFlagsPickTheRightQuarter() throws {
        // From (0,0) to (50,50) with r = 50 the centre is (50,0) or (0,50).
        let large = PathMeasure(try parse("M0 0A50 50 0 1 1 50 50"))
        expectClose(large.length, unitCubicCircleLength * 50 * 0.75, tolerance: 1e-9)
        for polyline in large.flattened(tolerance: 0.01) {
            for point in polyline.points {
                expectClose(point.distance(to: p(50, 0)), 50, tolerance: 50 * 3e-4)
            }
        }
        let small = PathMeasure(try parse("M0 0A50 50 0 0 1 50 50"))
        expectClose(small.length, unitCubicCircleLength * 50 * 0.25, tolerance: 1e-9)
        for point in small.flattened(tolerance: 0.01)[0].points {
            expectClose(point.distance(to: p(0, 50)), 50, tolerance: 50 * 3e-4)
        }
    }

    @Test func rotatedEllipticalArc() throws {
        // Radii 100 × 50 turned 90°: the long axis is vertical. From (0,0) to (0,200) the centre
        // is (0,100); sweeping clockwise on screen from the top passes the right side (50,100).
        let path = try parse("M0 0 A100 50 90 0 1 0 200")
        #expect(path.elements.count == 3)
        expectClose(endPoints(path)[1], p(50, 100), tolerance: 1e-9)
        #expect(path.currentPoint == p(0, 200))
        let bounds = try #require(path.bounds)
        expectClose(bounds.maxX, 50, tolerance: 1e-9)
        expectClose(bounds.minX, 0, tolerance: 1e-9)
    }

    @Test func degenerateArcs() throws {
        #expect(
            try parse("M0 0A0 10 0 0 1 100 0").elements == [.move(to: p(0, 0)), .line(to: p(100, 0))])
        #expect(try parse("M5 5A10 10 0 0 1 5 5").elements == [.move(to: p(5, 5))])
    }

    @Test func closeThenDrawStartsAtTheSubpathStart() throws {
        #expect(
            try parse("M10 10 L20 10 Z L30 30").elements == [
                .move(to: p(10, 10)), .line(to: p(20, 10)), .close, .move(to: p(10, 10)),
                .line(to: p(30, 30)),
            ])
        #expect(
            try parse("M1 1 l1 0 z m5 5 l1 1").elements == [
                .move(to: p(1, 1)), .line(to: p(2, 1)), .close, .move(to: p(6, 6)), .line(to: p(7, 7)),
            ])
    }

    @Test func errorsSayWhereAndWhat() {
        let cases: [(String, Int, String)] = [
            ("M0 0 L x", 7, "expected a number after 'L' at offset 7, found 'x'"),
            ("L10 10", 0, "expected a moveto command ('M' or 'm') at offset 0, found 'L'"),
            ("M0 0 L10", 8, "expected a number after 'L' at offset 8, found end of path data"),
            ("M 1 2 3", 7, "expected a number after 'M' at offset 7, found end of path data"),
            ("M0 0 A10 10 0 2 1 5 5", 14, "expected a flag (0 or 1) after 'A' at offset 14, found '2'"),
            ("M0 0 Z 5", 7, "expected a command letter at offset 7, found '5'"),
            ("M0,0,L1 1", 5, "expected a number after ',' at offset 5, found 'L'"),
            ("M0 0 L1 1 é", 10, "expected a command letter at offset 10, found 'é'"),
            ("M1e999 0", 1, "number '1e999' is out of range at offset 1"),
            ("M0 0 C1 2 3 4 5", 15, "expected a number after 'C' at offset 15, found end of path data"),
            ("M0 0 L-.e1 2", 6, "expected a number after 'L' at offset 6, found '-'"),
        ]
        for (text, offset, message) in cases {
            #expect(throws: SVGPathError(offset: offset, message: message), "\(text)") {
                try BezierPath(svgPathData: text)
            }
        }
    }
}
