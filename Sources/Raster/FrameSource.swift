// SPDX-License-Identifier: GPL-3.0-or-later

/// The frames of one animation, handed out in batches on demand, so that an encoder holds a few
/// frames at a time instead of the whole loop.
///
/// Frames are pure functions of their index: asking for the same range twice gives the same
/// pixels, so an encoder may make several passes (palette statistics first, encoding second).
/// A source may render on every call or keep what it rendered; the encoders cannot tell and
/// their bytes do not depend on it.
///
/// Every frame has the same size, `width × height` pixels, straight-alpha RGBA (`RGBAImage`).
public protocol FrameSource: Sendable {
    /// Frames in the animation, ≥ 1.
    var frameCount: Int { get }
    /// Width of every frame in pixels, ≥ 1.
    var width: Int { get }
    /// Height of every frame in pixels, ≥ 1.
    var height: Int { get }
    /// How many frames a consumer should ask for at once: enough to keep the source's render
    /// threads busy, few enough that memory stays small. ≥ 1.
    var batchSize: Int { get }
    /// The frames `range` in order, `range.count` images of `width × height`.
    /// - Parameter range: a subrange of `0..<frameCount`.
    /// - Throws: the error producing a frame throws (`RenderError` for a renderer), or
    ///   `FrameSourceError` when `range` is outside `0..<frameCount`.
    func frames(_ range: Range<Int>) throws -> [RGBAImage]
}

/// A `FrameSource` asked for frames it does not have.
public struct FrameSourceError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What went wrong, for messages.
    public var message: String
    /// See `message`.
    public var description: String { message }
    /// A failure described by `message`.
    public init(_ message: String) { self.message = message }
}

extension FrameSource {
    /// Calls `body` with the frames in order, `batchSize` at a time, each batch with the index of
    /// its first frame; only one batch is alive at once.
    /// - Throws: what `frames(_:)` or `body` throws; stops at the first error.
    public func forEachBatch(_ body: (_ first: Int, _ frames: [RGBAImage]) throws -> Void) throws {
        let step = max(1, batchSize)
        var start = 0
        while start < frameCount {
            let end = min(frameCount, start + step)
            try body(start, try frames(start..<end))
            start = end
        }
    }

    /// Calls `body` with every frame in order and its index, `batchSize` rendered at a time.
    /// - Throws: what `frames(_:)` or `body` throws; stops at the first error.
    public func forEachFrame(_ body: (_ index: Int, _ frame: RGBAImage) throws -> Void) throws {
        try forEachBatch { first, frames in
            for (offset, frame) in frames.enumerated() { try body(first + offset, frame) }
        }
    }
}

/// Frames already in memory, as a `FrameSource` (tests, the benchmark, callers that rendered
/// everything themselves).
public struct FrameArray: FrameSource, Equatable {
    /// The frames, all the same size.
    public let images: [RGBAImage]
    /// Frames handed out per batch.
    public let batchSize: Int

    /// Wraps `images`.
    /// - Parameters:
    ///   - images: at least one image, all of the first one's size.
    ///   - batchSize: frames per batch, ≥ 1 (default 8).
    /// - Throws: `FrameSourceError` when `images` is empty, a frame is 0 pixels wide or high, or
    ///   the sizes differ.
    public init(_ images: [RGBAImage], batchSize: Int = 8) throws(FrameSourceError) {
        guard let first = images.first else { throw FrameSourceError("an animation needs at least one frame") }
        guard first.width > 0, first.height > 0 else {
            throw FrameSourceError("frames are \(first.width)×\(first.height) px; each side must be at least 1")
        }
        if let bad = images.firstIndex(where: { $0.width != first.width || $0.height != first.height }) {
            throw FrameSourceError(
                "frame \(bad) is \(images[bad].width)×\(images[bad].height), expected \(first.width)×\(first.height)")
        }
        self.images = images
        self.batchSize = max(1, batchSize)
    }

    /// `images.count`.
    public var frameCount: Int { images.count }
    /// The first frame's width.
    public var width: Int { images[0].width }
    /// The first frame's height.
    public var height: Int { images[0].height }

    /// `images[range]`.
    /// - Throws: `FrameSourceError` when `range` is outside `0..<frameCount`.
    public func frames(_ range: Range<Int>) throws -> [RGBAImage] {
        guard range.lowerBound >= 0, range.upperBound <= images.count else {
            throw FrameSourceError("frames \(range) asked of an animation of \(images.count)")
        }
        return Array(images[range])
    }
}
