// SPDX-License-Identifier: GPL-3.0-or-later

public import Render

/// Lays frames out on a grid and writes the JSON data file game engines read.
///
/// Layout: row-major, frame `i` in cell `(i % columns, i / columns)`; `padding` transparent
/// pixels around every cell and along the border, so the sheet is
/// `columns·w + (columns + 1)·padding` by `rows·h + (rows + 1)·padding` pixels and cell `i`
/// starts at `x = padding + (i % columns)·(w + padding)`, `y = padding + (i / columns)·(h + padding)`.
/// Cells hold the frames' straight-alpha pixels unchanged.
///
/// JSON: the "json-array" shape Aseprite (`--format json-array`) and TexturePacker write, which
/// Phaser, PixiJS and Godot importers read unchanged:
/// `frames: [{ filename, frame {x,y,w,h}, rotated: false, trimmed: false,
/// spriteSourceSize {x,y,w,h}, sourceSize {w,h}, duration }]` and
/// `meta: { app, version, image, format: "RGBA8888", size {w,h}, scale: "1",
/// frameTags: [{ name, from, to, direction: "forward" }], frameRate, loopSeconds }`
/// (`frameRate` and `loopSeconds` are our additions; readers ignore unknown keys).
public enum SpriteSheetBuilder {
    /// Largest sheet accepted, in pixels (1 GiB of RGBA).
    public static let maximumPixelCount = 1 << 28

    /// Builds the sheet image and its JSON.
    ///
    /// - Parameters:
    ///   - frames: at least one image, all the same non-empty size, straight alpha.
    ///   - durations: one per frame, milliseconds, each > 0. Use
    ///     `FrameTiming.millisecondDurations`.
    ///   - options: naming, grid and metadata.
    /// - Throws: `EncodeError` for no frames, mismatched sizes or counts, a duration ≤ 0,
    ///   columns < 1, negative padding, a non-finite or out-of-range scale, frame rate or loop
    ///   length, or a sheet larger than `maximumPixelCount`.
    public static func build(frames: [RGBAImage], durations: [Int], options: SpriteSheetOptions)
        throws -> SpriteSheet
    {
        let (cellWidth, cellHeight) = try validate(
            frames: frames, durations: durations, options: options)
        let count = frames.count
        let columns = min(options.columns ?? ceilingSquareRoot(count), count)
        let rows = (count + columns - 1) / columns
        let padding = options.padding
        let (sheetWidth, sheetWidthOverflow) = columns.multipliedReportingOverflow(
            by: cellWidth + padding)
        let (sheetHeight, sheetHeightOverflow) = rows.multipliedReportingOverflow(
            by: cellHeight + padding)
        guard !sheetWidthOverflow, !sheetHeightOverflow,
            sheetWidth + padding <= maximumPixelCount, sheetHeight + padding <= maximumPixelCount,
            (sheetWidth + padding) * (sheetHeight + padding) <= maximumPixelCount
        else {
            throw EncodeError(
                "a \(columns)×\(rows) sheet of \(cellWidth)×\(cellHeight) cells is larger than "
                    + "\(maximumPixelCount) pixels")
        }
        var image = RGBAImage(width: sheetWidth + padding, height: sheetHeight + padding)

        var records: [SheetFrame] = []
        records.reserveCapacity(count)
        for (i, frame) in frames.enumerated() {
            let x = padding + (i % columns) * (cellWidth + padding)
            let y = padding + (i / columns) * (cellHeight + padding)
            copy(frame, into: &image, x: x, y: y)
            records.append(
                SheetFrame(
                    filename: "\(options.name) \(i).png", x: x, y: y, width: cellWidth,
                    height: cellHeight, duration: durations[i]))
        }
        let json = SpriteSheetJSON.document(frames: records, sheet: image, options: options)
        return SpriteSheet(
            image: image, frames: records, columns: columns, rows: rows,
            json: Array(json.rendered().utf8))
    }

    /// Smallest c with c·c ≥ n (n ≥ 1), in integers.
    static func ceilingSquareRoot(_ n: Int) -> Int {
        var c = 1
        while c * c < n { c += 1 }
        return c
    }

    private static func copy(_ frame: RGBAImage, into sheet: inout RGBAImage, x: Int, y: Int) {
        let rowBytes = frame.width * 4
        frame.pixels.withUnsafeBufferPointer { source in
            sheet.pixels.withUnsafeMutableBufferPointer { target in
                guard let from = source.baseAddress, let to = target.baseAddress else { return }
                for row in 0..<frame.height {
                    let targetOffset = ((y + row) * sheet.width + x) * 4
                    (to + targetOffset).update(from: from + row * rowBytes, count: rowBytes)
                }
            }
        }
    }

    /// The common frame size.
    private static func validate(frames: [RGBAImage], durations: [Int], options: SpriteSheetOptions)
        throws -> (Int, Int)
    {
        guard let first = frames.first else {
            throw EncodeError("cannot build a sprite sheet without frames")
        }
        guard first.width > 0, first.height > 0 else {
            throw EncodeError(
                "sprite sheet frames are \(first.width)×\(first.height); they must not be empty")
        }
        for (number, frame) in frames.enumerated()
        where frame.width != first.width || frame.height != first.height
            || frame.pixels.count != first.width * first.height * 4
        {
            throw EncodeError(
                "frame \(number) is \(frame.width)×\(frame.height), expected \(first.width)×\(first.height)"
            )
        }
        guard durations.count == frames.count else {
            throw EncodeError("\(durations.count) durations for \(frames.count) frames")
        }
        if let bad = durations.enumerated().first(where: { $0.element <= 0 }) {
            throw EncodeError("frame \(bad.offset) has a duration of \(bad.element) ms; it must be > 0")
        }
        if let columns = options.columns, columns < 1 {
            throw EncodeError("sprite sheet columns must be ≥ 1, got \(columns)")
        }
        guard options.padding >= 0, options.padding <= 65535 else {
            throw EncodeError("sprite sheet padding must be 0…65535 pixels, got \(options.padding)")
        }
        guard options.scale.isFinite, options.scale > 0 else {
            throw EncodeError("sprite sheet scale must be a finite number > 0, got \(options.scale)")
        }
        guard options.frameRate.isFinite, options.frameRate > 0 else {
            throw EncodeError("frame rate must be a finite number > 0, got \(options.frameRate)")
        }
        guard options.loopSeconds.isFinite, options.loopSeconds >= 0 else {
            throw EncodeError("loop length must be a finite number ≥ 0 s, got \(options.loopSeconds)")
        }
        return (first.width, first.height)
    }
}
