// SPDX-License-Identifier: GPL-3.0-or-later

public import Spec

/// Which instants become frames: the loop period, where the loop starts, and how many frames
/// it is cut into (semantics.md §7).
///
/// Frame `i` of `frameCount` is sampled at `start + i · period / frameCount`; the instant
/// `start + period` is never drawn, because it equals frame 0 and would hitch the loop.
public struct LoopPlan: Equatable, Sendable {
    /// Where the period came from.
    public enum Source: Equatable, Sendable {
        /// Least common multiple of the repeating animations' cycles (seconds each).
        case cycles([Double])
        /// Set by the preset's `duration` or the CLI's `--duration`.
        case explicit
        /// Nothing repeats and nothing ends: a still picture shown for one frame.
        case still
    }

    /// The loop period in seconds, > 0.
    public var period: Double
    /// Time of frame 0 in seconds: the first whole period at which every delayed animation is
    /// already cycling (semantics §3.5), or 0.
    public var start: Double
    /// Number of frames, ≥ 1: `round(period · fps)`.
    public var frameCount: Int
    /// Frames per second the plan was made for.
    public var fps: Double
    /// Where `period` came from.
    public var source: Source

    /// Time in seconds of frame `index` (0-based): `start + index · period / frameCount`.
    public func time(ofFrame index: Int) -> Double {
        start + Double(index) * period / Double(frameCount)
    }

    /// All frame times in order.
    public var frameTimes: [Double] { (0..<frameCount).map(time(ofFrame:)) }
}

/// Why a loop plan could not be made.
public struct LoopPlanError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What went wrong and what to do about it.
    public var message: String
    /// The message.
    public var description: String { message }
}

extension LoopPlan {
    /// Longest loop accepted without an explicit duration, in seconds.
    public static let maximumComputedPeriod = 60.0

    /// Plans the frames of `composition`.
    ///
    /// The period is, in order of preference: `duration` (the CLI's `--duration`), the preset's
    /// `duration`, or the least common multiple of every forever-repeating animation's cycle in
    /// parent time (`duration · (autoreverses ? 2 : 1) / speed`), computed on a 1 ms grid. When
    /// some animations end (finite repeat), the loop must also hold their whole run: the period
    /// becomes the smallest multiple of that LCM reaching the last end, and the loop starts at 0.
    /// Otherwise the loop starts at the first whole period after the latest `beginTime`, so every
    /// track is in its steady state (semantics §3.5).
    ///
    /// - Parameters:
    ///   - composition: the validated preset.
    ///   - fps: frames per second, > 0.
    ///   - duration: an explicit period in seconds overriding everything, or nil.
    /// - Throws: `LoopPlanError` when a cycle is not a whole number of milliseconds, or when the
    ///   LCM exceeds `maximumComputedPeriod` (the message names the cycles and suggests
    ///   `--duration`).
    public static func make(for composition: Composition, fps: Double, duration: Double? = nil)
        throws(LoopPlanError) -> LoopPlan
    {
        let tracks = topLevelAnimations(composition.layers)
        let forever = tracks.filter(\.repeatsForever)
        let finite = tracks.filter { !$0.repeatsForever }
        let latestBegin = forever.map(\.beginTime).max() ?? 0
        let lastEnd = finite.map(\.endTime).max() ?? 0

        var period: Double
        var source: Source
        var start = 0.0
        if let explicit = duration ?? composition.duration {
            period = explicit
            source = .explicit
        } else if forever.isEmpty && lastEnd <= 0 {
            period = 1 / fps
            source = .still
        } else {
            var lcm: Int64 = 0
            var cycles: [Double] = []
            for track in forever {
                let seconds = track.period
                let ms = (seconds * 1000).rounded()
                guard abs(seconds * 1000 - ms) < 1e-6, ms >= 1 else {
                    throw LoopPlanError(
                        message:
                            "an animation's cycle of \(formatNumber(seconds)) s is not a whole number of milliseconds, so no exact loop period exists; set \"duration\" in the preset or pass --duration"
                    )
                }
                cycles.append(seconds)
                lcm = lcm == 0 ? Int64(ms) : leastCommonMultiple(lcm, Int64(ms))
                if lcm > Int64(maximumComputedPeriod * 1000) {
                    let list = Set(cycles).sorted().map { formatNumber($0) + " s" }
                    throw LoopPlanError(
                        message:
                            "the animations' cycles (\(list.joined(separator: ", "))) only line up after more than \(formatNumber(maximumComputedPeriod)) s; set \"duration\" in the preset or pass --duration to cut a shorter loop"
                    )
                }
            }
            if finite.isEmpty {
                period = Double(lcm) / 1000
            } else if lcm == 0 {
                period = lastEnd
            } else {
                let base = Double(lcm) / 1000
                period = (lastEnd / base).rounded(.up) * base
            }
            source = .cycles(cycles)
        }
        if finite.isEmpty, latestBegin > 0 {
            start = (latestBegin / period).rounded(.up) * period
        }
        let count = max(1, Int((period * fps).rounded()))
        return LoopPlan(period: period, start: start, frameCount: count, fps: fps, source: source)
    }

    /// The cycles (seconds, parent time) of forever-repeating animations that `period` does not
    /// hold a whole number of times: with an explicit `duration` they jump at the loop's seam.
    public static func cyclesCut(by period: Double, in composition: Composition) -> [Double] {
        let cycles = topLevelAnimations(composition.layers).filter(\.repeatsForever).map(\.period)
        let cut = cycles.filter { cycle in
            let ratio = period / cycle
            return abs(ratio - ratio.rounded()) > 1e-6
        }
        return Array(Set(cut)).sorted()
    }

    /// Every animation attached directly to a layer (group children ride on their group). Inside
    /// a replicator the last copy starts `(instanceCount − 1) · instanceDelay` later, so that lag
    /// is added to `beginTime` for the steady-state rule.
    static func topLevelAnimations(_ layers: [Layer], lag: Double = 0) -> [Animation] {
        layers.flatMap { layer -> [Animation] in
            var own = layer.animations
            if lag > 0 {
                own = own.map { a in
                    var shifted = a
                    shifted.beginTime += lag
                    return shifted
                }
            }
            var childLag = lag
            if case .replicator(_, let r) = layer.state.shape {
                childLag += Double(max(r.instanceCount - 1, 0)) * r.instanceDelay
            }
            return own + topLevelAnimations(layer.children, lag: childLag)
        }
    }
}

func greatestCommonDivisor(_ a: Int64, _ b: Int64) -> Int64 {
    var (a, b) = (abs(a), abs(b))
    while b != 0 { (a, b) = (b, a % b) }
    return a
}

func leastCommonMultiple(_ a: Int64, _ b: Int64) -> Int64 {
    let g = greatestCommonDivisor(a, b)
    return g == 0 ? 0 : a / g * b
}
