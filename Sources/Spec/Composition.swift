// SPDX-License-Identifier: GPL-3.0-or-later

import Glibc

/// A preset after decoding, validation and normalisation: every parameter resolved to a value,
/// every expression evaluated, keyframes checked, timing functions resolved. Nothing in it can be
/// invalid; `Timeline` evaluates it at any time without further checks.
public struct Composition: Equatable, Sendable {
    /// The preset's `name` (letters, digits, `-`, `_`), used for output file names.
    public var name: String
    /// One sentence on what the animation shows (may be empty).
    public var description: String
    /// Canvas size in points and its background.
    public var canvas: Canvas
    /// Frames per second to sample at, > 0 (default 30).
    public var fps: Double
    /// The loop period in seconds when the preset sets `duration`; `nil` lets `Timeline` compute
    /// it from the animations.
    public var duration: Double?
    /// The parameters with the values in effect (defaults or `--set` overrides), in file order.
    public var parameters: [Parameter]
    /// The layer tree, back to front.
    public var layers: [Layer]
    /// Lint codes the preset acknowledges (`allowLints`), for lints found after decoding.
    public var allowedLints: [String]
    /// Where each object member the decoder read sits in the file, by its JSONPath
    /// (`$.layers[0].animations[1].repeatCount` → line 12, column 7), so problems found after
    /// decoding (`ExportBudget`, `LoopPlan`) can point at the value. Array items are not listed
    /// (a million polygon points would cost more than they tell); empty when not decoded.
    public var sourceLocations: [String: SourceLocation]
    /// The values the preset writes as exactly `"$name"` of a colour or number parameter (no
    /// expression around it), by the value's JSONPath (`$.layers[0].fill`,
    /// `$.layers[1].stroke.width`): the parameter name. The Lottie export writes such a value
    /// as a slot (`LottieWriter`). Empty for compositions not decoded from a preset.
    public var parameterUses: [String: String] = [:]
    /// SwiftUI-style state (`state` and `events`) that layers' `bind` expressions read; nil
    /// when the preset declares none.
    public var state: StateMachine?
    /// A model decoded from another format that evaluates to `FrameScene`s itself (a Lottie
    /// file, `LottieImport`), or nil for a preset. When set, `layers` is empty and `Timeline`'s
    /// `SceneEvaluator` hands every instant to it; `canvas`, `fps` and `duration` still describe
    /// the loop, so planning, budgets and every output format work unchanged.
    public var foreign: ForeignModel?

    /// Builds a composition; the decoder is the usual source of one.
    public init(
        name: String, description: String = "", canvas: Canvas, fps: Double = 30,
        duration: Double? = nil, parameters: [Parameter] = [], layers: [Layer], allowedLints: [String] = [],
        sourceLocations: [String: SourceLocation] = [:], state: StateMachine? = nil,
        foreign: ForeignModel? = nil
    ) {
        self.state = state
        self.foreign = foreign
        self.name = name
        self.description = description
        self.canvas = canvas
        self.fps = fps
        self.duration = duration
        self.parameters = parameters
        self.layers = layers
        self.allowedLints = allowedLints
        self.sourceLocations = sourceLocations
    }
}

/// What another format's model must give `Spec`: a stable identity, since `Composition` is
/// compared by value and the model itself may not be `Equatable`. `Timeline` refines it into
/// `SceneSource`, the protocol that actually draws.
public protocol ForeignScenes: Sendable {
    /// Equal for two models that draw the same frames (for example the format's name and the
    /// digest of the decoded file).
    var identity: String { get }
}

/// A `ForeignScenes` model held by a `Composition`, compared by `identity`.
public struct ForeignModel: Equatable, Sendable {
    /// The model.
    public var model: any ForeignScenes
    /// Wraps `model`.
    public init(_ model: any ForeignScenes) { self.model = model }
    /// Equal when the models' identities are.
    public static func == (lhs: ForeignModel, rhs: ForeignModel) -> Bool {
        lhs.model.identity == rhs.model.identity
    }
}

/// The drawing area: its size in points (pixels at scale 1) and what lies behind the layers.
public struct Canvas: Equatable, Sendable {
    /// Width in points, > 0.
    public var width: Double
    /// Height in points, > 0.
    public var height: Double
    /// Background colour painted under every frame; `nil` means transparent.
    public var background: RGBAColor?
    /// The page colour a GIF will be shown on. Half-transparent edge pixels are blended onto it,
    /// because GIF has only 1-bit transparency. `nil` means no matte (edges are thresholded).
    public var matte: RGBAColor?

    /// A canvas; see the properties for units.
    public init(width: Double, height: Double, background: RGBAColor? = nil, matte: RGBAColor? = nil) {
        self.width = width
        self.height = height
        self.background = background
        self.matte = matte
    }
}

/// A value a designer may change without editing the layer tree (`--set name=value`).
public struct Parameter: Equatable, Sendable {
    /// The name used as `$name` in the preset.
    public var name: String
    /// The value in effect.
    public var value: ParameterValue
    /// The value written in the preset.
    public var defaultValue: ParameterValue
    /// What the parameter controls (may be empty).
    public var description: String
    /// Inclusive lower bound for number parameters, when the preset gives one.
    public var minimum: Double?
    /// Inclusive upper bound for number parameters, when the preset gives one.
    public var maximum: Double?
    /// For a number parameter whose default is an expression of the parameters declared before
    /// it (`"default": "$size / 16"`), that expression as written; nil for a literal default.
    /// Unless `--set` gives the parameter itself, its value follows theirs (`--set size=32`
    /// gives `strokeWidth` 2), kept within `minimum`…`maximum`.
    public var defaultExpression: String?

    /// A parameter; see the properties.
    public init(
        name: String, value: ParameterValue, defaultValue: ParameterValue, description: String = "",
        minimum: Double? = nil, maximum: Double? = nil, defaultExpression: String? = nil
    ) {
        self.name = name
        self.value = value
        self.defaultValue = defaultValue
        self.description = description
        self.minimum = minimum
        self.maximum = maximum
        self.defaultExpression = defaultExpression
    }
}

/// The value of a parameter. Its type is fixed by the default written in the preset.
public enum ParameterValue: Equatable, Sendable, CustomStringConvertible {
    /// A number (sizes in points, durations in seconds, angles in degrees…).
    case number(Double)
    /// A colour (`#RRGGBB`, `#RRGGBBAA` or a name in the preset).
    case color(RGBAColor)
    /// Free text (e.g. a text layer's string).
    case string(String)
    /// A flag.
    case bool(Bool)

    /// The type's name as messages say it: "number", "colour", "string", "boolean".
    public var typeName: String {
        switch self {
        case .number: "number"
        case .color: "colour"
        case .string: "string"
        case .bool: "boolean"
        }
    }

    /// The value as a user would type it after `--set name=`.
    public var description: String {
        switch self {
        case .number(let n): formatNumber(n)
        case .color(let c): c.hexString
        case .string(let s): s
        case .bool(let b): b ? "true" : "false"
        }
    }
}

/// Formats a number the way presets and messages show it: integers without a fraction, others
/// with up to 6 decimals, always with `.` as the decimal separator (locale-proof). Magnitudes
/// of 1e15 and more, and non-zero ones below 1e-6 (which 6 decimals would show as 0), are
/// written with 6 significant digits and an exponent: `1e+300`, `1e-09`.
public func formatNumber(_ value: Double) -> String {
    if value.isNaN { return "nan" }
    if value.isInfinite { return value < 0 ? "-infinity" : "infinity" }
    if abs(value) >= 1e15 || (value != 0 && abs(value) < 1e-6) {
        return formatC("%.6g", value)
    }
    // |value| < 1e15 here, so the conversion is exact and cannot trap.
    if value == value.rounded() { return String(Int64(value)) }
    var text = formatC("%.6f", value)
    while text.hasSuffix("0") { text.removeLast() }
    if text.hasSuffix(".") { text.removeLast() }
    return text
}
