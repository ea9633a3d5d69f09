// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Raster
import Testing

@_spi(Measure) @testable import Encode

/// One chunk as the test's own walker reads it (PNG specification §5.3).
private struct WalkedChunk {
    var type: String
    var data: [UInt8]
}

/// What an APNG's chunks say (APNG specification), read without any encoder code.
private struct WalkedAPNG {
    struct FrameControl {
        var sequence: UInt32
        var width: Int
        var height: Int
        var x: Int
        var y: Int
        var delayNumerator: Int
        var delayDenominator: Int
        var dispose: UInt8
        var blend: UInt8
    }

    var chunks: [WalkedChunk] = []
    var numFrames: UInt32 = 0
    var numPlays: UInt32 = 0
    var controls: [FrameControl] = []
    /// Every fcTL and fdAT sequence number in file order.
    var sequences: [UInt32] = []
    var colorType: UInt8 = 0
    var bitDepth: UInt8 = 0
    var width = 0
    var height = 0

    static func be32(_ b: ArraySlice<UInt8>) -> UInt32 {
        let s = b.startIndex
        return UInt32(b[s]) << 24 | UInt32(b[s + 1]) << 16 | UInt32(b[s + 2]) << 8 | UInt32(b[s + 3])
    }

    /// Bit-by-bit CRC-32 (PNG specification Annex D), no table, so it shares nothing with the encoder's.
    static func crc(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            c ^= UInt32(byte)
            for _ in 0..<8 { c = (c >> 1) ^ (c & 1 == 1 ? 0xEDB8_8320 : 0) }
        }
        return ~c
    }

    /// Parses `bytes`, recording an issue for every bad CRC or structural rule broken.
    init(_ bytes: [UInt8]) {
        #expect(Array(bytes.prefix(8)) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        var offset = 8
        while offset + 12 <= bytes.count {
            let length = Int(Self.be32(bytes[offset..<(offset + 4)]))
            let typeAndData = Array(bytes[(offset + 4)..<(offset + 8 + length)])
            let stored = Self.be32(bytes[(offset + 8 + length)..<(offset + 12 + length)])
            #expect(Self.crc(typeAndData) == stored, "CRC of chunk at \(offset)")
            chunks.append(
                WalkedChunk(
                    type: String(decoding: typeAndData.prefix(4), as: UTF8.self), data: Array(typeAndData.dropFirst(4)))
            )
            offset += 12 + length
        }
        #expect(offset == bytes.count, "bytes after the last chunk")
        #expect(chunks.first?.type == "IHDR")
        #expect(chunks.last?.type == "IEND")
        let types = chunks.map(\.type)
        if let actl = types.firstIndex(of: "acTL"), let idat = types.firstIndex(of: "IDAT"),
            let fctl = types.firstIndex(of: "fcTL")
        {
            #expect(actl < idat, "acTL before IDAT")
            #expect(fctl < idat, "frame 0's fcTL before IDAT: the default image is frame 0")
        } else {
            Issue.record("acTL, fcTL or IDAT missing: \(types)")
        }
        for chunk in chunks {
            let d = chunk.data[...]
            switch chunk.type {
            case "IHDR":
                width = Int(Self.be32(d[0..<4]))
                height = Int(Self.be32(d[4..<8]))
                bitDepth = d[8]
                colorType = d[9]
            case "acTL":
                numFrames = Self.be32(d[0..<4])
                numPlays = Self.be32(d[4..<8])
            case "fcTL":
                #expect(chunk.data.count == 26)
                let control = FrameControl(
                    sequence: Self.be32(d[0..<4]), width: Int(Self.be32(d[4..<8])), height: Int(Self.be32(d[8..<12])),
                    x: Int(Self.be32(d[12..<16])), y: Int(Self.be32(d[16..<20])),
                    delayNumerator: Int(d[20]) << 8 | Int(d[21]), delayDenominator: Int(d[22]) << 8 | Int(d[23]),
                    dispose: d[24], blend: d[25])
                #expect(control.x + control.width <= width && control.y + control.height <= height)
                #expect(control.width > 0 && control.height > 0)
                #expect(control.dispose <= 2 && control.blend <= 1)
                controls.append(control)
                sequences.append(control.sequence)
            case "fdAT":
                sequences.append(Self.be32(d[0..<4]))
            default: break
            }
        }
        #expect(sequences == (0..<UInt32(sequences.count)).map { $0 }, "sequence numbers 0, 1, 2, … in order")
        #expect(Int(numFrames) == controls.count, "acTL num_frames = fcTL count")
        if let first = controls.first {
            #expect(first.x == 0 && first.y == 0 && first.width == width && first.height == height)
        }
    }
}

/// A disc that fades from opaque to fully transparent: one colour at many alphas (indexed).
private func fadingDisc(frames: Int, size: Int = 24) -> [RGBAImage] {
    (0..<frames).map { i in
        let fade = 1 - Double(i) / Double(frames - 1)
        return makeImage(width: size, height: size) { x, y in
            let dx = Double(x) + 0.5 - Double(size) / 2
            let dy = Double(y) + 0.5 - Double(size) / 2
            let coverage = min(1, max(0, Double(size) / 2 - 2 - (dx * dx + dy * dy).squareRoot() + 0.5))
            let alpha = UInt8((255 * coverage * fade).rounded())
            // Transparent pixels carry junk colours: they must count as one.
            return alpha == 0 ? Pixel(UInt8(x * 9 % 256), 7, 99, 0) : Pixel(40, 160, 250, alpha)
        }
    }
}

/// An opaque square moving over a transparent canvas past a still bar; frames 3, 4, 5 equal.
private func movingSquare() -> [RGBAImage] {
    let positions = [0, 3, 6, 9, 9, 9, 12, 15, 18, 14, 8, 2]
    return positions.map { p in
        makeImage(width: 32, height: 20) { x, y in
            if x >= p && x < p + 8 && y >= 4 && y < 12 { return Pixel(230, 40, 40) }
            if y >= 16 { return Pixel(20, 20, 20, 128) }
            return Pixel.clear
        }
    }
}

/// More than 256 colours with partial alpha everywhere (truecolour with alpha).
private func gradient(frames: Int) -> [RGBAImage] {
    (0..<frames).map { i in
        makeImage(width: 30, height: 26) { x, y in
            Pixel(UInt8(x * 8), UInt8(y * 9), UInt8((x + y + 11 * i) % 256), UInt8(60 + (x * 3 + i) % 196))
        }
    }
}

/// Pixels with every alpha-0 pixel made transparent black (colour does not matter there).
private func normalized(_ image: RGBAImage) -> [UInt8] {
    var p = image.pixels
    for i in stride(from: 0, to: p.count, by: 4) where p[i + 3] == 0 {
        p[i] = 0
        p[i + 1] = 0
        p[i + 2] = 0
    }
    return p
}

/// The index of the first frame of each run of identical frames (the test's own merging).
private func runStarts(_ frames: [RGBAImage]) -> [Int] {
    var starts: [Int] = []
    for i in frames.indices where i == 0 || normalized(frames[i]) != normalized(frames[i - 1]) { starts.append(i) }
    return starts
}

private func temporaryFile(_ bytes: [UInt8], name: String = "a.png") throws -> (directory: String, path: String) {
    let directory = NSTemporaryDirectory() + "apng-test-\(UUID().uuidString)/"
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    let path = directory + name
    try Data(bytes).write(to: URL(fileURLWithPath: path))
    return (directory, path)
}

/// Every frame as Pillow's APNG reader composites it, with Pillow's delay in ms and loop.
private func pillowFrames(_ path: String, width: Int, height: Int) throws -> (
    frames: [RGBAImage], durations: [Double], loop: Int
) {
    let script = """
        import sys, json
        from PIL import Image
        im = Image.open(sys.argv[1])
        assert im.format == "PNG" and getattr(im, "is_animated", False)
        meta = {"n": im.n_frames, "durations": [], "loop": im.info.get("loop")}
        data = b""
        for i in range(im.n_frames):
            im.seek(i)
            meta["durations"].append(im.info["duration"])
            data += im.convert("RGBA").tobytes()
        sys.stdout.buffer.write(json.dumps(meta).encode() + b"\\n" + data)
        """
    let run = try runProgram("/usr/bin/python3", ["-c", script, path])
    #expect(run.status == 0, "\(run.stderr)")
    let bytes = [UInt8](run.stdout)
    guard let newline = bytes.firstIndex(of: 10),
        let meta = try JSONSerialization.jsonObject(with: Data(bytes[..<newline])) as? [String: Any],
        let durations = meta["durations"] as? [Double], let n = meta["n"] as? Int
    else {
        Issue.record("Pillow printed no metadata: \(run.stderr)")
        return ([], [], -1)
    }
    let frameBytes = width * height * 4
    let frames = (0..<n).compactMap { k -> RGBAImage? in
        let start = newline + 1 + k * frameBytes
        guard start + frameBytes <= bytes.count else { return nil }
        return RGBAImage(width: width, height: height, pixels: Array(bytes[start..<(start + frameBytes)]))
    }
    return (frames, durations, meta["loop"] as? Int ?? -1)
}

/// `image` composited on opaque black, rounded: `c·a/255` per channel.
private func onBlack(_ image: RGBAImage) -> [UInt8] {
    var out: [UInt8] = []
    for i in stride(from: 0, to: image.pixels.count, by: 4) {
        let a = Int(image.pixels[i + 3])
        for c in 0..<3 { out.append(UInt8((Int(image.pixels[i + c]) * a + 127) / 255)) }
    }
    return out
}

@Suite("APNG encoder")
struct APNGEncoderTests {
    /// Pillow's APNG reader gives back every input frame exactly (alpha-0 pixels compared as
    /// transparent), one frame per run of identical input frames, with the summed delay.
    @Test(arguments: ["disc", "square", "gradient"])
    func pillowDecodesEveryFrameExactly(sample: String) throws {
        let frames =
            sample == "disc" ? fadingDisc(frames: 16) : sample == "square" ? movingSquare() : gradient(frames: 6)
        let encoding = try APNGEncoder.encode(try FrameArray(frames, batchSize: 3), period: 0.4, options: APNGOptions())
        let file = try temporaryFile(encoding.bytes)
        defer { try? FileManager.default.removeItem(atPath: file.directory) }
        let decoded = try pillowFrames(file.path, width: frames[0].width, height: frames[0].height)
        let starts = runStarts(frames)
        #expect(encoding.frameCount == starts.count)
        #expect(decoded.frames.count == starts.count)
        for (k, start) in starts.enumerated() where k < decoded.frames.count {
            #expect(normalized(decoded.frames[k]) == normalized(frames[start]), "frame \(k) = input \(start)")
        }
        // Pillow's durations in ms: each run's share of 0.4 s.
        let ends = Array(starts.dropFirst()) + [frames.count]
        for k in starts.indices where k < decoded.durations.count {
            let expected = 400.0 * Double(ends[k] - starts[k]) / Double(frames.count)
            #expect(abs(decoded.durations[k] - expected) < 1e-6, "frame \(k) lasts \(decoded.durations[k]) ms")
        }
        #expect(decoded.loop == 0)
    }

    /// The square sample merges frames 3–5 into one frame of 3/30 s = 1/10 s; the others last
    /// 1/30 s each, exactly, and the chunk walker reads those fractions from the fcTL chunks.
    @Test func mergedDelaysAreExactFractions() throws {
        let frames = movingSquare()
        let encoding = try APNGEncoder.encode(try FrameArray(frames), period: 0.4, options: APNGOptions())
        let walked = WalkedAPNG(encoding.bytes)
        let expected = [(1, 30), (1, 30), (1, 30), (1, 10), (1, 30), (1, 30), (1, 30), (1, 30), (1, 30), (1, 30)]
        #expect(
            walked.controls.map { "\($0.delayNumerator)/\($0.delayDenominator)" } == expected.map { "\($0.0)/\($0.1)" })
        #expect(encoding.delays.map(\.description) == expected.map { "\($0.0)/\($0.1)" })
        #expect(encoding.timingExact)
        #expect(walked.numFrames == 10)
    }

    /// A period no 16-bit fraction holds per frame (1.234567 s over 7 frames = 1234567/7000000 s)
    /// falls back to cumulative rounding on the 1/10000 s grid: every denominator 10000 and the
    /// numerators add up to round(12345.67) = 12346 exactly.
    @Test func inexpressibleDelaysUseCumulativeRoundingOnAFineGrid() throws {
        let frames = gradient(frames: 7)
        let encoding = try APNGEncoder.encode(try FrameArray(frames), period: 1.234567, options: APNGOptions())
        #expect(!encoding.timingExact)
        let walked = WalkedAPNG(encoding.bytes)
        #expect(walked.controls.allSatisfy { $0.delayDenominator == 10_000 })
        #expect(walked.controls.map(\.delayNumerator).reduce(0, +) == 12_346)
        // round(10000·i·1.234567/7) differences, computed here in floating point.
        let boundaries = (0...7).map { Int((10_000 * Double($0) * 1.234567 / 7).rounded()) }
        #expect(walked.controls.map(\.delayNumerator) == (0..<7).map { boundaries[$0 + 1] - boundaries[$0] })
    }

    /// `num_plays` in acTL: 0 for forever, n for `.plays(n)`; out-of-range counts are refused.
    @Test func loopCountIsNumPlays() throws {
        let source = try FrameArray(movingSquare())
        #expect(WalkedAPNG(try APNGEncoder.encode(source, period: 1, options: APNGOptions()).bytes).numPlays == 0)
        let three = try APNGEncoder.encode(source, period: 1, options: APNGOptions(loop: .plays(3)))
        #expect(WalkedAPNG(three.bytes).numPlays == 3)
        let file = try temporaryFile(three.bytes)
        defer { try? FileManager.default.removeItem(atPath: file.directory) }
        #expect(try pillowFrames(file.path, width: 32, height: 20).loop == 3)
        #expect(throws: EncodeError.self) {
            try APNGEncoder.encode(source, period: 1, options: APNGOptions(loop: .plays(0)))
        }
    }

    /// A palette is possible exactly when the animation has ≤ 256 RGBA values (alpha-0 pixels of
    /// any colour counting as one): 256 → palette PNG (colour type 3) when truecolour is not
    /// tried, 257 → RGBA (colour type 6).
    @Test func indexedWhenAtMost256Colors() throws {
        func colors(_ n: Int) -> [RGBAImage] {
            // n − 1 opaque greys-and-reds plus transparent pixels of junk colours.
            [
                makeImage(width: 32, height: 16) { x, y in
                    let i = y * 32 + x
                    return i < n - 1 ? Pixel(UInt8(i % 256), UInt8(i / 256), 5) : Pixel(UInt8(x), UInt8(y), 1, 0)
                }
            ]
        }
        var paletteOnly = APNGOptions()
        paletteOnly.tryTruecolor = false
        let fits = try APNGEncoder.encode(try FrameArray(colors(256)), period: 1, options: paletteOnly)
        #expect(fits.indexed && fits.paletteSize == 256)
        #expect(WalkedAPNG(fits.bytes).colorType == 3)
        #expect(WalkedAPNG(fits.bytes).chunks.map(\.type).contains("tRNS"))
        let over = try APNGEncoder.encode(try FrameArray(colors(258)), period: 1, options: APNGOptions())
        #expect(!over.indexed && over.paletteSize == nil)
        #expect(WalkedAPNG(over.bytes).colorType == 6 && WalkedAPNG(over.bytes).bitDepth == 8)
        let disc = try APNGEncoder.encode(try FrameArray(fadingDisc(frames: 8)), period: 1, options: APNGOptions())
        #expect(disc.indexed)
        #expect(try !APNGEncoder.encode(try FrameArray(gradient(frames: 2)), period: 1, options: APNGOptions()).indexed)
    }

    /// A disc fading to alpha 0, decoded by Pillow and composited on black, equals the input
    /// composited on black: no grey disc, and the last frame is black everywhere.
    @Test func fadingDiscOnBlackMatchesInput() throws {
        let frames = fadingDisc(frames: 12)
        let encoding = try APNGEncoder.encode(try FrameArray(frames), period: 0.4, options: APNGOptions())
        let file = try temporaryFile(encoding.bytes)
        defer { try? FileManager.default.removeItem(atPath: file.directory) }
        let decoded = try pillowFrames(file.path, width: 24, height: 24).frames
        #expect(decoded.count == frames.count)
        for (k, frame) in decoded.enumerated() where k < frames.count {
            #expect(onBlack(frame) == onBlack(frames[k]), "frame \(k) on black")
        }
        if let last = decoded.last { #expect(onBlack(last).allSatisfy { $0 == 0 }) }
    }

    /// Re-encoding each frame's stream (`DeflateRecoder`, round 16) never makes a file larger,
    /// keeps every chunk but the image data's, and Pillow decodes the same frames from both.
    @Test(arguments: ["disc", "gradient"])
    func recodedFramesAreNoLargerAndDecodeAlike(sample: String) throws {
        let frames = sample == "disc" ? fadingDisc(frames: 16, size: 40) : gradient(frames: 6)
        var off = APNGOptions()
        off.recode = false
        let plain = try APNGEncoder.encode(try FrameArray(frames), period: 0.4, options: off)
        let recoded = try APNGEncoder.encode(try FrameArray(frames), period: 0.4, options: APNGOptions())
        #expect(recoded.bytes.count <= plain.bytes.count)
        let (a, b) = (WalkedAPNG(plain.bytes), WalkedAPNG(recoded.bytes))
        #expect(a.chunks.map(\.type) == b.chunks.map(\.type))
        #expect(a.controls.map(\.sequence) == b.controls.map(\.sequence))
        for (x, y) in zip(a.chunks, b.chunks) where x.type != "IDAT" && x.type != "fdAT" {
            #expect(x.data == y.data, "\(x.type)")
        }
        let plainFile = try temporaryFile(plain.bytes)
        let recodedFile = try temporaryFile(recoded.bytes)
        defer {
            try? FileManager.default.removeItem(atPath: plainFile.directory)
            try? FileManager.default.removeItem(atPath: recodedFile.directory)
        }
        let w = frames[0].width
        let h = frames[0].height
        let before = try pillowFrames(plainFile.path, width: w, height: h).frames
        let after = try pillowFrames(recodedFile.path, width: w, height: h).frames
        #expect(after.count == before.count)
        #expect(after.map(\.pixels) == before.map(\.pixels))
    }

    /// The chunk walker's rules hold for every sample and both efforts: CRCs, sequence numbers,
    /// acTL count, frame 0 as the default image; later frames use sub-rectangles.
    @Test(arguments: [APNGEffort.default, .max])
    func chunkStructure(effort: APNGEffort) throws {
        for frames in [fadingDisc(frames: 10), movingSquare(), gradient(frames: 4)] {
            let encoding = try APNGEncoder.encode(
                try FrameArray(frames), period: 1, options: APNGOptions(effort: effort))
            let walked = WalkedAPNG(encoding.bytes)
            #expect(walked.width == frames[0].width && walked.height == frames[0].height)
            #expect(walked.controls.count == encoding.frameCount)
        }
        let square = WalkedAPNG(
            try APNGEncoder.encode(try FrameArray(movingSquare()), period: 1, options: APNGOptions()).bytes)
        #expect(square.controls.dropFirst().allSatisfy { $0.width * $0.height < 32 * 20 }, "frame differencing")
    }

    /// apngdis (Debian `apngdis`) splits the file into full frames equal to the input, with
    /// the same delays.
    @Test func apngdisReadsTheSameFrames() throws {
        let frames = movingSquare()
        let encoding = try APNGEncoder.encode(try FrameArray(frames), period: 0.4, options: APNGOptions())
        let file = try temporaryFile(encoding.bytes)
        defer { try? FileManager.default.removeItem(atPath: file.directory) }
        let run = try runProgram("/usr/bin/apngdis", [file.path])
        #expect(run.status == 0)
        let starts = runStarts(frames)
        for (k, start) in starts.enumerated() {
            let name = String(format: "apngframe%02d", k + 1)
            let png = try Data(contentsOf: URL(fileURLWithPath: file.directory + name + ".png"))
            #expect(normalized(try PNGCodec.decode([UInt8](png))) == normalized(frames[start]), "\(name)")
            let text = try String(contentsOfFile: file.directory + name + ".txt", encoding: .utf8)
            #expect(text.trimmingCharacters(in: .whitespacesAndNewlines) == "delay=\(encoding.delays[k])")
        }
        #expect(
            !FileManager.default.fileExists(
                atPath: file.directory + String(format: "apngframe%02d.png", starts.count + 1)))
    }

    /// ImageMagick reads APNG (`apng:` prefix; through its ffmpeg delegate) at the frame rate
    /// of the input: every frame equal to the input.
    @Test func imageMagickReadsTheSameFrames() throws {
        let frames = gradient(frames: 6)
        let encoding = try APNGEncoder.encode(try FrameArray(frames), period: 0.2, options: APNGOptions())
        let file = try temporaryFile(encoding.bytes)
        defer { try? FileManager.default.removeItem(atPath: file.directory) }
        let run = try runProgram("/usr/bin/convert", ["apng:" + file.path, file.directory + "im-%03d.png"])
        #expect(run.status == 0, "\(run.stderr)")
        for (k, frame) in frames.enumerated() {
            let path = file.directory + String(format: "im-%03d.png", k)
            guard let png = FileManager.default.contents(atPath: path) else {
                Issue.record("ImageMagick wrote no frame \(k)")
                continue
            }
            #expect(normalized(try PNGCodec.decode([UInt8](png))) == normalized(frame), "frame \(k)")
        }
    }

    /// `APNGFile`, what a writer holds until the colour mode is chosen: `byteCount` is the
    /// length of `bytes()`, whose chunks are numbered 0, 1, 2, … with frame 0 in `IDAT`;
    /// `refine` keeps every frame's scanlines (each stream inflates to the same bytes),
    /// makes no frame longer and shortens these libdeflate level 1 streams in all, with and
    /// without Zopfli, whatever the thread count.
    @Test func writtenFileCountsNumbersAndRefines() throws {
        let images = fadingDisc(frames: 4)
        let mode = APNGColorMode(survey: try APNGSurvey.make(try FrameArray(images)), truecolor: true)
        var head = PNGChunks.signature
        var header: [UInt8] = []
        PNGChunks.appendUInt32(24, to: &header)
        PNGChunks.appendUInt32(24, to: &header)
        header += [8, 6, 0, 0, 0]
        PNGChunks.append("IHDR", header, to: &head)
        var control: [UInt8] = []
        PNGChunks.appendUInt32(70, to: &control)
        PNGChunks.appendUInt32(0, to: &control)
        PNGChunks.append("acTL", control, to: &head)
        // Each frame whole, unfiltered: a 0 filter byte before each row of RGBA.
        let raws = images.map { image in
            (0..<24).flatMap { y in [0] + image.pixels[(y * 96)..<((y + 1) * 96)] }
        }
        // 70 frames, past the 64 of one `refine` chunk.
        let frames = try (0..<70).map { k in
            let raw = raws[k % raws.count]
            return APNGWrittenFrame(
                rect: APNGRect(x: 0, y: 0, width: 24, height: 24), delay: APNGDelay(numerator: 1, denominator: 30),
                dispose: .background, blend: .source, stream: try PNGChunks.deflate(raw, level: 1))
        }
        let file = APNGFile(head: head, frames: frames)
        #expect(file.bytes().count == file.byteCount)
        let walked = WalkedAPNG(file.bytes())
        #expect(
            walked.chunks.map(\.type) == ["IHDR", "acTL", "fcTL", "IDAT"]
                + Array(repeating: ["fcTL", "fdAT"], count: 69).flatMap { $0 } + ["IEND"])
        #expect(walked.controls.map(\.dispose) == Array(repeating: 1, count: 70))
        for zopfli in [false, true] {
            var one = file
            try one.refine(
                mode: mode, zopfli: zopfli, zopfliIterations: 5, squeezePasses: 2, squeezeDepth: 256, workers: 1)
            var three = file
            try three.refine(
                mode: mode, zopfli: zopfli, zopfliIterations: 5, squeezePasses: 2, squeezeDepth: 256, workers: 3)
            #expect(one.bytes() == three.bytes())
            #expect(one.bytes().count == one.byteCount)
            #expect(one.head == file.head)
            #expect(one.byteCount < file.byteCount)
            for (k, frame) in one.frames.enumerated() {
                let raw = raws[k % raws.count]
                #expect(frame.stream.count <= frames[k].stream.count, "frame \(k), zopfli \(zopfli)")
                #expect(try APNGFile.inflate(frame.stream, size: raw.count) == raw, "frame \(k)")
                #expect(frame.rect == frames[k].rect && frame.dispose == .background && frame.blend == .source)
            }
            // The encoder's way out: the same bytes, the frames emptied as they are written.
            var taken = one
            #expect(taken.takeBytes() == one.bytes())
            #expect(taken.frames.allSatisfy { $0.stream.isEmpty })
        }
        // Nothing to do: the same file.
        var same = file
        try same.refine(
            mode: mode, zopfli: false, zopfliIterations: 5, squeezePasses: 0, squeezeDepth: 256, workers: 2)
        #expect(same.bytes() == file.bytes())
    }

    /// Effort max decodes to the same frames and is never larger; bytes do not depend on the
    /// thread count.
    @Test func maxEffortAndWorkers() throws {
        let frames = fadingDisc(frames: 10) + fadingDisc(frames: 10).reversed()
        let source = try FrameArray(frames)
        let plain = try APNGEncoder.encode(source, period: 1, options: APNGOptions(workers: 1))
        #expect(try APNGEncoder.encode(source, period: 1, options: APNGOptions(workers: 4)).bytes == plain.bytes)
        let max1 = try APNGEncoder.encode(source, period: 1, options: APNGOptions(effort: .max, workers: 1))
        let max3 = try APNGEncoder.encode(source, period: 1, options: APNGOptions(effort: .max, workers: 3))
        #expect(max1.bytes == max3.bytes)
        #expect(max1.bytes.count <= plain.bytes.count)
        let file = try temporaryFile(max1.bytes)
        defer { try? FileManager.default.removeItem(atPath: file.directory) }
        let decoded = try pillowFrames(file.path, width: 24, height: 24).frames
        let starts = runStarts(frames)
        #expect(decoded.count == starts.count)
        for (k, start) in starts.enumerated() where k < decoded.count {
            #expect(normalized(decoded[k]) == normalized(frames[start]))
        }
    }

    /// A still gradient whose two opposite corners change: with opaque new corners the second
    /// frame is sent with `APNG_BLEND_OP_OVER` (unchanged pixels transparent), with translucent
    /// ones it must not be (OVER would blend them with what is under them); Pillow sees the
    /// input either way.
    @Test(arguments: [255, 77] as [UInt8])
    func overOnlyForOpaqueChanges(cornerAlpha: UInt8) throws {
        let still = gradient(frames: 1)[0]
        var changed = still
        for (x, y) in [(0, 0), (29, 25)] {
            let o = changed.offset(x: x, y: y)
            changed.pixels[o..<(o + 4)] = [9, 250, 3, cornerAlpha]
        }
        let frames = [still, changed]
        let encoding = try APNGEncoder.encode(try FrameArray(frames), period: 1, options: APNGOptions())
        let walked = WalkedAPNG(encoding.bytes)
        #expect(walked.controls.count == 2)
        #expect(walked.controls.last?.blend == (cornerAlpha == 255 ? 1 : 0))
        let file = try temporaryFile(encoding.bytes)
        defer { try? FileManager.default.removeItem(atPath: file.directory) }
        let decoded = try pillowFrames(file.path, width: 30, height: 26).frames
        #expect(decoded.map(normalized) == frames.map(normalized))
    }

    /// Row filters (PNG specification §9) pay on smooth truecolour rows: the gradient sample is
    /// smaller with them than with unfiltered rows only, and Pillow still reads every frame
    /// exactly.
    @Test func rowFiltersShrinkAGradientAndDecodeExactly() throws {
        let frames = gradient(frames: 3)
        let source = try FrameArray(frames)
        var unfilteredOptions = APNGOptions()
        unfilteredOptions.rowFilters = []
        let unfiltered = try APNGEncoder.encode(source, period: 1, options: unfilteredOptions)
        let filtered = try APNGEncoder.encode(source, period: 1, options: APNGOptions())
        #expect(filtered.bytes.count < unfiltered.bytes.count)
        let file = try temporaryFile(filtered.bytes)
        defer { try? FileManager.default.removeItem(atPath: file.directory) }
        #expect(try pillowFrames(file.path, width: 30, height: 26).frames.map(normalized) == frames.map(normalized))
    }

    /// The row-filter gate (`APNGOptions.rowFilterGate`): a filtered variant reaches libdeflate
    /// only when its zlib 9 stream is no larger than the unfiltered rows'. On the gradient the
    /// filtered rows win by far, so the default gate gives the same bytes as no gate, and a gate
    /// of 0 (never) the same bytes as no row filters at all, larger.
    @Test func rowFilterGateKeepsWinningFilters() throws {
        let source = try FrameArray(gradient(frames: 3))
        var off = APNGOptions()
        off.rowFilterGate = nil
        var never = APNGOptions()
        never.rowFilterGate = 0
        var none = APNGOptions()
        none.rowFilters = []
        let gated = try APNGEncoder.encode(source, period: 1, options: APNGOptions()).bytes
        let ungated = try APNGEncoder.encode(source, period: 1, options: off).bytes
        let closed = try APNGEncoder.encode(source, period: 1, options: never).bytes
        let unfiltered = try APNGEncoder.encode(source, period: 1, options: none).bytes
        #expect(gated == ungated)
        #expect(closed == unfiltered)
        #expect(gated.count < closed.count)
    }

    /// The estimates (`APNGOptions.estimate`, `estimateMargin`): a margin wide enough to let
    /// every candidate through re-ranks them all by zlib 9, so the file is the zlib 9
    /// estimate's byte for byte; the libdeflate 6 estimate alone (the default) may choose other
    /// candidates, but its file still decodes in Pillow to every input frame exactly.
    @Test(arguments: ["disc", "square", "gradient"])
    func estimatesKeepFramesExact(sample: String) throws {
        let frames =
            sample == "disc" ? fadingDisc(frames: 16) : sample == "square" ? movingSquare() : gradient(frames: 6)
        let source = try FrameArray(frames)
        var zlib = APNGOptions()
        zlib.estimate = .zlib
        let plain = try APNGEncoder.encode(source, period: 0.4, options: zlib).bytes
        var wide = APNGOptions()
        wide.estimate = .libdeflate(6)
        wide.estimateMargin = 1_000_000
        #expect(try APNGEncoder.encode(source, period: 0.4, options: wide).bytes == plain)
        var cheap = APNGOptions()
        cheap.estimate = .libdeflate(6)
        #expect(
            try APNGEncoder.encode(source, period: 0.4, options: APNGOptions()).bytes
                == APNGEncoder.encode(source, period: 0.4, options: cheap).bytes)
        let estimated = try APNGEncoder.encode(source, period: 0.4, options: cheap)
        let file = try temporaryFile(estimated.bytes)
        defer { try? FileManager.default.removeItem(atPath: file.directory) }
        let decoded = try pillowFrames(file.path, width: frames[0].width, height: frames[0].height).frames
        let starts = runStarts(frames)
        #expect(decoded.count == starts.count)
        for (k, start) in starts.enumerated() where k < decoded.count {
            #expect(normalized(decoded[k]) == normalized(frames[start]), "frame \(k) = input \(start)")
        }
    }

    /// `OVER` runs: in the second frame every fourth pixel of two red bars turns red, and
    /// opaque noise and a translucent band between them stay. Sending the bars' unchanged
    /// pixels as themselves (whole red runs) and the noise and band as transparent is smaller
    /// than `SOURCE` (noise sent) or plain `OVER` (bars full of holes), so the frame is `OVER`
    /// and, before the squeeze, smaller than without runs; Pillow reads every frame exactly (the
    /// band unblended).
    @Test func overRunsAreChosenAndDecodeExactly() throws {
        var seed: UInt32 = 99
        func noise() -> UInt8 {
            seed = seed &* 1_103_515_245 &+ 12345
            return UInt8(truncatingIfNeeded: seed >> 16)
        }
        let still = makeImage(width: 40, height: 16) { x, y in
            if (8..<32).contains(x) { return y < 3 ? Pixel(noise(), 90, 200, 128) : Pixel(noise(), noise(), noise()) }
            return x % 4 == 0 ? Pixel(0, 0, 255) : Pixel(255, 0, 0)
        }
        var changed = still
        for y in 0..<16 {
            for x in stride(from: 0, to: 40, by: 4) where !(8..<32).contains(x) {
                let o = changed.offset(x: x, y: y)
                changed.pixels[o..<(o + 4)] = [255, 0, 0, 255]
            }
        }
        let frames = [still, changed]
        // The squeeze off: it parses both frames' scanlines down to the same size (1 526 bytes).
        var runs = APNGOptions()
        runs.squeezePasses = 0
        var plain = runs
        plain.overRuns = false
        let without = try APNGEncoder.encode(try FrameArray(frames), period: 1, options: plain)
        let with = try APNGEncoder.encode(try FrameArray(frames), period: 1, options: runs)
        #expect(with.bytes.count < without.bytes.count)
        #expect(WalkedAPNG(with.bytes).controls.last?.blend == 1)
        let file = try temporaryFile(with.bytes)
        defer { try? FileManager.default.removeItem(atPath: file.directory) }
        #expect(try pillowFrames(file.path, width: 40, height: 16).frames.map(normalized) == frames.map(normalized))
    }

    /// An animation that fits a palette but pays more for `PLTE` and `tRNS` than it saves (one
    /// colour at 255 alphas and transparent black: about 1 000 bytes of palette chunks) is written as truecolour
    /// with alpha, smaller than the indexed file, and decodes exactly; a palette-friendly one
    /// (the fading disc) stays indexed.
    @Test func paletteOrTruecolorWhicheverIsSmaller() throws {
        let ramp = (0..<2).map { i in
            makeImage(width: 16, height: 16) { x, y in
                Pixel(200, 50, 50, UInt8((y * 16 + x + i) % 256))
            }
        }
        let source = try FrameArray([ramp[0], ramp[0], ramp[1]])
        var indexedOnly = APNGOptions()
        indexedOnly.tryTruecolor = false
        let indexed = try APNGEncoder.encode(source, period: 1, options: indexedOnly)
        let chosen = try APNGEncoder.encode(source, period: 1, options: APNGOptions())
        #expect(indexed.colorType == .indexed)
        #expect(chosen.colorType == .truecolorAlpha && WalkedAPNG(chosen.bytes).colorType == 6)
        #expect(chosen.bytes.count < indexed.bytes.count)
        let file = try temporaryFile(chosen.bytes)
        defer { try? FileManager.default.removeItem(atPath: file.directory) }
        #expect(
            try pillowFrames(file.path, width: 16, height: 16).frames.map(normalized)
                == [ramp[0], ramp[1]].map(normalized))
        #expect(try APNGEncoder.encode(try FrameArray(fadingDisc(frames: 8)), period: 1).colorType == .indexed)
    }

    /// Bad periods and loop counts are errors, not traps.
    @Test func badArgumentsThrow() throws {
        let source = try FrameArray(movingSquare())
        for period in [0, -1, .nan, .infinity, 2e6] {
            #expect(throws: EncodeError.self) { try APNGEncoder.encode(source, period: period, options: APNGOptions()) }
        }
    }
}

/// `SecondsFraction(approximating:)` gives the fraction a typed decimal means.
struct SecondsFractionTests {
    @Test func simplestFractionOfADouble() {
        let cases: [(Double, Int, Int)] = [(7, 7, 1), (29.97, 2997, 100), (0.4, 2, 5), (1.0 / 3.0, 1, 3), (30, 30, 1)]
        for (value, n, d) in cases {
            #expect(SecondsFraction(approximating: value) == SecondsFraction(numerator: n, denominator: d), "\(value)")
        }
        for bad in [0, -1, Double.nan, Double.infinity, 1e300] {
            #expect(SecondsFraction(approximating: bad) == nil, "\(bad)")
        }
    }

    /// With an exact period the delays are its fractions; without one, 10/7 s in microseconds
    /// is not exact and falls back to the 1/10000 s grid.
    @Test func exactPeriodGivesExactDelays() throws {
        let runs = Array(repeating: 1, count: 10)
        let exact = try APNGTiming.delays(
            period: 10.0 / 7.0, runs: runs, exactPeriod: SecondsFraction(numerator: 10, denominator: 7))
        #expect(exact.exact && exact.delays.allSatisfy { $0 == APNGDelay(numerator: 1, denominator: 7) })
        let rounded = try APNGTiming.delays(period: 10.0 / 7.0, runs: runs)
        #expect(!rounded.exact && rounded.delays.allSatisfy { $0.denominator == 10_000 })
    }
}
