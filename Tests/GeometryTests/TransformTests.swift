// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Geometry
import Testing

@Suite struct PointAndRectTests {
    @Test func pointArithmetic() {
        let a = Point(x: 3, y: 4)
        let b = Point(x: 1, y: -2)
        #expect(a + b == Point(x: 4, y: 2))
        #expect(a - b == Point(x: 2, y: 6))
        #expect(a * 2 == Point(x: 6, y: 8))
        #expect(0.5 * a == Point(x: 1.5, y: 2))
        #expect(-a == Point(x: -3, y: -4))
        #expect(a.length == 5)
        #expect(b.distance(to: Point(x: 4, y: 2)) == 5)
        #expect(a.interpolated(to: b, fraction: 0.5) == Point(x: 2, y: 1))
    }

    @Test func rectEdgesUnionAndEmptiness() {
        let r = Rect(x: 10, y: 20, width: -4, height: 6)
        #expect(r.minX == 6 && r.maxX == 10 && r.minY == 20 && r.maxY == 26)
        #expect(r.midX == 8 && r.midY == 23)
        #expect(!r.isEmpty)
        #expect(Rect(x: 1, y: 1, width: 0, height: 5).isEmpty)
        let u = Rect(x: 0, y: 0, width: 2, height: 2).union(Rect(x: 5, y: -1, width: 0, height: 0))
        #expect(u == Rect(x: 0, y: -1, width: 5, height: 3))
        #expect(u.contains(Point(x: 5, y: 2)))
        #expect(!u.contains(Point(x: 5.01, y: 2)))
        #expect(
            Rect(corner: Point(x: 4, y: 1), Point(x: 0, y: 3)) == Rect(x: 0, y: 1, width: 4, height: 2))
    }
}

@Suite struct AffineTransformTests {
    @Test func positiveRotationIsClockwiseOnScreen() {
        // y down: +x (3 o'clock) turns to +y (6 o'clock) under +90°, exactly.
        #expect(AffineTransform.rotation(degrees: 90).apply(to: Point(x: 1, y: 0)) == Point(x: 0, y: 1))
        #expect(
            AffineTransform.rotation(degrees: -90).apply(to: Point(x: 1, y: 0)) == Point(x: 0, y: -1))
        #expect(
            AffineTransform.rotation(degrees: 180).apply(to: Point(x: 2, y: 3)) == Point(x: -2, y: -3))
        let p = AffineTransform.rotation(degrees: 30).apply(to: Point(x: 2, y: 0))
        expectClose(p, Point(x: 3.0.squareRoot(), y: 1), tolerance: 1e-15)
    }

    @Test func concatenatingAppliesSelfThenOther() {
        let translate = AffineTransform.translation(x: 10, y: 0)
        let scale = AffineTransform.scale(x: 2, y: 3)
        let p = Point(x: 1, y: 1)
        #expect(translate.concatenating(scale).apply(to: p) == Point(x: 22, y: 3))
        #expect(scale.concatenating(translate).apply(to: p) == Point(x: 12, y: 3))
        // Rotate 90° then translate: (1,0) → (0,1) → (10,1).
        let rt = AffineTransform.rotation(degrees: 90).concatenating(translate)
        #expect(rt == AffineTransform(a: 0, b: 1, c: -1, d: 0, tx: 10, ty: 0))
        #expect(rt.apply(to: Point(x: 1, y: 0)) == Point(x: 10, y: 1))
        #expect(translate.concatenating(.identity) == translate)
    }

    @Test func byMethodsPrependLikeCoreGraphics() {
        // CG: t.translatedBy(x:y:) translates first, then applies t.
        let t = AffineTransform.rotation(degrees: 90).translatedBy(x: 10, y: 0)
        #expect(t.apply(to: .zero) == Point(x: 0, y: 10))
        let s = AffineTransform.translation(x: 5, y: 5).scaledBy(x: 2, y: 2)
        #expect(s.apply(to: Point(x: 1, y: 1)) == Point(x: 7, y: 7))
        let r = AffineTransform.translation(x: 5, y: 0).rotatedBy(degrees: 90)
        #expect(r.apply(to: Point(x: 1, y: 0)) == Point(x: 5, y: 1))
    }

    @Test func inversion() throws {
        let t = AffineTransform(a: 2, b: 1, c: -1, d: 3, tx: 7, ty: -4)
        let inverse = try #require(t.inverted())
        let p = Point(x: 3.5, y: -8)
        expectClose(inverse.apply(to: t.apply(to: p)), p, tolerance: 1e-12)
        let product = t.concatenating(inverse)
        for (value, expected) in [
            (product.a, 1.0), (product.b, 0), (product.c, 0), (product.d, 1), (product.tx, 0),
            (product.ty, 0),
        ] {
            expectClose(value, expected, tolerance: 1e-12)
        }
        #expect(t.determinant == 7)
        #expect(AffineTransform.scale(x: 0, y: 1).inverted() == nil)
        #expect(AffineTransform(a: 1, b: 2, c: 2, d: 4, tx: 1, ty: 1).inverted() == nil)
    }
}

@Suite struct ProjectiveTransformTests {
    /// semantics.md §6: "Y 45°" for a 100×100 view, perspective 1, anchor centre, as the rounded
    /// 3×3 matrix the document gives.
    static let y45Rounded = ProjectiveTransform(
        m11: 1.06066, m12: 0.353553, m13: 0.007071,
        m21: 0, m22: 1, m23: 0,
        m31: -3.033009, m32: -17.67767, m33: 0.646447)

    @Test func givenY45MatrixMapsTheDocumentedCorners() {
        let h = Self.y45Rounded
        #expect(!h.isAffine)
        #expect(h.affine == nil)
        let expected = [
            (Point(x: 0, y: 0), Point(x: -4.692, y: -27.346)),
            (Point(x: 100, y: 0), Point(x: 76.120, y: 13.060)),
            (Point(x: 100, y: 100), Point(x: 76.120, y: 86.940)),
            (Point(x: 0, y: 100), Point(x: -4.692, y: 127.346)),
        ]
        for (corner, image) in expected {
            expectClose(h.apply(to: corner), image, tolerance: 1e-3, "corner \(corner)")
            #expect(h.weight(at: corner) > 0)
        }
    }

    @Test func recomputedY45MatchesTheDocumentedMatrix() {
        let h = Rotation3DReference.flattened(degrees: 45, axis: (0, 1, 0), width: 100, height: 100)
        let pairs = [
            (h.m11, 1.06066), (h.m12, 0.353553), (h.m13, 0.007071), (h.m21, 0), (h.m22, 1), (h.m23, 0),
            (h.m31, -3.033009), (h.m32, -17.67767), (h.m33, 0.646447),
        ]
        for (actual, expected) in pairs { expectClose(actual, expected, tolerance: 5e-6) }
        // A 200×100 view uses d = 200: third column [0.003536, 0, 0.646447].
        let wide = Rotation3DReference.flattened(degrees: 45, axis: (0, 1, 0), width: 200, height: 100)
        expectClose(wide.m13, 0.003536, tolerance: 5e-7)
        expectClose(wide.m23, 0, tolerance: 1e-15)
        expectClose(wide.m33, 0.646447, tolerance: 5e-7)
    }

    @Test func chainedEffectsComposeInnerThenOuter() {
        // semantics.md §6: X 30° then Y 45°, each flattened, p' = H_outer(H_inner(p)).
        let inner = Rotation3DReference.flattened(degrees: 30, axis: (1, 0, 0), width: 100, height: 100)
        let outer = Rotation3DReference.flattened(degrees: 45, axis: (0, 1, 0), width: 100, height: 100)
        let chained = inner.concatenating(outer)
        let expected = [
            Point(x: 10.561, y: 1.697), Point(x: 72.048, y: 22.997),
            Point(x: 82.038, y: 89.238), Point(x: -39.181, y: 159.223),
        ]
        let corners = [
            Point(x: 0, y: 0), Point(x: 100, y: 0), Point(x: 100, y: 100), Point(x: 0, y: 100),
        ]
        for (corner, image) in zip(corners, expected) {
            expectClose(chained.apply(to: corner), image, tolerance: 1e-3, "chained \(corner)")
            expectClose(
                chained.apply(to: corner), outer.apply(to: inner.apply(to: corner)), tolerance: 1e-9)
        }
        // The single combined rotation with one projection is a different result.
        let combined = Rotation3DReference.combinedXThenY(x: 30, y: 45, width: 100, height: 100)
        let combinedExpected = [
            Point(x: -14.421, y: -2.600), Point(x: 61.552, y: 21.705),
            Point(x: 95.066, y: 86.797), Point(x: 12.362, y: 142.195),
        ]
        for (corner, image) in zip(corners, combinedExpected) {
            expectClose(combined.apply(to: corner), image, tolerance: 1e-3, "combined \(corner)")
        }
    }

    @Test func affineEmbeddingAndConcatenation() throws {
        let a = AffineTransform.rotation(degrees: 30).concatenating(.translation(x: 4, y: -2))
        let b = AffineTransform.scale(x: 2, y: 0.5)
        let pa = ProjectiveTransform(a)
        #expect(pa.isAffine)
        #expect(pa.affine == a)
        #expect(ProjectiveTransform.identity.isAffine)
        let p = Point(x: 7, y: -3)
        expectClose(pa.apply(to: p), a.apply(to: p), tolerance: 1e-12)
        let product = pa.concatenating(ProjectiveTransform(b))
        let expected = try #require(ProjectiveTransform(a.concatenating(b)).affine)
        let actual = try #require(product.affine)
        for (x, y) in [
            (actual.a, expected.a), (actual.b, expected.b), (actual.c, expected.c),
            (actual.d, expected.d),
            (actual.tx, expected.tx), (actual.ty, expected.ty),
        ] {
            expectClose(x, y, tolerance: 1e-12)
        }
    }

    @Test func inversionUndoesTheWarp() throws {
        let h = Self.y45Rounded
        let inverse = try #require(h.inverted())
        for p in [Point(x: 0, y: 0), Point(x: 100, y: 37), Point(x: 12.5, y: 99)] {
            expectClose(inverse.apply(to: h.apply(to: p)), p, tolerance: 1e-9)
        }
        let singular = ProjectiveTransform(
            m11: 1, m12: 2, m13: 3, m21: 2, m22: 4, m23: 6, m31: 0, m32: 1, m33: 1)
        #expect(singular.inverted() == nil)
    }
}

/// A test-only recomputation of semantics.md §6 in 4×4 Core Animation row-vector form, to check
/// the 3×3 type against independently built matrices.
enum Rotation3DReference {
    typealias Matrix = [[Double]]

    static func multiply(_ a: Matrix, _ b: Matrix) -> Matrix {
        (0..<4).map { i in (0..<4).map { j in (0..<4).reduce(0) { $0 + a[i][$1] * b[$1][j] } } }
    }

    static func translation(_ x: Double, _ y: Double) -> Matrix {
        [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [x, y, 0, 1]]
    }

    /// Rotation about a unit axis, right-handed, row-vector form (the transpose of Rodrigues'
    /// column-vector matrix), as CATransform3DMakeRotation.
    static func rotation(_ degrees: Double, _ axis: (Double, Double, Double)) -> Matrix {
        let angle = degrees * .pi / 180
        let (c, s) = (cos(angle), sin(angle))
        let (x, y, z) = axis
        let t = 1 - c
        return [
            [c + t * x * x, t * x * y + s * z, t * x * z - s * y, 0],
            [t * x * y - s * z, c + t * y * y, t * y * z + s * x, 0],
            [t * x * z + s * y, t * y * z - s * x, c + t * z * z, 0],
            [0, 0, 0, 1],
        ]
    }

    /// `T(−a) · R · P · T(+a)` with `m34 = −1/max(w, h)`, flattened to 3×3 by keeping rows and
    /// columns 1, 2 and 4.
    static func flatten(_ rotation: Matrix, width: Double, height: Double) -> ProjectiveTransform {
        var perspective = translation(0, 0)
        perspective[2][3] = -1 / max(width, height)
        let m = multiply(
            multiply(multiply(translation(-width / 2, -height / 2), rotation), perspective),
            translation(width / 2, height / 2))
        return ProjectiveTransform(
            m11: m[0][0], m12: m[0][1], m13: m[0][3],
            m21: m[1][0], m22: m[1][1], m23: m[1][3],
            m31: m[3][0], m32: m[3][1], m33: m[3][3])
    }

    static func flattened(
        degrees: Double, axis: (Double, Double, Double), width: Double, height: Double
    ) -> ProjectiveTransform {
        flatten(rotation(degrees, axis), width: width, height: height)
    }

    static func combinedXThenY(x: Double, y: Double, width: Double, height: Double)
        -> ProjectiveTransform
    {
        flatten(multiply(rotation(x, (1, 0, 0)), rotation(y, (0, 1, 0))), width: width, height: height)
    }
}
