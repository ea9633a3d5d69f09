// SPDX-License-Identifier: GPL-3.0-or-later

public import Spec

/// A model from another format that draws its own frames (`Composition.foreign`): Lottie files
/// through `LottieImport`. `SceneEvaluator.scene(of:at:)` asks it for every instant and puts
/// the composition's background (`--background`) under what it returns.
public protocol SceneSource: ForeignScenes {
    /// The scene at `t` (seconds on the composition's clock, from its loop start); a pure
    /// function of `t`, called from several threads at once.
    func scene(at t: SampleTime) -> FrameScene
}
