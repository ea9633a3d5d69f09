// SPDX-License-Identifier: GPL-3.0-or-later

import Export
import Foundation
import Spec
import ToolOptions

/// Where in the loop the file starts (`--poster`).
enum PosterTime: Equatable, Sendable {
    /// Seconds into the file's loop as it plays (after `--speed`), ≥ 0.
    case seconds(Double)
    /// A fraction of the loop, 0 ≤ f < 1 (`--poster 50%` is 0.5).
    case fraction(Double)

    /// The fraction of a loop of `period` seconds this names, wrapped into 0 ≤ f < 1.
    func phase(period: Double) -> Double {
        let f: Double
        switch self {
        case .seconds(let s): f = period > 0 ? s / period : 0
        case .fraction(let x): f = x
        }
        let wrapped = f - f.rounded(.down)
        return wrapped.isFinite && wrapped >= 0 && wrapped < 1 ? wrapped : 0
    }
}

/// The options of sizes, speed and variants (`--size`, `--speed`, `--poster`, `--zip`,
/// `--name`), kept together so they read as one feature (`docs/cli.md`, Sizes, speed and
/// variants).
struct VariantOptions: Equatable, Sendable {
    /// `--size PX[,PX…]`: target pixel sizes of the larger canvas side, 1…16384; empty when
    /// not given (then `--scale` applies).
    var sizes: [Int] = []
    /// `--speed X`: composition seconds per second of the file, 0.01…100 (CAMediaTiming `speed`
    /// on the root layer).
    var speed = 1.0
    /// `--poster TIME`: which instant of the loop is frame 0; nil = the loop's start.
    var poster: PosterTime?
    /// `--zip`: `--set` lists pair up row by row instead of multiplying.
    var zip = false
    /// `--name TEMPLATE`: the stem of every generated name (`{preset}-{size}`); nil = the
    /// default naming.
    var nameTemplate: String?
    /// Whether `--scale` was given (`--size` refuses it, even `--scale 1`).
    var scaleGiven = false

    /// Largest `--speed`: 100 times faster makes a 2 s loop 2 cs, one GIF delay unit.
    static let maximumSpeed = 100.0
    /// Smallest `--speed`.
    static let minimumSpeed = 0.01
    /// Largest `--size`, pixels (the limit on a side, as for `--scale`).
    static let maximumSize = 16384

    /// The valued options of this feature, with what the value is (for messages).
    static let valued: [String: String] = [
        "--size": "a pixel size or a list like 24,32,48", "--speed": "a speed factor like 2 or 0.5",
        "--poster": "seconds into the loop or a percentage", "--name": "a name template like {preset}-{size}",
    ]
    /// The flags of this feature.
    static let flags = ["--zip"]

    /// The placeholders every `--name` template may use besides the preset's parameters.
    static let namePlaceholders = ["preset", "scale", "px", "fps", "speed"]
}

extension Options {
    /// Applies one of `VariantOptions.valued`; false when `name` is not one of them.
    mutating func applyVariantOption(_ name: String, _ value: String) throws(UsageError) -> Bool {
        switch name {
        case "--size":
            var list: [Int] = []
            for item in try OptionValues.list(value, name) {
                let px = try OptionValues.integer(
                    item, name, "a pixel size 1…\(VariantOptions.maximumSize) (the larger canvas side)",
                    1...VariantOptions.maximumSize)
                guard !list.contains(px) else { throw UsageError(message: "--size \(value): \(item) is repeated") }
                list.append(px)
            }
            variantOptions.sizes = list
        case "--speed":
            variantOptions.speed = try OptionValues.number(
                value, name,
                "a speed factor \(formatNumber(VariantOptions.minimumSpeed))…\(formatNumber(VariantOptions.maximumSpeed)) without a unit (2 plays twice as fast, 0.5 half as fast)"
            ) { $0 >= VariantOptions.minimumSpeed && $0 <= VariantOptions.maximumSpeed }
        case "--poster":
            variantOptions.poster = try Self.poster(value)
        case "--name":
            try Self.checkNameTemplate(value)
            variantOptions.nameTemplate = value
        default:
            return false
        }
        return true
    }

    /// `1.5` (seconds into the loop) or `25%` (of the loop, 0 ≤ p < 100).
    static func poster(_ text: String) throws(UsageError) -> PosterTime {
        if text.hasSuffix("%") {
            guard let percent = Double(text.dropLast()), percent >= 0, percent < 100 else {
                throw UsageError(
                    message:
                        "--poster \(text): expected a percentage of the loop, 0 ≤ P < 100 (--poster 25%; 100% is the start again: --poster 0%), or seconds into the loop without a unit (--poster 1.5)"
                )
            }
            return .fraction(percent / 100)
        }
        let seconds = try OptionValues.number(
            text, "--poster",
            "seconds into the loop ≥ 0 without a unit (--poster 1.5 is 1.5 s, taken modulo the loop) or a percentage of the loop, 0 ≤ P < 100 (--poster 25%)"
        ) {
            $0 >= 0 && $0 <= 86_400
        }
        return .seconds(seconds)
    }

    /// A `--name` template: text with `{placeholder}`s, no `/`, no NUL, no unbalanced brace, at
    /// least one placeholder so that the name depends on something.
    static func checkNameTemplate(_ template: String) throws(UsageError) {
        guard !template.isEmpty else { throw UsageError(message: "--name needs a template like {preset}-{size}") }
        if template.contains("/") || template.contains("\u{0}") {
            throw UsageError(
                message: "--name \(template): a name template may not contain / (use -o DIR/ for the folder)")
        }
        if template.hasPrefix(".") {
            throw UsageError(message: "--name \(template): a name may not start with . (it would be hidden)")
        }
        var placeholders = 0
        var inside = false
        for character in template {
            switch character {
            case "{":
                if inside { throw UsageError(message: "--name \(template): { inside a placeholder") }
                inside = true
            case "}":
                if !inside { throw UsageError(message: "--name \(template): } without {") }
                inside = false
                placeholders += 1
            default: break
            }
        }
        if inside { throw UsageError(message: "--name \(template): a placeholder is not closed with }") }
        if placeholders == 0 {
            throw UsageError(
                message:
                    "--name \(template): the template has no placeholder, so every output would get the same name; use {preset} and the parameters that vary, e.g. {preset}-{size}"
            )
        }
    }

    /// Refuses the feature's combinations that have no sensible meaning.
    func checkVariantCombinations() throws(UsageError) {
        let v = variantOptions
        if !v.sizes.isEmpty, v.scaleGiven {
            throw UsageError(
                message:
                    "--size sets the scale from the canvas (the larger side becomes PX pixels); give --size or --scale, not both"
            )
        }
        if v.zip {
            // Every fan-out list is a column: the --set lists, --size and --scale.
            var lists = settings.filter { $0.values.count > 1 }.map { (name: $0.name, count: $0.values.count) }
            if v.sizes.count > 1 { lists.append((name: "--size", count: v.sizes.count)) }
            if scales.count > 1 { lists.append((name: "--scale", count: scales.count)) }
            guard !lists.isEmpty else {
                throw UsageError(
                    message:
                        "--zip pairs up fan-out lists row by row; give --set NAME=V1,V2,… (or --size/--scale with several values) at least once"
                )
            }
            let lengths = Set(lists.map(\.count))
            if lengths.count > 1 {
                let counts = lists.map { "\($0.name) has \($0.count)" }.joined(separator: ", ")
                throw UsageError(
                    message:
                        "--zip pairs the fan-out lists row by row, so they need the same number of values: \(counts)"
                )
            }
        } else {
            for setting in settings where Set(setting.values).count != setting.values.count {
                throw UsageError(
                    message:
                        "--set \(setting.name)=\(setting.values.joined(separator: ",")): a value is repeated")
            }
        }
        if v.nameTemplate != nil {
            for output in outputs where !OutputPlan.isDirectory(output) {
                throw UsageError(
                    message: "--name names the files in -o DIR/; -o \(output) names its file itself")
            }
            if still != nil {
                throw UsageError(message: "--name does not apply to --frame/--time (one PNG named by -o)")
            }
        }
        if v.poster != nil, still != nil {
            throw UsageError(message: "--poster picks frame 0 of an animation; --frame/--time write one PNG")
        }
    }
}
