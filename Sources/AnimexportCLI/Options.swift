// SPDX-License-Identifier: GPL-3.0-or-later

import Encode
import Foundation
import Spec

/// A command-line mistake; printed as `error: …` followed by a hint to `--help`, exit 64.
struct UsageError: Error, Equatable {
    var message: String
}

/// Everything the command line asked for, checked.
struct Options: Equatable {
    var presets: [String] = []
    var outputs: [String] = []
    var fps: Double?
    var scale: Double = 1
    var duration: Double?
    /// `.some(nil)` = transparent.
    var background: RGBAColor??
    /// `.some(nil)` = `none` (threshold the edges).
    var matte: RGBAColor??
    var loop: LoopCount = .forever
    var columns: Int?
    var padding: Int = 0
    var dither: GIFDither = .none
    var extrude = 0
    var trim = false
    var sheetType: SheetLayout = .grid
    var sheetColors: Int?
    var overrides: [String: String] = [:]
    var framesDirectory: String?
    var quiet = false
    var help = false
    var version = false

    /// Options that take a value, with what the value is (for messages).
    static let valued: [String: String] = [
        "-o": "an output path", "--output": "an output path", "--fps": "frames per second",
        "--scale": "a scale factor", "--duration": "seconds", "--background": "a colour",
        "--matte": "a colour or none", "--loop": "a play count or forever",
        "--columns": "a column count", "--padding": "pixels", "--set": "NAME=VALUE",
        "--frames": "a directory", "--dither": "none, ordered or fs", "--extrude": "pixels",
        "--sheet-type": "grid, horizontal or vertical", "--sheet-colors": "a colour count",
    ]
    static let flags = ["--quiet", "-q", "--help", "-h", "--version", "--trim"]

    /// Parses `arguments` (without the program name).
    static func parse(_ arguments: [String]) throws(UsageError) -> Options {
        var options = Options()
        var i = 0
        var onlyPositional = false
        while i < arguments.count {
            let argument = arguments[i]
            i += 1
            if onlyPositional || !argument.hasPrefix("-") || argument == "-" {
                options.presets.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositional = true
                continue
            }
            var name = argument
            var inlineValue: String?
            if argument.hasPrefix("--"), let eq = argument.firstIndex(of: "=") {
                name = String(argument[..<eq])
                inlineValue = String(argument[argument.index(after: eq)...])
            }
            if Self.flags.contains(name) {
                if inlineValue != nil { throw UsageError(message: "\(name) takes no value") }
                switch name {
                case "--quiet", "-q": options.quiet = true
                case "--help", "-h": options.help = true
                case "--trim": options.trim = true
                default: options.version = true
                }
                continue
            }
            guard let what = Self.valued[name] else {
                let known = Array(Self.valued.keys) + Self.flags
                var message = "unknown option \(name)"
                if let near = suggestion(for: name, among: known) { message += "; did you mean \(near)?" }
                throw UsageError(message: message)
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else {
                guard i < arguments.count else { throw UsageError(message: "\(name) needs \(what)") }
                value = arguments[i]
                i += 1
            }
            try options.apply(name, value)
        }
        return options
    }

    private mutating func apply(_ name: String, _ value: String) throws(UsageError) {
        switch name {
        case "-o", "--output":
            guard !value.isEmpty else { throw UsageError(message: "\(name) needs an output path") }
            outputs.append(value)
        case "--fps":
            fps = try Self.number(value, name, "frames per second in (0, 120]") { $0 > 0 && $0 <= 120 }
        case "--scale":
            scale = try Self.number(value, name, "a scale factor in (0, 16]") { $0 > 0 && $0 <= 16 }
        case "--duration":
            duration = try Self.number(value, name, "a loop period in seconds in (0, 600]") { $0 > 0 && $0 <= 600 }
        case "--background":
            if value == "transparent" || value == "none" {
                background = .some(nil)
            } else {
                background = .some(try Self.color(value, name))
            }
        case "--matte":
            matte = value == "none" ? .some(nil) : .some(try Self.color(value, name))
        case "--loop":
            if value == "forever" || value == "infinite" || value == "0" {
                loop = .forever
            } else if let n = Int(value), n >= 1, n <= 65536 {
                loop = .plays(n)
            } else {
                throw UsageError(message: "--loop \(value): expected a number of plays 1…65536 or \"forever\"")
            }
        case "--columns":
            guard let n = Int(value), n >= 1, n <= 4096 else {
                throw UsageError(message: "--columns \(value): expected a whole number ≥ 1")
            }
            columns = n
        case "--padding":
            guard let n = Int(value), n >= 0, n <= 1024 else {
                throw UsageError(message: "--padding \(value): expected whole pixels 0…1024")
            }
            padding = n
        case "--set":
            guard let eq = value.firstIndex(of: "="), eq != value.startIndex else {
                throw UsageError(message: "--set \(value): expected NAME=VALUE, e.g. --set color=#FF3B30")
            }
            overrides[String(value[..<eq])] = String(value[value.index(after: eq)...])
        case "--frames":
            guard !value.isEmpty else { throw UsageError(message: "--frames needs a directory") }
            framesDirectory = value
        case "--dither":
            let modes: [String: GIFDither] = ["none": .none, "ordered": .ordered, "fs": .floydSteinberg]
            guard let mode = modes[value] else {
                throw UsageError(message: "--dither \(value): expected none, ordered or fs")
            }
            dither = mode
        case "--extrude":
            guard let n = Int(value), n >= 0, n <= 64 else {
                throw UsageError(message: "--extrude \(value): expected whole pixels 0…64")
            }
            extrude = n
        case "--sheet-type":
            let types: [String: SheetLayout] = ["grid": .grid, "horizontal": .horizontal, "vertical": .vertical]
            guard let type = types[value] else {
                throw UsageError(message: "--sheet-type \(value): expected grid, horizontal or vertical")
            }
            sheetType = type
        case "--sheet-colors":
            guard let n = Int(value), n >= 2, n <= 256 else {
                throw UsageError(message: "--sheet-colors \(value): expected a palette size 2…256")
            }
            sheetColors = n
        default:
            throw UsageError(message: "unknown option \(name)")
        }
    }

    private static func number(
        _ text: String, _ name: String, _ expected: String, _ valid: (Double) -> Bool
    ) throws(UsageError) -> Double {
        guard let n = Double(text), n.isFinite, valid(n) else {
            throw UsageError(message: "\(name) \(text): expected \(expected)")
        }
        return n
    }

    private static func color(_ text: String, _ name: String) throws(UsageError) -> RGBAColor {
        guard let c = RGBAColor(parsing: text) else {
            var message = "\(name) \(text): expected a colour (\(RGBAColor.acceptedColorForms))"
            if let near = suggestion(for: text, among: RGBAColor.namedColors.map(\.name)) {
                message += "; did you mean \(near)?"
            }
            throw UsageError(message: message)
        }
        return c
    }
}
