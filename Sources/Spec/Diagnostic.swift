// SPDX-License-Identifier: GPL-3.0-or-later

/// A 1-based line and column in a preset file (columns count Unicode scalars).
public struct SourceLocation: Equatable, Hashable, Sendable {
    /// Line number, starting at 1.
    public var line: Int
    /// Column number, starting at 1.
    public var column: Int

    /// A location from a 1-based line and column.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }
}

/// One problem found in a preset: which file, where in it (JSON path and, when known, line and
/// column), and what was expected.
///
/// `description` renders the compiler-style line the CLI prints:
/// `presets/a.json:12:7: error: $.layers[0].stroke.width: expected a number, found "thick"`.
public struct Diagnostic: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// How bad the problem is.
    public enum Severity: String, Equatable, Hashable, Sendable {
        /// The preset cannot be used; the CLI exits with 65.
        case error
        /// Legal but surprising (a lint); an error only under `--strict`.
        case warning
    }

    /// Error or warning.
    public var severity: Severity
    /// The file as the user named it (or `<input>` for text not read from a file).
    public var file: String
    /// JSONPath of the offending value, e.g. `$.layers[0].animations[1].duration`.
    public var path: String
    /// Line and column of the offending value, when known.
    public var location: SourceLocation?
    /// What was expected and what was found, in one sentence without a final full stop.
    public var message: String
    /// For lints (warnings), a short name such as `stroke-range` that a preset can list in
    /// `allowLints` to acknowledge it; nil for errors.
    public var lint: String?

    /// A diagnostic; see the properties for what each part means.
    public init(
        _ severity: Severity, file: String, path: String, location: SourceLocation?,
        message: String, lint: String? = nil
    ) {
        self.severity = severity
        self.file = file
        self.path = path
        self.location = location
        self.message = message
        self.lint = lint
    }

    /// `file:line:column: severity: path: message [lint]` (line and column omitted when
    /// unknown, `[lint]` only for lints).
    public var description: String {
        var where_ = file
        if let location { where_ += ":\(location.line):\(location.column)" }
        let at = path.isEmpty ? "" : "\(path): "
        let code = lint.map { " [\($0)]" } ?? ""
        return "\(where_): \(severity.rawValue): \(at)\(message)\(code)"
    }
}

/// Thrown when a preset has one or more errors; carries every diagnostic found in the run
/// (warnings included) so the CLI can print them all at once.
public struct PresetError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Every problem found, errors and warnings, in file order: by line and column, then those
    /// without a location (about the whole preset), each group in the order found.
    public var diagnostics: [Diagnostic]

    /// Wraps a list of diagnostics, sorted into file order (the decoder finds them in passes:
    /// parameters first, then the rest of the document).
    public init(_ diagnostics: [Diagnostic]) {
        self.diagnostics = diagnostics.indices.sorted { a, b in
            let la = diagnostics[a].location.map { ($0.line, $0.column) } ?? (Int.max, Int.max)
            let lb = diagnostics[b].location.map { ($0.line, $0.column) } ?? (Int.max, Int.max)
            return (la.0, la.1, a) < (lb.0, lb.1, b)
        }.map { diagnostics[$0] }
    }

    /// One diagnostic per line.
    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}
