// SPDX-License-Identifier: GPL-3.0-or-later

/// One combination of `--set` values, and the suffix it adds to output names.
///
/// A setting with several values (`--set size=24,32,48`) fans out: one variant per value, and
/// with several such settings one per combination, the first setting varying slowest. Only
/// fanned-out settings appear in the suffix, as `-NAME-VALUE` in command-line order:
/// `circular-size-24`, `circular-size-24-color-FF3B30`. In the value, `#` is dropped and any
/// character other than a letter, digit, `.`, `_`, `+` or `-` becomes `_`.
struct Variant: Equatable, Sendable {
    /// `--set` values by parameter name, as typed.
    var overrides: [String: String]
    /// `""` without a fan-out, else `-size-24…`.
    var suffix: String

    /// Every variant of `settings`, in output order; one with no suffix when nothing fans out.
    static func expand(_ settings: [ParameterSetting]) -> [Variant] {
        var variants = [Variant(overrides: [:], suffix: "")]
        for setting in settings {
            var next: [Variant] = []
            for variant in variants {
                for value in setting.values {
                    var v = variant
                    v.overrides[setting.name] = value
                    if setting.values.count > 1 {
                        v.suffix += "-\(setting.name)-\(fileNamePart(value))"
                    }
                    next.append(v)
                }
            }
            variants = next
        }
        return variants
    }

    /// `value` made safe for a file name (see the type's documentation).
    static func fileNamePart(_ value: String) -> String {
        var out = ""
        for scalar in value.unicodeScalars where scalar != "#" {
            let safe =
                ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                || ".+-_".unicodeScalars.contains(scalar)
            out.unicodeScalars.append(safe ? scalar : "_")
        }
        return out.isEmpty ? "_" : out
    }
}

extension Variant {
    /// The variants of `settings` with `--zip`: row `r` takes value `r` of every list, a single
    /// value goes into every row. The lists have the same length (`Options` checks it). The
    /// suffix names each listed setting, as `expand` does: `-size-24-strokeWidth-2`.
    static func zipped(_ settings: [ParameterSetting]) -> [Variant] {
        let rows = settings.map(\.values.count).max() ?? 1
        return (0..<max(rows, 1)).map { row in
            var v = Variant(overrides: [:], suffix: "")
            for setting in settings {
                let value = setting.values[setting.values.count > 1 ? min(row, setting.values.count - 1) : 0]
                v.overrides[setting.name] = value
                if setting.values.count > 1 { v.suffix += "-\(setting.name)-\(fileNamePart(value))" }
            }
            return v
        }
    }

    /// Every variant of the command line: `zipped` under `--zip`, else `expand`.
    static func all(_ options: Options) -> [Variant] {
        options.variantOptions.zip ? zipped(options.settings) : expand(options.settings)
    }
}
