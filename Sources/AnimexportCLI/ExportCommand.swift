// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Spec

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
        var missing: [String] = []
        /// `check`: files whose bytes differ.
        var different: [String] = []
        /// Files compared or written.
        var fileCount = 0
    }

    /// Runs export or check for the presets on the command line.
    static func run(_ options: Options, console: Console) -> ExitCode {
        let presets: [String]
        do {
            presets = try JobPlanner.presetFiles(options.presets)
            try OutputPlan.validate(options.outputs, presetCount: presets.count, still: options.still)
        } catch {
            console.error(error.message)
            return .usage
        }
        if options.watch { return WatchCommand.run(presets, options: options, console: console) }
        let mode: Mode = options.command == .check ? .check : .write
        do {
            let jobs = try JobPlanner.jobs(for: presets, options: options, console: console)
            let extra = [options.reportPath, options.previewPath].compactMap { $0 }
            try JobPlanner.prepareFolders(
                jobs, extra: extra, options: options, writing: mode == .write, console: console)
            return execute(jobs, options: options, mode: mode, console: console).code
        } catch {
            return error.code
        }
    }

    /// Renders and writes (or checks) `jobs`, printing one summary per file in job order.
    /// - Returns: the exit code and the number of files written or compared.
    static func execute(
        _ jobs: [ExportJob], options: Options, mode: Mode, console: Console
    ) -> (code: ExitCode, files: Int) {
        let extras = JobExecutor.Extras(
            timing: options.reportPath != nil || options.previewPath != nil, preview: options.previewPath != nil)
        let threads = options.threadCount
        let workers = JobRunner.frameWorkers(threads: threads, jobs: jobs.count)
        let progress = console.progress
        for job in jobs { progress?.expect(frames: framesToRender(job, extras: extras)) }
        let outcomes = JobRunner.run(count: jobs.count, threads: threads) { i in
            perform(jobs[i], options: options, extras: extras, mode: mode, workers: workers, progress: progress)
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
                    "\(stale) of \(fileCount) files are missing or differ from what the presets give now; run the same command without 'check' to regenerate them"
                )
                return (.stale, fileCount)
            }
            if !options.quiet { console.out("check: all \(fileCount) files are up to date") }
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
                if !options.quiet { console.out("\(file.path): \(Command.formatBytes(file.bytes.count))") }
            } catch {
                console.error(error.message)
                return (.failure, fileCount)
            }
        }
        return (.success, fileCount + extraFiles.count)
    }

    /// Frames the job will render (for the progress line).
    static func framesToRender(_ job: ExportJob, extras: JobExecutor.Extras) -> Int {
        if job.stillTime != nil { return 0 }
        let needGIF = job.wantsGIF || extras.preview
        let needFull = job.wantsSheet || extras.preview || job.wantsFrames || (needGIF && job.gifPlan == job.plan)
        return (needFull ? job.plan.frameCount : 0) + (needGIF && job.gifPlan != job.plan ? job.gifPlan.frameCount : 0)
    }

    private static func perform(
        _ job: ExportJob, options: Options, extras: JobExecutor.Extras, mode: Mode, workers: Int,
        progress: ProgressMeter?
    ) -> Outcome {
        var product: JobProduct
        var tick: (@Sendable () -> Void)?
        if let progress { tick = { progress.advance() } }
        do throws(JobPlanner.JobError) {
            product = try JobExecutor.run(job, options: options, extras: extras, workers: workers, progress: tick)
        } catch {
            return Outcome(error: error)
        }
        var outcome = Outcome()
        outcome.fileCount = product.files.count
        var written: [String] = []
        for file in product.files {
            switch mode {
            case .write:
                do {
                    try AtomicFile.write(file.bytes, to: file.path)
                    written.append(file.path)
                } catch {
                    // Say which of this job's files are complete (a full disk can stop it halfway).
                    let done =
                        written.isEmpty
                        ? ""
                        : " (written before it: \(written.prefix(3).joined(separator: ", "))"
                            + (written.count > 3 ? " and \(written.count - 3) more" : "") + ")"
                    return Outcome(error: JobPlanner.JobError(code: .failure, message: error.message + done))
                }
            case .check:
                if let existing = FileManager.default.contents(atPath: file.path) {
                    if !existing.elementsEqual(file.bytes) { outcome.different.append(file.path) }
                } else {
                    outcome.missing.append(file.path)
                }
            }
        }
        // Written or compared: keep only what the report and the preview need, so a large batch
        // does not hold every image until the end.
        product.files = []
        if !extras.preview {
            product.gif = nil
            product.sheet = nil
            product.sheetPNG = nil
        }
        outcome.product = product
        return outcome
    }

    private static func report(_ outcome: Outcome, options: Options, mode: Mode, console: Console) {
        if let error = outcome.error {
            console.error(error.message)
            return
        }
        guard let product = outcome.product else { return }
        for warning in product.warnings { console.warning(warning) }
        switch mode {
        case .write:
            if !options.quiet && !options.watch { for s in product.summaries { console.out(s) } }
        case .check:
            for path in outcome.missing { console.out("missing: \(path)") }
            for path in outcome.different { console.out("differs: \(path)") }
        }
    }
}
