import Geometry
import Testing

@testable import Spec

// Issue 19, "Preset format gaps met while writing presets": key paths a progress fill needs,
// measured text, one range rule for written and animated values, hints for spellings from other
// APIs, and no follow-on errors after one bad value.

/// A stand-in for the renderer's fonts: every character is `size × 0.5` wide and the line is
/// `size × 1.25` high, so expected numbers can be computed here.
private let fakeMeasurer: TextMeasurer = { string, content in
    TextMeasurement(width: Double(string.count) * content.fontSize * 0.5, height: content.fontSize * 1.25)
}

private func decode(_ json: String, measure: TextMeasurer? = fakeMeasurer) throws -> LoadedPreset {
    try PresetLoader.decode(bytes: Array(json.utf8), file: "t.json", measureText: measure)
}

/// The messages (`path: message`) of a preset that must be rejected.
private func errors(_ json: String, measure: TextMeasurer? = fakeMeasurer) -> [String] {
    do {
        _ = try decode(json, measure: measure)
        Issue.record("expected the preset to be rejected")
        return []
    } catch let error as PresetError {
        return error.diagnostics.filter { $0.severity == .error }.map { "\($0.path): \($0.message)" }
    } catch {
        Issue.record("unexpected error \(error)")
        return []
    }
}

private func preset(_ layers: String, extra: String = "") -> String {
    """
    { "version": 1, "name": "t", "canvas": { "width": 200, "height": 60 },\(extra)
      "layers": [ \(layers) ] }
    """
}

private func rect(animations: String) -> String {
    """
    { "type": "rect", "center": [50, 30], "size": [100, 10], "fill": "red", "animations": [ \(animations) ] }
    """
}

@Test func sizeWidthAndHeightDriveOneSide() throws {
    let c = try decode(
        preset(
            rect(
                animations: """
                    { "keyPath": "size.width", "fromValue": 0, "toValue": 100, "duration": 1 },
                    { "keyPath": "size.height", "values": [10, 4, 10], "duration": 1 }
                    """))
    ).composition
    let animations = c.layers[0].animations
    #expect(animations[0].content == .basic(property: .sizeWidth, from: .number(0), to: .number(100)))
    guard case .keyframes(let property, let k) = animations[1].content else {
        Issue.record("expected keyframes")
        return
    }
    #expect(property == .sizeHeight)
    #expect(k.values == [.number(10), .number(4), .number(10)])
    // Writing one side keeps the other; the model values read back per side.
    var state = c.layers[0].state
    #expect(AnimatableProperty.sizeWidth.value(in: state) == .number(100))
    #expect(AnimatableProperty.sizeHeight.value(in: state) == .number(10))
    AnimatableProperty.sizeWidth.apply(.number(37.5), to: &state)
    #expect(state.shape == .rect(center: Point(x: 50, y: 30), size: Point(x: 37.5, y: 10), cornerRadius: 0))
    AnimatableProperty.sizeHeight.apply(.number(-3), to: &state)
    #expect(state.shape.size == Point(x: 37.5, y: 0))
    // A state binding drives one side too (a progress bar bound to a state variable).
    let bound = try decode(
        preset(
            #"{ "type": "rect", "center": [5, 5], "size": [4, 4], "fill": "red", "bind": { "size.width": "$p * 2" } }"#,
            extra: #" "state": { "p": 0 }, "#)
    ).composition
    #expect(bound.layers[0].bindings.map(\.property) == [.sizeWidth])
    // Only shapes with a size have the key paths.
    #expect(
        errors(
            preset(
                """
                { "type": "circle", "center": [5, 5], "radius": 4, "fill": "red",
                  "animations": [ { "keyPath": "size.width", "toValue": 1, "duration": 1 } ] }
                """))
            == ["$.layers[0].animations[0].keyPath: keyPath \"size.width\" does not exist on circle layers"])
}

@Test func transformTranslationIsTheOffset() throws {
    let c = try decode(
        preset(
            rect(
                animations: """
                    { "keyPath": "transform.translation.x", "fromValue": 0, "toValue": 20, "duration": 1 },
                    { "keyPath": "transform.translation.y", "fromValue": 0, "toValue": -5, "duration": 1 },
                    { "keyPath": "transform.translation", "fromValue": [0, 0], "toValue": [3, 4], "duration": 1 }
                    """))
    ).composition
    let contents = c.layers[0].animations.map(\.content)
    #expect(
        contents == [
            .basic(property: .offsetX, from: .number(0), to: .number(20)),
            .basic(property: .offsetY, from: .number(0), to: .number(-5)),
            .basic(property: .offset, from: .point(Point(x: 0, y: 0)), to: .point(Point(x: 3, y: 4))),
        ])
}

@Test func unknownKeyPathWithNoNearSpellingListsTheLayersKeyPaths() {
    let found = errors(preset(rect(animations: #"{ "keyPath": "wobble", "toValue": 1, "duration": 1 }"#)))
    #expect(
        found == [
            "$.layers[0].animations[0].keyPath: unknown keyPath \"wobble\"; rect layers animate \"position\", \"position.x\", \"position.y\", \"offset\", \"offset.x\", \"offset.y\", \"anchorPoint\", \"rotation\", \"scale\", \"scale.x\", \"scale.y\", \"opacity\", \"hidden\", \"fillColor\", \"strokeColor\", \"lineWidth\", \"lineDashPhase\", \"miterLimit\", \"strokeStart\", \"strokeEnd\", \"center\", \"size\", \"size.width\", \"size.height\" or \"cornerRadius\""
        ])
    // A text layer lists its own values and no stroke key paths; a near spelling still wins.
    let text = errors(
        preset(
            """
            { "type": "text", "text": "{p}", "values": { "p": 0 },
              "animations": [ { "keyPath": "wobble", "toValue": 1, "duration": 1 },
                              { "keyPath": "size.widht", "toValue": 1, "duration": 1 } ] }
            """))
    #expect(text.count == 2)
    #expect(
        text.first?.hasSuffix(
            #"text layers animate "position", "position.x", "position.y", "offset", "offset.x", "offset.y", "anchorPoint", "rotation", "scale", "scale.x", "scale.y", "opacity", "hidden", "fillColor" or "values.p""#
        ) == true)
    #expect(
        text.last == #"$.layers[0].animations[1].keyPath: unknown keyPath "size.widht"; did you mean "size.width"?"#)
}

@Test func animatedValuesObeyTheStaticRanges() {
    let found = errors(
        preset(
            rect(
                animations: """
                    { "keyPath": "opacity", "fromValue": 0, "toValue": 5, "duration": 1 },
                    { "keyPath": "opacity", "values": [0, 1, 1.5, 2, -1], "duration": 1 },
                    { "keyPath": "opacity", "fromValue": 0.5, "byValue": 0.75, "duration": 1 },
                    { "keyPath": "lineWidth", "toValue": -1, "duration": 1 },
                    { "keyPath": "size", "toValue": [10, -2], "duration": 1 },
                    { "keyPath": "size.width", "values": [0, -4], "duration": 1 },
                    { "keyPath": "cornerRadius", "fromValue": -1, "toValue": 2, "duration": 1 },
                    { "keyPath": "miterLimit", "toValue": 0.5, "duration": 1 }
                    """)))
    #expect(
        found == [
            "$.layers[0].animations[0].toValue: expected an opacity in 0…1, found 5",
            "$.layers[0].animations[1].values[2]: expected an opacity in 0…1, found 1.5 (and 2 later values out of range)",
            "$.layers[0].animations[2].byValue: expected an opacity in 0…1, found 1.25",
            "$.layers[0].animations[3].toValue: expected a line width in points ≥ 0, found -1",
            "$.layers[0].animations[4].toValue: expected a size [width, height] with both ≥ 0, found [10, -2]",
            "$.layers[0].animations[5].values[1]: expected a width in points ≥ 0, found -4",
            "$.layers[0].animations[6].fromValue: expected a corner radius ≥ 0, found -1",
            "$.layers[0].animations[7].toValue: expected a miter limit ≥ 1, found 0.5",
        ])
    // The same words as the static key.
    #expect(
        errors(preset(#"{ "type": "rect", "center": [5, 5], "size": [4, 4], "fill": "red", "opacity": 1.5 }"#))
            == ["$.layers[0].opacity: expected an opacity in 0…1, found 1.5"])
    // strokeEnd may overshoot on purpose (clamped when drawn, with a lint), as before.
    #expect(
        throws: Never.self,
        performing: {
            try decode(
                preset(
                    rect(
                        animations:
                            #"{ "keyPath": "strokeEnd", "fromValue": -0.5, "toValue": 1, "duration": 1 }"#)))
        })
}

@Test func numbersWithUnitsSayWhatToWrite() {
    let found = errors(
        preset(
            rect(
                animations: """
                    { "keyPath": "opacity", "toValue": 1, "duration": "1s" },
                    { "keyPath": "opacity", "toValue": 1, "duration": "250ms", "beginTime": "2 sec" },
                    { "keyPath": "position.x", "toValue": "10px", "duration": 1 },
                    { "keyPath": "rotation", "toValue": "90deg", "duration": 1 },
                    { "keyPath": "opacity", "toValue": "50%", "duration": 1 },
                    { "keyPath": "opacity", "toValue": "1 + s", "duration": 1 }
                    """)))
    #expect(
        found == [
            "$.layers[0].animations[0].duration: expected a number of seconds without a unit, e.g. 1, found \"1s\"",
            "$.layers[0].animations[1].duration: expected a number of seconds without a unit, e.g. 0.25, found \"250ms\"",
            "$.layers[0].animations[1].beginTime: expected a number of seconds without a unit, e.g. 2, found \"2 sec\"",
            "$.layers[0].animations[2].toValue: expected a number of points without a unit, e.g. 10, found \"10px\"",
            "$.layers[0].animations[3].toValue: expected a number of degrees without a unit, e.g. 90, found \"90deg\"",
            "$.layers[0].animations[4].toValue: expected a number (a fraction 0…1 where the key takes one) without a unit, e.g. 0.5, found \"50%\"",
            // Not a number with a unit: the expression parser's own message.
            "$.layers[0].animations[5].toValue: expected a number, $name or '(' at offset 4, found 's' (numbers are written in digits; the preset has no parameter s) in \"1 + s\"",
        ])
}

/// A bare word where a number goes (`"fps": "thirty"`): the hint names a declared parameter,
/// the nearest one, or says that numbers are digits; a `$name` hint for a parameter the preset
/// does not have sent a user to write `$thirty`.
@Test func aBareWordInANumberSaysWhichParameterItCouldBe() {
    let params = #" "params": { "strokeWidth": { "default": 4 } },"#
    let found = errors(
        preset(
            rect(
                animations: """
                    { "keyPath": "lineWidth", "toValue": "strokeWidth", "duration": 1 },
                    { "keyPath": "lineWidth", "toValue": "strokWidth", "duration": 1 }
                    """), extra: params + #" "fps": "thirty","#))
    #expect(
        found == [
            "$.fps: expected a number, $name or '(' at offset 0, found 'thirty' (numbers are written in digits; the preset has no parameter thirty) in \"thirty\"",
            "$.layers[0].animations[0].toValue: expected a number, $name or '(' at offset 0, found 'strokeWidth' (a parameter is written $strokeWidth) in \"strokeWidth\"",
            "$.layers[0].animations[1].toValue: expected a number, $name or '(' at offset 0, found 'strokWidth' (not a number, nor a parameter: did you mean $strokeWidth?) in \"strokWidth\"",
        ])
}

@Test func foreverSpellingsPointToInfinity() {
    let found = errors(
        preset(
            rect(
                animations: """
                    { "keyPath": "opacity", "toValue": 1, "duration": 1, "repeatCount": -1 },
                    { "keyPath": "opacity", "toValue": 1, "duration": 1, "repeatCount": "forever" },
                    { "keyPath": "opacity", "toValue": 1, "duration": 1, "repeatCount": ".infinity" },
                    { "keyPath": "opacity", "toValue": 1, "duration": 1, "repeatCount": "Infinity" },
                    { "keyPath": "opacity", "toValue": 1, "duration": 1, "repeatCount": -2 }
                    """)))
    let expected = "expected a count ≥ 0 or \"infinity\", found"
    #expect(
        found == [
            "$.layers[0].animations[0].repeatCount: \(expected) -1; a repeat without end is \"infinity\" (Core Animation's HUGE_VALF, SwiftUI's repeatForever)",
            "$.layers[0].animations[1].repeatCount: \(expected) \"forever\"; did you mean \"infinity\"?",
            "$.layers[0].animations[2].repeatCount: \(expected) \".infinity\"; did you mean \"infinity\"?",
            "$.layers[0].animations[3].repeatCount: \(expected) \"Infinity\"; did you mean \"infinity\"?",
            "$.layers[0].animations[4].repeatCount: \(expected) -2",
        ])
    // A state change's animation (SwiftUI legs) gets the same hint.
    let state = errors(
        preset(
            #"{ "type": "rect", "center": [5, 5], "size": [4, 4], "fill": "red", "bind": { "opacity": "$on" } }"#,
            extra: """
                "state": { "on": 0 },
                "events": [ { "onAppear": true, "set": { "on": 1 },
                  "animation": { "timingFunction": "linear", "duration": 1, "repeatCount": "forever" } } ],
                """))
    #expect(
        state == [
            "$.events[0].animation.repeatCount: expected a whole number of legs in 1…10000 or \"infinity\", found \"forever\"; did you mean \"infinity\"?"
        ])
}

@Test func cssSpellingsOfTimingFunctionsGetTheirNames() {
    #expect(TimingFunctionSyntax.spellingHint("ease-in-out") == "easeInOut")
    #expect(TimingFunctionSyntax.spellingHint("ease_in") == "easeIn")
    #expect(TimingFunctionSyntax.spellingHint("EASE-OUT") == "easeOut")
    #expect(TimingFunctionSyntax.spellingHint("ease-in-ease-out") == "easeInEaseOut")
    #expect(TimingFunctionSyntax.spellingHint("ease") == "default")
    #expect(TimingFunctionSyntax.spellingHint("bounce-back") == nil)
    let found = errors(
        preset(
            rect(animations: #"{ "keyPath": "opacity", "toValue": 1, "duration": 1, "timingFunction": "ease-in-out" }"#)
        ))
    #expect(found.count == 1)
    #expect(found.first?.hasSuffix("; did you mean \"easeInOut\"?") == true)
}

@Test func aBadInstanceCountIsTheOnlyError() {
    for count in ["0", "-1", "8.5"] {
        let found = errors(
            preset(
                """
                { "type": "replicator", "instanceCount": \(count), "instanceTransform": { "rotation": 30 },
                  "instanceDelay": 0.1, "instanceAlphaOffset": -0.1,
                  "layers": [ { "type": "circle", "center": [5, 5], "radius": 2, "fill": "red" } ] }
                """))
        #expect(
            found == ["$.layers[0].instanceCount: expected a whole number of copies in 1…1000, found \(count)"],
            "instanceCount \(count)")
    }
    // The other keys are still checked.
    let both = errors(
        preset(
            """
            { "type": "replicator", "instanceCount": 0, "instanceTransform": { "rotaton": 30 }, "layers": [] }
            """))
    #expect(
        both == [
            "$.layers[0].instanceCount: expected a whole number of copies in 1…1000, found 0",
            "$.layers[0].instanceTransform.rotaton: unknown key \"rotaton\" in an instance transform; did you mean \"rotation\"?",
        ])
}

@Test func aBadStateValueIsTheOnlyError() {
    let found = errors(
        preset(
            #"{ "type": "rect", "center": [5, 5], "size": [4, 4], "fill": "red", "bind": { "opacity": "$big > 1 ? 1 : 0" } }"#,
            extra: """
                "state": { "big": 1e300, "small": 0 },
                "events": [ { "every": 1, "set": { "big": "$big + 1", "small": "$big" } } ],
                """))
    #expect(found == ["$.state.big: expected a number of magnitude ≤ 1e15 or a boolean, found 1e+300"])
}

@Test func measuredTextWidthFeedsExpressions() throws {
    let json = preset(
        """
        { "type": "text", "name": "label", "text": "Load{n:%d}", "values": { "n": 42 },
          "font": { "size": 20 }, "position": [6, 30], "anchorPoint": [0, 0.5] },
        { "type": "rect", "center": ["6 + @label.width + 3", 30], "size": [4, "@label.height / 5"], "fill": "red" }
        """)
    let c = try decode(json).composition
    // "Load42": 6 characters × 20 × 0.5 = 60 wide; 25 high.
    #expect(c.layers[1].state.shape == .rect(center: Point(x: 69, y: 30), size: Point(x: 4, y: 5), cornerRadius: 0))
    // Each problem once, at the value that uses it.
    let found = errors(
        preset(
            """
            { "type": "text", "name": "label", "text": "Loading" },
            { "type": "rect", "center": ["@lable.width", 30], "size": [4, 4], "fill": "red" },
            { "type": "rect", "center": ["@later.width", 30], "size": [4, "@label.depth"], "fill": "red" },
            { "type": "text", "name": "later", "text": "x" }
            """))
    #expect(
        found == [
            "$.layers[1].center[0]: no text layer named \"lable\" before this value (@NAME.width measures a text layer named earlier in the file); did you mean @label?",
            "$.layers[2].center[0]: no text layer named \"later\" before this value (@NAME.width measures a text layer named earlier in the file)",
            "$.layers[2].size[1]: expected width or height after @label. at offset 7, found 'depth' in \"@label.depth\"",
        ])
    // Without the renderer's fonts the decoder says so rather than guessing.
    #expect(
        errors(json, measure: nil) == [
            "$.layers[1].center[0]: @label measures text, which needs the renderer's fonts; this caller decodes without them"
        ])
    // A font that cannot be loaded is one error, at the first value that measures it.
    let noFont = errors(json, measure: { _, _ in nil })
    #expect(
        noFont == [
            "$.layers[1].center[0]: cannot measure the text of \"label\": no font for family \"Inter\" could be loaded"
        ])
    // A named layer that is not text cannot be measured: one error, naming its type.
    let notText = errors(
        preset(
            """
            { "type": "rect", "name": "bar", "center": [5, 5], "size": [4, 4], "fill": "red" },
            { "type": "rect", "center": ["ceil(@bar.width) + 1", "@bar.height"], "size": [4, 4], "fill": "red" }
            """))
    #expect(
        notText == [
            "$.layers[1].center[0]: \"bar\" is a rect layer; @NAME.width and @NAME.height measure text layers only"
        ])
    // round(), floor() and ceil() snap a measured length to whole points ("Loading" is 70 wide
    // and 25 high in the fake font: ceil(23.33), floor(12.5), round(17.5)).
    let snapped = try decode(
        preset(
            """
            { "type": "text", "name": "label", "text": "Loading", "font": { "size": 20 } },
            { "type": "rect", "center": ["ceil(@label.width / 3)", "floor(@label.height / 2)"], "size": ["round(@label.width / 4)", 1], "fill": "red" }
            """)
    ).composition
    #expect(
        snapped.layers[1].state.shape == .rect(center: Point(x: 24, y: 12), size: Point(x: 18, y: 1), cornerRadius: 0))
    // Text nobody measures is not measured.
    let counter = MeasureCounter()
    _ = try decode(
        preset(#"{ "type": "text", "name": "label", "text": "x" }"#), measure: { _, _ in counter.count() })
    #expect(counter.calls == 0)
}

/// Counts the calls of a measurer (which must be `Sendable`).
private final class MeasureCounter: @unchecked Sendable {
    private(set) var calls = 0
    func count() -> TextMeasurement? {
        calls += 1
        return nil
    }
}

@Test func measurementReferencesParse() throws {
    #expect(try Expression.parse("@label.width + 3") == .binary(.add, .parameter("@label.width"), .number(3)))
    #expect(try Expression.parse("-@a_1.height") == .negate(.parameter("@a_1.height")))
    #expect(
        throws: ExpressionError(
            offset: 2, message: "expected .width or .height after @a at offset 2, found end of input")
    ) {
        try Expression.parse("@a")
    }
    #expect(
        throws: ExpressionError(
            offset: 1, message: "expected a text layer's name after '@' (as in @label.width) at offset 1, found '1'")
    ) {
        try Expression.parse("@1.width")
    }
}
