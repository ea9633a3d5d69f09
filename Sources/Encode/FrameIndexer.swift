// SPDX-License-Identifier: GPL-3.0-or-later

/// Palette indices for an animation's frames, batch after batch, as `PaletteMapper.index`
/// gives them for the whole animation at once: without dithering each batch is surveyed
/// (`FrameSurveyor`) and mapped through its slots, as `PaletteMapper.index` does; with ordered
/// dithering each frame is flattened and mapped on its own, up to `workers` frames at a time
/// (each worker keeping its mapper, and so its colour cache, from batch to batch); with
/// Floyd–Steinberg frame after frame, each over the previous one (kept from the batch before).
///
/// With a `remap` table every index is then replaced by `remap[index]`
/// (`GIFPalette.reordered(byUse:)`).
struct FrameIndexer {
    /// One worker's mapper and scratch, and the frames it maps in a batch.
    private struct Worker: Sendable {
        var mapper: PaletteMapper
        var buffer: [UInt32] = []
        var range: Range<Int> = 0..<0
        var output: [[UInt8]] = []
    }

    private var workers: [Worker]
    private let diffuses: Bool
    private let remap: [UInt8]?
    /// The last frame mapped, colours and indices (before `remap`), for error diffusion.
    private var previous: (colors: [UInt32], indices: [UInt8])?

    /// An indexer into `palette` dithered per `dither` on up to `workers` threads (≥ 1).
    init(palette: GIFPalette, dither: GIFDither, workers: Int, remap: [UInt8]? = nil) {
        let mapper = PaletteMapper(palette: palette, dither: dither)
        diffuses = mapper.diffuses
        self.workers = Array(repeating: Worker(mapper: mapper), count: diffuses ? 1 : max(1, workers))
        self.remap = remap
    }

    /// The indices of `frames`, the frames after those indexed so far (`width·height` each).
    mutating func index(_ frames: FlattenedFrames) -> [IndexedFrame] {
        let width = frames.width
        let remap = self.remap
        if diffuses {
            var result: [IndexedFrame] = []
            for k in 0..<frames.count {
                let colors = frames.frame(k)
                let indices = workers[0].mapper.indices(of: colors, width: width, previous: previous)
                previous = (colors, indices)
                var written = indices
                if let remap { Self.apply(remap, to: &written) }
                result.append(IndexedFrame(indices: written))
            }
            return result
        }
        if workers[0].mapper.mapsBySlots {
            // Surveyed again, the frames' unchanged blocks take the slots of the frame before
            // instead of being flattened and looked up (circular-progress at 2×: flattening and
            // mapping twice were a fifth of the export); slots become indices in place.
            let threads = workers.count
            var survey = frames.survey(workers: threads)
            var mapper = workers[0].mapper
            var indexed = mapper.index(
                frames, colors: survey.frameColors, slots: survey.takeSlots(), wideSlots: survey.frameWideSlots,
                workers: threads)
            if let remap {
                ParallelWork.update(&indexed, workers: threads) { _, frame in Self.apply(remap, to: &frame.indices) }
            }
            return indexed
        }
        let count = frames.count
        let parts = workers.count
        for w in 0..<parts {
            workers[w].range = (count * w / parts)..<(count * (w + 1) / parts)
        }
        ParallelWork.update(&workers, workers: parts) { _, worker in
            var output: [[UInt8]] = []
            output.reserveCapacity(worker.range.count)
            for k in worker.range {
                frames.flatten(k, into: &worker.buffer)
                var indices = worker.mapper.indices(of: worker.buffer, width: width, previous: nil)
                if let remap { Self.apply(remap, to: &indices) }
                output.append(indices)
            }
            worker.output = output
        }
        var result: [IndexedFrame] = []
        result.reserveCapacity(count)
        for w in 0..<parts {
            for indices in workers[w].output { result.append(IndexedFrame(indices: indices)) }
            workers[w].output = []
        }
        return result
    }

    /// Every index replaced by `table[index]` (256 entries), in place.
    private static func apply(_ table: [UInt8], to indices: inout [UInt8]) {
        table.withUnsafeBufferPointer { table in
            indices.withUnsafeMutableBufferPointer { indices in
                for p in 0..<indices.count { indices[p] = table[Int(indices[p])] }
            }
        }
    }
}
