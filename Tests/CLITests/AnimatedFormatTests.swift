// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Testing

/// Every bundled preset written as each real-alpha animated format decodes, in Pillow, to exactly
/// the rendered straight-alpha frames at the right times, and composites on white, black and
/// #1C1C1E exactly as the frames do; the structure is checked by the format's own tool.
@Suite(.serialized) struct AnimatedFormatTests {
    static let presets: [String] = {
        ((try? FileManager.default.contentsOfDirectory(atPath: packageRoot + "/presets")) ?? [])
            .filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
    }()

    /// Decodes `file` with Pillow and compares every decoded frame with the PNG frames in
    /// `frames` that fall in its time span (frames merged by the encoder cover several). Prints
    /// `frames=K covered=N mismatched=M total_ms=T loop=L composite_mismatches=C`.
    static let compare = #"""
        import sys, os, glob
        from PIL import Image
        path, frames_dir, period = sys.argv[1], sys.argv[2], float(sys.argv[3])
        rendered = [Image.open(p).convert("RGBA") for p in sorted(glob.glob(frames_dir + "/*.png"))]
        n = len(rendered)
        im = Image.open(path)
        starts, decoded, t = [], [], 0.0
        for k in range(im.n_frames):
            im.seek(k)
            decoded.append(im.convert("RGBA").copy())
            starts.append(t)
            t += float(im.info.get("duration", 0))
        total = t
        # Rendered frame i is meant at i*P/N; the file shows it from the frame whose span holds that.
        covered = mismatched = composite = 0
        grounds = [(255, 255, 255, 255), (0, 0, 0, 255), (28, 28, 30, 255)]
        for i, want in enumerate(rendered):
            at = 1000.0 * period * i / n
            k = max(j for j in range(len(starts)) if starts[j] <= at + 0.5)
            got = decoded[k]
            covered += 1
            a, b = want.tobytes(), got.tobytes()
            bad = 0
            for p in range(0, len(a), 4):
                if a[p + 3] != b[p + 3] or (a[p + 3] != 0 and a[p:p + 3] != b[p:p + 3]):
                    bad += 1
            if bad:
                mismatched += 1
            for g in grounds:
                bg = Image.new("RGBA", want.size, g)
                if Image.alpha_composite(bg, want).tobytes() != Image.alpha_composite(bg, got).tobytes():
                    composite += 1
        # APNG: the fcTL delays summed as exact fractions of a second (delay_den 0 means 100).
        from fractions import Fraction
        data, fraction = open(path, "rb").read(), ""
        if data[:8] == bytes([137, 80, 78, 71, 13, 10, 26, 10]):
            pos, exact = 8, Fraction(0)
            while pos + 8 <= len(data):
                length = int.from_bytes(data[pos:pos + 4], "big")
                if data[pos + 4:pos + 8] == b"fcTL":
                    body = data[pos + 8:pos + 8 + length]
                    den = int.from_bytes(body[22:24], "big") or 100
                    exact += Fraction(int.from_bytes(body[20:22], "big"), den)
                pos += 12 + length
            fraction = f" apng_total_s={exact.numerator}/{exact.denominator}"
        print(f"frames={len(decoded)} covered={covered} mismatched={mismatched} total_ms={round(total)} "
              f"loop={im.info.get('loop')} composite_mismatches={composite}{fraction}")
        """#

    /// The files and frames come from the one export per preset the process shares
    /// (`PresetExport`, with `IndependentDecoderTests`): in a debug build each run of the binary
    /// on circular-progress took 20–40 s on the shared machine.
    @Test(arguments: presets, ["webp", "apng"])
    func losslessAndTimedExactly(preset: String, ext: String) throws {
        let export = try PresetExport.shared(preset)
        let file = ext == "webp" ? export.webp : export.apng
        let period = Double(export.periodMicroseconds) / 1_000_000
        let result = try runPython(Self.compare, arguments: [file, export.directory, String(period)])
        let facts = Self.facts(result.stdout)
        let frameCount = export.frames.count
        #expect(facts["covered"] == frameCount, "\(result.stdout) \(result.stderr)")
        #expect(facts["mismatched"] == 0, "\(result.stdout)")
        #expect(facts["composite_mismatches"] == 0, "\(result.stdout)")
        #expect(facts["total_ms"] == Int((period * 1000).rounded()), "\(result.stdout)")
        #expect(facts["loop"] == 0, "\(result.stdout)")
        if ext == "webp" {
            let info = try runProcess("/usr/bin/webpinfo", ["-summary", file])
            #expect(info.stdout.contains("No error detected."), "\(info.stdout)")
        } else {
            // Exact as a fraction, not merely to the millisecond: every bundled preset's frame
            // time is 1/fps s, which delay_num/delay_den expresses without rounding.
            let micro = export.periodMicroseconds
            var (n, d) = (micro, 1_000_000)
            var (a, b) = (n, d)
            while b != 0 { (a, b) = (b, a % b) }
            (n, d) = (n / a, d / a)
            #expect(result.stdout.contains(" apng_total_s=\(n)/\(d)\n"), "\(result.stdout)")
            // apngdis splits the file into frames beside it and says how many it found: on a
            // copy, so the shared folder keeps only the rendered frames.
            let dir = try temporaryDirectory()
            try FileManager.default.copyItem(atPath: file, toPath: dir + "/a.apng")
            let dis = try runProcess("/usr/bin/apngdis", [dir + "/a.apng"], in: dir)
            #expect(dis.stdout.contains("all done"), "\(dis.stdout)")
        }
    }

    /// The issue's grey disc: blink-dots' dots fade to opacity 0 through half-lit steps. Its
    /// WebP and APNG, decoded by Pillow and composited on black, equal the rendered frames on
    /// black pixel for pixel (alpha 0 stays black: no disc where a dot has faded out), and the
    /// frames really fade: many translucent pixels, some fully transparent where a dot was.
    @Test(arguments: ["webp", "apng"])
    func fadingDotsShowNoGreyDiscOnBlack(ext: String) throws {
        let export = try PresetExport.shared("blink-dots")
        let script = #"""
            import sys, glob
            from PIL import Image
            path, frames_dir = sys.argv[1], sys.argv[2]
            rendered = [Image.open(p).convert("RGBA") for p in sorted(glob.glob(frames_dir + "/*.png"))]
            im = Image.open(path)
            starts, decoded, t = [], [], 0
            for k in range(im.n_frames):
                im.seek(k)
                decoded.append(im.convert("RGBA").copy())
                starts.append(t)
                t += im.info.get("duration", 0)
            period = t
            translucent = faded = wrong = not_black = 0
            seen = [0] * len(rendered[0].tobytes())
            for i, want in enumerate(rendered):
                at = period * i / len(rendered)
                got = decoded[max(j for j in range(len(starts)) if starts[j] <= at + 0.5)]
                black = Image.new("RGBA", want.size, (0, 0, 0, 255))
                a = Image.alpha_composite(black, want).tobytes()
                b = Image.alpha_composite(black, got).tobytes()
                w = want.tobytes()
                for p in range(0, len(w), 4):
                    alpha = w[p + 3]
                    if 0 < alpha < 255:
                        translucent += 1
                        seen[p] = 1
                    elif alpha == 0:
                        if seen[p]:
                            faded += 1
                        if b[p:p + 3] != bytes(3):
                            not_black += 1
                    if a[p:p + 3] != b[p:p + 3]:
                        wrong += 1
            print(f"translucent={translucent} faded={faded} wrong={wrong} not_black={not_black}")
            """#
        let file = ext == "webp" ? export.webp : export.apng
        let result = try runPython(script, arguments: [file, export.directory])
        let facts = Self.facts(result.stdout)
        #expect(facts["wrong"] == 0, "\(result.stdout) \(result.stderr)")
        #expect(facts["not_black"] == 0, "\(result.stdout)")
        #expect((facts["translucent"] ?? 0) > 1000, "\(result.stdout)")
        #expect((facts["faded"] ?? 0) > 100, "\(result.stdout)")
    }

    @Test func webpLoopCountIsTotalPlays() throws {
        let dir = try temporaryDirectory()
        let run = try runTool(
            [packageRoot + "/presets/loading-dots.json", "-o", "a.webp", "--loop", "3", "-q"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        let result = try runPython(
            "from PIL import Image; print(Image.open('\(dir)/a.webp').info.get('loop'))")
        #expect(result.stdout == "3\n")
    }

    /// `key=value` integers from the script's line.
    static func facts(_ line: String) -> [String: Int] {
        var out: [String: Int] = [:]
        for pair in line.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2, let v = Int(parts[1]) { out[String(parts[0])] = v }
        }
        return out
    }
}
