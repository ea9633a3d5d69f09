// SPDX-License-Identifier: GPL-3.0-or-later

/// Rectangle bin packing by MaxRects (Jukka Jylänki, "A Thousand Ways to Pack the Bin – A
/// Practical Approach to Two-Dimensional Rectangle Bin Packing", 2010, section 3 "The Maximal
/// Rectangles Algorithm"): the bin's free space is kept as the list of every maximal free
/// rectangle; a rectangle is placed at the top-left corner of the free rectangle the heuristic
/// scores best, then every free rectangle it overlaps is split into up to four maximal pieces and
/// pieces inside another are dropped. No rotation (sprite-sheet readers would have to un-rotate).
///
/// Deterministic: integer scores, ties broken by the secondary score, then by the free list's
/// order, which depends on the insertions alone.
struct MaxRectsBin {
    /// A rectangle in bin coordinates, pixels.
    struct Rect: Equatable {
        var x: Int
        var y: Int
        var w: Int
        var h: Int
        var maxX: Int { x + w }
        var maxY: Int { y + h }

        func contains(_ other: Rect) -> Bool {
            other.x >= x && other.y >= y && other.maxX <= maxX && other.maxY <= maxY
        }

        func intersects(_ other: Rect) -> Bool {
            other.x < maxX && other.maxX > x && other.y < maxY && other.maxY > y
        }
    }

    /// How a free rectangle is chosen (Jylänki §3.2–3.4).
    enum Heuristic: CaseIterable {
        /// MAXRECTS-BSSF: the smallest leftover on the shorter side, then on the longer.
        case bestShortSideFit
        /// MAXRECTS-BAF: the smallest free rectangle by area, then by shorter leftover.
        case bestAreaFit
        /// MAXRECTS-BL: the lowest bottom edge, then the leftmost.
        case bottomLeft
    }

    /// Bin width, pixels.
    let width: Int
    /// Bin height, pixels.
    let height: Int
    private(set) var free: [Rect]
    /// Right and bottom edges of everything placed so far.
    private(set) var usedWidth = 0
    private(set) var usedHeight = 0

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        free = width > 0 && height > 0 ? [Rect(x: 0, y: 0, w: width, h: height)] : []
    }

    /// Places a `w`×`h` rectangle (both ≥ 1) and returns where, or nil when it fits nowhere
    /// (the bin is then unchanged).
    mutating func insert(width w: Int, height h: Int, heuristic: Heuristic) -> Rect? {
        var best: Rect?
        var bestPrimary = Int.max
        var bestSecondary = Int.max
        for f in free where f.w >= w && f.h >= h {
            let primary: Int
            let secondary: Int
            switch heuristic {
            case .bestShortSideFit:
                let dx = f.w - w
                let dy = f.h - h
                primary = min(dx, dy)
                secondary = max(dx, dy)
            case .bestAreaFit:
                primary = f.w * f.h - w * h
                secondary = min(f.w - w, f.h - h)
            case .bottomLeft:
                primary = f.y + h
                secondary = f.x
            }
            if primary < bestPrimary || (primary == bestPrimary && secondary < bestSecondary) {
                bestPrimary = primary
                bestSecondary = secondary
                best = Rect(x: f.x, y: f.y, w: w, h: h)
            }
        }
        guard let placed = best else { return nil }
        place(placed)
        return placed
    }

    /// Splits every free rectangle `placed` overlaps into its maximal pieces outside it, and
    /// drops the pieces another free rectangle contains (only new pieces can be or hold such).
    private mutating func place(_ placed: Rect) {
        usedWidth = max(usedWidth, placed.maxX)
        usedHeight = max(usedHeight, placed.maxY)
        var kept: [Rect] = []
        kept.reserveCapacity(free.count + 4)
        var pieces: [Rect] = []
        for f in free {
            guard f.intersects(placed) else {
                kept.append(f)
                continue
            }
            if placed.x > f.x { pieces.append(Rect(x: f.x, y: f.y, w: placed.x - f.x, h: f.h)) }
            if placed.maxX < f.maxX { pieces.append(Rect(x: placed.maxX, y: f.y, w: f.maxX - placed.maxX, h: f.h)) }
            if placed.y > f.y { pieces.append(Rect(x: f.x, y: f.y, w: f.w, h: placed.y - f.y)) }
            if placed.maxY < f.maxY { pieces.append(Rect(x: f.x, y: placed.maxY, w: f.w, h: f.maxY - placed.maxY)) }
        }
        // A new piece inside an untouched rectangle or inside another piece adds nothing; an
        // untouched rectangle was maximal before, so only a piece can hold it, and pieces lie
        // inside the rectangles they came from, which did not hold it.
        var newPieces: [Rect] = []
        for (i, piece) in pieces.enumerated() {
            if kept.contains(where: { $0.contains(piece) }) { continue }
            var inside = false
            for (j, other) in pieces.enumerated() where j != i && other.contains(piece) {
                // Of two equal pieces keep the first.
                if other != piece || j < i {
                    inside = true
                    break
                }
            }
            if !inside { newPieces.append(piece) }
        }
        free = kept + newPieces
    }
}

/// Packs rectangle sizes into one bin with MaxRects, trying a few published orders and
/// heuristics and bin widths, and keeps the arrangement with the smallest bounding box.
enum SheetPacker {
    /// One rectangle's place.
    struct Placement: Equatable {
        var x: Int
        var y: Int
    }

    /// An arrangement of every rectangle: where each goes, and the bounding box's size.
    struct Packing {
        var placements: [Placement]
        var width: Int
        var height: Int
    }

    /// Sort orders tried (Jylänki §5: DESCA, descending area, and DESCLS, descending longer
    /// side); ties by the original index, so the result never depends on the sort's stability.
    private static func orders(_ sizes: [(w: Int, h: Int)]) -> [[Int]] {
        let area = sizes.indices.sorted {
            let a = sizes[$0].w * sizes[$0].h
            let b = sizes[$1].w * sizes[$1].h
            return a != b ? a > b : $0 < $1
        }
        let side = sizes.indices.sorted {
            let a = max(sizes[$0].w, sizes[$0].h)
            let b = max(sizes[$1].w, sizes[$1].h)
            if a != b { return a > b }
            let c = min(sizes[$0].w, sizes[$0].h)
            let d = min(sizes[$1].w, sizes[$1].h)
            return c != d ? c > d : $0 < $1
        }
        return area == side ? [area] : [area, side]
    }

    /// Packs every size into a `width`×`height` bin in `order` with `heuristic`, or nil when one
    /// does not fit.
    static func pack(
        _ sizes: [(w: Int, h: Int)], order: [Int], width: Int, height: Int, heuristic: MaxRectsBin.Heuristic
    ) -> Packing? {
        var bin = MaxRectsBin(width: width, height: height)
        var placements = Array(repeating: Placement(x: 0, y: 0), count: sizes.count)
        for i in order {
            guard let rect = bin.insert(width: sizes[i].w, height: sizes[i].h, heuristic: heuristic) else {
                return nil
            }
            placements[i] = Placement(x: rect.x, y: rect.y)
        }
        return Packing(placements: placements, width: bin.usedWidth, height: bin.usedHeight)
    }

    /// Whether every size fits the bin (one trial: descending area, best short side fit).
    static func fits(_ sizes: [(w: Int, h: Int)], width: Int, height: Int) -> Bool {
        let order = orders(sizes)[0]
        return pack(sizes, order: order, width: width, height: height, heuristic: .bestShortSideFit) != nil
    }

    /// The smallest arrangement found of `sizes` in at most `maxWidth`×`maxHeight`, by `cost`
    /// of its bounding box (smaller wins; ties: the first found), or nil when none fits.
    ///
    /// Bin widths tried: the full width and widths around the square root of the total area
    /// (×0.8 … ×2), each at the full height; for each, the two orders and three heuristics.
    static func best(
        _ sizes: [(w: Int, h: Int)], maxWidth: Int, maxHeight: Int, cost: (Int, Int) -> (Int, Int)
    ) -> Packing? {
        guard !sizes.isEmpty else { return nil }
        let widest = sizes.map(\.w).max() ?? 1
        var area = 0
        for s in sizes { area += s.w * s.h }
        var root = 1
        while root * root < area { root += 1 }
        var widths: [Int] = []
        for tenth in [8, 9, 10, 11, 12, 14, 16, 20] {
            let w = min(maxWidth, max(widest, root * tenth / 10))
            if !widths.contains(w) { widths.append(w) }
        }
        if !widths.contains(maxWidth) { widths.append(maxWidth) }
        // Many rectangles: fewer trials (each costs about n·free-list length).
        let heuristics: [MaxRectsBin.Heuristic] =
            sizes.count > 2048 ? [.bestShortSideFit] : MaxRectsBin.Heuristic.allCases
        var best: Packing?
        var bestCost = (Int.max, Int.max)
        for order in orders(sizes) {
            for width in widths {
                for heuristic in heuristics {
                    guard let p = pack(sizes, order: order, width: width, height: maxHeight, heuristic: heuristic)
                    else { continue }
                    let c = cost(p.width, p.height)
                    if c < bestCost {
                        bestCost = c
                        best = p
                    }
                }
            }
        }
        return best
    }
}
