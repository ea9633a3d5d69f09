// SPDX-License-Identifier: GPL-3.0-or-later

import Glibc

// Text helpers without Foundation, so that the modules below the renderer (Spec, and with it
// Encode and `animexport assemble`) do not pull Foundation and its ICU data into a process that
// only encodes frames (issue 22: start-up). Each gives what the Foundation call it replaces gave.

/// `value` printed by C's `snprintf` with one `double` conversion, in the C locale (Swift never
/// calls `setlocale`, so the decimal separator is always `.`): what
/// `String(format: format, locale: nil, value)` printed.
/// - Parameter format: a format with exactly one floating-point conversion (`%.6g`, `%.2f`);
///   callers pass constants or formats checked by `TextTemplate.isSupported`.
public func formatC(_ format: String, _ value: Double) -> String {
    var buffer = [CChar](repeating: 0, count: 64)
    // %.0f of 1.8e308 needs 310 characters: ask for the length, then print into that much.
    let needed = withVaList([value]) { vsnprintf(&buffer, buffer.count, format, $0) }
    guard needed >= 0 else { return "" }
    if Int(needed) >= buffer.count {
        buffer = [CChar](repeating: 0, count: Int(needed) + 1)
        _ = withVaList([value]) { vsnprintf(&buffer, buffer.count, format, $0) }
    }
    return String(decoding: buffer.prefix(Int(needed)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

extension StringProtocol {
    /// The text without leading and trailing white space as `CharacterSet.whitespaces` defines
    /// it: Unicode general category Zs (space separators) and U+0009 CHARACTER TABULATION; line
    /// breaks are kept.
    public func trimmingWhitespace() -> String {
        func isSpace(_ s: Unicode.Scalar) -> Bool { s == "\t" || s.properties.generalCategory == .spaceSeparator }
        let scalars = Array(unicodeScalars)
        guard let first = scalars.firstIndex(where: { !isSpace($0) }),
            let last = scalars.lastIndex(where: { !isSpace($0) })
        else { return "" }
        var text = String.UnicodeScalarView()
        text.append(contentsOf: scalars[first...last])
        return String(text)
    }
}

/// The folder part of a path as `NSString.deletingLastPathComponent` gives it: `a/b/c.json` →
/// `a/b`, `c.json` → `` (empty), `/c.json` → `/`, `a/b/` → `a`, `/` → `/`.
public func deletingLastPathComponent(_ path: String) -> String {
    var bytes = Array(path.utf8)
    while bytes.count > 1, bytes.last == UInt8(ascii: "/") { bytes.removeLast() }
    guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return "" }
    if slash == 0 { return "/" }
    var folder = Array(bytes[..<slash])
    while folder.count > 1, folder.last == UInt8(ascii: "/") { folder.removeLast() }
    return String(decoding: folder, as: UTF8.self)
}
