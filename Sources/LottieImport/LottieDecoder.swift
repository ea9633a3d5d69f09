// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Geometry
import Spec
import Timeline

/// Reads a parsed Lottie document into the model, collecting diagnostics at JSON paths:
/// errors for what cannot be drawn at all (a missing `fr`, a keyframe without `t`), warnings
/// for features outside the supported subset (`docs/lottie.md`), which are then left out.
final class LottieDecoder {
    let file: String
    private(set) var diagnostics: [Diagnostic] = []
    private var assetIDs: [String: Int] = [:]
    private var warned = Set<String>()
    /// The `p` object of every slot by id, `--set` values written in (`LottieSlots`); a
    /// property whose `sid` names one takes its members.
    var slotProperties: [String: JSONValue] = [:]

    /// Fill and stroke colours of shape layers are on a 0–255 scale, as bodymovin wrote them
    /// before 4.1.9 (lottie-web's DataManager `checkColors` divides them by 255 for a file whose
    /// `v` is below 4.1.9; Lottie 1.0 and every later exporter use 0–1).
    private(set) var colorsOn255Scale = false
    /// A path's `closed` flag sits on the `sh` item (and a mask's on `cl`), not in the Bézier's
    /// `c`, as bodymovin wrote it before 4.4.18 (lottie-web's DataManager `checkShapes`).
    private(set) var closedOnItem = false

    init(file: String) { self.file = file }

    /// Sets the legacy rules above from the document's `v` ("MAJOR.MINOR.PATCH", compared
    /// numerically, part by part; a missing or unreadable `v` counts as current, as in lottie-web).
    func useVersion(_ v: String?) {
        colorsOn255Scale = Self.version(v, isBelow: [4, 1, 9])
        closedOnItem = Self.version(v, isBelow: [4, 4, 18])
    }

    /// Whether version text `v` is below `minimum` (missing parts count as 0).
    static func version(_ v: String?, isBelow minimum: [Int]) -> Bool {
        guard let v else { return false }
        let parts = v.split(separator: ".", omittingEmptySubsequences: false).compactMap { Int($0) }
        guard !parts.isEmpty, parts.count == v.split(separator: ".", omittingEmptySubsequences: false).count else {
            return false
        }
        for (i, m) in minimum.enumerated() {
            let part = i < parts.count ? parts[i] : 0
            if part != m { return part < m }
        }
        return false
    }

    /// A fill's or stroke's `c`, divided by 255 in a file on the legacy 0–255 scale.
    func color(_ object: JSONObject, _ path: String) -> LottieProperty<[Double]> {
        guard colorsOn255Scale, let value = object["c"] else { return property(object, "c", path, default: [0, 0, 0]) }
        return property(value, "\(path).c", default: [0, 0, 0]) { v, p in
            self.numbers(v, p).map { $0.map { $0 / 255 } }
        }
    }

    var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

    func error(_ path: String, _ value: JSONValue?, _ message: String) {
        diagnostics.append(Diagnostic(.error, file: file, path: path, location: value?.location, message: message))
    }

    /// An unsupported feature: a warning on export, an error under `validate --strict`.
    func unsupported(_ path: String, _ value: JSONValue?, _ what: String) {
        diagnostics.append(
            Diagnostic(
                .warning, file: file, path: path, location: value?.location, message: "\(what) is not supported",
                lint: "lottie-unsupported"))
    }

    // MARK: values

    /// `object[key]` as a number; `fallback` when absent, or an error at `owner` (the object's
    /// own value, for its line:column) when there is no fallback.
    func number(
        _ object: JSONObject, _ key: String, _ path: String, default fallback: Double? = nil, owner: JSONValue? = nil
    ) -> Double? {
        guard let value = object[key] else {
            if fallback == nil { error(path, owner, "missing \"\(key)\" (a number)") }
            return fallback
        }
        guard let n = value.numberValue else {
            error("\(path).\(key)", value, "expected a number, found \(value.typeName)")
            return fallback
        }
        return n
    }

    func numbers(_ value: JSONValue, _ path: String) -> [Double]? {
        if let n = value.numberValue { return [n] }
        if let items = value.arrayValue {
            var out: [Double] = []
            for (i, item) in items.enumerated() {
                guard let n = item.numberValue else {
                    error("\(path)[\(i)]", item, "expected a number, found \(item.typeName)")
                    return nil
                }
                out.append(n)
            }
            return out
        }
        error(path, value, "expected a number or an array of numbers, found \(value.typeName)")
        return nil
    }

    /// An animated property (`{"a": 0|1, "k": …}`) of numbers; `fallback` when absent.
    func property(_ parent: JSONObject, _ key: String, _ path: String, default fallback: [Double]) -> LottieProperty<
        [Double]
    > {
        guard let value = parent[key] else { return .fixed(fallback) }
        return property(value, "\(path).\(key)", default: fallback) { v, p in self.numbers(v, p) }
    }

    func property<V: LottieBlendable>(
        _ value: JSONValue, _ path: String, default fallback: V, read: (JSONValue, String) -> V?
    ) -> LottieProperty<V> {
        var value = value
        // Slots (Lottie 1.0 spec): a property with `sid` takes its slot's property; the
        // slot's members replace the property's own, as lottie-web's SlotManager merges them.
        if var object = value.objectValue, let sid = object["sid"]?.stringValue {
            if let slot = slotProperties[sid]?.objectValue {
                for member in slot.members {
                    if let i = object.members.firstIndex(where: { $0.key == member.key }) {
                        object.members[i] = member
                    } else {
                        object.members.append(member)
                    }
                }
                value = JSONValue(kind: .object(object), location: value.location)
            } else if object["k"] == nil {
                error("\(path).sid", object["sid"], "slot \"\(sid)\" is not in the top-level slots")
                return .fixed(fallback)
            }
        }
        guard let object = value.objectValue else {
            error(path, value, "expected an animated property object {\"a\", \"k\"}, found \(value.typeName)")
            return .fixed(fallback)
        }
        if let x = object["x"], x.stringValue != nil {
            let text = x.stringValue ?? ""
            if !text.contains("loopOut") { unsupported("\(path).x", x, "expressions (x)") }
        }
        guard let k = object["k"] else {
            error(path, value, "missing \"k\" (the value or its keyframes)")
            return .fixed(fallback)
        }
        let keyframed: Bool
        if let a = object["a"]?.numberValue {
            keyframed = a == 1
        } else if let items = k.arrayValue, let first = items.first, first.objectValue?["t"] != nil {
            keyframed = true
        } else {
            keyframed = false
        }
        if !keyframed { return .fixed(read(k, "\(path).k") ?? fallback) }
        guard let items = k.arrayValue, !items.isEmpty else {
            error("\(path).k", k, "expected a non-empty array of keyframes")
            return .fixed(fallback)
        }
        var frames: [LottieKeyframe<V>] = []
        for (i, item) in items.enumerated() {
            let p = "\(path).k[\(i)]"
            guard let kf = item.objectValue else {
                error(p, item, "expected a keyframe object, found \(item.typeName)")
                return .fixed(fallback)
            }
            guard let t = number(kf, "t", p, owner: item) else { return .fixed(fallback) }
            if let last = frames.last, t < last.time {
                error(
                    "\(p).t", kf["t"],
                    "keyframe times must not decrease (\(formatNumber(t)) after \(formatNumber(last.time)))")
                return .fixed(fallback)
            }
            var start: V?
            if let s = kf["s"] { start = read(unwrapLegacy(s), "\(p).s") }
            let end = kf["e"].flatMap { read(unwrapLegacy($0), "\(p).e") }
            if start == nil {
                // bodymovin before 5.x ends with a keyframe holding only `t`: the previous end.
                guard let previous = frames.last, let e = previous.end ?? Optional(previous.start) else {
                    error(p, item, "missing \"s\" (the keyframe's value)")
                    return .fixed(fallback)
                }
                start = e
            }
            guard let start else { return .fixed(fallback) }
            func ease(_ key: String, _ axis: String) -> [Double] {
                guard let o = kf[key]?.objectValue, let v = o[axis] else { return [] }
                return numbers(v, "\(p).\(key).\(axis)") ?? []
            }
            let to = kf["to"].flatMap { numbers($0, "\(p).to") }
            let ti = kf["ti"].flatMap { numbers($0, "\(p).ti") }
            frames.append(
                LottieKeyframe(
                    time: t, start: start, end: end, hold: (kf["h"]?.numberValue ?? 0) == 1,
                    outX: ease("o", "x"), outY: ease("o", "y"), inX: ease("i", "x"), inY: ease("i", "y"),
                    spatialOut: to, spatialIn: ti))
        }
        return .keyed(frames)
    }

    /// Legacy shape keyframes wrap the shape in a one-element array.
    private func unwrapLegacy(_ value: JSONValue) -> JSONValue {
        if let items = value.arrayValue, items.count == 1, items[0].objectValue != nil { return items[0] }
        return value
    }

    /// A Bézier shape `{"v", "i", "o", "c"}`; `closed` replaces its `c` when given (legacy files,
    /// `closedOnItem`).
    func bezier(_ value: JSONValue, _ path: String, closed: Bool? = nil) -> LottiePath? {
        guard let object = value.objectValue else {
            error(path, value, "expected a Bezier shape {\"v\", \"i\", \"o\", \"c\"}, found \(value.typeName)")
            return nil
        }
        func points(_ key: String) -> [Point]? {
            guard let list = object[key]?.arrayValue else {
                error(path, object[key] ?? value, "missing or bad \"\(key)\" (an array of [x, y] points)")
                return nil
            }
            var out: [Point] = []
            for (i, item) in list.enumerated() {
                guard let xy = numbers(item, "\(path).\(key)[\(i)]"), xy.count >= 2 else {
                    error("\(path).\(key)[\(i)]", item, "expected an [x, y] point")
                    return nil
                }
                out.append(Point(x: xy[0], y: xy[1]))
            }
            return out
        }
        guard let v = points("v"), let ins = points("i"), let outs = points("o") else { return nil }
        guard ins.count == v.count, outs.count == v.count else {
            error(
                path, value,
                "\"i\", \"o\" and \"v\" must have the same length (\(ins.count), \(outs.count), \(v.count))")
            return nil
        }
        return LottiePath(
            vertices: v, inTangents: ins, outTangents: outs, closed: closed ?? object["c"]?.boolValue ?? false)
    }

    // MARK: structure

    func transform(_ object: JSONObject?, _ path: String) -> LottieTransform {
        var t = LottieTransform()
        guard let object else { return t }
        t.anchor = property(object, "a", path, default: [0, 0])
        if let p = object["p"], let po = p.objectValue, po["s"]?.boolValue == true {
            t.position = nil
            t.positionX = property(po, "x", "\(path).p", default: [0])
            t.positionY = property(po, "y", "\(path).p", default: [0])
        } else {
            t.position = property(object, "p", path, default: [0, 0])
        }
        t.scale = property(object, "s", path, default: [100, 100])
        t.rotation = property(object, object["r"] == nil && object["rz"] != nil ? "rz" : "r", path, default: [0])
        t.opacity = property(object, "o", path, default: [100])
        t.skew = property(object, "sk", path, default: [0])
        t.skewAxis = property(object, "sa", path, default: [0])
        for key in ["rx", "ry", "or"] where object[key] != nil {
            unsupported("\(path).\(key)", object[key], "3D rotation (\(key))")
        }
        return t
    }

    static let shapeNames: [String: String] = [
        "mm": "merge paths (mm)", "pb": "pucker/bloat (pb)", "tw": "twist (tw)", "op": "offset path (op)",
        "zz": "zig zag (zz)",
        "no": "no style (no)",
    ]

    func shapes(_ value: JSONValue?, _ path: String) -> [LottieShape] {
        guard let value else { return [] }
        guard let items = value.arrayValue else {
            error(path, value, "expected an array of shapes, found \(value.typeName)")
            return []
        }
        var out: [LottieShape] = []
        for (i, item) in items.enumerated() {
            let p = "\(path)[\(i)]"
            guard let object = item.objectValue else {
                error(p, item, "expected a shape object, found \(item.typeName)")
                continue
            }
            if object["hd"]?.boolValue == true { continue }
            guard let ty = object["ty"]?.stringValue else {
                error(p, item, "missing \"ty\" (the shape type)")
                continue
            }
            let reversed = object["d"]?.numberValue == 3
            switch ty {
            case "gr":
                let children = object["it"]?.arrayValue ?? []
                let tr = children.last { $0.objectValue?["ty"]?.stringValue == "tr" }
                let trIndex = children.lastIndex { $0.objectValue?["ty"]?.stringValue == "tr" }
                out.append(
                    .group(
                        shapes(object["it"], "\(p).it"),
                        transform(tr?.objectValue, "\(p).it[\(trIndex.map(String.init) ?? "?")]")))
            case "tr": continue
            case "sh":
                let ks = object["ks"]
                guard let ks else {
                    error(p, item, "missing \"ks\" (the path)")
                    continue
                }
                let empty = LottiePath(vertices: [], inTangents: [], outTangents: [], closed: false)
                let closed = closedOnItem ? object["closed"]?.boolValue == true : nil
                let prop = property(ks, "\(p).ks", default: empty) { v, q in self.bezier(v, q, closed: closed) }
                if case .keyed(let frames) = prop, Self.morphsVertexCounts(frames) {
                    unsupported("\(p).ks", ks, "a path morph between different vertex counts")
                }
                out.append(.path(prop, reversed: reversed))
            case "el":
                out.append(
                    .ellipse(
                        position: property(object, "p", p, default: [0, 0]),
                        size: property(object, "s", p, default: [0, 0]),
                        reversed: reversed))
            case "rc":
                out.append(
                    .rect(
                        position: property(object, "p", p, default: [0, 0]),
                        size: property(object, "s", p, default: [0, 0]),
                        radius: property(object, "r", p, default: [0]), reversed: reversed))
            case "fl":
                out.append(
                    .fill(
                        color: color(object, p),
                        opacity: property(object, "o", p, default: [100]),
                        rule: object["r"]?.numberValue == 2 ? .evenOdd : .nonZero))
            case "st":
                out.append(.stroke(stroke(object, p)))
            case "tm":
                if items.contains(where: { $0.objectValue?["ty"]?.stringValue == "fl" }) {
                    unsupported(p, item, "trim paths (tm) on a filled shape (the fill is drawn untrimmed)")
                }
                out.append(
                    .trim(
                        start: property(object, "s", p, default: [0]), end: property(object, "e", p, default: [100]),
                        offset: property(object, "o", p, default: [0]), individually: object["m"]?.numberValue == 2))
            case "sr":
                out.append(
                    .polystar(
                        LottiePolystar(
                            position: property(object, "p", p, default: [0, 0]),
                            outerRadius: property(object, "or", p, default: [0]),
                            outerRoundness: property(object, "os", p, default: [0]),
                            innerRadius: property(object, "ir", p, default: [0]),
                            innerRoundness: property(object, "is", p, default: [0]),
                            points: property(object, "pt", p, default: [5]),
                            rotation: property(object, "r", p, default: [0]), star: object["sy"]?.numberValue != 2,
                            reversed: reversed)))
            case "rd":
                out.append(.roundCorners(property(object, "r", p, default: [0])))
            case "rp":
                let tr = object["tr"]?.objectValue
                let trPath = "\(p).tr"
                func step(_ key: String, _ fallback: [Double]) -> LottieProperty<[Double]> {
                    guard let tr else { return .fixed(fallback) }
                    return property(tr, key, trPath, default: fallback)
                }
                out.append(
                    .repeater(
                        LottieRepeater(
                            copies: property(object, "c", p, default: [1]),
                            offset: property(object, "o", p, default: [0]),
                            walksFromTop: object["m"]?.numberValue != 2, anchor: step("a", [0, 0]),
                            position: step("p", [0, 0]), scale: step("s", [100, 100]), rotation: step("r", [0]),
                            startOpacity: step("so", [100]), endOpacity: step("eo", [100]))))
            case "gf":
                guard let gradient = gradient(object, p, item) else { continue }
                out.append(.gradientFill(gradient, rule: object["r"]?.numberValue == 2 ? .evenOdd : .nonZero))
            case "gs":
                guard let gradient = gradient(object, p, item) else { continue }
                out.append(.gradientStroke(gradient, stroke(object, p)))
            default:
                unsupported(p, item, Self.shapeNames[ty] ?? "shape type \"\(ty)\"")
            }
        }
        return out
    }

    /// The gradient of a `gf` or `gs`: `g.p` colour stops in `g.k` (an error when `g` or its
    /// count is missing).
    func gradient(_ object: JSONObject, _ p: String, _ item: JSONValue) -> LottieGradient? {
        guard let g = object["g"]?.objectValue else {
            error(p, object["g"] ?? item, "missing \"g\" (the gradient's stops {\"p\", \"k\"})")
            return nil
        }
        guard let count = number(g, "p", "\(p).g", owner: object["g"]) else { return nil }
        guard count >= 0, count < 10_000, let colors = Int(exactly: count.rounded()) else {
            error("\(p).g.p", g["p"], "expected a colour stop count 0…9999, found \(formatNumber(count))")
            return nil
        }
        return LottieGradient(
            colorCount: colors, stops: property(g, "k", "\(p).g", default: []),
            start: property(object, "s", p, default: [0, 0]), end: property(object, "e", p, default: [0, 0]),
            radial: object["t"]?.numberValue == 2, highlightLength: property(object, "h", p, default: [0]),
            highlightAngle: property(object, "a", p, default: [0]), opacity: property(object, "o", p, default: [100]))
    }

    /// `masksProperties` (Lottie 1.0 spec, Mask): mode `a`, `s`, `i` (default), `n` left out;
    /// lighten, darken and difference are warned about and drawn as `a`; expansion `x` is
    /// warned about and ignored.
    func masks(_ value: JSONValue?, _ path: String) -> [LottieMask] {
        guard let items = value?.arrayValue else { return [] }
        var out: [LottieMask] = []
        for (i, item) in items.enumerated() {
            let p = "\(path)[\(i)]"
            guard let object = item.objectValue else {
                error(p, item, "expected a mask object, found \(item.typeName)")
                continue
            }
            let modeName = object["mode"]?.stringValue ?? "i"
            let mode: MaskDrawing.Mode
            switch modeName {
            case "n": continue
            case "a": mode = .add
            case "s": mode = .subtract
            case "i": mode = .intersect
            default:
                unsupported("\(p).mode", object["mode"], "mask mode \"\(modeName)\" (drawn as add)")
                mode = .add
            }
            guard let pt = object["pt"] else {
                error(p, item, "missing \"pt\" (the mask's path)")
                continue
            }
            if object["x"] != nil, property(object, "x", p, default: [0]) != .fixed([0]) {
                unsupported("\(p).x", object["x"], "mask expansion (x)")
            }
            if object["f"] != nil { unsupported("\(p).f", object["f"], "mask feather (f)") }
            let empty = LottiePath(vertices: [], inTangents: [], outTangents: [], closed: true)
            out.append(
                LottieMask(
                    path: property(pt, "\(p).pt", default: empty) { v, q in
                        self.bezier(v, q, closed: self.closedOnItem ? object["cl"]?.boolValue == true : nil)
                    }, mode: mode,
                    opacity: property(object, "o", p, default: [100]), inverted: object["inv"]?.boolValue == true))
        }
        return out
    }

    func stroke(_ object: JSONObject, _ p: String) -> LottieStroke {
        var dashes: [LottieProperty<[Double]>] = []
        var offset: LottieProperty<[Double]>?
        if let list = object["d"]?.arrayValue {
            for (j, entry) in list.enumerated() {
                guard let e = entry.objectValue else { continue }
                let prop = property(e, "v", "\(p).d[\(j)]", default: [0])
                if e["n"]?.stringValue == "o" { offset = prop } else { dashes.append(prop) }
            }
        }
        let cap: LineCap =
            switch object["lc"]?.numberValue {
            case 1: .butt
            case 3: .square
            default: .round
            }
        let join: LineJoin =
            switch object["lj"]?.numberValue {
            case 1: .miter
            case 3: .bevel
            default: .round
            }
        return LottieStroke(
            color: color(object, p), opacity: property(object, "o", p, default: [100]),
            width: property(object, "w", p, default: [1]), cap: cap, join: join,
            miterLimit: object["ml"]?.numberValue ?? 4, dashes: dashes, dashOffset: offset)
    }

    func layers(_ value: JSONValue?, _ path: String) -> [LottieLayer] {
        guard let value else {
            error(path, nil, "missing \"layers\"")
            return []
        }
        guard let items = value.arrayValue else {
            error(path, value, "expected an array of layers, found \(value.typeName)")
            return []
        }
        var out: [LottieLayer] = []
        for (i, item) in items.enumerated() {
            let p = "\(path)[\(i)]"
            guard let object = item.objectValue else {
                error(p, item, "expected a layer object, found \(item.typeName)")
                continue
            }
            guard let ty = number(object, "ty", p, owner: item) else { continue }
            guard let ip = number(object, "ip", p, owner: item), let op = number(object, "op", p, owner: item) else {
                continue
            }
            let stretch = number(object, "sr", p, default: 1) ?? 1
            guard stretch != 0 else {
                error("\(p).sr", object["sr"], "time stretch must not be 0")
                continue
            }
            let hidden = object["hd"]?.boolValue == true
            let masks = masks(object["masksProperties"], "\(p).masksProperties")
            var matte: MatteMode?
            if let tt = object["tt"], let n = tt.numberValue, n != 0 {
                switch n {
                case 1: matte = .alpha
                case 2: matte = .alphaInverted
                case 3: matte = .luma
                case 4: matte = .lumaInverted
                default: unsupported("\(p).tt", tt, "track matte mode \(formatNumber(n))")
                }
            }
            let isMatteSource = (object["td"]?.numberValue ?? 0) != 0
            if let ef = object["ef"]?.arrayValue, !ef.isEmpty { unsupported("\(p).ef", object["ef"], "effects (ef)") }
            if let bm = object["bm"]?.numberValue, bm != 0 { unsupported("\(p).bm", object["bm"], "blend modes (bm)") }
            if object["tm"] != nil { unsupported("\(p).tm", object["tm"], "time remapping (tm)") }
            if let ddd = object["ddd"]?.numberValue, ddd != 0 {
                unsupported("\(p).ddd", object["ddd"], "3D layers (ddd)")
            }
            let content: LottieLayerContent
            switch ty {
            case 0:
                guard let ref = object["refId"]?.stringValue else {
                    error(p, item, "missing \"refId\" (the precomposition's asset id)")
                    continue
                }
                guard let asset = assetIDs[ref] else {
                    error("\(p).refId", object["refId"], "no precomposition asset with id \"\(ref)\"")
                    continue
                }
                content = .precomp(
                    assetIndex: asset, width: number(object, "w", p, default: 0) ?? 0,
                    height: number(object, "h", p, default: 0) ?? 0)
            case 1:
                let text = object["sc"]?.stringValue ?? "#000000"
                guard let color = RGBAColor(parsing: text) else {
                    error("\(p).sc", object["sc"], "expected a colour #RRGGBB")
                    continue
                }
                content = .solid(
                    color: color, width: number(object, "sw", p, default: 0) ?? 0,
                    height: number(object, "sh", p, default: 0) ?? 0)
            case 3: content = .null
            case 4: content = .shapes(shapes(object["shapes"], "\(p).shapes"))
            default:
                let names: [Double: String] = [
                    2: "image layers (ty 2)", 5: "text layers (ty 5)", 6: "audio layers (ty 6)",
                ]
                unsupported("\(p).ty", object["ty"], names[ty] ?? "layer type \(formatNumber(ty))")
                continue
            }
            out.append(
                LottieLayer(
                    index: object["ind"]?.numberValue.flatMap { Int(exactly: $0) },
                    parent: object["parent"]?.numberValue.flatMap { Int(exactly: $0) }, inPoint: ip, outPoint: op,
                    startTime: number(object, "st", p, default: 0) ?? 0, stretch: stretch,
                    transform: transform(object["ks"]?.objectValue, "\(p).ks"), content: content, hidden: hidden,
                    masks: masks, matte: matte, matteParent: object["tp"]?.numberValue.flatMap { Int(exactly: $0) },
                    isMatteSource: isMatteSource))
        }
        return out
    }

    /// The precompositions of `assets`: ids are registered first, so assets may use each
    /// other in any order; a cycle of precomps is an error.
    func assets(_ value: JSONValue?) -> [[LottieLayer]] {
        guard let items = value?.arrayValue else { return [] }
        var comps: [(Int, JSONValue?)] = []
        for (i, item) in items.enumerated() {
            guard let object = item.objectValue, let id = object["id"]?.stringValue, object["layers"] != nil else {
                continue
            }
            assetIDs[id] = comps.count
            comps.append((i, object["layers"]))
        }
        var decoded: [[LottieLayer]] = []
        for (i, layers) in comps { decoded.append(self.layers(layers, "$.assets[\(i)].layers")) }
        // A cycle would recurse forever: refuse it at the first asset found in one.
        for start in decoded.indices {
            var stack = [start]
            var seen = Set<Int>()
            while let a = stack.popLast() {
                for layer in decoded[a] {
                    guard case .precomp(let next, _, _) = layer.content else { continue }
                    if next == start {
                        error("$.assets[\(comps[start].0)]", nil, "precompositions refer to each other in a cycle")
                        return []
                    }
                    if seen.insert(next).inserted { stack.append(next) }
                }
            }
        }
        return decoded
    }
}

extension LottieDecoder {
    /// Whether a keyframed path interpolates between shapes of different vertex counts: a
    /// segment from keyframe a to the next, b, that is not a hold (`h` 1) and has b later than
    /// a, whose start `s` and target (`e`, or b's `s`) differ in vertex count. Hold keyframes
    /// jump from one shape to the next without interpolating (Lottie 1.0 spec, Keyframe: `h`),
    /// so a path whose vertex count changes only at hold keyframes (our own export of text whose
    /// glyph outlines change, circular-progress's percentage) draws exactly and is not reported.
    static func morphsVertexCounts(_ frames: [LottieKeyframe<LottiePath>]) -> Bool {
        // After the last keyframe its `s` holds, so only segments to a next keyframe count.
        for (a, b) in zip(frames, frames.dropFirst()) where !a.hold && b.time > a.time {
            if a.start.vertices.count != (a.end ?? b.start).vertices.count { return true }
        }
        return false
    }
}
