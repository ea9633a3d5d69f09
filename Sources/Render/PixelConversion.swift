// SPDX-License-Identifier: GPL-3.0-or-later

import Raster

/// The one place where Cairo's pixel format becomes `RGBAImage`.
public enum PixelConversion {
    /// Converts Cairo `CAIRO_FORMAT_ARGB32` pixels (premultiplied alpha, one native-endian
    /// 32-bit word per pixel, alpha in the top byte) to straight-alpha RGBA bytes.
    ///
    /// Un-premultiplies with rounding: `c = round(c_p · 255 / a)` for `a > 0`, clamped to 255;
    /// pixels with `a = 0` become (0, 0, 0, 0) (semantics.md §8.5). Rows are read by `stride`, which
    /// may exceed `width · 4`.
    /// - Parameters:
    ///   - premultipliedARGB32: the first byte of the first row.
    ///   - width: pixels per row, ≥ 0.
    ///   - height: rows, ≥ 0.
    ///   - stride: bytes from one row to the next, ≥ `width · 4`.
    public static func straightRGBA(
        premultipliedARGB32 data: UnsafePointer<UInt8>, width: Int, height: Int, stride: Int
    ) -> RGBAImage {
        var image = RGBAImage(width: width, height: height)
        image.pixels.withUnsafeMutableBufferPointer { out in
            let raw = UnsafeRawPointer(data)
            var o = 0
            for y in 0..<height {
                let row = raw + y * stride
                for x in 0..<width {
                    let word = row.loadUnaligned(fromByteOffset: x * 4, as: UInt32.self)
                    let a = word >> 24
                    if a == 0 {
                        out[o] = 0
                        out[o + 1] = 0
                        out[o + 2] = 0
                        out[o + 3] = 0
                    } else if a == 255 {
                        out[o] = UInt8(truncatingIfNeeded: word >> 16)
                        out[o + 1] = UInt8(truncatingIfNeeded: word >> 8)
                        out[o + 2] = UInt8(truncatingIfNeeded: word)
                        out[o + 3] = 255
                    } else {
                        let half = a / 2
                        let r = ((word >> 16) & 0xFF) * 255 + half
                        let g = ((word >> 8) & 0xFF) * 255 + half
                        let b = (word & 0xFF) * 255 + half
                        out[o] = UInt8(min(r / a, 255))
                        out[o + 1] = UInt8(min(g / a, 255))
                        out[o + 2] = UInt8(min(b / a, 255))
                        out[o + 3] = UInt8(a)
                    }
                    o += 4
                }
            }
        }
        return image
    }
}
