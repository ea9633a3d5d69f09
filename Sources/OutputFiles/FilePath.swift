// SPDX-License-Identifier: GPL-3.0-or-later

import Glibc

#if canImport(Glibc)
    import Glibc
#endif

/// A file name as Linux keeps it: a string of bytes without NUL, in no particular encoding.
///
/// Swift's `String` repairs invalid UTF-8 (a Latin-1 `café.json`, bytes `63 61 66 E9 …`, becomes
/// `caf\u{FFFD}.json`), so a name that went through a `String` can no longer be opened. Every
/// path the command line and the export touch is a `FilePath`, from the argument bytes
/// (`CommandLine.unsafeArgv`) or a directory's entries (`readdir`) to the `open`, `stat`,
/// `rename` and `unlink` calls, and names derived from one (`x.gif` → `x-size-24.gif`, `x.png` →
/// `x.json`) keep its bytes.
///
/// It shows itself in three ways:
/// - `bytes`: what the system calls get;
/// - `description`: for messages; valid UTF-8 as it is, every byte that is not part of a
///   well-formed UTF-8 sequence (Unicode 15, table 3-7) as `\xHH` (`caf\xE9.json`);
/// - `unicode`: for JSON files that carry a name (a sheet's `meta.image`, `--report`), which
///   must stay valid UTF-8: each ill-formed part replaced by U+FFFD, as `String(decoding:as:)`
///   does.
public struct FilePath: Hashable, Comparable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The name's bytes, never containing NUL (a NUL in the input ends the name, as in C).
    public private(set) var bytes: [UInt8]

    /// The path with these bytes, cut at the first NUL.
    public init(bytes: some Sequence<UInt8>) {
        self.bytes = Array(bytes.prefix { $0 != 0 })
    }

    /// The path spelt by `string` in UTF-8.
    public init(_ string: String) { self.init(bytes: string.utf8) }

    /// The path spelt by a string literal in UTF-8.
    public init(stringLiteral value: String) { self.init(value) }

    /// The path in a NUL-terminated C string (an `argv` entry, a `d_name`).
    public init(cString: UnsafePointer<CChar>) {
        self.init(bytes: UnsafeBufferPointer(start: cString, count: strlen(cString)).map { UInt8(bitPattern: $0) })
    }

    /// True for the empty name.
    public var isEmpty: Bool { bytes.isEmpty }

    /// True when every byte is part of well-formed UTF-8 (then `description` and `unicode` are the
    /// name itself).
    public var isValidUTF8: Bool { Self.segments(bytes).allSatisfy { $0.valid } }

    /// The name for messages: invalid bytes as `\xHH` (upper-case hex), everything else as is.
    public var description: String {
        var text = ""
        for segment in Self.segments(bytes) {
            if segment.valid {
                text += String(decoding: bytes[segment.range], as: UTF8.self)
            } else {
                for byte in bytes[segment.range] {
                    let hex = String(byte, radix: 16, uppercase: true)
                    text += "\\x" + (hex.count < 2 ? "0" : "") + hex
                }
            }
        }
        return text
    }

    /// The name as valid Unicode, each ill-formed part replaced by U+FFFD (for JSON text).
    public var unicode: String { String(decoding: bytes, as: UTF8.self) }

    /// Orders by bytes (what `ls` does in the C locale).
    public static func < (a: FilePath, b: FilePath) -> Bool { a.bytes.lexicographicallyPrecedes(b.bytes) }

    /// The path with `suffix`'s UTF-8 bytes appended to its last component (`x` + `.gif`).
    public static func + (path: FilePath, suffix: String) -> FilePath {
        FilePath(bytes: path.bytes + Array(suffix.utf8))
    }

    // MARK: - Components

    private static let slash = UInt8(ascii: "/")
    private static let dot = UInt8(ascii: ".")

    /// True when the name ends in `/` (`out/`: a folder is meant).
    public var hasTrailingSlash: Bool { bytes.last == Self.slash }

    /// The name without its trailing slashes (`out/` → `out`); `/` stays `/`.
    public var removingTrailingSlashes: FilePath {
        var b = bytes
        while b.count > 1, b.last == Self.slash { b.removeLast() }
        return FilePath(bytes: b)
    }

    /// The folder part (`a/b/x.gif` → `a/b`, `/x` → `/`), `.` for a bare name.
    public var directory: FilePath {
        let trimmed = removingTrailingSlashes.bytes
        guard let cut = trimmed.lastIndex(of: Self.slash) else { return "." }
        if cut == 0 { return "/" }
        return FilePath(bytes: trimmed[..<cut]).removingTrailingSlashes
    }

    /// The last component (`a/b/x.gif` → `x.gif`).
    public var lastComponent: FilePath {
        let trimmed = removingTrailingSlashes.bytes
        guard let cut = trimmed.lastIndex(of: Self.slash), trimmed.count > 1 else { return FilePath(bytes: trimmed) }
        return FilePath(bytes: trimmed[(cut + 1)...])
    }

    /// The extension's byte count and start, when the last component has one: the bytes after
    /// its last `.`, which is neither its first byte nor its last.
    private var extensionRange: Range<Int>? {
        guard !hasTrailingSlash, let dot = bytes.lastIndex(of: Self.dot), dot + 1 < bytes.count else { return nil }
        let start = (bytes.lastIndex(of: Self.slash) ?? -1) + 1
        guard dot > start else { return nil }
        return (dot + 1)..<bytes.count
    }

    /// The extension without its dot (`x.GIF` → `GIF`), `""` when there is none; shown as by
    /// `description`, so an extension in another encoding never matches an ASCII one.
    public var pathExtension: String {
        guard let range = extensionRange else { return "" }
        return FilePath(bytes: bytes[range]).description
    }

    /// The path without its extension and dot (`a/x.gif` → `a/x`); the path itself when it has
    /// none.
    public var deletingPathExtension: FilePath {
        guard let range = extensionRange else { return self }
        return FilePath(bytes: bytes[..<(range.lowerBound - 1)])
    }

    /// `self/component` (`./x.gif` for `.`), or `component` when the path is empty; `/` is not
    /// doubled.
    public func appending(_ component: FilePath) -> FilePath {
        if bytes.isEmpty { return component }
        if hasTrailingSlash { return FilePath(bytes: bytes + component.bytes) }
        return FilePath(bytes: bytes + [Self.slash] + component.bytes)
    }

    /// `self/component` for a component spelt in UTF-8.
    public func appending(_ component: String) -> FilePath { appending(FilePath(component)) }

    /// True when the path starts with `/`.
    public var isAbsolute: Bool { bytes.first == Self.slash }

    /// Calls `body` with the name as a NUL-terminated C string.
    public func withCString<R>(_ body: (UnsafePointer<CChar>) throws -> R) rethrows -> R {
        let c = bytes.map { CChar(bitPattern: $0) } + [0]
        return try body(c)
    }

    // MARK: - File system

    /// What a name refers to, following symbolic links.
    public enum Kind: Equatable, Sendable {
        /// Nothing (or a name that cannot be looked up: a dangling link, a folder without search
        /// permission).
        case none
        /// A folder.
        case directory
        /// A regular file.
        case regular
        /// Anything else (a device, a pipe, a socket).
        case other
    }

    /// What the path names now (`stat`).
    public var kind: Kind {
        var info = stat()
        guard withCString({ stat($0, &info) }) == 0 else { return .none }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: return .directory
        case S_IFREG: return .regular
        default: return .other
        }
    }

    /// True when something exists under the name.
    public var exists: Bool { kind != .none }

    /// True when the name is a folder.
    public var isDirectory: Bool { kind == .directory }

    /// True when the process may read the file (`access(R_OK)`).
    public var isReadable: Bool { withCString { access($0, R_OK) } == 0 }

    /// The system's words for `errno` (`No such file or directory`).
    public static func reason(errno code: Int32) -> String { String(cString: strerror(code)) }

    /// The whole file, read through `open` and `read` by the name's bytes.
    /// - Parameter limit: the most bytes accepted; a larger file is refused before it is read.
    /// - Throws: `FileReadError` with the system's reason (`is a directory` for a folder).
    public func read(limit: Int = 1 << 30) throws(FileReadError) -> [UInt8] {
        let fd = withCString { open($0, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else { throw FileReadError(path: self, reason: Self.reason(errno: errno)) }
        defer { close(fd) }
        var info = stat()
        if fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
            throw FileReadError(path: self, reason: "is a directory")
        }
        if info.st_size > limit {
            throw FileReadError(path: self, reason: "larger than \(limit) bytes")
        }
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw FileReadError(path: self, reason: Self.reason(errno: errno))
            }
            if n == 0 { break }
            guard result.count + n <= limit else {
                throw FileReadError(path: self, reason: "larger than \(limit) bytes")
            }
            result += chunk[..<n]
        }
        return result
    }

    /// The names in the folder (`readdir`, so each keeps its bytes), without `.` and `..`,
    /// in byte order.
    /// - Throws: `FileReadError` when the folder cannot be opened.
    public func entries() throws(FileReadError) -> [FilePath] {
        guard let dir = withCString({ opendir($0) }) else {
            throw FileReadError(path: self, reason: Self.reason(errno: errno))
        }
        defer { closedir(dir) }
        var names: [FilePath] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: &entry.pointee.d_name) { raw in
                FilePath(bytes: raw.bindMemory(to: UInt8.self))
            }
            if name.bytes == [Self.dot] || name.bytes == [Self.dot, Self.dot] { continue }
            names.append(name)
        }
        return names.sorted()
    }

    /// Creates the folder and any missing parents (`mkdir -p`), mode 0777 less the umask.
    /// - Throws: `FileReadError` naming the folder that could not be made.
    public func createDirectories() throws(FileReadError) {
        if isDirectory { return }
        if exists { throw FileReadError(path: self, reason: "\(self) is a file, not a directory") }
        let parent = directory
        if parent != self, !parent.isEmpty, parent.bytes != [Self.dot], parent.bytes != [Self.slash] {
            try parent.createDirectories()
        }
        if withCString({ mkdir($0, 0o777) }) != 0, !(errno == EEXIST && isDirectory) {
            throw FileReadError(path: self, reason: Self.creationFailure(errno: errno, in: parent))
        }
    }

    /// Why a file or folder could not be made in the existing folder `folder`, in words, for the
    /// `errno` that `mkdir(2)` or `mkstemp(3)` left: `permission denied (…)` for `EACCES`/`EPERM`,
    /// `read-only file system` for `EROFS`, `… accepts no new files (…)` for `ENOENT` in a
    /// folder that exists (a virtual file system such as `/proc`), `not a directory` for
    /// `ENOTDIR`, `no space left on the device` for `ENOSPC`, otherwise `strerror`'s words.
    public static func creationFailure(errno code: Int32, in folder: FilePath) -> String {
        switch code {
        case EACCES, EPERM: "permission denied (this user may not create files in \(folder))"
        case EROFS: "read-only file system"
        case ENOENT where folder.isDirectory:
            "\(folder) accepts no new files (a virtual file system such as /proc or /sys)"
        case ENOTDIR: "not a directory"
        case ENOSPC: "no space left on the device"
        default: reason(errno: code)
        }
    }

    /// An absolute name with `.`, `..` and symbolic links resolved, for telling whether two
    /// names are one file: `realpath` of the whole name, or, for a file not made yet, of its
    /// folder with the last component added; lexical when the folder does not exist either.
    public var canonical: FilePath {
        if let resolved = Self.realpath(self) { return resolved }
        let name = lastComponent
        if let folder = Self.realpath(directory) { return folder.appending(name) }
        var absolute = self
        if !isAbsolute, let cwd = Self.realpath(".") { absolute = cwd.appending(self) }
        var parts: [ArraySlice<UInt8>] = []
        for part in absolute.bytes.split(separator: Self.slash) {
            if part.elementsEqual([Self.dot]) { continue }
            if part.elementsEqual([Self.dot, Self.dot]) {
                _ = parts.popLast()
                continue
            }
            parts.append(part)
        }
        return FilePath(bytes: [Self.slash] + parts.joined(separator: [Self.slash]))
    }

    private static func realpath(_ path: FilePath) -> FilePath? {
        guard let resolved = path.withCString({ Glibc.realpath($0, nil) }) else { return nil }
        defer { free(resolved) }
        return FilePath(cString: resolved)
    }

    // MARK: - UTF-8

    /// The name cut into runs of well-formed UTF-8 and runs of bytes that are not.
    private static func segments(_ bytes: [UInt8]) -> [(range: Range<Int>, valid: Bool)] {
        var result: [(range: Range<Int>, valid: Bool)] = []
        var i = 0
        func add(_ range: Range<Int>, _ valid: Bool) {
            if let last = result.last, last.valid == valid, last.range.upperBound == range.lowerBound {
                result[result.count - 1].range = last.range.lowerBound..<range.upperBound
            } else {
                result.append((range, valid))
            }
        }
        while i < bytes.count {
            let n = sequenceLength(bytes, at: i)
            if n > 0 {
                add(i..<(i + n), true)
                i += n
            } else {
                add(i..<(i + 1), false)
                i += 1
            }
        }
        return result
    }

    /// The length of the well-formed UTF-8 sequence at `i` (Unicode 15, table 3-7), or 0.
    private static func sequenceLength(_ b: [UInt8], at i: Int) -> Int {
        let first = b[i]
        if first < 0x80 { return 1 }
        func cont(_ k: Int, _ range: ClosedRange<UInt8> = 0x80...0xBF) -> Bool {
            i + k < b.count && range.contains(b[i + k])
        }
        switch first {
        case 0xC2...0xDF: return cont(1) ? 2 : 0
        case 0xE0: return cont(1, 0xA0...0xBF) && cont(2) ? 3 : 0
        case 0xE1...0xEC, 0xEE...0xEF: return cont(1) && cont(2) ? 3 : 0
        case 0xED: return cont(1, 0x80...0x9F) && cont(2) ? 3 : 0
        case 0xF0: return cont(1, 0x90...0xBF) && cont(2) && cont(3) ? 4 : 0
        case 0xF1...0xF3: return cont(1) && cont(2) && cont(3) ? 4 : 0
        case 0xF4: return cont(1, 0x80...0x8F) && cont(2) && cont(3) ? 4 : 0
        default: return 0
        }
    }
}

/// A file or folder that could not be read (or a folder not made); says which and why.
public struct FileReadError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file.
    public var path: FilePath
    /// The system's words (`No such file or directory`), or `is a directory`.
    public var reason: String
    /// A failure on `path`.
    public init(path: FilePath, reason: String) {
        self.path = path
        self.reason = reason
    }
    /// `cannot read PATH: REASON` (the path as `FilePath.description` shows it).
    public var description: String { "cannot read \(path): \(reason)" }
}
