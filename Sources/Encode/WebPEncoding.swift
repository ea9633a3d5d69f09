// SPDX-License-Identifier: GPL-3.0-or-later

/// A finished animated WebP and the facts about it the CLI reports.
public struct WebPEncoding: Equatable, Sendable {
    /// The complete RIFF WebP file.
    public var bytes: [UInt8]
    /// Frames in the file (ANMF chunks): the input frames less those libwebp merged into the one
    /// before because they were identical (in lossy mode: within its tolerance). 1 when the
    /// result is a still image.
    public var frameCount: Int
    /// When each input frame starts, in milliseconds from the start of the loop, and last the
    /// loop's end: `inputFrames + 1` values, `timestamps[0] == 0`, non-decreasing.
    /// `timestamps[i + 1] − timestamps[i]` is frame `i`'s duration (cumulative rounding,
    /// `FrameTiming.millisecondDurations`); the last value is the loop's total, `round(1000·P)`.
    public var timestamps: [Int]

    /// Each input frame's duration in milliseconds, `timestamps.count − 1` values.
    public var durations: [Int] { zip(timestamps.dropFirst(), timestamps).map { $0 - $1 } }

    /// A value with the given fields.
    public init(bytes: [UInt8], frameCount: Int, timestamps: [Int]) {
        self.bytes = bytes
        self.frameCount = frameCount
        self.timestamps = timestamps
    }
}
