import Foundation
import Raster
import Render
import Testing

/// Round trip (issue 21): every bundled preset the Lottie export takes, exported with
/// `-o NAME.lottie.json`, read back by the Lottie import (`LottieImport`) and drawn with
/// `--frames`, gives the preset's own frames within the golden tolerance (`GoldenTolerance`: a
/// pixel differs when a channel, premultiplied, moves by more than 24 of 255; at most 0.2 % of
/// the pixels may) at 8 instants of the loop, frames round(k·N/8). The import knows nothing of
/// how the export sampled, so a keyframe curve that does not reproduce the preset's motion
/// (a wrong easing handle, a wrong anchor, a jump in the wrong place) shows up here. Measured
/// over every frame: no preset differs in any pixel beyond the tolerance, the 3 with text
/// included since the renderer fills the glyph outlines the export writes (`TextOutline`) at
/// the same subpixel places; drawn as Cairo's glyph images at whole-pixel origins, as before
/// issue 21's text fix, loading-dots differed in 7.2 % of the pixels, circular-progress 0.63 %.
@Suite struct LottieRoundTripTests {
    static let refused: Set<String> = ["flipping-square", "twin-circle-scale"]

    static let presets: [String] = PresetCatalogTests.presetFiles.filter {
        !refused.contains(URL(fileURLWithPath: $0).deletingPathExtension().lastPathComponent)
    }

    /// Pixels of `a` and `b` that differ by more than the golden tolerance, as a share.
    private func differingShare(_ a: RGBAImage, _ b: RGBAImage) -> Double {
        var different = 0
        for i in stride(from: 0, to: a.pixels.count, by: 4) {
            let alphaA = Int(a.pixels[i + 3])
            let alphaB = Int(b.pixels[i + 3])
            var worst = abs(alphaA - alphaB)
            for c in 0..<3 {
                let x = (Int(a.pixels[i + c]) * alphaA + 127) / 255
                let y = (Int(b.pixels[i + c]) * alphaB + 127) / 255
                worst = max(worst, abs(x - y))
            }
            if worst > GoldenTolerance.channel { different += 1 }
        }
        return Double(different) / Double(max(1, a.width * a.height))
    }

    private func frames(_ directory: String) -> [String] {
        listing(directory).filter { $0.hasSuffix(".png") }.sorted()
    }

    @Test(arguments: presets)
    func presetThroughLottieDrawsTheSameFrames(preset: String) throws {
        let name = URL(fileURLWithPath: preset).deletingPathExtension().lastPathComponent
        let dir = try temporaryDirectory()
        let export = try runTool([preset, "-o", "\(name).lottie.json", "-q"], in: dir)
        try #require(export.status == 0, "\(name): \(export.stderr)")
        let direct = try runTool([preset, "--frames", "direct/", "-o", "direct.apng", "-q"], in: dir)
        try #require(direct.status == 0, "\(name): \(direct.stderr)")
        let back = try runTool(["\(name).lottie.json", "--frames", "back/", "-o", "back.apng", "-q"], in: dir)
        try #require(back.status == 0, "\(name): \(back.stderr)")
        let ours = frames(dir + "/direct")
        let theirs = frames(dir + "/back")
        try #require(!ours.isEmpty && ours.count == theirs.count, "\(name): \(ours.count) vs \(theirs.count) frames")
        let n = ours.count
        var shares: [Double] = []
        for k in Set((0..<8).map { Int((Double($0 * n) / 8).rounded()) % n }).sorted() {
            let a = try PNGCodec.decode(readBytes(dir + "/direct/" + ours[k]))
            let b = try PNGCodec.decode(readBytes(dir + "/back/" + theirs[k]))
            try #require(a.width == b.width && a.height == b.height, "\(name) frame \(k): size")
            shares.append(differingShare(a, b))
        }
        let worst = shares.max() ?? 0
        #expect(worst <= GoldenTolerance.share, "\(name): \(worst * 100) % of the pixels differ")
    }
}
