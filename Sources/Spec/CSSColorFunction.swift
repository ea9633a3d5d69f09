// SPDX-License-Identifier: GPL-3.0-or-later

/// CSS Color Module Level 4's sRGB colour functions, `rgb()`/`rgba()` (§5.1), `hsl()`/`hsla()`
/// (§7) and `hwb()` (§8), read from a whole string such as `"rgb(255 59 48 / 50%)"` or
/// `"hsla(4, 100%, 59%, 0.5)"`. `RGBAColor.init?(parsing:)` calls it for text ending in `)`.
///
/// Both of the spec's syntaxes are read: the modern one (three space-separated components, an
/// optional `/ alpha`, `none` meaning 0, numbers and percentages mixed freely) and the legacy
/// one (commas between components, alpha as a fourth; `rgb()` with all three numbers or all
/// three percentages, `hsl()` with percentages for saturation and lightness; `hwb()` has none).
/// Out-of-range values are clamped as CSS clamps computed values: channels to 0…255 (0…100 %),
/// alpha to 0…1, saturation to ≥ 0, lightness, whiteness and blackness to 0…100 %. Hues are
/// numbers of degrees or angles in `deg`, `grad`, `rad` or `turn`, taken modulo 360°. No
/// `calc()`, no relative colour syntax, no `lab()`/`lch()`/`oklab()`/`oklch()`/`color()`.
enum CSSColorFunction {
    /// One component: a number with its unit, or `none`.
    private struct Component {
        enum Unit { case number, percent, degrees, gradians, radians, turns }
        var value: Double
        var unit: Unit
        var isNone = false

        /// A channel or alpha as a fraction: numbers over `numberScale`, percentages over 100.
        func fraction(numberScale: Double) -> Double? {
            switch unit {
            case .number: return value / numberScale
            case .percent: return value / 100
            default: return nil
            }
        }

        /// A hue in degrees, 0 ≤ h < 360.
        var hueDegrees: Double? {
            let degrees: Double
            switch unit {
            case .number, .degrees: degrees = value
            case .gradians: degrees = value * 0.9
            case .radians: degrees = value * 180 / Double.pi
            case .turns: degrees = value * 360
            case .percent: return nil
            }
            let wrapped = degrees.truncatingRemainder(dividingBy: 360)
            return wrapped < 0 ? wrapped + 360 : wrapped
        }
    }

    /// The colour `text` spells, or `nil` when it is not one of the accepted functions.
    static func parse(_ text: String) -> RGBAColor? {
        guard let open = text.firstIndex(of: "("), text.last == ")" else { return nil }
        let name = text[..<open].lowercased()
        let body = text[text.index(after: open)..<text.index(before: text.endIndex)]
        guard let (components, alpha, legacy) = split(body) else { return nil }
        guard components.count == 3 else { return nil }
        if legacy, components.contains(where: \.isNone) || alpha?.isNone == true { return nil }
        var opacity = 1.0
        if let alpha {
            guard let a = alpha.isNone ? 0 : alpha.fraction(numberScale: 1) else { return nil }
            opacity = a
        }
        switch name {
        case "rgb", "rgba":
            if legacy, Set(components.map { $0.unit == .percent }).count != 1 { return nil }
            var channels: [Double] = []
            for component in components {
                guard let c = component.isNone ? 0 : component.fraction(numberScale: 255) else { return nil }
                channels.append(c)
            }
            return RGBAColor(red: channels[0], green: channels[1], blue: channels[2], alpha: opacity)
        case "hsl", "hsla":
            if legacy, components[1].unit != .percent || components[2].unit != .percent { return nil }
            guard let hue = components[0].isNone ? 0 : components[0].hueDegrees,
                let s = percentage(components[1]), let l = percentage(components[2])
            else { return nil }
            let (r, g, b) = hslToRGB(hue: hue, saturation: max(s, 0), lightness: min(max(l, 0), 1))
            return RGBAColor(red: r, green: g, blue: b, alpha: opacity)
        case "hwb":
            guard !legacy, let hue = components[0].isNone ? 0 : components[0].hueDegrees,
                let w = percentage(components[1]), let k = percentage(components[2])
            else { return nil }
            let white = min(max(w, 0), 1)
            let black = min(max(k, 0), 1)
            // §8.1: whiteness + blackness ≥ 100 % is the grey white / (white + black).
            if white + black >= 1 {
                let grey = white / (white + black)
                return RGBAColor(red: grey, green: grey, blue: grey, alpha: opacity)
            }
            let (r, g, b) = hslToRGB(hue: hue, saturation: 1, lightness: 0.5)
            let scale = 1 - white - black
            return RGBAColor(red: r * scale + white, green: g * scale + white, blue: b * scale + white, alpha: opacity)
        default:
            return nil
        }
    }

    /// A saturation, lightness, whiteness or blackness as a fraction: a percentage, or in the
    /// modern syntax a bare number of percent; `none` is 0.
    private static func percentage(_ component: Component) -> Double? {
        if component.isNone { return 0 }
        switch component.unit {
        case .percent, .number: return component.value / 100
        default: return nil
        }
    }

    /// CSS Color 4 §7.1's conversion: hue in degrees 0…360, saturation ≥ 0 and lightness 0…1
    /// as fractions, to sRGB channels 0…1 (clamped by `RGBAColor`).
    static func hslToRGB(hue: Double, saturation: Double, lightness: Double) -> (Double, Double, Double) {
        let a = saturation * min(lightness, 1 - lightness)
        func channel(_ n: Double) -> Double {
            let k = (n + hue / 30).truncatingRemainder(dividingBy: 12)
            return lightness - a * max(-1, min(k - 3, 9 - k, 1))
        }
        return (channel(0), channel(8), channel(4))
    }

    /// The components between the parentheses, the alpha if any, and whether the legacy
    /// comma syntax was used; `nil` when the text does not tokenize into either syntax.
    private static func split(_ body: Substring) -> ([Component], Component?, Bool)? {
        var tokens: [Substring] = []
        var index = body.startIndex
        while index < body.endIndex {
            let character = body[index]
            if character == " " || character == "\t" || character == "\n" {
                index = body.index(after: index)
            } else if character == "," || character == "/" {
                tokens.append(body[index...index])
                index = body.index(after: index)
            } else {
                var end = index
                while end < body.endIndex, !" \t\n,/".contains(body[end]) { end = body.index(after: end) }
                tokens.append(body[index..<end])
                index = end
            }
        }
        let legacy = tokens.contains(",")
        var components: [Component] = []
        var alpha: Component?
        if legacy {
            // c , c , c [, c]: odd positions are commas, no slash.
            guard tokens.count == 5 || tokens.count == 7 else { return nil }
            for (position, token) in tokens.enumerated() {
                if position % 2 == 1 {
                    guard token == "," else { return nil }
                } else {
                    guard let component = component(token) else { return nil }
                    components.append(component)
                }
            }
            if components.count == 4 { alpha = components.removeLast() }
        } else {
            // c c c [/ c]
            guard tokens.count == 3 || tokens.count == 5 else { return nil }
            for token in tokens.prefix(3) {
                guard let component = component(token) else { return nil }
                components.append(component)
            }
            if tokens.count == 5 {
                guard tokens[3] == "/", let a = component(tokens[4]) else { return nil }
                alpha = a
            }
        }
        return (components, alpha, legacy)
    }

    /// `none`, or a CSS number (`[+-]? (digits | digits? . digits) ([eE] [+-]? digits)?`,
    /// finite) followed by nothing, `%`, or an angle unit.
    private static func component(_ token: Substring) -> Component? {
        if token.lowercased() == "none" { return Component(value: 0, unit: .number, isNone: true) }
        let bytes = Array(token.utf8)
        var i = 0
        func digits() -> Int {
            let start = i
            while i < bytes.count, bytes[i] >= UInt8(ascii: "0"), bytes[i] <= UInt8(ascii: "9") { i += 1 }
            return i - start
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
        let whole = digits()
        var fraction = 0
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            fraction = digits()
            guard fraction > 0 else { return nil }
        }
        guard whole + fraction > 0 else { return nil }
        if i + 1 < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            let mark = i
            i += 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            if digits() == 0 { i = mark }
        }
        guard let value = Double(String(decoding: bytes[..<i], as: UTF8.self)), value.isFinite else { return nil }
        let unit: Component.Unit
        switch String(decoding: bytes[i...], as: UTF8.self).lowercased() {
        case "": unit = .number
        case "%": unit = .percent
        case "deg": unit = .degrees
        case "grad": unit = .gradians
        case "rad": unit = .radians
        case "turn": unit = .turns
        default: return nil
        }
        return Component(value: value, unit: unit)
    }
}
