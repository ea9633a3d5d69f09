// SPDX-License-Identifier: GPL-3.0-or-later

import Export
import Foundation
import OutputFiles
import Spec
import Timeline
import ToolOptions

/// `animexport list [DIR|PRESET]...`: every preset (default folder `presets/`) with its
/// description, canvas, frame rate, loop period, frame count and params (name, default, range,
/// description), in file-name order. A broken preset is listed as such and makes the exit code 65.
enum ListCommand {
    /// The folder listed when none is given.
    static let defaultDirectory: FilePath = "presets"

    static func run(_ options: Options, console: Console) -> ExitCode {
        let files: [FilePath]
        do {
            files = try JobPlanner.presetFiles(
                options.presets.isEmpty ? [defaultDirectory] : options.presets, options: options, console: console)
        } catch {
            console.error(error.message)
            return .usage
        }
        var code = ExitCode.success
        var blocks: [String] = []
        for path in files {
            do {
                let loaded = try JobPlanner.readPreset(path, checkFonts: false)
                blocks.append(describe(loaded.composition, path: path))
            } catch let error as PresetError {
                let count = error.diagnostics.filter { $0.severity == .error }.count
                blocks.append(
                    "\(path)\n  invalid: \(counted(count, "error")); run 'animexport validate \(path)' to see them"
                )
                code = code.combined(with: .badPreset)
            } catch {
                console.error("\(error)")
                code = code.combined(with: .failure)
            }
        }
        if !options.quiet || code != .success { console.out(blocks.joined(separator: "\n\n")) }
        return code
    }

    /// The block of text for one preset.
    static func describe(_ composition: Composition, path: FilePath) -> String {
        var lines = ["\(composition.name)  (\(path))"]
        if !composition.description.isEmpty { lines.append("  " + composition.description) }
        let canvas = composition.canvas
        var facts = [
            "canvas \(formatNumber(canvas.width))×\(formatNumber(canvas.height)) pt",
            "\(formatNumber(composition.fps)) fps",
        ]
        do {
            let plan = try LoopPlan.make(for: composition, fps: composition.fps)
            facts.append("\(formatNumber(plan.period)) s loop")
            facts.append(counted(plan.frameCount, "frame"))
        } catch {
            facts.append("no loop period: \(error.message)")
        }
        lines.append("  " + facts.joined(separator: ", "))
        if composition.parameters.isEmpty {
            lines.append("  params: none")
        } else {
            lines.append("  params:")
            let nameWidth = composition.parameters.map(\.name.count).max() ?? 0
            let values = composition.parameters.map { $0.defaultValue.description }
            let valueWidth = values.map(\.count).max() ?? 0
            for (p, value) in zip(composition.parameters, values) {
                var text = p.description
                var range: String?
                switch (p.minimum, p.maximum) {
                case (let lo?, let hi?): range = "\(formatNumber(lo))…\(formatNumber(hi))"
                case (let lo?, nil): range = "≥ \(formatNumber(lo))"
                case (nil, let hi?): range = "≤ \(formatNumber(hi))"
                case (nil, nil): range = nil
                }
                if let range { text += text.isEmpty ? range : " (\(range))" }
                let line =
                    "    \(pad(p.name, nameWidth)) = \(pad(value, valueWidth))  \(p.defaultValue.typeName.padding(toLength: 7, withPad: " ", startingAt: 0)) \(text)"
                lines.append(line.trimmingSuffixSpaces())
            }
        }
        return lines.joined(separator: "\n")
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }
}

extension String {
    /// The string without trailing spaces.
    func trimmingSuffixSpaces() -> String {
        var s = self
        while s.hasSuffix(" ") { s.removeLast() }
        return s
    }
}
