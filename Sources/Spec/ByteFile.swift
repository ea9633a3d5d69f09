// SPDX-License-Identifier: GPL-3.0-or-later

import Glibc

/// Reads files named by the bytes of their path, as Linux names them: a name that is not UTF-8
/// (`caf\xE9/ring.png`) cannot pass through a Swift `String` without becoming U+FFFD, so image
/// layers resolve and read their files through this (`docs/cli.md`, File names).
public enum ByteFile {
    /// The first `limit` bytes of the file at `path` (bytes, no terminating NUL), or nil when it
    /// cannot be opened or read (missing, a directory, no permission, a NUL inside `path`).
    /// - Parameters:
    ///   - path: the path's bytes, absolute or relative to the working directory.
    ///   - limit: most bytes returned, ≥ 0 (default 1 GiB, the preset reader's own limit).
    ///   - regularOnly: refuse anything but a regular file (default); false also reads pipes and
    ///     devices (a preset given as `<(…)` or `/dev/stdin`), never a directory.
    public static func read(_ path: [UInt8], limit: Int = 1 << 30, regularOnly: Bool = true) -> [UInt8]? {
        guard !path.contains(0) else { return nil }
        let name = path.map { CChar(bitPattern: $0) } + [0]
        let fd = open(name, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { return nil }
        let kind = status.st_mode & S_IFMT
        guard kind == S_IFREG || (!regularOnly && kind != S_IFDIR) else { return nil }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while bytes.count < limit {
            let want = min(chunk.count, limit - bytes.count)
            let got = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, want) }
            if got < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if got == 0 { break }
            bytes += chunk[0..<got]
        }
        return bytes
    }

    /// `directory/file` as bytes: `file` as it is when it is absolute or `directory` is empty.
    /// - Parameters:
    ///   - file: a name as a preset writes it (UTF-8, as JSON strings are).
    ///   - directory: the preset's folder as bytes (`FilePath.directory` in the CLI).
    public static func resolve(_ file: String, in directory: [UInt8]) -> [UInt8] {
        let name = Array(file.utf8)
        if file.hasPrefix("/") || directory.isEmpty { return name }
        return directory + [UInt8(ascii: "/")] + name
    }

    /// `path` for messages: its well-formed UTF-8 as it is, every byte of an ill-formed part
    /// (a maximal subpart, Unicode table 3-7) as `\xHH` in upper case, as the CLI's
    /// `FilePath.description` shows names (`caf\xE9/ring.png`).
    public static func shown(_ path: [UInt8]) -> String {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = path.makeIterator()
        var out = ""
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                out.unicodeScalars.append(Unicode.UTF8.decode(encoded))
                offset += encoded.count
            case .error(let length):
                for byte in path[offset..<min(offset + length, path.count)] {
                    let hex = String(byte, radix: 16, uppercase: true)
                    out += "\\x" + (hex.count == 1 ? "0" + hex : hex)
                }
                offset += length
            case .emptyInput:
                return out
            }
        }
    }
}
