// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Geometry
import Testing

// Issue 18: an arc's `endAngle` of 1e300 trapped in `Int(abs(sweep) / 90)`; 3.6e9 built a path
// of forty million curves.

@Test(arguments: [1e300, 3.6e9, -1e300, Double.greatestFiniteMagnitude])
func hugeArcSweepsAreCutToTheCap(endAngle: Double) {
    let path = BezierPath.arc(
        center: Point(x: 10, y: 10), radius: 5, startAngle: 0, endAngle: endAngle, clockwise: endAngle > 0)
    // A move and at most `maximumArcSegments` quarter-turn cubics, every point finite and on the
    // circle (the cap is a whole number of turns, so it ends where it started).
    #expect(path.elements.count == BezierPath.maximumArcSegments + 1)
    var ends: [Point] = []
    for element in path.elements {
        switch element {
        case .move(let p), .line(let p), .cubic(let p, _, _): ends.append(p)
        case .close: break
        }
    }
    #expect(ends.allSatisfy { abs($0.distance(to: Point(x: 10, y: 10)) - 5) < 1e-9 })
    #expect(ends.last.map { $0.distance(to: Point(x: 15, y: 10)) < 1e-9 } == true)
}

@Test func arcsBelowTheCapAreUnchanged() {
    // Four whole turns: 16 quarter cubics after the move, as before.
    let path = BezierPath.arc(center: Point(x: 0, y: 0), radius: 1, startAngle: 0, endAngle: 1440, clockwise: true)
    #expect(path.elements.count == 17)
    #expect(BezierPath.maximumArcSegments == 1024)
}
