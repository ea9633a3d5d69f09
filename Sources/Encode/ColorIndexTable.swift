// SPDX-License-Identifier: GPL-3.0-or-later

/// A hash map from packed opaque colours (`0x00RRGGBB`) to small integers, built for the
/// per-pixel loops of the GIF encoder: open addressing with linear probing and a fixed
/// multiplicative (Fibonacci) hash, several times faster than `Dictionary`'s seeded SipHash
/// when an animation has millions of distinct colours.
///
/// `FlattenedFrames.transparent` (`UInt32.max`) marks an empty slot and cannot be a key.
struct ColorIndexTable {
    private static let emptyKey = FlattenedFrames.transparent

    private var keys: [UInt32]
    private var values: [Int32]
    /// log2 of the slot count.
    private var bits: Int
    /// Keys stored.
    private(set) var count = 0

    /// An empty table with room for `minimumCapacity` keys before it grows.
    init(minimumCapacity: Int = 64) {
        var bits = 6
        while (1 << bits) < 2 * minimumCapacity { bits += 1 }
        self.bits = bits
        keys = [UInt32](repeating: Self.emptyKey, count: 1 << bits)
        values = [Int32](repeating: 0, count: 1 << bits)
    }

    /// The value stored for `key`, or nil.
    func value(for key: UInt32) -> Int32? {
        var slot = Self.home(of: key, bits: bits)
        let mask = (1 << bits) - 1
        while true {
            let stored = keys[slot]
            if stored == key { return values[slot] }
            if stored == Self.emptyKey { return nil }
            slot = (slot + 1) & mask
        }
    }

    /// The value already stored for `key`, or `newValue` after storing it.
    /// - Returns: the value and whether it was inserted now.
    mutating func findOrInsert(_ key: UInt32, newValue: Int32) -> (value: Int32, inserted: Bool) {
        if 2 * (count + 1) > keys.count { grow() }
        var slot = Self.home(of: key, bits: bits)
        let mask = (1 << bits) - 1
        while true {
            let stored = keys[slot]
            if stored == key { return (values[slot], false) }
            if stored == Self.emptyKey {
                keys[slot] = key
                values[slot] = newValue
                count += 1
                return (newValue, true)
            }
            slot = (slot + 1) & mask
        }
    }

    /// Slot where probing for `key` starts: the top `bits` bits of a 64-bit Fibonacci product.
    private static func home(of key: UInt32, bits: Int) -> Int {
        Int(truncatingIfNeeded: (UInt64(key) &* 0x9E37_79B9_7F4A_7C15) >> UInt64(64 - bits))
    }

    /// Doubles the slot count and re-inserts every key.
    private mutating func grow() {
        let oldKeys = keys
        let oldValues = values
        bits += 1
        keys = [UInt32](repeating: Self.emptyKey, count: 1 << bits)
        values = [Int32](repeating: 0, count: 1 << bits)
        let mask = (1 << bits) - 1
        for (key, value) in zip(oldKeys, oldValues) where key != Self.emptyKey {
            var slot = Self.home(of: key, bits: bits)
            while keys[slot] != Self.emptyKey { slot = (slot + 1) & mask }
            keys[slot] = key
            values[slot] = value
        }
    }
}
