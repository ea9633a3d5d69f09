// SPDX-License-Identifier: GPL-3.0-or-later

import Export
import Foundation
import Spec

/// Checked conversions from option text to values; each error quotes the option and the value.
extension Options {
    static func number(
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
    static func bareNumber(_ text: String) -> Double? {
        let units: [(suffix: String, factor: Double)] = [
            ("ms", 0.001), ("fps", 1), ("seconds", 1), ("secs", 1), ("sec", 1), ("s", 1), ("px", 1), ("pt", 1),
            ("x", 1),
        ]
        let lower = text.lowercased().trimmingCharacters(in: .whitespaces)
        for unit in units where lower.hasSuffix(unit.suffix) {
            let number = lower.dropLast(unit.suffix.count).trimmingCharacters(in: .whitespaces)
            if let n = Double(number), n.isFinite { return n * unit.factor }
            return nil
        }
        return nil
    }

    static func integer(
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
    static func choice<T>(_ text: String, _ name: String, _ values: [String: T], _ expected: String)
        throws(UsageError) -> T
    {
        guard let value = values[text] else {
            throw UsageError(message: "\(name) \(text): expected \(expected)")
        }
        return value
    }

    static func color(_ text: String, _ name: String) throws(UsageError) -> RGBAColor {
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
    static func list(_ text: String, _ name: String) throws(UsageError) -> [String] {
        let items = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard !items.contains(where: \.isEmpty) else {
            throw UsageError(message: "\(name) \(text): empty item in the comma-separated list")
        }
        return items
    }

    /// A file path whose extension is one of `extensions` (lower case, without the dot).
    static func file(_ text: FilePath, _ name: String, extensions: [String]) throws(UsageError) -> FilePath {
        let ext = text.pathExtension.lowercased()
        guard !text.hasTrailingSlash, extensions.contains(ext) else {
            throw UsageError(
                message: "\(name) \(text): expected a file name ending in .\(extensions[0])")
        }
        return text
    }
}

extension ParameterSetting {
    /// The text before the first `=` (what the setting overrides).
    static func name(of text: String) -> String {
        text.firstIndex(of: "=").map { String(text[..<$0]) } ?? text
    }

    /// Parses `NAME=VALUE` or `NAME=V1,V2,…`; `\,` is a comma inside a value and `\\` a backslash,
    /// and commas inside parentheses stay in their value (`color=rgb(255,59,48),hsl(4,100%,59%)`
    /// is two values).
    init(parsing text: String) throws(UsageError) {
        guard let eq = text.firstIndex(of: "="), eq != text.startIndex else {
            throw UsageError(message: "--set \(text): expected NAME=VALUE, e.g. --set color=#FF3B30")
        }
        name = String(text[..<eq])
        var values: [String] = []
        var current = ""
        var escaped = false
        var depth = 0
        for character in text[text.index(after: eq)...] {
            if escaped {
                current.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "," && depth == 0 {
                values.append(current)
                current = ""
            } else {
                if character == "(" { depth += 1 }
                if character == ")" { depth = max(depth - 1, 0) }
                current.append(character)
            }
        }
        if escaped { current.append("\\") }
        values.append(current)
        if values.count > 1, values.contains(where: \.isEmpty) {
            throw UsageError(message: "--set \(text): empty value in the list")
        }
        // A repeated value is refused in `Options.checkVariantCombinations`, unless `--zip`
        // pairs the lists row by row (where a column may repeat).
        self.values = values
    }
}
