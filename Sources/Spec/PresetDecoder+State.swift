// SPDX-License-Identifier: GPL-3.0-or-later

/// `state`, `events` and layers' `bind`: SwiftUI-style state changes (docs/preset-format.md,
/// docs/swiftui-semantics.md).
extension PresetDecoder {
    static let eventKeys = ["every", "first", "at", "onAppear", "set", "animation", "asyncAfter"]
    static let delayedKeys = ["delay", "set", "animation", "asyncAfter"]
    static let transactionKeys = ["timingFunction", "duration", "repeatCount", "autoreverses", "delay", "speed"]

    /// Most state changes one loop may hold (from t = 0 to the end of the first steady loop).
    public static let maximumStateChanges = 100_000
    /// Longest time, in seconds, the schedule is followed looking for the state to repeat.
    public static let maximumStateHorizon = 600.0
    /// Longest event time, timer period, delay or duration accepted, in seconds.
    static let longestEventTime = 600.0
    /// Deepest `asyncAfter` nesting.
    static let maximumAfterDepth = 8
    /// Most events after flattening `asyncAfter` blocks.
    static let maximumEvents = 100

    /// `state`: `{ "name": initial value }`, numbers or booleans (1/0). Declares the names for
    /// the `bind` expressions decoded after it.
    func decodeStateVariables(_ value: JSONValue, _ path: String) -> [StateVariable] {
        guard let o = context.object(value, path, what: "an object of state variables") else { return [] }
        var variables: [StateVariable] = []
        for member in o.object.members {
            let key = member.key
            let p = o.path(key)
            _ = o.value(key)
            guard Self.isParameterName(key), key != "i" else {
                context.error(
                    p, member.keyLocation,
                    "a state variable needs a name of letters, digits and '_' that is not \"i\" ($i is the replicator instance index)"
                )
                continue
            }
            if context.parameters[key] != nil {
                context.error(p, member.keyLocation, "state variable \"\(key)\" has the name of a parameter")
                continue
            }
            var initial: Double?
            if case .bool(let b) = member.value.kind {
                initial = b ? 1 : 0
            } else {
                initial = context.number(
                    member.value, p, where: { abs($0) <= 1e15 }, expected: "a number of magnitude ≤ 1e15 or a boolean")
            }
            // A bad initial value is reported once; the name is still declared (at 0, and the
            // preset does not render), so the expressions that use it report nothing more.
            variables.append(StateVariable(name: key, initial: initial ?? 0))
        }
        context.stateVariables = variables.map(\.name)
        return variables
    }

    /// Parses a state expression at `path`, resolving state variables and number parameters.
    func stateExpression(_ value: JSONValue, _ path: String) -> StateExpression? {
        var text: String
        switch value.kind {
        case .number(let n): return .number(n)
        case .bool(let b): return .number(b ? 1 : 0)
        case .string(let s): text = s
        default:
            context.error(
                path, value.location, "expected an expression string or a number, found \(value.shortDescription)")
            return nil
        }
        let names = context.stateVariables
        let parameters = context.parameters
        do {
            return try StateExpression.parse(text) { name in
                if let k = names.firstIndex(of: name) { return .variable(k) }
                if case .number(let n)? = parameters[name] { return .number(n) }
                return nil
            }
        } catch {
            // Point at the offending character: the string's opening quote plus the offset.
            var location = value.location
            if let offset = error.offset, !text.contains("\\") {
                location = SourceLocation(line: value.location.line, column: value.location.column + 1 + offset)
            }
            if text.count > 80 { text = String(text.prefix(77)) + "..." }
            context.error(path, location, "\(error.message) in \"\(text)\"")
            return nil
        }
    }

    /// A layer's `bind`: `{ "keyPath": expression }` for number key paths and `hidden`.
    func decodeBindings(_ value: JSONValue, _ path: String) -> [StateBinding] {
        guard let o = context.object(value, path, what: "an object of key paths bound to state expressions") else {
            return []
        }
        if context.stateVariables.isEmpty {
            context.error(
                path, value.location, "\"bind\" needs state variables; declare them in the preset's \"state\"")
        }
        var bindings: [StateBinding] = []
        for member in o.object.members {
            let p = o.path(member.key)
            _ = o.value(member.key)
            guard let property = AnimatableProperty(keyPath: member.key),
                property.valueKind == .number || property.valueKind == .bool || property.valueKind == .scale
            else {
                context.error(
                    p, member.keyLocation,
                    "\"\(member.key)\" cannot be bound to state; bind a number key path (opacity, rotation, scale, strokeEnd, values.NAME, …) or hidden"
                )
                continue
            }
            if let e = stateExpression(member.value, p) {
                bindings.append(StateBinding(property: property, expression: e, sourcePath: p))
            }
        }
        return bindings
    }

    /// `events` with their schedule; nil when there are none or they are broken (reported).
    func decodeStateMachine(variables: [StateVariable], events value: JSONValue?, _ path: String) -> StateMachine? {
        var events: [StateEvent] = []
        if let value, let items = context.array(value, path, of: "events") {
            for (i, item) in items.enumerated() {
                decodeEvent(item, "\(path)[\(i)]", into: &events)
            }
        }
        guard !variables.isEmpty || !events.isEmpty else { return nil }
        if variables.isEmpty {
            context.error(
                path, value?.location, "events change state variables; declare them in the preset's \"state\"")
            return nil
        }
        guard !context.hasErrors else { return nil }
        switch Self.schedule(variables: variables, events: events) {
        case .success(let schedule):
            return StateMachine(variables: variables, events: events, schedule: schedule)
        case .failure(let problem):
            context.error(
                problem.path ?? path, context.locations[problem.path ?? path] ?? value?.location, problem.message)
            return nil
        }
    }

    /// An exact, finite, non-negative time in seconds at `key` of `o` (≤ `longestEventTime`): a
    /// decimal with at most 6 places, or an expression whose exact value (`Expression.exactValue`)
    /// has a denominator up to 10⁶, such as `"1 / 60"` (one display frame at 60 Hz).
    private func eventTime(_ o: ObjectReader, _ key: String, positive: Bool) -> Rational? {
        guard let v = o.value(key) else { return nil }
        let p = o.path(key)
        let expected =
            positive
            ? "a time in seconds in (0, \(formatNumber(Self.longestEventTime))]"
            : "a time in seconds in [0, \(formatNumber(Self.longestEventTime))]"
        guard
            let n = context.number(
                v, p,
                where: { positive ? $0 > 0 && $0 <= Self.longestEventTime : $0 >= 0 && $0 <= Self.longestEventTime },
                expected: expected)
        else { return nil }
        guard let r = context.exactNumber(v), r.denominator <= 1_000_000 else {
            context.error(
                p, v.location,
                "expected a time with at most 6 decimals (whole microseconds) or an exact fraction such as \"1 / 60\" with a denominator up to 1000000, found \(formatNumber(n))"
            )
            return nil
        }
        return r
    }

    private func decodeEvent(_ value: JSONValue, _ path: String, into events: inout [StateEvent]) {
        guard let o = context.object(value, path, what: "an event object") else { return }
        o.ignore("every", "at", "onAppear", "first")
        let triggers = ["every", "at", "onAppear"].filter { o.object[$0] != nil }
        var trigger: EventTrigger?
        if triggers.count != 1 {
            context.error(
                path, value.location,
                triggers.isEmpty
                    ? "an event needs one trigger: \"every\" (a Timer), \"at\" (seconds) or \"onAppear\": true"
                    : "an event takes one trigger, found \(triggers.quotedList)")
        } else if let period = eventTime(o, "every", positive: true) {
            if period < Rational(1, 1000) ?? .one {
                context.error(o.path("every"), o.object["every"]?.location, "a timer period must be at least 0.001 s")
            }
            let first = o.object["first"] != nil ? eventTime(o, "first", positive: false) : period
            if let first { trigger = .every(period: period, first: first) }
        } else if o.object["at"] != nil, let at = eventTime(o, "at", positive: false) {
            trigger = .once(at: at)
        } else if let v = o.value("onAppear") {
            if case .bool(true) = v.kind {
                trigger = .once(at: .zero)
            } else {
                context.error(o.path("onAppear"), v.location, "expected true (the change runs when the view appears)")
            }
        }
        if o.object["first"] != nil && o.object["every"] == nil {
            _ = o.value("first")
            context.error(
                o.path("first"), o.object["first"]?.location,
                "\"first\" is the first tick of a timer; it needs \"every\"")
        }
        decodeChanges(o, path, trigger: trigger, depth: 0, into: &events)
        o.finish(context: "an event", known: Self.eventKeys)
    }

    /// `set`, `animation` and `asyncAfter` of an event or a delayed block firing at `trigger`.
    private func decodeChanges(
        _ o: ObjectReader, _ path: String, trigger: EventTrigger?, depth: Int, into events: inout [StateEvent]
    ) {
        var assignments: [(variable: Int, value: StateExpression)] = []
        if let v = o.value("set"), let s = context.object(v, o.path("set"), what: "an object of state assignments") {
            for member in s.object.members {
                _ = s.value(member.key)
                let p = s.path(member.key)
                guard let k = context.stateVariables.firstIndex(of: member.key) else {
                    var message = "unknown state variable \"\(member.key)\""
                    if let near = suggestion(for: member.key, among: context.stateVariables) {
                        message += "; did you mean \"\(near)\"?"
                    }
                    context.error(p, member.keyLocation, message)
                    continue
                }
                if let e = stateExpression(member.value, p) { assignments.append((k, e)) }
            }
        }
        var transaction = StateTransaction.none
        if let v = o.value("animation") {
            transaction = decodeTransaction(v, o.path("animation")) ?? .none
        }
        if let trigger, case .every = trigger, transaction.length.isInfinite {
            context.error(
                o.path("animation"), o.object["animation"]?.location,
                "a repeatForever animation started by a repeating event piles up without end; start it once (\"onAppear\" or \"at\")"
            )
        }
        if let trigger {
            if events.count >= Self.maximumEvents {
                context.error(path, o.location, "more than \(Self.maximumEvents) events")
                return
            }
            if !assignments.isEmpty {
                events.append(
                    StateEvent(trigger: trigger, assignments: assignments, transaction: transaction, sourcePath: path))
            }
        }
        if let v = o.value("asyncAfter"), let items = context.array(v, o.path("asyncAfter"), of: "delayed changes") {
            guard depth < Self.maximumAfterDepth else {
                context.error(
                    o.path("asyncAfter"), v.location, "asyncAfter nested deeper than \(Self.maximumAfterDepth) levels")
                return
            }
            for (i, item) in items.enumerated() {
                let p = "\(o.path("asyncAfter"))[\(i)]"
                guard let child = context.object(item, p, what: "a delayed change (delay, set, animation)") else {
                    continue
                }
                let delay = child.object["delay"] == nil ? nil : eventTime(child, "delay", positive: false)
                if child.object["delay"] == nil {
                    context.error(
                        p, item.location, "missing required key \"delay\" (seconds after the enclosing change)")
                }
                var childTrigger: EventTrigger?
                if let delay, let trigger {
                    switch trigger {
                    case .once(let at): childTrigger = at.adding(delay).map { .once(at: $0) }
                    case .every(let period, let first):
                        childTrigger = first.adding(delay).map { .every(period: period, first: $0) }
                    }
                }
                decodeChanges(child, p, trigger: childTrigger, depth: depth + 1, into: &events)
                child.finish(context: "a delayed change", known: Self.delayedKeys)
            }
        }
    }

    /// `animation`: null / "none" (no animation), or `{ timingFunction, duration, repeatCount,
    /// autoreverses, delay, speed }` with SwiftUI's defaults (easeInOut? no: `default`, a spring,
    /// when timingFunction is left out, as `withAnimation()` uses `.default`).
    func decodeTransaction(_ value: JSONValue, _ path: String) -> StateTransaction? {
        if case .null = value.kind { return StateTransaction.none }
        if case .string("none") = value.kind { return StateTransaction.none }
        guard let o = context.object(value, path, what: "an animation object or null") else { return nil }
        let function =
            o.value("timingFunction").flatMap { timing($0, o.path("timingFunction")) }
            ?? .spring(Spring(response: 0.55, dampingFraction: 1))
        let speed = o.number("speed", where: { $0 >= 0.001 && $0 <= 1000 }, expected: "a speed in [0.001, 1000]") ?? 1
        let delay =
            o.number(
                "delay", where: { $0 >= 0 && $0 <= Self.longestEventTime },
                expected: "a delay in seconds in [0, \(formatNumber(Self.longestEventTime))]") ?? 0
        let autoreverses = o.bool("autoreverses") ?? false
        var repeatCount = 1.0
        if let v = o.value("repeatCount") {
            if case .string("infinity") = v.kind {
                repeatCount = .infinity
            } else if let hint = Self.repeatForeverHint(
                v, expected: "a whole number of legs in 1…10000 or \"infinity\"")
            {
                context.error(o.path("repeatCount"), v.location, hint)
            } else if let n = context.number(
                v, o.path("repeatCount"), where: { $0 >= 1 && $0 <= 10_000 && $0 == $0.rounded() },
                expected: "a whole number of legs in 1…10000 or \"infinity\"")
            {
                repeatCount = n
            }
        }
        defer { o.finish(context: "an animation", known: Self.transactionKeys) }
        if let spring = function.spring {
            for key in ["duration", "repeatCount", "autoreverses", "delay", "speed"] where o.object[key] != nil {
                context.error(
                    o.path(key), o.object[key]?.location,
                    "\"\(key)\" does not apply to a spring here: a spring runs until it settles and retargets when the state changes again"
                )
            }
            _ = o.value("duration")
            return .spring(spring)
        }
        let duration =
            o.number(
                "duration", where: { $0 > 0 && $0 <= Self.longestEventTime },
                expected: "a duration in seconds in (0, \(formatNumber(Self.longestEventTime))]") ?? 0.35
        return .curve(
            Animation(
                content: .group([]), duration: duration, repeatCount: repeatCount, autoreverses: autoreverses,
                speed: speed, timingFunction: function, style: .swiftUI, delay: delay, sourcePath: path))
    }
}

/// Why no schedule could be made; `path` names the event or key to blame.
struct ScheduleProblem: Error {
    var message: String
    var path: String?
}

extension PresetDecoder {
    /// Works out every change and the steady loop (see `StateSchedule`).
    ///
    /// Timers line up every `base` = LCM of their periods. From `t0` (after every one-off event
    /// and every timer's first tick) the state is sampled at `t0 + j·base`; the first sample
    /// equal to an earlier one, j against i, gives the state period `(j − i)·base`, steady from
    /// `t0 + i·base`. The screen repeats once every animation started before that has ended:
    /// the loop starts a whole number of state periods later, at least the longest finite
    /// transaction's length after it.
    static func schedule(variables: [StateVariable], events: [StateEvent]) -> Result<StateSchedule, ScheduleProblem> {
        let timers = events.indices.filter { if case .every = events[$0].trigger { true } else { false } }
        var base: Rational?
        for k in timers {
            guard case .every(let period, _) = events[k].trigger else { continue }
            guard let b = base else {
                base = period
                continue
            }
            guard let l = lcm(b, period), l.doubleValue <= 60 else {
                return .failure(
                    ScheduleProblem(
                        message:
                            "the timers' periods only line up after more than 60 s; use periods with a shorter common multiple",
                        path: events[k].sourcePath + ".every"))
            }
            base = l
        }
        var lastOnce = Rational.zero
        var latestFirst = Rational.zero
        var finiteLength = 0.0
        var foreverCycles: [Double] = []
        var foreverStart = Rational.zero
        for event in events {
            switch event.trigger {
            case .once(let at): lastOnce = max(lastOnce, at)
            case .every(_, let first): latestFirst = max(latestFirst, first)
            }
            let length = event.transaction.length
            if length.isInfinite, case .curve(let a) = event.transaction {
                foreverCycles.append(a.cycleLength / a.speed)
                if case .once(let at) = event.trigger { foreverStart = max(foreverStart, at) }
            } else {
                finiteLength = max(finiteLength, length)
            }
        }
        let t0 = max(lastOnce, latestFirst)
        var state = variables.map(\.initial)
        var changes: [ScheduledChange] = []
        // Next fire time of every event (nil when done).
        var next: [Rational?] = events.map { e in
            switch e.trigger {
            case .once(let at): at
            case .every(_, let first): first
            }
        }
        /// Applies every event with a fire time ≤ `limit` (or < when `inclusive` is false).
        func advance(to limit: Rational, inclusive: Bool) -> ScheduleProblem? {
            while true {
                var best: Int?
                for k in events.indices {
                    guard let t = next[k] else { continue }
                    guard inclusive ? t <= limit : t < limit else { continue }
                    if let b = best, let tb = next[b], !(t < tb) { continue }
                    best = k
                }
                guard let k = best, let t = next[k] else { return nil }
                let event = events[k]
                let before = state
                for (variable, expression) in event.assignments {
                    state[variable] = expression.evaluate(before, instance: 0)
                }
                changes.append(ScheduledChange(time: t, event: k, values: state))
                if changes.count > maximumStateChanges {
                    return ScheduleProblem(
                        message:
                            "the events make more than \(maximumStateChanges) state changes before the loop repeats; use fewer or slower timers",
                        path: event.sourcePath)
                }
                switch event.trigger {
                case .once: next[k] = nil
                case .every(let period, _): next[k] = t.adding(period)
                }
            }
        }
        guard let base else {
            if let problem = advance(to: lastOnce, inclusive: true) { return .failure(problem) }
            let lastChange = changes.last?.time.doubleValue ?? 0
            let loopStart =
                foreverCycles.isEmpty
                ? Rational.zero : roundUpMilliseconds(max(foreverStart.doubleValue, lastChange + finiteLength))
            return .success(
                StateSchedule(
                    changes: changes, period: nil, loopStart: loopStart ?? .zero,
                    runEnd: foreverCycles.isEmpty ? (changes.isEmpty ? 0 : lastChange + finiteLength) : .infinity,
                    foreverCycles: foreverCycles, longestFiniteLength: finiteLength))
        }
        var samples: [[Double]] = []
        var j: Int64 = 0
        while true {
            guard let offset = base.multiplied(by: Rational(j)), let s = t0.adding(offset),
                s.doubleValue <= maximumStateHorizon
            else {
                return .failure(
                    ScheduleProblem(
                        message:
                            "the state does not come back to an earlier value within \(formatNumber(maximumStateHorizon)) s, so the animation never loops; make the timer's change wrap around (e.g. \"$n == 6 ? 0 : $n + 1\" or \"($n + 1) % 7\")",
                        path: timers.first.map { events[$0].sourcePath }))
            }
            if let problem = advance(to: s, inclusive: true) { return .failure(problem) }
            if let i = samples.firstIndex(of: state) {
                guard let periodR = base.multiplied(by: Rational(j - Int64(i))),
                    let steadyOffset = base.multiplied(by: Rational(Int64(i))), let steady = t0.adding(steadyOffset)
                else { break }
                // A whole number of state periods covering the longest finite animation.
                let periods = (finiteLength / periodR.doubleValue).rounded(.up)
                guard periods <= 1e6, let shift = periodR.multiplied(by: Rational(Int64(periods))),
                    let loopStart = steady.adding(shift), let end = loopStart.adding(periodR),
                    end.doubleValue <= maximumStateHorizon
                else {
                    return .failure(
                        ScheduleProblem(
                            message:
                                "the loop would start after more than \(formatNumber(maximumStateHorizon)) s; shorten the animations or the timers",
                            path: timers.first.map { events[$0].sourcePath }))
                }
                if let problem = advance(to: end, inclusive: false) { return .failure(problem) }
                return .success(
                    StateSchedule(
                        changes: changes, period: periodR, loopStart: loopStart, runEnd: .infinity,
                        foreverCycles: foreverCycles, longestFiniteLength: finiteLength))
            }
            samples.append(state)
            j += 1
        }
        return .failure(ScheduleProblem(message: "the event times overflow exact arithmetic", path: nil))
    }

    /// Least common multiple of two positive fractions; nil on overflow.
    static func lcm(_ a: Rational, _ b: Rational) -> Rational? {
        // lcm(p/q, r/s) = lcm(p·s, r·q) / (q·s), reduced.
        let (ps, o1) = a.numerator.multipliedReportingOverflow(by: b.denominator)
        let (rq, o2) = b.numerator.multipliedReportingOverflow(by: a.denominator)
        let (qs, o3) = a.denominator.multipliedReportingOverflow(by: b.denominator)
        guard !(o1 || o2 || o3), ps > 0, rq > 0 else { return nil }
        var (x, y) = (ps, rq)
        while y != 0 { (x, y) = (y, x % y) }
        let (l, o4) = (ps / x).multipliedReportingOverflow(by: rq)
        guard !o4 else { return nil }
        return Rational(l, qs)
    }

    /// `seconds` rounded up to whole milliseconds, as a fraction.
    static func roundUpMilliseconds(_ seconds: Double) -> Rational? {
        let ms = (seconds * 1000 - 1e-6).rounded(.up)
        guard ms.isFinite, ms >= 0, ms <= 1e12, let whole = Int64(exactly: ms) else { return nil }
        return Rational(whole, 1000)
    }
}
