// SPDX-License-Identifier: GPL-3.0-or-later

internal import CZopfli

/// PNG chunk writing and reading for `APNGEncoder` (PNG specification §5.3 chunk layout:
/// 4-byte big-endian length, 4-byte type, data, CRC-32 over type and data).
enum PNGChunks {
    /// The 8-byte PNG signature (PNG specification §5.2).
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    /// Longest chunk data written: PNG limits lengths to 2³¹ − 1 (§5.3); longer data is split.
    static let maximumChunkLength = 1 << 30

    /// CRC-32 of PNG specification Annex D (polynomial 0xEDB88320, reflected), table-driven.
    static let crcTable: [UInt32] = (0..<256).map { n -> UInt32 in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    /// Appends one chunk of type `type` (four ASCII letters) with `data` to `out`.
    static func append(_ type: String, _ data: [UInt8], to out: inout [UInt8]) {
        let typeBytes = Array(type.utf8)
        appendUInt32(UInt32(data.count), to: &out)
        out.append(contentsOf: typeBytes)
        out.append(contentsOf: data)
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in typeBytes { crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        data.withUnsafeBufferPointer { bytes in
            for byte in bytes { crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        }
        appendUInt32(crc ^ 0xFFFF_FFFF, to: &out)
    }

    /// Appends `value` as 4 big-endian bytes (PNG's integer layout, §7.1).
    static func appendUInt32(_ value: UInt32, to out: inout [UInt8]) {
        out.append(UInt8(truncatingIfNeeded: value >> 24))
        out.append(UInt8(truncatingIfNeeded: value >> 16))
        out.append(UInt8(truncatingIfNeeded: value >> 8))
        out.append(UInt8(truncatingIfNeeded: value))
    }

    /// Appends `value` as 2 big-endian bytes.
    static func appendUInt16(_ value: UInt16, to out: inout [UInt8]) {
        out.append(UInt8(truncatingIfNeeded: value >> 8))
        out.append(UInt8(truncatingIfNeeded: value))
    }

    /// The parts of a single-image PNG that the APNG is assembled from.
    struct Parts {
        /// `IHDR` data (13 bytes).
        var header: [UInt8] = []
        /// `PLTE` data, empty when absent.
        var palette: [UInt8] = []
        /// `tRNS` data, empty when absent.
        var transparency: [UInt8] = []
        /// Every `IDAT`'s data in order: one zlib stream (§10).
        var imageData: [UInt8] = []
    }

    /// Splits a PNG that libpng wrote into its chunks.
    /// - Throws: `EncodeError` when the bytes are not a well-formed PNG.
    static func parts(of png: [UInt8]) throws(EncodeError) -> Parts {
        guard png.count >= 8, Array(png[0..<8]) == signature else { throw EncodeError("libpng wrote no PNG signature") }
        var parts = Parts()
        var offset = 8
        while offset + 12 <= png.count {
            let length =
                Int(png[offset]) << 24 | Int(png[offset + 1]) << 16 | Int(png[offset + 2]) << 8 | Int(png[offset + 3])
            let dataStart = offset + 8
            guard length <= png.count - dataStart - 4 else { throw EncodeError("libpng wrote a truncated chunk") }
            let type = String(decoding: png[(offset + 4)..<dataStart], as: UTF8.self)
            let data = png[dataStart..<(dataStart + length)]
            switch type {
            case "IHDR": parts.header = Array(data)
            case "PLTE": parts.palette = Array(data)
            case "tRNS": parts.transparency = Array(data)
            case "IDAT": parts.imageData.append(contentsOf: data)
            case "IEND": return parts
            default: break
            }
            offset = dataStart + length + 4
        }
        throw EncodeError("libpng wrote no IEND chunk")
    }

    /// The uncompressed bytes of a zlib stream made only of stored deflate blocks (zlib level
    /// 0; RFC 1950 header and Adler-32 trailer, RFC 1951 §3.2.4 stored blocks), which are the
    /// filtered scanlines libpng produced.
    /// - Throws: `EncodeError` when the stream holds anything but stored blocks.
    static func storedPayload(_ stream: [UInt8]) throws(EncodeError) -> [UInt8] {
        // CMF: method 8 (deflate); FLG bit 5 (FDICT) clear.
        guard stream.count >= 6, stream[0] & 0x0F == 8, stream[1] & 0x20 == 0 else {
            throw EncodeError("not a zlib stream")
        }
        var out: [UInt8] = []
        out.reserveCapacity(stream.count)
        var p = 2
        while true {
            guard p + 5 <= stream.count else { throw EncodeError("truncated stored deflate block") }
            let header = stream[p]
            // BTYPE 00 = stored; a stored block's header fills its byte (the rest is padding).
            guard (header >> 1) & 3 == 0 else { throw EncodeError("zlib level 0 wrote a compressed block") }
            let length = Int(stream[p + 1]) | Int(stream[p + 2]) << 8
            let complement = Int(stream[p + 3]) | Int(stream[p + 4]) << 8
            guard length ^ complement == 0xFFFF, p + 5 + length <= stream.count else {
                throw EncodeError("bad stored deflate block")
            }
            out.append(contentsOf: stream[(p + 5)..<(p + 5 + length)])
            p += 5 + length
            if header & 1 == 1 { return out }
        }
    }

    /// `raw` as a zlib stream compressed by Zopfli with `iterations` iterations.
    /// - Throws: `EncodeError` when Zopfli returns nothing.
    static func zopfli(_ raw: [UInt8], iterations: Int) throws(EncodeError) -> [UInt8] {
        var output: UnsafeMutablePointer<UInt8>? = nil
        var size = 0
        raw.withUnsafeBufferPointer { input in
            aex_zopfli_zlib(input.baseAddress, input.count, Int32(clamping: max(1, iterations)), &output, &size)
        }
        guard let output, size > 0 else { throw EncodeError("Zopfli compressed \(raw.count) bytes into nothing") }
        defer { aex_zopfli_free(output) }
        return Array(UnsafeBufferPointer(start: output, count: size))
    }
}
