// SPDX-License-Identifier: GPL-3.0-or-later

import CCairo
import Foundation
import Geometry
import Spec
import Testing
import Timeline

@testable import Render

/// Strokes are cut and dashed by `PathMeasure.strokePieces`, not by Cairo. On straight lines,
/// where flattening plays no part, the result must be Cairo's own dashing pixel for pixel
/// (phase, odd patterns, dots, restarts per subpath, the join across a closed subpath's start).
@Suite struct StrokeDashTests {
    static let size = 80

    /// Alpha of `path` stroked by Cairo itself with `cairo_set_dash`.
    static func cairoAlpha(_ path: BezierPath, _ stroke: StrokeDrawing) -> [UInt8] {
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(size), Int32(size))
        let cr = cairo_create(surface)
        defer {
            cairo_destroy(cr)
            cairo_surface_destroy(surface)
        }
        guard let cr else { return [] }
        // The renderer's tolerance: round caps and joins from the same pen polygon.
        cairo_set_tolerance(cr, SceneRenderer.fillTolerance)
        SceneRenderer.appendElements(of: path, to: cr)
        cairo_set_source_rgba(cr, 1, 0, 0, 1)
        cairo_set_line_width(cr, stroke.width)
        let cap: cairo_line_cap_t =
            switch stroke.lineCap {
            case .butt: CAIRO_LINE_CAP_BUTT
            case .round: CAIRO_LINE_CAP_ROUND
            case .square: CAIRO_LINE_CAP_SQUARE
            }
        let join: cairo_line_join_t =
            switch stroke.lineJoin {
            case .miter: CAIRO_LINE_JOIN_MITER
            case .round: CAIRO_LINE_JOIN_ROUND
            case .bevel: CAIRO_LINE_JOIN_BEVEL
            }
        cairo_set_line_cap(cr, cap)
        cairo_set_line_join(cr, join)
        cairo_set_miter_limit(cr, stroke.miterLimit)
        stroke.dashes.withUnsafeBufferPointer {
            cairo_set_dash(cr, $0.baseAddress, Int32($0.count), stroke.dashPhase)
        }
        cairo_stroke(cr)
        cairo_surface_flush(surface)
        guard let data = cairo_image_surface_get_data(surface) else { return [] }
        let stride = Int(cairo_image_surface_get_stride(surface))
        // ARGB32 is a native-endian word: alpha is its top byte.
        return (0..<size * size).map { i in
            let word = UnsafeRawPointer(data + (i / size) * stride).load(
                fromByteOffset: (i % size) * 4, as: UInt32.self)
            return UInt8(word >> 24)
        }
    }

    /// Alpha of the same stroke through the renderer.
    static func ourAlpha(_ path: BezierPath, _ stroke: StrokeDrawing) throws -> [UInt8] {
        let drawing = ShapeDrawing(
            fillPath: nil, fillColor: .clear, fillRule: .nonZero, strokePath: path, stroke: stroke)
        let scene = FrameScene(
            width: Double(size), height: Double(size), background: nil,
            nodes: [SceneNode(transform: .identity, opacity: 1, content: .shape(drawing))])
        let image = try SceneRenderer.render(scene)
        return (0..<size * size).map { image.pixels[$0 * 4 + 3] }
    }

    /// Name, path, cap, join, pattern, phase. A dash of length 0 is drawn from a 0.01 px stand-in
    /// (`strokePieces`' dots), so the dots cases allow a few pixels up to 8 levels off.
    static let cases: [(String, String, LineCap, LineJoin, [Double], Double)] = [
        // On at the start and at the end of a closed square: one dash turns the start corner.
        ("closed square", "M10 10 H50 V50 H10 Z", .butt, .miter, [7, 3], 4),
        ("odd pattern, negative phase", "M5 60 L25 40 L45 60 L65 40", .round, .round, [5], -2),
        ("square dots", "M8 8 L70 70", .square, .miter, [0, 9], 0),
        ("round dots", "M8 70 L70 70", .round, .miter, [0, 7, 3, 4], 1.5),
        ("subpaths restart", "M10 20 H70 M10 40 H70 M70 60 H10", .butt, .bevel, [6, 4, 2, 4], 3),
        // Unpainted lengths of 0: one stroke, mitred at its corners, no seams.
        ("no gaps", "M10 10 H70 V70 H10", .butt, .miter, [10, 0], 0),
    ]

    @Test(arguments: cases)
    func dashesMatchCairosOwnDashing(
        name: String, svg: String, cap: LineCap, join: LineJoin, dashes: [Double], phase: Double
    ) throws {
        let path = try BezierPath(svgPathData: svg)
        let stroke = StrokeDrawing(
            color: RGBAColor(red: 1, green: 0, blue: 0), width: 5, lineCap: cap, lineJoin: join, miterLimit: 10,
            dashes: dashes, dashPhase: phase)
        let theirs = Self.cairoAlpha(path, stroke)
        let ours = try Self.ourAlpha(path, stroke)
        let painted = theirs.filter { $0 > 0 }.count
        #expect(painted > 100, "\(name): Cairo painted only \(painted) pixels")
        let worst = zip(theirs, ours).map { abs(Int($0) - Int($1)) }.max() ?? 0
        let differing = zip(theirs, ours).filter { abs(Int($0) - Int($1)) > 2 }.count
        let dots = dashes.contains(0)
        #expect(
            worst <= (dots ? 8 : 2) && differing <= (dots ? 2 : 0),
            "\(name): \(differing) pixels differ by more than 2, by up to \(worst)")
    }

    @Test func aStillDashDrawsTheSamePixelsWhateverTheTrim() throws {
        // The airplane's trail: a dashed circle whose strokeStart moves. Away from the moving
        // end, two trims must draw identical pixels (Cairo's own dashing of a trimmed path
        // moved every dash by a fraction of a pixel).
        let circle = BezierPath.circle(center: Point(x: 40, y: 40), radius: 30)
        func render(start: Double) throws -> [UInt8] {
            let stroke = StrokeDrawing(
                color: .white, width: 4, lineCap: .butt, lineJoin: .miter, miterLimit: 10, dashes: [2, 3],
                dashPhase: 0, start: start, end: 0.9)
            return try Self.ourAlpha(circle, stroke)
        }
        let a = try render(start: 0.0537)
        let b = try render(start: 0.1113)
        // Compare the lower-left and upper half (fractions 0.3…0.85 of the way round): far from
        // both starts.
        var compared = 0
        for y in 0..<Self.size {
            for x in 0..<Self.size {
                let angle = atan2(Double(y) - 40, Double(x) - 40)
                let fraction = (angle < 0 ? angle + 2 * .pi : angle) / (2 * .pi)
                guard fraction > 0.3, fraction < 0.85 else { continue }
                if a[y * Self.size + x] > 0 { compared += 1 }
                #expect(a[y * Self.size + x] == b[y * Self.size + x], "pixel (\(x), \(y))")
            }
        }
        #expect(compared > 150)
    }
}
