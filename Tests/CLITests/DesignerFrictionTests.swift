import Foundation
import Render
import Testing

/// What a fresh designer hit (issue 19, second round), end to end through the binary: colour
/// params with named defaults, manifests that `--preview` and `--exclude` must not change,
/// `check`'s reasons and grammar. Every run gets its own `XDG_CACHE_HOME` (ManifestTests).
@Suite struct DesignerFrictionTests {
    /// A preset whose colour param defaults to `name` (no `"type"`).
    static func namedColorPreset(_ name: String) -> String {
        squarePreset().replacingOccurrences(of: "\"default\": \"#FF0000\"", with: "\"default\": \"\(name)\"")
    }

    /// `list`'s line for the param `color`.
    static func colorLine(_ listing: String) -> String {
        String(listing.split(separator: "\n").first { $0.hasPrefix("    color ") } ?? "")
    }

    @Test(arguments: ["systemGray", "systemBlue", "systemGray5", "tomato", "rgb(255 59 48)", "0xFF3B30", "mint"])
    func namedColourDefaultMakesAColourParam(_ name: String) throws {
        let dir = try BatchTests.workspace()
        try writeFile(Self.namedColorPreset(name), to: dir + "/presets/square.json")
        let list = try runTool(["list", "presets/square.json"], in: dir)
        #expect(list.status == 0, "\(list.stderr)")
        #expect(Self.colorLine(list.stdout).contains("  colour  "), "\(list.stdout)")
        // A bad value is the option's fault (64), named before anything renders.
        let bad = try runTool(["presets/square.json", "-o", "out/", "--set", "color=bleu"], in: dir)
        #expect(bad.status == 64)
        #expect(
            bad.stderr.hasPrefix("presets/square.json: error: --set color=bleu: expected a colour (#RRGGBB, "),
            "\(bad.stderr)")
        #expect(listing(dir + "/out").isEmpty)
        // A good one renders: the square's centre pixel is the colour given.
        let good = try runTool(
            ["presets/square.json", "-o", "out/", "--format", "gif", "--set", "color=#0000FF"], in: dir)
        #expect(good.status == 0, "\(good.stderr)")
        #expect(listing(dir + "/out") == ["square.gif"])
    }

    /// A label that happens to be a name in another case, or a UIKit name that is also a word,
    /// stays text.
    @Test(arguments: ["Snow", "label", "link", "Tomato"])
    func wordDefaultStaysAString(_ word: String) throws {
        let dir = try BatchTests.workspace()
        try writeFile(Self.namedColorPreset(word), to: dir + "/presets/square.json")
        let list = try runTool(["list", "presets/square.json"], in: dir)
        #expect(Self.colorLine(list.stdout).contains("  string  "), "\(list.stdout)")
    }

    /// `--preview` and `--exclude` do not decide any job's bytes, so they leave the manifests
    /// alone: the export after them is answered from the manifests and `check` passes.
    @Test func previewAndExcludeKeepManifestsUpToDate() throws {
        let dir = try ManifestTests.workspace()
        try writeFile("{\"not\": \"a preset\"}", to: dir + "/presets/notes.json")
        let base = ["presets", "-o", "out/", "--format", "gif"]
        let first = try ManifestTests.run(base + ["--preview", "p.html", "--exclude", "notes.json"], in: dir)
        #expect(first.status == 0, "\(first.stderr)")
        let sums = try sha256Sums(dir + "/out")
        let stamps = manifests(in: dir + "/out").map { readBytes(dir + "/out/" + $0) }
        let check = try ManifestTests.run(["check"] + base, in: dir)
        #expect(check.stdout == "check: all 2 files are up to date (2 answered from manifests)\n", "\(check.stdout)")
        let again = try ManifestTests.run(base + ["--exclude", "*.md", "--exclude", "notes.json"], in: dir)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(ManifestTests.upToDate(again) == ["dot", "square"], "\(again.stdout)")
        // Naming the files instead of the folder: the same jobs, the same manifests.
        let files = try ManifestTests.run(
            ["presets/dot.json", "presets/square.json", "-o", "out/", "--format", "gif"], in: dir)
        #expect(ManifestTests.upToDate(files) == ["dot", "square"], "\(files.stdout)")
        #expect(try sha256Sums(dir + "/out") == sums)
        #expect(manifests(in: dir + "/out").map { readBytes(dir + "/out/" + $0) } == stamps)
    }

    /// A manifest made with other options is reported as such, not as "stale"; one bad file
    /// and one good file are counted in the singular.
    @Test func checkSaysOptionsDifferAndCountsInTheSingular() throws {
        let dir = try ManifestTests.workspace()
        let base = ["presets/dot.json", "-o", "out/", "--format", "gif"]
        #expect(try ManifestTests.run(base, in: dir).status == 0)
        let one = try ManifestTests.run(["check"] + base, in: dir)
        #expect(one.stdout == "check: the 1 file is up to date (1 answered from manifests)\n", "\(one.stdout)")
        let other = try ManifestTests.run(["check"] + base + ["--fps", "5"], in: dir)
        #expect(other.status == 2)
        #expect(
            other.stdout == "presets/dot.json: dot: rendered to compare (options differ)\ndiffers: out/dot.gif\n",
            "\(other.stdout)")
        #expect(other.stderr.hasPrefix("error: 1 of 1 file is missing or differs from what"), "\(other.stderr)")
    }

    /// `--speed 0.75` moves a 1 s loop off the GIF grid: the warning names the option, not the
    /// preset; a still (no animations) has no loop and passes `validate --strict`.
    @Test func periodOffGridBlamesSpeedAndSparesStills() throws {
        let dir = try BatchTests.workspace()
        let run = try runTool(["presets/square.json", "-o", "out/", "--format", "gif", "--speed", "0.75"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stderr.contains(
                "--speed 0.75 makes the loop period 1.333333 s (the preset's 1 s), which does not land on the 1/100 s grid"
            ),
            "\(run.stderr)")
        #expect(run.stderr.contains("[period-off-grid]"))
        let still = squarePreset().replacingOccurrences(
            of:
                "\"animations\": [\n        { \"keyPath\": \"rotation\", \"fromValue\": 0, \"toValue\": 90, \"duration\": 1, \"repeatCount\": \"infinity\" }\n      ]",
            with: "\"animations\": []")
        #expect(still != squarePreset())
        try writeFile(still, to: dir + "/presets/still.json")
        let validate = try runTool(["validate", "--strict", "presets/still.json"], in: dir)
        #expect(validate.status == 0, "\(validate.stdout)\(validate.stderr)")
        #expect(!(validate.stdout + validate.stderr).contains("period-off-grid"))
    }

    /// An `--exclude` with a path, or one matching nothing, says so; the batch still runs.
    @Test func excludeThatMatchesNothingIsNoted() throws {
        let dir = try BatchTests.workspace()
        let run = try runTool(
            ["presets", "-o", "out/", "--format", "gif", "--exclude", "presets/dot.json", "--exclude", "*.draft.json"],
            in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stderr.hasPrefix(
                "note: --exclude presets/dot.json matches nothing: patterns match file names inside the folders named, not paths; did you mean --exclude dot.json?\nnote: --exclude *.draft.json matches no file in the folders named\n"
            ), "\(run.stderr)")
        #expect(listing(dir + "/out") == ["dot.gif", "square.gif"])
        let used = try runTool(["presets", "-o", "out2/", "--format", "gif", "--exclude", "dot.json"], in: dir)
        #expect(used.status == 0)
        #expect(!used.stderr.contains("--exclude"), "\(used.stderr)")
        #expect(listing(dir + "/out2") == ["square.gif"])
    }

    /// `#bg=black` and `#bg=white` work like the buttons of those names: the page corner is
    /// that colour in headless Chromium.
    @Test(arguments: [("black", 0), ("BLACK", 0)])
    func previewFragmentTakesColourNames(name: String, level: Int) throws {
        guard PreviewTests.chromium != nil else {
            Issue.record("Chromium is not installed; run 'make deps' (Debian package chromium)")
            return
        }
        let dir = try BatchTests.workspace()
        let run = try runTool(
            ["presets/dot.json", "-o", "out/", "--format", "gif", "--preview", "p.html", "-q"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        guard let shot = try PreviewTests.screenshot(dir + "/p.html", fragment: "bg=\(name)", budget: 1000, in: dir)
        else { return }
        let corner = shot[2, 2]
        #expect((Int(corner.r), Int(corner.g), Int(corner.b)) == (level, level, level), "\(corner)")
    }
}
