// SPDX-License-Identifier: GPL-3.0-or-later

import Spec
import Testing
import Timeline

@testable import LottieImport

/// A Lottie file's geometry is bounded by evaluating its frames before anything renders
/// (`ExportBudget.sceneExtentViolations`), so `validate` refuses what the export would refuse
/// mid-render (found by `make fuzz` with Lottie inputs: a mask vertex scaled by 10^6 passed
/// `validate` and failed the export with exit 65).
@Suite struct LottieBudgetTests {
    /// A 100×80 composition at 30 fps, frames 0…30, with one filled rectangle whose width
    /// goes linearly from 20 pt at frame 0 to `to` pt at frame 20 and stays there.
    static func growingRect(to width: Double) throws -> LoadedPreset {
        let json = """
            {"v":"5.7.4","fr":30,"ip":0,"op":30,"w":100,"h":80,"layers":[{"ty":4,"ind":1,"ip":0,"op":30,"st":0,
             "ks":{"a":{"a":0,"k":[0,0]},"p":{"a":0,"k":[0,0]},"s":{"a":0,"k":[100,100]},"r":{"a":0,"k":0},"o":{"a":0,"k":100}},
             "shapes":[{"ty":"rc","d":1,"p":{"a":0,"k":[50,40]},"r":{"a":0,"k":0},
               "s":{"a":1,"k":[{"t":0,"s":[20,40],"o":{"x":[0],"y":[0]},"i":{"x":[1],"y":[1]}},{"t":20,"s":[\(width),40]}]}},
              {"ty":"fl","c":{"a":0,"k":[1,0,0,1]},"o":{"a":0,"k":100},"r":1}]}]}
            """
        return try LottieLoader.decode(bytes: Array(json.utf8), file: "grow.json")
    }

    @Test func theFirstFrameDrawnPastTheLimitIsNamed() throws {
        let loaded = try Self.growingRect(to: 2e7)
        // Width at frame f: 20 + (2e7 − 20)·f/20; past 2^23 = 8 388 608 from f = 9 (9 000 011 pt).
        let found = ExportBudget.check(loaded.composition)
        #expect(found.count == 1)
        let v = try #require(found.first)
        #expect(v.subject == .preset(path: "$.layers"))
        #expect(abs(v.value - 9_000_011) < 1)
        #expect(v.limit == 8_388_608)
        #expect(v.message.contains("in frame 9 "))
        #expect(v.exitCode == 65)
        // At --scale 0.5 the limit is met at 16 777 216 pt: frame 17 (17 000 003 pt, 8 500 001.5 px).
        let half = try #require(ExportBudget.check(loaded.composition, scale: 0.5).first)
        #expect(abs(half.value - 8_500_001.5) < 1)
        #expect(half.message.contains("in frame 17 "))
    }

    @Test func aFileThatFitsHasNoViolation() throws {
        // 8 000 000 pt at 1×: under 2^23 on every frame; at --scale 2, over from frame 11.
        let loaded = try Self.growingRect(to: 8e6)
        #expect(ExportBudget.check(loaded.composition).isEmpty)
        let double = try #require(ExportBudget.check(loaded.composition, scale: 2).first)
        #expect(double.message.contains("in frame 11 "))
    }

    @Test func aFrameOfTooManyPathSegmentsIsRefusedBeforeRendering() throws {
        // 1000 × (ellipse, fill) in one group: fill k paints the k ellipses before it, so the
        // frame draws 500 500 ellipse outlines (make fuzz: this took 20 s of CPU to validate).
        let items = Array(
            repeating:
                #"{"ty":"el","p":{"a":0,"k":[50,50]},"s":{"a":0,"k":[20,20]}},{"ty":"fl","c":{"a":0,"k":[1,0,0,1]},"o":{"a":0,"k":100}}"#,
            count: 1000
        ).joined(separator: ",")
        let json = """
            {"v":"5.7.4","fr":30,"ip":0,"op":30,"w":100,"h":100,"layers":[{"ty":4,"ind":1,"ip":0,"op":30,"st":0,"ks":{},
             "shapes":[{"ty":"gr","it":[\(items)]}]}]}
            """
        let loaded = try LottieLoader.decode(bytes: Array(json.utf8), file: "many.json")
        let v = try #require(ExportBudget.check(loaded.composition).first)
        #expect(v.limit == 2_000_000)
        #expect(v.value > 2_000_000)
        #expect(v.message.hasPrefix("frame 0 draws paths of "))
        // 100 pairs: 5 050 outlines, well inside.
        let few = json.replacingOccurrences(
            of: items, with: items.split(separator: ",{\"ty\":\"el\"").prefix(100).joined(separator: ",{\"ty\":\"el\""))
        #expect(
            ExportBudget.check(try LottieLoader.decode(bytes: Array(few.utf8), file: "few.json").composition).isEmpty)
    }
}
