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
    func error(_ message: String) { err("error: \(message)") }
    func warning(_ message: String) { err("warning: \(message)") }
    func note(_ message: String) { err("note: \(message)") }
    func diagnostic(_ d: Diagnostic) { err(d.description) }
    func err(_ line: String) { write(line, to: FileHandle.standardError) }

    private func write(_ line: String, to handle: FileHandle) {
        let data = Data((line + "\n").utf8)
        if let progress {
            progress.clearing { handle.write(data) }
        } else {
            handle.write(data)
        }
    }
}
