// SPDX-License-Identifier: GPL-3.0-or-later

import OutputFiles
public import Raster
import Spec

/// A frame of a PNG sequence that cannot be used: not a PNG, damaged, of another size than the
/// first frame, too large, or unreadable. `path` names the file; exit code 65 (1 when the file
/// cannot be read at all).
public struct FrameFileError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The frame's file, as named on the command line or found in a folder.
    public var path: FilePath
    /// Why, in words that follow the file's name: `is not a PNG file (no PNG signature)`.
    public var message: String
    /// True when the file could not be read (missing, unreadable, a folder): exit code 1.
    public var isReadFailure: Bool
    /// `PATH: MESSAGE`.
    public var description: String { "\(path): \(message)" }

    /// A problem with the frame at `path`.
    public init(path: FilePath, message: String, isReadFailure: Bool = false) {
        self.path = path
        self.message = message
        self.isReadFailure = isReadFailure
    }
}

/// PNG files as the frames of one animation, decoded when an encoder asks for them, a batch at a
/// time, so the memory held is a few frames whatever the number of files.
///
/// Every frame must have the size of the first. Each file's signature and IHDR are checked
/// (`PNGStructure.check(_:headerOnly:)`: at most 4096 × 4096 pixels, so no frame can ask for more
/// memory) before libpng decodes it to straight-alpha RGBA (`PNGCodec.decode`: any colour type and
/// bit depth), checking every chunk's CRC and the zlib stream as it goes. Asking for a range twice reads the files again and gives the same
/// pixels, as `FrameSource` requires.
public struct PNGSequence: FrameSource {
    /// The frames' files in playing order.
    public let paths: [FilePath]
    /// Width of every frame in pixels, 1 … 4096.
    public let width: Int
    /// Height of every frame in pixels, 1 … 4096.
    public let height: Int
    /// `paths.count`.
    public var frameCount: Int { paths.count }
    /// Frames per batch, ≥ 1: `init`'s `batchLimit`, and no more than fit 32 MiB of RGBA.
    public var batchSize: Int { max(1, min(batchLimit, (32 << 20) / max(1, width * height * 4))) }
    /// The most frames a batch may hold.
    public let batchLimit: Int

    /// The largest frame file read, in bytes: a 4096 × 4096 RGBA PNG stored without compression
    /// takes 64 MiB and a little more; anything larger is not a frame this tool can use.
    public static let maximumFileBytes = 80 << 20

    /// The sequence of `paths`; the first file is read and checked for the size.
    /// - Parameters:
    ///   - paths: at least one file.
    ///   - batchLimit: the most frames decoded at once, ≥ 1 (default 8). The APNG and WebP
    ///     encoders take frames one after another, so 1 holds the least memory for them (on
    ///     flipping-square's 244² frames 8 held 1.9 MB more, 420 more page faults); the GIF
    ///     encoder works on a batch's frames in parallel.
    /// - Throws: `FrameFileError` for the first file (unreadable, not a PNG, too large).
    public init(_ paths: [FilePath], batchLimit: Int = 8) throws(FrameFileError) {
        guard let first = paths.first else {
            throw FrameFileError(path: FilePath("."), message: "no frames")
        }
        self.paths = paths
        self.batchLimit = max(1, batchLimit)
        (width, height) = try Self.checkedBytes(first).size
    }

    /// The frames `range`, decoded from their files.
    /// - Throws: `FrameFileError` naming the first file that cannot be read or decoded, or whose
    ///   size is not the first frame's; `FrameSourceError` for a range outside the sequence.
    public func frames(_ range: Range<Int>) throws -> [RGBAImage] {
        guard range.lowerBound >= 0, range.upperBound <= paths.count else {
            throw FrameSourceError("frames \(range) asked of a sequence of \(paths.count)")
        }
        return try range.map { index throws(FrameFileError) -> RGBAImage in
            let path = paths[index]
            let (bytes, size) = try Self.checkedBytes(path)
            guard size == (width, height) else {
                throw FrameFileError(
                    path: path,
                    message:
                        "is \(size.width)×\(size.height) px; every frame must be the size of the first, \(width)×\(height) px (\(paths[0]))"
                )
            }
            do {
                return try PNGCodec.decode(bytes)
            } catch {
                throw FrameFileError(path: path, message: "cannot be decoded: \(error)")
            }
        }
    }

    /// The file's bytes and its IHDR size after the structure check.
    private static func checkedBytes(_ path: FilePath) throws(FrameFileError) -> (
        bytes: [UInt8], size: (width: Int, height: Int)
    ) {
        let bytes: [UInt8]
        do {
            bytes = try path.read(limit: maximumFileBytes)
        } catch {
            throw FrameFileError(path: path, message: "cannot be read: \(error.reason)", isReadFailure: true)
        }
        do {
            return (bytes, try PNGStructure.check(bytes, headerOnly: true, subject: "a frame"))
        } catch {
            throw FrameFileError(path: path, message: error.message)
        }
    }
}
