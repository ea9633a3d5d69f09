// SPDX-License-Identifier: GPL-3.0-or-later

import Glibc

#if canImport(Glibc)
    import Glibc
#endif

/// A file write that failed; says which file and why.
public struct WriteError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file that could not be written.
    public var path: FilePath
    /// Why, in a few words (the system's `strerror` text).
    public var reason: String
    /// `cannot write PATH: REASON` (the path as `FilePath.description` shows it).
    public var message: String { "cannot write \(path): \(reason)" }
    /// Same as `message`.
    public var description: String { message }
    /// A failure to write `path`.
    public init(path: FilePath, reason: String) {
        self.path = path
        self.reason = reason
    }
}

/// Writes files so that a reader (or a crash) never sees half of one: the bytes go to a
/// temporary file in the same directory, which is then renamed over the target (rename is atomic
/// within a file system).
///
/// Writing is two steps, so that a job can stage all its files and then put them in place
/// together: `stage` writes the bytes completely under a hidden name, `commit` renames it over
/// the target. On Linux the file has no name at all while it is written (`O_TMPFILE`) and is
/// linked in under the hidden name only once complete, so a kill mid-write leaves nothing; a
/// kill between staging and commit leaves a complete hidden `.NAME.axPID-XXXXXX`, which the
/// next run that writes into that folder removes (`removeStale`) once process PID is gone. File
/// systems without `O_TMPFILE`, or a system without /proc, get a named `mkstemp` file.
public enum AtomicFile {
    /// The folder `path` lies in (`.` for a bare name).
    public static func directory(of path: FilePath) -> FilePath { path.directory }

    /// Checks that the folder of `path` exists and, when `writable`, that a file can be created
    /// in it (by creating and removing an empty temporary file: the only test that also holds
    /// for root, read-only mounts and special file systems).
    /// - Throws: `WriteError` naming `path` and what is wrong with its folder.
    public static func checkDirectory(of path: FilePath, writable: Bool) throws(WriteError) {
        let dir = directory(of: path)
        switch dir.kind {
        case .none: throw WriteError(path: path, reason: "directory \(dir) does not exist")
        case .directory: break
        default: throw WriteError(path: path, reason: "\(dir) is not a directory")
        }
        guard writable else { return }
        var template = cString(dir.appending(".animexport-probe.ax\(getpid())-XXXXXX"))
        let fd = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
            guard let start = buffer.baseAddress else { return -1 }
            return mkstemp(start)
        }
        guard fd >= 0 else {
            throw WriteError(
                path: path,
                reason: "directory \(dir) is not writable: \(FilePath.creationFailure(errno: errno, in: dir))")
        }
        close(fd)
        template.withUnsafeBufferPointer { buffer in
            if let start = buffer.baseAddress { _ = unlink(start) }
        }
    }

    /// How a file was staged.
    public enum Method: Equatable, Sendable {
        /// Through an unnamed `O_TMPFILE`, named only when complete.
        case unnamed
        /// Through a named `mkstemp` temporary file.
        case named
    }

    /// A complete file under a hidden name beside its target, waiting for `commit`.
    public struct Staged: Equatable, Sendable {
        /// The hidden file, `dir/.NAME.axPID-XXXXXX`.
        public var temporary: FilePath
        /// Where `commit` puts it.
        public var path: FilePath
        /// How it was written.
        public var method: Method
    }

    /// Writes `bytes` to `path` atomically: `stage` then `commit`.
    /// - Parameter unnamed: try an unnamed temporary file first (`O_TMPFILE`, Linux); false
    ///   goes straight to `mkstemp` (tests use it to reach that path).
    /// - Returns: which temporary file it went through.
    /// - Throws: `WriteError` naming the file and the reason; no file is left behind.
    @discardableResult
    public static func write(_ bytes: [UInt8], to path: FilePath, unnamed: Bool = true) throws(WriteError) -> Method {
        let staged = try stage(bytes, to: path, unnamed: unnamed)
        try commit(staged)
        return staged.method
    }

    /// Writes `bytes` completely to a hidden file beside `path` (see the type's documentation).
    /// - Throws: `WriteError` naming `path`; nothing is left behind.
    public static func stage(_ bytes: [UInt8], to path: FilePath, unnamed: Bool = true) throws(WriteError) -> Staged {
        try checkDirectory(of: path, writable: false)
        let dir = directory(of: path)
        let base = path.lastComponent
        #if os(Linux) && (arch(x86_64) || arch(arm64))
            if unnamed, let temporary = try stageUnnamed(bytes, to: path, in: dir, base: base) {
                return Staged(temporary: temporary, path: path, method: .unnamed)
            }
        #endif
        var template = cString(dir.appending(hiddenPrefix(base) + "XXXXXX"))
        let fd = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
            guard let start = buffer.baseAddress else { return -1 }
            return mkstemp(start)
        }
        guard fd >= 0 else { throw WriteError(path: path, reason: String(cString: strerror(errno))) }
        let temporary = FilePath(bytes: template.map { UInt8(bitPattern: $0) })
        var failure = writeAll(bytes, to: fd)
        // mkstemp creates 0600; give the asset the usual permissions (umask applies to others).
        let mask = umask(0)
        umask(mask)
        fchmod(fd, 0o666 & ~mask)
        if close(fd) != 0 && failure == nil { failure = String(cString: strerror(errno)) }
        if let failure {
            temporary.withCString { _ = unlink($0) }
            throw WriteError(path: path, reason: failure)
        }
        return Staged(temporary: temporary, path: path, method: .named)
    }

    /// Renames a staged file over its target.
    /// - Throws: `WriteError` naming the target; the hidden file is removed.
    public static func commit(_ staged: Staged) throws(WriteError) {
        let renamed = staged.temporary.withCString { from in staged.path.withCString { to in rename(from, to) } }
        if renamed != 0 {
            let reason = String(cString: strerror(errno))
            discard(staged)
            throw WriteError(path: staged.path, reason: reason)
        }
    }

    /// Removes a staged file that will not be committed.
    public static func discard(_ staged: Staged) { staged.temporary.withCString { _ = unlink($0) } }

    /// Removes the file at `path`, if any (a sheet's JSON of an earlier run).
    public static func remove(_ path: FilePath) { path.withCString { _ = unlink($0) } }

    /// `.NAME.axPID-`: the hidden name's start for this process (the name keeps its bytes).
    private static func hiddenPrefix(_ base: FilePath) -> FilePath {
        FilePath(bytes: [UInt8(ascii: ".")] + base.bytes) + ".ax\(getpid())-"
    }

    /// `path` as a mutable NUL-terminated buffer, for `mkstemp`.
    private static func cString(_ path: FilePath) -> [CChar] { path.bytes.map { CChar(bitPattern: $0) } + [0] }

    /// Removes the hidden files that runs killed between staging and commit left in `directory`:
    /// names `.NAME.axPID-XXXXXX` (and `.animexport-probe.axPID-XXXXXX`) whose process PID no
    /// longer exists. Files of a live process (another animexport writing there now) are left.
    /// - Returns: the files removed.
    @discardableResult
    public static func removeStale(in directory: FilePath) -> [FilePath] {
        guard let names = try? directory.entries() else { return [] }
        var removed: [FilePath] = []
        for name in names where name.bytes.first == UInt8(ascii: ".") {
            guard let pid = stagingPID(name), pid != getpid(), kill(pid, 0) != 0, errno == ESRCH else { continue }
            let path = directory.appending(name)
            if path.withCString({ unlink($0) }) == 0 { removed.append(path) }
        }
        return removed
    }

    /// The PID in a staging name `.NAME.axPID-XXXXXX`, or nil for any other name.
    public static func stagingPID(_ name: FilePath) -> Int32? {
        let chars = name.bytes
        guard chars.count > 12, chars[chars.count - 7] == UInt8(ascii: "-") else { return nil }
        // Walk back over the PID's digits to ".ax".
        var i = chars.count - 8
        var digits: [UInt8] = []
        while i >= 0, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(chars[i]), digits.count < 10 {
            digits.insert(chars[i], at: 0)
            i -= 1
        }
        guard !digits.isEmpty, i >= 3, chars[i] == UInt8(ascii: "x"), chars[i - 1] == UInt8(ascii: "a"),
            chars[i - 2] == UInt8(ascii: ".")
        else { return nil }
        return Int32(String(decoding: digits, as: UTF8.self))
    }

    #if os(Linux) && (arch(x86_64) || arch(arm64))
        /// `O_TMPFILE` (Linux's asm-generic value, which x86-64 and arm64 use; Glibc's Swift
        /// overlay does not export it, as it needs `_GNU_SOURCE`).
        private static let openTemporaryFile: Int32 = 0o20000000 | O_DIRECTORY

        /// Writes `bytes` to an unnamed file in `dir` and links it in as `.BASE.axPID-XXXXXX`.
        /// Returns nil, having left nothing behind, when the file system or the system cannot do
        /// it (`O_TMPFILE` refused, no /proc to link through), so the caller falls back to
        /// `mkstemp`.
        /// - Throws: `WriteError` when the bytes could not be written.
        private static func stageUnnamed(_ bytes: [UInt8], to path: FilePath, in dir: FilePath, base: FilePath)
            throws(WriteError) -> FilePath?
        {
            // The mode is reduced by the umask, as for any new file.
            let fd = dir.withCString { open($0, openTemporaryFile | O_WRONLY | O_CLOEXEC, 0o666) }
            guard fd >= 0 else { return nil }
            if let failure = writeAll(bytes, to: fd) {
                close(fd)
                throw WriteError(path: path, reason: failure)
            }
            let source = "/proc/self/fd/\(fd)"
            var temporary = FilePath("")
            var linked = false
            for _ in 0..<16 {
                let suffix = String((0..<6).map { _ in "abcdefghijklmnopqrstuvwxyz0123456789".randomElement() ?? "x" })
                temporary = dir.appending(hiddenPrefix(base) + suffix)
                if temporary.withCString({ linkat(AT_FDCWD, source, AT_FDCWD, $0, AT_SYMLINK_FOLLOW) }) == 0 {
                    linked = true
                    break
                }
                if errno != EEXIST { break }
            }
            let closed = close(fd) == 0 ? nil : String(cString: strerror(errno))
            guard linked else { return nil }
            if let closed {
                temporary.withCString { _ = unlink($0) }
                throw WriteError(path: path, reason: closed)
            }
            return temporary
        }
    #endif

    /// Writes all of `bytes` to `fd`, retrying after signals. Returns the error, or nil.
    private static func writeAll(_ bytes: [UInt8], to fd: Int32) -> String? {
        bytes.withUnsafeBytes { buffer -> String? in
            guard let start = buffer.baseAddress else { return nil }
            var offset = 0
            while offset < buffer.count {
                let n = Glibc.write(fd, start + offset, buffer.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return String(cString: strerror(errno))
                }
                offset += n
            }
            return nil
        }
    }
}
