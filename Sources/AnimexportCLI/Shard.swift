// SPDX-License-Identifier: GPL-3.0-or-later

import Export

/// `--shard K/N`: the K-th of N slices of a batch, for CI matrices (GitHub Actions' `matrix`,
/// GitLab's `parallel`). The jobs are sorted by their first output path (bytes), which is the
/// same on every machine for the same command, and dealt round-robin: job number `i` (0-based)
/// of the sorted list goes to shard `i mod N + 1`. The N shards are disjoint, their union is the
/// whole batch, and their sizes differ by at most one job. Each job renders exactly as it would
/// unsharded, so the bytes never depend on the slicing.
struct Shard: Equatable, Sendable {
    /// K, 1-based: 1 ≤ index ≤ count.
    var index: Int
    /// N ≥ 1.
    var count: Int

    /// The largest N accepted.
    static let maximumCount = 1_000_000

    /// Parses `K/N`.
    /// - Throws: `UsageError` (exit 64) unless K and N are whole numbers with N ≥ 1 and 1 ≤ K ≤ N.
    static func parse(_ text: String) throws(UsageError) -> Shard {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.count <= 7 }),
            let k = Int(parts[0]), let n = Int(parts[1])
        else {
            throw UsageError(message: "--shard \(text.prefix(40)): expected K/N, such as 1/4")
        }
        guard n >= 1, n <= maximumCount else {
            throw UsageError(message: "--shard \(text): N must be 1…\(maximumCount)")
        }
        guard k >= 1, k <= n else { throw UsageError(message: "--shard \(text): K must be 1…\(n)") }
        return Shard(index: k, count: n)
    }

    /// The jobs of this shard, in their original order.
    func select(_ jobs: [ExportJob]) -> [ExportJob] {
        let keys = jobs.map { $0.paths.first ?? FilePath($0.stem) }
        let order = jobs.indices.sorted { keys[$0] < keys[$1] || (keys[$0] == keys[$1] && $0 < $1) }
        var mine = Set<Int>()
        for (rank, i) in order.enumerated() where rank % count == index - 1 { mine.insert(i) }
        return jobs.indices.filter { mine.contains($0) }.map { jobs[$0] }
    }
}
