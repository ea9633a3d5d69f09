// SPDX-License-Identifier: GPL-3.0-or-later

public import Render

/// Lays frames out on a sheet and writes the JSON data file game engines read.
///
/// Layout (`SpriteSheetOptions.layout`): `.grid` puts frame `i` in cell `(i % columns,
/// i / columns)`, every cell as large as the largest (trimmed) frame; `.horizontal` and
/// `.vertical` put the cells in one row or column, each as large as its own frame. Around every
/// cell lie `extrude` pixels repeating its edge, then `padding` transparent pixels between cells
/// and along the border. Without trimming or extrusion a grid sheet is
/// `columns·w + (columns + 1)·padding` by `rows·h + (rows + 1)·padding` pixels and frame `i`
/// starts at `x = padding + (i % columns)·(w + padding)`, `y = padding + (i / columns)·(h + padding)`.
/// Cells hold the frames' straight-alpha pixels unchanged.
///
/// JSON (`SpriteSheet.json`): the default data format, Aseprite's json-hash
/// (`SheetDataFormat.defaultFormat`, written by `SheetData`; `docs/sheets.md`):
/// `frames: { "0": { frame {x,y,w,h}, rotated: false, trimmed, spriteSourceSize {x,y,w,h},
/// sourceSize {w,h}, duration }, … }` and `meta: { app, version, image, format: "RGBA8888",
/// size {w,h}, scale: "1", frameTags: [{ name, from, to, direction: "forward" }] }`. `frame` is
/// the stored (trimmed) rectangle without its extrusion; `spriteSourceSize` says where that
/// rectangle sits in the original frame of `sourceSize`.
public enum SpriteSheetBuilder {
    /// Largest sheet accepted, in pixels (1 GiB of RGBA).
    public static let maximumPixelCount = 1 << 28
    /// Largest `extrude` accepted, pixels.
    public static let maximumExtrude = 64

    /// Builds the sheet image and its JSON from frames held in memory:
    /// `build(source:durations:options:)` over `FrameArray(frames)`.
    ///
    /// - Parameters:
    ///   - frames: at least one image, all the same non-empty size, straight alpha.
    ///   - durations: one per frame, milliseconds, each > 0. Use
    ///     `FrameTiming.millisecondDurations`.
    ///   - options: naming, layout, trimming, extrusion and metadata.
    /// - Throws: `EncodeError` for no frames, mismatched sizes or counts, a duration ≤ 0,
    ///   columns < 1 or columns with a non-grid layout, padding or extrusion out of range, a
    ///   non-finite or out-of-range scale, frame rate or loop length, or a sheet larger than
    ///   `maximumPixelCount`.
    public static func build(frames: [RGBAImage], durations: [Int], options: SpriteSheetOptions)
        throws -> SpriteSheet
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
        let source: FrameArray
        do {
            source = try FrameArray(frames)
        } catch {
            throw EncodeError(error.message)
        }
        return try build(source: source, durations: durations, options: options)
    }

    /// Builds the sheet image and its JSON from frames `source` hands out batch by batch: the
    /// sheet is held whole (its size is bounded by `maximumPixelCount`), the frames only a batch
    /// at a time. Without trimming the frames are asked for once and blitted as they come; with
    /// `options.trim` twice: a first pass finds every frame's opaque box (which sets the cells'
    /// sizes and places), a second blits them. At most `source.batchSize` frames per call, in
    /// order. The result equals `build(frames:durations:options:)` over the same frames.
    ///
    /// - Parameters:
    ///   - source: at least one frame, of a non-empty size, straight alpha; it must give the
    ///     same pixels on every pass.
    ///   - durations: one per frame, milliseconds, each > 0. Use
    ///     `FrameTiming.millisecondDurations`.
    ///   - options: naming, layout, trimming, extrusion and metadata.
    /// - Throws: `EncodeError` for no frames, a frame of another size or a batch of another
    ///   count than asked, mismatched counts, a duration ≤ 0, columns < 1 or columns with a
    ///   non-grid layout, padding or extrusion out of range, a non-finite or out-of-range scale,
    ///   frame rate or loop length, or a sheet larger than `maximumPixelCount` (found before any
    ///   frame is asked for when not trimming); what `source.frames(_:)` throws.
    public static func build(source: some FrameSource, durations: [Int], options: SpriteSheetOptions)
        throws -> SpriteSheet
    {
        let (frameWidth, frameHeight) = try validate(source: source, durations: durations, options: options)
        let count = source.frameCount
        /// Every frame, a batch at a time, checked.
        func pass(_ body: (_ index: Int, _ frame: RGBAImage) throws -> Void) throws {
            try source.forEachBatch { first, frames in
                let asked = min(count - first, max(1, source.batchSize))
                guard frames.count == asked else {
                    throw EncodeError(
                        "the frame source gave \(frames.count) frames from frame \(first); \(asked) were asked for")
                }
                for (offset, frame) in frames.enumerated() {
                    guard frame.width == frameWidth, frame.height == frameHeight,
                        frame.pixels.count == frameWidth * frameHeight * 4
                    else {
                        throw EncodeError(
                            "frame \(first + offset) is \(frame.width)×\(frame.height), expected "
                                + "\(frameWidth)×\(frameHeight)")
                    }
                    try body(first + offset, frame)
                }
            }
        }
        var boxes: [(x: Int, y: Int, w: Int, h: Int)]
        if options.trim {
            boxes = []
            boxes.reserveCapacity(count)
            try pass { _, frame in boxes.append(opaqueBox(frame)) }
        } else {
            boxes = Array(repeating: (x: 0, y: 0, w: frameWidth, h: frameHeight), count: count)
        }
        let e = options.extrude
        let padding = options.padding
        // Cell origins (extrusion included) and the sheet size.
        var origins: [(x: Int, y: Int)] = []
        let columns: Int
        let rows: Int
        var sheetWidth = padding
        var sheetHeight = padding
        switch options.layout {
        case .grid:
            columns = min(options.columns ?? ceilingSquareRoot(count), count)
            rows = (count + columns - 1) / columns
            let pitchX = (boxes.map(\.w).max() ?? 1) + 2 * e + padding
            let pitchY = (boxes.map(\.h).max() ?? 1) + 2 * e + padding
            origins = (0..<count).map { (padding + ($0 % columns) * pitchX, padding + ($0 / columns) * pitchY) }
            sheetWidth += columns * pitchX
            sheetHeight += rows * pitchY
        case .horizontal:
            columns = count
            rows = 1
            for box in boxes {
                origins.append((sheetWidth, padding))
                sheetWidth += box.w + 2 * e + padding
            }
            sheetHeight += (boxes.map(\.h).max() ?? 1) + 2 * e + padding
        case .vertical:
            columns = 1
            rows = count
            for box in boxes {
                origins.append((padding, sheetHeight))
                sheetHeight += box.h + 2 * e + padding
            }
            sheetWidth += (boxes.map(\.w).max() ?? 1) + 2 * e + padding
        }
        guard sheetWidth <= maximumPixelCount, sheetHeight <= maximumPixelCount,
            sheetWidth * sheetHeight <= maximumPixelCount
        else {
            throw EncodeError(
                "a \(columns)×\(rows) sheet of \(frameWidth)×\(frameHeight) frames is larger than "
                    + "\(maximumPixelCount) pixels")
        }
        var image = RGBAImage(width: sheetWidth, height: sheetHeight)

        var records: [SheetFrame] = []
        records.reserveCapacity(count)
        try pass { i, frame in
            let box = boxes[i]
            let x = origins[i].x + e
            let y = origins[i].y + e
            copy(frame, box, into: &image, x: x, y: y)
            if e > 0 { extrude(&image, x: x, y: y, width: box.w, height: box.h, by: e) }
            records.append(
                SheetFrame(
                    filename: "\(options.name) \(i).png", x: x, y: y, width: box.w, height: box.h,
                    duration: durations[i], sourceX: box.x, sourceY: box.y, sourceWidth: frameWidth,
                    sourceHeight: frameHeight))
        }
        let json = SpriteSheetJSON.document(frames: records, sheet: image, options: options)
        return SpriteSheet(
            image: image, frames: records, columns: columns, rows: rows,
            json: Array(json.rendered().utf8))
    }

    /// Bounding box of the pixels with alpha > 0; the top-left pixel for a fully transparent
    /// frame (a sheet cell cannot be empty).
    static func opaqueBox(_ frame: RGBAImage) -> (x: Int, y: Int, w: Int, h: Int) {
        var minX = frame.width
        var maxX = -1
        var minY = frame.height
        var maxY = -1
        frame.pixels.withUnsafeBufferPointer { p in
            for y in 0..<frame.height {
                let row = y * frame.width * 4
                for x in 0..<frame.width where p[row + 4 * x + 3] != 0 {
                    minX = min(minX, x)
                    maxX = max(maxX, x)
                    minY = min(minY, y)
                    maxY = y
                }
            }
        }
        guard maxY >= 0 else { return (0, 0, 1, 1) }
        return (minX, minY, maxX - minX + 1, maxY - minY + 1)
    }

    /// Repeats the edge rows and columns of the `width`×`height` cell at (x, y) outwards by `e`.
    private static func extrude(_ sheet: inout RGBAImage, x: Int, y: Int, width: Int, height: Int, by e: Int) {
        let w = sheet.width
        sheet.pixels.withUnsafeMutableBufferPointer { p in
            for row in y..<(y + height) {
                let left = (row * w + x) * 4
                let right = (row * w + x + width - 1) * 4
                for k in 1...e {
                    for c in 0..<4 {
                        p[left - 4 * k + c] = p[left + c]
                        p[right + 4 * k + c] = p[right + c]
                    }
                }
            }
            let span = (width + 2 * e) * 4
            let top = (y * w + x - e) * 4
            let bottom = ((y + height - 1) * w + x - e) * 4
            for k in 1...e {
                for i in 0..<span {
                    p[top - k * w * 4 + i] = p[top + i]
                    p[bottom + k * w * 4 + i] = p[bottom + i]
                }
            }
        }
    }

    /// Smallest c with c·c ≥ n (n ≥ 1), in integers.
    static func ceilingSquareRoot(_ n: Int) -> Int {
        var c = 1
        while c * c < n { c += 1 }
        return c
    }

    /// Copies the `box` part of `frame` to (x, y) on the sheet.
    private static func copy(
        _ frame: RGBAImage, _ box: (x: Int, y: Int, w: Int, h: Int), into sheet: inout RGBAImage, x: Int, y: Int
    ) {
        let rowBytes = box.w * 4
        frame.pixels.withUnsafeBufferPointer { source in
            sheet.pixels.withUnsafeMutableBufferPointer { target in
                guard let from = source.baseAddress, let to = target.baseAddress else { return }
                for row in 0..<box.h {
                    let sourceOffset = ((box.y + row) * frame.width + box.x) * 4
                    let targetOffset = ((y + row) * sheet.width + x) * 4
                    (to + targetOffset).update(from: from + sourceOffset, count: rowBytes)
                }
            }
        }
    }

    /// The common frame size.
    private static func validate(source: some FrameSource, durations: [Int], options: SpriteSheetOptions)
        throws -> (Int, Int)
    {
        let count = source.frameCount
        guard count > 0 else {
            throw EncodeError("cannot build a sprite sheet without frames")
        }
        guard source.width > 0, source.height > 0 else {
            throw EncodeError(
                "sprite sheet frames are \(source.width)×\(source.height); they must not be empty")
        }
        guard durations.count == count else {
            throw EncodeError("\(durations.count) durations for \(count) frames")
        }
        if let bad = durations.enumerated().first(where: { $0.element <= 0 }) {
            throw EncodeError("frame \(bad.offset) has a duration of \(bad.element) ms; it must be > 0")
        }
        if let columns = options.columns, columns < 1 {
            throw EncodeError("sprite sheet columns must be ≥ 1, got \(columns)")
        }
        if options.columns != nil, options.layout != .grid {
            throw EncodeError("sprite sheet columns apply to the grid layout only")
        }
        guard (0...maximumExtrude).contains(options.extrude) else {
            throw EncodeError("sprite sheet extrusion must be 0…\(maximumExtrude) pixels, got \(options.extrude)")
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
        return (source.width, source.height)
    }
}
