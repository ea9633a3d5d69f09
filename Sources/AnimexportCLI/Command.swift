// SPDX-License-Identifier: GPL-3.0-or-later

import Export
import Foundation

/// The `animexport` command: parses arguments, then exports (the default), lists, validates or
/// checks presets, reporting with `error:`/`warning:` lines on stderr. `docs/cli.md` describes
/// every option, message and exit code.
public enum Command {
    /// The tool's version, printed by `--version` and written into sprite-sheet metadata.
    public static let version = Exporter.version

    /// Runs the command.
    /// - Parameter arguments: the arguments after the program name.
    /// - Returns: the exit code (see `ExitCode`).
    public static func run(_ arguments: [String]) -> ExitCode {
        let options: Options
        do {
            options = try Options.parse(arguments)
        } catch {
            Console().error(error.message)
            Console().note("run 'animexport --help' for usage")
            return .usage
        }
        let console = Console(progress: ProgressMeter.forTerminal(quiet: options.quiet || options.watch))
        if options.help {
            console.out(helpText)
            return .success
        }
        if options.version {
            console.out("animexport \(version)")
            return .success
        }
        switch options.command {
        case .list:
            return ListCommand.run(options, console: console)
        case .validate, .export, .check:
            guard !options.presets.isEmpty else {
                console.error("no preset given")
                let usage =
                    options.command == .export
                    ? "animexport PRESET.json [-o OUT.gif|OUT.png|DIR/] [options]"
                    : "animexport \(options.command.rawValue) PRESET.json…"
                console.note("usage: \(usage); run 'animexport --help' for more")
                return .usage
            }
            if options.command == .validate { return ValidateCommand.run(options, console: console) }
            return ExportCommand.run(options, console: console)
        }
    }

    static func formatBytes(_ n: Int) -> String {
        n < 10_000 ? "\(n) bytes" : String(format: "%.1f KB", locale: nil, Double(n) / 1000)
    }
}
