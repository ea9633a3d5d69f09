// SPDX-License-Identifier: GPL-3.0-or-later

import Geometry
import Glibc
public import Spec

/// What a budget violation is about: a value in the preset, or a command-line option.
public enum BudgetSubject: Equatable, Sendable, CustomStringConvertible {
    /// A preset value, by JSONPath (`$.layers[0].animations[1].repeatCount`).
    case preset(path: String)
    /// A command-line option, by name (`--scale`, `--fps`, `--duration`).
    case option(String)

    /// The path or the option name.
    public var description: String {
        switch self {
        case .preset(let path): path
        case .option(let name): name
        }
    }
}

/// One limit of `ExportBudget` exceeded: what exceeds it, by how much, and why it matters.
public struct BudgetViolation: Error, Equatable, Sendable, CustomStringConvertible {
    /// The preset value (JSONPath) or option to blame.
    public var subject: BudgetSubject
    /// The value found, in the limit's unit (seconds, frames, pixels, segments, dashes).
    public var value: Double
    /// The limit it exceeds (or, for a lower limit, falls short of), same unit.
    public var limit: Double
    /// One sentence without a final full stop naming the value and the limit.
    public var message: String

    /// A violation; see the properties.
    public init(subject: BudgetSubject, value: Double, limit: Double, message: String) {
        self.subject = subject
        self.value = value
        self.limit = limit
        self.message = message
    }

    /// Whether an option is to blame (a usage error) rather than the preset.
    public var isUsageError: Bool {
        if case .option = subject { return true }
        return false
    }

    /// The exit code the CLI gives it (`docs/cli.md`): 64 for an option, 65 for the preset.
    public var exitCode: Int32 { isUsageError ? 64 : 65 }

    /// `SUBJECT: MESSAGE`, e.g. `--scale: 4096×4096 pt at --scale 16 is …`.
    public var description: String { "\(subject): \(message)" }

    /// A preset violation as a `Diagnostic` of `file`, with the line and column
    /// `composition.sourceLocations` records for its path; nil for an option's violation.
    public func diagnostic(file: String, composition: Composition) -> Diagnostic? {
        guard case .preset(let path) = subject else { return nil }
        return Diagnostic(
            .error, file: file, path: path, location: composition.sourceLocations[path], message: message)
    }
}

/// The limits every export must fit, checked from the `Composition` and the options alone,
/// before any frame is evaluated or rendered, so a hostile preset or option fails in
/// milliseconds with its JSON path or option name instead of exhausting memory or time.
///
/// Each limit is set so that every bundled preset passes at `--scale 16` (the documented
/// maximum) and a 600 s × 50 fps loop on 256 × 256 passes, with room to spare:
///
/// | limit | value | why |
/// | --- | --- | --- |
/// | loop period | 0.01…600 s | 600 s is the preset format's own `duration` cap; below 0.01 s (one GIF delay unit) a loop has no frame to show |
/// | loop start | ≤ 86 400 s | frame times past a day lose sub-microsecond resolution in a Double |
/// | frame count | ≤ 72 000 | 600 s × 120 fps, the format's largest period at its largest frame rate |
/// | pixels per frame | ≤ 16 777 216 | 4096 × 4096: 64 MiB per RGBA frame (and as much again for Cairo's surface); a 248 pt canvas at `--scale 16` is 3968 × 3968 |
/// | canvas at scale | ≥ 1 px each axis | a smaller canvas is rounded up to a 1 × 1 image nobody asked for |
/// | path segments per frame | ≤ 2 000 000 | after replicator copies, arcs cut into quarter turns; each segment costs the renderer a few hundred bytes and Cairo's edge list |
/// | dashes per frame | ≤ 100 000 | upper bound from path length ÷ pattern period, times copies; the renderer cuts each dash itself |
/// | arc sweep | ≤ 256 turns | `BezierPath.maximumArcSegments`; more only winds over the same circle, and Cairo's stroker slows superlinearly with the overlapping turns (65 536 quarter turns of a 20 pt ring: 300 s, 1024: 0.15 s) |
/// | image-layer pixels | ≤ 16 777 216 | `PNGStructure.maximumPixelCount`, read from the PNG header, before decoding |
/// | drawn extent | ≤ 8 388 608 px | a layer's box (stroke width included) times every scale above it (its own, its parents', replicator steps compounded, `--scale`): 2²³ px is the range of Cairo's 24.8 fixed-point device coordinates, beyond which its edges wrap; and curves are cut into pieces 0.01 device px from the curve, so their count grows with the square root of the drawn size (a 25 pt ring at scale 1e12: over 10 s and 500 MB per frame) |
///
/// Cost: one walk over the layer tree; polygon and path layers are summed point by point
/// (linear), PNG headers are read (33 bytes each); nothing is evaluated or drawn.
public enum ExportBudget {
    /// Shortest explicit loop period in seconds: one GIF delay unit (GIF89a: 1/100 s).
    public static let minimumPeriod = 0.01
    /// Longest loop period in seconds: the preset format's `duration` cap.
    public static let maximumPeriod = 600.0
    /// Latest loop start in seconds (the steady-state start after delayed animations).
    public static let maximumStart = 86_400.0
    /// Most frames in one loop: 600 s × 120 fps.
    public static let maximumFrameCount = 72_000
    /// Most pixels in one frame: 4096 × 4096.
    public static let maximumPixelsPerFrame = 4096 * 4096
    /// Most path segments drawn in one frame (all layers, all replicator copies, clips).
    public static let maximumPathSegments = 2_000_000
    /// Most dashes one frame may cut (all dashed strokes, all replicator copies).
    public static let maximumDashesPerFrame = 100_000
    /// Most layers drawn in one frame, replicator copies counted: each is a Cairo fill or
    /// stroke (a clip, text shaping) of its own, and 10 000 copies of a small scene took over
    /// 20 s to export where 1000 take about one (the fuzzer's replicator inputs).
    public static let maximumDrawnLayers = 2_000
    /// Most path elements a scene source may build for one frame before drawing (a Lottie
    /// file's shapes, their copies under groups and repeaters, and the paths its fills and
    /// strokes repaint: `FrameScene.cut`): twice what a frame may draw (a frame within
    /// `maximumPathSegments` builds its paths and repaints them once), while 6 000 fills each
    /// repainting the ellipses before them (6 GB and 35 s of `validate` before this bound) or
    /// three nested repeaters of 1 000 copies (no end in 60 s) stop after a bounded amount of
    /// work: about 250 MB resident and a quarter of a second of `validate` (4 000 000 elements
    /// of 56 bytes are 224 MB). Measured on the release build: the 6 000 fills 251 MB, with
    /// strokes instead 253 MB, with one-vertex paths instead of ellipses 259 MB, nested
    /// repeaters of one-vertex paths 178 MB and of empty ones 84 MB. Before strokes counted
    /// each path they draw (`maximumBuiltShapes`), 666 strokes of 1 000 trimmed rectangles
    /// reached 770 MB before this bound stopped them; now 34 MB.
    public static let maximumBuiltSegments = 2 * maximumPathSegments
    /// Most shapes (fills, strokes, solids, repeater copies) a scene source may build for one
    /// frame: twice `maximumDrawnLayers`, for the same reason. A stroke counts one per path
    /// it draws (every piece under a trim with `m` = 1, twice where the trim wraps round), at
    /// least one.
    public static let maximumBuiltShapes = 2 * maximumDrawnLayers
    /// Most pixels of one image layer's PNG.
    public static let maximumImagePixels = PNGStructure.maximumPixelCount
    /// Largest drawn extent of one layer in device pixels: the larger side of its box (plus its
    /// stroke width) times the largest stretch of every scale above it, animations at their
    /// largest (doubled for overshooting timing curves). 2²³, the range of Cairo's 24.8
    /// fixed-point device coordinates.
    public static let maximumDrawnExtent = 8_388_608.0

    /// Pixel size of a canvas at `scale`: `round(points · scale)` on each axis, at least 1, and
    /// at most `Int32.max` (a non-finite or huge product is clamped there, never trapped on;
    /// `check` refuses such sizes first).
    public static func pixelSize(width: Double, height: Double, scale: Double) -> (width: Int, height: Int) {
        func axis(_ points: Double) -> Int {
            let pixels = (points * scale).rounded()
            guard pixels.isFinite else { return pixels > 0 ? Int(Int32.max) : 1 }
            return Int(min(max(pixels, 1), Double(Int32.max)))
        }
        return (axis(width), axis(height))
    }

    /// Every limit `composition` exceeds with these options, in a fixed order (time, pixels,
    /// geometry, images); empty when the export fits.
    ///
    /// - Parameters:
    ///   - composition: the decoded preset.
    ///   - fps: `--fps` when given (nil: the preset's `fps`).
    ///   - duration: `--duration` when given (nil: the preset's or the computed period).
    ///   - scale: `--scale` (pixels per point; default 1).
    ///   - speed: `--speed` (composition seconds per second of the file; default 1).
    /// - Returns: the violations; preset ones carry JSON paths (exit 65), option ones the
    ///   option's name (exit 64). A loop that cannot be planned for a reason other than a
    ///   limit (a cycle off the millisecond grid, cycles that never line up within 60 s) is
    ///   not a budget matter: `LoopPlan.make` reports it.
    public static func check(
        _ composition: Composition, fps: Double? = nil, duration: Double? = nil, scale: Double = 1, speed: Double = 1
    ) -> [BudgetViolation] {
        var found: [BudgetViolation] = []
        var plan: LoopPlan?
        do {
            plan = try LoopPlan.make(
                for: composition, fps: fps ?? composition.fps, duration: duration, fpsIsOption: fps != nil,
                speed: speed)
        } catch {
            if let violation = error.violation { found.append(violation) }
        }
        found += pixelViolations(composition.canvas, scale: scale)
        var tally = GeometryTally()
        tally.add(composition.layers, copies: 1, via: nil)
        found += tally.violations()
        found += extentViolations(composition.layers, scale: scale)
        if let plan, found.isEmpty, let source = composition.foreign?.model as? any SceneSource {
            found += sceneExtentViolations(source, plan: plan, scale: scale)
        }
        found += imageViolations(composition.layers)
        return found
    }

    /// For a model that draws its own frames (a Lottie file), whose geometry cannot be bounded
    /// from a preset's keys: the first frame of `plan` with a shape drawn past
    /// `maximumDrawnExtent` (`SceneExtent.firstOver`), so `validate` and export planning refuse
    /// what the renderer would refuse mid-export, and a frame drawing more than
    /// `maximumDrawnLayers` shapes or `maximumPathSegments` path elements, or whose source
    /// stopped building it (`FrameScene.cut`). Evaluates every frame (no drawing); blamed on
    /// `$.layers`, since the scene does not say which layer a shape came from.
    static func sceneExtentViolations(_ source: any SceneSource, plan: LoopPlan, scale: Double) -> [BudgetViolation] {
        guard scale.isFinite, scale > 0 else { return [] }
        for index in 0..<plan.frameCount {
            let scene = source.scene(at: plan.sampleTime(ofFrame: index))
            if let cut = scene.cut {
                let limit = cut.limit == .segments ? maximumBuiltSegments : maximumBuiltShapes
                let what = cut.limit == .segments ? "path segments" : "shapes"
                return [
                    BudgetViolation(
                        subject: .preset(path: cut.path ?? "$.layers"), value: Double(cut.count), limit: Double(limit),
                        message:
                            "frame \(index) needs more than \(limit) \(what) to build (a fill or stroke paints every path before it in its group, a repeater copies everything before it), the limit per frame"
                    )
                ]
            }
            let (shapes, segments) = SceneExtent.size(of: scene)
            if segments > maximumPathSegments {
                return [
                    BudgetViolation(
                        subject: .preset(path: "$.layers"), value: Double(segments), limit: Double(maximumPathSegments),
                        message:
                            "frame \(index) draws paths of \(segments) segments (a fill or stroke paints every path before it in its group), more than the limit of \(maximumPathSegments) per frame"
                    )
                ]
            }
            if shapes > maximumDrawnLayers {
                return [
                    BudgetViolation(
                        subject: .preset(path: "$.layers"), value: Double(shapes), limit: Double(maximumDrawnLayers),
                        message:
                            "frame \(index) draws \(shapes) shapes (a fill or stroke paints every path before it in its group), more than the limit of \(maximumDrawnLayers) per frame"
                    )
                ]
            }
            guard let over = SceneExtent.firstOver(maximumDrawnExtent, in: scene, scale: scale) else {
                continue
            }
            return [
                BudgetViolation(
                    subject: .preset(path: "$.layers"), value: over.drawn, limit: maximumDrawnExtent,
                    message:
                        "a shape is drawn \(describeSize(over.drawn)) px across in frame \(index) (its \(describeSize(over.extent)) pt outline at a scale of \(describeSize(over.stretch))), more than the limit of \(formatNumber(maximumDrawnExtent)) px (2^23, Cairo's fixed-point range)"
                )
            ]
        }
        return []
    }

    /// The first layer whose drawn extent (`maximumDrawnExtent`) can exceed the limit, blamed on
    /// the scale value that contributes most (a layer's `scale`, an animation's `fromValue`,
    /// `toValue` or `values[i]`, a replicator's `instanceTransform.scale`; the outermost of
    /// equal ones), or on the layer's own geometry when no scale above 1 is involved.
    static func extentViolations(_ layers: [Layer], scale: Double) -> [BudgetViolation] {
        guard scale.isFinite, scale > 0 else { return [] }
        var found: BudgetViolation?
        func visit(_ layers: [Layer], stretch: Double, worst: (factor: Double, path: String)?) {
            for layer in layers where found == nil {
                let own = DrawnExtent.stretch(of: layer)
                let here = stretch * own.factor
                var blame = worst
                if own.factor > 1, own.factor > (worst?.factor ?? 1) { blame = (own.factor, own.path) }
                let size = DrawnExtent.size(of: layer)
                let drawn = here * size.extent
                if !(drawn <= maximumDrawnExtent) {
                    let path = blame?.path ?? GeometryTally.path(layer, size.key)
                    found = BudgetViolation(
                        subject: .preset(path: path), value: drawn, limit: maximumDrawnExtent,
                        message:
                            "a layer may be drawn \(describeSize(drawn)) px across (its \(describeSize(size.extent)) pt box at a scale of up to \(describeSize(here)) with every scale above it), more than the limit of \(formatNumber(maximumDrawnExtent)) px (2^23, Cairo's fixed-point range)"
                    )
                    return
                }
                var childStretch = here
                var childBlame = blame
                if case .replicator(_, let r) = layer.state.shape, r.instanceCount > 1 {
                    let step = max(abs(r.scale.x), abs(r.scale.y))
                    if step > 1 {
                        let compound = pow(step, Double(r.instanceCount - 1))
                        childStretch *= compound
                        if compound > (childBlame?.factor ?? 1) {
                            childBlame = (compound, GeometryTally.path(layer, "instanceTransform.scale"))
                        }
                    }
                }
                visit(layer.children, stretch: childStretch, worst: childBlame)
            }
        }
        visit(layers, stretch: scale, worst: nil)
        return found.map { [$0] } ?? []
    }

    static func pixelViolations(_ canvas: Canvas, scale: Double) -> [BudgetViolation] {
        guard scale.isFinite, scale > 0 else {
            return [
                BudgetViolation(
                    subject: .option("--scale"), value: scale, limit: 0,
                    message: "the scale must be a finite number > 0, found \(formatNumber(scale))")
            ]
        }
        let w = canvas.width * scale
        let h = canvas.height * scale
        let size = "\(formatNumber(canvas.width))×\(formatNumber(canvas.height)) pt at --scale \(formatNumber(scale))"
        if w.rounded() < 1 || h.rounded() < 1 {
            return [
                BudgetViolation(
                    subject: .option("--scale"), value: min(w, h), limit: 1,
                    message: "\(size) is \(formatNumber(w))×\(formatNumber(h)) px; each side must be at least 1 px")
            ]
        }
        let pixels = w.rounded() * h.rounded()
        guard pixels <= Double(maximumPixelsPerFrame) else {
            // The canvas alone fits at scale 1 (4096 × 4096 points at most), so the scale is to
            // blame when it is above 1.
            let subject: BudgetSubject = scale > 1 ? .option("--scale") : .preset(path: "$.canvas")
            return [
                BudgetViolation(
                    subject: subject, value: pixels, limit: Double(maximumPixelsPerFrame),
                    message:
                        "\(size) is \(formatNumber(w.rounded()))×\(formatNumber(h.rounded())) = \(formatNumber(pixels)) pixels per frame, more than the limit of \(maximumPixelsPerFrame) (4096×4096)"
                )
            ]
        }
        return []
    }

    static func imageViolations(_ layers: [Layer]) -> [BudgetViolation] {
        var found: [BudgetViolation] = []
        for layer in layers {
            if case .image(let image) = layer.state.shape {
                let path = layer.sourcePath.isEmpty ? "$" : layer.sourcePath + ".file"
                if let bytes = ByteFile.read(image.resolvedBytes, limit: 33), bytes.count >= 24 {
                    let word = { (i: Int) in bytes[i..<(i + 4)].reduce(0) { $0 << 8 | Int($1) } }
                    let pixels = Double(word(16)) * Double(word(20))
                    if pixels > Double(maximumImagePixels) {
                        found.append(
                            BudgetViolation(
                                subject: .preset(path: path), value: pixels, limit: Double(maximumImagePixels),
                                message:
                                    "the image \"\(abbreviated(image.file))\" is \(word(16))×\(word(20)) = \(formatNumber(pixels)) pixels, more than the limit of \(maximumImagePixels) (4096×4096)"
                            ))
                    }
                }
            }
            found += imageViolations(layer.children)
        }
        return found
    }
}

/// Counts an upper bound of the path segments and dashes one frame can draw, walking the
/// layer tree once. Numbers are Doubles so a product of nested replicator counts cannot
/// overflow.
struct GeometryTally {
    var segments = 0.0
    var dashes = 0.0
    /// Layers drawn per frame, copies counted, and the outermost replicator to blame.
    var drawn = 0.0
    var drawnVia: String?
    /// The layer contributing most segments: (segments, JSONPath to blame).
    var worstSegments: (count: Double, path: String, what: String)?
    /// The dashed stroke contributing most dashes.
    var worstDashes: (count: Double, path: String, what: String)?
    /// An arc whose sweep is over `BezierPath.maximumArcSegments` quarter turns.
    var longArc: (turns: Double, path: String)?

    /// Adds `layers`, each drawn `copies` times; `via` is the outermost replicator's
    /// `instanceCount` path when copies > 1.
    mutating func add(_ layers: [Layer], copies: Double, via: String?) {
        for layer in layers {
            let own = Self.segmentCount(layer)
            let clip = layer.state.clip.map { Self.segmentCount(of: $0, layer: nil).count } ?? 0
            let total = (own.count + clip) * copies
            segments += total
            drawn += copies
            if copies > 1, drawnVia == nil { drawnVia = via }
            let blame = via ?? Self.path(layer, own.key)
            let what =
                copies > 1
                ? "\(formatNumber(own.count)) in each of \(formatNumber(copies)) copies" : formatNumber(own.count)
            if total > (worstSegments?.count ?? 0) { worstSegments = (total, blame, what) }
            if own.turns > Double(BezierPath.maximumArcSegments) / 4, longArc == nil {
                longArc = (own.turns, Self.path(layer, "endAngle"))
            }
            if let perCopy = Self.dashCount(layer) {
                let all = perCopy * copies
                dashes += all
                let what =
                    copies > 1
                    ? "\(formatNumber(perCopy.rounded(.up))) in each of \(formatNumber(copies)) copies"
                    : formatNumber(perCopy.rounded(.up))
                if all > (worstDashes?.count ?? 0) {
                    worstDashes = (all, Self.path(layer, "stroke.lineDashPattern"), what)
                }
            }
            var childCopies = copies
            var childVia = via
            if case .replicator(_, let r) = layer.state.shape {
                childCopies *= Double(r.instanceCount)
                if childVia == nil, r.instanceCount > 1 { childVia = Self.path(layer, "instanceCount") }
            }
            add(layer.children, copies: childCopies, via: childVia)
        }
    }

    func violations() -> [BudgetViolation] {
        var found: [BudgetViolation] = []
        if let longArc {
            found.append(
                BudgetViolation(
                    subject: .preset(path: longArc.path), value: longArc.turns,
                    limit: Double(BezierPath.maximumArcSegments) / 4,
                    message:
                        "the arc may sweep \(formatNumber(longArc.turns.rounded(.up))) turns, more than the limit of \(BezierPath.maximumArcSegments / 4)"
                ))
        }
        if segments > Double(ExportBudget.maximumPathSegments), let worst = worstSegments {
            found.append(
                BudgetViolation(
                    subject: .preset(path: worst.path), value: segments,
                    limit: Double(ExportBudget.maximumPathSegments),
                    message:
                        "a frame may draw \(formatNumber(segments)) path segments (this layer: \(worst.what)), more than the limit of \(ExportBudget.maximumPathSegments)"
                ))
        }
        if drawn > Double(ExportBudget.maximumDrawnLayers) {
            found.append(
                BudgetViolation(
                    subject: .preset(path: drawnVia ?? "$.layers"), value: drawn,
                    limit: Double(ExportBudget.maximumDrawnLayers),
                    message:
                        "a frame may draw \(formatNumber(drawn)) layers (replicator copies counted), more than the limit of \(ExportBudget.maximumDrawnLayers); use fewer instances"
                ))
        }
        if dashes > Double(ExportBudget.maximumDashesPerFrame), let worst = worstDashes {
            found.append(
                BudgetViolation(
                    subject: .preset(path: worst.path), value: dashes.rounded(.up),
                    limit: Double(ExportBudget.maximumDashesPerFrame),
                    message:
                        "a frame may cut up to \(formatNumber(dashes.rounded(.up))) dashes (this stroke: \(worst.what), its path length over the pattern's period), more than the limit of \(ExportBudget.maximumDashesPerFrame)"
                ))
        }
        return found
    }

    static func path(_ layer: Layer, _ key: String) -> String {
        layer.sourcePath.isEmpty ? "$" : "\(layer.sourcePath).\(key)"
    }

    /// Segments of a layer's own drawing, the key to blame, and (arcs) the turns it may sweep.
    static func segmentCount(_ layer: Layer) -> (count: Double, key: String, turns: Double) {
        segmentCount(of: layer.state.shape, layer: layer)
    }

    static func segmentCount(of shape: ShapeGeometry, layer: Layer?) -> (count: Double, key: String, turns: Double) {
        switch shape {
        case .circle, .ellipse: return (6, "type", 0)
        case .rect: return (10, "type", 0)
        case .line: return (2, "type", 0)
        case .polygon(let points, _): return (Double(points.count) + 1, "points", 0)
        case .path(let p): return (Double(p.elements.count), "d", 0)
        case .arc(_, _, let a, let b, _):
            let sweep = layer.map { maximumSweep(start: a, end: b, animations: $0.animations) } ?? abs(b - a) + 360
            let quarters = min((sweep / 90).rounded(.up), Double(BezierPath.maximumArcSegments))
            return (quarters + 1, "endAngle", sweep / 360)
        case .text, .image: return (1, "type", 0)
        case .group, .replicator: return (0, "type", 0)
        }
    }

    /// Largest sweep in degrees an arc can reach: `|end − start|` plus the turn the arc's
    /// normalisation may add; when an angle is animated, twice the sum of the angles' largest
    /// magnitudes over the model and every animated value (twice, for timing curves that
    /// overshoot) plus that turn.
    static func maximumSweep(start: Double, end: Double, animations: [Animation]) -> Double {
        let s = magnitude(of: .startAngle, model: abs(start), animations)
        let e = magnitude(of: .endAngle, model: abs(end), animations)
        guard s.animated || e.animated else { return abs(end - start) + 360 }
        return 2 * (s.value + e.value) + 360
    }

    /// Largest |value| `property` takes in `animations` (groups included) or `model`, doubled
    /// when animated (timing curves may overshoot), and whether any animation drives it.
    static func magnitude(of property: AnimatableProperty, model: Double, _ animations: [Animation])
        -> (value: Double, animated: Bool)
    {
        var m = model
        var animated = false
        func consider(_ v: AnimatableValue) {
            animated = true
            switch v {
            case .number(let n): m = max(m, abs(n))
            case .point(let p): m = max(m, abs(p.x), abs(p.y))
            default: break
            }
        }
        func visit(_ list: [Animation]) {
            for a in list {
                switch a.content {
                case .basic(let p, let from, let to) where p == property:
                    consider(from)
                    consider(to)
                case .keyframes(let p, let k) where p == property:
                    k.values.forEach(consider)
                case .group(let children):
                    visit(children)
                default: break
                }
            }
        }
        visit(animations)
        return (animated ? 2 * m : m, animated)
    }

    /// An upper bound of the dashes one copy of `layer`'s stroke cuts per frame, or nil when it
    /// has no dash pattern: (path length bound ÷ pattern period + 2) × painted lengths per period.
    static func dashCount(_ layer: Layer) -> Double? {
        let pattern = layer.state.lineDashPattern
        guard !pattern.isEmpty else { return nil }
        let cycle = pattern.count % 2 == 1 ? pattern + pattern : pattern
        let period = cycle.reduce(0, +)
        guard period > 0 else { return nil }
        let length = lengthBound(layer)
        return (length / period + 2) * Double(cycle.count / 2)
    }

    /// An upper bound of the layer's path length in its own units over every frame (animated
    /// radius, size and angles at their largest, doubled for overshooting timing curves).
    static func lengthBound(_ layer: Layer) -> Double {
        let a = layer.animations
        switch layer.state.shape {
        case .circle(_, let r):
            return 2 * .pi * magnitude(of: .radius, model: abs(r), a).value
        case .ellipse(_, let s), .rect(_, let s, _):
            // A convex outline is no longer than the perimeter of its bounding box.
            // `size.width` and `size.height` drive one side each; the largest of the three bounds both.
            let side = [AnimatableProperty.size, .sizeWidth, .sizeHeight].map {
                magnitude(of: $0, model: max(abs(s.x), abs(s.y)), a).value
            }
            return 4 * (side.max() ?? 0)
        case .arc(_, let r, let start, let end, _):
            let radius = magnitude(of: .radius, model: abs(r), a).value
            return radius * maximumSweep(start: start, end: end, animations: a) * .pi / 180
        case .line(let p, let q):
            return p.distance(to: q)
        case .polygon(let points, let closed):
            var total = 0.0
            for i in points.indices.dropFirst() { total += points[i - 1].distance(to: points[i]) }
            if closed, let first = points.first, let last = points.last { total += last.distance(to: first) }
            return total
        case .path(let p):
            // A Bézier curve is no longer than its control polygon.
            var total = 0.0
            var current = Point(x: 0, y: 0)
            var subpathStart = current
            for element in p.elements {
                switch element {
                case .move(let to):
                    current = to
                    subpathStart = to
                case .line(let to):
                    total += current.distance(to: to)
                    current = to
                case .cubic(let to, let c1, let c2):
                    total += current.distance(to: c1) + c1.distance(to: c2) + c2.distance(to: to)
                    current = to
                case .close:
                    total += current.distance(to: subpathStart)
                    current = subpathStart
                }
            }
            return total
        default:
            return 0
        }
    }
}

/// Upper bounds of how large a layer is drawn (`ExportBudget.maximumDrawnExtent`), from the
/// model and every animated value, before anything is evaluated.
enum DrawnExtent {
    /// The largest factor by which the layer's own `scale` (model, `scale`, `scale.x`,
    /// `scale.y` animations, doubled when animated) stretches a length, and the JSONPath of the
    /// value that sets it.
    static func stretch(of layer: Layer) -> (factor: Double, path: String) {
        let model = max(abs(layer.state.scale.x), abs(layer.state.scale.y))
        var factor = model
        var path = GeometryTally.path(layer, "scale")
        func visit(_ list: [Animation]) {
            for a in list {
                func consider(_ v: AnimatableValue, _ key: String) {
                    let m: Double
                    switch v {
                    case .number(let n): m = abs(n)
                    case .point(let p): m = max(abs(p.x), abs(p.y))
                    default: return
                    }
                    // Doubled: a timing curve may overshoot (as `GeometryTally.magnitude`).
                    if !(2 * m <= factor) {
                        factor = 2 * m
                        path = a.sourcePath.isEmpty ? path : a.sourcePath + key
                    }
                }
                switch a.content {
                case .basic(let p, let from, let to) where p == .scale || p == .scaleX || p == .scaleY:
                    consider(from, ".fromValue")
                    consider(to, ".toValue")
                case .keyframes(let p, let k) where p == .scale || p == .scaleX || p == .scaleY:
                    for (i, v) in k.values.enumerated() { consider(v, ".values[\(i)]") }
                case .group(let children):
                    visit(children)
                default: break
                }
            }
        }
        visit(layer.animations)
        return (factor, path)
    }

    /// The larger side of the layer's box in its own units, its radius or size at their
    /// largest animated values, plus its stroke width at its largest; and the key to blame when
    /// the geometry itself is too large.
    static func size(of layer: Layer) -> (extent: Double, key: String) {
        let a = layer.animations
        let state = layer.state
        let width =
            state.strokeColor == nil
            ? 0 : GeometryTally.magnitude(of: .lineWidth, model: abs(state.lineWidth), a).value
        let box = state.box
        var extent = max(abs(box.width), abs(box.height))
        var key = "type"
        switch state.shape {
        case .circle(_, let r), .arc(_, let r, _, _, _):
            extent = 2 * GeometryTally.magnitude(of: .radius, model: abs(r), a).value
            key = "radius"
        case .ellipse(_, let s), .rect(_, let s, _):
            extent = GeometryTally.magnitude(of: .size, model: max(abs(s.x), abs(s.y)), a).value
            key = "size"
        case .line, .polygon: key = "points"
        case .path: key = "d"
        case .text(let text):
            // Each glyph is drawn as its own outline of about one em (two, for wide ones); the
            // line's length adds glyphs, not size.
            extent = 2 * abs(text.fontSize)
            key = "fontSize"
        case .image: key = "size"
        case .group, .replicator: extent = 0
        }
        return (extent + width, key)
    }
}

extension ExportBudget {
    /// A size or scale in a budget message: `formatNumber`'s text, or `more than 1.8e308` for an
    /// infinity, which only an overflow of finite inputs makes (a 1e308 radius doubled into a box).
    public static func describeSize(_ value: Double) -> String {
        value.isInfinite ? (value < 0 ? "below -1.8e308" : "more than 1.8e308") : formatNumber(value)
    }
}
