// SPDX-License-Identifier: GPL-3.0-or-later

/// Why an arithmetic expression could not be parsed or evaluated.
public struct ExpressionError: Error, Equatable, Sendable, CustomStringConvertible {
    /// For syntax errors, the 0-based offset in Unicode scalars of the offending character in
    /// the expression text (the text's length for "end of input"); `nil` for evaluation errors.
    public var offset: Int?
    /// One sentence without a final full stop, e.g.
    /// `expected a number, $name or '(' at offset 4, found '*'` or `unknown parameter $foo`.
    public var message: String

    /// An error with an optional offset.
    public init(offset: Int?, message: String) {
        self.offset = offset
        self.message = message
    }

    /// The message.
    public var description: String { message }
}

/// The small arithmetic preset fields accept in place of a number, e.g. `"$strokeWidth"`,
/// `"2 * $animationDuration"`, `"($size - $strokeWidth) / 2"`, `"-$x"`.
///
/// Grammar (whitespace allowed between any two tokens):
/// ```
/// expression := term (('+' | '-') term)*
/// term       := unary (('*' | '/') unary)*
/// unary      := '-' unary | primary
/// primary    := number | '$' name | '@' name '.' metric | '(' expression ')'
///             | function '(' expression ')'
/// number     := [0-9]+ ('.' [0-9]+)? ([eE] [+-]? [0-9]+)?
/// name       := [A-Za-z_] [A-Za-z0-9_]*
/// metric     := 'width' | 'height'
/// function   := 'round' | 'floor' | 'ceil'
/// ```
/// `round(x)` is the nearest whole number, halves away from zero (C's `round`: `round(2.5)` is
/// 3, `round(-2.5)` is −3); `floor(x)` the largest whole number ≤ x; `ceil(x)` the smallest
/// ≥ x. They snap a measured or computed position to whole points, e.g.
/// `"$left + ceil(@label.width) + 3"`.
/// `@label.width` is a measurement of the text layer named `label` (its advance width, or its
/// ascent + descent for `height`, in points, docs/preset-format.md "Measured text"); it is kept
/// as `.parameter("@label.width")`, and the caller's lookup resolves it.
/// Binary operators are left-associative; `*` and `/` bind tighter than `+` and `-`; unary
/// minus binds tightest (`-$a * 2` is `(-$a) * 2`). Nothing else (no `^`, no unary `+`, no
/// other functions). Nesting (parentheses, unary minus and operator chains) is limited to
/// `maximumDepth` levels so that no input can exhaust the stack.
public indirect enum Expression: Equatable, Sendable {
    /// A literal, always finite when parsed.
    case number(Double)
    /// A parameter reference; the name is stored without the `$`.
    case parameter(String)
    /// Unary minus.
    case negate(Expression)
    /// `left op right`.
    case binary(Operator, Expression, Expression)
    /// `function(argument)`.
    case function(Function, Expression)

    /// The functions, spelled as in the text; each takes one number and gives a whole number.
    public enum Function: String, Equatable, Sendable, CaseIterable {
        /// Nearest whole number, halves away from zero (C's `round`).
        case round
        /// Largest whole number ≤ the argument.
        case floor
        /// Smallest whole number ≥ the argument.
        case ceil

        /// `value` rounded as the function says.
        public func apply(_ value: Double) -> Double {
            switch self {
            case .round: value.rounded(.toNearestOrAwayFromZero)
            case .floor: value.rounded(.down)
            case .ceil: value.rounded(.up)
            }
        }
    }

    /// The four binary operators, spelled as in the text.
    public enum Operator: String, Equatable, Sendable {
        /// `+`.
        case add = "+"
        /// `-`.
        case subtract = "-"
        /// `*`.
        case multiply = "*"
        /// `/`.
        case divide = "/"
    }

    /// The deepest nesting accepted by `parse` (tree height and parenthesis/unary depth).
    public static let maximumDepth = 32

    /// Parses `text` (see the type's grammar).
    /// - Parameters:
    ///   - text: the expression.
    ///   - bareWordHint: for a bare word where an operand was expected (`thirty` in `"thirty"`),
    ///     the words the message puts in parentheses after it; nil (the default) or a nil result
    ///     gives `a parameter is written $thirty`. A decoder that knows the preset's params says
    ///     more (`DecodeContext`: no such parameter, or the nearest one).
    /// - Throws: `ExpressionError` with the offset of the offending character, e.g.
    ///   `expected a number, $name or '(' at offset 4, found '*'`.
    public static func parse(_ text: String, bareWordHint: ((String) -> String?)? = nil) throws(ExpressionError)
        -> Expression
    {
        var parser = ExpressionParser(scalars: Array(text.unicodeScalars), bareWordHint: bareWordHint)
        let (expression, _) = try parser.parseSum()
        parser.skipSpaces()
        if parser.position < parser.scalars.count {
            throw parser.error("expected +, -, *, / or the end of the expression")
        }
        return expression
    }

    /// The value with parameters looked up by name (without `$`) through `lookup`.
    /// - Throws: `ExpressionError` (offset `nil`): `unknown parameter $name` when `lookup`
    ///   returns `nil`, `division by zero`, or `the result is not a finite number` when an
    ///   operation (or a parameter value) is infinite or NaN.
    public func evaluate(_ lookup: (String) -> Double?) throws(ExpressionError) -> Double {
        let value: Double
        switch self {
        case .number(let number):
            value = number
        case .parameter(let name):
            guard let found = lookup(name) else {
                throw ExpressionError(offset: nil, message: "unknown parameter $\(name)")
            }
            value = found
        case .negate(let operand):
            value = -(try operand.evaluate(lookup))
        case .binary(let op, let left, let right):
            let a = try left.evaluate(lookup)
            let b = try right.evaluate(lookup)
            switch op {
            case .add: value = a + b
            case .subtract: value = a - b
            case .multiply: value = a * b
            case .divide:
                guard b != 0 else { throw ExpressionError(offset: nil, message: "division by zero") }
                value = a / b
            }
        case .function(let function, let argument):
            value = function.apply(try argument.evaluate(lookup))
        }
        guard value.isFinite else {
            throw ExpressionError(offset: nil, message: "the result is not a finite number")
        }
        return value
    }

    /// The value in exact fractions: every literal and parameter value stands for the decimal it
    /// is written as (`Rational(decimal:)`: `0.35` is 7/20), and `+ - * /` are exact, so
    /// `"1 / 60"` is 1/60, not the double nearest it. Nil when a parameter is unknown, a value
    /// has no short decimal, a division is by zero, or a step overflows 64-bit fractions.
    public func exactValue(_ lookup: (String) -> Double?) -> Rational? {
        switch self {
        case .number(let number):
            return Rational(decimal: number)
        case .parameter(let name):
            return lookup(name).flatMap { Rational(decimal: $0) }
        case .negate(let operand):
            return operand.exactValue(lookup).flatMap { Rational.zero.subtracting($0) }
        case .binary(let op, let left, let right):
            guard let a = left.exactValue(lookup), let b = right.exactValue(lookup) else { return nil }
            switch op {
            case .add: return a.adding(b)
            case .subtract: return a.subtracting(b)
            case .multiply: return a.multiplied(by: b)
            case .divide: return b == .zero ? nil : a.divided(by: b)
            }
        case .function(let function, let argument):
            guard let a = argument.exactValue(lookup) else { return nil }
            let down = Rational(a.floor)
            guard let fraction = a.subtracting(down), fraction != .zero else { return down }
            let up = down.adding(.one)
            switch function {
            case .floor: return down
            case .ceil: return up
            case .round:
                // Halves away from zero: 2.5 → 3, −2.5 → −3 (down is −3, the fraction ½).
                guard let half = Rational(1, 2) else { return nil }
                if fraction < half { return down }
                if half < fraction { return up }
                return a < .zero ? down : up
            }
        }
    }

    /// The parameter names (without `$`) in order of first use, each once.
    public var parameterNames: [String] {
        var names: [String] = []
        collectNames(into: &names)
        return names
    }

    private func collectNames(into names: inout [String]) {
        switch self {
        case .number: break
        case .parameter(let name): if !names.contains(name) { names.append(name) }
        case .negate(let operand), .function(_, let operand): operand.collectNames(into: &names)
        case .binary(_, let left, let right):
            left.collectNames(into: &names)
            right.collectNames(into: &names)
        }
    }
}

/// Recursive descent over the expression's scalars; every parse function returns the node and
/// its height so that `Expression.maximumDepth` can bound it.
private struct ExpressionParser {
    let scalars: [Unicode.Scalar]
    var position = 0
    /// Current parenthesis and unary-minus nesting.
    var nesting = 0

    /// See `Expression.parse(_:bareWordHint:)`.
    let bareWordHint: ((String) -> String?)?

    init(scalars: [Unicode.Scalar], bareWordHint: ((String) -> String?)? = nil) {
        self.scalars = scalars
        self.bareWordHint = bareWordHint
    }

    mutating func skipSpaces() {
        while position < scalars.count, scalars[position].properties.isWhitespace { position += 1 }
    }

    /// `message at offset N, found X` at the current position.
    func error(_ expected: String, operandExpected: Bool = false) -> ExpressionError {
        ExpressionError(
            offset: position,
            message: "\(expected) at offset \(position), found \(found(operandExpected: operandExpected))"
        )
    }

    /// What is at the current position; a bare word gets a `$name` hint where an operand was
    /// expected.
    func found(operandExpected: Bool) -> String {
        guard position < scalars.count else { return "end of input" }
        let scalar = scalars[position]
        if isNameStart(scalar) || isDigit(scalar) {
            var end = position
            while end < scalars.count, isNameStart(scalars[end]) || isDigit(scalars[end]) { end += 1 }
            var word = ""
            word.unicodeScalars.append(contentsOf: scalars[position..<end])
            if operandExpected, isNameStart(scalar) {
                // NaN and infinities are not numbers a preset can hold (finite decimals only).
                if ["nan", "inf", "infinity"].contains(word.lowercased()) {
                    return "'\(word)' (numbers are finite decimals)"
                }
                return "'\(word)' (\(bareWordHint?(word) ?? "a parameter is written $\(word)"))"
            }
            return "'\(word)'"
        }
        if scalar.properties.isWhitespace || scalar.properties.generalCategory == .control {
            let hex = String(scalar.value, radix: 16, uppercase: true)
            return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        }
        return "'\(scalar)'"
    }

    func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }

    func isNameStart(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || scalar == "_"
    }

    func peek() -> Unicode.Scalar? { position < scalars.count ? scalars[position] : nil }

    func tooDeep() -> ExpressionError {
        ExpressionError(
            offset: position,
            message:
                "expression nested deeper than \(Expression.maximumDepth) levels at offset \(position)")
    }

    mutating func parseSum() throws(ExpressionError) -> (Expression, Int) {
        var (result, height) = try parseProduct()
        while true {
            skipSpaces()
            let op: Expression.Operator
            switch peek() {
            case "+": op = .add
            case "-": op = .subtract
            default: return (result, height)
            }
            position += 1
            let (right, rightHeight) = try parseProduct()
            height = max(height, rightHeight) + 1
            if height > Expression.maximumDepth { throw tooDeep() }
            result = .binary(op, result, right)
        }
    }

    mutating func parseProduct() throws(ExpressionError) -> (Expression, Int) {
        var (result, height) = try parseUnary()
        while true {
            skipSpaces()
            let op: Expression.Operator
            switch peek() {
            case "*": op = .multiply
            case "/": op = .divide
            default: return (result, height)
            }
            position += 1
            let (right, rightHeight) = try parseUnary()
            height = max(height, rightHeight) + 1
            if height > Expression.maximumDepth { throw tooDeep() }
            result = .binary(op, result, right)
        }
    }

    mutating func parseUnary() throws(ExpressionError) -> (Expression, Int) {
        skipSpaces()
        guard peek() == "-" else { return try parsePrimary() }
        nesting += 1
        if nesting > Expression.maximumDepth { throw tooDeep() }
        position += 1
        let (operand, height) = try parseUnary()
        nesting -= 1
        if height + 1 > Expression.maximumDepth { throw tooDeep() }
        return (.negate(operand), height + 1)
    }

    mutating func parsePrimary() throws(ExpressionError) -> (Expression, Int) {
        skipSpaces()
        guard let scalar = peek() else {
            throw error("expected a number, $name or '('", operandExpected: true)
        }
        if scalar == "(" {
            nesting += 1
            if nesting > Expression.maximumDepth { throw tooDeep() }
            position += 1
            let inner = try parseSum()
            skipSpaces()
            guard peek() == ")" else { throw error("expected +, -, *, / or ')'") }
            position += 1
            nesting -= 1
            return inner
        }
        if scalar == "$" {
            position += 1
            guard let first = peek(), isNameStart(first) else {
                throw error("expected a parameter name after '$'")
            }
            let start = position
            while let next = peek(), isNameStart(next) || isDigit(next) { position += 1 }
            var name = ""
            name.unicodeScalars.append(contentsOf: scalars[start..<position])
            return (.parameter(name), 1)
        }
        if scalar == "@" {
            position += 1
            guard let first = peek(), isNameStart(first) else {
                throw error("expected a text layer's name after '@' (as in @label.width)")
            }
            let start = position
            while let next = peek(), isNameStart(next) || isDigit(next) { position += 1 }
            var name = ""
            name.unicodeScalars.append(contentsOf: scalars[start..<position])
            guard peek() == "." else { throw error("expected .width or .height after @\(name)") }
            position += 1
            let metricStart = position
            while let next = peek(), isNameStart(next) { position += 1 }
            var metric = ""
            metric.unicodeScalars.append(contentsOf: scalars[metricStart..<position])
            guard metric == "width" || metric == "height" else {
                position = metricStart
                throw error("expected width or height after @\(name).")
            }
            return (.parameter("@\(name).\(metric)"), 1)
        }
        if isDigit(scalar) { return (.number(try parseNumber()), 1) }
        if isNameStart(scalar) {
            let start = position
            while let next = peek(), isNameStart(next) || isDigit(next) { position += 1 }
            var word = ""
            word.unicodeScalars.append(contentsOf: scalars[start..<position])
            let afterWord = position
            skipSpaces()
            if let function = Expression.Function(rawValue: word), peek() == "(" {
                nesting += 1
                if nesting > Expression.maximumDepth { throw tooDeep() }
                position += 1
                let (argument, height) = try parseSum()
                skipSpaces()
                guard peek() == ")" else { throw error("expected +, -, *, / or ')' to close \(word)(") }
                position += 1
                nesting -= 1
                if height + 1 > Expression.maximumDepth { throw tooDeep() }
                return (.function(function, argument), height + 1)
            }
            if Expression.Function(rawValue: word) != nil {
                position = afterWord
                throw error("expected '(' after \(word)")
            }
            position = start
        }
        throw error("expected a number, $name or '('", operandExpected: true)
    }

    mutating func parseNumber() throws(ExpressionError) -> Double {
        let start = position
        while let next = peek(), isDigit(next) { position += 1 }
        if peek() == "." {
            position += 1
            guard let next = peek(), isDigit(next) else { throw error("expected a digit after '.'") }
            while let next = peek(), isDigit(next) { position += 1 }
        }
        if peek() == "e" || peek() == "E" {
            position += 1
            if peek() == "+" || peek() == "-" { position += 1 }
            guard let next = peek(), isDigit(next) else {
                throw error("expected a digit in the exponent")
            }
            while let next = peek(), isDigit(next) { position += 1 }
        }
        var text = ""
        text.unicodeScalars.append(contentsOf: scalars[start..<position])
        guard let value = Double(text), value.isFinite else {
            throw ExpressionError(
                offset: start, message: "number \(text) at offset \(start) is out of range")
        }
        return value
    }
}
