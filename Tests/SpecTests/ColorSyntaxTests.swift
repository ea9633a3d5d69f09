// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
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
        #expect(Array(RGBAColor.colorNames.prefix(Self.documented.count)) == Self.documented.map(\.0))
        #expect(RGBAColor.colorNames.count == Set(RGBAColor.colorNames.map { $0.lowercased() }).count)
    }

    @Test func channelValuesAreBytesOver255() throws {
        let blue = try #require(RGBAColor(parsing: "blue"))
        #expect(blue == RGBAColor(red: 0, green: 122.0 / 255, blue: 1, alpha: 1))
        #expect(RGBAColor(parsing: "clear") == .clear)
        #expect(RGBAColor(parsing: "transparent") == .clear)
        #expect(RGBAColor(parsing: "white") == .white)
        #expect(RGBAColor.named("mint") == RGBAColor(red: 0, green: 199.0 / 255, blue: 190.0 / 255))
        // Names match in any case (the issue: `Red` and `systemRed` were refused).
        #expect(RGBAColor.named("Mint") == RGBAColor.named("mint"))
        #expect(RGBAColor(parsing: "BLUE") == RGBAColor(parsing: "#007AFF"))
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
        " #FFFFFF", "#FFFFFF ", "FFFFFF", "##FFF", "#ＦＦＦ", "blue ", "$color", "0x", "0xFFF",
        "0xFFFFFFF", "0xGGGGGG", "0x12345678A", "redd", "systemBlu", "currentcolor",
        // Functions: wrong arity, mixed legacy types, units where none fit, unknown functions.
        "rgb()", "rgb(1 2)", "rgb(1 2 3 4)", "rgb(1, 2)", "rgb(1, 2, 3, 4, 5)", "rgb(1 2, 3)",
        "rgb(1, 2%, 3)", "rgb(1 2 3 /)", "rgb(1 2 3 / 4 5)", "rgb(1 / 2 3)", "rgb(1deg 2 3)",
        "rgb(none, 2, 3)", "rgb(1e400 0 0)", "rgb(. 0 0)", "rgb(1. 0 0)", "rgb(nan 0 0)",
        "rgb(inf 0 0)", "rgb(0x10 0 0)", "rgb(1 2 3", "rgb 1 2 3)", "rgb(1 2 3))", "rgb((1 2 3)",
        "hsl(1, 2, 3)", "hsl(10% 50% 50%)", "hwb(1, 2%, 3%)", "lab(50% 40 59)",
        "oklch(62% 0.25 29)", "color(srgb 1 0 0)", "calc(1)", "rgb(calc(1) 2 3)",
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
                == "#RRGGBB, #RRGGBBAA, #RGB, #RGBA, 0xRRGGBB, rgb(255 59 48 / 50%), rgba(255, 59, 48, 0.5), "
                + "hsl(4 100% 59%), hwb(…), or a name: SwiftUI's (blue, mint), UIKit's (systemRed, "
                + "secondaryLabel) or CSS's (tomato, rebeccapurple), any case")
    }

    /// The issue's examples, each refused before: `rgb()`, `hsl()`, `grey`, `Red`, `systemRed`,
    /// `tomato`, `0xFF3B30`. Expected bytes computed by hand (hsl: CSS Color 4 §7.1's formula,
    /// worked through on paper for hue 0 and 120).
    @Test func theIssuesFormsAreAccepted() throws {
        let cases: [(String, String)] = [
            ("rgb(255,59,48)", "#FF3B30"), ("rgb(255 59 48)", "#FF3B30"), ("RGB(255 59 48 / 50%)", "#FF3B3080"),
            ("rgba(255, 59, 48, 0.5)", "#FF3B3080"), ("rgb(100%, 0%, 0%)", "#FF0000"),
            ("rgb(100% 0 50%)", "#FF0080"), ("rgb(300 -5 0)", "#FF0000"), ("rgb(none 255 none)", "#00FF00"),
            ("rgb( 0 0 255 / 25% )", "#0000FF40"), ("rgba(0,0,0,2)", "#000000"),
            ("hsl(0 100% 50%)", "#FF0000"), ("hsl(120, 100%, 25%)", "#008000"), ("hsl(120 100 25)", "#008000"),
            ("hsla(0, 0%, 100%, 0.5)", "#FFFFFF80"), ("hsl(360deg 100% 50%)", "#FF0000"),
            ("hsl(0.5turn 100% 50%)", "#00FFFF"), ("hsl(200grad 100% 50%)", "#00FFFF"),
            ("hsl(-120 100% 50%)", "#0000FF"), ("hsl(0 0% 150%)", "#FFFFFF"),
            ("hwb(0 0% 0%)", "#FF0000"), ("hwb(0 60% 60%)", "#808080"), ("hwb(120 0% 50%)", "#008000"),
            ("0xFF3B30", "#FF3B30"), ("0Xff3b3080", "#FF3B3080"),
            ("grey", "#8E8E93"), ("Red", "#FF3B30"), ("systemRed", "#FF3B30"), ("SYSTEMRED", "#FF3B30"),
            ("systemGray6", "#F2F2F7"), ("secondaryLabel", "#3C3C4399"), ("systemBackground", "#FFFFFF"),
            ("tomato", "#FF6347"), ("Tomato", "#FF6347"), ("rebeccapurple", "#663399"),
            ("darkslategrey", "#2F4F4F"), ("green", "#34C759"), ("accentcolor", "#007AFF"),
        ]
        for (text, hex) in cases {
            let color = try #require(RGBAColor(parsing: text), "\(text)")
            #expect(color.hexString == hex, "\(text)")
        }
        // rad: π rad is 180°, cyan.
        let cyan = try #require(RGBAColor(parsing: "hsl(3.14159265358979rad 100% 50%)"))
        #expect(cyan.hexString == "#00FFFF")
    }

    /// Every CSS named colour against Pillow's `ImageColor.colormap` (an independent copy of the
    /// CSS list), except the names SwiftUI's or UIKit's tables take over, which must keep their
    /// Apple values; and `hsl()` against Pillow's own conversion on a grid of hues.
    @Test func cssNamesAndHSLMatchPillow() throws {
        let script = """
            import json
            from PIL import ImageColor
            names = {k: v.upper() for k, v in ImageColor.colormap.items()}
            hsl = {}
            for h in range(0, 360, 15):
                for s in (0, 30, 100):
                    for l in (10, 50, 85):
                        hsl[f"hsl({h}, {s}%, {l}%)"] = ImageColor.getrgb(f"hsl({h}, {s}%, {l}%)")
            print(json.dumps({"names": names, "hsl": hsl}))
            """
        guard let output = try? PythonRunner.run(script) else {
            Issue.record("/usr/bin/python3 with Pillow is needed (make deps installs python3-pil)")
            return
        }
        let decoded = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any]
        let names = try #require(decoded?["names"] as? [String: String])
        #expect(names.count == 148)
        #expect(RGBAColor.cssColors.count == 148)
        let apple = Set(
            (RGBAColor.namedColors.map(\.name) + RGBAColor.systemColors.map(\.name)).map { $0.lowercased() })
        for (name, hex) in names {
            let color = try #require(RGBAColor(parsing: name), "\(name)")
            if apple.contains(name) {
                #expect(color == RGBAColor.named(name), "\(name)")
            } else {
                #expect(color.hexString == hex, "\(name)")
            }
        }
        #expect(Set(RGBAColor.cssColors.map(\.name)) == Set(names.keys))
        let hsl = try #require(decoded?["hsl"] as? [String: [Int]])
        #expect(hsl.count == 216)
        for (text, bytes) in hsl {
            // Pillow's colorsys route lands a hair either side of x.5 where CSS's formula is
            // exact, so each channel must be within half a level of Pillow's byte.
            let color = try #require(RGBAColor(parsing: text), "\(text)")
            for (channel, byte) in zip([color.red, color.green, color.blue], bytes) {
                #expect(abs(channel * 255 - Double(byte)) <= 0.5 + 1e-9, "\(text)")
            }
        }
    }
}

/// Runs a Python script with Debian's `/usr/bin/python3` (the one with Pillow) and returns its
/// standard output; throws when it cannot start or exits non-zero.
enum PythonRunner {
    struct Failure: Error { var status: Int32 }

    static func run(_ script: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", script]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw Failure(status: process.terminationStatus) }
        return String(decoding: data, as: UTF8.self)
    }
}
