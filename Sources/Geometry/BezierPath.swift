// SPDX-License-Identifier: GPL-3.0-or-later

import Glibc

/// A path of straight lines and cubic Bézier curves in screen coordinates (pixels, y down),
/// the common currency between shapes, SVG path data, measuring, trimming and drawing.
///
/// The element list follows Cairo's path model so that drawing it with `cairo_move_to`,
/// `cairo_line_to`, `cairo_curve_to` and `cairo_close_path` gives exactly what `PathMeasure`
/// measures:
/// - `move` starts a subpath;
/// - `close` draws a straight line back to the subpath's start and closes it; afterwards the
///   current point is that start, and a following `line` or `cubic` opens a new subpath there;
/// - a `line` or `cubic` at the very beginning (no current point) behaves as Cairo does: a
///   `line(to: p)` becomes a move to `p`, a `cubic` first moves to its `control1`;
/// - a `close` with no open subpath does nothing.
///
/// The builder methods (`move(to:)`, `addLine(to:)`, …) and every shape constructor produce
/// canonical lists in which each subpath begins with an explicit `move`.
public struct BezierPath: Equatable, Sendable {
    /// One path command.
    public enum Element: Equatable, Sendable {
        /// Start a new subpath at a point.
        case move(to: Point)
        /// A straight line from the current point.
        case line(to: Point)
        /// A cubic Bézier curve from the current point through two control points.
        case cubic(to: Point, control1: Point, control2: Point)
        /// A straight line back to the start of the current subpath, closing it.
        case close
    }

    /// The commands in drawing order.
    public var elements: [Element]

    /// A path from a list of elements (taken as given; see the type's rules).
    public init(elements: [Element] = []) {
        self.elements = elements
    }

    /// True when the path has no elements at all (as `CGPath.isEmpty`).
    public var isEmpty: Bool { elements.isEmpty }

    /// Where the next element would start: the end point of the last element, the subpath start
    /// after a `close`, or nil for an empty path.
    public var currentPoint: Point? { drawingState.current }

    /// Begins a new subpath at `point`.
    public mutating func move(to point: Point) {
        elements.append(.move(to: point))
    }

    /// Adds a straight line to `point`. With no current point this is a move to `point`; after
    /// a `close` an explicit move to the closed subpath's start is inserted first.
    public mutating func addLine(to point: Point) {
        let state = drawingState
        guard let current = state.current else {
            elements.append(.move(to: point))
            return
        }
        if !state.isOpen { elements.append(.move(to: current)) }
        elements.append(.line(to: point))
    }

    /// Adds a cubic Bézier curve to `point` with control points `control1` and `control2`.
    /// With no current point, first moves to `control1` (Cairo's rule); after a `close` an
    /// explicit move to the closed subpath's start is inserted first.
    public mutating func addCubic(to point: Point, control1: Point, control2: Point) {
        let state = drawingState
        if let current = state.current {
            if !state.isOpen { elements.append(.move(to: current)) }
        } else {
            elements.append(.move(to: control1))
        }
        elements.append(.cubic(to: point, control1: control1, control2: control2))
    }

    /// Adds a quadratic Bézier curve to `point` with control point `control`, stored exactly as
    /// the equivalent cubic (control points 2/3 of the way from each end towards `control`).
    /// With no current point, first moves to `control`.
    public mutating func addQuadCurve(to point: Point, control: Point) {
        let start = currentPoint ?? control
        addCubic(
            to: point,
            control1: start + (control - start) * (2.0 / 3.0),
            control2: point + (control - point) * (2.0 / 3.0))
    }

    /// Closes the current subpath with a straight line back to its start. Does nothing when no
    /// subpath is open.
    public mutating func close() {
        guard drawingState.isOpen else { return }
        elements.append(.close)
    }

    /// Appends all elements of `other`.
    public mutating func append(_ other: BezierPath) {
        elements.append(contentsOf: other.elements)
    }

    /// The current point and whether a subpath is open, found by reading backwards from the end
    /// (usually one element) with the rules documented on the type.
    var drawingState: (current: Point?, isOpen: Bool) {
        guard let last = elements.last else { return (nil, false) }
        switch last {
        case .move(let p), .line(let p), .cubic(let p, _, _):
            return (p, true)
        case .close:
            // The subpath start: the nearest earlier move, or the implicit start of a path that
            // begins with a drawing element. A close that closed nothing leaves the same answer.
            for element in elements.reversed() {
                if case .move(let p) = element { return (p, false) }
            }
            switch elements[0] {
            case .move(let p), .line(let p): return (p, false)
            case .cubic(_, let c1, _): return (c1, false)
            case .close: return (nil, false)
            }
        }
    }

    /// The path with every point (end points and control points) mapped through `t`; affine maps
    /// take Bézier curves to Bézier curves exactly.
    public func applying(_ t: AffineTransform) -> BezierPath {
        BezierPath(
            elements: elements.map { element in
                switch element {
                case .move(let p): .move(to: t.apply(to: p))
                case .line(let p): .line(to: t.apply(to: p))
                case .cubic(let p, let c1, let c2):
                    .cubic(to: t.apply(to: p), control1: t.apply(to: c1), control2: t.apply(to: c2))
                case .close: .close
                }
            })
    }

    /// The tight bounding box of the drawn geometry (start and end points, move points, and the
    /// extreme points of cubic curves; control points only where the curve reaches them), or nil
    /// for a path with no elements. A path of a single point gives a zero-size rectangle.
    public var bounds: Rect? {
        var minX = Double.infinity
        var minY = Double.infinity
        var maxX = -Double.infinity
        var maxY = -Double.infinity
        func include(_ p: Point) {
            minX = Swift.min(minX, p.x)
            minY = Swift.min(minY, p.y)
            maxX = Swift.max(maxX, p.x)
            maxY = Swift.max(maxY, p.y)
        }
        forEachSegment { event in
            switch event {
            case .begin(let p):
                include(p)
            case .segment(let segment):
                include(segment.p3)
                if segment.isCubic {
                    let cubic = segment.cubic
                    cubic.forEachExtremumParameter { t in include(cubic.point(at: t)) }
                }
            case .end:
                break
            }
        }
        guard minX <= maxX, minY <= maxY else { return nil }
        return Rect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }
}
