// SPDX-License-Identifier: GPL-3.0-or-later

internal import Spec

/// A JSON document with object keys in the order given, printed as the same bytes every time
/// whatever the locale: sprite-sheet data files, `--report` and the preview page's data.
/// Two-space indentation and a final newline; objects of scalars (rectangles, sizes, tags), and
/// arrays of up to eight scalars, stay on one line, Aseprite style.
public indirect enum JSONText: Equatable, Sendable {
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
    public struct Member: Equatable, Sendable {
        /// The key.
        public var key: String
        /// The value.
        public var value: JSONText

        /// A member; see the properties.
        public init(key: String, value: JSONText) {
            self.key = key
            self.value = value
        }
    }

    /// An object from key/value pairs, in order.
    public static func object(_ pairs: KeyValuePairs<String, JSONText>) -> JSONText {
        .object(pairs.map { Member(key: $0.key, value: $0.value) })
    }

    /// Pretty-printed with two-space indentation and a final newline.
    public func rendered() -> String {
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
