import Foundation
import Testing

@testable import Spec

// Issue 18 item 8: `cubic` was in the docs and the schema but refused by the decoder. These tests
// hold schema/preset.schema.json, docs/preset-format.md's key and enum tables and the decoder's
// own tables to one vocabulary, so none can drift from the others again.

nonisolated(unsafe) private let schema: [String: Any] = {  // read-only after first use
    let data = FileManager.default.contents(atPath: packageRoot + "/schema/preset.schema.json") ?? Data()
    return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
}()

private let docs: [String] = {
    let data = FileManager.default.contents(atPath: packageRoot + "/docs/preset-format.md") ?? Data()
    return String(decoding: data, as: UTF8.self).components(separatedBy: "\n")
}()

private func definition(_ name: String) -> [String: Any] {
    ((schema["definitions"] as? [String: Any])?[name] as? [String: Any]) ?? [:]
}

private func keys(_ object: [String: Any]) -> Set<String> {
    Set((object["properties"] as? [String: Any])?.keys.map { $0 } ?? [])
}

private func property(_ object: [String: Any], _ key: String) -> [String: Any] {
    ((object["properties"] as? [String: Any])?[key] as? [String: Any]) ?? [:]
}

private func enumeration(_ object: [String: Any]) -> [String] { object["enum"] as? [String] ?? [] }

/// Rows (cells, trimmed) of the first Markdown table after the line equal to `anchor`.
private func table(after anchor: String) -> [[String]] {
    guard let start = docs.firstIndex(of: anchor) else {
        Issue.record("docs/preset-format.md has no line \"\(anchor)\"")
        return []
    }
    var rows: [[String]] = []
    var inTable = false
    for line in docs[(start + 1)...] {
        if line.hasPrefix("|") {
            inTable = true
            // Split on unescaped pipes.
            let cells = line.replacingOccurrences(of: "\\|", with: "\u{1}").split(separator: "|")
                .map { $0.replacingOccurrences(of: "\u{1}", with: "|").trimmingCharacters(in: .whitespaces) }
            if cells.first?.hasPrefix("---") == true { continue }
            rows.append(cells)
        } else if inTable {
            break
        }
    }
    return Array(rows.dropFirst())  // the header row
}

/// Backticked words in `text`, without their backticks.
private func ticked(_ text: String) -> [String] {
    text.components(separatedBy: "`").enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
}

/// `"quoted"` words in `text`.
private func quoted(_ text: String) -> [String] {
    text.components(separatedBy: "\"").enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
}

/// The first column's backticked names of a table.
private func firstColumn(after anchor: String) -> Set<String> {
    Set(table(after: anchor).flatMap { ticked($0.first ?? "") })
}

@Test func topLevelAndCanvasKeysAgree() {
    #expect(keys(schema) == Set(PresetDecoder.topLevelKeys))
    #expect(firstColumn(after: "## Top level") == Set(PresetDecoder.topLevelKeys))
    let canvas = property(schema, "canvas")
    #expect(keys(canvas) == Set(PresetDecoder.canvasKeys))
    let documented = Set(table(after: "`canvas`:").flatMap { ticked($0.first ?? "") })
    #expect(documented == Set(PresetDecoder.canvasKeys))
    let params = (property(schema, "params")["additionalProperties"] as? [String: Any]) ?? [:]
    #expect(keys(params) == Set(PresetDecoder.parameterKeys))
    #expect(enumeration(property(params, "type")) == PresetDecoder.parameterTypes)
}

@Test func lintCodesAgree() {
    let codes = Set(PresetDecoder.lintCodes.keys)
    let schemaCodes = enumeration((property(schema, "allowLints")["items"] as? [String: Any]) ?? [:])
    #expect(Set(schemaCodes) == codes)
    #expect(firstColumn(after: "## Lints") == codes)
}

@Test func layerKeysAgree() {
    let types = LayerType.allCases.map(\.rawValue)
    #expect(enumeration(property(definition("layer"), "type")) == types)
    let rows = table(after: "Layer types and their geometry (the **box** is what `anchorPoint` is relative to):")
    #expect(rows.compactMap { ticked($0.first ?? "").first } == types)
    #expect(
        firstColumn(after: "Every layer has a `type` and may have:")
            == Set(PresetDecoder.commonLayerKeys).subtracting(["type"]))
    #expect(firstColumn(after: "Shapes (all but `group`) also take paint:") == Set(PresetDecoder.paintKeys))
    for type in LayerType.allCases {
        var expected = Set(PresetDecoder.commonLayerKeys + type.geometryKeys)
        if type.paints { expected.formUnion(PresetDecoder.paintKeys) }
        let layer = definition("\(type.rawValue)Layer")
        #expect(keys(layer) == expected, "\(type.rawValue)Layer")
        // The docs' keys column names the geometry keys (words in backticks, before any note).
        if let row = rows.first(where: { ticked($0.first ?? "").first == type.rawValue }), row.count > 1 {
            // Besides the keys, a row may name sub-keys (the font's) or the SVG commands.
            let extra = (type == .text ? PresetDecoder.fontKeys : []) + (type == .path ? ["M L H V C S Q T A Z"] : [])
            let words = Set(ticked(row[1])).subtracting(extra)
            #expect(words == Set(type.geometryKeys), "docs row \(type.rawValue)")
        }
        if type.paints {
            let stroke = property(layer, "stroke")
            #expect(keys(stroke) == Set(PresetDecoder.strokeKeys))
            #expect(enumeration(property(stroke, "lineCap")) == LineCap.allCases.map(\.rawValue))
            #expect(enumeration(property(stroke, "lineJoin")) == LineJoin.allCases.map(\.rawValue))
            let fill = ((property(layer, "fill")["anyOf"] as? [[String: Any]]) ?? []).first { $0["properties"] != nil }
            #expect(keys(fill ?? [:]) == Set(PresetDecoder.fillKeys))
            #expect(enumeration(property(fill ?? [:], "rule")) == FillRule.allCases.map(\.rawValue))
        }
    }
    let paint = table(after: "Shapes (all but `group`) also take paint:")
    let strokeRow = paint.first { ticked($0.first ?? "") == ["stroke"] }?.dropFirst().joined() ?? ""
    #expect(Set(quoted(strokeRow)).intersection(["butt", "round", "square", "miter", "bevel"]).count == 5)
    #expect(
        Set(quoted(strokeRow)).subtracting(LineCap.allCases.map(\.rawValue) + LineJoin.allCases.map(\.rawValue))
            == Set(PresetDecoder.strokeKeys))
    let fillRow = paint.first { ticked($0.first ?? "") == ["fill"] }?.dropFirst().joined() ?? ""
    #expect(Set(quoted(fillRow)).subtracting(FillRule.allCases.map(\.rawValue)) == Set(PresetDecoder.fillKeys))
    // Nested objects.
    #expect(keys(definition("rotation3D")) == Set(PresetDecoder.rotation3DKeys))
    #expect(
        keys(property(definition("replicatorLayer"), "instanceTransform")) == Set(PresetDecoder.instanceTransformKeys))
    let font = property(definition("textLayer"), "font")
    #expect(keys(font) == Set(PresetDecoder.fontKeys))
    #expect(enumeration(property(font, "weight")) == FontWeight.allCases.map(\.rawValue))
    // Clip shapes: the same geometry keys as the layer of that type.
    let clip = definition("clipShape")
    let clipTypes = enumeration(property(clip, "type"))
    #expect(clipTypes == ["circle", "ellipse", "rect", "arc", "line", "polygon", "path"])
    for branch in (clip["allOf"] as? [[String: Any]]) ?? [] {
        let then = (branch["then"] as? [String: Any]) ?? [:]
        let type = keys(then).subtracting(["type"])
        let owner = LayerType.allCases.first { Set($0.geometryKeys) == type }
        #expect(owner != nil && clipTypes.contains(owner?.rawValue ?? ""), "clip branch \(type.sorted())")
    }
}

@Test func animationKeysAndModesAgree() {
    let timing = Set(PresetDecoder.timingKeys)
    #expect(keys(definition("basicAnimation")) == timing.union(PresetDecoder.basicKeys))
    #expect(keys(definition("keyframeAnimation")) == timing.union(PresetDecoder.keyframeKeys))
    #expect(keys(definition("pathAnimation")) == timing.union(PresetDecoder.pathKeys))
    #expect(keys(definition("animationGroup")) == timing.union(PresetDecoder.groupKeys))
    #expect(firstColumn(after: "### Timing (`CAMediaTiming`)") == timing)
    #expect(
        firstColumn(after: "### Keyframe animations (`CAKeyframeAnimation`)")
            == Set(PresetDecoder.keyframeKeys).subtracting(["keyPath"]))
    for name in ["basicAnimation", "keyframeAnimation", "pathAnimation", "animationGroup"] {
        let d = definition(name)
        #expect(enumeration(property(d, "fillMode")) == FillMode.allCases.map(\.rawValue), "\(name)")
        #expect(enumeration(property(d, "style")) == AnimationStyle.allCases.map(\.rawValue), "\(name)")
    }
    let modes = CalculationMode.allCases.map(\.rawValue)
    #expect(enumeration(property(definition("keyframeAnimation"), "calculationMode")) == modes)
    // A path moves continuously: every mode but discrete (the decoder refuses that one).
    #expect(
        enumeration(property(definition("pathAnimation"), "calculationMode"))
            == modes.filter { $0 != "discrete" })
    #expect(enumeration(property(definition("pathAnimation"), "rotationMode")) == RotationMode.allCases.map(\.rawValue))
    let modeRow = table(after: "### Keyframe animations (`CAKeyframeAnimation`)")
        .first { ticked($0.first ?? "") == ["calculationMode"] }
    let documentedModes = ticked(modeRow?.dropFirst().joined() ?? "").filter { modes.contains($0) }
    #expect(Set(documentedModes) == Set(modes))
}

@Test func everyDocumentedModeDecodes() throws {
    // The decoder accepts each mode the schema lists, on keyframes and (but discrete) on paths.
    for mode in enumeration(property(definition("keyframeAnimation"), "calculationMode")) {
        let json = """
            { "version": 1, "name": "t", "canvas": { "width": 10, "height": 10 },
              "layers": [ { "type": "circle", "center": [5, 5], "radius": 2, "fill": "red",
                "animations": [
                  { "keyPath": "opacity", "values": [0, 1], "duration": 1, "calculationMode": "\(mode)" }\(
                    mode == "discrete" ? "" : ",\n      { \"keyPath\": \"position\", \"path\": \"M0 0 L5 5\", \"duration\": 1, \"calculationMode\": \"\(mode)\" }"
                ) ] } ] }
            """
        #expect(throws: Never.self, "\(mode)") { try PresetLoader.decode(bytes: Array(json.utf8), file: "t.json") }
    }
}

@Test func keyPathsAgree() {
    let aliases = AnimatableProperty.keyPathAliases.map(\.alias)
    for (alias, keyPath) in AnimatableProperty.keyPathAliases {
        #expect(AnimatableProperty(keyPath: keyPath) != nil, "\(alias) stands for \(keyPath)")
    }
    let fixed = AnimatableProperty.fixedKeyPaths.map(\.keyPath)
    let schemaPaths = enumeration(((definition("keyPath")["anyOf"] as? [[String: Any]])?.first) ?? [:])
    #expect(Set(schemaPaths) == Set(fixed + aliases))
    for path in schemaPaths where !aliases.contains(path) {
        #expect(AnimatableProperty(keyPath: path) != nil, "\(path)")
    }
    let documented = Set(
        table(after: "### Key paths").flatMap { ticked($0.first ?? "") + ticked($0.dropFirst().joined()) })
    let expected = Set(fixed + aliases + ["rotation3D.angle", "rotation3D[1].angle", "values.NAME"])
    #expect(expected.isSubset(of: documented), "undocumented: \(expected.subtracting(documented).sorted())")
}

@Test func timingFunctionAndColourNamesAgree() {
    let names = enumeration(((definition("timingFunction")["anyOf"] as? [[String: Any]])?.first) ?? [:])
    for name in names {
        guard case .success = TimingFunctionSyntax.parse(name) else {
            Issue.record("schema timing function \(name) does not parse")
            continue
        }
    }
    let colours = enumeration(
        ((definition("color")["anyOf"] as? [[String: Any]]) ?? []).first { $0["enum"] != nil } ?? [:])
    #expect(Set(colours) == Set(RGBAColor.colorNames))
}
