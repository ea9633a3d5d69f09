// SPDX-License-Identifier: GPL-3.0-or-later

internal import CCairo
import Raster

/// An owned Cairo ARGB32 image surface and a drawing context on it. Both are released in
/// `deinit`. Used by one thread at a time (each frame gets its own canvas).
final class CairoCanvas {
    let surface: OpaquePointer
    let context: OpaquePointer
    let width: Int
    let height: Int

    /// Creates a transparent `width × height` pixel surface.
    /// - Throws: `RenderError` naming the size and Cairo's status (e.g. out of memory).
    init(width: Int, height: Int) throws(RenderError) {
        guard width > 0, height > 0, width <= 32767, height <= 32767 else {
            throw RenderError("create \(width)×\(height) surface: size must be 1…32767 pixels")
        }
        // The guard above keeps both sides within Int32.
        guard let w = Int32(exactly: width), let h = Int32(exactly: height),
            let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w, h)
        else {
            throw RenderError("create \(width)×\(height) surface: Cairo returned no surface")
        }
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            throw RenderError("create \(width)×\(height) surface: \(Self.describe(status))")
        }
        guard let context = cairo_create(surface) else {
            cairo_surface_destroy(surface)
            throw RenderError("create drawing context: Cairo returned none")
        }
        let contextStatus = cairo_status(context)
        guard contextStatus == CAIRO_STATUS_SUCCESS else {
            cairo_destroy(context)
            cairo_surface_destroy(surface)
            throw RenderError("create drawing context: \(Self.describe(contextStatus))")
        }
        self.surface = surface
        self.context = context
        self.width = width
        self.height = height
    }

    deinit {
        cairo_destroy(context)
        cairo_surface_destroy(surface)
    }

    /// Throws when the context has entered an error state (Cairo errors are sticky).
    func check(_ step: String) throws(RenderError) {
        let status = cairo_status(context)
        guard status == CAIRO_STATUS_SUCCESS else {
            throw RenderError("\(step): \(Self.describe(status))")
        }
    }

    /// The finished pixels as straight-alpha RGBA.
    func image() throws(RenderError) -> RGBAImage {
        cairo_surface_flush(surface)
        guard let data = cairo_image_surface_get_data(surface) else {
            throw RenderError("read \(width)×\(height) surface: no pixel data")
        }
        let stride = Int(cairo_image_surface_get_stride(surface))
        return PixelConversion.straightRGBA(
            premultipliedARGB32: UnsafePointer(data), width: width, height: height, stride: stride)
    }

    static func describe(_ status: cairo_status_t) -> String {
        guard let text = cairo_status_to_string(status) else { return "Cairo status \(status.rawValue)" }
        return String(cString: text)
    }
}
