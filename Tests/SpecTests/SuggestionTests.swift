// SPDX-License-Identifier: GPL-3.0-or-later

import Spec
import Testing

@Suite struct SuggestionTests {
    static let strokeKeys = [
        "color", "width", "lineCap", "lineJoin", "lineDashPattern", "lineDashPhase", "strokeWidth",
        "strokeStart", "strokeEnd",
    ]

    /// (typed word, expected suggestion)
    static let cases: [(String, String?)] = [
        ("strokWidth", "strokeWidth"),  // one deletion
        ("colr", "color"),  // one deletion, 4 letters
        ("xyz", nil),
        ("widht", "width"),  // transposition counts 1
        ("StrokeWidth", "strokeWidth"),  // case only
        ("strokewidth", "strokeWidth"),
        ("linecap", "lineCap"),
        ("lineDashPatern", "lineDashPattern"),
        ("strokeWdt", "strokeWidth"),  // two edits in 9 letters
        ("strkWdt", nil),  // four edits
        ("lineJion", "lineJoin"),
        ("strokeEnds", "strokeEnd"),
        ("colour", "color"),
        ("", nil),
    ]

    @Test(arguments: cases)
    func suggestsPlausibleTypos(_ testCase: (String, String?)) {
        let (word, expected) = testCase
        #expect(suggestion(for: word, among: Self.strokeKeys) == expected)
    }

    @Test func shortWordsOnlyForgiveCase() {
        #expect(suggestion(for: "x", among: ["y"]) == nil)
        #expect(suggestion(for: "X", among: ["x"]) == "x")
        #expect(suggestion(for: "fp", among: ["fps"]) == nil)  // 1 edit > 2/3
        #expect(suggestion(for: "fsp", among: ["fps"]) == "fps")  // 1 transposition ≤ 3/3
        #expect(suggestion(for: "abc", among: ["xyz", "ab"]) == "ab")
    }

    @Test func closestWinsAndTiesGoToTheEarlierCandidate() {
        #expect(suggestion(for: "strokeStar", among: ["strokeEnd", "strokeStart"]) == "strokeStart")
        #expect(suggestion(for: "cat", among: ["bat", "cut"]) == "bat")
        #expect(suggestion(for: "cat", among: ["cut", "bat"]) == "cut")
        #expect(suggestion(for: "Cat", among: ["bat", "cat"]) == "cat")  // case costs less than a letter
        #expect(suggestion(for: "blue", among: RGBAColor.colorNames) == "blue")
    }

    @Test func colourNamesFindTheirSpelling() {
        #expect(suggestion(for: "gery", among: RGBAColor.colorNames) == "grey")
        #expect(suggestion(for: "Blue", among: RGBAColor.colorNames) == "blue")
        #expect(suggestion(for: "accentColour", among: RGBAColor.colorNames) == "accentColor")
        #expect(suggestion(for: "sytemRed", among: RGBAColor.colorNames) == "systemRed")
        #expect(suggestion(for: "tomatoe", among: RGBAColor.colorNames) == "tomato")
        #expect(suggestion(for: "ultraviolet", among: RGBAColor.colorNames) == nil)
    }
}
