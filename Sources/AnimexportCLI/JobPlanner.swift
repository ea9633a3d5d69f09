// SPDX-License-Identifier: GPL-3.0-or-later

import Export
import Foundation
import Render
import Spec
import Timeline

/// A run that stops with this exit code; its messages have been printed already.
struct ExitFailure: Error, Equatable {
    var code: ExitCode
}

/// Turns the command line into checked jobs before any rendering: reads every preset with every
/// `--set` combination, plans every loop, names every file and checks every output folder. When
/// anything is wrong it prints every problem it found and nothing is written.
enum JobPlanner {
    /// The presets named on the command line: files as given, folders as their `*.json` files
    /// in byte order (each name as `readdir` gives it, so a Latin-1 name is kept).
    /// - Throws: `UsageError` for a folder without presets, or one that cannot be read.
    static func presetFiles(_ arguments: [FilePath]) throws(UsageError) -> [FilePath] {
        var files: [FilePath] = []
        for argument in arguments {
            if argument.isDirectory {
                let names: [FilePath]
                do {
                    names = try argument.entries()
                } catch {
                    throw UsageError(message: "cannot list \(argument): \(error.reason)")
                }
                let presets = names.filter {
                    $0.pathExtension.lowercased() == "json" && $0.bytes.first != UInt8(ascii: ".")
                }
                guard !presets.isEmpty else { throw UsageError(message: "\(argument) holds no .json presets") }
                let dir = argument.removingTrailingSlashes
                files += presets.map { dir.appending($0) }
            } else {
                files.append(argument)
            }
        }
        return files
    }

    /// Reads one preset with `overrides`, printing what is wrong when it cannot be used.
    /// - Parameter printed: diagnostics already printed (so a fan-out does not repeat them).
    /// - Throws: `ExitFailure` with 1 (unreadable), 64 (bad `--set`) or 65 (invalid preset).
    static func load(
        _ path: FilePath, overrides: [String: String], console: Console, printed: inout Set<String>
    ) throws(ExitFailure) -> LoadedPreset {
        do {
            let loaded = try readPreset(path, overrides: overrides)
            for w in loaded.warnings where printed.insert(w.description).inserted { console.diagnostic(w) }
            return loaded
        } catch let error as PresetError {
            var fresh = 0
            for d in error.diagnostics where printed.insert(d.description).inserted {
                console.diagnostic(d)
                fresh += 1
            }
            if fresh > 0 {
                let count = error.diagnostics.filter { $0.severity == .error }.count
                console.note("\(path): \(count) error\(count == 1 ? "" : "s"); nothing written")
            }
            throw ExitFailure(code: .badPreset)
        } catch let error as ParameterOverrideError {
            if printed.insert(error.message).inserted { console.error("\(path): \(error.message)") }
            throw ExitFailure(code: .usage)
        } catch {
            console.error("\(error)")
            throw ExitFailure(code: .failure)
        }
    }

    /// Reads the preset file by its bytes and decodes it, as `PresetLoader.load(contentsOf:)`
    /// does for a name that is a `String`. Diagnostics name the file as `FilePath.description`
    /// shows it (`caf\xE9.json`).
    /// - Throws: `FileReadError` (exit 1) when it cannot be read, and what
    ///   `PresetLoader.decode` throws.
    static func readPreset(
        _ path: FilePath, overrides: [String: String] = [:], checkFonts: Bool = true
    ) throws -> LoadedPreset {
        let bytes: [UInt8]
        do {
            bytes = try path.read()
        } catch {
            // The words `PresetLoader` uses for the common cases.
            var failure = error
            if error.reason == FilePath.reason(errno: ENOENT) { failure.reason = "no such file" }
            if error.reason == FilePath.reason(errno: EACCES) { failure.reason = "permission denied" }
            throw failure
        }
        var loaded = try PresetLoader.decode(
            bytes: bytes, file: path.description, overrides: overrides,
            fontAvailable: checkFonts ? Exporter.fontAvailable : nil, directory: path.directory.bytes)
        // As `PresetLoader.load` sets it (for messages; image layers were found by the bytes).
        loaded.directory = (path.description as NSString).deletingLastPathComponent
        return loaded
    }

    /// Every job of the command line, checked; see the type's documentation.
    /// - Parameter presets: the preset files (after `presetFiles`).
    /// - Throws: `ExitFailure` after printing every problem.
    static func jobs(for presets: [FilePath], options: Options, console: Console) throws(ExitFailure) -> [ExportJob] {
        var worst = ExitCode.success
        var jobs: [ExportJob] = []
        let variants = Variant.expand(options.settings)
        for path in presets {
            var printed = Set<String>()
            var gifWarned = false
            for variant in variants {
                let loaded: LoadedPreset
                do {
                    loaded = try load(path, overrides: variant.overrides, console: console, printed: &printed)
                } catch {
                    worst = worst.combined(with: error.code)
                    continue
                }
                for scale in options.scales {
                    do {
                        let job = try makeJob(path, loaded, variant, scale, options)
                        if let gifPlan = job.framePlan(of: .gif), gifPlan.fps < job.plan.fps, !gifWarned,
                            job.targets.contains(where: { $0.kind == .gif && $0.written })
                        {
                            gifWarned = true
                            console.warning(
                                "\(path): \(formatNumber(job.plan.fps)) fps is above what GIF can play (delays under 2 cs play as 10 cs in browsers); the GIF is resampled to \(formatNumber(gifPlan.fps)) fps"
                            )
                        }
                        // The loop's own traps (off the 1/100 s grid, a cycle cut mid-way) are
                        // worth saying on export too, not only under validate.
                        let lints = LoopLints.lints(job.plan, file: path.description, composition: job.composition)
                        for lint in lints where !job.composition.allowedLints.contains(lint.lint ?? "") {
                            if printed.insert(lint.description).inserted { console.diagnostic(lint) }
                        }
                        jobs.append(job)
                    } catch {
                        for d in error.diagnostics where printed.insert(d.description).inserted {
                            console.diagnostic(d)
                        }
                        for line in error.message.split(separator: "\n").map(String.init)
                        where printed.insert(line).inserted {
                            console.error(line)
                        }
                        worst = worst.combined(with: error.code)
                    }
                }
            }
        }
        if worst != .success { throw ExitFailure(code: worst) }
        try checkUniquePaths(
            jobs, extra: [options.reportPath, options.previewPath].compactMap { $0 }, console: console)
        return jobs
    }

    /// A job failure with its exit code and message.
    struct JobError: Error {
        var code: ExitCode
        /// Lines for `error:` (may be empty when `diagnostics` say it all).
        var message: String
        /// Problems at a preset's JSON paths, printed as `file:line:col: error: $.path: …`.
        var diagnostics: [Diagnostic] = []
    }

    private static func makeJob(
        _ path: FilePath, _ loaded: LoadedPreset, _ variant: Variant, _ scale: Double, _ options: Options
    ) throws(JobError) -> ExportJob {
        var composition = loaded.composition
        if let background = options.background { composition.canvas.background = background }
        let fps = options.fps ?? composition.fps
        // One budget before any rendering: loop, frames, pixels, geometry, images
        // (docs/preset-format.md, Limits); preset values exit 65 at their JSON path, options 64.
        let violations = ExportBudget.check(composition, fps: options.fps, duration: options.duration, scale: scale)
        if !violations.isEmpty {
            let usage = violations.contains(where: \.isUsageError)
            throw JobError(
                code: usage ? .usage : .badPreset,
                message: violations.filter(\.isUsageError).map { "\(path): \($0.description)" }.joined(separator: "\n"),
                diagnostics: violations.compactMap { $0.diagnostic(file: path.description, composition: composition) })
        }
        let plan: LoopPlan
        do {
            plan = try LoopPlan.make(
                for: composition, fps: fps, duration: options.duration, fpsIsOption: options.fps != nil)
        } catch {
            if let violation = error.violation, violation.isUsageError {
                throw JobError(code: .usage, message: "\(path): \(violation.description)")
            }
            throw JobError(
                code: .badPreset, message: "", diagnostics: [error.diagnostic(file: path.description, composition: composition)])
        }
        let pixels = SceneRenderer.pixelSize(
            width: composition.canvas.width, height: composition.canvas.height, scale: scale)
        guard pixels.width <= 16384, pixels.height <= 16384 else {
            throw JobError(
                code: .usage,
                message:
                    "\(path): \(pixels.width)×\(pixels.height) pixels at --scale \(formatNumber(scale)) is too large (limit 16384 per side)"
            )
        }
        var stillTime: Double?
        switch options.still {
        case .index(let i)?:
            guard i < plan.frameCount else {
                throw JobError(
                    code: .usage,
                    message: "--frame \(i): \(path) loops in \(plan.frameCount) frames (0…\(plan.frameCount - 1))")
            }
            stillTime = plan.time(ofFrame: i)
        case .time(let t)?: stillTime = t
        case nil: stillTime = nil
        }
        let targets = OutputPlan.targets(
            name: composition.name, variant: variant, scale: scale, frameCount: plan.frameCount, options: options)
        let request = ExportRequest(
            composition: composition, plan: plan, duration: options.duration, scale: scale, targets: targets,
            settings: options.exportSettings(matte: options.matte ?? composition.canvas.matte), stillTime: stillTime)
        let framePlans: [LoopPlan]
        let problems: [String]
        do {
            framePlans = try request.framePlans()
            problems = try request.preflight()
        } catch {
            throw JobError(code: .badPreset, message: "\(path): \(error.message)")
        }
        if let problem = problems.first {
            throw JobError(code: .usage, message: "\(path): \(problem)")
        }
        let stem = composition.name + variant.suffix + OutputPlan.scaleSuffix(scale)
        return ExportJob(presetPath: path, variant: variant, stem: stem, request: request, framePlans: framePlans)
    }

    /// Two outputs of the run on the same file is a usage error (say, two presets with the same
    /// `name`, or `--report x.json` beside the sheet `x.png`), and so is an output that would
    /// replace one of the run's inputs (a sheet's `NAME.json` written beside the preset
    /// `NAME.json` it came from, `--report` or `--preview` naming a preset, or an image layer's
    /// PNG). Paths are compared with links resolved.
    /// - Parameter extra: the run's own files (`--report`, `--preview`), checked like the jobs'.
    private static func checkUniquePaths(_ jobs: [ExportJob], extra: [FilePath], console: Console) throws(ExitFailure) {
        var inputs: [FilePath: String] = [:]
        for job in jobs {
            inputs[job.presetPath.canonical] = "the preset \(job.presetPath)"
            for file in imageFiles(job.composition.layers) {
                inputs[FilePath(bytes: file).canonical] = "an image that \(job.presetPath) uses"
            }
        }
        var owner: [FilePath: String] = [:]
        let runFile = "this run's --report/--preview"
        let runFiles = extra.map { (path: $0, from: runFile) }
        // (`from` names the preset, or the run itself for --report and --preview.)
        let all = jobs.flatMap { job in job.paths.map { (path: $0, from: job.presetPath.description) } } + runFiles
        for (path, from) in all {
            if let input = inputs[path.canonical] {
                let fix =
                    from == runFile
                    ? "give --report or --preview another file name"
                    : "write the outputs to another folder (-o DIR/) or another name"
                console.error("\(path) would overwrite \(input); \(fix)")
                throw ExitFailure(code: .usage)
            }
            let key = path.canonical
            if let other = owner[key] {
                let message =
                    other == runFile || from == runFile
                    ? "\(path) is named by both --report/--preview and \(other == runFile ? from : other)'s outputs; give the report and the preview names of their own"
                    : other == from
                        ? "\(path) would be written twice from \(other); check the -o values"
                        : "\(path) would be written from both \(other) and \(from); give the presets different names or use separate -o folders"
                console.error(message)
                throw ExitFailure(code: .usage)
            }
            owner[key] = from
        }
    }

    /// Every image layer's file in a layer tree.
    private static func imageFiles(_ layers: [Layer]) -> [[UInt8]] {
        layers.flatMap { layer -> [[UInt8]] in
            var files = imageFiles(layer.children)
            if case .image(let image) = layer.state.shape { files.append(image.resolvedBytes) }
            return files
        }
    }

    /// Makes sure every folder the run writes to (or, for `check`, reads from) exists and, when
    /// writing, accepts a new file. The default `output/` and a `--frames` folder are created.
    /// - Throws: `ExitFailure(.failure)` after printing the first folder that fails.
    static func prepareFolders(
        _ jobs: [ExportJob], extra: [FilePath], options: Options, writing: Bool, console: Console
    ) throws(ExitFailure) {
        if writing {
            var create: [FilePath] = []
            if options.outputs.isEmpty { create.append(OutputPlan.defaultDirectory) }
            if let frames = options.framesDirectory { create.append(frames) }
            for dir in create {
                do {
                    try dir.createDirectories()
                } catch {
                    console.error("cannot create \(error.path): \(error.reason)")
                    throw ExitFailure(code: .failure)
                }
            }
        }
        var seen = Set<FilePath>()
        for path in jobs.flatMap(\.paths) + extra {
            // A folder where a file should go would fail only at the rename, after the job's
            // other files were written (a sheet's NAME.json, say).
            if writing, path.isDirectory {
                console.error(WriteError(path: path, reason: "a folder of that name is in the way").message)
                throw ExitFailure(code: .failure)
            }
            let dir = path.directory
            guard seen.insert(dir).inserted else { continue }
            do {
                try AtomicFile.checkDirectory(of: path, writable: writing)
            } catch {
                console.error(writing ? error.message : "cannot check \(path): \(error.reason)")
                throw ExitFailure(code: .failure)
            }
            // Hidden files a killed run staged and never put in place.
            if writing { AtomicFile.removeStale(in: dir) }
        }
    }
}

extension ExitCode {
    /// The code for a run with two outcomes: a usage error wins, otherwise the first failure.
    func combined(with other: ExitCode) -> ExitCode {
        if self == .success || other == .usage { return other }
        return self
    }
}
