// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Testing

/// Round 16 (issue 22) on a bundled preset's real frames, through the real binaries in a
/// temporary folder: `animexport PRESET --frames DIR`, then `animexport-bench --encode-frames`
/// with the deflate recoder off and on.
struct APNGRecodeTests {
    static let preset = packageRoot + "/presets/circular-linear.json"

    /// The recoded file is smaller, its image data chunk by chunk never larger, every other
    /// chunk identical, and each frame's data inflates (Python's zlib) to the same bytes.
    @Test func recodedPresetIsSmallerAndHoldsTheSameScanlines() throws {
        let dir = try temporaryDirectory()
        let frames = try runTool([Self.preset, "--frames", dir + "/frames", "-q"], in: dir)
        #expect(frames.status == 0, "\(frames.stderr)")
        let bench = URL(fileURLWithPath: toolPath).deletingLastPathComponent().appendingPathComponent(
            "animexport-bench"
        ).path
        for flag in ["0", "1"] {
            let run = try runProcess(
                bench,
                [
                    "--encode-frames", dir + "/frames", Self.preset, "-o", dir + "/r\(flag).apng", "--workers", "2",
                    "--recode", flag,
                ])
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
        let check = try runProcess("/usr/bin/python3", ["-c", script, dir + "/r0.apng", dir + "/r1.apng"])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(String(decoding: check.output, as: UTF8.self) == "60 True True 0 True\n")
        let before = try #require(FileManager.default.contents(atPath: dir + "/r0.apng"))
        let after = try #require(FileManager.default.contents(atPath: dir + "/r1.apng"))
        #expect(after.count < before.count)
    }
}
