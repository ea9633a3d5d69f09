// SPDX-License-Identifier: GPL-3.0-or-later

import Glibc

/// A 2D affine transform in `CGAffineTransform` convention (row-vector form):
///
///     x' = a·x + c·y + tx
///     y' = b·x + d·y + ty
///
/// Screen coordinates are y-down, so a positive rotation turns clockwise on screen.
/// `t1.concatenating(t2)` applies `t1` first, then `t2`, exactly as in Core Graphics.
public struct AffineTransform: Equatable, Hashable, Sendable {
    /// Coefficient of x in x'.
    public var a: Double
    /// Coefficient of x in y'.
    public var b: Double
    /// Coefficient of y in x'.
    public var c: Double
    /// Coefficient of y in y'.
    public var d: Double
    /// Translation added to x', in pixels.
    public var tx: Double
    /// Translation added to y', in pixels.
    public var ty: Double

    /// A transform from its six coefficients (see the type's formula).
    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        self.a = a
        self.b = b
        self.c = c
        self.d = d
        self.tx = tx
        self.ty = ty
    }

    /// The transform that leaves every point where it is.
    public static let identity = AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    /// A translation by `(x, y)` pixels.
    public static func translation(x: Double, y: Double) -> AffineTransform {
        AffineTransform(a: 1, b: 0, c: 0, d: 1, tx: x, ty: y)
    }

    /// A scale about the origin by factors `x` and `y` (1 = unchanged; negative mirrors).
    public static func scale(x: Double, y: Double) -> AffineTransform {
        AffineTransform(a: x, b: 0, c: 0, d: y, tx: 0, ty: 0)
    }

    /// A rotation about the origin by `degrees`; positive turns **clockwise on screen** in y-down
    /// coordinates (+x goes towards +y), as `CGAffineTransform(rotationAngle:)` does in UIKit.
    /// Multiples of 90° give exact coefficients.
    public static func rotation(degrees: Double) -> AffineTransform {
        let (cosine, sine) = DegreeTrig.cosSin(degrees)
        return AffineTransform(a: cosine, b: sine, c: -sine, d: cosine, tx: 0, ty: 0)
    }

    /// True when this is exactly the identity.
    public var isIdentity: Bool { self == .identity }

    /// The determinant `a·d − b·c`; 0 means the transform collapses the plane (not invertible).
    public var determinant: Double { a * d - b * c }

    /// The largest factor by which the transform stretches a length: its largest singular
    /// value, √((Σ + √(Σ² − 4·det²)) / 2) with Σ the sum of the squared entries a, b, c, d.
    public var largestStretch: Double {
        let sum = a * a + b * b + c * c + d * d
        return ((sum + max(sum * sum - 4 * determinant * determinant, 0).squareRoot()) / 2).squareRoot()
    }

    /// The transform that applies `self` first and then `other` (Core Graphics' meaning of
    /// `concatenating`; in row-vector matrix form the product `self · other`).
    public func concatenating(_ other: AffineTransform) -> AffineTransform {
        AffineTransform(
            a: a * other.a + b * other.c,
            b: a * other.b + b * other.d,
            c: c * other.a + d * other.c,
            d: c * other.b + d * other.d,
            tx: tx * other.a + ty * other.c + other.tx,
            ty: tx * other.b + ty * other.d + other.ty)
    }

    /// `self` preceded by a translation, as `CGAffineTransform.translatedBy(x:y:)`: the
    /// translation acts in this transform's input space.
    public func translatedBy(x: Double, y: Double) -> AffineTransform {
        AffineTransform.translation(x: x, y: y).concatenating(self)
    }

    /// `self` preceded by a scale, as `CGAffineTransform.scaledBy(x:y:)`.
    public func scaledBy(x: Double, y: Double) -> AffineTransform {
        AffineTransform.scale(x: x, y: y).concatenating(self)
    }

    /// `self` preceded by a rotation of `degrees` (clockwise on screen), as
    /// `CGAffineTransform.rotated(by:)` but in degrees.
    public func rotatedBy(degrees: Double) -> AffineTransform {
        AffineTransform.rotation(degrees: degrees).concatenating(self)
    }

    /// The inverse transform, or nil when the transform is singular (determinant 0) or the
    /// inverse is not finite.
    public func inverted() -> AffineTransform? {
        let det = determinant
        guard det != 0, det.isFinite else { return nil }
        let inverse = AffineTransform(
            a: d / det, b: -b / det, c: -c / det, d: a / det,
            tx: (c * ty - d * tx) / det,
            ty: (b * tx - a * ty) / det)
        let values = [inverse.a, inverse.b, inverse.c, inverse.d, inverse.tx, inverse.ty]
        guard values.allSatisfy(\.isFinite) else { return nil }
        return inverse
    }

    /// The image of `point`: `(a·x + c·y + tx, b·x + d·y + ty)`.
    public func apply(to point: Point) -> Point {
        Point(x: a * point.x + c * point.y + tx, y: b * point.x + d * point.y + ty)
    }
}
