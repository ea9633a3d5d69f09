// SPDX-License-Identifier: GPL-3.0-or-later

/// A count with its noun, for messages: the noun is singular for exactly 1 and plural for any
/// other count (0 included), as English writes it: `counted(1, "frame")` is `"1 frame"`,
/// `counted(3, "frame")` is `"3 frames"`, `counted(0, "error")` is `"0 errors"`.
///
/// Every message that counts something goes through this one function, so that no noun gets a
/// plural "s" glued to the end of a phrase (`"3 lint (an error under --strict)s"`).
/// - Parameters:
///   - count: how many (any integer).
///   - noun: the singular form, which may be a phrase (`"lint (an error under --strict)"`).
///   - plural: the plural form when it is not `noun` followed by `s` (`"lints (errors under
///     --strict)"`, `"RGBA colours"`); defaults to `noun + "s"`.
/// - Returns: the decimal count, a space and the noun in the right number.
public func counted(_ count: Int, _ noun: String, plural: String? = nil) -> String {
    "\(count) \(count == 1 ? noun : plural ?? noun + "s")"
}
