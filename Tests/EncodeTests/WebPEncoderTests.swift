// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Raster
import Synchronization
import Testing

@_spi(Measure) @testable import Encode

/// Animated WebP through libwebp, checked with decoders that share nothing with our code path
/// but libwebp's decoder: Pillow (WebPAnimDecoder), ImageMagick's webp coder, and `webpinfo`
/// for the container structure.
@Suite struct WebPEncoderTests {
    // MARK: Samples

    /// 30 frames over 1 s: a square with an alpha ramp sliding right over a transparent canvas,
    /// a still stretch (frames 10–14 identical, merged by libwebp), and a frame that clears to
    /// fully transparent (the encoder must dispose or overwrite, not blend).
    static func sliding(width: Int = 40, height: Int = 24) -> [RGBAImage] {
        (0..<30).map { k in
            let still = (10...14).contains(k)
            let x0 = still ? 10 : k
            return makeImage(width: width, height: height) { x, y in
                if k == 20 { return .clear }
                guard (x0..<x0 + 12).contains(x), (4..<18).contains(y) else { return .clear }
                let alpha = UInt8(40 + (x - x0) * 18)
                return Pixel(UInt8(200 - y * 3), UInt8(x * 5), UInt8(still ? 100 : 90 + k), alpha)
            }
        }
    }

    /// A white disc fading from opaque to alpha 0 over `count` frames (straight alpha: its
    /// colour stays white, its alpha falls), with a soft edge.
    static func fadingDisc(count: Int = 12, side: Int = 32) -> [RGBAImage] {
        (0..<count).map { k in
            let opacity = 1 - Double(k) / Double(count - 1)
            return makeImage(width: side, height: side) { x, y in
                let dx = Double(x) - 15.5
                let dy = Double(y) - 15.5
                let edge = min(1, max(0, 12 - (dx * dx + dy * dy).squareRoot()))
                let alpha = UInt8((255 * edge * opacity).rounded())
                return alpha == 0 ? .clear : Pixel(255, 255, 255, alpha)
            }
        }
    }

    /// Photographic-ish content for lossy quality: smooth waves moving 5 px a frame plus a fixed
    /// ±6-level grain (so lossless has to pay for the grain), a half-transparent band on top.
    static func waves(count: Int = 8) -> [RGBAImage] {
        (0..<count).map { k in
            makeImage(width: 64, height: 48) { x, y in
                let u = Double(x + 5 * k)
                let v = Double(y)
                var hash = UInt32(truncatingIfNeeded: x &* 73_856_093 ^ y &* 19_349_663)
                hash = (hash ^ (hash >> 13)) &* 0x5bd1_e995
                let grain = Double(Int(hash >> 24) % 13 - 6)
                func level(_ value: Double) -> UInt8 { UInt8(max(0, min(255, value + grain)).rounded()) }
                return Pixel(
                    level(128 + 70 * sin(u / 7)), level(120 + 60 * cos(v / 6 + u / 11)),
                    level(100 + 50 * sin((u + v) / 9)),
                    y < 6 ? 128 : 255)
            }
        }
    }

    // MARK: Decoders

    /// Pillow's view of a WebP: loop, frame count, and per frame its duration and RGBA bytes.
    struct PillowWebP {
        var loop: Int
        var durations: [Int]
        var frames: [RGBAImage]
    }

    static func pillow(_ bytes: [UInt8], width: Int, height: Int) throws -> PillowWebP {
        let path = try temporaryFile(bytes, named: "a.webp")
        let script = """
            import sys, json
            from PIL import Image
            im = Image.open(sys.argv[1])
            assert im.format == "WEBP", im.format
            durations = []
            out = sys.stdout.buffer
            for i in range(im.n_frames):
                im.seek(i)
                im.load()
                durations.append(im.info["duration"])
                out.write(im.convert("RGBA").tobytes())
            sys.stderr.write(json.dumps({"loop": im.info.get("loop"), "durations": durations}))
            """
        // stderr carries the JSON, so it is not an error here.
        let run = try runProgram("/usr/bin/python3", ["-c", script, path])
        guard run.status == 0,
            let json = try JSONSerialization.jsonObject(with: Data(run.stderr.utf8)) as? [String: Any],
            let loop = json["loop"] as? Int, let durations = json["durations"] as? [Int]
        else { throw EncodeError("Pillow failed: exit \(run.status), \(run.stderr)") }
        let size = width * height * 4
        let bytes = [UInt8](run.stdout)
        guard bytes.count == size * durations.count else { throw EncodeError("Pillow gave \(bytes.count) bytes") }
        let frames = stride(from: 0, to: bytes.count, by: size).compactMap {
            RGBAImage(width: width, height: height, pixels: Array(bytes[$0..<$0 + size]))
        }
        return PillowWebP(loop: loop, durations: durations, frames: frames)
    }

    /// `webpinfo`'s report, which also validates every chunk ("No error detected.").
    static func webpinfo(_ bytes: [UInt8]) throws -> String {
        let path = try temporaryFile(bytes, named: "a.webp")
        let run = try runProgram("/usr/bin/webpinfo", [path])
        let text = String(decoding: run.stdout, as: UTF8.self)
        guard run.status == 0, text.contains("No error detected.") else {
            throw EncodeError("webpinfo: exit \(run.status): \(text) \(run.stderr)")
        }
        return text
    }

    /// The expected display: consecutive identical frames merged, their durations summed.
    static func merged(_ frames: [RGBAImage], _ durations: [Int]) -> (frames: [RGBAImage], durations: [Int]) {
        var outFrames: [RGBAImage] = []
        var outDurations: [Int] = []
        for (frame, duration) in zip(frames, durations) {
            if let last = outFrames.last, visibleDifferences(last, frame) == 0 {
                outDurations[outDurations.count - 1] += duration
            } else {
                outFrames.append(frame)
                outDurations.append(duration)
            }
        }
        return (outFrames, outDurations)
    }

    /// `image` composited over an opaque `page` colour, per channel `round(c·a/255 + p·(1 − a/255))`.
    static func composite(_ image: RGBAImage, on page: (Int, Int, Int)) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(image.pixels.count / 4 * 3)
        let p = [page.0, page.1, page.2]
        for i in stride(from: 0, to: image.pixels.count, by: 4) {
            let a = Int(image.pixels[i + 3])
            for c in 0..<3 {
                out.append(UInt8((Int(image.pixels[i + c]) * a + p[c] * (255 - a) + 127) / 255))
            }
        }
        return out
    }

    // MARK: Lossless

    @Test(arguments: WebPEffort.allCases)
    func losslessFramesDecodeToTheInputExactly(effort: WebPEffort) throws {
        let frames = Self.sliding()
        let encoding = try WebPEncoder.encode(
            try FrameArray(frames, batchSize: 4), period: 1, options: WebPOptions(effort: effort))
        let expected = Self.merged(frames, FrameTiming.millisecondDurations(period: 1, frameCount: 30))
        // Frames 10–14 are one frame in the file.
        #expect(expected.frames.count == 26)
        #expect(encoding.frameCount == expected.frames.count)

        let decoded = try Self.pillow(encoding.bytes, width: 40, height: 24)
        #expect(decoded.frames.count == expected.frames.count)
        for (i, (got, want)) in zip(decoded.frames, expected.frames).enumerated() {
            // Alpha exact everywhere, colour exact wherever alpha > 0.
            #expect(visibleDifferences(got, want) == 0, "frame \(i)")
        }
        #expect(decoded.durations == expected.durations)
        #expect(decoded.durations.reduce(0, +) == 1000)
    }

    @Test func imageMagickDecodesOpaqueFramesTheSame() throws {
        // Debian's ImageMagick 6.9.11 has the webp delegate (libwebp 1.2.4) and reads animations,
        // but its reader composites every frame "over" the canvas, ignoring the ANMF blending bit
        // ("do not blend"): libwebp writes translucent changes unblended, and IM then differs from
        // Pillow (libwebp's WebPAnimDecoder) on them (54 of circular's 120 frames). On opaque frames
        // both readings agree, so this holds ImageMagick to exactness there.
        let frames = (0..<12).map { k in
            makeImage(width: 40, height: 24) { x, y in
                (k * 2..<k * 2 + 9).contains(x) && (5..<15).contains(y)
                    ? Pixel(UInt8(30 + x * 4), 200, UInt8(y * 9)) : Pixel(28, 28, 30)
            }
        }
        let encoding = try WebPEncoder.encode(try FrameArray(frames), period: 0.5, options: WebPOptions())
        #expect(encoding.frameCount == 12)
        let path = try temporaryFile(encoding.bytes, named: "a.webp")
        let run = try runProgram("/usr/bin/convert", [path, "-coalesce", "-depth", "8", "rgba:-"])
        #expect(run.status == 0, "\(run.stderr)")
        let size = 40 * 24 * 4
        let bytes = [UInt8](run.stdout)
        #expect(bytes.count == size * frames.count)
        for (i, want) in frames.enumerated() where bytes.count >= (i + 1) * size {
            #expect(Array(bytes[i * size..<(i + 1) * size]) == want.pixels, "frame \(i)")
        }
    }

    @Test func fadingDiscShowsNoGreyDiscOnAnyPage() throws {
        // The complaint: a disc fading to alpha 0 became an opaque grey disc on black in
        // GIF. Lossless WebP keeps the alpha, so on black, white and #1C1C1E the decoded frame
        // composites exactly as the rendered one does.
        let frames = Self.fadingDisc()
        let encoding = try WebPEncoder.encode(try FrameArray(frames), period: 0.6, options: WebPOptions())
        let decoded = try Self.pillow(encoding.bytes, width: 32, height: 32)
        #expect(decoded.frames.count == frames.count)
        for page in [(0, 0, 0), (255, 255, 255), (0x1C, 0x1C, 0x1E)] {
            for (i, (got, want)) in zip(decoded.frames, frames).enumerated() {
                #expect(Self.composite(got, on: page) == Self.composite(want, on: page), "frame \(i) on \(page)")
            }
        }
        // The last frame is fully transparent: on black it is black, not grey.
        let last = Self.composite(decoded.frames[frames.count - 1], on: (0, 0, 0))
        #expect(last.allSatisfy { $0 == 0 })
        // Half way, the disc's centre is half-transparent white: grey on black, ≈ 128.
        let middle = decoded.frames[frames.count / 2]
        #expect(abs(Int(pixel(middle, 16, 16).a) - 116) <= 1)
    }

    // MARK: Container

    @Test func webpinfoSeesAnAnimationWithTheLoopCountAndDurations() throws {
        let frames = Self.sliding()
        for (loop, written) in [(LoopCount.forever, 0), (.plays(1), 1), (.plays(3), 3), (.plays(65_535), 65_535)] {
            let encoding = try WebPEncoder.encode(try FrameArray(frames), period: 1, options: WebPOptions(loop: loop))
            let info = try Self.webpinfo(encoding.bytes)
            #expect(info.contains("Animation: 1"))
            #expect(info.contains("Canvas size 40 x 24"))
            #expect(info.contains("Chunk ANIM"))
            #expect(info.contains("Loop count      : \(written)\n"), "\(loop)")
            #expect(info.components(separatedBy: "Chunk ANMF").count - 1 == encoding.frameCount)
            let durations = info.split(separator: "\n").compactMap { line -> Int? in
                let parts = line.split(separator: ":")
                guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == "Duration" else { return nil }
                return Int(parts[1].trimmingCharacters(in: .whitespaces))
            }
            #expect(
                durations == Self.merged(frames, FrameTiming.millisecondDurations(period: 1, frameCount: 30)).durations)
            #expect(durations.reduce(0, +) == 1000)
            #expect(try Self.pillow(encoding.bytes, width: 40, height: 24).loop == written)
        }
    }

    @Test func timestampsComeFromCumulativeRounding() throws {
        // 1 s at 30 fps: 33, 34, 33, … totalling exactly 1000 ms; frames all differ.
        let frames = (0..<30).map { k in
            makeImage(width: 8, height: 8) { x, _ in x == k % 8 ? Pixel(9, 9, UInt8(k)) : .clear }
        }
        let encoding = try WebPEncoder.encode(try FrameArray(frames), period: 1, options: WebPOptions())
        #expect(encoding.timestamps.count == 31)
        #expect(encoding.timestamps.first == 0)
        #expect(encoding.timestamps.last == 1000)
        #expect(encoding.durations == FrameTiming.millisecondDurations(period: 1, frameCount: 30))
        #expect(Set(encoding.durations) == [33, 34])
        #expect(encoding.frameCount == 30)
        #expect(try Self.pillow(encoding.bytes, width: 8, height: 8).durations == encoding.durations)
    }

    // MARK: Lossy

    @Test func lossyStaysWithinPSNRBoundAndIsSmaller() throws {
        let frames = Self.waves()
        let lossless = try WebPEncoder.encode(try FrameArray(frames), period: 0.4, options: WebPOptions())
        let lossy = try WebPEncoder.encode(try FrameArray(frames), period: 0.4, options: WebPOptions(quality: 90))
        #expect(lossy.bytes.count < lossless.bytes.count)
        let info = try Self.webpinfo(lossy.bytes)
        // Hundreds of colours per frame: libwebp's mixed mode only tries lossy (more than 194).
        #expect(info.contains("Format: Lossy (1)"))
        #expect(!info.contains("Format: Lossless (2)"))
        let decoded = try Self.pillow(lossy.bytes, width: 64, height: 48)
        #expect(decoded.frames.count == frames.count)
        for (i, (got, want)) in zip(decoded.frames, frames).enumerated() {
            // Colour: PSNR over RGB ≥ 30 dB (measured 36–37 dB at quality 90).
            #expect(psnr(got, want) >= 30, "frame \(i): \(psnr(got, want)) dB")
            // Alpha (two levels here) survives alpha_quality 90 within a few levels.
            let alphaError =
                stride(from: 3, to: got.pixels.count, by: 4).map {
                    abs(Int(got.pixels[$0]) - Int(want.pixels[$0]))
                }.max() ?? 0
            #expect(alphaError <= 8, "frame \(i)")
        }
    }

    // MARK: Determinism and streaming

    @Test(arguments: [WebPEffort.default, .max])
    func bytesDoNotDependOnTheWorkerCount(effort: WebPEffort) throws {
        for (name, frames, quality) in [
            ("sliding", Self.sliding(), nil), ("disc", Self.fadingDisc(), nil), ("waves lossy", Self.waves(), 60),
        ] as [(String, [RGBAImage], Int?)] {
            let source = try FrameArray(frames, batchSize: 3)
            let single = try WebPEncoder.encode(
                source, period: 1.2, options: WebPOptions(quality: quality, effort: effort, workers: 1))
            for workers in [2, 3, 8] {
                let parallel = try WebPEncoder.encode(
                    source, period: 1.2, options: WebPOptions(quality: quality, effort: effort, workers: workers))
                #expect(parallel == single, "\(name), \(effort), \(workers) workers")
            }
        }
    }

    /// Lossless `.default` runs one encoder, the method frame 0 prefers (`Choice.byFirstFrame`):
    /// its file is byte for byte that method's alone, and the method is the one whose still
    /// `cwebp -lossless -exact -q 75` (Debian webp, the same libwebp, a different program)
    /// writes smaller for frame 0, method 4 on a tie. The samples cover the three outcomes: linear
    /// colour ramps with a product term are smaller in method 3, smooth sine planes in method 4,
    /// the sliding square and the fading disc tie. Frames under `WebPEncoder.probePixels` take
    /// method 4 without asking: the small ramps, where cwebp's method 3 still is smaller.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/cwebp"), "needs cwebp (Debian webp)"))
    func defaultEncodesWithTheMethodFrameZeroPrefers() throws {
        var picked: [String: Int32] = [:]
        // Linear colour ramps with a product term (method 3's kind of frame, like arc-rotation's)
        // and smooth sine planes (method 4's), both moving over 6 frames.
        func ramps(_ width: Int, _ height: Int, steps: (x: Int, y: Int)) -> [RGBAImage] {
            (0..<6).map { k in
                makeImage(width: width, height: height) { x, y in
                    Pixel(
                        UInt8((x * steps.x + 8 * k) % 256), UInt8(y * steps.y % 256), UInt8((x * y + k) % 256), 255)
                }
            }
        }
        let planes = (0..<6).map { k in
            makeImage(width: 160, height: 120) { x, y in
                let u = Double(x + 3 * k)
                let v = Double(y)
                return Pixel(
                    UInt8(Int(128 + 127 * sin(u / 5))), UInt8(Int(128 + 127 * cos(v / 7))),
                    UInt8(Int(128 + 100 * sin((u + v) / 9))), 255)
            }
        }
        for (name, frames) in [
            ("sliding", Self.sliding()), ("disc", Self.fadingDisc()), ("ramps", ramps(160, 120, steps: (2, 2))),
            ("planes", planes), ("small ramps", ramps(64, 48, steps: (4, 5))),
        ] {
            let png = try temporaryFile(PNGCodec.encode(frames[0]), named: "\(name)-0.png")
            var still: [Int32: Int] = [:]
            for method: Int32 in [3, 4] {
                let run = try runProgram(
                    "/usr/bin/cwebp", ["-quiet", "-lossless", "-exact", "-q", "75", "-m", "\(method)", png, "-o", "-"])
                #expect(run.status == 0, "\(run.stderr)")
                still[method] = run.stdout.count
            }
            let smaller: Int32 = (still[3] ?? 0) < (still[4] ?? 0) ? 3 : 4
            let probed = frames[0].width * frames[0].height >= WebPEncoder.probePixels
            if name == "small ramps" { #expect(!probed && smaller == 3, "\(still)") }
            let method = probed ? smaller : 4
            picked[name] = method
            let source = try FrameArray(frames)
            let chosen = try WebPEncoder.encode(source, period: 1, options: WebPOptions())
            let alone = try WebPEncoder.encode(
                source, period: 1, options: WebPOptions(),
                tunings: [
                    WebPEncoder.Tuning(
                        method: method, losslessEffort: 75, minimizeSize: false, kmin: 0, kmax: 0, allowMixed: false,
                        exact: true, threadLevel: 0)
                ])
            #expect(chosen == alone, "\(name): frame 0's stills \(still), method \(method)")
        }
        #expect(picked == ["sliding": 4, "disc": 4, "ramps": 3, "planes": 4, "small ramps": 4], "\(picked)")
    }

    @Test func maxEffortIsNeverLargerThanDefault() throws {
        for frames in [Self.sliding(), Self.fadingDisc()] {
            let normal = try WebPEncoder.encode(try FrameArray(frames), period: 1, options: WebPOptions())
            let max = try WebPEncoder.encode(try FrameArray(frames), period: 1, options: WebPOptions(effort: .max))
            #expect(max.bytes.count <= normal.bytes.count)
        }
    }

    /// A source that records what it was asked for.
    final class RecordingSource: FrameSource, @unchecked Sendable {
        let images: [RGBAImage]
        let batchSize: Int
        let asked = Mutex<[Range<Int>]>([])
        let failAt: Int?
        init(_ images: [RGBAImage], batchSize: Int, failAt: Int? = nil) {
            self.images = images
            self.batchSize = batchSize
            self.failAt = failAt
        }
        var frameCount: Int { images.count }
        var width: Int { images[0].width }
        var height: Int { images[0].height }
        func frames(_ range: Range<Int>) throws -> [RGBAImage] {
            asked.withLock { $0.append(range) }
            if let failAt, range.contains(failAt) { throw FrameSourceError("frame \(failAt) failed") }
            return Array(images[range])
        }
    }

    @Test func framesAreTakenOneBatchAtATimeInOrder() throws {
        let source = RecordingSource(Self.sliding(), batchSize: 7)
        let streamed = try WebPEncoder.encode(source, period: 1, options: WebPOptions())
        #expect(source.asked.withLock { $0 } == [0..<7, 7..<14, 14..<21, 21..<28, 28..<30])
        #expect(streamed == (try WebPEncoder.encode(try FrameArray(Self.sliding()), period: 1, options: WebPOptions())))
    }

    // MARK: Refusals

    @Test func badArgumentsAndSourceErrorsAreReported() throws {
        let frames = Self.sliding()
        // 30 frames in 0.3 s are 10 ms each, which browsers would play as 100 ms.
        #expect(throws: EncodeError.self) {
            try WebPEncoder.encode(try FrameArray(frames), period: 0.3, options: WebPOptions())
        }
        #expect(throws: EncodeError.self) {
            try WebPEncoder.encode(try FrameArray(frames), period: .nan, options: WebPOptions())
        }
        #expect(throws: EncodeError("WebP quality 101 is outside 0…100")) {
            try WebPEncoder.encode(try FrameArray(frames), period: 1, options: WebPOptions(quality: 101))
        }
        #expect(throws: EncodeError("loop count 65536 is out of range: a WebP plays 1…65535 times or forever")) {
            try WebPEncoder.encode(try FrameArray(frames), period: 1, options: WebPOptions(loop: .plays(65_536)))
        }
        #expect(throws: EncodeError.self) {
            try WebPEncoder.encode(
                try FrameArray([RGBAImage(width: 16_384, height: 1)]), period: 1, options: WebPOptions())
        }
        #expect(throws: FrameSourceError("frame 9 failed")) {
            try WebPEncoder.encode(RecordingSource(frames, batchSize: 4, failAt: 9), period: 1, options: WebPOptions())
        }
        // A source whose frames are not the size it announced.
        let liar = RecordingSource([frames[0], RGBAImage(width: 3, height: 3)], batchSize: 2)
        #expect(throws: EncodeError("frame 1 is 3×3, expected 40×24")) {
            try WebPEncoder.encode(liar, period: 1, options: WebPOptions())
        }
    }
}
