// SPDX-License-Identifier: GPL-3.0-or-later

import Dispatch
import Export
import Foundation
import OutputFiles
import Spec
import ToolOptions

#if canImport(Glibc)
    import Glibc
#endif

/// `--watch`: renders every preset once, then polls the presets and the files they use five
/// times a second and re-renders a preset when one of its files changes. Prints one line per
/// render (`12:04:05 presets/ring.json: 2 files in 0.31 s`); a bad edit prints its errors and
/// the watch goes on. Presets that appear in a watched folder later are rendered and watched
/// too. SIGINT or SIGTERM ends it (after the render in progress) with exit 0.
enum WatchCommand {
    /// Seconds between two looks at the files.
    static let pollInterval = 0.2

    /// One watched preset.
    private struct Watched {
        var path: FilePath
        /// The preset and the files it used when last read.
        var files: [FilePath]
        var stamps: [FilePath: FileStamp]
    }

    static func run(_ presets: [FilePath], options: Options, console: Console) -> ExitCode {
        let stop = StopFlag()
        let sources = [SIGINT, SIGTERM].map { number -> any DispatchSourceSignal in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { stop.set() }
            source.resume()
            return source
        }
        defer { sources.forEach { $0.cancel() } }

        // A watch that could never render (a typo in the name) fails at once instead of waiting.
        for path in presets where !path.isReadable {
            let reason = path.exists ? "it cannot be read" : "no such file"
            console.error("cannot watch \(path): \(reason)")
            return .failure
        }
        var watched = presets.map { Watched(path: $0, files: [$0], stamps: [:]) }
        for i in watched.indices {
            render(&watched[i], options: options, console: console)
        }
        let folders = options.presets.filter(\.isDirectory)
        if !options.quiet {
            let what = counted(watched.count, "preset")
            let also =
                folders.isEmpty ? "" : " and new presets in \(folders.map(\.description).joined(separator: ", "))"
            console.err("watching \(what)\(also); Ctrl-C to stop")
        }
        // Every *.json of the watched folders seen so far, presets or not, so a new one is
        // looked at once (a --report written into the folder is skipped once, not every poll).
        var known = Set(presets)
        while !stop.isSet {
            usleep(useconds_t(pollInterval * 1_000_000))
            for path in newFiles(in: folders, options: options, known: known) where !stop.isSet {
                known.insert(path)
                settle([path], stop: stop)
                if let reason = JobPlanner.notPreset(path) {
                    if !options.quiet { console.note("\(reason); skipped", file: path.description) }
                    continue
                }
                watched.append(Watched(path: path, files: [path], stamps: [:]))
                render(&watched[watched.count - 1], options: options, console: console)
            }
            for i in watched.indices where !stop.isSet {
                guard FileStamp.of(watched[i].files) != watched[i].stamps else { continue }
                settle(watched[i].files, stop: stop)
                render(&watched[i], options: options, console: console)
            }
        }
        return .success
    }

    /// Lets a save that writes in several steps finish before reading: returns once the files'
    /// stamps stay the same for 50 ms (or at a stop).
    private static func settle(_ files: [FilePath], stop: StopFlag) {
        var settled = FileStamp.of(files)
        repeat {
            usleep(50_000)
            let again = FileStamp.of(files)
            if again == settled { break }
            settled = again
        } while !stop.isSet
    }

    /// The `*.json` files of the watched folders that are not in `known` and not excluded by
    /// `--exclude`, in byte order (a folder that cannot be listed now is skipped until it can).
    private static func newFiles(in folders: [FilePath], options: Options, known: Set<FilePath>) -> [FilePath] {
        folders.flatMap { folder -> [FilePath] in
            let dir = folder.removingTrailingSlashes
            let names = (try? folder.entries()) ?? []
            return names.filter { name in
                name.pathExtension.lowercased() == "json" && name.bytes.first != UInt8(ascii: ".")
                    && !options.excludes.contains { JobPlanner.matches($0, name) }
            }.map { dir.appending($0) }.filter { !known.contains($0) }
        }
    }

    /// Renders one preset and records the stamps its files had before reading, so an edit made
    /// during the render triggers the next one.
    private static func render(_ watched: inout Watched, options: Options, console: Console) {
        if let referenced = FileStamp.referencedFiles(ofPreset: watched.path) {
            watched.files = [watched.path] + referenced
        }
        watched.stamps = FileStamp.of(watched.files)
        let start = DispatchTime.now().uptimeNanoseconds
        var line: String
        do {
            let jobs = try JobPlanner.jobs(for: [watched.path], options: options, console: console)
            let extra = [options.reportPath, options.previewPath].compactMap { $0 }
            try JobPlanner.prepareFolders(jobs, extra: extra, options: options, writing: true, console: console)
            let result = ExportCommand.execute(jobs, options: options, mode: .write, console: console)
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            line =
                result.code == .success
                ? "\(watched.path): \(counted(result.files, "file")) in \(String(format: "%.2f", locale: nil, seconds)) s"
                : "\(watched.path): failed (exit \(result.code.rawValue)); waiting for the next save"
        } catch {
            line = "\(watched.path): failed (exit \(error.code.rawValue)); waiting for the next save"
        }
        if !options.quiet || line.contains("failed") { console.out("\(clock()) \(line)") }
    }

    /// The local time as `HH:MM:SS`.
    private static func clock() -> String {
        var now = time(nil)
        var parts = tm()
        localtime_r(&now, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))"
    }
}

/// Set once by a signal handler, read by the polling loop.
private final class StopFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    var isSet: Bool {
        lock.lock()
        defer { lock.unlock() }
        return value
    }

    func set() {
        lock.lock()
        value = true
        lock.unlock()
    }
}
