// SPDX-License-Identifier: GPL-3.0-or-later

import Testing

@testable import Encode

/// The plan keeps every frame's LZW stream until the file is written, so what each stream holds
/// beyond its bytes grows with the loop (issue 18): each must sit in a buffer of about its own
/// size, not the one reserved while compressing (half its rectangle's pixels).
@Suite struct GIFPlanMemoryTests {
    /// 200×200 frames of one colour with an 8×8 square moving along a row: frame 0 covers the
    /// screen (40 000 pixels, a 20 kB compression buffer) and compresses to a few hundred bytes.
    static func frames(count: Int) -> [IndexedFrame] {
        (0..<count).map { k in
            var indices = [UInt8](repeating: 3, count: 200 * 200)
            for y in 96..<104 {
                for x in (4 * k)..<(4 * k + 8) { indices[y * 200 + x] = 1 }
            }
            return IndexedFrame(indices: indices)
        }
    }

    @Test(arguments: [0, 4])
    func everyStreamIsKeptInABufferOfItsOwnSize(lossy: Int) throws {
        let palette = GIFPalette(
            opaqueColors: [0xFF_00_00, 0x00_FF_00, 0x00_00_FF], transparentIndex: 0, quantized: false)
        let frames = Self.frames(count: 40)
        let plan = try GIFFrameOptimizer.plan(
            frames: frames, delays: Array(repeating: 4, count: frames.count), palette: palette, width: 200,
            height: 200, loopCount: 0, lossy: lossy, workers: 2)
        #expect(plan.frames.count == 40)
        // Frame 0's stream is tiny next to its screen-sized rectangle, so a buffer kept as
        // reserved would be about a hundred times its bytes.
        #expect(plan.frames[0].rect == GIFRect(x: 0, y: 0, width: 200, height: 200))
        #expect(plan.frames[0].imageData.count < 1000)
        for (k, frame) in plan.frames.enumerated() {
            let bytes = frame.imageData.count
            #expect(
                frame.imageData.capacity <= bytes + bytes / 8 + 64,
                "frame \(k): \(bytes) bytes held in \(frame.imageData.capacity)")
        }
        // Still a GIF that shows the frames: frame 5's square is where it was drawn.
        let decoded = try GIFDecoder.decode(try GIFWriter.write(plan))
        let canvas = decoded.frames[5].canvas
        let inside = 4 * (100 * 200 + 24)
        let outside = 4 * (100 * 200 + 40)
        #expect(Array(canvas.pixels[inside..<(inside + 4)]) == [0xFF, 0, 0, 255])
        #expect(Array(canvas.pixels[outside..<(outside + 4)]) == [0, 0, 0xFF, 255])
    }

    @Test func fittedCopiesIntoAnExactBufferAndKeepsTheBytes() {
        var data: [UInt8] = []
        data.reserveCapacity(20_000)
        data += (0..<300).map { UInt8(truncatingIfNeeded: $0 * 7) }
        let fitted = GIFFrameOptimizer.fitted(data)
        #expect(fitted == data)
        #expect(fitted.capacity < 400)
        // A buffer already close to its size is handed back as it is.
        let tight = [UInt8](repeating: 9, count: 500)
        #expect(GIFFrameOptimizer.fitted(tight).capacity == tight.capacity)
    }
}
