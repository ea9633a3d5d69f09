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
                var differing = 0
                for i in stride(from: 0, to: frameBytes, by: 4) {
                    let theirs = bytes[k * frameBytes + i..<k * frameBytes + i + 4]
                    let ours = frame.canvas.pixels[i..<i + 4]
                    if theirs.last != ours.last || (ours.last != 0 && !theirs.elementsEqual(ours)) { differing += 1 }
                }
                #expect(differing == 0, "\(reader.name), \(preset), frame \(k): \(differing) pixels differ")
            }
        }
    }
}
