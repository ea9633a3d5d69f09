// SPDX-License-Identifier: GPL-3.0-or-later

/// A failure inside the renderer, saying which step failed and Cairo's reason.
public struct RenderError: Error, Equatable, Sendable, CustomStringConvertible {
    /// E.g. `create 640×480 surface: out of memory`.
    public var message: String

    /// An error with its message.
    public init(_ message: String) { self.message = message }

    /// The message.
    public var description: String { message }
}
