// SPDX-License-Identifier: GPL-3.0-or-later

import Export
import Spec
import ToolOptions

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
