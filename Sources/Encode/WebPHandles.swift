// SPDX-License-Identifier: GPL-3.0-or-later

internal import CWebP

/// Owns a `WebPAnimEncoder` and deletes it in `deinit`.
final class WebPAnimEncoderHandle {
    /// The encoder; valid for the life of this object.
    let pointer: OpaquePointer

    /// A new encoder for a `width × height` canvas.
    /// - Throws: `EncodeError` when libwebp refuses (ABI mismatch, bad size, no memory).
    init(width: Int32, height: Int32, options: inout WebPAnimEncoderOptions) throws(EncodeError) {
        guard let pointer = aex_webp_anim_encoder_new(width, height, &options) else {
            throw EncodeError("libwebp WebPAnimEncoderNew (\(width)×\(height)): failed (out of memory?)")
        }
        self.pointer = pointer
    }

    deinit { WebPAnimEncoderDelete(pointer) }

    /// The encoder's text for its last failure, or "no message".
    var lastError: String {
        guard let text = WebPAnimEncoderGetError(pointer) else { return "no message" }
        let message = String(cString: text)
        return message.isEmpty ? "no message" : message
    }
}

/// Owns a `WebPPicture` holding one frame in libwebp's ARGB layout, freed in `deinit`.
final class WebPPictureHandle {
    /// The picture; `argb` is allocated by libwebp.
    var picture = WebPPicture()

    /// Imports straight-alpha RGBA `pixels` (`width × height × 4` bytes, no row padding).
    /// Straight RGBA to ARGB is a reordering of bytes, so nothing is lost.
    /// - Throws: `EncodeError` when libwebp cannot initialise or allocate the picture.
    init(rgba pixels: [UInt8], width: Int32, height: Int32, frame: Int) throws(EncodeError) {
        guard aex_webp_picture_init(&picture) != 0 else {
            throw EncodeError("libwebp WebPPictureInit: ABI mismatch")
        }
        picture.use_argb = 1
        picture.width = width
        picture.height = height
        let imported = pixels.withUnsafeBufferPointer { buffer in
            WebPPictureImportRGBA(&picture, buffer.baseAddress, width * 4)
        }
        guard imported != 0 else {
            throw EncodeError(
                "libwebp WebPPictureImportRGBA (frame \(frame)): \(WebPEncoder.describe(picture.error_code))")
        }
    }

    deinit { WebPPictureFree(&picture) }
}

/// Owns the `WebPData` that `WebPAnimEncoderAssemble` fills, cleared in `deinit`.
final class WebPDataHandle {
    /// The bytes; empty until assembled.
    var data = WebPData()

    init() { aex_webp_data_init(&data) }

    deinit { aex_webp_data_clear(&data) }

    /// A copy of the bytes.
    var bytes: [UInt8] {
        guard let base = data.bytes, data.size > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: base, count: data.size))
    }
}
