import Foundation
import Testing
import ToolOptions

/// `animexport list [DIR]`: every preset with description, canvas, rate, period, frame count and
/// params; a broken preset is listed as such with exit 65.
struct ListCommandTests {
    @Test func listsTheBundledCircularPreset() throws {
        let run = try runTool(["list", "presets"], in: packageRoot)
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(of: "circular  (presets/circular.json)") else {
            Issue.record("no circular entry in:\n\(run.stdout)")
            return
        }
        #expect(lines[start + 1].hasPrefix("  CircularLoaderView, the seed's final version as its code plays"))
        #expect(lines[start + 2] == "  canvas 64×64 pt, 30 fps, 4 s loop, 120 frames")
        #expect(lines[start + 3] == "  params:")
        #expect(lines[start + 4] == "    color             = #007AFF  colour  stroke colour (SwiftUI Color.blue)")
        #expect(
            lines[start + 5]
                == "    size              = 64       number  loader size: canvas width and height in points; the circle's diameter is 50/64 of it (50 pt at 64) (8…4096)"
        )
        // A default derived from size ("$size / 16") lists its value at the defaults.
        #expect(
            lines[start + 6]
                == "    strokeWidth       = 4        number  stroke width in points; follows size (4 pt at 64) unless set (0.5…32)"
        )
        #expect(lines[start + 8] == "    rotationDuration  = 4        number  seconds per full clockwise turn (≥ 0.01)")
    }

    @Test func defaultFolderIsPresets() throws {
        let explicit = try runTool(["list", "presets"], in: packageRoot)
        let implicit = try runTool(["list"], in: packageRoot)
        #expect(implicit.status == 0)
        #expect(implicit.stdout == explicit.stdout)
        #expect(implicit.stdout.contains("circular  (presets/circular.json)"))
    }

    @Test func brokenPresetIsListedAndExits65() throws {
        let dir = try temporaryDirectory()
        try writeFile(squarePreset(), to: dir + "/a.json")
        try writeFile("{ \"version\": 1, \"name\": \"b\" }", to: dir + "/b.json")
        try writeFile("not a preset", to: dir + "/notes.txt")
        let run = try runTool(["list", "."], in: dir)
        #expect(run.status == 65)
        #expect(
            run.stdout == """
                square  (./a.json)
                  A square that turns.
                  canvas 20×20 pt, 10 fps, 1 s loop, 10 frames
                  params:
                    color = #FF0000  colour  fill colour
                    size  = 20       number  canvas side in points (4…200)

                ./b.json
                  invalid: 2 errors; run 'animexport validate ./b.json' to see them

                """)
    }

    @Test func emptyFolderIsAUsageError() throws {
        let dir = try temporaryDirectory()
        let run = try runTool(["list", dir], in: dir)
        #expect(run.status == 64)
        #expect(run.stderr == "error: \(dir) holds no .json presets\n")
    }
}
