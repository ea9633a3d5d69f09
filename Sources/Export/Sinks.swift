// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import OutputFiles

#if canImport(Glibc)
    import Glibc
#endif

/// Write mode: every file is staged complete under a hidden name as it comes (`AtomicFile.stage`)
/// and put in place by `commit` once the whole job has been made, so a failure or a kill before
/// the commit leaves the old files as they were.
///
/// Commit order keeps pairs from two runs apart: first every existing file that describes an
/// earlier one (a sheet's JSON) is removed, then the files are renamed in the order they came
/// (the PNG before its JSON). A kill at any rename leaves each pair either from one run or
/// without its JSON, never a new image beside old rectangles.
public final class StagingSink: OutputSink, @unchecked Sendable {
    private let lock = NSLock()
    private var staged: [(file: AtomicFile.Staged, describesEarlier: Bool)] = []

    /// An empty staging area.
    public init() {}

    /// Stages `file` next to its target.
    /// - Throws: `WriteError`; what was staged before stays staged until `commit` or `discard`.
    public func put(_ file: OutputFile) throws {
        let s = try AtomicFile.stage(file.bytes, to: file.path)
        lock.lock()
        staged.append((s, file.describesEarlier))
        lock.unlock()
    }

    /// The targets staged so far, in order.
    public var paths: [FilePath] {
        lock.lock()
        defer { lock.unlock() }
        return staged.map(\.file.path)
    }

    /// Puts every staged file in place (see the type's documentation).
    /// - Returns: the files now in place.
    /// - Throws: `WriteError` for the first rename that fails; the files not yet in place are
    ///   removed, and the error's message lists what was.
    @discardableResult
    public func commit() throws(WriteError) -> [FilePath] {
        lock.lock()
        let all = staged
        staged = []
        lock.unlock()
        for entry in all where entry.describesEarlier { AtomicFile.remove(entry.file.path) }
        var done: [FilePath] = []
        for (k, entry) in all.enumerated() {
            do throws(WriteError) {
                try AtomicFile.commit(entry.file)
                done.append(entry.file.path)
            } catch {
                for rest in all[(k + 1)...] { AtomicFile.discard(rest.file) }
                let written =
                    done.isEmpty
                    ? ""
                    : " (written before it: \(done.prefix(3).map(\.description).joined(separator: ", "))"
                        + (done.count > 3 ? " and \(done.count - 3) more" : "") + ")"
                throw WriteError(path: error.path, reason: error.reason + written)
            }
        }
        return done
    }

    /// Removes every staged file; the targets stay as they were.
    public func discard() {
        lock.lock()
        let all = staged
        staged = []
        lock.unlock()
        for entry in all { AtomicFile.discard(entry.file) }
    }

    deinit { for entry in staged { AtomicFile.discard(entry.file) } }
}

/// Check mode: every file is compared with the one on disk as it comes; nothing is written.
public final class ComparingSink: OutputSink, @unchecked Sendable {
    private let lock = NSLock()
    private var missingPaths: [FilePath] = []
    private var differentPaths: [FilePath] = []
    private var compared = 0

    /// An empty comparison.
    public init() {}

    /// Compares `file` with the file at its path (a file that cannot be read counts as missing).
    public func put(_ file: OutputFile) throws {
        let existing = try? file.path.read()
        lock.lock()
        defer { lock.unlock() }
        compared += 1
        if let existing {
            if !existing.elementsEqual(file.bytes) { differentPaths.append(file.path) }
        } else {
            missingPaths.append(file.path)
        }
    }

    /// Files that do not exist, in order.
    public var missing: [FilePath] {
        lock.lock()
        defer { lock.unlock() }
        return missingPaths
    }
    /// Files whose bytes differ, in order.
    public var different: [FilePath] {
        lock.lock()
        defer { lock.unlock() }
        return differentPaths
    }
    /// Files compared.
    public var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return compared
    }
}

/// Keeps every file in memory (library callers, tests).
public final class MemorySink: OutputSink, @unchecked Sendable {
    private let lock = NSLock()
    private var kept: [OutputFile] = []

    /// An empty sink.
    public init() {}

    /// Keeps `file`.
    public func put(_ file: OutputFile) throws {
        lock.lock()
        kept.append(file)
        lock.unlock()
    }

    /// Every file handed over, in order.
    public var files: [OutputFile] {
        lock.lock()
        defer { lock.unlock() }
        return kept
    }
}

/// Takes files and drops them: the sink of targets made only for `--preview`.
final class DiscardingSink: OutputSink, @unchecked Sendable {
    func put(_ file: OutputFile) throws {}
}
