// SPDX-License-Identifier: GPL-3.0-or-later

/// The tolerance side of `GIFFrameOptimizer` (`GIFOptions.lossy`): which palette entries may
/// stand in for which, what the screen shows after a frame, and the rectangle of what is
/// beyond tolerance.
extension GIFFrameOptimizer {
    /// The `near` table for `table` (RGB triples): equal indices, or two opaque entries whose
    /// channels all differ by at most `lossy`.
    static func nearTable(_ table: [UInt8], transparent: UInt8?, lossy: Int) -> [Bool] {
        var near = [Bool](repeating: false, count: 1 << 16)
        let entries = table.count / 3
        for a in 0..<entries {
            for b in 0..<entries {
                if a == b {
                    near[a << 8 | b] = true
                    continue
                }
                if let t = transparent, a == Int(t) || b == Int(t) { continue }
                let d = max(
                    abs(Int(table[3 * a]) - Int(table[3 * b])), abs(Int(table[3 * a + 1]) - Int(table[3 * b + 1])),
                    abs(Int(table[3 * a + 2]) - Int(table[3 * b + 2])))
                near[a << 8 | b] = d <= lossy
            }
        }
        return near
    }

    /// For every index of `table`, the other opaque indices within `lossy` levels per channel,
    /// nearest first (largest channel difference, then squared distance, then index).
    static func similarLists(_ table: [UInt8], transparent: UInt8?, lossy: Int) -> [[UInt8]] {
        let entries = table.count / 3
        return (0..<entries).map { a in
            guard a != transparent.map(Int.init) else { return [] }
            var found: [(key: Int, index: Int)] = []
            for b in 0..<entries where b != a && b != transparent.map(Int.init) {
                let d = (0..<3).map { abs(Int(table[3 * a + $0]) - Int(table[3 * b + $0])) }
                let largest = d.max() ?? 0
                guard largest <= lossy else { continue }
                found.append((largest << 20 | (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]), b))
            }
            return found.sorted { ($0.key, $0.index) < ($1.key, $1.index) }.map { UInt8($0.index) }
        }
    }

    /// The screen after `encoded` is drawn over `canvas`: `shown` (what tolerance alone
    /// leaves) unless the lossy parse chose other symbols, which are then read back.
    func written(_ encoded: Encoded, over canvas: [UInt8], shown: [UInt8]) -> [UInt8] {
        guard !similar.isEmpty else { return shown }
        var result = canvas
        let rect = encoded.rect
        var n = 0
        for y in rect.y..<(rect.y + rect.height) {
            let row = y * width + rect.x
            for p in row..<(row + rect.width) {
                let s = encoded.symbols[n]
                if s != transparent { result[p] = s }
                n += 1
            }
        }
        return result
    }

    /// What the screen shows after `target` is drawn over `canvas`: `target`, except that a
    /// pixel whose shown index is near the wanted one (tolerance) keeps the shown index.
    func display(_ target: [UInt8], over canvas: [UInt8]) -> [UInt8] {
        guard !near.isEmpty else { return target }
        var shown = target
        near.withUnsafeBufferPointer { near in
            for p in 0..<shown.count where near[Int(canvas[p]) << 8 | Int(target[p])] {
                shown[p] = canvas[p]
            }
        }
        return shown
    }

    /// Bounding box of the pixels whose shown index is not near the wanted one, or nil.
    func toleranceBox(shown: [UInt8], wanted: [UInt8]) -> GIFRect? {
        var minX = width
        var maxX = -1
        var minY = height
        var maxY = -1
        shown.withUnsafeBufferPointer { shown in
            wanted.withUnsafeBufferPointer { wanted in
                near.withUnsafeBufferPointer { near in
                    for y in 0..<height {
                        let row = y * width
                        for x in 0..<width where !near[Int(shown[row + x]) << 8 | Int(wanted[row + x])] {
                            minX = min(minX, x)
                            maxX = max(maxX, x)
                            if minY > y { minY = y }
                            maxY = y
                        }
                    }
                }
            }
        }
        guard maxY >= 0 else { return nil }
        return GIFRect(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
    }
}
