// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Testing

@testable import Encode

/// Debian's Python with python3-pil; the `python3` on PATH may be a pyenv build without PIL.
private let python = "/usr/bin/python3"

/// Reads a GIF with Pillow and prints, as JSON, its frame count, size, loop, and per frame the
/// duration in ms and the RGBA values at the requested points.
private let pillowScript = """
    import json, sys
    from PIL import Image
    im = Image.open(sys.argv[1])
    points = json.loads(sys.argv[2])
    out = {"n": im.n_frames, "size": list(im.size), "loop": im.info.get("loop"), "frames": []}
    for i in range(im.n_frames):
        im.seek(i)
        rgba = im.convert("RGBA")
        out["frames"].append({
            "duration": im.info.get("duration"),
            "pixels": [list(rgba.getpixel((x, y))) for x, y in points],
        })
    print(json.dumps(out))
    """

/// What Pillow saw.
private struct PillowReport {
    var frameCount: Int
    var size: [Int]
    var loop: Int?
    var durations: [Int]
    /// Per frame, per point: RGBA.
    var pixels: [[[Int]]]
}

private func readWithPillow(_ gif: [UInt8], points: [(Int, Int)]) throws -> PillowReport {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("animexport-pillow-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("test.gif")
    try Data(gif).write(to: file)

    let process = Process()
    process.executableURL = URL(fileURLWithPath: python)
    let pointList = "[" + points.map { "[\($0.0), \($0.1)]" }.joined(separator: ", ") + "]"
    process.arguments = ["-c", pillowScript, file.path, pointList]
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    try #require(process.terminationStatus == 0, "Pillow failed: \(errorText)")

    let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    let frames = try #require(object["frames"] as? [[String: Any]])
    return PillowReport(
        frameCount: try #require(object["n"] as? Int),
        size: try #require(object["size"] as? [Int]),
        loop: object["loop"] as? Int,
        durations: frames.compactMap { $0["duration"] as? Int },
        pixels: frames.compactMap { $0["pixels"] as? [[Int]] })
}

private func isPillowAvailable() -> Bool {
    FileManager.default.isExecutableFile(atPath: python)
}

@Test(.enabled(if: isPillowAvailable(), "needs /usr/bin/python3 with Pillow"))
func pillowReadsTransparentAnimationTheSameWay() throws {
    // 12×12, transparent background, a 4×4 square stepping right in a different colour per frame.
    let colours = [Pixel(255, 0, 0), Pixel(0, 160, 0), Pixel(0, 0, 255), Pixel(250, 200, 10)]
    let frames = (0..<4).map { k in
        makeImage(width: 12, height: 12) { x, y in
            (2 * k..<2 * k + 4).contains(x) && (4..<8).contains(y) ? colours[k] : .clear
        }
    }
    let delays = FrameTiming.centisecondDelays(period: 0.13, frameCount: 4)  // 3, 4, 3, 3
    let result = try GIFEncoder.encode(frames: frames, delays: delays, options: GIFOptions())
    let points = [(0, 0), (1, 5), (2, 5), (5, 5), (7, 6), (9, 5), (11, 11)]
    let report = try readWithPillow(result.bytes, points: points)

    #expect(report.frameCount == 4)
    #expect(report.size == [12, 12])
    #expect(report.loop == 0)
    #expect(report.durations == delays.map { $0 * 10 })
    #expect(report.durations == [30, 40, 30, 30])
    for k in 0..<4 {
        for (p, point) in points.enumerated() {
            let expected = pixel(frames[k], point.0, point.1)
            let seen = report.pixels[k][p]
            if expected.a == 0 {
                #expect(seen[3] == 0, "frame \(k) at \(point) should be transparent, Pillow saw \(seen)")
            } else {
                #expect(seen == [Int(expected.r), Int(expected.g), Int(expected.b), 255])
            }
        }
    }
}

@Test(.enabled(if: isPillowAvailable(), "needs /usr/bin/python3 with Pillow"))
func pillowSeesLoopCountAndOpaqueFrames() throws {
    // 5 × 5 colour steps per frame, 75 colours in all: an exact palette.
    let frames = (0..<3).map { k in
        makeImage(width: 20, height: 10) { x, y in
            Pixel(UInt8(x / 4 * 50), UInt8(y / 2 * 60), UInt8(k * 100))
        }
    }
    let result = try GIFEncoder.encode(
        frames: frames, delays: [2, 7, 50], options: GIFOptions(loop: .plays(3)))
    #expect(result.quantized == false)
    let points = [(0, 0), (19, 9), (7, 3)]
    let report = try readWithPillow(result.bytes, points: points)
    #expect(report.frameCount == 3)
    #expect(report.size == [20, 10])
    #expect(report.loop == 2)
    #expect(report.durations == [20, 70, 500])
    for k in 0..<3 {
        for (p, point) in points.enumerated() {
            let e = pixel(frames[k], point.0, point.1)
            #expect(report.pixels[k][p] == [Int(e.r), Int(e.g), Int(e.b), 255])
        }
    }

    let once = try GIFEncoder.encode(
        frames: frames, delays: [4, 4, 4], options: GIFOptions(loop: .plays(1)))
    #expect(try readWithPillow(once.bytes, points: []).loop == nil)
}
