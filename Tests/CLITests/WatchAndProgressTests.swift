import Encode
import Foundation
import Testing

/// `--watch` re-renders on save and survives a bad edit; the progress line appears only on a
/// terminal.
@Suite(.serialized) struct WatchAndProgressTests {
    /// Lines of stdout that report a finished render (`HH:MM:SS p.json: 1 file in 0.12 s`).
    static func renderLines(_ text: String) -> [String] {
        text.split(separator: "\n").map(String.init).filter { $0.contains(" p.json: 1 file in ") }
    }

    static func firstPixel(_ path: String) throws -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        try GIFDecoder.decode(readBytes(path)).frames[0].canvas[10, 10]
    }

    @Test func watchRerendersOnSaveAndSurvivesABadEdit() throws {
        let dir = try temporaryDirectory()
        try writeFile(squarePreset(), to: dir + "/p.json")
        let watch = try LiveProcess(["p.json", "-o", "w.gif", "--watch"], in: dir)
        #expect(watch.wait { out, _ in Self.renderLines(out).count == 1 }, "no first render: \(watch.stderr)")
        #expect(try Self.firstPixel(dir + "/w.gif") == (255, 0, 0, 255))

        // A save with a new colour: one more render line, and the GIF follows.
        try writeFile(squarePreset().replacingOccurrences(of: "#FF0000", with: "#0000FF"), to: dir + "/p.json")
        #expect(watch.wait { out, _ in Self.renderLines(out).count == 2 }, "no second render: \(watch.stdout)")
        #expect(try Self.firstPixel(dir + "/w.gif") == (0, 0, 255, 255))

        // A broken save: the error is printed, the GIF is kept, the watch goes on.
        try writeFile("{ \"version\": 1, ", to: dir + "/p.json")
        #expect(watch.wait { out, _ in out.contains("p.json: failed (exit 65); waiting for the next save") })
        #expect(watch.stderr.contains("p.json:1:"))
        #expect(try Self.firstPixel(dir + "/w.gif") == (0, 0, 255, 255))

        // Fixed again: rendered again.
        try writeFile(squarePreset().replacingOccurrences(of: "#FF0000", with: "#00FF00"), to: dir + "/p.json")
        #expect(watch.wait { out, _ in Self.renderLines(out).count == 3 }, "no render after the fix: \(watch.stdout)")
        #expect(try Self.firstPixel(dir + "/w.gif") == (0, 255, 0, 255))

        #expect(watch.terminate() == 0)
        // Each line starts with the time of day and ends with how long the render took.
        for line in Self.renderLines(watch.stdout) {
            let parts = line.split(separator: " ")
            #expect(parts.first?.count == 8 && parts.first?.filter { $0 == ":" }.count == 2, "\(line)")
            #expect(line.hasSuffix(" s") && Double(parts[parts.count - 2]) != nil, "\(line)")
        }
        #expect(listing(dir).filter { $0.hasPrefix(".") }.isEmpty, "temporary files left: \(listing(dir))")
    }

    @Test func watchNoticesAFileThePresetUses() throws {
        let dir = try temporaryDirectory()
        // Any string naming a file beside the preset is watched (an image layer's PNG, say);
        // the description stands in for such a reference here.
        try writeFile("one", to: dir + "/texture.txt")
        try writeFile(
            squarePreset().replacingOccurrences(of: "\"A square that turns.\"", with: "\"texture.txt\""),
            to: dir + "/p.json")
        let watch = try LiveProcess(["p.json", "-o", "w.gif", "--watch"], in: dir)
        #expect(watch.wait { out, _ in Self.renderLines(out).count == 1 })
        try writeFile("two!", to: dir + "/texture.txt")
        #expect(watch.wait { out, _ in Self.renderLines(out).count == 2 }, "texture change not seen: \(watch.stdout)")
        #expect(watch.terminate() == 0)
    }

    /// Runs the tool under `script`, which gives it a pseudo-terminal as stdout and stderr.
    static func runOnTerminal(_ arguments: [String], in dir: String) throws -> ToolRun {
        let command = ([toolPath] + arguments).map { "'\($0)'" }.joined(separator: " ")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qfec", command, "/dev/null"]
        process.currentDirectoryURL = URL(fileURLWithPath: dir)
        var env = ProcessInfo.processInfo.environment
        env["ANIMEXPORT_PROGRESS_DELAY"] = "0"  // show the line at once instead of after 1 s
        process.environment = env
        let out = Pipe()
        process.standardOutput = out
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return ToolRun(status: process.terminationStatus, stdout: String(decoding: data, as: UTF8.self), stderr: "")
    }

    @Test func progressOnlyOnATerminalAndNeverWithQuiet() throws {
        let dir = try temporaryDirectory()
        let circular = packageRoot + "/presets/circular.json"
        let terminal = try Self.runOnTerminal([circular, "-o", "a.gif"], in: dir)
        #expect(terminal.status == 0)
        #expect(terminal.stdout.contains("\r\u{1B}[Kanimexport: 120/120 frames rendered (100 %)"), "\(terminal.stdout)")
        // The line is erased before the summary is printed.
        #expect(terminal.stdout.contains("\r\u{1B}[Ka.gif: 120 frames"))

        let quiet = try Self.runOnTerminal([circular, "-o", "b.gif", "--quiet"], in: dir)
        #expect(quiet.status == 0)
        #expect(quiet.stdout.isEmpty, "\(quiet.stdout)")

        var env = ["ANIMEXPORT_PROGRESS_DELAY": "0"]
        env["TERM"] = "xterm"
        let piped = try runTool([circular, "-o", "c.gif"], in: dir, environment: env)
        #expect(piped.status == 0)
        #expect(piped.stderr.isEmpty)
        #expect(!piped.stdout.contains("\r"))
    }
}
