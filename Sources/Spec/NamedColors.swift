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

    /// The accepted names in `namedColors` order (candidates for "did you mean …?").
    public static var colorNames: [String] { namedColors.map(\.name) }

    /// The colour called `name` (exact, case-sensitive spelling), or `nil`.
    public static func named(_ name: String) -> RGBAColor? {
        namedColors.first { $0.name == name }?.color
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
