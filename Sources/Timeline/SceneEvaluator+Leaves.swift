// SPDX-License-Identifier: GPL-3.0-or-later

public import Geometry
public import Spec

/// One drawing leaf of a scene with a name that stays the same from frame to frame, so a writer
/// that bakes an animation (the Lottie export) can follow each leaf over the loop.
public struct SceneLeaf: Equatable, Sendable {
    /// The leaf's place in the layer tree: child indices from the composition's `layers` down,
    /// with the copy index after each replicator (`[0, 2, 1]` = layer 0's copy 2, child 1).
    /// Sorting leaves by it (lexicographically) gives drawing order, back to front.
    public var id: [Int]
    /// Maps the leaf's own coordinates to canvas points: every ancestor's transform and its own.
    public var transform: ProjectiveTransform
    /// The layer's own transform alone (layer to parent), for writers that keep the tree.
    public var ownTransform: ProjectiveTransform
    /// The opacity the leaf is drawn with: its own times every ancestor's and copy's, 0…1.
    /// (A group's opacity is applied to its children one by one here, not to their composite.)
    public var opacity: Double
    /// What it draws.
    public var content: SceneContent
    /// JSONPath of the layer in its preset (`$.layers[0].layers[1]`).
    public var sourcePath: String
    /// JSONPath of the nearest ancestor (or the layer itself) with a `clip`, nil when none.
    public var clippedBy: String?
    /// True when an ancestor's opacity was between 0 and 1 and it had more than one drawing
    /// child: a renderer composites such a group first, so applying the opacity per child
    /// differs where the children overlap.
    public var sharesGroupOpacity: Bool
}

extension SceneEvaluator {
    /// The visible leaves (shapes, text, images) of the scene at `t`, in drawing order, each
    /// with its stable `id`. A layer that is hidden or fully transparent at `t` gives no leaf;
    /// the same layer keeps its id in the frames where it is visible.
    public static func leaves(of composition: Composition, at t: SampleTime) -> [SceneLeaf] {
        var out: [SceneLeaf] = []
        for (i, layer) in composition.layers.enumerated() {
            collect(
                layer, id: [i], at: t, machine: composition.state, instance: 0, parent: .identity, opacity: 1,
                clippedBy: nil, sharedOpacity: false, into: &out)
        }
        return out
    }

    private static func collect(
        _ layer: Layer, id: [Int], at t: SampleTime, machine: StateMachine?, instance: Int,
        parent: ProjectiveTransform, opacity: Double, clippedBy: String?, sharedOpacity: Bool,
        into out: inout [SceneLeaf]
    ) {
        let state = presentation(of: layer, at: t, state: machine, instance: instance)
        guard !state.hidden, state.opacity > 0 else { return }
        let own = state.projectiveTransform
        let transform = own.concatenating(parent)
        let alpha = opacity * min(state.opacity, 1)
        let clip = state.clip == nil ? clippedBy : (clippedBy ?? layer.sourcePath)
        let shared = sharedOpacity || (state.opacity < 1 && layer.children.count > 1)
        func leaf(_ content: SceneContent) {
            out.append(
                SceneLeaf(
                    id: id, transform: transform, ownTransform: own, opacity: alpha, content: content,
                    sourcePath: layer.sourcePath, clippedBy: clip, sharesGroupOpacity: sharedOpacity))
        }
        switch state.shape {
        case .group:
            for (i, child) in layer.children.enumerated() {
                collect(
                    child, id: id + [i], at: t, machine: machine, instance: instance, parent: transform,
                    opacity: alpha, clippedBy: clip, sharedOpacity: shared, into: &out)
            }
        case .replicator(_, let r):
            let anchor = state.anchorLocation
            let step = AffineTransform.translation(x: -anchor.x, y: -anchor.y)
                .concatenating(.scale(x: r.scale.x, y: r.scale.y))
                .concatenating(.rotation(degrees: r.rotation))
                .concatenating(.translation(x: anchor.x + r.offset.x, y: anchor.y + r.offset.y))
            var copy = AffineTransform.identity
            for n in 0..<r.instanceCount {
                let copyOpacity = min(max(1 + Double(n) * r.instanceAlphaOffset, 0), 1)
                let time = t.minus(r.instanceDelay, times: n)
                if copyOpacity > 0 {
                    let copyTransform = ProjectiveTransform(copy).concatenating(transform)
                    for (i, child) in layer.children.enumerated() {
                        collect(
                            child, id: id + [n, i], at: time, machine: machine, instance: n,
                            parent: copyTransform, opacity: alpha * copyOpacity, clippedBy: clip,
                            sharedOpacity: shared || (copyOpacity < 1 && layer.children.count > 1), into: &out)
                    }
                }
                copy = copy.concatenating(step)
            }
        case .text, .image:
            guard let node = node(for: layer, at: t, state: machine, instance: instance) else { return }
            leaf(node.content)
        default:
            guard let drawing = drawing(for: state) else { return }
            leaf(.shape(drawing))
        }
    }
}
