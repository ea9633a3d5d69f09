// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
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
/// nil when the renderer refuses or crashes (reference unavailable, not our failure).
func referenceFrames(_ file: String, renderer: String, frames: [Int], width: Int, height: Int) -> [RGBAImage]? {
    let out = FileManager.default.temporaryDirectory.appendingPathComponent(
        "lottie-ref-\(getpid())-\(renderer)-\((file as NSString).lastPathComponent)")
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

/// Instants where both references agree and ours falls short of 40 dB, measured and not yet
/// explained (both at the steepest point of an ease-in-out, where a 0.3° difference in the
/// pendulum's or the morph's progress moves a stroke edge by one pixel): 39.3 dB and 38.4 dB
/// on white. Listed so the test still fails for any other instant and when these are fixed.
///
/// `lottie-web-dalek.json` (T3; bodymovin 3.1.6): its fill colours are on the 0–255 scale of
/// bodymovin before 4.1.9 (`[7, 6, 6, 255]` for the body), which lottie-web divides by 255 and
/// so do we (docs/lottie.md, legacy files): a black Dalek with white details. rlottie and ThorVG
/// both wrap c·255 modulo 256 to 8 bits and draw it near-white with (1, 1, 1) details, so they
/// agree with each other and not with the file's own player: ours against both is 22.6, 18.5,
/// 8.8, 8.9 and 8.8 dB at frames 0, 36, 72, 108 and 145 (our side of it is checked by
/// `colorsOfFilesBefore419AreOnA255Scale`). Frame 217 (27.1 dB) is the layer start time: the
/// TARDIS cabinet (`st` −28) has its scale evaluated at its own time 245 by us, as lottie-web
/// does (every keyframed property of a layer is read at frame − `st`,
/// `KeyframedValueProperty.offsetTime`), and at the composition's 217 by both references
/// (docs/lottie.md, where the references disagree). Listed so the test still fails for any
/// other instant.
let knownDeviations: Set<String> = [
    "lottie-spec-time_stretch.json@525", "skia-sample_2.json@100", "lottie-web-dalek.json@0",
    "lottie-web-dalek.json@36", "lottie-web-dalek.json@72", "lottie-web-dalek.json@108",
    "lottie-web-dalek.json@145", "lottie-web-dalek.json@217",
]

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
                    if knownDeviations.contains("\(name)@\(f)") {
                        withKnownIssue("below 40 dB, see knownDeviations") {
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
}
