// SPDX-License-Identifier: GPL-3.0-or-later

import Glibc

/// Why SVG path data could not be read: where, and what was expected there.
///
/// `message` is a complete sentence fragment such as
/// `expected a number after 'L' at offset 7, found 'x'`.
public struct SVGPathError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Offset of the offending character, counted in characters (grapheme clusters) from the
    /// start of the path data, 0-based. Equal to the end of the data when it ended too early.
    public var offset: Int
    /// What went wrong, naming the offset and what was found.
    public var message: String

    /// An error at `offset` with a ready message.
    public init(offset: Int, message: String) {
        self.offset = offset
        self.message = message
    }

    /// The message.
    public var description: String { message }
}
