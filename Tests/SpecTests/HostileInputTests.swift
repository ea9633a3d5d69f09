import Foundation
import Testing

@testable import Spec

// Issue 18: values `validate` used to accept and the export then trapped on, image files that
// passed `validate` and failed later, and messages that echoed hostile text whole.

private func decode(_ json: String, file: String = "t.json") throws -> LoadedPreset {
    try PresetLoader.decode(bytes: Array(json.utf8), file: file)
}

private func problems(_ json: String, file: String = "t.json") -> [Diagnostic] {
    do {
        _ = try decode(json, file: file)
        Issue.record("expected the preset to be rejected")
        return []
    } catch let error as PresetError {
        return error.diagnostics.filter { $0.severity == .error }
    } catch {
        Issue.record("unexpected error \(error)")
        return []
    }
}

private func preset(layer: String) -> String {
    """
    { "version": 1, "name": "t", "canvas": { "width": 100, "height": 80 },
      "layers": [ \(layer) ] }
    """
}

// MARK: - Overrides

@Test(arguments: [
    ("0x40", false), ("0x1p6", false), ("inf", false), ("nan", false), ("1e3", true), (".5", false),
    ("64", true), ("+64", true), ("-1.5e-2", false), ("64.", true), ("", false), ("1e", false), ("٤", false),
    ("1e999", false), ("64px", false), ("64 pt", false), ("px", false),
])
func overrideNumbersAreDecimalOnly(text: String, accepted: Bool) {
    // circular's size has min 8, max 4096; ".5" and "-1.5e-2" are decimal but below min.
    let result = Result {
        try PresetLoader.load(contentsOf: packageRoot + "/presets/circular.json", overrides: ["size": text])
    }
    switch result {
    case .success(let loaded):
        #expect(accepted, "\(text) was accepted")
        #expect(loaded.composition.canvas.width == Double(text))
    case .failure(let error):
        #expect(!accepted, "\(text) was refused: \(error)")
        guard let e = error as? ParameterOverrideError else {
            Issue.record("unexpected \(error)")
            return
        }
        if [".5", "-1.5e-2"].contains(text) {
            #expect(e.message == "--set size=\(text): must be at least 8")
        } else if text == "1e999" {
            #expect(e.message == "--set size=1e999: out of range (beyond ±1.8e308)")
        } else if text == "64px" {
            #expect(
                e.message
                    == "--set size=64px: expected a number, like the default 64; write it without the unit: --set size=64"
            )
        } else {
            #expect(e.message == "--set size=\(text): expected a number, like the default 64")
        }
    }
}

@Test func decimalSyntaxRule() {
    #expect(PresetDecoder.isDecimalNumber("12.5e+3"))
    #expect(PresetDecoder.isDecimalNumber(".5"))
    #expect(!PresetDecoder.isDecimalNumber("0x40"))
    #expect(!PresetDecoder.isDecimalNumber("1_000"))
    #expect(!PresetDecoder.isDecimalNumber("."))
    #expect(!PresetDecoder.isDecimalNumber("infinity"))
}

// MARK: - Integer conversions

@Test func hugeEvenSwiftUIRepeatCountLintsInsteadOfTrapping() throws {
    // Int(9.3e18) traps (above Int.max); parity now comes from the remainder.
    let loaded = try decode(
        preset(
            layer: """
                { "type": "circle", "center": [50, 40], "radius": 10, "fill": "red",
                  "animations": [ { "keyPath": "opacity", "fromValue": 0, "toValue": 1, "duration": 1,
                    "style": "swiftUI", "autoreverses": true, "repeatCount": 1e19 } ] }
                """))
    let lint = loaded.warnings.first { $0.lint == "autoreverse-snap" }
    #expect(lint?.path == "$.layers[0].animations[0].repeatCount")
    #expect(lint?.message.hasPrefix("an even repeatCount (1e+19 legs) with autoreverses") == true)
    #expect(loaded.composition.layers[0].animations[0].repeatCount == 1e19)
}

@Test(arguments: [
    (1e300, "%d", String(format: "%.0f", 1e300)), (-9.3e18, "%d", "-9300000000000000000"),
    (9_223_372_036_854_775_807.0, "%d", "9223372036854775808"), (-2.9, "%d", "-2"), (42.99, "%d", "42"),
    (Double.infinity, "%d", "0"), (Double.nan, "%d", "0"),
])
func percentDTruncatesWithoutTrapping(value: Double, format: String, expected: String) {
    #expect(TextTemplate.formatted(value, format) == expected)
}

@Test func percentDOfAHugeNumberIsItsFullDecimalExpansion() {
    // 1e300 as a Double is exactly a 301-digit integer; %.0f writes it in full (digits as
    // Python's '%.0f' % 1e300 prints them).
    let text = TextTemplate.formatted(1e300, "%d")
    #expect(text.count == 301)
    #expect(
        text.hasPrefix("100000000000000005250476025520442024870446858110815915491585411551180245798890819578637137"))
    #expect(text.hasSuffix("96386865459400540160"))
}

// MARK: - Messages bounded

@Test func aHugeUnknownKeyIsAbbreviatedAndCheap() {
    let key = String(repeating: "a", count: 100_000)
    let found = problems(preset(layer: "{ \"type\": \"circle\", \"center\": [1, 1], \"radius\": 1, \"\(key)\": 1 }"))
    #expect(found.count == 1)
    #expect(
        found.first?.message
            == "unknown key \"\(String(repeating: "a", count: 60))…(100000 characters)\" in a circle layer")
    #expect(found.first?.path == "$.layers[0]['\(String(repeating: "a", count: 60))…(100000 characters)']")
}

@Test func suggestionSkipsCandidatesOfAnotherLength() {
    // Far longer than any candidate: no table is built, so nothing is suggested.
    #expect(suggestion(for: String(repeating: "x", count: 100_000), among: ["radius", "center"]) == nil)
    #expect(suggestion(for: "raduis", among: ["radius", "center"]) == "radius")
    #expect(suggestion(for: "radiusxx", among: ["radius"]) == "radius")
    #expect(suggestion(for: "radiusxxx", among: ["radius"]) == nil)
}

@Test func abbreviatedKeepsShortTextWhole() {
    #expect(abbreviated("short") == "short")
    #expect(abbreviated(String(repeating: "é", count: 60)) == String(repeating: "é", count: 60))
    #expect(abbreviated(String(repeating: "é", count: 61)) == String(repeating: "é", count: 60) + "…(61 characters)")
}

// MARK: - Image files checked at decode time

/// A PNG chunk: length, type, data, CRC (PNG §5.3).
private func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
    let body = Array(type.utf8) + data
    let crc = PNGStructure.crc32(body, from: 0, to: body.count)
    return be32(data.count) + body + be32(Int(crc))
}

private func be32(_ n: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8((n >> $0) & 0xFF) } }

private let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

private func ihdr(_ w: Int, _ h: Int) -> [UInt8] { chunk("IHDR", be32(w) + be32(h) + [8, 6, 0, 0, 0]) }

/// A complete, valid 2×1 RGBA PNG: one stored (uncompressed) deflate block (RFC 1951 §3.2.4)
/// in a zlib stream (RFC 1950) with its Adler-32.
private func validPNG() -> [UInt8] {
    let raw: [UInt8] = [0, 255, 0, 0, 255, 0, 0, 255, 255]  // filter 0, red, blue
    var a: UInt32 = 1
    var b: UInt32 = 0
    for byte in raw {
        a = (a + UInt32(byte)) % 65521
        b = (b + a) % 65521
    }
    let adler = be32(Int(b << 16 | a))
    let n = UInt16(raw.count)
    let zlib: [UInt8] =
        [0x78, 0x01, 0x01, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8(~n >> 8)] + raw + adler
    return signature + ihdr(2, 1) + chunk("IDAT", zlib) + chunk("IEND", [])
}

/// Decodes a preset whose only layer is an image of `bytes`, written next to it.
private func imageProblems(_ bytes: [UInt8]) throws -> [Diagnostic] {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    try Data(bytes).write(to: dir.appendingPathComponent("i.png"))
    let file = dir.appendingPathComponent("p.json").path
    try Data(preset(layer: "{ \"type\": \"image\", \"file\": \"i.png\", \"center\": [50, 40] }").utf8)
        .write(to: URL(fileURLWithPath: file))
    do {
        let loaded = try PresetLoader.load(contentsOf: file)
        guard case .image(let image) = loaded.composition.layers[0].state.shape else { return [] }
        #expect(image.size.x == 2 && image.size.y == 1)
        return []
    } catch let error as PresetError {
        return error.diagnostics
    }
}

@Test func aValidPNGPassesTheStructureCheck() throws {
    #expect(try imageProblems(validPNG()).isEmpty)
    #expect(try PNGStructure.check(validPNG()) == (width: 2, height: 1))
}

@Test(arguments: [
    ("truncated", "is truncated: chunk IDAT at byte 33 needs 32 bytes, the file has 24 left"),
    ("bad CRC", "is damaged: chunk IDAT at byte 33 fails its CRC check"),
    ("header only", "has no image data (header only)"),
    (
        "30000×30000",
        "is 30000×30000 = 900000000 pixels, more than the limit of 16777216 (4096×4096) for an image layer"
    ),
    (
        "3036064796×3804820473",
        "is 3036064796×3804820473 pixels, more than the limit of 16777216 (4096×4096) for an image layer"
    ),
    ("0×0", "is 0×0 pixels; a PNG must be at least 1×1 (PNG §11.2.2)"),
    ("no IEND", "is truncated: it ends without an IEND chunk"),
    ("not a PNG", "is not a PNG file (no PNG signature)"),
    ("cut in the header", "is truncated: chunk IHDR at byte 8 needs 25 bytes, the file has 20 left"),
])
func brokenImagesFailValidateAtTheFileKey(kind: String, message: String) throws {
    let good = validPNG()
    let bytes: [UInt8]
    switch kind {
    case "truncated": bytes = Array(good.dropLast(20))
    case "bad CRC":
        var b = good
        b[33 + 8 + 9] ^= 0x01  // a pixel byte inside IDAT's data
        bytes = b
    case "header only": bytes = signature + ihdr(30, 30)
    case "30000×30000": bytes = signature + ihdr(30000, 30000) + chunk("IEND", [])
    case "0×0": bytes = signature + ihdr(0, 0) + chunk("IEND", [])
    // Found by mutating frames for `assemble`: width × height overflowed Int and trapped.
    case "3036064796×3804820473": bytes = signature + ihdr(3_036_064_796, 3_804_820_473) + chunk("IEND", [])
    case "no IEND": bytes = Array(good.dropLast(12))
    case "not a PNG": bytes = Array("GIF89a".utf8)
    default: bytes = Array(good.prefix(28))
    }
    let found = try imageProblems(bytes)
    #expect(found.count == 1)
    #expect(found.first?.path == "$.layers[0].file")
    #expect(found.first?.location == SourceLocation(line: 2, column: 42))
    #expect(found.first?.message == "the image \"i.png\" \(message)")
}

// MARK: - cubic and cubicPaced are decoded

@Test func cubicModesDecode() throws {
    let loaded = try decode(
        preset(
            layer: """
                { "type": "circle", "center": [50, 40], "radius": 10, "fill": "red",
                  "animations": [
                    { "keyPath": "opacity", "values": [0, 1, 0.5], "keyTimes": [0, 0.25, 1], "duration": 1,
                      "calculationMode": "cubic" },
                    { "keyPath": "position", "values": [[0, 0], [10, 0], [10, 30]], "keyTimes": [0, 0.9, 1],
                      "duration": 1, "calculationMode": "cubicPaced" } ] }
                """))
    let animations = loaded.composition.layers[0].animations
    guard case .keyframes(_, let cubic) = animations[0].content, case .keyframes(_, let paced) = animations[1].content
    else {
        Issue.record("not keyframes")
        return
    }
    #expect(cubic.calculationMode == .cubic)
    #expect(cubic.keyTimes == [0, 0.25, 1])
    #expect(cubic.timingFunctions == [.linear, .linear])
    #expect(paced.calculationMode == .cubicPaced)
    // Evenly spaced knots: neither the given keyTimes nor paced mode's distance-based [0, 0.25, 1].
    #expect(paced.keyTimes == [0, 0.5, 1])
    let ignored = loaded.warnings.first { $0.lint == "ignored-key" }
    #expect(ignored?.path == "$.layers[0].animations[1].keyTimes")
    #expect(
        ignored?.message == "keyTimes are ignored in cubicPaced mode (Core Animation paces the keyframes by distance)")
    #expect(animations[1].sourcePath == "$.layers[0].animations[1]")
    #expect(loaded.composition.layers[0].sourcePath == "$.layers[0]")
    #expect(
        loaded.composition.sourceLocations["$.layers[0].animations[1].keyTimes"] == SourceLocation(line: 6, column: 81))
}

@Test func cubicPacedNeedsMeasurableValues() {
    let found = problems(
        preset(
            layer: """
                { "type": "circle", "center": [50, 40], "radius": 10, "fill": "red",
                  "animations": [ { "keyPath": "opacity", "values": [1, 1], "duration": 1, "calculationMode": "cubicPaced" } ] }
                """))
    #expect(found.map(\.path) == ["$.layers[0].animations[0].values"])
    #expect(
        found.first?.message
            == "cubicPaced mode needs values that differ and can be measured (numbers, points or colours)")
}

@Test func cubicPacedValueCountIsBounded() {
    let values = (0...1000).map { "\($0)" }.joined(separator: ", ")
    let found = problems(
        preset(
            layer: """
                { "type": "circle", "center": [50, 40], "radius": 10, "fill": "red",
                  "animations": [ { "keyPath": "opacity", "values": [\(values)], "duration": 1, "calculationMode": "cubicPaced" } ] }
                """))
    #expect(found.map(\.path) == ["$.layers[0].animations[0].values"])
    #expect(
        found.first?.message
            == "cubicPaced takes at most 1000 values (each frame measures the whole spline), found 1001")
}
