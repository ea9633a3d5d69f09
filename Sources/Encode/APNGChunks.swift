// SPDX-License-Identifier: GPL-3.0-or-later

internal import CDeflate
internal import CZopfli

/// PNG chunk writing and frame compression for `APNGEncoder` (PNG specification §5.3 chunk layout:
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

    /// `raw` (filtered scanlines) as a zlib stream (RFC 1950) compressed by libdeflate at
    /// `level` (0…12; 12 its slowest and smallest).
    /// - Throws: `EncodeError` when libdeflate refuses the level or runs out of memory.
    static func deflate(_ raw: [UInt8], level: Int) throws(EncodeError) -> [UInt8] {
        let capacity = aex_deflate_zlib_bound(raw.count)
        var written = 0
        let stream = [UInt8](unsafeUninitializedCapacity: capacity) { out, initialized in
            written = raw.withUnsafeBufferPointer { input in
                aex_deflate_zlib(Int32(clamping: level), input.baseAddress, input.count, out.baseAddress, capacity)
            }
            initialized = written
        }
        guard written > 0 else {
            throw EncodeError("libdeflate could not compress \(raw.count) bytes at level \(level)")
        }
        return stream
    }

    /// `raw` as a zlib stream from zlib's own deflate at level 9, with `Z_FILTERED` when
    /// `filtered`, else the default strategy.
    /// - Throws: `EncodeError` when zlib fails.
    static func zlib(_ raw: [UInt8], filtered: Bool) throws(EncodeError) -> [UInt8] {
        let capacity = aex_deflate_zlib_bound(raw.count)
        var written = 0
        let stream = [UInt8](unsafeUninitializedCapacity: capacity) { out, initialized in
            written = raw.withUnsafeBufferPointer { input in
                aex_zlib_compress(
                    9, filtered ? Z_FILTERED : Z_DEFAULT_STRATEGY, input.baseAddress, input.count, out.baseAddress,
                    capacity)
            }
            initialized = written
        }
        guard written > 0 else { throw EncodeError("zlib could not compress \(raw.count) bytes") }
        return stream
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
