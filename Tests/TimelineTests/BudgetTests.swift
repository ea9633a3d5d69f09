import Foundation
import Geometry
import Render
import Spec
import Testing
import ToolOptions

@testable import Timeline

// Issue 18 items 2 and 6: every hostile timing value is a LoopPlanError with its JSON path (no
// trap), and ExportBudget refuses what would exhaust memory or time before anything renders.

private func composition(layer: String, extra: String = "") throws -> Composition {
    let json = """
        { "version": 1, "name": "t", "canvas": { "width": 100, "height": 80 },\(extra)
          "layers": [ \(layer) ] }
        """
    return try PresetLoader.decode(bytes: Array(json.utf8), file: "t.json").composition
}

private func circle(animation: String) throws -> Composition {
    try composition(
        layer: """
            { "type": "circle", "center": [50, 40], "radius": 10, "fill": "red",
              "animations": [ { "keyPath": "opacity", "fromValue": 0, "toValue": 1, \(animation) } ] }
            """)
}

/// The error `LoopPlan.make` throws, or nil (recorded as a failure) when it plans.
private func planError(_ c: Composition, fps: Double = 30, duration: Double? = nil, fpsIsOption: Bool = false)
    -> LoopPlanError?
{
    do {
        _ = try LoopPlan.make(for: c, fps: fps, duration: duration, fpsIsOption: fpsIsOption)
        Issue.record("expected the loop plan to fail")
        return nil
    } catch {
        return error
    }
}

@Test(arguments: [
    (
        "\"duration\": 1, \"repeatCount\": \"infinity\", \"speed\": 1e-300", "speed",
        "an animation's cycle of 1e+300 s is longer than the 60 s a loop may be computed to; set \"duration\" in the preset or pass --duration"
    ),
    (
        "\"duration\": 1, \"repeatCount\": \"infinity\", \"speed\": 1e-16", "speed",
        "an animation's cycle of 1e+16 s is longer than the 60 s a loop may be computed to; set \"duration\" in the preset or pass --duration"
    ),
    (
        "\"duration\": 0.0005, \"repeatCount\": \"infinity\"", "duration",
        "an animation's cycle of 0.0005 s is not a whole number of milliseconds, so no exact loop period exists; set \"duration\" in the preset or pass --duration"
    ),
    (
        "\"duration\": 1, \"speed\": 1e-300", "speed",
        "the loop must hold this animation's whole run, 1e+300 s, which is longer than the limit of 600 s for a loop; shorten it or make it repeat forever"
    ),
    (
        "\"duration\": 1, \"repeatCount\": 1e300", "repeatCount",
        "the loop must hold this animation's whole run, 1e+300 s, which is longer than the limit of 600 s for a loop; shorten it or make it repeat forever"
    ),
    (
        "\"duration\": 1, \"repeatCount\": 1e15", "repeatCount",
        "the loop must hold this animation's whole run, 1e+15 s, which is longer than the limit of 600 s for a loop; shorten it or make it repeat forever"
    ),
    (
        "\"duration\": 1, \"repeatCount\": 9.3e18, \"style\": \"swiftUI\", \"autoreverses\": true", "repeatCount",
        "the loop must hold this animation's whole run, 9.3e+18 s, which is longer than the limit of 600 s for a loop; shorten it or make it repeat forever"
    ),
    (
        "\"duration\": 1, \"beginTime\": 1e9", "beginTime",
        "the loop must hold this animation's whole run, 1000000001 s, which is longer than the limit of 600 s for a loop; shorten it or make it repeat forever"
    ),
    (
        "\"duration\": 1, \"repeatDuration\": 1e12", "repeatDuration",
        "the loop must hold this animation's whole run, 1000000000000 s, which is longer than the limit of 600 s for a loop; shorten it or make it repeat forever"
    ),
    (
        "\"duration\": 1, \"repeatCount\": \"infinity\", \"beginTime\": 1e9", "beginTime",
        "the loop starts once every animation runs, at 1000000000 s here, later than the limit of 86400 s"
    ),
])
func hostileTimingIsAnErrorAtItsKey(animation: String, key: String, message: String) throws {
    let c = try circle(animation: animation)
    let error = planError(c)
    let path = "$.layers[0].animations[0].\(key)"
    #expect(error?.path == path)
    #expect(error?.message == message)
    // The diagnostic points at the key's value in the file.
    let d = error?.diagnostic(file: "t.json", composition: c)
    #expect(d?.path == path)
    #expect(d?.location != nil && d?.location == c.sourceLocations[path])
    #expect(d?.description.hasPrefix("t.json:3:") == true)
    // Budget limits are violations of the preset (exit 65); the other two are plain plan errors.
    if let v = error?.violation {
        #expect(v.subject == .preset(path: path))
        #expect(v.exitCode == 65)
        #expect(ExportBudget.check(c) == [v])
    } else {
        #expect(message.contains("milliseconds") || message.contains("60 s a loop"))
        #expect(ExportBudget.check(c).isEmpty)
    }
}

@Test func repeatCountValueAndLimitAreReported() throws {
    let v = planError(try circle(animation: "\"duration\": 1, \"repeatCount\": 1e15"))?.violation
    #expect(v?.value == 1e15)
    #expect(v?.limit == 600)
}

@Test(arguments: [
    (1e9, "--duration: a loop period of 1000000000 s is longer than the limit of 600 s", 1e9, 600.0),
    (1e-9, "--duration: a loop period of 1e-09 s is shorter than 0.01 s (one GIF delay unit)", 1e-9, 0.01),
    (Double.nan, "--duration: a loop period of nan s is shorter than 0.01 s (one GIF delay unit)", Double.nan, 0.01),
])
func durationOptionOutOfRangeIsAUsageError(duration: Double, message: String, value: Double, limit: Double) throws {
    let c = try circle(animation: "\"duration\": 1, \"repeatCount\": \"infinity\"")
    let error = planError(c, duration: duration)
    #expect(error?.message == message)
    #expect(error?.path == nil)
    #expect(error?.violation?.subject == .option("--duration"))
    #expect(error?.violation?.exitCode == 64)
    #expect(error?.violation?.limit == limit)
    #expect(error?.violation?.value.isNaN == value.isNaN)
    #expect(ExportBudget.check(c, duration: duration).map(\.description) == [message])
}

@Test func frameCountOverTheLimitBlamesFps() throws {
    let c = try circle(animation: "\"duration\": 1, \"repeatCount\": \"infinity\"")
    let option = planError(c, fps: 1000, duration: 600, fpsIsOption: true)
    #expect(option?.message == "--fps: 600 s at 1000 fps is 600000 frames, more than the limit of 72000")
    #expect(ExportBudget.check(c, fps: 1000, duration: 600).first?.subject == .option("--fps"))
    // 600 s at the format's 120 fps is exactly the limit, and passes.
    #expect(try LoopPlan.make(for: c, fps: 120, duration: 600).frameCount == 72_000)
}

// MARK: - ExportBudget

private func presets() throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: packageRoot + "/presets").filter { $0.hasSuffix(".json") }
        .sorted()
}

@Test func everyBundledPresetFitsAtTheLargestScale() throws {
    let names = try presets()
    #expect(names.count == 12)  // the nine seeds plus circular-linear, circular-autoreverse, loading-dots-modifier
    for name in names {
        // loading-dots measures its label (`ceil(@label.width)`), as the CLI does with the renderer's fonts.
        let measure: TextMeasurer = { string, content in
            FontLibrary.measure(
                string, family: content.fontFamily, size: content.fontSize, weight: content.fontWeight,
                features: content.features)
        }
        let c = try PresetLoader.load(contentsOf: packageRoot + "/presets/" + name, measureText: measure).composition
        #expect(ExportBudget.check(c, scale: 16).isEmpty, "\(name)")
    }
}

@Test func aTenMinuteLoopAtFiftyFpsOn256Fits() throws {
    let c = try PresetLoader.load(contentsOf: packageRoot + "/presets/circular.json", overrides: ["size": "256"])
        .composition
    #expect(c.canvas.width == 256)
    #expect(ExportBudget.check(c, fps: 50, duration: 600, scale: 1).isEmpty)
    #expect(ExportBudget.check(c, fps: 50, duration: 600, scale: 16).isEmpty)  // 4096 × 4096 exactly
    let over = ExportBudget.check(c, scale: 16.1)
    #expect(
        over.map(\.description) == [
            "--scale: 256×256 pt at --scale 16.1 is 4122×4122 = 16990884 pixels per frame, more than the limit of 16777216 (4096×4096)"
        ])
    #expect(over.first?.exitCode == 64)
    #expect(over.first?.value == 16_990_884)
}

@Test(arguments: [
    (1e-9, "--scale: 256×256 pt at --scale 1e-09 is 2.56e-07×2.56e-07 px; each side must be at least 1 px"),
    (0.001, "--scale: 256×256 pt at --scale 0.001 is 0.256×0.256 px; each side must be at least 1 px"),
    (Double.infinity, "--scale: the scale must be a finite number > 0, found infinity"),
    (-1, "--scale: the scale must be a finite number > 0, found -1"),
])
func tinyOrNonsenseScalesAreRefused(scale: Double, message: String) throws {
    let c = try PresetLoader.load(contentsOf: packageRoot + "/presets/circular.json", overrides: ["size": "256"])
        .composition
    #expect(ExportBudget.check(c, scale: scale).map(\.description) == [message])
}

@Test func pixelSizeNeverTraps() {
    #expect(ExportBudget.pixelSize(width: 100, height: 50, scale: 2.5) == (250, 125))
    #expect(ExportBudget.pixelSize(width: 100, height: 50, scale: 1e300) == (Int(Int32.max), Int(Int32.max)))
    #expect(ExportBudget.pixelSize(width: 100, height: 50, scale: .nan) == (1, 1))
    #expect(ExportBudget.pixelSize(width: 100, height: 50, scale: 1e-9) == (1, 1))
}

@Test func aFineDashOnABigCircleIsRefusedAtItsPattern() throws {
    // Issue 18: dash [0.005, 0.005] on a 2000 pt circle took 38 s and 1.4 GB.
    let c = try composition(
        layer: """
            { "type": "circle", "center": [50, 40], "radius": 1000,
              "stroke": { "color": "black", "lineDashPattern": [0.005, 0.005] } }
            """)
    let found = ExportBudget.check(c)
    // 2π·1000 / 0.01 + 2 = 628 320.5 dashes at most, one painted length per period.
    #expect(
        found.map(\.description) == [
            "$.layers[0].stroke.lineDashPattern: a frame may cut up to 628321 dashes (this stroke: 628321, its path length over the pattern's period), more than the limit of 100000"
        ])
    #expect(found.first?.exitCode == 65)
    let d = found.first?.diagnostic(file: "t.json", composition: c)
    #expect(d?.location == SourceLocation(line: 3, column: 52))
    // The same dash on a 100 pt circle: 31 418 dashes, within the budget.
    let small = try composition(
        layer: """
            { "type": "circle", "center": [50, 40], "radius": 50,
              "stroke": { "color": "black", "lineDashPattern": [0.005, 0.005] } }
            """)
    #expect(ExportBudget.check(small).isEmpty)
}

@Test func animatedRadiusCountsAtItsLargestWithOvershoot() throws {
    // Radius animated to 500: bound 2π·(2·500) / 0.04 + 2 = 157 082 dashes (the factor 2 covers
    // timing curves that overshoot; [0.02] is read as [0.02, 0.02], period 0.04).
    let c = try composition(
        layer: """
            { "type": "circle", "center": [50, 40], "radius": 10,
              "stroke": { "color": "black", "lineDashPattern": [0.02] },
              "animations": [ { "keyPath": "radius", "toValue": 500, "duration": 1 } ] }
            """)
    let found = ExportBudget.check(c)
    #expect(found.map(\.subject) == [.preset(path: "$.layers[0].stroke.lineDashPattern")])
    #expect(found.first?.value == (2 * Double.pi * 1000 / 0.04 + 2).rounded(.up))
}

@Test func drawnExtentMultipliesEveryScaleAboveALayer() throws {
    // A 10 pt ring with a 2 pt stroke is 2·10 + 2 = 22 pt across; under a group at scale 3 and
    // its own scale animated to 100 000 (doubled for overshoot: 200 000) it is drawn
    // 22 · 3 · 200 000 = 13 200 000 px across, over 2^23 = 8 388 608; the animation's
    // `toValue` is the larger factor, so it is blamed.
    let ring = """
        { "type": "circle", "center": [50, 40], "radius": 10, "stroke": { "color": "black", "width": 2 },
          "animations": [ { "keyPath": "scale", "fromValue": 1, "toValue": 100000, "duration": 1 } ] }
        """
    let c = try composition(layer: "{ \"type\": \"group\", \"scale\": 3, \"layers\": [ \(ring) ] }")
    let found = ExportBudget.check(c)
    #expect(found.map(\.subject) == [.preset(path: "$.layers[0].layers[0].animations[0].toValue")])
    #expect(found.first?.value == 13_200_000.0)  // 22 · 3 · 200 000
    #expect(found.first?.limit == 8_388_608.0)
    // At scale 1 for the group: 4 400 000 px fits; at --scale 2 it is 8 800 000 again.
    let fits = try composition(layer: "{ \"type\": \"group\", \"scale\": 1, \"layers\": [ \(ring) ] }")
    #expect(ExportBudget.check(fits).isEmpty)
    #expect(ExportBudget.check(fits, scale: 2).map(\.value) == [8_800_000.0])
    // A replicator step compounds: 1.5^(40 − 1) ≈ 7.4e6 on a 2 pt dot is refused at the step.
    let dot = "{ \"type\": \"circle\", \"center\": [1, 1], \"radius\": 1, \"fill\": \"red\" }"
    let stepped = try composition(
        layer: """
            { "type": "replicator", "instanceCount": 40, "instanceTransform": { "scale": 1.5 }, "layers": [ \(dot) ] }
            """)
    #expect(ExportBudget.check(stepped).map(\.subject) == [.preset(path: "$.layers[0].instanceTransform.scale")])
    #expect(ExportBudget.check(stepped).first?.value == 2 * pow(1.5, 39))
}

@Test func drawnLayersAreCountedWithTheirCopies() throws {
    let circleLayer = "{ \"type\": \"circle\", \"center\": [1, 1], \"radius\": 1, \"fill\": \"red\" }"
    func nested(_ outer: Int, _ inner: Int) throws -> Composition {
        let child = "{ \"type\": \"replicator\", \"instanceCount\": \(inner), \"layers\": [ \(circleLayer) ] }"
        return try composition(
            layer: "{ \"type\": \"replicator\", \"instanceCount\": \(outer), \"layers\": [ \(child) ] }")
    }
    // 1 + 50 + 50·50 = 2551 layers drawn (15 000 segments, well within their limit).
    #expect(
        ExportBudget.check(try nested(50, 50)).map(\.description) == [
            "$.layers[0].instanceCount: a frame may draw 2551 layers (replicator copies counted), more than the limit of 2000; use fewer instances"
        ])
    // 1 + 40 + 40·40 = 1641 fits.
    #expect(ExportBudget.check(try nested(40, 40)).isEmpty)
}

@Test func nestedReplicatorsAreRefusedAtTheOutermostCount() throws {
    let circleLayer = "{ \"type\": \"circle\", \"center\": [1, 1], \"radius\": 1, \"fill\": \"red\" }"
    let inner = "{ \"type\": \"replicator\", \"instanceCount\": 1000, \"layers\": [ \(circleLayer) ] }"
    let middle = "{ \"type\": \"replicator\", \"instanceCount\": 1000, \"layers\": [ \(inner) ] }"
    let c = try composition(layer: "{ \"type\": \"replicator\", \"instanceCount\": 1000, \"layers\": [ \(middle) ] }")
    #expect(
        ExportBudget.check(c).map(\.description) == [
            "$.layers[0].instanceCount: a frame may draw 6000000000 path segments (this layer: 6 in each of 1000000000 copies), more than the limit of 2000000",
            "$.layers[0].instanceCount: a frame may draw 1001001001 layers (replicator copies counted), more than the limit of 2000; use fewer instances",
        ])
    // One level (a thousand circles, 6000 segments) fits.
    let one = try composition(layer: inner)
    #expect(ExportBudget.check(one).isEmpty)
}

@Test func aMillionPointPolygonFitsAndTwoMillionDoNot() {
    func polygon(_ n: Int) -> Composition {
        let points = (0..<n).map { i in
            Point(x: 50 + 40 * cos(Double(i) * 2 * .pi / Double(n)), y: 40 + 30 * sin(Double(i) * 2 * .pi / Double(n)))
        }
        var state = LayerState(shape: .polygon(points: points, closed: true))
        state.fillColor = .black
        return Composition(
            name: "p", canvas: Canvas(width: 100, height: 80), layers: [Layer(state: state, sourcePath: "$.layers[0]")])
    }
    #expect(ExportBudget.check(polygon(1_000_000)).isEmpty)
    #expect(
        ExportBudget.check(polygon(2_000_000)).map(\.description) == [
            "$.layers[0].points: a frame may draw 2000001 path segments (this layer: 2000001), more than the limit of 2000000"
        ])
}

@Test(arguments: [
    (1e300, "$.layers[0].endAngle: the arc may sweep 2.77778e+297 turns, more than the limit of 256"),
    (3.6e9, "$.layers[0].endAngle: the arc may sweep 10000001 turns, more than the limit of 256"),
])
func hugeArcSweepsAreRefusedAtTheEndAngle(endAngle: Double, message: String) throws {
    let c = try composition(
        layer: """
            { "type": "arc", "center": [50, 40], "radius": 30, "startAngle": 0, "endAngle": \(endAngle),
              "stroke": { "color": "black" } }
            """)
    #expect(ExportBudget.check(c).map(\.description) == [message])
    // Evaluating it still works and the path stays bounded (no trap, no 40-million-element path).
    let scene = SceneEvaluator.scene(of: c, at: 0)
    guard case .shape(let drawing)? = scene.nodes.first?.content, let path = drawing.strokePath else {
        Issue.record("no stroke")
        return
    }
    #expect(path.elements.count == BezierPath.maximumArcSegments + 1)
}

@Test func oversizedImageHeaderIsRefusedBeforeDecoding() throws {
    // A header-only file: the budget reads the IHDR, never the pixels.
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("budget-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: dir) }
    let be = { (n: Int) in [24, 16, 8, 0].map { UInt8((n >> $0) & 0xFF) } }
    let header: [UInt8] =
        [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + be(13) + Array("IHDR".utf8) + be(30000) + be(20000)
    let file = dir.appendingPathComponent("big.png")
    try Data(header).write(to: file)
    let image = ImageContent(
        file: "big.png", resolvedPath: file.path, center: Point(x: 0, y: 0), size: Point(x: 10, y: 10))
    let c = Composition(
        name: "i", canvas: Canvas(width: 10, height: 10),
        layers: [Layer(state: LayerState(shape: .image(image)), sourcePath: "$.layers[0]")])
    #expect(
        ExportBudget.check(c).map(\.description) == [
            "$.layers[0].file: the image \"big.png\" is 30000×20000 = 600000000 pixels, more than the limit of 16777216 (4096×4096)"
        ])
}

// MARK: - cubic and cubicPaced, against hand-computed values

@Test func cubicThroughUnevenKeyTimes() {
    // values 0, 10, 30 at key times 0, 0.25, 1. Tangents (per unit time): one-sided at the ends,
    // central inside: m0 = 10/0.25 = 40, m1 = 30/1 = 30, m2 = 20/0.75 = 80/3.
    // Segment 0 (span 0.25) at s = 0.5 (p = 0.125): Hermite 0.5·0 + 0.125·(40·0.25) + 0.5·10
    // − 0.125·(30·0.25) = 1.25 + 5 − 0.9375 = 5.3125.
    // Segment 1 (span 0.75) at s = 0.5 (p = 0.625): 0.5·10 + 0.125·22.5 + 0.5·30 − 0.125·20
    // = 5 + 2.8125 + 15 − 2.5 = 20.3125.
    let k = Keyframes(
        values: [.number(0), .number(10), .number(30)], keyTimes: [0, 0.25, 1],
        timingFunctions: [.linear, .linear], calculationMode: .cubic)
    func number(_ p: Double) -> Double {
        if case .number(let v) = k.value(at: p) { return v }
        return .nan
    }
    #expect(abs(number(0.125) - 5.3125) < 1e-12)
    #expect(abs(number(0.625) - 20.3125) < 1e-12)
    #expect(k.value(at: 0.25) == .number(10))
    #expect(k.value(at: 1) == .number(30))
}

@Test func cubicPacedMovesAtConstantSpeed() throws {
    // Points (0,0), (10,0), (10,10) on evenly spaced knots. The spline is symmetric under the
    // reflection (x, y) → (10 − y, 10 − x), which swaps its two halves, so at constant speed the
    // middle of the time is the middle key: p = 0.5 lands on (10, 0).
    let c = try composition(
        layer: """
            { "type": "circle", "center": [0, 0], "radius": 1, "fill": "red",
              "animations": [ { "keyPath": "position", "values": [[0, 0], [10, 0], [10, 10]], "duration": 1,
                "calculationMode": "cubicPaced" } ] }
            """)
    guard case .keyframes(_, let k) = c.layers[0].animations[0].content else {
        Issue.record("not keyframes")
        return
    }
    guard case .point(let mid) = k.value(at: 0.5) else { return }
    #expect(abs(mid.x - 10) < 1e-9 && abs(mid.y) < 1e-9)
    // Equal steps in time cover equal arc lengths (to the 64-samples-per-segment table's
    // accuracy): 100 chords at p = i/100 differ by under 0.2 % from their mean.
    let points = (0...100).compactMap { i -> Point? in
        if case .point(let p) = k.value(at: Double(i) / 100) { return p }
        return nil
    }
    let steps = zip(points, points.dropFirst()).map { $0.distance(to: $1) }
    let mean = steps.reduce(0, +) / Double(steps.count)
    #expect(steps.allSatisfy { abs($0 - mean) / mean < 0.002 })
    // Numbers: 0, 10, 30 is monotone, so its arc length is the distance travelled, 30, and
    // constant speed means value = 30·p (within the table's linear interpolation, 0.01).
    let numbers = Keyframes(
        values: [.number(0), .number(10), .number(30)], keyTimes: [0, 0.5, 1], timingFunctions: [.linear, .linear],
        calculationMode: .cubicPaced)
    for p in [0.1, 0.25, 0.5, 0.75, 0.9] {
        guard case .number(let v) = numbers.value(at: p) else { continue }
        #expect(abs(v - 30 * p) < 0.01, "p = \(p): \(v)")
    }
}
