// SPDX-License-Identifier: GPL-3.0-or-later

public import Geometry

/// How far a drawn shape reaches on the device: the rule `ExportBudget.maximumDrawnExtent` is
/// checked with, shared by the renderer (every shape of every frame, before Cairo sees it) and
/// the budget (every frame of a `SceneSource` before anything renders, so `validate` refuses
/// what the export would refuse).
public enum SceneExtent {
    /// The extent of `shape` in device pixels through `transform`: the larger side of its fill
    /// and stroke paths' bounds (points, node coordinates) plus the stroke width when it is
    /// stroked, times `transform`'s largest stretch. NaN or infinite when the geometry is.
    public static func drawn(_ shape: ShapeDrawing, through transform: AffineTransform) -> (
        extent: Double, stretch: Double, drawn: Double
    ) {
        var extent = 0.0
        for path in [shape.fillPath, shape.strokePath] {
            if let b = path?.bounds { extent = max(extent, abs(b.width), abs(b.height)) }
        }
        if shape.strokePath != nil { extent += abs(shape.stroke.width) }
        let stretch = transform.largestStretch
        return (extent, stretch, extent * stretch)
    }

    /// The first shape of `scene` (back to front, depth first) drawn more than `limit` device
    /// px across at `scale` device px per point, as (extent in points, stretch, drawn px); nil
    /// when every shape fits. Projective nodes (rotation3D) end the walk down that branch, as
    /// they do in the renderer's check, and collapsed ones (determinant 0) are skipped, as the
    /// renderer skips drawing them.
    public static func firstOver(
        _ limit: Double, in scene: FrameScene, scale: Double
    ) -> (extent: Double, stretch: Double, drawn: Double)? {
        func visit(_ nodes: [SceneNode], _ ctm: AffineTransform) -> (Double, Double, Double)? {
            for node in nodes {
                guard let own = node.transform.affine else { continue }
                let here = own.concatenating(ctm)
                guard abs(here.determinant) > 1e-12 else { continue }  // collapsed: not drawn
                switch node.content {
                case .shape(let shape):
                    let d = drawn(shape, through: here)
                    if !(d.drawn <= limit) { return d }
                case .group(let children, _), .masked(let children, _):
                    if let found = visit(children, here) { return found }
                case .matted(let children, let matte, _):
                    if let found = visit(children, here) ?? visit(matte, here) { return found }
                case .text, .image:
                    continue
                }
            }
            return nil
        }
        return visit(scene.nodes, AffineTransform(a: scale, b: 0, c: 0, d: scale, tx: 0, ty: 0))
    }

    /// The shapes `scene` draws (leaves of kind `.shape`, text and image, through groups, masks
    /// and mattes) and the path elements of their fill and stroke paths together.
    public static func size(of scene: FrameScene) -> (shapes: Int, segments: Int) {
        var shapes = 0
        var segments = 0
        func count(_ nodes: [SceneNode]) {
            for node in nodes {
                switch node.content {
                case .shape(let shape):
                    shapes += 1
                    segments += (shape.fillPath?.elements.count ?? 0) + (shape.strokePath?.elements.count ?? 0)
                case .group(let children, _), .masked(let children, _): count(children)
                case .matted(let children, let matte, _):
                    count(children)
                    count(matte)
                case .text, .image: shapes += 1
                }
            }
        }
        count(scene.nodes)
        return (shapes, segments)
    }
}
