import Foundation
import Testing

/// `animexport validate`: every problem at once with file, line:column and JSON path; loop lints
/// as warnings (errors under `--strict`); exit 0 clean, 65 on errors.
struct ValidateCommandTests {
    @Test func bundledPresetsAreValid() throws {
        // Not --strict: a bundled preset may rely on a lint's trap on purpose (clamped strokeStart).
        let run = try runTool(["validate", "presets/"], in: packageRoot)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!run.stderr.contains("error:"))
        #expect(
            run.stdout.split(separator: "\n").contains(
                "presets/circular.json: valid (4 s loop, 120 frames at 30 fps, 64×64 pt)"))
    }

    @Test func everyProblemAtOnceWithLocationsAndSuggestions() throws {
        let dir = try temporaryDirectory()
        try writeFile(
            """
            {
              "version": 1, "name": "broken",
              "canvas": { "width": 64, "height": 64 },
              "params": { "strokeWidth": { "default": 4 } },
              "layers": [
                { "type": "circle", "center": [32, 32], "radius": "$strokWidth",
                  "stroke": { "color": "#007AFF", "widht": 4 },
                  "animations": [ { "keyPath": "strokeEnds", "toValue": 1, "duration": 1, "repeatCount": "infinity" } ] }
              ]
            }
            """, to: dir + "/broken.json")
        let run = try runTool(["validate", "broken.json"], in: dir)
        #expect(run.status == 65)
        #expect(run.stdout.isEmpty)
        let lines = run.stderr.split(separator: "\n").map(String.init)
        #expect(
            lines == [
                "broken.json:6:55: error: $.layers[0].radius: unknown parameter $strokWidth; did you mean $strokeWidth?",
                "broken.json:7:39: error: $.layers[0].stroke.widht: unknown key \"widht\" in a stroke; did you mean \"width\"?",
                "broken.json:8:36: error: $.layers[0].animations[0].keyPath: unknown keyPath \"strokeEnds\"; did you mean \"strokeEnd\"?",
                "broken.json: note: 3 errors",
            ])
        #expect(lines.last == "broken.json: note: 3 errors")
        #expect(listing(dir) == ["broken.json"])
    }

    @Test func periodOffTheCentisecondGridIsALint() throws {
        let dir = try temporaryDirectory()
        // One turn every 1.234 s: a GIF can only last 1.23 s.
        try writeFile(
            squarePreset().replacingOccurrences(of: "\"duration\": 1,", with: "\"duration\": 1.234,"),
            to: dir + "/odd.json")
        let relaxed = try runTool(["validate", "odd.json"], in: dir)
        #expect(relaxed.status == 0, "\(relaxed.stderr)")
        let lint =
            "odd.json: warning: $: the loop period 1.234 s does not land on the 1/100 s grid of GIF delays, so the GIF lasts 1.23 s; make the period a whole number of centiseconds"
        // validate writes no GIF: the lint says what it applies to, and is counted apart.
        let warning = lint + " (applies to GIF output only; --strict fails on it with --format gif) [period-off-grid]"
        #expect(relaxed.stderr == warning + "\n")
        #expect(
            relaxed.stdout
                == "odd.json: valid (1.234 s loop, 12 frames at 10 fps, 20×20 pt); 1 warning for GIF output only\n")
        // --strict fails on it only when GIF output is asked for.
        let notGIF = try runTool(["validate", "--strict", "odd.json"], in: dir)
        #expect(notGIF.status == 0, "\(notGIF.stderr)")
        #expect(notGIF.stderr == warning + "\n")

        let strict = try runTool(["validate", "--strict", "--format", "gif", "odd.json"], in: dir)
        #expect(strict.status == 65)
        #expect(
            strict.stderr.hasPrefix(lint.replacingOccurrences(of: "warning:", with: "error:") + " [period-off-grid]"))
        #expect(strict.stderr.hasSuffix("odd.json: note: 1 lint (an error under --strict)\n"))
        #expect(strict.stdout.isEmpty)
    }

    @Test func cyclesThatLineUpLateAreALint() throws {
        let dir = try temporaryDirectory()
        // 1 s and 1.1 s cycles meet only every 11 s.
        let preset = squarePreset().replacingOccurrences(
            of: "\"repeatCount\": \"infinity\" }",
            with:
                "\"repeatCount\": \"infinity\" },\n { \"keyPath\": \"opacity\", \"fromValue\": 1, \"toValue\": 0.5, \"duration\": 1.1, \"repeatCount\": \"infinity\" }"
        )
        try writeFile(preset, to: dir + "/late.json")
        let run = try runTool(["validate", "late.json"], in: dir)
        #expect(run.status == 0)
        #expect(
            run.stderr
                == "late.json: warning: $: the animations' cycles (1 s, 1.1 s) line up only every 11 s, so the loop has 110 frames; make the cycles divide each other or set \"duration\" [long-loop]\n"
        )
    }

    @Test func noLoopPeriodIsAnError() throws {
        let dir = try temporaryDirectory()
        try writeFile(
            squarePreset().replacingOccurrences(of: "\"duration\": 1,", with: "\"duration\": 0.0005,"),
            to: dir + "/fast.json")
        let run = try runTool(["validate", "fast.json"], in: dir)
        #expect(run.status == 65)
        // The key to blame, with its line and column.
        #expect(
            run.stderr.hasPrefix(
                "fast.json:15:77: error: $.layers[0].animations[0].duration: an animation's cycle of 0.0005 s is not a whole number of milliseconds"
            ), "\(run.stderr)")
    }

    @Test func setValuesAreValidatedToo() throws {
        let dir = try temporaryDirectory()
        try writeFile(squarePreset(), to: dir + "/sq.json")
        let fine = try runTool(["validate", "sq.json", "--set", "size=10,40"], in: dir)
        #expect(fine.status == 0)
        // One line for the preset, with the facts of every combination (not only the last).
        let lines = fine.stdout.split(separator: "\n")
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("sq.json: valid (size=10: ") == true, "got: \(fine.stdout)")
        #expect(lines.first?.contains(" 10×10 pt; size=40: ") == true, "got: \(fine.stdout)")
        #expect(lines.first?.hasSuffix(" 40×40 pt)") == true, "got: \(fine.stdout)")
        let bad = try runTool(["validate", "sq.json", "--set", "sise=10"], in: dir)
        #expect(bad.status == 64)
        #expect(
            bad.stderr.contains(
                "sq.json: error: --set sise: the preset has no parameter \"sise\"; did you mean \"size\"?"))
        let range = try runTool(["validate", "sq.json", "--set", "size=10,400"], in: dir)
        #expect(range.status == 64)
        #expect(range.stderr.contains("--set size=400: must be at most 200"))
    }

    @Test func unreadablePresetExits1AndOutputOptionsAreRefused() throws {
        let dir = try temporaryDirectory()
        let missing = try runTool(["validate", "missing.json"], in: dir)
        #expect(missing.status == 1)
        #expect(missing.stderr == "error: cannot read missing.json: no such file\n")
        let refused = try runTool(["validate", "x.json", "-o", "out/"], in: dir)
        #expect(refused.status == 64)
        #expect(refused.stderr.hasPrefix("error: -o does not apply when 'validate'"))
    }
}
