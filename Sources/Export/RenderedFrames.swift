// SPDX-License-Identifier: GPL-3.0-or-later

import Dispatch
import Encode
import Foundation
public import Raster
import Render
public import Spec
public import Timeline

/// A composition's frames at given instants, rendered on demand: the `FrameSource` every format
/// encodes from.
///
/// Each frame is kept after its first render, run-length packed (`PackedFrame`), while the
/// source holds at most `cacheLimit` packed bytes and the process-wide `FrameCachePool` can
/// reserve them; so several formats and passes share one render, and a frame that could not be
/// kept is rendered again when asked for again. Memory stays at `batchSize` frames per consumer
/// plus the packed loop. Which frames are kept can depend on timing (the pool is shared by the
/// jobs running at once); that decides only how often a frame is rendered, never its pixels.
/// Reservations are returned as frames are dropped (`releaseFramesAfterReading`) and when the
/// object goes away.
///
/// Packed, circular-progress's loop at 3× (180 frames of 744×744, 398 MB as RGBA, which the old
/// all-RGBA cache could not keep and rendered again for each of a GIF + sheet's four passes)
/// takes a few MB; docs/encoding.md ("Batch throughput") has the numbers.
public final class RenderedFrames: FrameSource, @unchecked Sendable {
    /// Packed bytes of frames one source keeps by default: 256 MiB.
    public static let defaultCacheLimit = 256 << 20

    /// The composition drawn.
    public let composition: Composition
    /// Preset-clock time of each frame, seconds.
    public var times: [Double] { sampleTimes.map(\.seconds) }
    /// Preset-clock instant of each frame, exact where the plan gave it exactly.
    public let sampleTimes: [SampleTime]
    /// Pixels per point.
    public let scale: Double
    /// Frames rendered at once, ≥ 1.
    public let workers: Int
    /// Frame width in pixels.
    public let width: Int
    /// Frame height in pixels.
    public let height: Int
    /// `2 × workers`: enough to keep the render threads busy.
    public var batchSize: Int { 2 * workers }
    /// `times.count`.
    public var frameCount: Int { sampleTimes.count }

    private let progress: (@Sendable () -> Void)?
    private let lock = NSLock()
    private var cache: [PackedFrame?]
    private let cacheLimit: Int
    private var reserved = 0
    private var releasing = false
    /// Bytes dropped since the freed heap was last given back (`MemoryTuning.trimStep`).
    private var untrimmed = 0
    private let pool: FrameCachePool
    private var ink = false
    private var renders = 0

    /// Frames of `composition` at `times` (at least one) and `scale` pixels per point.
    /// - Parameters:
    ///   - workers: render threads, ≥ 1 (default: the core count).
    ///   - cacheLimit: packed bytes of frames this source may keep (0: none), each reserved
    ///     from `FrameCachePool.shared` as it is kept.
    ///   - progress: called once per frame rendered, from any thread.
    public convenience init(
        _ composition: Composition, times: [Double], scale: Double, workers: Int? = nil,
        cacheLimit: Int = RenderedFrames.defaultCacheLimit, progress: (@Sendable () -> Void)? = nil
    ) {
        self.init(
            composition, sampleTimes: times.map { SampleTime($0) }, scale: scale, workers: workers,
            cacheLimit: cacheLimit, progress: progress)
    }

    /// Frames of `composition` at `sampleTimes` (`LoopPlan.sampleTimes`); see
    /// `init(_:times:scale:workers:cacheLimit:progress:)`. `pool` is where the cache's bytes
    /// are reserved (default: the process's).
    public init(
        _ composition: Composition, sampleTimes: [SampleTime], scale: Double, workers: Int? = nil,
        cacheLimit: Int = RenderedFrames.defaultCacheLimit, pool: FrameCachePool = .shared,
        progress: (@Sendable () -> Void)? = nil
    ) {
        self.composition = composition
        self.sampleTimes = sampleTimes
        self.scale = scale
        self.workers = max(1, workers ?? ProcessInfo.processInfo.activeProcessorCount)
        let size = SceneRenderer.pixelSize(
            width: composition.canvas.width, height: composition.canvas.height, scale: scale)
        width = size.width
        height = size.height
        self.cacheLimit = max(0, cacheLimit)
        cache = self.cacheLimit > 0 ? Array(repeating: nil, count: sampleTimes.count) : []
        self.progress = progress
        self.pool = pool
    }

    deinit {
        if reserved > 0 { pool.release(reserved) }
        if reserved + untrimmed >= MemoryTuning.trimStep { MemoryTuning.returnFreedMemory() }
    }

    /// From now on, every frame handed out by `frames(_:)` is dropped from the cache and its
    /// packed bytes go back to the pool at once, so the other jobs of the process can keep
    /// theirs; a frame asked for again is rendered again (the same pixels: rendering is a pure
    /// function of the instant) and not kept. Call it before the last pass over the loop, when
    /// no later reader needs the frames (in a GIF + sheet job, the sheet's one pass).
    /// Idempotent.
    public func releaseFramesAfterReading() {
        lock.lock()
        defer { lock.unlock() }
        releasing = true
    }

    /// Packed bytes of frames this source keeps now (all reserved in its pool).
    public var reservedBytes: Int {
        lock.lock()
        defer { lock.unlock() }
        return reserved
    }

    /// How many frames are kept now.
    public var keptFrameCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return cache.lazy.filter { $0 != nil }.count
    }

    /// Whether any frame rendered so far has a pixel that is not fully transparent.
    public var hasInk: Bool {
        lock.lock()
        defer { lock.unlock() }
        return ink
    }

    /// How many frames have been rendered (more than `frameCount` when some could not be kept
    /// and passes repeat).
    public var renderCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return renders
    }

    /// The frames `range`, unpacked from the cache or rendered on `workers` threads.
    /// - Throws: `RenderError` when Cairo fails; `FrameSourceError` for a range outside the loop.
    public func frames(_ range: Range<Int>) throws -> [RGBAImage] {
        guard range.lowerBound >= 0, range.upperBound <= sampleTimes.count else {
            throw FrameSourceError("frames \(range) asked of a loop of \(sampleTimes.count)")
        }
        var missing: [Int] = []
        var packed: [PackedFrame?] = Array(repeating: nil, count: range.count)
        lock.lock()
        let keep = !cache.isEmpty && !releasing
        for i in range {
            if !cache.isEmpty, let frame = cache[i] {
                packed[i - range.lowerBound] = frame
                if releasing { drop(i) }
            } else {
                missing.append(i)
            }
        }
        lock.unlock()
        var out: [RGBAImage?] = packed.map { $0?.unpacked() }
        if !missing.isEmpty {
            let slots = Slots<RGBAImage>(count: missing.count)
            let composition = composition
            let times = sampleTimes
            let scale = scale
            let progress = progress
            let wanted = missing
            DispatchQueue.concurrentPerform(iterations: max(1, min(workers, missing.count))) { _ in
                while let k = slots.claim() {
                    let scene = SceneEvaluator.scene(of: composition, at: times[wanted[k]])
                    slots.set(k, Result { try SceneRenderer.render(scene, scale: scale) })
                    progress?()
                }
            }
            let images = try slots.values()
            let inked = hasInk || images.contains { !isBlank($0) }
            // Packed outside the lock.
            let packs = keep ? images.map { PackedFrame($0) } : []
            lock.lock()
            renders += images.count
            if inked { ink = true }
            for (k, i) in missing.enumerated() {
                out[i - range.lowerBound] = images[k]
                if keep, cache[i] == nil, reserved + packs[k].byteCount <= cacheLimit,
                    pool.reserve(packs[k].byteCount)
                {
                    cache[i] = packs[k]
                    reserved += packs[k].byteCount
                }
            }
            lock.unlock()
        }
        return out.compactMap { $0 }
    }

    /// Empties cache slot `i` and returns its bytes to the pool; the lock is held.
    private func drop(_ i: Int) {
        guard let frame = cache[i] else { return }
        cache[i] = nil
        reserved -= frame.byteCount
        pool.release(frame.byteCount)
        untrimmed += frame.byteCount
        if untrimmed >= MemoryTuning.trimStep {
            untrimmed = 0
            MemoryTuning.returnFreedMemory()
        }
    }
}

/// Whether an image is fully transparent (every alpha byte 0).
func isBlank(_ image: RGBAImage) -> Bool {
    image.pixels.withUnsafeBufferPointer { pixels in
        stride(from: 3, to: pixels.count, by: 4).allSatisfy { pixels[$0] == 0 }
    }
}

/// The bytes of cached frames the whole process may hold (`RenderedFrames`), shared by the jobs
/// that run at once, so their sum, not each one, stays within `capacity`. Which job gets a
/// reservation depends on timing; that only decides whether its frames are rendered once or
/// once per pass, never the bytes written (rendering is a pure function of the instant).
public final class FrameCachePool: @unchecked Sendable {
    /// The process's pool: `RenderedFrames.defaultCacheLimit` bytes.
    public static let shared = FrameCachePool(capacity: RenderedFrames.defaultCacheLimit)

    /// Bytes the pool hands out in all, ≥ 0.
    public let capacity: Int
    private let lock = NSLock()
    private var used = 0

    /// A pool of `capacity` bytes.
    public init(capacity: Int) { self.capacity = max(0, capacity) }

    /// Bytes reserved now.
    public var reservedBytes: Int {
        lock.lock()
        defer { lock.unlock() }
        return used
    }

    /// Reserves `bytes` (≥ 0) when they fit beside what is reserved; true when reserved.
    public func reserve(_ bytes: Int) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard bytes >= 0, bytes <= capacity - used else { return false }
        used += bytes
        return true
    }

    /// Returns `bytes` reserved earlier.
    public func release(_ bytes: Int) {
        lock.lock()
        defer { lock.unlock() }
        used = max(0, used - bytes)
    }
}
