// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
public import Spec

/// Reads Lottie JSON (bodymovin, Lottie 1.0 specification) into a `Composition` whose frames
/// come from a `LottieAnimation` (`Composition.foreign`), so it goes through the same
/// Timeline → Render → Encode → Export path as a preset.
public enum LottieLoader {
    /// Whether a parsed document is a Lottie file: a top-level object with `v`, `fr`, `ip`,
    /// `op`, `w`, `h` and `layers` (the Lottie 1.0 specification's required Animation members,
    /// `v` included since every exporter writes it). A preset has `version` and no `fr`.
    public static func isLottie(_ root: JSONValue) -> Bool {
        guard let object = root.objectValue else { return false }
        return ["v", "fr", "ip", "op", "w", "h", "layers"].allSatisfy { object[$0] != nil }
    }

    /// Decodes Lottie JSON held in memory.
    /// - Parameters:
    ///   - bytes: UTF-8 JSON.
    ///   - file: the name diagnostics show.
    ///   - root: the document already parsed from `bytes`, if the caller has it.
    ///   - overrides: `--set` values by slot id, as typed (`LottieSlots`: slots are the file's
    ///     parameters, checked and parsed as a preset's are).
    /// - Returns: the composition (name from the file name, canvas `w`×`h` transparent, `fps`
    ///   = `fr`, `duration` = (`op` − `ip`) / `fr`, `parameters` the slots with a fixed
    ///   colour, number or vector value, no layers, `foreign` the animation) and the
    ///   warnings, one per unsupported feature at its JSON path (lint `lottie-unsupported`).
    /// - Throws: `ParameterOverrideError` for a bad `--set` (an unknown slot id, a value of
    ///   the wrong type or out of range); `PresetError` with every diagnostic when the JSON is malformed (line:column)
    ///   or a required member is missing or of the wrong type (its JSON path).
    public static func decode(
        bytes: [UInt8], file: String, root: JSONValue? = nil, overrides: [String: String] = [:]
    ) throws -> LoadedPreset {
        let document: JSONValue
        if let root {
            document = root
        } else {
            do {
                document = try JSONParser.parse(bytes: bytes)
            } catch {
                throw PresetError([
                    Diagnostic(
                        .error, file: file, path: "", location: error.location,
                        message: "invalid JSON: \(error.message)")
                ])
            }
        }
        let decoder = LottieDecoder(file: file)
        guard let top = document.objectValue else {
            throw PresetError([
                Diagnostic(
                    .error, file: file, path: "$", location: document.location, message: "expected a Lottie object")
            ])
        }
        decoder.useVersion(top["v"]?.stringValue)
        let fr = decoder.number(top, "fr", "$", owner: document)
        let ip = decoder.number(top, "ip", "$", owner: document)
        let op = decoder.number(top, "op", "$", owner: document)
        let w = decoder.number(top, "w", "$", owner: document)
        let h = decoder.number(top, "h", "$", owner: document)
        if let fr, !(fr > 0) { decoder.error("$.fr", top["fr"], "frame rate must be > 0, found \(formatNumber(fr))") }
        if let ip, let op, !(op > ip) {
            decoder.error(
                "$.op", top["op"], "out point must be after the in point \(formatNumber(ip)), found \(formatNumber(op))"
            )
        }
        for (key, value) in [("w", w), ("h", h)] {
            if let value, !(value > 0) {
                decoder.error("$.\(key)", top[key], "must be > 0, found \(formatNumber(value))")
            }
        }
        if let ddd = top["ddd"]?.numberValue, ddd != 0 {
            decoder.unsupported("$.ddd", top["ddd"], "3D compositions (ddd)")
        }
        if top["fonts"] != nil || top["chars"] != nil {
            decoder.unsupported("$.fonts", top["fonts"] ?? top["chars"], "fonts and text (fonts, chars)")
        }
        var slots = LottieSlots(top["slots"], document: document, decoder: decoder)
        try slots.apply(overrides)
        decoder.slotProperties = slots.properties
        if let markers = top["markers"]?.arrayValue, !markers.isEmpty {
            // Markers name segments; the whole ip…op loop is drawn. Not a drawing feature.
            _ = markers
        }
        let assets = decoder.assets(top["assets"])
        let layers = decoder.layers(top["layers"], "$.layers")
        guard !decoder.hasErrors, let fr, let ip, let op, let w, let h else { throw PresetError(decoder.diagnostics) }
        let animation = LottieAnimation(
            width: w, height: h, frameRate: fr, inPoint: ip, outPoint: op,
            identity: "lottie:\(digest(bytes))" + (slots.slots.isEmpty ? "" : "|\(slots.identity)"),
            layers: layers, assets: assets)
        let composition = Composition(
            name: name(of: file), description: top["nm"]?.stringValue ?? "",
            canvas: Canvas(width: w, height: h), fps: fr, duration: (op - ip) / fr, parameters: slots.parameters,
            layers: [],
            foreign: ForeignModel(animation))
        return LoadedPreset(composition: composition, warnings: decoder.diagnostics, directory: nil)
    }

    /// The output name: the file's name without folders and `.json` (and `.lottie`), with
    /// characters outside letters, digits, `-` and `_` replaced by `-`.
    static func name(of file: String) -> String {
        var base = (file as NSString).lastPathComponent
        for suffix in [".json", ".lottie"] where base.lowercased().hasSuffix(suffix) { base.removeLast(suffix.count) }
        let cleaned = String(
            base.map { ($0.isASCII && ($0.isLetter || $0.isNumber)) || $0 == "-" || $0 == "_" ? $0 : "-" })
        return cleaned.isEmpty ? "lottie" : cleaned
    }

    /// FNV-1a 64 of the bytes, as hex: the animation's identity for `Composition` equality.
    static func digest(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes {
            hash ^= UInt64(b)
            hash = hash &* 0x100_0000_01b3
        }
        return String(hash, radix: 16) + "-\(bytes.count)"
    }
}
