// SPDX-License-Identifier: GPL-3.0-or-later

extension RGBAColor {
    /// The forms `init?(parsing:)` accepts, for error messages ("expected a colour (…), found …").
    public static let acceptedColorForms =
        "#RRGGBB, #RRGGBBAA, #RGB, #RGBA or a name such as blue, mint, white, clear"

    /// Parses a preset colour: `#RGB` and `#RGBA` (each digit doubled, as in CSS Color 4's
    /// hex notation), `#RRGGBB` (opaque), `#RRGGBBAA` (straight alpha last), hex digits in
    /// either case, or one of `namedColors` (case-sensitive). Nothing else: no surrounding
    /// whitespace, no `rgb(…)`. Returns `nil` for anything not accepted.
    public init?(parsing text: String) {
        guard let first = text.utf8.first else { return nil }
        guard first == UInt8(ascii: "#") else {
            guard let color = RGBAColor.named(text) else { return nil }
            self = color
            return
        }
        var nibbles: [UInt8] = []
        for byte in text.utf8.dropFirst() {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): nibbles.append(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): nibbles.append(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): nibbles.append(byte - UInt8(ascii: "A") + 10)
            default: return nil
            }
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
        self = RGBAColor.bytes(channels[0], channels[1], channels[2], channels[3])
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
