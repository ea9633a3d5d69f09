// SPDX-License-Identifier: GPL-3.0-or-later

import Dispatch
import Export
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A one-line frame counter on stderr (`\r`-rewritten) for runs that take more than about a
/// second. Only made when stderr is a terminal and the run is not `--quiet`, so CI logs and pipes
/// never see it. Thread-safe.
final class ProgressMeter: @unchecked Sendable {
    private let lock = NSLock()
    private let startNanoseconds = DispatchTime.now().uptimeNanoseconds
    private var lastDrawNanoseconds: UInt64 = 0
    private var total = 0
    private var done = 0
    private var shown = false
    /// Seconds of work before the line first appears (`ANIMEXPORT_PROGRESS_DELAY`, default 1).
    private let delay: Double

    /// A meter when stderr is a terminal and `quiet` is false; nil otherwise.
    static func forTerminal(quiet: Bool) -> ProgressMeter? {
        guard !quiet, isatty(STDERR_FILENO) == 1 else { return nil }
        let delay = ProcessInfo.processInfo.environment["ANIMEXPORT_PROGRESS_DELAY"].flatMap(Double.init) ?? 1
        return ProgressMeter(delay: max(0, delay))
    }

    private init(delay: Double) { self.delay = delay }

    /// Adds `frames` to the work to do.
    func expect(frames: Int) {
        lock.lock()
        total += frames
        lock.unlock()
    }

    /// Takes `frames` back from the work to do (a job answered from its manifest).
    func skip(frames: Int) {
        lock.lock()
        total = max(done, total - frames)
        lock.unlock()
    }

    /// One frame is done; redraws the line at most ten times a second, after `delay`.
    func advance() {
        lock.lock()
        defer { lock.unlock() }
        done += 1
        let now = DispatchTime.now().uptimeNanoseconds
        guard Double(now - startNanoseconds) / 1e9 >= delay, now - lastDrawNanoseconds >= 100_000_000 || done == total
        else { return }
        lastDrawNanoseconds = now
        shown = true
        let percent = total > 0 ? done * 100 / total : 100
        let text =
            "\r\u{1B}[Kanimexport: \(done)/\(total) frames rendered (\(percent) %)"
            + (done == total ? ", encoding" : "")
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// Runs `body` (a write) with the progress line erased, so the write starts a clean line.
    func clearing(_ body: () -> Void) {
        lock.lock()
        defer { lock.unlock() }
        if shown {
            FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
            shown = false
            lastDrawNanoseconds = 0
        }
        body()
    }

    /// Erases the line for good (end of the run).
    func finish() { clearing {} }
}
