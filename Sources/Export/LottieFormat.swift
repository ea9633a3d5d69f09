// SPDX-License-Identifier: GPL-3.0-or-later

import Encode
import Foundation
import OutputFiles
import Raster
import Render
import Spec
import Timeline

/// A Lottie 1.0 animation (`NAME.lottie.json`) for lottie-ios, lottie-android and lottie-web,
/// written by `LottieWriter` from the composition's own frames (baked at the loop's frame rate;
/// no pixels are rendered). What Lottie cannot express is refused while planning, with the
/// preset's JSON path (exit 65); the Core Animation lint (`LottieLint`) adds warnings.
public struct LottieFormat: OutputFormat {
    /// A Lottie format value.
    public init() {}
    /// `.lottie`.
    public var kind: OutputFormatKind { .lottie }
    /// `lottie.json`: `-o NAME.lottie.json` (a plain `.json` stays free for sheet data).
    public var fileExtensions: [String] { ["lottie.json"] }
    /// `application/json`.
    public var mediaType: String { "application/json" }
    /// False: the document is written from the composition, not from pixels.
    public var readsFrames: Bool { false }
    /// `Lottie animation`.
    public var title: String { "Lottie animation" }

    /// The requested plan, after checking that `LottieWriter` can express the composition.
    /// - Throws: `LoopPlanError` naming the preset value Lottie cannot express.
    public func framePlan(for plan: LoopPlan, of composition: Composition, duration: Double?) throws(LoopPlanError)
        -> LoopPlan
    {
        _ = try LottieWriter.document(of: composition, plan: plan)
        return plan
    }

    /// Writes the document; never reads `frames` (so none are rendered for it).
    /// - Throws: `EncodeError` for what Lottie cannot express (planning refuses it first), or
    ///   the sink's `WriteError`.
    public func encode(
        _ frames: any FrameSource, target: OutputTarget, context: EncodeContext, sink: any OutputSink
    ) throws -> FormatProduct {
        let document: (json: JSONText, warnings: [String])
        do {
            document = try LottieWriter.document(of: context.composition, plan: context.plan)
        } catch {
            throw EncodeError(error.message)
        }
        let bytes = Array(document.json.rendered().utf8)
        try sink.put(OutputFile(path: target.path, bytes: bytes))
        var product = FormatProduct(target: target)
        product.byteCount = bytes.count
        product.facts = "Lottie 1.0, " + Self.keyframeFacts(document.json, frameCount: context.plan.frameCount)
        product.warnings = document.warnings.map { FileWarning(file: target.path.description, message: $0) }
        if context.keepBytes { product.previewBytes = bytes }
        return product
    }

    /// What the summary line says was written: the keyframes of the animated properties whose
    /// curves were kept (`"a": 1` with fewer keyframes than the loop's frames), on which Lottie
    /// keys, and how many properties were baked with a keyframe at every frame
    /// (`3 keyframes on o, s; 0 properties baked per frame`); `static` when nothing is animated.
    static func keyframeFacts(_ document: JSONText, frameCount: Int) -> String {
        var kept = 0
        var keys = Set<String>()
        var baked = 0
        func walk(_ value: JSONText) {
            switch value {
            case .array(let items):
                items.forEach(walk)
            case .object(let members):
                for member in members {
                    if case .object(let inner) = member.value,
                        let a = inner.first(where: { $0.key == "a" })?.value, a == .integer(1) || a == .number(1),
                        case .array(let frames)? = inner.first(where: { $0.key == "k" })?.value
                    {
                        if frameCount > 1, frames.count > frameCount {
                            baked += 1
                        } else {
                            kept += frames.count
                            keys.insert(member.key)
                        }
                    }
                    walk(member.value)
                }
            default:
                break
            }
        }
        walk(document)
        if kept == 0 && baked == 0 { return "static" }
        let fitted =
            kept == 0 ? "no kept curves" : "\(counted(kept, "keyframe")) on \(keys.sorted().joined(separator: ", "))"
        return "\(fitted); \(counted(baked, "property", plural: "properties")) baked per frame"
    }
}
