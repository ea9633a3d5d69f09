// SPDX-License-Identifier: GPL-3.0-or-later

import Geometry
import Glibc

/// Turns the JSON tree of a preset into a `Composition`, reporting every problem through the
/// context. Layers and animations are decoded in the extensions in the neighbouring files.
struct PresetDecoder {
    let context: DecodeContext

    /// The format version this build reads.
    static let formatVersion = 1

    static let topLevelKeys = [
        "$schema", "version", "name", "description", "canvas", "fps", "duration", "params",
        "layers", "allowLints", "state", "events",
    ]

    /// Lints the decoder reports, by code: legal but surprising things (warnings, errors under
    /// `--strict`). A preset acknowledges one by listing its code in `allowLints`.
    static let lintCodes: [String: String] = [
        "stroke-range": "strokeStart/strokeEnd values outside 0…1 rely on clamping when drawn",
        "group-clips-child": "a group child runs past the group's duration and is cut off",
        "autoreverse-snap": "an even SwiftUI repeatCount with autoreverses ends at \"from\" and jumps to \"to\"",
        "fps-above-50": "GIF cannot play more than 50 frames per second",
        "spring-cut": "a spring's duration ends before the spring settles",
        "spring-unsettled": "a spring without a duration has not settled after 60 s",
        "ignored-key": "a key that the animation's mode ignores",
        "font-missing": "a text layer's font family is not installed",
        "period-off-grid": "the loop period is not a whole number of centiseconds",
        "long-loop": "the cycles line up only after many times the longest one",
        "loop-cut": "an explicit duration cuts a repeating animation mid-cycle (a jump at the seam)",
    ]

    /// Decodes the whole preset; returns nil only when the root is not an object or a required
    /// part is unusable (errors are in the context either way).
    func decode(_ root: JSONValue, overrides: [String: String]) throws(ParameterOverrideError)
        -> Composition?
    {
        guard let top = context.object(root, "$", what: "a preset object") else { return nil }
        top.ignore("$schema")

        if let v = top.required("version", expected: "the format version, 1") {
            if case .number(let n) = v.kind, n == Double(Self.formatVersion) {
                // supported
            } else if case .number(let n) = v.kind {
                context.error(
                    top.path("version"), v.location,
                    "unsupported format version \(formatNumber(n)); this animexport reads version \(Self.formatVersion)"
                )
            } else {
                context.error(
                    top.path("version"), v.location,
                    "expected the format version 1, found \(v.shortDescription)")
            }
        }

        var name = "animation"
        if let v = top.required("name", expected: "a file-name-safe name such as \"circular\"") {
            if let s = context.string(v, top.path("name")) {
                if Self.isSafeName(s) {
                    name = s
                } else {
                    context.error(
                        top.path("name"), v.location,
                        "expected a name of letters, digits, '-' and '_' (it names output files), found \"\(s)\""
                    )
                }
            }
        }
        let description = top.string("description") ?? ""

        // Parameters first: everything else may refer to them.
        var parameters: [Parameter] = []
        if let v = top.value("params") {
            parameters = decodeParameters(v, top.path("params"))
        }
        parameters = try Self.applyOverrides(overrides, to: parameters)
        parameters = Self.recomputeDerived(parameters, overridden: Set(overrides.keys))
        for p in parameters { context.parameters[p.name] = p.value }

        var canvas = Canvas(width: 64, height: 64)
        if let v = top.required("canvas", expected: "an object with width and height") {
            canvas = decodeCanvas(v, top.path("canvas")) ?? canvas
        }
        let fps =
            top.number(
                "fps", where: { $0 > 0 && $0 <= 120 }, expected: "frames per second in (0, 120]")
            ?? 30
        let duration = top.number(
            "duration", where: { $0 > 0 && $0 <= 600 }, expected: "a loop period in seconds in (0, 600]")

        var variables: [StateVariable] = []
        if let v = top.value("state") {
            variables = decodeStateVariables(v, top.path("state"))
        }

        var allowedLints: [String] = []
        var layers: [Layer] = []
        if let v = top.required("layers", expected: "an array of layers") {
            let canvasRect = Rect(x: 0, y: 0, width: canvas.width, height: canvas.height)
            layers = decodeLayers(v, top.path("layers"), groupBounds: canvasRect)
        }
        if let f = top.object["fps"], case .number(let n) = f.kind, n > 50 {
            context.lint(
                "fps-above-50", top.path("fps"), f.location,
                "\(formatNumber(n)) fps is above what GIF can play: delays under 2 cs play as 10 cs in browsers, so GIF output is resampled to 50 fps"
            )
        } else if fps > 50 {
            context.lint(
                "fps-above-50", top.path("fps"), top.object["fps"]?.location,
                "\(formatNumber(fps)) fps is above what GIF can play; GIF output is resampled to 50 fps")
        }
        if let v = top.value("allowLints"), let items = context.array(v, top.path("allowLints"), of: "lint codes") {
            var allowed: Set<String> = []
            for (i, item) in items.enumerated() {
                guard let code = context.string(item, "\(top.path("allowLints"))[\(i)]") else { continue }
                if Self.lintCodes[code] == nil {
                    var message = "unknown lint \"\(code)\"; known lints are \(Self.lintCodes.keys.sorted().quotedList)"
                    if let near = suggestion(for: code, among: Self.lintCodes.keys.sorted()) {
                        message = "unknown lint \"\(code)\"; did you mean \"\(near)\"?"
                    }
                    context.error("\(top.path("allowLints"))[\(i)]", item.location, message)
                } else {
                    allowed.insert(code)
                }
            }
            context.dropAllowedLints(allowed)
            allowedLints = allowed.sorted()
        }
        let machine = decodeStateMachine(variables: variables, events: top.value("events"), top.path("events"))
        top.finish(context: "the preset", known: Self.topLevelKeys)

        var composition = Composition(
            name: name, description: description, canvas: canvas, fps: fps, duration: duration,
            parameters: parameters, layers: layers, allowedLints: allowedLints,
            sourceLocations: context.locations, state: machine)
        composition.parameterUses = context.parameterUses
        return composition
    }

    /// Whether `text` is a decimal number as JSON writes one, with an optional leading `+` and
    /// fraction digits allowed without an integer part (`.5`): `[+-]?(digits[.digits*]|.digits)([eE][+-]?digits)?`.
    static func isDecimalNumber(_ text: String) -> Bool {
        var scalars = Array(text.unicodeScalars)[...]
        let isDigit = { (c: Unicode.Scalar) in c >= "0" && c <= "9" }
        func digits() -> Int {
            var count = 0
            while let c = scalars.first, isDigit(c) {
                scalars.removeFirst()
                count += 1
            }
            return count
        }
        if let c = scalars.first, c == "+" || c == "-" { scalars.removeFirst() }
        var mantissa = digits()
        if scalars.first == "." {
            scalars.removeFirst()
            mantissa += digits()
        }
        guard mantissa > 0 else { return false }
        if let c = scalars.first, c == "e" || c == "E" {
            scalars.removeFirst()
            if let c = scalars.first, c == "+" || c == "-" { scalars.removeFirst() }
            guard digits() > 0 else { return false }
        }
        return scalars.isEmpty
    }

    static func isSafeName(_ s: String) -> Bool {
        guard let first = s.unicodeScalars.first, s.count <= 100 else { return false }
        let ok = { (c: Unicode.Scalar) in
            (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || (c >= "0" && c <= "9")
                || c == "-" || c == "_"
        }
        return first != "-" && s.unicodeScalars.allSatisfy(ok)
    }

    // MARK: - Canvas

    func decodeCanvas(_ value: JSONValue, _ path: String) -> Canvas? {
        guard let o = context.object(value, path, what: "a canvas object") else { return nil }
        let sizeRule = "a size in points in (0, 4096]"
        let width = o.required("width", expected: sizeRule).flatMap {
            context.number($0, o.path("width"), where: { $0 > 0 && $0 <= 4096 }, expected: sizeRule)
        }
        let height = o.required("height", expected: sizeRule).flatMap {
            context.number($0, o.path("height"), where: { $0 > 0 && $0 <= 4096 }, expected: sizeRule)
        }
        let background =
            o.value("background").flatMap { optionalColor($0, o.path("background"), none: "transparent") } ?? nil
        let matte = o.value("matte").flatMap { optionalColor($0, o.path("matte"), none: "none") } ?? nil
        o.finish(context: "canvas", known: Self.canvasKeys)
        guard let width, let height else { return nil }
        return Canvas(width: width, height: height, background: background, matte: matte)
    }

    /// A colour, or `none` (the word given) for "no colour". Returns `.some(nil)` for none.
    private func optionalColor(_ value: JSONValue, _ path: String, none: String) -> RGBAColor?? {
        if case .string(let s) = value.kind, s == none { return .some(nil) }
        guard let c = context.color(value, path) else { return nil }
        return .some(c.alpha == 0 && none == "transparent" ? nil : c)
    }

    // MARK: - Parameters

    static let canvasKeys = ["width", "height", "background", "matte"]
    static let parameterKeys = ["default", "description", "min", "max", "type"]
    static let parameterTypes = ["number", "color", "string", "boolean"]

    func decodeParameters(_ value: JSONValue, _ path: String) -> [Parameter] {
        guard case .object(let object) = value.kind else {
            context.error(path, value.location, "expected an object of parameters, found \(value.shortDescription)")
            return []
        }
        var result: [Parameter] = []
        for member in object.members {
            let ppath = "\(path).\(member.key)"
            guard Self.isParameterName(member.key) else {
                context.error(
                    ppath, member.keyLocation,
                    "parameter names are letters, digits and '_', not starting with a digit; found \"\(abbreviated(member.key))\""
                )
                continue
            }
            guard let o = context.object(member.value, ppath, what: "a parameter object with a \"default\"")
            else { continue }
            let declaredType = o.value("type").flatMap { v -> String? in
                guard let s = context.string(v, o.path("type")) else { return nil }
                guard Self.parameterTypes.contains(s) else {
                    context.error(
                        o.path("type"), v.location,
                        "expected one of \"number\", \"color\", \"string\" or \"boolean\", found \"\(s)\"")
                    return nil
                }
                return s
            }
            let description = o.string("description") ?? ""
            let minimum = o.value("min").flatMap { literalNumber($0, o.path("min")) }
            let maximum = o.value("max").flatMap { literalNumber($0, o.path("max")) }
            guard let d = o.required("default", expected: "the parameter's default value") else {
                o.finish(context: "a parameter", known: Self.parameterKeys)
                continue
            }
            o.finish(context: "a parameter", known: Self.parameterKeys)
            var formula: String?
            let parsedValue: ParameterValue?
            if case .string(let text) = d.kind, declaredType == "number" || minimum != nil || maximum != nil,
                !text.contains("$"), let hint = DecodeContext.unitHint(text, o.path("default") + ".duration")
            {
                // A number default written with a unit (`"800ms"`, `"12px"`): the same hint as for
                // `"duration": "0.8s"` (a time unit means seconds here, as every time in a preset
                // is), and no follow-on errors (`min`/`max`, the uses of the parameter).
                context.error(o.path("default"), d.location, hint)
                context.brokenParameters.insert(member.key)
                continue
            } else if case .string(let text) = d.kind, declaredType == nil || declaredType == "number",
                text.contains("$")
            {
                // A number default derived from earlier parameters (`"$size / 16"`).
                formula = text
                parsedValue = derivedDefault(text, of: member.key, among: result, d, o.path("default")).map {
                    .number($0)
                }
            } else {
                parsedValue = parameterValue(d, o.path("default"), declaredType: declaredType)
            }
            guard let value = parsedValue else {
                context.brokenParameters.insert(member.key)
                continue
            }
            if case .number(let n) = value {
                if let minimum, n < minimum {
                    context.error(
                        o.path("default"), d.location,
                        "default \(formatNumber(n)) is below min \(formatNumber(minimum))")
                }
                if let maximum, n > maximum {
                    context.error(
                        o.path("default"), d.location,
                        "default \(formatNumber(n)) is above max \(formatNumber(maximum))")
                }
            } else if minimum != nil || maximum != nil {
                context.error(ppath, member.value.location, "min and max only apply to number parameters")
            }
            result.append(
                Parameter(
                    name: member.key, value: value, defaultValue: value, description: description,
                    minimum: minimum, maximum: maximum, defaultExpression: formula))
        }
        return result
    }

    /// The value of a derived default `text` over the number parameters in `earlier`, or nil
    /// after reporting why it cannot be one (a syntax error, a parameter that is not an earlier
    /// number parameter, a result that is not finite).
    private func derivedDefault(
        _ text: String, of name: String, among earlier: [Parameter], _ value: JSONValue, _ path: String
    ) -> Double? {
        do {
            let expression = try Expression.parse(text)
            return try expression.evaluate { key in
                guard let p = earlier.first(where: { $0.name == key }), case .number(let n) = p.value else {
                    return nil
                }
                return n
            }
        } catch {
            let earlierNames = earlier.filter { if case .number = $0.value { true } else { false } }.map(\.name)
            let which =
                earlierNames.isEmpty
                ? "no number parameter is declared before \"\(name)\""
                : "it may use the number parameters declared before it (\(earlierNames.quotedList))"
            context.error(
                path, value.location,
                "a default that is an expression must give a number: \(error.message); \(which)")
            return nil
        }
    }

    /// `parameters` with every derived default (`Parameter.defaultExpression`) that `--set`
    /// did not give recomputed, in file order, from the values in effect, then kept within the
    /// parameter's `min`…`max`.
    static func recomputeDerived(_ parameters: [Parameter], overridden: Set<String>) -> [Parameter] {
        var result = parameters
        for i in result.indices {
            guard let text = result[i].defaultExpression, !overridden.contains(result[i].name),
                let expression = try? Expression.parse(text)
            else { continue }
            let earlier = result[..<i]
            guard
                var n = try? expression.evaluate({ key in
                    guard let p = earlier.first(where: { $0.name == key }), case .number(let v) = p.value else {
                        return nil
                    }
                    return v
                })
            else { continue }
            if let lo = result[i].minimum { n = max(n, lo) }
            if let hi = result[i].maximum { n = min(n, hi) }
            result[i].value = .number(n)
        }
        return result
    }

    static func isParameterName(_ s: String) -> Bool {
        guard let first = s.unicodeScalars.first else { return false }
        let letter = { (c: Unicode.Scalar) in (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || c == "_" }
        return letter(first)
            && s.unicodeScalars.allSatisfy { letter($0) || ($0 >= "0" && $0 <= "9") }
    }

    private func literalNumber(_ value: JSONValue, _ path: String) -> Double? {
        if case .number(let n) = value.kind { return n }
        context.error(path, value.location, "expected a number, found \(value.shortDescription)")
        return nil
    }

    /// A default's value; its JSON type (and, for strings, whether it reads as a colour) fixes
    /// the parameter's type unless `type` says otherwise.
    private func parameterValue(_ value: JSONValue, _ path: String, declaredType: String?)
        -> ParameterValue?
    {
        switch (value.kind, declaredType) {
        case (.number(let n), nil), (.number(let n), "number"?): return .number(n)
        case (.bool(let b), nil), (.bool(let b), "boolean"?): return .bool(b)
        case (.string(let s), "string"?): return .string(s)
        case (.string(let s), "color"?):
            if let c = RGBAColor(parsing: s) { return .color(c) }
            var message = "expected a colour (\(RGBAColor.acceptedColorForms)), found \"\(s)\""
            if let near = RGBAColor.nearColorName(s) { message += "; did you mean \"\(near)\"?" }
            context.error(path, value.location, message)
            return nil
        case (.string(let s), nil):
            // `#…`, `0x…` and CSS colour functions read as colours; other strings are colours
            // only when they are a colour name spelled exactly as `RGBAColor.namedColors`
            // (SwiftUI), `cssColors` or the `system…` names of `systemColors` (UIKit) list it:
            // `systemGray` and `tomato` are colours while a label "Snow", "label" or "link"
            // stays text. The Colours section of docs/preset-format.md states the same rule.
            let looksLikeColor =
                s.hasPrefix("#") || s.hasPrefix("0x") || s.hasPrefix("0X")
                || ["rgb(", "rgba(", "hsl(", "hsla(", "hwb("].contains { s.lowercased().hasPrefix($0) }
            if looksLikeColor, let c = RGBAColor(parsing: s) { return .color(c) }
            if looksLikeColor {
                context.error(
                    path, value.location,
                    "\"\(s)\" looks like a colour but is not one (\(RGBAColor.acceptedColorForms))")
                return nil
            }
            let isSwiftUIName = RGBAColor.namedColors.contains(where: { $0.name == s })
            let isUIKitName = RGBAColor.systemColors.contains(where: {
                $0.name == s && ($0.name.hasPrefix("system") || $0.name.contains("System"))
            })
            let isCSSName = RGBAColor.cssColors.contains(where: { $0.name == s })
            if isSwiftUIName || isUIKitName || isCSSName, let c = RGBAColor(parsing: s) { return .color(c) }
            return .string(s)
        default:
            let expected = declaredType.map { "a \($0)" } ?? "a number, string, colour or boolean"
            context.error(path, value.location, "expected \(expected) as the default, found \(value.shortDescription)")
            return nil
        }
    }

    /// Applies `--set` values, each checked against its parameter's type and range.
    static func applyOverrides(_ overrides: [String: String], to parameters: [Parameter])
        throws(ParameterOverrideError) -> [Parameter]
    {
        var result = parameters
        for name in overrides.keys.sorted() {
            let text = overrides[name] ?? ""
            guard let index = result.firstIndex(where: { $0.name == name }) else {
                var message = "--set \(abbreviated(name)): the preset has no parameter \"\(abbreviated(name))\""
                if let near = suggestion(for: name, among: result.map(\.name)) {
                    message += "; did you mean \"\(near)\"?"
                } else if !result.isEmpty {
                    message += " (it has \(result.map(\.name).quotedList))"
                }
                throw ParameterOverrideError(message: message)
            }
            let p = result[index]
            let parsed = try Self.parseOverride(text, for: p)
            result[index].value = parsed
        }
        return result
    }

    static func parseOverride(_ text: String, for p: Parameter) throws(ParameterOverrideError)
        -> ParameterValue
    {
        switch p.defaultValue {
        case .number:
            let trimmed = text.trimmingWhitespace()
            // Decimal only: Swift's `Double("0x40")` reads hex (64), and "inf" or "nan" read too.
            guard isDecimalNumber(trimmed), let n = Double(trimmed), n.isFinite else {
                if isDecimalNumber(trimmed) {
                    // 1e999: decimal, but past Double's range (as the JSON reader says of it).
                    throw ParameterOverrideError(
                        message: "--set \(p.name)=\(text): out of range (beyond ±1.8e308)")
                }
                var message = "--set \(p.name)=\(text): expected a number, like the default \(p.defaultValue)"
                // 4px, 4pt, 90deg, 2s: a decimal number and a unit of the preset format (points,
                // degrees, seconds); parameters take the bare number.
                let unit = ["px", "pt", "deg", "s"].first { trimmed.lowercased().hasSuffix($0) }
                if let unit {
                    let number = String(trimmed.dropLast(unit.count))
                    if isDecimalNumber(number), let bare = Double(number), bare.isFinite {
                        message += "; write it without the unit: --set \(p.name)=\(number)"
                    }
                }
                throw ParameterOverrideError(message: message)
            }
            if let lo = p.minimum, n < lo {
                throw ParameterOverrideError(
                    message: "--set \(p.name)=\(text): must be at least \(formatNumber(lo))")
            }
            if let hi = p.maximum, n > hi {
                throw ParameterOverrideError(
                    message: "--set \(p.name)=\(text): must be at most \(formatNumber(hi))")
            }
            return .number(n)
        case .color:
            guard let c = RGBAColor(parsing: text) else {
                var message = "--set \(p.name)=\(text): expected a colour (\(RGBAColor.acceptedColorForms))"
                if let near = RGBAColor.nearColorName(text) { message += "; did you mean \(p.name)=\(near)?" }
                throw ParameterOverrideError(message: message)
            }
            return .color(c)
        case .bool:
            switch text.lowercased() {
            case "true", "yes", "1": return .bool(true)
            case "false", "no", "0": return .bool(false)
            default:
                throw ParameterOverrideError(message: "--set \(p.name)=\(text): expected true or false")
            }
        case .string:
            return .string(text)
        }
    }
}
