// SPDX-License-Identifier: GPL-3.0-or-later

import Glibc
public import OutputFiles
public import Spec

/// A command-line mistake; printed as `error: …` followed by a hint to `--help`, exit 64
/// (`ExitCode.usage`).
public struct UsageError: Error, Equatable, Sendable {
    /// The whole message after `error: `, e.g. `--fps 0: expected frames per second 0.1…120`.
    public var message: String
    /// An error saying `message`.
    public init(message: String) { self.message = message }
}

/// Checked conversions from option text to values, shared by `animexport` and
/// `animexport assemble`; each error quotes the option and the value, and a value written with a
/// unit (`2s`, `30fps`, `10px`) gets the hint to write it bare (docs/cli.md, exit code 64).
public enum OptionValues {
    /// A finite number for which `valid` holds.
    /// - Parameters:
    ///   - text: the value as typed.
    ///   - name: the option, for the message (`--fps`).
    ///   - expected: what is accepted, for the message (`frames per second 0.1…120`).
    ///   - valid: the range check.
    /// - Throws: `UsageError` naming the option, the value and `expected`.
    public static func number(
        _ text: String, _ name: String, _ expected: String, _ valid: (Double) -> Bool
    ) throws(UsageError) -> Double {
        guard let n = Double(text), n.isFinite, valid(n) else {
            var message = "\(name) \(text): expected \(expected)"
            if let bare = bareNumber(text), valid(bare) {
                message += "; write it without the unit: \(name) \(formatNumber(bare))"
            }
            throw UsageError(message: message)
        }
        return n
    }

    /// The number a value written with a unit means (`2s` → 2, `250ms` → 0.25, `2x` → 2,
    /// `30fps` → 30, `10px` → 10), for the hint that options take bare numbers; nil otherwise.
    public static func bareNumber(_ text: String) -> Double? {
        let units: [(suffix: String, factor: Double)] = [
            ("ms", 0.001), ("fps", 1), ("seconds", 1), ("secs", 1), ("sec", 1), ("s", 1), ("px", 1), ("pt", 1),
            ("x", 1),
        ]
        let lower = text.lowercased().trimmingWhitespace()
        for unit in units where lower.hasSuffix(unit.suffix) {
            let number = lower.dropLast(unit.suffix.count).trimmingWhitespace()
            if let n = Double(number), n.isFinite { return n * unit.factor }
            return nil
        }
        return nil
    }

    /// A whole number in `range`; otherwise `UsageError` naming the option, value and `expected`.
    public static func integer(
        _ text: String, _ name: String, _ expected: String, _ range: ClosedRange<Int>
    ) throws(UsageError) -> Int {
        guard let n = Int(text), range.contains(n) else {
            var message = "\(name) \(text): expected \(expected)"
            if let bare = bareNumber(text), bare == bare.rounded(), let whole = Int(exactly: bare),
                range.contains(whole)
            {
                message += "; write it without the unit: \(name) \(whole)"
            }
            throw UsageError(message: message)
        }
        return n
    }

    /// One of a fixed set of words; the message lists them as `expected`.
    /// - Throws: `UsageError` when `text` is none of `values`' keys.
    public static func choice<T>(_ text: String, _ name: String, _ values: [String: T], _ expected: String)
        throws(UsageError) -> T
    {
        guard let value = values[text] else {
            throw UsageError(message: "\(name) \(text): expected \(expected)")
        }
        return value
    }

    /// A colour in any form `RGBAColor(parsing:)` accepts (`#RRGGBB`, `rgb(…)`, names, …).
    /// - Throws: `UsageError` listing the accepted forms, with the nearest colour name if any.
    public static func color(_ text: String, _ name: String) throws(UsageError) -> RGBAColor {
        guard let c = RGBAColor(parsing: text) else {
            var message = "\(name) \(text): expected a colour (\(RGBAColor.acceptedColorForms))"
            if let near = RGBAColor.nearColorName(text) {
                message += "; did you mean \(near)?"
            }
            throw UsageError(message: message)
        }
        return c
    }

    /// Comma-separated items, none empty.
    /// - Throws: `UsageError` when an item is empty (`a,,b`).
    public static func list(_ text: String, _ name: String) throws(UsageError) -> [String] {
        let items = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard !items.contains(where: \.isEmpty) else {
            throw UsageError(message: "\(name) \(text): empty item in the comma-separated list")
        }
        return items
    }

    /// A file path whose extension is one of `extensions` (lower case, without the dot).
    /// - Throws: `UsageError` asking for a name ending in the first of `extensions`.
    public static func file(_ text: FilePath, _ name: String, extensions: [String]) throws(UsageError) -> FilePath {
        let ext = text.pathExtension.lowercased()
        guard !text.hasTrailingSlash, extensions.contains(ext) else {
            throw UsageError(
                message: "\(name) \(text): expected a file name ending in .\(extensions[0])")
        }
        return text
    }
}
