// SPDX-License-Identifier: GPL-3.0-or-later

import Glibc

/// Arc-length measurements of one `BezierPath`, computed once: total length, trimming by
/// length fractions (`strokeStart` / `strokeEnd`, SwiftUI `trim`), positions and headings at a
/// distance (paced keyframe animation along a path), and flattening into polylines.
///
/// Lengths are in pixels. Every segment counts, over all subpaths in order; a `close` counts as
/// the straight line back to its subpath's start, as Core Animation and Cairo stroke it. Cubic
/// lengths come from adaptive 8-point Gauss–Legendre quadrature, accurate to about 1e-11 of each
/// curve's control-polygon length (far inside the 1e-6 relative the renderer needs).
///
/// Building one costs two arrays (segments and subpaths); every query afterwards is
/// allocation-free except the paths and polylines it returns.
public struct PathMeasure: Equatable, Sendable {
    /// One measured segment.
    struct Segment: Equatable, Sendable {
        var segment: PathSegment
        /// Distance from the path start to this segment's start, in pixels.
        var start: Double
        /// This segment's length, in pixels.
        var length: Double
        /// Index into `subpaths`.
        var subpath: Int
        var end: Double { start + length }
    }

    /// One subpath's extent in `segments` and in distance.
    struct Subpath: Equatable, Sendable {
        var firstSegment: Int
        var endSegment: Int
        var closed: Bool
        var start: Double
        var end: Double
    }

    /// The measured path.
    public let path: BezierPath
    /// Total arc length in pixels, over all subpaths (0 for an empty path).
    public let length: Double
    let segments: [Segment]
    let subpaths: [Subpath]

    /// Length of every segment (line, curve or closing line) in path order, in pixels. Used to
    /// give each path element an equal share of time (CAKeyframeAnimation `linear` along a path).
    public var segmentLengths: [Double] { segments.map(\.length) }

    /// Measures `path`.
    public init(_ path: BezierPath) {
        var segments: [Segment] = []
        segments.reserveCapacity(path.elements.count)
        var subpaths: [Subpath] = []
        var total = 0.0
        var first = 0
        var subpathStart = 0.0
        path.forEachSegment { event in
            switch event {
            case .begin:
                first = segments.count
                subpathStart = total
            case .segment(let segment):
                let length =
                    segment.isCubic ? segment.cubic.length : segment.p0.distance(to: segment.p3)
                segments.append(
                    Segment(segment: segment, start: total, length: length, subpath: subpaths.count))
                total += length
            case .end(let closed):
                if segments.count > first {
                    subpaths.append(
                        Subpath(
                            firstSegment: first, endSegment: segments.count, closed: closed,
                            start: subpathStart, end: total))
                }
            }
        }
        self.path = path
        self.length = total
        self.segments = segments
        self.subpaths = subpaths
    }

    // MARK: Trimming

    /// The part of the path between two fractions of its total length, like Core Animation's
    /// `strokeStart` / `strokeEnd` and SwiftUI's `trim(from:to:)`.
    ///
    /// Both fractions are clamped to 0…1 first (semantics.md §5.3). When `from` ≥ `to` the
    /// result is **empty** (no subpath at all, so a round cap cannot paint a stray dot). With
    /// `from` = 0 and `to` = 1 the original path is returned unchanged, closes included.
    /// Otherwise every subpath that overlaps the range by a positive length contributes one
    /// subpath: a subpath covered completely is copied as it was (closed ones stay closed);
    /// a partly covered one becomes an open subpath, with lines shortened and cubics cut at the
    /// parameters whose arc lengths match (de Casteljau), so curves stay curves.
    public func trimmed(from: Double, to: Double) -> BezierPath {
        let lower = Self.clampFraction(from)
        let upper = Self.clampFraction(to)
        guard lower < upper else { return BezierPath() }
        if lower == 0 && upper == 1 { return path }
        guard length > 0 else { return BezierPath() }
        let s0 = lower * length
        let s1 = upper * length
        var result = BezierPath()
        for subpath in subpaths where subpath.end > s0 && subpath.start < s1 {
            let whole = s0 <= subpath.start && s1 >= subpath.end
            var started = false
            for index in subpath.firstSegment..<subpath.endSegment {
                let measured = segments[index]
                let segment = measured.segment
                if whole {
                    if !started {
                        result.elements.append(.move(to: segment.p0))
                        started = true
                    }
                    if segment.isClosing {
                        result.elements.append(.close)
                    } else {
                        result.elements.append(Self.element(segment, cubic: segment.cubic))
                    }
                    continue
                }
                let a = max(s0, measured.start)
                let b = min(s1, measured.end)
                guard b > a, measured.length > 0 else { continue }
                let piece = Self.piece(
                    of: segment, length: measured.length,
                    from: a - measured.start, to: b - measured.start,
                    atStart: a == measured.start, atEnd: b == measured.end)
                if !started {
                    result.elements.append(.move(to: piece.p0))
                    started = true
                }
                result.elements.append(Self.element(segment, cubic: piece))
            }
        }
        return result
    }

    private static func clampFraction(_ value: Double) -> Double {
        value.isNaN ? 0 : min(max(value, 0), 1)
    }

    /// The element that draws `cubic` in the same kind as `segment` (closing lines become lines).
    private static func element(_ segment: PathSegment, cubic: Cubic) -> BezierPath.Element {
        segment.isCubic
            ? .cubic(to: cubic.p3, control1: cubic.p1, control2: cubic.p2) : .line(to: cubic.p3)
    }

    /// The piece of `segment` between local distances `a` < `b` (pixels from its start).
    private static func piece(
        of segment: PathSegment, length: Double, from a: Double, to b: Double, atStart: Bool,
        atEnd: Bool
    ) -> Cubic {
        let curve = segment.cubic
        if !segment.isCubic {
            let p = atStart ? curve.p0 : curve.p0.interpolated(to: curve.p3, fraction: a / length)
            let q = atEnd ? curve.p3 : curve.p0.interpolated(to: curve.p3, fraction: b / length)
            return Cubic.line(from: p, to: q)
        }
        let ta = atStart ? 0 : curve.parameter(atLength: a, totalLength: length)
        let tb = atEnd ? 1 : curve.parameter(atLength: b, totalLength: length)
        return curve.subcurve(from: ta, to: tb)
    }

    // MARK: Points along the path

    /// The position and heading at a fraction of the total length (clamped to 0…1), as
    /// `CAKeyframeAnimation` with `calculationMode` `.paced` along a path and `rotationMode`
    /// `.rotateAuto` (semantics.md §4.6). Nil when the path draws no segment.
    public func point(atFraction fraction: Double) -> PathPoint? {
        point(atDistance: Self.clampFraction(fraction) * length)
    }

    /// The position and heading at `distance` pixels along the path (clamped to 0…`length`).
    ///
    /// Where two segments meet, the later one is used (so distance 0 on a circle reports the
    /// first quarter's start heading), except at the very end, which uses the last segment.
    /// Zero-length segments are skipped; where a curve's derivative vanishes the heading comes
    /// from a nearby chord. Nil when the path draws no segment.
    public func point(atDistance distance: Double) -> PathPoint? {
        guard let lastIndex = segments.indices.last else { return nil }
        let s = distance.isNaN ? 0 : min(max(distance, 0), length)
        // The last segment starting at or before s (binary search on start distances)…
        var low = 0
        var high = lastIndex
        while low < high {
            let mid = (low + high + 1) / 2
            if segments[mid].start <= s { low = mid } else { high = mid - 1 }
        }
        var index = low
        // …but never a zero-length one: step back at the end, forward elsewhere.
        if segments[index].length == 0 {
            if let forward = segments[index...].firstIndex(where: { $0.length > 0 }),
                segments[forward].start <= s
            {
                index = forward
            } else if let backward = segments[...index].lastIndex(where: { $0.length > 0 }) {
                index = backward
            }
        }
        let measured = segments[index]
        let curve = measured.segment.cubic
        let local = min(max(s - measured.start, 0), measured.length)
        let t: Double
        if measured.length == 0 {
            t = 0
        } else if measured.segment.isCubic {
            t = curve.parameter(atLength: local, totalLength: measured.length)
        } else {
            t = local / measured.length
        }
        let position =
            measured.segment.isCubic
            ? curve.point(at: t) : (t == 1 ? curve.p3 : curve.p0.interpolated(to: curve.p3, fraction: t))
        return PathPoint(position: position, heading: Self.heading(curve.tangent(at: t)))
    }

    /// `atan2(dy, dx)` in degrees, in (−180, 180]; 0 when there is no direction.
    private static func heading(_ direction: Point?) -> Double {
        guard let direction else { return 0 }
        let degrees = DegreeTrig.degrees(atan2(direction.y, direction.x))
        return degrees == -180 ? 180 : degrees
    }

    // MARK: Flattening

    /// The path as polylines, one per subpath that draws at least one segment, staying within
    /// `tolerance` pixels of the curves.
    ///
    /// Lines are kept as they are; each cubic is sampled at equal parameter steps whose count
    /// comes from Wang's formula, which bounds the distance between curve and polyline. The
    /// tolerance is raised to at least 1e-9 px, and a cubic gets at most 65 536 steps.
    public func flattened(tolerance: Double) -> [Polyline] {
        let tolerance = tolerance.isNaN ? 1e-9 : max(tolerance, 1e-9)
        var result: [Polyline] = []
        result.reserveCapacity(subpaths.count)
        for subpath in subpaths {
            var points: [Point] = []
            let first = segments[subpath.firstSegment].segment.p0
            points.append(first)
            for index in subpath.firstSegment..<subpath.endSegment {
                let segment = segments[index].segment
                if segment.isClosing { continue }
                if segment.isCubic {
                    let steps = segment.cubic.flatteningSteps(tolerance: tolerance)
                    points.reserveCapacity(points.count + steps)
                    for step in 1..<steps {
                        points.append(segment.cubic.point(at: Double(step) / Double(steps)))
                    }
                }
                points.append(segment.p3)
            }
            if subpath.closed, points.count > 1, points[points.count - 1] == first {
                points.removeLast()
            }
            result.append(Polyline(points: points, closed: subpath.closed))
        }
        return result
    }
}
