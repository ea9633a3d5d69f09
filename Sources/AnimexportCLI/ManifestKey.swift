// SPDX-License-Identifier: GPL-3.0-or-later

import Export
import Foundation
import OutputFiles

#if canImport(Glibc)
    import Glibc
#endif

/// The per-user secret that authenticates manifests (`Manifest`): 32 random bytes in
/// `$XDG_CACHE_HOME/animexport/manifest.key` (`~/.cache/animexport/manifest.key` when
/// `XDG_CACHE_HOME` is unset or not absolute, as the XDG Base Directory specification says),
/// created on first use with mode 0600 in a folder of mode 0700. A manifest written under
/// another key (another user, another machine, or a hand-edited file) does not verify and is
/// "not trusted": `check` then renders.
enum ManifestKey {
    /// The key, or why there is none (manifests are then neither trusted nor written).
    enum State: Equatable, Sendable {
        /// 32 secret bytes.
        case key([UInt8])
        /// A sentence naming the file and the problem.
        case unusable(String)
    }

    /// Key size in bytes (the SHA-256 block is 64; 32 is HMAC-SHA-256's recommended minimum,
    /// RFC 2104 §3).
    static let size = 32

    /// This process's key, loaded (or created) once.
    static let current: State = load(environment: ProcessInfo.processInfo.environment)

    /// Where the key lives for `environment`, or nil when neither `XDG_CACHE_HOME` (absolute)
    /// nor `HOME` is set.
    static func path(environment: [String: String]) -> FilePath? {
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") {
            return FilePath(cache).appending("animexport").appending("manifest.key")
        }
        if let home = environment["HOME"], home.hasPrefix("/") {
            return FilePath(home).appending(".cache").appending("animexport").appending("manifest.key")
        }
        return nil
    }

    /// Reads the key at its path, creating it (and its folders) when it does not exist.
    static func load(environment: [String: String]) -> State {
        guard let path = path(environment: environment) else {
            return .unusable("no manifest key: neither XDG_CACHE_HOME nor HOME is set")
        }
        if let state = read(path) { return state }
        let folder = path.directory
        if let problem = makeFolders(folder) { return .unusable("cannot create \(folder): \(problem)") }
        let fresh: [UInt8]
        do {
            fresh = try Digest.randomBytes(size)
        } catch {
            return .unusable("cannot create \(path): \(error.reason)")
        }
        // Written under a private temporary name, then linked in: two runs creating the key at
        // once both end up with the one that was linked first, and no reader sees half a key.
        var template = Array(folder.appending(".manifest.key.XXXXXX").bytes.map { CChar(bitPattern: $0) }) + [0]
        let fd = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
            guard let start = buffer.baseAddress else { return -1 }
            return mkstemp(start)
        }
        guard fd >= 0 else { return .unusable("cannot create \(path): \(String(cString: strerror(errno)))") }
        let temporary = FilePath(bytes: template.dropLast().map { UInt8(bitPattern: $0) })
        defer { temporary.withCString { _ = unlink($0) } }
        let written = fresh.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        let synced = fsync(fd)
        close(fd)
        guard written == size, synced == 0 else {
            return .unusable("cannot write \(path): \(String(cString: strerror(errno)))")
        }
        let linked = temporary.withCString { from in path.withCString { to in link(from, to) } }
        if linked != 0 && errno != EEXIST {
            return .unusable("cannot create \(path): \(String(cString: strerror(errno)))")
        }
        return read(path) ?? .unusable("cannot read \(path) after creating it")
    }

    /// The key at `path`; nil when there is no file; `.unusable` when it is not a regular file
    /// of this user, is readable by others, or is not 32 bytes long.
    static func read(_ path: FilePath) -> State? {
        let fd = path.withCString { open($0, O_RDONLY | O_CLOEXEC | O_NOFOLLOW) }
        guard fd >= 0 else {
            return errno == ENOENT ? nil : .unusable("cannot read \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            return .unusable("\(path) is not a regular file")
        }
        guard info.st_uid == geteuid() else { return .unusable("\(path) belongs to another user") }
        guard info.st_mode & 0o077 == 0 else {
            return .unusable(
                "\(path) may be read by others (mode \(String(info.st_mode & 0o777, radix: 8)); expected 600)")
        }
        var bytes = [UInt8](repeating: 0, count: size + 1)
        let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        guard n == size else { return .unusable("\(path) is not a \(size)-byte key") }
        return .key(Array(bytes.prefix(size)))
    }

    /// `mkdir -p` with mode 0700 for the folders it creates; nil, or the reason it failed.
    private static func makeFolders(_ folder: FilePath) -> String? {
        if folder.isDirectory { return nil }
        let parent = folder.directory
        if parent != folder, !parent.isDirectory, let problem = makeFolders(parent) { return problem }
        if folder.withCString({ mkdir($0, 0o700) }) != 0 && errno != EEXIST { return String(cString: strerror(errno)) }
        return nil
    }
}
