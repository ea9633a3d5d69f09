// SPDX-License-Identifier: GPL-3.0-or-later

/// The process exit codes `animexport` uses (BSD sysexits values where one fits).
public enum ExitCode: Int32, Equatable, Sendable {
    /// Everything was written.
    case success = 0
    /// An I/O or encoder failure (cannot read a preset, cannot write an output, …).
    case failure = 1
    /// The command line is wrong: unknown option, bad option value, bad `--set` (EX_USAGE).
    case usage = 64
    /// A preset has errors (EX_DATAERR); every problem is printed.
    case badPreset = 65
}
