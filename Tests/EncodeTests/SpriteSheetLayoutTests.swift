// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Raster
import Testing

@testable import Encode

/// 8×6 frame `k`: transparent, with a 3×2 block of distinct colours at (1 + k, 2).
private func sprite(_ k: Int) -> RGBAImage {
    makeImage(width: 8, height: 6) { x, y in
        let u = x - 1 - k
        let v = y - 2
        guard (0..<3).contains(u), (0..<2).contains(v) else { return .clear }
        return Pixel(UInt8(40 * u + 10 * k), UInt8(100 + 50 * v), 7, UInt8(120 + 60 * v))
    }
}

private func crop(_ image: RGBAImage, x: Int, y: Int, width: Int, height: Int) -> RGBAImage {
    makeImage(width: width, height: height) { u, v in pixel(image, x + u, y + v) }
}

private func options(
    layout: SheetLayout = .grid, columns: Int? = nil, padding: Int = 0, extrude: Int = 0, trim: Bool = false
) -> SpriteSheetOptions {
    SpriteSheetOptions(
        name: "s", imageName: "s.png", columns: columns, padding: padding, extrude: extrude, trim: trim,
        layout: layout, frameRate: 10, loopSeconds: 0.3)
}

@Test func trimmingCutsToTheOpaqueBoxAndSaysWhereItCameFrom() throws {
    let frames = (0..<3).map(sprite)
    let sheet = try SpriteSheetBuilder.build(frames: frames, durations: [100, 100, 100], options: options(trim: true))
    // Each frame keeps only its 3×2 block; a 2×2 grid of 3×2 cells.
    #expect(sheet.image.width == 6 && sheet.image.height == 4)
    for (k, record) in sheet.frames.enumerated() {
        #expect([record.width, record.height] == [3, 2] as [Int])
        #expect(
            [record.sourceX, record.sourceY, record.sourceWidth, record.sourceHeight] == [1 + k, 2, 8, 6] as [Int])
        #expect(record.trimmed)
        #expect(
            crop(sheet.image, x: record.x, y: record.y, width: 3, height: 2)
                == crop(frames[k], x: 1 + k, y: 2, width: 3, height: 2))
    }
    let root = try #require(try JSONSerialization.jsonObject(with: Data(sheet.json)) as? [String: Any])
    let hash = try #require(root["frames"] as? [String: [String: Any]])
    let list = (0..<hash.count).compactMap { hash[String($0)] }
    #expect(list[2]["trimmed"] as? Bool == true)
    #expect(list[2]["spriteSourceSize"] as? [String: Int] == ["x": 3, "y": 2, "w": 3, "h": 2])
    #expect(list[2]["sourceSize"] as? [String: Int] == ["w": 8, "h": 6])
    #expect(list[2]["frame"] as? [String: Int] == ["x": 0, "y": 2, "w": 3, "h": 2])
}

@Test func anEmptyFrameTrimsToOneTransparentPixel() throws {
    let empty = makeImage(width: 8, height: 6) { _, _ in .clear }
    let sheet = try SpriteSheetBuilder.build(
        frames: [empty, sprite(0)], durations: [50, 50], options: options(layout: .horizontal, trim: true))
    #expect([sheet.frames[0].width, sheet.frames[0].height, sheet.frames[0].sourceX] == [1, 1, 0] as [Int])
    // Horizontal: cells side by side at their own widths: 1 + 3.
    #expect(sheet.image.width == 4 && sheet.image.height == 2)
    #expect(sheet.frames.map(\.x) == [0, 1])
}

@Test func horizontalAndVerticalLayoutsAreOneRowOrColumn() throws {
    let frames = (0..<3).map(sprite)
    let row = try SpriteSheetBuilder.build(
        frames: frames, durations: [1, 1, 1], options: options(layout: .horizontal, padding: 1))
    #expect(row.columns == 3 && row.rows == 1)
    #expect(row.image.width == 3 * 8 + 4 && row.image.height == 6 + 2)
    #expect(row.frames.map(\.x) == [1, 10, 19] && row.frames.map(\.y) == [1, 1, 1])
    let column = try SpriteSheetBuilder.build(
        frames: frames, durations: [1, 1, 1], options: options(layout: .vertical, padding: 1))
    #expect(column.columns == 1 && column.rows == 3)
    #expect(column.image.width == 8 + 2 && column.image.height == 3 * 6 + 4)
    #expect(column.frames.map(\.y) == [1, 8, 15])
    for (k, record) in column.frames.enumerated() {
        #expect(crop(column.image, x: record.x, y: record.y, width: 8, height: 6) == frames[k])
    }
}

@Test func extrusionRepeatsEdgePixelsAroundEveryCell() throws {
    let frame = makeImage(width: 3, height: 2) { x, y in Pixel(UInt8(10 * x), UInt8(100 + y), 5, UInt8(200 + x)) }
    let sheet = try SpriteSheetBuilder.build(
        frames: [frame, frame], durations: [1, 1], options: options(columns: 2, padding: 1, extrude: 2))
    // Cells 3+4 by 2+4 with 1 px padding: 1 + 2·(7 + 1) = 17 by 1 + (6 + 1) = 8.
    #expect(sheet.image.width == 17 && sheet.image.height == 8)
    #expect(sheet.frames.map(\.x) == [3, 11] && sheet.frames.map(\.y) == [3, 3])
    for record in sheet.frames {
        for v in -2..<4 {
            for u in -2..<5 {
                let source = pixel(frame, min(max(u, 0), 2), min(max(v, 0), 1))
                #expect(pixel(sheet.image, record.x + u, record.y + v) == source, "(\(u), \(v))")
            }
        }
    }
    // Padding stays transparent between the extruded cells.
    #expect(pixel(sheet.image, 8, 4) == .clear && pixel(sheet.image, 0, 0) == .clear)
    // The JSON frame is the cell itself, not its extrusion.
    #expect(sheet.frames[0].width == 3 && sheet.frames[0].trimmed == false)
}

@Test func sheetOptionsAreChecked() {
    let frames = [sprite(0)]
    #expect(throws: EncodeError("sprite sheet columns apply to the grid layout only")) {
        try SpriteSheetBuilder.build(frames: frames, durations: [1], options: options(layout: .vertical, columns: 2))
    }
    #expect(throws: EncodeError("sprite sheet extrusion must be 0…64 pixels, got 65")) {
        try SpriteSheetBuilder.build(frames: frames, durations: [1], options: options(extrude: 65))
    }
}

@Test func fewColourSheetsBecomeExactPalettePNGs() throws {
    let sheet = try SpriteSheetBuilder.build(frames: (0..<3).map(sprite), durations: [1, 1, 1], options: options())
    let encoded = try SheetPNGEncoder.encode(sheet.image)
    // 18 coloured pixels in 3 frames plus transparent black: 19 colours, lossless.
    #expect(encoded.paletteSize == 19)
    #expect(encoded.quantized == false)
    #expect(Array(encoded.bytes[24..<26]) == [8, 3])  // IHDR: 8 bits (19 > 16), colour type 3
    #expect(try PNGCodec.decode(encoded.bytes) == sheet.image)
}

@Test func manyColourSheetsStayRGBAUnlessColoursAreCapped() throws {
    // 32×32 blocks of 2×2 pixels, each block a random colour: filters cannot predict them.
    var random = TestRandom(state: 3)
    let blocks = (0..<1024).map { _ in Pixel(UInt8(random.next(256)), UInt8(random.next(256)), UInt8(random.next(256)))
    }
    let image = makeImage(width: 64, height: 64) { x, y in blocks[y / 2 * 32 + x / 2] }
    let rgba = try SheetPNGEncoder.encode(image)
    #expect(rgba.paletteSize == nil)
    #expect(try PNGCodec.decode(rgba.bytes) == image)
    let reduced = try SheetPNGEncoder.encode(image, maximumColors: 64)
    #expect(reduced.quantized && (reduced.paletteSize ?? 0) <= 64)
    #expect(reduced.bytes.count < rgba.bytes.count)
    // 1024 random colours in 64 entries: measured 23.5 dB (libimagequant 2.17, speed 4).
    let quality = psnr(try PNGCodec.decode(reduced.bytes), image)
    #expect(quality > 22, "PSNR \(quality) dB")
    #expect(throws: EncodeError("sheet colours must be 2…256, got 1")) {
        try SheetPNGEncoder.encode(image, maximumColors: 1)
    }
}

@Test func paletteIndicesPackBelowEightBits() throws {
    // Two colours: 1-bit rows; 9 pixels wide so a row spills into a second byte.
    let image = makeImage(width: 9, height: 3) { x, y in (x + y) % 2 == 0 ? Pixel(255, 0, 0) : .clear }
    let encoded = try SheetPNGEncoder.encode(image)
    #expect(encoded.paletteSize == 2)
    #expect(encoded.bytes[24] == 1)
    #expect(try PNGCodec.decode(encoded.bytes) == image)
}

@Test func filterTrialSamplesBandsOfRowsOnTallImages() {
    #expect(SheetPNGEncoder.sampleBands(height: 1) == [0..<1])
    #expect(SheetPNGEncoder.sampleBands(height: 256) == [0..<256])
    // 257 rows: bands of 16 centred in each stretch of 128 rows; the last stretch is cut short.
    #expect(SheetPNGEncoder.sampleBands(height: 257) == [56..<72, 184..<200])
    #expect(SheetPNGEncoder.sampleBands(height: 440) == [56..<72, 184..<200, 312..<328])
    #expect(SheetPNGEncoder.sampleBands(height: 4096).count == 32)
}

@Test func sampledFilterTrialChoosesAsTheWholeImageTrialDid() throws {
    // Two tall images (so the trial samples bands): a smooth gradient, where every filter
    // predicts better than none, and one where the unfiltered rows win. The reference choice is
    // the trial the encoder used before: both filter settings through libpng at zlib level 1,
    // whole.
    let gradient = makeImage(width: 300, height: 600) { x, y in
        Pixel(
            UInt8((x * 3 + y) % 256), UInt8((x + 2 * y) / 4 % 256), UInt8((x * y / 97) % 256),
            UInt8(128 + (x + y) % 128))
    }
    // 300 colours scattered at random: unfiltered rows repeat 4-byte pixels of a small set,
    // while differences between neighbours take far more values, so no filter wins.
    var random = TestRandom(state: 11)
    let table = (0..<300).map { _ in
        Pixel(UInt8(random.next(256)), UInt8(random.next(256)), UInt8(random.next(256)), UInt8(random.next(256)))
    }
    let scattered = (0..<(320 * 600)).map { _ in table[random.next(300)] }
    let sheetLike = makeImage(width: 320, height: 600) { x, y in scattered[y * 320 + x] }
    for (image, filteredWins) in [(gradient, true), (sheetLike, false)] {
        let plain = try PNGCodec.encode(image, compression: PNGCompression(level: 1, filters: .none)).count
        let adaptive = try PNGCodec.encode(image, compression: PNGCompression(level: 1, filters: .adaptive)).count
        #expect((adaptive < plain) == filteredWins, "whole-image trial: none \(plain), adaptive \(adaptive)")
        #expect(SheetPNGEncoder.filteredRowsWin(image) == filteredWins)
        let encoded = try SheetPNGEncoder.encode(image)
        #expect(encoded.paletteSize == nil)
        // The rows as stored: every filter byte 0, or each row's type by libpng's least-sum
        // rule (`PNGRowFilter`, checked by hand in PNGRowFilterTests).
        let stride = 1 + 4 * image.width
        let stored = try #require(zlibInflate(idatData(encoded.bytes), size: stride * image.height))
        var rows = [UInt8](repeating: 0, count: stride * image.height)
        for y in 0..<image.height {
            for i in 0..<(4 * image.width) { rows[y * stride + 1 + i] = image.pixels[y * 4 * image.width + i] }
        }
        let expected =
            filteredWins ? PNGRowFilter.filter(rows, rowBytes: 4 * image.width, bpp: 4, heuristic: .minimumSum) : rows
        #expect(stored == expected)
        #expect(try PNGCodec.decode(encoded.bytes) == image)
    }
}

/// A sheet larger than one of `DeflateParser`'s pieces, with filtered rows: the row after each
/// piece boundary is still filtered against the real row above it, so the stored rows equal the
/// whole image filtered at once, and libpng decodes the file to the image.
@Test func filteredRowsAcrossPiecesAreFilteredAgainstTheRowAbove() throws {
    let width = 700
    let height = DeflateParser.pieceSize / (1 + 4 * width) * 2 + 5
    let image = makeImage(width: width, height: height) { x, y in
        Pixel(UInt8((x + 2 * y) % 256), UInt8((3 * x + y) / 2 % 256), UInt8((x ^ y) % 256), UInt8(255 - (x + y) % 97))
    }
    let encoded = SheetPNGEncoder.rgbaFile(image, filtered: true)
    let stride = 1 + 4 * width
    let stored = try #require(zlibInflate(idatData(encoded), size: stride * height))
    var plain = [UInt8](repeating: 0, count: stride * height)
    for y in 0..<height {
        for i in 0..<(4 * width) { plain[y * stride + 1 + i] = image.pixels[y * 4 * width + i] }
    }
    #expect(stored == PNGRowFilter.filter(plain, rowBytes: 4 * width, bpp: 4, heuristic: .minimumSum))
    #expect(try PNGCodec.decode(encoded) == image)
}

/// The IDAT chunks' data of a PNG file, concatenated (PNG specification §5.3, §11.2.4).
private func idatData(_ png: [UInt8]) -> [UInt8] {
    var data: [UInt8] = []
    var i = 8
    while i + 12 <= png.count {
        let length = png[i..<(i + 4)].reduce(0) { $0 << 8 | Int($1) }
        if png[(i + 4)..<(i + 8)].elementsEqual("IDAT".utf8) { data += png[(i + 8)..<(i + 8 + length)] }
        i += 12 + length
    }
    return data
}
