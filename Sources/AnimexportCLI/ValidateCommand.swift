// SPDX-License-Identifier: GPL-3.0-or-later

import Encode
import Export
import Foundation
import OutputFiles
import Spec
import Timeline
import ToolOptions

/// `animexport validate PRESET...`: reads every preset (with every `--set` combination) and
/// plans its loop without rendering, printing every error and lint at once. Lints are the
/// decoder's warnings plus the loop checks here; `--strict` makes them errors.
enum ValidateCommand {
    /// Lints about GIF output only: `period-off-grid` (a loop off the 1/100 s grid of GIF
    /// delays) and `fps-above-50` (GIF cannot play more than 50 frames per second).
    static let gifLints: Set<String> = ["period-off-grid", "fps-above-50"]

    static func run(_ options: Options, console: Console) -> ExitCode {
        let presets: [FilePath]
        do {
            presets = try JobPlanner.presetFiles(options.presets, options: options, console: console)
        } catch {
            console.error(error.message)
            return .usage
        }
        var code = ExitCode.success
        for path in presets {
            code = code.combined(with: validate(path, options: options, console: console))
        }
        return code
    }

    /// Validates one preset file; returns its exit code.
    static func validate(_ path: FilePath, options: Options, console: Console) -> ExitCode {
        var printed = Set<String>()
        var errors = 0
        var warnings = 0
        var code = ExitCode.success
        // Loop facts per `--set` combination, labelled by the settings that fan out.
        var facts: [String] = []
        let fanOut = options.settings.filter { $0.values.count > 1 }.map(\.name)
        // The GIF lints (`gifLints`) are about GIF delays, and on export they are said only
        // when a GIF is written (JobPlanner). validate writes nothing: it says them with what
        // they apply to, and `--strict` fails on them only when GIF output is asked for
        // (`--format gif`).
        let asksForGIF = options.formats?.contains(.gif) ?? false
        var gifOnly = 0
        func emit(_ d: Diagnostic) {
            var shown = d
            let onlyGIF = d.severity == .warning && Self.gifLints.contains(d.lint ?? "") && !asksForGIF
            if onlyGIF {
                shown.message += " (applies to GIF output only; --strict fails on it with --format gif)"
            } else if options.strict && d.severity == .warning {
                shown.severity = .error
            }
            guard printed.insert(shown.description).inserted else { return }
            console.diagnostic(shown)
            if d.severity == .error {
                errors += 1
            } else if onlyGIF {
                gifOnly += 1
            } else {
                warnings += 1
            }
        }
        for variant in Variant.expand(options.settings) {
            let loaded: LoadedPreset
            do {
                loaded = try JobPlanner.readPreset(path, overrides: variant.overrides)
            } catch let error as PresetError {
                error.diagnostics.forEach(emit)
                code = code.combined(with: .badPreset)
                continue
            } catch let error as ParameterOverrideError {
                if printed.insert(error.message).inserted { console.error(error.message, file: path.description) }
                code = code.combined(with: .usage)
                continue
            } catch {
                console.error("\(error)")
                return .failure
            }
            loaded.warnings.forEach(emit)
            let composition = loaded.composition
            let fps = options.fps ?? composition.fps
            // The budget, checked before anything could be rendered (docs/preset-format.md, Limits).
            let speed = options.variantOptions.speed
            for violation in ExportBudget.check(
                composition, fps: options.fps, duration: options.duration, speed: speed)
            {
                if let d = violation.diagnostic(file: path.description, composition: composition) {
                    emit(d)
                } else if printed.insert(violation.description).inserted {
                    console.error(violation.description, file: path.description)
                    code = code.combined(with: .usage)
                }
            }
            do {
                let plan = try LoopPlan.make(
                    for: composition, fps: fps, duration: options.duration, fpsIsOption: options.fps != nil,
                    speed: speed)
                LoopLints.lints(plan, file: path.description, composition: composition, formats: options.formats)
                    .filter { !composition.allowedLints.contains($0.lint ?? "") }
                    .forEach(emit)
                // When Lottie output is asked for: what Lottie cannot express (an error, as export
                // refuses it) and what lottie-ios's Core Animation engine cannot play.
                if options.formats?.contains(.lottie) == true {
                    do {
                        try LottieLint.diagnostics(of: composition, plan: plan, file: path.description)
                            .filter { !composition.allowedLints.contains($0.lint ?? "") }.forEach(emit)
                    } catch {
                        // The writer's messages start with the layer's path, which the
                        // diagnostic shows already.
                        var d = error.diagnostic(file: path.description, composition: composition)
                        if d.message.hasPrefix(d.path + ": ") { d.message.removeFirst(d.path.count + 2) }
                        emit(d)
                    }
                }
                let label = fanOut.map { "\($0)=\(variant.overrides[$0] ?? "")" }.joined(separator: ", ")
                facts.append(
                    (label.isEmpty ? "" : label + ": ")
                        + "\(formatNumber(plan.period)) s loop, \(counted(plan.frameCount, "frame")) at \(formatNumber(fps)) fps, \(formatNumber(composition.canvas.width))×\(formatNumber(composition.canvas.height)) pt"
                )
            } catch {
                if let violation = error.violation, violation.isUsageError {
                    if printed.insert(violation.description).inserted {
                        console.error(violation.description, file: path.description)
                    }
                    code = code.combined(with: .usage)
                } else {
                    emit(error.diagnostic(file: path.description, composition: composition))
                }
            }
        }
        if errors > 0 { code = code.combined(with: .badPreset) }
        if options.strict && warnings > 0 { code = code.combined(with: .badPreset) }
        let lint =
            options.strict
            ? ("lint (an error under --strict)", "lints (errors under --strict)") : ("warning", "warnings")
        let counts = [
            (errors, ("error", "errors")), (warnings, lint),
            (gifOnly, ("warning for GIF output only", "warnings for GIF output only")),
        ]
        .filter { $0.0 > 0 }
        .map { counted($0.0, $0.1.0, plural: $0.1.1) }
        if code == .success {
            if !options.quiet {
                let extra = counts.isEmpty ? "" : "; " + counts.joined(separator: ", ")
                let summary = facts.isEmpty ? "no loop" : facts.joined(separator: "; ")
                console.out("\(path): valid (\(summary))\(extra)")
            }
        } else if !counts.isEmpty {
            console.note(counts.joined(separator: ", "), file: path.description)
        }
        return code
    }
}
