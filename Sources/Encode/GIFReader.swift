// SPDX-License-Identifier: GPL-3.0-or-later

internal import CGif

/// Owns a giflib decoder reading from memory (`DGifOpen` with an input callback) and turns
/// giflib statuses into `EncodeError`s.
final class GIFReader {
    /// The bytes giflib pulls through the input callback.
    private final class Source {
        let bytes: [UInt8]
        var offset = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }
    }

    private let source: Source
    /// The open decoder (header and logical screen descriptor already read).
    let file: UnsafeMutablePointer<GifFileType>

    /// Opens `bytes` and reads the header and logical screen descriptor.
    /// - Throws: `EncodeError` ("giflib DGifOpen: …") when the data is not a GIF.
    init(_ bytes: [UInt8]) throws {
        source = Source(bytes)
        var error: Int32 = 0
        let opened = DGifOpen(
            Unmanaged.passUnretained(source).toOpaque(),
            { gif, buffer, length in
                guard let gif, let user = gif.pointee.UserData, let buffer, length > 0 else {
                    return 0
                }
                let source = Unmanaged<Source>.fromOpaque(user).takeUnretainedValue()
                let count = min(Int(length), source.bytes.count - source.offset)
                source.bytes.withUnsafeBufferPointer { bytes in
                    guard let base = bytes.baseAddress, count > 0 else { return }
                    buffer.update(from: base + source.offset, count: count)
                }
                source.offset += max(count, 0)
                return Int32(max(count, 0))
            }, &error)
        guard let opened else { throw EncodeError.giflib("DGifOpen", code: error) }
        file = opened
    }

    deinit {
        _ = DGifCloseFile(file, nil)
    }

    /// Throws unless `status` is `GIF_OK`.
    func check(_ status: Int32, _ function: String) throws {
        guard status != GIF_OK else { return }
        throw EncodeError.giflib(function, code: file.pointee.Error)
    }
}
