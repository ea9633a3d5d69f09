// SPDX-License-Identifier: GPL-3.0-or-later

import Glibc

extension BezierPath {
    /// The cubic control-point factor for a quarter circle, `4/3·tan(π/8)` ≈ 0.5522847498: the
    /// standard choice that puts the curve's midpoint exactly on the circle.
    public static let quarterCircleFactor = 4.0 / 3.0 * tan(Double.pi / 8)

    /// A circle of `radius` pixels (its magnitude is used) around `center`.
    ///
    /// Like SwiftUI's `Circle` and `UIBezierPath(ovalIn:)` (semantics.md §5.1) it starts at the
    /// rightmost point (3 o'clock) and runs clockwise on screen (3 → 6 → 9 → 12 o'clock): four
    /// cubic quarter arcs with `quarterCircleFactor`, then `close`.
    public static func circle(center: Point, radius: Double) -> BezierPath {
        ellipse(center: center, radiusX: radius, radiusY: radius)
    }

    /// An axis-aligned ellipse with horizontal radius `radiusX` and vertical radius `radiusY`
    /// (pixels; magnitudes are used), starting at 3 o'clock and running clockwise on screen in
    /// four cubic quarter arcs, closed. See `circle(center:radius:)`.
    public static func ellipse(center: Point, radiusX: Double, radiusY: Double) -> BezierPath {
        let rx = abs(radiusX)
        let ry = abs(radiusY)
        let kx = rx * quarterCircleFactor
        let ky = ry * quarterCircleFactor
        let (cx, cy) = (center.x, center.y)
        let right = Point(x: cx + rx, y: cy)
        let bottom = Point(x: cx, y: cy + ry)
        let left = Point(x: cx - rx, y: cy)
        let top = Point(x: cx, y: cy - ry)
        return BezierPath(elements: [
            .move(to: right),
            .cubic(
                to: bottom, control1: Point(x: cx + rx, y: cy + ky), control2: Point(x: cx + kx, y: cy + ry)
            ),
            .cubic(
                to: left, control1: Point(x: cx - kx, y: cy + ry), control2: Point(x: cx - rx, y: cy + ky)),
            .cubic(
                to: top, control1: Point(x: cx - rx, y: cy - ky), control2: Point(x: cx - kx, y: cy - ry)),
            .cubic(
                to: right, control1: Point(x: cx + kx, y: cy - ry), control2: Point(x: cx + rx, y: cy - ky)),
            .close,
        ])
    }

    /// A rectangle, optionally with circular corners, running clockwise on screen (y down) and
    /// closed.
    ///
    /// - A plain rectangle (`cornerRadius` ≤ 0) starts at the top-left corner `(minX, minY)` and
    ///   goes to the top-right, bottom-right and bottom-left corners, as `CGPath.addRect` does.
    /// - With corners it starts on the top edge just after the top-left corner,
    ///   `(minX + r, minY)`, like `UIBezierPath(roundedRect:cornerRadius:)`, and ends with the
    ///   top-left corner. Each corner is one cubic quarter arc (`quarterCircleFactor`); UIKit's
    ///   own "continuous" corners are not reproduced.
    ///
    /// `r` is `cornerRadius` clamped to half the shorter side. The rectangle is standardised
    /// first, so a negative width or height does not reverse the direction.
    public static func rect(_ rect: Rect, cornerRadius: Double = 0) -> BezierPath {
        let (x0, y0, x1, y1) = (rect.minX, rect.minY, rect.maxX, rect.maxY)
        let r = min(cornerRadius, min(x1 - x0, y1 - y0) / 2)
        guard r > 0 else {
            return BezierPath(elements: [
                .move(to: Point(x: x0, y: y0)),
                .line(to: Point(x: x1, y: y0)),
                .line(to: Point(x: x1, y: y1)),
                .line(to: Point(x: x0, y: y1)),
                .close,
            ])
        }
        let k = r * quarterCircleFactor
        var path = BezierPath()
        path.move(to: Point(x: x0 + r, y: y0))
        func lineIfLong(to p: Point, from q: Point) {
            if p != q { path.elements.append(.line(to: p)) }
        }
        lineIfLong(to: Point(x: x1 - r, y: y0), from: Point(x: x0 + r, y: y0))
        path.elements.append(
            .cubic(
                to: Point(x: x1, y: y0 + r), control1: Point(x: x1 - r + k, y: y0),
                control2: Point(x: x1, y: y0 + r - k)))
        lineIfLong(to: Point(x: x1, y: y1 - r), from: Point(x: x1, y: y0 + r))
        path.elements.append(
            .cubic(
                to: Point(x: x1 - r, y: y1), control1: Point(x: x1, y: y1 - r + k),
                control2: Point(x: x1 - r + k, y: y1)))
        lineIfLong(to: Point(x: x0 + r, y: y1), from: Point(x: x1 - r, y: y1))
        path.elements.append(
            .cubic(
                to: Point(x: x0, y: y1 - r), control1: Point(x: x0 + r - k, y: y1),
                control2: Point(x: x0, y: y1 - r + k)))
        lineIfLong(to: Point(x: x0, y: y0 + r), from: Point(x: x0, y: y1 - r))
        path.elements.append(
            .cubic(
                to: Point(x: x0 + r, y: y0), control1: Point(x: x0, y: y0 + r - k),
                control2: Point(x: x0 + r - k, y: y0)))
        path.elements.append(.close)
        return path
    }

    /// A circular arc of `radius` pixels around `center`, as an open subpath starting with a
    /// `move` to the start point. The radius is used as given (a negative one mirrors the arc
    /// through the centre, as in Cairo).
    ///
    /// Angles are in degrees, 0 = +x (3 o'clock), 90 = 6 o'clock on screen (y down).
    /// `clockwise: true` sweeps towards increasing angles, which is clockwise on screen
    /// (UIKit's `UIBezierPath(arcCenter:…)` and Cairo's `cairo_arc`; SwiftUI's `Path.addArc`
    /// uses the opposite flag, semantics.md §5.1). As in Cairo, when the end angle lies behind
    /// the start in the chosen direction it is moved by whole turns until it does not, and a
    /// sweep of more than 360° keeps winding. Equal angles give just the `move`. The arc is
    /// split into cubic segments of at most 90° each (control distance `4/3·tan(φ/4)·r`).
    public static func arc(
        center: Point, radius: Double, startAngle: Double, endAngle: Double, clockwise: Bool
    ) -> BezierPath {
        guard startAngle.isFinite, endAngle.isFinite else { return BezierPath() }
        var end = endAngle
        if clockwise {
            if end < startAngle { end += ((startAngle - end) / 360).rounded(.up) * 360 }
        } else {
            if end > startAngle { end -= ((end - startAngle) / 360).rounded(.up) * 360 }
        }
        var path = BezierPath()
        path.move(
            to: arcPoint(
                center: center, radiusX: radius, radiusY: radius, rotation: .identity, degrees: startAngle))
        path.appendArcSegments(
            center: center, radiusX: radius, radiusY: radius, rotation: .identity,
            startDegrees: startAngle, sweepDegrees: end - startAngle, exactEnd: nil)
        return path
    }

    /// A single straight line from `start` to `end` (an open subpath).
    public static func line(from start: Point, to end: Point) -> BezierPath {
        BezierPath(elements: [.move(to: start), .line(to: end)])
    }

    /// Straight lines through `points` in order, closed back to the first point when `closed`.
    /// No points give an empty path; one point gives a lone `move` (nothing is drawn).
    public static func polygon(_ points: [Point], closed: Bool = true) -> BezierPath {
        guard let first = points.first else { return BezierPath() }
        var elements: [Element] = [.move(to: first)]
        elements.reserveCapacity(points.count + 1)
        for p in points.dropFirst() { elements.append(.line(to: p)) }
        if closed && points.count > 1 { elements.append(.close) }
        return BezierPath(elements: elements)
    }

    /// The point at angle `degrees` on an ellipse with radii `radiusX`, `radiusY` whose axes are
    /// turned by `rotation`, around `center`.
    static func arcPoint(
        center: Point, radiusX: Double, radiusY: Double, rotation: AffineTransform, degrees: Double
    ) -> Point {
        let (c, s) = DegreeTrig.cosSin(degrees)
        return center + rotation.apply(to: Point(x: radiusX * c, y: radiusY * s))
    }

    /// Most cubic segments one arc is cut into: 1024 quarter turns, 256 full turns (Cairo strokes
    /// overlapping turns superlinearly: a 20 pt ring of 65 536 quarters took 300 s, 1024 take
    /// 0.15 s, debug build). A longer
    /// sweep is cut to that many turns (it would only wind over the same curve again);
    /// `ExportBudget` refuses such arcs before anything is drawn, naming the angle.
    public static let maximumArcSegments = 1 << 10

    /// Appends cubic segments of at most 90° approximating an elliptical arc from
    /// `startDegrees` over `sweepDegrees` (positive = increasing angle = clockwise on screen).
    /// The ellipse point at angle θ is `center + rotation·(radiusX·cos θ, radiusY·sin θ)`.
    /// `exactEnd`, when given, replaces the computed last end point (SVG arcs end exactly on
    /// their given end point).
    mutating func appendArcSegments(
        center: Point, radiusX: Double, radiusY: Double, rotation: AffineTransform,
        startDegrees: Double, sweepDegrees: Double, exactEnd: Point?
    ) {
        guard sweepDegrees != 0, sweepDegrees.isFinite else { return }
        // Checked: a sweep of 1e300° would overflow Int; past the cap the arc only winds again
        // over the same circle, so it is cut to the cap (a whole number of turns).
        let limit = Double(Self.maximumArcSegments) * 90
        let sweepDegrees = min(max(sweepDegrees, -limit), limit)
        let quarters = (abs(sweepDegrees) / 90 - 1e-9).rounded(.up)
        let count = max(1, Int(exactly: quarters) ?? Self.maximumArcSegments)
        let step = sweepDegrees / Double(count)
        let alpha = 4.0 / 3.0 * tan(DegreeTrig.radians(step) / 4)
        func derivative(_ degrees: Double) -> Point {
            let (c, s) = DegreeTrig.cosSin(degrees)
            return rotation.apply(to: Point(x: -radiusX * s, y: radiusY * c))
        }
        var angle = startDegrees
        var from = BezierPath.arcPoint(
            center: center, radiusX: radiusX, radiusY: radiusY, rotation: rotation, degrees: angle)
        for index in 0..<count {
            let next =
                index == count - 1 ? startDegrees + sweepDegrees : startDegrees + step * Double(index + 1)
            var to = BezierPath.arcPoint(
                center: center, radiusX: radiusX, radiusY: radiusY, rotation: rotation, degrees: next)
            if index == count - 1, let exactEnd { to = exactEnd }
            elements.append(
                .cubic(
                    to: to,
                    control1: from + alpha * derivative(angle),
                    control2: to - alpha * derivative(next)))
            from = to
            angle = next
        }
    }
}
