// SPDX-License-Identifier: GPL-3.0-or-later

import Testing

@testable import Encode

/// MaxRects (`SheetPacker`) on its own: placements inside the bin and apart, identical
/// rectangles as many as the floor product allows (the most translates of one rectangle that fit),
/// and the same result every time.
struct SheetPackerTests {
    static func checkApart(_ sizes: [(w: Int, h: Int)], _ p: SheetPacker.Packing, width: Int, height: Int) {
        for (i, a) in p.placements.enumerated() {
            #expect(a.x >= 0 && a.y >= 0 && a.x + sizes[i].w <= width && a.y + sizes[i].h <= height)
            #expect(a.x + sizes[i].w <= p.width && a.y + sizes[i].h <= p.height)
            for j in (i + 1)..<p.placements.count {
                let b = p.placements[j]
                let apart =
                    a.x + sizes[i].w <= b.x || b.x + sizes[j].w <= a.x || a.y + sizes[i].h <= b.y
                    || b.y + sizes[j].h <= a.y
                #expect(apart, "\(i) and \(j) overlap")
            }
        }
    }

    @Test func identicalRectanglesFillTheFloorProduct() {
        // 100×70 bin, 30×20 cells: 3 × 3 = 9 fit, a tenth does not.
        let nine = Array(repeating: (w: 30, h: 20), count: 9)
        #expect(SheetPacker.fits(nine, width: 100, height: 70))
        #expect(!SheetPacker.fits(nine + [(w: 30, h: 20)], width: 100, height: 70))
        for heuristic in MaxRectsBin.Heuristic.allCases {
            let p = SheetPacker.pack(nine, order: Array(0..<9), width: 100, height: 70, heuristic: heuristic)
            #expect(p?.width == 90 && p?.height == 60)
        }
    }

    @Test func mixedRectanglesStayInsideAndApartAndAreDeterministic() throws {
        var state: UInt64 = 7
        func next(_ n: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(n))
        }
        let sizes = (0..<120).map { _ in (w: 1 + next(40), h: 1 + next(40)) }
        let cost: (Int, Int) -> (Int, Int) = { ($0 * $1, max($0, $1)) }
        let best = try #require(SheetPacker.best(sizes, maxWidth: 512, maxHeight: 512, cost: cost))
        Self.checkApart(sizes, best, width: 512, height: 512)
        let area = sizes.map { $0.w * $0.h }.reduce(0, +)
        // Measured: 95.8 % of the bounding box is covered.
        #expect(Double(area) / Double(best.width * best.height) > 0.95)
        let again = try #require(SheetPacker.best(sizes, maxWidth: 512, maxHeight: 512, cost: cost))
        #expect(again.placements == best.placements && again.width == best.width && again.height == best.height)
    }

    @Test func pageNamesInsertTheIndexBeforeTheExtension() {
        #expect(SpriteSheetBuilder.pageName("out/c.v2/x.png", page: 3, of: 4) == "out/c.v2/x-3.png")
        #expect(SpriteSheetBuilder.pageName("x.png", page: 0, of: 1) == "x.png")
        #expect(SpriteSheetBuilder.pageName("dir.d/sheet", page: 1, of: 2) == "dir.d/sheet-1")
    }
}
