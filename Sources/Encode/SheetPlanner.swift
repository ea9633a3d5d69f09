// SPDX-License-Identifier: GPL-3.0-or-later

/// Where every cell of a sheet goes: its page and its place, and every page's size. A pure
/// function of the cells' sizes and the layout options (`SpriteSheetBuilder` documents the
/// layouts); no pixels.
struct SheetPlan: Equatable {
    /// Page of each cell, 0-based, nondecreasing: each page holds a run of consecutive cells.
    var cellPage: [Int]
    /// Left edge of each cell's stored rectangle (inside its extrusion), page pixels.
    var cellX: [Int]
    /// Top edge of each cell's stored rectangle, page pixels.
    var cellY: [Int]
    /// Every page's size in pixels, in order.
    var pages: [(width: Int, height: Int)]
    /// Cells per row and rows of the first page for the grid and strips; 0 for `.packed`.
    var columns: Int
    var rows: Int

    static func == (a: SheetPlan, b: SheetPlan) -> Bool {
        a.cellPage == b.cellPage && a.cellX == b.cellX && a.cellY == b.cellY && a.columns == b.columns
            && a.rows == b.rows && a.pages.map(\.width) == b.pages.map(\.width)
            && a.pages.map(\.height) == b.pages.map(\.height)
    }
}

/// The layout half of `SpriteSheetBuilder`.
enum SheetPlanner {
    /// The largest page sides for `options`: `maxSize` wide (with `powerOfTwo` the largest power
    /// of two not above it), and as high as `SpriteSheetBuilder.maximumPagePixels` allows.
    static func pageLimits(_ options: SpriteSheetOptions) -> (width: Int, height: Int) {
        var width = max(1, options.maxSize)
        if options.powerOfTwo { width = largestPowerOfTwo(atMost: width) }
        var height = min(width, SpriteSheetBuilder.maximumPagePixels / width)
        if options.powerOfTwo { height = largestPowerOfTwo(atMost: height) }
        return (width, height)
    }

    /// Lays out cells of the given (trimmed) sizes, in order.
    /// - Throws: `EncodeError` when a cell with its extrusion and padding is larger than a page.
    static func plan(cells: [(w: Int, h: Int)], options: SpriteSheetOptions) throws -> SheetPlan {
        let p = options.padding
        let e = options.extrude
        let limits = pageLimits(options)
        // Each cell's footprint carries its extrusion and the padding after it; the first
        // padding (the border at the left and top) is outside the bin.
        let binWidth = limits.width - p
        let binHeight = limits.height - p
        let sizes = cells.map { (w: $0.w + 2 * e + p, h: $0.h + 2 * e + p) }
        if let k = sizes.indices.first(where: { sizes[$0].w > binWidth || sizes[$0].h > binHeight }) {
            throw EncodeError(
                "a sheet cell of \(cells[k].w)×\(cells[k].h) px with \(e) px extrusion and \(p) px padding is "
                    + "larger than a page of \(limits.width)×\(limits.height) px (the maximum size)")
        }
        var plan = SheetPlan(
            cellPage: Array(repeating: 0, count: cells.count), cellX: Array(repeating: 0, count: cells.count),
            cellY: Array(repeating: 0, count: cells.count), pages: [], columns: 0, rows: 0)
        func round(_ side: Int) -> Int { options.powerOfTwo ? smallestPowerOfTwo(atLeast: side) : side }
        func addPage(_ width: Int, _ height: Int) { plan.pages.append((round(width), round(height))) }

        switch options.layout {
        case .grid:
            let cw = sizes.map(\.w).max() ?? 1
            let ch = sizes.map(\.h).max() ?? 1
            let n = cells.count
            let columns = max(1, min(options.columns ?? ceilingSquareRoot(n), n, binWidth / cw))
            let capacity = columns * max(1, binHeight / ch)
            var start = 0
            while start < n {
                let count = min(capacity, n - start)
                let page = plan.pages.count
                for j in 0..<count {
                    plan.cellPage[start + j] = page
                    plan.cellX[start + j] = p + (j % columns) * cw + e
                    plan.cellY[start + j] = p + (j / columns) * ch + e
                }
                let pageColumns = min(columns, count)
                let pageRows = (count + columns - 1) / columns
                if page == 0 { (plan.columns, plan.rows) = (pageColumns, pageRows) }
                addPage(p + pageColumns * cw, p + pageRows * ch)
                start += count
            }
        case .horizontal, .vertical:
            let across = options.layout == .horizontal
            var start = 0
            while start < cells.count {
                let page = plan.pages.count
                var run = 0
                var thickness = 0
                var end = start
                while end < cells.count {
                    let along = across ? sizes[end].w : sizes[end].h
                    guard end == start || run + along <= (across ? binWidth : binHeight) else { break }
                    plan.cellPage[end] = page
                    plan.cellX[end] = p + (across ? run : 0) + e
                    plan.cellY[end] = p + (across ? 0 : run) + e
                    run += along
                    thickness = max(thickness, across ? sizes[end].h : sizes[end].w)
                    end += 1
                }
                if page == 0 { (plan.columns, plan.rows) = across ? (end - start, 1) : (1, end - start) }
                if across { addPage(p + run, p + thickness) } else { addPage(p + thickness, p + run) }
                start = end
            }
        case .packed:
            var start = 0
            while start < cells.count {
                let count = packedPageCount(sizes, from: start, binWidth: binWidth, binHeight: binHeight)
                let page = plan.pages.count
                let pageSizes = Array(sizes[start..<(start + count)])
                let arranged = arrange(pageSizes, binWidth: binWidth, binHeight: binHeight, padding: p, round: round)
                for j in 0..<count {
                    plan.cellPage[start + j] = page
                    plan.cellX[start + j] = p + arranged.placements[j].x + e
                    plan.cellY[start + j] = p + arranged.placements[j].y + e
                }
                addPage(p + arranged.width, p + arranged.height)
                start += count
            }
        }
        return plan
    }

    /// How many cells from `start` go on one packed page: at least as many as a grid of the
    /// largest of them holds (so a multipack never has more pages than the untrimmed grid),
    /// and more when MaxRects fits more (found by doubling, then bisection).
    private static func packedPageCount(
        _ sizes: [(w: Int, h: Int)], from start: Int, binWidth: Int, binHeight: Int
    ) -> Int {
        let remaining = sizes.count - start
        var cw = 0
        var ch = 0
        var byGrid = 0
        for k in 1...remaining {
            cw = max(cw, sizes[start + k - 1].w)
            ch = max(ch, sizes[start + k - 1].h)
            guard (binWidth / cw) * (binHeight / ch) >= k else { break }
            byGrid = k
        }
        if byGrid == remaining { return remaining }
        func fits(_ k: Int) -> Bool {
            SheetPacker.fits(Array(sizes[start..<(start + k)]), width: binWidth, height: binHeight)
        }
        var good = max(1, byGrid)
        var step = good
        var bad = remaining + 1
        while good + step <= remaining {
            if fits(good + step) {
                good += step
                step *= 2
            } else {
                bad = good + step
                break
            }
        }
        if bad == remaining + 1, good < remaining {
            if fits(remaining) { return remaining }
            bad = remaining
        }
        while bad - good > 1 {
            let mid = good + (bad - good) / 2
            if fits(mid) { good = mid } else { bad = mid }
        }
        return good
    }

    /// The smaller of the best MaxRects packing and the about-square grid of the largest cell
    /// (what `.grid` would give these cells), by page area after rounding, then by the longer
    /// side; the grid on a tie. Positions are in bin coordinates.
    private static func arrange(
        _ sizes: [(w: Int, h: Int)], binWidth: Int, binHeight: Int, padding p: Int, round: (Int) -> Int
    ) -> SheetPacker.Packing {
        func cost(_ w: Int, _ h: Int) -> (Int, Int) {
            let (a, b) = (round(p + w), round(p + h))
            return (a * b, max(a, b))
        }
        let n = sizes.count
        let cw = sizes.map(\.w).max() ?? 1
        let ch = sizes.map(\.h).max() ?? 1
        var grid: SheetPacker.Packing?
        let rowsMax = binHeight / ch
        var columns = min(ceilingSquareRoot(n), n, binWidth / cw)
        if columns >= 1, rowsMax >= 1 {
            if (n + columns - 1) / columns > rowsMax { columns = (n + rowsMax - 1) / rowsMax }
            if columns * cw <= binWidth {
                let rows = (n + columns - 1) / columns
                grid = SheetPacker.Packing(
                    placements: (0..<n).map { SheetPacker.Placement(x: ($0 % columns) * cw, y: ($0 / columns) * ch) },
                    width: min(columns, n) * cw, height: rows * ch)
            }
        }
        let packed = SheetPacker.best(sizes, maxWidth: binWidth, maxHeight: binHeight, cost: cost)
        switch (grid, packed) {
        case (let g?, let q?): return cost(q.width, q.height) < cost(g.width, g.height) ? q : g
        case (let g?, nil): return g
        case (nil, let q?): return q
        case (nil, nil):
            // Unreachable: one cell always fits (checked by `plan`), so the grid exists.
            return SheetPacker.Packing(
                placements: Array(repeating: SheetPacker.Placement(x: 0, y: 0), count: n), width: cw, height: ch)
        }
    }

    /// Smallest c with c·c ≥ n (n ≥ 0), in integers.
    static func ceilingSquareRoot(_ n: Int) -> Int {
        var c = 1
        while c * c < n { c += 1 }
        return c
    }

    /// The smallest power of two ≥ `n` (n ≥ 1, at most 2^40 here).
    static func smallestPowerOfTwo(atLeast n: Int) -> Int {
        var v = 1
        while v < n { v *= 2 }
        return v
    }

    /// The largest power of two ≤ `n` (n ≥ 1).
    static func largestPowerOfTwo(atMost n: Int) -> Int {
        var v = 1
        while v * 2 <= n { v *= 2 }
        return v
    }
}
