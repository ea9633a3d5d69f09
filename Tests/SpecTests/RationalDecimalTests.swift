// SPDX-License-Identifier: GPL-3.0-or-later

import Spec
import Testing

/// `Rational(decimal:)` is the fraction of the shortest decimal Swift prints for a double. The
/// expected fractions here come from parsing that printed text in the test, independently of
/// the initializer's own fast path for values with few decimal places.
@Suite struct RationalDecimalTests {
    /// The fraction `text` (`-12.345`, `1e-07`, `2.5e+20`) spells, or nil past 18 digits.
    static func parse(_ text: String) -> Rational? {
        var mantissa = Substring(text)
        var exponent = 0
        if let e = text.firstIndex(of: "e") {
            mantissa = text[..<e]
            exponent = Int(text[text.index(after: e)...]) ?? 0
        }
        let negative = mantissa.hasPrefix("-")
        if negative { mantissa = mantissa.dropFirst() }
        let parts = mantissa.split(separator: ".", omittingEmptySubsequences: false)
        let digits = parts.joined()
        let places = (parts.count > 1 ? parts[1].count : 0) - exponent
        guard digits.count <= 18, var n = Int64(digits), abs(places) <= 18 else { return nil }
        if negative { n = -n }
        var d: Int64 = 1
        if places >= 0 {
            for _ in 0..<places { d *= 10 }
        } else {
            for _ in 0..<(-places) {
                let (m, o) = n.multipliedReportingOverflow(by: 10)
                if o { return nil }
                n = m
            }
        }
        return Rational(n, d)
    }

    @Test func matchesTheShortestDecimalSpelling() {
        var values: [Double] = [
            0.35, 1.0 / 3, 0.1 + 0.2, 2.45, 1e-5, 1e-7, 123_456.789, -0.75, 4.9, 1e15, 0.000001, 0.9999999,
            8, 0.016666666666666666, 33.333333, -1e-6, 1125899906842623.5, 2.5e20, 6.02e23,
        ]
        // Every n/10^k with n in a spread of magnitudes and k 0…8, and their neighbours one ulp off.
        for k in 0...8 {
            var power = 1.0
            for _ in 0..<k { power *= 10 }
            for n in [1.0, 7, 35, 245, 999, 12_345, 9_999_999, 123_456_789, 4_503_599_627_370_495] {
                let v = n / power
                values += [v, v.nextUp, v.nextDown, -v]
            }
        }
        for value in values {
            #expect(Rational(decimal: value) == Self.parse("\(value)"), "\(value)")
        }
        #expect(Rational(decimal: 0.35) == Rational(7, 20))
        #expect(Rational(decimal: 0) == Rational(0))
        #expect(Rational(decimal: .nan) == nil)
        #expect(Rational(decimal: .infinity) == nil)
    }
}
