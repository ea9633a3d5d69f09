import Foundation
import Geometry
import Spec
import Testing

@testable import Timeline

@Test func replicatorCopiesLagAndTurn() throws {
    // Seven copies, each 360/7° further clockwise and 0.35 s later (CAReplicatorLayer).
    var dot = LayerState(shape: .circle(center: Point(x: 50, y: 10), radius: 5))
    dot.fillColor = .black
    let blink = Animation(
        content: .basic(property: .opacity, from: .number(1), to: .number(0)), duration: 2.45, repeatCount: .infinity)
    let replicator = Layer(
        state: LayerState(
            shape: .replicator(
                bounds: Rect(x: 0, y: 0, width: 100, height: 100),
                replication: Replication(instanceCount: 7, rotation: 360.0 / 7, instanceDelay: 0.35))),
        children: [Layer(state: dot, animations: [blink])])
    let composition = Composition(name: "r", canvas: Canvas(width: 100, height: 100), layers: [replicator])
    let scene = SceneEvaluator.scene(of: composition, at: 3.0)
    guard case .group(let copies, _)? = scene.nodes.first?.content else {
        Issue.record("no replicator node")
        return
    }
    #expect(copies.count == 7)
    for (i, copy) in copies.enumerated() {
        // Copy i sees time 3.0 − 0.35·i; its dot's opacity is 1 − ((t mod 2.45) / 2.45).
        let local = (3.0 - 0.35 * Double(i)).truncatingRemainder(dividingBy: 2.45)
        guard case .group(let inner, _) = copy.content, let node = inner.first else { continue }
        #expect(abs(node.opacity - (1 - local / 2.45)) < 1e-9, "copy \(i)")
        // The copy's transform turns the dot's centre i·51.43° about (50, 50).
        let centre = copy.transform.apply(to: Point(x: 50, y: 10))
        let angle = Double(i) * 2 * Double.pi / 7
        #expect(abs(centre.x - (50 + 40 * sin(angle))) < 1e-9 && abs(centre.y - (50 - 40 * cos(angle))) < 1e-9)
    }
}

@Test func replicatorDelayMovesTheSteadyStateStart() throws {
    // Seven copies 0.35 s apart of a 2.45 s forever animation (the blink-dots preset before it
    // was rewritten with state, issue 16).
    var dot = LayerState(shape: .circle(center: Point(x: 50, y: 10), radius: 5))
    dot.fillColor = .black
    let blink = Animation(
        content: .basic(property: .opacity, from: .number(1), to: .number(0)), duration: 2.45, repeatCount: .infinity)
    let replicator = Layer(
        state: LayerState(
            shape: .replicator(
                bounds: Rect(x: 0, y: 0, width: 100, height: 100),
                replication: Replication(instanceCount: 7, rotation: 360.0 / 7, instanceDelay: 0.35))),
        children: [Layer(state: dot, animations: [blink])])
    let composition = Composition(name: "r", canvas: Canvas(width: 100, height: 100), layers: [replicator])
    let plan = try LoopPlan.make(for: composition, fps: 20)
    #expect(abs(plan.period - 2.45) < 1e-12)
    #expect(plan.frameCount == 49)
    #expect(abs(plan.start - 2.45) < 1e-12)  // the last copy starts 6 · 0.35 = 2.1 s late
}

@Test(arguments: [
    ("{p:%d}%", 99.99, "99%"), ("{p:%.0f}%", 99.6, "100%"), ("{p:%.1f}", 2.25, "2.2"), ("{p}", 3, "3"),
    ("{{literal}} {p:%d}", -1.7, "{literal} -1"),
])
func textPlaceholdersFormat(template: String, value: Double, expected: String) throws {
    guard case .success(let parts) = TextTemplate.parse(template) else {
        Issue.record("template did not parse")
        return
    }
    #expect(TextTemplate.render(parts, values: ["p": value]) == expected)
}

@Test func progressLabelTruncatesLikeInt() throws {
    let composition = try PresetLoader.load(contentsOf: packageRoot + "/presets/circular-progress.json").composition
    // 0.5 per 1/60 s tick: at 3.325 s (199 ticks) the counter is 99.5 and the label says 99 %
    // (Int() truncates); at 200 ticks it is 100, and the bolt replaces the label.
    let scene = SceneEvaluator.scene(of: composition, at: 6 + 3.325)
    let texts = scene.nodes.compactMap { node -> String? in
        if case .text(let t) = node.content { return t.string }
        return nil
    }
    #expect(texts == ["99%"])
    let later = SceneEvaluator.scene(of: composition, at: 6 + 3.5)
    #expect(later.nodes.allSatisfy { if case .text = $0.content { false } else { true } })
    #expect(later.nodes.count == 2)  // ring and bolt
}

@Test func fillAndStrokeColoursAnimatePerChannel() throws {
    var state = LayerState(shape: .circle(center: Point(x: 5, y: 5), radius: 4))
    state.fillColor = .black
    state.strokeColor = .black
    let fill = Animation(
        content: .basic(
            property: .fillColor, from: .color(RGBAColor(red: 1, green: 0, blue: 0)),
            to: .color(RGBAColor(red: 0, green: 0, blue: 1))),
        duration: 2)
    let stroke = Animation(
        content: .keyframes(
            property: .strokeColor,
            keyframes: Keyframes(
                values: [.color(.white), .color(RGBAColor(red: 0, green: 1, blue: 0, alpha: 0.5))], keyTimes: [0, 1],
                timingFunctions: [.linear], calculationMode: .linear)),
        duration: 2)
    let at = AnimationEvaluator.presentation(of: state, animations: [fill, stroke], at: 0.5)
    #expect(at.fillColor == RGBAColor(red: 0.75, green: 0, blue: 0.25))
    #expect(at.strokeColor == RGBAColor(red: 0.75, green: 1, blue: 0.75, alpha: 0.875))
    let drawing = try #require(SceneEvaluator.drawing(for: at))
    #expect(drawing.fillColor == RGBAColor(red: 0.75, green: 0, blue: 0.25))
    #expect(drawing.stroke.color.alpha == 0.875)
}

@Test func cubicKeyframesPassThroughValuesSmoothly() {
    let k = Keyframes(
        values: [.number(0), .number(10), .number(0)], keyTimes: [0, 0.5, 1], timingFunctions: [.linear, .linear],
        calculationMode: .cubic)
    #expect(k.value(at: 0.5) == .number(10))
    // Catmull-Rom: the tangent at the middle key is (0 − 0)/1 = 0, so just before and after it the
    // curve sits below 10 on both sides (a smooth top), unlike linear's sharp corner.
    guard case .number(let before) = k.value(at: 0.45), case .number(let after) = k.value(at: 0.55) else { return }
    #expect(before > 9.5 && before < 10 && abs(before - after) < 1e-12)
    // The end tangent is one-sided: (10 − 0)/0.5 = 20 per unit time, 10 over the segment; at
    // s = 0.5 the Hermite basis gives 0.125·10 + 0.5·10 = 6.25 (linear would give 5).
    #expect(k.value(at: 0.25) == .number(6.25))
}
