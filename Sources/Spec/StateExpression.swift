// SPDX-License-Identifier: GPL-3.0-or-later

/// An expression over state variables, a replicator's instance index and number parameters:
/// what a layer property bound to state shows (`"$current == $i ? 1 : 0"`), or what an event
/// assigns (`"$current == 6 ? 0 : $current + 1"`).
///
/// Grammar (whitespace allowed between tokens; `$i` is the instance index, every other `$name`
/// a state variable or a number parameter, parameters resolved when the preset is decoded):
/// ```
/// expression := or ('?' expression ':' expression)?
/// or         := and ('||' and)*
/// and        := compare ('&&' compare)*
/// compare    := sum (('==' | '!=' | '<' | '<=' | '>' | '>=') sum)?
/// sum        := product (('+' | '-') product)*
/// product    := unary (('*' | '/' | '%') unary)*
/// unary      := ('-' | '!') unary | primary
/// primary    := number | 'true' | 'false' | '$' name | '(' expression ')'
///             | function '(' expression ')'
/// function   := 'round' | 'floor' | 'ceil'
/// ```
/// The functions are those of number expressions (`Expression.Function`), with the same rule:
/// `round(x)` is the nearest whole number, halves away from zero (C's `round`: `round(2.5)` is
/// 3, `round(-2.5)` is −3), `floor(x)` the largest whole number ≤ x, `ceil(x)` the smallest ≥ x;
/// e.g. `"round($progress * 10) / 10"` steps a bound opacity by tenths.
/// Values are numbers; comparisons and `!`, `&&`, `||` give 1 or 0, and any non-zero number is
/// true. The language is total: every expression that parses has a value for every state.
/// `x / 0` and `x % 0` are 0, `%` is the floored remainder (`-1 % 7` is 6, as an index wraps),
/// and a result that is not finite (an overflow such as `1e300 * 1e300`) is 0. Nesting is
/// limited to `Expression.maximumDepth` levels.
public indirect enum StateExpression: Equatable, Sendable {
    /// A literal (parameters are folded into literals when decoded).
    case number(Double)
    /// State variable number `index` in `StateMachine.variables`.
    case variable(Int)
    /// The replicator instance index `$i` of the innermost replicator (0 outside one).
    case instance
    /// `-x`.
    case negate(StateExpression)
    /// `!x`: 1 when x is 0, else 0.
    case not(StateExpression)
    /// `left op right`.
    case binary(Operator, StateExpression, StateExpression)
    /// `condition ? then : otherwise`.
    case conditional(StateExpression, StateExpression, StateExpression)
    /// `function(argument)`: `round`, `floor` or `ceil`.
    case function(Expression.Function, StateExpression)

    /// The binary operators, spelled as in the text.
    public enum Operator: String, Equatable, Sendable, CaseIterable {
        /// `+`.
        case add = "+"
        /// `-`.
        case subtract = "-"
        /// `*`.
        case multiply = "*"
        /// `/` (0 when dividing by 0).
        case divide = "/"
        /// `%`, floored remainder (0 when the divisor is 0).
        case remainder = "%"
        /// `==`.
        case equal = "=="
        /// `!=`.
        case notEqual = "!="
        /// `<`.
        case less = "<"
        /// `<=`.
        case lessOrEqual = "<="
        /// `>`.
        case greater = ">"
        /// `>=`.
        case greaterOrEqual = ">="
        /// `&&`.
        case and = "&&"
        /// `||`.
        case or = "||"
    }

    /// Parses `text`. `resolve` maps a name (without `$`, never `i`) to a state variable index
    /// or a parameter's number; nil for an unknown name.
    /// - Throws: `ExpressionError` with the 0-based offset (in Unicode scalars) of the offending
    ///   character: a syntax error, an unknown `$name`, or nesting deeper than
    ///   `Expression.maximumDepth`.
    public static func parse(_ text: String, resolve: @escaping (String) -> Resolved?) throws(ExpressionError)
        -> StateExpression
    {
        var parser = StateExpressionParser(scalars: Array(text.unicodeScalars), resolve: resolve)
        let result = try parser.parseConditional()
        parser.skipSpaces()
        if parser.position < parser.scalars.count {
            throw parser.error("expected an operator or the end of the expression")
        }
        return result
    }

    /// What a `$name` stands for.
    public enum Resolved: Equatable, Sendable {
        /// A state variable, by index.
        case variable(Int)
        /// A number parameter's value.
        case number(Double)
    }

    /// The value for the state `values` (indexed like `StateMachine.variables`) and instance
    /// index `instance`. Never fails: see the type's rules for 0 results.
    public func evaluate(_ values: [Double], instance: Int) -> Double {
        let v = raw(values, instance: instance)
        return v.isFinite ? v : 0
    }

    private func raw(_ values: [Double], instance: Int) -> Double {
        switch self {
        case .number(let n): return n
        case .variable(let k): return k >= 0 && k < values.count ? values[k] : 0
        case .instance: return Double(instance)
        case .negate(let x): return -x.evaluate(values, instance: instance)
        case .not(let x): return x.evaluate(values, instance: instance) == 0 ? 1 : 0
        case .function(let f, let x): return f.apply(x.evaluate(values, instance: instance))
        case .conditional(let c, let a, let b):
            return c.evaluate(values, instance: instance) != 0
                ? a.evaluate(values, instance: instance) : b.evaluate(values, instance: instance)
        case .binary(let op, let l, let r):
            let a = l.evaluate(values, instance: instance)
            let b = r.evaluate(values, instance: instance)
            switch op {
            case .add: return a + b
            case .subtract: return a - b
            case .multiply: return a * b
            case .divide: return b == 0 ? 0 : a / b
            case .remainder:
                guard b != 0 else { return 0 }
                let m = a.truncatingRemainder(dividingBy: b)
                return m != 0 && (m < 0) != (b < 0) ? m + b : m
            case .equal: return a == b ? 1 : 0
            case .notEqual: return a != b ? 1 : 0
            case .less: return a < b ? 1 : 0
            case .lessOrEqual: return a <= b ? 1 : 0
            case .greater: return a > b ? 1 : 0
            case .greaterOrEqual: return a >= b ? 1 : 0
            case .and: return a != 0 && b != 0 ? 1 : 0
            case .or: return a != 0 || b != 0 ? 1 : 0
            }
        }
    }

    /// Whether the expression reads `$i`.
    public var usesInstance: Bool {
        switch self {
        case .number, .variable: false
        case .instance: true
        case .negate(let x), .not(let x), .function(_, let x): x.usesInstance
        case .binary(_, let a, let b): a.usesInstance || b.usesInstance
        case .conditional(let a, let b, let c): a.usesInstance || b.usesInstance || c.usesInstance
        }
    }
}

/// Recursive descent for `StateExpression`; `nesting` bounds the depth.
private struct StateExpressionParser {
    let scalars: [Unicode.Scalar]
    let resolve: (String) -> StateExpression.Resolved?
    var position = 0
    var nesting = 0

    init(scalars: [Unicode.Scalar], resolve: @escaping (String) -> StateExpression.Resolved?) {
        self.scalars = scalars
        self.resolve = resolve
    }

    mutating func skipSpaces() {
        while position < scalars.count, scalars[position].properties.isWhitespace { position += 1 }
    }

    func peek(_ ahead: Int = 0) -> Unicode.Scalar? {
        position + ahead < scalars.count ? scalars[position + ahead] : nil
    }

    func error(_ expected: String, at offset: Int? = nil) -> ExpressionError {
        let at = offset ?? position
        let found: String
        if at < scalars.count {
            let s = scalars[at]
            found =
                s.properties.isWhitespace || s.properties.generalCategory == .control
                ? "U+" + String(s.value, radix: 16, uppercase: true) : "'\(s)'"
        } else {
            found = "end of input"
        }
        return ExpressionError(offset: at, message: "\(expected) at offset \(at), found \(found)")
    }

    mutating func enter() throws(ExpressionError) {
        nesting += 1
        if nesting > Expression.maximumDepth {
            throw ExpressionError(
                offset: position,
                message: "expression nested deeper than \(Expression.maximumDepth) levels at offset \(position)")
        }
    }

    mutating func leave() { nesting -= 1 }

    /// Consumes `token` (after spaces) when it is next.
    mutating func take(_ token: String) -> Bool {
        skipSpaces()
        let t = Array(token.unicodeScalars)
        for (k, c) in t.enumerated() where peek(k) != c { return false }
        // `<` must not swallow the first half of `<=`; `=` alone is not an operator.
        if t.count == 1, let next = peek(1), next == "=", "<>!=".unicodeScalars.contains(t[0]) { return false }
        if t.count == 1, let next = peek(1), (t[0] == "&" && next == "&") || (t[0] == "|" && next == "|") {
            return false
        }
        position += t.count
        return true
    }

    mutating func parseConditional() throws(ExpressionError) -> StateExpression {
        try enter()
        defer { leave() }
        let condition = try parseBinary(level: 0)
        guard take("?") else { return condition }
        let a = try parseConditional()
        guard take(":") else { throw error("expected ':' of the conditional") }
        let b = try parseConditional()
        return .conditional(condition, a, b)
    }

    /// Operator levels, loosest first; each level is left-associative except comparisons,
    /// which do not chain.
    static let levels: [[StateExpression.Operator]] = [
        [.or], [.and], [.equal, .notEqual, .lessOrEqual, .greaterOrEqual, .less, .greater],
        [.add, .subtract], [.multiply, .divide, .remainder],
    ]

    mutating func parseBinary(level: Int) throws(ExpressionError) -> StateExpression {
        guard level < Self.levels.count else { return try parseUnary() }
        var left = try parseBinary(level: level + 1)
        var chained = 0
        while true {
            guard let op = Self.levels[level].first(where: { take($0.rawValue) }) else { return left }
            if level == 2 && chained > 0 {
                throw error("comparisons do not chain; use && between them", at: position - op.rawValue.count)
            }
            let right = try parseBinary(level: level + 1)
            left = .binary(op, left, right)
            chained += 1
            // A left-leaning chain is as deep as it is long; bound it like nesting.
            if chained > 8 * Expression.maximumDepth {
                throw ExpressionError(
                    offset: position,
                    message: "more than \(8 * Expression.maximumDepth) operators in a row at offset \(position)")
            }
        }
    }

    mutating func parseUnary() throws(ExpressionError) -> StateExpression {
        skipSpaces()
        if peek() == "-" || (peek() == "!" && peek(1) != "=") {
            let isNot = peek() == "!"
            position += 1
            try enter()
            defer { leave() }
            let operand = try parseUnary()
            return isNot ? .not(operand) : .negate(operand)
        }
        return try parsePrimary()
    }

    func isNameStart(_ s: Unicode.Scalar) -> Bool { ("a"..."z").contains(s) || ("A"..."Z").contains(s) || s == "_" }
    func isDigit(_ s: Unicode.Scalar) -> Bool { ("0"..."9").contains(s) }

    mutating func word() -> String {
        var name = ""
        while let next = peek(), isNameStart(next) || isDigit(next) {
            name.unicodeScalars.append(next)
            position += 1
        }
        return name
    }

    mutating func parsePrimary() throws(ExpressionError) -> StateExpression {
        skipSpaces()
        guard let scalar = peek() else { throw error("expected a number, $name or '('") }
        if scalar == "(" {
            position += 1
            try enter()
            defer { leave() }
            let inner = try parseConditional()
            guard take(")") else { throw error("expected an operator or ')'") }
            return inner
        }
        if scalar == "$" {
            let start = position
            position += 1
            guard let first = peek(), isNameStart(first) else { throw error("expected a name after '$'") }
            let name = word()
            if name == "i" { return .instance }
            switch resolve(name) {
            case .variable(let k)?: return .variable(k)
            case .number(let n)?: return .number(n)
            case nil:
                throw ExpressionError(
                    offset: start,
                    message: "unknown name $\(name) at offset \(start) (not a state variable, a number parameter or $i)"
                )
            }
        }
        if isNameStart(scalar) {
            let start = position
            let w = word()
            if w == "true" { return .number(1) }
            if w == "false" { return .number(0) }
            if let function = Expression.Function(rawValue: w) {
                guard take("(") else { throw error("expected '(' after \(w)") }
                try enter()
                defer { leave() }
                let argument = try parseConditional()
                guard take(")") else { throw error("expected an operator or ')' to close \(w)(") }
                return .function(function, argument)
            }
            position = start
            throw error("expected a number, $name or '(' (a state variable is written $\(w))")
        }
        if isDigit(scalar) {
            let start = position
            while let next = peek(), isDigit(next) { position += 1 }
            if peek() == ".", let d = peek(1), isDigit(d) {
                position += 1
                while let next = peek(), isDigit(next) { position += 1 }
            }
            if peek() == "e" || peek() == "E" {
                position += 1
                if peek() == "+" || peek() == "-" { position += 1 }
                guard let next = peek(), isDigit(next) else { throw error("expected a digit in the exponent") }
                while let next = peek(), isDigit(next) { position += 1 }
            }
            var text = ""
            text.unicodeScalars.append(contentsOf: scalars[start..<position])
            guard let value = Double(text), value.isFinite else {
                throw ExpressionError(offset: start, message: "number \(text) at offset \(start) is out of range")
            }
            return .number(value)
        }
        throw error("expected a number, $name or '('")
    }
}
