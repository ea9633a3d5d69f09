// SPDX-License-Identifier: GPL-3.0-or-later

internal import CCairo
import Geometry
import Raster
import Spec
public import Timeline

/// Draws a `FrameScene` with Cairo into a straight-alpha `RGBAImage`.
///
/// Affine nodes go straight to Cairo's transformation matrix. Nodes under a rotation3D projection
/// (a true homography, which Cairo cannot express) are drawn by mapping their flattened outlines
/// through the projection: exact for fills with straight edges and within 0.01 pt for curves.
/// Strokes under a projection are mapped the same way and stroked with the width scaled by the
/// projection's local area scale at the path's centre; text and images under a projection use
/// the projection's affine approximation at their origin. No bundled preset combines those.
public enum SceneRenderer {
    /// Pixel size of a canvas at `scale`: `round(points · scale)` on each axis, at least 1 and
    /// at most `Int32.max` (`ExportBudget.pixelSize`, which `ExportBudget.check` limits first).
    public static func pixelSize(width: Double, height: Double, scale: Double) -> (width: Int, height: Int) {
        ExportBudget.pixelSize(width: width, height: height, scale: scale)
    }

    /// Renders `scene` at `scale` pixels per point. Vectors are re-rendered at the higher
    /// density (`--scale 2` gives an @2x image); nothing is resampled.
    /// - Parameters:
    ///   - scene: the resolved frame.
    ///   - scale: pixels per point, > 0 (1 = one pixel per point).
    /// - Returns: an image of `pixelSize(width:height:scale:)` pixels.
    /// - Throws: `RenderError` when Cairo cannot allocate the surface, an image layer's file cannot
    ///   be read, drawing fails, or the scene's source cut it short (`FrameScene.cut`).
    public static func render(_ scene: FrameScene, scale: Double = 1) throws(RenderError) -> RGBAImage {
        try render(scene, scale: scale, largeStrokeThreshold: largeStrokePoints)
    }

    /// `render(_:scale:)` with strokes of more than `largeStrokeThreshold` points (after trim,
    /// dashes and flattening) drawn by `PolylineStroker` instead of Cairo: 0 draws every stroke
    /// with ours, `Int.max` every one with Cairo (the tests compare the two).
    static func render(_ scene: FrameScene, scale: Double, largeStrokeThreshold: Int) throws(RenderError)
        -> RGBAImage
    {
        if scene.cut != nil {
            // Export planning refuses these first (ExportBudget); an incomplete scene is never drawn.
            throw RenderError("the frame needs more than a frame may build (FrameScene.cut); nothing is drawn")
        }
        let size = pixelSize(width: scene.width, height: scene.height, scale: scale)
        let canvas = try CairoCanvas(width: size.width, height: size.height)
        let cr = canvas.context
        configure(cr)
        if let background = scene.background {
            cairo_set_source_rgba(cr, background.red, background.green, background.blue, background.alpha)
            cairo_paint(cr)
        }
        let root = ProjectiveTransform(AffineTransform.scale(x: scale, y: scale))
        let limits = Limits(strokePoints: largeStrokeThreshold)
        for node in scene.nodes {
            try draw(node, parent: root, limits: limits, in: cr)
        }
        try canvas.check("draw frame")
        return try canvas.image()
    }

    /// The settings of every context the renderer draws with: `configureText`'s, and curves
    /// flattened to `fillTolerance` device px.
    static func configure(_ cr: OpaquePointer) {
        configureText(cr)
        cairo_set_tolerance(cr, fillTolerance)
    }

    /// Greyscale antialiasing and no hinting, so text renders the same on every machine.
    static func configureText(_ cr: OpaquePointer) {
        guard let options = cairo_font_options_create() else { return }
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        cairo_set_font_options(cr, options)
        cairo_font_options_destroy(options)
    }

    /// Where the renderer leaves Cairo for its own rasterisation.
    private struct Limits {
        /// Stroke points above which `PolylineStroker` draws the stroke.
        let strokePoints: Int
    }

    private static func draw(_ node: SceneNode, parent: ProjectiveTransform, limits: Limits, in cr: OpaquePointer)
        throws(RenderError)
    {
        let ctm = node.transform.concatenating(parent)
        guard abs(ctm.determinant) > 1e-12 else { return }  // collapsed (scale 0): nothing to see
        switch node.content {
        case .group(let children, let clip):
            cairo_save(cr)
            defer { cairo_restore(cr) }
            if let clip {
                guard addPath(clip, ctm: ctm, to: cr) else { return }
                cairo_set_fill_rule(cr, CAIRO_FILL_RULE_WINDING)
                cairo_clip(cr)
            }
            if node.opacity < 1 {
                cairo_push_group(cr)
                for child in children { try draw(child, parent: ctm, limits: limits, in: cr) }
                cairo_pop_group_to_source(cr)
                cairo_identity_matrix(cr)
                cairo_paint_with_alpha(cr, node.opacity)
            } else {
                for child in children { try draw(child, parent: ctm, limits: limits, in: cr) }
            }
        case .shape(let shape):
            try checkExtent(shape, ctm: ctm)
            let paintsTwice = shape.fillPath != nil && shape.strokePath != nil
            if node.opacity < 1 && paintsTwice {
                // Fill and stroke overlap: composite them first, then fade as one.
                cairo_push_group(cr)
                paint(shape, alpha: 1, ctm: ctm, limits: limits, in: cr)
                cairo_pop_group_to_source(cr)
                cairo_identity_matrix(cr)
                cairo_paint_with_alpha(cr, node.opacity)
            } else {
                paint(shape, alpha: node.opacity, ctm: ctm, limits: limits, in: cr)
            }
        case .matted(let children, let matte, let mode):
            try drawMatted(children, matte: matte, mode: mode, opacity: node.opacity, ctm: ctm, limits: limits, in: cr)
        case .masked(let children, let masks):
            try drawMasked(children, masks: masks, opacity: node.opacity, ctm: ctm, limits: limits, in: cr)
        case .text(let text):
            try drawText(text, alpha: node.opacity, ctm: ctm, in: cr)
        case .image(let image):
            try drawImage(image, alpha: node.opacity, ctm: ctm, in: cr)
        }
    }

    // MARK: - Shapes

    private static func paint(
        _ shape: ShapeDrawing, alpha: Double, ctm: ProjectiveTransform, limits: Limits, in cr: OpaquePointer
    ) {
        if let fillPath = shape.fillPath, fillPath.elements.count > largeFillSegments, let affine = ctm.affine {
            setSource(shape.fillColor, shape.fillGradient, alpha: alpha, ctm: ctm, around: fillPath, in: cr)
            fillLarge(fillPath, affine: affine, evenOdd: shape.fillRule == .evenOdd, in: cr)
        } else if let fillPath = shape.fillPath, addPath(fillPath, ctm: ctm, to: cr) {
            setSource(shape.fillColor, shape.fillGradient, alpha: alpha, ctm: ctm, around: fillPath, in: cr)
            cairo_set_fill_rule(cr, shape.fillRule == .evenOdd ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING)
            cairo_fill(cr)
        }
        if let strokePath = shape.strokePath {
            let s = shape.stroke
            // Under a projection the path is already in device space; scale the pen to match.
            let penScale = ctm.affine == nil ? areaScale(of: ctm, around: strokePath) : 1
            // Cut and flattened here, at fixed vertices, so what stays put is drawn through the
            // same points whatever the trim (see `PathMeasure.strokePieces`).
            let tolerance = strokeTolerance / max(ctm.affine.map(\.largestStretch) ?? penScale, 1e-9)
            let dashes = s.dashes.isEmpty ? nil : DashPattern(lengths: s.dashes, phase: s.dashPhase)
            let pieces = PathMeasure(strokePath).strokePieces(
                from: s.start, to: s.end, dashes: dashes, tolerance: tolerance,
                dotLength: s.lineCap == .butt ? 0 : tolerance, roundDots: s.lineCap == .round)
            guard !pieces.isEmpty else { return }
            let points = pieces.reduce(0) { $0 + $1.points.count }
            if points > limits.strokePoints {
                setSource(s.color, shape.strokeGradient, alpha: alpha, ctm: ctm, around: strokePath, in: cr)
                strokeLarge(pieces, style: s, penScale: penScale, ctm: ctm, in: cr)
                return
            }
            guard addPolylines(pieces, ctm: ctm, to: cr) else { return }
            setSource(s.color, shape.strokeGradient, alpha: alpha, ctm: ctm, around: strokePath, in: cr)
            cairo_set_line_width(cr, s.width * penScale)
            cairo_set_line_cap(cr, cairoCap(s.lineCap))
            cairo_set_line_join(cr, cairoJoin(s.lineJoin))
            cairo_set_miter_limit(cr, s.miterLimit)
            cairo_set_dash(cr, nil, 0, 0)
            cairo_stroke(cr)
        }
    }

    /// Sets Cairo's source to `color`, or to `gradient` when there is one (in the node's
    /// coordinates: the user space of `ctm`, or its affine approximation at the centre of
    /// `path` under a projection), times `alpha`. Leaves Cairo's matrix as it found it.
    private static func setSource(
        _ color: RGBAColor, _ gradient: GradientPaint?, alpha: Double, ctm: ProjectiveTransform,
        around path: BezierPath,
        in cr: OpaquePointer
    ) {
        guard let gradient, !gradient.stops.isEmpty else {
            cairo_set_source_rgba(cr, color.red, color.green, color.blue, color.alpha * alpha)
            return
        }
        let pattern: OpaquePointer?
        switch gradient.kind {
        case .linear:
            pattern = cairo_pattern_create_linear(gradient.start.x, gradient.start.y, gradient.end.x, gradient.end.y)
        case .radial(let focus):
            let dx = gradient.end.x - gradient.start.x
            let dy = gradient.end.y - gradient.start.y
            pattern = cairo_pattern_create_radial(
                focus.x, focus.y, 0, gradient.start.x, gradient.start.y, (dx * dx + dy * dy).squareRoot())
        }
        guard let pattern else { return }
        defer { cairo_pattern_destroy(pattern) }
        for stop in gradient.stops {
            let c = stop.color
            cairo_pattern_add_color_stop_rgba(
                pattern, min(max(stop.offset, 0), 1), c.red, c.green, c.blue, c.alpha * alpha)
        }
        cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
        var saved = cairo_matrix_t()
        cairo_get_matrix(cr, &saved)
        let affine: AffineTransform
        if let exact = ctm.affine {
            affine = exact
        } else if let b = path.bounds {
            affine = affineApproximation(ctm, at: Point(x: b.midX, y: b.midY))
        } else {
            affine = .identity
        }
        guard abs(affine.determinant) > 1e-12 else { return }
        setMatrix(affine, cr)
        cairo_set_source(cr, pattern)
        cairo_set_matrix(cr, &saved)
    }

    /// The canvas's pixel size: the size of the surface the context was created on.
    private static func canvasSize(_ cr: OpaquePointer) -> (Int32, Int32) {
        guard let target = cairo_get_target(cr) else { return (0, 0) }
        return (cairo_image_surface_get_width(target), cairo_image_surface_get_height(target))
    }

    /// Draws `children` into a group and paints it, times `opacity`, through the A8 coverage
    /// `coverage` computes over the whole canvas (device pixels). Nothing is painted when the
    /// coverage surface cannot be made.
    private static func paintThrough(
        _ children: [SceneNode], opacity: Double, ctm: ProjectiveTransform, limits: Limits, in cr: OpaquePointer,
        coverage: (_ width: Int32, _ height: Int32) throws(RenderError) -> OpaquePointer?
    ) throws(RenderError) {
        let (width, height) = canvasSize(cr)
        guard width > 0, height > 0, let mask = try coverage(width, height) else { return }
        defer { cairo_surface_destroy(mask) }
        cairo_save(cr)
        defer { cairo_restore(cr) }
        cairo_identity_matrix(cr)
        cairo_push_group(cr)
        for child in children { try draw(child, parent: ctm, limits: limits, in: cr) }
        cairo_pop_group_to_source(cr)
        cairo_identity_matrix(cr)
        if opacity < 1 {
            cairo_push_group(cr)
            cairo_mask_surface(cr, mask, 0, 0)
            cairo_pop_group_to_source(cr)
            cairo_paint_with_alpha(cr, opacity)
        } else {
            cairo_mask_surface(cr, mask, 0, 0)
        }
    }

    /// A track matte (`SceneContent.matted`): the matte drawn on its own canvas-sized ARGB
    /// surface, its coverage taken per `mode` (luma: 0.2125 R + 0.7154 G + 0.0721 B of the
    /// premultiplied colour, i.e. the matte over black: CSS Masking's `mask-type: luminance`,
    /// which lottie-web's SVG renderer makes a luma matte; lottie-web in Chromium gives 54, 182
    /// and 18 for pure red, green and blue, docs/lottie.md), and the content painted through it.
    private static func drawMatted(
        _ children: [SceneNode], matte: [SceneNode], mode: MatteMode, opacity: Double, ctm: ProjectiveTransform,
        limits: Limits, in cr: OpaquePointer
    ) throws(RenderError) {
        try paintThrough(children, opacity: opacity, ctm: ctm, limits: limits, in: cr) {
            (width, height) throws(RenderError) -> OpaquePointer? in
            guard let argb = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, width, height) else { return nil }
            defer { cairo_surface_destroy(argb) }
            guard cairo_surface_status(argb) == CAIRO_STATUS_SUCCESS, let mcr = cairo_create(argb) else { return nil }
            configure(mcr)
            defer { cairo_destroy(mcr) }
            for node in matte { try draw(node, parent: ctm, limits: limits, in: mcr) }
            cairo_surface_flush(argb)
            cairo_surface_flush(argb)
            guard let a8 = cairo_image_surface_create(CAIRO_FORMAT_A8, width, height) else { return nil }
            guard cairo_surface_status(a8) == CAIRO_STATUS_SUCCESS, let src = cairo_image_surface_get_data(argb),
                let dst = cairo_image_surface_get_data(a8)
            else {
                cairo_surface_destroy(a8)
                return nil
            }
            cairo_surface_flush(a8)
            let srcStride = Int(cairo_image_surface_get_stride(argb))
            let dstStride = Int(cairo_image_surface_get_stride(a8))
            src.withMemoryRebound(to: UInt32.self, capacity: srcStride / 4 * Int(height)) { words in
                for y in 0..<Int(height) {
                    for x in 0..<Int(width) {
                        // Cairo's ARGB32: native-endian words, premultiplied.
                        let w = words[y * srcStride / 4 + x]
                        let a = Double(w >> 24)
                        let r = Double((w >> 16) & 0xFF)
                        let g = Double((w >> 8) & 0xFF)
                        let b = Double(w & 0xFF)
                        let value: Double =
                            switch mode {
                            case .alpha: a
                            case .alphaInverted: 255 - a
                            case .luma: 0.2125 * r + 0.7154 * g + 0.0721 * b
                            case .lumaInverted: 255 - (0.2125 * r + 0.7154 * g + 0.0721 * b)
                            }
                        dst[y * dstStride + x] = UInt8(min(max(value.rounded(), 0), 255))
                    }
                }
            }
            cairo_surface_mark_dirty(a8)
            return a8
        }
    }

    /// A mask stack (`SceneContent.masked`): each outline filled into one A8 coverage in order
    /// (add: over; subtract: destination-out; intersect: destination-in, which clears outside
    /// the outline; inverted: the canvas rectangle and the outline filled even-odd), starting
    /// from full coverage when the first mask subtracts or intersects (lottie-web's MaskElement
    /// starts from a full rectangle then), and the content painted through it.
    private static func drawMasked(
        _ children: [SceneNode], masks: [MaskDrawing], opacity: Double, ctm: ProjectiveTransform, limits: Limits,
        in cr: OpaquePointer
    ) throws(RenderError) {
        try paintThrough(children, opacity: opacity, ctm: ctm, limits: limits, in: cr) {
            (width, height) throws(RenderError) -> OpaquePointer? in
            guard let a8 = cairo_image_surface_create(CAIRO_FORMAT_A8, width, height) else { return nil }
            guard cairo_surface_status(a8) == CAIRO_STATUS_SUCCESS, let mcr = cairo_create(a8) else {
                cairo_surface_destroy(a8)
                return nil
            }
            defer { cairo_destroy(mcr) }
            configure(mcr)
            if let first = masks.first, first.mode != .add {
                cairo_set_source_rgba(mcr, 0, 0, 0, 1)
                cairo_paint(mcr)
            }
            for mask in masks {
                cairo_new_path(mcr)
                if mask.inverted {
                    cairo_identity_matrix(mcr)
                    cairo_rectangle(mcr, 0, 0, Double(width), Double(height))
                }
                if let affine = ctm.affine {
                    guard abs(affine.determinant) > 1e-12 else { continue }
                    setMatrix(affine, mcr)
                    appendElements(of: mask.path, to: mcr)
                } else {
                    cairo_identity_matrix(mcr)
                    for polyline in PathMeasure(mask.path).flattened(tolerance: 0.01) {
                        guard polyline.points.allSatisfy({ ctm.weight(at: $0) > 1e-6 }) else { continue }
                        for (i, point) in polyline.points.enumerated() {
                            let p = ctm.apply(to: point)
                            if i == 0 { cairo_move_to(mcr, p.x, p.y) } else { cairo_line_to(mcr, p.x, p.y) }
                        }
                        cairo_close_path(mcr)
                    }
                }
                cairo_set_fill_rule(mcr, mask.inverted ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING)
                let op: cairo_operator_t =
                    switch mask.mode {
                    case .add: CAIRO_OPERATOR_OVER
                    case .subtract: CAIRO_OPERATOR_DEST_OUT
                    case .intersect: CAIRO_OPERATOR_DEST_IN
                    }
                cairo_set_operator(mcr, op)
                cairo_set_source_rgba(mcr, 0, 0, 0, min(max(mask.opacity, 0), 1))
                cairo_fill(mcr)
            }
            cairo_surface_flush(a8)
            return a8
        }
    }

    /// Path elements above which a fill goes through `CoverageRasterizer` instead of Cairo,
    /// whose fill grows with the square of a self-intersecting path's points (docs/encoding.md,
    /// "Large paths"). No bundled preset comes near, so their pixels stay Cairo's.
    static let largeFillSegments = 20_000

    /// Stroked points (after trim, dashes and flattening) above which a stroke goes through
    /// `PolylineStroker` and `CoverageRasterizer` instead of Cairo, whose stroker grows with the
    /// square of a self-intersecting polyline's points (docs/encoding.md, "Large paths"). Cairo
    /// strokes 5 000 random points in 0.7 s; the bundled presets stroke a few hundred points
    /// at most (336 in every frame of every preset at `--scale 2`), so their pixels stay Cairo's.
    static let largeStrokePoints = 5_000

    /// Fills `path` seen through `affine` with the current source: flattened to 0.05 device px,
    /// its coverage accumulated (`CoverageRasterizer`) over its bounds within the clip, and
    /// painted through that mask, which keeps the clip and the operator as `cairo_fill` would.
    private static func fillLarge(_ path: BezierPath, affine: AffineTransform, evenOdd: Bool, in cr: OpaquePointer) {
        let polylines = PathMeasure(path).flattened(tolerance: 0.05 / max(affine.largestStretch, 1e-9))
        var minX = Double.infinity
        var minY = Double.infinity
        var maxX = -Double.infinity
        var maxY = -Double.infinity
        let device = polylines.map { line in
            line.points.map { p -> Point in
                let q = affine.apply(to: p)
                minX = min(minX, q.x)
                minY = min(minY, q.y)
                maxX = max(maxX, q.x)
                maxY = max(maxY, q.y)
                return q
            }
        }
        paintCoverage(bounds: (minX, minY, maxX, maxY), evenOdd: evenOdd, in: cr) { addEdge in
            for line in device where line.count > 1 {
                // A fill closes every subpath.
                for i in line.indices {
                    addEdge(line[i], line[(i + 1) % line.count])
                }
            }
        }
    }

    /// Strokes the flattened `pieces` with `style` through `ctm` with the current source: the
    /// outline pieces of `PolylineStroker` (in user space under an affine `ctm`, as Cairo
    /// strokes; under a projection the points are mapped first and the pen scaled by
    /// `penScale`, as the Cairo path does) filled non-zero through a coverage mask.
    private static func strokeLarge(
        _ pieces: [Polyline], style: StrokeDrawing, penScale: Double, ctm: ProjectiveTransform, in cr: OpaquePointer
    ) {
        var lines = pieces
        let transform: AffineTransform
        if let affine = ctm.affine {
            transform = affine
        } else {
            transform = .identity
            for i in lines.indices {
                guard lines[i].points.allSatisfy({ ctm.weight(at: $0) > 1e-6 }) else { return }
                lines[i].points = lines[i].points.map { ctm.apply(to: $0) }
            }
        }
        // Round joins and caps from the pen Cairo builds at the same tolerance.
        let stroker = PolylineStroker(
            width: style.width * penScale, cap: style.lineCap, join: style.lineJoin, miterLimit: style.miterLimit,
            transform: transform, tolerance: fillTolerance)
        guard let bounds = stroker.deviceBounds(of: lines) else { return }
        paintCoverage(bounds: bounds, evenOdd: false, in: cr) { addEdge in
            stroker.stroke(lines, edge: addEdge)
        }
    }

    /// Paints the current source through the coverage of the edges `build` adds (device
    /// pixels, x right, y down), accumulated by `CoverageRasterizer` over `bounds` within the
    /// clip and applied as an A8 mask with `cairo_mask_surface`, so clip, opacity and operator
    /// act as in a Cairo fill. Nothing is painted when the bounds miss the clip.
    private static func paintCoverage(
        bounds: (minX: Double, minY: Double, maxX: Double, maxY: Double), evenOdd: Bool, in cr: OpaquePointer,
        build: (_ addEdge: (Point, Point) -> Void) -> Void
    ) {
        cairo_identity_matrix(cr)
        var clip = (x0: 0.0, y0: 0.0, x1: 0.0, y1: 0.0)
        cairo_clip_extents(cr, &clip.x0, &clip.y0, &clip.x1, &clip.y1)
        let left = max(bounds.minX, clip.x0).rounded(.down)
        let top = max(bounds.minY, clip.y0).rounded(.down)
        let right = min(bounds.maxX, clip.x1).rounded(.up)
        let bottom = min(bounds.maxY, clip.y1).rounded(.up)
        // Bounded by the clip, which is bounded by the surface (ExportBudget's pixel limit).
        guard left.isFinite, top.isFinite, right > left, bottom > top, right - left < 1_048_576,
            bottom - top < 1_048_576
        else { return }
        let width = Int(right - left)
        let height = Int(bottom - top)
        var raster = CoverageRasterizer(width: width, height: height)
        build { p, q in
            raster.addEdge(from: Point(x: p.x - left, y: p.y - top), to: Point(x: q.x - left, y: q.y - top))
        }
        guard let mask = cairo_image_surface_create(CAIRO_FORMAT_A8, Int32(width), Int32(height)) else { return }
        defer { cairo_surface_destroy(mask) }
        guard cairo_surface_status(mask) == CAIRO_STATUS_SUCCESS, let data = cairo_image_surface_get_data(mask)
        else { return }
        cairo_surface_flush(mask)
        raster.writeAlpha(evenOdd: evenOdd, stride: Int(cairo_image_surface_get_stride(mask)), into: data)
        cairo_surface_mark_dirty(mask)
        cairo_new_path(cr)
        cairo_mask_surface(cr, mask, left, top)
    }

    /// Device pixels between a stroke's curves and the polylines drawn for them. Cairo flattens
    /// the curves it is given to 0.1 px by default; 0.01 keeps a turning ring (circular) closer
    /// to round, so fewer of its edge pixels change from frame to frame (46 279 bytes against
    /// 48 292 at 0.02). 0.004 also stops Cairo's round caps from moving a few still edge pixels
    /// (circular-progress), for 35 % more render time: not worth it.
    static let strokeTolerance = 0.01

    /// Device pixels between the curves Cairo flattens itself and the chords it draws for them
    /// (`cairo_set_tolerance` on every context the renderer makes): fills and clips of curved
    /// paths, and the pen polygon of round joins and caps (which `PolylineStroker` builds alike).
    /// Cairo's default is 0.1. Chords lie inside a convex curve, so at 0.1 a disc of radius 25 px
    /// came out 0.020 px too small in radius (47.5 dB against its exact coverage); at 0.01,
    /// 0.0015 px (55.5 dB), and round caps 12 times closer in area (scripts/edge_truth.py;
    /// docs/lottie.md, "Where the references disagree"). Whole-process instructions for one 4x
    /// frame: +0.2 to +1.9 %.
    static let fillTolerance = strokeTolerance

    /// Refuses a shape drawn more than `ExportBudget.maximumDrawnExtent` device px across (its
    /// paths' bounds plus the stroke width, through `ctm`'s largest stretch): the budget bounds
    /// every scale it can read from the preset before rendering, and this catches the rest
    /// (a scale bound to state, `bind`) before Cairo's coordinates overflow or the curves are
    /// cut into more pieces than the frame can afford. Projective nodes are flattened in their
    /// own units and are not checked here.
    private static func checkExtent(_ shape: ShapeDrawing, ctm: ProjectiveTransform) throws(RenderError) {
        guard let affine = ctm.affine else { return }
        let (extent, stretch, drawn) = SceneExtent.drawn(shape, through: affine)
        guard !(drawn <= ExportBudget.maximumDrawnExtent) else { return }
        throw RenderError(
            "a layer is drawn \(ExportBudget.describeSize(drawn)) px across in this frame (its \(ExportBudget.describeSize(extent)) pt outline at a scale of \(ExportBudget.describeSize(stretch))), more than the limit of \(formatNumber(ExportBudget.maximumDrawnExtent)) px (2^23, Cairo's fixed-point range); look for a scale set from state (bind)",
            isPresetLimit: true)
    }

    /// Sets Cairo's current path to `polylines` seen through `ctm` (affine: Cairo's matrix;
    /// projective: each point mapped). Returns false when a point lies behind the viewer.
    private static func addPolylines(_ polylines: [Polyline], ctm: ProjectiveTransform, to cr: OpaquePointer) -> Bool {
        cairo_new_path(cr)
        let affine = ctm.affine
        if let affine { setMatrix(affine, cr) } else { cairo_identity_matrix(cr) }
        for polyline in polylines {
            for (i, point) in polyline.points.enumerated() {
                var p = point
                if affine == nil {
                    guard ctm.weight(at: point) > 1e-6 else { return false }
                    p = ctm.apply(to: point)
                }
                if i == 0 { cairo_move_to(cr, p.x, p.y) } else { cairo_line_to(cr, p.x, p.y) }
            }
            if polyline.closed { cairo_close_path(cr) }
        }
        return true
    }

    /// Appends `path`'s elements to Cairo's current path as they are, in user space.
    static func appendElements(of path: BezierPath, to cr: OpaquePointer) {
        for element in path.elements {
            switch element {
            case .move(let p): cairo_move_to(cr, p.x, p.y)
            case .line(let p): cairo_line_to(cr, p.x, p.y)
            case .cubic(let p, let c1, let c2): cairo_curve_to(cr, c1.x, c1.y, c2.x, c2.y, p.x, p.y)
            case .close: cairo_close_path(cr)
            }
        }
    }

    /// Sets Cairo's current path to `path` seen through `ctm`. Affine: Cairo's matrix does the
    /// work and curves stay curves. Projective: the outline is flattened (0.01 pt) and each point
    /// mapped, with the identity matrix. Returns false when the path lies behind the viewer.
    @discardableResult
    private static func addPath(_ path: BezierPath, ctm: ProjectiveTransform, to cr: OpaquePointer) -> Bool {
        cairo_new_path(cr)
        if let affine = ctm.affine {
            setMatrix(affine, cr)
            appendElements(of: path, to: cr)
            return true
        }
        cairo_identity_matrix(cr)
        for polyline in PathMeasure(path).flattened(tolerance: 0.01) {
            guard polyline.points.allSatisfy({ ctm.weight(at: $0) > 1e-6 }) else { return false }
            for (i, point) in polyline.points.enumerated() {
                let p = ctm.apply(to: point)
                if i == 0 { cairo_move_to(cr, p.x, p.y) } else { cairo_line_to(cr, p.x, p.y) }
            }
            if polyline.closed { cairo_close_path(cr) }
        }
        return true
    }

    /// √|det J| of the projection at the centre of `path`'s bounds: how much lengths grow there.
    private static func areaScale(of ctm: ProjectiveTransform, around path: BezierPath) -> Double {
        guard let b = path.bounds else { return 1 }
        let linear = affineApproximation(ctm, at: Point(x: b.midX, y: b.midY))
        return abs(linear.determinant).squareRoot()
    }

    /// The affine map that agrees with `ctm` at `p` and one unit to its right and below.
    private static func affineApproximation(_ ctm: ProjectiveTransform, at p: Point) -> AffineTransform {
        let o = ctm.apply(to: p)
        let x = ctm.apply(to: Point(x: p.x + 1, y: p.y))
        let y = ctm.apply(to: Point(x: p.x, y: p.y + 1))
        return AffineTransform(
            a: x.x - o.x, b: x.y - o.y, c: y.x - o.x, d: y.y - o.y,
            tx: o.x - (x.x - o.x) * p.x - (y.x - o.x) * p.y, ty: o.y - (x.y - o.y) * p.x - (y.y - o.y) * p.y)
    }

    private static func setMatrix(_ t: AffineTransform, _ cr: OpaquePointer) {
        var matrix = cairo_matrix_t(xx: t.a, yx: t.b, xy: t.c, yy: t.d, x0: t.tx, y0: t.ty)
        cairo_set_matrix(cr, &matrix)
    }

    // MARK: - Text and images

    private static func drawText(_ text: TextDrawing, alpha: Double, ctm: ProjectiveTransform, in cr: OpaquePointer)
        throws(RenderError)
    {
        guard let face = FontFaces.shared.face(family: text.fontFamily, weight: text.fontWeight) else {
            throw RenderError("no font for family \"\(text.fontFamily)\" (fontconfig found none)")
        }
        cairo_save(cr)
        defer { cairo_restore(cr) }
        let matrix = ctm.affine ?? affineApproximation(ctm, at: Point(x: 0, y: 0))
        // Text is always filled as glyph outlines (`cairo_text_path` / `cairo_glyph_path`, then
        // `cairo_fill`), never drawn as FreeType glyph images (`cairo_show_text`): Cairo 1.16's
        // image backend puts each glyph image at a whole-pixel origin, so a glyph moved by a
        // quarter pixel did not move at all and one moved by half a pixel jumped a whole one,
        // while the outline lands where the layout puts it, as on the device (Core Graphics
        // positions glyphs at subpixel offsets) and as the Lottie export's outlines
        // (`TextOutline`) say. docs/encoding.md, Text.
        //
        // Above `largeTextEm` device px per em the glyphs are laid out and outlined at
        // `largeTextEm` px per em under the identity matrix (so FreeType's 1/64 px outline grid
        // is 1/65 536 em) and the outlines filled through the layer's matrix scaled back by
        // `fontSize / largeTextEm`, instead of asking FreeType for the outlines at the device
        // size: FreeType refuses more than 65 535 px per em ("error occurred in libfreetype" at
        // a scale of 2000 on a 40 pt label) and Cairo caches each glyph at the device size.
        // Hinting is off, so an outline scales exactly; no bundled preset comes near
        // (loading-dots at --scale 16: 544 px).
        let large = !(text.fontSize * matrix.largestStretch <= Self.largeTextEm)
        if !large { setMatrix(matrix, cr) }
        let layoutSize = large ? Self.largeTextEm : text.fontSize
        cairo_set_font_face(cr, face.face)
        cairo_set_font_size(cr, layoutSize)
        var font = cairo_font_extents_t()
        cairo_font_extents(cr, &font)
        let height = font.ascent + font.descent
        let c = text.color
        cairo_set_source_rgba(cr, c.red, c.green, c.blue, c.alpha * alpha)
        cairo_new_path(cr)
        if text.features.isEmpty {
            // Unshaped: Cairo's own text API, glyph by glyph (every bundled preset).
            var extents = cairo_text_extents_t()
            cairo_text_extents(cr, text.string, &extents)
            let width = extents.x_advance
            cairo_move_to(cr, -text.anchor.x * width, -text.anchor.y * height + font.ascent)
            cairo_text_path(cr, text.string)
        } else {
            guard let shaped = face.shaper?.shape(text.string, size: layoutSize, features: text.features) else {
                throw RenderError("cannot shape text in family \"\(text.fontFamily)\" with HarfBuzz")
            }
            let x = -text.anchor.x * shaped.advance
            let y = -text.anchor.y * height + font.ascent
            var glyphs = shaped.glyphs.map { cairo_glyph_t(index: $0.index, x: $0.x + x, y: $0.y + y) }
            cairo_glyph_path(cr, &glyphs, Int32(glyphs.count))
        }
        guard large else {
            cairo_fill(cr)
            return
        }
        guard let outline = cairo_copy_path(cr) else { return }
        defer { cairo_path_destroy(outline) }
        cairo_new_path(cr)
        let back = text.fontSize / layoutSize
        setMatrix(AffineTransform.scale(x: back, y: back).concatenating(matrix), cr)
        cairo_append_path(cr, outline)
        cairo_fill(cr)
    }

    /// Device pixels per em above which text is outlined at this size and the outline scaled
    /// to the device, rather than outlined by FreeType at the device size (see `drawText`).
    static let largeTextEm = 1024.0

    private static func drawImage(_ image: ImageDrawing, alpha: Double, ctm: ProjectiveTransform, in cr: OpaquePointer)
        throws(RenderError)
    {
        let source = try ImageLibrary.shared.surface(image.path, name: image.file)
        cairo_save(cr)
        defer { cairo_restore(cr) }
        let center = Point(x: image.rect.midX, y: image.rect.midY)
        setMatrix(ctm.affine ?? affineApproximation(ctm, at: center), cr)
        cairo_translate(cr, image.rect.x, image.rect.y)
        cairo_scale(cr, image.rect.width / Double(source.width), image.rect.height / Double(source.height))
        cairo_set_source_surface(cr, source.surface, 0, 0)
        if let pattern = cairo_get_source(cr) {
            cairo_pattern_set_filter(pattern, CAIRO_FILTER_GOOD)
            cairo_pattern_set_extend(pattern, CAIRO_EXTEND_PAD)
        }
        cairo_rectangle(cr, 0, 0, Double(source.width), Double(source.height))
        cairo_clip(cr)
        cairo_paint_with_alpha(cr, alpha)
    }

    // MARK: - Styles

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
