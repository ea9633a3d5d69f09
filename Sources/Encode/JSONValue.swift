// SPDX-License-Identifier: GPL-3.0-or-later

/// A JSON document with object keys in a fixed order, printed byte-for-byte the same every
/// time and independent of locale (Foundation's `JSONSerialization` reorders keys).
indirect enum JSONValue {
    /// Keys in the order given.
    case object([(key: String, value: JSONValue)])
    case array([JSONValue])
    case string(String)
    case integer(Int)
    /// A finite number; integral values print without a fraction (`30`, not `30.0`).
    case number(Double)
    case bool(Bool)

    /// Pretty-printed text with a trailing newline: two-space indentation; objects whose
    /// values are all scalars (rectangles, sizes, tags) stay on one line, Aseprite style.
    func rendered() -> String {
        var out = ""
        write(to: &out, indent: 0)
        out += "\n"
        return out
    }

    /// Locale-independent text for a finite number: integral values (|x| < 2^53) as integers,
    /// others in Swift's shortest round-trip form (`0.1`, `33.333333333333336`, `1e-07`).
    static func format(_ number: Double) -> String {
        if abs(number) < 9_007_199_254_740_992, Double(Int(number)) == number {
            return String(Int(number))
        }
        return "\(number)"
    }

    private var isScalar: Bool {
        switch self {
        case .object, .array: return false
        default: return true
        }
    }

    private func write(to out: inout String, indent: Int) {
        switch self {
        case .string(let text): Self.writeString(text, to: &out)
        case .integer(let value): out += String(value)
        case .number(let value): out += Self.format(value)
        case .bool(let value): out += value ? "true" : "false"
        case .array(let elements):
            guard !elements.isEmpty else {
                out += "[]"
                return
            }
            out += "[\n"
            for (i, element) in elements.enumerated() {
                out += String(repeating: " ", count: indent + 2)
                element.write(to: &out, indent: indent + 2)
                out += i + 1 < elements.count ? ",\n" : "\n"
            }
            out += String(repeating: " ", count: indent) + "]"
        case .object(let members):
            guard !members.isEmpty else {
                out += "{}"
                return
            }
            if members.allSatisfy({ $0.value.isScalar }) {
                out += "{ "
                for (i, member) in members.enumerated() {
                    Self.writeString(member.key, to: &out)
                    out += ": "
                    member.value.write(to: &out, indent: indent)
                    out += i + 1 < members.count ? ", " : " "
                }
                out += "}"
                return
            }
            out += "{\n"
            for (i, member) in members.enumerated() {
                out += String(repeating: " ", count: indent + 2)
                Self.writeString(member.key, to: &out)
                out += ": "
                member.value.write(to: &out, indent: indent + 2)
                out += i + 1 < members.count ? ",\n" : "\n"
            }
            out += String(repeating: " ", count: indent) + "}"
        }
    }

    /// A JSON string literal (RFC 8259 §7): quote, backslash and control characters escaped,
    /// everything else as UTF-8.
    private static func writeString(_ text: String, to out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "\""
    }
}
