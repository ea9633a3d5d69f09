// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Geometry
import Spec

/// The outline of a stroked set of polylines as pieces whose union is the stroke, for
/// `CoverageRasterizer` to fill with the non-zero rule: a quadrilateral per segment, a wedge per
/// join on the outer side of the turn, a piece per cap. Every piece is emitted with the same
/// orientation (positive signed area in user space), so windings only add up, and pieces that
/// abut (a segment and its join or cap) share their edge exactly, so it cancels.
///
/// The geometry follows Cairo 1.16's stroker (`cairo-path-stroke-polygon.c`), so the two agree
/// to antialiasing: the pen is a circle of the line width in **user space**, seen through
/// `transform` (a non-uniform scale strokes thicker along its longer axis, as Cairo does); the
/// inner side of a join is the two segments' overlap (Cairo pivots through the vertex, the same
/// union); a miter join is used while `1 / sin(φ/2) ≤ miterLimit` for the angle φ between the
/// segments (Cairo's test `2 ≤ miterLimit² · (1 − in·out)`), a bevel beyond; round joins and caps
/// use the vertices of Cairo's pen polygon, `n` points at angles `2πk/n` where `n` is the least
/// even number ≥ 4 with `r·(1 − cos(π/n))` within `tolerance` of the circle (Cairo's
/// `_cairo_pen_vertices_needed`, `r` the pen's largest radius on the device), so a round cap
/// has the same facets as Cairo's. Segments of length 0 are skipped (they set no direction); a
/// polyline whose points all coincide draws a disc with round caps and nothing otherwise
/// (Cairo 1.16 draws a degenerate subpath only with round caps). A turn of exactly 180° draws a
/// half disc with a round join and nothing with miter (over any limit) or bevel (no area).
///
/// A segment's piece ends at the inner corner of its joins (where the inner offset lines
/// cross) when that corner lies within half of both segments, so neighbouring pieces meet
/// without overlapping; otherwise both end at the perpendicular and overlap around the vertex
/// (Cairo's pivot). Segments shorter than 1/256 device px are dropped (Cairo's 24.8 fixed point
/// skips them).
///
/// Cost: O(points + pen vertices per round join or cap), no sorting, whatever the number of
/// self-intersections. Where the stroke overlaps itself the non-zero coverage of
/// `CoverageRasterizer` is exact except in pixels that an overlap shares with the stroke's rim
/// (crossings, caps of dashes closer than the width, pivots between segments shorter than the
/// width); there the averaged winding over-covers by at most the overlap's area in that pixel.
struct PolylineStroker {
    /// Half the line width in user space, > 0.
    let halfWidth: Double
    /// The ends of open polylines.
    let cap: LineCap
    /// The corners between segments.
    let join: LineJoin
    /// Miter length over line width above which a miter join is drawn as a bevel (≥ 1 in
    /// practice; smaller values bevel every join, as in Cairo).
    let miterLimit: Double
    /// User space to device pixels.
    let transform: Geometry.AffineTransform
    /// The pen polygon's vertices in user space, at angles 2πk/n (see the type).
    private let pen: [Point]

    /// A stroker for a pen of `width` user units seen through `transform`, its round parts
    /// within `tolerance` device pixels of the circle (Cairo's default tolerance is 0.1).
    init(
        width: Double, cap: LineCap, join: LineJoin, miterLimit: Double, transform: Geometry.AffineTransform,
        tolerance: Double = 0.1
    ) {
        let halfWidth = width / 2
        self.halfWidth = halfWidth
        self.cap = cap
        self.join = join
        self.miterLimit = miterLimit
        self.transform = transform
        let count = Self.penVertexCount(
            radius: halfWidth * transform.largestStretch, tolerance: tolerance)
        pen = (0..<count).map { k in
            let angle = 2 * Double.pi * Double(k) / Double(count)
            return Point(x: halfWidth * cos(angle), y: halfWidth * sin(angle))
        }
    }

    /// The number of pen vertices for a circle of `radius` device pixels within `tolerance`:
    /// 1 when the tolerance is at least twice the diameter, 4 when it is at least the radius,
    /// otherwise the least even n ≥ 4 with `radius · (1 − cos(π/n)) ≤ tolerance` (Cairo's
    /// rule), at most 4096 (a pen of 65 000 px radius at 0.1 px).
    static func penVertexCount(radius: Double, tolerance: Double) -> Int {
        guard radius.isFinite, tolerance.isFinite, tolerance > 0 else { return 4 }
        if tolerance >= 4 * radius { return 1 }
        if tolerance >= radius { return 4 }
        let step = acos(1 - tolerance / radius)
        guard step > 0 else { return 4096 }
        let needed = (2 * Double.pi / step).rounded(.up)
        guard needed < 4096 else { return 4096 }
        var count = Int(needed)  // 4 < needed < 4096: in range
        if count % 2 == 1 { count += 1 }
        return max(count, 4)
    }

    /// The device-space bounds that contain every piece of `polylines`' stroke: their points'
    /// bounds grown by the largest reach of a piece from its vertex (half the width, times the
    /// miter limit for miter joins, √2 for square caps) through `transform`. Nil when there is
    /// no point or a coordinate is not finite.
    func deviceBounds(of polylines: [Polyline]) -> (minX: Double, minY: Double, maxX: Double, maxY: Double)? {
        var bounds = (minX: Double.infinity, minY: Double.infinity, maxX: -Double.infinity, maxY: -Double.infinity)
        for line in polylines {
            for p in line.points {
                let q = transform.apply(to: p)
                bounds.minX = min(bounds.minX, q.x)
                bounds.minY = min(bounds.minY, q.y)
                bounds.maxX = max(bounds.maxX, q.x)
                bounds.maxY = max(bounds.maxY, q.y)
            }
        }
        var reach = halfWidth * (cap == .square ? 2.squareRoot() : 1)
        if join == .miter { reach = max(reach, halfWidth * miterLimit) }
        let grow = reach * transform.largestStretch + 1
        bounds = (bounds.minX - grow, bounds.minY - grow, bounds.maxX + grow, bounds.maxY + grow)
        guard bounds.minX.isFinite, bounds.minY.isFinite, bounds.maxX.isFinite, bounds.maxY.isFinite else {
            return nil
        }
        return bounds
    }

    /// Calls `edge` with every edge of every piece of `polylines`' stroke, in device pixels.
    /// Open polylines get a cap at each end; closed ones (`Polyline.closed`, the first point not
    /// repeated) a join at every vertex.
    func stroke(_ polylines: [Polyline], edge: (Point, Point) -> Void) {
        guard halfWidth > 0, halfWidth.isFinite else { return }
        withoutActuallyEscaping(edge) { edge in
            // The emitter lives only for this call.
            var emitter = PieceEmitter(transform: transform, edge: edge)
            for line in polylines {
                stroke(line, into: &emitter)
            }
        }
    }

    private func stroke(_ line: Polyline, into out: inout PieceEmitter) {
        // Points at least 1/256 device px apart (Cairo's 24.8 fixed point, whose stroker skips
        // a segment whose ends round to one point): a sliver at a dash's end keeps no direction
        // of its own. Cairo also rounds the slivers it keeps, turning a dash's end cap by up
        // to 45° where its last segment is a few 1/256 px long; here it follows the path.
        var points: [Point] = []
        points.reserveCapacity(line.points.count)
        for p in line.points where p.x.isFinite && p.y.isFinite {
            if let last = points.last, deviceLength(p - last) < 1.0 / 256 { continue }
            points.append(p)
        }
        if line.closed, points.count > 1, let last = points.last, deviceLength(points[0] - last) < 1.0 / 256 {
            points.removeLast()
        }
        guard let first = points.first else { return }
        if points.count == 1 {
            if cap == .round { out.emit(pen.map { first + $0 }) }
            return
        }
        let closed = line.closed
        let segmentCount = closed ? points.count : points.count - 1
        var directions: [Point] = []
        var lengths: [Double] = []
        directions.reserveCapacity(segmentCount)
        lengths.reserveCapacity(segmentCount)
        for i in 0..<segmentCount {
            let v = points[(i + 1) % points.count] - points[i]
            let length = v.length
            directions.append(Point(x: v.x / length, y: v.y / length))
            lengths.append(length)
        }
        // The inner corner of each join: where the two inner offset lines cross, when that lies
        // within the first half of both segments (then the segments' pieces meet there and do
        // not overlap), else nil (the pieces overlap around the vertex, as Cairo's pivot does).
        // Index j is the join at the start of segment j.
        var inner = [InnerCorner?](repeating: nil, count: segmentCount)
        for j in 0..<segmentCount where closed || j > 0 {
            let before = j == 0 ? segmentCount - 1 : j - 1
            inner[j] = innerCorner(
                at: points[j], from: directions[before], to: directions[j],
                room: min(lengths[before], lengths[j]) / 2)
        }
        for i in 0..<segmentCount {
            let p = points[i]
            let q = points[(i + 1) % points.count]
            let u = directions[i]
            let n = Point(x: -u.y * halfWidth, y: u.x * halfWidth)
            let start = inner[i]
            let end = closed || i + 1 < segmentCount ? inner[(i + 1) % segmentCount] : nil
            // The segment's piece: both ends through the vertex on the centre line, each side
            // ending at the perpendicular or at the join's inner corner.
            let startPlus = start.flatMap { $0.side > 0 ? $0.point : nil } ?? p + n
            let startMinus = start.flatMap { $0.side < 0 ? $0.point : nil } ?? p - n
            let endPlus = end.flatMap { $0.side > 0 ? $0.point : nil } ?? q + n
            let endMinus = end.flatMap { $0.side < 0 ? $0.point : nil } ?? q - n
            out.emit([p, startPlus, endPlus, q, endMinus, startMinus])
            if i > 0 {
                addJoin(at: p, from: directions[i - 1], to: u, into: &out)
            } else if !closed {
                addCap(at: p, direction: -u, into: &out)
            }
        }
        if closed {
            addJoin(at: points[0], from: directions[segmentCount - 1], to: directions[0], into: &out)
        } else {
            addCap(at: points[points.count - 1], direction: directions[segmentCount - 1], into: &out)
        }
    }

    /// Where a join's inner offset lines cross, and on which side of the segments (+1: the
    /// side of the normal `(−u.y, u.x)`).
    private struct InnerCorner {
        let point: Point
        let side: Double
    }

    /// The inner corner of the join at `v` from unit direction `u0` to `u1`, when it lies at most
    /// `room` along each segment from the vertex; nil for a straight join, a reversal or a
    /// corner too far out.
    private func innerCorner(at v: Point, from u0: Point, to u1: Point, room: Double) -> InnerCorner? {
        let cross = u0.x * u1.y - u0.y * u1.x
        let dot = u0.x * u1.x + u0.y * u1.y
        guard cross != 0, dot > -1 else { return nil }
        // Distance from the perpendicular to the corner along each segment: h·tan(θ/2).
        guard halfWidth * abs(cross) / (1 + dot) <= room else { return nil }
        let side: Double = cross > 0 ? 1 : -1
        let a = Point(x: -u0.y * halfWidth * side, y: u0.x * halfWidth * side)
        let b = Point(x: -u1.y * halfWidth * side, y: u1.x * halfWidth * side)
        return InnerCorner(point: v + (a + b) * (1 / (1 + dot)), side: side)
    }

    /// The length of the vector `v` seen through `transform` (its linear part), device px.
    private func deviceLength(_ v: Point) -> Double {
        Point(x: transform.a * v.x + transform.c * v.y, y: transform.b * v.x + transform.d * v.y).length
    }

    /// The unit vector along `u` seen through `transform` (its linear part).
    private func device(_ u: Point) -> Point {
        let v = Point(x: transform.a * u.x + transform.c * u.y, y: transform.b * u.x + transform.d * u.y)
        let length = v.length
        return length > 0 ? Point(x: v.x / length, y: v.y / length) : u
    }

    /// A cap at `p` facing `direction` (a unit vector pointing out of the stroke).
    private func addCap(at p: Point, direction u: Point, into out: inout PieceEmitter) {
        let n = Point(x: -u.y * halfWidth, y: u.x * halfWidth)
        switch cap {
        case .butt:
            return
        case .square:
            let e = u * halfWidth
            out.emit([p + n, p - n, p - n + e, p + n + e])
        case .round:
            // From the side at +n round through the front to −n.
            var piece = [p, p + n]
            appendPenVertices(from: n, turning: -1, through: Double.pi, at: p, into: &piece)
            piece.append(p - n)
            out.emit(piece)
        }
    }

    /// The outer part of the join at `v` from unit direction `u0` to `u1`.
    private func addJoin(at v: Point, from u0: Point, to u1: Point, into out: inout PieceEmitter) {
        let cross = u0.x * u1.y - u0.y * u1.x
        let dot = u0.x * u1.x + u0.y * u1.y
        if cross == 0 && dot > 0 { return }  // straight on: the quads abut
        // The outer side: opposite to where the path turns. Its normals at both segments.
        let side: Double = cross > 0 ? -1 : 1
        let a = Point(x: -u0.y * halfWidth * side, y: u0.x * halfWidth * side)
        let b = Point(x: -u1.y * halfWidth * side, y: u1.x * halfWidth * side)
        switch join {
        case .bevel:
            out.emit([v, v + a, v + b])
        case .miter:
            // Cairo tests the miter limit with the directions seen on the device.
            let d0 = device(u0)
            let d1 = device(u1)
            if 2 <= miterLimit * miterLimit * (1 + d0.x * d1.x + d0.y * d1.y) {
                // The outer offset lines meet at v + (a + b) / (1 + u0·u1).
                let m = v + (a + b) * (1 / (1 + dot))
                out.emit([v, v + a, m, v + b])
            } else {
                out.emit([v, v + a, v + b])
            }
        case .round:
            // The turn's angle, 0…π, swept from a to b the way the path turns.
            let angle = abs(atan2(cross, dot))
            // A reversal (cross 0) goes round the front, from a = u0 turned +90° back through u0.
            let turning: Double = cross > 0 ? 1 : -1
            var piece = [v, v + a]
            appendPenVertices(from: a, turning: turning, through: angle, at: v, into: &piece)
            piece.append(v + b)
            out.emit(piece)
        }
    }

    /// Appends `centre` + the pen vertices strictly inside the arc that starts at the offset
    /// `start` (length `halfWidth`) and sweeps `sweep` radians (0…π) clockwise in y-down
    /// coordinates when `turning` is 1, counter-clockwise when −1.
    private func appendPenVertices(
        from start: Point, turning: Double, through sweep: Double, at centre: Point, into piece: inout [Point]
    ) {
        let count = pen.count
        guard count > 1 else { return }
        let step = 2 * Double.pi / Double(count)
        var startAngle = atan2(start.y, start.x)
        if startAngle < 0 { startAngle += 2 * Double.pi }
        // Pen vertex k sits at angle k·step; walk from the first one past the start.
        let position = startAngle / step
        var k = turning > 0 ? position.rounded(.down) + 1 : position.rounded(.up) - 1
        let epsilon = 1e-9
        while true {
            let offset = (k * step - startAngle) * turning
            guard offset < sweep - epsilon else { break }
            if offset > epsilon {
                let index = ((Int(k) % count) + count) % count  // |k| ≤ count + 1: in range
                piece.append(centre + pen[index])
            }
            k += turning
        }
    }
}

/// Orients each piece to positive signed area and hands its edges, mapped to device pixels, to
/// the caller's closure.
private struct PieceEmitter {
    let transform: Geometry.AffineTransform
    let edge: (Point, Point) -> Void

    /// Emits the closed polygon `piece` (user space), reversed if its signed area is negative;
    /// a piece without area adds nothing and is dropped.
    func emit(_ piece: [Point]) {
        guard piece.count > 2 else { return }
        var area = 0.0
        for i in piece.indices {
            let p = piece[i]
            let q = piece[i + 1 == piece.count ? 0 : i + 1]
            area += p.x * q.y - q.x * p.y
        }
        guard area != 0, area.isFinite else { return }
        let device = piece.map { transform.apply(to: $0) }
        if area > 0 {
            for i in device.indices { edge(device[i], device[i + 1 == device.count ? 0 : i + 1]) }
        } else {
            for i in device.indices.reversed() { edge(device[i], device[i == 0 ? device.count - 1 : i - 1]) }
        }
    }
}
