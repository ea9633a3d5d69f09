// SPDX-License-Identifier: GPL-3.0-or-later

import Spec
import Timeline

/// One unit of work: a preset with one `--set` combination at one scale, its loop plans and the
/// files it writes. Planned (and checked) before anything is rendered.
struct ExportJob: Equatable, Sendable {
    /// The preset file as the user named it.
    var presetPath: String
    /// The composition with this variant's params and `--background` applied.
    var composition: Composition
    /// The `--set` combination.
    var variant: Variant
    /// Pixels per point.
    var scale: Double
    /// `NAME` + variant suffix + `@Sx`: names the job in messages.
    var stem: String
    /// Frames at the requested rate (sheets, frame PNGs).
    var plan: LoopPlan
    /// Frames for the GIF: the same plan, or one at 50 fps when the rate is higher.
    var gifPlan: LoopPlan
    /// What to write.
    var targets: [OutputTarget]
    /// Page colour for GIF edges, or nil to threshold them.
    var matte: RGBAColor?
    /// Preset-clock time of the `--frame`/`--time` PNG, when one is asked for.
    var stillTime: Double?

    /// Every file the job writes, in order.
    var paths: [String] { targets.flatMap { $0.paths(frameCount: plan.frameCount) } }

    /// Whether a target of this kind is wanted.
    var wantsGIF: Bool { targets.contains { if case .gif = $0 { true } else { false } } }
    var wantsSheet: Bool { targets.contains { if case .sheet = $0 { true } else { false } } }
    var wantsFrames: Bool { targets.contains { if case .frames = $0 { true } else { false } } }
}
