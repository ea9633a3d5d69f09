import Geometry
import Spec
import Testing

@testable import Timeline

private let box = Rect(x: 0, y: 0, width: 100, height: 100)
private let corners = [Point(x: 0, y: 0), Point(x: 100, y: 0), Point(x: 100, y: 100), Point(x: 0, y: 100)]

private func expectNear(_ a: Point, _ b: (Double, Double), _ note: String) {
    #expect(abs(a.x - b.0) < 0.001 && abs(a.y - b.1) < 0.001, "\(note): \(a) vs \(b)")
}

@Test func singleYRotationMatchesSwiftUI() {
    // semantics §6: Y 45°, 100×100, perspective 1, anchor centre.
    let h = Rotation3D(angle: 45, axis: Vector3(x: 0, y: 1, z: 0)).projection(in: box)
    #expect(abs(h.m11 - 1.06066) < 1e-5 && abs(h.m12 - 0.353553) < 1e-6 && abs(h.m13 - 0.007071) < 1e-6)
    #expect(abs(h.m21) < 1e-9 && abs(h.m22 - 1) < 1e-9 && abs(h.m23) < 1e-9)
    #expect(abs(h.m31 + 3.033009) < 1e-5 && abs(h.m32 + 17.67767) < 1e-5 && abs(h.m33 - 0.646447) < 1e-6)
    let expected = [(-4.692, -27.346), (76.120, 13.060), (76.120, 86.940), (-4.692, 127.346)]
    for (c, e) in zip(corners, expected) { expectNear(h.apply(to: c), e, "Y 45°") }
}

@Test func chainedEffectsFlattenBetween() {
    // X 30° then Y 45°, each flattened as SwiftUI does.
    var state = LayerState(shape: .rect(center: Point(x: 50, y: 50), size: Point(x: 100, y: 100), cornerRadius: 0))
    state.rotation3D = [
        Rotation3D(angle: 30, axis: Vector3(x: 1, y: 0, z: 0)), Rotation3D(angle: 45, axis: Vector3(x: 0, y: 1, z: 0)),
    ]
    let h = state.projectiveTransform
    let expected = [(10.561, 1.697), (72.048, 22.997), (82.038, 89.238), (-39.181, 159.223)]
    for (c, e) in zip(corners, expected) { expectNear(h.apply(to: c), e, "X30 then Y45") }
    // A single combined rotation with one projection gives different corners (semantics §6).
    #expect(abs(h.apply(to: corners[0]).x - (-14.421)) > 1)
}

@Test func wideViewUsesTheLongerSide() {
    let h = Rotation3D(angle: 45, axis: Vector3(x: 0, y: 1, z: 0)).projection(
        in: Rect(x: 0, y: 0, width: 200, height: 100))
    #expect(abs(h.m13 - 0.003536) < 1e-6 && abs(h.m23) < 1e-12 && abs(h.m33 - 0.646447) < 1e-6)
}

@Test func positiveXRotationMovesTheTopEdgeAway() {
    let h = Rotation3D(angle: 30, axis: Vector3(x: 1, y: 0, z: 0)).projection(in: box)
    let top = h.apply(to: corners[1]).x - h.apply(to: corners[0]).x
    let bottom = h.apply(to: corners[2]).x - h.apply(to: corners[3]).x
    #expect(top < 100 && bottom > 100)
}
