// SPDX-License-Identifier: GPL-3.0-or-later

import Spec
import Testing

/// The error `JSONParser` throws for `text`, or `nil` if it parses.
private func syntaxError(_ text: String) -> JSONSyntaxError? {
    do {
        _ = try JSONParser.parse(text)
        return nil
    } catch {
        return error
    }
}

private func syntaxError(bytes: [UInt8]) -> JSONSyntaxError? {
    do {
        _ = try JSONParser.parse(bytes: bytes)
        return nil
    } catch {
        return error
    }
}

private func at(_ line: Int, _ column: Int) -> Spec.SourceLocation {
    Spec.SourceLocation(line: line, column: column)
}

@Suite struct JSONParserValidDocuments {
    @Test func nestedValuesCarryLineAndColumn() throws {
        let text = """
            {
              "name": "circular",
              "canvas": { "width": 64, "height": [1, 2.5] },
              "é✓": true,
              "x": null
            }
            """
        let root = try JSONParser.parse(text)
        #expect(root.location == at(1, 1))
        let object = try #require(root.objectValue)
        #expect(object.keys == ["name", "canvas", "é✓", "x"])
        #expect(object.member(named: "name")?.keyLocation == at(2, 3))
        #expect(object["name"] == JSONValue(kind: .string("circular"), location: at(2, 11)))
        let canvas = try #require(object["canvas"])
        #expect(canvas.location == at(3, 13))
        let canvasObject = try #require(canvas.objectValue)
        #expect(canvasObject.member(named: "width")?.keyLocation == at(3, 15))
        #expect(canvasObject["width"] == JSONValue(kind: .number(64), location: at(3, 24)))
        let height = try #require(canvasObject["height"])
        #expect(height.location == at(3, 38))
        #expect(
            height.arrayValue == [
                JSONValue(kind: .number(1), location: at(3, 39)),
                JSONValue(kind: .number(2.5), location: at(3, 42)),
            ])
        // "é✓" is 4 scalars but 7 bytes: the value starts at scalar column 9, not byte column 12.
        #expect(object.member(named: "é✓")?.keyLocation == at(4, 3))
        #expect(object["é✓"] == JSONValue(kind: .bool(true), location: at(4, 9)))
        #expect(object["x"] == JSONValue(kind: .null, location: at(5, 8)))
        #expect(object["missing"] == nil)
    }

    @Test func keysAfterMultiByteCharactersOnOneLine() throws {
        // ü (2 bytes), 😀 (4 bytes, one scalar), e + combining acute (2 scalars).
        let root = try JSONParser.parse(#"{"ü": 1, "k": "😀", "z": "e\#u{301}", "end": 0}"#)
        let object = try #require(root.objectValue)
        #expect(object.member(named: "k")?.keyLocation == at(1, 10))
        #expect(object["k"]?.location == at(1, 15))
        #expect(object.member(named: "z")?.keyLocation == at(1, 20))
        #expect(object["z"]?.stringValue == "e\u{301}")
        #expect(object.member(named: "end")?.keyLocation == at(1, 31))
        #expect(object["end"]?.location == at(1, 38))
    }

    @Test func escapesCountAsWrittenInColumns() throws {
        let root = try JSONParser.parse(#"["\u00e9\n", 7]"#)
        #expect(root.arrayValue?[0].stringValue == "é\n")
        #expect(root.arrayValue?[1].location == at(1, 14))
    }

    @Test func lineEndingsAndTabs() throws {
        let crlf = try JSONParser.parse("{\r\n\t\"a\": 1,\r\n  \"b\": 2\r\n}")
        #expect(crlf.objectValue?.member(named: "a")?.keyLocation == at(2, 2))
        #expect(crlf.objectValue?["a"]?.location == at(2, 7))
        #expect(crlf.objectValue?.member(named: "b")?.keyLocation == at(3, 3))
        let loneCR = try JSONParser.parse("[\r1,\n\n 2]")
        #expect(loneCR.arrayValue?.map(\.location) == [at(2, 1), at(4, 2)])
    }

    @Test func scalarsAndNumbers() throws {
        let root = try JSONParser.parse(
            "[0, -0, 12, -3.5, 1e3, 2E-2, 0.1, 123456789012345678, 1e-400, true, false, null, \"\"]")
        let values = try #require(root.arrayValue).map(\.kind)
        #expect(
            values == [
                .number(0), .number(0), .number(12), .number(-3.5), .number(1000), .number(0.02),
                .number(0.1), .number(1.234_567_890_123_456_8e17), .number(0), .bool(true),
                .bool(false), .null, .string(""),
            ])
        #expect(root.arrayValue?[1].numberValue?.sign == .minus)
        #expect(try JSONParser.parse("  42  ") == JSONValue(kind: .number(42), location: at(1, 3)))
        #expect(try JSONParser.parse("-9007199254740993").numberValue == -9_007_199_254_740_992)
    }

    @Test func stringEscapesAndSurrogatePairs() throws {
        let root = try JSONParser.parse(#"["\"\\\/\b\f\n\r\t\u0041\u00E9", "\uD83D\uDE00x", "\u0000"]"#)
        #expect(root.arrayValue?[0].stringValue == "\"\\/\u{8}\u{C}\n\r\tAé")
        #expect(root.arrayValue?[1].stringValue == "😀x")
        #expect(root.arrayValue?[2].stringValue == "\u{0}")
    }

    @Test func byteOrderMarkIsSkipped() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array(#"{"a": [1]}"#.utf8)
        let root = try JSONParser.parse(bytes: bytes)
        #expect(root.location == at(1, 1))
        #expect(root.objectValue?.member(named: "a")?.keyLocation == at(1, 2))
        #expect(root.objectValue?["a"]?.arrayValue?.first?.location == at(1, 8))
        #expect(
            try JSONParser.parse("\u{FEFF}true") == JSONValue(kind: .bool(true), location: at(1, 1)))
    }

    @Test func nestingUpToTheLimitIsAccepted() throws {
        let depth = JSONParser.maximumDepth
        var value = try JSONParser.parse(
            String(repeating: "[", count: depth) + String(repeating: "]", count: depth))
        var levels = 1
        while let inner = value.arrayValue?.first {
            value = inner
            levels += 1
        }
        #expect(levels == 256)
        #expect(value.location == at(1, 256))
        #expect(value.arrayValue == [])
    }

    @Test func largeObjectsKeepOrderAndFindKeys() throws {
        let members = (0..<40).map { "\"k\($0)\": \($0)" }.joined(separator: ",\n")
        let object = try #require(try JSONParser.parse("{\n" + members + "\n}").objectValue)
        #expect(object.keys == (0..<40).map { "k\($0)" })
        #expect(object["k39"] == JSONValue(kind: .number(39), location: at(41, 8)))
    }

    @Test func megabyteDocumentParses() throws {
        // About 1.1 MB: 20 000 objects on their own lines, the last at a known place.
        let line = #"{"id": 123456, "name": "ring ✓", "values": [0.25, -1e-3, true, null]}"#
        let text = "[\n" + Array(repeating: line, count: 20_000).joined(separator: ",\n") + "\n]"
        #expect(text.utf8.count > 1_000_000)
        let elements = try #require(try JSONParser.parse(text).arrayValue)
        #expect(elements.count == 20_000)
        let last = try #require(elements.last?.objectValue)
        #expect(elements.last?.location == at(20_001, 1))
        #expect(last["values"]?.location == at(20_001, 44))
        #expect(
            last["values"]?.arrayValue?.map(\.kind) == [
                .number(0.25), .number(-0.001), .bool(true), .null,
            ])
    }
}

@Suite struct JSONParserErrors {
    /// (document, line, column, message)
    static let cases: [(String, Int, Int, String)] = [
        (#"{"a": 1]"#, 1, 8, "expected ',' or '}' after an object member, found ']'"),
        ("[1 2]", 1, 4, "expected ',' or ']' after an array element, found '2'"),
        ("[1", 1, 3, "expected ',' or ']' after an array element, found end of input"),
        (#"{"a": 1,}"#, 1, 8, "trailing comma before '}'"),
        ("[1,\n]", 1, 3, "trailing comma before ']'"),
        (#"{"a": "b"#, 1, 7, "unterminated string"),
        (#"["a\"#, 1, 2, "unterminated string"),
        (
            "[\"abc\ndef\"]", 1, 2,
            "unterminated string (a line break inside a string must be written \\n)"
        ),
        ("{a: 1}", 1, 2, "expected a member name in double quotes after '{', found 'a'"),
        (#"{"a": 1, b}"#, 1, 10, "expected a member name in double quotes after ',', found 'b'"),
        (#"{"a" 1}"#, 1, 6, #"expected ':' after the member name "a", found '1'"#),
        ("", 1, 1, "expected a value, found end of input"),
        ("  \n  ", 2, 3, "expected a value, found end of input"),
        (#"{"a":"#, 1, 6, "expected a value, found end of input"),
        ("[1, 2] x", 1, 8, "expected end of input after the top-level value, found 'x'"),
        ("{} {}", 1, 4, "expected end of input after the top-level value, found '{'"),
        ("NaN", 1, 1, "expected a value, found 'NaN'"),
        ("[True]", 1, 2, "expected a value, found 'True'"),
        ("[nul]", 1, 2, "expected a value, found 'nul'"),
        ("[truex]", 1, 2, "expected a value, found 'truex'"),
        ("[-Infinity]", 1, 3, "expected a digit after '-', found 'Infinity'"),
        ("[01]", 1, 2, "numbers must not have leading zeros"),
        ("[-012]", 1, 2, "numbers must not have leading zeros"),
        ("[1.]", 1, 4, "expected a digit after '.', found ']'"),
        ("[1e+]", 1, 5, "expected a digit in the exponent, found ']'"),
        ("[.5]", 1, 2, "expected a value, found '.'"),
        ("[+1]", 1, 2, "expected a value, found '+'"),
        ("[1e400]", 1, 2, "number 1e400 is out of range (beyond ±1.8e308)"),
        ("\n [-2.5E+308]", 2, 3, "number -2.5E+308 is out of range (beyond ±1.8e308)"),
        ("['a']", 1, 2, "expected a value, found ''' (JSON strings use double quotes)"),
        (
            "{\"a\": 1 // note\n}", 1, 9,
            "expected ',' or '}' after an object member, found '/' (JSON has no comments)"
        ),
        (
            #"["a\qb"]"#, 1, 4,
            #"invalid escape '\q' in a string; valid escapes are \" \\ \/ \b \f \n \r \t \uXXXX"#
        ),
        (#"["\u12G4"]"#, 1, 7, "expected 4 hex digits after \\u, found 'G'"),
        (#"["\u12"]"#, 1, 7, "expected 4 hex digits after \\u, found '\"'"),
        (
            #"["x\uD800"]"#, 1, 4,
            #"lone surrogate \uD800: a high surrogate must be followed by a low surrogate \uDC00…\uDFFF"#
        ),
        (
            #"["\uD83D\u0041"]"#, 1, 9,
            #"\u0041 after the high surrogate \uD83D is not a low surrogate \uDC00…\uDFFF"#
        ),
        (#"["\uDE00"]"#, 1, 3, #"lone surrogate \uDE00: a low surrogate must follow a high surrogate"#),
        ("[\"a\tb\"]", 1, 4, "control character U+0009 must be escaped in a string"),
        (
            #"{"a": 1, "b": 2, "a": 3}"#, 1, 18, #"duplicate key "a" (first defined at line 1, column 2)"#
        ),
        (
            "{\"a\": {\"x\": 1},\n \"a\": 2}", 2, 2,
            #"duplicate key "a" (first defined at line 1, column 2)"#
        ),
        ("[1,\u{A0}2]", 1, 4, "expected a value, found U+00A0"),
        ("[1,\u{FEFF}2]", 1, 4, "expected a value, found U+FEFF"),
        ("[ü]", 1, 2, "expected a value, found 'ü'"),
    ]

    @Test(arguments: cases)
    func reportsLocationAndMessage(_ testCase: (String, Int, Int, String)) {
        let (text, line, column, message) = testCase
        #expect(syntaxError(text) == JSONSyntaxError(location: at(line, column), message: message))
    }

    @Test func duplicateKeyInALargeObject() {
        let members = (0..<20).map { "\"k\($0)\": \($0)" } + [#""k3": 0"#]
        let error = syntaxError("{" + members.joined(separator: ",\n") + "}")
        #expect(error?.location == at(21, 1))
        #expect(error?.message == #"duplicate key "k3" (first defined at line 4, column 1)"#)
    }

    @Test func nestingBeyondTheLimitIsAnErrorNotACrash() {
        let limitError = JSONSyntaxError(
            location: at(1, 257), message: "nesting deeper than 256 levels of arrays and objects")
        #expect(
            syntaxError(String(repeating: "[", count: 257) + String(repeating: "]", count: 257))
                == limitError)
        #expect(syntaxError(String(repeating: "[", count: 100_000)) == limitError)
        #expect(
            syntaxError(String(repeating: #"{"a":"#, count: 300))
                == JSONSyntaxError(
                    location: at(1, 5 * 256 + 1),
                    message: "nesting deeper than 256 levels of arrays and objects"))
    }

    /// (bytes after `["a`, column of the error, message)
    static let utf8Cases: [([UInt8], Int, String)] = [
        ([0xFF], 4, "invalid UTF-8 byte 0xFF in a string"),
        ([0x80], 4, "invalid UTF-8 byte 0x80 in a string"),
        ([0xC0, 0xAF], 4, "invalid UTF-8 byte 0xC0 in a string"),  // overlong '/'
        ([0xE0, 0x80, 0xAF], 4, "invalid UTF-8 byte 0xE0 in a string"),  // overlong
        ([0xED, 0xA0, 0x80], 4, "invalid UTF-8 byte 0xED in a string"),  // encoded surrogate
        ([0xF4, 0x90, 0x80, 0x80], 4, "invalid UTF-8 byte 0xF4 in a string"),  // > U+10FFFF
        ([0xE2, 0x82], 4, "invalid UTF-8 byte 0xE2 in a string"),  // truncated before the quote
        ([0xC3, 0xA9, 0xE2, 0x9C, 0x93, 0xFE], 6, "invalid UTF-8 byte 0xFE in a string"),  // after é✓
    ]

    @Test(arguments: utf8Cases)
    func invalidUTF8InStrings(_ testCase: ([UInt8], Int, String)) {
        let (bad, column, message) = testCase
        let bytes = Array(#"["a"#.utf8) + bad + Array(#""]"#.utf8)
        #expect(syntaxError(bytes: bytes) == JSONSyntaxError(location: at(1, column), message: message))
    }

    @Test func invalidUTF8OutsideStrings() {
        #expect(
            syntaxError(bytes: [0x5B, 0x0A, 0x20, 0xFF, 0x5D])
                == JSONSyntaxError(
                    location: at(2, 2), message: "expected a value, found invalid UTF-8 byte 0xFF"))
        // A BOM is only skipped at the very start; a lone BOM prefix byte is invalid.
        #expect(
            syntaxError(bytes: [0xEF, 0xBB, 0x31])
                == JSONSyntaxError(
                    location: at(1, 1), message: "expected a value, found invalid UTF-8 byte 0xEF"))
    }

    @Test func errorDescriptionIsLineColonColumn() {
        #expect(syntaxError("[1,]")?.description == "1:3: trailing comma before ']'")
    }
}

@Suite struct JSONValueDescriptions {
    private func value(_ kind: JSONValue.Kind) -> JSONValue {
        JSONValue(kind: kind, location: at(1, 1))
    }

    @Test func typeNames() {
        let kinds: [JSONValue.Kind] = [
            .null, .bool(false), .number(1), .string(""), .array([]), .object(JSONObject(members: [])),
        ]
        #expect(
            kinds.map { value($0).typeName } == [
                "null", "a boolean", "a number", "a string", "an array", "an object",
            ])
    }

    @Test func shortDescriptions() throws {
        let one = value(.number(1))
        #expect(value(.null).shortDescription == "null")
        #expect(value(.bool(true)).shortDescription == "true")
        #expect(value(.number(12)).shortDescription == "12")
        #expect(value(.number(-3)).shortDescription == "-3")
        #expect(value(.number(0.5)).shortDescription == "0.5")
        #expect(value(.number(1e20)).shortDescription == "1e+20")
        #expect(value(.string("thick")).shortDescription == #""thick""#)
        #expect(value(.string("a\"b\\c\nd\u{1}")).shortDescription == #""a\"b\\c\nd\u0001""#)
        #expect(value(.array([one, one, one])).shortDescription == "an array of 3")
        #expect(value(.array([])).shortDescription == "an empty array")
        let member = JSONObject.Member(key: "k", keyLocation: at(1, 2), value: one)
        #expect(value(.object(JSONObject(members: [member]))).shortDescription == "an object")
        #expect(value(.object(JSONObject(members: []))).shortDescription == "an empty object")
    }

    @Test func longStringsAreCutAtFortyScalars() {
        let long = value(.string(String(repeating: "abcdefghij", count: 10))).shortDescription
        #expect(long == "\"" + String(repeating: "abcdefghij", count: 3) + "abcdefg…\"")
        #expect(long.unicodeScalars.count == 40)
        // An escape is never cut in half.
        let quotes = value(.string(String(repeating: "\"", count: 30))).shortDescription
        #expect(quotes == "\"" + String(repeating: "\\\"", count: 18) + "…\"")
        let exactly = String(repeating: "x", count: 38)
        #expect(value(.string(exactly)).shortDescription == "\"" + exactly + "\"")
    }

    @Test func accessorsMatchKinds() {
        #expect(value(.string("s")).stringValue == "s")
        #expect(value(.string("s")).numberValue == nil)
        #expect(value(.number(2)).numberValue == 2)
        #expect(value(.bool(false)).boolValue == false)
        #expect(value(.null).isNull)
        #expect(value(.bool(false)).isNull == false)
        #expect(value(.array([])).arrayValue == [])
        #expect(value(.array([])).objectValue == nil)
    }
}
