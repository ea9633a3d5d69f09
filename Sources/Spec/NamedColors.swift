// SPDX-License-Identifier: GPL-3.0-or-later

extension RGBAColor {
    /// The colour names presets accept, in this documented order: SwiftUI's standard colours
    /// `red`, `orange`, `yellow`, `green`, `mint`, `teal`, `cyan`, `blue`, `indigo`, `purple`,
    /// `pink`, `brown`, `gray`, then `white`, `black`, `clear`, `transparent` (an alias of
    /// `clear`) and `accentColor` (the default accent, which is `blue`).
    ///
    /// The system colours are their iOS light-appearance sRGB values from Apple's Human
    /// Interface Guidelines, Color page, "System colors" table as published for iOS 17 (before
    /// the June 2025 revision for iOS 26 changed several values); cross-checked against the
    /// UIKit `systemRed`…`systemGray` light values that many projects copy (e.g. blue
    /// rgb(0, 122, 255), mint rgb(0, 199, 190), teal rgb(48, 176, 199), cyan rgb(50, 173, 230),
    /// brown rgb(162, 132, 94)). Names are case-sensitive, spelled as in SwiftUI.
    public static let namedColors: [(name: String, color: RGBAColor)] = [
        ("red", bytes(255, 59, 48)),
        ("orange", bytes(255, 149, 0)),
        ("yellow", bytes(255, 204, 0)),
        ("green", bytes(52, 199, 89)),
        ("mint", bytes(0, 199, 190)),
        ("teal", bytes(48, 176, 199)),
        ("cyan", bytes(50, 173, 230)),
        ("blue", bytes(0, 122, 255)),
        ("indigo", bytes(88, 86, 214)),
        ("purple", bytes(175, 82, 222)),
        ("pink", bytes(255, 45, 85)),
        ("brown", bytes(162, 132, 94)),
        ("gray", bytes(142, 142, 147)),
        ("white", .white),
        ("black", .black),
        ("clear", .clear),
        ("transparent", .clear),
        ("accentColor", bytes(0, 122, 255)),
    ]

    /// UIKit's names for the same system colours (`systemRed` is SwiftUI's `red`), the system
    /// greys, and the semantic label, fill, separator and background colours, each at its
    /// light-appearance value: Apple's UIKit documentation, "Standard colors" and "UI element
    /// colors" (the values `UIColor` resolves to in the light, non-high-contrast trait
    /// collection on iOS 17). SwiftUI's `primary` and `secondary` are UIKit's `label` and
    /// `secondaryLabel`; `grey` is an alias of `gray`.
    public static let systemColors: [(name: String, color: RGBAColor)] = {
        let swiftUI = namedColors.prefix(13).map { entry -> (name: String, color: RGBAColor) in
            ("system" + entry.name.prefix(1).uppercased() + entry.name.dropFirst(), entry.color)
        }
        let labelGrey = { (alpha: Double) in RGBAColor(red: 60 / 255, green: 60 / 255, blue: 67 / 255, alpha: alpha) }
        return swiftUI + [
            ("systemGray2", bytes(174, 174, 178)), ("systemGray3", bytes(199, 199, 204)),
            ("systemGray4", bytes(209, 209, 214)), ("systemGray5", bytes(229, 229, 234)),
            ("systemGray6", bytes(242, 242, 247)),
            ("label", .black), ("secondaryLabel", labelGrey(0.6)), ("tertiaryLabel", labelGrey(0.3)),
            ("quaternaryLabel", labelGrey(0.18)), ("placeholderText", labelGrey(0.3)),
            ("separator", labelGrey(0.29)), ("opaqueSeparator", bytes(198, 198, 200)),
            ("link", bytes(0, 122, 255)),
            ("systemFill", RGBAColor(red: 120 / 255, green: 120 / 255, blue: 128 / 255, alpha: 0.2)),
            ("secondarySystemFill", RGBAColor(red: 120 / 255, green: 120 / 255, blue: 128 / 255, alpha: 0.16)),
            ("tertiarySystemFill", RGBAColor(red: 118 / 255, green: 118 / 255, blue: 128 / 255, alpha: 0.12)),
            ("quaternarySystemFill", RGBAColor(red: 116 / 255, green: 116 / 255, blue: 128 / 255, alpha: 0.08)),
            ("systemBackground", .white), ("secondarySystemBackground", bytes(242, 242, 247)),
            ("tertiarySystemBackground", .white), ("systemGroupedBackground", bytes(242, 242, 247)),
            ("secondarySystemGroupedBackground", .white), ("tertiarySystemGroupedBackground", bytes(242, 242, 247)),
            ("primary", .black), ("secondary", labelGrey(0.6)), ("grey", bytes(142, 142, 147)),
        ]
    }()

    /// The 148 named colours of CSS Color Module Level 4, §6.1 "Named Colors" (the same list
    /// as CSS Color 3 plus `rebeccapurple`; `gray`/`grey` spellings both), as 0xRRGGBB. A name
    /// that SwiftUI also has (`red`, `green`, `blue`, `gray`, `orange`, …) means SwiftUI's
    /// colour in a preset: `namedColors` and `systemColors` are looked up first, so
    /// `named("green")` is #34C759, not CSS's #008000 (write the hex for CSS's value).
    public static let cssColors: [(name: String, rgb: UInt32)] = [
        ("aliceblue", 0xF0F8FF), ("antiquewhite", 0xFAEBD7), ("aqua", 0x00FFFF), ("aquamarine", 0x7FFFD4),
        ("azure", 0xF0FFFF), ("beige", 0xF5F5DC), ("bisque", 0xFFE4C4), ("black", 0x000000),
        ("blanchedalmond", 0xFFEBCD), ("blue", 0x0000FF), ("blueviolet", 0x8A2BE2), ("brown", 0xA52A2A),
        ("burlywood", 0xDEB887), ("cadetblue", 0x5F9EA0), ("chartreuse", 0x7FFF00), ("chocolate", 0xD2691E),
        ("coral", 0xFF7F50), ("cornflowerblue", 0x6495ED), ("cornsilk", 0xFFF8DC), ("crimson", 0xDC143C),
        ("cyan", 0x00FFFF), ("darkblue", 0x00008B), ("darkcyan", 0x008B8B), ("darkgoldenrod", 0xB8860B),
        ("darkgray", 0xA9A9A9), ("darkgreen", 0x006400), ("darkgrey", 0xA9A9A9), ("darkkhaki", 0xBDB76B),
        ("darkmagenta", 0x8B008B), ("darkolivegreen", 0x556B2F), ("darkorange", 0xFF8C00),
        ("darkorchid", 0x9932CC), ("darkred", 0x8B0000), ("darksalmon", 0xE9967A),
        ("darkseagreen", 0x8FBC8F), ("darkslateblue", 0x483D8B), ("darkslategray", 0x2F4F4F),
        ("darkslategrey", 0x2F4F4F), ("darkturquoise", 0x00CED1), ("darkviolet", 0x9400D3),
        ("deeppink", 0xFF1493), ("deepskyblue", 0x00BFFF), ("dimgray", 0x696969), ("dimgrey", 0x696969),
        ("dodgerblue", 0x1E90FF), ("firebrick", 0xB22222), ("floralwhite", 0xFFFAF0),
        ("forestgreen", 0x228B22), ("fuchsia", 0xFF00FF), ("gainsboro", 0xDCDCDC), ("ghostwhite", 0xF8F8FF),
        ("gold", 0xFFD700), ("goldenrod", 0xDAA520), ("gray", 0x808080), ("green", 0x008000),
        ("greenyellow", 0xADFF2F), ("grey", 0x808080), ("honeydew", 0xF0FFF0), ("hotpink", 0xFF69B4),
        ("indianred", 0xCD5C5C), ("indigo", 0x4B0082), ("ivory", 0xFFFFF0), ("khaki", 0xF0E68C),
        ("lavender", 0xE6E6FA), ("lavenderblush", 0xFFF0F5), ("lawngreen", 0x7CFC00),
        ("lemonchiffon", 0xFFFACD), ("lightblue", 0xADD8E6), ("lightcoral", 0xF08080),
        ("lightcyan", 0xE0FFFF), ("lightgoldenrodyellow", 0xFAFAD2), ("lightgray", 0xD3D3D3),
        ("lightgreen", 0x90EE90), ("lightgrey", 0xD3D3D3), ("lightpink", 0xFFB6C1),
        ("lightsalmon", 0xFFA07A), ("lightseagreen", 0x20B2AA), ("lightskyblue", 0x87CEFA),
        ("lightslategray", 0x778899), ("lightslategrey", 0x778899), ("lightsteelblue", 0xB0C4DE),
        ("lightyellow", 0xFFFFE0), ("lime", 0x00FF00), ("limegreen", 0x32CD32), ("linen", 0xFAF0E6),
        ("magenta", 0xFF00FF), ("maroon", 0x800000), ("mediumaquamarine", 0x66CDAA),
        ("mediumblue", 0x0000CD), ("mediumorchid", 0xBA55D3), ("mediumpurple", 0x9370DB),
        ("mediumseagreen", 0x3CB371), ("mediumslateblue", 0x7B68EE), ("mediumspringgreen", 0x00FA9A),
        ("mediumturquoise", 0x48D1CC), ("mediumvioletred", 0xC71585), ("midnightblue", 0x191970),
        ("mintcream", 0xF5FFFA), ("mistyrose", 0xFFE4E1), ("moccasin", 0xFFE4B5), ("navajowhite", 0xFFDEAD),
        ("navy", 0x000080), ("oldlace", 0xFDF5E6), ("olive", 0x808000), ("olivedrab", 0x6B8E23),
        ("orange", 0xFFA500), ("orangered", 0xFF4500), ("orchid", 0xDA70D6), ("palegoldenrod", 0xEEE8AA),
        ("palegreen", 0x98FB98), ("paleturquoise", 0xAFEEEE), ("palevioletred", 0xDB7093),
        ("papayawhip", 0xFFEFD5), ("peachpuff", 0xFFDAB9), ("peru", 0xCD853F), ("pink", 0xFFC0CB),
        ("plum", 0xDDA0DD), ("powderblue", 0xB0E0E6), ("purple", 0x800080), ("rebeccapurple", 0x663399),
        ("red", 0xFF0000), ("rosybrown", 0xBC8F8F), ("royalblue", 0x4169E1), ("saddlebrown", 0x8B4513),
        ("salmon", 0xFA8072), ("sandybrown", 0xF4A460), ("seagreen", 0x2E8B57), ("seashell", 0xFFF5EE),
        ("sienna", 0xA0522D), ("silver", 0xC0C0C0), ("skyblue", 0x87CEEB), ("slateblue", 0x6A5ACD),
        ("slategray", 0x708090), ("slategrey", 0x708090), ("snow", 0xFFFAFA), ("springgreen", 0x00FF7F),
        ("steelblue", 0x4682B4), ("tan", 0xD2B48C), ("teal", 0x008080), ("thistle", 0xD8BFD8),
        ("tomato", 0xFF6347), ("turquoise", 0x40E0D0), ("violet", 0xEE82EE), ("wheat", 0xF5DEB3),
        ("white", 0xFFFFFF), ("whitesmoke", 0xF5F5F5), ("yellow", 0xFFFF00), ("yellowgreen", 0x9ACD32),
    ]

    /// Every accepted name, SwiftUI's first, then UIKit's, then the CSS names SwiftUI and UIKit
    /// do not shadow (candidates for "did you mean …?").
    public static var colorNames: [String] {
        let apple = namedColors.map(\.name) + systemColors.map(\.name)
        let taken = Set(apple.map { $0.lowercased() })
        return apple + cssColors.map(\.name).filter { !taken.contains($0) }
    }

    /// The colour name `text` was most likely meant to be (`sytemRed` → `systemRed`, `tomatoe` →
    /// `tomato`), among every name `colorNames` lists, by `suggestion(for:among:)`; nil when
    /// none is close, or when `text` is no word (hex, a function such as `rgb(…)`).
    public static func nearColorName(_ text: String) -> String? {
        guard !text.isEmpty, text.unicodeScalars.allSatisfy({ $0.properties.isAlphabetic }) else { return nil }
        return suggestion(for: text, among: colorNames)
    }

    /// Lower-cased name → colour, SwiftUI's names winning over UIKit's and both over CSS's.
    private static let colorsByLowercasedName: [String: RGBAColor] = {
        var table: [String: RGBAColor] = [:]
        for (name, rgb) in cssColors {
            table[name] = bytes(
                UInt8(truncatingIfNeeded: rgb >> 16), UInt8(truncatingIfNeeded: rgb >> 8),
                UInt8(truncatingIfNeeded: rgb))
        }
        for (name, color) in systemColors { table[name.lowercased()] = color }
        for (name, color) in namedColors { table[name.lowercased()] = color }
        return table
    }()

    /// The colour called `name`, matched case-insensitively (ASCII) against `namedColors`,
    /// `systemColors` and `cssColors` in that order of precedence, or `nil`.
    public static func named(_ name: String) -> RGBAColor? {
        colorsByLowercasedName[name.lowercased()]
    }

    /// A colour from 8-bit channels (0…255).
    public static func bytes(_ red: UInt8, _ green: UInt8, _ blue: UInt8, _ alpha: UInt8 = 255)
        -> RGBAColor
    {
        RGBAColor(
            red: Double(red) / 255, green: Double(green) / 255, blue: Double(blue) / 255,
            alpha: Double(alpha) / 255)
    }
}
