import Foundation
import Testing

/// `animexport --help` is a text golden: a change to the options must change
/// Tests/CLITests/Fixtures/help.txt in the same commit (and docs/cli.md with it).
struct HelpGoldenTests {
    static let goldenPath = packageRoot + "/Tests/CLITests/Fixtures/help.txt"

    @Test func helpMatchesTheGolden() throws {
        let dir = try temporaryDirectory()
        let run = try runTool(["--help"], in: dir)
        #expect(run.status == 0)
        #expect(run.stderr.isEmpty)
        let golden = String(decoding: readBytes(Self.goldenPath), as: UTF8.self)
        if run.stdout != golden {
            let actual = packageRoot + "/.build/help.actual.txt"
            try? writeFile(run.stdout, to: actual)
            Issue.record(
                "--help differs from \(Self.goldenPath); the new text is in \(actual): review it, copy it over the golden and update docs/cli.md"
            )
        }
        // Every option the parser knows is documented in the help.
        for option in [
            "--fps", "--duration", "--scale", "--background", "--matte", "--set", "--loop", "--columns", "--padding",
            "--frames", "--format", "--frame", "--time", "--preview", "--report", "--jobs", "--watch", "--strict",
            "--quiet", "--help", "--version", "list", "validate", "check", "--sheet-format", "--frame-name", "--force",
            "--exclude",
        ] {
            #expect(golden.contains(option), "help lacks \(option)")
        }
    }

    @Test func helpLinesFitInAHundredColumns() {
        let golden = String(decoding: readBytes(Self.goldenPath), as: UTF8.self)
        #expect(!golden.isEmpty)
        for line in golden.split(separator: "\n") {
            #expect(line.count <= 100, "too long: \(line)")
        }
    }

    @Test func subcommandsAcceptHelp() throws {
        let dir = try temporaryDirectory()
        for command in ["list", "validate", "check"] {
            let run = try runTool([command, "--help"], in: dir)
            #expect(run.status == 0)
            #expect(run.stdout.hasPrefix("animexport: turn JSON animation presets"))
        }
    }
}
