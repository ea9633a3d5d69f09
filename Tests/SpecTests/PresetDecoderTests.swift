import Geometry
import Testing
import ToolOptions

@testable import Spec

/// Decodes preset text; fails the test when it does not decode.
private func decode(_ json: String, overrides: [String: String] = [:]) throws -> LoadedPreset {
    try PresetLoader.decode(bytes: Array(json.utf8), file: "t.json", overrides: overrides)
}

/// The diagnostics of text that must fail to decode.
private func problems(_ json: String) -> [Diagnostic] {
    do {
        _ = try decode(json)
        Issue.record("expected the preset to be rejected")
        return []
    } catch let error as PresetError {
        return error.diagnostics
    } catch {
        Issue.record("unexpected error \(error)")
        return []
    }
}

/// A minimal valid preset with `layer` as its only layer and optional extra top-level text.
private func preset(layer: String, params: String = "{}", extra: String = "") -> String {
    """
    {
      "version": 1, "name": "t", "canvas": { "width": 100, "height": 80 },
      "params": \(params),\(extra)
      "layers": [
        \(layer)
      ]
    }
    """
}

@Test func bundledCircularPresetDecodes() throws {
    let loaded = try PresetLoader.load(contentsOf: packageRoot + "/presets/circular.json")
    let c = loaded.composition
    #expect(loaded.warnings.isEmpty)
    #expect(c.name == "circular")
    #expect(c.canvas.width == 64 && c.canvas.height == 64)
    #expect(c.canvas.background == nil)
    #expect(c.canvas.matte == .white)
    #expect(c.fps == 30)
    #expect(c.layers.count == 1)
    let ring = c.layers[0]
    #expect(ring.state.shape == .circle(center: Point(x: 32, y: 32), radius: 25))
    #expect(ring.state.strokeColor?.hexString == "#007AFF")
    #expect(ring.state.lineWidth == 4)
    #expect(ring.state.lineCap == .round)
    #expect(ring.state.rotation == -90)
    // The seed's final code: no keyframes, state driven by a Timer every animationDuration and
    // an onAppear repeatForever turn (docs/swiftui-semantics.md).
    #expect(ring.animations.isEmpty)
    let machine = try #require(c.state)
    #expect(machine.variables.map(\.name) == ["first", "second", "turn"])
    #expect(machine.events.count == 3)
    guard machine.events.count == 3 else { return }
    #expect(machine.events[0].transaction.length == .infinity)
    #expect(machine.events[1].transaction == .none)
    #expect(machine.events[2].transaction.length == 2)
    // Ticks at 2, 4, 6 s: the trim state repeats every two ticks (4 s) from the third tick on,
    // beside the 4 s forever turn.
    #expect(machine.schedule.period == Rational(4))
    #expect(machine.schedule.loopStart == Rational(6))
    #expect(machine.schedule.foreverCycles == [4])
}

@Test func overridesChangeDerivedValues() throws {
    let c = try PresetLoader.load(
        contentsOf: packageRoot + "/presets/circular.json",
        overrides: ["animationDuration": "1.5", "color": "#FF3B30", "size": "128"]
    ).composition
    // The timer follows animationDuration: a 1.5 s easeOut per phase, the trim state repeating
    // every two phases (3 s), the 4 s turn on its own cycle.
    let events = try #require(c.state?.events)
    #expect(events.count == 3)
    #expect(events.last?.transaction.length == 1.5)
    #expect(c.state?.schedule.period == Rational(3))
    #expect(c.state?.schedule.foreverCycles == [4])
    #expect(c.layers[0].state.strokeColor?.hexString == "#FF3B30")
    #expect(c.canvas.width == 128)
    #expect(c.layers[0].state.shape == .circle(center: Point(x: 64, y: 64), radius: 50))
}

@Test(arguments: [
    (["nope": "1"], "the preset has no parameter \"nope\""),
    (["colr": "#FF0000"], "did you mean \"color\"?"),
    (["strokeWidth": "thick"], "expected a number"),
    (["strokeWidth": "100"], "must be at most 32"),
    (["color": "blurple"], "expected a colour"),
])
func badOverridesAreUsageErrors(overrides: [String: String], message: String) {
    #expect {
        try PresetLoader.load(contentsOf: packageRoot + "/presets/circular.json", overrides: overrides)
    } throws: { error in
        guard let e = error as? ParameterOverrideError else { return false }
        return e.message.contains(message)
    }
}

@Test func basicAnimationFromToByRules() throws {
    let loaded = try decode(
        preset(
            layer: """
                { "type": "circle", "center": [50, 40], "radius": 10, "opacity": 0.5,
                  "animations": [
                    { "keyPath": "opacity", "toValue": 1, "duration": 1 },
                    { "keyPath": "radius", "fromValue": 5, "byValue": 10, "duration": 1 },
                    { "keyPath": "position", "byValue": [10, 0], "duration": 1 },
                    { "keyPath": "scale", "fromValue": 1, "toValue": [2, 3], "duration": 1 }
                  ] }
                """))
    let a = loaded.composition.layers[0].animations.map(\.content)
    #expect(a[0] == .basic(property: .opacity, from: .number(0.5), to: .number(1)))
    #expect(a[1] == .basic(property: .radius, from: .number(5), to: .number(15)))
    #expect(a[2] == .basic(property: .position, from: .point(Point(x: 50, y: 40)), to: .point(Point(x: 60, y: 40))))
    #expect(a[3] == .basic(property: .scale, from: .point(Point(x: 1, y: 1)), to: .point(Point(x: 2, y: 3))))
}

@Test func pacedKeyframesSpaceByDistance() throws {
    let loaded = try decode(
        preset(
            layer: """
                { "type": "circle", "center": [0, 0], "radius": 1,
                  "animations": [ { "keyPath": "position", "values": [[0, 0], [30, 0], [30, 10]],
                                    "calculationMode": "paced", "duration": 2 } ] }
                """))
    guard case .keyframes(_, let k) = loaded.composition.layers[0].animations[0].content else {
        Issue.record("not keyframes")
        return
    }
    #expect(k.keyTimes == [0, 0.75, 1])
}

/// Each broken preset gives an error at this JSON path (and line:column) with this text.
@Test(arguments: [
    (
        ##"{ "type": "circle", "center": [1, 2], "radius": "thick" }"##,
        "$.layers[0].radius",
        "found 'thick' (numbers are written in digits; the preset has no parameter thick) in \"thick\""
    ),
    (
        ##"{ "type": "circle", "center": [1, 2], "radius": -1 }"##, "$.layers[0].radius",
        "expected a radius in points ≥ 0, found -1"
    ),
    (
        ##"{ "type": "circle", "center": [1], "radius": 1 }"##, "$.layers[0].center",
        "expected a point [x, y], found an array of 1"
    ),
    (##"{ "type": "circel", "center": [1, 2], "radius": 1 }"##, "$.layers[0].type", "did you mean \"circle\"?"),
    (
        ##"{ "type": "circle", "center": [1, 2], "radius": 1, "radiuss": 2 }"##, "$.layers[0].radiuss",
        "unknown key \"radiuss\" in a circle layer"
    ),
    (
        ##"{ "type": "rect", "center": [1, 2], "size": [3, 4], "radius": 2 }"##, "$.layers[0].radius",
        "it belongs to circle, arc layers"
    ),
    (
        ##"{ "type": "circle", "center": [1, 2], "radius": 1, "stroke": { "color": "bleu" } }"##,
        "$.layers[0].stroke.color", "did you mean \"blue\"?"
    ),
    (
        ##"{ "type": "circle", "center": [1, 2], "radius": 1, "stroke": { "color": "#007AFF", "lineCap": "rounded" } }"##,
        "$.layers[0].stroke.lineCap", "did you mean \"round\"?"
    ),
    (
        ##"{ "type": "circle", "center": [1, 2], "radius": 1, "stroke": { "color": "red", "lineDashPattern": [0.001, 0.002] } }"##,
        "$.layers[0].stroke.lineDashPattern", "expected dash lengths adding up to at least 0.01 points"
    ),
    (
        ##"{ "type": "circle", "center": [1, 2], "radius": 1, "stroke": { "color": "red", "lineDashPattern": [0, 0] } }"##,
        "$.layers[0].stroke.lineDashPattern", "expected at least one dash length > 0"
    ),
    (##"{ "type": "group", "fill": "red", "layers": [] }"##, "$.layers[0].fill", "groups draw nothing themselves"),
    (##"{ "type": "path", "d": "M 0 0 L x" }"##, "$.layers[0].d", "invalid SVG path data"),
    (
        ##"{ "type": "circle", "center": [1, 2], "radius": 1, "animations": [ { "keyPath": "strokeEnds", "toValue": 1, "duration": 1 } ] }"##,
        "$.layers[0].animations[0].keyPath", "did you mean \"strokeEnd\"?"
    ),
    (
        ##"{ "type": "circle", "center": [1, 2], "radius": 1, "animations": [ { "keyPath": "opacity", "toValue": 1 } ] }"##,
        "$.layers[0].animations[0]", "missing required key \"duration\""
    ),
    (
        ##"{ "type": "circle", "center": [1, 2], "radius": 1, "animations": [ { "keyPath": "transform.rotation.z", "toValue": 1, "duration": 1 } ] }"##,
        "$.layers[0].animations[0].keyPath", "takes radians"
    ),
    (
        ##"{ "type": "circle", "center": [1, 2], "radius": 1, "animations": [ { "keyPath": "cornerRadius", "toValue": 1, "duration": 1 } ] }"##,
        "$.layers[0].animations[0].keyPath", "does not exist on circle layers"
    ),
    (
        ##"{ "type": "circle", "center": [1, 2], "radius": 1, "animations": [ { "keyPath": "opacity", "values": [0, 1], "keyTimes": [0, 0.5, 1], "duration": 1 } ] }"##,
        "$.layers[0].animations[0].keyTimes", "expected 2 keyTimes (one per value), found 3"
    ),
    (
        ##"{ "type": "circle", "center": [1, 2], "radius": 1, "animations": [ { "keyPath": "opacity", "values": [0, 1], "calculationMode": "discrete", "keyTimes": [0, 1], "duration": 1 } ] }"##,
        "$.layers[0].animations[0].keyTimes", "expected 3 keyTimes (one more than values"
    ),
    (
        ##"{ "type": "circle", "center": [1, 2], "radius": 1, "animations": [ { "keyPath": "opacity", "values": [0, 1, 0], "timingFunctions": ["easeOut"], "duration": 1 } ] }"##,
        "$.layers[0].animations[0].timingFunctions", "expected 2 timingFunctions"
    ),
    (
        ##"{ "type": "circle", "center": [1, 2], "radius": 1, "animations": [ { "keyPath": "opacity", "values": [0, 1, 0], "keyTimes": [0, 0.7, 0.5], "duration": 1 } ] }"##,
        "$.layers[0].animations[0].keyTimes[2]", "keyTimes must not decrease: 0.5 comes after 0.7"
    ),
    (
        ##"{ "type": "circle", "center": [1, 2], "radius": 1, "animations": [ { "keyPath": "opacity", "toValue": 1, "duration": 1, "timingFunction": "easeInOutt" } ] }"##,
        "$.layers[0].animations[0].timingFunction", "did you mean \"easeInOut\"?"
    ),
    (
        ##"{ "type": "circle", "center": [1, 2], "radius": 1, "animations": [ { "keyPath": "opacity", "toValue": 1, "duration": 1, "timingFunction": "cubicBezier(1.5, 0, 0.5, 1)" } ] }"##,
        "$.layers[0].animations[0].timingFunction", "x1 and x2 must lie in 0…1"
    ),
    (
        ##"{ "type": "circle", "center": [1, 2], "radius": 1, "animations": [ { "keyPath": "opacity", "toValue": 1, "duration": 1, "repeatCount": 2, "repeatDuration": 3 } ] }"##,
        "$.layers[0].animations[0].repeatDuration", "not both"
    ),
    (
        ##"{ "type": "circle", "center": [1, 2], "radius": 1, "animations": [ { "keyPath": "opacity", "toValue": 1, "duration": 1, "repeatCount": "infinite" } ] }"##,
        "$.layers[0].animations[0].repeatCount", "did you mean \"infinity\"?"
    ),
    (
        ##"{ "type": "circle", "center": [1, 2], "radius": 1, "animations": [ { "keyPath": "fillColor", "byValue": "red", "duration": 1 } ] }"##,
        "$.layers[0].animations[0].byValue", "byValue needs a number or point"
    ),
])
func brokenLayerIsReportedAtItsPath(layer: String, path: String, message: String) {
    let found = problems(preset(layer: layer))
    let match = found.first { $0.path == path && $0.message.contains(message) && $0.severity == .error }
    #expect(match != nil, "got: \(found.map(\.description))")
    #expect(match?.location != nil)
    #expect(match?.file == "t.json")
}

@Test func everyProblemIsReportedInOneRun() {
    let found = problems(
        """
        {
          "version": 2, "name": "bad name", "canvas": { "width": 0, "height": 10, "colour": "red" },
          "fps": 500,
          "layers": [ { "type": "circle", "center": [1, 2], "radius": "$r" }, { "type": "blob" } ]
        }
        """)
    let paths = Set(found.map(\.path))
    #expect(
        paths.isSuperset(of: [
            "$.version", "$.name", "$.canvas.width", "$.canvas.colour", "$.fps", "$.layers[0].radius",
            "$.layers[1].type",
        ]))
    let version = found.first { $0.path == "$.version" }
    #expect(version?.location == Spec.SourceLocation(line: 2, column: 14))
    #expect(
        version?.description
            == "t.json:2:14: error: $.version: unsupported format version 2; this animexport reads version 1")
}

@Test func problemsComeInFileOrderThoughParametersAreCheckedFirst() {
    // The decoder checks "params" before the rest; the report still reads top to bottom.
    let found = problems(
        """
        {
          "version": 1, "name": "x", "fps": true,
          "canvas": { "width": 10, "height": 10 },
          "params": { "w": { "default": 1, "typ": "number" } },
          "layers": [ { "type": "circle", "center": [1, 2], "radius": "ninety" } ]
        }
        """)
    let lines = found.compactMap { $0.location?.line }
    #expect(lines == [2, 4, 5], "got: \(found.map(\.description))")
    #expect(found.map(\.path) == ["$.fps", "$.params.w.typ", "$.layers[0].radius"])
}

@Test func invalidJSONNamesTheSpot() {
    let found = problems("{\n  \"version\": 1,\n  \"name\": \"x\",\n}")
    #expect(found.count == 1)
    #expect(found.first?.location?.line == 3)
    #expect(found.first?.message.hasPrefix("invalid JSON:") == true)
}

@Test func parameterTypesAndRangesAreChecked() {
    let found = problems(
        preset(
            layer: ##"{ "type": "circle", "center": ["$c", 2], "radius": "$w * 2", "stroke": { "color": "$w" } }"##,
            params: ##"{ "w": { "default": 40, "max": 10 }, "c": { "default": "#FF0000" } }"##))
    let messages = found.map(\.message)
    #expect(messages.contains("default 40 is above max 10"))
    #expect(messages.contains { $0.contains("parameter $c is a colour, but a number is needed here") })
    #expect(messages.contains { $0.contains("parameter $w is a number, but a colour is needed here") })
}

@Test func ignoredKeyframeArraysWarn() throws {
    let loaded = try decode(
        preset(
            layer: """
                { "type": "circle", "center": [0, 0], "radius": 1,
                  "animations": [ { "keyPath": "opacity", "values": [0, 1], "keyTimes": [0, 1],
                                    "calculationMode": "paced", "duration": 1 } ] }
                """))
    #expect(loaded.warnings.count == 1)
    #expect(loaded.warnings.first?.path == "$.layers[0].animations[0].keyTimes")
}

/// Lints: legal but surprising things come back as warnings with a code, unless acknowledged.
@Test(arguments: [
    (
        ##"{ "type": "circle", "center": [1, 2], "radius": 1, "stroke": { "color": "red" }, "animations": [ { "keyPath": "strokeStart", "fromValue": -0.5, "toValue": 1, "duration": 1 } ] }"##,
        "stroke-range"
    ),
    (
        ##"{ "type": "circle", "center": [1, 2], "radius": 1, "animations": [ { "duration": 1, "animations": [ { "keyPath": "opacity", "toValue": 0, "duration": 3 } ] } ] }"##,
        "group-clips-child"
    ),
    (
        ##"{ "type": "circle", "center": [1, 2], "radius": 1, "animations": [ { "keyPath": "opacity", "toValue": 0, "duration": 1, "style": "swiftUI", "autoreverses": true, "repeatCount": 2 } ] }"##,
        "autoreverse-snap"
    ),
    (
        ##"{ "type": "circle", "center": [1, 2], "radius": 1, "animations": [ { "keyPath": "opacity", "toValue": 0, "duration": 0.3, "timingFunction": "bouncy" } ] }"##,
        "spring-cut"
    ),
])
func lintsAreWarningsWithCodes(layer: String, code: String) throws {
    let loaded = try decode(preset(layer: layer))
    #expect(loaded.warnings.map(\.lint) == [code], "\(loaded.warnings.map(\.description))")
    #expect(loaded.warnings.first?.description.hasSuffix("[\(code)]") == true)
    let allowed = try decode(preset(layer: layer, extra: " \"allowLints\": [\"\(code)\"],"))
    #expect(allowed.warnings.isEmpty)
}

@Test func fpsAbove50IsALint() throws {
    let loaded = try decode(
        preset(layer: ##"{ "type": "circle", "center": [1, 2], "radius": 1 }"##, extra: " \"fps\": 60,"))
    #expect(loaded.warnings.map(\.lint) == ["fps-above-50"])
    #expect(loaded.warnings.first?.path == "$.fps")
}

@Test func unknownLintCodeIsAnError() {
    let found = problems(
        preset(
            layer: ##"{ "type": "circle", "center": [1, 2], "radius": 1 }"##,
            extra: " \"allowLints\": [\"stroke-rang\"],"))
    #expect(found.contains { $0.path == "$.allowLints[0]" && $0.message.contains("did you mean \"stroke-range\"?") })
}

@Test func missingFontIsALintAtTheFamily() throws {
    let text = ##"{ "type": "text", "text": "Hi", "position": [1, 1], "font": { "family": "Nope Sans", "size": 12 } }"##
    let loaded = try PresetLoader.decode(
        bytes: Array(preset(layer: text).utf8), file: "t.json", fontAvailable: { $0 == "Inter" })
    #expect(loaded.warnings.map(\.lint) == ["font-missing"])
    #expect(loaded.warnings.first?.path == "$.layers[0].font.family")
    #expect(loaded.warnings.first?.location != nil)
}

@Test func aBrokenParameterDefaultIsReportedOnce() {
    let found = problems(
        preset(
            layer: ##"{ "type": "circle", "center": [1, 2], "radius": 1, "fill": "$color" }"##,
            params: ##"{ "color": { "default": "#07AFF" } }"##))
    #expect(found.count == 1, "\(found.map(\.description))")
    #expect(found.first?.path == "$.params.color.default")
}

/// One typo is one error: a misspelt required key is reported as the unknown key with its
/// suggestion, not also as the required key missing (the fresh user's `raduis`, round 15).
@Test func aMisspeltRequiredKeyIsOneError() {
    let found = problems(preset(layer: ##"{ "type": "circle", "center": [1, 2], "raduis": 1 }"##))
    #expect(found.count == 1, "\(found)")
    #expect(found.first?.path == "$.layers[0].raduis")
    #expect(
        found.first?.message.hasPrefix("unknown key \"raduis\" in ") == true
            && found.first?.message.hasSuffix("; did you mean \"radius\"? (\"radius\" is required)") == true,
        "\(found)")
    // A key missing with no near misspelling is still the missing-key error.
    let bare = problems(preset(layer: ##"{ "type": "circle", "center": [1, 2] }"##))
    #expect(bare.map(\.message).contains { $0.hasPrefix("missing required key \"radius\"") }, "\(bare)")
}
