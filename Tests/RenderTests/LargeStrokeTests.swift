// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Geometry
import Spec
import Testing
import Timeline

@testable import Render

// Issue 18 item 6: strokes of more than `SceneRenderer.largeStrokePoints` points are drawn by
// `PolylineStroker` + `CoverageRasterizer`; here both stroke the same polylines and are compared.

/// A stroke of `path` in black on a transparent `size` × `size` canvas through `transform`.
private func strokeScene(
    _ path: BezierPath, width: Double, cap: LineCap, join: LineJoin, miterLimit: Double = 10,
    dashes: [Double] = [], phase: Double = 0, transform: Geometry.AffineTransform = .identity, size: Double = 120
) -> FrameScene {
    let drawing = ShapeDrawing(
        fillPath: nil, fillColor: .clear, fillRule: .nonZero, strokePath: path,
        stroke: StrokeDrawing(
            color: RGBAColor(red: 0, green: 0, blue: 0), width: width, lineCap: cap, lineJoin: join,
            miterLimit: miterLimit, dashes: dashes, dashPhase: phase))
    return FrameScene(
        width: size, height: size, background: nil,
        nodes: [SceneNode(transform: ProjectiveTransform(transform), opacity: 1, content: .shape(drawing))])
}

/// Alpha differences between Cairo's stroke (threshold `Int.max`) and ours (threshold 0).
private struct Comparison {
    var mean = 0.0
    var worst = 0
    var cairoSum = 0
    var oursSum = 0
    /// Pixels Cairo antialiases (0 < alpha < 255): the comparison must see an edge.
    var edgePixels = 0
    /// Pixels that differ by more than 64 levels (a quarter pixel's coverage).
    var farOff = 0
    var worstAt = (0, 0, 0, 0)

    init(_ scene: FrameScene, scale: Double = 1) throws {
        let cairo = try SceneRenderer.render(scene, scale: scale, largeStrokeThreshold: Int.max)
        let ours = try SceneRenderer.render(scene, scale: scale, largeStrokeThreshold: 0)
        var total = 0
        for y in 0..<cairo.height {
            for x in 0..<cairo.width {
                let a = Int(cairo[x, y].a)
                let b = Int(ours[x, y].a)
                total += abs(a - b)
                if abs(a - b) > worst { worstAt = (x, y, a, b) }
                worst = max(worst, abs(a - b))
                if abs(a - b) > 64 { farOff += 1 }
                cairoSum += a
                oursSum += b
                if a > 0 && a < 255 { edgePixels += 1 }
            }
        }
        mean = Double(total) / Double(cairo.width * cairo.height)
    }

    /// |Σ ours − Σ Cairo| / Σ Cairo.
    var areaError: Double { Double(abs(oursSum - cairoSum)) / Double(max(cairoSum, 1)) }
}

/// `count` points of a seeded random walk over the canvas (x, y in 10…110): self-intersecting.
private func randomPolyline(_ count: Int, seed: UInt64, closed: Bool = false) -> BezierPath {
    var state = seed
    func next() -> Double {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Double(state >> 11) / Double(1 << 53)
    }
    let points = (0..<count).map { _ in Point(x: 10 + 100 * next(), y: 10 + 100 * next()) }
    return BezierPath.polygon(points, closed: closed)
}

/// A 2000-point Archimedean spiral around (60, 60), three turns from radius 5 to 30: segments of
/// about 0.16 px with 0.5° turns, the stroke never overlapping itself.
private let spiral = BezierPath.polygon(
    (0..<2000).map { i -> Point in
        let t = Double(i) / 2000 * 6 * .pi
        return Point(x: 60 + (5 + 4 * t) * cos(t), y: 60 + (5 + 4 * t) * sin(t))
    }, closed: false)

private let styles: [(LineCap, LineJoin)] = LineCap.allCases.flatMap { cap in LineJoin.allCases.map { (cap, $0) } }

@Test(arguments: styles)
func aLargeStrokeWithoutOverlapMatchesCairo(cap: LineCap, join: LineJoin) throws {
    // Where the stroke does not overlap itself the coverage is exact area; Cairo samples each
    // pixel on 15 rows (cairo-tor-scan-converter, GRID_Y 15) and rounds its outline to 1/256 px,
    // so an edge pixel may differ by about one sample row, 255 / 15 = 17 levels (seen: 6–11,
    // mean under 0.03, area within 0.01 %). Dashes of 7 with gaps of 6 keep the caps of
    // neighbouring dashes (4.5 / 2 each) apart.
    for dashes in [[], [7.0, 6.0]] {
        let c = try Comparison(strokeScene(spiral, width: 4.5, cap: cap, join: join, dashes: dashes, phase: 1))
        #expect(c.edgePixels > 1000)
        if dashes.isEmpty {
            #expect(c.worst <= 17, "worst \(c.worst) at \(c.worstAt)")
            #expect(c.mean < 0.05, "mean \(c.mean)")
            #expect(c.areaError < 0.0005, "area \(c.areaError)")
        } else {
            // Cairo rounds the path to 1/256 px, so the sliver between a dash's exact end and
            // the next fixed vertex, a few 1/256 px long, turns its butt or square end by up to
            // 45° there (PolylineStroker follows the path): 2–8 pixels of the ~1500 on the rim.
            #expect(c.farOff <= 10, "\(c.farOff) pixels off by more than 64 levels")
            #expect(c.mean < 0.3, "mean \(c.mean)")
            #expect(c.areaError < 0.003, "area \(c.areaError)")
        }
    }
}

@Test(arguments: styles)
func aLargeSelfIntersectingStrokeMatchesCairoInArea(cap: LineCap, join: LineJoin) throws {
    // 300 random points, self-intersecting everywhere, solid and dashed (caps of neighbouring
    // dashes overlap: gap 2 < width 3). Where pieces overlap, the averaged winding over-covers
    // the pixels an overlap shares with the stroke's rim (PolylineStroker), and joins right at
    // the miter limit may miter on one side and bevel on the other (Cairo tests the limit with
    // 24.8 fixed-point slopes): a few pixels far off, the rest within antialiasing.
    for dashes in [[], [5.0, 2.0]] {
        let c = try Comparison(
            strokeScene(randomPolyline(300, seed: 7), width: 3, cap: cap, join: join, dashes: dashes))
        #expect(c.edgePixels > 900)
        #expect(c.mean < 2.5, "\(dashes): mean \(c.mean)")
        #expect(c.areaError < 0.02, "\(dashes): area \(c.areaError)")
        #expect(c.farOff * 10 < c.edgePixels, "\(dashes): \(c.farOff) pixels off by more than 64 levels")
    }
}

@Test(arguments: styles)
func aScaledStrokeIsStrokedInUserSpace(cap: LineCap, join: LineJoin) throws {
    // Under a non-uniform scale the pen is a circle in user space, an ellipse on the device:
    // a closed 40-point polygon, x halved and y × 1.2, compared with Cairo's.
    let scene = strokeScene(
        randomPolyline(40, seed: 3, closed: true), width: 6, cap: cap, join: join, transform: .scale(x: 0.5, y: 1.2))
    let c = try Comparison(scene)
    #expect(c.edgePixels > 600)
    #expect(c.mean < 0.8, "mean \(c.mean)")
    #expect(c.areaError < 0.01, "area \(c.areaError)")
    #expect(c.farOff * 15 < c.edgePixels, "\(c.farOff) pixels off by more than 64 levels")
    // A horizontal line of width 2 under y × 3 is 6 px tall on the device, exactly.
    let line = BezierPath.line(from: Point(x: 10, y: 10), to: Point(x: 90, y: 10))
    let image = try SceneRenderer.render(
        strokeScene(line, width: 2, cap: .butt, join: join, transform: .scale(x: 1, y: 3)), scale: 1,
        largeStrokeThreshold: 0)
    for y in 25..<35 {
        #expect(image[50, y].a == ((27..<33).contains(y) ? 255 : 0), "row \(y)")
    }
    #expect(image[9, 30].a == 0)
    #expect(image[10, 30].a == 255)
    #expect(image[89, 30].a == 255)
    #expect(image[90, 30].a == 0)
}

@Test(arguments: LineCap.allCases)
func anAxisAlignedOutlineIsExact(cap: LineCap) throws {
    // A rectangle outline on whole pixels with a width of 2 (miter corners) and an open
    // staircase of whole-pixel steps: every pixel is 0 or 255, and Cairo's exactly.
    let rect = BezierPath.rect(Rect(x: 10, y: 20, width: 70, height: 50))
    let stairs = BezierPath.polygon(
        [Point(x: 20, y: 100), Point(x: 40, y: 100), Point(x: 40, y: 90), Point(x: 60, y: 90), Point(x: 60, y: 80)],
        closed: false)
    // Round caps are round: only the closed outline is exact with them.
    for path in cap == .round ? [rect] : [rect, stairs] {
        let scene = strokeScene(path, width: 2, cap: cap, join: .miter)
        let cairo = try SceneRenderer.render(scene, scale: 1, largeStrokeThreshold: Int.max)
        let ours = try SceneRenderer.render(scene, scale: 1, largeStrokeThreshold: 0)
        #expect(ours.pixels == cairo.pixels)
        #expect(ours.pixels.allSatisfy { $0 == 0 || $0 == 255 })
    }
    let ours = try SceneRenderer.render(
        strokeScene(rect, width: 2, cap: cap, join: .miter), scale: 1, largeStrokeThreshold: 0)
    // The outline covers 9…11 around x = 10 and 80, y = 20 and 70; the miter fills the corner.
    #expect(ours[9, 19].a == 255)
    #expect(ours[8, 19].a == 0)
    #expect(ours[11, 21].a == 0)
    #expect(ours[80, 45].a == 255)
    #expect(ours[81, 45].a == 0)
    var covered = 0
    for y in 0..<120 { for x in 0..<120 where ours[x, y].a == 255 { covered += 1 } }
    #expect(covered == 72 * 52 - 68 * 48)
}

@Test func aDegenerateSubpathDrawsADotOnlyWithRoundCaps() throws {
    // Cairo 1.16 draws a subpath whose points coincide as a disc with round caps, nothing with
    // butt or square caps. Our disc is Cairo's pen polygon: its area π·r² within 1 %.
    let dot = BezierPath(elements: [.move(to: Point(x: 60, y: 60)), .line(to: Point(x: 60, y: 60))])
    let pieces = [Polyline(points: [Point(x: 60, y: 60), Point(x: 60, y: 60)], closed: false)]
    for cap in LineCap.allCases {
        var area = 0.0
        let stroker = PolylineStroker(
            width: 20, cap: cap, join: .miter, miterLimit: 10, transform: .identity,
            tolerance: SceneRenderer.fillTolerance)
        stroker.stroke(pieces) { p, q in area += (p.x * q.y - q.x * p.y) / 2 }
        if cap == .round {
            #expect(abs(abs(area) - .pi * 100) < .pi)
            let c = try Comparison(strokeScene(dot, width: 20, cap: cap, join: .round))
            #expect(c.worst <= 17)
            #expect(c.cairoSum > 255 * 300)
        } else {
            #expect(area == 0)
        }
    }
}

@Test func thePenHasCairosVertexCount() {
    // n = the least even number ≥ 2π / acos(1 − tolerance / r), at least 4.
    #expect(PolylineStroker.penVertexCount(radius: 10, tolerance: 0.1) == 46)  // 2π / 0.14153 = 44.4
    #expect(PolylineStroker.penVertexCount(radius: 1000, tolerance: 0.1) == 446)  // 444.3 → 445 → 446
    #expect(PolylineStroker.penVertexCount(radius: 0.5, tolerance: 0.1) == 10)  // 2π / 0.6435 = 9.8
    #expect(PolylineStroker.penVertexCount(radius: 0.08, tolerance: 0.1) == 4)
    #expect(PolylineStroker.penVertexCount(radius: 0.02, tolerance: 0.1) == 1)
    #expect(PolylineStroker.penVertexCount(radius: .infinity, tolerance: 0.1) == 4)
}

@Test func onlyStrokesAboveTheThresholdLeaveCairo() throws {
    // The bundled presets stroke at most a few hundred points (336 at --scale 2); the threshold
    // leaves room and keeps Cairo's quadratic cost small (5 000 random points: 0.7 s).
    #expect(SceneRenderer.largeStrokePoints >= 2_000 && SceneRenderer.largeStrokePoints <= 10_000)
    let small = strokeScene(
        randomPolyline(SceneRenderer.largeStrokePoints, seed: 5), width: 2, cap: .round, join: .round)
    #expect(try SceneRenderer.render(small) == SceneRenderer.render(small, scale: 1, largeStrokeThreshold: Int.max))
    let large = strokeScene(
        randomPolyline(SceneRenderer.largeStrokePoints + 1, seed: 5), width: 2, cap: .round, join: .round)
    let ours = try SceneRenderer.render(large, scale: 1, largeStrokeThreshold: 0)
    #expect(try SceneRenderer.render(large) == ours)
    #expect(try ours != SceneRenderer.render(large, scale: 1, largeStrokeThreshold: Int.max))
}

@Test func aStrokeUnderAProjectionMatchesCairo() throws {
    // Under a homography both strokers get the points mapped to the device and the pen scaled
    // by the projection's local area scale: the spiral through a mild perspective (w grows by
    // 0.2 across the canvas) agrees as it does without one.
    let projection = ProjectiveTransform(
        m11: 1, m12: 0, m13: 0.0015, m21: 0, m22: 1, m23: 0.0005, m31: 0, m32: 0, m33: 1)
    #expect(projection.affine == nil)
    let drawing = ShapeDrawing(
        fillPath: nil, fillColor: .clear, fillRule: .nonZero, strokePath: spiral,
        stroke: StrokeDrawing(
            color: RGBAColor(red: 0, green: 0, blue: 0), width: 4.5, lineCap: .round, lineJoin: .round,
            miterLimit: 10, dashes: [], dashPhase: 0))
    let scene = FrameScene(
        width: 120, height: 120, background: nil,
        nodes: [SceneNode(transform: projection, opacity: 1, content: .shape(drawing))])
    let c = try Comparison(scene)
    #expect(c.edgePixels > 1000)
    #expect(c.worst <= 17, "worst \(c.worst) at \(c.worstAt)")
    #expect(c.mean < 0.05, "mean \(c.mean)")
    #expect(c.areaError < 0.0005, "area \(c.areaError)")
}
