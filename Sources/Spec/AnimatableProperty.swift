// SPDX-License-Identifier: GPL-3.0-or-later

public import Geometry

/// A property an animation may drive, named by its Core Animation style key path.
///
/// Angles are in **degrees** everywhere in presets. Core Animation's `transform.rotation.z` takes
/// radians, so that spelling is refused with a pointer to `rotation` rather than silently
/// reinterpreted.
public enum AnimatableProperty: Equatable, Sendable {
    /// `position` [x, y]: where the anchor lands in the parent (points).
    case position
    /// `position.x` (points).
    case positionX
    /// `position.y` (points).
    case positionY
    /// `offset` [dx, dy]: translation after everything else (points).
    case offset
    /// `offset.x` (points).
    case offsetX
    /// `offset.y` (points).
    case offsetY
    /// `anchorPoint` [u, v] in unit coordinates of the layer's box.
    case anchorPoint
    /// `rotation` in degrees, clockwise on screen.
    case rotation
    /// `scale`: a number (uniform) or [sx, sy].
    case scale
    /// `scale.x`.
    case scaleX
    /// `scale.y`.
    case scaleY
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
    /// `size` [w, h] of an ellipse, rect or image (points).
    case size
    /// `size.width` of an ellipse, rect or image (points): one dimension of `size`, such as a
    /// progress bar's fill growing from its left edge (anchor `[0, 0.5]` at a fixed `position`).
    case sizeWidth
    /// `size.height` of an ellipse, rect or image (points).
    case sizeHeight
    /// `cornerRadius` of a rect (points).
    case cornerRadius
    /// `startAngle` of an arc (degrees).
    case startAngle
    /// `endAngle` of an arc (degrees).
    case endAngle
    /// `rotation3D.angle` (the first effect) or `rotation3D[i].angle`, degrees.
    case rotation3DAngle(index: Int)
    /// `values.NAME`: a number a text layer shows.
    case value(name: String)

    /// Key paths without parameters, in documentation order.
    public static let fixedKeyPaths: [(keyPath: String, property: AnimatableProperty)] = [
        ("position", .position),
        ("position.x", .positionX),
        ("position.y", .positionY),
        ("offset", .offset),
        ("offset.x", .offsetX),
        ("offset.y", .offsetY),
        ("anchorPoint", .anchorPoint),
        ("rotation", .rotation),
        ("scale", .scale),
        ("scale.x", .scaleX),
        ("scale.y", .scaleY),
        ("opacity", .opacity),
        ("hidden", .hidden),
        ("fillColor", .fillColor),
        ("strokeColor", .strokeColor),
        ("lineWidth", .lineWidth),
        ("lineDashPhase", .lineDashPhase),
        ("miterLimit", .miterLimit),
        ("strokeStart", .strokeStart),
        ("strokeEnd", .strokeEnd),
        ("center", .center),
        ("radius", .radius),
        ("size", .size),
        ("size.width", .sizeWidth),
        ("size.height", .sizeHeight),
        ("cornerRadius", .cornerRadius),
        ("startAngle", .startAngle),
        ("endAngle", .endAngle),
    ]

    /// Core Animation spellings read as the preset key path they mean (`transform.scale` is
    /// `scale`; `transform.translation`, whose translation CA applies after the layer's rotation
    /// and scale, in the parent's coordinates, is exactly `offset`).
    public static let keyPathAliases: [(alias: String, keyPath: String)] = [
        ("transform.scale", "scale"),
        ("transform.scale.x", "scale.x"),
        ("transform.scale.y", "scale.y"),
        ("transform.translation", "offset"),
        ("transform.translation.x", "offset.x"),
        ("transform.translation.y", "offset.y"),
    ]

    /// Every key path spelling, for suggestions ("did you mean").
    public static var knownKeyPaths: [String] {
        fixedKeyPaths.map(\.keyPath) + keyPathAliases.map(\.alias)
            + ["rotation3D.angle", "rotation3D[1].angle", "values.NAME"]
    }

    /// The key paths a layer drawing `shape` with `rotation3DCount` 3D rotations and text
    /// `values` named `valueNames` takes, in documentation order (aliases left out), for the
    /// message that lists them when a key path names nothing close.
    public static func keyPaths(for shape: ShapeGeometry, rotation3DCount: Int, valueNames: [String]) -> [String] {
        var paths = fixedKeyPaths.filter { $0.property.applies(to: shape) }.map(\.keyPath)
        paths += (0..<min(rotation3DCount, 16)).map { AnimatableProperty.rotation3DAngle(index: $0).keyPath }
        if case .text = shape { paths += valueNames.sorted().map { "values.\($0)" } }
        return paths
    }

    /// Reads a key path; nil when it names nothing.
    public init?(keyPath: String) {
        if let fixed = Self.fixedKeyPaths.first(where: { $0.keyPath == keyPath }) {
            self = fixed.property
            return
        }
        if keyPath == "rotation3D.angle" {
            self = .rotation3DAngle(index: 0)
            return
        }
        if keyPath.hasPrefix("rotation3D["), keyPath.hasSuffix("].angle") {
            let inner = keyPath.dropFirst("rotation3D[".count).dropLast("].angle".count)
            guard let i = Int(inner), i >= 0, i < 16 else { return nil }
            self = .rotation3DAngle(index: i)
            return
        }
        if keyPath.hasPrefix("values.") {
            let name = String(keyPath.dropFirst("values.".count))
            guard !name.isEmpty else { return nil }
            self = .value(name: name)
            return
        }
        return nil
    }

    /// The key path as presets write it.
    public var keyPath: String {
        switch self {
        case .rotation3DAngle(let i): return i == 0 ? "rotation3D.angle" : "rotation3D[\(i)].angle"
        case .value(let name): return "values.\(name)"
        default: return Self.fixedKeyPaths.first { $0.property == self }?.keyPath ?? "?"
        }
    }

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
        case (.center, .circle), (.center, .ellipse), (.center, .rect), (.center, .arc), (.center, .image): true
        case (.center, _): false
        case (.radius, .circle), (.radius, .arc): true
        case (.radius, _): false
        case (.size, .ellipse), (.size, .rect), (.size, .image): true
        case (.sizeWidth, .ellipse), (.sizeWidth, .rect), (.sizeWidth, .image): true
        case (.sizeHeight, .ellipse), (.sizeHeight, .rect), (.sizeHeight, .image): true
        case (.size, _), (.sizeWidth, _), (.sizeHeight, _): false
        case (.cornerRadius, .rect): true
        case (.cornerRadius, _): false
        case (.startAngle, .arc), (.endAngle, .arc): true
        case (.startAngle, _), (.endAngle, _): false
        case (.value, .text): true
        case (.value, _): false
        case (.fillColor, .group), (.fillColor, .replicator), (.fillColor, .image): false
        case (.strokeColor, .text), (.lineWidth, .text), (.lineDashPhase, .text), (.miterLimit, .text),
            (.strokeStart, .text), (.strokeEnd, .text):
            false
        case (.strokeColor, _), (.lineWidth, _), (.lineDashPhase, _), (.miterLimit, _), (.strokeStart, _),
            (.strokeEnd, _):
            shape.isShape
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
        case .sizeWidth: .number(state.shape.size?.x ?? 0)
        case .sizeHeight: .number(state.shape.size?.y ?? 0)
        case .cornerRadius: .number(state.shape.cornerRadius ?? 0)
        case .startAngle: .number(state.shape.arcAngles?.start ?? 0)
        case .endAngle: .number(state.shape.arcAngles?.end ?? 0)
        case .rotation3DAngle(let i): .number(i < state.rotation3D.count ? state.rotation3D[i].angle : 0)
        case .value(let name): .number(state.values[name] ?? 0)
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
        case (.sizeWidth, .number(let n)):
            if let s = state.shape.size { state.shape.size = Point(x: max(0, n), y: s.y) }
        case (.sizeHeight, .number(let n)):
            if let s = state.shape.size { state.shape.size = Point(x: s.x, y: max(0, n)) }
        case (.cornerRadius, .number(let n)): state.shape.cornerRadius = max(0, n)
        case (.startAngle, .number(let n)): state.shape.arcAngles?.start = n
        case (.endAngle, .number(let n)): state.shape.arcAngles?.end = n
        case (.rotation3DAngle(let i), .number(let n)):
            if i < state.rotation3D.count { state.rotation3D[i].angle = n }
        case (.value(let name), .number(let n)):
            state.values[name] = n
            state.exactValues[name] = nil
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
            case .image(let image): image.center
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
            case .image(var image):
                image.center = newValue
                self = .image(image)
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
            case .image(let image): image.size
            default: nil
            }
        }
        set {
            guard let newValue else { return }
            switch self {
            case .ellipse(let c, _): self = .ellipse(center: c, size: newValue)
            case .rect(let c, _, let r): self = .rect(center: c, size: newValue, cornerRadius: r)
            case .image(var image):
                image.size = newValue
                self = .image(image)
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

extension ShapeGeometry {
    /// Whether the layer draws a path (and so takes fill, stroke and trim properties).
    public var isShape: Bool {
        switch self {
        case .group, .replicator, .text, .image: false
        default: true
        }
    }
}
