// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Geometry
import Testing

/// `PathMeasure.strokePieces`: trims and dashes cut at exact arc lengths, through fixed vertices.
@Suite struct StrokePiecesTests {
    let circle = BezierPath.circle(center: Point(x: 50, y: 50), radius: 40)

    /// True when both lists have the same shape and every point is within 1e-9 px.
    func same(_ a: [[Point]], _ b: [[Point]]) -> Bool {
        a.count == b.count
            && zip(a, b).allSatisfy { p, q in
                p.count == q.count && zip(p, q).allSatisfy { $0.distance(to: $1) < 1e-9 }
            }
    }

    @Test func trimEndsMatchTrimmedAndTheVerticesBetweenStayPut() throws {
        let measure = PathMeasure(circle)
        for (from, to) in [(0.1, 0.6), (0.0, 0.3), (0.45, 1.0)] {
            let pieces = measure.strokePieces(from: from, to: to, dashes: nil, tolerance: 0.01, dotLength: 0)
            #expect(pieces.count == 1)
            let piece = try #require(pieces.first)
            let trimmed = measure.trimmed(from: from, to: to)
            let start = try #require(PathMeasure(trimmed).point(atFraction: 0)?.position)
            let end = try #require(trimmed.currentPoint)
            #expect(piece.points[0].distance(to: start) < 1e-9)
            #expect(piece.points[piece.points.count - 1].distance(to: end) < 1e-9)
            #expect(!piece.closed)
            // Within 0.01 px of the circle everywhere (the cubic circle is 40 × 2.7e-4 off round).
            for p in piece.points { expectClose(p.distance(to: Point(x: 50, y: 50)), 40, tolerance: 0.03) }
        }
        // The stroke that stays put is drawn through the same points whatever the trim: the
        // part of [0.2, 0.7] and [0.25, 0.9] they share has identical inner vertices.
        let a = try #require(measure.strokePieces(from: 0.2, to: 0.7, dashes: nil, tolerance: 0.01, dotLength: 0).first)
        let b = try #require(
            measure.strokePieces(from: 0.25, to: 0.9, dashes: nil, tolerance: 0.01, dotLength: 0).first)
        let sharedA = Set(a.points.dropFirst().dropLast().map { "\($0.x),\($0.y)" })
        let sharedB = Set(b.points.dropFirst().dropLast().map { "\($0.x),\($0.y)" })
        let common = sharedA.intersection(sharedB)
        // 45 % of a 40 px circle at 0.01 px (38 steps a quarter): 68 shared vertices.
        #expect(common.count == 68)
        let inA = a.points.dropFirst().dropLast().filter { p in
            let s = measure.length * 0.25 + 1
            let e = measure.length * 0.7 - 1
            let angle = atan2(p.y - 50, p.x - 50)
            let fraction = (angle < 0 ? angle + 2 * .pi : angle) / (2 * .pi)
            return fraction * measure.length > s && fraction * measure.length < e
        }
        #expect(inA.allSatisfy { common.contains("\($0.x),\($0.y)") })
    }

    @Test func wholeClosedSubpathStaysClosedAndEmptyRangesDrawNothing() throws {
        let measure = PathMeasure(circle)
        let whole = measure.strokePieces(from: -0.5, to: 2, dashes: nil, tolerance: 0.01, dotLength: 0)
        #expect(whole.count == 1 && whole[0].closed)
        #expect(whole[0].points.first == Point(x: 90, y: 50))
        #expect(whole[0].points.last != whole[0].points.first)
        #expect(measure.strokePieces(from: 0.5, to: 0.5, dashes: nil, tolerance: 0.01, dotLength: 0).isEmpty)
        #expect(measure.strokePieces(from: 1.2, to: 1.5, dashes: nil, tolerance: 0.01, dotLength: 0).isEmpty)
        #expect(measure.strokePieces(from: .nan, to: 0, dashes: nil, tolerance: 0.01, dotLength: 0).isEmpty)
    }

    @Test func dashesFollowThePatternPhaseAndOddCounts() {
        let line = PathMeasure(.line(from: Point(x: 0, y: 0), to: Point(x: 20, y: 0)))
        func xs(_ lengths: [Double], phase: Double, from: Double = 0, to: Double = 1) -> [[Double]] {
            line.strokePieces(
                from: from, to: to, dashes: DashPattern(lengths: lengths, phase: phase), tolerance: 0.01,
                dotLength: 0
            ).map { $0.points.map(\.x) }
        }
        #expect(xs([2, 3], phase: 0) == [[0, 2], [5, 7], [10, 12], [15, 17]])
        // Phase 1 starts 1 into the first dash; phase −1 (= 4) starts 1 before the second.
        #expect(xs([2, 3], phase: 1) == [[0, 1], [4, 6], [9, 11], [14, 16], [19, 20]])
        #expect(xs([2, 3], phase: -1) == [[1, 3], [6, 8], [11, 13], [16, 18]])
        // An odd count is read twice: [4] is 4 on, 4 off.
        #expect(xs([4], phase: 0) == [[0, 4], [8, 12], [16, 20]])
        #expect(xs([3, 1, 2], phase: 0) == [[0, 3], [4, 6], [9, 10], [12, 15], [16, 18]])
        // Trimming clips the dashes and never moves them.
        #expect(xs([2, 3], phase: 0, from: 0.3, to: 0.8) == [[6, 7], [10, 12], [15, 16]])
        #expect(xs([2, 3], phase: 0, from: 0.35, to: 0.8) == [[10, 12], [15, 16]])
    }

    @Test func zeroLengthDashesAreDotsAlongThePath() throws {
        let line = PathMeasure(.line(from: Point(x: 0, y: 0), to: Point(x: 0, y: 10)))
        let dots = line.strokePieces(
            from: 0, to: 1, dashes: DashPattern(lengths: [0, 5], phase: 0), tolerance: 0.01, dotLength: 0.01)
        #expect(same(dots.map(\.points), [0, 5, 10].map { [Point(x: 0, y: $0 - 0.005), Point(x: 0, y: $0 + 0.005)] }))
        // Butt caps draw nothing for them, so they are left out.
        let none = line.strokePieces(
            from: 0, to: 1, dashes: DashPattern(lengths: [0, 5], phase: 0), tolerance: 0.01, dotLength: 0)
        #expect(none.isEmpty)
        // A subpath that goes nowhere is a round dot only when the whole path draws (Cairo draws
        // nothing for it with square caps).
        let point = PathMeasure(BezierPath(elements: [.move(to: Point(x: 3, y: 4)), .line(to: Point(x: 3, y: 4))]))
        #expect(point.strokePieces(from: 0, to: 1, dashes: nil, tolerance: 0.01, dotLength: 0.01).isEmpty)
        let dot = point.strokePieces(from: 0, to: 1, dashes: nil, tolerance: 0.01, dotLength: 0.01, roundDots: true)
        #expect(same(dot.map(\.points), [[Point(x: 2.995, y: 4), Point(x: 3.005, y: 4)]]))
        #expect(
            point.strokePieces(from: 0, to: 0.5, dashes: nil, tolerance: 0.01, dotLength: 0.01, roundDots: true).isEmpty
        )
    }

    @Test func aDashThroughTheStartOfAClosedSubpathIsOnePiece() throws {
        // A 20 × 20 square (perimeter 80) with [7, 3] from phase 5: the pattern is on at the start
        // (2 left) and at the end (80 = 8 periods), so the last dash runs on through the corner.
        let square = PathMeasure(.rect(Rect(x: 0, y: 0, width: 20, height: 20)))
        let pieces = square.strokePieces(
            from: 0, to: 1, dashes: DashPattern(lengths: [7, 3], phase: 5), tolerance: 0.01, dotLength: 0)
        #expect(pieces.count == 8)
        let joined = try #require(pieces.last)
        #expect(same([joined.points], [[Point(x: 0, y: 5), Point(x: 0, y: 0), Point(x: 2, y: 0)]]))
        #expect(pieces.first?.points.first == Point(x: 5, y: 0))
        #expect(pieces.allSatisfy { !$0.closed })
        // Trimmed, the square is open: no joining across its start.
        let trimmed = square.strokePieces(
            from: 0, to: 0.999, dashes: DashPattern(lengths: [7, 3], phase: 5), tolerance: 0.01, dotLength: 0)
        #expect(same(trimmed.prefix(1).map(\.points), [[Point(x: 0, y: 0), Point(x: 2, y: 0)]]))
        // One dash longer than the path closes it.
        let solid = square.strokePieces(
            from: 0, to: 1, dashes: DashPattern(lengths: [100, 1], phase: 0), tolerance: 0.01, dotLength: 0)
        #expect(solid.count == 1 && solid[0].closed && solid[0].points.count == 4)
    }

    @Test func dashesRestartOnEverySubpathAndCrossSegments() throws {
        let path = try BezierPath(svgPathData: "M0 0 h6 v6 M10 0 h6")
        let pieces = PathMeasure(path).strokePieces(
            from: 0, to: 1, dashes: DashPattern(lengths: [4, 4], phase: 0), tolerance: 0.01, dotLength: 0)
        #expect(
            same(
                pieces.map(\.points),
                [
                    [Point(x: 0, y: 0), Point(x: 4, y: 0)],
                    [Point(x: 6, y: 2), Point(x: 6, y: 6)],
                    [Point(x: 10, y: 0), Point(x: 14, y: 0)],
                ]))
        let bent = PathMeasure(path).strokePieces(
            from: 0, to: 1, dashes: DashPattern(lengths: [8, 1], phase: 0), tolerance: 0.01, dotLength: 0)
        // The first dash turns the corner at (6, 0): one polyline through it.
        #expect(same(bent.prefix(1).map(\.points), [[Point(x: 0, y: 0), Point(x: 6, y: 0), Point(x: 6, y: 2)]]))
    }

    @Test func touchingDashesAreOnePieceAndDotsStayApart() throws {
        // [10, 0]: every unpainted length is 0, so the dashes touch: one piece, and a closed
        // subpath drawn whole stays closed (Cairo draws it as one stroke, with no seams).
        let line = PathMeasure(.line(from: Point(x: 0, y: 0), to: Point(x: 30, y: 0)))
        let solid = line.strokePieces(
            from: 0, to: 1, dashes: DashPattern(lengths: [10, 0], phase: 3), tolerance: 0.01, dotLength: 0)
        #expect(same(solid.map(\.points), [[Point(x: 0, y: 0), Point(x: 30, y: 0)]]))
        let ring = PathMeasure(circle).strokePieces(
            from: 0, to: 1, dashes: DashPattern(lengths: [10, 0], phase: 0), tolerance: 0.01, dotLength: 0)
        #expect(ring.count == 1 && ring[0].closed)
        // A dot never takes part in the join across a closed subpath's start: every piece is
        // either a 0.01 px dot or a dash at least 5 long.
        let square = PathMeasure(.rect(Rect(x: 0, y: 0, width: 20, height: 20)))
        let pieces = square.strokePieces(
            from: 0, to: 1, dashes: DashPattern(lengths: [10, 0, 0, 5, 10, 5], phase: 20), tolerance: 0.01,
            dotLength: 0.01)
        let lengths = pieces.map { p in zip(p.points, p.points.dropFirst()).map { $0.distance(to: $1) }.reduce(0, +) }
        #expect(lengths.contains { abs($0 - 0.01) < 1e-9 })
        #expect(lengths.allSatisfy { abs($0 - 0.01) < 1e-9 || $0 >= 5 - 1e-9 })
    }

    @Test func aDashedSubpathThatGoesNowhereIsADotWhereThePatternIsPainted() {
        let point = PathMeasure(BezierPath(elements: [.move(to: Point(x: 3, y: 4)), .line(to: Point(x: 3, y: 4))]))
        let on = point.strokePieces(
            from: 0, to: 1, dashes: DashPattern(lengths: [2, 3], phase: 0), tolerance: 0.01, dotLength: 0.01,
            roundDots: true)
        #expect(same(on.map(\.points), [[Point(x: 2.995, y: 4), Point(x: 3.005, y: 4)]]))
        let off = point.strokePieces(
            from: 0, to: 1, dashes: DashPattern(lengths: [2, 3], phase: 2.5), tolerance: 0.01, dotLength: 0.01,
            roundDots: true)
        #expect(off.isEmpty)
    }
}
