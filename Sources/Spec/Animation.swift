// SPDX-License-Identifier: GPL-3.0-or-later

public import Geometry

/// One animation attached to a layer: Core Animation's CABasicAnimation, CAKeyframeAnimation or
/// CAAnimationGroup, with CAMediaTiming's timing fields (or SwiftUI's, see `style`).
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
    /// What shows outside the active interval (Core Animation style only; SwiftUI style shows
    /// the "from" value before and the "to" value after).
    public var fillMode: FillMode
    /// Whose repeat rules apply: Core Animation's (default) or SwiftUI's.
    public var style: AnimationStyle
    /// SwiftUI style only: seconds each leg holds its start before moving, SwiftUI's
    /// `.delay(d)` written inside `.repeatForever` (semantics §3.4). 0 otherwise.
    public var delay: Double
    /// JSONPath of the animation object in its preset, e.g. `$.layers[0].animations[1]`, for
    /// messages about it found after decoding (loop period, `ExportBudget`); empty when the
    /// animation was not decoded from JSON.
    public var sourcePath: String

    /// An animation; see the properties for units and defaults.
    public init(
        content: AnimationContent, beginTime: Double = 0, duration: Double,
        repeatCount: Double = 1, repeatDuration: Double? = nil, autoreverses: Bool = false,
        speed: Double = 1, timingFunction: TimingFunction = .linear, fillMode: FillMode = .removed,
        style: AnimationStyle = .coreAnimation, delay: Double = 0, sourcePath: String = ""
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
        self.style = style
        self.delay = delay
        self.sourcePath = sourcePath
    }
}

extension Animation {
    /// Length of one leg in local seconds: `duration`, plus `delay` in SwiftUI style.
    public var legLength: Double { style == .swiftUI ? delay + duration : duration }

    /// Length of one repeat cycle in the animation's local time (seconds): a leg, or two with
    /// `autoreverses` (Core Animation: one cycle is forward and back, semantics §4.3; SwiftUI: a
    /// forward and a reverse leg).
    public var cycleLength: Double { autoreverses ? 2 * legLength : legLength }

    /// Total active time in local seconds: `repeatDuration`, or `repeatCount` cycles (Core
    /// Animation) or legs (SwiftUI); `.infinity` when the animation repeats forever.
    public var activeDuration: Double {
        if let repeatDuration { return repeatDuration }
        if repeatCount.isInfinite { return .infinity }
        return style == .swiftUI ? repeatCount * legLength : repeatCount * cycleLength
    }
}

/// The repeat rules an animation follows. They differ in three ways (semantics §3, §4.3).
public enum AnimationStyle: String, Equatable, Sendable, CaseIterable {
    /// CAMediaTiming: `repeatCount` counts cycles, and with `autoreverses` a cycle is forward and
    /// back; the back half rewinds time (`e(1 − u)`); outside the active time `fillMode` decides.
    case coreAnimation
    /// SwiftUI `repeatCount(_:autoreverses:)` / `repeatForever`: `repeatCount` counts legs (a
    /// reverse leg counts); a reversed leg plays the curve forward toward "from" (`1 − e(u)`);
    /// `delay` holds at the start of every leg; before `beginTime` the "from" value shows and
    /// after the last leg the "to" value (the model value SwiftUI animates to).
    case swiftUI
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
    /// CAKeyframeAnimation with a `path`: moves `position` along the path.
    case path(PathAnimation)
}

/// A keyframe animation of `position` along a path (CAKeyframeAnimation `path`).
public struct PathAnimation: Equatable, Sendable {
    /// The path, in the coordinates of the animated layer's parent (as Core Animation reads it).
    public var path: BezierPath
    /// How time maps to distance: `paced`/`cubicPaced` (constant speed by arc length) or
    /// `linear`/`cubic` (each path element gets an equal share of time, constant speed inside it).
    public var calculationMode: CalculationMode
    /// Whether the layer turns to follow the path's tangent.
    public var rotationMode: RotationMode?

    /// A path animation; see the properties.
    public init(path: BezierPath, calculationMode: CalculationMode, rotationMode: RotationMode?) {
        self.path = path
        self.calculationMode = calculationMode
        self.rotationMode = rotationMode
    }
}

/// CAKeyframeAnimation `rotationMode`.
public enum RotationMode: String, Equatable, Sendable, CaseIterable {
    /// Turn to the path's tangent: heading `atan2(dy, dx)` added to the layer's rotation.
    case auto
    /// The tangent plus 180°.
    case autoReverse
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
    /// A smooth Catmull-Rom spline through the values at their key times (Kochanek–Bartels with
    /// zero tension, continuity and bias).
    case cubic
    /// The cubic spline traversed at constant speed; `keyTimes` and `timingFunctions` ignored.
    case cubicPaced
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
