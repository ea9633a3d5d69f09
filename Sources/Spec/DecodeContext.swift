// SPDX-License-Identifier: GPL-3.0-or-later

import Geometry
import Glibc

/// Collects diagnostics while one preset is decoded and reads typed values out of `JSONValue`s,
/// reporting every problem (with file, JSON path and line:column) instead of stopping at the
/// first. Parameter references (`$name`) and arithmetic are resolved here.
final class DecodeContext {
    let file: String
    private(set) var diagnostics: [Diagnostic] = []
    /// Parameter values in effect, by name.
    var parameters: [String: ParameterValue] = [:]
    /// Parameters declared with an unusable default: already reported, so references to them
    /// stay quiet instead of repeating the problem as "unknown parameter".
    var brokenParameters: Set<String> = []
    /// The preset's folder as bytes, against which relative file names (images) are resolved.
    let directoryBytes: [UInt8]
    /// A text layer's declared `values`, handed from its geometry to its state.
    var pendingTextValues: [String: Double] = [:]
    /// Outlines of the named shape layers decoded so far, in their parents' coordinates (their
    /// own model transform applied), for path animations that say `"path": "@name"`.
    var namedPaths: [String: BezierPath] = [:]
    /// Whether a font family is installed, when the caller can tell.
    var fontAvailable: (@Sendable (String) -> Bool)?
    /// Measures text in the renderer's fonts, when the caller can (`@name.width`).
    var measureText: TextMeasurer?
    /// The named text layers decoded so far, by name: the text as frame 0 shows it and its
    /// font, measured on first use (`@name.width`) so that a preset that measures nothing loads
    /// no font here.
    var measurableText: [String: (string: String, content: TextContent)] = [:]
    /// The type (`rect`, `group`, …) of every named layer decoded so far, by name, so that
    /// `@name.width` of a layer that is not text says so.
    var namedLayerTypes: [String: String] = [:]
    /// Measurements made so far, by layer name.
    var textMeasurements: [String: TextMeasurement] = [:]
    /// Names of text layers that have errors, or whose text could not be measured (already
    /// reported), so references to them stay quiet.
    var unmeasuredTextLayers: Set<String> = []
    /// Values written exactly as `$name` (a colour or number parameter, no expression), by
    /// JSONPath (`Composition.parameterUses`).
    var parameterUses: [String: String] = [:]
    /// Locations of the object members read so far, by JSONPath (`Composition.sourceLocations`).
    var locations: [String: SourceLocation] = [:]
    /// Names of the preset's state variables (`state`), for `bind` and event expressions.
    var stateVariables: [String] = []

    /// A context for the preset shown as `file`; `directory` is its folder's bytes (nil: the
    /// folder part of `file`).
    init(file: String, directory: [UInt8]? = nil) {
        self.file = file
        self.directoryBytes = directory ?? Array(deletingLastPathComponent(file).utf8)
    }

    var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

    func error(_ path: String, _ location: SourceLocation?, _ message: String) {
        diagnostics.append(
            Diagnostic(.error, file: file, path: path, location: location, message: message))
    }

    /// Takes back one reported diagnostic (the first equal to `diagnostic`).
    func remove(_ diagnostic: Diagnostic) {
        if let i = diagnostics.firstIndex(of: diagnostic) { diagnostics.remove(at: i) }
    }

    func warning(_ path: String, _ location: SourceLocation?, _ message: String) {
        diagnostics.append(
            Diagnostic(.warning, file: file, path: path, location: location, message: message))
    }

    /// A lint: legal but surprising. Dropped when the preset lists `code` in `allowLints`.
    func lint(_ code: String, _ path: String, _ location: SourceLocation?, _ message: String) {
        diagnostics.append(
            Diagnostic(.warning, file: file, path: path, location: location, message: message, lint: code))
    }

    /// Removes lints the preset acknowledged.
    func dropAllowedLints(_ allowed: Set<String>) {
        diagnostics.removeAll { $0.lint.map(allowed.contains) ?? false }
    }

    // MARK: - Scalars

    /// A JSON number, or a string holding an expression over number parameters.
    func number(_ value: JSONValue, _ path: String) -> Double? {
        switch value.kind {
        case .number(let n):
            return n
        case .string(let text):
            let n = expression(text, value, path)
            let name = String(text.dropFirst())
            if n != nil, text.hasPrefix("$"), case .number? = parameters[name] { parameterUses[path] = name }
            return n
        default:
            error(path, value.location, "expected a number or an expression, found \(value.shortDescription)")
            return nil
        }
    }

    /// `number` with an inclusive/exclusive range check; `what` words the expectation,
    /// e.g. "a number > 0".
    func number(
        _ value: JSONValue, _ path: String, where valid: (Double) -> Bool, expected: String
    ) -> Double? {
        guard let n = number(value, path) else { return nil }
        guard n.isFinite, valid(n) else {
            error(path, value.location, "expected \(expected), found \(formatNumber(n))")
            return nil
        }
        return n
    }

    private func expression(_ text: String, _ value: JSONValue, _ path: String) -> Double? {
        let parsed: Expression
        do {
            parsed = try Expression.parse(text, bareWordHint: bareWordHint)
        } catch {
            self.error(path, value.location, Self.unitHint(text, path) ?? "\(error.message) in \"\(text)\"")
            return nil
        }
        var ok = true
        for name in parsed.parameterNames {
            if name.hasPrefix("@") {
                let layer = String(name.dropFirst().prefix { $0 != "." })
                if measure(layer) == nil {
                    ok = false
                    if !unmeasuredTextLayers.contains(layer) {
                        error(path, value.location, unknownMeasurementMessage(layer))
                    }
                    unmeasuredTextLayers.insert(layer)
                }
                continue
            }
            switch parameters[name] {
            case .number?: continue
            case let other?:
                error(
                    path, value.location,
                    "parameter $\(name) is a \(other.typeName), but a number is needed here")
                ok = false
            case nil:
                if !brokenParameters.contains(name) { error(path, value.location, unknownParameterMessage(name)) }
                ok = false
            }
        }
        guard ok else { return nil }
        do {
            let result = try parsed.evaluate { name in
                if name.hasPrefix("@") { return self.measurement(name) }
                if case .number(let n)? = self.parameters[name] { return n }
                return nil
            }
            return result
        } catch {
            self.error(path, value.location, "\(error.message) in \"\(text)\"")
            return nil
        }
    }

    /// The exact fraction a number or expression string stands for (`Expression.exactValue`), for
    /// times that must not be rounded (`"every": "1 / 60"`); nil when it has none. Call after
    /// `number` has accepted the value, which reports the errors.
    func exactNumber(_ value: JSONValue) -> Rational? {
        switch value.kind {
        case .number(let n):
            return Rational(decimal: n)
        case .string(let text):
            guard let parsed = try? Expression.parse(text) else { return nil }
            return parsed.exactValue { name in
                if name.hasPrefix("@") { return self.measurement(name) }
                if case .number(let n)? = self.parameters[name] { return n }
                return nil
            }
        default:
            return nil
        }
    }

    /// Keys whose numbers are seconds, for the hint on a number written with a unit.
    static let secondsKeys: Set<String> = [
        "duration", "beginTime", "delay", "repeatDuration", "every", "at", "first", "instanceDelay",
    ]

    /// The message for a number written with a unit (`"1s"`, `"250ms"`, `"10px"`, `"90deg"`,
    /// `"50%"`), which presets write bare: what the key takes and the number to write instead.
    /// nil when `text` is not a plain decimal followed by one of those units.
    static func unitHint(_ text: String, _ path: String) -> String? {
        let trimmed = text.trimmingWhitespace().lowercased()
        let digits = trimmed.prefix { "0123456789.+-".contains($0) }
        guard !digits.isEmpty, let n = Double(digits), n.isFinite else { return nil }
        let unit = trimmed.dropFirst(digits.count).trimmingWhitespace()
        let key = path.split(separator: ".").last.map(String.init) ?? ""
        let seconds = Self.secondsKeys.contains(key)
        let (what, example): (String, Double)
        let secondUnits: Set<String> = ["s", "sec", "secs", "second", "seconds"]
        switch unit {
        case _ where secondUnits.contains(unit) && seconds:
            (what, example) = ("a number of seconds", n)
        case "ms" where seconds:
            (what, example) = ("a number of seconds", n / 1000)
        case _ where secondUnits.contains(unit) || unit == "ms":
            (what, example) = ("a number", n)
        case "px", "pt", "pts", "points":
            (what, example) = ("a number of points", n)
        case "deg", "°":
            (what, example) = ("a number of degrees", n)
        case "%":
            (what, example) = ("a number (a fraction 0…1 where the key takes one)", n / 100)
        default:
            return nil
        }
        return "expected \(what) without a unit, e.g. \(formatNumber(example)), found \"\(text)\""
    }

    /// The box of the text layer named `layer`, measured on first use; nil when there is no
    /// such layer (before this point), no measurer, or its font cannot be loaded.
    private func measure(_ layer: String) -> TextMeasurement? {
        if let box = textMeasurements[layer] { return box }
        guard !unmeasuredTextLayers.contains(layer), let measureText, let text = measurableText[layer],
            let box = measureText(text.string, text.content)
        else { return nil }
        textMeasurements[layer] = box
        return box
    }

    /// The value of `@layer.width` or `@layer.height`, when that text layer was measured.
    private func measurement(_ reference: String) -> Double? {
        let parts = reference.dropFirst().split(separator: ".")
        guard parts.count == 2, let box = textMeasurements[String(parts[0])] else { return nil }
        return parts[1] == "width" ? box.width : box.height
    }

    func unknownMeasurementMessage(_ layer: String) -> String {
        if measureText == nil {
            return "@\(layer) measures text, which needs the renderer's fonts; this caller decodes without them"
        }
        if let text = measurableText[layer] {
            return
                "cannot measure the text of \"\(layer)\": no font for family \"\(text.content.fontFamily)\" could be loaded"
        }
        if let type = namedLayerTypes[layer], type != "text" {
            return
                "\"\(layer)\" is a \(type) layer; @NAME.width and @NAME.height measure text layers only"
        }
        var message =
            "no text layer named \"\(layer)\" before this value (@NAME.width measures a text layer named earlier in the file)"
        if let near = suggestion(for: layer, among: measurableText.keys.sorted()) {
            message += "; did you mean @\(near)?"
        }
        return message
    }

    /// The parenthesised hint after a bare word in a numeric expression (`"fps": "thirty"`):
    /// `$word` when the preset declares that parameter, the nearest declared one when there is
    /// one, else that numbers are written in digits.
    func bareWordHint(_ word: String) -> String {
        if parameters[word] != nil { return "a parameter is written $\(word)" }
        if let near = suggestion(for: word, among: Array(parameters.keys).sorted()) {
            return "not a number, nor a parameter: did you mean $\(near)?"
        }
        return "numbers are written in digits; the preset has no parameter \(word)"
    }

    func unknownParameterMessage(_ name: String) -> String {
        var message = "unknown parameter $\(name)"
        if let near = suggestion(for: name, among: Array(parameters.keys).sorted()) {
            message += "; did you mean $\(near)?"
        } else if parameters.isEmpty {
            message += " (the preset declares no params)"
        }
        return message
    }

    func string(_ value: JSONValue, _ path: String) -> String? {
        if case .string(let s) = value.kind { return s }
        error(path, value.location, "expected a string, found \(value.shortDescription)")
        return nil
    }

    func bool(_ value: JSONValue, _ path: String) -> Bool? {
        if case .bool(let b) = value.kind { return b }
        if case .string(let s) = value.kind, s.hasPrefix("$") {
            let name = String(s.dropFirst())
            switch parameters[name] {
            case .bool(let b)?: return b
            case let other?:
                error(
                    path, value.location, "parameter $\(name) is a \(other.typeName), but true or false is needed here")
                return nil
            case nil:
                if !brokenParameters.contains(name) { error(path, value.location, unknownParameterMessage(name)) }
                return nil
            }
        }
        error(path, value.location, "expected true or false, found \(value.shortDescription)")
        return nil
    }

    /// A colour string (`#RRGGBB`, `#RRGGBBAA`, `#RGB`, `#RGBA`, a name) or `$param` of colour type.
    func color(_ value: JSONValue, _ path: String) -> RGBAColor? {
        guard case .string(let text) = value.kind else {
            error(
                path, value.location,
                "expected a colour (\(RGBAColor.acceptedColorForms)), found \(value.shortDescription)")
            return nil
        }
        if text.hasPrefix("$") {
            let name = String(text.dropFirst())
            switch parameters[name] {
            case .color(let c)?:
                parameterUses[path] = name
                return c
            case .string(let s)?:
                if let c = RGBAColor(parsing: s) { return c }
                var message = "parameter $\(name) holds \"\(s)\", which is not a colour"
                if let near = RGBAColor.nearColorName(s) { message += "; did you mean \"\(near)\"?" }
                error(path, value.location, message)
                return nil
            case let other?:
                error(path, value.location, "parameter $\(name) is a \(other.typeName), but a colour is needed here")
                return nil
            case nil:
                if !brokenParameters.contains(name) { error(path, value.location, unknownParameterMessage(name)) }
                return nil
            }
        }
        if let c = RGBAColor(parsing: text) { return c }
        var message = "expected a colour (\(RGBAColor.acceptedColorForms)), found \"\(text)\""
        if let near = RGBAColor.nearColorName(text) {
            message += "; did you mean \"\(near)\"?"
        }
        error(path, value.location, message)
        return nil
    }

    /// `[x, y]`, each a number or an expression.
    func point(_ value: JSONValue, _ path: String) -> Point? {
        guard case .array(let items) = value.kind, items.count == 2 else {
            error(path, value.location, "expected a point [x, y], found \(value.shortDescription)")
            return nil
        }
        let x = number(items[0], path + "[0]")
        let y = number(items[1], path + "[1]")
        guard let x, let y else { return nil }
        return Point(x: x, y: y)
    }

    /// A number (both axes) or `[x, y]`.
    func scale(_ value: JSONValue, _ path: String) -> Point? {
        if case .array = value.kind { return point(value, path) }
        guard let n = number(value, path) else { return nil }
        return Point(x: n, y: n)
    }

    /// One of `cases`' raw values; the message lists them and suggests the nearest.
    func enumeration<E: RawRepresentable & CaseIterable>(
        _ value: JSONValue, _ path: String, as _: E.Type
    ) -> E? where E.RawValue == String {
        let names = E.allCases.map(\.rawValue)
        guard case .string(let s) = value.kind else {
            error(path, value.location, "expected one of \(names.quotedList), found \(value.shortDescription)")
            return nil
        }
        if let e = E(rawValue: s) { return e }
        var message = "expected one of \(names.quotedList), found \"\(abbreviated(s))\""
        if let near = suggestion(for: s, among: names) { message += "; did you mean \"\(near)\"?" }
        error(path, value.location, message)
        return nil
    }

    /// An array; reports and returns nil for anything else.
    func array(_ value: JSONValue, _ path: String, of what: String) -> [JSONValue]? {
        if case .array(let items) = value.kind { return items }
        error(path, value.location, "expected an array of \(what), found \(value.shortDescription)")
        return nil
    }

    /// An object reader; reports and returns nil for anything but an object.
    func object(_ value: JSONValue, _ path: String, what: String) -> ObjectReader? {
        if case .object(let o) = value.kind {
            return ObjectReader(object: o, location: value.location, path: path, context: self)
        }
        error(path, value.location, "expected \(what), found \(value.shortDescription)")
        return nil
    }
}

/// Reads members of one JSON object and, at `finish`, reports every key that nothing read as
/// unknown (with a "did you mean").
final class ObjectReader {
    let object: JSONObject
    let location: SourceLocation
    let path: String
    let context: DecodeContext
    private var used: Set<String> = []
    /// Required keys found missing, with the error reported for each: a misspelling of one
    /// (`raduis`) is then reported once, as the unknown key with its suggestion.
    private var missing: [String: Diagnostic] = [:]

    init(object: JSONObject, location: SourceLocation, path: String, context: DecodeContext) {
        self.object = object
        self.location = location
        self.path = path
        self.context = context
    }

    /// JSONPath of a member.
    func path(_ key: String) -> String {
        let simple =
            key.first.map { $0.isLetter || $0 == "_" || $0 == "$" } ?? false
            && key.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "$" }
        return simple ? "\(path).\(key)" : "\(path)['\(key)']"
    }

    /// The member's value, marking the key as known.
    func value(_ key: String) -> JSONValue? {
        used.insert(key)
        guard let found = object[key] else { return nil }
        context.locations[path(key)] = found.location
        return found
    }

    /// Marks keys as known without reading them (e.g. `$schema`).
    func ignore(_ keys: String...) { used.formUnion(keys) }

    /// The member's value, or an error that it is missing.
    func required(_ key: String, expected: String) -> JSONValue? {
        if let v = value(key) { return v }
        context.error(path, location, "missing required key \"\(key)\" (\(expected))")
        missing[key] = context.diagnostics.last
        return nil
    }

    func number(_ key: String) -> Double? {
        value(key).flatMap { context.number($0, path(key)) }
    }

    func number(_ key: String, where valid: (Double) -> Bool, expected: String) -> Double? {
        value(key).flatMap { context.number($0, path(key), where: valid, expected: expected) }
    }

    func point(_ key: String) -> Point? { value(key).flatMap { context.point($0, path(key)) } }
    func color(_ key: String) -> RGBAColor? { value(key).flatMap { context.color($0, path(key)) } }
    func string(_ key: String) -> String? { value(key).flatMap { context.string($0, path(key)) } }
    func bool(_ key: String) -> Bool? { value(key).flatMap { context.bool($0, path(key)) } }

    /// Reports every member no reader asked for. `known` lists the keys valid here (for the
    /// suggestion); `misplaced` maps keys valid elsewhere to a hint about where they belong.
    func finish(context what: String, known: [String], misplaced: [String: String] = [:]) {
        for member in object.members where !used.contains(member.key) {
            let shown = abbreviated(member.key)
            var message = "unknown key \"\(shown)\" in \(what)"
            if let hint = misplaced[member.key] {
                message = "key \"\(shown)\" does not apply to \(what): \(hint)"
            } else if let near = suggestion(for: member.key, among: known) {
                message += "; did you mean \"\(near)\"?"
                if let twin = missing[near] {
                    // One typo, one error: the missing key is the one this names.
                    context.remove(twin)
                    missing[near] = nil
                    message += " (\"\(near)\" is required)"
                }
            }
            context.error(self.path(shown), member.keyLocation, message)
        }
    }
}

extension Array where Element == String {
    /// `"a", "b" or "c"` for messages.
    var quotedList: String {
        let quoted = map { "\"\($0)\"" }
        guard quoted.count > 1 else { return quoted.first ?? "" }
        return quoted.dropLast().joined(separator: ", ") + " or " + (quoted.last ?? "")
    }
}
