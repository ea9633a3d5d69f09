// SPDX-License-Identifier: GPL-3.0-or-later

import CDeflate

// Helpers shared by the deflate tests (DeflateRecoderTests, DeflateParserTests).

/// zlib's own inflater (`uncompress`), independent of the recoder: the bytes `stream` holds,
/// or nil when zlib rejects it or it does not hold exactly `size` bytes.
func zlibInflate(_ stream: [UInt8], size: Int) -> [UInt8]? {
    var output = [UInt8](repeating: 0, count: max(1, size + 1))
    var length = UInt(output.count)
    let result = stream.withUnsafeBufferPointer { input in
        output.withUnsafeMutableBufferPointer { out in
            uncompress(out.baseAddress, &length, input.baseAddress, UInt(input.count))
        }
    }
    guard result == Z_OK, Int(length) == size else { return nil }
    return Array(output[0..<size])
}

/// A zlib stream (RFC 1950: CMF 0x78, FLG 0x01, Adler-32 from zlib) around raw deflate data.
func zlibWrapped(_ deflate: [UInt8], holding bytes: [UInt8]) -> [UInt8] {
    let adler = bytes.withUnsafeBufferPointer { adler32(1, $0.baseAddress, UInt32($0.count)) }
    return [0x78, 0x01] + deflate + [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: adler >> UInt($0)) }
}

/// A fixed pseudo-random sequence (64-bit LCG, high bits), so the tests are repeatable.
struct Sequence64 {
    var state: UInt64
    mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state >> 33
    }
}

/// The bytes of tokens (literal < 256, else length << 16 | distance), expanded by the test itself.
func expanded(_ tokens: [UInt32]) -> [UInt8] {
    var out: [UInt8] = []
    for t in tokens {
        if t < 256 {
            out.append(UInt8(t))
        } else {
            for _ in 0..<Int(t >> 16) { out.append(out[out.count - Int(t & 0xFFFF)]) }
        }
    }
    return out
}

/// RGBA rows (filter byte 0) of a translucent-edged disc on transparency, like the presets'.
func discRows(side: Int, phase: Int) -> [UInt8] {
    var rows: [UInt8] = []
    for y in 0..<side {
        rows.append(0)
        for x in 0..<side {
            let dx = Double(x) - Double(side) / 2 + Double(phase % 5)
            let dy = Double(y) - Double(side) / 2
            let coverage = min(1, max(0, Double(side) / 3 - (dx * dx + dy * dy).squareRoot()))
            let alpha = UInt8((255 * coverage).rounded())
            rows += alpha == 0 ? [0, 0, 0, 0] : [30, UInt8(100 + phase), 220, alpha]
        }
    }
    return rows
}

/// The deflate tests' sample inputs by name: "empty", "one byte", "runs of 258", "random"
/// (5 000 bytes), "random 70 000", "low entropy", "disc rows", "long disc", "far repeats".
func deflateSample(_ name: String) -> [UInt8] {
    var random = Sequence64(state: 22)
    switch name {
    case "empty": return []
    case "one byte": return [0xA5]
    case "runs of 258": return [UInt8](repeating: 0, count: 258 * 40 + 7) + [1] + [UInt8](repeating: 9, count: 1000)
    case "random": return (0..<5000).map { _ in UInt8(truncatingIfNeeded: random.next()) }
    // Incompressible data longer than one stored block holds (65 535 bytes).
    case "random 70 000": return (0..<70_000).map { _ in UInt8(truncatingIfNeeded: random.next()) }
    case "low entropy": return (0..<40_000).map { _ in UInt8(random.next() % 7) }
    case "disc rows": return discRows(side: 48, phase: 3)
    case "long disc": return (0..<6).flatMap { discRows(side: 64, phase: $0) }
    case "far repeats":
        // 4 000 random bytes of 16 values, noise, the same 4 000 again 20 000 bytes on, then
        // noise with some of the bytes flipped, past the 32 KiB window.
        let block = (0..<4000).map { _ in UInt8(random.next() % 16) }
        let noise = (0..<16_000).map { _ in UInt8(random.next() % 16) }
        var tail = block
        for i in stride(from: 0, to: tail.count, by: 97) { tail[i] ^= 1 }
        return block + noise + block + tail + noise.prefix(20_000)
    default: preconditionFailure("no deflate sample named \(name)")
    }
}
