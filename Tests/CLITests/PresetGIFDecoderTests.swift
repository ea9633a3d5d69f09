// SPDX-License-Identifier: GPL-3.0-or-later

import Encode
import Foundation
import Render
import Testing

/// Every bundled preset's GIF, as the binary writes it, decodes without a word on stderr in
/// Pillow, ImageMagick, ffmpeg and `gifsicle --info`, and the first three show exactly the
/// frames giflib shows. (EncodeTests holds the same check on synthetic edge cases.)
@Suite(.serialized) struct PresetGIFDecoderTests {
    static var presets: [String] {
        let directory = packageRoot + "/presets"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted().map { directory + "/" + $0 }
    }

    /// Runs a program; stdout as bytes.
    static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, out: Data, err: String) {
        let result = try runProcess(executable, arguments)
        return (result.status, result.output, result.stderr)
    }

    /// Raw RGBA frames of `path` as each reader composites them.
    static let readers: [(name: String, executable: String, arguments: @Sendable (String) -> [String])] = [
        (
            "Pillow", "/usr/bin/python3",
            {
                [
                    "-c",
                    "import sys\nfrom PIL import Image\nim = Image.open(sys.argv[1])\nfor i in range(im.n_frames):\n"
                        + "    im.seek(i)\n    sys.stdout.buffer.write(im.convert('RGBA').tobytes())\n",
                    $0,
                ]
            }
        ),
        ("ImageMagick", "/usr/bin/convert", { [$0, "-coalesce", "-depth", "8", "rgba:-"] }),
        (
            "ffmpeg", "/usr/bin/ffmpeg",
            { ["-v", "error", "-i", $0, "-fps_mode", "passthrough", "-f", "rawvideo", "-pix_fmt", "rgba", "-"] }
        ),
    ]

    @Test(arguments: presets)
    func presetGIFDecodesEverywhere(preset: String) throws {
        let dir = try temporaryDirectory()
        let tool = try runTool([preset, "-o", "p.gif", "-q"], in: dir)
        #expect(tool.status == 0, "\(tool.stderr)")
        let path = dir + "/p.gif"
        let reference = try GIFDecoder.decode([UInt8](Data(contentsOf: URL(fileURLWithPath: path))))

        let info = try Self.run("/usr/bin/gifsicle", ["--info", path])
        #expect(info.status == 0 && info.err.isEmpty, "gifsicle: \(info.err)")
        #expect(String(decoding: info.out, as: UTF8.self).contains("\(reference.frames.count) images"))

        let frameBytes = reference.width * reference.height * 4
        for reader in Self.readers {
            let result = try Self.run(reader.executable, reader.arguments(path))
            #expect(result.status == 0 && result.err.isEmpty, "\(reader.name): \(result.err)")
            let bytes = [UInt8](result.out)
            #expect(bytes.count == frameBytes * reference.frames.count, "\(reader.name) frame count")
            for (k, frame) in reference.frames.enumerated() where bytes.count >= (k + 1) * frameBytes {
                let differing = Self.differingPixels(bytes, offset: k * frameBytes, frame.canvas.pixels)
                #expect(differing == 0, "\(reader.name), \(preset), frame \(k): \(differing) pixels differ")
            }
        }
    }

    /// Pixels whose alpha differs, or whose colour differs where ours is not transparent (the
    /// colour under alpha 0 is arbitrary). Compares whole 32-bit pixels through raw buffers: a
    /// debug build walks 180 frames × 3 readers of the largest preset in a second, not minutes.
    static func differingPixels(_ theirs: [UInt8], offset: Int, _ ours: [UInt8]) -> Int {
        theirs.withUnsafeBytes { t in
            ours.withUnsafeBytes { o in
                var count = 0
                for p in 0..<(ours.count / 4) {
                    let a = t.loadUnaligned(fromByteOffset: offset + 4 * p, as: UInt32.self)
                    let b = o.loadUnaligned(fromByteOffset: 4 * p, as: UInt32.self)
                    if a == b { continue }
                    // Bytes are R, G, B, A in memory; compare the alpha byte itself.
                    let alphaA = t[offset + 4 * p + 3]
                    let alphaB = o[4 * p + 3]
                    if alphaA != alphaB || alphaB != 0 { count += 1 }
                }
                return count
            }
        }
    }
}
