// SPDX-License-Identifier: GPL-3.0-or-later

import Spec
import Testing

@Suite struct ColorSyntaxTests {
    /// Every name with its documented value, re-typed from the HIG light-appearance table
    /// (iOS 17 era) rather than read back from the implementation.
    static let documented: [(String, String)] = [
        ("red", "#FF3B30"), ("orange", "#FF9500"), ("yellow", "#FFCC00"), ("green", "#34C759"),
        ("mint", "#00C7BE"), ("teal", "#30B0C7"), ("cyan", "#32ADE6"), ("blue", "#007AFF"),
        ("indigo", "#5856D6"), ("purple", "#AF52DE"), ("pink", "#FF2D55"), ("brown", "#A2845E"),
        ("gray", "#8E8E93"), ("white", "#FFFFFF"), ("black", "#000000"), ("clear", "#00000000"),
        ("transparent", "#00000000"), ("accentColor", "#007AFF"),
    ]

    @Test(arguments: documented)
    func namedColorHasItsDocumentedValue(_ entry: (String, String)) throws {
        let (name, hex) = entry
        let color = try #require(RGBAColor(parsing: name))
        #expect(color == RGBAColor(parsing: hex))
        #expect(color.hexString == hex)
    }

    @Test func namesComeInTheDocumentedOrder() {
        #expect(RGBAColor.namedColors.map(\.name) == Self.documented.map(\.0))
        #expect(RGBAColor.colorNames == Self.documented.map(\.0))
    }

    @Test func channelValuesAreBytesOver255() throws {
        let blue = try #require(RGBAColor(parsing: "blue"))
        #expect(blue == RGBAColor(red: 0, green: 122.0 / 255, blue: 1, alpha: 1))
        #expect(RGBAColor(parsing: "clear") == .clear)
        #expect(RGBAColor(parsing: "transparent") == .clear)
        #expect(RGBAColor(parsing: "white") == .white)
        #expect(RGBAColor.named("mint") == RGBAColor(red: 0, green: 199.0 / 255, blue: 190.0 / 255))
        #expect(RGBAColor.named("Mint") == nil)
    }

    @Test func hexForms() {
        #expect(RGBAColor(parsing: "#007aff") == RGBAColor(parsing: "#007AFF"))
        #expect(RGBAColor(parsing: "#0aF") == RGBAColor(red: 0, green: 170.0 / 255, blue: 1))
        #expect(RGBAColor(parsing: "#FFF") == .white)
        // #RGBA doubles each digit, alpha included (CSS Color 4): #F008 is #FF000088.
        #expect(RGBAColor(parsing: "#F008") == RGBAColor(red: 1, green: 0, blue: 0, alpha: 0x88 / 255.0))
        #expect(RGBAColor(parsing: "#0000") == .clear)
        #expect(
            RGBAColor(parsing: "#FF3B3080")
                == RGBAColor(red: 1, green: 59.0 / 255, blue: 48.0 / 255, alpha: 128.0 / 255))
        #expect(RGBAColor(parsing: "#000000ff") == .black)
        #expect(
            RGBAColor(parsing: "#12345600")
                == RGBAColor(red: 0x12 / 255.0, green: 0x34 / 255.0, blue: 0x56 / 255.0, alpha: 0))
    }

    @Test(arguments: [
        "", "#", "#1", "#12", "#12345", "#1234567", "#123456789", "#GGGGGG", "#12 456",
        " #FFFFFF", "#FFFFFF ", "FFFFFF", "##FFF", "#ＦＦＦ", "Blue", "BLUE", "grey", "rgb(0,0,0)",
        "blue ",
        "systemBlue", "accentcolor", "$color",
    ])
    func invalidFormsAreRejected(_ text: String) {
        #expect(RGBAColor(parsing: text) == nil)
    }

    @Test func hexStringRoundsChannels() {
        #expect(RGBAColor(red: 0.5, green: 0, blue: 1).hexString == "#8000FF")
        #expect(RGBAColor(red: 0.2, green: 0.4, blue: 0.6, alpha: 0.5).hexString == "#33669980")
        #expect(RGBAColor(red: 1, green: 1, blue: 1, alpha: 0.999).hexString == "#FFFFFF")
        #expect(RGBAColor(red: 1, green: 1, blue: 1, alpha: 0.997).hexString == "#FFFFFFFE")
        var broken = RGBAColor.white
        broken.red = .nan
        #expect(broken.hexString == "#00FFFF")
    }

    @Test(arguments: ["#000000", "#FFFFFF", "#0A0B0C", "#FEDCBA98", "#01020300", "#7F807F81"])
    func hexStringRoundTrips(_ hex: String) throws {
        let color = try #require(RGBAColor(parsing: hex))
        #expect(color.hexString == hex)
        #expect(RGBAColor(parsing: color.hexString) == color)
    }

    @Test func everyByteValueRoundTrips() throws {
        for byte in 0...255 {
            let hex = String(byte, radix: 16, uppercase: true)
            let pair = hex.count < 2 ? "0" + hex : hex
            let text = "#" + pair + "0000" + pair
            let color = try #require(RGBAColor(parsing: text))
            #expect(color.red == Double(byte) / 255)
            #expect(color.hexString == (byte == 255 ? "#FF0000" : text))
        }
    }

    @Test func acceptedFormsText() {
        #expect(
            RGBAColor.acceptedColorForms
                == "#RRGGBB, #RRGGBBAA, #RGB, #RGBA or a name such as blue, mint, white, clear")
    }
}
