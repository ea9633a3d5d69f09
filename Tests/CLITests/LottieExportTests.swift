import Foundation
import Testing

/// `-o NAME.lottie.json` (`LottieFormat`, `LottieWriter`): exact values for a known preset,
/// refusals with their JSON path, and every bundled preset against the official Lottie schema
/// and two independent renderers (rlottie, ThorVG) through `scripts/lottie_compare.py`, and
/// loading-dots against those renderers' own 8× renders (`scripts/lottie_truth.py`).
@Suite struct LottieExportTests {
    static let venvPython = packageRoot + "/.build/tools-venv/bin/python"

    private func object(_ value: Any?) -> [String: Any] { value as? [String: Any] ?? [:] }
    private func array(_ value: Any?) -> [Any] { value as? [Any] ?? [] }
    private func number(_ value: Any?) -> Double { (value as? NSNumber)?.doubleValue ?? .nan }

    @Test func squareTurningKnownValues() throws {
        let dir = try temporaryDirectory()
        try writeFile(squarePreset(), to: dir + "/square.json")
        let run = try runTool(["square.json", "-o", "square.lottie.json", "-q"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        let bytes = readBytes(dir + "/square.lottie.json")
        let doc = object(try JSONSerialization.jsonObject(with: Data(bytes)))
        // 10 fps, 1 s loop: 10 frames, Lottie frame i = loop frame i.
        #expect(number(doc["fr"]) == 10)
        #expect(number(doc["ip"]) == 0)
        #expect(number(doc["op"]) == 10)
        #expect(number(doc["w"]) == 20 && number(doc["h"]) == 20)
        #expect(object(doc["meta"])["g"] as? String == "animexport 0.1.0")
        let layers = array(doc["layers"]).map(object)
        try #require(layers.count == 2)
        // Front to back: the square, then the white background.
        #expect(layers[1]["nm"] as? String == "background")
        let ks = object(layers[0]["ks"])
        // rotation 0 → 90 linearly over the loop: one linear keyframe (handles (0, 0), (1, 1)) and
        // the closing keyframe 90 at op, not one keyframe per frame.
        let rotation = array(object(ks["r"])["k"]).map(object)
        try #require(rotation.count == 2)
        #expect(number(rotation[0]["t"]) == 0 && number(array(rotation[0]["s"]).first) == 0)
        #expect(number(rotation[1]["t"]) == 10 && abs(number(array(rotation[1]["s"]).first) - 90) < 1e-6)
        #expect(array(object(rotation[0]["o"])["x"]).map(number) == [0])
        #expect(array(object(rotation[0]["o"])["y"]).map(number) == [0])
        #expect(array(object(rotation[0]["i"])["x"]).map(number) == [1])
        #expect(array(object(rotation[0]["i"])["y"]).map(number) == [1])
        // It turns about the square's centre (10, 10): that is the anchor, and the position stays
        // there (static), instead of the origin baked along a circle.
        #expect(number(object(ks["a"])["a"]) == 0)
        #expect(array(object(ks["a"])["k"]).map(number) == [10, 10])
        #expect(number(object(ks["p"])["a"]) == 0)
        #expect(array(object(ks["p"])["k"]).map { abs(number($0) - 10) < 1e-6 } == [true, true])
        // The path is the 10×10 square in the layer's own points, filled red.
        let fillGroup = array(layers[0]["shapes"]).map(object).first { $0["nm"] as? String == "fill" }
        let items = array(fillGroup?["it"]).map(object)
        let path = object(object(items.first { $0["ty"] as? String == "sh" }?["ks"])["k"])
        let vertices = Set(array(path["v"]).map { array($0).map(number) }.map { "\($0[0]),\($0[1])" })
        #expect(vertices == ["5.0,5.0", "15.0,5.0", "15.0,15.0", "5.0,15.0"])
        #expect(path["c"] as? Bool == true)
        let fill = items.first { $0["ty"] as? String == "fl" }
        #expect(array(object(fill?["c"])["k"]).map(number) == [1, 0, 0, 1])
        // Same input, same bytes.
        let again = try runTool(["square.json", "-o", "again.lottie.json", "-q"], in: dir)
        #expect(again.status == 0)
        #expect(readBytes(dir + "/again.lottie.json") == bytes)
    }

    /// A timing function becomes the keyframe's easing handles: easeIn (0.42, 0, 1, 1) on the way
    /// out, and with `autoreverses` the same curve turned about (½, ½) on the way back
    /// (0, 0, 0.58, 1), since the back half plays e(1 − u). Two keyframes and the closing one.
    @Test func timingFunctionsAsEasingHandles() throws {
        let dir = try temporaryDirectory()
        let preset = """
            { "version": 1, "name": "sq", "description": "A square that turns back and forth.",
              "canvas": { "width": 20, "height": 20, "background": "#FFFFFF" }, "fps": 10,
              "layers": [ { "type": "rect", "center": [10, 10], "size": [10, 10], "fill": "#FF0000",
                "animations": [ { "keyPath": "rotation", "fromValue": 0, "toValue": 90, "duration": 1,
                  "repeatCount": "infinity", "autoreverses": true, "timingFunction": "easeIn" } ] } ] }
            """
        try writeFile(preset, to: dir + "/sq.json")
        let run = try runTool(["sq.json", "-o", "sq.lottie.json", "-q"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        let doc = object(try JSONSerialization.jsonObject(with: Data(readBytes(dir + "/sq.lottie.json"))))
        #expect(number(doc["op"]) == 20)
        let ks = object(array(doc["layers"]).map(object).first?["ks"])
        let r = array(object(ks["r"])["k"]).map(object)
        try #require(r.count == 3)
        func handles(_ key: [String: Any]) -> [Double] {
            let o = object(key["o"])
            let i = object(key["i"])
            return [o["x"], o["y"], i["x"], i["y"]].map { number(array($0).first) }
        }
        #expect(r.map { number($0["t"]) } == [0, 10, 20])
        #expect(r.map { number(array($0["s"]).first) } == [0, 90, 0])
        #expect(handles(r[0]) == [0.42, 0, 1, 1])
        #expect(handles(r[1]) == [0, 0, 0.58, 1])
        #expect(r[2]["o"] == nil)
    }

    @Test func refusedWithTheLayersPath() throws {
        let dir = try temporaryDirectory()
        let cases = [
            ("flipping-square", "$.layers[0]: rotation3D"), ("twin-circle-scale", "$.layers[0]: clip"),
        ]
        for (name, expected) in cases {
            let run = try runTool([packageRoot + "/presets/\(name).json", "-o", "x.lottie.json"], in: dir)
            #expect(run.status == 65, "\(name): \(run.stderr)")
            #expect(run.stderr.contains(expected), "\(name): \(run.stderr)")
            #expect(listing(dir).isEmpty, "\(name): \(listing(dir))")
        }
        // A plain .json is not taken for Lottie.
        let plain = try runTool([packageRoot + "/presets/circular.json", "-o", "x.json"], in: dir)
        #expect(plain.status == 64)
        #expect(plain.stderr.contains("NAME.lottie.json (Lottie animation)"), "\(plain.stderr)")
    }

    /// Every bundled preset: exported and schema-valid, or refused (the expected two); where
    /// rlottie and ThorVG agree with each other (≥ 40 dB), ours within 35 dB of both (and 34 of
    /// lottie-web, when it runs here) on white and on black at 8 instants (measured: 36.7 dB and up for shapes; the two loading-dots presets,
    /// text, 41.2 and up since text is filled as the outlines the file carries, 21.8 when it was
    /// drawn as glyph images at whole-pixel origins; docs/encoding.md, Lottie).
    @Test func bundledPresetsAgainstSchemaAndReferences() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.venvPython) else {
            print("skipped: \(Self.venvPython) is absent (make deps creates it)")
            return
        }
        // lottie-web (scripts/lottie_web.py) needs lottie.js from make deps and Chromium.
        let lottieWeb =
            FileManager.default.fileExists(atPath: packageRoot + "/.build/lottie-web/lottie.js")
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium")
        if !lottieWeb { print("lottie-web not compared: no .build/lottie-web/lottie.js or /usr/bin/chromium") }
        let presets = ((try? FileManager.default.contentsOfDirectory(atPath: packageRoot + "/presets")) ?? [])
            .filter { $0.hasSuffix(".json") }.sorted().map { packageRoot + "/presets/" + $0 }
        try #require(presets.count >= 12)
        let run = try runProcess(
            Self.venvPython,
            [packageRoot + "/scripts/lottie_compare.py", "--binary", toolPath, "--json"] + presets)
        try #require(run.status == 0, "\(run.stderr)")
        let results = array(try JSONSerialization.jsonObject(with: run.output)).map(object)
        var refused: [String] = []
        for r in results {
            let name = r["preset"] as? String ?? "?"
            if r["refused"] != nil {
                refused.append(name)
                continue
            }
            #expect(r["error"] == nil, "\(name): \(r["error"] ?? "")")
            #expect(array(r["schemaErrors"]).isEmpty, "\(name): \(array(r["schemaErrors"]))")
            // lottie-web draws every exported preset (scripts/lottie_web.py reports a frame it
            // throws on as unavailable, null here).
            if lottieWeb { #expect(r["lottie-web"] is NSNumber, "\(name): lottie-web did not draw it") }
            let refs = number(r["refs"])
            guard refs >= 40 else { continue }
            #expect(number(r["rlottie"]) >= 35, "\(name): rlottie \(number(r["rlottie"])) dB")
            #expect(number(r["thorvg"]) >= 35, "\(name): thorvg \(number(r["thorvg"])) dB")
            // lottie-web 5.8.1, when it runs here: measured 35.4–49.5 dB. circular-progress threw
            // in lottie-web (no frame drawn) while its digits' outlines changed vertex count
            // between keyframes; now 39.8.
            if lottieWeb {
                #expect(number(r["lottie-web"]) >= 34, "\(name): lottie-web \(number(r["lottie-web"])) dB")
            }
        }
        #expect(
            refused.sorted() == [
                "flipping-square", "twin-circle-scale",
            ])
    }

    /// loading-dots (its "Loading" filled as the glyph outlines, curves flattened at 0.01 px)
    /// against the truth of the references' own renderers: rlottie and ThorVG asked for the
    /// exported Lottie at 8× the size, box-averaged 8 × 8 (`scripts/lottie_truth.py`). Ours is
    /// within 48 dB of both at every instant (measured 50.8 / 52.0 dB; 39.0 / 40.7 against their
    /// 1× renders), and nearer to each fine render than that renderer's own 1× render is (39.5 /
    /// 41.2): the 1× miss is their curve flattening, not ours (docs/lottie.md, "The references
    /// against their own fine renders"). Checked to fail: fills flattened at Cairo's default
    /// 0.1 px give 46.9 / 46.9, at 0.125 px 43.9 / 43.9; the exported outlines moved 0.1 pt
    /// right, 33.7 / 33.8.
    @Test func loadingDotsAgainstTheReferencesOwnFineRenders() throws {
        guard FileManager.default.isExecutableFile(atPath: Self.venvPython) else {
            print("skipped: \(Self.venvPython) is absent (make deps creates it)")
            return
        }
        let probe = try runProcess(Self.venvPython, ["-c", "import rlottie_python, thorvg_python"])
        guard probe.status == 0 else {
            print("skipped: rlottie-python or thorvg-python is not in the venv (make deps installs them)")
            return
        }
        let run = try runProcess(
            Self.venvPython,
            [
                packageRoot + "/scripts/lottie_truth.py", "--binary", toolPath, "--renderers", "rlottie,thorvg",
                "--json", packageRoot + "/presets/loading-dots.json",
            ])
        try #require(run.status == 0, "\(run.stderr)")
        let result = object(array(try JSONSerialization.jsonObject(with: run.output)).first)
        try #require(array(result["frames"]).count == 8, "\(result)")
        for renderer in ["rlottie", "thorvg"] {
            let ours = array(result["ours-\(renderer)@S"]).map(number)
            let theirs = array(result["\(renderer)-\(renderer)@S"]).map(number)
            // Null when the renderer crashed on or refused our export: a failure, both are installed.
            #expect(ours.count == 8 && theirs.count == 8, "\(renderer) did not render loading-dots")
            for (k, (o, t)) in zip(ours, theirs).enumerated() {
                #expect(o >= 48, "\(renderer) frame \(k): ours \(o) dB from its 8× render")
                #expect(o >= t + 5, "\(renderer) frame \(k): ours \(o) dB, its own 1× render \(t) dB")
            }
        }
    }
}
