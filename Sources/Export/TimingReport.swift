// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Spec
public import Timeline

/// How an encoded loop is timed: when each frame was meant to show, when the file shows it, and
/// what players will make of it. Written by `--report` and shown by `--preview`.
public struct TimingReport: Equatable, Sendable {
    /// The unit the file stores durations in: 1/`stepsPerSecond` s.
    public struct Grid: Equatable, Hashable, Sendable {
        /// Steps per second, ≥ 1: 100 for GIF delays, 1000 for sheet and WebP durations, the
        /// common denominator of an APNG's `delay_num/delay_den` fractions.
        public var stepsPerSecond: Int

        /// A grid of 1/`stepsPerSecond` s.
        public init(stepsPerSecond: Int) { self.stepsPerSecond = max(1, stepsPerSecond) }

        /// GIF delays: 1/100 s.
        public static let centiseconds = Grid(stepsPerSecond: 100)
        /// Sprite-sheet `duration` and WebP timestamps: 1/1000 s.
        public static let milliseconds = Grid(stepsPerSecond: 1000)

        /// The unit's short name: `cs`, `ms`, or `1/30 s`.
        public var unit: String {
            switch stepsPerSecond {
            case 100: "cs"
            case 1000: "ms"
            default: "1/\(stepsPerSecond) s"
            }
        }

        /// The unit's name in a sentence: `centiseconds`, `milliseconds`, `1/30 s steps`.
        public var name: String {
            switch stepsPerSecond {
            case 100: "centiseconds"
            case 1000: "milliseconds"
            default: "1/\(stepsPerSecond) s steps"
            }
        }

        /// Frame `i`'s start of `n` over a period of whole microseconds `micros`, in steps, by the
        /// cumulative rule the encoders use (`FrameTiming`): `round(i·µs·steps / (10^6·n))`,
        /// halves up, in 128-bit integers so that no product overflows.
        func boundary(_ i: Int, of n: Int, micros: Int) -> Int {
            let numerator = Int128(i) * Int128(micros) * Int128(stepsPerSecond)
            let denominator = Int128(1_000_000) * Int128(max(1, n))
            return Int((2 * numerator + denominator) / (2 * denominator))
        }
    }

    /// One encoded frame.
    public struct Frame: Equatable, Sendable {
        /// Index of the frame in the file, from 0.
        public var index: Int
        /// The first frame of the loop plan it shows (differs from `index` when an encoder merged
        /// identical neighbours).
        public var sourceFrame: Int
        /// How many plan frames it stands for, ≥ 1.
        public var sourceFrameCount: Int
        /// When the plan meant it to appear, in seconds from the loop's start.
        public var time: Double
        /// When it appears as encoded: the sum of the earlier delays, in seconds.
        public var encodedTime: Double
        /// Its delay in `grid` units (centiseconds or milliseconds).
        public var delay: Int
    }

    /// The unit of `Frame.delay`.
    public var grid: Grid
    /// The loop period the plan asked for, in seconds.
    public var period: Double
    /// The plan's time of frame 0 on the preset's clock, in seconds.
    public var start: Double
    /// Frames per second the plan was made for.
    public var fps: Double
    /// Frames in the plan (the file may hold fewer when neighbours were merged).
    public var frameCount: Int
    /// Every frame in the file, in order.
    public var frames: [Frame]
    /// Sum of the delays, in seconds.
    public var totalDuration: Double
    /// `totalDuration − period` in seconds: 0 whenever the period lies on the grid.
    public var durationError: Double
    /// Things a reviewer should know: players that clamp short delays, a period off the grid,
    /// a frame rate that the period does not divide. One sentence each.
    public var warnings: [String]

    /// Compares a plan with the delays a file stores.
    /// - Parameters:
    ///   - plan: the loop plan the frames were rendered from.
    ///   - delays: the delays as encoded, in `grid` units, one per frame in the file (fewer than
    ///     `plan.frameCount` when identical frames were merged).
    ///   - grid: centiseconds for a GIF, milliseconds for a sprite sheet.
    /// - Returns: the report; its warnings follow semantics §8.4 (browsers play delays under
    ///   2 cs as 10 cs; some iOS GIF libraries clamp delays under 10 cs to 10 cs).
    public static func make(plan: LoopPlan, delays: [Int], grid: Grid) -> TimingReport {
        let g = Double(grid.stepsPerSecond)
        // Boundary of plan frame i on the grid, the same cumulative rule the encoders use.
        let micros = plan.period.isFinite && plan.period > 0 ? Int(min(plan.period, 1e9) * 1_000_000 + 0.5) : 0
        let boundaries = (0...max(0, plan.frameCount)).map { grid.boundary($0, of: plan.frameCount, micros: micros) }

        var frames: [Frame] = []
        var elapsed = 0
        var source = 0
        for (k, delay) in delays.enumerated() {
            var end = source + 1
            if delays.count == plan.frameCount {
                source = k
                end = k + 1
            } else {
                // Merged frames: the plan frame whose boundary the encoded start lands on (or the
                // next one after it), up to the one where the encoded frame ends.
                while source + 1 < plan.frameCount, boundaries[source] < elapsed { source += 1 }
                end = source + 1
                while end < plan.frameCount, boundaries[end] < elapsed + delay { end += 1 }
            }
            frames.append(
                Frame(
                    index: k, sourceFrame: source, sourceFrameCount: max(1, end - source),
                    time: Double(source) * plan.period / Double(plan.frameCount),
                    encodedTime: Double(elapsed) / g, delay: delay))
            elapsed += delay
        }
        let total = Double(elapsed) / g
        var errorSteps = Double(elapsed) - plan.period * g
        if abs(errorSteps) < 1e-6 { errorSteps = 0 }
        let error = errorSteps / g

        var warnings: [String] = []
        let unit = grid.unit
        if error != 0 {
            warnings.append(
                "the loop period \(formatNumber(plan.period)) s is not a whole number of \(grid.name), so the file lasts \(formatNumber(total)) s (\(formatNumber(error * 1000)) ms off)"
            )
        }
        let actualRate = Double(plan.frameCount) / plan.period
        if abs(actualRate - plan.fps) > 1e-9 {
            warnings.append(
                "\(plan.frameCount) frames in \(formatNumber(plan.period)) s is \(formatNumber(actualRate)) fps, not \(formatNumber(plan.fps)): the period is not a whole number of frames"
            )
        }
        if grid == .centiseconds {
            let under2 = delays.filter { $0 < 2 }.count
            if under2 > 0 {
                warnings.append(
                    "\(under2) of \(delays.count) frames have delays under 2 \(unit); browsers play those as 10 cs")
            }
            let under10 = delays.filter { $0 < 10 }.count
            if under10 > 0 {
                let clamped = Double(delays.map { max($0, 10) }.reduce(0, +)) / g
                warnings.append(
                    "\(under10) of \(delays.count) frames have delays under 10 cs; some GIF players (several iOS libraries) raise those to 10 cs, so there the loop lasts \(formatNumber(clamped)) s instead of \(formatNumber(total)) s"
                )
            }
        }
        return TimingReport(
            grid: grid, period: plan.period, start: plan.start, fps: plan.fps, frameCount: plan.frameCount,
            frames: frames, totalDuration: total, durationError: error, warnings: warnings)
    }
}
