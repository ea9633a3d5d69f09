// SPDX-License-Identifier: GPL-3.0-or-later

import Encode
import Export
import Spec
import Timeline

/// The `--report` file: for every job, the params in effect, the loop plan, and the GIF's and
/// the sheet's timing frame by frame (`docs/cli.md` documents every field).
enum ReportWriter {
    /// The report as JSON text (fixed key order, locale-independent numbers, final newline).
    static func json(_ products: [JobProduct]) -> String {
        JSONText.object([
            "tool": .string("animexport"),
            "version": .string(Command.version),
            "animations": .array(products.map(animation)),
        ]).rendered()
    }

    private static func animation(_ product: JobProduct) -> JSONText {
        let job = product.job
        let source: String
        switch job.plan.source {
        case .cycles: source = "cycles"
        case .explicit: source = "duration"
        case .still: source = "still"
        }
        let members: KeyValuePairs<String, JSONText> = [
            // JSON text must be valid UTF-8: a name that is not holds U+FFFD for each bad part.
            "preset": .string(job.presetPath.unicode),
            "name": .string(job.composition.name),
            "output": .string(job.stem),
            "files": .array(job.paths.map { .string($0.unicode) }),
            "scale": .number(job.scale),
            "params": .object(
                job.composition.parameters.map { JSONText.Member(key: $0.name, value: value($0.value)) }),
            "loop": .object([
                "period": .number(job.plan.period), "start": .number(job.plan.start), "source": .string(source),
                // --speed: the preset's clock runs `speed` times as fast; its loop lasts
                // clockPeriod on that clock and period in the file.
                "speed": .number(job.plan.speed), "clockPeriod": .number(job.plan.clockPeriod),
                // --poster: the fraction of the loop that frame 0 shows and the loop frame it is.
                "poster": .object([
                    "phase": .number(job.plan.posterPhase), "frame": .integer(job.plan.posterOffset),
                ]),
            ]),
            "gif": gifTiming(product).map(timing) ?? .null,
            "sheet": sheetTiming(product).map(timing) ?? .null,
        ]
        return .object(members.map { JSONText.Member(key: $0.key, value: $0.value) } + otherTimings(product))
    }

    /// The sheet's timing: the sheet's own, or the plan's on the millisecond grid when no sheet
    /// was made (a sheet's durations depend on the plan alone).
    private static func sheetTiming(_ product: JobProduct) -> TimingReport? {
        if product.job.request.stillTime != nil { return nil }
        if let timing = product.product(.sheet)?.timing { return timing }
        let plan = product.job.plan
        return TimingReport.make(
            plan: plan, delays: FrameTiming.millisecondDurations(period: plan.period, frameCount: plan.frameCount),
            grid: .milliseconds)
    }

    /// The timing of every other animated format the job wrote (`apng`, `webp`), keyed by its
    /// `--format` name, in target order.
    private static func otherTimings(_ product: JobProduct) -> [JSONText.Member] {
        var members: [JSONText.Member] = []
        for p in product.products where p.target.written && ![.gif, .sheet].contains(p.target.kind) {
            guard let report = p.timing, !members.contains(where: { $0.key == p.target.kind.rawValue }) else {
                continue
            }
            members.append(JSONText.Member(key: p.target.kind.rawValue, value: timing(report)))
        }
        return members
    }

    /// The GIF's timing as the file stores it, or the delays a GIF of the job would get.
    private static func gifTiming(_ product: JobProduct) -> TimingReport? {
        if product.job.request.stillTime != nil { return nil }
        if let timing = product.product(.gif)?.timing { return timing }
        let job = product.job
        guard let plan = try? GIFFormat().framePlan(for: job.plan, of: job.composition, duration: job.request.duration)
        else { return nil }
        return TimingReport.make(
            plan: plan, delays: FrameTiming.centisecondDelays(period: plan.period, frameCount: plan.frameCount),
            grid: .centiseconds)
    }

    /// A param's value with its JSON type: numbers and booleans as such, colours as `#RRGGBB[AA]`.
    private static func value(_ value: ParameterValue) -> JSONText {
        switch value {
        case .number(let n): .number(n)
        case .bool(let b): .bool(b)
        case .color, .string: .string(value.description)
        }
    }

    static func timing(_ report: TimingReport) -> JSONText {
        .object([
            "unit": .string(report.grid.unit),
            "fps": .number(report.fps),
            "frameCount": .integer(report.frameCount),
            "totalDuration": .number(report.totalDuration),
            "durationError": .number(report.durationError),
            "warnings": .array(report.warnings.map { .string($0) }),
            "frames": .array(
                report.frames.map { f in
                    .object([
                        "index": .integer(f.index), "sourceFrame": .integer(f.sourceFrame),
                        "sourceFrames": .integer(f.sourceFrameCount), "time": .number(f.time),
                        "encodedTime": .number(f.encodedTime), "delay": .integer(f.delay),
                    ])
                }),
        ])
    }
}
