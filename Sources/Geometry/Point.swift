// SPDX-License-Identifier: GPL-3.0-or-later

import Glibc

/// A point or vector in screen coordinates: pixels, y pointing **down** (UIKit, SwiftUI, Cairo).
public struct Point: Equatable, Hashable, Sendable {
    /// Horizontal coordinate in pixels, growing to the right.
    public var x: Double
    /// Vertical coordinate in pixels, growing downwards.
    public var y: Double

    /// A point from its two coordinates in pixels.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The origin (0, 0).
    public static let zero = Point(x: 0, y: 0)

    /// Component-wise sum.
    public static func + (lhs: Point, rhs: Point) -> Point {
        Point(x: lhs.x + rhs.x, y: lhs.y + rhs.y)
    }

    /// Component-wise difference.
    public static func - (lhs: Point, rhs: Point) -> Point {
        Point(x: lhs.x - rhs.x, y: lhs.y - rhs.y)
    }

    /// Both coordinates negated.
    public static prefix func - (point: Point) -> Point {
        Point(x: -point.x, y: -point.y)
    }

    /// Both coordinates multiplied by a scalar.
    public static func * (lhs: Point, rhs: Double) -> Point {
        Point(x: lhs.x * rhs, y: lhs.y * rhs)
    }

    /// Both coordinates multiplied by a scalar.
    public static func * (lhs: Double, rhs: Point) -> Point {
        Point(x: lhs * rhs.x, y: lhs * rhs.y)
    }

    /// Euclidean length of the vector from the origin to this point, in pixels.
    public var length: Double {
        (x * x + y * y).squareRoot()
    }

    /// Euclidean distance to `other`, in pixels.
    public func distance(to other: Point) -> Double {
        (other - self).length
    }

    /// The point `self + (other − self)·fraction`; `fraction` 0 gives `self`, 1 gives `other`
    /// (values outside 0…1 extrapolate).
    public func interpolated(to other: Point, fraction: Double) -> Point {
        Point(x: x + (other.x - x) * fraction, y: y + (other.y - y) * fraction)
    }
}
