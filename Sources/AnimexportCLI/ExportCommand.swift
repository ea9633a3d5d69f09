// SPDX-License-Identifier: GPL-3.0-or-later

import Export
import Foundation
import OutputFiles
import Spec
import ToolOptions

/// The default command (export) and `check`: plan every job, then render, encode and write
/// (or compare) them on `--jobs` threads, then write `--report` and `--preview`.
enum ExportCommand {
    /// How a run treats the files it makes.
    enum Mode: Equatable, Sendable {
        /// Write them (atomically).
        case write
        /// Compare them with the files on disk; touch nothing.
        case check
    }

    /// What happened to one job.
    struct Outcome: Sendable {
        var product: JobProduct?
        var error: JobPlanner.JobError?
        /// `check`: files that do not exist.
        var missing: [FilePath] = []
        /// `check`: files whose bytes differ.
        var different: [FilePath] = []
        /// Files compared or written.
        var fileCount = 0
        /// Answered from the manifest: nothing rendered (`Manifest`).
        var upToDate = false
        /// `check`: why the job was rendered although a manifest was looked for.
        var renderedBecause: String?
        /// Write: the stale `--frames` PNGs of an earlier run removed after the commit
        /// (`StaleFrames`).
        var removedFrames: [FilePath] = []
    }

    /// Runs export or check for the presets on the command line.
    static func run(_ options: Options, console: Console) -> ExitCode {
        let presets: [FilePath]
        do {
            presets = try JobPlanner.presetFiles(options.presets, options: options, console: console)
            try OutputPlan.validate(options.outputs, presetCount: presets.count, still: options.still)
        } catch {
            console.error(error.message)
            return .usage
        }
        if options.watch { return WatchCommand.run(presets, options: options, console: console) }
        let mode: Mode = options.command == .check ? .check : .write
        do {
            var jobs = try JobPlanner.jobs(for: presets, options: options, console: console)
            if let shard = options.shard {
                let all = jobs.count
                jobs = shard.select(jobs)
                // Nothing to do is not a failure in a CI matrix, but no folder is made for it.
                if jobs.isEmpty {
                    let noun = all == 1 ? "job" : "jobs"
                    console.note("shard \(shard.index)/\(shard.count) has no jobs (the batch has \(all) \(noun))")
                    return .success
                }
            }
            let extra = [options.reportPath, options.previewPath].compactMap { $0 }
            let created = try JobPlanner.prepareFolders(
                jobs, extra: extra, options: options, writing: mode == .write, console: console)
            let code = execute(jobs, options: options, mode: mode, console: console).code
            // A run that failed takes back the folders it made and left empty.
            if code != .success {
                for dir in JobPlanner.removeEmpty(created) where !options.quiet {
                    console.note("removed the empty folder \(dir)/ again")
                }
            }
            return code
        } catch {
            return error.code
        }
    }

    /// Renders and writes (or checks) `jobs`, printing one summary per file in job order.
    /// - Returns: the exit code and the number of files written or compared.
    static func execute(
        _ jobs: [ExportJob], options: Options, mode: Mode, console: Console
    ) -> (code: ExitCode, files: Int) {
        let keepBytes = options.previewPath != nil
        let threads = options.threadCount
        let workers = JobRunner.frameWorkers(threads: threads, jobs: jobs.count)
        let progress = console.progress
        for job in jobs { progress?.expect(frames: (try? job.request.framesToRender()) ?? 0) }
        let manifests = ManifestRun(options: options)
        let outcomes = JobRunner.run(count: jobs.count, threads: threads) { i in
            perform(
                jobs[i], keepBytes: keepBytes, mode: mode, workers: workers, progress: progress, manifests: manifests)
        } deliver: { outcome in
            report(outcome, options: options, mode: mode, console: console)
        }
        progress?.finish()

        var code = ExitCode.success
        for outcome in outcomes { if let error = outcome.error { code = code.combined(with: error.code) } }
        let fileCount = outcomes.map(\.fileCount).reduce(0, +)
        if code != .success { return (code, fileCount) }
        if mode == .check {
            let stale = outcomes.map { $0.missing.count + $0.different.count }.reduce(0, +)
            if stale > 0 {
                console.error(
                    "\(stale) of \(counted(fileCount, "file")) \(stale == 1 ? "is missing or differs" : "are missing or differ") from what the presets give now; run the same command without 'check' to regenerate them"
                )
                return (.stale, fileCount)
            }
            let fromManifests = outcomes.filter(\.upToDate).map(\.fileCount).reduce(0, +)
            let answered = fromManifests > 0 ? " (\(fromManifests) answered from manifests)" : ""
            if !options.quiet {
                console.out(
                    fileCount == 1
                        ? "check: the 1 file is up to date\(answered)"
                        : "check: all \(fileCount) files are up to date\(answered)")
            }
            return (.success, fileCount)
        }
        let products = outcomes.compactMap(\.product)
        var extraFiles: [OutputFile] = []
        if let path = options.reportPath {
            extraFiles.append(OutputFile(path: path, bytes: Array(ReportWriter.json(products).utf8)))
        }
        if let path = options.previewPath {
            extraFiles.append(OutputFile(path: path, bytes: Array(PreviewPage.html(products).utf8)))
        }
        for file in extraFiles {
            do {
                try AtomicFile.write(file.bytes, to: file.path)
                // Under --watch the render's one line counts these files.
                if !options.quiet && !options.watch {
                    console.out("\(file.path): \(Command.formatBytes(file.bytes.count))")
                }
            } catch {
                console.error(error.message)
                return (.failure, fileCount)
            }
        }
        return (.success, fileCount + extraFiles.count)
    }

    /// Makes one job's files into a staging area and commits them together (write), or compares
    /// them as they come (check).
    private static func perform(
        _ job: ExportJob, keepBytes: Bool, mode: Mode, workers: Int, progress: ProgressMeter?,
        manifests: ManifestRun
    ) -> Outcome {
        var renderedBecause: String?
        if manifests.skipping {
            let verdict = manifests.verdict(for: job)
            if verdict == .upToDate {
                progress?.skip(frames: (try? job.request.framesToRender()) ?? 0)
                return Outcome(product: JobProduct(job: job), fileCount: job.paths.count, upToDate: true)
            }
            renderedBecause = verdict.reason
        }
        var tick: (@Sendable () -> Void)?
        if let progress { tick = { progress.advance() } }
        let staging = StagingSink()
        let comparing = ComparingSink()
        let recording = RecordingSink(staging)
        let sink: any OutputSink = mode == .write ? recording : comparing
        let product: JobProduct
        do throws(JobPlanner.JobError) {
            product = try JobExecutor.run(job, sink: sink, keepBytes: keepBytes, workers: workers, progress: tick)
        } catch {
            staging.discard()
            return Outcome(error: error)
        }
        var outcome = Outcome()
        switch mode {
        case .write:
            do {
                // The manifest goes last, so it is renamed after every file it vouches for.
                var manifestCount = 0
                // Found before the old manifest is replaced; removed once the new files are in.
                let stale = StaleFrames.find(for: job)
                // A manifest that cannot be staged is left out: the files are still right, and an
                // older manifest cannot vouch for them (its hashes are of other bytes).
                if let outputs = recording.entries,
                    let manifest = manifests.manifest(for: job, outputs: outputs, removing: Set(stale)),
                    (try? staging.put(manifest)) != nil
                {
                    manifestCount = 1
                }
                outcome.fileCount = try staging.commit().count - manifestCount
                for path in stale { AtomicFile.remove(path) }
                outcome.removedFrames = stale.filter { $0.kind == .none }
            } catch {
                return Outcome(error: JobPlanner.JobError(code: .failure, message: error.message))
            }
        case .check:
            outcome.fileCount = comparing.count
            outcome.missing = comparing.missing
            outcome.different = comparing.different
            outcome.renderedBecause = renderedBecause
        }
        outcome.product = product
        return outcome
    }

    private static func report(_ outcome: Outcome, options: Options, mode: Mode, console: Console) {
        if let error = outcome.error {
            for line in error.message.split(separator: "\n") { console.error(String(line), file: error.file) }
            return
        }
        guard let product = outcome.product else { return }
        if outcome.upToDate {
            if mode == .write && !options.quiet && !options.watch {
                let n = outcome.fileCount
                let files = counted(n, "file")
                console.out("\(product.job.presetPath): \(product.job.stem): up to date (\(files))")
            }
            return
        }
        for warning in product.warnings { console.warning(warning.message, file: warning.file) }
        switch mode {
        case .write:
            if !options.quiet && !options.watch { for s in product.summaries { console.out(s) } }
            if !outcome.removedFrames.isEmpty, !options.quiet {
                let folders = Set(outcome.removedFrames.map(\.directory)).sorted().map(\.description)
                console.note(
                    "\(product.job.stem): removed \(counted(outcome.removedFrames.count, "stale frame")) of an earlier run from \(folders.joined(separator: ", "))",
                    file: product.job.presetPath.description)
            }
        case .check:
            // Why the job was rendered comes first, then what the render found.
            if let why = outcome.renderedBecause, !options.quiet {
                console.out("\(product.job.presetPath): \(product.job.stem): rendered to compare (\(why))")
            }
            for path in outcome.missing { console.out("missing: \(path)") }
            for path in outcome.different { console.out("differs: \(path)") }
        }
    }
}
