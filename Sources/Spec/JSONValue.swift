// SPDX-License-Identifier: GPL-3.0-or-later

/// One JSON value as parsed by `JSONParser`, with the place in the file where it starts.
///
/// Unlike Foundation's `JSONSerialization`, every value (and every object key, see
/// `JSONObject.Member`) keeps its 1-based line and column, so the validator can point at the
/// exact spot of a problem. Numbers are always `Double` (RFC 8259 §6 leaves precision to the
/// implementation; IEEE 754 binary64 is what the preset format documents).
public struct JSONValue: Equatable, Sendable {
    /// What the value is; containers hold their children (with their own locations).
    public indirect enum Kind: Equatable, Sendable {
        /// `null`.
        case null
        /// `true` or `false`.
        case bool(Bool)
        /// Any JSON number, always finite.
        case number(Double)
        /// A string with escapes already decoded.
        case string(String)
        /// An array's elements in file order.
        case array([JSONValue])
        /// An object's members in file order.
        case object(JSONObject)
    }

    /// What the value is.
    public var kind: Kind
    /// Where the value's first character is (1-based line and column, columns count Unicode
    /// scalars).
    public var location: SourceLocation

    /// A value of the given kind starting at `location`.
    public init(kind: Kind, location: SourceLocation) {
        self.kind = kind
        self.location = location
    }

    /// The JSON type with an article, for messages such as "expected a number, found a string":
    /// `null`, `a boolean`, `a number`, `a string`, `an array` or `an object`.
    public var typeName: String {
        switch kind {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// The value as a "found …" message shows it, at most about 40 characters: `null`, `true`,
    /// `12`, `0.5`, `"thick"` (quoted, escaped, cut with `…` when long), `an empty array`,
    /// `an array of 3`, `an empty object` or `an object`.
    public var shortDescription: String {
        switch kind {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .number(let value): return JSONValue.formatNumber(value)
        case .string(let value): return JSONValue.quoted(value, limit: 40)
        case .array(let elements):
            return elements.isEmpty ? "an empty array" : "an array of \(elements.count)"
        case .object(let object): return object.members.isEmpty ? "an empty object" : "an object"
        }
    }

    /// The string, if this is a string.
    public var stringValue: String? {
        if case .string(let value) = kind { value } else { nil }
    }

    /// The number, if this is a number.
    public var numberValue: Double? {
        if case .number(let value) = kind { value } else { nil }
    }

    /// The boolean, if this is `true` or `false`.
    public var boolValue: Bool? {
        if case .bool(let value) = kind { value } else { nil }
    }

    /// The elements, if this is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let value) = kind { value } else { nil }
    }

    /// The object, if this is an object.
    public var objectValue: JSONObject? {
        if case .object(let value) = kind { value } else { nil }
    }

    /// Whether this is `null`.
    public var isNull: Bool { kind == .null }

    /// A number as messages show it: integers up to 10^15 without a fraction (`12`, `-3`),
    /// anything else in Swift's shortest round-trip form (`0.5`, `1e-05`, `1e+20`).
    public static func formatNumber(_ value: Double) -> String {
        // (Int64 conversion rather than `rounded()`, which needs libm at link time.)
        if abs(value) < 1e15, value == Double(Int64(value)) {
            return String(Int64(value))
        }
        return "\(value)"
    }

    /// `text` in double quotes with `"`, `\` and control characters escaped as JSON writes
    /// them, cut with `…` so that the result has at most `limit` Unicode scalars (`limit` ≥ 5).
    public static func quoted(_ text: String, limit: Int) -> String {
        var pieces: [String] = []
        var count = 0
        let room = max(limit, 5) - 2
        for scalar in text.unicodeScalars {
            let piece: String
            switch scalar {
            case "\"": piece = "\\\""
            case "\\": piece = "\\\\"
            case "\n": piece = "\\n"
            case "\r": piece = "\\r"
            case "\t": piece = "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                piece = "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: piece = String(scalar)
            }
            pieces.append(piece)
            count += piece.unicodeScalars.count
            if count > room {
                // Drop whole pieces (never half an escape) until the ellipsis fits.
                while count + 1 > room, let last = pieces.popLast() {
                    count -= last.unicodeScalars.count
                }
                return "\"" + pieces.joined() + "…\""
            }
        }
        return "\"" + pieces.joined() + "\""
    }
}

/// A JSON object: its members in file order, each key with its own location.
///
/// Keys are unique: `JSONParser` rejects a duplicate key (RFC 8259 §4 leaves duplicates
/// undefined; we make them an error because the preset format owns its schema).
public struct JSONObject: Equatable, Sendable {
    /// One `"key": value` pair.
    public struct Member: Equatable, Sendable {
        /// The key with escapes decoded.
        public var key: String
        /// Where the key's opening quote is.
        public var keyLocation: SourceLocation
        /// The member's value (with its own location).
        public var value: JSONValue

        /// A member from its parts.
        public init(key: String, keyLocation: SourceLocation, value: JSONValue) {
            self.key = key
            self.keyLocation = keyLocation
            self.value = value
        }
    }

    /// The members in file order.
    public var members: [Member]

    /// An object with the given members (callers keep keys unique).
    public init(members: [Member]) {
        self.members = members
    }

    /// The value for `key`, or `nil` when absent (a linear search: objects in presets are
    /// small).
    public subscript(key: String) -> JSONValue? {
        member(named: key)?.value
    }

    /// The member for `key` (to reach its key location), or `nil` when absent.
    public func member(named key: String) -> Member? {
        members.first { $0.key == key }
    }

    /// The keys in file order.
    public var keys: [String] { members.map(\.key) }
}
