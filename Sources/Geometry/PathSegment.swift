// SPDX-License-Identifier: GPL-3.0-or-later

import Glibc

/// One drawn piece of a path with its start point resolved: a line or a cubic.
struct PathSegment: Equatable, Sendable {
    /// The curve; for a line, control points sit at thirds so `t` is proportional to length.
    var cubic: Cubic
    /// True for a cubic element, false for a line (including a closing line).
    var isCubic: Bool
    /// True for the line that a `close` element draws back to the subpath start.
    var isClosing: Bool

    /// Start point.
    var p0: Point { cubic.p0 }
    /// End point.
    var p3: Point { cubic.p3 }
}

/// What `BezierPath.forEachSegment` reports, in drawing order.
enum PathWalkEvent {
    /// A subpath starts at this point.
    case begin(Point)
    /// A segment of the current subpath.
    case segment(PathSegment)
    /// The current subpath ends, closed by a `close` element or left open.
    case end(closed: Bool)
}

extension BezierPath {
    /// Walks the elements with the rules on `BezierPath` (Cairo's path model), reporting each
    /// subpath's start, its segments with resolved start points, and its end. No allocation.
    func forEachSegment(_ body: (PathWalkEvent) -> Void) {
        var current: Point?
        var start = Point.zero
        var isOpen = false

        func begin(_ p: Point) {
            if isOpen { body(.end(closed: false)) }
            body(.begin(p))
            current = p
            start = p
            isOpen = true
        }
        func from(_ implicitStart: Point) -> Point {
            guard let c = current else {
                begin(implicitStart)
                return implicitStart
            }
            if !isOpen { begin(c) }
            return c
        }

        for element in elements {
            switch element {
            case .move(let p):
                begin(p)
            case .line(let p):
                guard current != nil else {
                    begin(p)
                    continue
                }
                let a = from(p)
                body(.segment(PathSegment(cubic: .line(from: a, to: p), isCubic: false, isClosing: false)))
                current = p
            case .cubic(let p, let c1, let c2):
                let a = from(c1)
                body(
                    .segment(
                        PathSegment(cubic: Cubic(p0: a, p1: c1, p2: c2, p3: p), isCubic: true, isClosing: false)
                    ))
                current = p
            case .close:
                guard isOpen, let c = current else { continue }
                body(
                    .segment(PathSegment(cubic: .line(from: c, to: start), isCubic: false, isClosing: true)))
                body(.end(closed: true))
                isOpen = false
                current = start
            }
        }
        if isOpen { body(.end(closed: false)) }
    }
}
