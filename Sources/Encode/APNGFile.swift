// SPDX-License-Identifier: GPL-3.0-or-later

internal import CDeflate

/// One written frame: its `fcTL` fields and its data, one zlib stream (APNG specification,
/// `fcTL`, `fdAT`).
struct APNGWrittenFrame: Sendable {
    var rect: APNGRect
    var delay: APNGDelay
    var dispose: APNGDispose
    var blend: APNGBlend
    var stream: [UInt8]
}

/// An APNG as `APNGWriter` wrote it, before its frames are numbered and serialized: the chunks
/// before the first `fcTL` (signature, `IHDR`, `acTL`, `PLTE`, `tRNS`) and the frames. Kept in
/// this form so the encoder can compare the colour modes' files by size and then compress only
/// the one it keeps harder (`refine`), instead of every mode's.
struct APNGFile: Sendable {
    /// The PNG signature and every chunk before frame 0's `fcTL`.
    var head: [UInt8]
    var frames: [APNGWrittenFrame]

    /// Bytes per chunk around its data: length, type, CRC (PNG specification §5.3).
    private static let chunkOverhead = 12
    /// `fcTL` data bytes (APNG specification, `fcTL`).
    private static let controlBytes = 26

    /// The length of `bytes()`.
    var byteCount: Int {
        var count = head.count + Self.chunkOverhead  // IEND
        for (k, frame) in frames.enumerated() {
            count += Self.chunkOverhead + Self.controlBytes
            let chunks = max(1, (frame.stream.count + PNGChunks.maximumChunkLength - 1) / PNGChunks.maximumChunkLength)
            // fdAT data starts with its sequence number.
            count += frame.stream.count + chunks * (Self.chunkOverhead + (k == 0 ? 0 : 4))
        }
        return count
    }

    /// The file: `head`, then per frame `fcTL` and its data (`IDAT` for frame 0, so a viewer
    /// without APNG support shows it as a still PNG; `fdAT` after), each data chunk at most
    /// `PNGChunks.maximumChunkLength` bytes, then `IEND`. `fcTL` and `fdAT` share one sequence
    /// counter from 0 ("Chunk Sequence Numbers").
    func bytes() -> [UInt8] {
        var copy = self
        return copy.takeBytes()
    }

    /// `bytes()`, emptying each frame's stream once it is written, so the file and the frames
    /// are not held twice (a 30 000-frame loop's streams are tens of megabytes); afterwards
    /// the frames hold no data.
    mutating func takeBytes() -> [UInt8] {
        var out = head
        out.reserveCapacity(byteCount)
        var sequence: UInt32 = 0
        func next() -> UInt32 {
            defer { sequence += 1 }
            return sequence
        }
        for k in frames.indices {
            let frame = frames[k]
            frames[k].stream = []
            var control: [UInt8] = []
            PNGChunks.appendUInt32(next(), to: &control)
            PNGChunks.appendUInt32(UInt32(frame.rect.width), to: &control)
            PNGChunks.appendUInt32(UInt32(frame.rect.height), to: &control)
            PNGChunks.appendUInt32(UInt32(frame.rect.x), to: &control)
            PNGChunks.appendUInt32(UInt32(frame.rect.y), to: &control)
            PNGChunks.appendUInt16(UInt16(truncatingIfNeeded: frame.delay.numerator), to: &control)
            PNGChunks.appendUInt16(UInt16(truncatingIfNeeded: frame.delay.denominator), to: &control)
            control.append(frame.dispose.rawValue)
            control.append(frame.blend.rawValue)
            PNGChunks.append("fcTL", control, to: &out)
            var start = 0
            repeat {
                let end = min(frame.stream.count, start + PNGChunks.maximumChunkLength)
                if k == 0 {
                    PNGChunks.append("IDAT", Array(frame.stream[start..<end]), to: &out)
                } else {
                    var data: [UInt8] = []
                    data.reserveCapacity(4 + end - start)
                    PNGChunks.appendUInt32(next(), to: &data)
                    data.append(contentsOf: frame.stream[start..<end])
                    PNGChunks.append("fdAT", data, to: &out)
                }
                start = end
            } while start < frame.stream.count
        }
        PNGChunks.append("IEND", [], to: &out)
        return out
    }

    /// Each frame's stream compressed harder where that is shorter (the same
    /// scanlines, so the same pixels): `DeflateSqueeze` with `squeezePasses` passes at
    /// `squeezeDepth` (none at 0) on the stream; at `zopfli` also Zopfli with
    /// `zopfliIterations` on the scanlines the stream inflates to (`mode` and the frame's width
    /// give their length), squeezed the same way, the shorter of the two kept. A frame is never
    /// longer than with fewer passes or without Zopfli: the squeeze keeps its best pass, and
    /// pass one is the same whatever the number of passes. The frames on `workers` threads when
    /// they hold at least `APNGWriter.parallelPixels` pixels in all or Zopfli runs; the result
    /// does not depend on `workers`.
    /// - Throws: `EncodeError` when a stream does not inflate to its scanlines (the writer's
    ///   own streams always do) or Zopfli returns nothing.
    mutating func refine(
        mode: APNGColorMode, zopfli: Bool, zopfliIterations: Int, squeezePasses: Int, squeezeDepth: Int, workers: Int
    ) throws(EncodeError) {
        guard zopfli || squeezePasses > 0 else { return }
        let pixels = frames.reduce(0) { $0 + $1.rect.width * $1.rect.height }
        let threads = pixels >= APNGWriter.parallelPixels || zopfli ? workers : 1
        // A chunk of frames at a time, each stream replaced as soon as its chunk is done, so
        // the old and the new streams are never all held at once.
        let chunk = max(64, 4 * threads)
        for start in stride(from: 0, to: frames.count, by: chunk) {
            let range = start..<min(frames.count, start + chunk)
            let inputs = frames[range].map { (stream: $0.stream, rect: $0.rect) }
            let streams = try ParallelWork.map(count: inputs.count, workers: threads) { i throws(EncodeError) in
                func squeezed(_ stream: [UInt8]) -> [UInt8] {
                    guard squeezePasses > 0,
                        let shorter = DeflateSqueeze.squeeze(zlib: stream, passes: squeezePasses, depth: squeezeDepth),
                        shorter.count < stream.count
                    else { return stream }
                    return shorter
                }
                var best = squeezed(inputs[i].stream)
                if zopfli {
                    let rect = inputs[i].rect
                    let raw = try Self.inflate(
                        inputs[i].stream, size: rect.height * (1 + mode.rowBytes(width: rect.width)))
                    let other = squeezed(try PNGChunks.zopfli(raw, iterations: zopfliIterations))
                    if other.count < best.count { best = other }
                }
                return best
            }
            for (i, stream) in zip(range, streams) { frames[i].stream = stream }
        }
    }

    /// The `size` bytes the zlib stream `stream` holds.
    static func inflate(_ stream: [UInt8], size: Int) throws(EncodeError) -> [UInt8] {
        var valid = false
        let raw = [UInt8](unsafeUninitializedCapacity: size) { out, initialized in
            valid =
                stream.withUnsafeBufferPointer { input in
                    aex_inflate_zlib_exact(input.baseAddress, input.count, out.baseAddress, size)
                } == 1
            initialized = valid ? size : 0
        }
        guard valid else { throw EncodeError("a frame's stream did not inflate to its \(size) bytes of scanlines") }
        return raw
    }
}
