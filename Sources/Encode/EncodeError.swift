// SPDX-License-Identifier: GPL-3.0-or-later

internal import CGif

/// A failure while encoding or decoding a GIF or building a sprite sheet.
///
/// `message` says what failed in words a user can act on, for example
/// `"giflib EGifPutLine: Write failed"` or `"frame 3 is 32×32, expected 64×64"`.
/// The CLI prints it after `error:`.
public struct EncodeError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What failed, one line, no trailing period.
    public var message: String

    /// The same text as `message`.
    public var description: String { message }

    /// An error with the given message.
    public init(_ message: String) {
        self.message = message
    }

    /// `"giflib <function>: <GifErrorString(code)>"`.
    static func giflib(_ function: String, code: Int32) -> EncodeError {
        let text: String
        if let cText = GifErrorString(code) {
            text = String(cString: cText)
        } else {
            text = "error \(code)"
        }
        return EncodeError("giflib \(function): \(text)")
    }
}
