// SPDX-License-Identifier: GPL-3.0-or-later

import Geometry
import Glibc

extension PresetDecoder {
    static let timingKeys = [
        "beginTime", "duration", "repeatCount", "repeatDuration", "autoreverses", "speed",
        "timingFunction", "fillMode", "style", "delay",
    ]
    static let basicKeys = ["keyPath", "fromValue", "toValue", "byValue"]
    static let keyframeKeys = ["keyPath", "values", "keyTimes", "timingFunctions", "calculationMode"]
    static let groupKeys = ["animations"]
    static let pathKeys = ["keyPath", "path", "calculationMode", "rotationMode"]
    /// Most keyframe values in `cubicPaced` mode (see `keyframes`).
    static let maximumCubicPacedValues = 1000

    /// Decodes one animation for a layer whose model values are `layer`.
    /// `inheritedDuration` is the enclosing group's duration (children without their own
    /// `duration` take it), or nil at the top level where `duration` is required.
    func decodeAnimation(
        _ value: JSONValue, _ path: String, layer: LayerState, inheritedDuration: Double?
    ) -> Animation? {
        guard let o = context.object(value, path, what: "an animation object") else { return nil }
        let isGroup = o.object["animations"] != nil
        let isPath = !isGroup && o.object["path"] != nil
        let isKeyframes = !isGroup && !isPath && o.object["values"] != nil
        let style =
            o.value("style").flatMap { context.enumeration($0, o.path("style"), as: AnimationStyle.self) }
            ?? .coreAnimation
        if style == .swiftUI, isGroup || inheritedDuration != nil {
            context.error(
                o.path("style"), o.object["style"]?.location,
                "animation groups and their children follow Core Animation; style \"swiftUI\" applies to top-level animations"
            )
        }
        let timingFunction = o.value("timingFunction").flatMap { timing($0, o.path("timingFunction")) } ?? .linear

        // Timing (CAMediaTiming).
        let beginTime = o.number("beginTime", where: { $0.isFinite }, expected: "seconds") ?? 0
        var duration = o.number("duration", where: { $0 > 0 && $0 <= 3600 }, expected: "a duration in seconds > 0")
        if duration == nil, o.object["duration"] == nil {
            if let inheritedDuration {
                duration = inheritedDuration
            } else if let spring = timingFunction.spring {
                // A spring leg lasts until it settles (semantics §2.4), rounded up to a whole
                // millisecond so that repeating it gives an exact loop period.
                let settle = spring.settlingDuration()
                duration = (settle * 1000).rounded(.up) / 1000
                if settle >= Spring.settlingLimit {
                    context.lint(
                        "spring-unsettled", o.path("timingFunction"), o.object["timingFunction"]?.location,
                        "the spring is still \(formatNumber((abs(1 - spring.value(at: Spring.settlingLimit)) * 1000).rounded() / 1000)) short of its end after \(formatNumber(Spring.settlingLimit)) s (damping ratio \(formatNumber((spring.dampingRatio * 100).rounded() / 100))), so each leg lasts \(formatNumber(Spring.settlingLimit)) s and ends with a jump; set \"duration\""
                    )
                }
            } else {
                context.error(
                    path, o.location,
                    "missing required key \"duration\" (seconds > 0); Core Animation's implicit 0.25 s is not assumed")
            }
        }
        var repeatCount = 1.0
        if let v = o.value("repeatCount") {
            if case .string(let s) = v.kind, s == "infinity" {
                repeatCount = .infinity
            } else if let hint = Self.repeatForeverHint(v, expected: "a count ≥ 0 or \"infinity\"") {
                context.error(o.path("repeatCount"), v.location, hint)
            } else if case .string(let s) = v.kind, !s.contains("$"), Double(s) == nil {
                context.error(
                    o.path("repeatCount"), v.location, "expected a count ≥ 0 or \"infinity\", found \"\(s)\"")
            } else if let n = context.number(
                v, o.path("repeatCount"), where: { $0 >= 0 }, expected: "a count ≥ 0 or \"infinity\"")
            {
                // Core Animation: 0 means "not set", i.e. one pass.
                repeatCount = n == 0 ? 1 : n
            }
        }
        let repeatDuration = o.number("repeatDuration", where: { $0 > 0 }, expected: "seconds > 0")
        if repeatDuration != nil, style == .swiftUI {
            context.error(
                o.path("repeatDuration"), o.object["repeatDuration"]?.location,
                "repeatDuration is Core Animation's; with style \"swiftUI\" give repeatCount (legs)")
        }
        var delay = 0.0
        if let dv = o.value("delay") {
            if style != .swiftUI {
                context.error(
                    o.path("delay"), dv.location,
                    "delay is SwiftUI's hold at the start of every leg and needs \"style\": \"swiftUI\"; for a one-off start delay use beginTime"
                )
            } else if let d = context.number(
                dv, o.path("delay"), where: { $0 >= 0 && $0 <= 600 }, expected: "seconds ≥ 0")
            {
                delay = d
            }
        }
        if repeatDuration != nil, o.object["repeatCount"] != nil {
            context.error(
                o.path("repeatDuration"), o.object["repeatDuration"]?.location,
                "set repeatCount or repeatDuration, not both (Core Animation leaves the combination undefined)")
        }
        let autoreverses = o.bool("autoreverses") ?? false
        let speed = o.number("speed", where: { $0 > 0 && $0 <= 1000 }, expected: "a speed > 0") ?? 1
        if style == .swiftUI, let fv = o.object["fillMode"] {
            context.lint(
                "ignored-key", o.path("fillMode"), fv.location,
                "fillMode is ignored with style \"swiftUI\" (SwiftUI shows the from value before and the to value after)"
            )
        }
        let fillMode =
            o.value("fillMode").flatMap { context.enumeration($0, o.path("fillMode"), as: FillMode.self) } ?? .removed

        var content: AnimationContent?
        let known: [String]
        if isGroup {
            known = Self.timingKeys + Self.groupKeys
            var children: [Animation] = []
            if let v = o.value("animations"), let items = context.array(v, o.path("animations"), of: "animations") {
                for (i, item) in items.enumerated() {
                    if let child = decodeAnimation(
                        item, "\(o.path("animations"))[\(i)]", layer: layer,
                        inheritedDuration: duration ?? 1)
                    {
                        children.append(child)
                    }
                }
            }
            content = .group(children)
            if let groupDuration = duration, case .array(let items)? = o.object["animations"]?.kind {
                for (child, item) in zip(children, items) {
                    let end = child.beginTime + child.activeDuration / child.speed
                    if end > groupDuration + 1e-9 {
                        let runs = end.isInfinite ? "repeats forever" : "runs until \(formatNumber(end)) s"
                        context.lint(
                            "group-clips-child", o.path("animations"), item.location,
                            "this child \(runs) but the group lasts \(formatNumber(groupDuration)) s; Core Animation cuts children off at the group's duration (it does not scale them)"
                        )
                    }
                }
            }
            o.finish(
                context: "an animation group", known: known,
                misplaced: ["keyPath": "a group has no keyPath; its children do"])
        } else if isPath {
            known = Self.timingKeys + Self.pathKeys
            content = pathAnimation(o, layer: layer).map { .path($0) }
            o.finish(
                context: "a path animation", known: known,
                misplaced: [
                    "values":
                        "a path animation moves along \"path\"; values are ignored by Core Animation when a path is set",
                    "keyTimes": "keyTimes are not used with a path here; use calculationMode paced or linear",
                ])
        } else if isKeyframes {
            known = Self.timingKeys + Self.keyframeKeys
            if let property = keyPath(o, layer: layer) {
                content = keyframes(o, property: property).map {
                    .keyframes(property: property, keyframes: $0)
                }
            } else {
                o.ignore("values", "keyTimes", "timingFunctions", "calculationMode")
            }
            o.finish(
                context: "a keyframe animation", known: known,
                misplaced: [
                    "fromValue": "a keyframe animation uses values; fromValue belongs to a basic animation",
                    "toValue": "a keyframe animation uses values; toValue belongs to a basic animation",
                ])
        } else {
            known = Self.timingKeys + Self.basicKeys
            if let property = keyPath(o, layer: layer) {
                content = basic(o, property: property, layer: layer)
            } else {
                o.ignore("fromValue", "toValue", "byValue")
            }
            o.finish(
                context: "an animation", known: known + ["values", "animations"],
                misplaced: [
                    "keyTimes": "keyTimes need \"values\" (a keyframe animation)",
                    "timingFunctions":
                        "timingFunctions need \"values\" (a keyframe animation); a basic animation takes one timingFunction",
                    "calculationMode": "calculationMode needs \"values\" (a keyframe animation)",
                ])
        }
        guard let content, let duration else { return nil }
        if case .basic(let property, let from, let to) = content, property == .strokeStart || property == .strokeEnd {
            lintStrokeRange([from, to], o.path("fromValue"), o.location)
        }
        if case .keyframes(let property, let k) = content, property == .strokeStart || property == .strokeEnd {
            lintStrokeRange(k.values, o.path("values"), o.object["values"]?.location)
        }
        // Parity by remainder, not `Int(repeatCount)`: a count of 1e19 is whole and even but no Int.
        if style == .swiftUI, autoreverses, repeatCount.isFinite, repeatCount == repeatCount.rounded(),
            repeatCount.truncatingRemainder(dividingBy: 2) == 0
        {
            context.lint(
                "autoreverse-snap", o.path("repeatCount"), o.object["repeatCount"]?.location,
                "an even repeatCount (\(formatNumber(repeatCount)) legs) with autoreverses ends back at the from value, then SwiftUI shows the to value: a visible jump; use an odd count or repeatForever"
            )
        }
        if let spring = timingFunction.spring, o.object["duration"] != nil {
            let settle = spring.settlingDuration()
            if duration < settle - 0.001 {
                context.lint(
                    "spring-cut", o.path("duration"), o.object["duration"]?.location,
                    "the spring settles after \(formatNumber((settle * 1000).rounded() / 1000)) s but the duration is \(formatNumber(duration)) s, so each leg ends with a jump to the end value"
                )
            }
        }
        context.locations[path] = value.location
        return Animation(
            content: content, beginTime: beginTime, duration: duration, repeatCount: repeatCount,
            repeatDuration: repeatDuration, autoreverses: autoreverses, speed: speed,
            timingFunction: timingFunction, fillMode: fillMode, style: style, delay: delay, sourcePath: path)
    }

    /// The message for a `repeatCount` that means "forever" in another API's spelling: `-1`
    /// (Lottie, Android's `ValueAnimator.INFINITE`), `"forever"`, `"inf"`, `".infinity"`,
    /// `"repeatForever"`, `"infinite"` (CSS) or `"∞"`. The format writes `"infinity"` (Core
    /// Animation's `HUGE_VALF`, SwiftUI's `repeatForever`). nil for anything else.
    static func repeatForeverHint(_ v: JSONValue, expected: String) -> String? {
        switch v.kind {
        case .number(let n) where n == -1:
            return
                "expected \(expected), found -1; a repeat without end is \"infinity\" (Core Animation's HUGE_VALF, SwiftUI's repeatForever)"
        case .string(let s):
            let folded = s.lowercased().filter { $0.isLetter || $0 == "∞" }
            guard folded.hasPrefix("inf") || folded.contains("forever") || folded == "∞" || s == "-1" else {
                return nil
            }
            return "expected \(expected), found \"\(abbreviated(s))\"; did you mean \"infinity\"?"
        default:
            return nil
        }
    }

    private func lintStrokeRange(_ values: [AnimatableValue], _ path: String, _ location: SourceLocation?) {
        let outside = values.compactMap { v -> Double? in
            if case .number(let n) = v, n < 0 || n > 1 { return n }
            return nil
        }
        guard let first = outside.first else { return }
        context.lint(
            "stroke-range", path, location,
            "stroke value \(formatNumber(first)) lies outside 0…1; it relies on clamping when drawn (undocumented in Core Animation)"
        )
    }

    /// A CAKeyframeAnimation with `path`: position along SVG path data or along an earlier
    /// layer's outline (`"@name"`, as it appears in that layer's parent).
    private func pathAnimation(_ o: ObjectReader, layer: LayerState) -> PathAnimation? {
        if let kv = o.value("keyPath") {
            if case .string(let s) = kv.kind, s == "position" {
                // the only key path a path drives
            } else {
                context.error(
                    o.path("keyPath"), kv.location, "a path animation drives \"position\", found \(kv.shortDescription)"
                )
            }
        }
        guard let pv = o.value("path"), let text = context.string(pv, o.path("path")) else { return nil }
        var path: BezierPath?
        if text.hasPrefix("@") {
            let name = String(text.dropFirst())
            if let found = context.namedPaths[name] {
                path = found
            } else {
                var message =
                    "no shape layer named \"\(name)\" before this animation (a path reference names an earlier layer)"
                if let near = suggestion(for: name, among: context.namedPaths.keys.sorted()) {
                    message += "; did you mean \"@\(near)\"?"
                }
                context.error(o.path("path"), pv.location, message)
            }
        } else {
            do {
                path = try BezierPath(svgPathData: text)
            } catch {
                context.error(o.path("path"), pv.location, "invalid SVG path data: \(error.message)")
            }
        }
        let mode =
            o.value("calculationMode").flatMap {
                context.enumeration($0, o.path("calculationMode"), as: CalculationMode.self)
            } ?? .linear
        if mode == .discrete {
            context.error(
                o.path("calculationMode"), o.object["calculationMode"]?.location,
                "a path animation moves continuously; use paced, linear, cubic or cubicPaced")
            return nil
        }
        let rotation = o.value("rotationMode").flatMap {
            context.enumeration($0, o.path("rotationMode"), as: RotationMode.self)
        }
        guard let path else { return nil }
        guard PathMeasure(path).length > 0 else {
            context.error(o.path("path"), pv.location, "the path has no length to move along")
            return nil
        }
        return PathAnimation(path: path, calculationMode: mode, rotationMode: rotation)
    }

    private func keyPath(_ o: ObjectReader, layer: LayerState) -> AnimatableProperty? {
        guard let v = o.required("keyPath", expected: "the property to animate, e.g. \"strokeEnd\""),
            let s = context.string(v, o.path("keyPath"))
        else { return nil }
        let radians = ["transform.rotation", "transform.rotation.z"]
        if radians.contains(s) {
            context.error(
                o.path("keyPath"), v.location,
                "\"\(s)\" takes radians in Core Animation; presets use \"rotation\" in degrees")
            return nil
        }
        let alias = AnimatableProperty.keyPathAliases.first { $0.alias == s }?.keyPath
        guard let property = AnimatableProperty(keyPath: alias ?? s) else {
            var message = "unknown keyPath \"\(s)\""
            let valid = AnimatableProperty.keyPaths(
                for: layer.shape, rotation3DCount: layer.rotation3D.count, valueNames: Array(layer.values.keys))
            if let near = suggestion(for: s, among: valid + AnimatableProperty.knownKeyPaths) {
                message += "; did you mean \"\(near)\"?"
            } else {
                message += "; \(layer.shape.kindName) layers animate \(valid.quotedList)"
            }
            context.error(o.path("keyPath"), v.location, message)
            return nil
        }
        guard property.applies(to: layer.shape) else {
            context.error(
                o.path("keyPath"), v.location, "keyPath \"\(s)\" does not exist on \(layer.shape.kindName) layers")
            return nil
        }
        switch property {
        case .rotation3DAngle(let i) where i >= layer.rotation3D.count:
            let have = layer.rotation3D.count
            context.error(
                o.path("keyPath"), v.location,
                "keyPath \"\(s)\" needs rotation3D effect \(i) but the layer has \(have == 0 ? "no rotation3D" : "\(have)")"
            )
            return nil
        case .value(let name) where layer.values[name] == nil:
            var message = "keyPath \"\(s)\": the text layer declares no value \"\(name)\" in \"values\""
            if let near = suggestion(for: name, among: layer.values.keys.sorted()) {
                message += "; did you mean \"values.\(near)\"?"
            }
            context.error(o.path("keyPath"), v.location, message)
            return nil
        default:
            return property
        }
    }

    /// A value of the key path's kind.
    func animatableValue(_ v: JSONValue, _ path: String, kind: AnimatableValueKind) -> AnimatableValue? {
        switch kind {
        case .number: context.number(v, path).map { .number($0) }
        case .point: context.point(v, path).map { .point($0) }
        case .scale: context.scale(v, path).map { .point($0) }
        case .color: context.color(v, path).map { .color($0) }
        case .bool: context.bool(v, path).map { .bool($0) }
        }
    }

    private func basic(_ o: ObjectReader, property: AnimatableProperty, layer: LayerState) -> AnimationContent? {
        let kind = property.valueKind
        let from = o.value("fromValue").flatMap { animatableValue($0, o.path("fromValue"), kind: kind) }
        let to = o.value("toValue").flatMap { animatableValue($0, o.path("toValue"), kind: kind) }
        let by = o.value("byValue").flatMap { animatableValue($0, o.path("byValue"), kind: kind) }
        let given = ["fromValue", "toValue", "byValue"].filter { o.object[$0] != nil }
        if given.isEmpty {
            context.error(
                o.path, o.location, "an animation needs toValue (and usually fromValue), or \"values\" for keyframes")
            return nil
        }
        if given.count == 3 {
            context.error(
                o.path("byValue"), o.object["byValue"]?.location, "give at most two of fromValue, toValue and byValue")
            return nil
        }
        if by != nil, kind == .color || kind == .bool {
            context.error(
                o.path("byValue"), o.object["byValue"]?.location,
                "byValue needs a number or point key path, not \(kind.rawValue)")
            return nil
        }
        // A given-but-invalid value was already reported.
        if given.contains("fromValue") && from == nil || given.contains("toValue") && to == nil
            || given.contains("byValue") && by == nil
        {
            return nil
        }
        // Core Animation's from/to/by rules (semantics §4.2); the "current" value is the model value.
        let model = property.value(in: layer)
        let ends: (AnimatableValue, AnimatableValue)
        switch (from, to, by) {
        case let (f?, t?, nil): ends = (f, t)
        case let (f?, nil, b?): ends = (f, f.adding(b))
        case let (nil, t?, b?): ends = (t.adding(b, sign: -1), t)
        case let (f?, nil, nil): ends = (f, model)
        case let (nil, t?, nil): ends = (model, t)
        case let (nil, nil, b?): ends = (model, model.adding(b))
        default: return nil
        }
        // Each end is blamed on the key that produced it (a derived end on byValue).
        let fromKey = from != nil ? "fromValue" : "byValue"
        let toKey = to != nil ? "toValue" : "byValue"
        let fromOK = from == nil && by == nil || inRange(ends.0, property, o.path(fromKey), o.object[fromKey]?.location)
        let toOK = to == nil && by == nil || inRange(ends.1, property, o.path(toKey), o.object[toKey]?.location)
        guard fromOK, toOK else { return nil }
        return .basic(property: property, from: ends.0, to: ends.1)
    }

    /// The range a property's value must lie in, as its static key checks it (`opacity` 0…1,
    /// `lineWidth` ≥ 0, …), so an animated value obeys the rule a written one does; nil for
    /// properties any number suits (strokeStart/strokeEnd are clamped when drawn, with a lint).
    static func valueRange(of property: AnimatableProperty) -> (valid: (Double) -> Bool, expected: String)? {
        switch property {
        case .opacity: ({ $0 >= 0 && $0 <= 1 }, "an opacity in 0…1")
        case .lineWidth: ({ $0 >= 0 }, "a line width in points ≥ 0")
        case .miterLimit: ({ $0 >= 1 }, "a miter limit ≥ 1")
        case .radius: ({ $0 >= 0 }, "a radius in points ≥ 0")
        case .cornerRadius: ({ $0 >= 0 }, "a corner radius ≥ 0")
        case .size: ({ $0 >= 0 }, "a size [width, height] with both ≥ 0")
        case .sizeWidth: ({ $0 >= 0 }, "a width in points ≥ 0")
        case .sizeHeight: ({ $0 >= 0 }, "a height in points ≥ 0")
        default: nil
        }
    }

    /// Whether an animated `value` of `property` lies in the property's range; reports it at
    /// `path` (with `note` appended) when not, unless `path` is nil.
    func inRange(
        _ value: AnimatableValue, _ property: AnimatableProperty, _ path: String?, _ location: SourceLocation?,
        note: String = ""
    ) -> Bool {
        guard let range = Self.valueRange(of: property) else { return true }
        let found: String
        switch value {
        case .number(let n) where !range.valid(n):
            found = formatNumber(n)
        case .point(let p) where !range.valid(p.x) || !range.valid(p.y):
            found = "[\(formatNumber(p.x)), \(formatNumber(p.y))]"
        default:
            return true
        }
        if let path { context.error(path, location, "expected \(range.expected), found \(found)\(note)") }
        return false
    }

    private func keyframes(_ o: ObjectReader, property: AnimatableProperty) -> Keyframes? {
        let mode =
            o.value("calculationMode").flatMap {
                context.enumeration($0, o.path("calculationMode"), as: CalculationMode.self)
            } ?? .linear
        guard let v = o.value("values"), let items = context.array(v, o.path("values"), of: "keyframe values") else {
            return nil
        }
        let values = items.enumerated().compactMap { i, item in
            animatableValue(item, "\(o.path("values"))[\(i)]", kind: property.valueKind)
        }
        guard values.count == items.count else { return nil }
        let n = values.count
        let minimum = mode == .discrete ? 1 : 2
        guard n >= minimum else {
            context.error(
                o.path("values"), v.location,
                "expected at least \(minimum) values for calculationMode \(mode.rawValue), found \(n)")
            return nil
        }

        var keyTimes: [Double] = []
        var timingFunctions: [TimingFunction] = []
        switch mode {
        case .linear, .discrete, .cubic:
            let expectedCount = mode == .discrete ? n + 1 : n
            if let kv = o.value("keyTimes") {
                guard let kt = keyTimeArray(kv, o.path("keyTimes")) else { return nil }
                guard kt.count == expectedCount else {
                    let rule =
                        mode == .discrete
                        ? "one more than values in discrete mode (value i holds from keyTimes[i] to keyTimes[i+1])"
                        : "one per value"
                    context.error(
                        o.path("keyTimes"), kv.location,
                        "expected \(expectedCount) keyTimes (\(rule)), found \(kt.count)")
                    return nil
                }
                keyTimes = kt
            } else {
                let steps = Double(expectedCount - 1)
                keyTimes = (0..<expectedCount).map { Double($0) / steps }
            }
            if let tv = o.value("timingFunctions") {
                if mode == .discrete {
                    context.lint(
                        "ignored-key", o.path("timingFunctions"), tv.location,
                        "timingFunctions are ignored in discrete mode")
                } else if let arr = context.array(tv, o.path("timingFunctions"), of: "timing functions") {
                    let fns = arr.enumerated().compactMap { i, item in
                        timing(item, "\(o.path("timingFunctions"))[\(i)]")
                    }
                    guard fns.count == arr.count else { return nil }
                    guard fns.count == n - 1 else {
                        context.error(
                            o.path("timingFunctions"), tv.location,
                            "expected \(n - 1) timingFunctions (one per segment between \(n) values), found \(fns.count)"
                        )
                        return nil
                    }
                    timingFunctions = fns
                }
            }
            if timingFunctions.isEmpty, mode != .discrete {
                timingFunctions = Array(repeating: .linear, count: n - 1)
            }
        case .paced, .cubicPaced:
            // cubicPaced re-measures its spline (64 samples a segment) at every evaluation, so a
            // long list would cost every frame that much: a thousand values is 64 000 samples.
            if mode == .cubicPaced, n > Self.maximumCubicPacedValues {
                context.error(
                    o.path("values"), v.location,
                    "cubicPaced takes at most \(Self.maximumCubicPacedValues) values (each frame measures the whole spline), found \(n)"
                )
                return nil
            }
            for key in ["keyTimes", "timingFunctions"] {
                if let ignored = o.value(key) {
                    context.lint(
                        "ignored-key", o.path(key), ignored.location,
                        "\(key) are ignored in \(mode.rawValue) mode (Core Animation paces the keyframes by distance)")
                }
            }
            guard let times = Self.pacedKeyTimes(values) else {
                context.error(
                    o.path("values"), v.location,
                    "\(mode.rawValue) mode needs values that differ and can be measured (numbers, points or colours)")
                return nil
            }
            // paced: key times proportional to the distance between values. cubicPaced: the
            // Catmull-Rom spline through the values with evenly spaced knots, which the
            // evaluator then traverses at constant speed (its own arc-length table).
            keyTimes = mode == .paced ? times : (0..<n).map { Double($0) / Double(n - 1) }
            timingFunctions = Array(repeating: .linear, count: n - 1)
        }
        // After the list's own checks: the first value out of the property's range, once.
        if let i = values.indices.first(where: { !inRange(values[$0], property, nil, nil) }) {
            let others = values.indices.dropFirst(i + 1).filter { !inRange(values[$0], property, nil, nil) }.count
            _ = inRange(
                values[i], property, "\(o.path("values"))[\(i)]", items[i].location,
                note: others == 0 ? "" : " (and \(others) later values out of range)")
            return nil
        }
        return Keyframes(values: values, keyTimes: keyTimes, timingFunctions: timingFunctions, calculationMode: mode)
    }

    private func keyTimeArray(_ v: JSONValue, _ path: String) -> [Double]? {
        guard let items = context.array(v, path, of: "key times in 0…1") else { return nil }
        let times = items.enumerated().compactMap { i, item in
            context.number(item, "\(path)[\(i)]", where: { $0 >= 0 && $0 <= 1 }, expected: "a key time in 0…1")
        }
        guard times.count == items.count else { return nil }
        for i in 1..<max(times.count, 1) where times[i] < times[i - 1] {
            context.error(
                "\(path)[\(i)]", items[i].location,
                "keyTimes must not decrease: \(formatNumber(times[i])) comes after \(formatNumber(times[i - 1]))")
            return nil
        }
        if times.first != 0 || times.last != 1 {
            context.error(
                path, v.location, "keyTimes must start at 0 and end at 1 (Core Animation ignores them otherwise)")
            return nil
        }
        return times
    }

    /// Key times proportional to the cumulative distance between values (CAKeyframeAnimation
    /// `paced`): Euclidean for points and colours, absolute difference for numbers.
    static func pacedKeyTimes(_ values: [AnimatableValue]) -> [Double]? {
        var distances: [Double] = [0]
        for i in 1..<values.count {
            guard let d = values[i - 1].distance(to: values[i]) else { return nil }
            distances.append(distances[i - 1] + d)
        }
        guard let total = distances.last, total > 0 else { return nil }
        return distances.map { $0 / total }
    }

    /// A timing function: a name (`easeOut`) or `cubicBezier(x1, y1, x2, y2)`.
    func timing(_ v: JSONValue, _ path: String) -> TimingFunction? {
        guard case .string(let s) = v.kind else {
            context.error(
                path, v.location,
                "expected a timing function such as \"easeInOut\", \"cubicBezier(x1, y1, x2, y2)\" or \"spring\", found \(v.shortDescription)"
            )
            return nil
        }
        switch TimingFunctionSyntax.parse(s) {
        case .success(let function):
            return function
        case .failure(let problem):
            context.error(path, v.location, problem.message)
            return nil
        }
    }
}

extension AnimatableValue {
    /// `self + sign·other` for numbers and points (byValue arithmetic); other kinds unchanged.
    func adding(_ other: AnimatableValue, sign: Double = 1) -> AnimatableValue {
        switch (self, other) {
        case let (.number(a), .number(b)): .number(a + sign * b)
        case let (.point(a), .point(b)): .point(Point(x: a.x + sign * b.x, y: a.y + sign * b.y))
        default: self
        }
    }

    /// Distance used by paced keyframes: absolute difference for numbers, Euclidean for points
    /// and colour channels; nil for booleans and mismatched kinds.
    public func distance(to other: AnimatableValue) -> Double? {
        switch (self, other) {
        case let (.number(a), .number(b)): return abs(b - a)
        case let (.point(a), .point(b)): return ((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot()
        case let (.color(a), .color(b)):
            let d = [b.red - a.red, b.green - a.green, b.blue - a.blue, b.alpha - a.alpha]
            return d.map { $0 * $0 }.reduce(0, +).squareRoot()
        default: return nil
        }
    }
}

extension ShapeGeometry {
    /// The layer type's name as presets spell it.
    public var kindName: String {
        switch self {
        case .circle: "circle"
        case .ellipse: "ellipse"
        case .rect: "rect"
        case .arc: "arc"
        case .line: "line"
        case .polygon: "polygon"
        case .path: "path"
        case .group: "group"
        case .replicator: "replicator"
        case .text: "text"
        case .image: "image"
        }
    }
}
