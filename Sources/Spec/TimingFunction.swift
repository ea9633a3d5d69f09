// SPDX-License-Identifier: GPL-3.0-or-later

/// How an animation's progress follows time within one pass.
///
/// Named curves use the control points Core Animation and SwiftUI publish (semantics.md §1, §4.1):
/// - `linear`            (0, 0, 1, 1)
/// - `easeIn`            (0.42, 0, 1, 1)
/// - `easeOut`           (0, 0, 0.58, 1)
/// - `easeInOut`         (0.42, 0, 0.58, 1), CAMediaTimingFunction `easeInEaseOut`
/// - `default`           (0.25, 0.1, 0.25, 1), CAMediaTimingFunction `default` (not easeInEaseOut)
///
/// Springs (`spring`, `smooth`, `snappy`, `bouncy`, …) follow time in seconds rather than a
/// fraction of the pass; see `Spring`.
public enum TimingFunction: Equatable, Sendable {
    /// A CSS-style cubic Bézier from (0,0) to (1,1) with control points (x1, y1) and (x2, y2);
    /// x1 and x2 lie in 0…1, y1 and y2 may overshoot.
    case cubicBezier(x1: Double, y1: Double, x2: Double, y2: Double)
    /// A SwiftUI spring: progress is the spring's position `t` seconds into the pass.
    case spring(Spring)

    /// `linear`: progress equals elapsed time.
    public static let linear = TimingFunction.cubicBezier(x1: 0, y1: 0, x2: 1, y2: 1)
    /// `easeIn` (0.42, 0, 1, 1): CAMediaTimingFunction easeIn and SwiftUI `.easeIn`.
    public static let easeIn = TimingFunction.cubicBezier(x1: 0.42, y1: 0, x2: 1, y2: 1)
    /// `easeOut` (0, 0, 0.58, 1): CAMediaTimingFunction easeOut and SwiftUI `.easeOut`.
    public static let easeOut = TimingFunction.cubicBezier(x1: 0, y1: 0, x2: 0.58, y2: 1)
    /// `easeInOut` (0.42, 0, 0.58, 1): CAMediaTimingFunction easeInEaseOut and SwiftUI
    /// `.easeInOut`.
    public static let easeInOut = TimingFunction.cubicBezier(x1: 0.42, y1: 0, x2: 0.58, y2: 1)
    /// `default` (0.25, 0.1, 0.25, 1): CAMediaTimingFunction `default`.
    public static let caDefault = TimingFunction.cubicBezier(x1: 0.25, y1: 0.1, x2: 0.25, y2: 1)

    /// The Bézier names a preset may use, with the curve each stands for.
    public static let named: [(name: String, function: TimingFunction)] = [
        ("linear", .linear),
        ("easeIn", .easeIn),
        ("easeOut", .easeOut),
        ("easeInOut", .easeInOut),
        ("easeInEaseOut", .easeInOut),
        ("default", .caDefault),
    ]

    /// Whether this is exactly `linear` (lets evaluation skip the solver).
    public var isLinear: Bool { self == .linear }

    /// The spring, when this is one.
    public var spring: Spring? {
        if case .spring(let s) = self { return s }
        return nil
    }
}
