import Geometry
import Spec
import Testing
import Timeline

@testable import Render

private let red = RGBAColor(red: 1, green: 0, blue: 0)
private let noStroke = StrokeDrawing(
    color: .clear, width: 1, lineCap: .butt, lineJoin: .miter, miterLimit: 10, dashes: [], dashPhase: 0)

private func rectScene(opacity: Double = 1, background: RGBAColor? = nil) -> FrameScene {
    let path = BezierPath.rect(Rect(x: 10, y: 10, width: 20, height: 20))
    let drawing = ShapeDrawing(
        fillPath: path, fillColor: red, fillRule: .nonZero, strokePath: nil, stroke: noStroke)
    return FrameScene(
        width: 40, height: 40, background: background,
        nodes: [SceneNode(transform: .identity, opacity: opacity, content: .shape(drawing))])
}

@Test func filledRectCoversExactlyItsPixels() throws {
    let image = try SceneRenderer.render(rectScene())
    #expect(image.width == 40 && image.height == 40)
    #expect(image[10, 10] == (255, 0, 0, 255))
    #expect(image[29, 29] == (255, 0, 0, 255))
    #expect(image[9, 15] == (0, 0, 0, 0))
    #expect(image[30, 15] == (0, 0, 0, 0))
}

@Test func scaleReRendersAtHigherDensity() throws {
    let image = try SceneRenderer.render(rectScene(), scale: 2)
    #expect(image.width == 80 && image.height == 80)
    #expect(image[20, 20] == (255, 0, 0, 255))
    #expect(image[59, 59] == (255, 0, 0, 255))
    #expect(image[19, 40] == (0, 0, 0, 0))
    #expect(image[60, 40] == (0, 0, 0, 0))
}

@Test func opacityAndBackgroundComposite() throws {
    let faded = try SceneRenderer.render(rectScene(opacity: 0.5))
    #expect(faded[15, 15].a == 128)
    #expect(faded[15, 15].r == 255)
    let onWhite = try SceneRenderer.render(rectScene(opacity: 0.5, background: .white))
    #expect(onWhite[15, 15] == (255, 127, 127, 255))
    #expect(onWhite[0, 0] == (255, 255, 255, 255))
}

@Test func trimmedCircleStrokeCoversOnlyItsQuarter() throws {
    // A circle of radius 15 at (20, 20) starts at 3 o'clock and runs clockwise, so strokeEnd 0.25
    // covers 3 → 6 o'clock: the lower-right quadrant only.
    var state = LayerState(shape: .circle(center: Point(x: 20, y: 20), radius: 15))
    state.strokeColor = red
    state.lineWidth = 4
    state.strokeEnd = 0.25
    let layer = Layer(state: state)
    let composition = Composition(name: "t", canvas: Canvas(width: 40, height: 40), layers: [layer])
    let image = try SceneRenderer.render(SceneEvaluator.scene(of: composition, at: 0))
    let d = 15 / 2.0.squareRoot()
    let lowerRight = image[Int(20 + d), Int(20 + d)]
    let lowerLeft = image[Int(20 - d), Int(20 + d)]
    let upperRight = image[Int(20 + d), Int(20 - d)]
    #expect(lowerRight.a == 255 && lowerRight.r == 255)
    #expect(lowerLeft.a == 0)
    #expect(upperRight.a == 0)
}

@Test func emptyTrimDrawsNoDot() throws {
    // semantics §5.3: strokeStart == strokeEnd must not leave a round-cap dot.
    var state = LayerState(shape: .circle(center: Point(x: 20, y: 20), radius: 15))
    state.strokeColor = red
    state.lineWidth = 6
    state.lineCap = .round
    state.strokeStart = 0.3
    state.strokeEnd = 0.3
    let composition = Composition(name: "t", canvas: Canvas(width: 40, height: 40), layers: [Layer(state: state)])
    let image = try SceneRenderer.render(SceneEvaluator.scene(of: composition, at: 0))
    #expect(image.pixels.allSatisfy { $0 == 0 })
}
