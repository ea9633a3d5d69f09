// SPDX-License-Identifier: GPL-3.0-or-later

/// What the decoder checks of an image layer's PNG before accepting the preset, without
/// decoding it: the signature, the IHDR size, every chunk's length and CRC, an IDAT and the
/// closing IEND (PNG specification, https://www.w3.org/TR/png/ §5.2–5.6 and §11.2). A file that
/// passes can still hold broken zlib data inside valid chunks; the renderer reports that.
///
/// Cost: one pass over the file's bytes (the CRC), no allocation beyond the result.
public enum PNGStructure {
    /// Most pixels (`width × height`) an image layer may have: 4096 × 4096 = 16 777 216, decoded
    /// to 64 MiB of RGBA plus the same again as the renderer's Cairo surface. The largest
    /// canvas is 4096 × 4096 points, so a larger image can only be drawn scaled down.
    public static let maximumPixelCount = 4096 * 4096

    /// Why a file is not a usable PNG, in words that follow the file's name: `is truncated…`.
    public struct Problem: Error, Equatable, Sendable, CustomStringConvertible {
        /// The reason, without a final full stop.
        public var message: String
        /// The message.
        public var description: String { message }
    }

    /// The image's width and height in pixels, after checking the whole file's structure.
    /// - Parameters:
    ///   - bytes: the complete file.
    ///   - headerOnly: stop after the IHDR chunk (signature, IHDR length, CRC and size), for a
    ///     reader that hands the file to libpng next, which checks every later chunk's CRC and
    ///     the zlib stream itself (`animexport assemble`'s frames).
    ///   - subject: what the size limit is for, in the message (`an image layer`, `a frame`).
    /// - Throws: `Problem` for a file that is not a PNG, a size of 0 or above
    ///   `maximumPixelCount`, a chunk cut short or failing its CRC, no IDAT, or no IEND.
    public static func check(_ bytes: [UInt8], headerOnly: Bool = false, subject: String = "an image layer")
        throws(Problem) -> (width: Int, height: Int)
    {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard bytes.count >= 8, Array(bytes[0..<8]) == signature else {
            throw Problem(message: "is not a PNG file (no PNG signature)")
        }
        func word(_ i: Int) -> Int { bytes[i..<(i + 4)].reduce(0) { $0 << 8 | Int($1) } }
        var offset = 8
        var size: (width: Int, height: Int)?
        var sawData = false
        while offset < bytes.count {
            guard bytes.count - offset >= 8 else {
                throw Problem(message: "is truncated: \(bytes.count - offset) stray bytes after the last chunk")
            }
            let length = word(offset)
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            // §5.3: lengths are at most 2^31 − 1.
            guard length <= 0x7FFF_FFFF, bytes.count - offset - 12 >= length else {
                throw Problem(
                    message:
                        "is truncated: chunk \(type) at byte \(offset) needs \(length + 12) bytes, the file has \(bytes.count - offset) left"
                )
            }
            let dataEnd = offset + 8 + length
            let stored = UInt32(word(dataEnd))
            guard crc32(bytes, from: offset + 4, to: dataEnd) == stored else {
                throw Problem(message: "is damaged: chunk \(type) at byte \(offset) fails its CRC check")
            }
            if size == nil {
                guard type == "IHDR", length == 13 else {
                    throw Problem(message: "is not a valid PNG: the first chunk is \(type), not a 13-byte IHDR")
                }
                let width = word(offset + 8)
                let height = word(offset + 12)
                guard width > 0, height > 0 else {
                    throw Problem(
                        message: "is \(width)×\(height) pixels; a PNG must be at least 1×1 (PNG §11.2.2)")
                }
                // Each side is below 2^32, so the product can pass Int.max (2^63 − 1): a fuzzed
                // IHDR of 3 036 064 796 × 3 804 820 473 trapped here.
                let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
                guard !overflow, pixels <= maximumPixelCount else {
                    let count = overflow ? "" : " = \(pixels)"
                    throw Problem(
                        message:
                            "is \(width)×\(height)\(count) pixels, more than the limit of \(maximumPixelCount) (4096×4096) for \(subject)"
                    )
                }
                size = (width, height)
                if headerOnly { return (width, height) }
            }
            if type == "IDAT" { sawData = true }
            offset = dataEnd + 4
            if type == "IEND" {
                guard sawData else { throw Problem(message: "has no image data (no IDAT chunk before IEND)") }
                guard let size else { break }
                return size
            }
        }
        guard size != nil else { throw Problem(message: "is truncated: it ends before its IHDR header chunk") }
        throw Problem(
            message: sawData ? "is truncated: it ends without an IEND chunk" : "has no image data (header only)")
    }

    /// CRC-32 (ISO 3309, polynomial 0xEDB88320 reflected, PNG §5.5) of `bytes[from..<to]`.
    static func crc32(_ bytes: [UInt8], from: Int, to: Int) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for i in from..<to {
            crc = crcTable[Int((crc ^ UInt32(bytes[i])) & 0xFF)] ^ (crc >> 8)
        }
        return crc ^ 0xFFFF_FFFF
    }

    private static let crcTable: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }
}
