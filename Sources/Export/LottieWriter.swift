// SPDX-License-Identifier: GPL-3.0-or-later

import Encode
import Foundation
import Geometry
import Raster
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
/// (`st`, with its dash array `d`) and trim (`tm`) are sampled over the loop and written as
/// keyframes by `LottieKeyframer`: where the preset's own timing curve (a CAMediaTimingFunction's
/// control points, through keyTimes, repeats, `autoreverses`, groups and state transactions:
/// `LottiePieces`) or a straight line reproduces every sample of a stretch, one keyframe with
/// that curve as its easing handles; elsewhere (springs, paced paths, composed curves) one
/// linear keyframe per loop frame; a static value when nothing changes; a closing keyframe at
/// `op` sampled at the loop end's left limit. The renderers reproduce our frames at every
/// Lottie frame number. The layer's anchor is the point its transform turns and scales about
/// when that keeps fewer position keyframes. A path whose vertex count changes between frames
/// is written with hold keyframes (`h` 1) at every frame instead, since the spec interpolates
/// shapes vertex by vertex (Lottie 1.0, Shape: "the number of vertices must be the same in all
/// keyframes").
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
        let period = plan.clockPeriod
        let offset = Double(plan.posterOffset)
        // Lottie frame f is composition time start + (f + posterOffset) · period / frameCount
        // (not wrapped: the loop repeats with the period, so the frames past the poster's wrap
        // are the same instants one period later).
        func seconds(_ f: Double) -> Double { plan.start + (f + offset) * period / Double(frameCount) }
        func frame(_ t: Double) -> Double {
            let f = (t - plan.start) * Double(frameCount) / period - offset
            return abs(f - f.rounded()) < 1e-6 ? f.rounded() : f
        }
        // The loop frames first: they name the leaves.
        var frameLeaves: [[SceneLeaf]] = []
        var idSet: Set<[Int]> = []
        for f in 0..<frameCount {
            let leaves = SceneEvaluator.leaves(of: composition, at: plan.sampleTime(ofFrame: f))
            frameLeaves.append(leaves)
            for leaf in leaves { idSet.insert(leaf.id) }
        }
        // Where each leaf's animations start, end, repeat, reverse or change segment.
        var leafPieces: [[Int]: [LottiePiece]] = [:]
        var instants: Set<Double> = []
        for id in idSet {
            let pieces =
                timingPieces(
                    of: composition, leaf: id, from: seconds(0), to: seconds(Double(frameCount)), frame: frame)
                ?? []
            leafPieces[id] = pieces
            for piece in pieces {
                for f in [piece.start, piece.end] where f > 0 && f < Double(frameCount) { instants.insert(f) }
            }
        }
        // Samples: loop frames and key instants, the midpoint of each two neighbours, the left
        // limit just before each key instant and before the loop's end.
        let epsilon = 1e-6
        let keyInstants = Set((0..<frameCount).map(Double.init)).union(instants).sorted()
        var sampleFrames: [Double] = []
        var isFrame: [Bool] = []
        var indexOf: [Double: Int] = [:]
        for (n, a) in keyInstants.enumerated() {
            indexOf[a] = sampleFrames.count
            sampleFrames.append(a)
            isFrame.append(a == a.rounded() && !instants.contains(a) || a == a.rounded())
            let b = n + 1 < keyInstants.count ? keyInstants[n + 1] : Double(frameCount)
            if b - a > 4 * epsilon {
                sampleFrames.append((a + b) / 2)
                isFrame.append(false)
            }
            if instants.contains(b) || n + 1 == keyInstants.count {
                sampleFrames.append(b - min(epsilon, (b - a) / 4))
                isFrame.append(false)
            }
        }
        var tracks: [[Int]: [SceneLeaf?]] = [:]
        for (index, f) in sampleFrames.enumerated() {
            let leaves: [SceneLeaf]
            if isFrame[index], Int(f) < frameLeaves.count {
                leaves = frameLeaves[Int(f)]
            } else if index == sampleFrames.count - 1 {
                // The closing keyframe is the left limit of the loop's end (a billionth of the
                // period before frame 0 + period), so a value that wraps at the seam (a
                // repeating turn of 0…90°) closes at 90°, not back at 0°.
                leaves = SceneEvaluator.leaves(
                    of: composition, at: SampleTime(plan.time(ofFrame: 0) + period * (1 - 1e-9)))
            } else {
                leaves = SceneEvaluator.leaves(of: composition, at: SampleTime(seconds(f)))
            }
            for leaf in leaves {
                tracks[leaf.id, default: Array(repeating: nil, count: sampleFrames.count)][index] = leaf
            }
        }
        func keyframer(_ id: [Int]) -> LottieKeyframer {
            let pieces = leafPieces[id] ?? []
            var breaks: Set<Int> = [0, sampleFrames.count - 1]
            for piece in pieces {
                for f in [piece.start, piece.end] { if let i = indexOf[f], i > 0 { breaks.insert(i) } }
            }
            return LottieKeyframer(
                frames: sampleFrames, isFrame: isFrame, breaks: breaks.sorted(), pieces: pieces,
                frameCount: frameCount)
        }
        let ids = tracks.keys.sorted { $0.lexicographicallyPrecedes($1) }
        var layers: [JSONText] = []
        var warnings: [String] = []
        var sharedWarned: Set<String> = []
        var slots = SlotBook(composition)
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
            let (layer, lint) = shapeLayer(
                samples, name: name, index: index + 1, fit: keyframer(id), slots: &slots)
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
        if !slots.slots.isEmpty {
            members.append(
                .init(
                    key: "slots",
                    value: .object(slots.slots.map { .init(key: $0.name, value: .object(["p": $0.property])) })))
        }
        return (.object(members), warnings)
    }

    /// One leaf's values at every sample, absent samples filled from the previous present one
    /// (with opacity 0, and `shown` false so the keyframer leaves them free).
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
        /// Whether the leaf is drawn at each sample.
        var shown: [Bool] = []

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
                s.shown.append(entry != nil)
                s.path.append(drawing.fillPath ?? drawing.strokePath ?? BezierPath())
                s.fill.append(entry == nil || drawing.fillPath == nil ? nil : drawing.fillColor)
                s.fillRule = drawing.fillRule
                s.stroke.append(entry == nil || drawing.strokePath == nil ? nil : drawing.stroke)
            }
            return s
        }
    }

    // MARK: - Layers

    private static func shapeLayer(
        _ s: Sample, name: String, index: Int, fit: LottieKeyframer, slots: inout SlotBook
    ) -> (JSONText, [String]) {
        var lint: [String] = []
        let frameCount = fit.frameCount
        var fit = fit
        fit.shown = s.shown
        let pathProperty = shapeProperty(s.path, fit: fit)
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
                        "s": scalarProperty(starts, fit: fit),
                        "e": scalarProperty(ends, fit: fit),
                        "o": .object(["a": .integer(0), "k": .integer(0)]),
                        "m": .integer(2),
                    ]))
            }
            var stroke: [JSONText.Member] = [
                .init(key: "ty", value: .string("st")),
                .init(key: "nm", value: .string("stroke")),
                .init(
                    key: "c",
                    value: slots.slotted(
                        colorProperty(filled.map(\.color), fit: fit), at: ["\(s.sourcePath).stroke.color"],
                        color: template.color)),
                .init(
                    key: "o",
                    value: scalarProperty(
                        strokes.map { ($0?.color.alpha ?? 0) * 100 }, fit: fit)),
                .init(
                    key: "w",
                    value: slots.slotted(
                        scalarProperty(filled.map(\.width), fit: fit), at: ["\(s.sourcePath).stroke.width"],
                        number: template.width)),
                .init(key: "lc", value: .integer(lineCapCode(template.lineCap))),
                .init(key: "lj", value: .integer(lineJoinCode(template.lineJoin))),
                .init(key: "ml", value: .number(template.miterLimit)),
            ]
            if !template.dashes.isEmpty {
                let (dashes, _) = dashArray(filled, fit: fit)
                stroke.append(.init(key: "d", value: .array(dashes)))
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
                    "c": slots.slotted(
                        colorProperty(s.fill.map { $0 ?? template }, fit: fit),
                        at: ["\(s.sourcePath).fill", "\(s.sourcePath).fill.color"], color: template),
                    "o": scalarProperty(s.fill.map { ($0?.alpha ?? 0) * 100 }, fit: fit),
                    "r": .integer(s.fillRule == .evenOdd ? 2 : 1),
                ]))
            items.append(groupTransform())
            groups.append(group("fill", items))
        }
        // The anchor: the point of the leaf's own coordinates that its motion turns and scales
        // about when one exists (a spinner's centre), so the position stays still or eases
        // instead of being baked along a circle; else the origin.
        let positions = s.position.map { [$0.x, $0.y] }
        var anchor = Point(x: 0, y: 0)
        var position = pointProperty(positions, fit: fit)
        if let pivot = pivot(s) {
            let moved = s.position.indices.map { i -> [Double] in
                let q = linearPart(s, i, pivot)
                return [q.x + s.position[i].x, q.y + s.position[i].y]
            }
            let candidate = pointProperty(moved, fit: fit)
            if keyCount(candidate) < keyCount(position) {
                anchor = pivot
                position = candidate
            }
        }
        let transform: JSONText = .object([
            "a": .object(["a": .integer(0), "k": .array([.number(anchor.x), .number(anchor.y)])]),
            "p": position,
            "s": pointProperty(s.scale.map { [$0.x, $0.y] }, fit: fit),
            "r": scalarProperty(s.rotation, fit: fit),
            "o": scalarProperty(s.opacity, fit: fit.unmasked),
        ])
        let layer: JSONText = .object([
            "ty": .integer(4), "nm": .string(name), "ind": .integer(index), "ddd": .integer(0),
            "ip": .integer(0), "op": .integer(frameCount), "st": .integer(0), "sr": .integer(1),
            "ks": transform, "shapes": .array(groups),
        ])
        // The Core Animation lint over what was written (the writer avoids all four, so this
        // guards the writer; an animated dash length is the one a preset could cause).
        // `index` is 1-based (`ind`) and the layer's place in `layers`.
        lint += LottieLint.coreAnimationFindings(inLayer: layer).map {
            "\($0.message) (the Lottie file's $.layers[\(index - 1)]\($0.path))"
        }
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
            pathItems([.object(["a": .integer(0), "k": LottieBezier.subpaths(rect)[0].json])]) + [
                .object([
                    "ty": .string("fl"), "nm": .string("fill"),
                    "c": .object(["a": .integer(0), "k": colorValue([color.red, color.green, color.blue])]),
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
    static func dashArray(_ strokes: [StrokeDrawing], fit: LottieKeyframer) -> ([JSONText], Bool) {
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
                    "v": scalarProperty(values, fit: fit),
                ]))
        }
        let phases = strokes.map(\.dashPhase)
        if phases.contains(where: { $0 != phases[0] }) { animated = true }
        out.append(
            .object(["n": .string("o"), "nm": .string("offset"), "v": scalarProperty(phases, fit: fit)]))
        return (out, animated)
    }

    /// `{a: 0, k: value}` when every sample has the same value, else the keyframes
    /// `LottieKeyframer` finds (the preset's own curves as easing handles, baked stretches one
    /// linear keyframe per frame), the last at `op`.
    private static func property(
        _ values: [[Double]], fit: LottieKeyframer, encode: ([Double]) -> JSONText,
        still stillValue: ([Double]) -> JSONText
    ) -> JSONText {
        guard let first = values.first else { return .object(["a": .integer(0), "k": .integer(0)]) }
        // Static when every sample is the first to within rounding (a centre recomputed through
        // a turning transform differs in the 15th digit).
        let still = values.allSatisfy { v in
            v.count == first.count && v.indices.allSatisfy { abs(v[$0] - first[$0]) <= 1e-9 * max(1, abs(first[$0])) }
        }
        if still { return .object(["a": .integer(0), "k": stillValue(first)]) }
        var keys: [JSONText] = []
        for key in fit.keys(values) {
            var members: [JSONText.Member] = [
                .init(key: "t", value: frameNumber(key.t)), .init(key: "s", value: encode(key.value)),
            ]
            if let c = key.curve {
                members.append(
                    .init(key: "o", value: .object(["x": .array([.number(c.x1)]), "y": .array([.number(c.y1)])])))
                members.append(
                    .init(key: "i", value: .object(["x": .array([.number(c.x2)]), "y": .array([.number(c.y2)])])))
            }
            keys.append(.object(members))
        }
        return .object(["a": .integer(1), "k": .array(keys)])
    }

    /// A keyframe time: an integer when it is a whole frame.
    private static func frameNumber(_ t: Double) -> JSONText {
        t == t.rounded() && abs(t) < 1e15 ? .integer(Int(t)) : .number(t)
    }

    /// The number of keyframes of a property (1 for a static one).
    private static func keyCount(_ property: JSONText) -> Int {
        guard case .object(let members) = property, members.first?.value == .integer(1),
            case .array(let keys)? = members.last?.value
        else { return 1 }
        return keys.count
    }

    /// A point of the leaf's own coordinates that stays put under the changing part of its
    /// transform (the centre of its rotation and scale): the solution c of
    /// (L₀ − Lₖ)·c = tₖ − t₀ for the sample k whose linear part Lₖ differs most from the first;
    /// nil when they never change or the system is singular.
    private static func pivot(_ s: Sample) -> Point? {
        guard !s.rotation.isEmpty else { return nil }
        func matrix(_ i: Int) -> (a: Double, b: Double, c: Double, d: Double) {
            let theta = s.rotation[i] * Double.pi / 180
            let sx = s.scale[i].x / 100
            let sy = s.scale[i].y / 100
            return (cos(theta) * sx, sin(theta) * sx, -sin(theta) * sy, cos(theta) * sy)
        }
        let m0 = matrix(0)
        var best = 0
        var spread = 0.0
        for i in s.rotation.indices {
            let m = matrix(i)
            let d = abs(m.a - m0.a) + abs(m.b - m0.b) + abs(m.c - m0.c) + abs(m.d - m0.d)
            if d > spread {
                spread = d
                best = i
            }
        }
        guard spread > 1e-6 else { return nil }
        let mk = matrix(best)
        let a = m0.a - mk.a
        let b = m0.b - mk.b
        let c = m0.c - mk.c
        let d = m0.d - mk.d
        let det = a * d - b * c
        guard abs(det) > 1e-9 else { return nil }
        let rx = s.position[best].x - s.position[0].x
        let ry = s.position[best].y - s.position[0].y
        let x = (d * rx - c * ry) / det
        let y = (a * ry - b * rx) / det
        guard x.isFinite, y.isFinite else { return nil }
        return Point(x: x, y: y)
    }

    /// R(rotation)·diag(scale) of sample `i` applied to `p`.
    private static func linearPart(_ s: Sample, _ i: Int, _ p: Point) -> Point {
        let theta = s.rotation[i] * Double.pi / 180
        let sx = s.scale[i].x / 100 * p.x
        let sy = s.scale[i].y / 100 * p.y
        return Point(x: cos(theta) * sx - sin(theta) * sy, y: sin(theta) * sx + cos(theta) * sy)
    }

    private static func scalarProperty(_ values: [Double], fit: LottieKeyframer) -> JSONText {
        // Keyframe values are arrays (Lottie 1.0, Keyframe `s`); a static value is the number.
        property(values.map { [$0] }, fit: fit, encode: { .array([.number($0[0])]) }, still: { .number($0[0]) })
    }

    private static func pointProperty(_ values: [[Double]], fit: LottieKeyframer) -> JSONText {
        let encode: ([Double]) -> JSONText = { .array([.number($0[0]), .number($0[1])]) }
        return property(values, fit: fit, encode: encode, still: encode)
    }

    private static func colorValue(_ v: [Double]) -> JSONText {
        .array([.number(v[0]), .number(v[1]), .number(v[2]), .integer(1)])
    }

    private static func colorProperty(_ values: [RGBAColor], fit: LottieKeyframer) -> JSONText {
        property(values.map { [$0.red, $0.green, $0.blue] }, fit: fit, encode: colorValue, still: colorValue)
    }

    /// One shape property per subpath: static, keyframed vertex by vertex, or hold keyframes at
    /// every loop frame when a subpath's vertex count or closing (or the number of subpaths)
    /// changes (Lottie 1.0, Shape: "the number of vertices must be the same in all keyframes").
    private static func shapeProperty(_ paths: [BezierPath], fit: LottieKeyframer) -> [JSONText] {
        let beziers = paths.map(LottieBezier.subpaths)
        let counts = beziers.map { $0.map(\.vertices.count) }
        let closings = beziers.map { $0.map(\.closed) }
        let steady = counts.allSatisfy { $0 == counts[0] } && closings.allSatisfy { $0 == closings[0] }
        let subpathCount = beziers.map(\.count).max() ?? 0
        var out: [JSONText] = []
        for index in 0..<subpathCount {
            // lottie-web 5.8.1 keeps a shape's vertex count (and `c`) from its first keyframe:
            // a keyframe with fewer vertices, or none, makes `KeyframedShapeProperty.interpolateShape`
            // throw and the player draws no frame of the file (circular-progress's digits did).
            // So when the subpaths change (hold keyframes), each frame's subpath is padded to the
            // most vertices it has in any frame with coincident vertices, which draw nothing more,
            // and a frame without it gets that many vertices at one point (the subpath's first
            // point in a frame that has it), which encloses nothing.
            let anchor =
                beziers.lazy.compactMap { index < $0.count ? $0[index].vertices.first?.point : nil }.first
                ?? Point(x: 0, y: 0)
            var subs = beziers.map { index < $0.count ? $0[index] : LottieBezier(vertices: [], closed: false) }
            if !steady {
                let most = subs.map(\.vertices.count).max() ?? 0
                let closed = subs.first { !$0.vertices.isEmpty }?.closed ?? false
                subs = subs.map { $0.padded(to: most, closed: closed, at: anchor) }
            }
            if steady, let template = subs.first {
                out.append(
                    property(
                        subs.map(\.flattened), fit: fit, encode: { .array([template.with(flattened: $0).json]) },
                        still: { template.with(flattened: $0).json }))
            } else {
                out.append(holdProperty(subs.map(\.json), fit: fit))
            }
        }
        return out
    }

    /// Hold keyframes (`h` 1) at every loop frame, the last at `op`; static when all are equal.
    private static func holdProperty(_ values: [JSONText], fit: LottieKeyframer) -> JSONText {
        guard let first = values.first else { return .object(["a": .integer(0), "k": .integer(0)]) }
        if values.allSatisfy({ $0 == first }) { return .object(["a": .integer(0), "k": first]) }
        var keys: [JSONText] = []
        for (i, value) in values.enumerated() where fit.isFrame[i] {
            keys.append(.object(["t": frameNumber(fit.frames[i]), "s": .array([value]), "h": .integer(1)]))
        }
        keys.append(.object(["t": .integer(fit.frameCount), "s": .array([values[values.count - 1]])]))
        return .object(["a": .integer(1), "k": .array(keys)])
    }

    /// The pieces of every animation on the way from the composition to leaf `id` (each
    /// replicator copy's own lag added), in Lottie frames (`frame`) cut to the loop; nil when
    /// there are more than `LottiePieces.limit`.
    private static func timingPieces(
        of composition: Composition, leaf id: [Int], from lo: Double, to hi: Double, frame: (Double) -> Double
    ) -> [LottiePiece]? {
        guard let top = id.first, top < composition.layers.count else { return nil }
        var layer = composition.layers[top]
        var lag = 0.0
        var k = 1
        var out: [LottiePiece] = []
        let end = frame(hi)
        while true {
            var own: [LottiePiece] = []
            for animation in layer.animations {
                guard LottiePieces.collect(animation, from: lo - lag, to: hi - lag, into: &own) else { return nil }
            }
            if let machine = composition.state, !layer.bindings.isEmpty {
                guard let state = LottiePieces.state(machine, from: lo - lag, to: hi - lag) else { return nil }
                own += state
            }
            for piece in own {
                let f = LottiePiece(start: frame(piece.start + lag), end: frame(piece.end + lag), curve: piece.curve)
                guard f.end >= 0, f.start <= end else { continue }
                out.append(LottiePieces.clipped(f, from: 0, to: end))
            }
            guard k < id.count else { break }
            let child: Int
            if case .replicator(_, let r) = layer.state.shape, k + 1 < id.count {
                lag += Double(id[k]) * r.instanceDelay
                child = id[k + 1]
                k += 2
            } else {
                child = id[k]
                k += 1
            }
            guard child >= 0, child < layer.children.count else { return nil }
            layer = layer.children[child]
        }
        return out.count <= LottiePieces.limit ? out : nil
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

    /// This subpath with `count` vertices, drawing the same outline: the last vertex repeated
    /// (its out tangent moved to the last copy, so the added segments have length 0 and the
    /// closing curve is unchanged). Without vertices: `count` vertices at `point`, `closed` as
    /// given (it encloses nothing). Unchanged when it has `count` or more.
    func padded(to count: Int, closed: Bool, at point: Point) -> LottieBezier {
        guard vertices.count < count else { return self }
        guard var last = vertices.last else {
            return LottieBezier(vertices: Array(repeating: Vertex(point: point), count: count), closed: closed)
        }
        var out = self
        let outTangent = last.outTangent
        out.vertices[out.vertices.count - 1].outTangent = Point(x: 0, y: 0)
        last.inTangent = Point(x: 0, y: 0)
        last.outTangent = Point(x: 0, y: 0)
        out.vertices += Array(repeating: last, count: count - vertices.count)
        out.vertices[count - 1].outTangent = outTangent
        return out
    }

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

    /// The vertices as numbers: x, y, in x, in y, out x, out y for each.
    var flattened: [Double] {
        vertices.flatMap {
            [$0.point.x, $0.point.y, $0.inTangent.x, $0.inTangent.y, $0.outTangent.x, $0.outTangent.y]
        }
    }

    /// The same subpath with the vertices of `numbers` (`flattened`'s layout).
    func with(flattened numbers: [Double]) -> LottieBezier {
        var copy = self
        for i in copy.vertices.indices where 6 * i + 5 < numbers.count {
            let n = numbers[(6 * i)...]
            let b = n.startIndex
            copy.vertices[i] = Vertex(
                point: Point(x: n[b], y: n[b + 1]), inTangent: Point(x: n[b + 2], y: n[b + 3]),
                outTangent: Point(x: n[b + 4], y: n[b + 5]))
        }
        return copy
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

/// Params as Lottie slots (Lottie 1.0 specification, Slots), so a player can theme the file: a
/// fill colour, stroke colour or stroke width the preset writes exactly as `"$name"`
/// (`Composition.parameterUses`) and that stays the param's value over the whole loop (not
/// animated, not changed by a replicator's instance colour) gets `"sid": "name"` beside its
/// `a` and `k` (kept, so players without slots draw the same, and the official schema tells a
/// static property from an animated one), and the file gets a top-level
/// `"slots": {"name": {"p": {"a": 0, "k": value}}}` with the first such value.
struct SlotBook {
    /// JSONPath of a value → parameter name.
    let uses: [String: String]
    /// Parameter name → its value in effect.
    let values: [String: ParameterValue]
    /// The slots written, in first-use order.
    private(set) var slots: [(name: String, property: JSONText)] = []

    init(_ composition: Composition) {
        uses = composition.parameterUses
        var values: [String: ParameterValue] = [:]
        for p in composition.parameters { values[p.name] = p.value }
        self.values = values
    }

    /// `property` with the `sid` of the colour parameter written at one of `paths`, when the
    /// property is static and its colour is the parameter's (red, green, blue; alpha goes to `o`).
    mutating func slotted(_ property: JSONText, at paths: [String], color: RGBAColor) -> JSONText {
        guard let name = paths.compactMap({ uses[$0] }).first, case .color(let c)? = values[name],
            abs(c.red - color.red) <= 1e-9, abs(c.green - color.green) <= 1e-9, abs(c.blue - color.blue) <= 1e-9
        else { return property }
        return slotted(property, name)
    }

    /// `property` with the `sid` of the number parameter written at one of `paths`, when the
    /// property is static and its value is the parameter's.
    mutating func slotted(_ property: JSONText, at paths: [String], number: Double) -> JSONText {
        guard let name = paths.compactMap({ uses[$0] }).first, case .number(let n)? = values[name],
            abs(n - number) <= 1e-9 * max(1, abs(n))
        else { return property }
        return slotted(property, name)
    }

    private mutating func slotted(_ property: JSONText, _ name: String) -> JSONText {
        guard case .object(let members) = property, members.first(where: { $0.key == "a" })?.value == .integer(0)
        else { return property }
        if !slots.contains(where: { $0.name == name }) { slots.append((name, property)) }
        return .object(members + [.init(key: "sid", value: .string(name))])
    }
}
