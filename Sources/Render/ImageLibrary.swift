// SPDX-License-Identifier: GPL-3.0-or-later

internal import CCairo
import Foundation
import Raster
import Spec

/// PNG files for image layers, decoded once into Cairo surfaces and kept for the life of the
/// process; safe to use from several threads.
final class ImageLibrary: @unchecked Sendable {
    static let shared = ImageLibrary()
    private let lock = NSLock()
    private var surfaces: [[UInt8]: ImageSurface] = [:]

    /// The image at `path` (bytes; `name` is how messages show it) as a premultiplied ARGB32
    /// surface.
    /// - Throws: `RenderError` when the file cannot be read or decoded.
    func surface(_ path: [UInt8], name: String) throws(RenderError) -> ImageSurface {
        lock.lock()
        defer { lock.unlock() }
        if let cached = surfaces[path] { return cached }
        guard let data = ByteFile.read(path) else {
            throw RenderError("read image \(name): cannot open the file")
        }
        let image: RGBAImage
        do {
            image = try PNGCodec.decode(data)
        } catch {
            throw RenderError("read image \(name): \(error)")
        }
        let surface = try ImageSurface(image)
        surfaces[path] = surface
        return surface
    }
}

/// An owned Cairo image surface holding a decoded PNG.
final class ImageSurface: @unchecked Sendable {
    let surface: OpaquePointer
    let width: Int
    let height: Int

    /// Copies straight-alpha RGBA into a new premultiplied ARGB32 surface.
    init(_ image: RGBAImage) throws(RenderError) {
        guard image.width > 0, image.height > 0, let w = Int32(exactly: image.width),
            let h = Int32(exactly: image.height),
            let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w, h),
            cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS
        else {
            throw RenderError("create \(image.width)×\(image.height) image surface: out of memory")
        }
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        if let data = cairo_image_surface_get_data(surface) {
            let raw = UnsafeMutableRawPointer(data)
            for y in 0..<image.height {
                for x in 0..<image.width {
                    let p = image[x, y]
                    let a = UInt32(p.a)
                    let premultiply = { (c: UInt8) in (UInt32(c) * a + 127) / 255 }
                    let word = a << 24 | premultiply(p.r) << 16 | premultiply(p.g) << 8 | premultiply(p.b)
                    raw.storeBytes(of: word, toByteOffset: y * stride + x * 4, as: UInt32.self)
                }
            }
        }
        cairo_surface_mark_dirty(surface)
        self.surface = surface
        self.width = image.width
        self.height = image.height
    }

    deinit { cairo_surface_destroy(surface) }
}
