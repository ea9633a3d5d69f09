// SPDX-License-Identifier: GPL-3.0-or-later

/// Every opaque colour of an animation with its pixel count, in order of first appearance
/// (frame by frame, row-major), so anything built from it is deterministic.
struct ColorHistogram {
    /// Distinct opaque colours as `0x00RRGGBB`, first appearance first.
    private(set) var colors: [UInt32] = []
    /// Pixel counts, parallel to `colors`.
    private(set) var counts: [Int] = []

    /// Counts the opaque pixels of all frames.
    init(_ flattened: FlattenedFrames) {
        var slots: [UInt32: Int] = [:]
        var last = FlattenedFrames.transparent
        var lastSlot = -1
        for frame in flattened.frames {
            for color in frame where color != FlattenedFrames.transparent {
                if color == last {
                    counts[lastSlot] += 1
                    continue
                }
                let slot: Int
                if let existing = slots[color] {
                    slot = existing
                    counts[slot] += 1
                } else {
                    slot = colors.count
                    slots[color] = slot
                    colors.append(color)
                    counts.append(1)
                }
                last = color
                lastSlot = slot
            }
        }
    }
}
