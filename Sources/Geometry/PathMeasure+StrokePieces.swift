// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation

/// A stroke's dash pattern: `CAShapeLayer.lineDashPattern` and `lineDashPhase`, read the way
/// `cairo_set_dash` and Core Graphics read them.
public struct DashPattern: Equatable, Sendable {
    /// Painted and unpainted lengths in pixels of the measured path, alternating and starting
    /// with a painted one. An odd count is read twice over (`[2]` is 2 painted, 2 unpainted), as
    /// Cairo and Core Graphics do. Every length ≥ 0 and their sum > 0 (the preset decoder
    /// checks both).
    public var lengths: [Double]
    /// Distance into the pattern at which every subpath starts, in pixels. Any value; it is
    /// taken modulo the pattern's period.
    public var phase: Double

    /// A pattern; see the properties.
    public init(lengths: [Double], phase: Double) {
        self.lengths = lengths
        self.phase = phase
    }

    /// The pattern over one period: `lengths`, twice when their count is odd.
    var cycle: [Double] { lengths.count % 2 == 1 ? lengths + lengths : lengths }
}

extension PathMeasure {
    /// The polylines to stroke for the part between `strokeStart` `from` and `strokeEnd` `to`
    /// (fractions of the total length), cut into dashes when `dashes` is given, built so that a
    /// part of the stroke that stays put from one frame to the next is drawn through **exactly
    /// the same points**.
    ///
    /// Why: Cairo flattens each curve it is given, and dashes along its own flattened lengths.
    /// Handing it a trimmed path (whose first and last curves are cut anew every frame) moved
    /// the flattening of those curves and, with dashes, every dash behind them by a fraction of
    /// a pixel: the airplane trail's still dashes changed by 1–3 levels every frame.
    ///
    /// How:
    /// - Every cubic of the *untrimmed* path is flattened at the same fixed parameter steps as
    ///   `flattened(tolerance:)` (Wang's formula, within `tolerance` pixels of the curve).
    /// - A piece is its exact start point on the curve, the fixed vertices strictly inside it,
    ///   and its exact end point. Ends are found by arc length on the curves, not on the
    ///   polyline, so they agree with `trimmed(from:to:)` and `point(atDistance:)` (where a
    ///   paced keyframe animation puts its layer).
    /// - Fractions are clamped to 0…1; nothing is returned when `from` ≥ `to`. Only subpaths
    ///   of positive length that overlap the range by a positive length draw.
    /// - Without dashes each such subpath gives one polyline; a closed subpath drawn whole
    ///   stays closed (a join at its start, no caps), as `trimmed(from:to:)` keeps it.
    /// - Dashes restart at every subpath's start with the pattern's phase (Cairo's rule), and
    ///   stay anchored to the untrimmed path: trimming only clips them. Each painted length is
    ///   its own open polyline. On a closed subpath drawn whole, a dash running into the end
    ///   continues through the start into the first dash (one polyline, joined there), as Cairo
    ///   joins the two.
    /// - A painted length of 0 is a dot: a two-point polyline `dotLength` pixels long along the
    ///   path and centred on the dash, so round and square caps draw a dot or a square turned
    ///   with the path (Cairo's dasher does the same from the segment's direction). With
    ///   `dotLength` 0 (butt caps, which draw nothing there) dots are left out.
    /// - Where a dash ends less than half the line width after a sharp corner, Cairo's join
    ///   pokes out past the dash's butt end, as on any such polyline; Cairo's own dasher does
    ///   not. On the presets' curves (2° turns between vertices) that is under 0.05 px.
    /// - A subpath of length 0 draws only when the whole path draws without dashes, and only
    ///   with `roundDots` (round caps): a dot. Cairo 1.16 draws a degenerate subpath that way and
    ///   draws nothing for it with square or butt caps.
    ///
    /// - Parameters:
    ///   - from: `strokeStart`, a fraction of the total length.
    ///   - to: `strokeEnd`, a fraction of the total length.
    ///   - dashes: the dash pattern in pixels of this path, or nil for a solid stroke.
    ///   - tolerance: largest distance between curve and polyline, pixels (raised to 1e-9).
    ///   - dotLength: length of a zero-length dash's stand-in, pixels (≥ 0).
    ///   - roundDots: whether a subpath of length 0 draws a (round) dot.
    /// - Returns: polylines in path order; closed ones only as described above.
    public func strokePieces(
        from: Double, to: Double, dashes: DashPattern?, tolerance: Double, dotLength: Double,
        roundDots: Bool = false
    ) -> [Polyline] {
        let lower = from.isNaN ? 0 : min(max(from, 0), 1)
        let upper = to.isNaN ? 0 : min(max(to, 0), 1)
        guard lower < upper else { return [] }
        let drawsAll = lower == 0 && upper == 1
        var vertices = SegmentVertices(
            measure: self, tolerance: tolerance.isNaN ? 1e-9 : max(tolerance, 1e-9))
        let s0 = lower * length
        let s1 = upper * length
        var result: [Polyline] = []
        for subpath in subpaths {
            guard subpath.end > subpath.start else {
                // A subpath that goes nowhere: a round dot when the whole path draws, solid.
                if drawsAll, dashes == nil, roundDots, dotLength > 0 {
                    let p = segments[subpath.firstSegment].segment.p0
                    let half = Point(x: dotLength / 2, y: 0)
                    result.append(Polyline(points: [p - half, p + half], closed: false))
                }
                continue
            }
            let lo = max(s0, subpath.start)
            let hi = min(s1, subpath.end)
            guard hi > lo else { continue }
            let whole = lo == subpath.start && hi == subpath.end
            guard let dashes else {
                let points = piece(from: lo, to: hi, in: subpath, vertices: &vertices)
                result.append(
                    Polyline(points: closing(points, whole && subpath.closed), closed: whole && subpath.closed))
                continue
            }
            var pieces: [Polyline] = []
            var runsThroughStart = false
            var runsThroughEnd = false
            Self.forEachDash(of: dashes, from: subpath.start, to: hi) { a, b in
                if b == a {
                    guard a >= lo, dotLength > 0, let dot = self.dot(at: a, in: subpath, length: dotLength)
                    else { return }
                    pieces.append(Polyline(points: dot, closed: false))
                    return
                }
                let pa = max(a, lo)
                let pb = min(b, hi)
                guard pb > pa else { return }
                if pieces.isEmpty && pa == subpath.start { runsThroughStart = true }
                runsThroughEnd = pb == subpath.end
                pieces.append(
                    Polyline(points: self.piece(from: pa, to: pb, in: subpath, vertices: &vertices), closed: false))
            }
            if whole && subpath.closed && runsThroughStart && runsThroughEnd {
                if pieces.count == 1 {
                    pieces[0] = Polyline(points: closing(pieces[0].points, true), closed: true)
                } else {
                    let first = pieces.removeFirst()
                    pieces[pieces.count - 1].points.append(contentsOf: first.points.dropFirst())
                }
            }
            result.append(contentsOf: pieces)
        }
        return result
    }

    /// `points` without its last point when it repeats the first and the polyline is closed.
    private func closing(_ points: [Point], _ closed: Bool) -> [Point] {
        guard closed, points.count > 2, points[points.count - 1] == points[0] else { return points }
        return Array(points.dropLast())
    }

    /// Calls `body(a, b)` for every painted interval of `dashes` laid from `start` (a subpath's
    /// start distance) that begins at or before `end`. Positions come from the pattern alone,
    /// never from `end`, so the same dash gets the same numbers whatever the trim.
    static func forEachDash(
        of dashes: DashPattern, from start: Double, to end: Double, _ body: (Double, Double) -> Void
    ) {
        let pattern = dashes.cycle
        let period = pattern.reduce(0, +)
        // A pattern with no period, or so fine that the subpath would need more than ten
        // million dashes, draws solid (the preset decoder refuses patterns under 0.01 pt).
        guard period > 0, period.isFinite, (end - start) / period <= 10_000_000 else {
            body(start, end)
            return
        }
        var offset = dashes.phase.isFinite ? dashes.phase.truncatingRemainder(dividingBy: period) : 0
        if offset < 0 { offset += period }
        var cycle = 0.0
        while true {
            var a = start - offset + cycle * period
            if a > end { return }
            for (index, dash) in pattern.enumerated() {
                let b = a + dash
                if index % 2 == 0, b >= start, a <= end {
                    // A positive dash that ends exactly at the start draws nothing; a dot there does.
                    if dash == 0 || b > start { body(a, b) }
                }
                a = b
                if a > end { return }
            }
            cycle += 1
        }
    }

    /// Points of the piece between distances `a` < `b` inside `subpath`.
    private func piece(
        from a: Double, to b: Double, in subpath: Subpath, vertices: inout SegmentVertices
    ) -> [Point] {
        let (first, ta) = location(of: a, in: subpath, atStart: true)
        let (last, tb) = location(of: b, in: subpath, atStart: false)
        var points = [point(onSegment: first, at: ta)]
        for index in first...last where segments[index].length > 0 {
            let steps = vertices.steps(index)
            for k in 1...steps {
                let t = k == steps ? 1 : Double(k) / Double(steps)
                if index == first && t <= ta { continue }
                if index == last && t >= tb { break }
                points.append(vertices.point(index, k))
            }
        }
        points.append(point(onSegment: last, at: tb))
        return points
    }

    /// A zero-length dash at distance `s`: two points `length` apart along the path, centred on it.
    private func dot(at s: Double, in subpath: Subpath, length: Double) -> [Point]? {
        let (index, t) = location(of: s, in: subpath, atStart: s < subpath.end)
        let segment = segments[index].segment
        guard let direction = segment.cubic.tangent(at: t), direction.length > 0 else { return nil }
        let p = point(onSegment: index, at: t)
        let half = (length / 2 / direction.length) * direction
        return [p - half, p + half]
    }

    /// The segment holding distance `s` of `subpath` and the parameter there. A piece's start
    /// takes the segment that begins at or before `s` and ends after it, its end the segment
    /// that begins before `s` and ends at or after it; zero-length segments are never chosen.
    private func location(of s: Double, in subpath: Subpath, atStart: Bool) -> (Int, Double) {
        var index = subpath.firstSegment
        for candidate in subpath.firstSegment..<subpath.endSegment {
            let measured = segments[candidate]
            guard measured.length > 0 else { continue }
            index = candidate
            if atStart ? s < measured.end : s <= measured.end { break }
        }
        let measured = segments[index]
        let local = min(max(s - measured.start, 0), measured.length)
        if local == 0 { return (index, 0) }
        if local == measured.length { return (index, 1) }
        if measured.segment.isCubic {
            return (index, measured.segment.cubic.parameter(atLength: local, totalLength: measured.length))
        }
        return (index, local / measured.length)
    }

    /// The point at parameter `t` of segment `index`, with the exact end points at 0 and 1.
    private func point(onSegment index: Int, at t: Double) -> Point {
        let curve = segments[index].segment.cubic
        if t <= 0 { return curve.p0 }
        if t >= 1 { return curve.p3 }
        return segments[index].segment.isCubic
            ? curve.point(at: t) : curve.p0.interpolated(to: curve.p3, fraction: t)
    }
}

/// The fixed flattening vertices of each segment, computed on first use: a cubic's points at
/// `k / steps` for k = 1…steps (its end point last), a line's end point alone.
private struct SegmentVertices {
    let measure: PathMeasure
    let tolerance: Double
    private var cache: [Int: [Point]] = [:]

    init(measure: PathMeasure, tolerance: Double) {
        self.measure = measure
        self.tolerance = tolerance
    }

    mutating func steps(_ index: Int) -> Int { points(index).count }

    mutating func point(_ index: Int, _ k: Int) -> Point { points(index)[k - 1] }

    private mutating func points(_ index: Int) -> [Point] {
        if let cached = cache[index] { return cached }
        let segment = measure.segments[index].segment
        var points: [Point]
        if segment.isCubic {
            let curve = segment.cubic
            let steps = curve.flatteningSteps(tolerance: tolerance)
            points = (1..<steps).map { curve.point(at: Double($0) / Double(steps)) }
            points.append(curve.p3)
        } else {
            points = [segment.p3]
        }
        cache[index] = points
        return points
    }
}
