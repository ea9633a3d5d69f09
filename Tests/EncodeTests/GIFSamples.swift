// SPDX-License-Identifier: GPL-3.0-or-later

import Raster

@testable import Encode

/// Deterministic pseudo-random numbers for test images (64-bit LCG, Knuth's MMIX constants).
struct TestRandom {
    var state: UInt64
    mutating func next(_ bound: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int(state >> 33) % bound
    }
}

/// Animations that exercise every path of the frame optimiser. Each has only alpha 0 or 255
/// (or a matte), so the expected screen is known exactly.
enum GIFSamples {
    /// A green bar and a red dot that shows on odd frames only; the bar's last pixel turns
    /// yellow with the dot and stays so through the next frame (then back, two frames later).
    /// The dot's frame covers most of the bar, so clearing it (disposal 2) would force the
    /// next frame to repaint the bar, while restoring the previous screen (disposal 3) leaves
    /// only the one pixel to paint.
    static func blink() -> [RGBAImage] {
        (0..<6).map { k in
            makeImage(width: 24, height: 16) { x, y in
                if x == 23, y == 13 { return (k + 1) / 2 % 2 == 1 ? Pixel(250, 220, 0) : Pixel(0, 170, 60) }
                if (12..<15).contains(y) { return Pixel(0, 170, 60) }
                if k % 2 == 1, (4..<9).contains(x), (2..<7).contains(y) { return Pixel(230, 20, 20) }
                return .clear
            }
        }
    }

    /// A blue square moving right over a transparent screen, leaving nothing behind.
    static func movingSquare() -> [RGBAImage] {
        (0..<5).map { k in
            makeImage(width: 20, height: 12) { x, y in
                (3 * k..<3 * k + 5).contains(x) && (3..<8).contains(y) ? Pixel(0, 122, 255) : .clear
            }
        }
    }

    /// 200×120 of five colours at random: long enough for the LZW table to fill and clear
    /// several times; frame 1 repaints a band.
    static func noise() -> [RGBAImage] {
        let colours = [Pixel(0, 0, 0), Pixel(255, 255, 255), Pixel(200, 0, 0), Pixel(0, 90, 200), Pixel(9, 99, 9)]
        var random = TestRandom(state: 11)
        let base = (0..<(200 * 120)).map { _ in random.next(colours.count) }
        return (0..<2).map { k in
            makeImage(width: 200, height: 120) { x, y in
                if k == 1, (40..<60).contains(y) { return colours[(x / 7) % colours.count] }
                return colours[base[y * 200 + x]]
            }
        }
    }

    /// 200 colours in frame 0; frame 1 changes one small block using two of them, so a
    /// 2-entry local colour table beats 8-bit codes.
    static func fewColoursLater() -> [RGBAImage] {
        func colour(_ i: Int) -> Pixel { Pixel(UInt8(i), UInt8(255 - i), UInt8((i * 7) % 256)) }
        let frame0 = makeImage(width: 40, height: 40) { x, y in colour((y * 40 + x) % 200) }
        let frame1 = makeImage(width: 40, height: 40) { x, y in
            if (8..<32).contains(x), (8..<32).contains(y) { return (x + y) % 2 == 0 ? colour(3) : colour(150) }
            return colour((y * 40 + x) % 200)
        }
        return [frame0, frame1]
    }

    /// 40 frames that each paint the same 24×24 square with noise in four colours no other
    /// frame uses (160 colours in all): only the first few frames' colours can have small
    /// global indices.
    static func fourNewColoursPerFrame() -> [RGBAImage] {
        func colour(_ i: Int) -> Pixel { Pixel(UInt8(i), UInt8(255 - i), UInt8((i * 37) % 256)) }
        var random = TestRandom(state: 4)
        return (0..<40).map { k in
            makeImage(width: 32, height: 32) { x, y in
                guard (4..<28).contains(x), (4..<28).contains(y) else { return .clear }
                return colour(4 * k + random.next(4))
            }
        }
    }

    /// Frames A, A, B, B, B, A: merged to A, B, A.
    static func repeats() -> [RGBAImage] {
        let a = makeImage(width: 6, height: 6) { x, _ in x < 3 ? Pixel(255, 0, 0) : .clear }
        let b = makeImage(width: 6, height: 6) { _, y in y < 2 ? Pixel(0, 0, 255) : .clear }
        return [a, a, b, b, b, a]
    }

    /// Random small animations: overlapping rectangles in six colours with transparent holes;
    /// some frames repeat the previous one.
    static func random(seed: UInt64) -> [RGBAImage] {
        var random = TestRandom(state: seed)
        let colours = [
            Pixel(255, 0, 0), Pixel(0, 200, 0), Pixel(0, 0, 255), Pixel(250, 250, 0), Pixel(1, 2, 3), .clear,
        ]
        let width = 5 + random.next(12)
        let height = 4 + random.next(10)
        var frames: [RGBAImage] = []
        var current = makeImage(width: width, height: height) { _, _ in .clear }
        for _ in 0..<(3 + random.next(8)) {
            if random.next(4) != 0 {
                for _ in 0..<(1 + random.next(3)) {
                    let x0 = random.next(width)
                    let y0 = random.next(height)
                    let x1 = x0 + 1 + random.next(width - x0)
                    let y1 = y0 + 1 + random.next(height - y0)
                    let paint = colours[random.next(colours.count)]
                    let before = current
                    current = makeImage(width: width, height: height) { x, y in
                        (x0..<x1).contains(x) && (y0..<y1).contains(y) ? paint : pixel(before, x, y)
                    }
                }
            }
            frames.append(current)
        }
        return frames
    }
}
