// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A file write that failed; says which file and why.
struct WriteError: Error, Equatable {
    var path: String
    var reason: String
    var message: String { "cannot write \(path): \(reason)" }
}

/// Writes files so that a reader (or a crash) never sees half of one: the bytes go to a
/// temporary file in the same directory, which is then renamed over the target (rename is atomic
/// within a file system).
///
/// On Linux the temporary file has no name while it is written (`O_TMPFILE`): it is linked in
/// under a hidden name only once complete and renamed over the target at once, so a process
/// killed mid-write (a cancelled CI job, Ctrl-C) leaves nothing behind. File systems without
/// `O_TMPFILE`, or a system without /proc, get a named temporary file (`mkstemp`) instead, which
/// such a kill can leave as `.NAME.XXXXXX`.
enum AtomicFile {
    /// The folder `path` lies in (`.` for a bare name).
    static func directory(of path: String) -> String {
        let directory = (path as NSString).deletingLastPathComponent
        return directory.isEmpty ? "." : directory
    }

    /// Checks that the folder of `path` exists and, when `writable`, that a file can be created
    /// in it (by creating and removing an empty temporary file: the only test that also holds
    /// for root, read-only mounts and special file systems).
    static func checkDirectory(of path: String, writable: Bool) throws(WriteError) {
        let dir = directory(of: path)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: dir, isDirectory: &isDirectory) else {
            throw WriteError(path: path, reason: "directory \(dir) does not exist")
        }
        guard isDirectory.boolValue else {
            throw WriteError(path: path, reason: "\(dir) is not a directory")
        }
        guard writable else { return }
        var template = Array("\(dir)/.animexport-probe.XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
            guard let start = buffer.baseAddress else { return -1 }
            return mkstemp(start)
        }
        guard fd >= 0 else {
            throw WriteError(
                path: path, reason: "directory \(dir) is not writable (\(String(cString: strerror(errno))))")
        }
        close(fd)
        template.withUnsafeBufferPointer { buffer in
            if let start = buffer.baseAddress { _ = unlink(start) }
        }
    }

    /// A thrown error's reason in a few words (Foundation errors carry the POSIX one).
    static func reason(_ error: any Error) -> String {
        if let posix = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError,
            posix.domain == NSPOSIXErrorDomain
        {
            return String(cString: strerror(Int32(posix.code)))
        }
        return (error as NSError).localizedDescription
    }

    /// How `write` wrote a file.
    enum Method: Equatable {
        /// Through an unnamed `O_TMPFILE`, named only when complete.
        case unnamed
        /// Through a named `mkstemp` temporary file.
        case named
    }

    /// Writes `bytes` to `path` atomically (see the type's documentation).
    /// - Parameter unnamed: try an unnamed temporary file first (`O_TMPFILE`, Linux); false
    ///   goes straight to `mkstemp` (tests use it to reach that path).
    /// - Returns: which temporary file it went through.
    /// - Throws: `WriteError` naming the file and the reason; no file is left behind.
    @discardableResult
    static func write(_ bytes: [UInt8], to path: String, unnamed: Bool = true) throws(WriteError) -> Method {
        try checkDirectory(of: path, writable: false)
        let dir = directory(of: path)
        let base = (path as NSString).lastPathComponent
        #if os(Linux) && (arch(x86_64) || arch(arm64))
            if unnamed, try writeUnnamed(bytes, to: path, in: dir, base: base) { return .unnamed }
        #endif
        var template = Array("\(dir)/.\(base).XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
            guard let start = buffer.baseAddress else { return -1 }
            return mkstemp(start)
        }
        guard fd >= 0 else { throw WriteError(path: path, reason: String(cString: strerror(errno))) }
        let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var failure = writeAll(bytes, to: fd)
        // mkstemp creates 0600; give the asset the usual permissions (umask applies to others).
        let mask = umask(0)
        umask(mask)
        fchmod(fd, 0o666 & ~mask)
        if close(fd) != 0 && failure == nil { failure = String(cString: strerror(errno)) }
        if failure == nil && rename(temporary, path) != 0 { failure = String(cString: strerror(errno)) }
        if let failure {
            unlink(temporary)
            throw WriteError(path: path, reason: failure)
        }
        return .named
    }

    #if os(Linux) && (arch(x86_64) || arch(arm64))
        /// `O_TMPFILE` (Linux's asm-generic value, which x86-64 and arm64 use; Glibc's Swift
        /// overlay does not export it, as it needs `_GNU_SOURCE`).
        private static let openTemporaryFile: Int32 = 0o20000000 | O_DIRECTORY

        /// Writes `bytes` to an unnamed file in `dir`, links it in as `.BASE.XXXXXX` and renames
        /// that over `path`. Returns false, having left nothing behind, when the file system or
        /// the system cannot do it (`O_TMPFILE` refused, no /proc to link through), so the caller
        /// falls back to `mkstemp`.
        /// - Throws: `WriteError` when the bytes could not be written or put in place.
        private static func writeUnnamed(_ bytes: [UInt8], to path: String, in dir: String, base: String)
            throws(WriteError) -> Bool
        {
            // The mode is reduced by the umask, as for any new file.
            let fd = open(dir, openTemporaryFile | O_WRONLY | O_CLOEXEC, 0o666)
            guard fd >= 0 else { return false }
            if let failure = writeAll(bytes, to: fd) {
                close(fd)
                throw WriteError(path: path, reason: failure)
            }
            let source = "/proc/self/fd/\(fd)"
            var temporary = ""
            var linked = false
            for _ in 0..<16 {
                let suffix = String((0..<6).map { _ in "abcdefghijklmnopqrstuvwxyz0123456789".randomElement() ?? "x" })
                temporary = "\(dir)/.\(base).\(suffix)"
                if linkat(AT_FDCWD, source, AT_FDCWD, temporary, AT_SYMLINK_FOLLOW) == 0 {
                    linked = true
                    break
                }
                if errno != EEXIST { break }
            }
            let closed = close(fd) == 0 ? nil : String(cString: strerror(errno))
            guard linked else { return false }
            var failure = closed
            if failure == nil && rename(temporary, path) != 0 { failure = String(cString: strerror(errno)) }
            if let failure {
                unlink(temporary)
                throw WriteError(path: path, reason: failure)
            }
            return true
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
