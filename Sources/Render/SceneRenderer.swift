// SPDX-License-Identifier: GPL-3.0-or-later

internal import CCairo
import Geometry
import Spec
public import Timeline

/// Draws a `FrameScene` with Cairo into a straight-alpha `RGBAImage`.
public enum SceneRenderer {
    /// Pixel size of a canvas at `scale`: `round(points · scale)` on each axis, at least 1.
    public static func pixelSize(width: Double, height: Double, scale: Double) -> (width: Int, height: Int) {
        (max(1, Int((width * scale).rounded())), max(1, Int((height * scale).rounded())))
    }

    /// Renders `scene` at `scale` pixels per point. Vectors are re-rendered at the higher
    /// density (`--scale 2` gives an @2x image); nothing is resampled.
    /// - Parameters:
    ///   - scene: the resolved frame.
    ///   - scale: pixels per point, > 0 (1 = one pixel per point).
    /// - Returns: an image of `pixelSize(width:height:scale:)` pixels.
    /// - Throws: `RenderError` when Cairo cannot allocate the surface or fails while drawing.
    public static func render(_ scene: FrameScene, scale: Double = 1) throws(RenderError) -> RGBAImage {
        let size = pixelSize(width: scene.width, height: scene.height, scale: scale)
        let canvas = try CairoCanvas(width: size.width, height: size.height)
        let cr = canvas.context
        if let background = scene.background {
            cairo_set_source_rgba(cr, background.red, background.green, background.blue, background.alpha)
            cairo_paint(cr)
        }
        cairo_scale(cr, scale, scale)
        for node in scene.nodes {
            draw(node, in: cr)
        }
        try canvas.check("draw frame")
        return try canvas.image()
    }

    private static func draw(_ node: SceneNode, in cr: OpaquePointer) {
        cairo_save(cr)
        defer { cairo_restore(cr) }
        // A singular transform (scale 0) draws nothing; Cairo would enter an error state.
        guard node.transform.inverted() != nil else { return }
        var matrix = cairo_matrix_t(
            xx: node.transform.a, yx: node.transform.b, xy: node.transform.c,
            yy: node.transform.d, x0: node.transform.tx, y0: node.transform.ty)
        cairo_transform(cr, &matrix)

        switch node.content {
        case .group(let children):
            if node.opacity < 1 {
                cairo_push_group(cr)
                for child in children { draw(child, in: cr) }
                cairo_pop_group_to_source(cr)
                cairo_paint_with_alpha(cr, node.opacity)
            } else {
                for child in children { draw(child, in: cr) }
            }
        case .shape(let shape):
            let paintsTwice = shape.fillPath != nil && shape.strokePath != nil
            if node.opacity < 1 && paintsTwice {
                // Fill and stroke overlap: composite them first, then fade as one.
                cairo_push_group(cr)
                paint(shape, alpha: 1, in: cr)
                cairo_pop_group_to_source(cr)
                cairo_paint_with_alpha(cr, node.opacity)
            } else {
                paint(shape, alpha: node.opacity, in: cr)
            }
        }
    }

    private static func paint(_ shape: ShapeDrawing, alpha: Double, in cr: OpaquePointer) {
        if let fillPath = shape.fillPath {
            addPath(fillPath, to: cr)
            let c = shape.fillColor
            cairo_set_source_rgba(cr, c.red, c.green, c.blue, c.alpha * alpha)
            cairo_set_fill_rule(
                cr, shape.fillRule == .evenOdd ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING)
            cairo_fill(cr)
        }
        if let strokePath = shape.strokePath {
            let s = shape.stroke
            addPath(strokePath, to: cr)
            cairo_set_source_rgba(cr, s.color.red, s.color.green, s.color.blue, s.color.alpha * alpha)
            cairo_set_line_width(cr, s.width)
            cairo_set_line_cap(cr, cairoCap(s.lineCap))
            cairo_set_line_join(cr, cairoJoin(s.lineJoin))
            cairo_set_miter_limit(cr, s.miterLimit)
            if s.dashes.isEmpty {
                cairo_set_dash(cr, nil, 0, 0)
            } else {
                s.dashes.withUnsafeBufferPointer { dashes in
                    cairo_set_dash(cr, dashes.baseAddress, Int32(dashes.count), s.dashPhase)
                }
            }
            cairo_stroke(cr)
        }
    }

    private static func addPath(_ path: BezierPath, to cr: OpaquePointer) {
        cairo_new_path(cr)
        for element in path.elements {
            switch element {
            case .move(let p):
                cairo_move_to(cr, p.x, p.y)
            case .line(let p):
                cairo_line_to(cr, p.x, p.y)
            case .cubic(let p, let c1, let c2):
                cairo_curve_to(cr, c1.x, c1.y, c2.x, c2.y, p.x, p.y)
            case .close:
                cairo_close_path(cr)
            }
        }
    }

    private static func cairoCap(_ cap: LineCap) -> cairo_line_cap_t {
        switch cap {
        case .butt: CAIRO_LINE_CAP_BUTT
        case .round: CAIRO_LINE_CAP_ROUND
        case .square: CAIRO_LINE_CAP_SQUARE
        }
    }

    private static func cairoJoin(_ join: LineJoin) -> cairo_line_join_t {
        switch join {
        case .miter: CAIRO_LINE_JOIN_MITER
        case .round: CAIRO_LINE_JOIN_ROUND
        case .bevel: CAIRO_LINE_JOIN_BEVEL
        }
    }
}
