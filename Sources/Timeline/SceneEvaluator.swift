// SPDX-License-Identifier: GPL-3.0-or-later

public import Geometry
public import Spec

/// Evaluates a composition at an instant: a pure function of (composition, time). Frame n comes
/// out the same whichever frame was evaluated before it, so frames may be drawn in any order or
/// in parallel.
public enum SceneEvaluator {
    /// The scene at time `t` (seconds on the composition's clock; see `LoopPlan.time(ofFrame:)`).
    public static func scene(of composition: Composition, at t: Double) -> FrameScene {
        scene(of: composition, at: SampleTime(t))
    }

    /// The scene at instant `t`, exact where `t` is (frame times from
    /// `LoopPlan.sampleTime(ofFrame:)`).
    public static func scene(of composition: Composition, at t: SampleTime) -> FrameScene {
        if let source = composition.foreign?.model as? any SceneSource {
            var scene = source.scene(at: t)
            scene.background = composition.canvas.background
            return scene
        }
        return FrameScene(
            width: composition.canvas.width, height: composition.canvas.height,
            background: composition.canvas.background,
            nodes: composition.layers.compactMap { node(for: $0, at: t, state: composition.state, instance: 0) })
    }

    /// A layer's presentation values at `t`: its model with the state bindings of replicator
    /// copy `instance` applied first (when the composition has a state machine), then its
    /// animations (`AnimationEvaluator.presentation`).
    static func presentation(
        of layer: Layer, at t: SampleTime, state machine: StateMachine?, instance: Int
    ) -> LayerState {
        var model = layer.state
        if let machine {
            for binding in layer.bindings {
                let isBool = binding.property.valueKind == .bool
                let v = StateEvaluator.value(of: binding, in: machine, instance: instance, at: t, animated: !isBool)
                binding.property.apply(isBool ? .bool(v != 0) : .number(v), to: &model)
            }
        }
        return AnimationEvaluator.presentation(of: model, animations: layer.animations, at: t)
    }

    /// The node for one layer, or nil when it is hidden, fully transparent or draws nothing.
    static func node(for layer: Layer, at t: SampleTime, state machine: StateMachine?, instance: Int) -> SceneNode? {
        let state = presentation(of: layer, at: t, state: machine, instance: instance)
        guard !state.hidden, state.opacity > 0 else { return nil }
        let content: SceneContent
        switch state.shape {
        case .group:
            let children = layer.children.compactMap { node(for: $0, at: t, state: machine, instance: instance) }
            guard !children.isEmpty else { return nil }
            content = .group(children, clip: state.clip?.path)
        case .replicator(_, let replication):
            let copies = instances(
                of: layer.children, replication, anchor: state.anchorLocation, at: t, state: machine)
            guard !copies.isEmpty else { return nil }
            content = .group(copies, clip: state.clip?.path)
        case .text(let text):
            guard case .success(let parts) = TextTemplate.parse(text.template) else { return nil }
            let string = TextTemplate.render(parts, values: state.values, exactValues: state.exactValues)
            guard !string.isEmpty, let color = state.fillColor, color.alpha > 0 else { return nil }
            content = .text(
                TextDrawing(
                    string: string, fontFamily: text.fontFamily, fontSize: text.fontSize,
                    fontWeight: text.fontWeight, color: color, anchor: state.anchorPoint, features: text.features))
        case .image(let image):
            guard image.size.x > 0, image.size.y > 0 else { return nil }
            content = .image(ImageDrawing(file: image.resolvedPath, path: image.resolvedBytes, rect: state.box))
        default:
            guard let drawing = drawing(for: state) else { return nil }
            content = .shape(drawing)
        }
        return SceneNode(transform: state.projectiveTransform, opacity: min(state.opacity, 1), content: content)
    }

    /// CAReplicatorLayer: copy i of the children is transformed by the instance transform i
    /// times (about the replicator's anchor), sees time `t − i·instanceDelay`, and has opacity
    /// `1 + i·instanceAlphaOffset`.
    static func instances(
        of children: [Layer], _ r: Replication, anchor: Point, at t: SampleTime, state machine: StateMachine?
    ) -> [SceneNode] {
        let step = AffineTransform.translation(x: -anchor.x, y: -anchor.y)
            .concatenating(.scale(x: r.scale.x, y: r.scale.y))
            .concatenating(.rotation(degrees: r.rotation))
            .concatenating(.translation(x: anchor.x + r.offset.x, y: anchor.y + r.offset.y))
        var transform = AffineTransform.identity
        var nodes: [SceneNode] = []
        for i in 0..<r.instanceCount {
            let opacity = min(max(1 + Double(i) * r.instanceAlphaOffset, 0), 1)
            let time = t.minus(r.instanceDelay, times: i)
            let copies = children.compactMap { node(for: $0, at: time, state: machine, instance: i) }
            if opacity > 0, !copies.isEmpty {
                nodes.append(
                    SceneNode(
                        transform: ProjectiveTransform(transform), opacity: opacity, content: .group(copies, clip: nil))
                )
            }
            transform = transform.concatenating(step)
        }
        return nodes
    }

    /// Paths and paint of a shape layer; nil when it paints nothing.
    static func drawing(for state: LayerState) -> ShapeDrawing? {
        let path = state.shape.path
        let fill = state.fillColor.flatMap { $0.alpha > 0 ? $0 : nil }
        var strokePath: BezierPath?
        let start = min(max(state.strokeStart.isNaN ? 0 : state.strokeStart, 0), 1)
        let end = min(max(state.strokeEnd.isNaN ? 0 : state.strokeEnd, 0), 1)
        if let color = state.strokeColor, color.alpha > 0, state.lineWidth > 0, start < end, !path.isEmpty {
            // The renderer trims and dashes: it knows the device scale the pieces are flattened at.
            strokePath = path
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
                dashes: state.lineDashPattern, dashPhase: state.lineDashPhase,
                start: start, end: end))
    }
}

extension LayerState {
    /// The full layer-to-parent transform: the rotation3D effects first (innermost first, each
    /// flattened to 3×3 as SwiftUI does), then the 2D `transform`.
    public var projectiveTransform: ProjectiveTransform {
        var result = ProjectiveTransform.identity
        let box = self.box
        for effect in rotation3D {
            result = result.concatenating(effect.projection(in: box))
        }
        return result.concatenating(ProjectiveTransform(transform))
    }
}
