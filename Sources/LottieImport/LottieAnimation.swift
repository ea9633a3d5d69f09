// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Geometry
import Spec
public import Timeline

/// A decoded Lottie file that draws itself: the `SceneSource` a Lottie `Composition` carries
/// (`Composition.foreign`). Time 0 of the loop is frame `ip`; frame f of the file is drawn at
/// `(f − ip) / fr` seconds.
///
/// The rendering model is the Lottie 1.0 specification's (Shapes, "Rendering"): a shape list
/// is drawn bottom-up from its last item, each fill or stroke paints every path before it in
/// its group (and in the groups nested before it), a group's opacity applies to its drawing as
/// a whole, and layers are listed top first. Where the specification is silent, lottie-web's
/// behaviour is followed (named where it is used).
public struct LottieAnimation: SceneSource {
    /// `w`, `h` in points.
    public let width: Double
    /// Canvas height in points.
    public let height: Double
    /// `fr`, frames per second, > 0.
    public let frameRate: Double
    /// `ip`, `op`: the loop is frames `ip` ..< `op`.
    public let inPoint: Double
    /// `op`.
    public let outPoint: Double
    /// The format and a digest of the file's bytes.
    public let identity: String
    let layers: [LottieLayer]
    let assets: [[LottieLayer]]

    /// Deepest precomp nesting drawn (the decoder refuses cycles; this bounds the stack).
    static let maximumDepth = 32

    init(
        width: Double, height: Double, frameRate: Double, inPoint: Double, outPoint: Double, identity: String,
        layers: [LottieLayer], assets: [[LottieLayer]]
    ) {
        self.width = width
        self.height = height
        self.frameRate = frameRate
        self.inPoint = inPoint
        self.outPoint = outPoint
        self.identity = identity
        self.layers = layers
        self.assets = assets
    }

    /// The scene at `t` seconds from the loop start, frame `ip + t · fr`.
    /// Building stops when the scene passes `ExportBudget.maximumBuiltSegments` path elements or
    /// `maximumBuiltShapes` shapes (`SceneBudget`); the scene is then empty with `cut` set.
    public func scene(at t: SampleTime) -> FrameScene {
        let frame = inPoint + t.seconds * frameRate
        let budget = SceneBudget()
        let built = nodes(of: layers, at: frame, depth: 0, budget: budget)
        return FrameScene(
            width: width, height: height, background: nil, nodes: budget.cut == nil ? built : [], cut: budget.cut)
    }

    /// The nodes of a layer list at frame `f` of its composition, back to front (the list is
    /// top first). Matte sources are not drawn themselves; a layer with `tt` is drawn
    /// through the layer `tp` names or, without `tp`, the layer just above it in the list
    /// (Lottie 1.0 spec, Layer: `tt`, `tp`, `td`). A matte source is a layer with `td`, or the
    /// layer just above a layer with `tt` and no `tp` even without `td` (lottie-web's
    /// DataManager `completeLayers` sets `td` on it; skia's chained-mattes file relies on it).
    func nodes(of list: [LottieLayer], at f: Double, depth: Int, budget: SceneBudget) -> [SceneNode] {
        guard depth < Self.maximumDepth else { return [] }
        var byIndex: [Int: LottieLayer] = [:]
        for layer in list { if let i = layer.index, byIndex[i] == nil { byIndex[i] = layer } }
        var out: [SceneNode] = []
        for position in list.indices.reversed() where !Self.isMatteSource(position, of: list) {
            guard budget.cut == nil else { break }
            if depth == 0 { budget.layer = position }
            if let node = node(at: position, of: list, at: f, byIndex: byIndex, depth: depth, budget: budget) {
                out.append(node)
            }
        }
        return out
    }

    /// Whether `list[position]` serves as a track matte and so is not drawn on its own.
    static func isMatteSource(_ position: Int, of list: [LottieLayer]) -> Bool {
        if list[position].isMatteSource { return true }
        let next = position + 1
        return next < list.count && list[next].matte != nil && list[next].matteParent == nil
    }

    /// The node of `list[position]` at `f` with its masks and its matte, or nil when it draws
    /// nothing. `chain` bounds mattes that are themselves matted (skia's chained mattes).
    func node(
        at position: Int, of list: [LottieLayer], at f: Double, byIndex: [Int: LottieLayer], depth: Int,
        budget: SceneBudget, chain: Int = 0
    ) -> SceneNode? {
        let layer = list[position]
        guard var node = plainNode(layer, at: f, byIndex: byIndex, depth: depth, budget: budget) else {
            return nil
        }
        guard let mode = layer.matte else { return node }
        var source: Int?
        if let tp = layer.matteParent {
            source = list.firstIndex { $0.index == tp }
        } else if position > 0 {
            source = position - 1
        }
        let matte =
            source.flatMap { s in
                chain < 16 && s != position
                    ? self.node(
                        at: s, of: list, at: f, byIndex: byIndex, depth: depth, budget: budget, chain: chain + 1)
                    : nil
            }
        guard let matte else {
            // An absent or invisible matte covers nothing: inverted modes show everything.
            return mode == .alphaInverted || mode == .lumaInverted ? node : nil
        }
        node = SceneNode(transform: .identity, opacity: 1, content: .matted([node], matte: [matte], mode: mode))
        return node
    }

    /// A layer's own drawing at `f` (content, masks, transform, opacity), or nil when it is
    /// hidden, outside its in…out range, fully transparent or empty.
    func plainNode(_ layer: LottieLayer, at f: Double, byIndex: [Int: LottieLayer], depth: Int, budget: SceneBudget)
        -> SceneNode?
    {
        guard !layer.hidden, f >= layer.inPoint, f < layer.outPoint else { return nil }
        // The layer's own keyframes (transform, shapes, masks) are in its composition's frames:
        // lottie-web reads them at frame − `st` against keyframe times − `st`, which cancels;
        // `st` and `sr` shift only a precomposition's content (rlottie and ThorVG agree).
        let local = f
        let opacity = layer.transform.opacityFraction(at: local)
        guard opacity > 0 else { return nil }
        var children: [SceneNode]
        var clip: BezierPath?
        switch layer.content {
        case .null: return nil
        case .shapes(let shapes): children = draw(shapes, at: local, budget: budget).nodes
        case .precomp(let asset, let w, let h):
            guard asset < assets.count else { return nil }
            children = nodes(of: assets[asset], at: layer.localTime(f), depth: depth + 1, budget: budget)
            clip = .rect(Rect(x: 0, y: 0, width: w, height: h))
        case .solid(let color, let w, let h):
            budget.built(shapes: 1, segments: 5)
            children = [
                SceneNode(
                    transform: .identity, opacity: 1,
                    content: .shape(fill(.rect(Rect(x: 0, y: 0, width: w, height: h)), color, .nonZero)))
            ]
        }
        guard !children.isEmpty else { return nil }
        if !layer.masks.isEmpty {
            let masks = layer.masks.map { mask in
                MaskDrawing(
                    path: mask.path.value(at: local).bezier, mode: mask.mode,
                    opacity: min(max((mask.opacity.value(at: local).first ?? 100) / 100, 0), 1),
                    inverted: mask.inverted)
            }
            children = [SceneNode(transform: .identity, opacity: 1, content: .masked(children, masks: masks))]
        }
        let matrix = world(layer, at: f, byIndex: byIndex)
        return SceneNode(
            transform: ProjectiveTransform(matrix), opacity: opacity, content: .group(children, clip: clip))
    }

    /// The layer's transform times its parents' (Lottie 1.0 spec, Layer: `parent`); each
    /// transform at the composition's frame `f` (above); parents' opacity is not inherited.
    func world(_ layer: LottieLayer, at f: Double, byIndex: [Int: LottieLayer]) -> Geometry.AffineTransform {
        var m = layer.transform.matrix(at: f)
        var next = layer.parent
        var steps = 0
        while let p = next, let parent = byIndex[p], steps < 64 {
            m = m.concatenating(parent.transform.matrix(at: f))
            next = parent.parent
            steps += 1
        }
        return m
    }

    /// One path of a shape list with the trim that applies to it (the first `tm` after it in
    /// its group, else the one its enclosing group inherits).
    struct Piece {
        var path: BezierPath
        var trim: TrimRanges?
    }

    /// A shape list's drawing at frame `f`: nodes back to front, and every path in it (in the
    /// list's coordinates) for styles further up that paint them. `trim` is the trim that
    /// applies to the whole list from its enclosing groups.
    func draw(
        _ items: [LottieShape], at f: Double, trim inherited: TrimRanges? = nil, round inheritedRound: Double = 0,
        place: [Int] = [], budget: SceneBudget
    )
        -> (nodes: [SceneNode], pieces: [Piece])
    {
        guard place.count < Self.maximumDepth, budget.cut == nil else { return ([], []) }
        // The corner radius that applies to the item at each index: the first rd after it.
        var rounds = Array(repeating: inheritedRound, count: items.count)
        var nextRound = inheritedRound
        for (i, item) in items.enumerated().reversed() {
            rounds[i] = nextRound
            if case .roundCorners(let r) = item {
                let value = r.value(at: f).first ?? 0
                nextRound = value.isFinite ? max(value, 0) : 0
            }
        }

        // The trim that applies to the item at each index: the first tm after it.
        var trims: [TrimRanges?] = Array(repeating: inherited, count: items.count)
        var next = inherited
        for (i, item) in items.enumerated().reversed() {
            trims[i] = next
            if case .trim(let s, let e, let o, let individually) = item {
                next = TrimRanges(
                    start: s.value(at: f).first ?? 0, end: e.value(at: f).first ?? 100,
                    offset: o.value(at: f).first ?? 0, individually: individually, id: place + [i])
            }
        }
        func piece(_ path: LottiePath, _ i: Int, reversed: Bool) -> Piece {
            let rounded = rounds[i] > 0 ? Self.roundedCorners(path, radius: rounds[i]) : path
            return Piece(path: reversed ? Self.reversedPath(rounded).bezier : rounded.bezier, trim: trims[i])
        }
        var pieces: [Piece] = []
        var topFirst: [SceneNode] = []
        for (i, item) in items.enumerated() {
            guard budget.cut == nil else { break }
            switch item {
            case .group(let children, let transform):
                var inner = draw(children, at: f, trim: trims[i], round: rounds[i], place: place + [i], budget: budget)
                guard budget.built(segments: Self.elementCount(inner.pieces)) else { break }
                let matrix = transform.matrix(at: f)
                // Each inner path is replaced by its transformed copy as it is made, so the
                // untransformed ones are freed on the way instead of all living until the end.
                for k in inner.pieces.indices { inner.pieces[k].path = inner.pieces[k].path.applying(matrix) }
                pieces += inner.pieces
                let opacity = transform.opacityFraction(at: f)
                if !inner.nodes.isEmpty, opacity > 0 {
                    topFirst.append(
                        SceneNode(
                            transform: ProjectiveTransform(matrix), opacity: opacity,
                            content: .group(inner.nodes, clip: nil)))
                }
            case .path(let property, let reversed):
                pieces.append(piece(property.value(at: f), i, reversed: reversed))
                budget.built(segments: Self.elementCount(pieces[pieces.count - 1].path))
            case .ellipse(let position, let size, let reversed):
                pieces.append(
                    Piece(
                        path: Self.ellipse(position.value(at: f), size.value(at: f), reversed: reversed), trim: trims[i]
                    ))
                budget.built(segments: Self.elementCount(pieces[pieces.count - 1].path))
            case .rect(let position, let size, let radius, let reversed):
                let path = Self.rectanglePath(position.value(at: f), size.value(at: f), radius.value(at: f).first ?? 0)
                pieces.append(piece(path, i, reversed: reversed))
                budget.built(segments: Self.elementCount(pieces[pieces.count - 1].path))
            case .polystar(let star):
                pieces.append(piece(Self.polystar(star, at: f), i, reversed: false))
                budget.built(segments: Self.elementCount(pieces[pieces.count - 1].path))
            case .trim, .roundCorners: continue
            case .repeater(let repeater):
                // Everything so far in this group, copied (lottie-web's RepeaterModifier).
                let copies = Self.repeaterCopies(repeater, at: f)
                guard
                    budget.built(
                        shapes: copies.count * Self.shapeCount(topFirst),
                        segments: copies.count * Self.elementCount(pieces))
                else { break }
                let backToFront = Array(topFirst.reversed())
                var copyNodes: [SceneNode] = []
                var copyPieces: [Piece] = []
                // Top first: lottie-web inserts each copy as a group at the front of the shape
                // list, and the first item of a list is drawn on top.
                for (matrix, opacity) in copies {
                    copyPieces += pieces.map { Piece(path: $0.path.applying(matrix), trim: $0.trim) }
                    // A copy is a group, so its opacity is atomic, like any group's: lottie-web's
                    // SVG renderer sets it on the copy's `<g>` (rlottie and ThorVG fade each item
                    // of the copy on its own instead; docs/lottie.md, Repeater).
                    // No copy of nothing: an empty group draws nothing, and three nested
                    // repeaters of 1 000 copies over no shape counted no shape and made a tree
                    // of 10⁹ empty groups to walk (`validate` did not end in a minute).
                    if opacity > 0, !backToFront.isEmpty {
                        copyNodes.append(
                            SceneNode(
                                transform: ProjectiveTransform(matrix), opacity: opacity,
                                content: .group(backToFront, clip: nil)))
                    }
                }
                pieces = copyPieces
                topFirst = copyNodes
            case .gradientFill(let gradient, let rule):
                guard !pieces.isEmpty, let paint = Self.gradientPaint(gradient, at: f) else { continue }
                guard budget.built(shapes: 1, segments: Self.elementCount(pieces)) else { break }
                var all = BezierPath()
                for piece in pieces { all.append(piece.path) }
                var drawing = fill(all, .black, rule)
                drawing.fillGradient = paint
                topFirst.append(SceneNode(transform: .identity, opacity: 1, content: .shape(drawing)))
            case .gradientStroke(let gradient, let stroke):
                guard !pieces.isEmpty, let paint = Self.gradientPaint(gradient, at: f) else { continue }
                guard budget.built(segments: Self.elementCount(pieces)),
                    let nodes = strokeNodes(stroke, color: .black, gradient: paint, pieces, at: f, budget: budget)
                else { break }
                topFirst += nodes
            case .fill(let color, let opacity, let rule):
                guard !pieces.isEmpty else { continue }
                let c = Self.color(color.value(at: f), opacity: opacity.value(at: f))
                guard c.alpha > 0 else { continue }
                guard budget.built(shapes: 1, segments: Self.elementCount(pieces)) else { break }
                var all = BezierPath()
                for piece in pieces { all.append(piece.path) }
                topFirst.append(SceneNode(transform: .identity, opacity: 1, content: .shape(fill(all, c, rule))))
            case .stroke(let stroke):
                guard !pieces.isEmpty else { continue }
                let c = Self.color(stroke.color.value(at: f), opacity: stroke.opacity.value(at: f))
                guard budget.built(segments: Self.elementCount(pieces)),
                    let nodes = strokeNodes(stroke, color: c, gradient: nil, pieces, at: f, budget: budget)
                else { break }
                topFirst += nodes
            }
        }
        return (topFirst.reversed(), pieces)
    }

    /// The nodes of one stroke over `pieces`, top first (the pieces' strokes in reverse so the
    /// first path ends on top); `color` or, when set, `gradient` (whose stops carry `o`).
    /// Counts its shapes in `budget` before making them, one per drawn range of each run (a
    /// trim with `m` = 1 over n pieces makes n or 2n of them; at least 1, for a stroke that
    /// draws nothing), and returns nil, making nothing, when that passes the budget: a stroke
    /// over 1 000 trimmed pieces is 2 000 nodes of 352 bytes, and 666 such strokes in one
    /// group made 1.3 million of them (770 MB resident) before the segment count stopped them
    /// (`make fuzz`, seed 1, input 86).
    func strokeNodes(
        _ stroke: LottieStroke, color c: RGBAColor, gradient: GradientPaint?, _ pieces: [Piece], at f: Double,
        budget: SceneBudget
    )
        -> [SceneNode]?
    {
        let width = stroke.width.value(at: f).first ?? 0
        guard gradient != nil || c.alpha > 0, width > 0, width.isFinite else {
            return budget.built(shapes: 1) ? [] : nil
        }
        var dashes = stroke.dashes.map { max(0, $0.value(at: f).first ?? 0) }
        if dashes.count % 2 == 1 { dashes += dashes }
        if !dashes.contains(where: { $0 > 0 }) { dashes = [] }
        let drawing = StrokeDrawing(
            color: c, width: width, lineCap: stroke.cap, lineJoin: stroke.join, miterLimit: max(1, stroke.miterLimit),
            dashes: dashes, dashPhase: stroke.dashOffset?.value(at: f).first ?? 0)
        let runs = Self.strokeRuns(pieces)
        let count = runs.reduce(0) { n, run in n + run.1.count { $0.1 > $0.0 } }
        guard budget.built(shapes: max(count, 1)) else { return nil }
        var out: [SceneNode] = []
        out.reserveCapacity(count)
        for (path, ranges) in runs.reversed() {
            for (start, end) in ranges where end > start {
                var trimmed = drawing
                trimmed.start = start
                trimmed.end = end
                out.append(
                    SceneNode(
                        transform: .identity, opacity: 1,
                        content: .shape(
                            ShapeDrawing(
                                fillPath: nil, fillColor: .clear, fillRule: .nonZero, strokePath: path,
                                stroke: trimmed, strokeGradient: gradient))))
            }
        }
        return out
    }

    /// The copies of a repeater at `f`, top first, each with its transform and opacity, as
    /// lottie-web's `RepeaterModifier.processShapes` makes them (the Lottie 1.0 spec has no
    /// repeater; `docs/lottie.md`, Repeater). There are ⌈`c`⌉ copies (at most 1 000) in a list
    /// whose index 0 is drawn on top. `m` 1 walks the list from index 0, `m` 2 from the end; the
    /// `j`-th copy walked is `o + j` steps along `tr`. So with `m` 1 step 0 is on top and each
    /// step lies under the one before; with `m` 2 each step lies over the one before. Copy `i`
    /// of the list has opacity `so + (eo − so) · i / (c − 1)` (`so` for one copy): by its list
    /// index, so with `m` 2 step 0 gets `eo`. The steps accumulate per component, as lottie-web
    /// keeps one matrix each for rotation, scale and position: `t` steps rotate by `r · t` and
    /// then scale (each step by `s`, a fraction `u` of a step by `1 + (s − 1) · u`, a step back
    /// by the inverse) about the anchor `a`, then move by `p · t`; a translation is not turned by
    /// later steps. The offset's whole steps and its fraction come first, then one whole step
    /// per copy.
    static func repeaterCopies(_ r: LottieRepeater, at f: Double) -> [(Geometry.AffineTransform, Double)] {
        let countValue = r.copies.value(at: f).first ?? 1
        guard countValue.isFinite, countValue > 0 else { return [] }
        let count = Int(min(countValue, 1000).rounded(.up))
        let offsetValue = r.offset.value(at: f).first ?? 0
        let offset = offsetValue.isFinite ? offsetValue : 0
        let a = r.anchor.value(at: f)
        let p = r.position.value(at: f)
        let sc = r.scale.value(at: f)
        let rot = r.rotation.value(at: f).first ?? 0
        let so = (r.startOpacity.value(at: f).first ?? 100) / 100
        let eo = (r.endOpacity.value(at: f).first ?? 100) / 100
        let ax = a.first ?? 0
        let ay = a.count > 1 ? a[1] : 0
        let stepScale = [(sc.first ?? 100) / 100, (sc.count > 1 ? sc[1] : 100) / 100]
        // The offset's scale: its whole steps (back steps invert), then its fraction.
        let whole = offset.rounded(.towardZero)
        let fraction = offset - whole
        let offsetScale = stepScale.map { s in
            pow(s, whole) * (fraction >= 0 ? 1 + (s - 1) * fraction : 1 / (1 + (s - 1) * -fraction))
        }
        var byStep: [(Geometry.AffineTransform, Double)] = []
        for j in 0..<count {
            let t = offset + Double(j)
            let sx = offsetScale[0] * pow(stepScale[0], Double(j))
            let sy = offsetScale[1] * pow(stepScale[1], Double(j))
            let m = Geometry.AffineTransform.translation(x: -ax, y: -ay)
                .concatenating(.rotation(degrees: rot * t))
                .concatenating(.scale(x: sx, y: sy))
                .concatenating(.translation(x: ax, y: ay))
                .concatenating(.translation(x: (p.first ?? 0) * t, y: (p.count > 1 ? p[1] : 0) * t))
            // The list index of the j-th copy walked.
            let index = r.walksFromTop ? j : count - 1 - j
            let share = count > 1 ? Double(index) / Double(count - 1) : 0
            byStep.append((m, min(max(so + (eo - so) * share, 0), 1)))
        }
        let topFirst = r.walksFromTop ? byStep : byStep.reversed()
        return topFirst.filter { copy in
            [copy.0.a, copy.0.b, copy.0.c, copy.0.d, copy.0.tx, copy.0.ty].allSatisfy(\.isFinite)
        }
    }

    /// `sr` as a path (Lottie 1.0 spec, PolyStar; the tangents as lottie-web's
    /// StarShapeProperty, `convertStarToPath` and `convertPolygonToPath`, computes them):
    /// vertices from the top (−90° plus `r`) clockwise (`d` = 3: counter-clockwise), `⌊pt⌋` of
    /// them for a polygon and `2⌊pt⌋` alternating outer and inner radius for a star. Each
    /// vertex's tangents lie along the circle through it, of length `roundness/100 ×` its
    /// circle's perimeter divided by 4 × the vertex count (polygon) or 2 × the vertex count
    /// (star).
    static func polystar(_ star: LottiePolystar, at f: Double) -> LottiePath {
        let p = star.position.value(at: f)
        let cx = p.first ?? 0
        let cy = p.count > 1 ? p[1] : 0
        let pointsValue = star.points.value(at: f).first ?? 0
        guard pointsValue.isFinite, pointsValue >= 1 else {
            return LottiePath(vertices: [], inTangents: [], outTangents: [], closed: true)
        }
        let points = Int(min(pointsValue, 10_000).rounded(.down))
        let count = star.star ? points * 2 : points
        let outer = star.outerRadius.value(at: f).first ?? 0
        let inner = star.innerRadius.value(at: f).first ?? 0
        let outerRound = (star.outerRoundness.value(at: f).first ?? 0) / 100
        let innerRound = (star.innerRoundness.value(at: f).first ?? 0) / 100
        let dir = star.reversed ? -1.0 : 1.0
        let step = 2 * Double.pi / Double(count)
        var angle = -Double.pi / 2 + (star.rotation.value(at: f).first ?? 0) * .pi / 180
        var vertices: [Point] = []
        var ins: [Point] = []
        var outs: [Point] = []
        for i in 0..<count {
            let isOuter = !star.star || i % 2 == 0
            let radius = isOuter ? outer : inner
            let roundness = isOuter ? outerRound : innerRound
            let perimeter = 2 * Double.pi * radius / Double(star.star ? count * 2 : count * 4)
            let x = radius * cos(angle)
            let y = radius * sin(angle)
            let length = (x * x + y * y).squareRoot()
            let ox = length == 0 ? 0 : y / length
            let oy = length == 0 ? 0 : -x / length
            let k = perimeter * roundness * dir
            vertices.append(Point(x: cx + x, y: cy + y))
            outs.append(Point(x: -ox * k, y: -oy * k))
            ins.append(Point(x: ox * k, y: oy * k))
            angle += step * dir
        }
        return LottiePath(vertices: vertices, inTangents: ins, outTangents: outs, closed: true)
    }

    /// `rd` applied to a path (lottie-web's RoundCornersModifier; the Lottie 1.0 spec has no
    /// rounded corners): every sharp vertex (both tangents zero; the ends of an open path
    /// excepted) becomes two, `min(radius, half the edge)` along each edge, joined by a cubic
    /// whose control points lie `1 − 0.5519` of the way from each new vertex to the corner.
    static func roundedCorners(_ path: LottiePath, radius: Double) -> LottiePath {
        let n = path.vertices.count
        guard n > 1, radius > 0 else { return path }
        let zero = Point(x: 0, y: 0)
        var v: [Point] = []
        var ins: [Point] = []
        var outs: [Point] = []
        for i in 0..<n {
            let corner = path.vertices[i]
            let sharp = path.inTangents[i] == zero && path.outTangents[i] == zero
            if !sharp || (!path.closed && (i == 0 || i == n - 1)) {
                v.append(corner)
                ins.append(path.inTangents[i])
                outs.append(path.outTangents[i])
                continue
            }
            for neighbour in [path.vertices[(i + n - 1) % n], path.vertices[(i + 1) % n]] {
                let dx = neighbour.x - corner.x
                let dy = neighbour.y - corner.y
                let distance = (dx * dx + dy * dy).squareRoot()
                let t = distance > 0 ? min(distance / 2, radius) / distance : 0
                let point = Point(x: corner.x + dx * t, y: corner.y + dy * t)
                // The handle, relative to the new vertex, points to the corner.
                let handle = Point(
                    x: (corner.x - point.x) * ellipseConstant, y: (corner.y - point.y) * ellipseConstant)
                // Both handles of both new vertices point to the corner, as lottie-web sets
                // them (the straight edges stay straight; only their parametrisation bends).
                v.append(point)
                ins.append(handle)
                outs.append(handle)
            }
        }
        return LottiePath(vertices: v, inTangents: ins, outTangents: outs, closed: path.closed)
    }

    /// A gradient at `f`: the colour stops and the opacity stops, each list read the way SVG
    /// reads a gradient's stops (lottie-web's SVG renderer draws them as two SVG gradients, the
    /// opacity one as a mask): in list order, offsets clamped to 0…1 and to at least the offset
    /// before (the Lottie 1.0 spec, Gradient, stores them "by ascending offsets"), linear between
    /// neighbours, ends held, and two stops at one offset a hard edge (the first one's value
    /// up to it, the last one's after). The two lists are merged at every offset of either, with
    /// a pair of stops where either list jumps; alpha times `o`. A radial gradient's focus at `h`
    /// (clamped to ±0.99) of the radius from the centre, `a` degrees from the start→end
    /// direction (lottie-web's gradient fill, canvas renderer). Nil when there are no colour
    /// stops.
    static func gradientPaint(_ g: LottieGradient, at f: Double) -> GradientPaint? {
        let k = g.stops.value(at: f)
        let colorCount = min(g.colorCount, k.count / 4)
        guard colorCount > 0 else { return nil }
        var colorStops: [(Double, [Double])] = []
        for j in 0..<colorCount { colorStops.append((k[4 * j], [k[4 * j + 1], k[4 * j + 2], k[4 * j + 3]])) }
        var alphaStops: [(Double, [Double])] = []
        var j = 4 * colorCount
        while j + 1 < k.count {
            alphaStops.append((k[j], [k[j + 1]]))
            j += 2
        }
        let colors = StopRamp(colorStops)
        let alphas = StopRamp(alphaStops.isEmpty ? [(0, [1])] : alphaStops)
        let offsets = Array(Set(colors.stops.map(\.offset) + alphas.stops.map(\.offset))).sorted()
        let o = min(max((g.opacity.value(at: f).first ?? 100) / 100, 0), 1)
        func stop(_ x: Double, _ c: [Double], _ a: [Double]) -> GradientStop {
            let alpha = a.first ?? 1
            return GradientStop(
                offset: x, color: color(c, opacity: [min(max(alpha.isFinite ? alpha : 1, 0), 1) * o * 100]))
        }
        var stops: [GradientStop] = []
        for x in offsets {
            let (c0, c1) = (colors.before(x), colors.after(x))
            let (a0, a1) = (alphas.before(x), alphas.after(x))
            stops.append(stop(x, c0, a0))
            if c1 != c0 || a1 != a0 { stops.append(stop(x, c1, a1)) }
        }
        let s = g.start.value(at: f)
        let e = g.end.value(at: f)
        let start = Point(x: s.first ?? 0, y: s.count > 1 ? s[1] : 0)
        let end = Point(x: e.first ?? 0, y: e.count > 1 ? e[1] : 0)
        guard g.radial else { return GradientPaint(kind: .linear, start: start, end: end, stops: stops) }
        let radius = ((end.x - start.x) * (end.x - start.x) + (end.y - start.y) * (end.y - start.y)).squareRoot()
        let angle = atan2(end.y - start.y, end.x - start.x)
        var h = (g.highlightLength.value(at: f).first ?? 0) / 100
        if !h.isFinite { h = 0 }
        h = min(max(h, -0.99), 0.99)
        let a = (g.highlightAngle.value(at: f).first ?? 0) * .pi / 180
        let focus = Point(
            x: start.x + cos(angle + (a.isFinite ? a : 0)) * radius * h,
            y: start.y + sin(angle + (a.isFinite ? a : 0)) * radius * h)
        return GradientPaint(kind: .radial(focus: focus), start: start, end: end, stops: stops)
    }

    /// The paths one stroke draws, each with the length fractions that draw: untrimmed pieces
    /// as one path, a trim with `m` = 2 over its pieces joined (one length), a trim with
    /// `m` = 1 on each piece alone.
    static func strokeRuns(_ pieces: [Piece]) -> [(BezierPath, [(Double, Double)])] {
        var runs: [(BezierPath, [(Double, Double)])] = []
        var untrimmed = BezierPath()
        var joined: [(TrimRanges, BezierPath)] = []
        for piece in pieces {
            guard let trim = piece.trim else {
                untrimmed.append(piece.path)
                continue
            }
            if trim.individually {
                if let k = joined.firstIndex(where: { $0.0 == trim }) {
                    joined[k].1.append(piece.path)
                } else {
                    joined.append((trim, piece.path))
                }
            } else {
                runs.append((piece.path, trim.ranges))
            }
        }
        runs += joined.map { ($0.1, $0.0.ranges) }
        if !untrimmed.isEmpty { runs.insert((untrimmed, [(0, 1)]), at: 0) }
        return runs
    }

    func fill(_ path: BezierPath, _ color: RGBAColor, _ rule: FillRule) -> ShapeDrawing {
        ShapeDrawing(
            fillPath: path, fillColor: color, fillRule: rule, strokePath: nil,
            stroke: StrokeDrawing(
                color: .clear, width: 1, lineCap: .butt, lineJoin: .miter, miterLimit: 4, dashes: [], dashPhase: 0))
    }

    /// A colour from Lottie's `c` (0…1 channels; alpha, when given, ignored as lottie-web does)
    /// and `o` (0…100).
    static func color(_ c: [Double], opacity o: [Double]) -> RGBAColor {
        func channel(_ i: Int) -> Double { i < c.count && c[i].isFinite ? min(max(c[i], 0), 1) : 0 }
        let alpha = min(max((o.first ?? 100) / 100, 0), 1)
        return RGBAColor(red: channel(0), green: channel(1), blue: channel(2), alpha: alpha.isFinite ? alpha : 0)
    }

    /// The circle constant of Lottie ellipses and rounded rectangle corners: a quarter arc's
    /// control points lie 0.5519 of the radius along the end tangents (lottie-web's
    /// `roundCorner` in its shape properties; the Lottie documentation's rendering notes follow
    /// it; the usual 4(√2 − 1)/3 = 0.55228 differs by 0.07 % of the radius).
    public static let ellipseConstant = 0.5519

    /// `el`: four cubics from the top, clockwise (`d` = 3: counter-clockwise), as lottie-web's
    /// EllipseShapeProperty draws it.
    static func ellipse(_ p: [Double], _ s: [Double], reversed: Bool) -> BezierPath {
        let cx = p.first ?? 0
        let cy = p.count > 1 ? p[1] : 0
        let rx = (s.first ?? 0) / 2
        let ry = (s.count > 1 ? s[1] : 0) / 2
        let k = ellipseConstant
        let top = Point(x: cx, y: cy - ry)
        let right = Point(x: cx + rx, y: cy)
        let bottom = Point(x: cx, y: cy + ry)
        let left = Point(x: cx - rx, y: cy)
        let sign = reversed ? -1.0 : 1.0
        let vertices = reversed ? [top, left, bottom, right] : [top, right, bottom, left]
        // Tangents along the direction of travel at each vertex.
        func outTangent(_ v: Point) -> Point {
            if v == top { return Point(x: sign * rx * k, y: 0) }
            if v == bottom { return Point(x: -sign * rx * k, y: 0) }
            if v == right { return Point(x: 0, y: sign * ry * k) }
            return Point(x: 0, y: -sign * ry * k)
        }
        let outs = vertices.map(outTangent)
        let ins = outs.map { Point(x: -$0.x, y: -$0.y) }
        return LottiePath(vertices: vertices, inTangents: ins, outTangents: outs, closed: true).bezier
    }

    /// `rc`: from the top-right corner clockwise (`d` = 3: counter-clockwise), corners rounded
    /// by `r` capped at half the shorter side, as lottie-web's RectShapeProperty draws it.
    static func rectangle(_ p: [Double], _ s: [Double], _ radius: Double, reversed: Bool) -> BezierPath {
        let path = rectanglePath(p, s, radius)
        return reversed ? reversedPath(path).bezier : path.bezier
    }

    /// `rc` as vertices and tangents, clockwise from the top-right corner (see `rectangle`).
    static func rectanglePath(_ p: [Double], _ s: [Double], _ radius: Double) -> LottiePath {
        let cx = p.first ?? 0
        let cy = p.count > 1 ? p[1] : 0
        let hw = abs(s.first ?? 0) / 2
        let hh = abs(s.count > 1 ? s[1] : 0) / 2
        let r = min(max(radius.isFinite ? radius : 0, 0), hw, hh)
        var v: [Point] = []
        var ins: [Point] = []
        var outs: [Point] = []
        let zero = Point(x: 0, y: 0)
        if r == 0 {
            v = [
                Point(x: cx + hw, y: cy - hh), Point(x: cx + hw, y: cy + hh), Point(x: cx - hw, y: cy + hh),
                Point(x: cx - hw, y: cy - hh),
            ]
            ins = Array(repeating: zero, count: 4)
            outs = ins
        } else {
            let k = r * ellipseConstant
            let (l, rt, t, b) = (cx - hw, cx + hw, cy - hh, cy + hh)
            v = [
                Point(x: rt, y: t + r), Point(x: rt, y: b - r), Point(x: rt - r, y: b), Point(x: l + r, y: b),
                Point(x: l, y: b - r), Point(x: l, y: t + r), Point(x: l + r, y: t), Point(x: rt - r, y: t),
            ]
            ins = [
                Point(x: 0, y: -k), zero, Point(x: k, y: 0), zero, Point(x: 0, y: k), zero, Point(x: -k, y: 0), zero,
            ]
            outs = [
                zero, Point(x: 0, y: k), zero, Point(x: -k, y: 0), zero, Point(x: 0, y: -k), zero, Point(x: k, y: 0),
            ]
        }
        return LottiePath(vertices: v, inTangents: ins, outTangents: outs, closed: true)
    }

    /// The same outline run backwards from the same first vertex (`d` = 3).
    static func reversedPath(_ path: LottiePath) -> LottiePath {
        guard path.vertices.count > 1 else { return path }
        let n = path.vertices.count
        let order = path.closed ? [0] + (1..<n).reversed() : Array((0..<n).reversed())
        return LottiePath(
            vertices: order.map { path.vertices[$0] }, inTangents: order.map { path.outTangents[$0] },
            outTangents: order.map { path.inTangents[$0] }, closed: path.closed)
    }
}

extension LottieAnimation {
    /// Path elements of `pieces` together, as `SceneBudget` counts them (`elementCount(_:)` of
    /// each path).
    static func elementCount(_ pieces: [Piece]) -> Int {
        pieces.reduce(0) { $0 + elementCount($1.path) }
    }

    /// Path elements of `path` as `SceneBudget` counts them: an empty path counts as one, since
    /// it is still a piece that groups and repeaters copy (three nested repeaters of 1 000
    /// copies of an empty path counted nothing and asked for 10⁹ pieces: `validate` died
    /// allocating 2 GB under a 3 GB address-space limit).
    static func elementCount(_ path: BezierPath) -> Int {
        max(path.elements.count, 1)
    }

    /// Shapes (leaves) under `nodes`, as `SceneExtent.size` counts them.
    static func shapeCount(_ nodes: [SceneNode]) -> Int {
        SceneExtent.size(of: FrameScene(width: 0, height: 0, background: nil, nodes: nodes)).shapes
    }
}

/// The work one `LottieAnimation.scene(at:)` call has done, so a hostile file stops early: path
/// elements built (shapes, their copies under group transforms and repeaters, and the paths
/// each fill and stroke repaints; an empty path counts as one, `elementCount(_:)`) and shapes
/// made (a stroke's: one per path it draws, `strokeNodes`), each cumulative over the frame. Past
/// `ExportBudget.maximumBuiltSegments` or `maximumBuiltShapes` the scene is cut
/// (`FrameScene.cut`) and nothing more is built. One per call, never shared between threads.
final class SceneBudget {
    private(set) var segments = 0
    private(set) var shapes = 0
    /// The top-level layer (index in `layers`, the file's order) being built, for the cut's path.
    var layer: Int?
    /// Set once a limit is passed.
    private(set) var cut: SceneCut?

    /// Counts work about to be done; false (and `cut` set) when it passes a limit, in which
    /// case the caller does not do it. Counts saturate, so no input overflows them.
    @discardableResult
    func built(shapes addedShapes: Int = 0, segments addedSegments: Int = 0) -> Bool {
        guard cut == nil else { return false }
        segments = segments.addingReportingOverflow(addedSegments).overflow ? Int.max : segments + addedSegments
        shapes = shapes.addingReportingOverflow(addedShapes).overflow ? Int.max : shapes + addedShapes
        let path = layer.map { "$.layers[\($0)]" }
        if segments > ExportBudget.maximumBuiltSegments {
            cut = SceneCut(limit: .segments, count: segments, path: path)
        } else if shapes > ExportBudget.maximumBuiltShapes {
            cut = SceneCut(limit: .shapes, count: shapes, path: path)
        }
        return cut == nil
    }
}

/// One list of gradient stops (colours or opacities) as the piecewise-linear function SVG
/// draws from a gradient's stops: offsets in list order, each clamped to 0…1 and to at least
/// the one before it (a NaN offset takes the one before), values linear between neighbours and
/// held beyond the ends; where several stops share an offset the value jumps from the first
/// one's to the last one's (SVG 1.1, Gradients, "stop" offsets).
struct StopRamp {
    /// The stops, offsets clamped and non-decreasing; never empty.
    let stops: [(offset: Double, value: [Double])]

    /// The ramp of `raw` (offset, value) pairs in list order; `raw` must not be empty.
    init(_ raw: [(Double, [Double])]) {
        var out: [(offset: Double, value: [Double])] = []
        var floor = 0.0
        for (x, value) in raw {
            let offset = x.isNaN ? floor : min(max(x, floor), 1)
            out.append((offset, value))
            floor = offset
        }
        stops = out.isEmpty ? [(0, [])] : out
    }

    /// The value just before `x` (at a hard edge, the first stop's there).
    func before(_ x: Double) -> [Double] {
        guard let i = stops.firstIndex(where: { $0.offset >= x }) else { return stops[stops.count - 1].value }
        return i == 0 ? stops[0].value : Self.blend(stops[i - 1], stops[i], x)
    }

    /// The value just after `x` (at a hard edge, the last stop's there).
    func after(_ x: Double) -> [Double] {
        guard let i = stops.firstIndex(where: { $0.offset > x }) else { return stops[stops.count - 1].value }
        return i == 0 ? stops[0].value : Self.blend(stops[i - 1], stops[i], x)
    }

    /// Linear between two neighbouring stops at `x` (which lies between their offsets).
    private static func blend(
        _ a: (offset: Double, value: [Double]), _ b: (offset: Double, value: [Double]), _ x: Double
    ) -> [Double] {
        let t = b.offset > a.offset ? min(max((x - a.offset) / (b.offset - a.offset), 0), 1) : 1
        return zip(a.value, b.value).map { $0 + ($1 - $0) * t }
    }
}
