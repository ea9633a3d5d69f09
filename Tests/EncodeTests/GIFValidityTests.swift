// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Raster
import Testing

@testable import Encode

/// Every sample GIF, decoded by Pillow, ImageMagick and ffmpeg, shows exactly the frames giflib
/// shows (and those equal the input), and `gifsicle --info` reads it without a warning. A
/// missing program fails the test: `make deps` installs them all.
@Suite(.serialized) struct GIFValidityTests {
    static let samples: [(name: String, frames: [RGBAImage], options: GIFOptions, exact: Bool)] = [
        ("moving-square", GIFSamples.movingSquare(), GIFOptions(), true),
        ("blink", GIFSamples.blink(), GIFOptions(), true),
        ("noise", GIFSamples.noise(), GIFOptions(), true),
        ("local-table", GIFSamples.fewColoursLater(), GIFOptions(), true),
        ("repeats", GIFSamples.repeats(), GIFOptions(), true),
        ("random", GIFSamples.random(seed: 7), GIFOptions(loop: .plays(2)), true),
        ("gradient-fs", Self.gradient(), GIFOptions(dither: .floydSteinberg), false),
        ("gradient-ordered", Self.gradient(), GIFOptions(dither: .ordered), false),
    ]

    /// 48×48, 2304 colours, with a transparent corner that moves: quantised.
    static func gradient() -> [RGBAImage] {
        (0..<3).map { k in
            makeImage(width: 48, height: 48) { x, y in
                if x + y < 8 * (k + 1) { return .clear }
                return Pixel(UInt8(x * 5), UInt8(y * 5), UInt8((x * y + 40 * k) % 256))
            }
        }
    }

    @Test(arguments: ExternalDecoder.allCases)
    func decodersAgreeWithGiflib(decoder: ExternalDecoder) throws {
        try #require(
            FileManager.default.isExecutableFile(atPath: decoder.executable),
            "\(decoder.executable) is missing; run 'make deps'")
        for sample in Self.samples {
            let delays = sample.frames.indices.map { 3 + $0 % 2 }
            let encoded = try GIFEncoder.encode(frames: sample.frames, delays: delays, options: sample.options)
            let reference = try GIFDecoder.decode(encoded.bytes)
            if sample.exact {
                #expect(reference.frames.map(\.canvas) == collapsingRepeats(sample.frames), "\(sample.name)")
            }
            let path = try temporaryFile(encoded.bytes, named: sample.name + ".gif")
            let frames = try decoder.frames(of: path, width: reference.width, height: reference.height)
            guard decoder != .gifsicle else { continue }
            #expect(frames.count == reference.frames.count, "\(decoder) on \(sample.name)")
            for (k, (theirs, ours)) in zip(frames, reference.frames).enumerated() {
                let differing = visibleDifferences(theirs, ours.canvas)
                #expect(differing == 0, "\(decoder) on \(sample.name), frame \(k): \(differing) pixels differ")
            }
        }
    }

    @Test func gifsicleCountsTheImagesAndTheLoop() throws {
        let frames = GIFSamples.blink()
        let encoded = try GIFEncoder.encode(
            frames: frames, delays: Array(repeating: 5, count: frames.count), options: GIFOptions())
        let path = try temporaryFile(encoded.bytes, named: "blink.gif")
        let run = try runProgram(ExternalDecoder.gifsicle.executable, ["--info", path])
        let text = String(decoding: run.stdout, as: UTF8.self)
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run.stderr)")
        #expect(text.contains("6 images"))
        #expect(text.contains("loop forever"))
        #expect(text.contains("disposal previous"))
    }
}
