// SPDX-License-Identifier: GPL-3.0-or-later

/// The process exit codes `animexport` uses (BSD sysexits values where one fits); the table with
/// the messages behind each is in `docs/cli.md`.
public enum ExitCode: Int32, Equatable, Sendable {
    /// Everything was written; `validate`: no errors; `check`: every file is up to date.
    case success = 0
    /// An I/O or encoder failure (cannot read a preset, cannot write an output, …).
    case failure = 1
    /// `check` only: some files are missing or differ from what the presets give now.
    case stale = 2
    /// The command line is wrong: unknown option, bad option value, bad `--set` (EX_USAGE).
    case usage = 64
    /// A preset has errors (EX_DATAERR), or warnings under `validate --strict`; every problem is
    /// printed.
    case badPreset = 65
}
