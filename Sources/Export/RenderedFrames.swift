// SPDX-License-Identifier: GPL-3.0-or-later

import Dispatch
import Foundation
public import Render
public import Spec
public import Timeline

/// A composition's frames at given instants, rendered on demand: the `FrameSource` every format
/// encodes from.
///
/// When the whole loop fits in `cacheLimit` bytes, and that many bytes can be reserved from
/// the process-wide `FrameCachePool`, the frames are kept after their first render, so several
/// formats and passes share one render; otherwise every request renders again, and memory stays
/// at `batchSize` frames per consumer whatever the loop's length. The reservation is returned
/// when the object goes away. The pool makes the limit one for the whole process: with
/// `--jobs 2` each job could keep 256 MiB of frames. Measured on the 9-preset batch at
/// `--scale 1,2,3 --jobs 2`, the peak did not move (476.5 MB before, 476.9 MB after, same
/// bytes): what remains is one job's cached loop beside the other job's encoder buffers.
public final class RenderedFrames: FrameSource, @unchecked Sendable {
    /// Bytes of frames kept for reuse by default: 256 MiB.
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
    private var cache: [RGBAImage?]
    private let caching: Bool
    private let reserved: Int
    private let pool: FrameCachePool
    private var ink = false
    private var renders = 0

    /// Frames of `composition` at `times` (at least one) and `scale` pixels per point.
    /// - Parameters:
    ///   - workers: render threads, ≥ 1 (default: the core count).
    ///   - cacheLimit: keep the frames when `times.count × width × height × 4` is at most this
    ///     and can be reserved from `FrameCachePool.shared`.
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
        let times = sampleTimes
        self.scale = scale
        self.workers = max(1, workers ?? ProcessInfo.processInfo.activeProcessorCount)
        let size = SceneRenderer.pixelSize(
            width: composition.canvas.width, height: composition.canvas.height, scale: scale)
        width = size.width
        height = size.height
        let (frameBytes, o1) = (width * height).multipliedReportingOverflow(by: 4)
        let (loopBytes, o2) = frameBytes.multipliedReportingOverflow(by: times.count)
        caching = !o1 && !o2 && loopBytes <= cacheLimit && pool.reserve(loopBytes)
        reserved = caching ? loopBytes : 0
        cache = caching ? Array(repeating: nil, count: times.count) : []
        self.progress = progress
        self.pool = pool
    }

    deinit {
        if reserved > 0 { pool.release(reserved) }
    }

    /// Whether any frame rendered so far has a pixel that is not fully transparent.
    public var hasInk: Bool {
        lock.lock()
        defer { lock.unlock() }
        return ink
    }

    /// How many frames have been rendered (more than `frameCount` when uncached passes repeat).
    public var renderCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return renders
    }

    /// The frames `range`, from the cache or rendered on `workers` threads.
    /// - Throws: `RenderError` when Cairo fails; `FrameSourceError` for a range outside the loop.
    public func frames(_ range: Range<Int>) throws -> [RGBAImage] {
        guard range.lowerBound >= 0, range.upperBound <= sampleTimes.count else {
            throw FrameSourceError("frames \(range) asked of a loop of \(sampleTimes.count)")
        }
        var missing: [Int] = []
        var out: [RGBAImage?] = Array(repeating: nil, count: range.count)
        lock.lock()
        for i in range {
            if caching, let image = cache[i] { out[i - range.lowerBound] = image } else { missing.append(i) }
        }
        lock.unlock()
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
            lock.lock()
            renders += images.count
            if inked { ink = true }
            for (k, i) in missing.enumerated() {
                out[i - range.lowerBound] = images[k]
                if caching { cache[i] = images[k] }
            }
            lock.unlock()
        }
        return out.compactMap { $0 }
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
