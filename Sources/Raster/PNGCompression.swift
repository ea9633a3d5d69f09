// SPDX-License-Identifier: GPL-3.0-or-later

internal import CPNG

/// How `PNGCodec` compresses image data: the zlib level and strategy and the PNG row filters
/// (PNG specification §9 filters, §10 compression; zlib's `deflateInit2` strategies).
public struct PNGCompression: Equatable, Hashable, Sendable {
    /// zlib's match-finding strategy.
    public enum Strategy: Equatable, Hashable, Sendable, CaseIterable {
        /// `Z_DEFAULT_STRATEGY`: full LZ77 search (slow on long runs at level 9).
        case standard
        /// `Z_FILTERED`: prefers Huffman coding of small filtered values over short matches.
        case filtered
        /// `Z_RLE`: matches at distance 1 only; zlib's manual calls it almost as fast as Huffman
        /// only but better for PNG data.
        case runLength

        var zlibValue: Int32 {
            switch self {
            case .standard: Z_DEFAULT_STRATEGY
            case .filtered: Z_FILTERED
            case .runLength: Z_RLE
            }
        }
    }

    /// Which PNG filter each row may use.
    public enum Filters: Equatable, Hashable, Sendable, CaseIterable {
        /// No filtering (usually best for palette images).
        case none
        /// Each row tries all five filters; libpng keeps the one with the smallest sum of
        /// absolute differences.
        case adaptive
        /// Every row Paeth.
        case paeth
        /// Every row Up.
        case up
        /// Every row Sub.
        case sub

        var libpngMask: Int32 {
            switch self {
            case .none: Int32(PNG_FILTER_NONE)
            case .adaptive: Int32(PNG_FILTER_NONE | PNG_FILTER_SUB | PNG_FILTER_UP | PNG_FILTER_AVG | PNG_FILTER_PAETH)
            case .paeth: Int32(PNG_FILTER_PAETH)
            case .up: Int32(PNG_FILTER_UP)
            case .sub: Int32(PNG_FILTER_SUB)
            }
        }
    }

    /// zlib level 0 (store) … 9 (smallest).
    public var level: Int
    /// zlib strategy.
    public var strategy: Strategy
    /// Row filters.
    public var filters: Filters

    /// The given choices; by default level 9, the standard strategy and adaptive filters.
    public init(level: Int = 9, strategy: Strategy = .standard, filters: Filters = .adaptive) {
        self.level = level
        self.strategy = strategy
        self.filters = filters
    }
}

/// One colour of a palette PNG, straight alpha, each channel 0…255.
public struct PNGPaletteEntry: Equatable, Hashable, Sendable {
    /// Red.
    public var red: UInt8
    /// Green.
    public var green: UInt8
    /// Blue.
    public var blue: UInt8
    /// Alpha (255 opaque).
    public var alpha: UInt8

    /// An entry with the given channels.
    public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }
}
