// SPDX-License-Identifier: GPL-3.0-or-later

/// An 8-bit sRGB image with **straight** (not premultiplied) alpha, the one pixel format that
/// everything downstream of the renderer uses: GIF and sprite-sheet encoders, PNG files,
/// goldens and tests.
///
/// Pixels are stored row-major, top row first, 4 bytes per pixel in the order R, G, B, A,
/// with no padding between rows: `pixels.count == width * height * 4`.
public struct RGBAImage: Equatable, Sendable {
    /// Width in pixels, ≥ 0.
    public let width: Int
    /// Height in pixels, ≥ 0.
    public let height: Int
    /// `width * height * 4` bytes: R, G, B, A per pixel, straight alpha.
    public var pixels: [UInt8]

    /// A fully transparent image (every byte 0).
    /// - Parameters:
    ///   - width: pixels, ≥ 0.
    ///   - height: pixels, ≥ 0.
    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        self.pixels = [UInt8](repeating: 0, count: self.width * self.height * 4)
    }

    /// Wraps existing RGBA bytes.
    /// - Returns: `nil` when `pixels.count != width * height * 4` or a size is negative.
    public init?(width: Int, height: Int, pixels: [UInt8]) {
        let (area, overflow1) = width.multipliedReportingOverflow(by: height)
        let (bytes, overflow2) = area.multipliedReportingOverflow(by: 4)
        guard width >= 0, height >= 0, !overflow1, !overflow2, pixels.count == bytes else { return nil }
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// Byte offset of pixel (x, y) in `pixels`; x in 0..<width, y in 0..<height.
    @inlinable
    public func offset(x: Int, y: Int) -> Int { (y * width + x) * 4 }

    /// The pixel at (x, y) as (r, g, b, a), each 0…255, straight alpha.
    /// - Precondition: x in 0..<width, y in 0..<height.
    public subscript(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        let o = offset(x: x, y: y)
        return (pixels[o], pixels[o + 1], pixels[o + 2], pixels[o + 3])
    }
}
