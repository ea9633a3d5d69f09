import Export
import Foundation
import OutputFiles
import Testing
import ToolOptions

@testable import AnimexportCLI

/// Incremental runs (issue 20): the manifest beside each job's outputs, skipping, `check`
/// answered from manifests (and never fooled by a forged one), `--force`, and `--shard K/N`.
/// Every run gets its own `XDG_CACHE_HOME`, so the manifest key is the test's own.
@Suite(.serialized) struct ManifestTests {
    /// A folder with presets `square` and `dot`, an empty `out/` and a key folder `cache/`.
    static func workspace() throws -> String {
        let dir = try BatchTests.workspace()
        try FileManager.default.createDirectory(atPath: dir + "/cache", withIntermediateDirectories: false)
        return dir
    }

    static func run(_ arguments: [String], in dir: String, cache: String = "cache", tool: String? = nil) throws
        -> ToolRun
    {
        let env = ["XDG_CACHE_HOME": dir + "/" + cache]
        if let tool {
            var all = ProcessInfo.processInfo.environment
            for (k, v) in env { all[k] = v }
            return try runProcess(tool, arguments, in: dir, environment: all)
        }
        return try runTool(arguments, in: dir, environment: env)
    }

    /// `presets/NAME.json: STEM: up to date` lines, as stems.
    static func upToDate(_ run: ToolRun) -> [String] {
        run.stdout.split(separator: "\n").compactMap { line in
            guard line.hasSuffix(")"), line.contains(": up to date (") else { return nil }
            let parts = line.split(separator: ":")
            return parts.count >= 2 ? parts[1].trimmingCharacters(in: .whitespaces) : nil
        }.sorted()
    }

    @Test func repeatedRunSkipsExactlyWhatIsUnchanged() throws {
        let dir = try Self.workspace()
        let batch = ["presets", "-o", "out/", "--scale", "1,2"]
        let first = try Self.run(batch, in: dir)
        #expect(first.status == 0, "\(first.stderr)")
        #expect(Self.upToDate(first).isEmpty)
        #expect(
            manifests(in: dir + "/out") == [
                ".dot.gif.animexport.json", ".dot@2x.gif.animexport.json", ".square.gif.animexport.json",
                ".square@2x.gif.animexport.json",
            ])
        let full = try sha256Sums(dir + "/out")
        #expect(full.count == 12)
        // The key: 32 bytes, this user's only.
        let keyPath = dir + "/cache/animexport/manifest.key"
        let attributes = try FileManager.default.attributesOfItem(atPath: keyPath)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect(readBytes(keyPath).count == 32)
        // The manifest names the preset, its outputs and their SHA-256 as sha256sum computes them.
        let manifest = String(decoding: readBytes(dir + "/out/.square.gif.animexport.json"), as: UTF8.self)
        #expect(manifest.hasPrefix("{\n  \"animexportManifest\": 1,\n  \"version\": \"\(Exporter.version)\""))
        for name in ["square.gif", "square.png", "square.json"] {
            #expect(manifest.contains("\"path\": \"out/\(name)\""))
            #expect(manifest.contains("\"sha256\": \"\(full[name] ?? "?")\""))
        }

        // Nothing changed: every job up to date, no file touched.
        let again = try Self.run(batch, in: dir)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(Self.upToDate(again) == ["dot", "dot@2x", "square", "square@2x"])
        #expect(try sha256Sums(dir + "/out") == full)

        // --force renders everything, to the same bytes.
        let forced = try Self.run(batch + ["--force"], in: dir)
        #expect(forced.status == 0 && Self.upToDate(forced).isEmpty)
        #expect(forced.stdout.contains("out/square@2x.gif: 10 frames"))
        #expect(try sha256Sums(dir + "/out") == full)

        // An edited output (another GIF of ours in its place, so the overwrite guard of
        // `OwnFiles` still takes it for ours): only its job renders again, and restores the full
        // run's bytes.
        try Data(readBytes(dir + "/out/square.gif")).write(to: URL(fileURLWithPath: dir + "/out/dot@2x.gif"))
        let repaired = try Self.run(batch, in: dir)
        #expect(Self.upToDate(repaired) == ["dot", "square", "square@2x"])
        #expect(try sha256Sums(dir + "/out") == full)

        // A touched preset: only its two jobs render; their bytes equal a full run of the new preset.
        try writeFile(
            squarePreset(name: "dot").replacingOccurrences(of: "#FF0000", with: "#00AA00"),
            to: dir + "/presets/dot.json")
        let touched = try Self.run(batch, in: dir)
        #expect(Self.upToDate(touched) == ["square", "square@2x"])
        try FileManager.default.createDirectory(atPath: dir + "/fresh", withIntermediateDirectories: false)
        #expect(try Self.run(["presets", "-o", "fresh/", "--scale", "1,2"], in: dir).status == 0)
        let fresh = try sha256Sums(dir + "/fresh")
        #expect(try sha256Sums(dir + "/out") == fresh)
        #expect(fresh["dot.gif"] != full["dot.gif"] && fresh["square.gif"] == full["square.gif"])

        // An option that changes bytes re-renders every job; one that does not (--jobs) skips.
        #expect(Self.upToDate(try Self.run(batch + ["--jobs", "1"], in: dir)).count == 4)
        let looped = try Self.run(batch + ["--loop", "3"], in: dir)
        #expect(looped.status == 0 && Self.upToDate(looped).isEmpty)
        // One more scale: only the new jobs render.
        let more = try Self.run(["presets", "-o", "out/", "--scale", "1,2,3", "--loop", "3"], in: dir)
        #expect(Self.upToDate(more) == ["dot", "dot@2x", "square", "square@2x"])
    }

    @Test func anotherBuildOrAnImageLayerChangeRenders() throws {
        let dir = try Self.workspace()
        // An image layer's PNG is an input: a 2×2 tile, then another.
        func tile(_ red: UInt8) throws {
            let png = try runPython(
                "import sys; from PIL import Image; im = Image.new('RGBA', (2, 2), (\(red), 0, 0, 255)); im.save(sys.argv[1])",
                arguments: [dir + "/tile.png"])
            #expect(png.status == 0, "\(png.stderr)")
        }
        try tile(255)
        try writeFile(
            """
            { "version": 1, "name": "tiles", "canvas": { "width": 8, "height": 8 }, "duration": 1, "fps": 2,
              "layers": [ { "type": "image", "file": "tile.png", "center": [4, 4], "size": [8, 8],
                            "animations": [ { "keyPath": "opacity", "values": [1, 0.5], "duration": 1, "repeatCount": "infinity" } ] } ] }
            """, to: dir + "/tiles.json")
        let args = ["tiles.json", "-o", "out/tiles.gif"]
        #expect(try Self.run(args, in: dir).status == 0)
        #expect(Self.upToDate(try Self.run(args, in: dir)) == ["tiles"])
        let before = readBytes(dir + "/out/tiles.gif")
        try tile(100)
        let changed = try Self.run(args, in: dir)
        #expect(changed.status == 0 && Self.upToDate(changed).isEmpty)
        #expect(readBytes(dir + "/out/tiles.gif") != before)
        #expect(Self.upToDate(try Self.run(args, in: dir)) == ["tiles"])

        // Another build of the tool renders again. A build is known by its GNU build ID
        // (`BuildIdentity`): here the same binary with one byte of that ID changed (the note
        // header namesz 4, descsz 20, type 3 and "GNU\0", then the ID), or with one byte more
        // when it has none (then the executable's SHA-256 stands in). The copy is of the core
        // (the front only execs it), run directly.
        let copy = dir + "/animexport-copy"
        var binary = readBytes(corePath)
        let note: [UInt8] = [4, 0, 0, 0, 20, 0, 0, 0, 3, 0, 0, 0, 0x47, 0x4E, 0x55, 0]
        if let at = (0..<(binary.count - note.count - 20)).first(where: {
            binary[$0..<$0 + note.count].elementsEqual(note)
        }) {
            binary[at + note.count] ^= 0xFF
        } else {
            binary.append(0)
        }
        try Data(binary).write(to: URL(fileURLWithPath: copy))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: copy)
        let rebuilt = try Self.run(args, in: dir, tool: copy)
        #expect(rebuilt.status == 0, "\(rebuilt.stderr)")
        #expect(Self.upToDate(rebuilt).isEmpty)
        let checked = try Self.run(["check"] + args, in: dir)
        #expect(checked.status == 0)
        #expect(checked.stdout.contains("rendered to compare (manifest from another animexport build)"))
    }

    @Test func checkAnswersFromTheManifestAndAForgedOneNeverPasses() throws {
        let dir = try Self.workspace()
        let batch = ["presets", "-o", "out/", "--scale", "1,2"]
        #expect(try Self.run(batch, in: dir).status == 0)
        let check = try Self.run(["check"] + batch, in: dir)
        #expect(check.status == 0)
        #expect(check.stdout.contains("check: all 12 files are up to date (12 answered from manifests)"))
        #expect(!check.stdout.contains("rendered to compare"))

        // Another user's (or machine's) key: not trusted, rendered, and right.
        let foreign = try Self.run(["check"] + batch, in: dir, cache: "other-cache")
        #expect(foreign.status == 0, "\(foreign.stdout)")
        #expect(foreign.stdout.contains("square@2x: rendered to compare (manifest not trusted"))
        #expect(foreign.stdout.contains("check: all 12 files are up to date\n"))

        // Edit an output, then rewrite the manifest's hash (and size) to match the edit.
        let gif = dir + "/out/square.gif"
        var bytes = readBytes(gif)
        bytes[bytes.count / 2] ^= 0xFF
        try Data(bytes).write(to: URL(fileURLWithPath: gif))
        let sums = try sha256Sums(dir + "/out")
        let manifestPath = dir + "/out/.square.gif.animexport.json"
        let original = String(decoding: readBytes(manifestPath), as: UTF8.self)
        let lines = original.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            guard line.contains("\"path\": \"out/square.gif\"") else { return String(line) }
            return
                "    { \"path\": \"out/square.gif\", \"bytes\": \(bytes.count), \"sha256\": \"\(sums["square.gif"] ?? "")\" },"
        }
        let forged = lines.joined(separator: "\n")
        #expect(forged != original)
        try writeFile(forged, to: manifestPath)
        let fooled = try Self.run(["check"] + batch, in: dir)
        #expect(fooled.status == 2)
        #expect(fooled.stdout.contains("differs: out/square.gif"))
        #expect(fooled.stdout.contains("square: rendered to compare (manifest not trusted"))

        // The genuine manifest beside the edited file: stale, rendered, fails.
        try writeFile(original, to: manifestPath)
        let stale = try Self.run(["check"] + batch, in: dir)
        #expect(stale.status == 2)
        #expect(stale.stdout.contains("square: rendered to compare (manifest stale)"))
        #expect(stale.stdout.contains("differs: out/square.gif"))

        // No manifest: rendered to compare. --force: rendered although the manifest is good.
        #expect(try Self.run(batch, in: dir).status == 0)
        try FileManager.default.removeItem(atPath: dir + "/out/.dot.gif.animexport.json")
        let missing = try Self.run(["check"] + batch, in: dir)
        #expect(missing.status == 0 && missing.stdout.contains("dot: rendered to compare (no manifest)"))
        #expect(missing.stdout.contains("(9 answered from manifests)"))
        let forced = try Self.run(["check", "--force"] + batch, in: dir)
        #expect(forced.status == 0 && forced.stdout.contains("check: all 12 files are up to date\n"))
    }

    /// The build identity is the linker's GNU build ID, read from the ELF notes as binutils'
    /// `readelf -n` prints it; a file that is not ELF has none.
    @Test func buildIdentityIsTheGNUBuildIDReadelfShows() throws {
        let readelf = try runProcess("/usr/bin/readelf", ["-n", corePath], in: "/")
        let line = try #require(readelf.stdout.split(separator: "\n").first { $0.contains("Build ID:") })
        let expected = String(line.split(separator: ":").last ?? "").trimmingCharacters(in: .whitespaces)
        let id = try #require(BuildIdentity.gnuBuildID(of: FilePath(corePath)))
        #expect(id.count == 20 && Digest.hex(id) == expected)
        let notELF = try temporaryDirectory() + "/x"
        try writeFile(String(repeating: "x", count: 100), to: notELF)
        #expect(BuildIdentity.gnuBuildID(of: FilePath(notELF)) == nil)
    }

    @Test func shardsAreDisjointCompleteAndByteEqual() throws {
        let dir = try Self.workspace()
        let batch = ["presets", "--scale", "1,2,3", "--set", "size=20,24", "--format", "gif,sheet"]
        try FileManager.default.createDirectory(atPath: dir + "/full", withIntermediateDirectories: false)
        #expect(try Self.run(batch + ["-o", "full/"], in: dir).status == 0)
        let full = try sha256Sums(dir + "/full")
        #expect(full.count == 2 * 3 * 2 * 3)
        for n in [1, 3, 5, 12, 13] {
            var union: [String: String] = [:]
            var sizes: [Int] = []
            for k in 1...n {
                let folder = "s\(n)-\(k)"
                try FileManager.default.createDirectory(atPath: dir + "/" + folder, withIntermediateDirectories: false)
                let run = try Self.run(
                    batch + ["-o", folder + "/", "--shard", "\(k)/\(n)", "--jobs", "\(k % 2 + 1)"], in: dir)
                #expect(run.status == 0, "\(run.stderr)")
                let sums = try sha256Sums(dir + "/" + folder)
                #expect(Set(sums.keys).isDisjoint(with: union.keys), "shard \(k)/\(n) overlaps")
                union.merge(sums) { a, _ in a }
                // Each preset's 6 jobs are dealt round-robin on their own: per preset, the
                // shards' job counts differ by at most one.
                for preset in ["dot", "square"] {
                    sizes.append(sums.keys.filter { $0.hasPrefix(preset) && $0.hasSuffix(".gif") }.count)
                }
            }
            #expect(union == full, "the \(n) shards' union")
            for preset in 0..<2 {
                let counts = stride(from: preset, to: sizes.count, by: 2).map { sizes[$0] }
                #expect((counts.max() ?? 0) - (counts.min() ?? 0) <= 1, "\(n) shards: \(sizes)")
            }
        }
        // 3 shards of 6 jobs per preset: each shard holds one of the preset's two largest jobs
        // (@3x, pixels × frames, dealt first), whichever shard the preset's hash starts at.
        for preset in ["dot", "square"] {
            var holders: [Int] = []
            for k in 1...3 {
                let names = try sha256Sums(dir + "/s3-\(k)").keys.filter {
                    $0.hasPrefix(preset) && $0.hasSuffix(".gif")
                }
                #expect(names.count == 2, "\(preset) on shard \(k)/3: \(names)")
                if names.contains(where: { $0.contains("@3x") }) { holders.append(k) }
            }
            #expect(holders.count == 2, "\(preset)'s two @3x jobs are on shards \(holders)")
        }
    }

    /// `--scale 1,2 --shard 1/2`: every preset's @1x and @2x go to different shards, adding a
    /// preset moves no other preset's job, and an empty shard says so and makes no folder.
    @Test func shardsSpreadScalesAndStayStable() throws {
        let dir = try Self.workspace()
        let batch = ["presets", "--scale", "1,2", "--format", "gif"]
        func shardFiles(_ k: Int, _ n: Int) throws -> [String] {
            let folder = "s-\(k)-\(n)-\(listing(dir).count)"
            let run = try Self.run(batch + ["-o", folder + "/", "--shard", "\(k)/\(n)"], in: dir)
            #expect(run.status == 0, "\(run.stderr)")
            return listing(dir + "/" + folder)
        }
        let one = try shardFiles(1, 2)
        let two = try shardFiles(2, 2)
        #expect(Set(one + two) == ["dot.gif", "dot@2x.gif", "square.gif", "square@2x.gif"])
        for preset in ["dot", "square"] {
            #expect(one.filter { $0.hasPrefix(preset + ".") || $0.hasPrefix(preset + "@") }.count == 1, "\(one)")
        }
        // A third preset joins: the first two presets' jobs stay where they were.
        try writeFile(squarePreset(name: "third"), to: dir + "/presets/third.json")
        let again = try shardFiles(1, 2)
        #expect(again.filter { !$0.hasPrefix("third") } == one)
        #expect(again.filter { $0.hasPrefix("third") }.count == 1, "\(again)")
        // One job, three shards: two of them have none, say so, and make no folder.
        var empties = 0
        for k in 1...3 {
            let run = try Self.run(
                ["presets/dot.json", "--format", "gif", "-o", "e\(k)/", "--shard", "\(k)/3"], in: dir)
            #expect(run.status == 0, "\(run.stderr)")
            if run.stderr == "note: shard \(k)/3 has no jobs (the batch has 1 job)\n" {
                empties += 1
                #expect(!FileManager.default.fileExists(atPath: dir + "/e\(k)"))
            } else {
                #expect(listing(dir + "/e\(k)") == ["dot.gif"], "\(run.stderr)")
            }
        }
        #expect(empties == 2)
    }

    /// Manifests written into the presets' own folder are never read as presets (hidden names).
    @Test func manifestsBesidePresetsAreNotPresets() throws {
        let dir = try Self.workspace()
        let args = ["presets", "-o", "presets/", "--format", "gif"]
        #expect(try Self.run(args, in: dir).status == 0)
        #expect(manifests(in: dir + "/presets") == [".dot.gif.animexport.json", ".square.gif.animexport.json"])
        let again = try Self.run(args, in: dir)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(Self.upToDate(again) == ["dot", "square"])
        #expect(again.stderr.isEmpty)
    }

    @Test(arguments: ["0/2", "3/2", "1/0", "2", "a/b", "1/2/3", "-1/2", "/2", "1/"])
    func badShardIsAUsageError(_ value: String) throws {
        let dir = try Self.workspace()
        let run = try Self.run(["presets", "-o", "out/", "--shard", value], in: dir)
        #expect(run.status == 64)
        #expect(run.stderr.contains("error: --shard"))
        #expect(listing(dir + "/out").isEmpty && manifests(in: dir + "/out").isEmpty)
    }

    /// SHA-256 against FIPS 180-4's examples (NIST CSRC) and HMAC-SHA-256 against RFC 4231.
    @Test func digestsMatchPublishedVectors() throws {
        #expect(Digest.hex(try Digest.sha256([])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(
            Digest.hex(try Digest.sha256(Array("abc".utf8)))
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            Digest.hex(try Digest.sha256(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        // One million 'a', through the file path in 1 MiB pieces.
        let dir = try temporaryDirectory()
        let million = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        try Data(million).write(to: URL(fileURLWithPath: dir + "/a"))
        let file = try Digest.sha256(file: FilePath(dir + "/a"))
        #expect(file.size == 1_000_000)
        #expect(Digest.hex(file.digest) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
        // Longer than one piece: the same as the in-memory digest.
        let long = (0..<3_000_001).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) }
        try Data(long).write(to: URL(fileURLWithPath: dir + "/b"))
        #expect(try Digest.sha256(file: FilePath(dir + "/b")).digest == (try Digest.sha256(long)))
        #expect(throws: Digest.Failure.self) { try Digest.sha256(file: FilePath(dir + "/none")) }
        // RFC 4231 test cases 1 and 2.
        #expect(
            Digest.hex(try Digest.hmacSHA256(key: [UInt8](repeating: 0x0B, count: 20), Array("Hi There".utf8)))
                == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
        #expect(
            Digest.hex(try Digest.hmacSHA256(key: Array("Jefe".utf8), Array("what do ya want for nothing?".utf8)))
                == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    /// A key readable by others is refused (manifests neither trusted nor written), not used.
    @Test func keyReadableByOthersIsNotUsed() throws {
        let dir = try Self.workspace()
        let keyPath = dir + "/cache/animexport/manifest.key"
        try FileManager.default.createDirectory(atPath: dir + "/cache/animexport", withIntermediateDirectories: true)
        try Data([UInt8](repeating: 7, count: 32)).write(to: URL(fileURLWithPath: keyPath))
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: keyPath)
        #expect(
            ManifestKey.read(FilePath(keyPath))
                == .unusable("\(keyPath) may be read by others (mode 644; expected 600)"))
        let run = try Self.run(["presets", "-o", "out/"], in: dir)
        #expect(run.status == 0)
        #expect(manifests(in: dir + "/out").isEmpty)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: keyPath)
        #expect(ManifestKey.read(FilePath(keyPath)) == .key([UInt8](repeating: 7, count: 32)))
    }

    /// A kill at each rename of a commit (GIF, sheet PNG, its JSON, then the manifest) leaves no
    /// manifest at all (the old one is removed before the first rename, the new one is renamed
    /// last), so `check` answers as a full render does, for the old options and the new.
    @Test func aKillAtAnyRenameLeavesNoManifestThatVouchesForAnotherRun() throws {
        let dir = try Self.workspace()
        try FileManager.default.removeItem(atPath: dir + "/presets/dot.json")
        let old = ["presets", "-o", "out/", "--jobs", "1", "-q"]
        let new = old + ["--loop", "2"]
        let env = ["XDG_CACHE_HOME": dir + "/cache"]
        for n in 1...4 {
            #expect(try Self.run(old, in: dir).status == 0)
            #expect(manifests(in: dir + "/out") == [".square.gif.animexport.json"])
            let killed = try runProcess(
                "/usr/bin/strace",
                [
                    "-f", "-qq", "-o", "/dev/null", "-e", "trace=rename,renameat,renameat2",
                    "-e", "inject=rename,renameat,renameat2:signal=SIGKILL:when=\(n)", toolPath,
                ] + new, in: dir, environment: ProcessInfo.processInfo.environment.merging(env) { $1 })
            #expect(killed.status != 0, "kill at rename \(n)")
            #expect(manifests(in: dir + "/out").isEmpty, "kill at rename \(n): \(manifests(in: dir + "/out"))")
            for args in [old, new] {
                let fromManifest = try Self.run(["check"] + args, in: dir)
                let rendered = try Self.run(["check", "--force"] + args, in: dir)
                #expect(fromManifest.status == rendered.status, "kill at rename \(n), check \(args)")
                #expect(!fromManifest.stdout.contains("answered from manifests"))
            }
            // The next run repairs everything and vouches for it again.
            #expect(try Self.run(new, in: dir).status == 0)
            #expect(
                try Self.run(["check"] + new.filter { $0 != "-q" }, in: dir).stdout.contains(
                    "(3 answered from manifests)"))
        }
        // Without a kill there are exactly four renames: the manifest's is the last.
        let traced = try runProcess(
            "/usr/bin/strace",
            ["-f", "-qq", "-o", dir + "/trace", "-e", "trace=rename,renameat,renameat2", toolPath] + old + ["--force"],
            in: dir, environment: ProcessInfo.processInfo.environment.merging(env) { $1 })
        #expect(traced.status == 0)
        let renames = String(decoding: readBytes(dir + "/trace"), as: UTF8.self).split(separator: "\n")
            .filter { $0.contains("rename") }
        #expect(renames.count == 4)
        #expect(renames.last?.contains(".square.gif.animexport.json\"") == true, "\(renames)")
    }
}
