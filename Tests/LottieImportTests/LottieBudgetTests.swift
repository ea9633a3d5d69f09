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

    /// A one-layer composition whose shape list is `shapes` (JSON items), 30 frames at 30 fps.
    static func composition(shapes: String) throws -> LoadedPreset {
        let json = """
            {"v":"5.7.4","fr":30,"ip":0,"op":30,"w":100,"h":100,"layers":[{"ty":4,"ind":1,"ip":0,"op":30,"st":0,"ks":{},
             "shapes":[\(shapes)]}]}
            """
        return try LottieLoader.decode(bytes: Array(json.utf8), file: "hostile.json")
    }

    @Test func quadraticRepaintingStopsAtTheBuildBudget() throws {
        // 2 000 (ellipse, fill) pairs: fill k repaints the k ellipses before it, 6 elements each,
        // 12 million elements in all; building stops past 4 000 000 (make fuzz's 6 000 pairs took
        // 35 s and 6 GB to validate when the scene was built whole and counted afterwards).
        let pair =
            #"{"ty":"el","p":{"a":0,"k":[50,50]},"s":{"a":0,"k":[20,20]}},{"ty":"fl","c":{"a":0,"k":[1,0,0,1]},"o":{"a":0,"k":100}}"#
        let loaded = try Self.composition(
            shapes: #"{"ty":"gr","it":["# + Array(repeating: pair, count: 2000).joined(separator: ",") + "]}")
        let source = try #require(loaded.composition.foreign?.model as? LottieAnimation)
        let scene = source.scene(at: SampleTime(0))
        let cut = try #require(scene.cut)
        #expect(cut.limit == .segments)
        #expect(cut.count > ExportBudget.maximumBuiltSegments)
        // The fill that passed the limit was not built: at most one fill's repaint (2 000 × 6) over.
        #expect(cut.count <= ExportBudget.maximumBuiltSegments + 12_000)
        #expect(scene.nodes.isEmpty)
        let v = try #require(ExportBudget.check(loaded.composition).first)
        #expect(v.subject == .preset(path: "$.layers[0]"))
        #expect(cut.path == "$.layers[0]")
        #expect(v.limit == 4_000_000)
        #expect(v.exitCode == 65)
        #expect(
            v.message
                == "frame 0 needs more than 4000000 path segments to build (a fill or stroke paints every path before it in its group, a repeater copies everything before it), the limit per frame"
        )
    }

    @Test func nestedRepeatersStopAtTheBuildBudget() throws {
        // An ellipse in three nested groups, each with a repeater of 100 copies: 10^6 ellipses,
        // 6 million elements before any fill (1 000 copies each did not finish in 60 s).
        let repeater =
            #"{"ty":"rp","c":{"a":0,"k":100},"o":{"a":0,"k":0},"m":1,"tr":{"ty":"tr","p":{"a":0,"k":[1,0]},"a":{"a":0,"k":[0,0]},"s":{"a":0,"k":[100,100]},"r":{"a":0,"k":1},"so":{"a":0,"k":100},"eo":{"a":0,"k":100}}}"#
        var group = #"{"ty":"el","p":{"a":0,"k":[50,50]},"s":{"a":0,"k":[20,20]}}"#
        for _ in 0..<3 { group = #"{"ty":"gr","it":["# + group + "," + repeater + "]}" }
        let loaded = try Self.composition(
            shapes: group + #",{"ty":"fl","c":{"a":0,"k":[1,0,0,1]},"o":{"a":0,"k":100}}"#)
        let source = try #require(loaded.composition.foreign?.model as? LottieAnimation)
        let cut = try #require(source.scene(at: SampleTime(0)).cut)
        #expect(cut.limit == .segments)
        #expect(
            try #require(ExportBudget.check(loaded.composition).first).message.hasPrefix(
                "frame 0 needs more than 4000000 path segments"))
        // Two levels (10 000 ellipses, 60 000 elements) build whole and draw.
        var two = #"{"ty":"el","p":{"a":0,"k":[50,50]},"s":{"a":0,"k":[20,20]}}"#
        for _ in 0..<2 { two = #"{"ty":"gr","it":["# + two + "," + repeater + "]}" }
        let small = try Self.composition(shapes: two + #",{"ty":"fl","c":{"a":0,"k":[1,0,0,1]},"o":{"a":0,"k":100}}"#)
        let smallSource = try #require(small.composition.foreign?.model as? LottieAnimation)
        let scene = smallSource.scene(at: SampleTime(0))
        #expect(scene.cut == nil)
        #expect(SceneExtent.size(of: scene).segments == 60_000)
    }

    @Test func manyRepeaterCopiesOfShapesStopAtTheShapeBudget() throws {
        // 50 filled ellipses (50 shapes), repeated 100 times: 5 000 shapes built, past 4 000.
        let pair =
            #"{"ty":"gr","it":[{"ty":"el","p":{"a":0,"k":[50,50]},"s":{"a":0,"k":[2,2]}},{"ty":"fl","c":{"a":0,"k":[1,0,0,1]},"o":{"a":0,"k":100}}]}"#
        let repeater =
            #"{"ty":"rp","c":{"a":0,"k":100},"o":{"a":0,"k":0},"m":1,"tr":{"ty":"tr","p":{"a":0,"k":[1,0]},"a":{"a":0,"k":[0,0]},"s":{"a":0,"k":[100,100]},"r":{"a":0,"k":0},"so":{"a":0,"k":100},"eo":{"a":0,"k":100}}}"#
        let loaded = try Self.composition(
            shapes: #"{"ty":"gr","it":["# + Array(repeating: pair, count: 50).joined(separator: ",") + "," + repeater
                + "]}")
        let source = try #require(loaded.composition.foreign?.model as? LottieAnimation)
        let cut = try #require(source.scene(at: SampleTime(0)).cut)
        #expect(cut.limit == .shapes)
        #expect(cut.count == 50 + 5_000)
        #expect(
            try #require(ExportBudget.check(loaded.composition).first).message.hasPrefix(
                "frame 0 needs more than 4000 shapes to build"))
    }

    @Test func strokesOverManyTrimmedPiecesCountEveryPathTheyDraw() throws {
        // 1 000 rectangles under a trim with m = 1 (each piece trimmed alone) whose range wraps
        // (10 %…40 % turned by 300°: 93 %…100 % and 0 %…23 %), so each stroke draws 2 000 paths,
        // then 1 000 strokes (make fuzz, seed 1, input 86). Each stroke counted one shape, so
        // the segment count stopped them only after 666 strokes: 1.3 million stroke nodes and
        // 770 MB resident. Now the third stroke passes 4 000 shapes and is not built.
        let rect = #"{"ty":"rc","d":1,"p":{"a":0,"k":[50,50]},"s":{"a":0,"k":[60,60]},"r":{"a":0,"k":0}}"#
        let trim = #"{"ty":"tm","s":{"a":0,"k":10},"e":{"a":0,"k":40},"o":{"a":0,"k":300},"m":1}"#
        let stroke =
            #"{"ty":"st","c":{"a":0,"k":[0,0.4,1,1]},"o":{"a":0,"k":100},"w":{"a":0,"k":8},"lc":2,"lj":2,"ml":4}"#
        func group(strokes: Int) throws -> LottieAnimation {
            let items = Array(repeating: rect, count: 1000) + [trim] + Array(repeating: stroke, count: strokes)
            let loaded = try Self.composition(shapes: #"{"ty":"gr","it":["# + items.joined(separator: ",") + "]}")
            return try #require(loaded.composition.foreign?.model as? LottieAnimation)
        }
        // The cut on its own line, so that a failure does not print the scene.
        let hostileCut = try group(strokes: 1000).scene(at: SampleTime(0)).cut
        let cut = try #require(hostileCut)
        #expect(cut.limit == .shapes)
        // Two strokes built (4 000 shapes); the third's 2 000 were counted and not made.
        #expect(cut.count == 6_000)
        #expect(cut.path == "$.layers[0]")
        // Two strokes fit the build budget, and the count is what the scene holds.
        let two = try group(strokes: 2).scene(at: SampleTime(0))
        #expect(two.cut == nil)
        #expect(SceneExtent.size(of: two).shapes == 4_000)
        let one = try group(strokes: 1).scene(at: SampleTime(0))
        #expect(SceneExtent.size(of: one).shapes == 2_000)
        // A stroke that draws nothing (width 0) still counts one shape and makes none.
        let none = try Self.composition(
            shapes: #"{"ty":"gr","it":["# + rect + "," + stroke.replacingOccurrences(of: #""k":8"#, with: #""k":0"#)
                + "]}")
        let noneSource = try #require(none.composition.foreign?.model as? LottieAnimation)
        #expect(noneSource.scene(at: SampleTime(0)).nodes.isEmpty)
    }

    /// The nodes under `nodes`, groups, mattes and masks included, each shared subtree counted
    /// every time it appears.
    static func nodeCount(_ nodes: [SceneNode]) -> Int {
        nodes.reduce(0) { n, node in
            switch node.content {
            case .group(let children, _), .masked(let children, _): n + 1 + nodeCount(children)
            case .matted(let children, let matte, _): n + 1 + nodeCount(children) + nodeCount(matte)
            case .shape, .text, .image: n + 1
            }
        }
    }

    @Test func emptyPathsCountAsPiecesUnderRepeaters() throws {
        // An empty path in two nested groups with repeaters of 1 000 copies: 10⁶ empty pieces,
        // which counted nothing (three levels asked for 10⁹ and died allocating). Counted one
        // each: 1 + 1 000 + 1 000 (level 1, repeater and group) + 10⁶ + 10⁶ (level 2), then
        // each fill repaints 10⁶: the second fill passes 4 000 000.
        let empty = #"{"ty":"sh","ks":{"a":0,"k":{"i":[],"o":[],"v":[],"c":false}}}"#
        let repeater =
            #"{"ty":"rp","c":{"a":0,"k":1000},"o":{"a":0,"k":0},"m":1,"tr":{"ty":"tr","p":{"a":0,"k":[1,0]},"a":{"a":0,"k":[0,0]},"s":{"a":0,"k":[100,100]},"r":{"a":0,"k":1},"so":{"a":0,"k":100},"eo":{"a":0,"k":100}}}"#
        let fill = #"{"ty":"fl","c":{"a":0,"k":[1,0,0,1]},"o":{"a":0,"k":100}}"#
        var group = empty
        for _ in 0..<2 { group = #"{"ty":"gr","it":["# + group + "," + repeater + "]}" }
        let loaded = try Self.composition(shapes: [group, fill, fill].joined(separator: ","))
        let source = try #require(loaded.composition.foreign?.model as? LottieAnimation)
        let sceneCut = source.scene(at: SampleTime(0)).cut
        let cut = try #require(sceneCut)
        #expect(cut.limit == .segments)
        #expect(cut.count == 1 + 2 * 1_000 + 4 * 1_000_000)
    }

    @Test func repeatersOfNothingMakeNoCopies() throws {
        // Two repeaters of 1 000 copies in a row over no shape, beside a filled ellipse: the
        // copies were empty groups (10⁶ of them to walk; three repeaters, 10⁹, did not end in a
        // minute). Now they make nothing, and the frame is the layer's group and the one fill.
        let repeater =
            #"{"ty":"rp","c":{"a":0,"k":1000},"o":{"a":0,"k":0},"m":1,"tr":{"ty":"tr","p":{"a":0,"k":[1,0]},"a":{"a":0,"k":[0,0]},"s":{"a":0,"k":[100,100]},"r":{"a":0,"k":1},"so":{"a":0,"k":100},"eo":{"a":0,"k":100}}}"#
        let group = #"{"ty":"gr","it":["# + repeater + "," + repeater + "]}"
        let ellipse =
            #"{"ty":"gr","it":[{"ty":"el","p":{"a":0,"k":[50,50]},"s":{"a":0,"k":[20,20]}},{"ty":"fl","c":{"a":0,"k":[1,0,0,1]},"o":{"a":0,"k":100}}]}"#
        let loaded = try Self.composition(shapes: group + "," + ellipse)
        let source = try #require(loaded.composition.foreign?.model as? LottieAnimation)
        let scene = source.scene(at: SampleTime(0))
        #expect(scene.cut == nil)
        // The layer, the ellipse's group, its fill (the repeaters' group has no nodes, so no node).
        #expect(Self.nodeCount(scene.nodes) == 3)
        #expect(SceneExtent.size(of: scene).shapes == 1)
        #expect(ExportBudget.check(loaded.composition).isEmpty)
    }
}
