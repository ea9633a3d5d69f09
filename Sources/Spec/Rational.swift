// SPDX-License-Identifier: GPL-3.0-or-later

/// An exact fraction `numerator / denominator` of 64-bit integers, always reduced, with a
/// positive denominator. Sample times, event times and the progress of linear animations are
/// carried in it so that a frame that lands on a boundary (a keyframe time, a timer tick, a
/// whole percentage) lands on it exactly instead of one ulp before.
///
/// Every operation is checked: one that would overflow 64 bits returns `nil`, and callers fall
/// back to `Double` arithmetic. Nothing here can trap.
public struct Rational: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The numerator, any sign.
    public let numerator: Int64
    /// The denominator, ≥ 1.
    public let denominator: Int64

    /// `numerator / denominator`, reduced; nil when `denominator` is 0 or the reduction
    /// overflows (`Int64.min / -1`).
    public init?(_ numerator: Int64, _ denominator: Int64) {
        guard denominator != 0 else { return nil }
        let g = Rational.gcd(numerator, denominator)
        var n = numerator / g
        var d = denominator / g
        if d < 0 {
            guard n != .min, d != .min else { return nil }
            n = -n
            d = -d
        }
        self.numerator = n
        self.denominator = d
    }

    /// A whole number.
    public init(_ whole: Int64) {
        numerator = whole
        denominator = 1
    }

    /// The fraction the shortest decimal spelling of `value` stands for: `0.35` is 7/20, not the
    /// binary double nearest it. This is the number a preset's JSON (or an expression's
    /// result printed back) means. Nil for NaN, infinities, and values whose decimal needs more
    /// than 18 digits of denominator or numerator.
    public init?(decimal value: Double) {
        guard value.isFinite else { return nil }
        if value == 0 {
            self.init(0)
            return
        }
        // Fast path, taken by nearly every time and value a preset holds: the value is k ≤ 6
        // decimal places from a whole number below 2^50, tried for the smallest k first. If
        // `n / 10^k` reads back as `value`, it is a decimal spelling with k places that does, and
        // no shorter one did, so it is the one `description` prints below.
        if abs(value) < 0x1p50 {
            var power = 1.0
            for places in 0...6 {
                let scaled = (value * power).rounded()
                if abs(scaled) < 0x1p53, scaled / power == value {
                    var d: Int64 = 1
                    for _ in 0..<places { d *= 10 }
                    self.init(Int64(scaled), d)
                    return
                }
                power *= 10
            }
        }
        // Swift's description is the shortest string that reads back as the same double.
        let text = "\(value)"
        var mantissa = Substring(text)
        var exponent = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            mantissa = text[..<e]
            guard let exp = Int(text[text.index(after: e)...]) else { return nil }
            exponent = exp
        }
        let negative = mantissa.hasPrefix("-")
        if negative { mantissa = mantissa.dropFirst() }
        var digits = ""
        var fractionDigits = 0
        var seenPoint = false
        for c in mantissa {
            if c == "." {
                seenPoint = true
            } else {
                guard c.isASCII, c.isNumber else { return nil }
                digits.append(c)
                if seenPoint { fractionDigits += 1 }
            }
        }
        let scale = fractionDigits - exponent
        guard digits.count <= 18, let whole = Int64(digits), abs(scale) <= 18 else { return nil }
        var n = negative ? -whole : whole
        var d: Int64 = 1
        if scale >= 0 {
            for _ in 0..<scale { d *= 10 }
        } else {
            for _ in 0..<(-scale) {
                let (m, o) = n.multipliedReportingOverflow(by: 10)
                guard !o else { return nil }
                n = m
            }
        }
        self.init(n, d)
    }

    /// The nearest double (correctly rounded when both parts are below 2^53).
    public var doubleValue: Double { Double(numerator) / Double(denominator) }

    /// The largest whole number ≤ the value.
    public var floor: Int64 {
        let q = numerator / denominator
        return numerator % denominator != 0 && numerator < 0 ? q - 1 : q
    }

    /// The whole number toward zero (Swift's `Int(x)`).
    public var truncated: Int64 { numerator / denominator }

    /// `numerator/denominator`, or the whole number.
    public var description: String { denominator == 1 ? "\(numerator)" : "\(numerator)/\(denominator)" }

    /// Zero.
    public static let zero = Rational(0)
    /// One.
    public static let one = Rational(1)

    /// Sum; nil on overflow.
    public func adding(_ other: Rational) -> Rational? {
        let g = Rational.gcd(denominator, other.denominator)
        let (a, o1) = numerator.multipliedReportingOverflow(by: other.denominator / g)
        let (b, o2) = other.numerator.multipliedReportingOverflow(by: denominator / g)
        let (n, o3) = a.addingReportingOverflow(b)
        let (d, o4) = denominator.multipliedReportingOverflow(by: other.denominator / g)
        guard !(o1 || o2 || o3 || o4) else { return nil }
        return Rational(n, d)
    }

    /// Difference; nil on overflow.
    public func subtracting(_ other: Rational) -> Rational? {
        guard other.numerator != .min else { return nil }
        return adding(Rational(unchecked: -other.numerator, other.denominator))
    }

    /// Product; nil on overflow.
    public func multiplied(by other: Rational) -> Rational? {
        let g1 = Rational.gcd(numerator, other.denominator)
        let g2 = Rational.gcd(other.numerator, denominator)
        let (n, o1) = (numerator / g1).multipliedReportingOverflow(by: other.numerator / g2)
        let (d, o2) = (denominator / g2).multipliedReportingOverflow(by: other.denominator / g1)
        guard !(o1 || o2) else { return nil }
        return Rational(n, d)
    }

    /// Quotient; nil on overflow or when `other` is 0.
    public func divided(by other: Rational) -> Rational? {
        guard other.numerator != 0, other.numerator != .min else { return nil }
        return multiplied(by: Rational(unchecked: other.denominator, other.numerator))
    }

    /// The remainder of floored division by a positive `other` (in `0..<other`); nil when
    /// `other` ≤ 0 or on overflow.
    public func floorRemainder(_ other: Rational) -> Rational? {
        guard other.numerator > 0, let q = divided(by: other) else { return nil }
        guard let k = Rational(q.floor).multiplied(by: other) else { return nil }
        return subtracting(k)
    }

    /// Whether `a` is less than `b`, compared exactly in 128 bits.
    public static func < (a: Rational, b: Rational) -> Bool {
        // Compare a.n·b.d with b.n·a.d in 128 bits.
        let left = a.numerator.multipliedFullWidth(by: b.denominator)
        let right = b.numerator.multipliedFullWidth(by: a.denominator)
        return left.high != right.high ? left.high < right.high : left.low < right.low
    }

    /// `Rational(n, d)` for parts already checked (d ≠ 0, neither part `Int64.min`); 0 if not.
    private init(unchecked numerator: Int64, _ denominator: Int64) {
        if let r = Rational(numerator, denominator) {
            self = r
        } else {
            self.numerator = 0
            self.denominator = 1
        }
    }

    static func gcd(_ a: Int64, _ b: Int64) -> Int64 {
        var (x, y) = (a.magnitude, b.magnitude)
        while y != 0 { (x, y) = (y, x % y) }
        // x ≤ max(|a|, |b|); only gcd(Int64.min, 0 or Int64.min) = 2^63 does not fit.
        return x == 0 ? 1 : Int64(exactly: x) ?? 1
    }
}
