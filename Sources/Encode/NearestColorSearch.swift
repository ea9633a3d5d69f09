// SPDX-License-Identifier: GPL-3.0-or-later

/// Exact nearest-colour lookup in a palette by squared RGB distance, the lowest position
/// winning a tie — the same answer as comparing against every entry, found faster.
///
/// Entries are sorted by green (the channel that carries most luminance). A query starts at
/// its own green value and walks outward in both directions; a direction stops once its green
/// difference alone is larger than the best distance so far, since no entry further along can
/// be closer. Typical palettes need a few dozen comparisons instead of 255.
struct NearestColorSearch {
    /// Palette entries sorted by (green, position).
    private let entries: [(green: Int, red: Int, blue: Int, position: Int)]

    /// - Parameter colors: the palette, `0x00RRGGBB`; positions are indices into this array.
    init(colors: [UInt32]) {
        entries = colors.enumerated()
            .map { position, color in
                (
                    green: Int(color >> 8 & 0xFF), red: Int(color >> 16 & 0xFF), blue: Int(color & 0xFF),
                    position: position
                )
            }
            .sorted { ($0.green, $0.position) < ($1.green, $1.position) }
    }

    /// Position of the entry nearest to `color` (`0x00RRGGBB`); 0 for an empty palette.
    func nearest(to color: UInt32) -> Int {
        guard !entries.isEmpty else { return 0 }
        let r = Int(color >> 16 & 0xFF)
        let g = Int(color >> 8 & 0xFF)
        let b = Int(color & 0xFF)
        // First entry with green ≥ g.
        var low = 0
        var high = entries.count
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].green < g { low = middle + 1 } else { high = middle }
        }
        var bestDistance = Int.max
        var bestPosition = Int.max
        func consider(_ i: Int) {
            let e = entries[i]
            let dr = e.red - r
            let dg = e.green - g
            let db = e.blue - b
            let distance = dr * dr + dg * dg + db * db
            if distance < bestDistance || (distance == bestDistance && e.position < bestPosition) {
                bestDistance = distance
                bestPosition = e.position
            }
        }
        var up = low
        var down = low - 1
        var upOpen = up < entries.count
        var downOpen = down >= 0
        while upOpen || downOpen {
            if upOpen {
                let dg = entries[up].green - g
                // `>` rather than `≥`: an entry at exactly the best distance may still win the tie.
                if dg * dg > bestDistance {
                    upOpen = false
                } else {
                    consider(up)
                    up += 1
                    upOpen = up < entries.count
                }
            }
            if downOpen {
                let dg = g - entries[down].green
                if dg * dg > bestDistance {
                    downOpen = false
                } else {
                    consider(down)
                    down -= 1
                    downOpen = down >= 0
                }
            }
        }
        return bestPosition
    }
}
