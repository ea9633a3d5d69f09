// SPDX-License-Identifier: GPL-3.0-or-later

import Export
import OutputFiles
import ToolOptions

/// `--shard K/N`: the K-th of N slices of a batch, for CI matrices (GitHub Actions' `matrix`,
/// GitLab's `parallel`). The jobs are grouped by preset file (as the user named it). Within a
/// preset, its jobs (scales, `--set` variants) are sorted by estimated cost, pixels × frames,
/// largest first (ties by first output path, bytes), and dealt round-robin starting at shard
/// `h mod N + 1`, where `h` is the 64-bit FNV-1a hash of the preset's path: the preset's job
/// number `i` (0-based) goes to shard `(h + i) mod N + 1`. So a preset's @1x and @2x jobs land
/// on different shards, and where a job goes depends only on its own preset's jobs: adding or
/// removing another preset moves no job. The N shards are disjoint and their union is the whole
/// batch. Each job renders exactly as it would unsharded, so the bytes never depend on the
/// slicing.
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
        var groups: [FilePath: [Int]] = [:]
        for i in jobs.indices { groups[jobs[i].presetPath, default: []].append(i) }
        var mine = Set<Int>()
        let n = UInt64(count)
        for (preset, members) in groups {
            let order = members.sorted { a, b in
                let (ca, cb) = (Self.cost(jobs[a]), Self.cost(jobs[b]))
                if ca != cb { return ca > cb }
                let (ka, kb) = (Self.key(jobs[a]), Self.key(jobs[b]))
                return ka < kb || (ka == kb && a < b)
            }
            let start = Self.fnv1a(preset.bytes) % n
            for (rank, i) in order.enumerated() where (start + UInt64(rank) % n) % n == UInt64(index - 1) {
                mine.insert(i)
            }
        }
        return jobs.indices.filter { mine.contains($0) }.map { jobs[$0] }
    }

    /// Estimated render cost: pixels per frame × frames (saturating, never traps).
    static func cost(_ job: ExportJob) -> UInt64 {
        let size = job.request.pixelSize
        let pixels = UInt64(max(0, size.width)).multipliedReportingOverflow(by: UInt64(max(0, size.height)))
        let total = pixels.partialValue.multipliedReportingOverflow(by: UInt64(max(0, job.plan.frameCount)))
        return pixels.overflow || total.overflow ? .max : total.partialValue
    }

    private static func key(_ job: ExportJob) -> FilePath { job.paths.first ?? FilePath(job.stem) }

    /// 64-bit FNV-1a (offset basis 14695981039346656037, prime 1099511628211; Fowler, Noll and
    /// Vo, draft-eastlake-fnv).
    static func fnv1a(_ bytes: [UInt8]) -> UInt64 {
        var h: UInt64 = 14_695_981_039_346_656_037
        for b in bytes { h = (h ^ UInt64(b)) &* 1_099_511_628_211 }
        return h
    }
}
