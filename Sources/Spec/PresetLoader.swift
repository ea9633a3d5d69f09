// SPDX-License-Identifier: GPL-3.0-or-later

import Glibc

/// A decoded preset and the warnings (lints) found while decoding it.
public struct LoadedPreset: Equatable, Sendable {
    /// The validated, normalised composition.
    public var composition: Composition
    /// Warnings: legal but surprising things (shown as `warning:` lines; errors under `--strict`).
    public var warnings: [Diagnostic]
    /// Directory the preset was read from (for files it refers to), or `nil` for in-memory text.
    public var directory: String?

    /// A loaded preset; see the properties (another format's loader, `LottieLoader`, makes
    /// one too).
    public init(composition: Composition, warnings: [Diagnostic], directory: String?) {
        self.composition = composition
        self.warnings = warnings
        self.directory = directory
    }
}

/// A `--set NAME=VALUE` that cannot be applied: unknown parameter or a value of the wrong type.
/// The CLI treats it as a usage error (exit 64).
public struct ParameterOverrideError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong, naming the parameter and the value, with a suggestion when one is near.
    public var message: String
    /// The message.
    public var description: String { message }

    /// An error with the given message, for another input format's loader (`LottieLoader`)
    /// that checks `--set` values of its own kinds the way presets check theirs.
    /// - Parameter message: the whole message, `--set NAME=VALUE: …` as presets word it.
    public init(message: String) { self.message = message }
}

extension Parameter {
    /// `parameters` with `--set` values applied exactly as a preset applies them: each name
    /// must be one of `parameters` (else "the preset has no parameter", with a did-you-mean
    /// suggestion or the list of names), each value parsed by its parameter's type (decimal
    /// numbers within `minimum`…`maximum`, colours in every form presets accept, booleans,
    /// strings as typed). `value` changes, `defaultValue` stays. Derived defaults
    /// (`defaultExpression`) are not recomputed.
    /// - Parameters:
    ///   - overrides: values by parameter name, as typed after `--set NAME=`.
    ///   - parameters: the parameters in file order.
    /// - Throws: `ParameterOverrideError` for the first bad name or value, by name order.
    public static func applying(_ overrides: [String: String], to parameters: [Parameter])
        throws(ParameterOverrideError) -> [Parameter]
    {
        try PresetDecoder.applyOverrides(overrides, to: parameters)
    }
}

/// Thrown when a preset file cannot be read at all (missing, unreadable, a directory).
public struct PresetReadError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The path as given.
    public var file: String
    /// The operating system's reason.
    public var reason: String
    /// `cannot read FILE: REASON`.
    public var description: String { "cannot read \(file): \(reason)" }
}

/// Reads preset JSON (format version 1, `docs/preset-format.md`) into a `Composition`.
public enum PresetLoader {
    /// Reads and decodes the preset at `path`.
    /// - Parameters:
    ///   - path: file path as the user typed it (it appears as-is in diagnostics).
    ///   - overrides: `--set` values by parameter name, as typed (`"#FF3B30"`, `"2.5"`).
    ///   - fontAvailable: tells whether a font family is installed (the renderer knows, `Spec`
    ///     does not); a text layer naming a missing family gets the `font-missing` lint. nil
    ///     skips the check.
    ///   - measureText: measures text in the renderer's fonts (`Exporter.measureText`), for
    ///     `@name.width` and `@name.height` in expressions; nil makes those an error.
    /// - Throws: `PresetReadError` when the file cannot be read; `ParameterOverrideError` for a
    ///   bad `--set`; `PresetError` with every diagnostic when the preset has errors.
    public static func load(
        contentsOf path: String, overrides: [String: String] = [:],
        fontAvailable: (@Sendable (String) -> Bool)? = nil, measureText: TextMeasurer? = nil
    ) throws -> LoadedPreset {
        var status = stat()
        let exists = stat(path, &status) == 0
        if exists, status.st_mode & S_IFMT == S_IFDIR {
            throw PresetReadError(file: path, reason: "is a directory")
        }
        guard let data = ByteFile.read(Array(path.utf8), regularOnly: false) else {
            throw PresetReadError(file: path, reason: exists ? "permission denied" : "no such file")
        }
        var loaded = try decode(
            bytes: data, file: path, overrides: overrides, fontAvailable: fontAvailable,
            measureText: measureText)
        loaded.directory = deletingLastPathComponent(path)
        return loaded
    }

    /// Decodes preset JSON held in memory.
    /// - Parameters:
    ///   - bytes: UTF-8 JSON.
    ///   - file: the name to show in diagnostics.
    ///   - overrides: `--set` values by parameter name, as typed.
    ///   - fontAvailable: see `load(contentsOf:overrides:fontAvailable:measureText:)`.
    ///   - measureText: see `load(contentsOf:overrides:fontAvailable:measureText:)`.
    ///   - directory: the folder image layers' relative `file`s are resolved against, as bytes
    ///     (a name that is not UTF-8 keeps them); nil: the folder part of `file`.
    /// - Throws: `ParameterOverrideError` for a bad override; `PresetError` listing every
    ///   problem (errors and warnings) when there is at least one error.
    public static func decode(
        bytes: [UInt8], file: String, overrides: [String: String] = [:],
        fontAvailable: (@Sendable (String) -> Bool)? = nil, measureText: TextMeasurer? = nil,
        directory: [UInt8]? = nil
    ) throws -> LoadedPreset {
        let root: JSONValue
        do {
            root = try JSONParser.parse(bytes: bytes)
        } catch {
            throw PresetError([
                Diagnostic(
                    .error, file: file, path: "", location: error.location,
                    message: "invalid JSON: \(error.message)")
            ])
        }
        let context = DecodeContext(file: file, directory: directory)
        context.fontAvailable = fontAvailable
        context.measureText = measureText
        let decoder = PresetDecoder(context: context)
        let composition = try decoder.decode(root, overrides: overrides)
        guard let composition, !context.hasErrors else {
            throw PresetError(context.diagnostics)
        }
        return LoadedPreset(
            composition: composition,
            warnings: context.diagnostics.filter { $0.severity == .warning }, directory: nil)
    }
}
