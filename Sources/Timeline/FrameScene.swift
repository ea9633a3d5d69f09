// SPDX-License-Identifier: GPL-3.0-or-later

public import Geometry
public import Spec

/// Everything needed to draw one frame, fully resolved: geometry, colours and transforms at one
/// instant, with no keyframes or parameters left. Coordinates are canvas points, y-down.
public struct FrameScene: Equatable, Sendable {
    /// Canvas width in points.
    public var width: Double
    /// Canvas height in points.
    public var height: Double
    /// Colour painted under everything; `nil` = transparent.
    public var background: RGBAColor?
    /// Top-level nodes, back to front.
    public var nodes: [SceneNode]

    /// A scene; see the properties.
    public init(width: Double, height: Double, background: RGBAColor?, nodes: [SceneNode]) {
        self.width = width
        self.height = height
        self.background = background
        self.nodes = nodes
    }
}

/// One visible layer: where it is, how opaque, and what it draws.
public struct SceneNode: Equatable, Sendable {
    /// Maps the node's own coordinates to its parent's (points); projective when the layer has
    /// rotation3D effects, affine otherwise.
    public var transform: ProjectiveTransform
    /// Opacity 0…1 applied to the node's drawing as a whole (children composited first).
    public var opacity: Double
    /// What the node draws.
    public var content: SceneContent

    /// A node; see the properties.
    public init(transform: ProjectiveTransform, opacity: Double, content: SceneContent) {
        self.transform = transform
        self.opacity = opacity
        self.content = content
    }
}

/// The drawing of a node.
public enum SceneContent: Equatable, Sendable {
    /// A filled and/or stroked path.
    case shape(ShapeDrawing)
    /// Child nodes, back to front, clipped to `clip` (node coordinates) when it is set.
    case group([SceneNode], clip: BezierPath?)
    /// A line of text.
    case text(TextDrawing)
    /// A PNG image.
    case image(ImageDrawing)
}

/// A line of text, ready to draw: placeholders already filled.
public struct TextDrawing: Equatable, Sendable {
    /// The text.
    public var string: String
    /// Font family (fontconfig name).
    public var fontFamily: String
    /// Font size in points.
    public var fontSize: Double
    /// Font weight.
    public var fontWeight: FontWeight
    /// Colour (straight alpha).
    public var color: RGBAColor
    /// Which point of the text's box (advance width × ascent + descent, unit coordinates) sits at
    /// the node's origin.
    public var anchor: Point
    /// OpenType features (`TextContent.features`); empty: Cairo's unshaped text.
    public var features: [String]

    /// A text drawing; see the properties.
    public init(
        string: String, fontFamily: String, fontSize: Double, fontWeight: FontWeight, color: RGBAColor,
        anchor: Point, features: [String] = []
    ) {
        self.string = string
        self.fontFamily = fontFamily
        self.fontSize = fontSize
        self.fontWeight = fontWeight
        self.color = color
        self.anchor = anchor
        self.features = features
    }
}

/// A PNG image stretched over a rectangle.
public struct ImageDrawing: Equatable, Sendable {
    /// The file to draw (resolved path), as text for messages.
    public var file: String
    /// The resolved path's bytes, which the file is read by (`ByteFile`).
    public var path: [UInt8]
    /// Where it goes, in node coordinates (points).
    public var rect: Rect

    /// An image drawing; see the properties. `path` defaults to `file`'s UTF-8.
    public init(file: String, path: [UInt8]? = nil, rect: Rect) {
        self.file = file
        self.path = path ?? Array(file.utf8)
        self.rect = rect
    }
}

/// A path with its paint, in the node's coordinates.
public struct ShapeDrawing: Equatable, Sendable {
    /// The path to fill; `nil` = no fill.
    public var fillPath: BezierPath?
    /// Fill colour (straight alpha).
    public var fillColor: RGBAColor
    /// Fill rule.
    public var fillRule: FillRule
    /// The path to stroke, untrimmed: `stroke.start`…`stroke.end` says which part draws and
    /// the renderer cuts it (`PathMeasure.strokePieces`). `nil` = no stroke (no colour, zero
    /// width, or an empty range after clamping).
    public var strokePath: BezierPath?
    /// Stroke paint and style.
    public var stroke: StrokeDrawing

    /// A drawing; see the properties.
    public init(
        fillPath: BezierPath?, fillColor: RGBAColor, fillRule: FillRule, strokePath: BezierPath?,
        stroke: StrokeDrawing
    ) {
        self.fillPath = fillPath
        self.fillColor = fillColor
        self.fillRule = fillRule
        self.strokePath = strokePath
        self.stroke = stroke
    }
}

/// Stroke paint and style, resolved.
public struct StrokeDrawing: Equatable, Sendable {
    /// Colour (straight alpha).
    public var color: RGBAColor
    /// Width in points, > 0.
    public var width: Double
    /// End caps.
    public var lineCap: LineCap
    /// Corner joins.
    public var lineJoin: LineJoin
    /// Miter limit, ≥ 1.
    public var miterLimit: Double
    /// Dash lengths in points; empty = solid.
    public var dashes: [Double]
    /// Offset into the dash pattern at the start of every subpath of the untrimmed path, in
    /// points (`lineDashPhase`, Cairo's dash offset). Trimming does not move the dashes.
    public var dashPhase: Double
    /// `strokeStart` clamped to 0…1: where the drawn part begins, as a fraction of the path's
    /// arc length (semantics §5.3).
    public var start: Double
    /// `strokeEnd` clamped to 0…1, > `start`: where the drawn part ends.
    public var end: Double

    /// A stroke; see the properties.
    public init(
        color: RGBAColor, width: Double, lineCap: LineCap, lineJoin: LineJoin, miterLimit: Double,
        dashes: [Double], dashPhase: Double, start: Double = 0, end: Double = 1
    ) {
        self.color = color
        self.width = width
        self.lineCap = lineCap
        self.lineJoin = lineJoin
        self.miterLimit = miterLimit
        self.dashes = dashes
        self.dashPhase = dashPhase
        self.start = start
        self.end = end
    }
}
