// SPDX-License-Identifier: GPL-3.0-or-later

public import Geometry

/// One node of the layer tree: a shape or a group, its base (model) property values and the
/// animations that override them over time (Core Animation's layer + animations).
public struct Layer: Equatable, Sendable {
    /// The optional `name` from the preset (for messages and references).
    public var name: String?
    /// The model values: what the layer shows when no animation is active.
    public var state: LayerState
    /// Animations in preset order; when two animate the same key path the later one wins.
    public var animations: [Animation]
    /// Children, back to front (groups only; empty for shapes).
    public var children: [Layer]
    /// JSONPath of the layer object in its preset, e.g. `$.layers[0].layers[2]`, for messages
    /// about the layer found after decoding (`ExportBudget`); empty when not decoded from JSON.
    public var sourcePath: String
    /// Properties driven by the composition's state (`bind`), applied before `animations`.
    public var bindings: [StateBinding]

    /// A layer; see the properties.
    public init(
        name: String? = nil, state: LayerState, animations: [Animation] = [],
        children: [Layer] = [], sourcePath: String = "", bindings: [StateBinding] = []
    ) {
        self.bindings = bindings
        self.name = name
        self.state = state
        self.animations = animations
        self.children = children
        self.sourcePath = sourcePath
    }
}

/// The shape a layer draws, in the layer's own coordinates (points, y-down, angles in degrees,
/// 0° = 3 o'clock, positive = clockwise on screen).
public enum ShapeGeometry: Equatable, Sendable {
    /// A circle; its path starts at 3 o'clock and runs clockwise (like SwiftUI `Circle` and
    /// `UIBezierPath(ovalIn:)`, semantics §5.1). Box: the circle's bounding square.
    case circle(center: Point, radius: Double)
    /// An ellipse inscribed in a `size` box centred on `center`; starts at 3 o'clock, clockwise.
    case ellipse(center: Point, size: Point)
    /// A rectangle of `size` centred on `center`, corners rounded by `cornerRadius` (clamped to
    /// half the shorter side); clockwise.
    case rect(center: Point, size: Point, cornerRadius: Double)
    /// A circular arc from `startAngle` to `endAngle` (degrees); `clockwise` (default) means
    /// increasing angles, clockwise on screen (UIKit and Cairo meaning). Box: the full circle's
    /// bounding square, so rotation defaults to turning about the arc's centre.
    case arc(center: Point, radius: Double, startAngle: Double, endAngle: Double, clockwise: Bool)
    /// A straight segment. Box: the segment's bounding box.
    case line(from: Point, to: Point)
    /// A polyline through `points`, closed back to the first unless `closed` is false.
    case polygon(points: [Point], closed: Bool)
    /// Any path, from SVG path data. Box: the path's tight bounding box.
    case path(BezierPath)
    /// No drawing of its own: a container. Box: `bounds` (defaults to the canvas rectangle).
    case group(bounds: Rect)
    /// A container drawn `instanceCount` times, each copy transformed and delayed a step further
    /// (CAReplicatorLayer). Box: `bounds`.
    case replicator(bounds: Rect, replication: Replication)
    /// One line of text. Box: an empty rectangle at the layer's origin, so `position` is where
    /// the text goes and rotation and scale turn about that point; `anchorPoint` says which point
    /// of the text's own box (advance width × ascent + descent) sits there.
    case text(TextContent)
    /// A PNG image drawn in a `size` box centred on `center` (points).
    case image(ImageContent)
}

/// How a replicator copies its children (CAReplicatorLayer).
public struct Replication: Equatable, Sendable {
    /// Number of copies, ≥ 1 (`instanceCount`).
    public var instanceCount: Int
    /// Applied once more to each further copy, about the replicator's anchor: copy i gets it i
    /// times (`instanceTransform`). Translation in points.
    public var offset: Point
    /// Rotation per copy in degrees, clockwise.
    public var rotation: Double
    /// Scale per copy.
    public var scale: Point
    /// Seconds each further copy lags behind (`instanceDelay`): copy i sees time t − i·delay.
    public var instanceDelay: Double
    /// Added to the opacity of each further copy (`instanceAlphaOffset`), usually ≤ 0.
    public var instanceAlphaOffset: Double

    /// A replication; see the properties.
    public init(
        instanceCount: Int, offset: Point = Point(x: 0, y: 0), rotation: Double = 0,
        scale: Point = Point(x: 1, y: 1), instanceDelay: Double = 0, instanceAlphaOffset: Double = 0
    ) {
        self.instanceCount = instanceCount
        self.offset = offset
        self.rotation = rotation
        self.scale = scale
        self.instanceDelay = instanceDelay
        self.instanceAlphaOffset = instanceAlphaOffset
    }
}

/// A line of text and its font.
public struct TextContent: Equatable, Sendable {
    /// The text, with `{name}` or `{name:format}` placeholders filled from the layer's `values`
    /// (`format`: `%d` truncates toward zero like Swift's `Int(x)`, `%.Nf` rounds like
    /// `String(format:)`); `{{` and `}}` are literal braces.
    public var template: String
    /// Font family as fontconfig knows it (e.g. "Inter").
    public var fontFamily: String
    /// Font size in points, > 0.
    public var fontSize: Double
    /// Font weight.
    public var fontWeight: FontWeight
    /// OpenType feature settings in HarfBuzz's syntax, each a 4-character tag turned on
    /// (`"tnum"`) or, after `-`, off (`"-kern"`). Empty: the text is set unshaped, glyph by
    /// glyph with the font's default advances (Cairo's text API); otherwise it is shaped by
    /// HarfBuzz with the font's default features plus these (docs/preset-format.md, Text).
    public var features: [String]

    /// A text; see the properties.
    public init(
        template: String, fontFamily: String, fontSize: Double, fontWeight: FontWeight, features: [String] = []
    ) {
        self.template = template
        self.fontFamily = fontFamily
        self.fontSize = fontSize
        self.fontWeight = fontWeight
        self.features = features
    }
}

/// Font weights by SwiftUI's names, with their OpenType weight classes.
public enum FontWeight: String, Equatable, Sendable, CaseIterable {
    /// 100.
    case ultraLight
    /// 200.
    case thin
    /// 300.
    case light
    /// 400.
    case regular
    /// 500.
    case medium
    /// 600.
    case semibold
    /// 700.
    case bold
    /// 800.
    case heavy
    /// 900.
    case black

    /// The OpenType weight class, 100…900.
    public var weightClass: Int {
        switch self {
        case .ultraLight: 100
        case .thin: 200
        case .light: 300
        case .regular: 400
        case .medium: 500
        case .semibold: 600
        case .bold: 700
        case .heavy: 800
        case .black: 900
        }
    }
}

/// A PNG image placed on the canvas.
public struct ImageContent: Equatable, Sendable {
    /// The file's path as written in the preset (relative to the preset's folder).
    public var file: String
    /// The file's absolute or working-directory-relative path, resolved at load time, as text
    /// for messages (bytes that are not UTF-8 shown as `\xHH`, `ByteFile.shown`).
    public var resolvedPath: String
    /// The same path as bytes, which is what the file is opened by (`ByteFile`): a preset in a
    /// folder whose name is not UTF-8 finds its images there.
    public var resolvedBytes: [UInt8]
    /// Centre of the image box in layer coordinates (points).
    public var center: Point
    /// Size of the image box in points (default: the PNG's pixel size).
    public var size: Point

    /// An image; see the properties. `resolvedBytes` defaults to `resolvedPath`'s UTF-8.
    public init(file: String, resolvedPath: String, resolvedBytes: [UInt8]? = nil, center: Point, size: Point) {
        self.file = file
        self.resolvedPath = resolvedPath
        self.resolvedBytes = resolvedBytes ?? Array(resolvedPath.utf8)
        self.center = center
        self.size = size
    }
}

/// One SwiftUI `rotation3DEffect`: a rotation about an axis through the anchor, seen with
/// perspective, then flattened to a 2D projective transform (semantics §6).
public struct Rotation3D: Equatable, Sendable {
    /// Angle in degrees (right-handed about `axis`, +z toward the viewer).
    public var angle: Double
    /// Rotation axis (x, y, z); need not be normalised, must not be zero.
    public var axis: Vector3
    /// Anchor in unit coordinates of the layer's box (default centre).
    public var anchor: Point
    /// Anchor depth in points (default 0).
    public var anchorZ: Double
    /// Perspective strength: m34 = −perspective / max(width, height) of the box (default 1).
    public var perspective: Double

    /// An effect; see the properties for units and defaults.
    public init(
        angle: Double, axis: Vector3, anchor: Point = Point(x: 0.5, y: 0.5), anchorZ: Double = 0,
        perspective: Double = 1
    ) {
        self.angle = angle
        self.axis = axis
        self.anchor = anchor
        self.anchorZ = anchorZ
        self.perspective = perspective
    }
}

/// A 3D direction.
public struct Vector3: Equatable, Sendable {
    /// x component.
    public var x: Double
    /// y component.
    public var y: Double
    /// z component.
    public var z: Double

    /// A vector from its components.
    public init(x: Double, y: Double, z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }
}

/// How the inside of a path is decided for filling.
public enum FillRule: String, Equatable, Sendable, CaseIterable {
    /// Non-zero winding (Core Graphics and SVG default).
    case nonZero
    /// Even-odd.
    case evenOdd
}

/// Shape of a stroke's open ends (CAShapeLayer `lineCap`).
public enum LineCap: String, Equatable, Sendable, CaseIterable {
    /// Flat, ending exactly at the end point (default).
    case butt
    /// A half disc of diameter `lineWidth`.
    case round
    /// A half square of side `lineWidth`.
    case square
}

/// Shape of a stroke's corners (CAShapeLayer `lineJoin`).
public enum LineJoin: String, Equatable, Sendable, CaseIterable {
    /// Sharp corner, cut to bevel past `miterLimit` (default).
    case miter
    /// Rounded corner.
    case round
    /// Cut corner.
    case bevel
}

/// Every animatable value of a layer at one instant (the model value, or the presentation value
/// once animations are applied). Units: points, degrees, 0…1 fractions.
public struct LayerState: Equatable, Sendable {
    /// What is drawn.
    public var shape: ShapeGeometry
    /// Where the anchor point lands in the parent, in points; `nil` = where the anchor already is
    /// (no move). Core Animation `position`.
    public var position: Point?
    /// The point that rotation and scale turn about, in unit coordinates of the layer's box:
    /// (0,0) top-left, (1,1) bottom-right; default (0.5, 0.5). Core Animation `anchorPoint`.
    public var anchorPoint: Point
    /// A translation applied after everything else, in points (SwiftUI `offset`).
    public var offset: Point
    /// Rotation about the anchor in degrees, positive = clockwise on screen.
    public var rotation: Double
    /// Scale about the anchor, x and y factors (1 = unchanged).
    public var scale: Point
    /// Opacity 0…1 applied to the layer and its children as one.
    public var opacity: Double
    /// When true nothing of the layer (or its children) is drawn.
    public var hidden: Bool
    /// Fill colour; `nil` = no fill.
    public var fillColor: RGBAColor?
    /// Fill rule.
    public var fillRule: FillRule
    /// Stroke colour; `nil` = no stroke.
    public var strokeColor: RGBAColor?
    /// Stroke width in points, ≥ 0 (default 1). The stroke is centred on the path.
    public var lineWidth: Double
    /// End caps.
    public var lineCap: LineCap
    /// Corner joins.
    public var lineJoin: LineJoin
    /// Miter limit (ratio, ≥ 1; default 10 as in Core Animation).
    public var miterLimit: Double
    /// Dash lengths in points, painted and unpainted alternating; empty = solid.
    public var lineDashPattern: [Double]
    /// Distance into the dash pattern at which stroking starts, in points (Cairo's dash offset).
    public var lineDashPhase: Double
    /// Start of the stroked part as a fraction of path length. Any number is stored; drawing
    /// clamps to 0…1 and draws nothing when start ≥ end (semantics §5.3).
    public var strokeStart: Double
    /// End of the stroked part as a fraction of path length (default 1); clamped like
    /// `strokeStart` when drawing.
    public var strokeEnd: Double
    /// SwiftUI `rotation3DEffect`s, innermost (nearest the view, applied first) first.
    public var rotation3D: [Rotation3D]
    /// Extra rotation in degrees set by a path animation's `rotationMode` (heading of the path);
    /// added to `rotation`. Not written in presets.
    public var pathRotation: Double
    /// Named numbers a text layer's placeholders show (`values.NAME` key paths animate them).
    public var values: [String: Double]
    /// The exact fractions behind `values` where the evaluator computed them exactly (a linear
    /// keyframe or basic animation at an exact sample time); text formatting reads these first,
    /// so `%d` of a value meant to be 10 prints 10, not 9. Empty in the model.
    public var exactValues: [String: Rational]
    /// A shape, in the layer's coordinates, that children are clipped to (groups and
    /// replicators; SwiftUI `clipShape`). `nil` = no clip.
    public var clip: ShapeGeometry?

    /// Defaults as in Core Animation: no fill, no stroke, line width 1, butt caps, miter joins,
    /// miter limit 10, opacity 1, strokeStart 0, strokeEnd 1, anchor at the centre.
    public init(shape: ShapeGeometry) {
        self.shape = shape
        self.position = nil
        self.anchorPoint = Point(x: 0.5, y: 0.5)
        self.offset = Point(x: 0, y: 0)
        self.rotation = 0
        self.scale = Point(x: 1, y: 1)
        self.opacity = 1
        self.hidden = false
        self.fillColor = nil
        self.fillRule = .nonZero
        self.strokeColor = nil
        self.lineWidth = 1
        self.lineCap = .butt
        self.lineJoin = .miter
        self.miterLimit = 10
        self.lineDashPattern = []
        self.lineDashPhase = 0
        self.strokeStart = 0
        self.strokeEnd = 1
        self.rotation3D = []
        self.pathRotation = 0
        self.values = [:]
        self.exactValues = [:]
        self.clip = nil
    }
}

extension LayerState {
    /// The layer's box in its own coordinates, which `anchorPoint` is relative to: a circle's or
    /// arc's bounding square, an ellipse's or rect's frame, the tight bounds of a line, polygon or
    /// path, a group's `bounds`.
    public var box: Rect {
        switch shape {
        case .circle(let c, let r), .arc(let c, let r, _, _, _):
            return Rect(x: c.x - r, y: c.y - r, width: 2 * r, height: 2 * r)
        case .ellipse(let c, let s), .rect(let c, let s, _):
            return Rect(x: c.x - s.x / 2, y: c.y - s.y / 2, width: s.x, height: s.y)
        case .line(let a, let b):
            return Rect(
                x: min(a.x, b.x), y: min(a.y, b.y), width: abs(b.x - a.x), height: abs(b.y - a.y))
        case .polygon(let points, _):
            guard let first = points.first else { return Rect(x: 0, y: 0, width: 0, height: 0) }
            var lo = first
            var hi = first
            for p in points {
                lo = Point(x: min(lo.x, p.x), y: min(lo.y, p.y))
                hi = Point(x: max(hi.x, p.x), y: max(hi.y, p.y))
            }
            return Rect(x: lo.x, y: lo.y, width: hi.x - lo.x, height: hi.y - lo.y)
        case .path(let path):
            return path.bounds ?? Rect(x: 0, y: 0, width: 0, height: 0)
        case .group(let bounds), .replicator(let bounds, _):
            return bounds
        case .text:
            return Rect(x: 0, y: 0, width: 0, height: 0)
        case .image(let image):
            return Rect(
                x: image.center.x - image.size.x / 2, y: image.center.y - image.size.y / 2,
                width: image.size.x, height: image.size.y)
        }
    }

    /// Where `anchorPoint` lies in the layer's own coordinates (points):
    /// `box.origin + anchorPoint · box.size`.
    public var anchorLocation: Point {
        let b = box
        return Point(x: b.x + anchorPoint.x * b.width, y: b.y + anchorPoint.y * b.height)
    }
}
