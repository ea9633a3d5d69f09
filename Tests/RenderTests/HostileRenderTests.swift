import Foundation
import Geometry
import Spec
import Testing
import Timeline

@testable import Render

// Issue 18: sizes from hostile scales must be errors, never traps; a huge simple polygon fills.

@Test func aHugeScaleIsARenderErrorNotATrap() {
    let scene = FrameScene(width: 100, height: 100, background: nil, nodes: [])
    #expect(SceneRenderer.pixelSize(width: 100, height: 100, scale: 1e300) == (Int(Int32.max), Int(Int32.max)))
    #expect {
        try SceneRenderer.render(scene, scale: 1e300)
    } throws: { error in
        (error as? RenderError)?.description
            == "create 2147483647×2147483647 surface: size must be 1…32767 pixels"
    }
}

@Test func rgbaImageRejectsOverflowingSizes() {
    #expect(RGBAImage(width: Int.max / 2, height: 3, pixels: []) == nil)
    #expect(RGBAImage(width: 1 << 31, height: 1 << 31, pixels: []) == nil)
    #expect(RGBAImage(width: 1, height: 1, pixels: [1, 2, 3, 4]) != nil)
}

@Test func aHundredThousandPointPolygonFillsItsDisc() throws {
    // A convex 100 000-gon inscribed in a circle of radius 30 at (40, 40): the renderer builds the
    // path in one pass and Cairo fills it; pixels inside the disc are red, outside clear.
    let n = 100_000
    let points = (0..<n).map { i -> Point in
        let a = Double(i) * 2 * .pi / Double(n)
        return Point(x: 40 + 30 * cos(a), y: 40 + 30 * sin(a))
    }
    let path = BezierPath.polygon(points)
    #expect(path.elements.count == n + 1)
    let drawing = ShapeDrawing(
        fillPath: path, fillColor: RGBAColor(red: 1, green: 0, blue: 0), fillRule: .nonZero, strokePath: nil,
        stroke: StrokeDrawing(
            color: .clear, width: 1, lineCap: .butt, lineJoin: .miter, miterLimit: 10, dashes: [], dashPhase: 0))
    let scene = FrameScene(
        width: 80, height: 80, background: nil,
        nodes: [SceneNode(transform: .identity, opacity: 1, content: .shape(drawing))])
    let image = try SceneRenderer.render(scene)
    #expect(image[40, 40] == (255, 0, 0, 255))
    #expect(image[40, 12] == (255, 0, 0, 255))  // 28 px up, inside
    #expect(image[40, 8].a == 0)  // 32 px up, outside
    #expect(image[5, 5].a == 0)
    // Coverage of the edge pixel row through the centre: (70, 40) is half covered by x ≤ 70.
    #expect(abs(Int(image[69, 40].a) - 255) <= 1)
    #expect(image[71, 40].a == 0)
}
