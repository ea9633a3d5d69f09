// SPDX-License-Identifier: GPL-3.0-or-later

/// One animation attached to a layer: Core Animation's CABasicAnimation, CAKeyframeAnimation or
/// CAAnimationGroup, with CAMediaTiming's timing fields.
public struct Animation: Equatable, Sendable {
    /// What the animation changes and how (from/to, keyframes, or a group of children).
    public var content: AnimationContent
    /// When the animation starts, in seconds of the parent's time (the layer's time for a
    /// top-level animation, the group's local time for a child). Default 0.
    public var beginTime: Double
    /// Length of one simple pass in seconds, > 0. For a group child without its own `duration`,
    /// the group's duration.
    public var duration: Double
    /// How many times the pass plays; `.infinity` repeats forever. Fractional counts end mid-pass.
    /// Default 1. With `autoreverses`, one repeat is forward **and** back (Core Animation rule,
    /// semantics §4.3).
    public var repeatCount: Double
    /// Total active time in seconds instead of a count (Core Animation `repeatDuration`); `nil`
    /// when not set. The decoder refuses both together (undefined in Core Animation).
    public var repeatDuration: Double?
    /// Play forward then backward in each repeat cycle; the backward half is an exact time
    /// reversal: `p = e(1 − u)` (Core Animation, semantics §4.3).
    public var autoreverses: Bool
    /// Time scale, > 0: 2 plays twice as fast. Default 1.
    public var speed: Double
    /// Animation-level timing function, applied to the pass's elapsed fraction before any
    /// per-keyframe function (CAKeyframeAnimation order, semantics §4.6). Default linear.
    public var timingFunction: TimingFunction
    /// What shows outside the active interval.
    public var fillMode: FillMode

    /// An animation; see the properties for units and defaults.
    public init(
        content: AnimationContent, beginTime: Double = 0, duration: Double,
        repeatCount: Double = 1, repeatDuration: Double? = nil, autoreverses: Bool = false,
        speed: Double = 1, timingFunction: TimingFunction = .linear, fillMode: FillMode = .removed
    ) {
        self.content = content
        self.beginTime = beginTime
        self.duration = duration
        self.repeatCount = repeatCount
        self.repeatDuration = repeatDuration
        self.autoreverses = autoreverses
        self.speed = speed
        self.timingFunction = timingFunction
        self.fillMode = fillMode
    }
}

/// What an animation drives.
public enum AnimationContent: Equatable, Sendable {
    /// CABasicAnimation: `from` → `to` on `property`.
    case basic(property: AnimatableProperty, from: AnimatableValue, to: AnimatableValue)
    /// CAKeyframeAnimation over `values`.
    case keyframes(property: AnimatableProperty, keyframes: Keyframes)
    /// CAAnimationGroup: children run in the group's local time and are clipped (not scaled) to
    /// the group's duration (semantics §4.4).
    case group([Animation])
}

/// Keyframe data, already checked: array lengths agree with `calculationMode`.
public struct Keyframes: Equatable, Sendable {
    /// The values, ≥ 2 for interpolating modes, ≥ 1 for discrete.
    public var values: [AnimatableValue]
    /// Normalised times in 0…1, non-decreasing, first 0 and last 1. `linear`: one per value;
    /// `discrete`: one more than values (value i holds from keyTimes[i] to keyTimes[i+1]);
    /// `paced`: computed from distances between values.
    public var keyTimes: [Double]
    /// Per-segment timing functions (`linear` mode): `values.count − 1` entries.
    public var timingFunctions: [TimingFunction]
    /// How values are joined.
    public var calculationMode: CalculationMode

    /// Checked keyframes; see the properties.
    public init(
        values: [AnimatableValue], keyTimes: [Double], timingFunctions: [TimingFunction],
        calculationMode: CalculationMode
    ) {
        self.values = values
        self.keyTimes = keyTimes
        self.timingFunctions = timingFunctions
        self.calculationMode = calculationMode
    }
}

/// CAKeyframeAnimation `calculationMode`.
public enum CalculationMode: String, Equatable, Sendable, CaseIterable {
    /// Straight interpolation between neighbouring values (default).
    case linear
    /// Jumps from value to value with no interpolation.
    case discrete
    /// Constant speed by distance between values; `keyTimes` and `timingFunctions` ignored.
    case paced
}

/// CAMediaTiming `fillMode`: what an animation shows outside its active interval.
public enum FillMode: String, Equatable, Sendable, CaseIterable {
    /// Nothing: the model value shows (default).
    case removed
    /// After the end, hold the final value.
    case forwards
    /// Before `beginTime`, hold the first value.
    case backwards
    /// Both of the above.
    case both
}
