// SPDX-License-Identifier: GPL-3.0-or-later

import Encode
public import Spec
public import Timeline

/// Lints about a loop plan, said by `validate` and on export alike.
public enum LoopLints {
    /// Lints that need the loop plan: a period off the GIF's 1/100 s grid, and cycles that line up
    /// only after many of the longest one (a huge loop nobody meant).
    /// - Parameters:
    ///   - plan: the loop plan at the requested frame rate.
    ///   - file: the preset file, for the diagnostics.
    ///   - composition: the composition `plan` was made for.
    /// - Returns: warnings with lint names `period-off-grid` (none for a still, whose plan has
    ///   no loop, nor for a loop of one frame; naming `--speed` when the preset's own period is on the grid and only the
    ///   speed moves it off), `loop-cut` and `long-loop`. `loop-cut` compares the loop and the
    ///   cycles on the same clock (the composition's: `plan.clockPeriod`; under `--speed` a
    ///   preset's `duration` and its cycles are both divided by the speed) and states them in the
    ///   file's seconds (divided by `plan.speed`).
    ///   - formats: the kinds written, in order, for `loop-cut` to name what jumps ("the GIF",
    ///     "the GIF and APNG"); nil or none: "the loop" (`validate`).
    public static func lints(
        _ plan: LoopPlan, file: String, composition: Composition, formats: [OutputFormatKind]? = nil
    ) -> [Diagnostic] {
        var lints: [Diagnostic] = []
        let gifPlan = (try? GIFFormat().framePlan(for: plan, of: composition, duration: plan.period)) ?? plan
        let delays = FrameTiming.centisecondDelays(period: gifPlan.period, frameCount: gifPlan.frameCount)
        let timing = TimingReport.make(plan: gifPlan, delays: delays, grid: .centiseconds)
        // A Lottie file's loop is (op − ip) / fr: it has no "duration" key to point at.
        let durationPath = composition.foreign != nil ? "$.op" : composition.duration != nil ? "$.duration" : "$"
        // A still (nothing repeats, nothing ends, or a loop of one frame, such as a Lottie file
        // with op − ip = 1) has no timing to be off the grid.
        let isStill = plan.source == .still || plan.frameCount < 2
        let clockCentiseconds = plan.clockPeriod * 100
        let onGridAtSpeedOne = abs(clockCentiseconds - clockCentiseconds.rounded()) < 1e-6
        if timing.durationError != 0, !isStill, plan.speed != 1, onGridAtSpeedOne {
            // The preset's own period is on the grid: `--speed` moved it off.
            lints.append(
                Diagnostic(
                    .warning, file: file, path: durationPath, location: nil,
                    message:
                        "--speed \(formatNumber(plan.speed)) makes the loop period \(formatNumber(plan.period)) s (the preset's \(formatNumber(plan.clockPeriod)) s), which does not land on the 1/100 s grid of GIF delays, so the GIF lasts \(formatNumber(timing.totalDuration)) s; pick a --speed that divides the period into whole centiseconds",
                    lint: "period-off-grid"
                ))
        } else if timing.durationError != 0, !isStill {
            lints.append(
                Diagnostic(
                    .warning, file: file, path: durationPath, location: nil,
                    message:
                        "the loop period \(formatNumber(plan.period)) s does not land on the 1/100 s grid of GIF delays, so the GIF lasts \(formatNumber(timing.totalDuration)) s; make the period a whole number of centiseconds",
                    lint: "period-off-grid"
                ))
        }
        // The cycles run on the composition's clock, as does `clockPeriod`; both are shown in
        // the file's seconds.
        let cut = LoopPlan.cyclesCut(by: plan.clockPeriod, in: composition)
        if plan.source == .explicit, !cut.isEmpty {
            var shown: [String] = []
            for cycle in cut where !shown.contains(formatNumber(cycle / plan.speed)) {
                shown.append(formatNumber(cycle / plan.speed))
            }
            let list = shown.map { $0 + " s" }.joined(separator: ", ")
            lints.append(
                Diagnostic(
                    .warning, file: file, path: durationPath, location: nil,
                    message:
                        "the loop of \(formatNumber(plan.period)) s holds no whole number of the \(list) \(cut.count == 1 ? "cycle" : "cycles"), so \(jumper(formats)) at the seam; use a multiple of the cycle or leave the duration to the tool",
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
                            "the animations' cycles (\(list)) line up only every \(formatNumber(lcm / 1000)) s, so the loop has \(counted(plan.frameCount, "frame")); make the cycles divide each other or set \"duration\"",
                        lint: "long-loop"
                    ))
            }
        }
        return lints
    }

    /// What jumps at a cut seam, with its verb: "the GIF jumps", "the GIF and APNG jump", "the
    /// loop jumps" (no formats, or only a still).
    static func jumper(_ formats: [OutputFormatKind]?) -> String {
        var names: [String] = []
        for kind in formats ?? [] {
            let name: String? =
                switch kind {
                case .gif: "GIF"
                case .apng: "APNG"
                case .webp: "WebP"
                case .sheet: "sprite sheet"
                case .frames: "PNG frames"
                case .lottie: "Lottie file"
                case .still: nil
                }
            if let name, !names.contains(name) { names.append(name) }
        }
        guard let last = names.last else { return "the loop jumps" }
        if names.count == 1 { return last == "PNG frames" ? "the PNG frames jump" : "the \(last) jumps" }
        return "the \(names.dropLast().joined(separator: ", ")) and \(last) jump"
    }
}
