// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Geometry
import Raster
import Render
import Spec
import Testing
import Timeline

@testable import LottieImport

/// The project's own small Lottie files (Fixtures/lottie/), one feature each, decoded and drawn
/// through SceneEvaluator and SceneRenderer like the CLI does.
enum Fixture {
    static let folder: String = {
        var url = URL(fileURLWithPath: #filePath)
        url.deleteLastPathComponent()
        return url.appendingPathComponent("Fixtures/lottie").path
    }()

    static func load(_ name: String) throws -> LoadedPreset {
        let path = "\(folder)/\(name).json"
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        return try LottieLoader.decode(bytes: bytes, file: "\(name).json")
    }

    /// Frame `frame` of the fixture (Lottie frames; fr is 30 in every fixture).
    static func render(_ name: String, frame: Double) throws -> RGBAImage {
        let loaded = try load(name)
        let scene = SceneEvaluator.scene(of: loaded.composition, at: frame / loaded.composition.fps)
        return try SceneRenderer.render(scene)
    }
}

func pixel(_ image: RGBAImage, _ x: Int, _ y: Int) -> [UInt8] {
    let o = image.offset(x: x, y: y)
    return Array(image.pixels[o..<o + 4])
}

/// y(s) where x(s) = u on the CSS cubic (0,0) (x1,y1) (x2,y2) (1,1), by bisection: the test's
/// own solver, independent of LottieImport's and Timeline's.
func cubicEase(_ u: Double, _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> Double {
    func b(_ s: Double, _ c1: Double, _ c2: Double) -> Double {
        3 * (1 - s) * (1 - s) * s * c1 + 3 * (1 - s) * s * s * c2 + s * s * s
    }
    var lo = 0.0
    var hi = 1.0
    for _ in 0..<200 {
        let mid = (lo + hi) / 2
        if b(mid, x1, x2) < u { lo = mid } else { hi = mid }
    }
    return b((lo + hi) / 2, y1, y2)
}

/// Alpha-weighted centre of the ink (the marker square's position, to a fraction of a pixel).
func inkCentre(_ image: RGBAImage) -> Point? {
    var sx = 0.0
    var sy = 0.0
    var n = 0.0
    for y in 0..<image.height {
        for x in 0..<image.width {
            let a = Double(image.pixels[image.offset(x: x, y: y) + 3])
            sx += (Double(x) + 0.5) * a
            sy += (Double(y) + 0.5) * a
            n += a
        }
    }
    return n > 0 ? Point(x: sx / n, y: sy / n) : nil
}

@Suite struct LottieImportTests {
    @Test func detectsLottieByItsRequiredMembers() throws {
        let lottie = try JSONParser.parse(#"{"v":"5.7","fr":30,"ip":0,"op":10,"w":10,"h":10,"layers":[]}"#)
        let preset = try JSONParser.parse(#"{"version":1,"name":"x","layers":[]}"#)
        let partial = try JSONParser.parse(#"{"fr":30,"ip":0,"op":10,"w":10,"h":10,"layers":[]}"#)
        #expect(LottieLoader.isLottie(lottie))
        #expect(!LottieLoader.isLottie(preset))
        #expect(!LottieLoader.isLottie(partial))
    }

    @Test func loopIsOutMinusInFramesAtTheFrameRate() throws {
        let c = try Fixture.load("rect-fill").composition
        #expect(c.fps == 30)
        #expect(c.duration == 1)  // op 30 − ip 0 at 30 fps
        #expect(c.canvas.width == 100 && c.canvas.height == 80)
        #expect(c.name == "rect-fill")
        let plan = try LoopPlan.make(for: c, fps: c.fps)
        #expect(plan.frameCount == 30)  // frames 0…29: op itself (the seam) is not drawn
    }

    @Test func rectangleLandsWhereItsCentreAndSizeSay() throws {
        // rc p (30,40) s (20,40): x 20…40, y 20…60, fill #FF0000.
        let image = try Fixture.render("rect-fill", frame: 0)
        #expect(pixel(image, 30, 40) == [255, 0, 0, 255])
        #expect(pixel(image, 20, 20) == [255, 0, 0, 255])
        #expect(pixel(image, 39, 59) == [255, 0, 0, 255])
        #expect(pixel(image, 19, 40)[3] == 0)
        #expect(pixel(image, 40, 40)[3] == 0)
        #expect(pixel(image, 30, 60)[3] == 0)
    }

    @Test func earlierItemsDrawOnTopAndStylesPaintThePathsBeforeThem() throws {
        let image = try Fixture.render("order-and-styles", frame: 0)
        // Blue group (first) over red group (second) where they overlap (40…50).
        #expect(pixel(image, 45, 45) == [0, 0, 255, 255])
        #expect(pixel(image, 65, 65) == [255, 0, 0, 255])
        // [rc1, fl red, rc2, fl green]: rc1 gets red on top of green, rc2 only green.
        #expect(pixel(image, 20, 85) == [255, 0, 0, 255])
        #expect(pixel(image, 60, 85) == [0, 255, 0, 255])
    }

    @Test func groupOpacityIsAtomic() throws {
        let image = try Fixture.render("group-opacity", frame: 0)
        // Two opaque rects in one fill at 50 % group opacity: the overlap is 50 %, not 75 %.
        let overlap = pixel(image, 50, 50)
        let single = pixel(image, 25, 50)
        #expect(overlap == single)
        #expect(abs(Int(overlap[3]) - 128) <= 1)
    }

    @Test func ellipseUsesLottiesCircleConstant() throws {
        let path = LottieAnimation.ellipse([50, 50], [80, 40], reversed: false)
        // From the top (50,30) clockwise; first control point 0.5519 · rx to the right.
        guard case .move(let start)? = path.elements.first,
            case .cubic(let end, let c1, let c2)? = path.elements.dropFirst().first
        else {
            Issue.record("expected move then cubic, got \(path.elements.prefix(2))")
            return
        }
        #expect(start == Point(x: 50, y: 30))
        #expect(end == Point(x: 90, y: 50))
        #expect(abs(c1.x - (50 + 0.5519 * 40)) < 1e-12 && c1.y == 30)
        #expect(c2.x == 90 && abs(c2.y - (50 - 0.5519 * 20)) < 1e-12)
        // Drawn: the curve's midpoint B(½) = (P0 + 3P1 + 3P2 + P3) / 8 is inked, a pixel
        // just outside it is not.
        let image = try Fixture.render("ellipse", frame: 0)
        let mx = (50 + 3 * c1.x + 3 * c2.x + 90) / 8
        let my = (30 + 3 * c1.y + 3 * c2.y + 50) / 8
        #expect(pixel(image, Int(mx) - 1, Int(my) + 1)[3] == 255)
        #expect(pixel(image, Int(mx) + 2, Int(my) - 2)[3] == 0)
        #expect(pixel(image, 89, 50)[3] > 200 && pixel(image, 50, 31)[3] > 200)
    }

    @Test func positionEasesPerDimension() throws {
        for frame in [2.5, 5.0, 7.5] {
            let u = frame / 10
            let x = 100 * cubicEase(u, 0.42, 0, 0.58, 1)
            let y = 100 * cubicEase(u, 0.42, 0, 1, 1)
            let image = try Fixture.render("easing", frame: frame)
            // The 4×4 marker is centred on the layer's position.
            let centre = try #require(inkCentre(image))
            #expect(abs(centre.x - x) < 0.05, "frame \(frame): x \(centre.x), expected \(x)")
            #expect(abs(centre.y - y) < 0.05, "frame \(frame): y \(centre.y), expected \(y)")
        }
        // At u = ½ ease-in-out is exactly ½; ease-in is not.
        #expect(abs(cubicEase(0.5, 0.42, 0, 0.58, 1) - 0.5) < 1e-12)
    }

    @Test func holdKeyframesKeepTheirValueUntilTheNext() throws {
        let loaded = try Fixture.load("easing")
        let animation = try #require(loaded.composition.foreign?.model as? LottieAnimation)
        let rotation = animation.layers[0].transform.rotation
        #expect(rotation.value(at: 0) == [0])
        #expect(rotation.value(at: 19.9) == [0])
        #expect(rotation.value(at: 20) == [90])
    }

    /// The pendulum of lottie-spec's time_stretch.json (keyframes 150 … 599, handles copied from
    /// it): the segments 150 → 299 and 450 → 599 have handles that differ only in the third
    /// decimal (o.y 0.005 / 0.004, i.y 1.004 / 1.001), which rlottie and ThorVG cache under one
    /// key (`%.2f` of each handle) and so ease alike. The spec gives each keyframe its own `o`
    /// and `i`: at the same progress 75/149 the two segments are 0.2395° and 0.0896°.
    @Test func eachKeyframeEasesWithItsOwnHandlesEvenWhenTheyRoundAlike() throws {
        let json = #"""
            {"v":"5.12.0","fr":60,"ip":0,"op":600,"w":100,"h":100,"layers":[{"ty":3,"ind":1,"ip":0,
            "op":600,"st":0,"ks":{"r":{"a":1,"k":[
            {"t":150,"s":[-50],"o":{"x":[0.603],"y":[0.005]},"i":{"x":[0.407],"y":[1.004]}},
            {"t":299,"s":[50],"o":{"x":[0.605],"y":[0]},"i":{"x":[0.408],"y":[1.001]}},
            {"t":450,"s":[-50],"o":{"x":[0.603],"y":[0.004]},"i":{"x":[0.407],"y":[1.001]}},
            {"t":599,"s":[50]}]}}}]}
            """#
        let loaded = try LottieLoader.decode(bytes: Array(json.utf8), file: "pendulum.json")
        let animation = try #require(loaded.composition.foreign?.model as? LottieAnimation)
        let rotation = animation.layers[0].transform.rotation
        let early = try #require(rotation.value(at: 225).first)
        let late = try #require(rotation.value(at: 525).first)
        let u = 75.0 / 149
        #expect(abs(early - (-50 + 100 * cubicEase(u, 0.603, 0.005, 0.407, 1.004))) < 1e-6, "\(early)")
        #expect(abs(late - (-50 + 100 * cubicEase(u, 0.603, 0.004, 0.407, 1.001))) < 1e-6, "\(late)")
        // The test's own solver's numbers, so a shared curve cannot pass for both.
        #expect(abs(early - 0.2395) < 5e-4 && abs(late - 0.0896) < 5e-4, "225: \(early)°, 525: \(late)°")
    }

    @Test func spatialKeyframesFollowTheirCurveByArcLength() throws {
        // Symmetric curve (0,100) → (200,100) with both tangents (0,−100): half the arc
        // length is the curve's midpoint B(½) = (100, 100 − 75).
        let image = try Fixture.render("spatial", frame: 5)
        let centre = try #require(inkCentre(image))
        #expect(abs(centre.x - 100) < 0.1 && abs(centre.y - 25) < 0.1, "\(centre)")
        // A quarter of the arc length lies left of and above the straight chord's quarter.
        let quarter = try #require(inkCentre(try Fixture.render("spatial", frame: 2.5)))
        #expect(quarter.x < 50 && quarter.y < 75, "\(quarter)")
    }

    @Test func parentsMoveChildrenAndPrecompsRunOnTheirOwnClock() throws {
        // The red square (10,10) under a null at (50,0): at (60,10).
        let image = try Fixture.render("parent-precomp", frame: 15)
        #expect(pixel(image, 60, 10) == [255, 0, 0, 255])
        #expect(pixel(image, 10, 10)[3] == 0)
        // Precomp at (0,50), st 10: at frame 15 its layer is at local frame 5, x = 20.
        // Its green square spans x 20…30 + offset, y 50…60.
        #expect(pixel(image, 25, 55) == [0, 255, 0, 255])
        #expect(pixel(image, 18, 55)[3] == 0)
        // Before st the precomp's clock is negative, before its layer's ip 0: nothing drawn.
        let early = try Fixture.render("parent-precomp", frame: 5)
        #expect(pixel(early, 5, 55)[3] == 0 && pixel(early, 25, 55)[3] == 0)
        #expect(pixel(early, 60, 10) == [255, 0, 0, 255])
    }

    /// `start-time.json`: a solid with `st` −20 whose position runs linearly from y 0 at frame 0
    /// to y 80 at frame 40. Its own keyframes are in the composition's frames (lottie-web reads
    /// them at frame − `st` against keyframe times − `st`): at frame 10 it is at y 20, as
    /// lottie-web, ThorVG and rlottie all draw it, not at y 60 (its "own time" 30).
    @Test func aLayersStartTimeDoesNotShiftItsOwnKeyframes() throws {
        for (frame, y) in [(10.0, 20.0), (30, 60)] {
            let centre = try #require(inkCentre(try Fixture.render("start-time", frame: frame)))
            #expect(abs(centre.x - 50) < 0.01 && abs(centre.y - (y + 5)) < 0.01, "frame \(frame): \(centre)")
        }
    }

    @Test func strokeDashesAlternateAtTheirLengths() throws {
        let image = try Fixture.render("dashes", frame: 0)
        for x in [2, 8, 22, 28, 45] { #expect(pixel(image, x, 50) == [0, 0, 255, 255], "x \(x)") }
        for x in [12, 18, 32, 38] { #expect(pixel(image, x, 50)[3] == 0, "x \(x)") }
        #expect(pixel(image, 5, 47)[3] == 0)  // 4 wide: y 48…52
    }

    @Test func trimPathsCutTheStrokeByLengthWithTheOffsetWrapping() throws {
        // Rectangle (150,50) 60×60 from its top-right corner clockwise, length 240; trim
        // 10…40 % + 300° = 93.3…123.3 %: the last 16 px of the top edge and the first 56 px of
        // the right edge.
        let image = try Fixture.render("trim", frame: 0)
        #expect(pixel(image, 172, 20)[3] == 255)
        #expect(pixel(image, 180, 60)[3] == 255)
        #expect(pixel(image, 140, 20)[3] == 0)
        #expect(pixel(image, 150, 80)[3] == 0)
        #expect(pixel(image, 120, 50)[3] == 0)
        // Ellipse r 35 at (50,50) from the top clockwise: frame 0 draws 0…10 % (36°).
        func onCircle(_ degrees: Double) -> (Int, Int) {
            let a = degrees * .pi / 180
            return (Int((50 + 35 * sin(a)).rounded(.down)), Int((50 - 35 * cos(a)).rounded(.down)))
        }
        let (x18, y18) = onCircle(18)
        #expect(pixel(image, x18, y18)[3] == 255)
        let (x180, y180) = onCircle(180)
        #expect(pixel(image, x180, y180 - 1)[3] == 0)
        // Frame 30: end 75 %, offset 360° (a whole turn, no shift): top → right → bottom → left.
        let late = try Fixture.render("trim", frame: 30)
        #expect(pixel(late, x180, y180 - 1)[3] == 255)
        let (x300, y300) = onCircle(300)
        #expect(pixel(late, x300, y300)[3] == 0)
        let (x240, y240) = onCircle(240)
        #expect(pixel(late, x240, y240)[3] == 255)
    }

    @Test func polystarDrawsPolygonsAndStarsFromTheTop() throws {
        // Polygon pt 4, or 40 at (50,50): the diamond |x−50| + |y−50| ≤ 40. Star pt 5, or 40,
        // ir 20 at (150,50): a tip straight up, the first inner vertex 36° clockwise of it.
        let image = try Fixture.render("polystar", frame: 0)
        #expect(pixel(image, 50, 12) == [255, 0, 0, 255])
        #expect(pixel(image, 11, 50)[3] > 0)
        #expect(pixel(image, 20, 20)[3] == 0)
        #expect(pixel(image, 150, 12) == [255, 0, 0, 255])
        // Radius 30 on the inner vertex's ray (−54°): beyond the inner radius, between tips.
        let x = Int(150 + 30 * cos(-54 * Double.pi / 180))
        let y = Int(50 + 30 * sin(-54 * Double.pi / 180))
        #expect(pixel(image, x, y)[3] == 0)
        // The same radius on a tip's ray (−18°) is inside.
        #expect(
            pixel(image, Int(150 + 30 * cos(-18 * Double.pi / 180)), Int(50 + 30 * sin(-18 * Double.pi / 180)))[3]
                == 255)
    }

    @Test func roundedCornersCutEachSharpCornerWithAnArcOfTheRadius() throws {
        // rc 20…80 square, rd 10: the corners are quarter circles round (30,30) etc.
        let image = try Fixture.render("round-corners", frame: 0)
        for (x, y) in [(21, 21), (78, 21), (21, 78), (78, 78)] {
            #expect(pixel(image, x, y)[3] == 0, "corner pixel \(x),\(y) is cut")
        }
        // 7.8 pt from the arc's centre (inside), on the diagonal.
        #expect(pixel(image, 24, 24) == [255, 0, 0, 255])
        #expect(pixel(image, 75, 75) == [255, 0, 0, 255])
        // The straight part of the edge is untouched.
        #expect(pixel(image, 50, 20) == [255, 0, 0, 255])
    }

    @Test func repeaterStepsCopiesAndFadesThemFromStartToEndOpacity() throws {
        // A 10 pt square at x 10…20, 3 copies 30 pt apart, opacity 100 → 20 %.
        let image = try Fixture.render("repeater", frame: 0)
        #expect(pixel(image, 15, 50) == [255, 0, 0, 255])
        #expect(abs(Int(pixel(image, 45, 50)[3]) - 153) <= 1)
        #expect(abs(Int(pixel(image, 75, 50)[3]) - 51) <= 1)
        #expect(pixel(image, 30, 50)[3] == 0)
        #expect(pixel(image, 95, 50)[3] == 0)
    }

    /// lottie-web's RepeaterModifier (the spec has no repeater; docs/lottie.md, Repeater): the
    /// copies are groups at the front of the shape list, whose first item is on top; `m` 1 walks
    /// them from the top, `m` 2 from the bottom, and list index i gets so + (eo − so)·i/(c − 1).
    @Test func repeaterMode1PutsStepZeroOnTopAndMode2TheLastStep() throws {
        // A dot (x 76…84) over a circle (x 20…60), 3 copies 45 apart, so 100 → eo 20: dot 0
        // lies under copy 1's circle (x 65…105). Rows: m 1 at y 50, m 2 at y 150.
        let image = try Fixture.render("repeater-order", frame: 0)
        let opacity = [1.0, 0.6, 0.2].map { Int(($0 * 255).rounded()) }  // so + (eo − so)·i/2
        // m 1: step k is list index k.
        for (k, x) in [30, 75, 120].enumerated() {
            #expect(abs(Int(pixel(image, x, 50)[3]) - opacity[k]) <= 1, "m 1 circle \(k): \(pixel(image, x, 50))")
        }
        // Step 0 on top: its dot is not covered by copy 1's circle.
        let top = pixel(image, 80, 50)
        #expect(top[0] == 255 && top[2] == 0 && top[3] == 255, "m 1 dot 0: \(top)")
        // m 2: step k is list index 2 − k, so step 0 fades to eo and lies at the bottom.
        for (k, x) in [30, 75, 120].enumerated() {
            #expect(abs(Int(pixel(image, x, 150)[3]) - opacity[2 - k]) <= 1, "m 2 circle \(k): \(pixel(image, x, 150))")
        }
        // Dot 0 (alpha 0.2) under copy 1's circle (0.6): alpha 0.6 + 0.2 · 0.4, mostly blue.
        let covered = pixel(image, 80, 150)
        #expect(abs(Int(covered[3]) - Int((0.68 * 255).rounded())) <= 1 && covered[2] > 200, "m 2 dot 0: \(covered)")
    }

    /// A repeater copy is a group, so its opacity fades the copy as one (lottie-web's SVG
    /// renderer sets it on the copy's `<g>`), like any group's: a dot over its own circle in a
    /// copy at 50 % shows the dot at 50 %, not the dot over the circle each at 50 %.
    @Test func repeaterCopyOpacityIsAtomic() throws {
        let image = try Fixture.render("repeater-order", frame: 0)
        let dot = pixel(image, 40, 250)
        #expect(dot[0] == 255 && dot[2] == 0 && abs(Int(dot[3]) - 128) <= 1, "\(dot)")
        // Beside the dot (x 28…52), the circle alone, at 50 %.
        let circle = pixel(image, 25, 250)
        #expect(circle[2] == 255 && abs(Int(circle[3]) - 128) <= 1, "\(circle)")
    }

    /// lottie-web accumulates a repeater's steps per component (one matrix each for rotation,
    /// scale and position): copy j of offset 0.5 is turned 30°·t and scaled about the anchor,
    /// then moved (30·t, 0), t = 0.5 + j, the move not turned by later steps. The scale is the
    /// offset's half step 1 + (0.9 − 1)·0.5 times 0.9 per copy.
    @Test func repeaterStepsAccumulateEachComponentOnItsOwn() throws {
        let image = try Fixture.render("repeater-steps", frame: 0)
        for j in 0..<4 {
            let t = 0.5 + Double(j)
            let angle = 30 * t * Double.pi / 180
            let scale = (1 + (0.9 - 1) * 0.5) * pow(0.9, Double(j))
            let x = (100 * cos(angle) - 20 * sin(angle)) * scale + 30 * t
            let y = (100 * sin(angle) + 20 * cos(angle)) * scale
            let p = pixel(image, Int(x), Int(y))
            #expect(p == [255, 0, 0, 255], "copy \(j) at (\(x), \(y)): \(p)")
        }
    }

    /// Luma mattes weigh the channels as CSS Masking's `mask-type: luminance` (0.2125, 0.7154,
    /// 0.0721), which is what lottie-web's SVG renderer makes a luma matte.
    @Test func lumaMattesWeighChannelsAsCSSMaskingLuminance() throws {
        let image = try Fixture.render("luma-weights", frame: 0)
        for (x, weight) in [(25, 0.2125), (75, 0.7154), (125, 0.0721)] {
            let luma = Int((255 * weight).rounded())
            let p = pixel(image, x, 50)
            #expect(p[0] == 255 && abs(Int(p[3]) - luma) <= 1, "luma at x \(x): \(p), expected alpha \(luma)")
            let q = pixel(image, x, 150)
            #expect(q[0] == 255 && abs(Int(q[3]) - (255 - luma)) <= 1, "inverted luma at x \(x): \(q)")
        }
    }

    @Test func gradientsInterpolateColourAndOpacityStops() throws {
        let image = try Fixture.render("gradient", frame: 0)
        // Linear red → blue along x 0…100 (y 0…20): pixel centre x + 0.5.
        for x in [0, 25, 50, 75, 99] {
            let t = (Double(x) + 0.5) / 100
            let p = pixel(image, x, 10)
            #expect(abs(Double(p[0]) - 255 * (1 - t)) <= 2 && abs(Double(p[2]) - 255 * t) <= 2, "x \(x): \(p)")
            #expect(p[3] == 255)
        }
        // Opacity stops 1 → 0 over white (y 20…40).
        for x in [25, 50, 75] {
            let p = pixel(image, x, 30)
            #expect(abs(Double(p[3]) - 255 * (1 - (Double(x) + 0.5) / 100)) <= 2, "x \(x): \(p)")
        }
        // Radial black → white round (50,67), radius 20, padded beyond.
        for (x, expected) in [(60, 255 * (10.5 * 10.5 + 0.25).squareRoot() / 20), (75, 255.0), (95, 255.0)] {
            #expect(abs(Double(pixel(image, x, 67)[0]) - expected) <= 2, "x \(x): \(pixel(image, x, 67))")
        }
        #expect(pixel(image, 50, 67)[0] < 12)
        // A gradient stroke red → blue along the line y 95.
        #expect(pixel(image, 2, 95)[0] > 240 && pixel(image, 97, 95)[2] > 240)
        #expect(abs(Int(pixel(image, 50, 95)[0]) - 127) <= 2)
    }

    /// `gradient-stops.json`: stops that share an offset are a hard edge and out-of-order
    /// offsets are raised to the one before, as SVG reads stops and lottie-web draws them (the
    /// colour and the opacity list each on its own, then merged); ThorVG and lottie-web agree on
    /// the first three rows (`skia-gradient-opacity.json` is the same case).
    @Test func gradientStopsAtOneOffsetAreAHardEdge() throws {
        let image = try Fixture.render("gradient-stops", frame: 0)
        func t(_ x: Int) -> Double { (Double(x) + 0.5) / 100 }
        // Row y 0…20: green | red at 0.5; opacity 1, 0, 1, 0, 1 at 0, 0.25, 0.5, 0.75, 1.
        func tent(_ t: Double) -> Double {
            let u = t.truncatingRemainder(dividingBy: 0.5)
            return u < 0.25 ? 1 - 4 * u : 4 * (u - 0.25)
        }
        for x in [5, 20, 30, 45, 48, 51, 55, 60, 65, 80, 95] {
            let p = pixel(image, x, 10)
            let colour: [UInt8] = t(x) < 0.5 ? [0, 255, 0] : [255, 0, 0]
            #expect(Array(p[0..<3]) == colour, "x \(x): \(p)")
            #expect(abs(Double(p[3]) - 255 * tent(t(x))) <= 2, "x \(x): \(p)")
        }
        // Row y 20…40: red → blue; opacity 0.35 | 1 at 0.5.
        for x in [5, 30, 48, 51, 60, 80, 95] {
            let p = pixel(image, x, 30)
            #expect(abs(Double(p[0]) - 255 * (1 - t(x))) <= 3 && abs(Double(p[2]) - 255 * t(x)) <= 3, "x \(x): \(p)")
            #expect(abs(Double(p[3]) - 255 * (t(x) < 0.5 ? 0.35 : 1)) <= 1, "x \(x): \(p)")
        }
        // Row y 40…60: red at 0, green at 0.6, blue at 0.4 (taken at 0.6), white at 1.
        for x in [5, 30, 55, 59, 61, 70, 95] {
            let p = pixel(image, x, 50)
            let expected: [Double] =
                t(x) < 0.6
                ? [255 * (1 - t(x) / 0.6), 255 * t(x) / 0.6, 0]
                : [255 * (t(x) - 0.6) / 0.4, 255 * (t(x) - 0.6) / 0.4, 255]
            for c in 0..<3 { #expect(abs(Double(p[c]) - expected[c]) <= 3, "x \(x): \(p), expected \(expected)") }
        }
        // A gradient stroke along y 90: green, white, red all at 0.5, so green | red.
        for x in [5, 45, 49] { #expect(pixel(image, x, 90) == [0, 255, 0, 255], "x \(x)") }
        for x in [50, 55, 95] { #expect(pixel(image, x, 90) == [255, 0, 0, 255], "x \(x)") }
    }

    @Test func masksAddSubtractAndInvert() throws {
        let image = try Fixture.render("mask", frame: 0)
        // Left: a red 10…90 square through add 20…60 then subtract 40…60.
        #expect(pixel(image, 30, 30) == [255, 0, 0, 255])
        #expect(pixel(image, 50, 50)[3] == 0)
        #expect(pixel(image, 80, 80)[3] == 0)
        #expect(pixel(image, 15, 15)[3] == 0)
        // Right: 110…190 through an inverted add of 130…170: a frame.
        #expect(pixel(image, 115, 50) == [255, 0, 0, 255])
        #expect(pixel(image, 150, 50)[3] == 0)
        #expect(pixel(image, 135, 35)[3] == 0)
    }

    @Test func trackMattesUseTheLayerAboveAndHideIt() throws {
        let image = try Fixture.render("matte", frame: 0)
        // Alpha matte: the blue 10…90 square only where the white 20…60 matte is; the matte
        // itself is not drawn.
        #expect(pixel(image, 30, 30) == [0, 0, 255, 255])
        #expect(pixel(image, 80, 80)[3] == 0)
        #expect(pixel(image, 15, 15)[3] == 0)
        // Luma matte of 50 % grey (sRGB 128): alpha 128 ± 1.
        let luma = pixel(image, 150, 50)
        #expect(luma[0] == 255 && abs(Int(luma[3]) - 128) <= 1, "\(luma)")
    }

    @Test func aVertexCountChangeIsAMorphOnlyWhereTheKeyframeInterpolates() throws {
        // A triangle at frame 0 and a square at frame 10: interpolated, that is a morph (not
        // supported); with h 1 on the first keyframe the path jumps at frame 10 and draws
        // exactly (the export of circular-progress's percentage text writes such holds, and
        // its own `validate --strict` refused it: found by a fresh user).
        func file(hold: Bool) -> String {
            let triangle = #"{"i":[[0,0],[0,0],[0,0]],"o":[[0,0],[0,0],[0,0]],"v":[[10,10],[90,10],[50,90]],"c":true}"#
            let square =
                #"{"i":[[0,0],[0,0],[0,0],[0,0]],"o":[[0,0],[0,0],[0,0],[0,0]],"v":[[10,10],[90,10],[90,90],[10,90]],"c":true}"#
            let h = hold ? #","h":1"# : #","o":{"x":[0],"y":[0]},"i":{"x":[1],"y":[1]}"#
            return """
                {"v":"5.7.4","fr":10,"ip":0,"op":20,"w":100,"h":100,"layers":[{"ty":4,"ind":1,"ip":0,"op":20,"st":0,"ks":{},
                 "shapes":[{"ty":"sh","ks":{"a":1,"k":[{"t":0,"s":[\(triangle)]\(h)},{"t":10,"s":[\(square)]}]}},
                  {"ty":"fl","c":{"a":0,"k":[1,0,0,1]},"o":{"a":0,"k":100}}]}]}
                """
        }
        let morph = try LottieLoader.decode(bytes: Array(file(hold: false).utf8), file: "morph.json")
        #expect(
            morph.warnings.map(\.description).contains {
                $0.contains("$.layers[0].shapes[0].ks: a path morph between different vertex counts is not supported")
            }, "\(morph.warnings)")
        let held = try LottieLoader.decode(bytes: Array(file(hold: true).utf8), file: "held.json")
        #expect(held.warnings.isEmpty, "\(held.warnings)")
        // The held path draws the triangle before frame 10 and the square from it.
        let source = try #require(held.composition.foreign?.model as? LottieAnimation)
        func corner(_ seconds: Double) throws -> UInt8 {
            let image = try SceneRenderer.render(source.scene(at: SampleTime(seconds)))
            return pixel(image, 15, 85)[3]
        }
        #expect(try corner(0.5) == 0)
        #expect(try corner(1.5) == 255)
    }

    @Test func unsupportedFeaturesAreWarningsAtTheirPaths() throws {
        let loaded = try Fixture.load("unsupported")
        let lines = loaded.warnings.map(\.description)
        #expect(
            lines.contains { $0.contains("$.layers[0].shapes[0].it[1]: merge paths (mm) is not supported") }, "\(lines)"
        )
        #expect(
            lines.contains {
                $0.contains(
                    "$.layers[0].shapes[0].it[2]: trim paths (tm) on a filled shape (the fill is drawn untrimmed) is not supported"
                )
            }, "\(lines)")
        #expect(loaded.warnings.allSatisfy { $0.severity == .warning && $0.location != nil })
        // The rest still draws.
        let image = try Fixture.render("unsupported", frame: 0)
        #expect(pixel(image, 50, 50) == [255, 0, 0, 255])
    }

    @Test func malformedLottieIsAnErrorWithItsLocationAndPath() throws {
        let missing = Array(#"{"v":"5","ip":0,"op":10,"w":10,"h":10,"layers":[]}"#.utf8)
        #expect {
            try LottieLoader.decode(bytes: missing, file: "a.json")
        } throws: { error in
            (error as? PresetError)?.description.contains("a.json:1:1: error: $: missing \"fr\"") == true
        }
        let badKeyframe = Array(
            #"""
            {"v":"5","fr":30,"ip":0,"op":10,"w":10,"h":10,"layers":[{"ty":4,"ip":0,"op":10,
            "ks":{"o":{"a":1,"k":[{"s":[0]}]}},"shapes":[]}]}
            """#.utf8)
        #expect {
            try LottieLoader.decode(bytes: badKeyframe, file: "b.json")
        } throws: { error in
            (error as? PresetError)?.description.contains("b.json:2:23: error: $.layers[0].ks.o.k[0]: missing \"t\"")
                == true
        }
        let syntax = Array(#"{"v":"5","fr":30,"#.utf8)
        #expect {
            try LottieLoader.decode(bytes: syntax, file: "c.json")
        } throws: { error in
            (error as? PresetError)?.description.hasPrefix("c.json:1:") == true
        }
    }

    @Test func precompCyclesAreRefused() throws {
        let cycle = Array(
            #"""
            {"v":"5","fr":30,"ip":0,"op":10,"w":10,"h":10,
             "assets":[{"id":"a","layers":[{"ty":0,"refId":"b","ip":0,"op":10}]},
                       {"id":"b","layers":[{"ty":0,"refId":"a","ip":0,"op":10}]}],
             "layers":[{"ty":0,"refId":"a","ip":0,"op":10}]}
            """#.utf8)
        #expect {
            try LottieLoader.decode(bytes: cycle, file: "d.json")
        } throws: { error in
            (error as? PresetError)?.description.contains("cycle") == true
        }
    }

    /// bodymovin before 4.1.9 wrote fill and stroke colours on a 0–255 scale, and lottie-web
    /// (DataManager `checkColors`) divides them by 255 for such a file; a clamp to 0…1 would
    /// draw (128, 64, 255) as (255, 255, 255) and rlottie/ThorVG wrap c·255 modulo 256.
    @Test func colorsOfFilesBefore419AreOnA255Scale() throws {
        let image = try Fixture.render("legacy-colors", frame: 0)
        #expect(pixel(image, 25, 40) == [128, 64, 255, 255])
        #expect(pixel(image, 75, 40) == [255, 0, 0, 255])
        let later = try Fixture.render("legacy-colors", frame: 25)
        #expect(pixel(later, 75, 40) == [0, 0, 255, 255])
        #expect(pixel(later, 25, 40) == [128, 64, 255, 255])
    }

    /// The version rule: numeric parts, missing parts as 0, a missing or unreadable `v` current.
    @Test func legacyRulesFollowTheVersionNumerically() {
        #expect(LottieDecoder.version("4.0.0", isBelow: [4, 1, 9]))
        #expect(LottieDecoder.version("3.1.6", isBelow: [4, 1, 9]))
        #expect(LottieDecoder.version("4.1.8", isBelow: [4, 1, 9]))
        #expect(!LottieDecoder.version("4.1.9", isBelow: [4, 1, 9]))
        #expect(!LottieDecoder.version("4.1.10", isBelow: [4, 1, 9]))
        #expect(!LottieDecoder.version("4.10.0", isBelow: [4, 4, 18]))
        #expect(LottieDecoder.version("4.4", isBelow: [4, 4, 18]))
        #expect(!LottieDecoder.version("5.7.4", isBelow: [4, 4, 18]))
        #expect(!LottieDecoder.version(nil, isBelow: [4, 1, 9]))
        #expect(!LottieDecoder.version("beta", isBelow: [4, 1, 9]))
    }

    /// bodymovin before 4.4.18 put a path's closed flag on the `sh` item (`closed`), not in the
    /// Bézier's `c` (lottie-web's DataManager `checkShapes`): the stroke draws the closing
    /// segment from (90, 70) back to (10, 10).
    @Test func closedFlagOfFilesBefore4418IsOnTheShapeItem() throws {
        let image = try Fixture.render("legacy-closed", frame: 0)
        #expect(pixel(image, 50, 10) == [0, 0, 255, 255])
        #expect(pixel(image, 90, 40) == [0, 0, 255, 255])
        #expect(pixel(image, 50, 40) == [0, 0, 255, 255])  // on the closing diagonal
        #expect(pixel(image, 70, 25)[3] == 0)
        // The same file as 5.7.4 reads `c` (absent: open), so the diagonal is not drawn.
        let url = URL(fileURLWithPath: "\(Fixture.folder)/legacy-closed.json")
        let text = try String(contentsOf: url, encoding: .utf8).replacingOccurrences(
            of: "\"v\":\"4.4.0\"", with: "\"v\":\"5.7.4\"")
        let loaded = try LottieLoader.decode(bytes: Array(text.utf8), file: "legacy-closed.json")
        let open = try SceneRenderer.render(SceneEvaluator.scene(of: loaded.composition, at: 0))
        #expect(pixel(open, 50, 40)[3] == 0)
        #expect(pixel(open, 90, 40) == [0, 0, 255, 255])
    }

    /// A layer just above a layer with `tt` (and no `tp`) is that layer's matte and is not drawn
    /// on its own, even without `td` (lottie-web's `completeLayers`; skia's chained-mattes file):
    /// "b" (x 50…150, matted by "a" to x 50…100) is only the inverted matte of "c", so x 50…100
    /// is empty and "c" shows elsewhere; drawn on its own, "b" would leave blue at x 75.
    @Test func theLayerAboveAMattedLayerIsItsMatteAndNotDrawn() throws {
        let image = try Fixture.render("matte-chain", frame: 0)
        #expect(pixel(image, 75, 50)[3] == 0)
        #expect(pixel(image, 25, 50) == [255, 0, 0, 255])
        #expect(pixel(image, 125, 50) == [255, 0, 0, 255])
        #expect(pixel(image, 175, 50) == [255, 0, 0, 255])
    }
}
