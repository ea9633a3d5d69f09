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
    static func write(_ bytes: [UInt8], to path: String) throws(WriteError) {
        let directory = (path as NSString).deletingLastPathComponent
        let dir = directory.isEmpty ? "." : directory
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: dir, isDirectory: &isDirectory) else {
            throw WriteError(path: path, reason: "directory \(dir) does not exist")
        }
        guard isDirectory.boolValue else {
            throw WriteError(path: path, reason: "\(dir) is not a directory")
        }
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
