// SPDX-License-Identifier: GPL-3.0-or-later

import Encode
import Export
import Foundation
import OutputFiles
import Raster
import Render
import Spec
import Timeline

/// What one job produced: one product per target, its messages, and what `--report`/`--preview`
/// show.
struct JobProduct: Sendable {
    var job: ExportJob
    /// One per target, in target order (preview-only targets included).
    var products: [FormatProduct] = []
    /// One line per written output for stdout (`loader.gif: 120 frames, …`).
    var summaries: [String] = []
    /// Warnings for stderr, each with its file (`FILE: warning: MESSAGE`).
    var warnings: [FileWarning] = []

    /// The first product of `kind`, if any.
    func product(_ kind: OutputFormatKind) -> FormatProduct? { products.first { $0.target.kind == kind } }
}

/// Renders and encodes one job through `Exporter.export`, handing its files to a sink (staged
/// for commit, or compared). Committing is the caller's business, so an encoder failure never
/// replaces a file.
enum JobExecutor {
    /// Produces `job`'s files into `sink`.
    /// - Parameters:
    ///   - keepBytes: keep each product's bytes (for `--preview`).
    ///   - workers: frames rendered (and GIF frames compressed) at once.
    ///   - progress: called per rendered frame.
    /// - Throws: `JobPlanner.JobError` (exit 1) naming the preset and the failing step.
    static func run(
        _ job: ExportJob, sink: any OutputSink, keepBytes: Bool, workers: Int, progress: (@Sendable () -> Void)?
    ) throws(JobPlanner.JobError) -> JobProduct {
        var product = JobProduct(job: job)
        do {
            let result = try Exporter.export(
                job.request, to: sink, workers: workers, keepBytes: keepBytes, progress: progress)
            // The job's frames and encoder buffers are free now; give the heaps back so the
            // job beside it and the next one start from what is really in use.
            MemoryTuning.returnFreedMemory()
            product.products = result.products
            product.warnings = result.warnings.map {
                FileWarning(file: job.presetPath.description, message: "\(job.stem): \($0)")
            }
            for (p, plan) in zip(result.products, job.framePlans) where p.target.written {
                product.warnings += p.warnings
                product.summaries.append(summary(p, plan: plan, job: job))
            }
        } catch let error as RenderError where error.isPresetLimit {
            // The preset is to blame (docs/preset-format.md, Limits): exit 65, like the budget.
            throw JobPlanner.JobError(
                code: .badPreset, message: "\(job.stem): \(error)", file: job.presetPath.description)
        } catch let error as WriteError {
            // Names the file already.
            throw JobPlanner.JobError(code: .failure, message: error.message)
        } catch {
            throw JobPlanner.JobError(
                code: .failure, message: "\(job.stem): \(error)", file: job.presetPath.description)
        }
        return product
    }

    /// The stdout line for one written target.
    static func summary(_ p: FormatProduct, plan: LoopPlan, job: ExportJob) -> String {
        let size = job.request.pixelSize
        let pixels = "\(size.width)×\(size.height) px"
        switch p.target.kind {
        case .still:
            return
                "\(p.target.path): frame at \(formatNumber(job.request.stillTime ?? 0)) s, \(pixels), \(Command.formatBytes(p.byteCount))"
        case .frames:
            // The files' own pattern, scale suffix last (`NAME-*@2x.png`), as `FramesFormat` names them.
            return "\(FramesFormat.suffixed(p.target.path, "-*")): \(p.facts)"
        default:
            return
                "\(p.target.path): \(counted(plan.frameCount, "frame")), \(formatNumber(plan.period)) s loop, \(pixels), \(Command.formatBytes(p.byteCount)), \(p.facts)"
        }
    }
}
