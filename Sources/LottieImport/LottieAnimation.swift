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
    public func scene(at t: SampleTime) -> FrameScene {
        let frame = inPoint + t.seconds * frameRate
        return FrameScene(
            width: width, height: height, background: nil, nodes: nodes(of: layers, at: frame, depth: 0))
    }

    /// The nodes of a layer list at frame `f` of its composition, back to front (the list is
    /// top first).
    func nodes(of list: [LottieLayer], at f: Double, depth: Int) -> [SceneNode] {
        guard depth < Self.maximumDepth else { return [] }
        var byIndex: [Int: LottieLayer] = [:]
        for layer in list { if let i = layer.index, byIndex[i] == nil { byIndex[i] = layer } }
        var out: [SceneNode] = []
        for layer in list.reversed() {
            guard !layer.hidden, f >= layer.inPoint, f < layer.outPoint else { continue }
            let local = layer.localTime(f)
            let opacity = layer.transform.opacityFraction(at: local)
            guard opacity > 0 else { continue }
            let children: [SceneNode]
            var clip: BezierPath?
            switch layer.content {
            case .null: continue
            case .shapes(let shapes): children = draw(shapes, at: local).nodes
            case .precomp(let asset, let w, let h):
                guard asset < assets.count else { continue }
                children = nodes(of: assets[asset], at: local, depth: depth + 1)
                clip = .rect(Rect(x: 0, y: 0, width: w, height: h))
            case .solid(let color, let w, let h):
                children = [
                    SceneNode(
                        transform: .identity, opacity: 1,
                        content: .shape(fill(.rect(Rect(x: 0, y: 0, width: w, height: h)), color, .nonZero)))
                ]
            }
            guard !children.isEmpty else { continue }
            let matrix = world(layer, at: f, byIndex: byIndex)
            out.append(
                SceneNode(
                    transform: ProjectiveTransform(matrix), opacity: opacity, content: .group(children, clip: clip)))
        }
        return out
    }

    /// The layer's transform times its parents' (Lottie 1.0 spec, Layer: `parent`); each
    /// transform at its own layer's time; parents' opacity is not inherited.
    func world(_ layer: LottieLayer, at f: Double, byIndex: [Int: LottieLayer]) -> Geometry.AffineTransform {
        var m = layer.transform.matrix(at: layer.localTime(f))
        var next = layer.parent
        var steps = 0
        while let p = next, let parent = byIndex[p], steps < 64 {
            m = m.concatenating(parent.transform.matrix(at: parent.localTime(f)))
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
    func draw(_ items: [LottieShape], at f: Double, trim inherited: TrimRanges? = nil, place: [Int] = [])
        -> (nodes: [SceneNode], pieces: [Piece])
    {
        guard place.count < Self.maximumDepth else { return ([], []) }
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
        var pieces: [Piece] = []
        var topFirst: [SceneNode] = []
        for (i, item) in items.enumerated() {
            switch item {
            case .group(let children, let transform):
                let inner = draw(children, at: f, trim: trims[i], place: place + [i])
                let matrix = transform.matrix(at: f)
                pieces += inner.pieces.map { Piece(path: $0.path.applying(matrix), trim: $0.trim) }
                let opacity = transform.opacityFraction(at: f)
                if !inner.nodes.isEmpty, opacity > 0 {
                    topFirst.append(
                        SceneNode(
                            transform: ProjectiveTransform(matrix), opacity: opacity,
                            content: .group(inner.nodes, clip: nil)))
                }
            case .path(let property, let reversed):
                let path = property.value(at: f)
                pieces.append(Piece(path: reversed ? Self.reversedPath(path).bezier : path.bezier, trim: trims[i]))
            case .ellipse(let position, let size, let reversed):
                pieces.append(
                    Piece(
                        path: Self.ellipse(position.value(at: f), size.value(at: f), reversed: reversed), trim: trims[i]
                    ))
            case .rect(let position, let size, let radius, let reversed):
                let path = Self.rectangle(
                    position.value(at: f), size.value(at: f), radius.value(at: f).first ?? 0, reversed: reversed)
                pieces.append(Piece(path: path, trim: trims[i]))
            case .trim: continue
            case .fill(let color, let opacity, let rule):
                guard !pieces.isEmpty else { continue }
                let c = Self.color(color.value(at: f), opacity: opacity.value(at: f))
                guard c.alpha > 0 else { continue }
                var all = BezierPath()
                for piece in pieces { all.append(piece.path) }
                topFirst.append(SceneNode(transform: .identity, opacity: 1, content: .shape(fill(all, c, rule))))
            case .stroke(let stroke):
                guard !pieces.isEmpty else { continue }
                let c = Self.color(stroke.color.value(at: f), opacity: stroke.opacity.value(at: f))
                let width = stroke.width.value(at: f).first ?? 0
                guard c.alpha > 0, width > 0, width.isFinite else { continue }
                var dashes = stroke.dashes.map { max(0, $0.value(at: f).first ?? 0) }
                if dashes.count % 2 == 1 { dashes += dashes }
                if !dashes.contains(where: { $0 > 0 }) { dashes = [] }
                let drawing = StrokeDrawing(
                    color: c, width: width, lineCap: stroke.cap, lineJoin: stroke.join,
                    miterLimit: max(1, stroke.miterLimit), dashes: dashes,
                    dashPhase: stroke.dashOffset?.value(at: f).first ?? 0)
                // Nodes top first: the pieces' strokes in reverse so the first path ends on top.
                for (path, ranges) in Self.strokeRuns(pieces).reversed() {
                    for (start, end) in ranges where end > start {
                        var trimmed = drawing
                        trimmed.start = start
                        trimmed.end = end
                        topFirst.append(
                            SceneNode(
                                transform: .identity, opacity: 1,
                                content: .shape(
                                    ShapeDrawing(
                                        fillPath: nil, fillColor: .clear, fillRule: .nonZero, strokePath: path,
                                        stroke: trimmed))))
                    }
                }
            }
        }
        return (topFirst.reversed(), pieces)
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
        let path = LottiePath(vertices: v, inTangents: ins, outTangents: outs, closed: true)
        return reversed ? reversedPath(path).bezier : path.bezier
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
