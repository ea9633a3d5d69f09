// SPDX-License-Identifier: GPL-3.0-or-later

/// One APNG frame delay, `numerator / denominator` seconds, as written in its `fcTL` chunk
/// (`delay_num`, `delay_den`, each 16-bit; APNG specification, `fcTL`).
public struct APNGDelay: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// `delay_num`, 0 … 65 535.
    public var numerator: Int
    /// `delay_den`, 1 … 65 535 (the encoder never writes 0, which would mean 100).
    public var denominator: Int

    /// A delay of `numerator / denominator` seconds.
    public init(numerator: Int, denominator: Int) {
        self.numerator = numerator
        self.denominator = denominator
    }

    /// The delay in seconds (rounded to a `Double`).
    public var seconds: Double { Double(numerator) / Double(denominator) }

    /// `"num/den"`.
    public var description: String { "\(numerator)/\(denominator)" }
}

/// An APNG file and how it was stored.
public struct APNGEncoding: Equatable, Sendable {
    /// The APNG file (a PNG whose default image is the first frame).
    public var bytes: [UInt8]
    /// Frames in the file (`acTL` `num_frames`), after identical neighbours were merged.
    public var frameCount: Int
    /// How pixels are stored: indexed (≤ 256 RGBA values in the whole animation) or truecolour
    /// with alpha.
    public var colorType: APNGColorType
    /// Whether the image is 8-bit-or-less indexed colour (`PLTE`, alpha in `tRNS`).
    public var indexed: Bool { colorType == .indexed }
    /// Palette entries when `indexed`, nil otherwise.
    public var paletteSize: Int?
    /// Every frame's delay, `frameCount` of them, in file order.
    public var delays: [APNGDelay]
    /// Whether every delay is the exact frame time (true), or the delays come from cumulative
    /// rounding on a grid (false; see `APNGTiming`).
    public var timingExact: Bool

    /// A value with the given fields.
    public init(
        bytes: [UInt8], frameCount: Int, colorType: APNGColorType, paletteSize: Int?, delays: [APNGDelay],
        timingExact: Bool
    ) {
        self.bytes = bytes
        self.frameCount = frameCount
        self.colorType = colorType
        self.paletteSize = paletteSize
        self.delays = delays
        self.timingExact = timingExact
    }
}
