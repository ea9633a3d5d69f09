// SPDX-License-Identifier: GPL-3.0-or-later

import Encode
import Foundation
import Geometry
import Render
import Spec
import Timeline

/// Writes a composition as a Lottie 1.0 animation (the Lottie Animation Community's
/// specification, https://lottie.github.io/lottie-spec/1.0/), baked from the frames the other
/// formats draw.
///
/// Every drawing leaf of the scene (`SceneEvaluator.leaves`) becomes one shape layer (`ty` 4)
/// spanning the whole loop (`ip` 0 … `op` = frame count, `fr` = frame count / loop period, so
/// Lottie frame *i* is loop frame *i*). Its transform (`ks`), path (`sh`), fill (`fl`), stroke
/// (`st`, with its dash array `d`) and trim (`tm`) are sampled at every loop frame and written
/// as one keyframe per frame with linear easing (`o` = 0,0, `i` = 1,1), plus a closing keyframe
/// at `op` sampled at the loop's end instant, or as a static value when they never
/// change. So springs, paced paths, timers, state machines and replicators (expanded copy by
/// copy) are all baked at the loop's frame rate; the renderers reproduce our frames exactly at
/// every Lottie frame number, and interpolate linearly in between. A path whose vertex count
/// changes between frames is written with hold keyframes (`h` 1) instead, since the spec
/// interpolates shapes vertex by vertex (Lottie 1.0, Shape: "the number of vertices must be
/// the same in all keyframes").
///
/// Styles apply to the shapes before them in the same group and earlier items draw on top
/// (Lottie 1.0, Shapes, rendering model), so a stroke is its own group listed before the fill's
/// group: the trim (`tm`) sits in the stroke's group only, as in Core Animation, where
/// `strokeStart`/`strokeEnd` never cut the fill. Trims use `m` 2 ("individually" in After
/// Effects, lottie-web's sequential trim over all the subpaths), which measures the subpaths as
/// one length like `CAShapeLayer`.
///
/// Text becomes its glyph outlines (`TextOutline`), filled. Refused, with the JSON path of the
/// layer: image layers, `clip` (Lottie masks are
/// not written), rotation3D (a projective transform) and transforms with shear (which Lottie's
/// skew could express but is not written). A group whose opacity is below 1 over several
/// drawing children is written with the opacity applied to each child (Lottie 1.0 group
/// opacity multiplies into its styles): a warning names it.
public enum LottieWriter {
    /// The Lottie document of `composition` over `plan`'s frames, with warnings (the Core
    /// Animation lint, `LottieLint`, and approximations).
    /// - Throws: `LoopPlanError` naming the layer's JSON path for what Lottie cannot express.
    public static func document(of composition: Composition, plan: LoopPlan) throws(LoopPlanError) -> (
        json: JSONText, warnings: [String]
    ) {
        let frameCount = plan.frameCount
        // Frames 0…frameCount: the last, the closing keyframe, is the left limit of the loop's
        // end (a billionth of the period before frame 0 + period), so a value that wraps at the
        // seam (a repeating turn of 0…90°) closes at 90°, not back at 0°.
        var tracks: [[Int]: [SceneLeaf?]] = [:]
        let end = plan.time(ofFrame: 0) + plan.clockPeriod * (1 - 1e-9)
        for frame in 0...frameCount {
            let t = frame < frameCount ? plan.sampleTime(ofFrame: frame) : SampleTime(end)
            for leaf in SceneEvaluator.leaves(of: composition, at: t) {
                tracks[leaf.id, default: Array(repeating: nil, count: frameCount + 1)][frame] = leaf
            }
        }
        let ids = tracks.keys.sorted { $0.lexicographicallyPrecedes($1) }
        var layers: [JSONText] = []
        var warnings: [String] = []
        var sharedWarned: Set<String> = []
        // Lottie lists layers front to back: the first layer is drawn on top.
        for (index, id) in ids.reversed().enumerated() {
            guard let track = tracks[id] else { continue }
            let samples = try Sample.make(track)
            if let path = track.compactMap({ $0 }).first(where: \.sharesGroupOpacity)?.sourcePath,
                sharedWarned.insert(path).inserted
            {
                warnings.append(
                    "\(path): a group's opacity below 1 over overlapping children is applied to each child in Lottie")
            }
            let name = "layer " + id.map(String.init).joined(separator: ".")
            let (layer, lint) = shapeLayer(samples, name: name, index: index + 1, frameCount: frameCount)
            layers.append(layer)
            warnings += lint.map { "\(samples.sourcePath): \($0)" }
        }
        let fr = Double(frameCount) * plan.speed / plan.clockPeriod
        var members: [JSONText.Member] = [
            .init(key: "v", value: .string("5.7.0")),
            .init(key: "ver", value: .integer(10000)),
            .init(key: "fr", value: .number(fr)),
            .init(key: "ip", value: .integer(0)),
            .init(key: "op", value: .integer(frameCount)),
            .init(key: "w", value: .number(composition.canvas.width)),
            .init(key: "h", value: .number(composition.canvas.height)),
            .init(key: "nm", value: .string(composition.name)),
            .init(key: "ddd", value: .integer(0)),
            .init(key: "assets", value: .array([])),
            .init(key: "meta", value: .object(["g": .string("animexport \(Exporter.version)")])),
        ]
        var all = layers
        if let background = composition.canvas.background, background.alpha > 0 {
            all.append(
                backgroundLayer(background, composition: composition, index: layers.count + 1, frameCount: frameCount))
        }
        members.append(.init(key: "layers", value: .array(all)))
        return (.object(members), warnings)
    }

    /// One leaf's values at every frame, absent frames filled from the nearest present one
    /// (with opacity 0).
    struct Sample {
        var sourcePath: String
        var position: [Point] = []
        var rotation: [Double] = []
        var scale: [Point] = []
        var opacity: [Double] = []
        var path: [BezierPath] = []
        var fill: [RGBAColor?] = []
        var fillRule: FillRule = .nonZero
        var stroke: [StrokeDrawing?] = []

        static func make(_ track: [SceneLeaf?]) throws(LoopPlanError) -> Sample {
            guard let first = track.compactMap({ $0 }).first else { return Sample(sourcePath: "$") }
            var s = Sample(sourcePath: first.sourcePath)
            var last = first
            for entry in track {
                let leaf = entry ?? last
                last = leaf
                if let clip = leaf.clippedBy {
                    throw LoopPlanError(
                        message: "\(clip): clip is not exported to Lottie (masks are not written)", path: clip)
                }
                let drawing: ShapeDrawing
                switch leaf.content {
                case .shape(let shape): drawing = shape
                case .text(let text):
                    // Text as its glyph outlines, filled: Lottie text needs the font on the player.
                    let outline: BezierPath
                    do {
                        outline = try TextOutline.path(of: text)
                    } catch {
                        throw LoopPlanError(message: "\(leaf.sourcePath): \(error.message)", path: leaf.sourcePath)
                    }
                    drawing = ShapeDrawing(
                        fillPath: outline, fillColor: text.color, fillRule: .nonZero, strokePath: nil,
                        stroke: StrokeDrawing(
                            color: .clear, width: 1, lineCap: .butt, lineJoin: .miter, miterLimit: 10, dashes: [],
                            dashPhase: 0))
                default:
                    throw LoopPlanError(
                        message: "\(leaf.sourcePath): image layers are not exported to Lottie", path: leaf.sourcePath)
                }
                guard let m = leaf.transform.affine else {
                    throw LoopPlanError(
                        message:
                            "\(leaf.sourcePath): rotation3D (a perspective transform) cannot be expressed in Lottie",
                        path: leaf.sourcePath)
                }
                // m maps (x, y) to (a·x + c·y + tx, b·x + d·y + ty); as R(θ)·diag(sx, sy) when
                // its columns are orthogonal (no shear).
                let sx = (m.a * m.a + m.b * m.b).squareRoot()
                let sy = sx > 0 ? m.determinant / sx : 0
                let shear = m.a * m.c + m.b * m.d
                let tolerance = 1e-9 * max(1, sx * max(abs(m.c), abs(m.d)))
                guard abs(shear) <= tolerance else {
                    throw LoopPlanError(
                        message:
                            "\(leaf.sourcePath): a transform with shear (non-uniform scale under a rotation) is not exported to Lottie",
                        path: leaf.sourcePath)
                }
                var angle = sx > 0 ? atan2(m.b, m.a) * 180 / Double.pi : 0
                if let previous = s.rotation.last {
                    // Unwrapped, so linear keyframes turn the short way.
                    angle += 360 * ((previous - angle) / 360).rounded()
                }
                s.position.append(Point(x: m.tx, y: m.ty))
                s.rotation.append(angle)
                s.scale.append(Point(x: sx * 100, y: sy * 100))
                s.opacity.append(entry == nil ? 0 : leaf.opacity * 100)
                s.path.append(drawing.fillPath ?? drawing.strokePath ?? BezierPath())
                s.fill.append(entry == nil || drawing.fillPath == nil ? nil : drawing.fillColor)
                s.fillRule = drawing.fillRule
                s.stroke.append(entry == nil || drawing.strokePath == nil ? nil : drawing.stroke)
            }
            return s
        }
    }

    // MARK: - Layers

    private static func shapeLayer(_ s: Sample, name: String, index: Int, frameCount: Int) -> (
        JSONText, [String]
    ) {
        var lint: [String] = []
        let pathProperty = shapeProperty(s.path, frameCount: frameCount)
        var groups: [JSONText] = []
        let hasStroke = s.stroke.contains { $0 != nil }
        let hasFill = s.fill.contains { $0 != nil }
        if hasStroke {
            let strokes = s.stroke
            let template =
                strokes.compactMap { $0 }.first
                ?? StrokeDrawing(
                    color: .clear, width: 1, lineCap: .butt, lineJoin: .miter, miterLimit: 10, dashes: [], dashPhase: 0)
            let filled = strokes.map { $0 ?? template }
            var items: [JSONText] = pathItems(pathProperty)
            let starts = filled.map { $0.start * 100 }
            let ends = filled.map { $0.end * 100 }
            if starts.contains(where: { $0 != 0 }) || ends.contains(where: { $0 != 100 }) {
                items.append(
                    .object([
                        "ty": .string("tm"), "nm": .string("trim"),
                        "s": scalarProperty(starts, frameCount: frameCount),
                        "e": scalarProperty(ends, frameCount: frameCount),
                        "o": .object(["a": .integer(0), "k": .integer(0)]),
                        "m": .integer(2),
                    ]))
            }
            var stroke: [JSONText.Member] = [
                .init(key: "ty", value: .string("st")),
                .init(key: "nm", value: .string("stroke")),
                .init(key: "c", value: colorProperty(filled.map(\.color), frameCount: frameCount)),
                .init(
                    key: "o",
                    value: scalarProperty(
                        strokes.map { ($0?.color.alpha ?? 0) * 100 }, frameCount: frameCount)),
                .init(key: "w", value: scalarProperty(filled.map(\.width), frameCount: frameCount)),
                .init(key: "lc", value: .integer(lineCapCode(template.lineCap))),
                .init(key: "lj", value: .integer(lineJoinCode(template.lineJoin))),
                .init(key: "ml", value: .number(template.miterLimit)),
            ]
            if !template.dashes.isEmpty {
                let (dashes, animated) = dashArray(filled, frameCount: frameCount)
                stroke.append(.init(key: "d", value: .array(dashes)))
                if animated { lint.append(LottieLint.animatedDash) }
            }
            items.append(.object(stroke))
            items.append(groupTransform())
            groups.append(group("stroke", items))
        }
        if hasFill {
            var items: [JSONText] = pathItems(pathProperty)
            let template = s.fill.compactMap { $0 }.first ?? .clear
            items.append(
                .object([
                    "ty": .string("fl"), "nm": .string("fill"),
                    "c": colorProperty(s.fill.map { $0 ?? template }, frameCount: frameCount),
                    "o": scalarProperty(s.fill.map { ($0?.alpha ?? 0) * 100 }, frameCount: frameCount),
                    "r": .integer(s.fillRule == .evenOdd ? 2 : 1),
                ]))
            items.append(groupTransform())
            groups.append(group("fill", items))
        }
        let transform: JSONText = .object([
            "a": .object(["a": .integer(0), "k": .array([.integer(0), .integer(0)])]),
            "p": pointProperty(s.position, frameCount: frameCount),
            "s": pointProperty(s.scale, frameCount: frameCount),
            "r": scalarProperty(s.rotation, frameCount: frameCount),
            "o": scalarProperty(s.opacity, frameCount: frameCount),
        ])
        let layer: JSONText = .object([
            "ty": .integer(4), "nm": .string(name), "ind": .integer(index), "ddd": .integer(0),
            "ip": .integer(0), "op": .integer(frameCount), "st": .integer(0), "sr": .integer(1),
            "ks": transform, "shapes": .array(groups),
        ])
        return (layer, lint)
    }

    private static func backgroundLayer(_ color: RGBAColor, composition: Composition, index: Int, frameCount: Int)
        -> JSONText
    {
        var rect = BezierPath()
        rect.move(to: Point(x: 0, y: 0))
        rect.addLine(to: Point(x: composition.canvas.width, y: 0))
        rect.addLine(to: Point(x: composition.canvas.width, y: composition.canvas.height))
        rect.addLine(to: Point(x: 0, y: composition.canvas.height))
        rect.close()
        let items =
            pathItems(shapeProperty([rect], frameCount: frameCount)) + [
                .object([
                    "ty": .string("fl"), "nm": .string("fill"),
                    "c": colorProperty([color], frameCount: 1),
                    "o": .object(["a": .integer(0), "k": .number(color.alpha * 100)]),
                    "r": .integer(1),
                ]),
                groupTransform(),
            ]
        return .object([
            "ty": .integer(4), "nm": .string("background"), "ind": .integer(index), "ddd": .integer(0),
            "ip": .integer(0), "op": .integer(frameCount), "st": .integer(0), "sr": .integer(1),
            "ks": .object([
                "a": .object(["a": .integer(0), "k": .array([.integer(0), .integer(0)])]),
                "p": .object(["a": .integer(0), "k": .array([.integer(0), .integer(0)])]),
                "s": .object(["a": .integer(0), "k": .array([.integer(100), .integer(100)])]),
                "r": .object(["a": .integer(0), "k": .integer(0)]),
                "o": .object(["a": .integer(0), "k": .integer(100)]),
            ]),
            "shapes": .array([group("background", items)]),
        ])
    }

    private static func group(_ name: String, _ items: [JSONText]) -> JSONText {
        .object(["ty": .string("gr"), "nm": .string(name), "it": .array(items)])
    }

    /// The identity group transform every group ends with (Lottie 1.0, Group: its last item).
    private static func groupTransform() -> JSONText {
        .object([
            "ty": .string("tr"),
            "a": .object(["a": .integer(0), "k": .array([.integer(0), .integer(0)])]),
            "p": .object(["a": .integer(0), "k": .array([.integer(0), .integer(0)])]),
            "s": .object(["a": .integer(0), "k": .array([.integer(100), .integer(100)])]),
            "r": .object(["a": .integer(0), "k": .integer(0)]),
            "o": .object(["a": .integer(0), "k": .integer(100)]),
        ])
    }

    // MARK: - Properties

    /// Lottie 1.0 line cap: 1 butt, 2 round, 3 square.
    static func lineCapCode(_ cap: LineCap) -> Int {
        switch cap {
        case .butt: 1
        case .round: 2
        case .square: 3
        }
    }

    /// Lottie 1.0 line join: 1 miter, 2 round, 3 bevel.
    static func lineJoinCode(_ join: LineJoin) -> Int {
        switch join {
        case .miter: 1
        case .round: 2
        case .bevel: 3
        }
    }

    /// The stroke's dash array (`d`: dash `d`, gap `g` pairs, then offset `o`). An odd count
    /// repeats once, as `lineDashPattern` does (and SVG's `stroke-dasharray`). A pattern whose
    /// length changes over the loop is written with the first frame's count, the lengths
    /// keyframed; `animated` is true when any entry changes.
    static func dashArray(_ strokes: [StrokeDrawing], frameCount: Int) -> ([JSONText], Bool) {
        func doubled(_ d: [Double]) -> [Double] { d.count % 2 == 1 ? d + d : d }
        let first = doubled(strokes.first?.dashes ?? [])
        var animated = false
        var out: [JSONText] = []
        for (i, _) in first.enumerated() {
            let values = strokes.map { s -> Double in
                let d = doubled(s.dashes)
                return i < d.count ? d[i] : 0
            }
            if values.contains(where: { $0 != values[0] }) { animated = true }
            out.append(
                .object([
                    "n": .string(i % 2 == 0 ? "d" : "g"), "nm": .string(i % 2 == 0 ? "dash" : "gap"),
                    "v": scalarProperty(values, frameCount: frameCount),
                ]))
        }
        let phases = strokes.map(\.dashPhase)
        if phases.contains(where: { $0 != phases[0] }) { animated = true }
        out.append(
            .object(["n": .string("o"), "nm": .string("offset"), "v": scalarProperty(phases, frameCount: frameCount)]))
        return (out, animated)
    }

    /// Linear easing between baked keyframes: out handle (0, 0), in handle (1, 1).
    private static let linearOut: JSONText = .object(["x": .array([.integer(0)]), "y": .array([.integer(0)])])
    private static let linearIn: JSONText = .object(["x": .array([.integer(1)]), "y": .array([.integer(1)])])

    /// `{a: 0, k: value}` when every frame has the same value, else one linear keyframe per
    /// frame and the closing keyframe at `frameCount` (the last of the `frameCount + 1` values).
    private static func animated(_ values: [JSONText], frameCount: Int, hold: Bool = false) -> JSONText {
        guard let first = values.first, let closing = values.last else {
            return .object(["a": .integer(0), "k": .integer(0)])
        }
        if values.allSatisfy({ $0 == first }) {
            return .object(["a": .integer(0), "k": first])
        }
        var keys: [JSONText] = []
        for (frame, value) in values.dropLast().enumerated() {
            if hold {
                keys.append(.object(["t": .integer(frame), "s": value, "h": .integer(1)]))
            } else {
                keys.append(.object(["t": .integer(frame), "s": value, "o": linearOut, "i": linearIn]))
            }
        }
        keys.append(.object(["t": .integer(frameCount), "s": closing]))
        return .object(["a": .integer(1), "k": .array(keys)])
    }

    private static func scalarProperty(_ values: [Double], frameCount: Int) -> JSONText {
        // Keyframe values are arrays (Lottie 1.0, Keyframe `s`); a static value is the number.
        let property = animated(values.map { .array([.number($0)]) }, frameCount: frameCount)
        if case .object(let m) = property, m.first?.value == .integer(0), case .array(let v)? = m.last?.value,
            let only = v.first
        {
            return .object(["a": .integer(0), "k": only])
        }
        return property
    }

    private static func pointProperty(_ values: [Point], frameCount: Int) -> JSONText {
        animated(values.map { .array([.number($0.x), .number($0.y)]) }, frameCount: frameCount)
    }

    private static func colorProperty(_ values: [RGBAColor], frameCount: Int) -> JSONText {
        animated(
            values.map { .array([.number($0.red), .number($0.green), .number($0.blue), .integer(1)]) },
            frameCount: frameCount)
    }

    /// One shape property per subpath: static, linear keyframes, or holds when a subpath's
    /// vertex count (or the number of subpaths) changes.
    private static func shapeProperty(_ paths: [BezierPath], frameCount: Int) -> [JSONText] {
        let beziers = paths.map(LottieBezier.subpaths)
        let counts = beziers.map { $0.map(\.vertices.count) }
        let steady = counts.allSatisfy { $0 == counts[0] }
        let subpathCount = beziers.map(\.count).max() ?? 0
        var out: [JSONText] = []
        for index in 0..<subpathCount {
            let values = beziers.map { subs in
                index < subs.count ? subs[index].json : LottieBezier(vertices: [], closed: false).json
            }
            out.append(animated(values.map { .array([$0]) }, frameCount: frameCount, hold: !steady))
        }
        // Static shape values are the bezier object itself, not an array of one.
        return out.map { property in
            if case .object(let m) = property, m.first?.value == .integer(0), case .array(let v)? = m.last?.value,
                let only = v.first
            {
                return .object(["a": .integer(0), "k": only])
            }
            return property
        }
    }

    private static func pathItems(_ properties: [JSONText]) -> [JSONText] {
        properties.enumerated().map { i, ks in
            .object(["ty": .string("sh"), "nm": .string("path \(i)"), "ks": ks])
        }
    }
}

/// One subpath as a Lottie Bézier (Lottie 1.0, Bezier: vertices `v`, in tangents `i` and out
/// tangents `o` relative to their vertex, `c` closed).
struct LottieBezier: Equatable {
    struct Vertex: Equatable {
        var point: Point
        var inTangent = Point(x: 0, y: 0)
        var outTangent = Point(x: 0, y: 0)
    }

    var vertices: [Vertex]
    var closed: Bool

    /// The subpaths of `path`, each from its `move` to the next `move` (a `close` ends one;
    /// a line or curve after it starts the next at the closed subpath's start, as in Cairo).
    static func subpaths(_ path: BezierPath) -> [LottieBezier] {
        var out: [LottieBezier] = []
        var current: LottieBezier?
        var start = Point(x: 0, y: 0)
        func finish() {
            if var c = current, !c.vertices.isEmpty {
                // A closed subpath whose last vertex sits on its first: one vertex, the
                // closing curve's in tangent moved to the first.
                if c.closed, c.vertices.count > 1, let last = c.vertices.last, last.point == c.vertices[0].point {
                    c.vertices[0].inTangent = last.inTangent
                    c.vertices.removeLast()
                }
                out.append(c)
            }
            current = nil
        }
        for element in path.elements {
            switch element {
            case .move(let p):
                finish()
                start = p
                current = LottieBezier(vertices: [Vertex(point: p)], closed: false)
            case .line(let p):
                if current == nil || current?.closed == true {
                    finish()
                    current = LottieBezier(vertices: [Vertex(point: start)], closed: false)
                }
                current?.vertices.append(Vertex(point: p))
            case .cubic(let p, let c1, let c2):
                if current == nil || current?.closed == true {
                    finish()
                    current = LottieBezier(vertices: [Vertex(point: start)], closed: false)
                }
                if var c = current, let last = c.vertices.last {
                    c.vertices[c.vertices.count - 1].outTangent = Point(x: c1.x - last.point.x, y: c1.y - last.point.y)
                    c.vertices.append(Vertex(point: p, inTangent: Point(x: c2.x - p.x, y: c2.y - p.y)))
                    current = c
                }
            case .close:
                current?.closed = true
            }
        }
        finish()
        return out
    }

    var json: JSONText {
        func points(_ f: (Vertex) -> Point) -> JSONText {
            .array(
                vertices.map {
                    let p = f($0); return .array([.number(p.x), .number(p.y)])
                })
        }
        return .object([
            "c": .bool(closed), "v": points(\.point), "i": points(\.inTangent), "o": points(\.outTangent),
        ])
    }
}

/// What lottie-ios's Core Animation rendering engine (its default since Lottie 4.0) cannot play,
/// from the compatibility issues it logs before falling back to the main-thread engine
/// (lottie-ios `Sources/Private/CoreAnimation`, listed in airbnb/lottie `supported-features.md`):
/// trims on filled shapes ("doesn't currently support applying trims to filled shapes (only
/// stroked shapes)"), animated dash patterns ("does not support animating multiple keyframes for
/// stroke dashPattern values", lottie-ios issue #2046), mixed hold and non-hold keyframes in one
/// property, and merge paths. The writer never emits trims on fills (a stroke's trim sits in its
/// own group), mixed keyframes (a property is all linear or all hold) or merge paths, so only the
/// animated dash pattern can be found in its output.
public enum LottieLint {
    /// The warning for a stroke whose dash lengths or phase change over the loop.
    public static let animatedDash =
        "animated dash pattern: lottie-ios's Core Animation engine cannot animate dashPattern values"
        + " and falls back to its main-thread engine"
}
