// SPDX-License-Identifier: GPL-3.0-or-later

/// A failure inside the renderer, saying which step failed and Cairo's reason.
public struct RenderError: Error, Equatable, Sendable, CustomStringConvertible {
    /// E.g. `create 640×480 surface: out of memory`.
    public var message: String
    /// Whether the preset is to blame (a layer drawn past `ExportBudget.maximumDrawnExtent`
    /// through a scale the budget could not bound beforehand, such as one set from state by
    /// `bind`): the CLI exits 65 for it, as for the budget's own refusals, rather than 1.
    public var isPresetLimit: Bool

    /// An error with its message; `isPresetLimit` as the property says (default false).
    public init(_ message: String, isPresetLimit: Bool = false) {
        self.message = message
        self.isPresetLimit = isPresetLimit
    }

    /// The message.
    public var description: String { message }
}
