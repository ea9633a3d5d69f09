// SPDX-License-Identifier: GPL-3.0-or-later

import Export
import Foundation
import OutputFiles
import Spec

#if canImport(Glibc)
    import Glibc
#endif

/// What `--watch` compares to notice a save: modification time (to the nanosecond), size and
/// inode (editors that save by renaming a new file over the old one change the inode).
struct FileStamp: Equatable, Sendable {
    /// False when the file cannot be found (mid-save, or deleted).
    var exists: Bool
    var seconds: Int
    var nanoseconds: Int
    var size: Int64
    var inode: UInt64

    /// The stamp of `path` now.
    init(of path: FilePath) {
        var info = stat()
        if path.withCString({ stat($0, &info) }) == 0 {
            exists = true
            seconds = Int(info.st_mtim.tv_sec)
            nanoseconds = Int(info.st_mtim.tv_nsec)
            size = Int64(info.st_size)
            inode = UInt64(info.st_ino)
        } else {
            exists = false
            seconds = 0
            nanoseconds = 0
            size = 0
            inode = 0
        }
    }

    /// Stamps of several files, by path.
    static func of(_ paths: [FilePath]) -> [FilePath: FileStamp] {
        Dictionary(paths.map { ($0, FileStamp(of: $0)) }, uniquingKeysWith: { a, _ in a })
    }

    /// The files a preset uses besides itself: every string value in its JSON that names an
    /// existing regular file relative to the preset's folder (or absolute), such as an image
    /// layer's PNG. Independent of the layer model, so it keeps working as layer types are added.
    /// - Returns: the paths, sorted; nil when the preset cannot be read or parsed.
    static func referencedFiles(ofPreset path: FilePath) -> [FilePath]? {
        guard let data = try? path.read(), let root = try? JSONParser.parse(bytes: data) else { return nil }
        let directory = path.directory
        var found = Set<FilePath>()
        func visit(_ value: JSONValue) {
            switch value.kind {
            case .string(let s):
                guard !s.isEmpty, !s.hasPrefix("$"), !s.hasPrefix("#"), s.count < 4096 else { return }
                let candidate = s.hasPrefix("/") ? FilePath(s) : directory.appending(s)
                let kind = candidate.kind
                if candidate != path, kind != .none, kind != .directory {
                    found.insert(candidate)
                }
            case .array(let items): items.forEach(visit)
            case .object(let object): object.members.forEach { visit($0.value) }
            default: break
            }
        }
        visit(root)
        return found.sorted()
    }
}
