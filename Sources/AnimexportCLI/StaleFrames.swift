// SPDX-License-Identifier: GPL-3.0-or-later

import Export
import Foundation
import OutputFiles

/// The `--frames DIR` PNGs an earlier run of the same job left behind when this run writes
/// fewer frames (`--speed 2`: 36 frames, then 18, left `NAME-018.png` … `NAME-035.png`).
///
/// A stale frame is a file in a frames target's folder named like that target's frames
/// (`NAME-` + at least three digits + the prefix's scale suffix, if any, + `.png`, as
/// `FramesFormat.framePath` names them), that this job does not write, and whose size and
/// SHA-256 an animexport manifest in that folder or in the folder of another of the job's
/// files lists (`OwnFiles.records`). A file the tool did not write, or one edited since, is
/// never a stale frame, nor is the first output of another job (a `--frame N -o DIR/` still,
/// named like a frame, with its own manifest `.NAME-040.png.animexport.json` beside it). Write
/// runs remove them after the job's files are committed
/// (`docs/cli.md`, "Frames").
enum StaleFrames {
    /// `job`'s stale frames, sorted; empty when the job writes no frames.
    static func find(for job: ExportJob) -> [FilePath] {
        let prefixes = job.targets.filter { $0.written && $0.kind == .frames }.map(\.path)
        guard !prefixes.isEmpty else { return [] }
        let own = Set(job.paths)
        var candidates: [FilePath] = []
        for prefix in prefixes {
            let folder = prefix.directory
            guard let names = try? folder.entries() else { continue }
            for name in names where matches(name.bytes, prefix: prefix.lastComponent.bytes) {
                let path = folder.appending(name)
                // The first output of a job of its own (`--frame 40 -o DIR/` writes
                // `NAME-040.png` with its manifest beside it) is that job's, not a stale frame.
                let ownManifest = folder.appending(FilePath(bytes: [UInt8(ascii: ".")] + name.bytes) + Manifest.suffix)
                if !own.contains(path), path.kind == .regular, ownManifest.kind == .none { candidates.append(path) }
            }
        }
        guard !candidates.isEmpty else { return [] }
        let records = OwnFiles.records(in: prefixes.map(\.directory) + job.paths.map(\.directory))
        // By content only: a manifest listing the name does not make an edited file stale.
        let recorded = (hashes: records.hashes, names: Set<FilePath>(), staged: Set<FilePath>())
        return candidates.filter { OwnFiles.isRecorded($0, in: recorded) }.sorted()
    }

    /// Whether `name` is `prefix`'s frame name: `STEM-DDD[…]SUFFIX.png`, with `prefix` =
    /// `STEM` + `SUFFIX` (a scale suffix such as `@2x`, or nothing).
    static func matches(_ name: [UInt8], prefix: [UInt8]) -> Bool {
        let split = FramesFormat.scaleSuffixStart(prefix) ?? prefix.endIndex
        let head = Array(prefix[..<split]) + [UInt8(ascii: "-")]
        let tail = Array(prefix[split...]) + Array(".png".utf8)
        guard name.count >= head.count + 3 + tail.count, name.starts(with: head),
            Array(name.suffix(tail.count)) == tail
        else { return false }
        let digits = name[head.count..<(name.count - tail.count)]
        return digits.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }
}
