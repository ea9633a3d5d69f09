// SPDX-License-Identifier: GPL-3.0-or-later

import Glibc

/// A text layer's string with `{name}` / `{name:format}` placeholders, split into parts.
///
/// Formats (semantics §7.6 on why the choice matters at the boundaries):
/// - `%d`: the value truncated toward zero, like Swift's `Int(x)` (0.999 → "0");
/// - `%.Nf` (N = 0…6): rounded to N decimals, like `String(format: "%.Nf")`;
/// - none: the number as `formatNumber` writes it (integers without a fraction).
///
/// `{{` and `}}` stand for literal braces; `%` outside a placeholder is literal.
public enum TextTemplate {
    /// One piece of a template.
    public enum Part: Equatable, Sendable {
        /// Text shown as is.
        case literal(String)
        /// A value by name with an optional format (`%d`, `%.1f`).
        case placeholder(name: String, format: String?)
    }

    /// Splits `template` into parts; on failure returns a message saying what is wrong.
    public static func parse(_ template: String) -> Result<[Part], SyntaxProblem> {
        var parts: [Part] = []
        var literal = ""
        var i = template.startIndex
        while i < template.endIndex {
            let c = template[i]
            let next = template.index(after: i)
            if c == "{" || c == "}" {
                if next < template.endIndex, template[next] == c {
                    literal.append(c)
                    i = template.index(after: next)
                    continue
                }
                guard c == "{" else {
                    return .failure(SyntaxProblem("unmatched '}' in the text; write }} for a literal brace"))
                }
                guard let close = template[next...].firstIndex(of: "}") else {
                    return .failure(SyntaxProblem("unclosed '{' in the text; write {{ for a literal brace"))
                }
                let inside = String(template[next..<close])
                var name = inside
                var format: String?
                if let colon = inside.firstIndex(of: ":") {
                    name = String(inside[..<colon])
                    format = String(inside[inside.index(after: colon)...])
                }
                guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
                    return .failure(
                        SyntaxProblem(
                            "a placeholder needs a value name, as in {progress} or {progress:%d}; found {\(inside)}"))
                }
                if let format, !isSupported(format) {
                    return .failure(
                        SyntaxProblem(
                            "unsupported format \"\(format)\" in {\(inside)}; use %d (truncates) or %.Nf with N in 0…6 (rounds)"
                        ))
                }
                if !literal.isEmpty {
                    parts.append(.literal(literal))
                    literal = ""
                }
                parts.append(.placeholder(name: name, format: format))
                i = template.index(after: close)
                continue
            }
            literal.append(c)
            i = next
        }
        if !literal.isEmpty { parts.append(.literal(literal)) }
        return .success(parts)
    }

    static func isSupported(_ format: String) -> Bool {
        if format == "%d" { return true }
        guard format.hasPrefix("%."), format.hasSuffix("f"), format.count == 4,
            let digit = Int(String(format.dropFirst(2).dropLast()))
        else { return false }
        return (0...6).contains(digit)
    }

    /// The text with every placeholder replaced by its value (missing values show 0). `%d` of a
    /// name in `exactValues` truncates that exact fraction instead of the double.
    public static func render(
        _ parts: [Part], values: [String: Double], exactValues: [String: Rational] = [:]
    ) -> String {
        var text = ""
        for part in parts {
            switch part {
            case .literal(let s):
                text += s
            case .placeholder(let name, let format):
                if format == "%d", let exact = exactValues[name] {
                    text += String(exact.truncated)
                } else {
                    text += formatted(values[name] ?? 0, format)
                }
            }
        }
        return text
    }

    static func formatted(_ value: Double, _ format: String?) -> String {
        guard value.isFinite else { return "0" }
        switch format {
        case "%d"?:
            // Checked: beyond Int64 (|x| ≥ 2^63) the truncated value is still a whole number,
            // written out in full by %.0f (exact for every Double) instead of trapping.
            let whole = value.rounded(.towardZero)
            if let exact = Int64(exactly: whole) { return String(exact) }
            return formatC("%.0f", whole)
        case let f? where f.hasPrefix("%."):
            return formatC(f, value)
        default:
            return formatNumber(value)
        }
    }
}

/// Why a small piece of preset syntax (a timing function, a text template) could not be read.
public struct SyntaxProblem: Error, Equatable, Sendable, CustomStringConvertible {
    /// What was expected and what was found.
    public var message: String

    /// A problem with its message.
    public init(_ message: String) { self.message = message }

    /// The message.
    public var description: String { message }
}
