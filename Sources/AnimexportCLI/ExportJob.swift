// SPDX-License-Identifier: GPL-3.0-or-later

import Export
import OutputFiles
import Spec
import Timeline

/// One unit of work: a preset with one `--set` combination at one scale, its loop plans and the
/// files it writes. Planned (and checked) before anything is rendered.
struct ExportJob: Sendable {
    /// The preset file as the user named it.
    var presetPath: FilePath
    /// The `--set` combination.
    var variant: Variant
    /// `NAME` + variant suffix + `@Sx`: names the job in messages.
    var stem: String
    /// What the library makes: composition (params and `--background` applied), the requested
    /// plan, scale, targets (with the preview-only ones) and every format option.
    var request: ExportRequest
    /// Each target's own frame plan, in target order (`ExportRequest.framePlans`).
    var framePlans: [LoopPlan]

    /// The composition with this variant's params and `--background` applied.
    var composition: Composition { request.composition }
    /// Pixels per point.
    var scale: Double { request.scale }
    /// Frames at the requested rate.
    var plan: LoopPlan { request.plan }
    /// What to write.
    var targets: [OutputTarget] { request.targets }

    /// Every file the job writes, in order.
    var paths: [FilePath] {
        let size = request.pixelSize
        return zip(request.targets, framePlans).filter { $0.0.written }.flatMap {
            $0.0.paths(plan: $0.1, width: size.width, height: size.height, settings: request.settings)
        }
    }

    /// The frame plan of the first target of `kind`, if any.
    func framePlan(of kind: OutputFormatKind) -> LoopPlan? {
        zip(request.targets, framePlans).first { $0.0.kind == kind }?.1
    }
}
