// SPDX-License-Identifier: GPL-3.0-or-later

import Encode
import Foundation
import Raster
import Render
import Testing

/// The encoding options (`--dither`, `--lossy`, `--extrude`, `--trim`, `--sheet-type`, `--sheet-colors`):
/// every bad value is a usage error that writes nothing, and good values reach the files.
@Suite(.serialized) struct EncodingOptionsTests {
    static let circular = packageRoot + "/presets/circular.json"

    @Test(arguments: [
        (["--dither", "bayer"], "--dither bayer: expected none, ordered or fs"),
        (["--dither"], "--dither needs none, ordered or fs"),
        (["--lossy", "-1"], "--lossy -1: expected a tolerance in levels 0…255 (0 = lossless)"),
        (["--lossy", "256"], "--lossy 256: expected a tolerance in levels 0…255 (0 = lossless)"),
        (["--lossy", "four"], "--lossy four: expected a tolerance in levels 0…255 (0 = lossless)"),
        (["--extrude", "-1"], "--extrude -1: expected whole pixels 0…64"),
        (["--extrude", "65"], "--extrude 65: expected whole pixels 0…64"),
        (["--trim=yes"], "--trim takes no value"),
        (["--sheet-type", "diagonal"], "--sheet-type diagonal: expected grid, horizontal, vertical or packed"),
        (["--sheet-colors", "1"], "--sheet-colors 1: expected a palette size 2…256"),
        (["--sheet-colors", "300"], "--sheet-colors 300: expected a palette size 2…256"),
        (["--columns", "3", "--sheet-type", "vertical"], "--columns applies to --sheet-type grid only"),
    ])
    func badValuesExit64(arguments: [String], message: String) throws {
        let dir = try temporaryDirectory()
        let run = try runTool([Self.circular, "-o", "x.png", "-o", "x.gif"] + arguments, in: dir)
        #expect(run.status == 64)
        #expect(run.stderr.contains("error: " + message), "stderr: \(run.stderr)")
        #expect(listing(dir).isEmpty)
    }

    @Test func trimExtrudeAndSheetTypeReachTheSheet() throws {
        let dir = try temporaryDirectory()
        let run = try runTool(
            // One page: the strip is wider than the default --max-size 4096.
            [
                Self.circular, "-o", "s.png", "--trim", "--extrude", "1", "--sheet-type", "horizontal", "--max-size",
                "8192",
            ],
            in: dir)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "/s.json")))
        let hash = (json as? [String: Any])?["frames"] as? [String: [String: Any]] ?? [:]
        let frames = (0..<hash.count).compactMap { hash[String($0)] }
        #expect(frames.count == 120)
        // Frame 60 of the circular loader (t = 10 s, the Timer's reset to (0, 0)) is empty:
        // trimmed to one pixel; frame 0 is the full ring, 50 pt + the 4 pt stroke = 54 px.
        #expect(frames.count == 120 && frames[60]["trimmed"] as? Bool == true)
        let empty = (frames.count == 120 ? frames[60]["frame"] : nil) as? [String: Int]
        #expect(empty.map { [$0["y"], $0["w"], $0["h"]] } == [1, 1, 1])
        #expect((frames.first?["frame"] as? [String: Int]).map { [$0["w"], $0["h"]] } == [54, 54])
        #expect(frames.first?["sourceSize"] as? [String: Int] == ["w": 64, "h": 64])
        // One row: every frame at the same y; the sheet is the tallest trimmed frame plus the
        // extrusion above and below, and the widths plus two extruded columns each.
        let rects = frames.compactMap { $0["frame"] as? [String: Int] }
        #expect(Set(rects.compactMap { $0["y"] }) == [1])
        let sheet = try PNGCodec.decode([UInt8](Data(contentsOf: URL(fileURLWithPath: dir + "/s.png"))))
        #expect(sheet.height == (rects.compactMap { $0["h"] }.max() ?? 0) + 2)
        #expect(sheet.width == rects.compactMap { $0["w"] }.reduce(0, +) + 2 * 120)
        #expect(sheet.height < 64 && sheet.width < 120 * 66)
    }

    @Test func ditherAndSheetColoursAreAccepted() throws {
        let dir = try temporaryDirectory()
        let run = try runTool(
            [Self.circular, "-o", "d.gif", "-o", "d.png", "--dither", "fs", "--sheet-colors", "16"], in: dir)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        // 16 colours: the sheet is a 4-bit palette PNG (IHDR bit depth 4, colour type 3).
        let png = try [UInt8](Data(contentsOf: URL(fileURLWithPath: dir + "/d.png")))
        #expect(Array(png[24..<26]) == [4, 3])
        let gif = try GIFDecoder.decode([UInt8](Data(contentsOf: URL(fileURLWithPath: dir + "/d.gif"))))
        #expect(gif.frames.map(\.delay).reduce(0, +) == 400)
    }

    @Test func lossyReachesTheGIF() throws {
        let dir = try temporaryDirectory()
        let exact = try runTool([Self.circular, "-o", "e.gif"], in: dir)
        let lossy = try runTool([Self.circular, "-o", "l.gif", "--lossy", "8"], in: dir)
        #expect(exact.status == 0 && lossy.status == 0, "stderr: \(lossy.stderr)")
        let e = try [UInt8](Data(contentsOf: URL(fileURLWithPath: dir + "/e.gif")))
        let l = try [UInt8](Data(contentsOf: URL(fileURLWithPath: dir + "/l.gif")))
        #expect(l.count < e.count)
        let exactFrames = try GIFDecoder.decode(e).frames
        let lossyFrames = try GIFDecoder.decode(l).frames
        #expect(lossyFrames.map(\.delay).reduce(0, +) == 400)
        // Frames the screen already shows within 8 levels merge, so each exact frame is
        // compared with the lossy frame shown at its start: within 8 levels, alpha exact.
        #expect(lossyFrames.count <= exactFrames.count)
        var lossyEnds: [Int] = []
        for frame in lossyFrames { lossyEnds.append((lossyEnds.last ?? 0) + frame.delay) }
        var worst = 0
        var start = 0
        for a in exactFrames {
            defer { start += a.delay }
            let b = lossyFrames[lossyEnds.firstIndex { $0 > start } ?? lossyFrames.count - 1]
            for i in 0..<a.canvas.pixels.count {
                let d = abs(Int(a.canvas.pixels[i]) - Int(b.canvas.pixels[i]))
                if i % 4 == 3 { #expect(d == 0) } else { worst = max(worst, d) }
            }
        }
        #expect(worst > 0 && worst <= 8)
    }
}
