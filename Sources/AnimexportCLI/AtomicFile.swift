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

    /// Writes `bytes` to `path` atomically (see the type's documentation).
    /// - Throws: `WriteError` naming the file and the reason; no file is left behind.
    static func write(_ bytes: [UInt8], to path: String) throws(WriteError) {
        try checkDirectory(of: path, writable: false)
        let dir = directory(of: path)
        let base = (path as NSString).lastPathComponent
        var template = Array("\(dir)/.\(base).XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
            guard let start = buffer.baseAddress else { return -1 }
            return mkstemp(start)
        }
        guard fd >= 0 else { throw WriteError(path: path, reason: String(cString: strerror(errno))) }
        let temporary = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        var failure: String?
        bytes.withUnsafeBytes { buffer in
            guard let start = buffer.baseAddress else { return }
            var offset = 0
            while offset < buffer.count {
                let n = Glibc.write(fd, start + offset, buffer.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = String(cString: strerror(errno))
                    return
                }
                offset += n
            }
        }
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
    }
}
