// SPDX-License-Identifier: GPL-3.0-or-later

import Encode
import Foundation
import Spec
import Timeline

/// `animexport validate PRESET...`: reads every preset (with every `--set` combination) and
/// plans its loop without rendering, printing every error and lint at once. Lints are the
/// decoder's warnings plus the loop checks here; `--strict` makes them errors.
enum ValidateCommand {
    static func run(_ options: Options, console: Console) -> ExitCode {
        let presets: [String]
        do {
            presets = try JobPlanner.presetFiles(options.presets)
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
    static func validate(_ path: String, options: Options, console: Console) -> ExitCode {
        var printed = Set<String>()
        var errors = 0
        var warnings = 0
        var code = ExitCode.success
        // Loop facts per `--set` combination, labelled by the settings that fan out.
        var facts: [String] = []
        let fanOut = options.settings.filter { $0.values.count > 1 }.map(\.name)
        func emit(_ d: Diagnostic) {
            var shown = d
            if options.strict && d.severity == .warning { shown.severity = .error }
            guard printed.insert(shown.description).inserted else { return }
            console.diagnostic(shown)
            if d.severity == .error { errors += 1 } else { warnings += 1 }
        }
        for variant in Variant.expand(options.settings) {
            let loaded: LoadedPreset
            do {
                loaded = try PresetLoader.load(
                    contentsOf: path, overrides: variant.overrides, fontAvailable: Exporter.fontAvailable)
            } catch let error as PresetError {
                error.diagnostics.forEach(emit)
                code = code.combined(with: .badPreset)
                continue
            } catch let error as ParameterOverrideError {
                if printed.insert(error.message).inserted { console.error("\(path): \(error.message)") }
                code = code.combined(with: .usage)
                continue
            } catch {
                console.error("\(error)")
                return .failure
            }
            loaded.warnings.forEach(emit)
            let composition = loaded.composition
            let fps = options.fps ?? composition.fps
            do {
                let plan = try LoopPlan.make(for: composition, fps: fps, duration: options.duration)
                loopLints(plan, file: path, composition: composition)
                    .filter { !composition.allowedLints.contains($0.lint ?? "") }
                    .forEach(emit)
                let label = fanOut.map { "\($0)=\(variant.overrides[$0] ?? "")" }.joined(separator: ", ")
                facts.append(
                    (label.isEmpty ? "" : label + ": ")
                        + "\(formatNumber(plan.period)) s loop, \(plan.frameCount) frames at \(formatNumber(fps)) fps, \(formatNumber(composition.canvas.width))×\(formatNumber(composition.canvas.height)) pt"
                )
            } catch {
                emit(Diagnostic(.error, file: path, path: "$", location: nil, message: error.message))
            }
        }
        if errors > 0 { code = code.combined(with: .badPreset) }
        if options.strict && warnings > 0 { code = code.combined(with: .badPreset) }
        let counts = [(errors, "error"), (warnings, options.strict ? "lint (an error under --strict)" : "warning")]
            .filter { $0.0 > 0 }
            .map { "\($0.0) \($0.1)\($0.0 == 1 ? "" : "s")" }
        if code == .success {
            if !options.quiet {
                let extra = counts.isEmpty ? "" : "; " + counts.joined(separator: ", ")
                let summary = facts.isEmpty ? "no loop" : facts.joined(separator: "; ")
                console.out("\(path): valid (\(summary))\(extra)")
            }
        } else if !counts.isEmpty {
            console.note("\(path): \(counts.joined(separator: ", "))")
        }
        return code
    }

    /// Lints that need the loop plan: a period off the GIF's 1/100 s grid, and cycles that line up
    /// only after many of the longest one (a huge loop nobody meant).
    static func loopLints(_ plan: LoopPlan, file: String, composition: Composition) -> [Diagnostic] {
        var lints: [Diagnostic] = []
        let gifPlan = (try? Exporter.gifPlan(for: plan, of: composition, duration: plan.period)) ?? plan
        let delays = FrameTiming.centisecondDelays(period: gifPlan.period, frameCount: gifPlan.frameCount)
        let timing = TimingReport.make(plan: gifPlan, delays: delays, grid: .centiseconds)
        let durationPath = composition.duration != nil ? "$.duration" : "$"
        if timing.durationError != 0 {
            lints.append(
                Diagnostic(
                    .warning, file: file, path: durationPath, location: nil,
                    message:
                        "the loop period \(formatNumber(plan.period)) s does not land on the 1/100 s grid of GIF delays, so the GIF lasts \(formatNumber(timing.totalDuration)) s; make the period a whole number of centiseconds",
                    lint: "period-off-grid"
                ))
        }
        let cut = LoopPlan.cyclesCut(by: plan.period, in: composition)
        if plan.source == .explicit, !cut.isEmpty {
            let list = cut.map { formatNumber($0) + " s" }.joined(separator: ", ")
            lints.append(
                Diagnostic(
                    .warning, file: file, path: durationPath, location: nil,
                    message:
                        "the loop of \(formatNumber(plan.period)) s holds no whole number of the \(list) cycle\(cut.count == 1 ? "" : "s"), so the GIF jumps at its seam; use a multiple of the cycle or leave the duration to the tool",
                    lint: "loop-cut"))
        }
        if case .cycles(let cycles) = plan.source, let longest = cycles.max() {
            // The period is the cycles' least common multiple (LoopPlan computes it).
            let lcm = (plan.period * 1000).rounded()
            if lcm > 4 * (longest * 1000).rounded() {
                let list = Set(cycles).sorted().map { formatNumber($0) + " s" }.joined(separator: ", ")
                lints.append(
                    Diagnostic(
                        .warning, file: file, path: "$", location: nil,
                        message:
                            "the animations' cycles (\(list)) line up only every \(formatNumber(lcm / 1000)) s, so the loop has \(plan.frameCount) frames; make the cycles divide each other or set \"duration\"",
                        lint: "long-loop"
                    ))
            }
        }
        return lints
    }
}
