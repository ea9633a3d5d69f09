// SPDX-License-Identifier: GPL-3.0-or-later

/// A JSON document that is not well formed: where the problem is and what was expected.
public struct JSONSyntaxError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The 1-based line and column (in Unicode scalars) of the offending character.
    public var location: SourceLocation
    /// What was expected and what was found, e.g.
    /// `expected ',' or '}' after an object member, found ']'`.
    public var message: String

    /// An error at `location`.
    public init(location: SourceLocation, message: String) {
        self.location = location
        self.message = message
    }

    /// `line:column: message`.
    public var description: String { "\(location.line):\(location.column): \(message)" }
}

/// A strict RFC 8259 JSON parser that records where every value and key starts.
///
/// Rules (RFC 8259 §2–§8, plus the preset format's own restrictions):
/// - No comments, trailing commas, single quotes, `NaN`/`Infinity` or leading zeros.
/// - A UTF-8 byte order mark at the very start is skipped (§8.1 lets parsers ignore it);
///   any other invalid UTF-8 (overlong forms, encoded surrogates, > U+10FFFF) is an error.
/// - Duplicate keys in one object are an error naming the first occurrence.
/// - Arrays and objects nest at most `maximumDepth` (256) levels.
/// - Numbers must fit a `Double`: `1e400` is an error (underflow to 0 is accepted).
/// - Escapes are `\" \\ \/ \b \f \n \r \t \uXXXX`; a `\u` surrogate must come as a
///   high–low pair.
///
/// Lines end at LF, CR LF or a lone CR; columns count Unicode scalars from 1, a tab counts 1.
public enum JSONParser {
    /// The deepest nesting of arrays and objects accepted (the top-level container is level 1).
    public static let maximumDepth = 256

    /// Parses a whole document.
    /// - Throws: `JSONSyntaxError` at the first problem.
    public static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        try parse(bytes: Array(text.utf8))
    }

    /// Parses a whole document from its UTF-8 bytes (as read from a file).
    /// - Throws: `JSONSyntaxError` at the first problem, including invalid UTF-8.
    public static func parse(bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
        var scanner = JSONScanner(bytes: bytes)
        return try scanner.parseDocument()
    }
}

// ASCII bytes the scanner looks for.
private let quote: UInt8 = 0x22  // "
private let backslash: UInt8 = 0x5C  // \
private let comma: UInt8 = 0x2C  // ,
private let colon: UInt8 = 0x3A  // :
private let openBrace: UInt8 = 0x7B  // {
private let closeBrace: UInt8 = 0x7D  // }
private let openBracket: UInt8 = 0x5B  // [
private let closeBracket: UInt8 = 0x5D  // ]
private let minus: UInt8 = 0x2D  // -
private let zero: UInt8 = 0x30  // 0
private let lineFeed: UInt8 = 0x0A
private let carriageReturn: UInt8 = 0x0D

/// The cursor over the bytes; one per `parse` call.
private struct JSONScanner {
    let bytes: [UInt8]
    var index = 0
    /// Line of `index` (1-based) and the byte offset where that line starts.
    var line = 1
    var lineStart = 0
    /// A byte offset on the current line whose column is known, so that successive
    /// `location(at:)` calls only count the bytes in between (O(n) over the whole document).
    var markIndex = 0
    var markColumn = 1
    /// Reused scratch space for strings with escapes.
    var buffer: [UInt8] = []

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    // MARK: Positions and errors

    /// The location of byte `offset`, which must lie on the current line.
    mutating func location(at offset: Int) -> SourceLocation {
        if offset < markIndex {
            markIndex = lineStart
            markColumn = 1
        }
        var column = markColumn
        var i = markIndex
        while i < offset {
            // Count scalars: every byte except UTF-8 continuation bytes starts one.
            if bytes[i] & 0xC0 != 0x80 { column += 1 }
            i += 1
        }
        markIndex = offset
        markColumn = column
        return SourceLocation(line: line, column: column)
    }

    mutating func error(at offset: Int, _ message: String) -> JSONSyntaxError {
        JSONSyntaxError(location: location(at: offset), message: message)
    }

    /// "What was found" at `offset`, for messages: `end of input`, `'x'`, a whole word such as
    /// `'True'`, `U+00A0` for invisible characters, or a hint for common non-JSON syntax.
    func found(at offset: Int) -> String {
        guard offset < bytes.count else { return "end of input" }
        let byte = bytes[offset]
        if isWordByte(byte) {
            var end = offset
            while end < bytes.count, isWordByte(bytes[end]), end - offset < 24 { end += 1 }
            let word = String(decoding: bytes[offset..<end], as: UTF8.self)
            let more = end < bytes.count && isWordByte(bytes[end]) ? "…" : ""
            return "'\(word)\(more)'"
        }
        switch byte {
        case 0x27: return "''' (JSON strings use double quotes)"
        case 0x2F: return "'/' (JSON has no comments)"
        case lineFeed, carriageReturn: return "end of line"
        case 0x21...0x7E: return "'\(Character(Unicode.Scalar(byte)))'"
        case 0..<0x80: return Self.codePoint(UInt32(byte))
        default:
            guard let length = utf8SequenceLength(at: offset) else {
                return "invalid UTF-8 byte " + Self.hexByte(byte)
            }
            let text = String(decoding: bytes[offset..<offset + length], as: UTF8.self)
            guard let scalar = text.unicodeScalars.first else { return "end of input" }
            let invisible =
                scalar.properties.isWhitespace || scalar.properties.generalCategory == .format
                || scalar.properties.generalCategory == .control
            return invisible ? Self.codePoint(scalar.value) : "'\(text)'"
        }
    }

    func isWordByte(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A)
            || (byte >= 0x30 && byte <= 0x39) || byte == 0x5F
    }

    static func codePoint(_ value: UInt32) -> String {
        let hex = String(value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    static func hexByte(_ byte: UInt8) -> String {
        let hex = String(byte, radix: 16, uppercase: true)
        return "0x" + (hex.count < 2 ? "0" : "") + hex
    }

    /// The length of the well-formed UTF-8 sequence at `offset` (Unicode 15, table 3-7), or
    /// `nil` when the bytes there are not one.
    func utf8SequenceLength(at offset: Int) -> Int? {
        let lead = bytes[offset]
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: length = 2
        case 0xE0: (length, low) = (3, 0xA0)
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: (length, high) = (3, 0x9F)
        case 0xF0: (length, low) = (4, 0x90)
        case 0xF1...0xF3: length = 4
        case 0xF4: (length, high) = (4, 0x8F)
        default: return nil
        }
        guard offset + length <= bytes.count else { return nil }
        let second = bytes[offset + 1]
        guard second >= low, second <= high else { return nil }
        for i in (offset + 2)..<(offset + length) where bytes[i] & 0xC0 != 0x80 {
            return nil
        }
        return length
    }

    // MARK: Structure

    mutating func newLine() {
        line += 1
        lineStart = index
        markIndex = index
        markColumn = 1
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09:
                index += 1
            case lineFeed:
                index += 1
                newLine()
            case carriageReturn:
                index += 1
                if index < bytes.count, bytes[index] == lineFeed { index += 1 }
                newLine()
            default:
                return
            }
        }
    }

    mutating func parseDocument() throws(JSONSyntaxError) -> JSONValue {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            index = 3
            lineStart = 3
            markIndex = 3
        }
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        guard index == bytes.count else {
            throw error(
                at: index, "expected end of input after the top-level value, found \(found(at: index))")
        }
        return value
    }

    /// Parses one value. Containers are tracked on an explicit stack rather than by recursion,
    /// so no document can exhaust the thread's stack, whatever its depth or build settings.
    mutating func parseValue() throws(JSONSyntaxError) -> JSONValue {
        var open: [OpenContainer] = []
        while true {
            // 1. Parse the start of a value: a scalar completes at once, a container opens.
            guard index < bytes.count else {
                throw error(at: index, "expected a value, found end of input")
            }
            let start = index
            let valueLocation = location(at: start)
            var completed: JSONValue
            switch bytes[start] {
            case openBrace, openBracket:
                let isObject = bytes[start] == openBrace
                if open.count >= JSONParser.maximumDepth {
                    throw error(
                        at: start, "nesting deeper than \(JSONParser.maximumDepth) levels of arrays and objects"
                    )
                }
                index += 1
                skipWhitespace()
                let close = isObject ? closeBrace : closeBracket
                if index < bytes.count, bytes[index] == close {
                    index += 1
                    let empty: JSONValue.Kind = isObject ? .object(JSONObject(members: [])) : .array([])
                    completed = JSONValue(kind: empty, location: valueLocation)
                } else {
                    var container = OpenContainer(location: valueLocation, isObject: isObject)
                    if isObject { try parseMemberName(into: &container, after: "after '{'") }
                    open.append(container)
                    continue
                }
            case quote:
                completed = JSONValue(
                    kind: .string(try parseString(quoteLocation: valueLocation)), location: valueLocation)
            case minus, zero...0x39:
                completed = JSONValue(kind: .number(try parseNumber()), location: valueLocation)
            case 0x74 where matchWord("true"):
                completed = JSONValue(kind: .bool(true), location: valueLocation)
            case 0x66 where matchWord("false"):
                completed = JSONValue(kind: .bool(false), location: valueLocation)
            case 0x6E where matchWord("null"): completed = JSONValue(kind: .null, location: valueLocation)
            default: throw error(at: start, "expected a value, found \(found(at: start))")
            }
            // 2. Hand the finished value to the innermost open container; close containers
            //    while their closing bracket follows, until one expects another value.
            while true {
                guard var container = open.popLast() else { return completed }
                container.add(completed)
                skipWhitespace()
                let close = container.isObject ? closeBrace : closeBracket
                guard index < bytes.count, bytes[index] == comma || bytes[index] == close else {
                    let expected =
                        container.isObject
                        ? "expected ',' or '}' after an object member"
                        : "expected ',' or ']' after an array element"
                    throw error(at: index, "\(expected), found \(found(at: index))")
                }
                if bytes[index] == close {
                    index += 1
                    completed = container.value
                    continue
                }
                let commaLocation = location(at: index)
                index += 1
                skipWhitespace()
                if index < bytes.count, bytes[index] == close {
                    let closer = container.isObject ? "'}'" : "']'"
                    throw JSONSyntaxError(location: commaLocation, message: "trailing comma before \(closer)")
                }
                if container.isObject { try parseMemberName(into: &container, after: "after ','") }
                open.append(container)
                break
            }
        }
    }

    /// Parses `"key" :` at `index` into `container.pendingKey`, rejecting duplicates, and skips
    /// the whitespace before the member's value.
    mutating func parseMemberName(into container: inout OpenContainer, after: String)
        throws(JSONSyntaxError)
    {
        guard index < bytes.count, bytes[index] == quote else {
            throw error(
                at: index, "expected a member name in double quotes \(after), found \(found(at: index))")
        }
        let keyLocation = location(at: index)
        let key = try parseString(quoteLocation: keyLocation)
        if let first = container.location(ofKey: key) {
            throw JSONSyntaxError(
                location: keyLocation,
                message: "duplicate key \(JSONValue.quoted(key, limit: 40)) "
                    + "(first defined at line \(first.line), column \(first.column))")
        }
        skipWhitespace()
        guard index < bytes.count, bytes[index] == colon else {
            throw error(
                at: index,
                "expected ':' after the member name \(JSONValue.quoted(key, limit: 40)), found \(found(at: index))"
            )
        }
        index += 1
        skipWhitespace()
        container.pendingKey = (key, keyLocation)
    }

    /// Consumes `word` if it is at `index` and not followed by more letters or digits.
    mutating func matchWord(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        let matches = word.withUTF8Buffer { expected in
            expected.indices.allSatisfy { bytes[index + $0] == expected[$0] }
        }
        guard matches, index + count == bytes.count || !isWordByte(bytes[index + count]) else {
            return false
        }
        index += count
        return true
    }
}

/// An array or object whose closing bracket has not been seen yet.
private struct OpenContainer {
    let location: SourceLocation
    let isObject: Bool
    var elements: [JSONValue] = []
    var members: [JSONObject.Member] = []
    /// Key → member index, built once an object is large enough for a linear search to cost.
    var keyIndex: [String: Int] = [:]
    /// The key whose value is being parsed (objects only).
    var pendingKey: (String, SourceLocation) = ("", SourceLocation(line: 0, column: 0))

    init(location: SourceLocation, isObject: Bool) {
        self.location = location
        self.isObject = isObject
    }

    /// Where `key` was first defined in this object, if it was.
    mutating func location(ofKey key: String) -> SourceLocation? {
        if members.count < 16 {
            return members.first { $0.key == key }?.keyLocation
        }
        if keyIndex.isEmpty {
            for (i, member) in members.enumerated() { keyIndex[member.key] = i }
        }
        return keyIndex[key].map { members[$0].keyLocation }
    }

    mutating func add(_ value: JSONValue) {
        guard isObject else {
            elements.append(value)
            return
        }
        if !keyIndex.isEmpty { keyIndex[pendingKey.0] = members.count }
        members.append(JSONObject.Member(key: pendingKey.0, keyLocation: pendingKey.1, value: value))
    }

    /// The finished container as a value.
    var value: JSONValue {
        JSONValue(
            kind: isObject ? .object(JSONObject(members: members)) : .array(elements), location: location)
    }
}

// MARK: Strings and numbers

extension JSONScanner {
    /// Parses the string whose opening quote is at `index` (and at `quoteLocation`).
    mutating func parseString(quoteLocation: SourceLocation) throws(JSONSyntaxError) -> String {
        index += 1  // "
        let start = index
        var segmentStart = index
        var escaped = false
        while true {
            guard index < bytes.count else {
                throw JSONSyntaxError(location: quoteLocation, message: "unterminated string")
            }
            let byte = bytes[index]
            if byte == quote {
                let text: String
                if escaped {
                    buffer.append(contentsOf: bytes[segmentStart..<index])
                    text = String(decoding: buffer, as: UTF8.self)
                } else {
                    text = String(decoding: bytes[start..<index], as: UTF8.self)
                }
                index += 1
                return text
            } else if byte == backslash {
                if !escaped {
                    escaped = true
                    buffer.removeAll(keepingCapacity: true)
                }
                buffer.append(contentsOf: bytes[segmentStart..<index])
                try parseEscape(quoteLocation: quoteLocation)
                segmentStart = index
            } else if byte < 0x20 {
                if byte == lineFeed || byte == carriageReturn {
                    throw JSONSyntaxError(
                        location: quoteLocation,
                        message: "unterminated string (a line break inside a string must be written \\n)")
                }
                throw error(
                    at: index,
                    "control character \(Self.codePoint(UInt32(byte))) must be escaped in a string")
            } else if byte < 0x80 {
                index += 1
            } else {
                guard let length = utf8SequenceLength(at: index) else {
                    throw error(at: index, "invalid UTF-8 byte \(Self.hexByte(byte)) in a string")
                }
                index += length
            }
        }
    }

    /// Decodes the escape at `index` (a backslash) into `buffer`.
    mutating func parseEscape(quoteLocation: SourceLocation) throws(JSONSyntaxError) {
        let start = index
        guard index + 1 < bytes.count else {
            throw JSONSyntaxError(location: quoteLocation, message: "unterminated string")
        }
        let decoded: UInt8
        switch bytes[index + 1] {
        case quote: decoded = quote
        case backslash: decoded = backslash
        case 0x2F: decoded = 0x2F  // /
        case 0x62: decoded = 0x08  // b
        case 0x66: decoded = 0x0C  // f
        case 0x6E: decoded = lineFeed  // n
        case 0x72: decoded = carriageReturn  // r
        case 0x74: decoded = 0x09  // t
        case 0x75:  // u
            index += 2
            let first = try parseHex4()
            var scalarValue = first
            if (0xD800...0xDBFF).contains(first) {
                let lowStart = index
                guard index + 1 < bytes.count, bytes[index] == backslash, bytes[index + 1] == 0x75 else {
                    throw error(
                        at: start,
                        "lone surrogate \\u\(Self.hex4(first)): a high surrogate must be followed by "
                            + "a low surrogate \\uDC00…\\uDFFF")
                }
                index += 2
                let second = try parseHex4()
                guard (0xDC00...0xDFFF).contains(second) else {
                    throw error(
                        at: lowStart,
                        "\\u\(Self.hex4(second)) after the high surrogate \\u\(Self.hex4(first)) is not "
                            + "a low surrogate \\uDC00…\\uDFFF")
                }
                scalarValue = 0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(first) {
                throw error(
                    at: start,
                    "lone surrogate \\u\(Self.hex4(first)): a low surrogate must follow a high surrogate")
            }
            guard let scalar = Unicode.Scalar(scalarValue) else {
                throw error(at: start, "invalid escape \\u\(Self.hex4(first))")
            }
            buffer.append(contentsOf: String(scalar).utf8)
            return
        default:
            let next = bytes[index + 1]
            let what =
                (0x21...0x7E).contains(next)
                ? "'\\\(Character(Unicode.Scalar(next)))'" : "'\\' followed by \(found(at: index + 1))"
            throw error(
                at: start,
                "invalid escape \(what) in a string; "
                    + "valid escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX")
        }
        buffer.append(decoded)
        index += 2
    }

    /// Reads four hex digits at `index`.
    mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count else {
                throw error(at: index, "expected 4 hex digits after \\u, found end of input")
            }
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case 0x30...0x39: digit = byte - 0x30
            case 0x41...0x46: digit = byte - 0x41 + 10
            case 0x61...0x66: digit = byte - 0x61 + 10
            default:
                let what =
                    (0x21...0x7E).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : found(at: index)
                throw error(at: index, "expected 4 hex digits after \\u, found \(what)")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    static func hex4(_ value: UInt32) -> String {
        let hex = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    func isDigit(at offset: Int) -> Bool {
        offset < bytes.count && bytes[offset] >= 0x30 && bytes[offset] <= 0x39
    }

    /// Parses `-? (0 | [1-9][0-9]*) (.[0-9]+)? ([eE][+-]?[0-9]+)?` (RFC 8259 §6).
    mutating func parseNumber() throws(JSONSyntaxError) -> Double {
        let start = index
        let negative = bytes[index] == minus
        if negative { index += 1 }
        guard isDigit(at: index) else {
            throw error(at: index, "expected a digit after '-', found \(found(at: index))")
        }
        if bytes[index] == zero {
            index += 1
            if isDigit(at: index) { throw error(at: start, "numbers must not have leading zeros") }
        } else {
            while isDigit(at: index) { index += 1 }
        }
        let integerEnd = index
        if index < bytes.count, bytes[index] == 0x2E {  // .
            index += 1
            guard isDigit(at: index) else {
                throw error(at: index, "expected a digit after '.', found \(found(at: index))")
            }
            while isDigit(at: index) { index += 1 }
        }
        if index < bytes.count, bytes[index] | 0x20 == 0x65 {  // e or E
            index += 1
            if index < bytes.count, bytes[index] == 0x2B || bytes[index] == minus { index += 1 }
            guard isDigit(at: index) else {
                throw error(at: index, "expected a digit in the exponent, found \(found(at: index))")
            }
            while isDigit(at: index) { index += 1 }
        }
        let digitsStart = negative ? start + 1 : start
        if integerEnd == index, index - digitsStart <= 15 {
            // Fast path: an integer below 10^15 is exact in a Double.
            var value: Int64 = 0
            for i in digitsStart..<index { value = value * 10 + Int64(bytes[i] - zero) }
            return negative ? -Double(value) : Double(value)
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw error(at: start, "number \(text) is out of range (beyond ±1.8e308)")
        }
        return value
    }
}
