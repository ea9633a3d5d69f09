import AnimexportCLI
import Encode
import Export
import Foundation
import Raster
import Render
import Spec
import Testing
import Timeline

/// End to end: the real binary renders the bundled circular preset; the GIF is decoded by
/// giflib (our reader) and by Pillow, and the sheet is compared with directly rendered frames.
@Suite(.serialized) struct CircularLoaderTests {
    static let preset = packageRoot + "/presets/circular.json"

    /// Pixel on the ring (radius 25 around (32, 32)) at `degrees` clockwise from 3 o'clock.
    static func ringPixel(_ image: RGBAImage, degrees: Double) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        let radians = degrees * .pi / 180
        let x = Int((32 + 25 * cos(radians)).rounded(.down))
        let y = Int((32 + 25 * sin(radians)).rounded(.down))
        return image[x, y]
    }

    static func isBlue(_ p: (r: UInt8, g: UInt8, b: UInt8, a: UInt8)) -> Bool {
        p.a == 255 && p.r < 40 && abs(Int(p.g) - 122) < 30 && p.b > 230
    }

    @Test func gifDecodesWithExactTimingLoopAndRing() throws {
        let dir = try temporaryDirectory()
        let run = try runTool([Self.preset, "-o", "loader.gif"], in: dir)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(run.stderr.isEmpty, "a matte is set, so no edge warning: \(run.stderr)")
        #expect(listing(dir) == ["loader.gif"])
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: dir + "/loader.gif")))
        let gif = try GIFDecoder.decode(bytes)

        #expect(gif.width == 64 && gif.height == 64)
        #expect(gif.frames.count == 120)
        #expect(gif.loopCount == 0)
        // 30 fps cut by cumulative rounding: 3, 4, 3, 3, 4, 3, … summing to exactly 400 cs.
        let expected = (0..<120).map { i in
            Int((100.0 * Double(i + 1) / 30).rounded()) - Int((100.0 * Double(i) / 30).rounded())
        }
        #expect(gif.frames.map(\.delay) == expected)
        #expect(Array(gif.frames.map(\.delay).prefix(6)) == [3, 4, 3, 3, 4, 3])
        #expect(gif.frames.map(\.delay).reduce(0, +) == 400)
        #expect(gif.frames.allSatisfy { $0.transparentIndex != nil })

        // The seed's Timer phases (issue 16): ticks every 2 s from t = 2, so the loop is cut
        // from t = 8 s, when a shrink phase starts; the ring turns 360° every 4 s from t = 0.
        // t = 8 s (frame 0): strokeStart 0 → 1 starts, strokeEnd = 1: the full ring.
        for angle in stride(from: 0.0, to: 360, by: 30) {
            #expect(Self.isBlue(Self.ringPixel(gif.frames[0].canvas, degrees: angle)))
        }

        // t = 9 s (frame 30): strokeStart = easeOut(0.5) = 0.6846, strokeEnd = 1; the ring has
        // turned 90° from 12 o'clock, so the stroke covers 0.6846 · 360° = 246.5° … 360°.
        let f30 = gif.frames[30].canvas
        for angle in [260.0, 300, 350] {
            #expect(Self.isBlue(Self.ringPixel(f30, degrees: angle)), "frame 30 at \(angle)°")
        }
        for angle in [210.0, 20, 90, 150] {
            #expect(Self.ringPixel(f30, degrees: angle).a == 0, "frame 30 at \(angle)° should be empty")
        }
        // Centre and corners stay transparent.
        #expect(f30[32, 32].a == 0)
        #expect(f30[0, 0].a == 0)

        // t = 10 s (frame 60): the tick jumps (1, 1) to (0, 0) and a grow starts: nothing drawn.
        #expect(gif.frames[60].canvas.pixels.allSatisfy { $0 == 0 })

        // t = 11 s (frame 90): strokeEnd = 0.6846 from a start the rotation (270°) puts at
        // 9 o'clock: the stroke covers 180° … 180° + 246.5° = 66.5°. Every grow phase starts at
        // 6 o'clock (t = 10: turned 180°), not 12.
        let f90 = gif.frames[90].canvas
        for angle in [190.0, 225, 270, 0, 55] {
            #expect(Self.isBlue(Self.ringPixel(f90, degrees: angle)), "frame 90 at \(angle)°")
        }
        for angle in [85.0, 120, 150, 170] {
            #expect(Self.ringPixel(f90, degrees: angle).a == 0, "frame 90 at \(angle)°")
        }
    }

    @Test func pillowAgreesIndependently() throws {
        let dir = try temporaryDirectory()
        let run = try runTool([Self.preset, "-o", "loader.gif"], in: dir)
        #expect(run.status == 0)
        let script = """
            import sys
            from PIL import Image
            im = Image.open(sys.argv[1])
            durations, frames = [], []
            for i in range(im.n_frames):
                im.seek(i)
                durations.append(im.info["duration"])
                frames.append(im.convert("RGBA"))
            print(im.n_frames, im.size[0], im.size[1], im.info.get("loop"), sum(durations))
            print(",".join(str(d) for d in durations[:6]))
            print(frames[90].getpixel((57, 32)), frames[90].getpixel((32, 57))[3], frames[60].getpixel((57, 32))[3])
            """
        let result = try runPython(script, arguments: [dir + "/loader.gif"])
        #expect(result.status == 0, "python: \(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "120 64 64 0 4000")
        #expect(lines.dropFirst().first == "30,40,30,30,40,30")
        // (57, 32) is 3 o'clock on the ring: painted in frame 90 (t = 11 s), where (32, 57), 6 o'clock,
        // is empty; frame 60 (t = 10 s) draws nothing.
        #expect(lines.last == "(0, 122, 255, 255) 0 0", "\(lines)")
    }

    @Test func sheetCellsEqualRenderedFramesAndDurationsSum() throws {
        let dir = try temporaryDirectory()
        let run = try runTool([Self.preset, "-o", "sheet.png", "--columns", "12", "--padding", "2"], in: dir)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        #expect(listing(dir) == ["sheet.json", "sheet.png"])
        let sheet = try PNGCodec.decode([UInt8](Data(contentsOf: URL(fileURLWithPath: dir + "/sheet.png"))))
        let jsonData = try Data(contentsOf: URL(fileURLWithPath: dir + "/sheet.json"))
        let json = try JSONSerialization.jsonObject(with: jsonData) as? [String: Any]
        let hash = json?["frames"] as? [String: [String: Any]] ?? [:]
        let frames = (0..<hash.count).compactMap { hash[String($0)] }
        let meta = json?["meta"] as? [String: Any] ?? [:]
        #expect(frames.count == 120)
        #expect(frames.compactMap { $0["duration"] as? Int }.reduce(0, +) == 4000)
        #expect(meta["image"] as? String == "sheet.png")
        #expect((meta["size"] as? [String: Int]) == ["w": sheet.width, "h": sheet.height])
        #expect((meta["frameTags"] as? [[String: Any]])?.first?["to"] as? Int == 119)
        // 12 columns of 64 px with 2 px padding around every cell: 12·64 + 13·2 = 794.
        #expect(sheet.width == 794)
        #expect(sheet.height == 10 * 64 + 11 * 2)

        let composition = try PresetLoader.load(contentsOf: Self.preset).composition
        let rendered = try Exporter.render(composition, fps: 30)
        for (i, frame) in frames.enumerated() {
            let rect = frame["frame"] as? [String: Int] ?? [:]
            guard let x = rect["x"], let y = rect["y"], rect["w"] == 64, rect["h"] == 64 else {
                Issue.record("frame \(i) has a bad rect \(rect)")
                continue
            }
            var cell = RGBAImage(width: 64, height: 64)
            for row in 0..<64 {
                let from = sheet.offset(x: x, y: y + row)
                let to = cell.offset(x: 0, y: row)
                cell.pixels[to..<(to + 256)] = sheet.pixels[from..<(from + 256)]
            }
            #expect(cell == rendered.frames[i], "cell \(i) differs from the rendered frame")
        }
    }

    @Test func bytesAreStableAcrossRuns() throws {
        let dir = try temporaryDirectory()
        _ = try runTool([Self.preset, "-o", "a.gif", "-o", "a.png"], in: dir)
        _ = try runTool(
            [Self.preset, "-o", "b.gif", "-o", "b.png"], in: dir,
            environment: ["TZ": "Asia/Tokyo", "LC_ALL": "de_DE.UTF-8"])
        let read = { (name: String) in try Data(contentsOf: URL(fileURLWithPath: dir + "/" + name)) }
        #expect(try read("a.gif") == read("b.gif"))
        #expect(try read("a.png") == read("b.png"))
        let jsonA = try String(decoding: read("a.json"), as: UTF8.self).replacingOccurrences(of: "a.png", with: "X")
        let jsonB = try String(decoding: read("b.json"), as: UTF8.self).replacingOccurrences(of: "b.png", with: "X")
        #expect(jsonA == jsonB)
    }
}
