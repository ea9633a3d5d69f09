import Foundation
import OutputFiles
import Testing

/// The hostile-input table of issue 18 ("How it is checked"): every case runs the real binary
/// under a wall-clock limit (`timeout -s KILL`) and an address-space limit (`prlimit --as`), and
/// must end with its exact exit code, name the file and the JSON path (or the option) on
/// stderr, print no Swift crash report, and leave no file behind but the ones it declares.
///
/// The expectations are what the issue asks for: a preset value outside the budget is exit 65
/// naming its JSON path, an option value exit 64 naming the option, a legal but heavy job exit
/// 0 within the limits. A crash shows as 128 + the signal (132 SIGILL, 134 SIGABRT), a kill by
/// the limits as 137.
@Suite struct HostileInputTests {
    @Test(arguments: HostileCase.light)
    func lightCase(_ hostile: HostileCase) throws {
        try hostile.check()
    }

    /// Every input the fuzzer (`make fuzz`) ever kept: no crash, no hang, an allowed exit code
    /// and nothing left in the output folder after a failure.
    @Test(arguments: HostileCase.fuzzFixtures)
    func fuzzFixtureStaysFixed(_ file: String) throws {
        let dir = try temporaryDirectory()
        let name = "fuzz.json"
        try Data(contentsOf: URL(fileURLWithPath: file)).write(to: URL(fileURLWithPath: dir + "/" + name))
        try FileManager.default.createDirectory(atPath: dir + "/out", withIntermediateDirectories: false)
        for arguments in [["validate", name], [name, "-o", "out/", "--format", "gif,sheet"]] {
            // The fuzzer's 20 s limit is for the release binary; the tests run the debug build,
            // about 3× slower (the slowest fixture, 92d26bfde6653f6e: 2.8 s release against 8.5 s
            // debug on an idle machine), and share two cores with the rest of the suite.
            let run = try runLimited(arguments, in: dir, wallSeconds: 60, addressSpace: 2 << 30)
            #expect([0, 1, 64, 65].contains(run.status), "\(file) \(arguments): exit \(run.status)\n\(run.stderr)")
            #expect(!HostileCase.crashed(run.stderr), "\(file) \(arguments): \(run.stderr)")
            if run.status != 0 { #expect(listing(dir + "/out").isEmpty, "\(file): \(listing(dir + "/out"))") }
            #expect(!listing(dir + "/out").contains { $0.hasPrefix(".") }, "\(file): \(listing(dir + "/out"))")
        }
    }

    /// Every PNG frame the fuzzer kept (`Tests/CLITests/Fixtures/fuzz-png/*.png`, its
    /// `--png-share`): `animexport assemble` to APNG and WebP exits 0 with exactly the output or
    /// 65 with nothing written, and never traps.
    @Test(arguments: HostileCase.fuzzFrameFixtures)
    func fuzzedFrameStaysFixed(_ file: String) throws {
        let dir = try temporaryDirectory()
        try Data(contentsOf: URL(fileURLWithPath: file)).write(to: URL(fileURLWithPath: dir + "/f.png"))
        try FileManager.default.createDirectory(atPath: dir + "/out", withIntermediateDirectories: false)
        for (arguments, output) in [
            (["assemble", "f.png", "f.png", "-o", "out/a.apng"], "a.apng"),
            (["assemble", "f.png", "-o", "out/a.webp"], "a.webp"),
        ] {
            let run = try runLimited(arguments, in: dir, wallSeconds: 60, addressSpace: 2 << 30)
            #expect([0, 65].contains(run.status), "\(file) \(arguments): exit \(run.status)\n\(run.stderr)")
            #expect(!HostileCase.crashed(run.stderr), "\(file) \(arguments): \(run.stderr)")
            #expect(listing(dir + "/out") == (run.status == 0 ? [output] : []), "\(file) \(arguments)")
            if run.status == 65 { #expect(run.stderr.hasPrefix("f.png: error: "), "\(run.stderr)") }
            for name in listing(dir + "/out") { try FileManager.default.removeItem(atPath: dir + "/out/" + name) }
        }
    }
}

/// The heavy cases (large legal jobs and huge geometry) one at a time, so that two of them never
/// share the machine's memory.
@Suite(.serialized) struct HostileHeavyInputTests {
    @Test(arguments: HostileCase.openMemoryJobs)
    func openMemoryCase(_ hostile: HostileCase) throws { try hostile.check() }

    @Test(arguments: HostileCase.heavy)
    func heavyCase(_ hostile: HostileCase) throws {
        try hostile.check()
    }
}

/// File names are bytes on Linux (issue 18, item 7): a preset, an output and a folder named in
/// Latin-1 are read and written under exactly those bytes; messages show the bad byte as `\xE9`,
/// and JSON files that carry a name hold U+FFFD for it. The names cannot be Swift strings, so
/// these run through `/bin/sh` with `printf` escapes, under the same limits as the table, and
/// the folders are listed as bytes by Python (`os.listdir` of a bytes path).
@Suite struct NonUTF8PathTests {
    /// Runs `script` in `dir` with `$TOOL` set to the limited binary; returns its status and stderr.
    static func shell(_ script: String, in dir: String) throws -> ToolRun {
        let tool = "/usr/bin/timeout -s KILL 30 /usr/bin/prlimit --as=\(2 << 30) --core=0 -- \(toolPath)"
        return try runProcess("/bin/sh", ["-c", "TOOL='\(tool)'; " + script], in: dir)
    }

    /// The names in `dir` as hexadecimal bytes (from Python, which lists names as bytes).
    static func hexNames(_ dir: String) throws -> [String] {
        let run = try runPython(
            // Manifests (`.OUTPUT.animexport.json`, ManifestTests) left out, as `listing` does.
            "import os, sys; print(' '.join(sorted(n.hex() for n in os.listdir(os.fsencode(sys.argv[1]))"
                + " if not (n.startswith(b'.') and n.endswith(b'.animexport.json')))))",
            arguments: [dir])
        return run.stdout.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
    }

    /// A JSON file read by Python as strict UTF-8 (an invalid byte fails it), the value at `keys`
    /// printed with non-ASCII as `\uXXXX`.
    static func jsonValue(_ file: String, _ keys: String) throws -> ToolRun {
        try runPython(
            "import json, sys; d = json.loads(open(sys.argv[1], 'rb').read().decode('utf-8', 'strict')); print(json.dumps(eval('d' + sys.argv[2])))",
            arguments: [file, keys])
    }

    static let cafe = "caf\\351"  // "café" in Latin-1, as a printf escape
    static let cafeHex = "636166e9"
    /// `"$(printf 'café')"` in Latin-1, with `rest` after it, for a shell script.
    static func latin1(_ rest: String, prefix: String = "") -> String { "\"\(prefix)$(printf '\(cafe)')\(rest)\"" }
    /// The bytes of `text` with `\xE9` for `é`, as a `FilePath` shows them.
    static let shown = "caf\\xE9"

    @Test func latin1PresetNameValidates() throws {
        let dir = try temporaryDirectory()
        try writeFile(squarePreset(), to: dir + "/square.json")
        let run = try Self.shell(
            "mv square.json \(Self.latin1(".json")) && $TOOL validate \(Self.latin1(".json"))", in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        // The message shows the byte readably, and stdout stays valid UTF-8.
        #expect(run.stdout.hasPrefix("\(Self.shown).json: valid ("), "\(run.stdout)")
        #expect(String(data: run.output, encoding: .utf8) != nil)
    }

    @Test func latin1PresetErrorsNameTheFileReadably() throws {
        let dir = try temporaryDirectory()
        try writeFile(squarePreset(extra: #", "opacity": "lots""#), to: dir + "/square.json")
        let missing = try Self.shell("$TOOL validate \(Self.latin1(".json"))", in: dir)
        #expect(missing.status == 1, "\(missing.stderr)")
        #expect(missing.stderr.contains("cannot read \(Self.shown).json: no such file"), "\(missing.stderr)")
        let bad = try Self.shell(
            "mv square.json \(Self.latin1(".json")) && $TOOL validate \(Self.latin1(".json"))", in: dir)
        #expect(bad.status == 65, "\(bad.stderr)")
        #expect(bad.stderr.contains("\(Self.shown).json:"), "\(bad.stderr)")
    }

    @Test func latin1PresetExportsIntoAFolder() throws {
        let dir = try temporaryDirectory()
        try writeFile(squarePreset(), to: dir + "/square.json")
        try FileManager.default.createDirectory(atPath: dir + "/out", withIntermediateDirectories: false)
        let run = try Self.shell(
            "mv square.json \(Self.latin1(".json")) && $TOOL \(Self.latin1(".json")) -o out/ --format gif -q", in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(listing(dir + "/out") == ["square.gif"])
    }

    @Test func latin1PresetDoesNotBreakABatch() throws {
        let dir = try temporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir + "/set", withIntermediateDirectories: false)
        try FileManager.default.createDirectory(atPath: dir + "/out", withIntermediateDirectories: false)
        try writeFile(squarePreset(name: "one"), to: dir + "/set/one.json")
        try writeFile(squarePreset(name: "three"), to: dir + "/set/three.json")
        try writeFile(squarePreset(name: "two"), to: dir + "/set/two.json")
        let run = try Self.shell(
            "mv set/two.json \(Self.latin1(".json", prefix: "set/")) && $TOOL set/ -o out/ --format gif", in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(listing(dir + "/out") == ["one.gif", "three.gif", "two.gif"])
        #expect(
            try Self.hexNames(dir + "/set") == [
                Self.cafeHex + "2e6a736f6e", "6f6e652e6a736f6e", "74687265652e6a736f6e",
            ])
        // validate and list take the folder the same way, in byte order (0x63 'c' first).
        let validate = try Self.shell("$TOOL validate set/", in: dir)
        #expect(validate.status == 0, "\(validate.stderr)")
        #expect(
            validate.stdout.split(separator: "\n").map { $0.prefix { $0 != ":" } } == [
                "set/\(Self.shown).json", "set/one.json", "set/three.json",
            ])
    }

    @Test func latin1OutputNameKeepsItsBytes() throws {
        let dir = try temporaryDirectory()
        try writeFile(squarePreset(), to: dir + "/square.json")
        let run = try Self.shell("$TOOL square.json -o \(Self.latin1(".gif"))", in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("\(Self.shown).gif: "), "\(run.stdout)")
        #expect(try Self.hexNames(dir) == [Self.cafeHex + "2e676966", "7371756172652e6a736f6e"])
        // A fan-out puts the variant before the extension and keeps the bytes before it.
        let fan = try Self.shell("$TOOL square.json -o \(Self.latin1(".gif")) --set size=8,12 -q", in: dir)
        #expect(fan.status == 0, "\(fan.stderr)")
        #expect(
            try Self.hexNames(dir)
                == [
                    Self.cafeHex + "2d73697a652d382e676966", Self.cafeHex + "2d73697a652d31322e676966",
                    Self.cafeHex + "2e676966", "7371756172652e6a736f6e",
                ].sorted())
    }

    @Test func latin1OutputFolderKeepsItsBytes() throws {
        let dir = try temporaryDirectory()
        try writeFile(squarePreset(), to: dir + "/square.json")
        let run = try Self.shell(
            "mkdir \(Self.latin1("")) && $TOOL square.json -o \(Self.latin1("/")) --format gif -q && ls \(Self.latin1(""))",
            in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "square.gif\n")
    }

    @Test func latin1FramesFolderGetsEveryFrame() throws {
        let dir = try temporaryDirectory()
        try writeFile(squarePreset(), to: dir + "/square.json")
        // --frames creates the folder under its own bytes (5 frames at 5 fps).
        let run = try Self.shell("$TOOL square.json --fps 5 --frames \(Self.latin1("")) -o x.gif -q", in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try Self.hexNames(dir).contains(Self.cafeHex))
        #expect(try Self.hexNames(dir + "/caf\u{FFFD}").isEmpty)  // no repaired twin
        let frames = try Self.shell("ls \(Self.latin1(""))", in: dir)
        #expect(frames.stdout == (0..<5).map { "square-00\($0).png\n" }.joined())
    }

    @Test func latin1SheetAndItsJSONAndCheck() throws {
        let dir = try temporaryDirectory()
        try writeFile(squarePreset(), to: dir + "/square.json")
        let run = try Self.shell("$TOOL square.json -o \(Self.latin1(".png")) -q", in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            try Self.hexNames(dir) == [
                Self.cafeHex + "2e6a736f6e", Self.cafeHex + "2e706e67", "7371756172652e6a736f6e",
            ])
        // The sheet's JSON stays UTF-8: meta.image names the PNG with U+FFFD for the byte.
        let copy = dir + "/sheet-copy.json"
        _ = try Self.shell("cp \(Self.latin1(".json")) sheet-copy.json", in: dir)
        let image = try Self.jsonValue(copy, "['meta']['image']")
        #expect(image.status == 0, "\(image.stderr)")
        #expect(image.stdout == "\"caf\\ufffd.png\"\n")
        try FileManager.default.removeItem(atPath: copy)
        // check reads the same bytes back: up to date, then stale once the PNG changes.
        let check = try Self.shell("$TOOL check square.json -o \(Self.latin1(".png"))", in: dir)
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout == "check: all 2 files are up to date (2 answered from manifests)\n")
        let stale = try Self.shell(
            "printf x >> \(Self.latin1(".png")) && $TOOL check square.json -o \(Self.latin1(".png"))", in: dir)
        #expect(stale.status != 0)
        #expect(
            stale.stdout == "square.json: square: rendered to compare (manifest stale)\ndiffers: \(Self.shown).png\n",
            "\(stale.stdout)")
    }

    @Test func latin1ReportHoldsReplacementCharacters() throws {
        let dir = try temporaryDirectory()
        try writeFile(squarePreset(), to: dir + "/square.json")
        let run = try Self.shell(
            "mv square.json \(Self.latin1(".json")) && mkdir out && $TOOL \(Self.latin1(".json")) -o out/ --format gif --report \(Self.latin1("-report.json")) -q",
            in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            try Self.hexNames(dir) == [
                Self.cafeHex + "2d7265706f72742e6a736f6e", Self.cafeHex + "2e6a736f6e", "6f7574",
            ])
        _ = try Self.shell("cp \(Self.latin1("-report.json")) r.json", in: dir)
        let preset = try Self.jsonValue(dir + "/r.json", "['animations'][0]['preset']")
        #expect(preset.stdout == "\"caf\\ufffd.json\"\n", "\(preset.stderr)")
        let files = try Self.jsonValue(dir + "/r.json", "['animations'][0]['files']")
        #expect(files.stdout == "[\"out/square.gif\"]\n", "\(files.stderr)")
    }

    /// An image layer's `file` is resolved against the preset's folder by its bytes: a preset
    /// in a Latin-1 folder finds the PNG beside it (it used to be looked up under the folder's
    /// shown name, `caf\xE9`, and not found). The frame's pixels are the image's.
    @Test func latin1FolderImageLayerIsFound() throws {
        let dir = try temporaryDirectory()
        try FileManager.default.createDirectory(atPath: dir + "/plain", withIntermediateDirectories: false)
        let preset = """
            { "version": 1, "name": "img", "canvas": { "width": 8, "height": 8 }, "duration": 1, "fps": 2,
              "layers": [ { "type": "image", "file": "dot.png", "center": [4, 4], "size": [8, 8] } ] }
            """
        try writeFile(preset, to: dir + "/plain/img.json")
        let png = try runPython(
            "import sys; from PIL import Image; Image.new('RGBA', (8, 8), (0, 200, 40, 255)).save(sys.argv[1])",
            arguments: [dir + "/plain/dot.png"])
        #expect(png.status == 0, "\(png.stderr)")
        let folder = Self.latin1("")
        let validate = try Self.shell("mv plain \(folder) && $TOOL validate \(Self.latin1("/img.json"))", in: dir)
        #expect(validate.status == 0, "\(validate.stderr)")
        #expect(validate.stdout.hasPrefix("\(Self.shown)/img.json: valid ("), "\(validate.stdout)")
        let export = try Self.shell("$TOOL \(Self.latin1("/img.json")) --frames out -o x.gif -q", in: dir)
        #expect(export.status == 0, "\(export.stderr)")
        let pixels = try runPython(
            "import sys; from PIL import Image; im = Image.open(sys.argv[1]).convert('RGBA'); print(im.getpixel((0, 0)), im.getpixel((4, 4)), im.getpixel((7, 7)))",
            arguments: [dir + "/out/img-000.png"])
        #expect(pixels.stdout == "(0, 200, 40, 255) (0, 200, 40, 255) (0, 200, 40, 255)\n", "\(pixels.stderr)")
        // Gone: the message names where it looked, with the byte shown as the CLI shows names.
        let missing = try Self.shell(
            "rm \(Self.latin1("/dot.png")) && $TOOL validate \(Self.latin1("/img.json"))", in: dir)
        #expect(missing.status == 65, "\(missing.stderr)")
        #expect(missing.stderr.contains("(looked for \(Self.shown)/dot.png)"), "\(missing.stderr)")
    }
}

/// Runs the binary with `arguments` in `directory`, killed after `wallSeconds` and limited to
/// `addressSpace` bytes of virtual memory (RLIMIT_AS), with no core dump. A death by signal is
/// reported as a shell does, 128 + the signal (137 for the kill at the wall limit, 132 SIGILL,
/// 134 SIGABRT): `timeout` re-raises its child's signal on itself, and `sh` turns that into a status.
/// The Swift backtracer is off (`SWIFT_BACKTRACE=enable=no`): a trap still prints its "Fatal error"
/// line, without seconds of symbolication per crash.
func runLimited(_ arguments: [String], in directory: String, wallSeconds: Int, addressSpace: Int) throws -> ToolRun {
    var environment = ProcessInfo.processInfo.environment
    environment["SWIFT_BACKTRACE"] = "enable=no"
    return try runProcess(
        "/bin/sh",
        [
            "-c", "\"$@\"; exit $?", "sh", "/usr/bin/timeout", "-s", "KILL", String(wallSeconds), "/usr/bin/prlimit",
            "--as=\(addressSpace)", "--core=0", "--", toolPath,
        ] + arguments,
        in: directory, environment: environment)
}

/// One file a case writes into its folder before the run.
enum HostileInput: Sendable {
    /// UTF-8 text.
    case text(String)
    /// Raw bytes (invalid UTF-8, NUL, a byte-order mark).
    case bytes([UInt8])
    /// A copy of `presets/NAME`.
    case bundled(String)
    /// A PNG made by Python's zlib: `width`×`height`, 1-bit grey, with a flaw.
    case png(width: Int, height: Int, flaw: PNGFlaw)
}

/// How a generated PNG is broken.
enum PNGFlaw: String, Sendable {
    /// A complete, valid file.
    case none
    /// Cut after half of its bytes.
    case truncated
    /// The IDAT chunk's CRC is off by one.
    case badCRC
    /// Signature and IHDR only.
    case headerOnly
}

/// One hostile command line with what it must do.
struct HostileCase: Sendable, CustomTestStringConvertible {
    var label: String
    var files: [String: HostileInput]
    var arguments: [String]
    var status: Int32
    /// Text that must appear on stderr (the file name, the JSON path or the option, …).
    var fragments: [String]
    /// Text that must appear on stdout.
    var stdoutFragments: [String] = []
    /// Files (relative paths) the run may leave besides its inputs; only for exit 0.
    var outputs: [String] = []
    var wallSeconds = 30
    var addressSpace = 2 << 30
    /// Folders created before the run (`out` always is).
    var folders: [String] = []

    var testDescription: String { label }

    /// Whether stderr holds a Swift runtime trap message or crash report.
    static func crashed(_ stderr: String) -> Bool {
        stderr.contains("Fatal error") || stderr.contains("Program crashed") || stderr.contains("Current stack trace")
            || stderr.contains(" crashed:")
    }

    func check() throws {
        let dir = try temporaryDirectory()
        var expected = Set(["out"] + folders)
        for folder in folders {
            try FileManager.default.createDirectory(atPath: dir + "/" + folder, withIntermediateDirectories: true)
        }
        try FileManager.default.createDirectory(atPath: dir + "/out", withIntermediateDirectories: true)
        for (name, input) in files.sorted(by: { $0.key < $1.key }) {
            let path = dir + "/" + name
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Self.write(input, to: path)
            var parent = (name as NSString).deletingLastPathComponent
            while !parent.isEmpty {
                expected.insert(parent)
                parent = (parent as NSString).deletingLastPathComponent
            }
            expected.insert(name)
        }
        let run = try runLimited(arguments, in: dir, wallSeconds: wallSeconds, addressSpace: addressSpace)
        let shown = String(run.stderr.prefix(3000))
        #expect(run.status == status, "\(label): exit \(run.status), expected \(status)\n\(shown)")
        #expect(!Self.crashed(run.stderr), "\(label): crash report\n\(shown)")
        for fragment in fragments {
            #expect(run.stderr.contains(fragment), "\(label): stderr lacks \"\(fragment)\"\n\(shown)")
        }
        for fragment in stdoutFragments {
            #expect(run.stdout.contains(fragment), "\(label): stdout lacks \"\(fragment)\"\n\(run.stdout.prefix(2000))")
        }
        if status != 0 { #expect(run.stderr.contains("error:"), "\(label): no error line\n\(shown)") }
        // A successful export also leaves its jobs' manifests (ManifestTests).
        let left = Set(
            Self.tree(dir).filter { run.status != 0 || !isManifestName(($0 as NSString).lastPathComponent) })
        let allowed = run.status == 0 ? expected.union(outputs) : expected
        #expect(left.subtracting(allowed).isEmpty, "\(label): left behind \(left.subtracting(allowed).sorted())")
        if status == 0 {
            #expect(
                Set(outputs).subtracting(left).isEmpty, "\(label): missing \(Set(outputs).subtracting(left).sorted())")
        }
    }

    /// Every path under `dir`, relative to it, hidden ones included.
    static func tree(_ dir: String) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: dir) else { return [] }
        return walker.compactMap { $0 as? String }.sorted()
    }

    static func write(_ input: HostileInput, to path: String) throws {
        switch input {
        case .text(let text): try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        case .bytes(let bytes): try Data(bytes).write(to: URL(fileURLWithPath: path))
        case .bundled(let name):
            try Data(contentsOf: URL(fileURLWithPath: packageRoot + "/presets/" + name)).write(
                to: URL(fileURLWithPath: path))
        case .png(let width, let height, let flaw):
            let script = """
                import struct, sys, zlib
                path, w, h, flaw = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
                def chunk(kind, data, delta=0):
                    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", (zlib.crc32(kind + data) + delta) & 0xFFFFFFFF)
                z = zlib.compressobj(9)
                row = b"\\0" * (1 + (w + 7) // 8)
                parts = [z.compress(row) for _ in range(h)]
                idat = b"".join(parts) + z.flush()
                head = b"\\x89PNG\\r\\n\\x1a\\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 1, 0, 0, 0, 0))
                data = head + chunk(b"IDAT", idat, 1 if flaw == "badCRC" else 0) + chunk(b"IEND", b"")
                if flaw == "truncated": data = data[: len(data) // 2]
                if flaw == "headerOnly": data = head
                open(path, "wb").write(data)
                """
            let run = try runPython(script, arguments: [path, String(width), String(height), flaw.rawValue])
            guard run.status == 0 else { throw CocoaError(.fileWriteUnknown) }
        }
    }
}

// MARK: - Building presets

extension HostileCase {
    /// A 16×16 preset named `h` at 10 fps with `layers`; `top` adds top-level keys.
    static func preset(_ layers: [String], top: String = "", name: String = "h") -> String {
        """
        { "version": 1, "name": "\(name)", "canvas": { "width": 16, "height": 16 }, "fps": 10\(top),
          "layers": [
            \(layers.joined(separator: ",\n    "))
          ] }
        """
    }

    /// A red circle with `extra` keys and `animations`.
    static func circle(_ animations: [String] = [], extra: String = "") -> String {
        """
        { "type": "circle", "center": [8, 8], "radius": 4, "fill": "red"\(extra), "animations": [\(animations.joined(separator: ", "))] }
        """
    }

    /// An opacity animation 0 → 1 over 1 s repeating forever, with `changes` applied in order: a
    /// value replaces the key's, a new key is appended, `nil` removes the key.
    static func animation(_ changes: [(String, String?)], keyPath: String = "opacity") -> String {
        var fields: [(String, String)] = [
            ("keyPath", "\"\(keyPath)\""), ("fromValue", "0"), ("toValue", "1"), ("duration", "1"),
            ("repeatCount", "\"infinity\""),
        ]
        for (key, value) in changes {
            if let index = fields.firstIndex(where: { $0.0 == key }) {
                if let value { fields[index].1 = value } else { fields.remove(at: index) }
            } else if let value {
                fields.append((key, value))
            }
        }
        return "{ " + fields.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + " }"
    }

    /// Two cases for one bad preset `h.json`: `validate` and a full export, both exit 65 naming
    /// the file and `path`.
    static func refused(
        _ label: String, _ text: String, path: String, extraFiles: [String: HostileInput] = [:],
        fragments: [String] = []
    ) -> [HostileCase] {
        var files = extraFiles
        files["h.json"] = .text(text)
        return [
            HostileCase(
                label: "validate: " + label, files: files, arguments: ["validate", "h.json"], status: 65,
                fragments: ["h.json:", "error: " + path] + fragments),
            HostileCase(
                label: "export: " + label, files: files, arguments: ["h.json", "-o", "out/", "--format", "gif,sheet"],
                status: 65, fragments: ["h.json:", "error: " + path] + fragments),
        ]
    }

    /// A hostile value the tool now handles without refusing it (a `%d` of 1e300 prints all its
    /// digits, a begin time of −1e300 s is long over, a frame rate of 1e-300 gives one frame):
    /// `validate` says valid and the export writes its files, exit 0, no trap and no hang.
    static func accepted(_ label: String, _ text: String) -> [HostileCase] {
        [
            HostileCase(
                label: "validate: " + label, files: ["h.json": .text(text)], arguments: ["validate", "h.json"],
                status: 0, fragments: [], stdoutFragments: ["h.json: valid"]),
            HostileCase(
                label: "export: " + label, files: ["h.json": .text(text)],
                arguments: ["h.json", "-o", "out/", "--format", "gif,sheet"], status: 0, fragments: [],
                outputs: ["out/h.gif", "out/h.png", "out/h.json"]),
        ]
    }

    /// A malformed or schema-invalid `h.json`: `validate` and export both exit 65 with the file
    /// and `fragment`.
    static func malformed(_ label: String, _ input: HostileInput, _ fragments: [String]) -> [HostileCase] {
        [
            HostileCase(
                label: "validate: " + label, files: ["h.json": input], arguments: ["validate", "h.json"], status: 65,
                fragments: ["h.json:"] + fragments),
            HostileCase(
                label: "export: " + label, files: ["h.json": input], arguments: ["h.json", "-o", "out/"], status: 65,
                fragments: ["h.json:"] + fragments),
        ]
    }

    /// A usage error on a copy of circular.json: exit 64 naming the option.
    static func usage(_ label: String, _ arguments: [String], _ fragments: [String]) -> HostileCase {
        HostileCase(
            label: "usage: " + label, files: ["c.json": .bundled("circular.json")],
            arguments: ["c.json", "-o", "out/"] + arguments, status: 64, fragments: fragments)
    }
}

// MARK: - The table

extension HostileCase {
    static let light: [HostileCase] =
        timingCrashes + geometryCrashes + dataLoss + folderOfPresets + budgets + imageLayers + wrongCodes
        + calculationModes + malformedJSON + schemaErrors + usageErrors

    static let heavy: [HostileCase] = memoryJobs + hangs

    /// Issue 18 item 2, and the same values at the other timing keys: `validate` accepted them
    /// and the export trapped (`Int64(ms)`, `Int(period * fps)` in `LoopPlan`) or tried to
    /// allocate petabytes of frame times.
    static let timingCrashes: [HostileCase] = {
        let a0 = "$.layers[0].animations[0]."
        func one(_ label: String, _ changes: [(String, String?)], _ key: String) -> [HostileCase] {
            refused(label, preset([circle([animation(changes)])]), path: a0 + key)
        }
        var cases: [HostileCase] = []
        cases += one("speed 1e-300", [("speed", "1e-300")], "speed")
        cases += one("speed 1e-16", [("speed", "1e-16")], "speed")
        cases += one("speed 1e300", [("speed", "1e300")], "speed")
        cases += one("speed 0", [("speed", "0")], "speed")
        cases += one("repeatCount 1e300", [("repeatCount", "1e300")], "repeatCount")
        cases += one("repeatCount 1e15", [("repeatCount", "1e15")], "repeatCount")
        cases += one("repeatCount 2^63", [("repeatCount", "9223372036854775808")], "repeatCount")
        cases += one(
            "repeatCount 9.3e18 swiftUI autoreverses",
            [("repeatCount", "9.3e18"), ("style", "\"swiftUI\""), ("autoreverses", "true")], "repeatCount")
        cases += one(
            "repeatCount 1e300 swiftUI autoreverses",
            [("repeatCount", "1e300"), ("style", "\"swiftUI\""), ("autoreverses", "true")], "repeatCount")
        cases += one("beginTime 1e9", [("beginTime", "1e9")], "beginTime")
        cases += one("beginTime 1e300", [("beginTime", "1e300")], "beginTime")
        cases += accepted("beginTime -1e300", preset([circle([animation([("beginTime", "-1e300")])])]))
        cases += one("repeatDuration 1e12", [("repeatCount", nil), ("repeatDuration", "1e12")], "repeatDuration")
        cases += one("repeatDuration 1e300", [("repeatCount", nil), ("repeatDuration", "1e300")], "repeatDuration")
        cases += one("duration 1e300", [("duration", "1e300")], "duration")
        cases += one("duration 1e-300", [("duration", "1e-300")], "duration")
        cases += one("duration 1e12 forever", [("duration", "1e12")], "duration")
        cases += one("sub-millisecond cycle", [("duration", "0.0005")], "duration")
        cases += one("swiftUI delay 1e300", [("style", "\"swiftUI\""), ("delay", "1e300")], "delay")
        cases += one("duration by expression 1e300 * 1e300", [("duration", "\"1e300 * 1e300\"")], "duration")
        cases += one("duration by expression 1 / 0", [("duration", "\"1 / 0\"")], "duration")
        cases += refused(
            "top-level duration 1e300", preset([circle([animation([])])], top: ", \"duration\": 1e300"),
            path: "$.duration")
        cases += refused(
            "top-level duration 1e-300", preset([circle([animation([])])], top: ", \"duration\": 1e-300"),
            path: "$.duration")
        cases += refused(
            "top-level duration 1e9", preset([circle([animation([])])], top: ", \"duration\": 1e9"), path: "$.duration")
        // Found by the round-11 fresh-user check: a Timer every 1 ms made a 0.007 s loop that
        // validate passed and the GIF encoder refused with exit 1; a spring response of 1e300
        // silently became a jump.
        let state = ", \"state\": { \"on\": 0 }, \"events\": "
        cases += refused(
            "timer every 1 ms",
            preset(
                [
                    "{ \"type\": \"circle\", \"center\": [8, 8], \"radius\": 4, \"fill\": \"red\", \"bind\": { \"opacity\": \"$on\" } }"
                ],
                top: state + "[{ \"every\": 0.001, \"set\": { \"on\": \"1 - $on\" } }]"),
            path: "$.events", fragments: ["shorter than 0.01 s"])
        cases += refused(
            "spring response 1e300",
            preset(
                [
                    "{ \"type\": \"circle\", \"center\": [8, 8], \"radius\": 4, \"fill\": \"red\", \"bind\": { \"opacity\": \"$on\" } }"
                ],
                top: state
                    + "[{ \"every\": 1, \"set\": { \"on\": \"1 - $on\" }, \"animation\": { \"timingFunction\": \"spring(response: 1e300, dampingFraction: 0.7)\" } }]"
            ),
            path: "$.events[0].animation.timingFunction", fragments: ["response in (0, 60] s"])
        // One frame per loop is what a frame rate this low gives; it is not refused.
        cases += accepted(
            "fps 1e-300 gives one frame",
            preset([circle([animation([])])]).replacingOccurrences(of: "\"fps\": 10", with: "\"fps\": 1e-300"))
        let group = """
            { "duration": 1, "repeatCount": 1e15, "animations": [ { "keyPath": "opacity", "fromValue": 0, "toValue": 1 } ] }
            """
        cases += refused("group repeatCount 1e15", preset([circle([group])]), path: a0 + "repeatCount")
        return cases
    }()

    /// Issue 18 item 2: text and arc values whose `Int(...)` trapped.
    static let geometryCrashes: [HostileCase] = {
        func text(_ template: String, _ value: String, _ animations: String = "") -> String {
            preset(
                [
                    """
                    { "type": "text", "text": "\(template)", "values": { "v": \(value) }, "position": [8, 8],
                      "font": { "size": 8 }, "animations": [\(animations)] }
                    """
                ], top: ", \"duration\": 1")
        }
        func arc(_ start: String, _ end: String) -> String {
            preset(
                [
                    """
                    { "type": "arc", "center": [8, 8], "radius": 6, "startAngle": \(start), "endAngle": \(end),
                      "stroke": { "color": "red", "width": 2 } }
                    """
                ], top: ", \"duration\": 1")
        }
        var cases: [HostileCase] = []
        cases += accepted("text {v:%d} of 1e300", text("{v:%d}", "1e300"))
        cases += accepted("text {v:%d} of -1e300", text("{v:%d}", "-1e300"))
        cases += accepted("text {v:%d} of 1e19", text("{v:%d}", "1e19"))
        cases += accepted(
            "text {v:%d} animated to 1e300",
            text(
                "{v:%d}", "0",
                #"{ "keyPath": "values.v", "fromValue": 0, "toValue": 1e300, "duration": 1, "repeatCount": "infinity" }"#
            ))
        cases += refused("arc endAngle 1e300", arc("0", "1e300"), path: "$.layers[0].endAngle")
        // The sweep is endAngle − startAngle; the budget blames endAngle.
        cases += refused("arc startAngle -1e300", arc("-1e300", "90"), path: "$.layers[0].endAngle")
        cases += refused("arc endAngle 3.6e9 (1e7 turns)", arc("0", "3.6e9"), path: "$.layers[0].endAngle")
        let animatedArc = preset(
            [
                """
                { "type": "arc", "center": [8, 8], "radius": 6, "startAngle": 0, "endAngle": 90,
                  "stroke": { "color": "red", "width": 2 },
                  "animations": [ { "keyPath": "endAngle", "fromValue": 0, "toValue": 1e300, "duration": 1, "repeatCount": "infinity" } ] }
                """
            ])
        cases += refused("arc endAngle animated to 1e300", animatedArc, path: "$.layers[0].endAngle")
        return cases
    }()

    /// Issue 18 item 1: every output this tool writes gets the "would overwrite an input" check.
    static let dataLoss: [HostileCase] = {
        let image = """
            { "version": 1, "name": "h", "canvas": { "width": 8, "height": 8 }, "duration": 1, "fps": 2,
              "layers": [ { "type": "image", "file": "tile.png", "center": [4, 4], "size": [8, 8] } ] }
            """
        let framed = image.replacingOccurrences(of: "tile.png", with: "frames/h-000.png")
        return [
            HostileCase(
                label: "--report over the preset it reads", files: ["c.json": .bundled("circular.json")],
                arguments: ["c.json", "-o", "out/", "--report", "c.json"], status: 64,
                fragments: ["c.json", "would overwrite"]),
            HostileCase(
                label: "--report over a preset of the batch",
                files: [
                    "set/blink-dots.json": .bundled("blink-dots.json"), "set/circular.json": .bundled("circular.json"),
                ],
                arguments: ["set/", "-o", "out/", "--report", "set/blink-dots.json"], status: 64,
                fragments: ["set/blink-dots.json", "would overwrite"]),
            HostileCase(
                label: "-o x.png --report x.json (the sheet's JSON)", files: ["c.json": .bundled("circular.json")],
                arguments: ["c.json", "-o", "out/x.png", "--report", "out/x.json"], status: 64,
                fragments: ["out/x.json"]),
            HostileCase(
                label: "--preview over the preset it reads", files: ["c.html": .bundled("circular.json")],
                arguments: ["c.html", "-o", "out/", "--preview", "c.html"], status: 64,
                fragments: ["c.html", "would overwrite"]),
            HostileCase(
                label: "-o over an image layer's PNG",
                files: ["h.json": .text(image), "tile.png": .png(width: 2, height: 2, flaw: .none)],
                arguments: ["h.json", "-o", "tile.png"], status: 64, fragments: ["tile.png", "would overwrite"]),
            HostileCase(
                label: "--frames over an image layer's PNG",
                files: ["h.json": .text(framed), "frames/h-000.png": .png(width: 2, height: 2, flaw: .none)],
                arguments: ["h.json", "--frames", "frames", "-o", "out/"], status: 64,
                fragments: ["frames/h-000.png", "would overwrite"]),
            HostileCase(
                label: "-o NAME.png whose sheet JSON is the preset", files: ["c.json": .bundled("circular.json")],
                arguments: ["c.json", "-o", "c.png"], status: 64, fragments: ["c.json", "would overwrite the preset"]),
            HostileCase(
                label: "-o over the preset itself", files: ["c.gif": .bundled("circular.json")],
                arguments: ["c.gif", "-o", "c.gif"], status: 64, fragments: ["c.gif", "would overwrite"]),
        ]
    }()

    /// Issue 18 item 2: one bad preset in a folder once crashed every command on the folder.
    static let folderOfPresets: [HostileCase] = {
        var files: [String: HostileInput] = [:]
        for name in ["circular.json", "blink-dots.json", "loading-dots.json"] { files["set/" + name] = .bundled(name) }
        files["set/bad.json"] = .text(preset([circle([animation([("speed", "1e-300")])])], name: "bad"))
        let path = "$.layers[0].animations[0].speed"
        return [
            HostileCase(
                label: "validate DIR/ with one crashing preset", files: files, arguments: ["validate", "set/"],
                status: 65,
                fragments: ["set/bad.json:", path], stdoutFragments: ["set/circular.json: valid"]),
            HostileCase(
                label: "list DIR/ with one crashing preset", files: files, arguments: ["list", "set/"], status: 0,
                fragments: [],
                stdoutFragments: [
                    "set/bad.json", "no loop period: an animation's cycle of 1e+300 s", "set/circular.json",
                ]),
            HostileCase(
                label: "batch DIR/ with one crashing preset", files: files, arguments: ["set/", "-o", "out/"],
                status: 65,
                fragments: ["set/bad.json:", path]),
        ]
    }()

    /// Issue 18 "one budget, checked before any rendering": geometry counts and sizes refused with
    /// their JSON path.
    static let budgets: [HostileCase] = {
        func replicators(_ counts: [String]) -> String {
            var layer = circle()
            for count in counts.reversed() {
                layer = """
                    { "type": "replicator", "instanceCount": \(count), "instanceTransform": { "offset": [0.01, 0] }, "layers": [\(layer)] }
                    """
            }
            return preset([layer], top: ", \"duration\": 1")
        }
        var cases: [HostileCase] = []
        cases += refused(
            "three nested replicators of 1000", replicators(["1000", "1000", "1000"]), path: "$.layers[0]",
            fragments: ["instanceCount"])
        cases += refused("replicator of 1e9", replicators(["1e9"]), path: "$.layers[0].instanceCount")
        cases += refused("replicator of 1e300", replicators(["1e300"]), path: "$.layers[0].instanceCount")
        cases += refused("replicator of -1", replicators(["-1"]), path: "$.layers[0].instanceCount")
        cases += refused("replicator of 2.5", replicators(["2.5"]), path: "$.layers[0].instanceCount")
        let dashed = preset(
            [
                """
                { "type": "circle", "center": [8, 8], "radius": 1000,
                  "stroke": { "color": "red", "width": 1, "lineDashPattern": [0.005, 0.005] } }
                """
            ], top: ", \"duration\": 1")
        cases += refused(
            "dash [0.005, 0.005] on a 2000 pt circle", dashed, path: "$.layers[0].stroke.lineDashPattern")
        let bigCanvas = """
            { "version": 1, "name": "h", "canvas": { "width": 4096, "height": 4096 }, "fps": 10, "duration": 1,
              "layers": [ { "type": "circle", "center": [2048, 2048], "radius": 100, "fill": "red" } ] }
            """
        cases.append(
            HostileCase(
                label:
                    "4096×4096 canvas with --padding 1 to a sheet is refused before rendering (64: larger than a page)",
                files: ["h.json": .text(bigCanvas)],
                arguments: ["h.json", "-o", "out/", "--format", "sheet", "--padding", "1"],
                status: 64,
                fragments: ["h.json", "sprite sheet"])
        )
        // The fuzzer's timeouts and its one "draw frame: out of memory" (seed 11, inputs 260, 413
        // and 1256): geometry drawn far past Cairo's 24.8 fixed-point range, refused with the
        // value that makes it so large.
        let oneSecond = ", \"duration\": 1"
        cases += refused(
            "a ring at layer scale 1e12 (8 pt × 1e12 px)",
            preset([circle(extra: #", "scale": 1e12"#)], top: oneSecond),
            path: "$.layers[0].scale", fragments: ["8388608 px"])
        cases += refused(
            "a circle of radius 1e19",
            preset([#"{ "type": "circle", "center": [8, 8], "radius": 1e19, "fill": "red" }"#], top: oneSecond),
            path: "$.layers[0].radius", fragments: ["8388608 px"])
        // The fresh user's 1e308: the box overflows to infinity, said as a size, not "infinity".
        cases += refused(
            "a circle of radius 1e308",
            preset([#"{ "type": "circle", "center": [8, 8], "radius": 1e308, "fill": "red" }"#], top: oneSecond),
            path: "$.layers[0].radius", fragments: ["more than 1.8e308 px across", "8388608 px"])
        cases += refused(
            "a scale animation from 9.3e18",
            preset([circle([animation([("fromValue", "9.3e18")], keyPath: "scale")])]),
            path: "$.layers[0].animations[0].fromValue", fragments: ["8388608 px"])
        let nested = circle(extra: #", "scale": 10000"#)
        cases += refused(
            "scale 1e4 under scale 1e4 (each fine alone; the outer of two equal factors is blamed)",
            preset([#"{ "type": "group", "scale": 10000, "layers": [\#(nested)] }"#], top: oneSecond),
            path: "$.layers[0].scale", fragments: ["drawn 800000000 px across", "8388608 px"])
        let stepped = #"""
            { "type": "replicator", "instanceCount": 100, "instanceTransform": { "scale": 2 },
              "layers": [\#(circle())] }
            """#
        cases += refused(
            "a replicator step of scale 2 compounded over 100 copies", preset([stepped], top: oneSecond),
            path: "$.layers[0].instanceTransform.scale", fragments: ["8388608 px"])
        // A scale set from state (`bind`) is out of the budget's reach before rendering (validate
        // says valid); the renderer refuses the frame instead of hanging (it took over 100 s).
        let bound = """
            { "version": 1, "name": "h", "canvas": { "width": 16, "height": 16 }, "fps": 10, "duration": 1,
              "state": { "k": 0 },
              "events": [ { "onAppear": true, "set": { "k": 1 },
                "animation": { "timingFunction": "linear", "duration": 1 } } ],
              "layers": [ { "type": "circle", "center": [8, 8], "radius": 4, "fill": "red",
                "bind": { "scale": "1 + $k * 1e12" } } ] }
            """
        cases.append(
            HostileCase(
                label: "export: a scale bound to state reaching 1e11 is refused while drawing (65)",
                files: ["h.json": .text(bound)], arguments: ["h.json", "-o", "out/", "--format", "gif,sheet"],
                status: 65, fragments: ["h.json", "8388608 px", "a scale set from state (bind)"]))
        cases += accepted(
            "a ring at layer scale 1e5 (drawn 800 000 px across, within the limit)",
            preset([circle(extra: #", "scale": 100000"#)], top: oneSecond))
        cases.append(
            HostileCase(
                label: "validate: 4096×4096 canvas, 30000 frames",
                files: [
                    "h.json": .text(
                        bigCanvas.replacingOccurrences(of: "\"duration\": 1", with: "\"duration\": 3000"))
                ], arguments: ["validate", "h.json"], status: 65, fragments: ["h.json", "$.duration"]))
        return cases
    }()

    /// Issue 18 item 9: broken image layers passed `validate` and failed the export.
    static let imageLayers: [HostileCase] = {
        let image = """
            { "version": 1, "name": "h", "canvas": { "width": 8, "height": 8 }, "duration": 1, "fps": 2,
              "layers": [ { "type": "image", "file": "img.png", "center": [4, 4], "size": [8, 8] } ] }
            """
        var cases: [HostileCase] = []
        for (label, input) in [
            ("truncated PNG", HostileInput.png(width: 64, height: 64, flaw: .truncated)),
            ("PNG with a bad CRC", .png(width: 64, height: 64, flaw: .badCRC)),
            ("PNG header only", .png(width: 64, height: 64, flaw: .headerOnly)),
            ("PNG of 30000×30000", .png(width: 30000, height: 30000, flaw: .none)),
            ("PNG of 16384×16383", .png(width: 16384, height: 16383, flaw: .none)),
            ("PNG of 0×0", .png(width: 0, height: 0, flaw: .none)),
            ("not a PNG at all", .text("GIF89a")),
            ("empty PNG file", .bytes([])),
        ] {
            cases += refused(label, image, path: "$.layers[0].file", extraFiles: ["img.png": input])
        }
        return cases
    }()

    /// Issue 18 items 6 and 9: wrong exit codes and blame.
    static let wrongCodes: [HostileCase] = [
        usage("--duration 1e-9", ["--duration", "1e-9"], ["--duration 1e-9"]),
        usage("--duration 1e300", ["--duration", "1e300"], ["--duration 1e300"]),
        usage("--duration 0", ["--duration", "0"], ["--duration 0"]),
        usage("--scale 1e-9", ["--scale", "1e-9"], ["--scale 1e-9"]),
        usage("--scale 0.001", ["--scale", "0.001"], ["--scale 0.001"]),
        usage("--set size=0x40 (not hex)", ["--set", "size=0x40"], ["--set size=0x40"]),
        usage("--set size=1e300", ["--set", "size=1e300"], ["--set size=1e300"]),
        usage("--set size=nan", ["--set", "size=nan"], ["--set size=nan"]),
        usage("--set size=inf", ["--set", "size=inf"], ["--set size=inf"]),
        usage("--fps 1e-300", ["--fps", "1e-300"], ["--fps 1e-300"]),
        usage("--fps nan", ["--fps", "nan"], ["--fps nan"]),
        usage("--frame 1e300", ["--frame", "1e300"], ["--frame 1e300"]),
        usage("--frame -1", ["--frame", "-1"], ["--frame -1"]),
        usage("--time 1e300", ["--time", "1e300"], ["--time 1e300"]),
        usage("--time nan", ["--time", "nan"], ["--time nan"]),
        usage("--jobs 1e300", ["--jobs", "1e300"], ["--jobs 1e300"]),
        usage("--loop 1e300", ["--loop", "1e300"], ["--loop 1e300"]),
        usage("--loop 65537", ["--loop", "65537"], ["--loop 65537"]),
        usage("--padding 1e9", ["--padding", "1e9"], ["--padding 1e9"]),
        usage("--columns 1e300", ["--columns", "1e300"], ["--columns 1e300"]),
        usage("--extrude 65", ["--extrude", "65"], ["--extrude 65"]),
        usage("--lossy 256", ["--lossy", "256"], ["--lossy 256"]),
        usage("--sheet-colors 1", ["--sheet-colors", "1"], ["--sheet-colors 1"]),
        usage("--scale 16 on a 4096 canvas", ["--scale", "16", "--set", "size=4096"], ["--scale 16"]),
        HostileCase(
            label: "usage: a 100 000-character unknown option is not echoed whole",
            files: ["c.json": .bundled("circular.json")],
            arguments: ["c.json", "--" + String(repeating: "x", count: 100_000)], status: 64,
            fragments: ["unknown option --xxxxxxxx"]),
        HostileCase(
            label: "-o x.gif where x.gif is a folder", files: ["c.json": .bundled("circular.json")],
            arguments: ["c.json", "-o", "out.gif"], status: 64, fragments: ["-o out.gif is a folder"],
            folders: ["out.gif"]),
        HostileCase(
            label: "--watch on a missing preset", files: [:], arguments: ["missing.json", "--watch", "-o", "out/"],
            status: 1, fragments: ["cannot watch missing.json: no such file"], wallSeconds: 10),
        HostileCase(
            label: "missing preset", files: [:], arguments: ["missing.json", "-o", "out/"], status: 1,
            fragments: ["cannot read missing.json: no such file"]),
        HostileCase(
            label: "validate: a folder named like a preset holds no presets", files: [:],
            arguments: ["validate", "out/x.json"], status: 64, fragments: ["out/x.json"], folders: ["out/x.json"]),
    ]

    /// Issue 18 item 8: `cubic` and `cubicPaced` are either implemented (exit 0) or gone from the
    /// schema (then refused with their path); the schema decides which the table expects.
    static let calculationModes: [HostileCase] = {
        let schema = (try? String(contentsOfFile: packageRoot + "/schema/preset.schema.json", encoding: .utf8)) ?? ""
        var cases: [HostileCase] = []
        for mode in ["cubic", "cubicPaced"] {
            let text = preset(
                [
                    circle([
                        """
                        { "keyPath": "position", "values": [[4, 4], [12, 4], [12, 12], [4, 4]], "calculationMode": "\(mode)", "duration": 1, "repeatCount": "infinity" }
                        """
                    ])
                ])
            if schema.contains("\"\(mode)\"") {
                cases.append(
                    HostileCase(
                        label: "validate: calculationMode \(mode)", files: ["h.json": .text(text)],
                        arguments: ["validate", "h.json"], status: 0, fragments: [], stdoutFragments: ["h.json: valid"])
                )
                cases.append(
                    HostileCase(
                        label: "export: calculationMode \(mode)", files: ["h.json": .text(text)],
                        arguments: ["h.json", "-o", "out/", "--format", "gif,sheet"], status: 0, fragments: [],
                        outputs: ["out/h.gif", "out/h.png", "out/h.json"]))
            } else {
                cases += refused("calculationMode \(mode)", text, path: "$.layers[0].animations[0].calculationMode")
            }
        }
        return cases
    }()

    /// The malformed-JSON set that already passes: exit 65 with file, line:column and a message.
    static let malformedJSON: [HostileCase] = {
        let good = preset([circle([animation([])])])
        var cases: [HostileCase] = []
        cases += malformed("empty file", .text(""), ["error:"])
        cases += malformed("whitespace only", .text("  \n\t "), ["error:"])
        cases += malformed("truncated object", .text(String(good.prefix(good.count / 2))), ["error:"])
        cases += malformed("trailing comma", .text(#"{ "version": 1, }"#), ["h.json:1:"])
        cases += malformed("comment", .text("// preset\n" + good), ["h.json:1:1:", "comments"])
        cases += malformed("single quotes", .text("{ 'version': 1 }"), ["h.json:1:3:", "double quotes"])
        cases += malformed("bare NaN", .text(#"{ "version": NaN }"#), ["h.json:1:"])
        cases += malformed("bare Infinity", .text(#"{ "version": Infinity }"#), ["h.json:1:"])
        cases += malformed("leading zero", .text(#"{ "version": 01 }"#), ["h.json:1:"])
        cases += malformed("plus sign", .text(#"{ "version": +1 }"#), ["h.json:1:"])
        cases += malformed("bare fraction", .text(#"{ "version": .5 }"#), ["h.json:1:"])
        cases += malformed("hex number", .text(#"{ "version": 0x1 }"#), ["h.json:1:"])
        cases += malformed("unterminated string", .text(#"{ "version": "1 }"#), ["h.json:1:"])
        cases += malformed("control character in a string", .text("{ \"name\": \"a\u{01}b\" }"), ["h.json:1:"])
        cases += malformed("bad escape", .text(#"{ "name": "a\xb" }"#), ["h.json:1:"])
        cases += malformed("lone surrogate", .text(#"{ "name": "\ud800" }"#), ["h.json:1:"])
        cases += malformed(
            "invalid UTF-8", .bytes(Array(#"{ "name": ""#.utf8) + [0xC3, 0x28] + Array(#"" }"#.utf8)), ["h.json:1:"])
        cases += malformed("NUL byte", .bytes(Array(#"{ "name": 1"#.utf8) + [0] + Array(" }".utf8)), ["h.json:1:"])
        cases += malformed("top-level array", .text("[1, 2]"), ["h.json:1:1:", "$"])
        cases += malformed("top-level number", .text("42"), ["h.json:1:1:", "$"])
        cases += malformed("two documents", .text(good + good), ["h.json:"])
        cases += malformed(
            "number literal 1e400", .text(good.replacingOccurrences(of: "\"fps\": 10", with: "\"fps\": 1e400")),
            ["h.json:1:", "1e400 is out of range"])
        cases += malformed(
            "400-digit integer",
            .text(good.replacingOccurrences(of: "\"fps\": 10", with: "\"fps\": " + String(repeating: "9", count: 400))),
            ["h.json:1:", "out of range"])
        cases += malformed("nesting 100 000 deep", .text(String(repeating: "[", count: 100_000)), ["h.json:1:"])
        cases += malformed(
            "nesting 10 000 deep, closed",
            .text(String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)), ["h.json:1:"])
        cases += malformed(
            "duplicate key", .text(good.replacingOccurrences(of: "\"fps\": 10", with: "\"fps\": 10, \"fps\": 20")),
            ["h.json:1:", "duplicate key \"fps\""])
        return cases
    }()

    /// Schema errors that already pass: exit 65 with the JSON path.
    static let schemaErrors: [HostileCase] = {
        let good = preset([circle([animation([])])])
        func edit(_ label: String, _ from: String, _ to: String, _ path: String) -> [HostileCase] {
            refused(label, good.replacingOccurrences(of: from, with: to), path: path)
        }
        var cases: [HostileCase] = []
        cases += edit("version 2", "\"version\": 1", "\"version\": 2", "$.version")
        cases += edit("version as a string", "\"version\": 1", "\"version\": \"1\"", "$.version")
        cases += edit("no version", "\"version\": 1, ", "", "$")
        cases += edit("name with a slash", "\"name\": \"h\"", "\"name\": \"../h\"", "$.name")
        cases += edit("name empty", "\"name\": \"h\"", "\"name\": \"\"", "$.name")
        cases += edit("no canvas", "\"canvas\": { \"width\": 16, \"height\": 16 }, ", "", "$")
        cases += edit("canvas width 0", "\"width\": 16", "\"width\": 0", "$.canvas.width")
        cases += edit("canvas width 4097", "\"width\": 16", "\"width\": 4097", "$.canvas.width")
        cases += edit("canvas width -1", "\"width\": 16", "\"width\": -1", "$.canvas.width")
        cases += edit("canvas width 1e300", "\"width\": 16", "\"width\": 1e300", "$.canvas.width")
        cases += edit("fps 0", "\"fps\": 10", "\"fps\": 0", "$.fps")
        cases += edit("fps 121", "\"fps\": 10", "\"fps\": 121", "$.fps")
        cases += edit("fps as a word", "\"fps\": 10", "\"fps\": \"fast\"", "$.fps")
        cases += edit("unknown top-level key", "\"fps\": 10", "\"fps\": 10, \"fsp\": 10", "$.fsp")
        cases += edit("layers not an array", "\"layers\": [", "\"layers\": 1, \"x\": [", "$.layers")
        cases += edit("unknown layer type", "\"type\": \"circle\"", "\"type\": \"circel\"", "$.layers[0].type")
        cases += edit("radius as a word", "\"radius\": 4", "\"radius\": \"big\"", "$.layers[0].radius")
        cases += edit("unknown parameter", "\"radius\": 4", "\"radius\": \"$r\"", "$.layers[0].radius")
        cases += edit("bad colour", "\"fill\": \"red\"", "\"fill\": \"#GG0000\"", "$.layers[0].fill")
        cases += edit(
            "unknown keyPath", "\"keyPath\": \"opacity\"", "\"keyPath\": \"opacityy\"",
            "$.layers[0].animations[0].keyPath")
        cases += edit(
            "repeatCount forever", "\"repeatCount\": \"infinity\"", "\"repeatCount\": \"forever\"",
            "$.layers[0].animations[0].repeatCount")
        cases += edit(
            "repeatCount -1", "\"repeatCount\": \"infinity\"", "\"repeatCount\": -1",
            "$.layers[0].animations[0].repeatCount")
        cases += edit("duration 0", "\"duration\": 1", "\"duration\": 0", "$.layers[0].animations[0].duration")
        cases += edit("duration -1", "\"duration\": 1", "\"duration\": -1", "$.layers[0].animations[0].duration")
        cases += edit(
            "transform.rotation.z refused", "\"keyPath\": \"opacity\"", "\"keyPath\": \"transform.rotation.z\"",
            "$.layers[0].animations[0].keyPath")
        cases += edit("expression syntax", "\"radius\": 4", "\"radius\": \"4 +\"", "$.layers[0].radius")
        cases += edit(
            "expression of 1e300 * 1e300", "\"radius\": 4", "\"radius\": \"1e300 * 1e300\"", "$.layers[0].radius")
        cases += edit(
            "timing function unknown", "\"duration\": 1", "\"duration\": 1, \"timingFunction\": \"easyIn\"",
            "$.layers[0].animations[0].timingFunction")
        cases += edit(
            "cubicBezier x1 out of range", "\"duration\": 1",
            "\"duration\": 1, \"timingFunction\": \"cubicBezier(1e300, 0, 1, 1)\"",
            "$.layers[0].animations[0].timingFunction")
        cases += edit(
            "repeatCount and repeatDuration", "\"duration\": 1", "\"duration\": 1, \"repeatDuration\": 2",
            "$.layers[0].animations[0]")
        return cases
    }()

    /// Usage errors that already pass (BadInputTests) and their hostile variants: exit 64 naming
    /// the option.
    static let usageErrors: [HostileCase] = [
        usage("--fps 0", ["--fps", "0"], ["--fps 0"]),
        usage("--fps 121", ["--fps", "121"], ["--fps 121"]),
        usage("--scale -1", ["--scale", "-1"], ["--scale -1"]),
        usage("--scale 17", ["--scale", "17"], ["--scale 17"]),
        usage("--scale 2,2", ["--scale", "2,2"], ["--scale 2,2"]),
        usage("--scale 1,,2", ["--scale", "1,,2"], ["--scale 1,,2"]),
        usage("--loop 0.5", ["--loop", "0.5"], ["--loop 0.5"]),
        usage("--colums 3", ["--colums", "3"], ["--colums", "did you mean --columns?"]),
        usage("-o x.mp4", ["-o", "x.mp4"], ["x.mp4"]),
        usage("--set colr", ["--set", "colr=#FF0000"], ["--set colr", "did you mean \"color\"?"]),
        usage("--set strokeWidth=wide", ["--set", "strokeWidth=wide"], ["--set strokeWidth=wide"]),
        usage("--set strokeWidth=99", ["--set", "strokeWidth=99"], ["--set strokeWidth=99"]),
        usage("--matte bleu", ["--matte", "bleu"], ["--matte bleu"]),
        usage("--fps without a value", ["--fps"], ["--fps"]),
        usage("--jobs 0", ["--jobs", "0"], ["--jobs 0"]),
        usage("--format gifs", ["--format", "gifs"], ["--format gifs"]),
        usage("--preview page.txt", ["--preview", "page.txt"], ["--preview page.txt"]),
        usage("--report dir/", ["--report", "dir/"], ["--report dir/"]),
        usage("--strict on an export", ["--strict"], ["--strict"]),
        usage("--dither random", ["--dither", "random"], ["--dither random"]),
        usage("--sheet-type diagonal", ["--sheet-type", "diagonal"], ["--sheet-type diagonal"]),
        usage("--frame past the loop", ["--frame", "120"], ["--frame 120"]),
        usage("--frame with --time", ["--frame", "1", "--time", "1"], ["--time"]),
        usage("-o two outputs on one path", ["-o", "out/c.gif", "-o", "out/c.gif"], ["out/c.gif"]),
        HostileCase(
            label: "usage: no preset", files: [:], arguments: ["-o", "out/"], status: 64, fragments: ["no preset given"]
        ),
        HostileCase(
            label: "usage: validate -o", files: ["c.json": .bundled("circular.json")],
            arguments: ["validate", "c.json", "-o", "out/"], status: 64, fragments: ["-o does not apply"]),
        HostileCase(
            label: "usage: validate --set sise", files: ["c.json": .bundled("circular.json")],
            arguments: ["validate", "c.json", "--set", "sise=10"], status: 64, fragments: ["c.json", "--set sise"]),
    ]

    /// Issue 18 item 3: legal jobs whose memory grew with the loop. Each must finish within its
    /// wall limit under an address-space limit that holding every frame exceeds and streaming
    /// frames through the encoder does not (debug build, shared machine: the jobs are kept small).
    static let memoryJobs: [HostileCase] = [
        HostileCase(
            label: "circular-progress --scale 4 to a GIF in 768 MiB (180 frames of 992², 708 MB held)",
            files: ["p.json": .bundled("circular-progress.json")], arguments: ["p.json", "-o", "out/x.gif", "-q"],
            status: 0, fragments: [], outputs: ["out/x.gif"], wallSeconds: 300, addressSpace: 768 << 20),
        HostileCase(
            label: "circular-progress --scale 16 --max-size 2048 --format sheet is refused before rendering",
            files: ["p.json": .bundled("circular-progress.json")],
            arguments: ["p.json", "-o", "out/", "--format", "sheet", "--scale", "16", "--max-size", "2048"], status: 64,
            fragments: ["frame of 3968×3968 px", "does not fit a page of 2048×2048 px", "--scale"], wallSeconds: 20,
            addressSpace: 768 << 20),
        HostileCase(
            label: "circular-progress --scale 8 --max-size 1024 --format gif,sheet: sheet refused, nothing written",
            files: ["p.json": .bundled("circular-progress.json")],
            arguments: ["p.json", "-o", "out/", "--format", "gif,sheet", "--scale", "8", "--max-size", "1024"],
            status: 64, fragments: ["frame of 1984×1984 px", "--max-size 1024"], wallSeconds: 20,
            addressSpace: 768 << 20),
    ]

    /// A long GIF loop in a small address space: 1 200 frames of 256×256 (315 MB if held) in
    /// 384 MiB. It failed while `GIFFormat` rendered the whole loop before encoding (issue 18).
    /// `RenderedFrames` keeps the frames run-length packed (a few kilobytes each for this
    /// square), never as RGBA, so only a few RGBA frames are alive at once; holding them all would need the
    /// 315 MB plus the binary's own ~190 MiB of address space (a 200-frame export of the same
    /// square fails at 192 MiB and passes at 256). A sliding square with 5 colours rather than
    /// a loader: the test is about the loop's length, and its frames cost the debug binary about
    /// 40 ms of CPU each (8.2 s for 200), where the earlier case here, 3 000 frames of the
    /// 255-colour circular, took 27 min with the whole suite sharing two cores.
    static let openMemoryJobs: [HostileCase] = [
        HostileCase(
            label: "a 24 s loop at 50 fps on 256×256 in 384 MiB (1200 GIF frames, 315 MB if held)",
            files: [
                "s.json": .text(
                    """
                    { "version": 1, "name": "s", "canvas": { "width": 256, "height": 256 }, "fps": 50,
                      "duration": 24, "layers": [ { "type": "rect", "center": [40, 128], "size": [48, 48],
                        "fill": "#FF3B30", "animations": [ { "keyPath": "position.x", "fromValue": 40,
                          "toValue": 216, "duration": 24, "repeatCount": "infinity" } ] } ] }
                    """)
            ],
            arguments: ["s.json", "-o", "out/x.gif"], status: 0, fragments: [],
            stdoutFragments: ["out/x.gif: 1200 frames, 24 s loop, 256×256 px"], outputs: ["out/x.gif"],
            wallSeconds: 600, addressSpace: 384 << 20)
    ]

    /// Issue 18 item 6: geometry whose cost was superlinear in its points.
    static let hangs: [HostileCase] = {
        var points: [String] = []
        points.reserveCapacity(1_000_000)
        for i in 0..<1_000_000 {
            let angle = Double(i) * 2 * Double.pi / 1_000_000
            let r = i % 2 == 0 ? 7.0 : 3.0
            points.append("[\(8 + r * cos(angle)), \(8 + r * sin(angle))]")
        }
        let polygon = preset(
            [#"{ "type": "polygon", "points": [\#(points.joined(separator: ","))], "fill": "red" }"#],
            top: ", \"duration\": 0.2")
        return [
            HostileCase(
                label: "filled polygon of 1 000 000 points", files: ["h.json": .text(polygon)],
                arguments: ["h.json", "-o", "out/", "--format", "gif,sheet", "-q"], status: 0, fragments: [],
                outputs: ["out/h.gif", "out/h.png", "out/h.json"], wallSeconds: 120)
        ]
    }()

    /// Every PNG frame the fuzzer kept (`Tests/CLITests/Fixtures/fuzz-png/*.png`).
    static let fuzzFrameFixtures: [String] = {
        let dir = packageRoot + "/Tests/CLITests/Fixtures/fuzz-png"
        return listing(dir).filter { $0.hasSuffix(".png") }.map { dir + "/" + $0 }
    }()

    /// Every file the fuzzer kept (`Tests/CLITests/Fixtures/fuzz/*.json`).
    static let fuzzFixtures: [String] = {
        let dir = packageRoot + "/Tests/CLITests/Fixtures/fuzz"
        return listing(dir).filter { $0.hasSuffix(".json") }.map { dir + "/" + $0 }
    }()
}
