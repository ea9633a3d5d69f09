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
    /// Set when the scene's source stopped building it at a limit of `ExportBudget` (a Lottie
    /// file whose fills repaint thousands of paths, or nested repeaters): the scene is then
    /// incomplete, `ExportBudget` refuses the export and `SceneRenderer` the frame. nil for
    /// every complete scene (every preset's).
    public var cut: SceneCut?

    /// A scene; see the properties.
    public init(width: Double, height: Double, background: RGBAColor?, nodes: [SceneNode], cut: SceneCut? = nil) {
        self.width = width
        self.height = height
        self.background = background
        self.nodes = nodes
        self.cut = cut
    }
}

/// Why and where a scene source stopped building a scene (`FrameScene.cut`), so that a
/// hostile file is refused in bounded time and memory instead of being built whole first.
public struct SceneCut: Equatable, Sendable {
    /// The limit that was passed.
    public enum Limit: Equatable, Sendable {
        /// `ExportBudget.maximumPathSegments` path elements, drawn or held for drawing.
        case segments
        /// `ExportBudget.maximumDrawnLayers` shapes (leaves: shape, text, image).
        case shapes
    }

    /// Which limit.
    public var limit: Limit
    /// The count when building stopped: more than the limit, a lower bound of the whole
    /// scene's count.
    public var count: Int
    /// The JSON path of the top-level layer being built when the limit was passed
    /// (`$.layers[2]`), or nil when the source cannot say.
    public var path: String?

    /// A cut; see the properties.
    public init(limit: Limit, count: Int, path: String? = nil) {
        self.limit = limit
        self.count = count
        self.path = path
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
    /// `content` (back to front) seen through a matte: its alpha multiplied, pixel by pixel, by
    /// the coverage `mode` takes from `matte` (back to front, drawn in the same node
    /// coordinates and never shown itself). Lottie's track mattes and masks (`LottieImport`);
    /// presets do not make it.
    case matted([SceneNode], matte: [SceneNode], mode: MatteMode)
    /// `content` (back to front) through a stack of mask outlines (node coordinates), combined
    /// in order into one coverage the content's alpha is multiplied by (Lottie's
    /// `masksProperties`; presets do not make it).
    case masked([SceneNode], masks: [MaskDrawing])
}

/// Which coverage a matte gives (Lottie 1.0 spec, Matte Mode `tt`).
public enum MatteMode: Equatable, Sendable {
    /// The matte's alpha.
    case alpha
    /// 1 − the matte's alpha.
    case alphaInverted
    /// The matte's luminance (0.2125 R + 0.7154 G + 0.0721 B, CSS Masking's, of its colour over transparent
    /// black, premultiplied) times nothing else: a transparent matte pixel is black.
    case luma
    /// 1 − the luma coverage.
    case lumaInverted
}

/// One outline of a mask stack (Lottie 1.0 spec, Mask; lottie-web's MaskElement).
public struct MaskDrawing: Equatable, Sendable {
    /// How the outline's coverage joins the coverage of the masks before it.
    public enum Mode: Equatable, Sendable {
        /// Union: c + m − c·m (Lottie `a`).
        case add
        /// c · (1 − m) (Lottie `s`).
        case subtract
        /// c · m (Lottie `i`).
        case intersect
    }
    /// The outline, node coordinates, filled non-zero.
    public var path: BezierPath
    /// How it combines.
    public var mode: Mode
    /// Coverage scale 0…1 (Lottie `o` / 100).
    public var opacity: Double
    /// Whether the outline's coverage is inverted (everything outside it) before combining.
    public var inverted: Bool

    /// A mask outline; see the properties.
    public init(path: BezierPath, mode: Mode, opacity: Double, inverted: Bool) {
        self.path = path
        self.mode = mode
        self.opacity = opacity
        self.inverted = inverted
    }
}

/// A linear or radial gradient paint, in the node's coordinates (Lottie's `gf`/`gs`).
public struct GradientPaint: Equatable, Sendable {
    /// Linear along `start` → `end`, or radial: centre `start`, radius |`end` − `start`|,
    /// focal point `focus`.
    public enum Kind: Equatable, Sendable {
        /// Colours vary along the line from `start` to `end`.
        case linear
        /// Colours vary from the focal point `focus` out to the circle around `start`
        /// through `end`.
        case radial(focus: Point)
    }
    /// Linear or radial.
    public var kind: Kind
    /// Start point (radial: centre), points.
    public var start: Point
    /// End point (radial: a point on the outer circle), points.
    public var end: Point
    /// Stops by offset 0…1, non-decreasing, straight-alpha colours; padded beyond the ends. Two
    /// stops at one offset are a hard edge: the earlier one's colour up to it, the later one's
    /// after (Cairo keeps stops of equal offset in the order they are added).
    public var stops: [GradientStop]

    /// A gradient; see the properties.
    public init(kind: Kind, start: Point, end: Point, stops: [GradientStop]) {
        self.kind = kind
        self.start = start
        self.end = end
        self.stops = stops
    }
}

/// One colour stop of a `GradientPaint`.
public struct GradientStop: Equatable, Sendable {
    /// Where along the gradient, 0…1.
    public var offset: Double
    /// Colour there (straight alpha).
    public var color: RGBAColor

    /// A stop; see the properties.
    public init(offset: Double, color: RGBAColor) {
        self.offset = offset
        self.color = color
    }
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
    /// Paints the fill instead of `fillColor` when set (Lottie `gf`; presets leave it nil).
    public var fillGradient: GradientPaint?
    /// Paints the stroke instead of `stroke.color` when set (Lottie `gs`; presets leave it nil).
    public var strokeGradient: GradientPaint?

    /// A drawing; see the properties.
    public init(
        fillPath: BezierPath?, fillColor: RGBAColor, fillRule: FillRule, strokePath: BezierPath?,
        stroke: StrokeDrawing, fillGradient: GradientPaint? = nil, strokeGradient: GradientPaint? = nil
    ) {
        self.fillPath = fillPath
        self.fillColor = fillColor
        self.fillRule = fillRule
        self.strokePath = strokePath
        self.stroke = stroke
        self.fillGradient = fillGradient
        self.strokeGradient = strokeGradient
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
