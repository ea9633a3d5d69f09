import AnimexportCLI
import Export
import Foundation
import Raster
import Render
import Spec
import Testing
import Timeline

@testable import Encode

/// The GIF must show what was rendered: every bundled preset and every regression fixture is
/// rendered, encoded as the CLI encodes it, decoded by giflib, and each displayed frame compared
/// with the rendered frame after GIF's 1-bit alpha policy (matte or threshold). Lossless palettes
/// must match exactly; quantised ones within the quantiser's error.
struct GIFFidelityTests {
    static let regressions: [String] = {
        let dir = packageRoot + "/Tests/CLITests/Fixtures/regressions"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted().map { dir + "/" + $0 }
    }()

    @Test(arguments: PresetCatalogTests.presetFiles + regressions)
    func decodedGIFShowsTheRenderedFrames(path: String) throws {
        let composition = try PresetLoader.load(contentsOf: path, measureText: Exporter.measureText).composition
        let animation = try Exporter.render(composition, fps: min(composition.fps, 50))
        var options = GIFOptions()
        options.matte = composition.canvas.matte
        let encoded = try Exporter.gif(animation, options: options)
        let decoded = try GIFDecoder.decode(encoded.bytes)
        let width = animation.frames[0].width
        let height = animation.frames[0].height
        let expected = GIFAlphaPolicy(options: options).flatten(animation.frames, width: width, height: height)

        // Merged frames stand for several input frames: expand them by their delays.
        let delays = FrameTiming.centisecondDelays(period: animation.plan.period, frameCount: animation.plan.frameCount)
        var shown: [RGBAImage] = []
        for frame in decoded.frames {
            var remaining = frame.delay
            while remaining > 0, shown.count < delays.count {
                remaining -= delays[shown.count]
                shown.append(frame.canvas)
            }
        }
        #expect(shown.count == animation.frames.count)
        for (i, canvas) in zip(shown.indices, shown) {
            let wanted = expected.frame(i)
            var worst = 0
            var wrongAlpha = 0
            for p in 0..<(width * height) {
                let want = wanted[p]
                let alpha = canvas.pixels[4 * p + 3]
                if want == FlattenedFrames.transparent {
                    if alpha != 0 { wrongAlpha += 1 }
                    continue
                }
                if alpha != 255 {
                    wrongAlpha += 1
                    continue
                }
                let r = Int(want >> 16 & 0xFF)
                let g = Int(want >> 8 & 0xFF)
                let b = Int(want & 0xFF)
                worst = max(
                    worst, abs(r - Int(canvas.pixels[4 * p])), abs(g - Int(canvas.pixels[4 * p + 1])),
                    abs(b - Int(canvas.pixels[4 * p + 2])))
            }
            #expect(wrongAlpha == 0, "\(composition.name) frame \(i): \(wrongAlpha) pixels with the wrong transparency")
            #expect(
                worst <= (encoded.quantized ? 48 : 0), "\(composition.name) frame \(i): a channel is off by \(worst)")
            if wrongAlpha > 0 || worst > (encoded.quantized ? 48 : 0) { break }
        }
    }
}
