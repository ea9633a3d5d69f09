// SPDX-License-Identifier: GPL-3.0-or-later

public import Raster
import Render

/// A frame kept in `RenderedFrames`' cache, run-length packed: rendered frames are mostly runs
/// of one pixel (transparent background, flat fills), so a loop packs to a few per cent of its
/// RGBA size and is unpacked far faster than it renders (numbers in docs/encoding.md, "Batch
/// throughput").
///
/// The packed form is a list of 32-bit words, each pixel being its 4 RGBA bytes read as one
/// native-endian `UInt32`: a header word `n` (1 ≤ n < 2³¹) followed by `n` literal pixels, or a
/// header `0x8000_0000 | n` followed by one pixel repeated `n` times. Runs shorter than
/// `minimumRun` are stored as literals. When packing would not be smaller than the RGBA bytes
/// the frame is kept as it is. Unpacking gives back exactly the pixels packed.
public struct PackedFrame: Sendable, Equatable {
    /// Frame width in pixels, ≥ 0.
    public let width: Int
    /// Frame height in pixels, ≥ 0.
    public let height: Int
    private let storage: Storage

    private enum Storage: Sendable, Equatable {
        case raw([UInt8])
        case runs([UInt32])
    }

    /// Equal pixels from which a run is stored as one (shorter runs are literals): 3.
    public static let minimumRun = 3

    /// Packs `image`.
    public init(_ image: RGBAImage) {
        width = image.width
        height = image.height
        let words = Self.pack(image.pixels)
        storage = words.count * 4 < image.pixels.count ? .runs(words) : .raw(image.pixels)
    }

    /// Bytes the packed frame holds (its words, or the RGBA bytes when kept as they are).
    public var byteCount: Int {
        switch storage {
        case .raw(let bytes): bytes.count
        case .runs(let words): words.count * 4
        }
    }

    /// Whether the frame is stored as runs (false: kept as RGBA bytes).
    public var isPacked: Bool {
        if case .runs = storage { return true }
        return false
    }

    /// The frame's pixels, byte for byte those packed.
    public func unpacked() -> RGBAImage {
        switch storage {
        case .raw(let bytes):
            return RGBAImage(width: width, height: height, pixels: bytes) ?? RGBAImage(width: width, height: height)
        case .runs(let words):
            let count = width * height * 4
            let pixels = [UInt8](unsafeUninitializedCapacity: count) { out, initialized in
                words.withUnsafeBufferPointer { w in
                    guard let target = UnsafeMutableRawPointer(out.baseAddress), let source = w.baseAddress else {
                        return
                    }
                    var k = 0
                    var at = 0
                    while k < w.count {
                        let header = w[k]
                        let n = Int(header & 0x7FFF_FFFF)
                        if header & 0x8000_0000 != 0 {
                            let pixel = w[k + 1]
                            if pixel == 0 {
                                (target + at).initializeMemory(as: UInt8.self, repeating: 0, count: n * 4)
                            } else {
                                for p in 0..<n { (target + at + 4 * p).storeBytes(of: pixel, as: UInt32.self) }
                            }
                            k += 2
                        } else {
                            (target + at).copyMemory(from: source + k + 1, byteCount: n * 4)
                            k += 1 + n
                        }
                        at += 4 * n
                    }
                    initialized = at
                }
            }
            return RGBAImage(width: width, height: height, pixels: pixels) ?? RGBAImage(width: width, height: height)
        }
    }

    /// The run-length words of `bytes` (`count` a multiple of 4).
    static func pack(_ bytes: [UInt8]) -> [UInt32] {
        let n = bytes.count / 4
        var words: [UInt32] = []
        bytes.withUnsafeBytes { raw in
            func pixel(_ i: Int) -> UInt32 { raw.loadUnaligned(fromByteOffset: 4 * i, as: UInt32.self) }
            var i = 0
            var literalStart = 0
            func flushLiterals(upTo end: Int) {
                guard end > literalStart else { return }
                words.append(UInt32(end - literalStart))
                for j in literalStart..<end { words.append(pixel(j)) }
            }
            while i < n {
                let p = pixel(i)
                var j = i + 1
                while j < n, pixel(j) == p { j += 1 }
                if j - i >= minimumRun {
                    flushLiterals(upTo: i)
                    words.append(0x8000_0000 | UInt32(j - i))
                    words.append(p)
                    literalStart = j
                }
                i = j
            }
            flushLiterals(upTo: n)
        }
        return words
    }
}
