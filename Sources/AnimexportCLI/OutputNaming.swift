// SPDX-License-Identifier: GPL-3.0-or-later

import Export
import Raster
import Render
import Spec
import ToolOptions

/// One rendition of a preset variant: the pixels per point it is drawn at and, for `--size`,
/// the pixel size asked for.
struct Rendition: Equatable, Sendable {
    /// Pixels per point, > 0.
    var scale: Double
    /// `--size PX`: the larger canvas side in pixels; nil for `--scale`.
    var pixelSize: Int?

    /// The renditions of a composition of `canvas`: one per `--size` (scale = PX / the larger
    /// side in points), else one per `--scale`.
    static func all(_ options: Options, canvas: Canvas) -> [Rendition] {
        let sizes = options.variantOptions.sizes
        guard !sizes.isEmpty else { return options.scales.map { Rendition(scale: $0, pixelSize: nil) } }
        let side = max(canvas.width, canvas.height)
        return sizes.map { Rendition(scale: Double($0) / side, pixelSize: $0) }
    }

    /// For a `--size` rendition, what its scale came from, appended to a message that names
    /// `--scale` (`; --size 5000 is --scale 78.125 for this 64×64 pt canvas`); "" otherwise.
    static func note(_ rendition: Rendition, _ canvas: Canvas) -> String {
        guard let px = rendition.pixelSize else { return "" }
        return
            "; --size \(px) is --scale \(formatNumber(rendition.scale)) for this \(formatNumber(canvas.width))×\(formatNumber(canvas.height)) pt canvas"
    }
}

/// The stem of a job's generated names and the suffix its `-o NAME.EXT` files get.
struct JobNaming: Equatable, Sendable {
    /// `NAME` + variant suffix + `-PX` or `@Sx` (or the `--name` template filled in).
    var stem: String
    /// What `-o loader.gif` gets before the extension: the variant suffix, and `-PX`/`@Sx` when
    /// several sizes or scales are asked for.
    var fileSuffix: String

    /// The naming of one job (docs/cli.md, Output names).
    ///
    /// Without `--name`: `NAME` + variant suffix + `-PX` for `--size` (`circular-32`) or `@Sx`
    /// for a scale other than 1. With `--name TEMPLATE`: each `{placeholder}` replaced by
    /// `preset` (the preset's `name`), `scale` (pixels per point), `px` (the larger side in
    /// pixels), `fps`, `speed`, or a parameter of the preset (its value as `--set` gave it, else
    /// its value in effect), each made safe for a file name as `Variant.fileNamePart` does.
    /// - Throws: `UsageError` for a placeholder that is neither of these, listing the valid ones.
    static func make(
        composition: Composition, variant: Variant, rendition: Rendition, fps: Double, options: Options
    ) throws(UsageError) -> JobNaming {
        let size = rendition.pixelSize.map { "-\($0)" } ?? OutputPlan.scaleSuffix(rendition.scale)
        let several = max(options.scales.count, options.variantOptions.sizes.count) > 1
        let fileSuffix = variant.suffix + (several ? size : "")
        guard let template = options.variantOptions.nameTemplate else {
            return JobNaming(stem: composition.name + variant.suffix + size, fileSuffix: fileSuffix)
        }
        let pixels = SceneRenderer.pixelSize(
            width: composition.canvas.width, height: composition.canvas.height, scale: rendition.scale)
        var stem = ""
        var placeholder: String?
        for character in template {
            if character == "{" {
                placeholder = ""
            } else if character == "}", let name = placeholder {
                placeholder = nil
                stem += Variant.fileNamePart(
                    try value(of: name, composition, variant, rendition, max(pixels.width, pixels.height), fps, options)
                )
            } else if placeholder != nil {
                placeholder?.append(character)
            } else {
                stem.append(character)
            }
        }
        return JobNaming(stem: stem, fileSuffix: fileSuffix)
    }

    private static func value(
        of name: String, _ composition: Composition, _ variant: Variant, _ rendition: Rendition, _ px: Int,
        _ fps: Double, _ options: Options
    ) throws(UsageError) -> String {
        switch name {
        case "preset": return composition.name
        case "scale": return formatNumber(rendition.scale)
        case "px": return String(px)
        case "fps": return formatNumber(fps)
        case "speed": return formatNumber(options.variantOptions.speed)
        default: break
        }
        if let typed = variant.overrides[name] { return typed }
        if let parameter = composition.parameters.first(where: { $0.name == name }) {
            if case .number(let n) = parameter.value { return formatNumber(n) }
            return parameter.value.description
        }
        let valid = VariantOptions.namePlaceholders + composition.parameters.map(\.name)
        var message =
            "--name {\(name)}: \(composition.name) has no parameter \(name); use \(valid.map { "{\($0)}" }.joined(separator: ", "))"
        if let near = suggestion(for: name, among: valid) { message += "; did you mean {\(near)}?" }
        throw UsageError(message: message)
    }
}

extension JobNaming {
    /// With `--name`, two jobs of one preset that the template names alike would overwrite
    /// each other: say which template and which placeholders would tell them apart.
    /// - Throws: `ExitFailure(.usage)` after printing the first such pair.
    static func checkDistinct(_ jobs: [ExportJob], options: Options, console: Console) throws(ExitFailure) {
        guard let template = options.variantOptions.nameTemplate else { return }
        var seen: [String: ExportJob] = [:]
        for job in jobs {
            let key = job.presetPath.description + "\u{0}" + job.stem
            guard let other = seen[key] else {
                seen[key] = job
                continue
            }
            var differing = Set(
                job.variant.overrides.keys.filter { job.variant.overrides[$0] != other.variant.overrides[$0] })
            if job.scale != other.scale { differing.insert(options.variantOptions.sizes.isEmpty ? "scale" : "px") }
            let hint = differing.sorted().map { "{\($0)}" }.joined(separator: " ")
            console.error(
                "--name \(template) gives two outputs the name \(job.stem); add what varies: \(hint.isEmpty ? "{preset}" : hint)",
                file: job.presetPath.description)
            throw ExitFailure(code: .usage)
        }
    }
}
