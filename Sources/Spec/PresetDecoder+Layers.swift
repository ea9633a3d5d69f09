// SPDX-License-Identifier: GPL-3.0-or-later

import Geometry

/// Layer kinds the format knows, with the geometry keys each one takes.
enum LayerType: String, CaseIterable {
    case circle, ellipse, rect, arc, line, polygon, path, group, replicator, text, image

    var geometryKeys: [String] {
        switch self {
        case .circle: ["center", "radius"]
        case .ellipse: ["center", "size"]
        case .rect: ["center", "size", "cornerRadius"]
        case .arc: ["center", "radius", "startAngle", "endAngle", "clockwise"]
        case .line: ["from", "to"]
        case .polygon: ["points", "closed"]
        case .path: ["d"]
        case .group: ["layers", "bounds", "clip"]
        case .replicator:
            ["layers", "bounds", "clip", "instanceCount", "instanceTransform", "instanceDelay", "instanceAlphaOffset"]
        case .text: ["text", "font", "values", "color"]
        case .image: ["file", "center", "size"]
        }
    }

    /// Whether the layer draws a path with fill and stroke.
    var paints: Bool { ![.group, .replicator, .text, .image].contains(self) }

    /// Whether the layer holds child layers.
    var isContainer: Bool { self == .group || self == .replicator }

    /// Geometry of this type with neutral values, used when the real one has errors.
    func placeholder(_ canvas: Rect) -> ShapeGeometry {
        let zero = Point(x: 0, y: 0)
        switch self {
        case .circle: return .circle(center: zero, radius: 0)
        case .ellipse: return .ellipse(center: zero, size: zero)
        case .rect: return .rect(center: zero, size: zero, cornerRadius: 0)
        case .arc: return .arc(center: zero, radius: 0, startAngle: 0, endAngle: 0, clockwise: true)
        case .line: return .line(from: zero, to: zero)
        case .polygon: return .polygon(points: [zero, zero], closed: true)
        case .path: return .path(BezierPath())
        case .group: return .group(bounds: canvas)
        case .replicator: return .replicator(bounds: canvas, replication: Replication(instanceCount: 1))
        case .text: return .text(TextContent(template: "", fontFamily: "Inter", fontSize: 1, fontWeight: .regular))
        case .image: return .image(ImageContent(file: "", resolvedPath: "", center: zero, size: zero))
        }
    }
}

extension PresetDecoder {
    static let commonLayerKeys = [
        "type", "name", "position", "anchorPoint", "offset", "rotation", "scale", "opacity",
        "hidden", "rotation3D", "animations", "bind",
    ]
    static let paintKeys = ["fill", "stroke", "strokeStart", "strokeEnd"]
    static let fillKeys = ["color", "rule"]
    static let strokeKeys = ["color", "width", "lineCap", "lineJoin", "miterLimit", "lineDashPattern", "lineDashPhase"]
    /// Smallest sum of a `lineDashPattern`, in points: the renderer cuts every dash itself
    /// (`PathMeasure.strokePieces`), and a finer pattern would cost millions of dashes per frame
    /// for what looks like a solid line.
    static let shortestDashPeriod = 0.01

    func decodeLayers(_ value: JSONValue, _ path: String, groupBounds: Rect) -> [Layer] {
        guard let items = context.array(value, path, of: "layers") else { return [] }
        var layers: [Layer] = []
        for (i, item) in items.enumerated() {
            if let layer = decodeLayer(item, "\(path)[\(i)]", canvasRect: groupBounds) {
                layers.append(layer)
            }
        }
        return layers
    }

    func decodeLayer(_ value: JSONValue, _ path: String, canvasRect: Rect) -> Layer? {
        guard let o = context.object(value, path, what: "a layer object") else { return nil }
        let typeNames = LayerType.allCases.map(\.rawValue)
        guard let typeValue = o.required("type", expected: "one of \(typeNames.quotedList)") else {
            return nil
        }
        guard let type = context.enumeration(typeValue, o.path("type"), as: LayerType.self) else {
            return nil
        }
        let what = "a \(type.rawValue) layer"
        let name = o.string("name")

        let shape = decodeShapeGeometry(type, o, canvasRect: canvasRect)
        // With broken geometry, keep decoding the rest against a stand-in of the same type so
        // every other problem is still reported (and none invented).
        var state = LayerState(shape: shape ?? type.placeholder(canvasRect))

        if let p = o.point("position") { state.position = p }
        if let p = o.point("anchorPoint") { state.anchorPoint = p }
        if let p = o.point("offset") { state.offset = p }
        if let r = o.number("rotation") { state.rotation = r }
        if let v = o.value("scale"), let s = context.scale(v, o.path("scale")) { state.scale = s }
        if let a = o.number("opacity", where: { $0 >= 0 && $0 <= 1 }, expected: "an opacity in 0…1") {
            state.opacity = a
        }
        if let h = o.bool("hidden") { state.hidden = h }
        if let v = o.value("rotation3D") {
            state.rotation3D = decodeRotation3D(v, o.path("rotation3D"))
        }

        if type.paints {
            decodePaint(o, into: &state)
        }
        if type == .text {
            decodeTextPaint(o, into: &state)
            if let name { registerMeasurableText(named: name, state, valid: shape != nil) }
        }

        var children: [Layer] = []
        if type.isContainer {
            let bounds = state.box
            if let v = o.value("layers") {
                children = decodeLayers(v, o.path("layers"), groupBounds: bounds)
            }
            if let v = o.value("clip") {
                state.clip = decodeClip(v, o.path("clip"), canvasRect: bounds)
            }
        }

        var bindings: [StateBinding] = []
        if let v = o.value("bind") {
            bindings = decodeBindings(v, o.path("bind"))
        }

        var animations: [Animation] = []
        if let v = o.value("animations"), let items = context.array(v, o.path("animations"), of: "animations") {
            for (i, item) in items.enumerated() {
                if let a = decodeAnimation(
                    item, "\(o.path("animations"))[\(i)]", layer: state, inheritedDuration: nil)
                {
                    animations.append(a)
                }
            }
        }

        var known = Self.commonLayerKeys + type.geometryKeys
        if type.paints { known += Self.paintKeys }
        var misplaced: [String: String] = [:]
        for other in LayerType.allCases where other != type {
            for key in other.geometryKeys where !known.contains(key) && misplaced[key] == nil {
                let owners = LayerType.allCases.filter { $0.geometryKeys.contains(key) }.map(\.rawValue)
                misplaced[key] = "it belongs to \(owners.joined(separator: ", ")) layers"
            }
        }
        if type.isContainer {
            for key in Self.paintKeys {
                misplaced[key] = "\(type.rawValue)s draw nothing themselves; put it on the shapes inside"
            }
        } else if !type.paints {
            for key in Self.paintKeys where !known.contains(key) {
                misplaced[key] = "\(type.rawValue) layers take no fill, stroke or trim"
            }
        }
        o.finish(context: what, known: known, misplaced: misplaced)
        if let name { context.namedLayerTypes[name] = type.rawValue }
        guard shape != nil else { return nil }
        if let name, state.shape.isShape {
            context.namedPaths[name] = state.shape.path.applying(state.transform)
        }
        context.locations[path] = value.location
        return Layer(
            name: name, state: state, animations: animations, children: children, sourcePath: path,
            bindings: bindings)
    }

    /// The shape's geometry; nil (with errors reported) when a required key is missing or bad.
    func decodeShapeGeometry(_ type: LayerType, _ o: ObjectReader, canvasRect: Rect)
        -> ShapeGeometry?
    {
        let nonNegative = { (key: String, what: String) -> Double? in
            o.required(key, expected: what).flatMap {
                context.number($0, o.path(key), where: { $0 >= 0 }, expected: "\(what) ≥ 0")
            }
        }
        let point = { (key: String) -> Point? in
            o.required(key, expected: "a point [x, y]").flatMap { context.point($0, o.path(key)) }
        }
        let size = { () -> Point? in
            guard let v = o.required("size", expected: "a size [width, height]"),
                let s = context.point(v, o.path("size"))
            else { return nil }
            guard s.x >= 0, s.y >= 0 else {
                context.error(
                    o.path("size"), v.location,
                    "expected a size [width, height] with both ≥ 0, found [\(formatNumber(s.x)), \(formatNumber(s.y))]")
                return nil
            }
            return s
        }
        switch type {
        case .circle:
            let c = point("center")
            let r = nonNegative("radius", "a radius in points")
            guard let c, let r else { return nil }
            return .circle(center: c, radius: r)
        case .ellipse:
            let c = point("center")
            let s = size()
            guard let c, let s else { return nil }
            return .ellipse(center: c, size: s)
        case .rect:
            let c = point("center")
            let s = size()
            let r = o.number("cornerRadius", where: { $0 >= 0 }, expected: "a corner radius ≥ 0") ?? 0
            guard let c, let s else { return nil }
            return .rect(center: c, size: s, cornerRadius: r)
        case .arc:
            let c = point("center")
            let r = nonNegative("radius", "a radius in points")
            let a = o.required("startAngle", expected: "degrees, 0 = 3 o'clock").flatMap {
                context.number($0, o.path("startAngle"))
            }
            let b = o.required("endAngle", expected: "degrees, 0 = 3 o'clock").flatMap {
                context.number($0, o.path("endAngle"))
            }
            let cw = o.bool("clockwise") ?? true
            guard let c, let r, let a, let b else { return nil }
            return .arc(center: c, radius: r, startAngle: a, endAngle: b, clockwise: cw)
        case .line:
            let a = point("from")
            let b = point("to")
            guard let a, let b else { return nil }
            return .line(from: a, to: b)
        case .polygon:
            guard let v = o.required("points", expected: "an array of at least 2 points"),
                let items = context.array(v, o.path("points"), of: "points [x, y]")
            else { return nil }
            let points = items.enumerated().compactMap { i, item in
                context.point(item, "\(o.path("points"))[\(i)]")
            }
            guard points.count == items.count else { return nil }
            guard points.count >= 2 else {
                context.error(o.path("points"), v.location, "expected at least 2 points, found \(points.count)")
                return nil
            }
            return .polygon(points: points, closed: o.bool("closed") ?? true)
        case .path:
            guard let v = o.required("d", expected: "SVG path data such as \"M0 0 L10 10\""),
                let d = context.string(v, o.path("d"))
            else { return nil }
            do {
                return .path(try BezierPath(svgPathData: d))
            } catch {
                context.error(o.path("d"), v.location, "invalid SVG path data: \(error.message)")
                return nil
            }
        case .group, .replicator:
            var bounds = canvasRect
            if let v = o.value("bounds") {
                if case .array(let items) = v.kind, items.count == 4 {
                    let n = items.enumerated().compactMap { i, item in
                        context.number(item, "\(o.path("bounds"))[\(i)]")
                    }
                    if n.count == 4 {
                        if n[2] >= 0, n[3] >= 0 {
                            bounds = Rect(x: n[0], y: n[1], width: n[2], height: n[3])
                        } else {
                            context.error(
                                o.path("bounds"), v.location, "expected a width and height ≥ 0 in [x, y, width, height]"
                            )
                        }
                    }
                } else {
                    context.error(
                        o.path("bounds"), v.location, "expected [x, y, width, height], found \(v.shortDescription)")
                }
            }
            if type == .replicator {
                guard let replication = decodeReplication(o) else { return nil }
                return .replicator(bounds: bounds, replication: replication)
            }
            return .group(bounds: bounds)
        case .text:
            return decodeText(o)
        case .image:
            return decodeImage(o)
        }
    }

    private func decodePaint(_ o: ObjectReader, into state: inout LayerState) {
        if let v = o.value("fill") {
            if case .object = v.kind, let f = context.object(v, o.path("fill"), what: "a fill") {
                if let c = f.required("color", expected: "a colour").flatMap({ context.color($0, f.path("color")) }) {
                    state.fillColor = c
                }
                if let r = f.value("rule").flatMap({ context.enumeration($0, f.path("rule"), as: FillRule.self) }) {
                    state.fillRule = r
                }
                f.finish(context: "a fill", known: Self.fillKeys)
            } else if let c = context.color(v, o.path("fill")) {
                state.fillColor = c
            }
        }
        if let v = o.value("stroke"),
            let s = context.object(v, o.path("stroke"), what: "a stroke object {\"color\", \"width\", …}")
        {
            if let c = s.required("color", expected: "a colour").flatMap({ context.color($0, s.path("color")) }) {
                state.strokeColor = c
            }
            if let w = s.number("width", where: { $0 >= 0 }, expected: "a line width in points ≥ 0") {
                state.lineWidth = w
            }
            if let cap = s.value("lineCap").flatMap({ context.enumeration($0, s.path("lineCap"), as: LineCap.self) }) {
                state.lineCap = cap
            }
            if let join = s.value("lineJoin").flatMap({ context.enumeration($0, s.path("lineJoin"), as: LineJoin.self) }
            ) {
                state.lineJoin = join
            }
            if let m = s.number("miterLimit", where: { $0 >= 1 }, expected: "a miter limit ≥ 1") {
                state.miterLimit = m
            }
            if let v = s.value("lineDashPattern"),
                let items = context.array(v, s.path("lineDashPattern"), of: "dash lengths in points")
            {
                let dashes = items.enumerated().compactMap { i, item in
                    context.number(
                        item, "\(s.path("lineDashPattern"))[\(i)]", where: { $0 >= 0 }, expected: "a dash length ≥ 0")
                }
                if dashes.count == items.count {
                    if !dashes.isEmpty, dashes.allSatisfy({ $0 == 0 }) {
                        context.error(
                            s.path("lineDashPattern"), v.location,
                            "expected at least one dash length > 0 (all zero would draw nothing)")
                    } else if !dashes.isEmpty, dashes.reduce(0, +) < Self.shortestDashPeriod {
                        context.error(
                            s.path("lineDashPattern"), v.location,
                            "expected dash lengths adding up to at least \(Self.shortestDashPeriod) points (a finer pattern is a solid line, cut into millions of dashes)"
                        )
                    } else {
                        state.lineDashPattern = dashes
                    }
                }
            }
            if let p = s.number("lineDashPhase") { state.lineDashPhase = p }
            s.finish(
                context: "a stroke",
                known: Self.strokeKeys,
                misplaced: [
                    "strokeStart": "strokeStart and strokeEnd are layer keys, beside \"stroke\"",
                    "strokeEnd": "strokeStart and strokeEnd are layer keys, beside \"stroke\"",
                ])
        }
        if let n = o.number("strokeStart") { state.strokeStart = n }
        if let n = o.number("strokeEnd") { state.strokeEnd = n }
    }
}
