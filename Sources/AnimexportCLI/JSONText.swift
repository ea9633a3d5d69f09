// SPDX-License-Identifier: GPL-3.0-or-later

import Spec

/// A JSON document with object keys in the order given, printed the same bytes every time
/// whatever the locale (for `--report`). Objects of scalars, and up to eight scalars in an array,
/// stay on one line.
indirect enum JSONText: Equatable {
    /// Members in order.
    case object([Member])
    /// Elements in order.
    case array([JSONText])
    /// A string (escaped per RFC 8259 §7).
    case string(String)
    /// A finite number, printed with `formatNumber` (at most 6 decimals, `.` separator).
    case number(Double)
    /// An integer.
    case integer(Int)
    /// `true` or `false`.
    case bool(Bool)
    /// `null`.
    case null

    /// One object member.
    struct Member: Equatable {
        var key: String
        var value: JSONText
    }

    /// An object from key/value pairs, in order.
    static func object(_ pairs: KeyValuePairs<String, JSONText>) -> JSONText {
        .object(pairs.map { Member(key: $0.key, value: $0.value) })
    }

    /// Pretty-printed with two-space indentation and a final newline.
    func rendered() -> String {
        var out = ""
        write(to: &out, indent: 0)
        return out + "\n"
    }

    private var isScalar: Bool {
        switch self {
        case .object, .array: false
        default: true
        }
    }

    private func write(to out: inout String, indent: Int) {
        switch self {
        case .string(let s): Self.quote(s, into: &out)
        case .number(let n): out += n.isFinite ? formatNumber(n) : "null"
        case .integer(let n): out += String(n)
        case .bool(let b): out += b ? "true" : "false"
        case .null: out += "null"
        case .array(let items):
            if items.isEmpty {
                out += "[]"
            } else if items.count <= 8, items.allSatisfy(\.isScalar) {
                out += "["
                for (i, item) in items.enumerated() {
                    if i > 0 { out += ", " }
                    item.write(to: &out, indent: indent)
                }
                out += "]"
            } else {
                out += "[\n"
                for (i, item) in items.enumerated() {
                    out += String(repeating: " ", count: indent + 2)
                    item.write(to: &out, indent: indent + 2)
                    out += i + 1 < items.count ? ",\n" : "\n"
                }
                out += String(repeating: " ", count: indent) + "]"
            }
        case .object(let members):
            if members.isEmpty {
                out += "{}"
            } else if members.allSatisfy({ $0.value.isScalar }) {
                out += "{ "
                for (i, m) in members.enumerated() {
                    if i > 0 { out += ", " }
                    Self.quote(m.key, into: &out)
                    out += ": "
                    m.value.write(to: &out, indent: indent)
                }
                out += " }"
            } else {
                out += "{\n"
                for (i, m) in members.enumerated() {
                    out += String(repeating: " ", count: indent + 2)
                    Self.quote(m.key, into: &out)
                    out += ": "
                    m.value.write(to: &out, indent: indent + 2)
                    out += i + 1 < members.count ? ",\n" : "\n"
                }
                out += String(repeating: " ", count: indent) + "}"
            }
        }
    }

    private static func quote(_ text: String, into out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
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
