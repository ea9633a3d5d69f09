// SPDX-License-Identifier: GPL-3.0-or-later

internal import CCrypto
import Export
import OutputFiles

#if canImport(Glibc)
    import Glibc
#endif

/// SHA-256 (FIPS 180-4) and HMAC-SHA-256 (RFC 2104) through OpenSSL's libcrypto, for the
/// manifest of incremental runs (`Manifest`). Digests are 32 bytes, shown as 64 lowercase hex
/// digits.
enum Digest {
    /// Why a digest could not be made: libcrypto failed (out of memory) or a file could not be read.
    struct Failure: Error, Equatable {
        var reason: String
    }

    /// The SHA-256 of `bytes`.
    static func sha256(_ bytes: [UInt8]) throws(Failure) -> [UInt8] {
        guard let context = aex_sha256_new() else { throw Failure(reason: "SHA-256: out of memory") }
        defer { aex_sha256_free(context) }
        let updated = bytes.withUnsafeBytes { aex_sha256_update(context, $0.baseAddress, $0.count) }
        var out = [UInt8](repeating: 0, count: 32)
        guard updated == 1, aex_sha256_final(context, &out) == 1 else { throw Failure(reason: "SHA-256 failed") }
        return out
    }

    /// The SHA-256 of the file at `path`, read in 1 MiB pieces (memory does not grow with the
    /// file), and its size in bytes.
    /// - Throws: `Failure` with the system's reason when the file cannot be opened or read.
    static func sha256(file path: FilePath) throws(Failure) -> (digest: [UInt8], size: Int) {
        let fd = path.withCString { open($0, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else { throw Failure(reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        guard let context = aex_sha256_new() else { throw Failure(reason: "SHA-256: out of memory") }
        defer { aex_sha256_free(context) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var size = 0
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw Failure(reason: String(cString: strerror(errno)))
            }
            if n == 0 { break }
            size += n
            let updated = buffer.withUnsafeBytes { aex_sha256_update(context, $0.baseAddress, n) }
            guard updated == 1 else { throw Failure(reason: "SHA-256 failed") }
        }
        var out = [UInt8](repeating: 0, count: 32)
        guard aex_sha256_final(context, &out) == 1 else { throw Failure(reason: "SHA-256 failed") }
        return (out, size)
    }

    /// HMAC-SHA-256 of `message` under `key` (any length; RFC 2104 hashes keys longer than 64 bytes).
    static func hmacSHA256(key: [UInt8], _ message: [UInt8]) throws(Failure) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        let ok = key.withUnsafeBytes { k in
            message.withUnsafeBufferPointer { m in
                aex_hmac_sha256(k.baseAddress, Int32(clamping: k.count), m.baseAddress, m.count, &out)
            }
        }
        guard ok == 1 else { throw Failure(reason: "HMAC-SHA-256 failed") }
        return out
    }

    /// `count` bytes from OpenSSL's cryptographically secure generator.
    static func randomBytes(_ count: Int) throws(Failure) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        guard aex_random_bytes(&out, Int32(clamping: count)) == 1 else {
            throw Failure(reason: "no random bytes from libcrypto")
        }
        return out
    }

    /// `bytes` as lowercase hex digits, two per byte.
    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for b in bytes {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
