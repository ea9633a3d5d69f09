// SPDX-License-Identifier: GPL-3.0-or-later

internal import CImageQuant

/// Palette selection by libimagequant (the quantiser behind pngquant and gifski) from a
/// colour histogram of the whole animation, so every frame shares one palette.
enum ImageQuantizer {
    /// libimagequant speed, 1 (slowest, best) … 10; 4 is the library's default.
    static let speed: Int32 = 4
    /// Histogram entries per `liq_histogram_add_colors` call. libimagequant 2.17 sizes its hash
    /// from `num_entries²` in an `int` on the first call, which overflows above 46 340 entries;
    /// small chunks keep the estimate (and the first allocation) modest.
    static let chunkSize = 1024
    /// Most histogram entries handed to libimagequant; larger histograms are merged first
    /// (`ColorHistogram.reduced`). Quantising time grows with the entry count.
    static let maximumHistogramEntries = 1 << 16

    /// Up to `maximumColors` opaque colours (`0x00RRGGBB`) chosen for `histogram`, in
    /// libimagequant's order.
    /// - Parameter maximumColors: 2…256.
    /// - Throws: `EncodeError` naming the libimagequant call that failed.
    static func palette(for histogram: ColorHistogram, maximumColors: Int) throws -> [UInt32] {
        limitToOneThread()
        let attributes = try LiqAttributes()
        try check(liq_set_max_colors(attributes.pointer, Int32(maximumColors)), "liq_set_max_colors")
        try check(liq_set_speed(attributes.pointer, speed), "liq_set_speed")

        let histogram = histogram.reduced(toAtMost: maximumHistogramEntries)
        let entries = zip(histogram.colors, histogram.counts).map { color, count in
            liq_histogram_entry(
                color: liq_color(
                    r: UInt8(truncatingIfNeeded: color >> 16),
                    g: UInt8(truncatingIfNeeded: color >> 8),
                    b: UInt8(truncatingIfNeeded: color), a: 255),
                count: UInt32(clamping: count))
        }
        let liqHistogram = try LiqHistogram(attributes: attributes)
        try entries.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            var start = 0
            while start < buffer.count {
                let count = min(chunkSize, buffer.count - start)
                try check(
                    liq_histogram_add_colors(
                        liqHistogram.pointer, attributes.pointer, base + start, Int32(count), 0),
                    "liq_histogram_add_colors")
                start += count
            }
        }
        let result = try LiqResult(histogram: liqHistogram, attributes: attributes)
        // The palette belongs to the result: keep the result alive until it is copied.
        return try withExtendedLifetime(result) {
            guard let palette = liq_get_palette(result.pointer) else {
                throw EncodeError("libimagequant liq_get_palette: no palette")
            }
            let count = min(Int(palette.pointee.count), 256)
            return withUnsafeBytes(of: palette.pointee.entries) { raw in
                (0..<count).map { i in
                    let entry = raw.load(
                        fromByteOffset: i * MemoryLayout<liq_color>.stride, as: liq_color.self)
                    return UInt32(entry.r) << 16 | UInt32(entry.g) << 8 | UInt32(entry.b)
                }
            }
        }
    }

    /// Makes libimagequant's OpenMP loops single-threaded on the calling thread, so the same
    /// input gives the same palette on any number of cores (see `Sources/CImageQuant/shim.h`).
    /// Call it on the thread that quantises, before every quantisation.
    /// - Returns: whether libimagequant uses OpenMP here (then it was limited).
    @discardableResult
    static func limitToOneThread() -> Bool {
        aex_liq_limit_to_one_thread() == 1
    }

    /// Throws unless `status` is `LIQ_OK`.
    static func check(_ status: liq_error, _ function: String) throws {
        guard status != LIQ_OK else { return }
        throw EncodeError("libimagequant \(function): \(describe(status))")
    }

    /// Words for a `liq_error` code (libimagequant.h).
    static func describe(_ status: liq_error) -> String {
        switch status {
        case LIQ_QUALITY_TOO_LOW: return "quality too low"
        case LIQ_VALUE_OUT_OF_RANGE: return "value out of range"
        case LIQ_OUT_OF_MEMORY: return "out of memory"
        case LIQ_ABORTED: return "aborted"
        case LIQ_BITMAP_NOT_AVAILABLE: return "bitmap not available"
        case LIQ_BUFFER_TOO_SMALL: return "buffer too small"
        case LIQ_INVALID_POINTER: return "invalid pointer"
        case LIQ_UNSUPPORTED: return "unsupported"
        default: return "error \(status.rawValue)"
        }
    }
}

/// Owns a `liq_attr`.
final class LiqAttributes {
    let pointer: OpaquePointer

    init() throws {
        guard let pointer = liq_attr_create() else {
            throw EncodeError("libimagequant liq_attr_create: out of memory")
        }
        self.pointer = pointer
    }

    deinit { liq_attr_destroy(pointer) }
}

/// Owns a `liq_histogram`; keeps its attributes alive.
final class LiqHistogram {
    let pointer: OpaquePointer
    private let attributes: LiqAttributes

    init(attributes: LiqAttributes) throws {
        guard let pointer = liq_histogram_create(attributes.pointer) else {
            throw EncodeError("libimagequant liq_histogram_create: out of memory")
        }
        self.pointer = pointer
        self.attributes = attributes
    }

    deinit { liq_histogram_destroy(pointer) }
}

/// Owns a `liq_result` made by `liq_histogram_quantize`.
final class LiqResult {
    let pointer: OpaquePointer

    init(histogram: LiqHistogram, attributes: LiqAttributes) throws {
        var result: OpaquePointer?
        try ImageQuantizer.check(
            liq_histogram_quantize(histogram.pointer, attributes.pointer, &result),
            "liq_histogram_quantize")
        guard let result else {
            throw EncodeError("libimagequant liq_histogram_quantize: no result")
        }
        pointer = result
    }

    deinit { liq_result_destroy(pointer) }
}
