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
