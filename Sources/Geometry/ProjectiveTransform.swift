// SPDX-License-Identifier: GPL-3.0-or-later

import Glibc

/// A 2D projective transform (homography) as a 3×3 matrix in Core Animation's row-vector form,
/// `p' = p · M` with `p = (x, y, 1)`:
///
///     [m11 m12 m13]
///     [m21 m22 m23]
///     [m31 m32 m33]
///
///     w  = x·m13 + y·m23 + m33
///     x' = (x·m11 + y·m21 + m31) / w
///     y' = (x·m12 + y·m22 + m32) / w
///
/// This is the shape of SwiftUI's `ProjectionTransform` (semantics.md §6: a `CATransform3D`
/// flattened by keeping m11 m12 m14 / m21 m22 m24 / m41 m42 m44). An `AffineTransform` embeds as
/// `[a b 0] [c d 0] [tx ty 1]`.
public struct ProjectiveTransform: Equatable, Hashable, Sendable {
    /// Row 1, column 1.
    public var m11: Double
    /// Row 1, column 2.
    public var m12: Double
    /// Row 1, column 3 (x's contribution to w).
    public var m13: Double
    /// Row 2, column 1.
    public var m21: Double
    /// Row 2, column 2.
    public var m22: Double
    /// Row 2, column 3 (y's contribution to w).
    public var m23: Double
    /// Row 3, column 1 (x translation before the divide).
    public var m31: Double
    /// Row 3, column 2 (y translation before the divide).
    public var m32: Double
    /// Row 3, column 3 (constant term of w).
    public var m33: Double

    /// A transform from its nine entries, row by row (see the type's formula).
    public init(
        m11: Double, m12: Double, m13: Double,
        m21: Double, m22: Double, m23: Double,
        m31: Double, m32: Double, m33: Double
    ) {
        self.m11 = m11
        self.m12 = m12
        self.m13 = m13
        self.m21 = m21
        self.m22 = m22
        self.m23 = m23
        self.m31 = m31
        self.m32 = m32
        self.m33 = m33
    }

    /// The affine transform `t` as a homography: rows `[a b 0] [c d 0] [tx ty 1]`.
    public init(_ t: AffineTransform) {
        self.init(m11: t.a, m12: t.b, m13: 0, m21: t.c, m22: t.d, m23: 0, m31: t.tx, m32: t.ty, m33: 1)
    }

    /// The identity matrix.
    public static let identity = ProjectiveTransform(AffineTransform.identity)

    /// True when the last column is exactly `(0, 0, 1)`, so the transform is affine (no
    /// perspective divide), as `CATransform3DIsAffine` asks of the corresponding entries.
    public var isAffine: Bool { m13 == 0 && m23 == 0 && m33 == 1 }

    /// The affine part when `isAffine` is true, otherwise nil.
    public var affine: AffineTransform? {
        guard isAffine else { return nil }
        return AffineTransform(a: m11, b: m12, c: m21, d: m22, tx: m31, ty: m32)
    }

    /// The determinant of the 3×3 matrix; 0 means the transform is singular.
    public var determinant: Double {
        m11 * (m22 * m33 - m23 * m32) - m12 * (m21 * m33 - m23 * m31) + m13 * (m21 * m32 - m22 * m31)
    }

    /// The transform that applies `self` first and then `other`: the row-vector product
    /// `self · other` (same order as `AffineTransform.concatenating`). For SwiftUI's chained
    /// effects, `inner.concatenating(outer)` gives `p' = H_outer(H_inner(p))`.
    public func concatenating(_ other: ProjectiveTransform) -> ProjectiveTransform {
        let o = other
        return ProjectiveTransform(
            m11: m11 * o.m11 + m12 * o.m21 + m13 * o.m31,
            m12: m11 * o.m12 + m12 * o.m22 + m13 * o.m32,
            m13: m11 * o.m13 + m12 * o.m23 + m13 * o.m33,
            m21: m21 * o.m11 + m22 * o.m21 + m23 * o.m31,
            m22: m21 * o.m12 + m22 * o.m22 + m23 * o.m32,
            m23: m21 * o.m13 + m22 * o.m23 + m23 * o.m33,
            m31: m31 * o.m11 + m32 * o.m21 + m33 * o.m31,
            m32: m31 * o.m12 + m32 * o.m22 + m33 * o.m32,
            m33: m31 * o.m13 + m32 * o.m23 + m33 * o.m33)
    }

    /// The inverse (adjugate over determinant), or nil when the matrix is singular or the
    /// inverse is not finite. Useful for mapping destination pixels back to the source.
    public func inverted() -> ProjectiveTransform? {
        let det = determinant
        guard det != 0, det.isFinite else { return nil }
        let inverse = ProjectiveTransform(
            m11: (m22 * m33 - m23 * m32) / det,
            m12: (m13 * m32 - m12 * m33) / det,
            m13: (m12 * m23 - m13 * m22) / det,
            m21: (m23 * m31 - m21 * m33) / det,
            m22: (m11 * m33 - m13 * m31) / det,
            m23: (m13 * m21 - m11 * m23) / det,
            m31: (m21 * m32 - m22 * m31) / det,
            m32: (m12 * m31 - m11 * m32) / det,
            m33: (m11 * m22 - m12 * m21) / det)
        let values = [
            inverse.m11, inverse.m12, inverse.m13, inverse.m21, inverse.m22, inverse.m23,
            inverse.m31, inverse.m32, inverse.m33,
        ]
        guard values.allSatisfy(\.isFinite) else { return nil }
        return inverse
    }

    /// The homogeneous weight `w = x·m13 + y·m23 + m33` at `point`. Points with `w ≤ 0` lie
    /// at or behind the viewer's plane; a renderer should clip against `w > 0` before
    /// dividing.
    public func weight(at point: Point) -> Double {
        point.x * m13 + point.y * m23 + m33
    }

    /// The image of `point` after the perspective divide (see the type's formula). When
    /// `weight(at:)` is 0 the coordinates are infinite or NaN; check the weight first when the
    /// transform may send points to infinity.
    public func apply(to point: Point) -> Point {
        let w = weight(at: point)
        return Point(
            x: (point.x * m11 + point.y * m21 + m31) / w,
            y: (point.x * m12 + point.y * m22 + m32) / w)
    }
}
