// SPDX-License-Identifier: GPL-3.0-or-later

public import Geometry
public import Spec

/// Evaluates a composition at an instant: a pure function of (composition, time). Frame n comes
/// out the same whichever frame was evaluated before it, so frames may be drawn in any order or
/// in parallel.
public enum SceneEvaluator {
    /// The scene at time `t` (seconds on the composition's clock; see `LoopPlan.time(ofFrame:)`).
    public static func scene(of composition: Composition, at t: Double) -> FrameScene {
        FrameScene(
            width: composition.canvas.width, height: composition.canvas.height,
            background: composition.canvas.background,
            nodes: composition.layers.compactMap { node(for: $0, at: t) })
    }

    /// The node for one layer, or nil when it is hidden, fully transparent or draws nothing.
    static func node(for layer: Layer, at t: Double) -> SceneNode? {
        let state = AnimationEvaluator.presentation(of: layer.state, animations: layer.animations, at: t)
        guard !state.hidden, state.opacity > 0 else { return nil }
        let content: SceneContent
        if case .group = state.shape {
            let children = layer.children.compactMap { node(for: $0, at: t) }
            guard !children.isEmpty else { return nil }
            content = .group(children)
        } else {
            guard let drawing = drawing(for: state) else { return nil }
            content = .shape(drawing)
        }
        return SceneNode(transform: state.transform, opacity: min(state.opacity, 1), content: content)
    }

    /// Paths and paint of a shape layer; nil when it paints nothing.
    static func drawing(for state: LayerState) -> ShapeDrawing? {
        let path = state.shape.path
        let fill = state.fillColor.flatMap { $0.alpha > 0 ? $0 : nil }
        var strokePath: BezierPath?
        var dashPhase = state.lineDashPhase
        if let color = state.strokeColor, color.alpha > 0, state.lineWidth > 0 {
            let start = min(max(state.strokeStart, 0), 1)
            let end = min(max(state.strokeEnd, 0), 1)
            if start <= 0 && end >= 1 {
                strokePath = path
            } else if start < end {
                let measure = PathMeasure(path)
                strokePath = measure.trimmed(from: start, to: end)
                // Keep dashes anchored to the untrimmed path so they do not crawl as strokeStart
                // moves (how CAShapeLayer looks; semantics §5.3 marks it undocumented).
                if !state.lineDashPattern.isEmpty {
                    dashPhase += start * measure.length
                }
            }
            if strokePath?.isEmpty == true { strokePath = nil }
        }
        guard fill != nil || strokePath != nil else { return nil }
        return ShapeDrawing(
            fillPath: fill == nil ? nil : path,
            fillColor: fill ?? .clear,
            fillRule: state.fillRule,
            strokePath: strokePath,
            stroke: StrokeDrawing(
                color: state.strokeColor ?? .clear, width: state.lineWidth, lineCap: state.lineCap,
                lineJoin: state.lineJoin, miterLimit: state.miterLimit,
                dashes: state.lineDashPattern, dashPhase: dashPhase))
    }
}

extension LayerState {
    /// Maps the layer's coordinates to its parent's: move the anchor to the origin, scale, rotate
    /// (degrees, clockwise on screen), move to `position` (default: back to the anchor), then
    /// translate by `offset`.
    public var transform: AffineTransform {
        let anchor = anchorLocation
        let target = position ?? anchor
        return AffineTransform.translation(x: -anchor.x, y: -anchor.y)
            .concatenating(.scale(x: scale.x, y: scale.y))
            .concatenating(.rotation(degrees: rotation))
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
        case .group:
            return BezierPath(elements: [])
        }
    }
}
