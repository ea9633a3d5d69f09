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

    /// Up to `maximumColors` RGBA colours for a straight-alpha image and every pixel's index into
    /// them: libimagequant's palette (speed 4) and its remapping without dithering, so equal
    /// cells of a sprite sheet stay equal.
    /// - Parameters:
    ///   - pixels: `width·height` RGBA pixels, straight alpha.
    ///   - maximumColors: 2…256.
    /// - Throws: `EncodeError` naming the libimagequant call that failed.
    static func remap(pixels: [UInt8], width: Int, height: Int, maximumColors: Int) throws
        -> (palette: [(r: UInt8, g: UInt8, b: UInt8, a: UInt8)], indices: [UInt8])
    {
        limitToOneThread()
        let attributes = try LiqAttributes()
        try check(liq_set_max_colors(attributes.pointer, Int32(maximumColors)), "liq_set_max_colors")
        try check(liq_set_speed(attributes.pointer, speed), "liq_set_speed")
        return try pixels.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { throw EncodeError("libimagequant: empty image") }
            // The image reads `pixels` in place: it must not outlive this closure.
            let image = try LiqImage(attributes: attributes, pixels: base, width: width, height: height)
            var resultPointer: OpaquePointer?
            try check(liq_image_quantize(image.pointer, attributes.pointer, &resultPointer), "liq_image_quantize")
            guard let resultPointer else { throw EncodeError("libimagequant liq_image_quantize: no result") }
            defer { liq_result_destroy(resultPointer) }
            try check(liq_set_dithering_level(resultPointer, 0), "liq_set_dithering_level")
            var indices = [UInt8](repeating: 0, count: width * height)
            try indices.withUnsafeMutableBytes { out in
                guard let target = out.baseAddress else { return }
                try check(
                    liq_write_remapped_image(resultPointer, image.pointer, target, out.count),
                    "liq_write_remapped_image")
            }
            guard let palette = liq_get_palette(resultPointer) else {
                throw EncodeError("libimagequant liq_get_palette: no palette")
            }
            let count = min(Int(palette.pointee.count), 256)
            let colors = withUnsafeBytes(of: palette.pointee.entries) { raw in
                (0..<count).map { i in
                    let e = raw.load(fromByteOffset: i * MemoryLayout<liq_color>.stride, as: liq_color.self)
                    return (r: e.r, g: e.g, b: e.b, a: e.a)
                }
            }
            return (colors, indices)
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

/// Owns a `liq_image` reading caller-owned RGBA memory; keeps its attributes alive.
final class LiqImage {
    let pointer: OpaquePointer
    private let attributes: LiqAttributes

    init(attributes: LiqAttributes, pixels: UnsafePointer<UInt8>, width: Int, height: Int) throws {
        guard let pointer = liq_image_create_rgba(attributes.pointer, pixels, Int32(width), Int32(height), 0) else {
            throw EncodeError("libimagequant liq_image_create_rgba: cannot take a \(width)×\(height) image")
        }
        self.pointer = pointer
        self.attributes = attributes
    }

    deinit { liq_image_destroy(pointer) }
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
