// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Spec

/// One output file set the command line asked for.
enum OutputTarget: Equatable {
    /// An animated GIF at this path.
    case gif(String)
    /// A sprite-sheet PNG and its JSON data file.
    case sheet(png: String, json: String)

    /// The files this target writes.
    var paths: [String] {
        switch self {
        case .gif(let p): [p]
        case .sheet(let png, let json): [png, json]
        }
    }
}

/// Where each preset's outputs go, decided from `-o` before anything is rendered.
enum OutputPlan {
    /// The default folder when no `-o` is given.
    static let defaultDirectory = "output"

    /// The targets for a preset named `name`.
    /// - `-o x.gif` → a GIF; `-o x.png` → a sprite sheet + `x.json`;
    /// - `-o DIR/` (or an existing directory) → `DIR/name.gif`, `DIR/name.png`, `DIR/name.json`;
    /// - no `-o` → `output/name.gif`.
    static func targets(for name: String, outputs: [String]) -> [OutputTarget] {
        if outputs.isEmpty {
            return [.gif("\(defaultDirectory)/\(name).gif")]
        }
        var targets: [OutputTarget] = []
        for output in outputs {
            if isDirectory(output) {
                let dir = output.hasSuffix("/") ? String(output.dropLast()) : output
                targets.append(.gif("\(dir)/\(name).gif"))
                targets.append(.sheet(png: "\(dir)/\(name).png", json: "\(dir)/\(name).json"))
            } else if output.lowercased().hasSuffix(".gif") {
                targets.append(.gif(output))
            } else {
                let stem = String(output.dropLast(4))
                targets.append(.sheet(png: output, json: stem + ".json"))
            }
        }
        return targets
    }

    static func isDirectory(_ path: String) -> Bool {
        if path.hasSuffix("/") { return true }
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
            && isDirectory.boolValue
    }

    /// Checks the `-o` values before any work: known extensions, and directory outputs when
    /// several presets are given.
    static func validate(_ outputs: [String], presetCount: Int) throws(UsageError) {
        for output in outputs where !isDirectory(output) {
            let lower = output.lowercased()
            guard lower.hasSuffix(".gif") || lower.hasSuffix(".png") else {
                let ext = (output as NSString).pathExtension
                let what = ext.isEmpty ? "has no extension" : "has the extension .\(ext)"
                throw UsageError(
                    message:
                        "-o \(output) \(what); use NAME.gif (animated GIF), NAME.png (sprite sheet + NAME.json) or a directory ending in /"
                )
            }
            if presetCount > 1 {
                throw UsageError(
                    message:
                        "-o \(output) names one file but \(presetCount) presets were given; use -o DIR/ for several presets"
                )
            }
        }
    }
}
