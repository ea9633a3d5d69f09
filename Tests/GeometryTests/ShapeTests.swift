// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Geometry
import Testing

@Suite struct ShapeTests {
    let k = 4.0 / 3.0 * tan(Double.pi / 8)

    @Test func quarterCircleFactor() {
        expectClose(BezierPath.quarterCircleFactor, 0.5522847498307936, tolerance: 1e-15)
    }

    @Test func circleStartsAtThreeOClockAndRunsClockwiseOnScreen() throws {
        let path = BezierPath.circle(center: Point(x: 50, y: 50), radius: 40)
        #expect(path.elements.count == 6)
        #expect(path.elements.first == .move(to: Point(x: 90, y: 50)))
        #expect(path.elements.last == .close)
        // 3 → 6 → 9 → 12 o'clock with y down: right, bottom, left, top.
        #expect(
            endPoints(path) == [
                Point(x: 90, y: 50), Point(x: 50, y: 90), Point(x: 10, y: 50), Point(x: 50, y: 10),
                Point(x: 90, y: 50), Point(x: 90, y: 50),
            ])
        #expect(
            path.elements[1]
                == .cubic(
                    to: Point(x: 50, y: 90), control1: Point(x: 90, y: 50 + 40 * k),
                    control2: Point(x: 50 + 40 * k, y: 90)))
        let outline = try #require(PathMeasure(path).flattened(tolerance: 0.01).first)
        #expect(signedArea(outline) > 0, "positive shoelace area in y-down = clockwise on screen")
        expectClose(signedArea(outline), Double.pi * 1600, tolerance: Double.pi * 1600 * 1e-3)
        #expect(path.currentPoint == Point(x: 90, y: 50))
    }

    @Test func quarterArcMidpointLiesOnTheCircle() throws {
        let path = BezierPath.circle(center: Point(x: 0, y: 0), radius: 10)
        guard case .cubic(let to, let c1, let c2) = path.elements[1] else {
            Issue.record("second element is not a cubic")
            return
        }
        let mid = bezierPoint(Point(x: 10, y: 0), c1, c2, to, 0.5)
        expectClose(mid.length, 10, tolerance: 1e-12)
        // The largest radial error of this approximation is about 0.027 %.
        var worst = 0.0
        for i in 0...1000 {
            worst = max(
                worst, abs(bezierPoint(Point(x: 10, y: 0), c1, c2, to, Double(i) / 1000).length - 10))
        }
        #expect(worst > 0.0025 && worst < 0.0030)
    }

    @Test func ellipseAndBounds() throws {
        let path = BezierPath.ellipse(center: Point(x: 10, y: 20), radiusX: 30, radiusY: -5)
        #expect(
            endPoints(path).prefix(5) == [
                Point(x: 40, y: 20), Point(x: 10, y: 25), Point(x: -20, y: 20), Point(x: 10, y: 15),
                Point(x: 40, y: 20),
            ])
        #expect(path.bounds == Rect(x: -20, y: 15, width: 60, height: 10))
    }

    @Test func boundsAreTightAroundCubicExtrema() throws {
        // Control points reach y = 100, the curve only y = 75 (at t = 0.5).
        let path = BezierPath(elements: [
            .move(to: Point(x: 0, y: 0)),
            .cubic(
                to: Point(x: 100, y: 0), control1: Point(x: 0, y: 100), control2: Point(x: 100, y: 100)),
        ])
        let bounds = try #require(path.bounds)
        expectClose(bounds.minX, 0, tolerance: 1e-12)
        expectClose(bounds.maxX, 100, tolerance: 1e-12)
        expectClose(bounds.minY, 0, tolerance: 1e-12)
        expectClose(bounds.maxY, 75, tolerance: 1e-12)
        #expect(BezierPath().bounds == nil)
        #expect(
            BezierPath(elements: [.move(to: Point(x: 3, y: 4))]).bounds
                == Rect(x: 3, y: 4, width: 0, height: 0))
    }

    @Test func plainRectStartsTopLeftClockwise() {
        let path = BezierPath.rect(Rect(x: 10, y: 20, width: 30, height: 40))
        #expect(
            path.elements == [
                .move(to: Point(x: 10, y: 20)), .line(to: Point(x: 40, y: 20)),
                .line(to: Point(x: 40, y: 60)),
                .line(to: Point(x: 10, y: 60)), .close,
            ])
        expectClose(PathMeasure(path).length, 140, tolerance: 1e-12)
        // A negative size is standardised, so the direction does not flip.
        #expect(BezierPath.rect(Rect(x: 40, y: 60, width: -30, height: -40)) == path)
    }

    @Test func roundedRectStartsAfterTopLeftCornerAndHasTheRightLength() {
        let (w, h, r) = (120.0, 80.0, 12.0)
        let path = BezierPath.rect(Rect(x: 10, y: 20, width: w, height: h), cornerRadius: r)
        #expect(path.elements.first == .move(to: Point(x: 22, y: 20)))
        #expect(path.elements[1] == .line(to: Point(x: 118, y: 20)))
        #expect(endPoints(path)[2] == Point(x: 130, y: 32))
        #expect(path.elements.last == .close)
        #expect(path.currentPoint == Point(x: 22, y: 20))
        let length = PathMeasure(path).length
        // Straight parts 2(w+h) − 8r plus four cubic quarter circles (a whole cubic circle).
        expectClose(length, 2 * (w + h) - 8 * r + unitCubicCircleLength * r, tolerance: 1e-9)
        expectClose(
            length, 2 * (w + h) - 8 * r + 2 * Double.pi * r, tolerance: 2 * Double.pi * r * 3e-4)
    }

    @Test func cornerRadiusIsClampedToHalfTheShorterSide() {
        let path = BezierPath.rect(Rect(x: 0, y: 0, width: 40, height: 20), cornerRadius: 100)
        #expect(path.elements.first == .move(to: Point(x: 10, y: 0)))
        // Top and bottom keep 20 px of straight edge; the sides have none, so no zero-length lines.
        let lines = path.elements.filter { if case .line = $0 { true } else { false } }
        #expect(lines.count == 2)
        expectClose(PathMeasure(path).length, 40 + unitCubicCircleLength * 10, tolerance: 1e-9)
    }

    @Test func arcClockwiseMeansIncreasingAngleOnScreen() {
        let down = BezierPath.arc(
            center: .zero, radius: 10, startAngle: 0, endAngle: 180, clockwise: true)
        #expect(down.elements.count == 3)
        #expect(endPoints(down) == [Point(x: 10, y: 0), Point(x: 0, y: 10), Point(x: -10, y: 0)])
        let up = BezierPath.arc(
            center: .zero, radius: 10, startAngle: 0, endAngle: 180, clockwise: false)
        #expect(endPoints(up) == [Point(x: 10, y: 0), Point(x: 0, y: -10), Point(x: -10, y: 0)])
        // 0 → −90 clockwise goes the long way round (270°), like cairo_arc.
        let long = BezierPath.arc(
            center: .zero, radius: 10, startAngle: 0, endAngle: -90, clockwise: true)
        #expect(
            endPoints(long) == [
                Point(x: 10, y: 0), Point(x: 0, y: 10), Point(x: -10, y: 0), Point(x: 0, y: -10),
            ])
        // 90° pieces of an arc are exactly the circle's quarters.
        let circle = BezierPath.circle(center: .zero, radius: 10)
        #expect(long.elements[1] == circle.elements[1])
        #expect(
            BezierPath.arc(center: .zero, radius: 10, startAngle: 30, endAngle: 30, clockwise: true)
                .elements == [
                    .move(to: Point(x: 10 * cos(Double.pi / 6), y: 10 * sin(Double.pi / 6)))
                ])
    }

    @Test func arcPiecesAreAtMostNinetyDegreesAndWindPastAFullTurn() throws {
        let small = BezierPath.arc(
            center: Point(x: 5, y: 5), radius: 20, startAngle: -10, endAngle: 35, clockwise: true)
        #expect(small.elements.count == 2)
        guard case .cubic(let to, let c1, let c2) = small.elements[1] else {
            Issue.record("not a cubic")
            return
        }
        let start = try #require(endPoints(small).first)
        let mid = bezierPoint(start, c1, c2, to, 0.5)
        expectClose(mid.distance(to: Point(x: 5, y: 5)), 20, tolerance: 1e-9)
        expectClose(atan2(mid.y - 5, mid.x - 5) * 180 / .pi, 12.5, tolerance: 1e-9)

        let odd = BezierPath.arc(
            center: .zero, radius: 1, startAngle: 0, endAngle: 181, clockwise: true)
        #expect(odd.elements.count == 4)
        let twice = BezierPath.arc(
            center: .zero, radius: 10, startAngle: 0, endAngle: 720, clockwise: true)
        #expect(twice.elements.count == 9)
        expectClose(PathMeasure(twice).length, 2 * unitCubicCircleLength * 10, tolerance: 1e-9)
    }

    @Test func linePolygonAndBuilders() {
        #expect(
            BezierPath.line(from: .zero, to: Point(x: 3, y: 4)).elements == [
                .move(to: .zero), .line(to: Point(x: 3, y: 4)),
            ])
        let triangle = [Point(x: 0, y: 0), Point(x: 3, y: 0), Point(x: 3, y: 4)]
        #expect(BezierPath.polygon(triangle).elements.last == .close)
        #expect(BezierPath.polygon(triangle, closed: false).elements.count == 3)
        #expect(BezierPath.polygon([]).isEmpty)
        expectClose(PathMeasure(.polygon(triangle)).length, 12, tolerance: 1e-12)
        expectClose(PathMeasure(.polygon(triangle, closed: false)).length, 7, tolerance: 1e-12)

        var path = BezierPath()
        #expect(path.currentPoint == nil)
        path.close()
        #expect(path.isEmpty)
        path.addLine(to: Point(x: 1, y: 1))  // no current point: becomes a move
        path.addLine(to: Point(x: 2, y: 1))
        path.close()
        path.close()  // nothing open: ignored
        // After a close, an explicit move to the subpath start comes first.
        path.addQuadCurve(to: Point(x: 4, y: 1), control: Point(x: 1, y: 4))
        #expect(
            path.elements == [
                .move(to: Point(x: 1, y: 1)), .line(to: Point(x: 2, y: 1)), .close,
                .move(to: Point(x: 1, y: 1)),
                .cubic(to: Point(x: 4, y: 1), control1: Point(x: 1, y: 3), control2: Point(x: 2, y: 3)),
            ])
        #expect(path.currentPoint == Point(x: 4, y: 1))
    }

    @Test func applyingTransformsEveryPoint() {
        let circle = BezierPath.circle(center: .zero, radius: 10)
        let moved = circle.applying(.translation(x: 50, y: 60))
        #expect(moved == BezierPath.circle(center: Point(x: 50, y: 60), radius: 10))
        let turned = circle.applying(.rotation(degrees: -90))
        // The start moves from 3 o'clock to 12 o'clock, drawing stays clockwise.
        #expect(turned.elements.first == .move(to: Point(x: 0, y: -10)))
        #expect(endPoints(turned)[1] == Point(x: 10, y: 0))
        let scaled = circle.applying(.scale(x: 2, y: 1))
        #expect(scaled == BezierPath.ellipse(center: .zero, radiusX: 20, radiusY: 10))
    }
}
