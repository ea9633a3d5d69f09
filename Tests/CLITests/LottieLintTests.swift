// SPDX-License-Identifier: GPL-3.0-or-later

import Encode
import Export
import Foundation
import Testing

private func still(_ k: JSONText) -> JSONText { .object(["a": .integer(0), "k": k]) }

private func keys(_ holds: [Bool]) -> JSONText {
    .object([
        "a": .integer(1),
        "k": .array(
            holds.enumerated().map { i, h in
                h
                    ? .object(["t": .integer(i * 10), "s": .array([.integer(i)]), "h": .integer(1)])
                    : .object(["t": .integer(i * 10), "s": .array([.integer(i)])])
            }),
    ])
}

/// The lottie-ios Core Animation lint (`LottieLint`): each of the four things the engine cannot
/// play found at its place in a layer, with its exact message; what it can play is not reported.
@Suite struct LottieLintTests {
    static let rect: JSONText = .object([
        "ty": .string("rc"), "p": still(.array([.integer(5), .integer(5)])),
        "s": still(.array([.integer(4), .integer(4)])), "r": still(.integer(0)),
    ])
    static let fill: JSONText = .object([
        "ty": .string("fl"), "c": still(.array([.integer(1), .integer(0), .integer(0)])),
    ])
    static func layer(_ items: [JSONText], opacity: JSONText = still(.integer(100))) -> JSONText {
        .object([
            "ty": .integer(4), "ks": .object(["o": opacity]),
            "shapes": .array([.object(["ty": .string("gr"), "it": .array(items)])]),
        ])
    }
    static func stroke(dash: JSONText, offset: JSONText) -> JSONText {
        .object([
            "ty": .string("st"), "c": still(.array([.integer(0), .integer(0), .integer(0)])), "w": still(.integer(2)),
            "d": .array([
                .object(["n": .string("d"), "v": dash]), .object(["n": .string("g"), "v": still(.integer(3))]),
                .object(["n": .string("o"), "v": offset]),
            ]),
        ])
    }

    @Test func trimOnAFilledShape() {
        let trim: JSONText = .object([
            "ty": .string("tm"), "s": still(.integer(0)), "e": still(.integer(50)), "o": still(.integer(0)),
        ])
        #expect(
            LottieLint.coreAnimationFindings(inLayer: Self.layer([Self.rect, trim, Self.fill]))
                == [LottieLint.Finding(path: ".shapes[0].it[1]", message: LottieLint.trimOnFill)])
        #expect(
            LottieLint.trimOnFill
                == "trim on a filled shape: lottie-ios's Core Animation engine trims stroked shapes only and falls back to its main-thread engine"
        )
        // A trim that cuts nothing (0…100), or a trim with only a stroke, is fine.
        let whole: JSONText = .object(["ty": .string("tm"), "s": still(.integer(0)), "e": still(.integer(100))])
        #expect(LottieLint.coreAnimationFindings(inLayer: Self.layer([Self.rect, whole, Self.fill])).isEmpty)
        let stroke = Self.stroke(dash: still(.integer(4)), offset: still(.integer(0)))
        #expect(LottieLint.coreAnimationFindings(inLayer: Self.layer([Self.rect, trim, stroke])).isEmpty)
    }

    @Test func animatedDashLengthsButNotAnAnimatedOffset() {
        let lengths = Self.stroke(dash: keys([false, false]), offset: still(.integer(0)))
        #expect(
            LottieLint.coreAnimationFindings(inLayer: Self.layer([Self.rect, lengths]))
                == [LottieLint.Finding(path: ".shapes[0].it[1].d", message: LottieLint.animatedDash)])
        #expect(
            LottieLint.animatedDash
                == "animated dash pattern: lottie-ios's Core Animation engine cannot animate dash or gap lengths and falls back to its main-thread engine"
        )
        // Marching ants (the offset moves): lottie-ios animates lineDashPhase.
        let ants = Self.stroke(dash: still(.integer(4)), offset: keys([false, false]))
        #expect(LottieLint.coreAnimationFindings(inLayer: Self.layer([Self.rect, ants])).isEmpty)
    }

    @Test func mixedHoldAndNonHoldKeyframes() {
        #expect(
            LottieLint.coreAnimationFindings(
                inLayer: Self.layer([Self.rect, Self.fill], opacity: keys([true, false, false])))
                == [LottieLint.Finding(path: ".ks.o", message: LottieLint.mixedHold)])
        #expect(
            LottieLint.mixedHold
                == "mixed hold and non-hold keyframes in one property: lottie-ios's Core Animation engine before lottie-ios pull request #1644 (July 2022) cannot play them"
        )
        // All hold, all linear, or a hold only on the last keyframe (nothing follows it): fine.
        for holds in [[true, true, true], [false, false, false], [false, false, true]] {
            #expect(
                LottieLint.coreAnimationFindings(
                    inLayer: Self.layer([Self.rect, Self.fill], opacity: keys(holds))
                ).isEmpty, "\(holds)")
        }
    }

    @Test func mergePaths() {
        let merge: JSONText = .object(["ty": .string("mm"), "mm": .integer(1)])
        #expect(
            LottieLint.coreAnimationFindings(inLayer: Self.layer([Self.rect, Self.rect, merge, Self.fill]))
                == [LottieLint.Finding(path: ".shapes[0].it[2]", message: LottieLint.mergePaths)])
        #expect(
            LottieLint.mergePaths
                == "merge paths (mm): lottie-ios's Core Animation engine cannot draw them and falls back to its main-thread engine"
        )
    }

    @Test func noBundledPresetTripsTheLintOnExport() throws {
        // The writer keeps trims in the stroke's group, a property all hold or all linear, no
        // merge paths, and presets cannot animate dash lengths: exporting airplane (dashed,
        // its phase animated) says nothing about lottie-ios.
        let dir = try temporaryDirectory()
        let run = try runTool([packageRoot + "/presets/airplane.json", "-o", "a.lottie.json"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!run.stderr.contains("lottie-ios"), "\(run.stderr)")
    }

    @Test func validateWithFormatLottieChecksTheExport() throws {
        let dir = try temporaryDirectory()
        let ok = try runTool(
            ["validate", packageRoot + "/presets/airplane.json", "--strict", "--format", "lottie"], in: dir)
        #expect(ok.status == 0, "\(ok.stderr)")
        #expect(ok.stderr.isEmpty, "\(ok.stderr)")
        // What export refuses, validate --format lottie refuses too (it said "valid" before).
        let refused = try runTool(
            ["validate", packageRoot + "/presets/flipping-square.json", "--format", "lottie"], in: dir)
        #expect(refused.status == 65)
        #expect(
            refused.stderr.contains(
                "error: $.layers[0]: rotation3D (a perspective transform) cannot be expressed in Lottie"),
            "\(refused.stderr)")
        #expect(listing(dir).isEmpty)
    }

    @Test func anExportLottieCannotExpressIsSaidAtItsLineAndNothingIsWritten() throws {
        // Found by a fresh user: the export's refusal had no line:column and no "nothing
        // written" note, where validate --format lottie and every other refusal have both.
        let dir = try temporaryDirectory()
        let run = try runTool([packageRoot + "/presets/flipping-square.json", "-o", "fs.lottie.json"], in: dir)
        #expect(run.status == 65)
        let preset = packageRoot + "/presets/flipping-square.json"
        #expect(
            run.stderr
                == """
                \(preset):15:5: error: $.layers[0]: rotation3D (a perspective transform) cannot be expressed in Lottie
                \(preset): note: 1 error; nothing written

                """, "\(run.stderr)")
        #expect(listing(dir).isEmpty)
    }
}
