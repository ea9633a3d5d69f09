// SPDX-License-Identifier: GPL-3.0-or-later

import Glibc

/// A stroke's dash pattern: `CAShapeLayer.lineDashPattern` and `lineDashPhase`, read the way
/// `cairo_set_dash` and Core Graphics read them.
public struct DashPattern: Equatable, Sendable {
    /// Painted and unpainted lengths in the measured path's units (a layer's points),
    /// alternating and starting with a painted one. An odd count is read twice over (`[2]` is 2
    /// painted, 2 unpainted), as Cairo and Core Graphics do. Every length ≥ 0 and their sum > 0;
    /// the preset decoder asks for a sum of at least 0.01 points, and a pattern that would cut
    /// a subpath into more than ten million dashes draws solid.
    public var lengths: [Double]
    /// Distance into the pattern at which every subpath starts, in the path's units. Any value;
    /// it is taken modulo the pattern's period.
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
    ///   its own open polyline; painted lengths that touch (an unpainted length of 0) are one,
    ///   as Cairo draws them, so no seam opens between them. On a closed subpath drawn whole, a
    ///   dash running into the end continues through the start into the first dash (one
    ///   polyline, joined there), as Cairo joins the two.
    /// - A painted length of 0 is a dot: a two-point polyline `dotLength` long along the
    ///   path and centred on the dash, so round and square caps draw a dot or a square turned
    ///   with the path (Cairo's dasher does the same from the segment's direction). With
    ///   `dotLength` 0 (butt caps, which draw nothing there) dots are left out.
    /// - Where a dash ends less than half the line width after a sharp corner, Cairo's join
    ///   pokes out past the dash's butt end, as on any such polyline; Cairo's own dasher does
    ///   not. On the presets' curves (2° turns between vertices) that is under 0.05 px.
    /// - A subpath of length 0 draws only when the whole path draws, with dashes only when the
    ///   pattern is painted at its start, and only with `roundDots` (round caps): a dot. Cairo
    ///   1.16 draws a degenerate subpath that way and draws nothing for it with square or butt
    ///   caps.
    ///
    /// - Parameters:
    ///   - from: `strokeStart`, a fraction of the total length.
    ///   - to: `strokeEnd`, a fraction of the total length.
    ///   - dashes: the dash pattern in the path's own units, or nil for a solid stroke.
    ///   - tolerance: largest distance between curve and polyline, in the path's units (raised
    ///     to 1e-9; the renderer passes 0.01 device pixels divided by the layer's scale).
    ///   - dotLength: length of a zero-length dash's stand-in, in the path's units (≥ 0).
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
                // A subpath that goes nowhere: a round dot when the whole path draws and, with
                // dashes, the pattern is painted at its start (as Cairo draws it).
                var painted = dashes == nil
                if let dashes {
                    Self.forEachDash(of: dashes, from: subpath.start, to: subpath.start) { _, _ in painted = true }
                }
                if drawsAll, painted, roundDots, dotLength > 0 {
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
            // The painted spans in order (a == b: a dot). Dashes that touch (an unpainted length
            // of 0) are one span, so no seam opens between them.
            var spans: [(a: Double, b: Double)] = []
            Self.forEachDash(of: dashes, from: subpath.start, to: hi) { a, b in
                if b == a {
                    if a >= lo, dotLength > 0 { spans.append((a, a)) }
                    return
                }
                let pa = max(a, lo)
                let pb = min(b, hi)
                guard pb > pa else { return }
                if let last = spans.last, last.b > last.a, last.b == pa {
                    spans[spans.count - 1].b = pb
                } else {
                    spans.append((pa, pb))
                }
            }
            // On a closed subpath drawn whole, a dash running into its end goes on through the
            // start into the first dash: one polyline, joined there.
            var joined: Polyline?
            if whole, subpath.closed, let first = spans.first, let last = spans.last, first.b > first.a,
                last.b > last.a, first.a == subpath.start, last.b == subpath.end
            {
                if spans.count == 1 {
                    let points = piece(from: subpath.start, to: subpath.end, in: subpath, vertices: &vertices)
                    result.append(Polyline(points: closing(points, true), closed: true))
                    continue
                }
                var points = piece(from: last.a, to: last.b, in: subpath, vertices: &vertices)
                points.append(
                    contentsOf: piece(from: first.a, to: first.b, in: subpath, vertices: &vertices).dropFirst())
                joined = Polyline(points: points, closed: false)
                spans.removeFirst()
                spans.removeLast()
            }
            for span in spans {
                if span.b == span.a {
                    if let dot = dot(at: span.a, in: subpath, length: dotLength) {
                        result.append(Polyline(points: dot, closed: false))
                    }
                } else {
                    result.append(
                        Polyline(
                            points: piece(from: span.a, to: span.b, in: subpath, vertices: &vertices), closed: false))
                }
            }
            if let joined { result.append(joined) }
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
    ///
    /// Segment ends grow along the subpath, so the segment is found by bisection: O(log n) per
    /// dash end, where a walk from the subpath's start made a dashed 100 000-point polyline
    /// cost 20 s (dashes × points).
    private func location(of s: Double, in subpath: Subpath, atStart: Bool) -> (Int, Double) {
        // The first segment whose end passes s (ends are non-decreasing: the test is monotone).
        var low = subpath.firstSegment
        var high = subpath.endSegment
        while low < high {
            let mid = low + (high - low) / 2
            let end = segments[mid].end
            if atStart ? s < end : s <= end { high = mid } else { low = mid + 1 }
        }
        // The first of positive length from there; past the last one, the last one.
        var index = low
        while index < subpath.endSegment, segments[index].length <= 0 { index += 1 }
        if index == subpath.endSegment {
            index = subpath.endSegment - 1
            while index > subpath.firstSegment, segments[index].length <= 0 { index -= 1 }
            if index < subpath.firstSegment || segments[index].length <= 0 { index = subpath.firstSegment }
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
