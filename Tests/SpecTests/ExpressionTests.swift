// SPDX-License-Identifier: GPL-3.0-or-later

import Spec
import Testing

private func value(_ text: String, _ parameters: [String: Double] = [:]) throws -> Double {
    try Spec.Expression.parse(text).evaluate { parameters[$0] }
}

private func parseError(_ text: String) -> ExpressionError? {
    do {
        _ = try Spec.Expression.parse(text)
        return nil
    } catch {
        return error
    }
}

private func evaluationError(_ text: String, _ parameters: [String: Double] = [:]) throws
    -> ExpressionError?
{
    let expression = try Spec.Expression.parse(text)
    do {
        _ = try expression.evaluate { parameters[$0] }
        return nil
    } catch {
        return error
    }
}

@Suite struct ExpressionEvaluation {
    /// (text, parameters, value)
    static let cases: [(String, [String: Double], Double)] = [
        ("2 * $a + 1", ["a": 3], 7),
        ("1 + 2 * 3", [:], 7),
        ("(1 + 2) * 3", [:], 9),
        ("10 - 4 - 3", [:], 3),  // left-associative: (10 - 4) - 3
        ("64 / 4 / 2", [:], 8),  // (64 / 4) / 2
        ("2 * 3 / 4", [:], 1.5),
        ("12 / 3 * 2", [:], 8),  // not 12 / 6
        ("-$x", ["x": 5], -5),
        ("-2 * 3", [:], -6),
        ("- -2", [:], 2),
        ("2*-3", [:], -6),
        ("1 - -1", [:], 2),
        ("-(1 - 4)", [:], 3),
        ("($size - $strokeWidth) / 2", ["size": 64, "strokeWidth": 4], 30),
        ("2 * $animationDuration", ["animationDuration": 2], 4),
        ("$strokeWidth", ["strokeWidth": 4.5], 4.5),
        ("1.5e1", [:], 15),
        ("25E-1 + 0.5", [:], 3),
        ("  3\t", [:], 3),
        ("$a_1 + $_b", ["a_1": 1, "_b": 2], 3),
        ("((((7))))", [:], 7),
    ]

    @Test(arguments: cases)
    func evaluates(_ testCase: (String, [String: Double], Double)) throws {
        let (text, parameters, expected) = testCase
        #expect(try value(text, parameters) == expected)
    }

    @Test func treeShapeShowsPrecedenceAndAssociativity() throws {
        #expect(
            try Spec.Expression.parse("1 - 2 - 3")
                == .binary(.subtract, .binary(.subtract, .number(1), .number(2)), .number(3)))
        #expect(
            try Spec.Expression.parse("-$a * 2 + 1")
                == .binary(.add, .binary(.multiply, .negate(.parameter("a")), .number(2)), .number(1)))
        #expect(try Spec.Expression.parse("$w") == .parameter("w"))
    }

    @Test func parameterNamesInOrderOfFirstUse() throws {
        #expect(
            try Spec.Expression.parse("$b + $a * $b - ($c / $a)").parameterNames == ["b", "a", "c"])
        #expect(try Spec.Expression.parse("1 + 2").parameterNames == [])
    }

    @Test func operatorSpellings() {
        #expect(Spec.Expression.Operator.allSpellings == ["+", "-", "*", "/"])
    }
}

@Suite struct ExpressionErrors {
    /// (text, offset, message)
    static let syntaxCases: [(String, Int, String)] = [
        ("2 * * 3", 4, "expected a number, $name or '(' at offset 4, found '*'"),
        ("-2^3", 2, "expected +, -, *, / or the end of the expression at offset 2, found '^'"),
        ("", 0, "expected a number, $name or '(' at offset 0, found end of input"),
        ("   ", 3, "expected a number, $name or '(' at offset 3, found end of input"),
        ("(1 + 2", 6, "expected +, -, *, / or ')' at offset 6, found end of input"),
        ("(1 + 2))", 7, "expected +, -, *, / or the end of the expression at offset 7, found ')'"),
        ("$", 1, "expected a parameter name after '$' at offset 1, found end of input"),
        ("$1a", 1, "expected a parameter name after '$' at offset 1, found '1a'"),
        ("$ a", 1, "expected a parameter name after '$' at offset 1, found U+0020"),
        (
            "strokeWidth * 2", 0,
            "expected a number, $name or '(' at offset 0, found 'strokeWidth' (a parameter is written $strokeWidth)"
        ),
        ("NaN", 0, "expected a number, $name or '(' at offset 0, found 'NaN' (numbers are finite decimals)"),
        ("-Infinity", 1, "expected a number, $name or '(' at offset 1, found 'Infinity' (numbers are finite decimals)"),
        ("2 x", 2, "expected +, -, *, / or the end of the expression at offset 2, found 'x'"),
        ("2 3", 2, "expected +, -, *, / or the end of the expression at offset 2, found '3'"),
        ("1.", 2, "expected a digit after '.' at offset 2, found end of input"),
        (".5", 0, "expected a number, $name or '(' at offset 0, found '.'"),
        ("2e", 2, "expected a digit in the exponent at offset 2, found end of input"),
        ("+1", 0, "expected a number, $name or '(' at offset 0, found '+'"),
        ("é + 1", 0, "expected a number, $name or '(' at offset 0, found 'é'"),
        ("$é", 1, "expected a parameter name after '$' at offset 1, found 'é'"),
        ("1 + 1e400", 4, "number 1e400 at offset 4 is out of range"),
        ("ü * ", 0, "expected a number, $name or '(' at offset 0, found 'ü'"),
        ("1 × 2", 2, "expected +, -, *, / or the end of the expression at offset 2, found '×'"),
    ]

    @Test(arguments: syntaxCases)
    func syntaxErrorsCarryOffsets(_ testCase: (String, Int, String)) {
        let (text, offset, message) = testCase
        #expect(parseError(text) == ExpressionError(offset: offset, message: message))
    }

    @Test func offsetsCountScalarsNotBytes() {
        // U+3000 (ideographic space, 3 UTF-8 bytes) is whitespace: the '*' is scalar 4, byte 8.
        #expect(
            parseError("1\u{3000}+\u{3000}* 2")
                == ExpressionError(offset: 4, message: "expected a number, $name or '(' at offset 4, found '*'"))
    }

    @Test func nestingIsBoundedWithoutCrashing() throws {
        let depth = Spec.Expression.maximumDepth
        let ok = String(repeating: "(", count: depth) + "1" + String(repeating: ")", count: depth)
        #expect(try value(ok) == 1)
        let tooDeep = "(" + ok + ")"
        #expect(
            parseError(tooDeep)
                == ExpressionError(
                    offset: 32, message: "expression nested deeper than 32 levels at offset 32"))
        #expect(parseError(String(repeating: "-", count: 100_000) + "1")?.offset == 32)
        #expect(parseError(String(repeating: "(", count: 100_000))?.offset == 32)
        // A chain of 32 terms is 32 levels high; one more term is too many.
        let terms = Array(repeating: "1", count: depth)
        #expect(try value(terms.joined(separator: " + ")) == 32)
        let chain = (terms + ["1"]).joined(separator: "+")
        #expect(parseError(chain)?.message == "expression nested deeper than 32 levels at offset 65")
    }

    @Test func evaluationErrors() throws {
        #expect(
            try evaluationError("$foo + 1")
                == ExpressionError(offset: nil, message: "unknown parameter $foo"))
        #expect(
            try evaluationError("1 / ($a - 2)", ["a": 2])
                == ExpressionError(offset: nil, message: "division by zero"))
        #expect(
            try evaluationError("0 / 0") == ExpressionError(offset: nil, message: "division by zero"))
        let notFinite = ExpressionError(offset: nil, message: "the result is not a finite number")
        #expect(try evaluationError("1e300 * 1e300") == notFinite)
        #expect(try evaluationError("-1e308 - 1e308") == notFinite)
        #expect(try evaluationError("$x", ["x": .infinity]) == notFinite)
        #expect(try evaluationError("$x * 0", ["x": .nan]) == notFinite)
        #expect(try evaluationError("1 / 1e-320") == notFinite)
        #expect(try evaluationError("1 / $tiny", ["tiny": 1e-300]) == nil)
    }
}

extension Spec.Expression.Operator {
    fileprivate static var allSpellings: [String] {
        [Self.add, .subtract, .multiply, .divide].map(\.rawValue)
    }
}

// Issue 19: round(), floor() and ceil() snap a measured or computed length to whole points.
@Test func roundingFunctions() throws {
    #expect(try value("round(128.37)") == 128)
    #expect(try value("ceil(128.37)") == 129)
    #expect(try value("floor(128.37)") == 128)
    // Halves away from zero, as C's round(): 2.5 → 3, −2.5 → −3.
    #expect(try value("round(2.5)") == 3)
    #expect(try value("round(-2.5)") == -3)
    #expect(try value("round(2.49)") == 2)
    #expect(try value("floor(-0.5)") == -1)
    #expect(try value("ceil(-0.5)") == 0)
    #expect(try value("ceil(3)") == 3)
    // An argument is a whole expression; a call is an operand like any other.
    #expect(try value("$left + ceil($w * 2) / 2", ["left": 6, "w": 64.185]) == 6 + 129.0 / 2)
    #expect(try value("-floor( 1.5 )*2") == -2)
    #expect(try Spec.Expression.parse("ceil(@label.width) + 3").parameterNames == ["@label.width"])
    // The exact value agrees: ceil(1/3) is 1, round(5/2) is 3, round(-5/2) is −3.
    let exact = { (text: String) in try Spec.Expression.parse(text).exactValue { _ in nil } }
    #expect(try exact("ceil(1 / 3)") == Rational(1))
    #expect(try exact("floor(-1 / 3)") == Rational(-1))
    #expect(try exact("round(5 / 2)") == Rational(3))
    #expect(try exact("round(-5 / 2)") == Rational(-3))
    #expect(try exact("round(7 / 3)") == Rational(2))
    #expect(try exact("floor(4)") == Rational(4))
}

@Test func roundingFunctionErrors() throws {
    #expect(parseError("round 2")?.message == "expected '(' after round at offset 5, found U+0020")
    #expect(
        parseError("ceil(2")?.message == "expected +, -, *, / or ')' to close ceil( at offset 6, found end of input")
    #expect(parseError("ceil()")?.offset == 5)
    // An unknown function name reads as a word where an operand belongs, with the $name hint.
    #expect(
        parseError("abs(2)")?.message
            == "expected a number, $name or '(' at offset 0, found 'abs' (a parameter is written $abs)")
    // Calls count towards the nesting limit.
    let deep = String(repeating: "ceil(", count: 40) + "1" + String(repeating: ")", count: 40)
    #expect(parseError(deep)?.message.hasPrefix("expression nested deeper than 32 levels") == true)
}
