// SPDX-License-Identifier: GPL-3.0-or-later

import Export
import Foundation
import OutputFiles
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Every file the tool writes is guarded against replacing an input, and a job's files are
/// committed so that a kill at any rename leaves no PNG/JSON pair from two runs and no hidden
/// file after the next run.
@Suite struct OutputCommitTests {
    /// Copies the circular preset into a fresh folder.
    private func workspace() throws -> (dir: String, preset: Data) {
        let dir = try temporaryDirectory()
        let original = try Data(contentsOf: URL(fileURLWithPath: packageRoot + "/presets/circular.json"))
        try original.write(to: URL(fileURLWithPath: dir + "/circular.json"))
        return (dir, original)
    }

    @Test(arguments: [
        (
            ["circular.json", "-o", "x.gif", "--report", "circular.json"],
            "circular.json would overwrite the preset circular.json; give --report or --preview another file name"
        ),
        (["./", "-o", "out/", "--report", "./circular.json"], "would overwrite the preset ./circular.json"),
        (["circular.json", "-o", "x.png", "--report", "x.json"], "x.json is named by both --report/--preview"),
    ])
    func reportAndPreviewCannotReplaceAnInputOrAnOutput(arguments: [String], message: String) throws {
        let (dir, original) = try workspace()
        try FileManager.default.createDirectory(atPath: dir + "/out", withIntermediateDirectories: true)
        let run = try runTool(arguments, in: dir)
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stderr.contains(message), "\(run.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir + "/circular.json")) == original)
        #expect(listing(dir) == ["circular.json", "out"])
        #expect(listing(dir + "/out").isEmpty)
    }

    @Test func aFolderNamedLikeAFileIsNotWrittenInto() throws {
        let (dir, _) = try workspace()
        try FileManager.default.createDirectory(atPath: dir + "/x.gif", withIntermediateDirectories: true)
        let run = try runTool(["circular.json", "-o", "x.gif"], in: dir)
        #expect(run.status == 64)
        #expect(run.stderr.contains("-o x.gif is a folder, but its name reads as a .gif file; write -o x.gif/"))
        #expect(listing(dir + "/x.gif").isEmpty)
    }

    @Test func watchingAMissingFileFailsAtOnce() throws {
        let dir = try temporaryDirectory()
        let run = try runTool(["nothere.json", "--watch", "-o", "x.gif"], in: dir)
        #expect(run.status == 1)
        #expect(run.stderr == "error: cannot watch nothere.json: no such file\n")
    }

    @Test func aLongUnknownOptionIsQuotedShort() throws {
        let dir = try temporaryDirectory()
        let long = "--" + String(repeating: "x", count: 100_000)
        let run = try runTool(["circular.json", long], in: dir)
        #expect(run.status == 64)
        #expect(
            run.stderr.hasPrefix("error: unknown option --\(String(repeating: "x", count: 38))… (100002 characters)"))
        #expect(run.stderr.count < 300)
    }

    @Test func stagingNamesCarryTheWritersPID() {
        #expect(AtomicFile.stagingPID(".loader.gif.ax1234-ab12cd") == 1234)
        #expect(AtomicFile.stagingPID(".animexport-probe.ax7-zzzzzz") == 7)
        #expect(AtomicFile.stagingPID(".loader.gif.abcdef") == nil)
        #expect(AtomicFile.stagingPID(".loader.gif.ax-ab12cd") == nil)
        #expect(AtomicFile.stagingPID("loader.gif") == nil)
    }

    @Test func hiddenFilesOfDeadRunsAreRemovedByTheNextRun() throws {
        let (dir, _) = try workspace()
        try FileManager.default.createDirectory(atPath: dir + "/out", withIntermediateDirectories: true)
        // A PID above the kernel's largest (pid_max is at most 4194304) belongs to no process.
        let dead = dir + "/out/.circular.gif.ax4194305-abc123"
        let live = dir + "/out/.circular.gif.ax\(getpid())-abc123"
        let foreign = dir + "/out/.keep.me"
        for path in [dead, live, foreign] { try writeFile("x", to: path) }
        let run = try runTool(["circular.json", "-o", "out/", "-q"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            listing(dir + "/out") == [
                ".circular.gif.ax\(getpid())-abc123", ".keep.me", "circular.gif", "circular.json", "circular.png",
            ])
    }

    /// Size the sheet's PNG header says and the size its JSON says, or nil when a file is missing.
    private func sheetSizes(_ png: String, _ json: String) throws -> (png: [Int], json: [Int])? {
        guard FileManager.default.fileExists(atPath: png), let data = FileManager.default.contents(atPath: json)
        else { return nil }
        let bytes = readBytes(png)
        func be32(_ o: Int) -> Int { bytes[o..<(o + 4)].reduce(0) { $0 << 8 | Int($1) } }
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        let size = (object?["meta"] as? [String: Any])?["size"] as? [String: Int]
        return ([be32(16), be32(20)], [size?["w"] ?? -1, size?["h"] ?? -1])
    }

    /// Runs the export under strace, which kills it with SIGKILL at the `n`th rename.
    private func killedAtRename(_ n: Int, _ arguments: [String], in dir: String) throws -> ToolRun {
        try runProcess(
            "/usr/bin/strace",
            [
                "-f", "-qq", "-o", "/dev/null", "-e", "trace=rename,renameat,renameat2",
                "-e", "inject=rename,renameat,renameat2:signal=SIGKILL:when=\(n)", toolPath,
            ] + arguments, in: dir)
    }

    @Test func aKillAtAnyRenameLeavesNoTornPairAndTheNextRunCleansUp() throws {
        let (dir, _) = try workspace()
        try FileManager.default.createDirectory(atPath: dir + "/out", withIntermediateDirectories: true)
        let frames = dir + "/frames"
        // The old run: a 4-column sheet; the killed one asks for 5, so the pair's sizes differ.
        let old = ["circular.json", "-o", "out/", "--format", "gif,sheet", "--frames", frames, "-q", "--jobs", "1"]
        let new = old + ["--columns", "5"]
        #expect(try runTool(old + ["--columns", "4"], in: dir).status == 0)
        let oldGIF = readBytes(dir + "/out/circular.gif")
        let fresh = try temporaryDirectory()
        try FileManager.default.copyItem(atPath: dir + "/circular.json", toPath: fresh + "/circular.json")
        try FileManager.default.createDirectory(atPath: fresh + "/out", withIntermediateDirectories: true)
        #expect(try runTool(new.map { $0 == frames ? fresh + "/frames" : $0 }, in: fresh).status == 0)
        let newGIF = readBytes(fresh + "/out/circular.gif")
        let renames = 2 + 1 + 120  // GIF, PNG, JSON, 120 frames
        var killed = 0
        for n in [1, 2, 3, 4, 60, renames] {
            let run = try killedAtRename(n, new, in: dir)
            if run.status != 0 { killed += 1 }
            // The GIF is whole: old or new, never cut.
            #expect([oldGIF, newGIF].contains(readBytes(dir + "/out/circular.gif")))
            // The pair is from one run, or the JSON is missing; never a new PNG with old rectangles.
            if let sizes = try sheetSizes(dir + "/out/circular.png", dir + "/out/circular.json") {
                #expect(sizes.png == sizes.json, "kill at rename \(n): PNG \(sizes.png), JSON \(sizes.json)")
            }
            // The next run puts everything in place and leaves no hidden file.
            #expect(try runTool(new, in: dir).status == 0)
            #expect(listing(dir + "/out") == ["circular.gif", "circular.json", "circular.png"], "after kill \(n)")
            #expect(listing(frames).filter { $0.hasPrefix(".") }.isEmpty)
            #expect(listing(frames).count == 120)
            #expect(
                try sheetSizes(dir + "/out/circular.png", dir + "/out/circular.json").map { $0.png == $0.json } == true)
            // Back to the old run for the next kill.
            #expect(try runTool(old + ["--columns", "4"], in: dir).status == 0)
        }
        #expect(killed == 6)
    }
}
