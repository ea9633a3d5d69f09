// SPDX-License-Identifier: GPL-3.0-or-later

import Encode
import Export
import Foundation
import OutputFiles
import Spec
import ToolOptions

/// The word after `animexport` that picks what the run does; without one it exports.
enum Subcommand: String, Equatable, Sendable, CaseIterable {
    /// Render presets and write GIFs, sheets and frames (the default).
    case export
    /// Print every preset in a folder with its canvas, loop and params.
    case list
    /// Check presets without rendering.
    case validate
    /// Render in memory and compare with the files already in `-o DIR`; write nothing.
    case check
}

/// One `--set NAME=VALUE`; several values (`--set size=24,32`) fan out into one output each.
struct ParameterSetting: Equatable, Sendable {
    /// The parameter's name.
    var name: String
    /// One value, or several for a fan-out, as typed.
    var values: [String]
}

/// Which single frame `--frame N` or `--time SEC` asks for.
enum StillFrame: Equatable, Sendable {
    /// Frame `N` of the loop (0-based, as numbered by `--frames`).
    case index(Int)
    /// The instant `SEC` seconds on the preset's clock.
    case time(Double)
}

/// Everything the command line asked for, checked.
struct Options: Equatable {
    var command: Subcommand = .export
    var presets: [FilePath] = []
    var outputs: [FilePath] = []
    var fps: Double?
    /// One output per scale; names get `@2x` for every scale other than 1 (see `OutputPlan`).
    var scales: [Double] = [1]
    var duration: Double?
    /// `.some(nil)` = transparent.
    var background: RGBAColor??
    /// `.some(nil)` = `none` (threshold the edges).
    var matte: RGBAColor??
    var loop: LoopCount = .forever
    var columns: Int?
    var padding: Int = 0
    var settings: [ParameterSetting] = []
    var dither: GIFDither = .none
    /// `--lossy N`: per-channel tolerance in levels, 0 = lossless.
    var lossy = 0
    var extrude = 0
    /// `--quality N`: lossy WebP at this quality; nil = lossless.
    var quality: Int?
    /// `--effort`: how hard APNG and WebP compress.
    var effort: EncodeEffort = .standard
    var trim = false
    var sheetType: SheetLayout = .grid
    /// `--max-size N`: largest sheet page side in pixels.
    var maxSize = 4096
    /// `--pot`: power-of-two page sides.
    var powerOfTwo = false
    /// `--merge-duplicates`: identical frames share a cell.
    var mergeDuplicates = false
    var sheetColors: Int?
    /// `--sheet-format`: the sheet's data file.
    var sheetFormat: SheetDataFormat = .defaultFormat
    /// `--frame-name`: the data file's frame-name template; nil = the format's default.
    var frameName: String?
    var framesDirectory: FilePath?
    /// What `-o DIR/` (or the default folder) receives; nil = the default for the case.
    var formats: [OutputFormatKind]?
    /// Render threads; nil = the core count.
    var jobs: Int?
    var watch = false
    var still: StillFrame?
    var previewPath: FilePath?
    var reportPath: FilePath?
    var strict = false
    /// `--force`: replace existing files this tool did not write (`OwnFiles`), and render every
    /// job even when its manifest says it is up to date.
    var force = false
    /// `--exclude GLOB` (repeatable): folder entries whose file name matches are not presets.
    var excludes: [String] = []
    /// `--shard K/N`: only the K-th of N slices of the batch.
    var shard: Shard?
    var quiet = false
    var help = false
    var version = false
    /// `--size`, `--speed`, `--poster`, `--zip`, `--name` (`Options+Variants.swift`).
    var variantOptions = VariantOptions()

    /// Options that take a value, with what the value is (for messages).
    static let valued: [String: String] = [
        "-o": "an output path", "--output": "an output path", "--fps": "frames per second",
        "--scale": "a scale factor or a list like 1,2,3", "--duration": "seconds", "--background": "a colour",
        "--matte": "a colour or none", "--loop": "a play count or forever",
        "--columns": "a column count", "--padding": "pixels", "--set": "NAME=VALUE",
        "--frames": "a directory", "--dither": "none, ordered or fs", "--lossy": "levels 0…255", "--extrude": "pixels",
        "--sheet-type": "grid, horizontal, vertical or packed", "--sheet-colors": "a colour count",
        "--max-size": "a page size in pixels",
        "--sheet-format": "a data format (aseprite, pixi, godot, css, …)", "--frame-name": "a template like {frame}",
        "--format": "a list of gif, apng, webp, sheet, frames", "--jobs": "a thread count",
        "-j": "a thread count", "--frame": "a frame number", "--time": "seconds",
        "--preview": "an HTML file name", "--report": "a JSON file name",
        "--quality": "a WebP quality 0…100", "--effort": "standard or max", "--shard": "K/N, such as 1/4",
        "--exclude": "a file-name pattern like '*-sheet.json'",
    ].merging(VariantOptions.valued) { own, _ in own }
    static let flags =
        [
            "--quiet", "-q", "--help", "-h", "--version", "--watch", "--strict", "--trim", "--pot",
            "--merge-duplicates", "--force",
        ] + VariantOptions.flags

    /// Options each subcommand refuses (everything else applies to it).
    static let refused: [Subcommand: Set<String>] = [
        .export: ["--strict"],
        .check: ["--strict", "--watch", "--preview", "--report"],
        .validate: Set(valued.keys).union(flags).subtracting([
            "--set", "--fps", "--duration", "--strict", "--quiet", "-q", "--help", "-h", "--version", "--exclude",
            "--format", "--speed",
        ]),
        .list: Set(valued.keys).union(flags).subtracting(["--quiet", "-q", "--help", "-h", "--version", "--exclude"]),
    ]

    /// Options whose value is a file or folder name, kept as bytes.
    static let pathValued: Set<String> = ["-o", "--output", "--frames", "--preview", "--report"]

    /// Parses `arguments` (without the program name), each spelt in UTF-8.
    static func parse(_ arguments: [String]) throws(UsageError) -> Options {
        try parse(bytes: arguments.map { Array($0.utf8) })
    }

    /// Parses the arguments as the process got them, as bytes (`CommandLine.unsafeArgv`):
    /// presets and the values of `-o`, `--frames`, `--preview` and `--report` stay bytes
    /// (`FilePath`); option names and every other value are read as UTF-8.
    static func parse(bytes rawArguments: [[UInt8]]) throws(UsageError) -> Options {
        var options = Options()
        var arguments = rawArguments.map { (text: String(decoding: $0, as: UTF8.self), bytes: $0) }[...]
        if let first = arguments.first, let command = Subcommand(rawValue: first.text), command != .export {
            options.command = command
            arguments = arguments.dropFirst()
        }
        var onlyPositional = false
        while let (argument, argumentBytes) = arguments.popFirst() {
            if onlyPositional || !argument.hasPrefix("-") || argument == "-" {
                options.presets.append(FilePath(bytes: argumentBytes))
                continue
            }
            if argument == "--" {
                onlyPositional = true
                continue
            }
            var name = argument
            var inlineValue: String?
            var inlineBytes: [UInt8]?
            if argument.hasPrefix("--"), let eq = argument.firstIndex(of: "="),
                let eqByte = argumentBytes.firstIndex(of: UInt8(ascii: "="))
            {
                name = String(argument[..<eq])
                inlineValue = String(argument[argument.index(after: eq)...])
                inlineBytes = Array(argumentBytes[(eqByte + 1)...])
            }
            let known = Self.flags.contains(name) || Self.valued[name] != nil
            if known, let refused = Self.refused[options.command], refused.contains(name) {
                let verb = options.command == .export ? "exporting" : "'\(options.command.rawValue)'"
                throw UsageError(message: "\(name) does not apply when \(verb)")
            }
            if Self.flags.contains(name) {
                if inlineValue != nil { throw UsageError(message: "\(name) takes no value") }
                switch name {
                case "--quiet", "-q": options.quiet = true
                case "--help", "-h": options.help = true
                case "--watch": options.watch = true
                case "--strict": options.strict = true
                case "--trim": options.trim = true
                case "--pot": options.powerOfTwo = true
                case "--merge-duplicates": options.mergeDuplicates = true
                case "--force": options.force = true
                case "--zip": options.variantOptions.zip = true
                default: options.version = true
                }
                continue
            }
            guard let what = Self.valued[name] else {
                let known = Array(Self.valued.keys) + Self.flags
                // No option is longer than 20 characters: a longer word is quoted cut short and
                // gets no suggestion (whose edit distance would cost its length squared).
                let shown = name.count > 40 ? String(name.prefix(40)) + "… (\(name.count) characters)" : name
                var message = "unknown option \(shown)"
                if name.count <= 40, let near = suggestion(for: name, among: known) {
                    message += "; did you mean \(near)?"
                } else if name.count <= 40, let hint = parameterHint(name, next: inlineValue ?? arguments.first?.text) {
                    message += hint
                }
                throw UsageError(message: message)
            }
            let value: String
            let valueBytes: [UInt8]
            if let inlineValue, let inlineBytes {
                value = inlineValue
                valueBytes = inlineBytes
            } else {
                guard let next = arguments.popFirst() else { throw UsageError(message: "\(name) needs \(what)") }
                value = next.text
                valueBytes = next.bytes
            }
            if Self.pathValued.contains(name) {
                try options.apply(name, path: FilePath(bytes: valueBytes))
            } else {
                try options.apply(name, value)
            }
        }
        try options.checkCombinations()
        try options.checkVariantCombinations()
        if options.columns != nil, options.sheetType != .grid {
            throw UsageError(message: "--columns applies to --sheet-type grid only")
        }
        return options
    }

    /// `--color red` for a preset parameter: points to `--set color=red` (a word option that is no
    /// option of the tool and not close to one reads as a param name).
    static func parameterHint(_ name: String, next: String?) -> String? {
        guard name.hasPrefix("--") else { return nil }
        let param = name.dropFirst(2)
        guard let first = param.first, first.isLetter,
            param.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") })
        else { return nil }
        // The value is quoted as typed only when it is short (a pasted megabyte stays out).
        let value = next.flatMap { $0.hasPrefix("-") || $0.isEmpty || $0.count > 80 ? nil : $0 } ?? "VALUE"
        return "; preset parameters are set with --set: --set \(param)=\(value)"
    }

    /// Refuses combinations that have no sensible meaning, before any work.
    private func checkCombinations() throws(UsageError) {
        if help || version { return }
        let writesWebP =
            outputs.contains { $0.pathExtension.lowercased() == "webp" } || formats?.contains(.webp) == true
        if writesWebP, case .plays(let n) = loop, n > WebPEncoder.maximumPlays {
            throw UsageError(
                message:
                    "--loop \(n): a WebP plays at most \(WebPEncoder.maximumPlays) times (its loop count is 16 bits); give \(WebPEncoder.maximumPlays) or forever"
            )
        }
        if still != nil {
            if formats != nil { throw UsageError(message: "--frame/--time write one PNG; --format does not apply") }
            if framesDirectory != nil {
                throw UsageError(message: "--frame/--time write one PNG; --frames does not apply")
            }
            for output in outputs where output.pathExtension.lowercased() == "gif" {
                throw UsageError(message: "--frame/--time write one PNG; -o \(output) names a GIF")
            }
        }
        if formats != nil, !outputs.isEmpty, !outputs.contains(where: { OutputPlan.isDirectory($0) }) {
            // A fresh user's `-o out --format apng` meant a folder; `-o a.gif --format gif` a file.
            let output = outputs[0]
            let fix =
                output.pathExtension.isEmpty
                ? "write -o \(output)/ to fill that folder"
                : "its extension already says the format, so leave --format out, or give a folder (-o DIR/)"
            throw UsageError(
                message: "--format chooses what goes into a folder (-o DIR/), and -o \(output) names a file: \(fix)")
        }
        if let frameName, !sheetFormat.namesFrames {
            throw UsageError(
                message:
                    "--frame-name \(frameName): --sheet-format \(sheetFormat.rawValue) does not name its frames; leave --frame-name out"
            )
        }
        if command == .check, outputs.isEmpty {
            throw UsageError(message: "check needs -o DIR (or the files) to compare against")
        }
    }

    /// Applies an option whose value is a file or folder name (`pathValued`).
    private mutating func apply(_ name: String, path value: FilePath) throws(UsageError) {
        switch name {
        case "-o", "--output":
            guard !value.isEmpty else { throw UsageError(message: "\(name) needs an output path") }
            outputs.append(value)
        case "--frames":
            guard !value.isEmpty else { throw UsageError(message: "--frames needs a directory") }
            framesDirectory = value
        case "--preview":
            previewPath = try OptionValues.file(value, name, extensions: ["html", "htm"])
        case "--report":
            reportPath = try OptionValues.file(value, name, extensions: ["json"])
        default:
            throw UsageError(message: "unknown option \(name)")
        }
    }

    private mutating func apply(_ name: String, _ value: String) throws(UsageError) {
        if try applyVariantOption(name, value) { return }
        switch name {
        case "--fps":
            fps = try OptionValues.number(value, name, "frames per second 0.1…120") { $0 >= 0.1 && $0 <= 120 }
        case "--scale":
            var list: [Double] = []
            for item in try OptionValues.list(value, name) {
                let scale = try OptionValues.number(item, name, "a scale factor 0.01…16") { $0 >= 0.01 && $0 <= 16 }
                guard !list.contains(scale) else { throw UsageError(message: "--scale \(value): \(item) is repeated") }
                list.append(scale)
            }
            scales = list
            variantOptions.scaleGiven = true
        case "--duration":
            duration = try OptionValues.number(
                value, name,
                "a loop period in seconds, 0.02…600, without a unit (--duration 1.5 is 1.5 s; a GIF frame lasts at least 2 cs)"
            ) {
                $0 >= 0.02 && $0 <= 600
            }
        case "--background":
            if value == "transparent" || value == "none" {
                background = .some(nil)
            } else {
                background = .some(try OptionValues.color(value, name))
            }
        case "--matte":
            matte = value == "none" ? .some(nil) : .some(try OptionValues.color(value, name))
        case "--loop":
            guard let count = LoopCount(option: value) else {
                throw UsageError(message: "--loop \(value): expected \(LoopCount.optionForms)")
            }
            loop = count
        case "--columns":
            columns = try OptionValues.integer(value, name, "a whole number 1…4096", 1...4096)
        case "--padding":
            padding = try OptionValues.integer(value, name, "whole pixels 0…1024", 0...1024)
        case "--set":
            settings.removeAll { $0.name == ParameterSetting.name(of: value) }
            settings.append(try ParameterSetting(parsing: value))
        case "--format":
            var kinds: [OutputFormatKind] = []
            let names = OutputFormatKind.folderKinds.map(\.rawValue)
            for item in try OptionValues.list(value, name) {
                guard let kind = OutputFormatKind(rawValue: item.lowercased()), names.contains(kind.rawValue) else {
                    var message =
                        "--format \(item): expected \(names.dropLast().joined(separator: ", ")) or \(names.last ?? "")"
                    if let near = suggestion(for: item, among: names) {
                        message += "; did you mean \(near)?"
                    }
                    throw UsageError(message: message)
                }
                if !kinds.contains(kind) { kinds.append(kind) }
            }
            formats = kinds
        case "--shard":
            shard = try Shard.parse(value)
        case "--jobs", "-j":
            jobs = try OptionValues.integer(value, name, "a number of threads 1…256", 1...256)
        case "--frame":
            guard still == nil else { throw UsageError(message: "give one of --frame and --time") }
            still = .index(try OptionValues.integer(value, name, "a frame number ≥ 0", 0...1_000_000))
        case "--time":
            guard still == nil else { throw UsageError(message: "give one of --frame and --time") }
            still = .time(
                try OptionValues.number(value, name, "seconds ≥ 0 on the preset's clock, without a unit (--time 1.5)") {
                    $0 >= 0 && $0 <= 86_400
                })
        case "--dither":
            dither = try OptionValues.choice(
                value, name, ["none": .none, "ordered": .ordered, "fs": .floydSteinberg], "none, ordered or fs")
        case "--lossy":
            lossy = try OptionValues.integer(value, name, "a tolerance in levels 0…255 (0 = lossless)", 0...255)
        case "--quality":
            quality = try OptionValues.integer(value, name, "a lossy WebP quality 0…100", 0...100)
        case "--effort":
            effort = try OptionValues.choice(value, name, ["standard": .standard, "max": .max], "standard or max")
        case "--extrude":
            extrude = try OptionValues.integer(value, name, "whole pixels 0…64", 0...64)
        case "--sheet-type":
            sheetType = try OptionValues.choice(
                value, name, ["grid": .grid, "horizontal": .horizontal, "vertical": .vertical, "packed": .packed],
                "grid, horizontal, vertical or packed")
        case "--max-size":
            maxSize = try OptionValues.integer(
                value, name, "a page size of 1…\(SheetFormat.maximumSide) pixels", 1...SheetFormat.maximumSide)
        case "--sheet-colors":
            sheetColors = try OptionValues.integer(value, name, "a palette size 2…256", 2...256)
        case "--sheet-format":
            let names = SheetDataFormat.allCases.map(\.rawValue)
            guard let format = SheetDataFormat(rawValue: value.lowercased()) else {
                var message =
                    "--sheet-format \(value): expected \(names.dropLast().joined(separator: ", ")) or \(names.last ?? "")"
                if let near = suggestion(for: value, among: names) { message += "; did you mean \(near)?" }
                throw UsageError(message: message)
            }
            sheetFormat = format
        case "--exclude":
            guard !value.isEmpty else { throw UsageError(message: "--exclude needs a file-name pattern") }
            excludes.append(value)
        case "--frame-name":
            do {
                try SheetData.checkTemplate(value)
            } catch {
                throw UsageError(message: "--frame-name: \(error.message)")
            }
            frameName = value
        default:
            throw UsageError(message: "unknown option \(name)")
        }
    }

    /// Render threads to use: `--jobs`, or one per core.
    /// The format options of a job whose GIF edges go onto `matte` (nil: threshold them).
    func exportSettings(matte: RGBAColor?) -> ExportSettings {
        var settings = ExportSettings()
        settings.gif.loop = loop
        settings.gif.matte = matte
        settings.gif.dither = dither
        settings.gif.lossy = lossy
        settings.loop = loop
        settings.effort = effort
        settings.webpQuality = quality
        settings.columns = columns
        settings.padding = padding
        settings.extrude = extrude
        settings.trim = trim
        settings.layout = sheetType
        settings.maxSize = maxSize
        settings.powerOfTwo = powerOfTwo
        settings.mergeDuplicates = mergeDuplicates
        settings.sheetColors = sheetColors
        settings.frameNameTemplate = frameName
        return settings
    }

    var threadCount: Int { jobs ?? max(1, ProcessInfo.processInfo.activeProcessorCount) }
}
