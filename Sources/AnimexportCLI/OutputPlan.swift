// SPDX-License-Identifier: GPL-3.0-or-later

import Export
import Foundation
import OutputFiles
import Spec
import ToolOptions

/// Where each job's outputs go, decided from `-o`, `--format`, `--frames`, `--frame`/`--time`
/// and the job's variant and scale before anything is rendered.
///
/// Names: a folder output gets `NAME` + variant suffix (`-size-24`) + `@Sx` for a scale other
/// than 1, then `.gif`, `.png` + `.json`, or `-000.png`…; a file output (`-o loader.gif`) keeps
/// its name and gets the variant suffix and, only when several scales are asked for, `@Sx`.
enum OutputPlan {
    /// The default folder when no `-o` is given.
    static let defaultDirectory: FilePath = "output"

    /// `@2x`, `@1.5x`, or `""` at scale 1.
    static func scaleSuffix(_ scale: Double) -> String {
        scale == 1 ? "" : "@\(formatNumber(scale))x"
    }

    /// `directory/stem-007.png`, with at least three digits and as many as the last frame needs.
    static func framePath(_ directory: FilePath, _ stem: String, _ index: Int, frameCount: Int) -> FilePath {
        FramesFormat.framePath(directory.appending(stem), index, frameCount: frameCount)
    }

    /// The kinds a folder output receives without `--format`: a GIF (and a sheet for `-o DIR/`).
    static func defaultKinds(_ options: Options) -> [OutputFormatKind] {
        options.outputs.isEmpty ? [.gif] : [.gif, .sheet]
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
        let naming = JobNaming(
            stem: name + variant.suffix + scaleSuffix(scale),
            fileSuffix: variant.suffix + (options.scales.count > 1 ? scaleSuffix(scale) : ""))
        return targets(naming: naming, frameCount: frameCount, options: options)
    }

    /// The targets of one job named by `naming` (`JobNaming.make`: `--size`, `--name`).
    static func targets(naming: JobNaming, frameCount: Int, options: Options) -> [OutputTarget] {
        let stem = naming.stem
        let fileSuffix = naming.fileSuffix
        let outputs = options.outputs.isEmpty ? [defaultDirectory + "/"] : options.outputs
        var targets: [OutputTarget] = []
        for output in outputs {
            if isDirectory(output) {
                let dir = output.removingTrailingSlashes
                if let still = options.still {
                    targets.append(
                        OutputTarget(kind: .still, path: stillPath(dir, stem, still, frameCount: frameCount)))
                    continue
                }
                for kind in options.formats ?? defaultKinds(options) {
                    targets.append(kind.format.target(directory: dir, stem: stem))
                }
            } else {
                // The name keeps its bytes; the variant goes before the extension (`x-size-24.gif`).
                let ext = OutputFormatKind.fileExtension(of: output)
                let path = OutputFormatKind.deletingFileExtension(of: output) + fileSuffix + "." + ext
                // `validate` has checked the extension.
                let kind = options.still != nil ? .still : OutputFormatKind.forExtension(ext) ?? .sheet
                targets.append(OutputTarget(kind: kind, path: path))
            }
        }
        if let directory = options.framesDirectory {
            // "frames/" and "frames" name the same folder; keep paths free of "//".
            let trimmed = directory.removingTrailingSlashes
            targets.append(FramesFormat().target(directory: trimmed, stem: stem))
        }
        // The preview shows every animated format; those not asked for are made in memory only.
        if options.previewPath != nil, options.still == nil {
            for kind in previewKinds where !targets.contains(where: { $0.kind == kind }) {
                var target = kind.format.target(directory: defaultDirectory, stem: stem)
                target.written = false
                targets.append(target)
            }
        }
        for i in targets.indices where targets[i].kind == .sheet { targets[i].sheetData = options.sheetFormat }
        return targets
    }

    /// What `--preview` shows side by side: every kind `-o NAME.EXT` can ask for (GIF, sheet, and
    /// each animated format added to `folderKinds` with an extension), since each writes one main
    /// file the page can inline; PNG frames have no extension of their own and are left out.
    /// Lottie is left out too: the page shows images.
    static let previewKinds = OutputFormatKind.folderKinds.filter {
        !$0.format.fileExtensions.isEmpty && $0 != .lottie
    }

    /// `dir/stem-030.png` for `--frame 30`, `dir/stem-t1.5s.png` for `--time 1.5`; a scale
    /// suffix stays last (`dir/NAME-030@2x.png`).
    static func stillPath(_ dir: FilePath, _ stem: String, _ still: StillFrame, frameCount: Int) -> FilePath {
        switch still {
        case .index(let i): framePath(dir, stem, i, frameCount: frameCount)
        case .time(let t): FramesFormat.suffixed(dir.appending(stem), "-t\(formatNumber(t))s")
        }
    }

    static func isDirectory(_ path: FilePath) -> Bool { path.hasTrailingSlash || path.isDirectory }

    /// Checks the `-o` values before any work: known extensions, and directory outputs when
    /// several presets are given.
    static func validate(_ outputs: [FilePath], presetCount: Int, still: StillFrame?) throws(UsageError) {
        // `-o x.gif` where x.gif is a folder: a file was meant, and writing into the folder
        // would put files where nobody looks for them.
        for output in outputs where !output.hasTrailingSlash && isDirectory(output) {
            let ext = OutputFormatKind.fileExtension(of: output)
            if !ext.isEmpty, OutputFormatKind.forExtension(ext) != nil {
                throw UsageError(
                    message:
                        "-o \(output) is a folder, but its name reads as a .\(ext) file; write -o \(output)/ to write into the folder, or name another file"
                )
            }
        }
        for output in outputs where !isDirectory(output) {
            if still != nil, output.pathExtension.lowercased() != "png" {
                throw UsageError(message: "-o \(output): --frame/--time write one PNG; use NAME.png or a directory")
            }
            let ext = OutputFormatKind.fileExtension(of: output)
            if ext.isEmpty, !output.exists {
                throw UsageError(
                    message:
                        "-o \(output) has no extension and is no folder; write -o \(output)/ for a folder (it is created), or a file name such as \(output).gif"
                )
            }
            guard OutputFormatKind.forExtension(ext) != nil else {
                let what = ext.isEmpty ? "has no extension" : "has the extension .\(ext)"
                let kinds = OutputFormatKind.folderKinds.compactMap { kind in
                    kind.format.fileExtensions.first.map { "NAME.\($0) (\(kind.format.title))" }
                }
                throw UsageError(
                    message: "-o \(output) \(what); use \(kinds.joined(separator: ", ")) or a directory ending in /")
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
