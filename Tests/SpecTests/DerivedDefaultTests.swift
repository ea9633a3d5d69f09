import Testing

@testable import Spec

/// A number parameter whose default is an expression of earlier parameters (`"$size / 16"`)
/// follows them unless `--set` gives it (docs/preset-format.md, Parameters and expressions).
struct DerivedDefaultTests {
    static func preset(_ params: String) -> String {
        """
        { "version": 1, "name": "t", "canvas": { "width": "$size", "height": "$size" },
          "params": { \(params) },
          "layers": [ { "type": "circle", "center": [8, 8], "radius": 4,
                        "stroke": { "color": "red", "width": "$strokeWidth" } } ] }
        """
    }

    static let ring = preset(
        #""size": { "default": 64, "min": 8 }, "strokeWidth": { "default": "$size / 16", "min": 0.5, "max": 32 }"#)

    static func value(_ json: String, _ name: String, _ overrides: [String: String] = [:]) throws -> ParameterValue? {
        let loaded = try PresetLoader.decode(bytes: Array(json.utf8), file: "t.json", overrides: overrides)
        return loaded.composition.parameters.first { $0.name == name }?.value
    }

    @Test func theDefaultIsTheExpressionAtTheOtherDefaults() throws {
        let loaded = try PresetLoader.decode(bytes: Array(Self.ring.utf8), file: "t.json")
        let stroke = try #require(loaded.composition.parameters.first { $0.name == "strokeWidth" })
        #expect(stroke.value == .number(4))
        #expect(stroke.defaultValue == .number(4))
        #expect(stroke.defaultExpression == "$size / 16")
        #expect(loaded.composition.layers.first?.state.lineWidth == 4)
    }

    @Test func itFollowsAnOverriddenSizeUnlessSetItself() throws {
        #expect(try Self.value(Self.ring, "strokeWidth", ["size": "32"]) == .number(2))
        #expect(try Self.value(Self.ring, "strokeWidth", ["size": "24"]) == .number(1.5))
        #expect(try Self.value(Self.ring, "strokeWidth", ["size": "32", "strokeWidth": "3"]) == .number(3))
        // Kept within min…max: 8 / 16 = 0.5 is the minimum; 1024 / 16 = 64 is clamped to 32.
        #expect(try Self.value(Self.ring, "strokeWidth", ["size": "8"]) == .number(0.5))
        #expect(try Self.value(Self.ring, "strokeWidth", ["size": "1024"]) == .number(32))
    }

    @Test func anExpressionMayUseOnlyEarlierNumberParameters() throws {
        let forward = Self.preset(
            #""strokeWidth": { "default": "$size / 16" }, "size": { "default": 64 }"#)
        do {
            _ = try PresetLoader.decode(bytes: Array(forward.utf8), file: "t.json")
            Issue.record("a forward reference was accepted")
        } catch let error as PresetError {
            let messages = error.diagnostics.map(\.message)
            #expect(
                messages.contains(
                    "a default that is an expression must give a number: unknown parameter $size; no number parameter is declared before \"strokeWidth\""
                ), "\(messages)")
        }
        let typo = Self.preset(#""size": { "default": 64 }, "strokeWidth": { "default": "$sise / 16" }"#)
        do {
            _ = try PresetLoader.decode(bytes: Array(typo.utf8), file: "t.json")
            Issue.record("an unknown parameter was accepted")
        } catch let error as PresetError {
            #expect(
                error.diagnostics.map(\.path).contains("$.params.strokeWidth.default"),
                "\(error.diagnostics.map(\.description))")
            #expect(
                error.diagnostics.map(\.message).contains(
                    "a default that is an expression must give a number: unknown parameter $sise; it may use the number parameters declared before it (\"size\")"
                ))
        }
    }

    @Test func aStringParameterWithoutDollarStaysText() throws {
        let json = Self.preset(
            #""size": { "default": 64 }, "strokeWidth": { "default": 4 }, "label": { "default": "Loading" }"#)
        #expect(try Self.value(json, "label") == .string("Loading"))
    }
}
