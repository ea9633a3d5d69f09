// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Spec

/// One output file set the command line asked for.
enum OutputTarget: Equatable, Sendable {
    /// An animated GIF at this path.
    case gif(String)
    /// A sprite-sheet PNG and its JSON data file.
    case sheet(png: String, json: String)
    /// Every frame as `directory/stem-000.png`, `…-001.png`, … (at least three digits).
    case frames(directory: String, stem: String)
    /// One frame (`--frame` / `--time`) as a PNG at this path.
    case still(String)

    /// The files this target writes for a loop of `frameCount` frames.
    func paths(frameCount: Int) -> [String] {
        switch self {
        case .gif(let p), .still(let p): [p]
        case .sheet(let png, let json): [png, json]
        case .frames(let directory, let stem):
            (0..<frameCount).map { OutputPlan.framePath(directory, stem, $0, frameCount: frameCount) }
        }
    }
}

/// Where each job's outputs go, decided from `-o`, `--format`, `--frames`, `--frame`/`--time`
/// and the job's variant and scale before anything is rendered.
///
/// Names: a folder output gets `NAME` + variant suffix (`-size-24`) + `@Sx` for a scale other
/// than 1, then `.gif`, `.png` + `.json`, or `-000.png`…; a file output (`-o loader.gif`) keeps
/// its name and gets the variant suffix and, only when several scales are asked for, `@Sx`.
enum OutputPlan {
    /// The default folder when no `-o` is given.
    static let defaultDirectory = "output"

    /// `@2x`, `@1.5x`, or `""` at scale 1.
    static func scaleSuffix(_ scale: Double) -> String {
        scale == 1 ? "" : "@\(formatNumber(scale))x"
    }

    /// `directory/stem-007.png`, with at least three digits and as many as the last frame needs.
    static func framePath(_ directory: String, _ stem: String, _ index: Int, frameCount: Int) -> String {
        let digits = max(3, String(max(0, frameCount - 1)).count)
        let number = String(index)
        return "\(directory)/\(stem)-\(String(repeating: "0", count: max(0, digits - number.count)))\(number).png"
    }

    /// The targets of one job.
    /// - Parameters:
    ///   - name: the preset's `name`.
    ///   - variant: the job's `--set` combination.
    ///   - scale: the job's pixels per point.
    ///   - frameCount: frames in the job's loop (for `--frame` file names).
    ///   - options: the command line.
    static func targets(
        name: String, variant: Variant, scale: Double, frameCount: Int, options: Options
    ) -> [OutputTarget] {
        let stem = name + variant.suffix + scaleSuffix(scale)
        let fileSuffix = variant.suffix + (options.scales.count > 1 ? scaleSuffix(scale) : "")
        let outputs = options.outputs.isEmpty ? [defaultDirectory + "/"] : options.outputs
        var targets: [OutputTarget] = []
        for output in outputs {
            if isDirectory(output) {
                let dir = output.count > 1 && output.hasSuffix("/") ? String(output.dropLast()) : output
                if let still = options.still {
                    targets.append(.still(stillPath(dir, stem, still, frameCount: frameCount)))
                    continue
                }
                for kind in options.formats ?? (options.outputs.isEmpty ? [.gif] : [.gif, .sheet]) {
                    switch kind {
                    case .gif: targets.append(.gif("\(dir)/\(stem).gif"))
                    case .sheet: targets.append(.sheet(png: "\(dir)/\(stem).png", json: "\(dir)/\(stem).json"))
                    case .frames: targets.append(.frames(directory: dir, stem: stem))
                    }
                }
            } else {
                let ext = (output as NSString).pathExtension
                let base = String(output.dropLast(ext.count + 1)) + fileSuffix
                if options.still != nil {
                    targets.append(.still("\(base).\(ext)"))
                } else if ext.lowercased() == "gif" {
                    targets.append(.gif("\(base).\(ext)"))
                } else {
                    targets.append(.sheet(png: "\(base).\(ext)", json: base + ".json"))
                }
            }
        }
        if let directory = options.framesDirectory {
            // "frames/" and "frames" name the same folder; keep paths free of "//".
            let trimmed = directory.count > 1 && directory.hasSuffix("/") ? String(directory.dropLast()) : directory
            targets.append(.frames(directory: trimmed, stem: stem))
        }
        return targets
    }

    /// `dir/stem-030.png` for `--frame 30`, `dir/stem-t1.5s.png` for `--time 1.5`.
    static func stillPath(_ dir: String, _ stem: String, _ still: StillFrame, frameCount: Int) -> String {
        switch still {
        case .index(let i): framePath(dir, stem, i, frameCount: frameCount)
        case .time(let t): "\(dir)/\(stem)-t\(formatNumber(t))s.png"
        }
    }

    static func isDirectory(_ path: String) -> Bool {
        if path.hasSuffix("/") { return true }
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
            && isDirectory.boolValue
    }

    /// Checks the `-o` values before any work: known extensions, and directory outputs when
    /// several presets are given.
    static func validate(_ outputs: [String], presetCount: Int, still: StillFrame?) throws(UsageError) {
        for output in outputs where !isDirectory(output) {
            let lower = output.lowercased()
            if still != nil, !lower.hasSuffix(".png") {
                throw UsageError(message: "-o \(output): --frame/--time write one PNG; use NAME.png or a directory")
            }
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
