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

    /// The loop period in seconds of the file as it plays, > 0: the period on the composition's
    /// clock divided by `speed`. Frame delays and durations are cut from it.
    public var period: Double
    /// Where the loop starts on the composition's clock, in seconds: the first whole period at
    /// which every delayed animation is already cycling (semantics §3.5), or 0.
    public var start: Double
    /// Number of frames, ≥ 1: `round(period · fps)`.
    public var frameCount: Int
    /// Frames per second the plan was made for.
    public var fps: Double
    /// Where `period` came from.
    public var source: Source
    /// Composition seconds per second of the file (`--speed`), > 0; 1 plays the preset as
    /// written. Like CAMediaTiming `speed` on the root layer: every animation, timer and state
    /// event runs this many times faster, so the file's loop lasts `clockPeriod / speed`.
    public var speed: Double = 1
    /// The loop period on the composition's clock when `speed` is not 1 (nil: `period`).
    var scaledClockPeriod: Double?
    /// Which loop frame the file starts with (`--poster`), 0…`frameCount − 1` after wrapping:
    /// the fraction of the loop, 0 ≤ phase < 1, that frame 0 shows. Frame `i` shows loop frame
    /// `(i + k) mod frameCount` with `k = round(posterPhase · frameCount)`, so the frames are
    /// the same instants in a rotated order and the loop stays exact.
    public var posterPhase: Double = 0

    /// The loop period on the composition's clock, seconds: `period · speed`, kept as the
    /// decimal it was computed as (so sample times stay exact fractions).
    public var clockPeriod: Double { scaledClockPeriod ?? period }

    /// The rotation `posterPhase` asks for, in frames: 0…`frameCount − 1`.
    public var posterOffset: Int {
        guard posterPhase > 0, posterPhase < 1, frameCount > 1 else { return 0 }
        let k = (posterPhase * Double(frameCount)).rounded()
        // 0 < k ≤ frameCount here, so the conversion cannot trap.
        return Int(k) % frameCount
    }

    /// Time in seconds on the composition's clock of frame `index` (0-based):
    /// `start + j · clockPeriod / frameCount` with `j` the index after the `posterOffset`
    /// rotation, computed exactly and rounded once (`sampleTime(ofFrame:)`).
    public func time(ofFrame index: Int) -> Double {
        sampleTime(ofFrame: index).seconds
    }

    /// All frame times in order.
    public var frameTimes: [Double] { (0..<frameCount).map(time(ofFrame:)) }
}

/// Why a loop plan could not be made.
public struct LoopPlanError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What went wrong and what to do about it.
    public var message: String
    /// JSONPath of the preset value to blame (`$.layers[0].animations[1].speed`), when one
    /// animation or key is to blame; nil when the cause is the whole preset or an option.
    public var path: String?
    /// Set when a limit of `ExportBudget` is exceeded (loop period, loop start, frame count):
    /// which preset value or option (`--duration`, `--fps`), the value and the limit. An
    /// option's violation is a usage error (exit 64); everything else is exit 65.
    public var violation: BudgetViolation?

    /// An error; see the properties.
    public init(message: String, path: String? = nil, violation: BudgetViolation? = nil) {
        self.message = message
        self.path = path
        self.violation = violation
    }

    /// The message.
    public var description: String { message }

    /// The error as a `Diagnostic` of `file`, at its JSON path (`$` when none) with the line
    /// and column `composition.sourceLocations` records for that path.
    public func diagnostic(file: String, composition: Composition) -> Diagnostic {
        let at = path ?? "$"
        return Diagnostic(
            .error, file: file, path: at, location: composition.sourceLocations[at], message: message)
    }
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
        try make(for: composition, fps: fps, duration: duration, fpsIsOption: false)
    }

    /// `make(for:fps:duration:)`, saying whether `fps` came from the command line (`--fps`), so
    /// a frame count over the budget blames the option instead of the preset's `fps`.
    ///
    /// Every limit of `ExportBudget` on time is enforced here, before any array is sized: the
    /// loop period (`minimumPeriod`…`maximumPeriod` for an explicit one, `maximumPeriod` for a
    /// computed one), the loop start (`maximumStart`) and the frame count (`maximumFrameCount`);
    /// no float-to-integer conversion can trap (each is range-checked first).
    /// - Throws: `LoopPlanError`, with `violation` set for a budget limit and `path` naming the
    ///   animation key to blame (`speed`, `repeatCount`, `beginTime`, `repeatDuration`,
    ///   `duration`) when there is one.
    ///
    /// With `speed` other than 1 (`--speed`) the preset's loop is played that many times faster:
    /// the period computed on the composition's clock (or the preset's `duration`) is divided by
    /// `speed`, while `duration` (the option) is the file's period and is multiplied by it to
    /// find the stretch of the composition's clock the loop covers. The file's period must lie
    /// within `minimumPeriod`…`maximumPeriod`; a violation blames `--speed`.
    public static func make(
        for composition: Composition, fps: Double, duration: Double?, fpsIsOption: Bool, speed: Double = 1
    ) throws(LoopPlanError) -> LoopPlan {
        guard speed.isFinite, speed > 0 else {
            throw budgetError(
                .option("--speed"), value: speed, limit: 0,
                "the speed must be a finite number > 0, found \(formatNumber(speed))")
        }
        let fpsSubject: BudgetSubject = fpsIsOption ? .option("--fps") : .preset(path: "$.fps")
        guard fps.isFinite, fps > 0 else {
            throw budgetError(
                fpsSubject, value: fps, limit: 0,
                "frames per second must be a finite number > 0, found \(formatNumber(fps))")
        }
        let tracks = topLevelAnimations(composition.layers)
        let forever = tracks.filter(\.repeatsForever)
        let finite = tracks.filter { !$0.repeatsForever }
        let latest = forever.max { $0.beginTime < $1.beginTime }
        let lastTrack = finite.max { $0.endTime < $1.endTime }
        // State changes (docs/swiftui-semantics.md): repeating ones add their period (and any
        // repeatForever transaction's cycle) to the LCM and delay the start to their steady
        // loop; one-off ones end like a finite animation.
        let schedule = composition.state?.schedule ?? .empty
        var stateCycles = schedule.foreverCycles
        if let p = schedule.period { stateCycles.insert(p.doubleValue, at: 0) }
        let stateRunEnd = stateCycles.isEmpty ? schedule.runEnd : 0
        let stateStart = stateCycles.isEmpty ? 0 : schedule.loopStart.doubleValue
        let stateLeads = stateStart > (latest?.beginTime ?? 0)
        let latestBegin = max(latest?.beginTime ?? 0, stateStart)
        let stateEndsLast = stateRunEnd > (lastTrack?.endTime ?? 0)
        let lastEnd = max(lastTrack?.endTime ?? 0, stateRunEnd)
        let hasFinite = !finite.isEmpty || stateRunEnd > 0

        var period: Double
        var source: Source
        var start = 0.0
        // `--duration` is the file's period: on the composition's clock it lasts `speed` times
        // longer, computed in fractions so a short decimal stays one.
        let clockDuration = duration.map { d -> Double in
            guard speed != 1, let a = Rational(decimal: d), let b = Rational(decimal: speed),
                let product = a.multiplied(by: b)
            else { return d * speed }
            return product.doubleValue
        }
        if let explicit = clockDuration ?? composition.duration {
            let subject: BudgetSubject = duration != nil ? .option("--duration") : .preset(path: "$.duration")
            guard explicit.isFinite, explicit >= ExportBudget.minimumPeriod else {
                throw budgetError(
                    subject, value: explicit, limit: ExportBudget.minimumPeriod,
                    "a loop period of \(formatNumber(explicit)) s is shorter than \(formatNumber(ExportBudget.minimumPeriod)) s (one GIF delay unit)"
                )
            }
            guard explicit <= ExportBudget.maximumPeriod else {
                throw budgetError(
                    subject, value: explicit, limit: ExportBudget.maximumPeriod,
                    "a loop period of \(formatNumber(explicit)) s is longer than the limit of \(formatNumber(ExportBudget.maximumPeriod)) s"
                )
            }
            period = explicit
            source = .explicit
        } else if forever.isEmpty && stateCycles.isEmpty && lastEnd <= 0 {
            period = 1 / fps
            source = .still
        } else {
            var lcm: Int64 = 0
            var cycles: [Double] = []
            let limitMs = maximumComputedPeriod * 1000
            for seconds in stateCycles {
                let ms = (seconds * 1000).rounded()
                guard abs(seconds * 1000 - ms) < 1e-6, ms >= 1, ms <= limitMs, let whole = Int64(exactly: ms) else {
                    throw LoopPlanError(
                        message:
                            "the state repeats every \(formatNumber(seconds)) s, which is not a whole number of milliseconds up to \(formatNumber(maximumComputedPeriod)) s; set \"duration\" in the preset or pass --duration",
                        path: "$.events")
                }
                cycles.append(seconds)
                lcm = lcm == 0 ? whole : leastCommonMultiple(lcm, whole)
            }
            for track in forever {
                let seconds = track.period
                let ms = (seconds * 1000).rounded()
                // Checked before `Int64(ms)`: a speed of 1e-300 makes a cycle of 1e300 s.
                guard ms <= limitMs else {
                    let key = track.cycleLength <= maximumComputedPeriod && track.speed < 1 ? "speed" : "duration"
                    throw LoopPlanError(
                        message:
                            "an animation's cycle of \(formatNumber(seconds)) s is longer than the \(formatNumber(maximumComputedPeriod)) s a loop may be computed to; set \"duration\" in the preset or pass --duration",
                        path: blamePath(track, key))
                }
                guard abs(seconds * 1000 - ms) < 1e-6, ms >= 1, let whole = Int64(exactly: ms) else {
                    let key = track.speed != 1 ? "speed" : "duration"
                    throw LoopPlanError(
                        message:
                            "an animation's cycle of \(formatNumber(seconds)) s is not a whole number of milliseconds, so no exact loop period exists; set \"duration\" in the preset or pass --duration",
                        path: blamePath(track, key))
                }
                cycles.append(seconds)
                lcm = lcm == 0 ? whole : leastCommonMultiple(lcm, whole)
                if Double(lcm) > limitMs {
                    let list = Set(cycles).sorted().map { formatNumber($0) + " s" }
                    throw LoopPlanError(
                        message:
                            "the animations' cycles (\(list.joined(separator: ", "))) only line up after more than \(formatNumber(maximumComputedPeriod)) s; set \"duration\" in the preset or pass --duration to cut a shorter loop",
                        path: blamePath(track, "duration"))
                }
            }
            if !hasFinite {
                period = Double(lcm) / 1000
            } else if lcm == 0 {
                period = lastEnd
            } else {
                let base = Double(lcm) / 1000
                period = (lastEnd / base).rounded(.up) * base
            }
            source = .cycles(cycles)
            // A computed loop under one GIF delay unit (a Timer every 1 ms, a 5 ms animation)
            // is refused here, before any frame is drawn, as an explicit one is above.
            if period < ExportBudget.minimumPeriod {
                let path =
                    !stateCycles.isEmpty || stateEndsLast
                    ? "$.events" : (forever.first ?? lastTrack).map { blamePath($0, "duration") } ?? "$"
                throw budgetError(
                    .preset(path: path), value: period, limit: ExportBudget.minimumPeriod,
                    "the animations make a loop of \(formatNumber(period)) s, shorter than \(formatNumber(ExportBudget.minimumPeriod)) s (one GIF delay unit); make it longer or set \"duration\""
                )
            }
            if !(period <= ExportBudget.maximumPeriod), stateEndsLast || lastTrack != nil {
                let path = stateEndsLast ? "$.events" : lastTrack.map { blamePath($0, endKey(of: $0)) } ?? "$"
                let lastEnd = stateEndsLast ? stateRunEnd : lastEnd
                throw budgetError(
                    .preset(path: path), value: period, limit: ExportBudget.maximumPeriod,
                    "the loop must hold this animation's whole run, \(formatNumber(lastEnd)) s, which is longer than the limit of \(formatNumber(ExportBudget.maximumPeriod)) s for a loop; shorten it or make it repeat forever"
                )
            }
        }
        if !hasFinite, latestBegin > 0 {
            start = (latestBegin / period - 1e-9).rounded(.up) * period
            if !(start <= ExportBudget.maximumStart), stateLeads || latest != nil {
                let path = stateLeads ? "$.events" : latest.map { blamePath($0, "beginTime") } ?? "$"
                throw budgetError(
                    .preset(path: path), value: latestBegin,
                    limit: ExportBudget.maximumStart,
                    "the loop starts once every animation runs, at \(formatNumber(start)) s here, later than the limit of \(formatNumber(ExportBudget.maximumStart)) s"
                )
            }
        }
        // The file's period: the composition's loop played `speed` times faster. A still
        // picture has no time to scale.
        let scaled = speed != 1 && source != .still
        // `--duration` is the file's period as given; otherwise the composition's divided.
        let filePeriod = scaled ? (duration ?? period / speed) : period
        if scaled {
            // As `--duration`'s own range: a GIF frame lasts at least 2 cs (semantics §8.4).
            let shortest = 2 * ExportBudget.minimumPeriod
            guard filePeriod >= shortest else {
                throw budgetError(
                    .option("--speed"), value: speed, limit: period / shortest,
                    "the \(formatNumber(period)) s loop at speed \(formatNumber(speed)) lasts \(formatNumber(filePeriod)) s, shorter than \(formatNumber(shortest)) s (one GIF frame); use a speed up to \(formatNumber(period / shortest))"
                )
            }
            guard filePeriod <= ExportBudget.maximumPeriod else {
                throw budgetError(
                    .option("--speed"), value: speed, limit: period / ExportBudget.maximumPeriod,
                    "the \(formatNumber(period)) s loop at speed \(formatNumber(speed)) lasts \(formatNumber(filePeriod)) s, longer than the limit of \(formatNumber(ExportBudget.maximumPeriod)) s"
                )
            }
        }
        let frames = (filePeriod * fps).rounded()
        guard frames <= Double(ExportBudget.maximumFrameCount) else {
            let subject: BudgetSubject =
                fpsIsOption ? fpsSubject : duration != nil ? .option("--duration") : fpsSubject
            throw budgetError(
                subject, value: frames, limit: Double(ExportBudget.maximumFrameCount),
                "\(formatNumber(filePeriod)) s at \(formatNumber(fps)) fps is \(formatNumber(frames)) frames, more than the limit of \(ExportBudget.maximumFrameCount)"
            )
        }
        let count = max(1, Int(exactly: frames) ?? 1)
        var plan = LoopPlan(period: filePeriod, start: start, frameCount: count, fps: fps, source: source)
        if scaled {
            plan.speed = speed
            plan.scaledClockPeriod = period
        }
        return plan
    }

    /// A `LoopPlanError` carrying a budget violation; its message names the subject.
    private static func budgetError(_ subject: BudgetSubject, value: Double, limit: Double, _ message: String)
        -> LoopPlanError
    {
        let violation = BudgetViolation(subject: subject, value: value, limit: limit, message: message)
        // A preset path travels in `path` (diagnostics print it); an option leads the message.
        switch subject {
        case .preset(let path): return LoopPlanError(message: message, path: path, violation: violation)
        case .option: return LoopPlanError(message: violation.description, path: nil, violation: violation)
        }
    }

    /// `track`'s JSONPath with `key` appended, or `$` when the animation was not decoded.
    static func blamePath(_ track: Animation, _ key: String) -> String {
        track.sourcePath.isEmpty ? "$" : "\(track.sourcePath).\(key)"
    }

    /// The key that makes a finite animation end late: `beginTime` when the start dominates,
    /// `speed` when the local run fits but slowing stretches it, else `repeatDuration`,
    /// `repeatCount` or `duration`.
    static func endKey(of track: Animation) -> String {
        let run = track.activeDuration / track.speed
        if track.beginTime >= run { return "beginTime" }
        if track.activeDuration <= ExportBudget.maximumPeriod, track.speed < 1 { return "speed" }
        if track.repeatDuration != nil { return "repeatDuration" }
        if track.repeatCount > 1 { return "repeatCount" }
        return "duration"
    }

    /// The cycles (seconds, parent time) of forever-repeating animations, and of the state's
    /// repeat and `repeatForever` transactions, that `period` does not hold a whole number of
    /// times: with an explicit `duration` they jump at the loop's seam.
    public static func cyclesCut(by period: Double, in composition: Composition) -> [Double] {
        var cycles = topLevelAnimations(composition.layers).filter(\.repeatsForever).map(\.period)
        if let schedule = composition.state?.schedule {
            cycles += schedule.foreverCycles
            if let p = schedule.period { cycles.append(p.doubleValue) }
        }
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
