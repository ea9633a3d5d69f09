// SPDX-License-Identifier: GPL-3.0-or-later

/// How many times a GIF plays, written as the NETSCAPE2.0 application extension
/// (semantics.md §8.3).
///
/// Chrome and Firefox play a GIF `count + 1` times for a NETSCAPE count `count`
/// (chromium bug 592735, mozilla bug 1255497) and once when the block is absent, so:
/// - `.forever` writes count 0;
/// - `.plays(1)` writes no block at all;
/// - `.plays(n)` with n ≥ 2 writes count `n − 1`.
public enum LoopCount: Equatable, Sendable {
    /// Loop endlessly (NETSCAPE count 0).
    case forever
    /// Play this many times in total, 1 … 65 536.
    case plays(Int)

    /// The NETSCAPE2.0 loop count to write, or `nil` for no block.
    /// - Throws: `EncodeError` when `plays` is outside 1 … 65 536 (the count is 16-bit).
    func netscapeCount() throws -> Int? {
        switch self {
        case .forever:
            return 0
        case .plays(let n):
            guard n >= 1, n <= 65_536 else {
                throw EncodeError("loop count \(n) is out of range: a GIF plays 1…65536 times or forever")
            }
            return n == 1 ? nil : n - 1
        }
    }
}

extension LoopCount {
    /// What `init?(option:)` accepts, in the words of `--loop`'s error message.
    public static let optionForms = "a number of plays 1…65536 or \"forever\""

    /// The value of a `--loop` option: `forever`, `infinite` or `0` loop endlessly; a whole
    /// number 1 … 65 536 plays that many times in total. Nil for anything else.
    public init?(option text: String) {
        if text == "forever" || text == "infinite" || text == "0" {
            self = .forever
        } else if let n = Int(text), n >= 1, n <= 65_536 {
            self = .plays(n)
        } else {
            return nil
        }
    }
}
