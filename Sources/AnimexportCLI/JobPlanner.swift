// SPDX-License-Identifier: GPL-3.0-or-later

import Export
import Foundation
import LottieImport
import OutputFiles
import Raster
import Render
import Spec
import Timeline
import ToolOptions

/// A run that stops with this exit code; its messages have been printed already.
struct ExitFailure: Error, Equatable {
    var code: ExitCode
}

/// Turns the command line into checked jobs before any rendering: reads every preset with every
/// `--set` combination, plans every loop, names every file and checks every output folder. When
/// anything is wrong it prints every problem it found and nothing is written.
enum JobPlanner {
    /// The presets named on the command line: files as given, folders as their `*.json` files
    /// in byte order (each name as `readdir` gives it, so a Latin-1 name is kept), less those whose
    /// name matches an `--exclude` pattern (`fnmatch`) and those that are not presets
    /// (`notPreset`), each of which gets a `note:` line through `note` (message, and the file it
    /// is about or nil).
    ///
    /// A name that does not exist, has no `/` and no extension is looked up as
    /// `presets/NAME.json` (the names `list` shows); found, it is used with a note. Otherwise,
    /// when it is the first argument of an export and close to a command word (`valdiate`) or is
    /// `help`, it is a usage error with the suggestion. A missing `NAME` or `NAME.json` close to
    /// a preset in `presets/` gets a note naming it and is kept (it fails to read, exit 1).
    /// - Throws: `UsageError` for a folder without presets, one that cannot be read, or a
    ///   misspelt command word.
    static func presetFiles(
        _ arguments: [FilePath], excludes: [String] = [], command: Subcommand = .export,
        note: (_ message: String, _ file: String?) -> Void = { _, _ in }
    ) throws(UsageError) -> [FilePath] {
        var files: [FilePath] = []
        var matched = Set<String>()
        var listedFolder = false
        for (position, argument) in arguments.enumerated() {
            if argument.isDirectory {
                listedFolder = true
                let names: [FilePath]
                do {
                    names = try argument.entries()
                } catch {
                    throw UsageError(message: "cannot list \(argument): \(error.reason)")
                }
                let dir = argument.removingTrailingSlashes
                for name in names { for pattern in excludes where matches(pattern, name) { matched.insert(pattern) } }
                let json = names.filter { name in
                    name.pathExtension.lowercased() == "json" && name.bytes.first != UInt8(ascii: ".")
                        && !excludes.contains { matches($0, name) }
                }
                var presets: [FilePath] = []
                for name in json {
                    let path = dir.appending(name)
                    if let reason = notPreset(path) {
                        note("\(reason); skipped", path.description)
                    } else {
                        presets.append(path)
                    }
                }
                guard !presets.isEmpty else {
                    let skipped = json.isEmpty ? "" : " (\(counted(json.count, ".json file")) skipped)"
                    throw UsageError(message: "\(argument) holds no .json presets\(skipped)")
                }
                files += presets
            } else if !argument.exists, let resolved = try bareName(argument, first: position == 0, command: command) {
                note("\(argument) is no file; using \(resolved)", nil)
                files.append(resolved)
            } else if !argument.exists, let near = nearPreset(argument) {
                // Still read (and refused) as named; the note says what was probably meant.
                note("\(argument) is no file; did you mean \(near)?", nil)
                files.append(argument)
            } else {
                files.append(argument)
            }
        }
        // Patterns are matched against file names inside the folders named, never paths.
        for pattern in excludes where !matched.contains(pattern) {
            if let slash = pattern.lastIndex(of: "/") {
                let name = pattern[pattern.index(after: slash)...]
                let hint = name.isEmpty ? "" : "; did you mean --exclude \(name)?"
                note(
                    "--exclude \(pattern) matches nothing: patterns match file names inside the folders named, not paths\(hint)",
                    nil)
            } else if listedFolder {
                note("--exclude \(pattern) matches no file in the folders named", nil)
            } else {
                note(
                    "--exclude \(pattern) matches nothing: it applies to folders named on the command line, not to files",
                    nil)
            }
        }
        return files
    }

    /// `presetFiles` for the command line: its `--exclude` patterns, notes on stderr unless `--quiet`.
    static func presetFiles(_ arguments: [FilePath], options: Options, console: Console) throws(UsageError)
        -> [FilePath]
    {
        try presetFiles(arguments, excludes: options.excludes, command: options.command) { line, file in
            if !options.quiet { console.note(line, file: file) }
        }
    }

    /// `presets/NAME.json` for a bare `NAME` when that file exists; a usage error for a first
    /// argument that reads as a misspelt command word.
    private static func bareName(_ argument: FilePath, first: Bool, command: Subcommand) throws(UsageError)
        -> FilePath?
    {
        guard !argument.bytes.contains(UInt8(ascii: "/")), argument.pathExtension.isEmpty, argument.isValidUTF8
        else { return nil }
        let candidate = ListCommand.defaultDirectory.appending(argument.description + ".json")
        if candidate.kind == .regular { return candidate }
        guard first, command == .export else { return nil }
        let word = argument.description
        if word == "help" {
            throw UsageError(message: "no preset or command called help; did you mean 'animexport --help'?")
        }
        // `assemble` runs in its own executable (the front execs it), so it is no Subcommand.
        let words = Subcommand.allCases.filter { $0 != .export }.map(\.rawValue) + ["assemble"]
        if let near = suggestion(for: word, among: words) {
            throw UsageError(
                message:
                    "no preset or command called \(word); did you mean 'animexport \(near)'? (a file called \(word) is given as ./\(word))"
            )
        }
        return nil
    }

    /// A preset whose name is close to a missing `NAME` or `NAME.json`: in `presets/` when the
    /// argument names no folder (`circluar` → `presets/circular.json`), else in the folder it
    /// names (`presets/circlar.json` → `presets/circular.json`); or nil.
    private static func nearPreset(_ argument: FilePath) -> FilePath? {
        guard argument.isValidUTF8, !argument.hasTrailingSlash else { return nil }
        let inFolder = argument.bytes.contains(UInt8(ascii: "/"))
        let name = argument.lastComponent
        let ext = name.pathExtension.lowercased()
        guard ext.isEmpty || ext == "json" else { return nil }
        let stem = (ext.isEmpty ? name : name.deletingPathExtension).description
        let folder = inFolder ? argument.directory : ListCommand.defaultDirectory
        guard folder.isDirectory, let names = try? folder.entries() else { return nil }
        let stems = names.filter { $0.pathExtension.lowercased() == "json" && $0.isValidUTF8 }
            .map { $0.deletingPathExtension.description }
        guard let near = suggestion(for: stem, among: stems) else { return nil }
        return folder.appending(near + ".json")
    }

    /// Whether `pattern` matches the file name, by `fnmatch` with no flags (`*` and `?` also
    /// match a leading dot; names are folder entries, so no `/` is in them).
    static func matches(_ pattern: String, _ name: FilePath) -> Bool {
        name.withCString { fnmatch(pattern, $0, 0) } == 0
    }

    /// Why a `*.json` file of a folder is not a preset, or nil when it may be one: a preset is
    /// a JSON object with `layers` or a numeric `version` (`docs/preset-format.md`) that is not
    /// one of this tool's outputs (a sheet data file's `meta.app`, a report's `tool`). A file
    /// that cannot be read or parsed is kept, so that its problem is reported as a preset's.
    static func notPreset(_ path: FilePath) -> String? {
        guard let bytes = try? path.read(limit: OwnFiles.jsonLimit), let value = try? JSONParser.parse(bytes: bytes)
        else { return nil }
        guard let object = value.objectValue else { return "not a preset (\(value.typeName), not an object)" }
        if OwnFiles.isOwnJSON(object) {
            return object["tool"] != nil
                ? "not a preset (a --report written by animexport)"
                : "not a preset (sprite-sheet data written by animexport)"
        }
        if object["layers"] != nil || object["version"]?.numberValue != nil { return nil }
        return "not a preset (no \"layers\" and no numeric \"version\")"
    }

    /// Reads one preset with `overrides`, printing what is wrong when it cannot be used.
    /// - Parameter printed: diagnostics already printed (so a fan-out does not repeat them).
    /// - Throws: `ExitFailure` with 1 (unreadable), 64 (bad `--set`) or 65 (invalid preset).
    static func load(
        _ path: FilePath, overrides: [String: String], console: Console, printed: inout Set<String>
    ) throws(ExitFailure) -> LoadedPreset {
        do {
            let loaded = try readPreset(path, overrides: overrides)
            // The GIF lints wait for the jobs: they are said only when a GIF is written.
            for w in loaded.warnings where !ValidateCommand.gifLints.contains(w.lint ?? "") {
                if printed.insert(w.description).inserted { console.diagnostic(w) }
            }
            return loaded
        } catch let error as PresetError {
            var fresh = 0
            for d in error.diagnostics where printed.insert(d.description).inserted {
                console.diagnostic(d)
                fresh += 1
            }
            if fresh > 0 {
                let count = error.diagnostics.filter { $0.severity == .error }.count
                console.note("\(counted(count, "error")); nothing written", file: path.description)
            }
            throw ExitFailure(code: .badPreset)
        } catch let error as ParameterOverrideError {
            if printed.insert(error.message).inserted { console.error(error.message, file: path.description) }
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
            if error.reason == FilePath.reason(errno: ENOENT) {
                failure.reason = "no such file"
                // A bare NAME is presets/NAME.json of the working folder (bareName), and there is none.
                if !path.bytes.contains(UInt8(ascii: "/")), path.pathExtension.isEmpty, path.isValidUTF8 {
                    failure.reason +=
                        ", nor \(ListCommand.defaultDirectory.appending(path.description + ".json")) in this folder (a bare name is looked up in ./presets/)"
                }
            }
            if error.reason == FilePath.reason(errno: EACCES) { failure.reason = "permission denied" }
            throw failure
        }
        // A Lottie file (top-level v, fr, ip, op, w, h, layers) goes to its own loader; a file
        // that is not JSON at all is reported by the preset loader as before. Only a file that
        // has the text "fr" is parsed for the check, so a preset is parsed once.
        if Data(bytes).range(of: Data(#""fr""#.utf8)) != nil, let root = try? JSONParser.parse(bytes: bytes),
            LottieLoader.isLottie(root)
        {
            var loaded = try LottieLoader.decode(
                bytes: bytes, file: path.description, root: root, overrides: overrides)
            loaded.directory = (path.description as NSString).deletingLastPathComponent
            return loaded
        }
        var loaded = try PresetLoader.decode(
            bytes: bytes, file: path.description, overrides: overrides,
            fontAvailable: checkFonts ? Exporter.fontAvailable : nil, measureText: Exporter.measureText,
            directory: path.directory.bytes)
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
        let variants = Variant.all(options)
        for path in presets {
            var printed = Set<String>()
            var gifWarned = false
            for (row, variant) in variants.enumerated() {
                let loaded: LoadedPreset
                do {
                    loaded = try load(path, overrides: variant.overrides, console: console, printed: &printed)
                } catch {
                    worst = worst.combined(with: error.code)
                    continue
                }
                var renditions = Rendition.all(options, canvas: loaded.composition.canvas)
                // Under --zip, --size/--scale is one more column: row i of the --set lists
                // gets size i (checkVariantCombinations made the lengths equal).
                if options.variantOptions.zip, variants.count > 1, renditions.count == variants.count {
                    renditions = [renditions[row]]
                }
                for rendition in renditions {
                    do {
                        let job = try makeJob(path, loaded, variant, rendition, options)
                        let writesGIF = job.targets.contains { $0.kind == .gif && $0.written }
                        // The preset's `fps-above-50` lint (at $.fps, unless allowed) says what
                        // the resampling warning would, with the place to change it; `--fps`
                        // replaces the preset's rate, and the warning below speaks for it.
                        if writesGIF, options.fps == nil {
                            for w in loaded.warnings where w.lint == "fps-above-50" {
                                gifWarned = true
                                if printed.insert(w.description).inserted { console.diagnostic(w) }
                            }
                        }
                        // A still (one frame, or nothing that moves) has no timing to resample.
                        if let gifPlan = job.framePlan(of: .gif), gifPlan.fps < job.plan.fps, !gifWarned,
                            job.plan.frameCount > 1, job.plan.source != .still,
                            job.targets.contains(where: { $0.kind == .gif && $0.written })
                        {
                            gifWarned = true
                            console.warning(
                                "\(formatNumber(job.plan.fps)) fps is above what GIF can play (delays under 2 cs play as 10 cs in browsers); the GIF is resampled to \(formatNumber(gifPlan.fps)) fps",
                                file: path.description)
                        }
                        // The loop's own traps (off the 1/100 s grid, a cycle cut mid-way) are
                        // worth saying on export too, not only under validate.
                        // `period-off-grid` is about GIF delays: only worth saying when a GIF is
                        // written (APNG and WebP delays express the period; validate, which writes
                        // nothing, still says it).
                        let lints = LoopLints.lints(
                            job.plan, file: path.description, composition: job.composition,
                            formats: job.targets.filter(\.written).map(\.kind)
                        )
                        .filter { writesGIF || $0.lint != "period-off-grid" }
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
                            console.error(line, file: error.file)
                        }
                        if let note = error.note, printed.insert(note).inserted { console.note(note, file: error.file) }
                        worst = worst.combined(with: error.code)
                    }
                }
            }
        }
        if worst != .success { throw ExitFailure(code: worst) }
        // The matte and --lossy are GIF settings, --quality a WebP one; given for a run that
        // writes no such file they would do nothing.
        func writes(_ kind: OutputFormatKind) -> Bool {
            jobs.contains { $0.targets.contains { $0.kind == kind && $0.written } }
        }
        if options.previewPath == nil, !jobs.isEmpty {
            if options.matte != nil, !writes(.gif) {
                console.warning(
                    "--matte applies to GIF only (1-bit alpha); APNG, WebP, sprite sheets and PNG frames keep real alpha, so it changes nothing here"
                )
            }
            if options.lossy > 0, !writes(.gif) {
                console.warning("--lossy applies to GIF only and no GIF is written, so it changes nothing here")
            }
            if options.quality != nil, !writes(.webp) {
                console.warning("--quality applies to WebP only and no WebP is written, so it changes nothing here")
            }
        }
        try JobNaming.checkDistinct(jobs, options: options, console: console)
        try checkUniquePaths(
            jobs, extra: [options.reportPath, options.previewPath].compactMap { $0 }, console: console)
        return jobs
    }

    /// A job failure with its exit code and message.
    struct JobError: Error {
        var code: ExitCode
        /// Lines for `error:` (may be empty when `diagnostics` say it all), without the file.
        var message: String
        /// The preset the lines are about (`FILE: error: …`), or nil for lines that name their
        /// file in the sentence (a `WriteError`).
        var file: String? = nil
        /// Problems at a preset's JSON paths, printed as `file:line:col: error: $.path: …`.
        var diagnostics: [Diagnostic] = []
        /// A `note:` line said after them (once per preset), such as a refusal's "nothing written";
        /// printed with `file` like the lines.
        var note: String?
    }

    private static func makeJob(
        _ path: FilePath, _ loaded: LoadedPreset, _ variant: Variant, _ rendition: Rendition, _ options: Options
    ) throws(JobError) -> ExportJob {
        let scale = rendition.scale
        let speed = options.variantOptions.speed
        var composition = loaded.composition
        if let background = options.background { composition.canvas.background = background }
        let fps = options.fps ?? composition.fps
        // One budget before any rendering: loop, frames, pixels, geometry, images
        // (docs/preset-format.md, Limits); preset values exit 65 at their JSON path, options 64.
        let violations = ExportBudget.check(
            composition, fps: options.fps, duration: options.duration, scale: scale, speed: speed)
        if !violations.isEmpty {
            let usage = violations.contains(where: \.isUsageError)
            throw JobError(
                code: usage ? .usage : .badPreset,
                message: violations.filter(\.isUsageError).map {
                    $0.description + Rendition.note(rendition, composition.canvas)
                }.joined(separator: "\n"),
                file: path.description,
                diagnostics: violations.compactMap { $0.diagnostic(file: path.description, composition: composition) },
                // Refused before rendering, like a preset with errors: the run writes nothing.
                note: "\(counted(violations.count, "error")); nothing written")
        }
        var plan: LoopPlan
        do {
            plan = try LoopPlan.make(
                for: composition, fps: fps, duration: options.duration, fpsIsOption: options.fps != nil, speed: speed)
        } catch {
            if let violation = error.violation, violation.isUsageError {
                throw JobError(code: .usage, message: violation.description, file: path.description)
            }
            throw JobError(
                code: .badPreset, message: "",
                diagnostics: [error.diagnostic(file: path.description, composition: composition)])
        }
        if let poster = options.variantOptions.poster { plan.posterPhase = poster.phase(period: plan.period) }
        let pixels = SceneRenderer.pixelSize(
            width: composition.canvas.width, height: composition.canvas.height, scale: scale)
        guard pixels.width <= 16384, pixels.height <= 16384 else {
            throw JobError(
                code: .usage,
                message:
                    "\(pixels.width)×\(pixels.height) pixels at --scale \(formatNumber(scale)) is too large (limit 16384 per side)",
                file: path.description)
        }
        var stillTime: Double?
        var stillFrame: Int?
        switch options.still {
        case .index(let i)?:
            guard i < plan.frameCount else {
                throw JobError(
                    code: .usage,
                    message:
                        "--frame \(i): the loop has \(counted(plan.frameCount, "frame")) (0…\(plan.frameCount - 1))",
                    file: path.description)
            }
            stillTime = plan.time(ofFrame: i)
            stillFrame = i
        case .time(let t)?: stillTime = t
        case nil: stillTime = nil
        }
        let naming: JobNaming
        do {
            naming = try JobNaming.make(
                composition: composition, variant: variant, rendition: rendition, fps: fps, options: options)
        } catch {
            throw JobError(code: .usage, message: error.message, file: path.description)
        }
        let targets = OutputPlan.targets(naming: naming, frameCount: plan.frameCount, options: options)
        let request = ExportRequest(
            composition: composition, plan: plan, duration: options.duration, scale: scale, targets: targets,
            settings: options.exportSettings(matte: options.matte ?? composition.canvas.matte), stillTime: stillTime,
            stillFrame: stillFrame)
        let framePlans: [LoopPlan]
        let problems: [String]
        do {
            framePlans = try request.framePlans()
            problems = try request.preflight()
        } catch {
            // What a format cannot express (a rotation3D layer as Lottie): said at its JSON path
            // with line:column, as `validate --format` says it, and refused before anything is written.
            var d = error.diagnostic(file: path.description, composition: composition)
            if d.message.hasPrefix(d.path + ": ") { d.message.removeFirst(d.path.count + 2) }
            throw JobError(
                code: .badPreset, message: "", file: path.description, diagnostics: [d],
                note: "1 error; nothing written")
        }
        if let problem = problems.first {
            throw JobError(code: .usage, message: problem, file: path.description)
        }
        return ExportJob(
            presetPath: path, variant: variant, stem: naming.stem, request: request, framePlans: framePlans)
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
    /// writing, accepts a new file. The default `output/`, every `-o DIR/` and a `--frames` folder
    /// are created (with their parents), each with a `note:`. Before that, when writing without
    /// `--force`, every existing file the run would replace that this tool did not write
    /// (`OwnFiles`) is named and the run stops with 64.
    /// - Throws: `ExitFailure(.usage)` for files it may not replace, `ExitFailure(.failure)` after
    ///   printing the first folder that fails.
    /// - Returns: the folders it created, parents first (`removeEmpty` takes them back when the
    ///   run fails).
    @discardableResult
    static func prepareFolders(
        _ jobs: [ExportJob], extra: [FilePath], options: Options, writing: Bool, console: Console
    ) throws(ExitFailure) -> [FilePath] {
        var made: [FilePath] = []
        // Said once every folder is checked, so a run refused here says nothing about folders.
        var announced: [FilePath] = []
        if writing {
            // Files the run would replace that it did not write: every one is named, and nothing
            // is written (not even a folder) unless --force.
            var byManifest = true
            if case .unusable = ManifestKey.current { byManifest = false }
            let foreign = options.force ? [] : OwnFiles.foreign(jobs.flatMap(\.paths) + extra, byManifest: byManifest)
            for path in foreign { console.error(OwnFiles.refusal(path)) }
            if !foreign.isEmpty { throw ExitFailure(code: .usage) }
            var create: [FilePath] = []
            if options.outputs.isEmpty { create.append(OutputPlan.defaultDirectory) }
            create += options.outputs.filter(\.hasTrailingSlash).map(\.removingTrailingSlashes)
            if let frames = options.framesDirectory { create.append(frames.removingTrailingSlashes) }
            // The folder of a file output (`-o new/x.gif`, `--report new/r.json`), as for `-o DIR/`.
            let files =
                options.outputs.filter { !OutputPlan.isDirectory($0) }
                + [options.reportPath, options.previewPath].compactMap { $0 }
            for file in files {
                let dir = file.directory
                if !create.contains(dir) { create.append(dir) }
            }
            for dir in create where !dir.isEmpty && !dir.exists {
                // The levels that are missing, outermost first, for removeEmpty.
                var missing: [FilePath] = []
                var level = dir
                while !level.isEmpty, !level.exists, level.bytes != [UInt8(ascii: ".")] {
                    missing.insert(level, at: 0)
                    let parent = level.directory
                    if parent == level { break }
                    level = parent
                }
                do {
                    try dir.createDirectories()
                } catch {
                    console.error("cannot create the folder \(error.path): \(error.reason)")
                    removeEmpty(made + missing)
                    throw ExitFailure(code: .failure)
                }
                made += missing
                announced.append(dir)
            }
        }
        var seen = Set<FilePath>()
        for path in jobs.flatMap(\.paths) + extra {
            // A folder where a file should go would fail only at the rename, after the job's
            // other files were written (a sheet's NAME.json, say).
            if writing, path.isDirectory {
                console.error(WriteError(path: path, reason: "a folder of that name is in the way").message)
                removeEmpty(made)
                throw ExitFailure(code: .failure)
            }
            let dir = path.directory
            guard seen.insert(dir).inserted else { continue }
            do {
                try AtomicFile.checkDirectory(of: path, writable: writing)
            } catch {
                console.error(writing ? error.message : "cannot check \(path): \(error.reason)")
                removeEmpty(made)
                throw ExitFailure(code: .failure)
            }
            // Hidden files a killed run staged and never put in place.
            if writing { AtomicFile.removeStale(in: dir) }
        }
        if !options.quiet { for dir in announced { console.note("created folder \(dir)/") } }
        return made
    }

    /// Removes the folders that are still empty, innermost first (`rmdir`, which leaves a folder
    /// with anything in it alone): what a failed run created and wrote nothing into.
    /// - Returns: the folders removed.
    @discardableResult
    static func removeEmpty(_ folders: [FilePath]) -> [FilePath] {
        folders.reversed().filter { folder in folder.withCString { rmdir($0) } == 0 }
    }
}

extension ExitCode {
    /// The code for a run with two outcomes: a usage error wins, otherwise the first failure.
    func combined(with other: ExitCode) -> ExitCode {
        if self == .success || other == .usage { return other }
        return self
    }
}
