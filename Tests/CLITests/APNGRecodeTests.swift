// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Testing

/// Rounds 16 and 21 (issue 22) on a bundled preset's real frames, through the real binaries in
/// a temporary folder: `animexport PRESET --frames DIR`, then `animexport-bench --encode-frames`
/// with the deflate recoder off and on (the squeeze off), and at the default (the squeeze on).
struct APNGRecodeTests {
    static let preset = packageRoot + "/presets/circular-linear.json"

    /// The recoded file is smaller than the plain one and the default (squeezed) smaller than
    /// the recoded one, each one's image data frame by frame never larger than the one before,
    /// every other chunk identical, and each frame's data inflates (Python's zlib) to the same
    /// bytes.
    @Test func recodedPresetIsSmallerAndHoldsTheSameScanlines() throws {
        let dir = try temporaryDirectory()
        let frames = try runTool([Self.preset, "--frames", dir + "/frames", "-q"], in: dir)
        #expect(frames.status == 0, "\(frames.stderr)")
        let bench = URL(fileURLWithPath: toolPath).deletingLastPathComponent().appendingPathComponent(
            "animexport-bench"
        ).path
        for (name, flags) in [("r0", ["--recode", "0", "--squeeze", "0"]), ("r1", ["--squeeze", "0"]), ("rd", [])] {
            let run = try runProcess(
                bench,
                ["--encode-frames", dir + "/frames", Self.preset, "-o", dir + "/\(name).apng", "--workers", "2"] + flags
            )
            #expect(run.status == 0, "\(run.stderr)")
        }
        let bad = try runProcess(
            bench, ["--encode-frames", dir + "/frames", Self.preset, "-o", dir + "/x.apng", "--recode", "2"])
        #expect(bad.status == 64)
        #expect(bad.stderr == "error: --recode needs 0 or 1\n")
        let script = """
            import sys, zlib
            def frames(path):
                # Each frame's zlib stream: its IDAT or fdAT chunks after its fcTL, joined.
                data = open(path, 'rb').read()
                pos, out, other = 8, [], []
                while pos < len(data):
                    n = int.from_bytes(data[pos:pos + 4], 'big'); kind = data[pos + 4:pos + 8]
                    body = data[pos + 8:pos + 8 + n]
                    if kind == b'fcTL':
                        out.append(b'')
                    if kind == b'IDAT' or kind == b'fdAT':
                        out[-1] += body if kind == b'IDAT' else body[4:]
                    else:
                        other.append((kind, body))
                    pos += 12 + n
                return out, other
            a, oa = frames(sys.argv[1]); b, ob = frames(sys.argv[2])
            same = len(a) == len(b) and all(zlib.decompress(x) == zlib.decompress(y) for x, y in zip(a, b))
            larger = sum(len(y) > len(x) for x, y in zip(a, b))
            smaller = sum(len(y) < len(x) for x, y in zip(a, b))
            print(len(a), same, oa == ob, larger, smaller > 0)
            """
        for (first, second) in [("r0", "r1"), ("r1", "rd")] {
            let check = try runProcess(
                "/usr/bin/python3", ["-c", script, dir + "/\(first).apng", dir + "/\(second).apng"])
            #expect(check.status == 0, "\(check.stderr)")
            #expect(String(decoding: check.output, as: UTF8.self) == "60 True True 0 True\n", "\(first) → \(second)")
            let before = try #require(FileManager.default.contents(atPath: dir + "/\(first).apng"))
            let after = try #require(FileManager.default.contents(atPath: dir + "/\(second).apng"))
            #expect(after.count < before.count, "\(first) → \(second)")
        }
    }
}
