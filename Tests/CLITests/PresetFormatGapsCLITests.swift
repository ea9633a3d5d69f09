import Foundation
import Testing

/// Issue 19, "Preset format gaps met while writing presets", through the real binary: the key
/// paths a progress fill needs, measured text and tabular digits, and each bad value reported
/// once with a message that says what to write.
struct PresetFormatGapsCLITests {
    @Test func eachGapIsOneClearErrorAndNothingIsWritten() throws {
        let dir = try temporaryDirectory()
        try writeFile(
            """
            {
              "version": 1, "name": "gaps", "canvas": { "width": 100, "height": 40 },
              "state": { "big": 1e300, "on": 0 },
              "events": [ { "every": 1, "set": { "big": "$big + 1", "on": "$big > 0" } } ],
              "layers": [
                { "type": "rect", "center": [50, 20], "size": [100, 10], "fill": "red", "bind": { "opacity": "$on" },
                  "animations": [
                    { "keyPath": "opacity", "fromValue": 0, "toValue": 5, "duration": 1 },
                    { "keyPath": "size.width", "fromValue": 0, "toValue": 100, "duration": "1s" },
                    { "keyPath": "strokeEnd", "toValue": 1, "duration": 1, "repeatCount": -1 },
                    { "keyPath": "strokeEnd", "toValue": 1, "duration": 1, "repeatCount": "forever", "timingFunction": "ease-in-out" },
                    { "keyPath": "wobble", "toValue": 1, "duration": 1 }
                  ] },
                { "type": "replicator", "instanceCount": 8.5, "instanceTransform": { "rotation": 45 },
                  "layers": [ { "type": "circle", "center": [5, 5], "radius": 2, "fill": "red" } ] }
              ]
            }
            """, to: dir + "/gaps.json")
        let run = try runTool(["gaps.json", "-o", "out.gif"], in: dir)
        #expect(run.status == 65)
        let lines = run.stderr.split(separator: "\n").map(String.init)
        #expect(
            lines == [
                "gaps.json:3:21: error: $.state.big: expected a number of magnitude ≤ 1e15 or a boolean, found 1e+300",
                "gaps.json:8:60: error: $.layers[0].animations[0].toValue: expected an opacity in 0…1, found 5",
                "gaps.json:9:80: error: $.layers[0].animations[1].duration: expected a number of seconds without a unit, e.g. 1, found \"1s\"",
                "gaps.json:10:79: error: $.layers[0].animations[2].repeatCount: expected a count ≥ 0 or \"infinity\", found -1; a repeat without end is \"infinity\" (Core Animation's HUGE_VALF, SwiftUI's repeatForever)",
                "gaps.json:11:79: error: $.layers[0].animations[3].repeatCount: expected a count ≥ 0 or \"infinity\", found \"forever\"; did you mean \"infinity\"?",
                "gaps.json:11:108: error: $.layers[0].animations[3].timingFunction: unknown timing function \"ease-in-out\"; expected \"linear\", \"easeIn\", \"easeOut\", \"easeInOut\", \"easeInEaseOut\" or \"default\", cubicBezier(x1, y1, x2, y2) or a spring (spring, smooth, snappy, bouncy, …); did you mean \"easeInOut\"?",
                "gaps.json:12:22: error: $.layers[0].animations[4].keyPath: unknown keyPath \"wobble\"; rect layers animate \"position\", \"position.x\", \"position.y\", \"offset\", \"offset.x\", \"offset.y\", \"anchorPoint\", \"rotation\", \"scale\", \"scale.x\", \"scale.y\", \"opacity\", \"hidden\", \"fillColor\", \"strokeColor\", \"lineWidth\", \"lineDashPhase\", \"miterLimit\", \"strokeStart\", \"strokeEnd\", \"center\", \"size\", \"size.width\", \"size.height\" or \"cornerRadius\"",
                "gaps.json:14:46: error: $.layers[1].instanceCount: expected a whole number of copies in 1…1000, found 8.5",
                "gaps.json: note: 8 errors; nothing written",
            ])
        #expect(listing(dir) == ["gaps.json"])
    }

    @Test func progressFillAndDotsAfterAMeasuredLabel() throws {
        let dir = try temporaryDirectory()
        try writeFile(
            """
            { "version": 1, "name": "bar", "canvas": { "width": 200, "height": 70 }, "duration": 1,
              "layers": [
                { "type": "text", "name": "label", "text": "Loading", "font": { "family": "Inter", "size": 34 }, "color": "black",
                  "position": [6, 20], "anchorPoint": [0, 0.5] },
                { "type": "rect", "name": "dot", "center": ["6 + @label.width + 3 + 7 / 2", 28], "size": [7, 7], "fill": "black" },
                { "type": "rect", "name": "fill", "center": [60, 55], "size": [100, 10], "fill": "#007AFF",
                  "anchorPoint": [0, 0.5], "position": [10, 55],
                  "animations": [ { "keyPath": "size.width", "fromValue": 0, "toValue": 100, "duration": 1 },
                                  { "keyPath": "transform.translation.y", "fromValue": 0, "toValue": 0, "duration": 1 } ] }
              ] }
            """, to: dir + "/bar.json")
        // The schema an editor checks with agrees: the key paths, @label.width and features.
        let schema = try runPython(
            """
            import json, sys, jsonschema
            schema = json.load(open(sys.argv[1]))
            preset = json.load(open(sys.argv[2]))
            print(len(list(jsonschema.Draft7Validator(schema).iter_errors(preset))))
            preset["layers"][0]["font"]["features"] = ["tnum", "-kern"]
            print(len(list(jsonschema.Draft7Validator(schema).iter_errors(preset))))
            preset["layers"][0]["font"]["features"] = ["tabular"]
            print(len(list(jsonschema.Draft7Validator(schema).iter_errors(preset))))
            """, arguments: [packageRoot + "/schema/preset.schema.json", dir + "/bar.json"])
        #expect(schema.stdout == "0\n0\n1\n", "\(schema.stdout)\(schema.stderr)")
        let run = try runTool(["bar.json", "--time", "0.5", "-o", "f.png"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(listing(dir) == ["bar.json", "f.png"])
        // Pillow reads the PNG: the dot's alpha across its row, and the fill's across its row.
        let check = try runPython(
            """
            import sys
            from PIL import Image
            im = Image.open(sys.argv[1]).convert("RGBA")
            print(" ".join(str(im.getpixel((x, 28))[3]) for x in range(135, 147)))
            print(" ".join(str(im.getpixel((x, 55))[3]) for x in (8, 9, 10, 11, 58, 59, 60, 61)))
            """, arguments: [dir + "/f.png"])
        let rows = check.stdout.split(separator: "\n").map { $0.split(separator: " ").compactMap { Int($0) } }
        #expect(rows.count == 2)
        guard rows.count == 2 else { return }
        // Inter's "Loading" at 34 pt is 128.37 wide, so the 7 pt dot spans x 137.37 … 144.37:
        // 63 % of pixel 137 and 37 % of pixel 144 covered.
        #expect(rows[0][0...1] == [0, 0] && rows[0][10...11] == [0, 0])
        #expect(abs(rows[0][2] - 161) <= 2 && abs(rows[0][9] - 94) <= 2, "\(rows[0])")
        #expect(rows[0][3...8].allSatisfy { $0 == 255 })
        // size.width 0 → 100 over 1 s, half-way: 50 pt from the left edge, which stays at x 10.
        #expect(rows[1] == [0, 0, 255, 255, 255, 255, 0, 0])
    }

    @Test func tabularDigitsKeepACentredLabelStill() throws {
        let dir = try temporaryDirectory()
        func rightInk(_ text: String, features: String) throws -> Int {
            let name = "p\(text)\(features.count)"
            try writeFile(
                """
                { "version": 1, "name": "\(name)", "canvas": { "width": 120, "height": 40 }, "duration": 1,
                  "layers": [ { "type": "text", "text": "\(text)%", "color": "black",
                    "font": { "family": "Inter", "size": 24, "features": \(features) },
                    "position": [60, 20], "anchorPoint": [0.5, 0.5] } ] }
                """, to: dir + "/\(name).json")
            let run = try runTool(["\(name).json", "--frame", "0", "-o", "\(name).png"], in: dir)
            #expect(run.status == 0, "\(run.stderr)")
            let check = try runPython(
                "import sys\nfrom PIL import Image\nprint(Image.open(sys.argv[1]).convert('RGBA').split()[3].getbbox()[2])",
                arguments: [dir + "/\(name).png"])
            return Int(check.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        }
        let tabular = try ["11", "47", "88"].map { try rightInk($0, features: #"["tnum"]"#) }
        #expect(Set(tabular).count == 1 && tabular[0] > 60, "\(tabular)")
        let proportional = try ["11", "88"].map { try rightInk($0, features: "[]") }
        #expect(proportional[0] < proportional[1] - 1, "\(proportional)")
        // A bad tag is one error at the tag.
        try writeFile(
            """
            { "version": 1, "name": "bad", "canvas": { "width": 10, "height": 10 },
              "layers": [ { "type": "text", "text": "1", "font": { "features": ["tabular"] } } ] }
            """, to: dir + "/bad.json")
        let bad = try runTool(["validate", "bad.json"], in: dir)
        #expect(bad.status == 65)
        #expect(
            bad.stderr.split(separator: "\n").first
                == "bad.json:2:69: error: $.layers[0].font.features[0]: expected an OpenType feature tag of 4 letters or digits, e.g. \"tnum\" (tabular digits) or \"-kern\" (kerning off), found \"tabular\""
        )
    }
}
