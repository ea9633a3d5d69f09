// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Geometry
import Spec
import Timeline

/// A value a Lottie property can hold and blend: numbers and vectors as `[Double]`, paths as
/// `LottiePath`.
protocol LottieBlendable: Sendable, Equatable {
    /// The value `fraction` of the way to `other`, dimension `d` using `fractions[d]` (the
    /// last entry for dimensions past the end).
    func blended(to other: Self, fractions: [Double]) -> Self
}

extension Array: LottieBlendable where Element == Double {
    func blended(to other: [Double], fractions: [Double]) -> [Double] {
        var out = self
        for d in 0..<Swift.min(count, other.count) {
            let f = fractions.isEmpty ? 0 : fractions[Swift.min(d, fractions.count - 1)]
            out[d] = self[d] + (other[d] - self[d]) * f
        }
        return out
    }
}

/// One Bézier shape of a Lottie `sh`: vertices `v` with in and out tangents relative to them
/// (Lottie 1.0 spec, Bezier: `i`, `o`, `v`, `c`).
struct LottiePath: LottieBlendable {
    /// Vertices, points.
    var vertices: [Point]
    /// In tangents, relative to their vertex.
    var inTangents: [Point]
    /// Out tangents, relative to their vertex.
    var outTangents: [Point]
    /// Whether the last vertex joins the first.
    var closed: Bool

    /// Vertex-wise blend (the same vertex count is checked at decoding; otherwise the start
    /// shape holds). Paths ease with the first dimension's curve.
    func blended(to other: LottiePath, fractions: [Double]) -> LottiePath {
        guard other.vertices.count == vertices.count else { return self }
        let f = fractions.first ?? 0
        func mix(_ a: [Point], _ b: [Point]) -> [Point] {
            zip(a, b).map { Point(x: $0.x + ($1.x - $0.x) * f, y: $0.y + ($1.y - $0.y) * f) }
        }
        return LottiePath(
            vertices: mix(vertices, other.vertices), inTangents: mix(inTangents, other.inTangents),
            outTangents: mix(outTangents, other.outTangents), closed: closed)
    }

    /// The path: a cubic from each vertex to the next with control points `v[j] + o[j]` and
    /// `v[j+1] + i[j+1]`, and back to the first when closed.
    var bezier: BezierPath {
        var path = BezierPath()
        guard let first = vertices.first else { return path }
        path.move(to: first)
        let n = vertices.count
        let segments = closed ? n : n - 1
        for j in 0..<max(0, segments) {
            let k = (j + 1) % n
            let c1 = Point(x: vertices[j].x + outTangents[j].x, y: vertices[j].y + outTangents[j].y)
            let c2 = Point(x: vertices[k].x + inTangents[k].x, y: vertices[k].y + inTangents[k].y)
            if c1 == vertices[j] && c2 == vertices[k] {
                path.addLine(to: vertices[k])
            } else {
                path.addCubic(to: vertices[k], control1: c1, control2: c2)
            }
        }
        if closed { path.close() }
        return path
    }
}

/// One Lottie keyframe (Lottie 1.0 spec, Keyframe): from `time` the value leaves `start`
/// towards the next keyframe's `start` (or this one's legacy `end`, bodymovin before 5.x),
/// eased by the Bézier `(0,0) out (in) (1,1)` per dimension, or held when `hold`.
struct LottieKeyframe<Value: LottieBlendable>: Sendable, Equatable {
    /// `t`, frames.
    var time: Double
    /// `s`.
    var start: Value
    /// `e` (legacy), or nil.
    var end: Value?
    /// `h` = 1.
    var hold: Bool
    /// `o.x`, `o.y`, `i.x`, `i.y`, one entry per dimension (or one for all).
    var outX: [Double], outY: [Double], inX: [Double], inY: [Double]
    /// Spatial tangents `to` and `ti` (position only), relative to the start and end values.
    var spatialOut: [Double]?
    var spatialIn: [Double]?
}

/// An animatable Lottie property: fixed or keyframed (Lottie 1.0 spec, Animated Property).
enum LottieProperty<Value: LottieBlendable>: Sendable, Equatable {
    case fixed(Value)
    case keyed([LottieKeyframe<Value>])

    /// The value at frame `f` (the property's own layer time). Before the first keyframe the
    /// first value holds, after the last the last one; between, each dimension's progress is
    /// `y(s)` where `x(s) = u` on the keyframe's Bézier (x clamped to 0…1, as lottie-web's
    /// BezierEaser does), and spatial position segments move along their cubic by arc length.
    func value(at f: Double) -> Value {
        switch self {
        case .fixed(let v): return v
        case .keyed(let frames):
            guard let first = frames.first else { preconditionFailure("decoder gives ≥ 1 keyframe") }
            if f <= first.time || frames.count == 1 { return first.start }
            for k in 0..<(frames.count - 1) {
                let a = frames[k]
                let b = frames[k + 1]
                guard f < b.time else { continue }
                let target = a.end ?? b.start
                if a.hold || b.time <= a.time { return a.start }
                let u = (f - a.time) / (b.time - a.time)
                let dims = max(a.outX.count, a.inX.count, 1)
                var fractions: [Double] = []
                for d in 0..<dims {
                    func pick(_ xs: [Double], _ fallback: Double) -> Double {
                        xs.isEmpty ? fallback : xs[min(d, xs.count - 1)]
                    }
                    let curve = TimingFunction.cubicBezier(
                        x1: min(max(pick(a.outX, 0), 0), 1), y1: pick(a.outY, 0),
                        x2: min(max(pick(a.inX, 1), 0), 1), y2: pick(a.inY, 1))
                    fractions.append(curve.progressValue(u))
                }
                if let start = a.start as? [Double], let end = target as? [Double],
                    let to = a.spatialOut, let ti = a.spatialIn, start.count >= 2, end.count >= 2,
                    to.count >= 2, ti.count >= 2, to[0] != 0 || to[1] != 0 || ti[0] != 0 || ti[1] != 0,
                    let point = spatialPoint(start, end, to, ti, fractions[0]) as? Value
                {
                    return point
                }
                return a.start.blended(to: target, fractions: fractions)
            }
            let last = frames[frames.count - 1]
            return last.start
        }
    }
}

/// The point at `fraction` of the arc length of the cubic `start → end` with control points
/// `start + to` and `end + ti` (Lottie 1.0 spec, position keyframes: spatial tangents;
/// lottie-web walks the curve by length the same way). 64 chords; fractions outside 0…1
/// extrapolate along the end chords' directions so overshooting easings keep moving.
func spatialPoint(_ start: [Double], _ end: [Double], _ to: [Double], _ ti: [Double], _ fraction: Double) -> [Double] {
    let p0 = Point(x: start[0], y: start[1])
    let p3 = Point(x: end[0], y: end[1])
    let c1 = Point(x: p0.x + to[0], y: p0.y + to[1])
    let c2 = Point(x: p3.x + ti[0], y: p3.y + ti[1])
    let n = 64
    var points: [Point] = []
    for j in 0...n {
        let s = Double(j) / Double(n)
        let m = 1 - s
        let x = m * m * m * p0.x + 3 * m * m * s * c1.x + 3 * m * s * s * c2.x + s * s * s * p3.x
        let y = m * m * m * p0.y + 3 * m * m * s * c1.y + 3 * m * s * s * c2.y + s * s * s * p3.y
        points.append(Point(x: x, y: y))
    }
    var lengths: [Double] = [0]
    for j in 1...n {
        let dx = points[j].x - points[j - 1].x
        let dy = points[j].y - points[j - 1].y
        lengths.append(lengths[j - 1] + (dx * dx + dy * dy).squareRoot())
    }
    let total = lengths[n]
    var out = start
    guard total > 0 else {
        out[0] = p0.x + (p3.x - p0.x) * fraction
        out[1] = p0.y + (p3.y - p0.y) * fraction
        return out
    }
    let target = fraction * total
    var j = 1
    while j < n && lengths[j] < target { j += 1 }
    let segment = lengths[j] - lengths[j - 1]
    let t = segment > 0 ? (target - lengths[j - 1]) / segment : 0
    out[0] = points[j - 1].x + (points[j].x - points[j - 1].x) * t
    out[1] = points[j - 1].y + (points[j].y - points[j - 1].y) * t
    if start.count > 2, end.count > 2 { out[2] = start[2] + (end[2] - start[2]) * fraction }
    return out
}

extension TimingFunction {
    /// `progress` without Timeline's clamping of the result: for a cubic Bézier, y at the
    /// curve parameter where x = u (u clamped to 0…1).
    func progressValue(_ u: Double) -> Double {
        guard case .cubicBezier(let x1, let y1, let x2, let y2) = self else { return u }
        let u = min(max(u, 0), 1)
        if x1 == y1 && x2 == y2 { return u }
        func coord(_ s: Double, _ c1: Double, _ c2: Double) -> Double {
            let m = 1 - s
            return 3 * m * m * s * c1 + 3 * m * s * s * c2 + s * s * s
        }
        var lo = 0.0
        var hi = 1.0
        var s = u
        for _ in 0..<60 {
            let x = coord(s, x1, x2)
            if abs(x - u) < 1e-10 { break }
            if x < u { lo = s } else { hi = s }
            s = (lo + hi) / 2
        }
        return coord(s, y1, y2)
    }
}

/// A Lottie transform (`ks` of a layer, `tr` of a group; Lottie 1.0 spec, Transform).
struct LottieTransform: Sendable, Equatable {
    var anchor: LottieProperty<[Double]> = .fixed([0, 0])
    /// `p`, or nil when split into `px` and `py`.
    var position: LottieProperty<[Double]>? = .fixed([0, 0])
    var positionX: LottieProperty<[Double]> = .fixed([0])
    var positionY: LottieProperty<[Double]> = .fixed([0])
    var scale: LottieProperty<[Double]> = .fixed([100, 100])
    var rotation: LottieProperty<[Double]> = .fixed([0])
    var opacity: LottieProperty<[Double]> = .fixed([100])
    var skew: LottieProperty<[Double]> = .fixed([0])
    var skewAxis: LottieProperty<[Double]> = .fixed([0])

    /// The matrix at frame `f`: translate(−anchor), scale(s/100), skew, rotate(r), translate(p),
    /// applied in that order (Lottie 1.0 spec, Transform; lottie-web's TransformProperty builds
    /// the same product). Skew is a shear by tan(−sk) along the axis turned `sa` degrees.
    func matrix(at f: Double) -> Geometry.AffineTransform {
        let a = anchor.value(at: f)
        let p: [Double]
        if let position {
            p = position.value(at: f)
        } else {
            p = [positionX.value(at: f).first ?? 0, positionY.value(at: f).first ?? 0]
        }
        let s = scale.value(at: f)
        let r = rotation.value(at: f).first ?? 0
        let sk = skew.value(at: f).first ?? 0
        var m = Geometry.AffineTransform.translation(x: -(a.first ?? 0), y: -(a.count > 1 ? a[1] : 0))
        m = m.concatenating(.scale(x: (s.first ?? 100) / 100, y: (s.count > 1 ? s[1] : 100) / 100))
        if sk != 0 {
            let sa = skewAxis.value(at: f).first ?? 0
            let clamped = min(max(-sk, -89), 89)
            let shear = Geometry.AffineTransform(a: 1, b: 0, c: tan(clamped * .pi / 180), d: 1, tx: 0, ty: 0)
            m = m.concatenating(.rotation(degrees: sa)).concatenating(shear).concatenating(.rotation(degrees: -sa))
        }
        m = m.concatenating(.rotation(degrees: r))
        return m.concatenating(.translation(x: p.first ?? 0, y: p.count > 1 ? p[1] : 0))
    }

    /// Opacity at `f`, 0…1.
    func opacityFraction(at f: Double) -> Double { min(max((opacity.value(at: f).first ?? 100) / 100, 0), 1) }
}

/// One item of a shape list (Lottie 1.0 spec, Shapes).
indirect enum LottieShape: Sendable, Equatable {
    /// `gr`: items in file order and the group's transform.
    case group([LottieShape], LottieTransform)
    /// `sh`.
    case path(LottieProperty<LottiePath>, reversed: Bool)
    /// `el`: centre and size.
    case ellipse(position: LottieProperty<[Double]>, size: LottieProperty<[Double]>, reversed: Bool)
    /// `rc`: centre, size and corner radius.
    case rect(
        position: LottieProperty<[Double]>, size: LottieProperty<[Double]>, radius: LottieProperty<[Double]>,
        reversed: Bool)
    /// `fl`.
    case fill(color: LottieProperty<[Double]>, opacity: LottieProperty<[Double]>, rule: FillRule)
    /// `st`.
    case stroke(LottieStroke)
    /// `tm`: start `s` and end `e` in percent of the length, `o` offset in degrees (360 = once
    /// round); `individually` (`m` = 2) trims the paths before it as one path, one after
    /// another, otherwise (`m` = 1, simultaneously) each path on its own.
    case trim(
        start: LottieProperty<[Double]>, end: LottieProperty<[Double]>, offset: LottieProperty<[Double]>,
        individually: Bool)
    /// `sr`.
    case polystar(LottiePolystar)
    /// `rd`: radius `r` in points for the sharp corners of the paths before it.
    case roundCorners(LottieProperty<[Double]>)
    /// `rp`.
    case repeater(LottieRepeater)
    /// `gf`: the gradient and the fill rule.
    case gradientFill(LottieGradient, rule: FillRule)
    /// `gs`: the gradient and the stroke's style (its `color` unused).
    case gradientStroke(LottieGradient, LottieStroke)
}

/// `sr` (Lottie 1.0 spec, PolyStar): `pt` points round `p`, the first at the top turned `r`
/// degrees clockwise; a star alternates outer radius `or` and inner radius `ir`, a polygon
/// uses `or` only; roundness `os`/`is` in percent.
struct LottiePolystar: Sendable, Equatable {
    var position: LottieProperty<[Double]>
    var outerRadius: LottieProperty<[Double]>
    var outerRoundness: LottieProperty<[Double]>
    var innerRadius: LottieProperty<[Double]>
    var innerRoundness: LottieProperty<[Double]>
    var points: LottieProperty<[Double]>
    var rotation: LottieProperty<[Double]>
    /// `sy` 1 (star) rather than 2 (polygon).
    var star: Bool
    /// `d` = 3.
    var reversed: Bool
}

/// `rp` (lottie-web's RepeaterModifier; not in the Lottie 1.0 spec): `c` copies of what is
/// before it in its group, the first at `o` steps of `tr`, each next one step further.
struct LottieRepeater: Sendable, Equatable {
    var copies: LottieProperty<[Double]>
    var offset: LottieProperty<[Double]>
    /// `m` 1 rather than 2: lottie-web walks the copies from the top one (step 0 on top, each
    /// step under the one before) rather than from the bottom one (each step over the one before).
    var walksFromTop: Bool
    /// `tr`: `a`, `p`, `s`, `r` of one step.
    var anchor: LottieProperty<[Double]>
    var position: LottieProperty<[Double]>
    var scale: LottieProperty<[Double]>
    var rotation: LottieProperty<[Double]>
    /// `so`, `eo`: opacity of the first and of the last copy, percent.
    var startOpacity: LottieProperty<[Double]>
    var endOpacity: LottieProperty<[Double]>
}

/// `gf`/`gs` (Lottie 1.0 spec, Gradient): `g.k` holds `colorCount` stops `[offset, r, g, b]`
/// then optional opacity stops `[offset, alpha]`; `s`, `e` the start and end points; `t` 1
/// linear, 2 radial with highlight length `h` (percent of the radius) and angle `a` (degrees
/// from the start→end direction).
struct LottieGradient: Sendable, Equatable {
    var colorCount: Int
    var stops: LottieProperty<[Double]>
    var start: LottieProperty<[Double]>
    var end: LottieProperty<[Double]>
    var radial: Bool
    var highlightLength: LottieProperty<[Double]>
    var highlightAngle: LottieProperty<[Double]>
    var opacity: LottieProperty<[Double]>
}

/// One entry of a layer's `masksProperties` (Lottie 1.0 spec, Mask).
struct LottieMask: Sendable, Equatable {
    var path: LottieProperty<LottiePath>
    var mode: MaskDrawing.Mode
    var opacity: LottieProperty<[Double]>
    var inverted: Bool
}

/// A trim at one instant: which fraction ranges of a path's length draw.
struct TrimRanges: Equatable {
    /// Ranges within 0…1, at most two (an offset that wraps past the end).
    var ranges: [(Double, Double)]
    /// `m` = 2.
    var individually: Bool
    /// Which `tm` item (its index path in the shape tree), for joining the paths it trims.
    var id: [Int]

    static func == (a: TrimRanges, b: TrimRanges) -> Bool { a.id == b.id }

    /// From `s`, `e` (percent) and `o` (degrees), as lottie-web's TrimModifier: start and end
    /// ordered, the offset added to both as a fraction of a turn, wrapped into 0…1; a span of
    /// 100 % or more draws everything, an empty one nothing.
    init(start s: Double, end e: Double, offset o: Double, individually: Bool, id: [Int]) {
        self.individually = individually
        self.id = id
        var a = min(s, e) / 100
        var b = max(s, e) / 100
        guard a.isFinite, b.isFinite, o.isFinite else {
            ranges = []
            return
        }
        a = min(max(a, 0), 1)
        b = min(max(b, 0), 1)
        if b - a >= 1 {
            ranges = [(0, 1)]
            return
        }
        guard b > a else {
            ranges = []
            return
        }
        let shift = o / 360 - (o / 360).rounded(.down)
        a += shift
        b += shift
        if a >= 1 {
            a -= 1
            b -= 1
        }
        ranges = b > 1 ? [(a, 1), (0, b - 1)] : [(a, b)]
    }
}

/// `st` (Lottie 1.0 spec, Stroke).
struct LottieStroke: Sendable, Equatable {
    var color: LottieProperty<[Double]>
    var opacity: LottieProperty<[Double]>
    var width: LottieProperty<[Double]>
    var cap: LineCap
    var join: LineJoin
    var miterLimit: Double
    /// `d` entries named `d` (dash) and `g` (gap), in order.
    var dashes: [LottieProperty<[Double]>]
    /// The `d` entry named `o` (offset), if any.
    var dashOffset: LottieProperty<[Double]>?
}

/// What a layer draws.
enum LottieLayerContent: Sendable, Equatable {
    /// `ty` 3: nothing (a parent for others).
    case null
    /// `ty` 4.
    case shapes([LottieShape])
    /// `ty` 0: the asset's layers, clipped to `width`×`height`.
    case precomp(assetIndex: Int, width: Double, height: Double)
    /// `ty` 1: a rectangle of `width`×`height` at the origin.
    case solid(color: RGBAColor, width: Double, height: Double)
}

/// One layer (Lottie 1.0 spec, Layer).
struct LottieLayer: Sendable, Equatable {
    /// `ind`, or nil.
    var index: Int?
    /// `parent`, or nil.
    var parent: Int?
    /// `ip`, `op`: visible from `inPoint` up to, not including, `outPoint` (frames of the
    /// composition the layer is in).
    var inPoint: Double
    var outPoint: Double
    /// `st`: the frame a precomposition layer's content starts at (its own keyframes are in
    /// its composition's frames, as lottie-web reads them).
    var startTime: Double
    /// `sr`: time stretch (local time = (f − st) / sr).
    var stretch: Double
    var transform: LottieTransform
    var content: LottieLayerContent
    /// `hd`, or a track-matte source (`td`), which draws nothing itself.
    var hidden: Bool
    /// `masksProperties`, in order (masks with mode `n` left out).
    var masks: [LottieMask] = []
    /// `tt`: the matte this layer is seen through, taken from the layer before it in the list
    /// (or the one `tp` names), or nil.
    var matte: MatteMode?
    /// `tp`: the `ind` of the matte layer (Lottie 1.0 spec), or nil for the layer above.
    var matteParent: Int?
    /// `td` = 1: this layer is a matte source.
    var isMatteSource = false

    /// The time of a precomposition layer's content at frame `f` of the layer's composition.
    func localTime(_ f: Double) -> Double { (f - startTime) / stretch }
}
