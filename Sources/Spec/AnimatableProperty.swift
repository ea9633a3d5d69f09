// SPDX-License-Identifier: GPL-3.0-or-later

public import Geometry

/// A property an animation may drive, named by its Core Animation style key path.
///
/// Angles are in **degrees** everywhere in presets. Core Animation's `transform.rotation.z` takes
/// radians, so that spelling is refused with a pointer to `rotation` rather than silently
/// reinterpreted.
public enum AnimatableProperty: String, Equatable, Sendable, CaseIterable {
    /// `position` [x, y]: where the anchor lands in the parent (points).
    case position
    /// `position.x` (points).
    case positionX = "position.x"
    /// `position.y` (points).
    case positionY = "position.y"
    /// `offset` [dx, dy]: translation after everything else (points).
    case offset
    /// `offset.x` (points).
    case offsetX = "offset.x"
    /// `offset.y` (points).
    case offsetY = "offset.y"
    /// `anchorPoint` [u, v] in unit coordinates of the layer's box.
    case anchorPoint
    /// `rotation` in degrees, clockwise on screen.
    case rotation
    /// `scale`: a number (uniform) or [sx, sy].
    case scale
    /// `scale.x`.
    case scaleX = "scale.x"
    /// `scale.y`.
    case scaleY = "scale.y"
    /// `opacity` 0…1.
    case opacity
    /// `hidden` (switches, never interpolated).
    case hidden
    /// `fillColor`.
    case fillColor
    /// `strokeColor`.
    case strokeColor
    /// `lineWidth` in points.
    case lineWidth
    /// `lineDashPhase` in points.
    case lineDashPhase
    /// `miterLimit`.
    case miterLimit
    /// `strokeStart`, fraction of path length (clamped to 0…1 when drawn).
    case strokeStart
    /// `strokeEnd`, fraction of path length (clamped to 0…1 when drawn).
    case strokeEnd
    /// `center` [x, y] of a circle, ellipse, rect or arc (points).
    case center
    /// `radius` of a circle or arc (points).
    case radius
    /// `size` [w, h] of an ellipse or rect (points).
    case size
    /// `cornerRadius` of a rect (points).
    case cornerRadius
    /// `startAngle` of an arc (degrees).
    case startAngle
    /// `endAngle` of an arc (degrees).
    case endAngle

    /// The kind of value the key path takes.
    public var valueKind: AnimatableValueKind {
        switch self {
        case .position, .offset, .anchorPoint, .center, .size: .point
        case .scale: .scale
        case .fillColor, .strokeColor: .color
        case .hidden: .bool
        default: .number
        }
    }

    /// Whether the property exists on a layer drawing `shape` (geometry key paths only exist on
    /// the shapes that have them; `fillColor` and stroke properties do not exist on groups).
    public func applies(to shape: ShapeGeometry) -> Bool {
        switch (self, shape) {
        case (.center, .circle), (.center, .ellipse), (.center, .rect), (.center, .arc): true
        case (.center, _): false
        case (.radius, .circle), (.radius, .arc): true
        case (.radius, _): false
        case (.size, .ellipse), (.size, .rect): true
        case (.size, _): false
        case (.cornerRadius, .rect): true
        case (.cornerRadius, _): false
        case (.startAngle, .arc), (.endAngle, .arc): true
        case (.startAngle, _), (.endAngle, _): false
        case (.fillColor, .group), (.strokeColor, .group), (.lineWidth, .group),
            (.lineDashPhase, .group), (.miterLimit, .group), (.strokeStart, .group),
            (.strokeEnd, .group):
            false
        default: true
        }
    }

    /// The property's value in `state` (the model value an animation starts from when it gives
    /// only `toValue`, and what shows when no animation is active).
    public func value(in state: LayerState) -> AnimatableValue {
        switch self {
        case .position: .point(state.position ?? state.anchorLocation)
        case .positionX: .number((state.position ?? state.anchorLocation).x)
        case .positionY: .number((state.position ?? state.anchorLocation).y)
        case .offset: .point(state.offset)
        case .offsetX: .number(state.offset.x)
        case .offsetY: .number(state.offset.y)
        case .anchorPoint: .point(state.anchorPoint)
        case .rotation: .number(state.rotation)
        case .scale: .point(state.scale)
        case .scaleX: .number(state.scale.x)
        case .scaleY: .number(state.scale.y)
        case .opacity: .number(state.opacity)
        case .hidden: .bool(state.hidden)
        case .fillColor: .color(state.fillColor ?? .clear)
        case .strokeColor: .color(state.strokeColor ?? .clear)
        case .lineWidth: .number(state.lineWidth)
        case .lineDashPhase: .number(state.lineDashPhase)
        case .miterLimit: .number(state.miterLimit)
        case .strokeStart: .number(state.strokeStart)
        case .strokeEnd: .number(state.strokeEnd)
        case .center: .point(state.shape.center ?? Point(x: 0, y: 0))
        case .radius: .number(state.shape.radius ?? 0)
        case .size: .point(state.shape.size ?? Point(x: 0, y: 0))
        case .cornerRadius: .number(state.shape.cornerRadius ?? 0)
        case .startAngle: .number(state.shape.arcAngles?.start ?? 0)
        case .endAngle: .number(state.shape.arcAngles?.end ?? 0)
        }
    }

    /// Writes `value` into `state`. A value of the wrong kind, or a geometry key path on a shape
    /// that lacks it, leaves `state` unchanged (the decoder rules both out beforehand).
    public func apply(_ value: AnimatableValue, to state: inout LayerState) {
        switch (self, value) {
        case (.position, .point(let p)): state.position = p
        case (.positionX, .number(let n)):
            state.position = Point(x: n, y: (state.position ?? state.anchorLocation).y)
        case (.positionY, .number(let n)):
            state.position = Point(x: (state.position ?? state.anchorLocation).x, y: n)
        case (.offset, .point(let p)): state.offset = p
        case (.offsetX, .number(let n)): state.offset.x = n
        case (.offsetY, .number(let n)): state.offset.y = n
        case (.anchorPoint, .point(let p)): state.anchorPoint = p
        case (.rotation, .number(let n)): state.rotation = n
        case (.scale, .point(let p)): state.scale = p
        case (.scale, .number(let n)): state.scale = Point(x: n, y: n)
        case (.scaleX, .number(let n)): state.scale.x = n
        case (.scaleY, .number(let n)): state.scale.y = n
        case (.opacity, .number(let n)): state.opacity = n
        case (.hidden, .bool(let b)): state.hidden = b
        case (.fillColor, .color(let c)): state.fillColor = c
        case (.strokeColor, .color(let c)): state.strokeColor = c
        case (.lineWidth, .number(let n)): state.lineWidth = max(0, n)
        case (.lineDashPhase, .number(let n)): state.lineDashPhase = n
        case (.miterLimit, .number(let n)): state.miterLimit = max(1, n)
        case (.strokeStart, .number(let n)): state.strokeStart = n
        case (.strokeEnd, .number(let n)): state.strokeEnd = n
        case (.center, .point(let p)): state.shape.center = p
        case (.radius, .number(let n)): state.shape.radius = max(0, n)
        case (.size, .point(let p)): state.shape.size = Point(x: max(0, p.x), y: max(0, p.y))
        case (.cornerRadius, .number(let n)): state.shape.cornerRadius = max(0, n)
        case (.startAngle, .number(let n)): state.shape.arcAngles?.start = n
        case (.endAngle, .number(let n)): state.shape.arcAngles?.end = n
        default: break
        }
    }
}

extension ShapeGeometry {
    /// Centre of circles, ellipses, rects and arcs; `nil` for other shapes. Setting it on a shape
    /// without a centre does nothing.
    public var center: Point? {
        get {
            switch self {
            case .circle(let c, _), .ellipse(let c, _), .rect(let c, _, _), .arc(let c, _, _, _, _): c
            default: nil
            }
        }
        set {
            guard let newValue else { return }
            switch self {
            case .circle(_, let r): self = .circle(center: newValue, radius: r)
            case .ellipse(_, let s): self = .ellipse(center: newValue, size: s)
            case .rect(_, let s, let r): self = .rect(center: newValue, size: s, cornerRadius: r)
            case .arc(_, let r, let a, let b, let cw):
                self = .arc(center: newValue, radius: r, startAngle: a, endAngle: b, clockwise: cw)
            default: break
            }
        }
    }

    /// Radius of circles and arcs; `nil` otherwise.
    public var radius: Double? {
        get {
            switch self {
            case .circle(_, let r), .arc(_, let r, _, _, _): r
            default: nil
            }
        }
        set {
            guard let newValue else { return }
            switch self {
            case .circle(let c, _): self = .circle(center: c, radius: newValue)
            case .arc(let c, _, let a, let b, let cw):
                self = .arc(center: c, radius: newValue, startAngle: a, endAngle: b, clockwise: cw)
            default: break
            }
        }
    }

    /// Size of ellipses and rects; `nil` otherwise.
    public var size: Point? {
        get {
            switch self {
            case .ellipse(_, let s), .rect(_, let s, _): s
            default: nil
            }
        }
        set {
            guard let newValue else { return }
            switch self {
            case .ellipse(let c, _): self = .ellipse(center: c, size: newValue)
            case .rect(let c, _, let r): self = .rect(center: c, size: newValue, cornerRadius: r)
            default: break
            }
        }
    }

    /// Corner radius of rects; `nil` otherwise.
    public var cornerRadius: Double? {
        get {
            if case .rect(_, _, let r) = self { return r }
            return nil
        }
        set {
            guard let newValue, case .rect(let c, let s, _) = self else { return }
            self = .rect(center: c, size: s, cornerRadius: newValue)
        }
    }

    /// Start and end angles of arcs (degrees); `nil` otherwise.
    public var arcAngles: (start: Double, end: Double)? {
        get {
            if case .arc(_, _, let a, let b, _) = self { return (a, b) }
            return nil
        }
        set {
            guard let newValue, case .arc(let c, let r, _, _, let cw) = self else { return }
            self = .arc(
                center: c, radius: r, startAngle: newValue.start, endAngle: newValue.end,
                clockwise: cw)
        }
    }
}
