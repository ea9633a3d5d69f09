// SPDX-License-Identifier: GPL-3.0-or-later

import Export
import Foundation
import Spec

/// Where the command's words go: results on stdout, problems on stderr. Safe to use from several
/// threads (each line is one write); a progress line on a terminal is erased before any other
/// line is printed.
struct Console: Sendable {
    /// The progress line, when stderr is a terminal and the run is not `--quiet`.
    var progress: ProgressMeter?

    func out(_ line: String) { write(line, to: FileHandle.standardOutput) }
    /// An `error:` line; with `file`, `FILE: error: MESSAGE` (see `line`).
    func error(_ message: String, file: String? = nil) { err(Self.line("error", message, file: file)) }
    /// A `warning:` line; with `file`, `FILE: warning: MESSAGE` (see `line`).
    func warning(_ message: String, file: String? = nil) { err(Self.line("warning", message, file: file)) }
    /// A `note:` line; with `file`, `FILE: note: MESSAGE` (see `line`).
    func note(_ message: String, file: String? = nil) { err(Self.line("note", message, file: file)) }
    func diagnostic(_ d: Diagnostic) { err(d.description) }
    func err(_ line: String) { write(line, to: FileHandle.standardError) }

    /// The one form of every message line on stderr (docs/cli.md, Messages), as a compiler
    /// prints it: `FILE: SEVERITY: MESSAGE` when the message is about a file, `SEVERITY: MESSAGE`
    /// when it is about no file (the command line, a folder made). A preset diagnostic adds
    /// `:LINE:COL` after the file and starts the message with its JSON path (`Diagnostic`).
    /// - Parameters:
    ///   - severity: `error`, `warning` or `note`.
    ///   - message: one line, without a final full stop.
    ///   - file: the file as the user named it, or nil.
    static func line(_ severity: String, _ message: String, file: String?) -> String {
        guard let file else { return "\(severity): \(message)" }
        return "\(file): \(severity): \(message)"
    }

    private func write(_ line: String, to handle: FileHandle) {
        let data = Data((line + "\n").utf8)
        if let progress {
            progress.clearing { handle.write(data) }
        } else {
            handle.write(data)
        }
    }
}
