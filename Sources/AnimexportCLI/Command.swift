// SPDX-License-Identifier: GPL-3.0-or-later

import Export
import Foundation
import OutputFiles
import ToolInfo
import ToolOptions

/// The `animexport` command: parses arguments, then exports (the default), lists, validates or
/// checks presets, reporting with `error:`/`warning:` lines on stderr. `docs/cli.md` describes
/// every option, message and exit code.
public enum Command {
    /// The tool's version, printed by `--version` and written into sprite-sheet metadata.
    public static let version = Exporter.version

    /// Runs the command.
    /// - Parameter arguments: the arguments after the program name, spelt in UTF-8.
    /// - Returns: the exit code (see `ExitCode`).
    public static func run(_ arguments: [String]) -> ExitCode { run(bytes: arguments.map { Array($0.utf8) }) }

    /// Runs the command on the arguments as the process got them: bytes, so that a file name
    /// in another encoding than UTF-8 (a Latin-1 `caf\xE9.json`) is opened and written as it is
    /// (`FilePath`). `CommandLine.arguments` would have replaced such bytes with U+FFFD.
    /// - Parameter arguments: the arguments after the program name (`processArguments()`).
    /// - Returns: the exit code (see `ExitCode`).
    public static func run(bytes arguments: [[UInt8]]) -> ExitCode {
        let options: Options
        do {
            options = try Options.parse(bytes: arguments)
        } catch {
            Console().error(error.message)
            Console().note("run 'animexport --help' for usage")
            return .usage
        }
        let console = Console(progress: ProgressMeter.forTerminal(quiet: options.quiet || options.watch))
        if options.help {
            console.out(ToolInfo.help)
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

    /// This process's arguments after the program name, as bytes (`CommandLine.unsafeArgv`).
    public static func processArguments() -> [[UInt8]] {
        (1..<max(1, Int(CommandLine.argc))).map { i in
            guard let argument = CommandLine.unsafeArgv[i] else { return [] }
            return FilePath(cString: argument).bytes
        }
    }

    static func formatBytes(_ n: Int) -> String {
        n < 10_000 ? "\(n) bytes" : String(format: "%.1f KB", locale: nil, Double(n) / 1000)
    }
}
