// SPDX-License-Identifier: GPL-3.0-or-later

public import Geometry

extension LayerState {
    /// Maps the layer's coordinates to its parent's: move the anchor to the origin, scale, rotate
    /// (degrees, clockwise on screen), move to `position` (default: back to the anchor), then
    /// translate by `offset`.
    /// `pathRotation` (a path animation's heading) adds to `rotation`. Rotation3D effects are not
    /// included; see `Timeline`'s projective transform.
    public var transform: AffineTransform {
        let anchor = anchorLocation
        let target = position ?? anchor
        return AffineTransform.translation(x: -anchor.x, y: -anchor.y)
            .concatenating(.scale(x: scale.x, y: scale.y))
            .concatenating(.rotation(degrees: rotation + pathRotation))
            .concatenating(.translation(x: target.x + offset.x, y: target.y + offset.y))
    }
}

extension ShapeGeometry {
    /// The outline in the layer's coordinates, starting where Core Animation / SwiftUI start it
    /// (circles and ellipses at 3 o'clock, clockwise). Empty for groups.
    public var path: BezierPath {
        switch self {
        case .circle(let c, let r):
            return .circle(center: c, radius: r)
        case .ellipse(let c, let s):
            return .ellipse(center: c, radiusX: s.x / 2, radiusY: s.y / 2)
        case .rect(let c, let s, let r):
            return .rect(
                Rect(x: c.x - s.x / 2, y: c.y - s.y / 2, width: s.x, height: s.y), cornerRadius: r)
        case .arc(let c, let r, let a, let b, let cw):
            return .arc(center: c, radius: r, startAngle: a, endAngle: b, clockwise: cw)
        case .line(let a, let b):
            return .line(from: a, to: b)
        case .polygon(let points, let closed):
            return .polygon(points, closed: closed)
        case .path(let p):
            return p
        case .group, .replicator, .text, .image:
            return BezierPath(elements: [])
        }
    }
}
