// SPDX-License-Identifier: GPL-3.0-or-later

import Raster
import Spec
import Testing

@testable import Encode

/// The survey takes rows that equal the previous frame's from that frame, numbers colours per
/// run of frames and splits the frames over threads; whatever it does, it must find what
/// counting every pixel of every frame finds.
@Suite struct FrameSurveyTests {
    /// Frames that repaint a few rectangles each, from a pool of `pool` colours (some
    /// half-transparent, some clear), one colour per rectangle or a different one per pixel,
    /// so that many rows stay as they were and the colour count per frame and per run of
    /// frames passes 255 or not depending on `pool`.
    static func animation(seed: UInt64, pool: Int, width: Int, height: Int, frames: Int) -> [RGBAImage] {
        var random = TestRandom(state: seed)
        func colour(_ i: Int) -> Pixel {
            if i % 13 == 0 { return .clear }
            return Pixel(
                UInt8(i % 256), UInt8((i / 256 * 37 + i % 7) % 256), UInt8(i * 7 % 256), i % 11 == 0 ? 128 : 255)
        }
        var grid = [Pixel](repeating: colour(1), count: width * height)
        var result: [RGBAImage] = []
        for _ in 0..<frames {
            for _ in 0..<random.next(4) {
                let x0 = random.next(width)
                let y0 = random.next(height)
                let x1 = x0 + 1 + random.next(width - x0)
                let y1 = y0 + 1 + random.next(min(height - y0, 6))
                let noisy = random.next(3) == 0
                let paint = colour(random.next(pool))
                for y in y0..<y1 {
                    for x in x0..<x1 { grid[y * width + x] = noisy ? colour(random.next(pool)) : paint }
                }
            }
            let frame = grid
            result.append(makeImage(width: width, height: height) { x, y in frame[y * width + x] })
        }
        return result
    }

    /// What the survey must find, by counting every pixel of every flattened frame.
    static func expectMatchesPlainCounting(_ flattened: FlattenedFrames, workers: Int, _ name: String) {
        let survey = flattened.survey(workers: workers)
        var colours: [UInt32] = []
        var counts: [Int] = []
        var position: [UInt32: Int] = [:]
        var anyTransparent = false
        for k in 0..<flattened.count {
            let frame = flattened.frame(k)
            let own = Set(frame.filter { $0 != FlattenedFrames.transparent })
            for color in frame {
                if color == FlattenedFrames.transparent {
                    anyTransparent = true
                    continue
                }
                if let at = position[color] {
                    counts[at] += 1
                } else {
                    position[color] = colours.count
                    colours.append(color)
                    counts.append(1)
                }
            }
            // Every pixel's slot stands for its colour.
            let table = survey.frameColors[k]
            var shown: [UInt32]? = nil
            if let slots = survey.frameSlots[k] {
                #expect(table.count <= 255, "\(name), frame \(k)")
                shown = slots.map {
                    $0 == ColorHistogram.transparentSlot ? FlattenedFrames.transparent : table[Int($0)]
                }
            }
            if let wide = survey.frameWideSlots[k] {
                #expect(survey.frameSlots[k] == nil, "\(name), frame \(k)")
                #expect(table.count > 255 && table.count <= 65535, "\(name), frame \(k)")
                shown = wide.map {
                    $0 == ColorHistogram.wideTransparentSlot ? FlattenedFrames.transparent : table[Int($0)]
                }
            }
            if let shown {
                #expect(shown == frame, "\(name), frame \(k), \(workers) workers")
            } else {
                #expect(table.count > 65535 || own.count > 65535, "\(name), frame \(k): no slots")
            }
            // A frame of more than 255 colours cannot have one-byte slots.
            if own.count > 255 { #expect(survey.frameSlots[k] == nil, "\(name), frame \(k)") }
        }
        // A run's colours are the colours of its frames (the frames sharing its array).
        var k = 0
        while k < flattened.count {
            let run = survey.frameColors[k]
            let storage = run.withUnsafeBufferPointer { $0.baseAddress }
            var shown = Set<UInt32>()
            while k < flattened.count, survey.frameColors[k].withUnsafeBufferPointer({ $0.baseAddress }) == storage {
                shown.formUnion(flattened.frame(k).filter { $0 != FlattenedFrames.transparent })
                k += 1
            }
            #expect(Set(run) == shown && run.count == shown.count, "\(name), run ending before frame \(k)")
        }
        #expect(survey.histogram.colors == colours, "\(name), \(workers) workers")
        #expect(survey.histogram.counts == counts, "\(name), \(workers) workers")
        #expect(survey.hasTransparency == anyTransparent, "\(name)")
    }

    /// Pools of 6 to 1 200 colours: runs that stay under 255 colours, runs that pass it in a
    /// later frame (a new run starts there), frames that need two-byte slots by themselves; a
    /// matte and a threshold; one to five threads.
    @Test(arguments: [6, 60, 200, 300, 1200])
    func surveyFindsWhatCountingEveryPixelFinds(pool: Int) {
        for seed in 1...12 {
            let width = 9 + Int(seed) * 5
            let height = 7 + Int(seed) * 3
            let frames = Self.animation(seed: UInt64(seed), pool: pool, width: width, height: height, frames: 14)
            for matte in [true, false] {
                let options = GIFOptions(matte: matte ? RGBAColor(red: 1, green: 0.5, blue: 0.25) : nil)
                let flattened = GIFAlphaPolicy(options: options).flatten(frames, width: width, height: height)
                var collapsed = 0
                if !matte {
                    for frame in frames {
                        collapsed += stride(from: 3, to: frame.pixels.count, by: 4).count {
                            frame.pixels[$0] != 0 && frame.pixels[$0] != 255
                        }
                    }
                }
                for workers in [1, 2, 3, 5] {
                    let name = "pool \(pool), seed \(seed), matte \(matte)"
                    Self.expectMatchesPlainCounting(flattened, workers: workers, name)
                    #expect(flattened.survey(workers: workers).collapsedEdgePixels == collapsed, "\(name)")
                }
            }
        }
    }

    /// A frame of 67 600 colours has no slots (nor does the frame after it, which changes one
    /// row of it); frames of few colours before and after it keep theirs.
    @Test func framesOfMoreThan65535ColoursHaveNoSlots() {
        let side = 260
        let few = makeImage(width: side, height: side) { x, _ in Pixel(UInt8(x % 3 * 100), 9, 9) }
        let many = makeImage(width: side, height: side) { x, y in
            let i = y * side + x
            return Pixel(UInt8(i & 0xFF), UInt8(i >> 8 & 0xFF), UInt8(i >> 16))
        }
        var changedRow = many
        for x in 0..<side { changedRow.pixels[4 * (5 * side + x) + 2] = 200 }
        let frames = [few, few, many, changedRow, few]
        let flattened = GIFAlphaPolicy(options: GIFOptions()).flatten(frames, width: side, height: side)
        for workers in [1, 2] {
            Self.expectMatchesPlainCounting(flattened, workers: workers, "65 535+")
            let survey = flattened.survey(workers: workers)
            #expect(survey.frameSlots[2] == nil && survey.frameWideSlots[2] == nil)
            #expect(survey.frameSlots[3] == nil && survey.frameWideSlots[3] == nil)
            #expect(survey.frameSlots[0] != nil && survey.frameSlots[1] != nil)
        }
    }

    /// A run of two-byte slots that a later frame would take past 65 535 colours: the later
    /// frame starts a run of its own (51 200 colours each, 76 800 together).
    @Test func aLaterFramePassing65535ColoursStartsANewRun() {
        let width = 256
        let height = 200
        let first = makeImage(width: width, height: height) { x, y in
            let i = y * width + x
            return Pixel(UInt8(i & 0xFF), UInt8(i >> 8 & 0xFF), 0)
        }
        let second = makeImage(width: width, height: height) { x, y in
            let i = y * width + x
            return Pixel(UInt8(i & 0xFF), UInt8(i >> 8 & 0xFF), y % 2 == 0 ? 7 : 0)
        }
        let flattened = GIFAlphaPolicy(options: GIFOptions()).flatten(
            [first, second, first], width: width, height: height)
        Self.expectMatchesPlainCounting(flattened, workers: 1, "two-byte run passed by a later frame")
        let survey = flattened.survey(workers: 1)
        #expect(survey.frameWideSlots.allSatisfy { $0 != nil })
        #expect(survey.frameColors.map(\.count) == [51_200, 51_200, 51_200])
    }

    /// A first frame whose 256th (or 65 536th) colour is the first pixel of a row goes on with
    /// wider slots (or none) from that row without counting its half-transparent pixels twice:
    /// four pixels of alpha 100 on that row, and no others, without a matte.
    @Test(arguments: [16, 256])
    func widerSlotsFromARowStartCountCollapsedPixelsOnce(width: Int) {
        // `width × width` pixels: every colour but the last pixel's new (it repeats colour 0),
        // so the row after them starts with colour number `width²`.
        let distinct = width * width - 1
        let frame = makeImage(width: width, height: width + 1) { x, y in
            let i = y * width + x
            if i < distinct { return Pixel(UInt8(i & 0xFF), UInt8(i >> 8), 1) }
            if i == distinct { return Pixel(0, 0, 1) }
            if (1...4).contains(x) { return Pixel(9, 9, 9, 100) }
            return Pixel(200, 7, 7)
        }
        let flattened = GIFAlphaPolicy(options: GIFOptions(matte: nil)).flatten(
            [frame], width: width, height: width + 1)
        Self.expectMatchesPlainCounting(flattened, workers: 1, "row start, width \(width)")
        let survey = flattened.survey(workers: 1)
        #expect(survey.collapsedEdgePixels == 4)
        #expect(width == 16 ? survey.frameWideSlots[0] != nil : survey.frameWideSlots[0] == nil)
    }

    /// Segments cover the frames in order, shrink as they go, and are few.
    @Test func segmentsCoverTheFramesAndShrink() {
        #expect(FlattenedFrames.segments(count: 180, workers: 1) == [0..<180])
        #expect(FlattenedFrames.segments(count: 180, workers: 2).first == 0..<45)
        #expect(FlattenedFrames.segments(count: 0, workers: 1).isEmpty)
        #expect(FlattenedFrames.segments(count: 0, workers: 2).isEmpty)
        for count in 0...300 {
            for workers in 1...6 {
                let segments = FlattenedFrames.segments(count: count, workers: workers)
                #expect(segments.flatMap { Array($0) } == Array(0..<count), "\(count) frames, \(workers) workers")
                #expect(segments.allSatisfy { !$0.isEmpty })
                let sizes = segments.map(\.count)
                #expect(zip(sizes, sizes.dropFirst()).allSatisfy { $0 >= $1 }, "\(count), \(workers): \(sizes)")
                #expect(segments.count <= 8 * workers + 1, "\(count), \(workers): \(sizes)")
            }
        }
    }
}
