// SPDX-License-Identifier: GPL-3.0-or-later

import Encode
import Foundation
import Testing

/// A Lottie file's slots as params through the real binary: `list` shows them, `--set` changes
/// the drawn colour of every property that names the slot, a bad `--set` exits 64 with the
/// presets' message and writes nothing.
@Suite struct LottieSlotsCLITests {
    static let slots = packageRoot + "/Tests/LottieImportTests/Fixtures/lottie/slots.json"

    @Test func listShowsTheSlotsAsParams() throws {
        let dir = try temporaryDirectory()
        let run = try runTool(["list", Self.slots], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("  params:\n"), "\(run.stdout)")
        #expect(
            run.stdout.contains("    accent = #FF0000  colour  Lottie slot, used at $.layers[0].shapes[0].it[1].c\n"),
            "\(run.stdout)")
        #expect(
            run.stdout.contains(
                "    fade   = 100      number  Lottie slot, used at $.layers[0].shapes[1].it[1].o (0…100)\n"),
            "\(run.stdout)")
        #expect(
            run.stdout.contains("    spot   = 70 40    string  Lottie slot, used at $.layers[0].shapes[1].it[0].p\n"),
            "\(run.stdout)")
        #expect(!run.stdout.contains("spin"))
    }

    @Test func setRecoloursEveryUseOfTheSlot() throws {
        let dir = try temporaryDirectory()
        let plain = try runTool([Self.slots, "-o", "a.gif", "-q"], in: dir)
        #expect(plain.status == 0, "\(plain.stderr)")
        let set = try runTool([Self.slots, "-o", "b.gif", "--set", "accent=#0000FF", "-q"], in: dir)
        #expect(set.status == 0, "\(set.stderr)")
        let a = try GIFDecoder.decode(readBytes(dir + "/a.gif")).frames[0].canvas
        let b = try GIFDecoder.decode(readBytes(dir + "/b.gif")).frames[0].canvas
        // Both rectangles (x 10…30 and 60…80, y 20…60 of 100×80) change from red to blue.
        for x in [20, 70] {
            let o = a.offset(x: x, y: 40)
            #expect(Array(a.pixels[o..<o + 4]) == [255, 0, 0, 255])
            #expect(Array(b.pixels[o..<o + 4]) == [0, 0, 255, 255])
        }
    }

    /// A vector slot through the real command line: a bare comma would make a `--set` list, so
    /// the value is written with spaces or with commas inside parentheses; both move the second
    /// rectangle (x 60…80) up to centre y 25 (y 5…45), where it was at y 20…60.
    @Test func aVectorSlotIsSetWithSpacesOrParentheses() throws {
        let dir = try temporaryDirectory()
        for (name, value) in [("s.gif", "spot=70 25"), ("p.gif", "spot=(70,25)")] {
            let run = try runTool([Self.slots, "-o", name, "--set", value, "-q"], in: dir)
            #expect(run.status == 0, "\(value): \(run.stderr)")
            let canvas = try GIFDecoder.decode(readBytes(dir + "/" + name)).frames[0].canvas
            #expect(canvas.pixels[canvas.offset(x: 70, y: 10) + 3] == 255, "\(value)")
            #expect(canvas.pixels[canvas.offset(x: 70, y: 50) + 3] == 0, "\(value)")
        }
        #expect(readBytes(dir + "/s.gif") == readBytes(dir + "/p.gif"))
        let bare = try runTool([Self.slots, "-o", "b.gif", "--set", "spot=70,25"], in: dir)
        #expect(bare.status == 64)
        #expect(
            bare.stderr.contains(
                "--set spot=70: expected 2 numbers separated by spaces, like the default 70 40, or (x,y)"),
            "\(bare.stderr)")
    }

    @Test func badSetExits64WithThePresetsMessageAndWritesNothing() throws {
        let dir = try temporaryDirectory()
        let run = try runTool([Self.slots, "-o", "c.gif", "--set", "acent=blue"], in: dir)
        #expect(run.status == 64)
        #expect(
            run.stderr.contains(
                "\(Self.slots): error: --set acent: the preset has no parameter \"acent\"; did you mean \"accent\"?"),
            "\(run.stderr)")
        let range = try runTool([Self.slots, "-o", "c.gif", "--set", "fade=101"], in: dir)
        #expect(range.status == 64)
        #expect(range.stderr.contains("--set fade=101: must be at most 100"), "\(range.stderr)")
        #expect(listing(dir).isEmpty)
    }
}
