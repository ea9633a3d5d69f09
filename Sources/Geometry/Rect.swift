// SPDX-License-Identifier: GPL-3.0-or-later

import Glibc

/// An axis-aligned rectangle in screen coordinates (pixels, y down): origin `(x, y)` and a size.
///
/// Like `CGRect`, the size may be negative; `minX`…`maxY` always give the standardised edges.
public struct Rect: Equatable, Hashable, Sendable {
    /// Origin x in pixels.
    public var x: Double
    /// Origin y in pixels (the top edge when `height` ≥ 0, since y grows downwards).
    public var y: Double
    /// Width in pixels; may be negative (the rectangle then extends to the left of `x`).
    public var width: Double
    /// Height in pixels; may be negative (the rectangle then extends above `y`).
    public var height: Double

    /// A rectangle from its origin and size in pixels.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The smallest rectangle containing both corner points, with a non-negative size.
    public init(corner a: Point, _ b: Point) {
        self.init(
            x: Swift.min(a.x, b.x), y: Swift.min(a.y, b.y),
            width: abs(b.x - a.x), height: abs(b.y - a.y))
    }

    /// Left edge in pixels.
    public var minX: Double { Swift.min(x, x + width) }
    /// Top edge in pixels (y down).
    public var minY: Double { Swift.min(y, y + height) }
    /// Right edge in pixels.
    public var maxX: Double { Swift.max(x, x + width) }
    /// Bottom edge in pixels (y down).
    public var maxY: Double { Swift.max(y, y + height) }
    /// Horizontal centre in pixels.
    public var midX: Double { x + width / 2 }
    /// Vertical centre in pixels.
    public var midY: Double { y + height / 2 }
    /// The centre point.
    public var center: Point { Point(x: midX, y: midY) }

    /// True when the width or the height is zero, as for `CGRect.isEmpty` (a rectangle of zero
    /// area still has a position, and `union` still includes it).
    public var isEmpty: Bool { width == 0 || height == 0 }

    /// The smallest standardised rectangle containing both rectangles (empty ones included:
    /// there is no "null" rectangle here).
    public func union(_ other: Rect) -> Rect {
        let left = Swift.min(minX, other.minX)
        let top = Swift.min(minY, other.minY)
        return Rect(
            x: left, y: top,
            width: Swift.max(maxX, other.maxX) - left,
            height: Swift.max(maxY, other.maxY) - top)
    }

    /// True when `point` lies inside or on the edge of the rectangle.
    public func contains(_ point: Point) -> Bool {
        point.x >= minX && point.x <= maxX && point.y >= minY && point.y <= maxY
    }

    /// The rectangle shrunk by `dx` on the left and right and by `dy` on the top and bottom
    /// (negative values grow it), after standardising.
    public func insetBy(dx: Double, dy: Double) -> Rect {
        Rect(x: minX + dx, y: minY + dy, width: abs(width) - 2 * dx, height: abs(height) - 2 * dy)
    }
}
