// SPDX-License-Identifier: GPL-3.0-or-later

public import Raster

/// Lays frames out on one or more sheet pages and writes the JSON data file game engines read.
///
/// Cells: one per frame, or with `mergeDuplicates` one per distinct frame (Aseprite's
/// `--merge-duplicates`, TexturePacker's aliases): a frame whose stored pixels and trim offset
/// equal an earlier frame's points at that frame's cell (same `x, y, w, h, page`). With `trim`
/// each cell is its frame's opaque box. Cells keep the order of their first frames.
///
/// Layout (`SpriteSheetOptions.layout`): `.grid` puts cell `j` of a page at `(j % columns,
/// j / columns)`, every cell as large as the largest (trimmed) cell; `.horizontal` and
/// `.vertical` put the cells in one row or column, each as large as its own; `.packed` packs
/// them with MaxRects (`SheetPacker`: Jylänki 2010) into the smallest page it finds, never
/// larger in area than the grid of the same cells. Around every cell lie `extrude` pixels
/// repeating its edge, then `padding` transparent pixels between cells and along the border.
/// Without trimming or extrusion a one-page grid sheet is `columns·w + (columns + 1)·padding`
/// by `rows·h + (rows + 1)·padding` pixels and frame `i` starts at
/// `x = padding + (i % columns)·(w + padding)`, `y = padding + (i / columns)·(h + padding)`.
/// Cells hold the frames' straight-alpha pixels unchanged.
///
/// Pages (multipack): no page is wider or higher than `maxSize` (see `SheetPlanner.pageLimits`);
/// when the cells do not fit one, they continue on the next page, each page holding a run of
/// consecutive cells (grid: as many rows as fit; strips: as many cells as fit; packed: as many
/// as MaxRects fits, at least as many as the grid would). With `powerOfTwo` both sides of every
/// page are rounded up to powers of two. Page `k` of several is named `NAME-k.EXT`
/// (`pageName`).
///
/// JSON (`SpriteSheet.json`, one file per page): the default data format, Aseprite's json-hash
/// (`SheetDataFormat.defaultFormat`, written by `SheetData`; `docs/sheets.md`):
/// `frames: { "0": { frame {x,y,w,h}, rotated: false, trimmed, spriteSourceSize {x,y,w,h},
/// sourceSize {w,h}, duration }, … }` and `meta: { app, version, image, format: "RGBA8888",
/// size {w,h}, scale: "1", frameTags: [{ name, from, to, direction: "forward" }] }`. `frame` is
/// the stored (trimmed) rectangle without its extrusion; `spriteSourceSize` says where that
/// rectangle sits in the original frame of `sourceSize`.
public enum SpriteSheetBuilder {
    /// Largest `maxSize` accepted, pixels: the largest texture desktop GPUs accept.
    public static let maximumPageSide = 16384
    /// Largest page, pixels: Pillow refuses images over twice its `MAX_IMAGE_PIXELS`
    /// (89 478 485) as decompression bombs, so every page written opens there. A `maxSize` whose
    /// square is larger makes pages at most `maximumPagePixels / maxSize` high.
    public static let maximumPagePixels = 178_956_970
    /// Largest `extrude` accepted, pixels.
    public static let maximumExtrude = 64

    /// Builds the sheet image and its JSON from frames held in memory:
    /// `build(source:durations:options:)` over `FrameArray(frames)`.
    ///
    /// - Parameters:
    ///   - frames: at least one image, all the same non-empty size, straight alpha.
    ///   - durations: one per frame, milliseconds, each > 0. Use
    ///     `FrameTiming.millisecondDurations`.
    ///   - options: naming, layout, page size, trimming, merging, extrusion and metadata.
    /// - Throws: `EncodeError` for no frames, mismatched sizes or counts, a duration ≤ 0,
    ///   columns < 1 or columns with a non-grid layout, padding, extrusion or maximum size out of
    ///   range, a cell larger than a page, a non-finite or out-of-range scale, frame rate or
    ///   loop length.
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

    /// Builds the sheet from frames `source` hands out batch by batch and returns every page
    /// with the data files: `build(source:durations:options:page:)` with the pages collected.
    /// The result equals `build(frames:durations:options:)` over the same frames.
    /// - Throws: as `build(source:durations:options:page:)`.
    public static func build(source: some FrameSource, durations: [Int], options: SpriteSheetOptions)
        throws -> SpriteSheet
    {
        var images: [RGBAImage] = []
        var data: [[UInt8]] = []
        let layout = try build(source: source, durations: durations, options: options) { index, image, layout in
            images.append(image)
            data.append(pageJSON(layout, page: index, image: image, options: options))
        }
        return SpriteSheet(
            pages: images, layout: layout, json: data.first ?? [], pageJSON: data)
    }

    /// Builds the sheet from frames `source` hands out batch by batch, handing each page to
    /// `page` as soon as its last cell is drawn, so that memory holds one page and a batch of
    /// frames (plus, with `mergeDuplicates`, the crops kept to compare frames, at most
    /// `duplicateCropBudget` bytes).
    ///
    /// Passes over the frames: one when neither `trim` nor `mergeDuplicates` is set (the layout
    /// follows from the frame size, before any frame is asked for); otherwise a first pass finds
    /// every frame's opaque box and its duplicates (a frame whose crop is not kept is asked for
    /// again, alone, to compare it), then a second draws the cells. At most `source.batchSize`
    /// frames per call, in order.
    ///
    /// - Parameters:
    ///   - source: at least one frame, of a non-empty size, straight alpha; it must give the
    ///     same pixels on every pass.
    ///   - durations: one per frame, milliseconds, each > 0. Use
    ///     `FrameTiming.millisecondDurations`.
    ///   - options: naming, layout, page size, trimming, merging, extrusion and metadata.
    ///   - page: called once per page, in page order, with the page's index, its straight-alpha
    ///     pixels (padding and unused space fully transparent) and the whole layout (every
    ///     frame's record and every page's name and size are final before the first call).
    /// - Returns: the layout: one record per frame and one `SheetPage` per page.
    /// - Throws: `EncodeError` for no frames, a frame of another size or a batch of another
    ///   count than asked, mismatched counts, a duration ≤ 0, columns < 1 or columns with a
    ///   non-grid layout, padding, extrusion or maximum size out of range, a cell larger than a
    ///   page, a non-finite or out-of-range scale, frame rate or loop length (all found before
    ///   any frame is asked for when neither trimming nor merging); what `source.frames(_:)` or
    ///   `page` throws.
    @discardableResult
    public static func build(
        source: some FrameSource, durations: [Int], options: SpriteSheetOptions,
        page: (_ index: Int, _ image: RGBAImage, _ layout: SheetLayoutResult) throws -> Void
    ) throws -> SheetLayoutResult {
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
                    try check(frame, index: first + offset, width: frameWidth, height: frameHeight)
                    try body(first + offset, frame)
                }
            }
        }
        // Cells in order of their first frame; each frame's cell.
        var cellBoxes: [Box] = []
        var cellOwner: [Int] = []
        var frameCell: [Int] = []
        frameCell.reserveCapacity(count)
        if options.trim || options.mergeDuplicates {
            var finder = DuplicateFinder(budget: duplicateCropBudget)
            try pass { i, frame in
                let box = options.trim ? opaqueBox(frame) : Box(x: 0, y: 0, w: frameWidth, h: frameHeight)
                var cell = cellBoxes.count
                if options.mergeDuplicates {
                    cell = try finder.cell(for: frame, box: box, next: cellBoxes.count) { c in
                        let owner = cellOwner[c]
                        guard let image = try source.frames(owner..<(owner + 1)).first else {
                            throw EncodeError("the frame source gave no frame \(owner)")
                        }
                        try check(image, index: owner, width: frameWidth, height: frameHeight)
                        return image
                    }
                }
                frameCell.append(cell)
                if cell == cellBoxes.count {
                    cellBoxes.append(box)
                    cellOwner.append(i)
                }
            }
        } else {
            cellBoxes = Array(repeating: Box(x: 0, y: 0, w: frameWidth, h: frameHeight), count: count)
            cellOwner = Array(0..<count)
            frameCell = Array(0..<count)
        }
        let plan = try SheetPlanner.plan(cells: cellBoxes.map { (w: $0.w, h: $0.h) }, options: options)
        let pageCount = plan.pages.count
        let pages = plan.pages.enumerated().map { k, size in
            SheetPage(
                imageName: pageName(options.imageName, page: k, of: pageCount), width: size.width,
                height: size.height)
        }
        let records = (0..<count).map { i -> SheetFrame in
            let c = frameCell[i]
            let box = cellBoxes[c]
            return SheetFrame(
                filename: "\(options.name) \(i).png", x: plan.cellX[c], y: plan.cellY[c], width: box.w,
                height: box.h, duration: durations[i], sourceX: box.x, sourceY: box.y, sourceWidth: frameWidth,
                sourceHeight: frameHeight, page: plan.cellPage[c])
        }
        let layout = SheetLayoutResult(frames: records, pages: pages, columns: plan.columns, rows: plan.rows)
        // The last cell of every page: when it is drawn the page is done.
        var lastCell = Array(repeating: -1, count: pageCount)
        for (c, k) in plan.cellPage.enumerated() { lastCell[k] = c }
        var current: RGBAImage?
        var currentPage = -1
        let e = options.extrude
        try pass { i, frame in
            let c = frameCell[i]
            guard cellOwner[c] == i else { return }
            let k = plan.cellPage[c]
            if k != currentPage {
                current = RGBAImage(width: pages[k].width, height: pages[k].height)
                currentPage = k
            }
            guard var image = current else { return }
            current = nil  // one reference, so the blit does not copy the page
            let box = cellBoxes[c]
            copy(frame, box, into: &image, x: plan.cellX[c], y: plan.cellY[c])
            if e > 0 { extrude(&image, x: plan.cellX[c], y: plan.cellY[c], width: box.w, height: box.h, by: e) }
            if lastCell[k] == c {
                try page(k, image, layout)
            } else {
                current = image
            }
        }
        return layout
    }

    /// Bytes of frame crops `build` keeps to compare later frames with when merging duplicates
    /// (64 MiB); beyond it, a frame that may repeat an earlier one is compared after asking
    /// the source for the earlier one again.
    public static let duplicateCropBudget = 64 << 20

    /// The page image name for page `k` of `count`: `name` itself for a one-page sheet, else
    /// `NAME-k.EXT` (`circular.png` → `circular-0.png`, `circular-1.png`, …), the extension
    /// being what follows the last dot of the last path component. Works on paths too.
    public static func pageName(_ name: String, page k: Int, of count: Int) -> String {
        guard count > 1 else { return name }
        let slash = name.lastIndex(of: "/")
        let fileStart = slash.map { name.index(after: $0) } ?? name.startIndex
        if let dot = name[fileStart...].lastIndex(of: "."), dot > fileStart {
            return String(name[..<dot]) + "-\(k)" + String(name[dot...])
        }
        return name + "-\(k)"
    }

    /// The largest page `options` allows, pixels: `maxSize` wide (with `powerOfTwo` the largest
    /// power of two not above it) and as high as `maximumPagePixels` allows.
    public static func pageLimits(_ options: SpriteSheetOptions) -> (width: Int, height: Int) {
        SheetPlanner.pageLimits(options)
    }

    /// The pages a sheet of `frameCount` frames of `width`×`height` px gets with `options`,
    /// counted before rendering: exact without `trim` and `mergeDuplicates`, and with them an
    /// upper bound (their cells are no larger and no more, and every layout puts at least as
    /// many such cells on a page). 0 when a cell does not fit a page (`preflight` refuses it).
    public static func pageCountBound(frameCount: Int, width: Int, height: Int, options: SpriteSheetOptions)
        -> Int
    {
        guard frameCount > 0, width > 0, height > 0 else { return 0 }
        let limits = SheetPlanner.pageLimits(options)
        let p = options.padding
        let e = options.extrude
        let (fw, o1) = width.addingReportingOverflow(2 * e + p)
        let (fh, o2) = height.addingReportingOverflow(2 * e + p)
        guard !o1, !o2, fw <= limits.width - p, fh <= limits.height - p else { return 0 }
        if options.layout == .packed {
            let capacity = ((limits.width - p) / fw) * ((limits.height - p) / fh)
            return (frameCount + capacity - 1) / capacity
        }
        var untrimmed = options
        untrimmed.trim = false
        untrimmed.mergeDuplicates = false
        let cells = Array(repeating: (w: width, h: height), count: frameCount)
        return (try? SheetPlanner.plan(cells: cells, options: untrimmed).pages.count) ?? 0
    }

    /// The data file of page `k` of `layout` in today's json-array shape: the page's frames
    /// (their global names and durations), `meta.image` the page's name, `meta.size` the
    /// `image`'s size.
    public static func pageJSON(_ layout: SheetLayoutResult, page k: Int, image: RGBAImage, options: SpriteSheetOptions)
        -> [UInt8]
    {
        var pageOptions = options
        if layout.pages.indices.contains(k) { pageOptions.imageName = layout.pages[k].imageName }
        let frames = layout.frames.filter { $0.page == k }.map { frame -> SheetFrame in
            var local = frame
            local.page = 0
            return local
        }
        return Array(SpriteSheetJSON.document(frames: frames, sheet: image, options: pageOptions).rendered().utf8)
    }

    /// A frame's size and byte count against the source's.
    private static func check(_ frame: RGBAImage, index: Int, width: Int, height: Int) throws {
        guard frame.width == width, frame.height == height, frame.pixels.count == width * height * 4 else {
            throw EncodeError("frame \(index) is \(frame.width)×\(frame.height), expected \(width)×\(height)")
        }
    }

    /// Bounding box of the pixels with alpha > 0; the top-left pixel for a fully transparent
    /// frame (a sheet cell cannot be empty).
    static func opaqueBox(_ frame: RGBAImage) -> Box {
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
        guard maxY >= 0 else { return Box(x: 0, y: 0, w: 1, h: 1) }
        return Box(x: minX, y: minY, w: maxX - minX + 1, h: maxY - minY + 1)
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

    /// Copies the `box` part of `frame` to (x, y) on the sheet.
    private static func copy(
        _ frame: RGBAImage, _ box: Box, into sheet: inout RGBAImage, x: Int, y: Int
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
        guard (1...maximumPageSide).contains(options.maxSize) else {
            throw EncodeError(
                "sprite sheet maximum size must be 1…\(maximumPageSide) pixels, got \(options.maxSize)")
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

/// A rectangle of a frame, pixels.
struct Box: Equatable, Hashable {
    var x: Int
    var y: Int
    var w: Int
    var h: Int
}

/// Finds, for a frame's crop, an earlier cell with the same box and the same pixels: candidates
/// by a 64-bit hash of the crop, each confirmed byte for byte against the earlier crop (kept
/// while `budget` bytes allow, else fetched again).
struct DuplicateFinder {
    private struct Key: Hashable {
        var box: Box
        var hash: UInt64
    }
    let budget: Int
    private var used = 0
    private var cells: [Key: [Int]] = [:]
    private var crops: [Int: [UInt8]] = [:]
    private var boxes: [Int: Box] = [:]

    init(budget: Int) { self.budget = budget }

    /// The earlier cell `frame`'s `box` repeats, or `next` (a new cell, remembered) when none.
    /// - Parameter fetch: the frame that owns a cell, for a comparison whose crop was not kept.
    mutating func cell(for frame: RGBAImage, box: Box, next: Int, fetch: (Int) throws -> RGBAImage) throws -> Int {
        let crop = Self.crop(frame, box)
        let key = Key(box: box, hash: Self.hash(crop))
        for c in cells[key] ?? [] {
            if let kept = crops[c] {
                if kept == crop { return c }
            } else if Self.crop(try fetch(c), box) == crop {
                return c
            }
        }
        cells[key, default: []].append(next)
        boxes[next] = box
        if used + crop.count <= budget {
            used += crop.count
            crops[next] = crop
        }
        return next
    }

    /// The `box` pixels of `frame`, row after row.
    static func crop(_ frame: RGBAImage, _ box: Box) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(box.w * box.h * 4)
        for row in box.y..<(box.y + box.h) {
            let start = (row * frame.width + box.x) * 4
            out.append(contentsOf: frame.pixels[start..<(start + box.w * 4)])
        }
        return out
    }

    /// A 64-bit multiply–rotate hash of `bytes` (only to find candidates; equality is checked).
    static func hash(_ bytes: [UInt8]) -> UInt64 {
        var h: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
        var i = 0
        bytes.withUnsafeBufferPointer { p in
            while i + 8 <= p.count {
                var word: UInt64 = 0
                for k in 0..<8 { word |= UInt64(p[i + k]) << (8 * UInt64(k)) }
                h = (h ^ word) &* 0xFF51_AFD7_ED55_8CCD
                h = (h << 29) | (h >> 35)
                i += 8
            }
            while i < p.count {
                h = (h ^ UInt64(p[i])) &* 0xC4CE_B9FE_1A85_EC53
                i += 1
            }
        }
        return h ^ (h >> 33)
    }
}
