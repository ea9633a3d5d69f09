// SPDX-License-Identifier: GPL-3.0-or-later

/// SwiftUI-style state: variables, the events that change them, and the animation each change
/// runs under (`docs/swiftui-semantics.md`). Decoded from a preset's `state` and `events`, with
/// the change schedule already worked out (`schedule`), so evaluation is a pure function of time.
public struct StateMachine: Equatable, Sendable {
    /// The variables (`@State var current = 0`), in file order.
    public var variables: [StateVariable]
    /// The events, in file order, with `after` blocks flattened into events of their own.
    public var events: [StateEvent]
    /// Every change from t = 0 to the end of the first steady loop, in time order.
    public var schedule: StateSchedule

    /// A state machine; the decoder is the usual source of one.
    public init(variables: [StateVariable], events: [StateEvent], schedule: StateSchedule) {
        self.variables = variables
        self.events = events
        self.schedule = schedule
    }
}

/// One `@State` variable: a number (booleans are 0 and 1).
public struct StateVariable: Equatable, Sendable {
    /// The name, written `$name` in expressions.
    public var name: String
    /// The value at t = 0, before any event.
    public var initial: Double

    /// A variable.
    public init(name: String, initial: Double) {
        self.name = name
        self.initial = initial
    }
}

/// When an event fires, in seconds (exact fractions of the decimals the preset wrote).
public enum EventTrigger: Equatable, Sendable {
    /// Once, at `time` ≥ 0 (`onAppear` is 0; `DispatchQueue.main.asyncAfter(deadline: .now() + d)`
    /// inside `onAppear` is d).
    case once(at: Rational)
    /// `Timer.publish(every: period)`: at `first`, `first + period`, … (`first` defaults to
    /// `period`: a Timer's first tick comes one interval after it starts).
    case every(period: Rational, first: Rational)
}

/// What an event does: assigns new values to variables inside one transaction.
public struct StateEvent: Equatable, Sendable {
    /// When it fires.
    public var trigger: EventTrigger
    /// Assignments `(variable index, expression)`, all evaluated on the state before the event
    /// and then stored together.
    public var assignments: [(variable: Int, value: StateExpression)]
    /// The animation the change runs under (`withAnimation(...)`), or none (a jump).
    public var transaction: StateTransaction
    /// JSONPath of the event object, for messages.
    public var sourcePath: String

    /// An event.
    public init(
        trigger: EventTrigger, assignments: [(variable: Int, value: StateExpression)],
        transaction: StateTransaction, sourcePath: String
    ) {
        self.trigger = trigger
        self.assignments = assignments
        self.transaction = transaction
        self.sourcePath = sourcePath
    }

    /// Whether two events are the same in every field (tuples are not `Equatable`).
    public static func == (a: StateEvent, b: StateEvent) -> Bool {
        a.trigger == b.trigger && a.transaction == b.transaction && a.sourcePath == b.sourcePath
            && a.assignments.count == b.assignments.count
            && zip(a.assignments, b.assignments).allSatisfy { $0.variable == $1.variable && $0.value == $1.value }
    }
}

/// The animation a state change runs under.
public enum StateTransaction: Equatable, Sendable {
    /// No animation: the screen jumps to the new value.
    case none
    /// A timing curve with SwiftUI's repeat rules (an `Animation` of style `.swiftUI`; its
    /// content is unused): each change animates its own delta, and overlapping ones add up.
    case curve(Animation)
    /// A spring: it retargets a running spring on the same property, keeping its velocity.
    case spring(Spring)

    /// How long the change keeps moving, in seconds: the curve's active time over its speed
    /// (`.infinity` for `repeatForever`), the spring's settling time (semantics §2.4), 0 for none.
    public var length: Double {
        switch self {
        case .none: 0
        case .curve(let a): a.activeDuration.isInfinite ? .infinity : a.activeDuration / a.speed
        case .spring(let s): s.settlingDuration()
        }
    }
}

/// One scheduled change: its time, the event, and the state after it.
public struct ScheduledChange: Equatable, Sendable {
    /// Seconds, exact.
    public var time: Rational
    /// Index into `StateMachine.events`.
    public var event: Int
    /// Every variable's value after the change.
    public var values: [Double]

    /// A change.
    public init(time: Rational, event: Int, values: [Double]) {
        self.time = time
        self.event = event
        self.values = values
    }
}

/// The changes of a state machine and where its steady loop lies.
///
/// `changes` covers `0 ..< loopStart + period` (or everything when nothing repeats). From
/// `loopStart` on, the screen repeats every `period`: the state sequence has come round, and
/// every animation started before the repeat has settled (semantics §3.5, extended to events).
public struct StateSchedule: Equatable, Sendable {
    /// The changes in time order (simultaneous ones in event order).
    public var changes: [ScheduledChange]
    /// Repeat period of what the screen shows, seconds; nil when no event repeats (then the
    /// last change plus its animation's length ends the run, `runEnd`).
    public var period: Rational?
    /// First instant of the steady loop, seconds (0 when `period` is nil).
    public var loopStart: Rational
    /// When the last one-off change has finished animating, seconds (0 without changes);
    /// `.infinity` when a `repeatForever` transaction never ends.
    public var runEnd: Double
    /// Cycles (seconds) of `repeatForever` transactions; a loop period must hold each a whole
    /// number of times.
    public var foreverCycles: [Double]
    /// The longest finite transaction's length (`StateTransaction.length`), seconds: how far
    /// back a change can still move the screen. Worked out once (a spring's settling time is a
    /// 60 000-step scan).
    public var longestFiniteLength: Double
    /// Whether some transaction repeats forever (then every earlier change still moves).
    public var hasForever: Bool { !foreverCycles.isEmpty }

    /// A schedule.
    public init(
        changes: [ScheduledChange], period: Rational?, loopStart: Rational, runEnd: Double,
        foreverCycles: [Double], longestFiniteLength: Double = 0
    ) {
        self.longestFiniteLength = longestFiniteLength
        self.changes = changes
        self.period = period
        self.loopStart = loopStart
        self.runEnd = runEnd
        self.foreverCycles = foreverCycles
    }

    /// No changes at all.
    public static let empty = StateSchedule(changes: [], period: nil, loopStart: .zero, runEnd: 0, foreverCycles: [])
}

/// A layer property driven by state: `"bind": { "opacity": "$current == $i ? 1 : 0" }`.
public struct StateBinding: Equatable, Sendable {
    /// The property (a number-valued key path).
    public var property: AnimatableProperty
    /// Its model value as a function of state and instance index.
    public var expression: StateExpression
    /// JSONPath of the binding, for messages.
    public var sourcePath: String

    /// A binding.
    public init(property: AnimatableProperty, expression: StateExpression, sourcePath: String) {
        self.property = property
        self.expression = expression
        self.sourcePath = sourcePath
    }
}
