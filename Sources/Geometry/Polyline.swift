// SPDX-License-Identifier: GPL-3.0-or-later

import Glibc

/// A flattened subpath: straight lines through `points` in order (pixels, y down).
public struct Polyline: Equatable, Sendable {
    /// The vertices. For a closed polyline the first point is not repeated at the end.
    public var points: [Point]
    /// True when the last point connects back to the first (the subpath ended with `close`).
    public var closed: Bool

    /// A polyline from its vertices.
    public init(points: [Point], closed: Bool) {
        self.points = points
        self.closed = closed
    }
}
