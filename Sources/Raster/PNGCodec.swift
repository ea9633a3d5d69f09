// SPDX-License-Identifier: GPL-3.0-or-later

internal import CPNG

/// PNG files for `RGBAImage`s through libpng 1.6.
///
/// libpng reports errors with `longjmp`, which Swift cannot catch, so every libpng call that
/// can fail runs inside a small C adapter in `Sources/CPNG/shim.h` that arms `setjmp`, and the
/// adapters copy libpng's message out. Handles live in final classes freed in `deinit`.
public enum PNGCodec {
    /// A libpng failure or an image PNG cannot hold; `message` says which.
    public struct CodecError: Error, Equatable, Sendable, CustomStringConvertible {
        /// What failed, e.g. `"libpng read: Not a PNG file"`.
        public var message: String
        /// The same text as `message`.
        public var description: String { message }

        /// An error with the given message.
        public init(_ message: String) { self.message = message }
    }

    /// Largest image accepted either way, in pixels (1 GiB of RGBA).
    public static let maximumPixelCount = 1 << 28

    /// Straight-alpha RGBA8 PNG: 8-bit RGBA, not interlaced, adaptive filtering, no ancillary
    /// chunks (no tIME, so the same image always gives the same bytes).
    ///
    /// - Parameters:
    ///   - image: at least 1×1 pixels, at most `maximumPixelCount`.
    ///   - compressionLevel: zlib level 0 (store) … 9 (smallest, the default).
    /// - Returns: the PNG file.
    /// - Throws: `CodecError` for an empty or oversized image, a level outside 0…9, or a libpng
    ///   failure.
    public static func encode(_ image: RGBAImage, compressionLevel: Int = 9) throws -> [UInt8] {
        guard (0...9).contains(compressionLevel) else {
            throw CodecError("PNG compression level must be 0…9, got \(compressionLevel)")
        }
        return try encode(image, compression: PNGCompression(level: compressionLevel))
    }

    /// Straight-alpha RGBA8 PNG with explicit compression choices (see `PNGCompression`).
    ///
    /// - Parameters:
    ///   - image: at least 1×1 pixels, at most `maximumPixelCount`.
    ///   - compression: zlib level and strategy, row filters.
    /// - Returns: the PNG file; identical input gives identical bytes.
    /// - Throws: `CodecError` for an empty or oversized image, a level outside 0…9, or a libpng
    ///   failure.
    public static func encode(_ image: RGBAImage, compression: PNGCompression) throws -> [UInt8] {
        guard image.width > 0, image.height > 0, image.width * image.height <= maximumPixelCount,
            image.pixels.count == image.width * image.height * 4
        else {
            throw CodecError("cannot write a \(image.width)×\(image.height) PNG")
        }
        return try write(
            width: image.width, height: image.height, rowBytes: image.width * 4, data: image.pixels,
            colorType: Int32(PNG_COLOR_TYPE_RGB_ALPHA), bitDepth: 8, palette: [], compression: compression)
    }

    /// A palette PNG (colour type 3): `indices` row-major, one byte each, packed to 1, 2 or 4
    /// bits per pixel when the palette is that small; `palette` entries as RGBA, alpha written
    /// as a tRNS chunk cut after the last entry that is not opaque (none when all are).
    ///
    /// - Parameters:
    ///   - width: pixels, ≥ 1.
    ///   - height: pixels, ≥ 1; `width·height ≤ maximumPixelCount`.
    ///   - indices: `width·height` entries, each `< palette.count`.
    ///   - palette: 1…256 colours as `(r, g, b, a)`, straight alpha.
    ///   - compression: zlib level and strategy, row filters.
    /// - Returns: the PNG file.
    /// - Throws: `CodecError` for bad sizes, an index past the palette, or a libpng failure.
    public static func encodeIndexed(
        width: Int, height: Int, indices: [UInt8], palette: [PNGPaletteEntry], compression: PNGCompression
    ) throws -> [UInt8] {
        guard width > 0, height > 0, width * height <= maximumPixelCount, indices.count == width * height,
            (1...256).contains(palette.count)
        else {
            throw CodecError("cannot write a \(width)×\(height) palette PNG of \(palette.count) colours")
        }
        if let bad = indices.first(where: { Int($0) >= palette.count }) {
            throw CodecError("palette PNG index \(bad) is past its \(palette.count) colours")
        }
        let depth = palette.count <= 2 ? 1 : palette.count <= 4 ? 2 : palette.count <= 16 ? 4 : 8
        let perByte = 8 / depth
        let rowBytes = (width + perByte - 1) / perByte
        var packed = [UInt8](repeating: 0, count: rowBytes * height)
        for y in 0..<height {
            for x in 0..<width {
                let shift = 8 - depth * (x % perByte + 1)
                packed[y * rowBytes + x / perByte] |= indices[y * width + x] << UInt8(shift)
            }
        }
        return try write(
            width: width, height: height, rowBytes: rowBytes, data: packed,
            colorType: Int32(PNG_COLOR_TYPE_PALETTE), bitDepth: Int32(depth), palette: palette,
            compression: compression)
    }

    private static func write(
        width: Int, height: Int, rowBytes: Int, data: [UInt8], colorType: Int32, bitDepth: Int32,
        palette: [PNGPaletteEntry], compression: PNGCompression
    ) throws -> [UInt8] {
        guard (0...9).contains(compression.level) else {
            throw CodecError("PNG compression level must be 0…9, got \(compression.level)")
        }
        let handle = try PNGWriteHandle()
        let sink = PNGByteSink()
        png_set_write_fn(
            handle.png, Unmanaged.passUnretained(sink).toOpaque(),
            { png, data, length in
                guard let png, let data, let user = png_get_io_ptr(png) else { return }
                let sink = Unmanaged<PNGByteSink>.fromOpaque(user).takeUnretainedValue()
                sink.bytes.append(contentsOf: UnsafeBufferPointer(start: data, count: length))
            },
            { _ in })
        let colors = palette.map { png_color(red: $0.red, green: $0.green, blue: $0.blue) }
        let lastTranslucent = palette.lastIndex { $0.alpha != 255 }.map { $0 + 1 } ?? 0
        let alpha = palette.prefix(lastTranslucent).map(\.alpha)
        // libpng only reads the rows (no transforms are set), so they point into `data` itself:
        // a mutable copy of a 4096² sheet page was 64 MiB of memcpy and page faults per write.
        try data.withUnsafeBufferPointer { buffer in
            guard let start = buffer.baseAddress else { return }
            let base = UnsafeMutablePointer(mutating: start)
            var rows: [UnsafeMutablePointer<UInt8>?] = (0..<height).map { base + $0 * rowBytes }
            guard
                aex_png_write(
                    handle.png, handle.info, png_uint_32(width), png_uint_32(height), colorType, bitDepth,
                    Int32(compression.level), compression.strategy.zlibValue, compression.filters.libpngMask,
                    colors, Int32(colors.count), alpha, Int32(alpha.count), &rows) == 1
            else {
                throw CodecError("libpng write: \(handle.message)")
            }
        }
        return sink.bytes
    }

    /// Any PNG (palette, grey, RGB, with or without alpha or tRNS, 1…16 bits, interlaced or
    /// not) as straight RGBA8. 16-bit samples are scaled with rounding; gamma and colour-space
    /// chunks are ignored, so samples come out as stored.
    ///
    /// 8-bit, non-interlaced files with nothing unusual in them are decoded by
    /// `PNGDirectDecoder` (libdeflate's inflate, three times faster), to the same pixels;
    /// libpng decodes the rest and reports every error.
    ///
    /// - Parameter bytes: a complete PNG file.
    /// - Returns: the image.
    /// - Throws: `CodecError` with libpng's message for data that is not a valid PNG, or for an
    ///   image larger than `maximumPixelCount`.
    public static func decode(_ bytes: [UInt8]) throws -> RGBAImage {
        if let image = PNGDirectDecoder.decode(bytes, maximumPixelCount: maximumPixelCount) { return image }
        return try decodeWithLibpng(bytes)
    }

    /// `decode` through libpng alone: the files `PNGDirectDecoder` declines, and the reference
    /// its tests compare with.
    static func decodeWithLibpng(_ bytes: [UInt8]) throws -> RGBAImage {
        let handle = try PNGReadHandle()
        return try bytes.withUnsafeBufferPointer { input in
            let source = UnsafeMutablePointer<aex_png_source>.allocate(capacity: 1)
            defer { source.deallocate() }
            source.initialize(to: aex_png_source(bytes: input.baseAddress, count: input.count, offset: 0))
            var width: png_uint_32 = 0
            var height: png_uint_32 = 0
            var rowBytes = 0
            guard
                aex_png_read_header_rgba8(
                    handle.png, handle.info, source, &width, &height, &rowBytes) == 1
            else {
                throw CodecError("libpng read: \(handle.message)")
            }
            let w = Int(width)
            let h = Int(height)
            guard w > 0, h > 0, w * h <= maximumPixelCount else {
                throw CodecError("PNG is \(w)×\(h) pixels, more than \(maximumPixelCount)")
            }
            guard rowBytes == w * 4 else {
                throw CodecError("libpng read: rows of \(rowBytes) bytes, expected \(w * 4) for RGBA8")
            }
            // libpng writes every byte of every row (RGBA8, rowBytes = 4·w, checked above), so the
            // buffer is not zeroed first: a pass over 246 kB a frame on circular-progress.
            let pixels = try [UInt8](unsafeUninitializedCapacity: w * h * 4) { buffer, initialized in
                initialized = 0
                guard let base = buffer.baseAddress else { return }
                var rows: [UnsafeMutablePointer<UInt8>?] = (0..<h).map { base + $0 * rowBytes }
                guard aex_png_read_rows(handle.png, &rows) == 1 else {
                    throw CodecError("libpng read: \(handle.message)")
                }
                initialized = w * h * 4
            }
            guard let image = RGBAImage(width: w, height: h, pixels: pixels) else {
                throw CodecError("PNG decode produced a wrong pixel count")
            }
            return image
        }
    }
}

/// Collects the bytes libpng's write callback hands over.
private final class PNGByteSink {
    var bytes: [UInt8] = []
}

/// Owns a libpng write struct, its info struct and the buffer its errors are copied into.
private final class PNGWriteHandle {
    let png: OpaquePointer
    let info: OpaquePointer
    private let messageBuffer: UnsafeMutablePointer<CChar>

    init() throws {
        messageBuffer = .allocate(capacity: Int(AEX_PNG_MESSAGE_SIZE))
        messageBuffer.initialize(repeating: 0, count: Int(AEX_PNG_MESSAGE_SIZE))
        guard let png = aex_png_create_write(messageBuffer) else {
            messageBuffer.deallocate()
            throw PNGCodec.CodecError("libpng png_create_write_struct failed")
        }
        guard let info = png_create_info_struct(png) else {
            var p: OpaquePointer? = png
            png_destroy_write_struct(&p, nil)
            messageBuffer.deallocate()
            throw PNGCodec.CodecError("libpng png_create_info_struct failed")
        }
        self.png = png
        self.info = info
    }

    /// libpng's last error text.
    var message: String { String(cString: messageBuffer) }

    deinit {
        var p: OpaquePointer? = png
        var i: OpaquePointer? = info
        png_destroy_write_struct(&p, &i)
        messageBuffer.deallocate()
    }
}

/// Owns a libpng read struct, its info struct and the buffer its errors are copied into.
private final class PNGReadHandle {
    let png: OpaquePointer
    let info: OpaquePointer
    private let messageBuffer: UnsafeMutablePointer<CChar>

    init() throws {
        messageBuffer = .allocate(capacity: Int(AEX_PNG_MESSAGE_SIZE))
        messageBuffer.initialize(repeating: 0, count: Int(AEX_PNG_MESSAGE_SIZE))
        guard let png = aex_png_create_read(messageBuffer) else {
            messageBuffer.deallocate()
            throw PNGCodec.CodecError("libpng png_create_read_struct failed")
        }
        guard let info = png_create_info_struct(png) else {
            var p: OpaquePointer? = png
            png_destroy_read_struct(&p, nil, nil)
            messageBuffer.deallocate()
            throw PNGCodec.CodecError("libpng png_create_info_struct failed")
        }
        self.png = png
        self.info = info
    }

    /// libpng's last error text.
    var message: String { String(cString: messageBuffer) }

    deinit {
        var p: OpaquePointer? = png
        var i: OpaquePointer? = info
        png_destroy_read_struct(&p, &i, nil)
        messageBuffer.deallocate()
    }
}
