// SPDX-License-Identifier: GPL-3.0-or-later

extension RGBAColor {
    /// The forms `init?(parsing:)` accepts, for error messages ("expected a colour (…), found …").
    public static let acceptedColorForms =
        "#RRGGBB, #RRGGBBAA, #RGB, #RGBA, 0xRRGGBB, rgb(255 59 48 / 50%), rgba(255, 59, 48, 0.5), "
        + "hsl(4 100% 59%), hwb(…), or a name: SwiftUI's (blue, mint), UIKit's (systemRed, "
        + "secondaryLabel) or CSS's (tomato, rebeccapurple), any case"

    /// Parses a preset colour. Accepted, with no surrounding whitespace:
    /// - hex: `#RGB` and `#RGBA` (each digit doubled), `#RRGGBB` (opaque), `#RRGGBBAA` (straight
    ///   alpha last), as in CSS Color 4 §5.2, and `0xRRGGBB` / `0xRRGGBBAA` as UIKit code writes
    ///   them; hex digits in either case;
    /// - CSS Color 4 functions (§5.1 `rgb()`/`rgba()`, §7 `hsl()`/`hsla()`, §8 `hwb()`), names
    ///   in any case, in the modern space-separated form with an optional `/ alpha` and the
    ///   legacy comma-separated form; `none` reads as 0; channels may be numbers or
    ///   percentages, hues numbers of degrees or angles in `deg`, `grad`, `rad`, `turn`; values
    ///   out of range are clamped as CSS clamps computed values;
    /// - a name, case-insensitively: `namedColors` (SwiftUI), `systemColors` (UIKit), then
    ///   `cssColors` (see `named(_:)` for which wins).
    /// Returns `nil` for anything else (including `lab()`, `oklch()`, `color()`, which need
    /// gamut mapping to sRGB).
    public init?(parsing text: String) {
        guard let first = text.utf8.first else { return nil }
        if first == UInt8(ascii: "#") {
            guard let color = RGBAColor.hexDigits(text.utf8.dropFirst()) else { return nil }
            self = color
        } else if text.utf8.count > 2, text.hasPrefix("0x") || text.hasPrefix("0X") {
            let digits = text.utf8.dropFirst(2)
            guard digits.count == 6 || digits.count == 8, let color = RGBAColor.hexDigits(digits) else {
                return nil
            }
            self = color
        } else if text.utf8.last == UInt8(ascii: ")") {
            guard let color = CSSColorFunction.parse(text) else { return nil }
            self = color
        } else {
            guard let color = RGBAColor.named(text) else { return nil }
            self = color
        }
    }

    /// `RGB`, `RGBA`, `RRGGBB` or `RRGGBBAA` hex digits (any case) as a colour, else `nil`.
    private static func hexDigits(_ bytes: Substring.UTF8View) -> RGBAColor? {
        var nibbles: [UInt8] = []
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibbles.append(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibbles.append(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): nibbles.append(byte - UInt8(ascii: "A") + 10)
            default: return nil
            }
            if nibbles.count > 8 { return nil }
        }
        let channels: [UInt8]
        switch nibbles.count {
        case 3: channels = nibbles.map { $0 * 17 } + [255]
        case 4: channels = nibbles.map { $0 * 17 }
        case 6, 8:
            channels =
                stride(from: 0, to: nibbles.count, by: 2).map { nibbles[$0] * 16 + nibbles[$0 + 1] }
                + (nibbles.count == 6 ? [255] : [])
        default: return nil
        }
        return RGBAColor.bytes(channels[0], channels[1], channels[2], channels[3])
    }

    /// `#RRGGBB` when the colour is opaque, else `#RRGGBBAA`; uppercase; each channel is
    /// `channel × 255` rounded to the nearest integer (NaN as 0; so `init?(parsing:)` of the result gives
    /// back the same 8-bit channels).
    public var hexString: String {
        let values = [red, green, blue, alpha].map { channel -> Int in
            // Round half up by truncating (`rounded()` would need libm at link time).
            channel.isNaN ? 0 : Int(min(max(channel, 0), 1) * 255 + 0.5)
        }
        let digits = values.prefix(values[3] == 255 ? 3 : 4).map { value -> String in
            let hex = String(value, radix: 16, uppercase: true)
            return hex.count < 2 ? "0" + hex : hex
        }
        return "#" + digits.joined()
    }
}
