import Foundation
import Geometry
import Raster
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

@Test func aSceneCutShortAtABudgetIsNeverDrawn() {
    // A source that stopped building (FrameScene.cut) hands over an incomplete scene; export
    // planning refuses it first, and the renderer refuses it too rather than draw part of it.
    let scene = FrameScene(
        width: 10, height: 10, background: nil, nodes: [], cut: SceneCut(limit: .segments, count: 4_000_001))
    #expect {
        try SceneRenderer.render(scene)
    } throws: { error in
        (error as? RenderError)?.description
            == "the frame needs more than a frame may build (FrameScene.cut); nothing is drawn"
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

/// A filled regular n-gon of radius `r` at (40, 40) on 80 × 80 pixels, going round `turns` times.
private func polygonImage(_ n: Int, turns: Int = 1, radius: Double = 30, rule: FillRule = .nonZero) throws -> RGBAImage
{
    let points = (0..<n).map { i -> Point in
        let a = Double(i * turns) * 2 * .pi / Double(n) + 0.1
        return Point(x: 40 + radius * cos(a), y: 40.3 + radius * 0.8 * sin(a))
    }
    let drawing = ShapeDrawing(
        fillPath: BezierPath.polygon(points), fillColor: RGBAColor(red: 0, green: 0, blue: 1), fillRule: rule,
        strokePath: nil,
        stroke: StrokeDrawing(
            color: .clear, width: 1, lineCap: .butt, lineJoin: .miter, miterLimit: 10, dashes: [], dashPhase: 0))
    return try SceneRenderer.render(
        FrameScene(
            width: 80, height: 80, background: nil,
            nodes: [SceneNode(transform: .identity, opacity: 1, content: .shape(drawing))]))
}

@Test func aLargeFillCoversWhatCairoCoversWithinTwoLevels() throws {
    // 19 998 points go through Cairo, 40 000 through the coverage rasteriser; the outlines differ
    // by under 1e-5 px, so their edge pixels' alpha must agree: within the 1/15-row steps of
    // Cairo's sample grid (256 × 15 per pixel, cairo-tor-scan-converter), 255 / 30 ≈ 9 levels,
    // and in total area to 0.2 %.
    #expect(SceneRenderer.largeFillSegments > 19_999 && SceneRenderer.largeFillSegments < 40_001)
    let cairo = try polygonImage(19_998)
    let ours = try polygonImage(40_000)
    var worst = 0
    var edge = 0
    var areas = (cairo: 0, ours: 0)
    for y in 0..<80 {
        for x in 0..<80 {
            worst = max(worst, abs(Int(cairo[x, y].a) - Int(ours[x, y].a)))
            areas.cairo += Int(cairo[x, y].a)
            areas.ours += Int(ours[x, y].a)
            if cairo[x, y].a > 0 && cairo[x, y].a < 255 { edge += 1 }
        }
    }
    #expect(edge > 100)  // the comparison sees the antialiased rim
    #expect(worst <= 9)
    #expect(abs(areas.cairo - areas.ours) * 500 < areas.cairo)
    // The ellipse's area, 30 × 24 × π px², within 0.2 %.
    #expect(abs(Double(areas.ours) / 255 - 30 * 24 * .pi) < 30 * 24 * .pi / 500)
    #expect(ours[40, 40] == (0, 0, 255, 255))
}

@Test func aLargeFillFollowsItsRule() throws {
    // Twice round: winding 2 inside, so non-zero fills it and even-odd leaves it empty.
    let nonZero = try polygonImage(40_000, turns: 2)
    let evenOdd = try polygonImage(40_000, turns: 2, rule: .evenOdd)
    #expect(nonZero[40, 40] == (0, 0, 255, 255))
    #expect(evenOdd[40, 40].a == 0)
    #expect(nonZero[5, 5].a == 0)
    // Wherever the winding is the same across a pixel the rule is exact; on the rim, where both
    // turns' edges cross one pixel, the averaged winding folds to a faint ring (documented).
    let once = try polygonImage(40_000)
    for y in 0..<80 {
        for x in 0..<80 where once[x, y].a == 0 || once[x, y].a == 255 {
            #expect(evenOdd[x, y].a <= 1, "(\(x), \(y))")
        }
    }
}
