// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Raster

/// An RGBA pixel for building test images.
struct Pixel: Equatable {
    var r: UInt8
    var g: UInt8
    var b: UInt8
    var a: UInt8

    init(_ r: UInt8, _ g: UInt8, _ b: UInt8, _ a: UInt8 = 255) {
        self.r = r
        self.g = g
        self.b = b
        self.a = a
    }

    static let clear = Pixel(0, 0, 0, 0)
}

/// An image whose pixel (x, y) is `pixel(x, y)`.
func makeImage(width: Int, height: Int, _ pixel: (Int, Int) -> Pixel) -> RGBAImage {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(width * height * 4)
    for y in 0..<height {
        for x in 0..<width {
            let p = pixel(x, y)
            bytes += [p.r, p.g, p.b, p.a]
        }
    }
    return RGBAImage(width: width, height: height, pixels: bytes) ?? RGBAImage(width: 0, height: 0)
}

/// The pixel at (x, y).
func pixel(_ image: RGBAImage, _ x: Int, _ y: Int) -> Pixel {
    let p = image[x, y]
    return Pixel(p.r, p.g, p.b, p.a)
}

/// Peak signal-to-noise ratio over the RGB channels of two same-size images, in dB
/// (`10·log10(255² / MSE)`); infinity when they are equal.
func psnr(_ a: RGBAImage, _ b: RGBAImage) -> Double {
    var squared = 0.0
    var count = 0
    for i in stride(from: 0, to: a.pixels.count, by: 4) {
        for c in 0..<3 {
            let d = Double(a.pixels[i + c]) - Double(b.pixels[i + c])
            squared += d * d
            count += 1
        }
    }
    guard squared > 0 else { return .infinity }
    let mse = squared / Double(count)
    return 10 * log10(255 * 255 / mse)
}
