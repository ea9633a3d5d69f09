import Export
import Foundation
import OutputFiles
import Spec
import Testing
import Timeline
import ToolOptions

@testable import AnimexportCLI

/// The CLI's small pure parts, checked directly.
struct CLIUnitTests {
    /// A 1 s loop at 10 fps (no layers; the duration is explicit).
    static func plan(fps: Double = 10, duration: Double = 1) throws -> LoopPlan {
        try LoopPlan.make(
            for: Composition(name: "t", canvas: Canvas(width: 1, height: 1), layers: []), fps: fps, duration: duration)
    }

    @Test(arguments: [true, false])
    func atomicWritesReplaceTheTargetAndLeaveNothingElse(unnamed: Bool) throws {
        // Both ways of writing: an unnamed O_TMPFILE linked in when done, and mkstemp.
        let dir = try temporaryDirectory()
        let path = dir + "/out.gif"
        // Linux on x86-64 (this machine and CI) takes the unnamed way whenever it is asked to.
        let expected: AtomicFile.Method = unnamed ? .unnamed : .named
        #expect(try AtomicFile.write([1, 2, 3], to: FilePath(path), unnamed: unnamed) == expected)
        #expect(
            try AtomicFile.write(Array(repeating: 7, count: 100_000), to: FilePath(path), unnamed: unnamed) == expected)
        #expect(readBytes(path) == Array(repeating: 7, count: 100_000))
        #expect(listing(dir) == ["out.gif"])
        let mask = umask(0)
        umask(mask)
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o666 & ~Int(mask))
        // A target that cannot be replaced (a folder) fails and leaves no temporary.
        try FileManager.default.createDirectory(atPath: dir + "/taken.gif/x", withIntermediateDirectories: true)
        #expect(throws: WriteError.self) {
            try AtomicFile.write([1], to: FilePath(dir + "/taken.gif"), unnamed: unnamed)
        }
        #expect(listing(dir) == ["out.gif", "taken.gif"])
    }

    @Test func timingReportMapsMergedFramesToTheirPlanFrames() throws {
        let plan = try Self.plan()
        #expect(plan.frameCount == 10)
        // Frames 0+1, 3+4+5 merged by an encoder: 7 frames in the file.
        let report = TimingReport.make(plan: plan, delays: [20, 10, 30, 10, 10, 10, 10], grid: .centiseconds)
        #expect(report.frames.map(\.sourceFrame) == [0, 2, 3, 6, 7, 8, 9])
        #expect(report.frames.map(\.sourceFrameCount) == [2, 1, 3, 1, 1, 1, 1])
        #expect(report.frames.map(\.encodedTime) == [0, 0.2, 0.3, 0.6, 0.7, 0.8, 0.9])
        #expect(report.frames.map(\.time) == [0, 0.2, 0.3, 0.6, 0.7, 0.8, 0.9])
        #expect(report.totalDuration == 1 && report.durationError == 0)
        #expect(report.warnings.isEmpty)
    }

    @Test func timingReportWarnsAboutClampsAndTheGrid() throws {
        let plan = try Self.plan(fps: 30, duration: 1)
        let delays = (0..<30).map { i in
            Int((100.0 * Double(i + 1) / 30).rounded()) - Int((100.0 * Double(i) / 30).rounded())
        }
        let report = TimingReport.make(plan: plan, delays: delays, grid: .centiseconds)
        #expect(
            report.warnings == [
                "30 of 30 frames have delays under 10 cs; some GIF players (several iOS libraries) raise those to 10 cs, so there the loop lasts 3 s instead of 1 s"
            ])
        let short = TimingReport.make(plan: plan, delays: delays.dropLast() + [0], grid: .centiseconds)
        #expect(short.durationError == -0.03)
        #expect(short.warnings.contains("1 of 30 frames have delays under 2 cs; browsers play those as 10 cs"))
        let sheet = TimingReport.make(plan: plan, delays: Array(repeating: 33, count: 30), grid: .milliseconds)
        #expect(abs(sheet.durationError - -0.01) < 1e-12)
        #expect(
            sheet.warnings == [
                "the loop period 1 s is not a whole number of milliseconds, so the file lasts 0.99 s (-10 ms off)"
            ])
    }

    @Test func variantsFanOutInCommandLineOrder() {
        let variants = Variant.expand([
            ParameterSetting(name: "size", values: ["24", "32"]),
            ParameterSetting(name: "speed", values: ["2"]),
            ParameterSetting(name: "color", values: ["#FF3B30", "sky blue"]),
        ])
        #expect(
            variants.map(\.suffix) == [
                "-size-24-color-FF3B30", "-size-24-color-sky_blue", "-size-32-color-FF3B30", "-size-32-color-sky_blue",
            ])
        #expect(variants[3].overrides == ["size": "32", "speed": "2", "color": "sky blue"])
        #expect(Variant.expand([]) == [Variant(overrides: [:], suffix: "")])
        #expect(Variant.fileNamePart("../a/b") == ".._a_b")
        #expect(Variant.fileNamePart("#") == "_")
    }

    @Test func setParsingHonoursEscapes() throws {
        #expect(
            try ParameterSetting(parsing: "label=a\\,b,c") == ParameterSetting(name: "label", values: ["a,b", "c"]))
        #expect(try ParameterSetting(parsing: "label=") == ParameterSetting(name: "label", values: [""]))
        #expect(try ParameterSetting(parsing: "x=1=2") == ParameterSetting(name: "x", values: ["1=2"]))
        #expect(throws: UsageError.self) { try ParameterSetting(parsing: "=3") }
        // Commas inside parentheses belong to the value (CSS colour functions).
        #expect(
            try ParameterSetting(parsing: "color=rgb(255,59,48),hsl(4, 100%, 59%),red")
                == ParameterSetting(name: "color", values: ["rgb(255,59,48)", "hsl(4, 100%, 59%)", "red"]))
        #expect(try ParameterSetting(parsing: "label=a)b,c") == ParameterSetting(name: "label", values: ["a)b", "c"]))
    }

    @Test func cssPercentagesAreExactAndLocaleFree() {
        #expect(PreviewPage.percent(33, of: 4000) == "0.8250%")
        #expect(PreviewPage.percent(1, of: 3) == "33.3333%")
        #expect(PreviewPage.percent(4000, of: 4000) == "100.0000%")
        #expect(PreviewPage.escape("<a href=\"x\">&'") == "&lt;a href=&quot;x&quot;&gt;&amp;&#39;")
    }

    @Test func gifPlansNeverNeedADelayUnderTwoCentiseconds() throws {
        let composition = Composition(name: "t", canvas: Canvas(width: 1, height: 1), layers: [])
        let plan = try LoopPlan.make(for: composition, fps: 50, duration: 1.234)
        #expect(plan.frameCount == 62)
        let gif = try GIFFormat().framePlan(for: plan, of: composition, duration: 1.234)
        #expect(gif.frameCount == 61)
        let fast = try LoopPlan.make(for: composition, fps: 120, duration: 1)
        #expect(try GIFFormat().framePlan(for: fast, of: composition, duration: 1).frameCount == 50)
        let slow = try LoopPlan.make(for: composition, fps: 30, duration: 1)
        #expect(try GIFFormat().framePlan(for: slow, of: composition, duration: 1) == slow)
    }
}

/// `FilePath`: bytes in, the same bytes out; messages escape what is not UTF-8.
struct FilePathTests {
    static let latin1 = FilePath(bytes: Array("dir/caf".utf8) + [0xE9] + Array(".json".utf8))

    @Test func showsInvalidBytesAsEscapesAndJSONTextAsReplacement() {
        #expect(Self.latin1.description == "dir/caf\\xE9.json")
        #expect(Self.latin1.unicode == "dir/caf\u{FFFD}.json")
        #expect(!Self.latin1.isValidUTF8)
        // Valid UTF-8 (é as C3 A9, a 4-byte emoji) is shown as it is.
        #expect(FilePath("café/🎞.gif").description == "café/🎞.gif")
        #expect(FilePath("café").isValidUTF8)
        // A truncated sequence and an encoded surrogate (ED A0 80) are ill-formed, byte by byte.
        #expect(FilePath(bytes: [0x61, 0xE2, 0x82]).description == "a\\xE2\\x82")
        #expect(FilePath(bytes: [0xED, 0xA0, 0x80]).description == "\\xED\\xA0\\x80")
        #expect(FilePath(bytes: [0x61, 0, 0x62]).bytes == [0x61])
    }

    @Test func componentsKeepTheBytes() {
        let p = Self.latin1
        #expect(p.directory == "dir")
        #expect(p.lastComponent.bytes == Array("caf".utf8) + [0xE9] + Array(".json".utf8))
        #expect(p.pathExtension == "json")
        #expect((p.deletingPathExtension + ".png").bytes == Array("dir/caf".utf8) + [0xE9] + Array(".png".utf8))
        #expect(FilePath("x.gif").directory == ".")
        #expect(FilePath("/x.gif").directory == "/")
        #expect(FilePath("out/").removingTrailingSlashes == "out")
        #expect(FilePath("out/").hasTrailingSlash)
        #expect(FilePath(".hidden").pathExtension == "")
        #expect(FilePath("a.b/c").pathExtension == "")
        #expect(FilePath(".").appending("x.gif") == "./x.gif")
        #expect(FilePath("out/").appending("x.gif") == "out/x.gif")
        #expect(FilePath("a/./b/../c.gif").canonical.bytes.last == UInt8(ascii: "f"))
    }

    @Test func readsListsAndCreatesByBytes() throws {
        let dir = FilePath(try temporaryDirectory())
        let folder = dir.appending(FilePath(bytes: [0x64, 0xE9]))  // "dé" in Latin-1
        try folder.appending("sub").createDirectories()
        let file = folder.appending(Self.latin1.lastComponent)
        try AtomicFile.write([1, 2, 3], to: file)
        #expect(try file.read() == [1, 2, 3])
        #expect(try folder.entries().map(\.bytes) == [Self.latin1.lastComponent.bytes, Array("sub".utf8)])
        #expect(file.kind == .regular && folder.kind == .directory)
        #expect(throws: FileReadError.self) { try folder.read() }
        #expect(throws: FileReadError.self) { try folder.appending("none").read() }
    }
}
