// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Raster
import Render
import Spec
import Testing
import Timeline

@testable import LottieImport

/// The package root, three folders above this file.
let packageRoot: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    return url.path
}()

/// The public Lottie corpus, `../shared/lottie` beside the package (absent in a plain clone),
/// or the folder `ANIMEXPORT_LOTTIE_CORPUS` names (a git worktree elsewhere).
let corpusFolder =
    ProcessInfo.processInfo.environment["ANIMEXPORT_LOTTIE_CORPUS"]
    ?? URL(fileURLWithPath: packageRoot).deletingLastPathComponent().appendingPathComponent("shared/lottie").path
/// The tools venv `make deps` creates (rlottie-python, thorvg-python).
let venvPython = "\(packageRoot)/.build/tools-venv/bin/python"

/// The corpus files of the tiers this importer supports, read from the corpus README's table
/// (`| name.json | … | **T1** |`).
func corpusFiles(tiers: Set<String>) -> [String] {
    guard let readme = try? String(contentsOfFile: "\(corpusFolder)/README.md", encoding: .utf8) else { return [] }
    return readme.split(separator: "\n").compactMap { line in
        let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
        guard let name = cells.first, name.hasSuffix(".json"), let tier = cells.last,
            tiers.contains(tier.replacingOccurrences(of: "*", with: ""))
        else { return nil }
        return name
    }
}

/// PSNR in dB of two straight-alpha images composited on an opaque `background` grey level
/// (255 white, 0 black); infinity when equal.
func psnr(_ a: RGBAImage, _ b: RGBAImage, background: Double) -> Double {
    guard a.width == b.width, a.height == b.height else { return 0 }
    var sum = 0.0
    let n = a.width * a.height
    for i in 0..<n {
        let aa = Double(a.pixels[4 * i + 3]) / 255
        let ba = Double(b.pixels[4 * i + 3]) / 255
        for c in 0..<3 {
            let x = Double(a.pixels[4 * i + c]) * aa + background * (1 - aa)
            let y = Double(b.pixels[4 * i + c]) * ba + background * (1 - ba)
            sum += (x - y) * (x - y)
        }
    }
    let mse = sum / Double(3 * n)
    return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
}

/// Renders `file` at `frames` with one reference renderer through `scripts/lottie_refs.py`;
/// nil when the renderer refuses or crashes (reference unavailable, not our failure). Each call
/// has its own folder, so tests running in parallel may render the same file.
func referenceFrames(_ file: String, renderer: String, frames: [Int], width: Int, height: Int) -> [RGBAImage]? {
    let out = FileManager.default.temporaryDirectory.appendingPathComponent(
        "lottie-ref-\(UUID().uuidString)-\(renderer)-\((file as NSString).lastPathComponent)")
    try? FileManager.default.removeItem(at: out)
    defer { try? FileManager.default.removeItem(at: out) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: venvPython)
    process.arguments = [
        "\(packageRoot)/scripts/lottie_refs.py", file, "--renderer", renderer, "--frames",
        frames.map(String.init).joined(separator: ","), "--width", "\(width)", "--height", "\(height)", "--out",
        out.path,
    ]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return nil }
    process.waitUntilExit()
    guard process.terminationReason == .exit, process.terminationStatus == 0 else { return nil }
    var images: [RGBAImage] = []
    for k in frames.indices {
        guard let data = FileManager.default.contents(atPath: out.appendingPathComponent("\(renderer)-\(k).png").path),
            let image = try? PNGCodec.decode([UInt8](data))
        else { return nil }
        images.append(image)
    }
    return images
}

/// Instants where both references agree and ours falls short of 40 dB, each with the reason it
/// is theirs and not ours (docs/lottie.md, where the references disagree). Listed so the test
/// still fails for any other instant, and reports when one of these starts passing.
///
/// `lottie-web-dalek.json` (T3; bodymovin 3.1.6): its fill colours are on the 0–255 scale of
/// bodymovin before 4.1.9 (`[7, 6, 6, 255]` for the body), which lottie-web divides by 255 and
/// so do we (docs/lottie.md, legacy files): a black Dalek with white details. rlottie and ThorVG
/// both wrap c·255 modulo 256 to 8 bits and draw it near-white with (1, 1, 1) details, so they
/// agree with each other and not with the file's own player: ours against both is 19.4, 8.8,
/// 8.8 and 8.8 dB at frames 36, 72, 108 and 145 (our side of it is checked by
/// `colorsOfFilesBefore419AreOnA255Scale`). Frames 0 (22.6 dB) and 217 (27.1) also differed
/// while ours read a layer's own keyframes at frame − `st`; lottie-web, like both references,
/// reads them at the composition's frame (`KeyframedValueProperty` subtracts `offsetTime` from
/// the frame and from every keyframe time), and so do we now
/// (`aLayersStartTimeDoesNotShiftItsOwnKeyframes`): frame 0 is equal for all three, and 217 is
/// 28.9 dB from both for another reason, listed below.
let knownDeviations: [String: String] = {
    let dalek =
        "dalek: 0–255 colours of bodymovin < 4.1.9 (lottie-web divides by 255, both references wrap modulo 256)"
    return [
        "lottie-spec-time_stretch.json@525":
            "both references ease the segment 450 → 599 with the handles of 150 → 299 (an interpolator cache keyed by "
            + "each handle to 2 decimals: 0.41_1.00_0.60_0.00 for both), so they draw frame 525 as they draw 225: "
            + "0.24° where the spec's own handles give 0.0896° (ours 0.090°)",
        "skia-sample_2.json@100":
            "both references draw the wide stroke's curved edges (50 at layer scale 200 %) up to 0.55 px inside the "
            + "exact stroke (drawn at 512 px: edge alpha RMS error 0.12, ours 0.014; scripts/lottie_stroke_exact.py); "
            + "the same path filled agrees with both at 57–64 dB",
        "lottie-web-dalek.json@36": dalek, "lottie-web-dalek.json@72": dalek,
        "lottie-web-dalek.json@108": dalek, "lottie-web-dalek.json@145": dalek,
        "lottie-web-dalek.json@217":
            "dalek: the plunger at the cabinet's left edge is drawn rounder by ours and lottie-web (49.8 dB apart) "
            + "than by both references (28.9); not looked into",
    ]
}()

/// A copy of corpus file `name` with the text `target` replaced by `replacement` (exactly once),
/// written to a temporary file whose path is returned. Text, not a re-serialised object tree:
/// rlottie's parser depends on the order of members, which JSONSerialization does not keep
/// (sample_2 filled, with its members sorted, is 8.3 dB from rlottie's own unsorted render).
func editedCorpusCopy(_ name: String, replacing target: String, with replacement: String) throws -> String {
    let text = try String(contentsOfFile: "\(corpusFolder)/\(name)", encoding: .utf8)
    let parts = text.components(separatedBy: target)
    try #require(parts.count == 2, "\(name): \(parts.count - 1) occurrences of \(target)")
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("edited-\(getpid())-\(name)").path
    try parts.joined(separator: replacement).write(toFile: path, atomically: true, encoding: .utf8)
    return path
}

/// Frame `frame` of the Lottie file at `path`, drawn by us at its own size.
func ourFrame(_ path: String, frame: Double) throws -> RGBAImage {
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
    let loaded = try LottieLoader.decode(bytes: bytes, file: (path as NSString).lastPathComponent)
    let animation = try #require(loaded.composition.foreign?.model as? LottieAnimation)
    return try SceneRenderer.render(
        SceneEvaluator.scene(of: loaded.composition, at: (frame - animation.inPoint) / animation.frameRate))
}

@Suite struct ReferenceRendererTests {
    /// Every T1, T2 and T3 corpus file at 8 instants of its loop against rlottie and ThorVG, composited
    /// on white and on black. Where the references agree (≥ 45 dB on both backgrounds), ours
    /// must be within 40 dB of both (issue 21's numbers); where they do not, the numbers are
    /// printed and nothing is asserted (one of them drops a feature).
    @Test(
        .enabled(
            if: FileManager.default.fileExists(atPath: "\(corpusFolder)/README.md"),
            "needs the Lottie corpus at ../shared/lottie beside the package"),
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: venvPython),
            "needs .build/tools-venv (make deps) for rlottie-python and thorvg-python"))
    func tiersOneToThreeCorpusMatchesBothReferencesWhereTheyAgree() throws {
        let files = corpusFiles(tiers: ["T1", "T2", "T3"])
        #expect(files.count >= 25, "T1–T3 files found in the corpus README: \(files)")
        var compared = 0
        for name in files {
            let path = "\(corpusFolder)/\(name)"
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            let loaded = try LottieLoader.decode(bytes: bytes, file: name)
            let animation = try #require(loaded.composition.foreign?.model as? LottieAnimation)
            let width = Int(animation.width.rounded())
            let height = Int(animation.height.rounded())
            let span = animation.outPoint - animation.inPoint
            // Whole frames (rlottie draws integral frames only), 8 spread over the loop.
            var frames: [Int] = []
            for k in 0..<8 {
                let f = Int((animation.inPoint + span * Double(k) / 8).rounded(.down))
                if !frames.contains(f) { frames.append(f) }
            }
            guard let rl = referenceFrames(path, renderer: "rlottie", frames: frames, width: width, height: height),
                let tv = referenceFrames(path, renderer: "thorvg", frames: frames, width: width, height: height)
            else {
                print("\(name): a reference renderer is unavailable for it; skipped")
                continue
            }
            for (k, f) in frames.enumerated() {
                let t = (Double(f) - animation.inPoint) / animation.frameRate
                let ours = try SceneRenderer.render(SceneEvaluator.scene(of: loaded.composition, at: t))
                var row: [String] = []
                var agree = true
                var worst = Double.infinity
                for background in [255.0, 0.0] {
                    let refs = psnr(rl[k], tv[k], background: background)
                    let a = psnr(ours, rl[k], background: background)
                    let b = psnr(ours, tv[k], background: background)
                    agree = agree && refs >= 45
                    worst = min(worst, a, b)
                    row.append(
                        "\(background == 255 ? "white" : "black"): refs \(String(format: "%.1f", refs)) rlottie \(String(format: "%.1f", a)) thorvg \(String(format: "%.1f", b))"
                    )
                }
                print("\(name) frame \(f): \(row.joined(separator: "; "))")
                if agree {
                    compared += 1
                    if let reason = knownDeviations["\(name)@\(f)"] {
                        withKnownIssue("below 40 dB: \(reason)") {
                            #expect(worst >= 40, "\(name) frame \(f): \(row.joined(separator: "; "))")
                        }
                    } else {
                        #expect(worst >= 40, "\(name) frame \(f): \(row.joined(separator: "; "))")
                    }
                }
            }
        }
        #expect(compared >= 40, "instants where the references agree: \(compared)")
    }

    /// Why `lottie-spec-time_stretch.json@525` is a known deviation: rlottie and ThorVG cache
    /// keyframe interpolators under a key of the four handles printed with `%.2f`, so the
    /// pendulum's segment 450 → 599 (o 0.603, 0.004; i 0.407, 1.001) eases with the curve of
    /// 150 → 299 (o 0.603, 0.005; i 0.407, 1.004): both draw frame 525 exactly as they draw 225
    /// (75 frames into a 149-frame swing each). The spec gives every keyframe its own `o` and
    /// `i`, and ours differs between the two (0.0896° and 0.2395°,
    /// `eachKeyframeEasesWithItsOwnHandlesEvenWhenTheyRoundAlike`).
    @Test(
        .enabled(
            if: FileManager.default.fileExists(atPath: "\(corpusFolder)/lottie-spec-time_stretch.json"),
            "needs the Lottie corpus at ../shared/lottie beside the package"),
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: venvPython),
            "needs .build/tools-venv (make deps) for rlottie-python and thorvg-python"))
    func referencesEaseTwoSegmentsWhoseHandlesRoundAlikeWithOneCurve() throws {
        let path = "\(corpusFolder)/lottie-spec-time_stretch.json"
        for renderer in ["rlottie", "thorvg"] {
            let frames = try #require(
                referenceFrames(path, renderer: renderer, frames: [225, 525], width: 500, height: 500))
            #expect(frames[0].pixels == frames[1].pixels, "\(renderer): frames 225 and 525 differ")
        }
        let ours225 = try ourFrame(path, frame: 225)
        let ours525 = try ourFrame(path, frame: 525)
        #expect(ours225.pixels != ours525.pixels)
    }

    /// Why own `easing.json` is below 40 dB in `make bench-lottie` (33.4 / 33.0, the references
    /// 47.2 apart): its position has per-dimension handles (x eases in-out, y eases in, `i.x`
    /// [0.58, 1]), which the spec allows ("for vector properties … one element per dimension so
    /// you can have different easing curves per dimension", Keyframe Easing) and lottie-web
    /// applies per dimension; rlottie and ThorVG read the first element of each handle array
    /// and ease both axes with the x curve. At frame 3 (u 0.3) the marker is at (18.74, 12.96)
    /// by the spec and at y = x for both references.
    @Test(
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: venvPython),
            "needs .build/tools-venv (make deps) for rlottie-python and thorvg-python"))
    func referencesEaseEveryDimensionWithTheFirstDimensionsHandles() throws {
        let path = "\(Fixture.folder)/easing.json"
        let x = 100 * cubicEase(0.3, 0.42, 0, 0.58, 1)
        let y = 100 * cubicEase(0.3, 0.42, 0, 1, 1)
        let ours = try #require(inkCentre(try ourFrame(path, frame: 3)))
        #expect(abs(ours.x - x) < 0.05 && abs(ours.y - y) < 0.05, "ours \(ours), expected (\(x), \(y))")
        for renderer in ["rlottie", "thorvg"] {
            let frames = try #require(referenceFrames(path, renderer: renderer, frames: [3], width: 200, height: 200))
            let centre = try #require(inkCentre(frames[0]))
            // ThorVG's centre is 19.0 on both axes, rlottie's 18.74: same curve for x and y.
            #expect(abs(centre.x - centre.y) < 0.01, "\(renderer): \(centre)")
            #expect(abs(centre.x - x) < 0.5, "\(renderer): \(centre), x by the spec \(x)")
        }
    }

    /// Why `skia-sample_2.json@100` is a known deviation: at frame 100 every property is at a
    /// keyframe's value, and the same file with its stroke replaced by a fill of the same colour
    /// agrees with both references (≥ 50 dB asserted; 57.0–63.6 measured at 800 × 600), so the
    /// import's geometry is theirs and the difference is the wide stroke's edges (50 at scale
    /// 200 %), where both references are up to 0.55 px inside the exact stroke and ours within
    /// 0.09 (drawn at 512 px, scripts/lottie_stroke_exact.py).
    @Test(
        .enabled(
            if: FileManager.default.fileExists(atPath: "\(corpusFolder)/skia-sample_2.json"),
            "needs the Lottie corpus at ../shared/lottie beside the package"),
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: venvPython),
            "needs .build/tools-venv (make deps) for rlottie-python and thorvg-python"))
    func sample2AtFrame100AgreesWithBothReferencesWhenFilledInsteadOfStroked() throws {
        // The one stroke becomes a fill of the same colour and opacity (a fill ignores the
        // stroke's own members lc, lj, ml and w).
        let path = try editedCorpusCopy("skia-sample_2.json", replacing: #""ty": "st""#, with: #""ty": "fl""#)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let ours = try ourFrame(path, frame: 100)
        for renderer in ["rlottie", "thorvg"] {
            let frames = try #require(
                referenceFrames(path, renderer: renderer, frames: [100], width: ours.width, height: ours.height))
            for background in [255.0, 0.0] {
                let value = psnr(ours, frames[0], background: background)
                print("skia-sample_2.json filled, frame 100, ours against \(renderer) on \(background): \(value) dB")
                #expect(value >= 50, "\(renderer) on \(background): \(value) dB")
            }
        }
    }
}
