// SPDX-License-Identifier: GPL-3.0-or-later

import Geometry
import Glibc

/// Decoding of the layer kinds beyond plain shapes: replicators, text, images, clips and
/// rotation3D effects.
extension PresetDecoder {
    static let instanceTransformKeys = ["offset", "rotation", "scale"]
    static let fontKeys = ["family", "size", "weight", "features"]
    /// Most OpenType features one text layer may list.
    static let maximumFontFeatures = 32
    static let rotation3DKeys = ["angle", "axis", "anchor", "anchorZ", "perspective"]
    /// The font presets get when they name none: installed by `make deps` (Debian fonts-inter),
    /// the closest open design to Apple's SF Pro.
    static let defaultFontFamily = "Inter"

    func decodeReplication(_ o: ObjectReader) -> Replication? {
        guard let v = o.required("instanceCount", expected: "a whole number of copies ≥ 1") else { return nil }
        let count = context.number(
            v, o.path("instanceCount"), where: { $0 >= 1 && $0 <= 1000 && $0 == $0.rounded() },
            expected: "a whole number of copies in 1…1000")
        // A bad count is reported once; the other keys are still read (and checked), so they are
        // neither reported as unknown nor left unchecked.
        var replication = Replication(instanceCount: count.map { Int($0) } ?? 1)
        if let v = o.value("instanceTransform"),
            let t = context.object(
                v, o.path("instanceTransform"), what: "an instance transform {\"offset\", \"rotation\", \"scale\"}")
        {
            if let p = t.point("offset") { replication.offset = p }
            if let r = t.number("rotation") { replication.rotation = r }
            if let sv = t.value("scale"), let sc = context.scale(sv, t.path("scale")) { replication.scale = sc }
            t.finish(context: "an instance transform", known: Self.instanceTransformKeys)
        }
        if let d = o.number("instanceDelay", where: { $0 >= 0 && $0 <= 60 }, expected: "seconds in 0…60") {
            replication.instanceDelay = d
        }
        if let a = o.number("instanceAlphaOffset", where: { $0 >= -1 && $0 <= 1 }, expected: "an opacity step in −1…1")
        {
            replication.instanceAlphaOffset = a
        }
        return count == nil ? nil : replication
    }

    func decodeText(_ o: ObjectReader) -> ShapeGeometry? {
        guard let v = o.required("text", expected: "the string to show, e.g. \"Loading\" or \"{progress:%d}%\""),
            let template = context.string(v, o.path("text"))
        else { return nil }
        var family = Self.defaultFontFamily
        var size = 17.0
        var weight = FontWeight.regular
        var features: [String] = []
        if let fv = o.value("font"),
            let f = context.object(fv, o.path("font"), what: "a font {\"family\", \"size\", \"weight\"}")
        {
            if let fam = f.string("family") {
                if let check = context.fontAvailable, !fam.isEmpty, !check(fam) {
                    context.lint(
                        "font-missing", f.path("family"), f.object["family"]?.location,
                        "font family \"\(fam)\" is not installed here, so another font is drawn in its place; install it or use \"\(Self.defaultFontFamily)\" (installed by make deps)"
                    )
                }
                if fam.isEmpty {
                    context.error(
                        f.path("family"), f.object["family"]?.location,
                        "expected a font family name, found an empty string")
                } else {
                    family = fam
                }
            }
            if let n = f.number("size", where: { $0 > 0 && $0 <= 1000 }, expected: "a font size in points in (0, 1000]")
            {
                size = n
            }
            if let w = f.value("weight").flatMap({ context.enumeration($0, f.path("weight"), as: FontWeight.self) }) {
                weight = w
            }
            if let v = f.value("features") { features = fontFeatures(v, f.path("features")) }
            f.finish(context: "a font", known: Self.fontKeys)
        }
        // Placeholders must name declared values.
        var declared: [String: Double] = [:]
        if let vv = o.value("values") {
            if case .object(let object) = vv.kind {
                for member in object.members {
                    if let n = context.number(member.value, "\(o.path("values")).\(member.key)") {
                        declared[member.key] = n
                    }
                }
            } else {
                context.error(
                    o.path("values"), vv.location,
                    "expected an object of named numbers, e.g. {\"progress\": 0}, found \(vv.shortDescription)")
            }
        }
        switch TextTemplate.parse(template) {
        case .failure(let message):
            context.error(o.path("text"), v.location, message.message)
            return nil
        case .success(let parts):
            for case .placeholder(let name, _) in parts where declared[name] == nil {
                var message = "the text uses {\(name)} but \"values\" declares no \(name)"
                if let near = suggestion(for: name, among: declared.keys.sorted()) {
                    message += "; did you mean {\(near)}?"
                }
                context.error(o.path("text"), v.location, message)
            }
        }
        context.pendingTextValues = declared
        return .text(
            TextContent(template: template, fontFamily: family, fontSize: size, fontWeight: weight, features: features))
    }

    /// `font.features`: OpenType feature tags, `"tnum"` on or `"-kern"` off. A tag is four
    /// letters or digits (OpenType's registered tags are lowercase: `tnum`, `ss01`, `case`);
    /// a tag may appear once.
    private func fontFeatures(_ v: JSONValue, _ path: String) -> [String] {
        guard let items = context.array(v, path, of: "OpenType feature tags such as \"tnum\"") else { return [] }
        guard items.count <= Self.maximumFontFeatures else {
            context.error(path, v.location, "at most \(Self.maximumFontFeatures) features, found \(items.count)")
            return []
        }
        var features: [String] = []
        for (i, item) in items.enumerated() {
            let p = "\(path)[\(i)]"
            guard let s = context.string(item, p) else { continue }
            let tag = s.hasPrefix("-") ? String(s.dropFirst()) : s
            let isTagCharacter = { (c: Unicode.Scalar) in
                ("a"..."z").contains(c) || ("A"..."Z").contains(c) || ("0"..."9").contains(c)
            }
            guard tag.unicodeScalars.count == 4, tag.unicodeScalars.allSatisfy(isTagCharacter) else {
                context.error(
                    p, item.location,
                    "expected an OpenType feature tag of 4 letters or digits, e.g. \"tnum\" (tabular digits) or \"-kern\" (kerning off), found \"\(abbreviated(s))\""
                )
                continue
            }
            if features.contains(where: { $0 == tag || $0 == "-" + tag }) {
                context.error(p, item.location, "feature \"\(tag)\" is listed twice")
                continue
            }
            features.append(s)
        }
        return features
    }

    /// Makes a named text layer's text (its template filled with the declared `values`, as
    /// frame 0 shows it before any animation) measurable by the `@name.width` and
    /// `@name.height` of the expressions after it. A layer with errors is remembered as
    /// unmeasurable, so references to it add no second error.
    func registerMeasurableText(named name: String, _ state: LayerState, valid: Bool) {
        guard case .text(let content) = state.shape else { return }
        guard valid, case .success(let parts) = TextTemplate.parse(content.template) else {
            context.unmeasuredTextLayers.insert(name)
            return
        }
        context.measurableText[name] = (TextTemplate.render(parts, values: state.values), content)
    }

    /// Text colour (`color`, default black) into `fillColor`, and the declared values.
    func decodeTextPaint(_ o: ObjectReader, into state: inout LayerState) {
        state.fillColor = o.color("color") ?? .black
        state.values = context.pendingTextValues
        context.pendingTextValues = [:]
    }

    func decodeImage(_ o: ObjectReader) -> ShapeGeometry? {
        guard let v = o.required("file", expected: "a PNG file next to the preset"),
            let file = context.string(v, o.path("file"))
        else { return nil }
        let center = o.required("center", expected: "a point [x, y]").flatMap { context.point($0, o.path("center")) }
        let bytes = ByteFile.resolve(file, in: context.directoryBytes)
        let resolved = ByteFile.shown(bytes)
        var size = o.point("size")
        guard let data = ByteFile.read(bytes) else {
            context.error(o.path("file"), v.location, "cannot read the image \"\(file)\" (looked for \(resolved))")
            return nil
        }
        let pixelSize: Point
        do {
            let checked = try PNGStructure.check(data)
            pixelSize = Point(x: Double(checked.width), y: Double(checked.height))
        } catch {
            context.error(o.path("file"), v.location, "the image \"\(abbreviated(file))\" \(error.message)")
            return nil
        }
        if size == nil { size = pixelSize }
        guard let center, let size else { return nil }
        return .image(
            ImageContent(file: file, resolvedPath: resolved, resolvedBytes: bytes, center: center, size: size))
    }

    /// A clip shape: `{ "type": "circle" | "ellipse" | "rect" | "path" | …, geometry keys }`.
    func decodeClip(_ value: JSONValue, _ path: String, canvasRect: Rect) -> ShapeGeometry? {
        guard
            let o = context.object(
                value, path, what: "a clip shape such as {\"type\": \"circle\", \"center\": [x, y], \"radius\": r}")
        else {
            return nil
        }
        let shapes: [LayerType] = [.circle, .ellipse, .rect, .arc, .line, .polygon, .path]
        guard let tv = o.required("type", expected: "a shape type"),
            let type = context.enumeration(tv, o.path("type"), as: LayerType.self)
        else { return nil }
        guard shapes.contains(type) else {
            context.error(
                o.path("type"), tv.location,
                "a clip must be a shape (\(shapes.map(\.rawValue).quotedList)), found \"\(type.rawValue)\"")
            return nil
        }
        let geometry = decodeShapeGeometry(type, o, canvasRect: canvasRect)
        o.finish(context: "a clip shape", known: ["type"] + type.geometryKeys)
        return geometry
    }

    /// One `rotation3DEffect` object or an array of them (innermost first).
    func decodeRotation3D(_ value: JSONValue, _ path: String) -> [Rotation3D] {
        if case .array(let items) = value.kind {
            return items.enumerated().compactMap { i, item in decodeOneRotation3D(item, "\(path)[\(i)]") }
        }
        return decodeOneRotation3D(value, path).map { [$0] } ?? []
    }

    private func decodeOneRotation3D(_ value: JSONValue, _ path: String) -> Rotation3D? {
        guard
            let o = context.object(
                value, path, what: "a rotation3D {\"angle\", \"axis\": [x, y, z], …} or an array of them")
        else {
            return nil
        }
        let angle = o.required("angle", expected: "degrees").flatMap { context.number($0, o.path("angle")) }
        var axis: Vector3?
        if let av = o.required("axis", expected: "[x, y, z]") {
            if case .array(let items) = av.kind, items.count == 3 {
                let n = items.enumerated().compactMap { i, item in context.number(item, "\(o.path("axis"))[\(i)]") }
                if n.count == 3 {
                    if n.allSatisfy({ $0 == 0 }) {
                        context.error(o.path("axis"), av.location, "the rotation axis must not be [0, 0, 0]")
                    } else {
                        axis = Vector3(x: n[0], y: n[1], z: n[2])
                    }
                }
            } else {
                context.error(o.path("axis"), av.location, "expected an axis [x, y, z], found \(av.shortDescription)")
            }
        }
        var effect = Rotation3D(angle: angle ?? 0, axis: axis ?? Vector3(x: 0, y: 0, z: 1))
        if let a = o.point("anchor") { effect.anchor = a }
        if let z = o.number("anchorZ") { effect.anchorZ = z }
        if let p = o.number(
            "perspective", where: { $0 >= 0 && $0 <= 100 }, expected: "a perspective in 0…100 (SwiftUI default 1)")
        {
            effect.perspective = p
        }
        o.finish(context: "a rotation3D effect", known: Self.rotation3DKeys)
        guard angle != nil, axis != nil else { return nil }
        return effect
    }
}
