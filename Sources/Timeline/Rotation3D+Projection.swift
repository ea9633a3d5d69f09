// SPDX-License-Identifier: GPL-3.0-or-later

public import Geometry
import Glibc
public import Spec

extension Rotation3D {
    /// The 2D projective transform of this `rotation3DEffect` on a view whose frame is `box`
    /// (semantics.md §6, after OpenSwiftUI's Rotation3DEffect and ProjectionTransform):
    ///
    /// In Core Animation row-vector form (`p' = p·M`), with anchor
    /// `a = (box.x + anchor.x·w, box.y + anchor.y·h, anchorZ)` and `d = max(w, h) / perspective`:
    /// `M = T(−a) · R(angle, axis) · P · T(+a)`, where P is the identity with `m34 = −1/d`. The
    /// 4×4 result is flattened to 3×3 by keeping rows and columns 1, 2 and 4 (z is dropped), so
    /// chained effects are "project, then project again", exactly as SwiftUI composes them.
    ///
    /// Sign convention (right-handed, +z toward the viewer, y down): a positive angle about +y
    /// moves the right edge away; about +x, the top edge away. Test vector (100×100, Y 45°):
    /// (0, 0) → (−4.692, −27.346).
    /// - Parameter box: the layer's box (its frame) in its own coordinates, points.
    public func projection(in box: Rect) -> ProjectiveTransform {
        let w = box.width
        let h = box.height
        let a = (x: box.x + anchor.x * w, y: box.y + anchor.y * h, z: anchorZ)
        let length = (axis.x * axis.x + axis.y * axis.y + axis.z * axis.z).squareRoot()
        guard length > 0 else { return .identity }
        let (x, y, z) = (axis.x / length, axis.y / length, axis.z / length)
        let radians = angle * Double.pi / 180
        let c = cos(radians)
        let s = sin(radians)
        let k = 1 - c
        // Rotation in row-vector form: the transpose of the column-vector (Rodrigues) matrix.
        var r = Matrix4.identity
        r.m = [
            [c + x * x * k, y * x * k + z * s, z * x * k - y * s, 0],
            [x * y * k - z * s, c + y * y * k, z * y * k + x * s, 0],
            [x * z * k + y * s, y * z * k - x * s, c + z * z * k, 0],
            [0, 0, 0, 1],
        ]
        var perspectiveMatrix = Matrix4.identity
        let extent = max(w, h)
        if perspective > 0, extent > 0 {
            perspectiveMatrix.m[2][3] = -perspective / extent
        }
        let full = Matrix4.translation(-a.x, -a.y, -a.z) * r * perspectiveMatrix * Matrix4.translation(a.x, a.y, a.z)
        let m = full.m
        return ProjectiveTransform(
            m11: m[0][0], m12: m[0][1], m13: m[0][3],
            m21: m[1][0], m22: m[1][1], m23: m[1][3],
            m31: m[3][0], m32: m[3][1], m33: m[3][3])
    }
}

/// A 4×4 matrix in row-vector form (`p' = p·M`), only for building rotation3D projections.
struct Matrix4: Equatable {
    var m: [[Double]]

    static let identity = Matrix4(m: [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]])

    static func translation(_ x: Double, _ y: Double, _ z: Double) -> Matrix4 {
        var t = identity
        t.m[3] = [x, y, z, 1]
        return t
    }

    static func * (lhs: Matrix4, rhs: Matrix4) -> Matrix4 {
        var out = Matrix4(m: Array(repeating: Array(repeating: 0, count: 4), count: 4))
        for i in 0..<4 {
            for j in 0..<4 {
                var sum = 0.0
                for k in 0..<4 { sum += lhs.m[i][k] * rhs.m[k][j] }
                out.m[i][j] = sum
            }
        }
        return out
    }
}
