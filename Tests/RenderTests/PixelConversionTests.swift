import Testing

@testable import Render

/// Builds a Cairo-style ARGB32 buffer (native-endian words, premultiplied) with row padding.
private func argb32(_ words: [[UInt32]], stride: Int) -> [UInt8] {
    var bytes = [UInt8](repeating: 0xEE, count: stride * words.count)  // padding is garbage
    for (y, row) in words.enumerated() {
        for (x, word) in row.enumerated() {
            withUnsafeBytes(of: word) { raw in
                for i in 0..<4 { bytes[y * stride + x * 4 + i] = raw[i] }
            }
        }
    }
    return bytes
}

@Test func premultipliedPixelsBecomeStraightAlpha() {
    let words: [[UInt32]] = [
        [0xFF00_7AFF, 0x8040_2010, 0x0000_0000],
        [0x0100_0001, 0x80FF_FFFF, 0xFFFF_FFFF],
    ]
    let bytes = argb32(words, stride: 16)
    let image = bytes.withUnsafeBufferPointer { buffer in
        PixelConversion.straightRGBA(premultipliedARGB32: buffer.baseAddress!, width: 3, height: 2, stride: 16)
    }
    #expect(image.width == 3 && image.height == 2)
    // Opaque: unchanged.
    #expect(image[0, 0] == (0x00, 0x7A, 0xFF, 0xFF))
    // a = 128: c = round(c_p · 255 / 128): 0x40 → 128 (127.5 rounds up), 0x20 → 64, 0x10 → 32.
    #expect(image[1, 0] == (128, 64, 32, 128))
    // Transparent stays all zero.
    #expect(image[2, 0] == (0, 0, 0, 0))
    // a = 1 with c_p = 1 → 255.
    #expect(image[0, 1] == (0, 0, 255, 1))
    // Out-of-range premultiplied values (c_p > a) clamp to 255 instead of wrapping.
    #expect(image[1, 1] == (255, 255, 255, 128))
    #expect(image[2, 1] == (255, 255, 255, 255))
}
