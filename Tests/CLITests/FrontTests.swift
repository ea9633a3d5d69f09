import Foundation
import Testing

/// The `animexport` front (issue 20): it answers `--version` and `--help` itself, with the very
/// bytes `animexport-core` prints, and hands every other run to the core unchanged.
struct FrontTests {
    @Test func frontAndCoreSayTheSame() throws {
        let dir = try temporaryDirectory()
        for arguments in [["--version"], ["--help"], ["-h"]] {
            let front = try runTool(arguments, in: dir)
            let core = try runProcess(corePath, arguments, in: dir)
            #expect(front.status == 0 && core.status == 0)
            #expect(front.stderr.isEmpty && core.stderr.isEmpty)
            #expect(front.output == core.output, "\(arguments)")
        }
        #expect(try runTool(["--version"], in: dir).stdout == "animexport 0.1.0\n")
        #expect(try runTool(["-h"], in: dir).output == (try runTool(["--help"], in: dir)).output)
    }

    /// Anything else reaches the core: its output, exit codes and argument bytes.
    @Test func everythingElseIsTheCoresRun() throws {
        let dir = try temporaryDirectory()
        let cases: [([String], Int32)] = [
            (["--version", "--bogus"], 64), (["validate", "missing.json"], 1), (["--frobnicate"], 64),
            (["list", "--help"], 0), ([], 64),
        ]
        for (arguments, status) in cases {
            let front = try runTool(arguments, in: dir)
            let core = try runProcess(corePath, arguments, in: dir)
            #expect(front.status == status, "\(arguments): \(front.stderr)")
            #expect(front.status == core.status && front.output == core.output && front.stderr == core.stderr)
        }
    }

    /// Without the core beside it the front names the file it tried and exits 1 (I/O), and
    /// still answers `--version` on its own.
    @Test func aMissingCoreIsNamed() throws {
        let dir = try temporaryDirectory()
        let lone = dir + "/animexport"
        try Data(readBytes(toolPath)).write(to: URL(fileURLWithPath: lone))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: lone)
        let run = try runProcess(lone, ["list"], in: dir)
        #expect(run.status == 1)
        #expect(run.output.isEmpty)
        #expect(
            run.stderr
                == "error: cannot run \(dir)/animexport-core: No such file or directory; animexport-core must be installed beside animexport\n"
        )
        #expect(try runProcess(lone, ["--version"], in: dir).stdout == "animexport 0.1.0\n")
    }
}
