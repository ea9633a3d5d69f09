// SPDX-License-Identifier: GPL-3.0-or-later

import Encode
import Foundation
import Testing

/// Params as Lottie slots on export: a fill colour, stroke colour or stroke width written as
/// exactly `"$name"` and static over the loop gets `sid` and a top-level slot, so a player can
/// theme it; our own import reads the slot back as a param and `--set` re-colours it.
@Suite struct LottieSlotsExportTests {
    private func object(_ value: Any?) -> [String: Any] { value as? [String: Any] ?? [:] }
    private func array(_ value: Any?) -> [Any] { value as? [Any] ?? [] }
    private func numbers(_ value: Any?) -> [Double] { array(value).map { ($0 as? NSNumber)?.doubleValue ?? .nan } }

    static let preset = """
        {"version": 1, "name": "themed", "canvas": {"width": 20, "height": 20}, "fps": 10, "duration": 1,
         "params": {"ink": {"default": "#0000FF"}, "line": {"default": 2, "min": 0},
                    "flash": {"default": "#00FF00"}},
         "layers": [
          {"type": "rect", "center": [10, 10], "size": [10, 10], "fill": "$ink",
           "stroke": {"color": "$ink", "width": "$line"},
           "animations": [{"keyPath": "rotation", "fromValue": 0, "toValue": 90, "duration": 1}]},
          {"type": "circle", "center": [3, 3], "radius": 2, "fill": "$flash",
           "animations": [{"keyPath": "fillColor", "fromValue": "#00FF00", "toValue": "#FF0000", "duration": 1}]}]}
        """

    @Test func staticParamValuesBecomeSlots() throws {
        let dir = try temporaryDirectory()
        try writeFile(Self.preset, to: dir + "/themed.json")
        let run = try runTool(["themed.json", "-o", "themed.lottie.json", "-q"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        let doc = object(try JSONSerialization.jsonObject(with: Data(readBytes(dir + "/themed.lottie.json"))))
        // ink (fill and stroke colour) and line (stroke width); flash is animated: no slot.
        let slots = object(doc["slots"])
        #expect(Set(slots.keys) == ["ink", "line"])
        #expect(numbers(object(object(slots["ink"])["p"])["k"]) == [0, 0, 1, 1])
        #expect(object(object(slots["ink"])["p"])["a"] as? Int == 0)
        #expect((object(object(slots["line"])["p"])["k"] as? NSNumber)?.doubleValue == 2)
        let layers = array(doc["layers"]).map(object)
        // Front to back: the circle (layer 1), then the square.
        let square = layers.first { $0["nm"] as? String == "layer 0" } ?? [:]
        let groups = array(square["shapes"]).map(object)
        let strokeItems = array(groups[0]["it"]).map(object)
        let fillItems = array(groups[1]["it"]).map(object)
        let st = strokeItems.first { $0["ty"] as? String == "st" } ?? [:]
        let fl = fillItems.first { $0["ty"] as? String == "fl" } ?? [:]
        #expect(object(st["c"])["sid"] as? String == "ink")
        #expect(object(st["w"])["sid"] as? String == "line")
        #expect(object(fl["c"])["sid"] as? String == "ink")
        // a and k stay, so players without slots draw the same.
        #expect(numbers(object(fl["c"])["k"]) == [0, 0, 1, 1])
        let circle = layers.first { $0["nm"] as? String == "layer 1" } ?? [:]
        let circleFill =
            array(array(circle["shapes"]).map(object).last?["it"]).map(object)
            .first { $0["ty"] as? String == "fl" } ?? [:]
        #expect(object(circleFill["c"])["sid"] == nil)
        #expect(object(circleFill["c"])["a"] as? Int == 1)
    }

    @Test func theExportedSlotIsAParamOfTheLottieFile() throws {
        let dir = try temporaryDirectory()
        try writeFile(Self.preset, to: dir + "/themed.json")
        #expect(try runTool(["themed.json", "-o", "themed.lottie.json", "-q"], in: dir).status == 0)
        let list = try runTool(["list", "themed.lottie.json"], in: dir)
        #expect(list.status == 0, "\(list.stderr)")
        #expect(
            list.stdout.contains("    ink  = #0000FF  colour  Lottie slot, used at $.layers[1].shapes[0].it[1].c\n"),
            "\(list.stdout)")
        #expect(
            list.stdout.contains(
                "    line = 2        number  Lottie slot, used at $.layers[1].shapes[0].it[1].w (≥ 0)\n"),
            "\(list.stdout)")
        let run = try runTool(["themed.lottie.json", "-o", "red.gif", "--set", "ink=#FF0000", "-q"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        let frame = try GIFDecoder.decode(readBytes(dir + "/red.gif")).frames[0].canvas
        // The square's middle, filled with the slot's new colour.
        let o = frame.offset(x: 10, y: 10)
        #expect(Array(frame.pixels[o..<o + 4]) == [255, 0, 0, 255])
    }
}
