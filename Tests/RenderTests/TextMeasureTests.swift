import Geometry
import Spec
import Testing
import Timeline

@testable import Render

// Issue 19: text measured with the font, so layouts can depend on it, and OpenType features
// (tabular digits) through HarfBuzz. Inter is pinned by `make deps` (fonts-inter).

private func width(_ string: String, size: Double = 34, features: [String] = []) throws -> Double {
    try #require(FontLibrary.measure(string, family: "Inter", size: size, weight: .regular, features: features)).width
}

@Test func interMeasuresLoadingAt128_37() throws {
    // The number the issue quotes (loading-dots hard-codes 129 where Inter gives 128.37).
    #expect(((try width("Loading")) * 100).rounded() / 100 == 128.37)
    // Unhinted advances scale linearly with the size and add up glyph by glyph.
    #expect(abs(try width("Loading", size: 68) - 2 * width("Loading")) < 1e-9)
    #expect(abs(try width("Lo") + width("ading") - width("Loading")) < 1e-9)
    let box = try #require(FontLibrary.measure("Loading", family: "Inter", size: 34, weight: .regular))
    #expect(box.height > 34 && box.height < 50)
    #expect(try width("") == 0)
}

@Test func harfBuzzReadsTheSameAdvancesAsCairo() throws {
    // Two libraries reading the font's hmtx: HarfBuzz, shaping with kerning off, gives Cairo's
    // (FreeType's) unshaped advance for text without ligatures.
    for text in ["Loading", "0123456789", "Hello, world"] {
        #expect(abs(try width(text, features: ["-kern"]) - width(text)) < 1e-9, "\(text)")
    }
}

@Test func tabularDigitsHaveOneAdvance() throws {
    let digits = (0...9).map { String($0) }
    let proportional = try digits.map { try width($0) }
    let tabular = try digits.map { try width($0, features: ["tnum"]) }
    // Inter's default figures are proportional: a "1" is narrower than an "8".
    #expect(proportional[1] < proportional[8] - 1)
    #expect(Set(tabular).count == 1, "\(tabular)")
    #expect(abs(try width("11%", features: ["tnum"]) - width("88%", features: ["tnum"])) < 1e-9)
    #expect(try width("11%") < width("88%") - 2)
}

@Test func shapedTextDrawsWhereItIsMeasured() throws {
    // A centred tabular label ends at the same pixel whatever its digits; a proportional one does not.
    func inkRight(_ text: String, features: [String]) throws -> Int {
        let drawing = TextDrawing(
            string: text, fontFamily: "Inter", fontSize: 24, fontWeight: .regular, color: .black,
            anchor: Point(x: 0.5, y: 0.5), features: features)
        let scene = FrameScene(
            width: 120, height: 40, background: nil,
            nodes: [
                SceneNode(
                    transform: ProjectiveTransform(AffineTransform.translation(x: 60, y: 20)), opacity: 1,
                    content: .text(drawing))
            ])
        let image = try SceneRenderer.render(scene)
        var right = -1
        for y in 0..<image.height {
            for x in 0..<image.width where image[x, y].3 > 0 { right = max(right, x) }
        }
        return right
    }
    #expect(try inkRight("11%", features: ["tnum"]) == inkRight("88%", features: ["tnum"]))
    #expect(try inkRight("11%", features: []) < inkRight("88%", features: []) - 1)
}

// Issue 18: text drawn larger than FreeType's glyph images allow (more than 65 535 px per em
// failed the frame with "error occurred in libfreetype", exit 1) is filled as outlines.

/// Renders Inter's "I" at 40 pt through a uniform `scale`, its box's `anchor` at the centre of
/// a 300 × 60 canvas, and returns the alpha of the middle row.
private func middleRowOfI(scale: Double, anchor: Point = Point(x: 0.5, y: 0.5)) throws -> [UInt8] {
    let drawing = TextDrawing(
        string: "I", fontFamily: "Inter", fontSize: 40, fontWeight: .regular, color: .black, anchor: anchor,
        features: [])
    let place = AffineTransform.translation(x: 150, y: 30)
    let transform = AffineTransform(a: scale, b: 0, c: 0, d: scale, tx: 0, ty: 0).concatenating(place)
    let scene = FrameScene(
        width: 300, height: 60, background: nil,
        nodes: [SceneNode(transform: ProjectiveTransform(transform), opacity: 1, content: .text(drawing))])
    let image = try SceneRenderer.render(scene)
    return (0..<image.width).map { image.pixels[(30 * image.width + $0) * 4 + 3] }
}

@Test func textAboveTheGlyphImageSizeIsFilledAsOutlines() throws {
    // Either side of the switch (em 2 % below and above `largeTextEm`), the stem of the I has
    // the same width and centre per em: the outline filled is the glyph FreeType would draw
    // (laid out at the font size instead, the width was 0.23 px off: FreeType's 1/64 px grid).
    func stem(_ em: Double) throws -> (width: Double, centre: Double) {
        let row = try middleRowOfI(scale: em / 40)
        let coverage = row.map { Double($0) / 255 }
        let width = coverage.reduce(0, +)
        let centre = zip(coverage.indices, coverage).map { Double($0) * $1 }.reduce(0, +) / width + 0.5
        return (width / em, (centre - 150) / em)
    }
    let below = try stem(SceneRenderer.largeTextEm * 0.98)
    let above = try stem(SceneRenderer.largeTextEm * 1.02)
    #expect(below.width > 0.05 && below.width < 0.2, "stem \(below.width) em")
    #expect(abs(below.width - above.width) * SceneRenderer.largeTextEm < 0.1)
    // Both sides fill outlines where they fall (issue 21), so the centres agree too (drawn
    // below the switch as Cairo's glyph images, at whole-pixel origins, they were up to half a
    // pixel apart).
    let apart = (below.centre - above.centre) * SceneRenderer.largeTextEm
    #expect(abs(apart) < 0.02, "centres \(apart) px apart")
    // 80 000 px per em, past FreeType's limit: the canvas lies inside the stem when the box is
    // centred on it, and inside the left side bearing when the box starts at its centre.
    #expect(try middleRowOfI(scale: 2000).allSatisfy { $0 == 255 })
    #expect(try middleRowOfI(scale: 2000, anchor: Point(x: 0, y: 0.5)).allSatisfy { $0 == 0 })
}

// Issue 21: text lands where the layout puts it, at fractions of a pixel. Drawn as Cairo 1.16's
// glyph images (`cairo_show_text`), each glyph was placed at a whole-pixel origin: an "l" moved
// by 0.25 px did not move, one moved by 0.5 px jumped by 1 px (measured before the change:
// centroid shifts 0, 1, 1 px for offsets 0.25, 0.5, 0.75 px).

/// The alpha-weighted centroid (x, y), in pixels, of Inter's "l" at 34 px per em on a 40 × 50
/// canvas, its box's left edge at `x` and its middle at `y`; `features` non-empty takes the
/// HarfBuzz-shaped path.
private func centroidOfL(x: Double, y: Double = 25, features: [String] = []) throws -> (x: Double, y: Double) {
    let drawing = TextDrawing(
        string: "l", fontFamily: "Inter", fontSize: 34, fontWeight: .regular, color: .black,
        anchor: Point(x: 0, y: 0.5), features: features)
    let scene = FrameScene(
        width: 40, height: 50, background: nil,
        nodes: [
            SceneNode(
                transform: ProjectiveTransform(AffineTransform.translation(x: x, y: y)), opacity: 1,
                content: .text(drawing))
        ])
    let image = try SceneRenderer.render(scene)
    var sum = 0.0
    var sx = 0.0
    var sy = 0.0
    for py in 0..<image.height {
        for px in 0..<image.width {
            let a = Double(image[px, py].a)
            sum += a
            sx += a * (Double(px) + 0.5)
            sy += a * (Double(py) + 0.5)
        }
    }
    try #require(sum > 0)
    return (sx / sum, sy / sum)
}

@Test(arguments: [[String](), ["tnum"]])
func glyphsLandAtFractionalOffsets(features: [String]) throws {
    let origin = try centroidOfL(x: 10, features: features)
    for step in 1...3 {
        let offset = Double(step) * 0.25
        let right = try centroidOfL(x: 10 + offset, features: features)
        #expect(abs(right.x - origin.x - offset) < 0.05, "moved \(offset) px right: ink moved \(right.x - origin.x) px")
        #expect(abs(right.y - origin.y) < 0.01)
        let down = try centroidOfL(x: 10, y: 25 + offset, features: features)
        #expect(abs(down.y - origin.y - offset) < 0.05, "moved \(offset) px down: ink moved \(down.y - origin.y) px")
        #expect(abs(down.x - origin.x) < 0.01)
    }
}
