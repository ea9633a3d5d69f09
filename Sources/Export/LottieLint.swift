// SPDX-License-Identifier: GPL-3.0-or-later

import Encode
import Foundation
import Spec
import Timeline

/// What lottie-ios's Core Animation rendering engine (its default since Lottie 4.0) cannot play,
/// found in a Lottie document before a developer ships it. Sources: airbnb/lottie
/// `supported-features.md` (the "iOS (Core Animation)" column: "Trim Path (simultaneously)" and
/// every merge-path mode unsupported; the engine "will automatically fall back to the Main Thread
/// rendering engine") and lottie-ios `Sources/Private/CoreAnimation`:
/// - `Layers/ShapeItemLayer.swift`: a non-empty trim in the same shape group as a fill fails its
///   compatibility check ("doesn't currently support applying trims to filled shapes (only
///   stroked shapes)");
/// - `Animations/StrokeAnimation.swift`: each dash and gap length must have exactly one keyframe
///   (`exactlyOneKeyframe(… "stroke dashPattern")`); the dash offset (`lineDashPhase`) is
///   animated normally, so an animated offset alone is not reported;
/// - `Animations/CALayer+addAnimation.swift`: a property's keyframes become one
///   `CAKeyframeAnimation` per run of the same calculation mode (`.discrete` for hold, `.linear`
///   otherwise), grouped; before lottie-ios pull request #1644 (July 2022, fixing issue #1632
///   "Mixed `isHold` / `!isHold` keyframes are currently unsupported by the Core Animation
///   engine") one animation had one mode, so a property mixing them is reported for those
///   players; issue #2046 is the animated dash pattern's report;
/// - merge paths (`mm`) have no Core Animation layer at all.
///
/// Each finding is a warning on export (after the preset's JSON path of the layer that caused it)
/// and an error under `animexport validate --strict --format lottie` (lint `lottie-ios`).
public enum LottieLint {
    /// The warning for a stroke whose dash or gap lengths change over the loop.
    public static let animatedDash =
        "animated dash pattern: lottie-ios's Core Animation engine cannot animate dash or gap lengths"
        + " and falls back to its main-thread engine"
    /// The warning for a trim in the same group as a fill.
    public static let trimOnFill =
        "trim on a filled shape: lottie-ios's Core Animation engine trims stroked shapes only"
        + " and falls back to its main-thread engine"
    /// The warning for a property with hold and non-hold keyframes.
    public static let mixedHold =
        "mixed hold and non-hold keyframes in one property: lottie-ios's Core Animation engine"
        + " before lottie-ios pull request #1644 (July 2022) cannot play them"
    /// The warning for merge paths.
    public static let mergePaths =
        "merge paths (mm): lottie-ios's Core Animation engine cannot draw them"
        + " and falls back to its main-thread engine"

    /// One thing the engine cannot play.
    public struct Finding: Equatable, Sendable {
        /// Where in the Lottie layer, from the layer object (`.shapes[0].it[2]`).
        public var path: String
        /// One of the messages above.
        public var message: String

        /// A finding; see the properties.
        public init(path: String, message: String) {
            self.path = path
            self.message = message
        }
    }

    /// Every finding in one Lottie layer object (a `ty` 4 shape layer; other layers have none),
    /// in document order, one per property or item.
    public static func coreAnimationFindings(inLayer layer: JSONText) -> [Finding] {
        var out: [Finding] = []
        var path: [String] = []
        scan(layer, path: &path, into: &out)
        return out
    }

    private static func member(_ value: JSONText, _ key: String) -> JSONText? {
        guard case .object(let members) = value else { return nil }
        return members.first { $0.key == key }?.value
    }

    private static func string(_ value: JSONText?) -> String? {
        if case .string(let s)? = value { return s }
        return nil
    }

    private static func number(_ value: JSONText?) -> Double? {
        switch value {
        case .number(let n)?: return n
        case .integer(let i)?: return Double(i)
        default: return nil
        }
    }

    /// Whether a property object is keyframed (`a` 1).
    private static func animated(_ property: JSONText?) -> Bool {
        guard let property else { return false }
        return number(member(property, "a")) == 1
    }

    /// Whether a trim (`tm`) cuts anything: not a fixed start 0 and end 100.
    private static func trims(_ item: JSONText) -> Bool {
        if animated(member(item, "s")) || animated(member(item, "e")) { return true }
        let start = member(item, "s").flatMap { number(member($0, "k")) } ?? 0
        let end = member(item, "e").flatMap { number(member($0, "k")) } ?? 100
        return start != 0 || end != 100
    }

    /// Walks the layer; `path` holds the keys and indices down to `value`, joined only when
    /// something is found (the layer of a big export has hundreds of thousands of values).
    private static func scan(_ value: JSONText, path: inout [String], into out: inout [Finding]) {
        switch value {
        case .object(let members):
            var type: String?
            var isKeyed = false
            for m in members {
                if m.key == "ty", case .string(let t) = m.value { type = t }
                if m.key == "a", number(m.value) == 1 { isKeyed = true }
            }
            func here(_ suffix: String = "") -> String { path.joined() + suffix }
            if let listMember = members.first(where: { $0.key == "it" || $0.key == "shapes" }),
                case .array(let list) = listMember.value
            {
                let types = list.map { string(member($0, "ty")) }
                let trimIndex = list.indices.first { types[$0] == "tm" && trims(list[$0]) }
                if let trimIndex, types.contains(where: { $0 == "fl" || $0 == "gf" }) {
                    out.append(Finding(path: here(".\(listMember.key)[\(trimIndex)]"), message: trimOnFill))
                }
            }
            if type == "mm" { out.append(Finding(path: here(), message: mergePaths)) }
            if type == "st" || type == "gs", case .array(let dashes)? = member(value, "d"),
                dashes.contains(where: { ["d", "g"].contains(string(member($0, "n"))) && animated(member($0, "v")) })
            {
                out.append(Finding(path: here(".d"), message: animatedDash))
            }
            if isKeyed, case .array(let keys)? = member(value, "k"), keys.count > 2 {
                // The last keyframe's `h` changes nothing (no segment follows it).
                let holds = keys.dropLast().map { number(member($0, "h")) == 1 }
                if holds.contains(true) && holds.contains(false) {
                    out.append(Finding(path: here(), message: mixedHold))
                }
            }
            for m in members {
                // Numbers and strings hold nothing to find.
                switch m.value {
                case .object, .array:
                    path.append("." + m.key)
                    scan(m.value, path: &path, into: &out)
                    path.removeLast()
                default: continue
                }
            }
        case .array(let items):
            for (i, item) in items.enumerated() {
                switch item {
                case .object, .array:
                    path.append("[\(i)]")
                    scan(item, path: &path, into: &out)
                    path.removeLast()
                default: continue
                }
            }
        default: break
        }
    }
}

extension LottieLint {
    /// The Core Animation lint of `composition`'s Lottie export over `plan`, as diagnostics for
    /// `validate` (lint `lottie-ios`; a warning, an error under `--strict`), each at the preset
    /// JSON path of the layer whose Lottie layer has the finding, with its line:column when
    /// the composition kept one.
    /// - Throws: `LoopPlanError` when Lottie cannot express the composition (as on export).
    public static func diagnostics(of composition: Composition, plan: LoopPlan, file: String) throws(LoopPlanError)
        -> [Diagnostic]
    {
        let warnings = try LottieWriter.document(of: composition, plan: plan).warnings
        return warnings.compactMap { warning -> Diagnostic? in
            // The writer words each as "PRESET_PATH: MESSAGE (the Lottie file's …)".
            guard warning.contains("lottie-ios"), let colon = warning.range(of: ": ") else { return nil }
            let path = String(warning[..<colon.lowerBound])
            return Diagnostic(
                .warning, file: file, path: path, location: composition.sourceLocations[path],
                message: String(warning[colon.upperBound...]), lint: "lottie-ios")
        }
    }
}
