// SPDX-License-Identifier: GPL-3.0-or-later

internal import Render
internal import Spec

/// Frames with GIF's 1-bit alpha applied: every pixel is either an opaque colour packed as
/// `0x00RRGGBB` or `FlattenedFrames.transparent`.
struct FlattenedFrames {
    /// The marker for a transparent pixel; never a packed opaque colour (top byte is 0 there).
    static let transparent: UInt32 = .max

    /// Canvas width in pixels.
    var width: Int
    /// Canvas height in pixels.
    var height: Int
    /// One `width·height` array per frame, row-major.
    var frames: [[UInt32]]
    /// Whether any pixel of any frame is transparent.
    var hasTransparency: Bool
    /// Pixels with 0 < alpha < 255 that became fully opaque or fully transparent without a
    /// matte (0 with a matte).
    var collapsedEdgePixels: Int
}

/// Turns straight-alpha RGBA pixels into opaque colours or transparency (semantics.md §8.5).
///
/// - With a matte `m`: alpha 0 stays transparent; any other alpha `a` becomes opaque with
///   `round((c·a + m·(255 − a)) / 255)` per channel, i.e. straight colour over the page.
/// - Without a matte: alpha ≥ threshold (and > 0) is opaque with its straight colour,
///   anything else transparent; every 0 < alpha < 255 pixel counts as collapsed.
struct GIFAlphaPolicy {
    /// Matte channels 0…255, or nil.
    var matte: (r: Int, g: Int, b: Int)?
    /// Smallest alpha that stays opaque without a matte, 1…255.
    var threshold: Int

    init(options: GIFOptions) {
        if let m = options.matte {
            matte = (Self.channel(m.red), Self.channel(m.green), Self.channel(m.blue))
        } else {
            matte = nil
        }
        threshold = max(1, Int(options.alphaThreshold))
    }

    /// Applies the policy to every frame; all frames must already be `width`×`height`.
    func flatten(_ images: [RGBAImage], width: Int, height: Int) -> FlattenedFrames {
        var frames: [[UInt32]] = []
        frames.reserveCapacity(images.count)
        var hasTransparency = false
        var collapsed = 0
        for image in images {
            var out = [UInt32](repeating: FlattenedFrames.transparent, count: width * height)
            image.pixels.withUnsafeBufferPointer { src in
                out.withUnsafeMutableBufferPointer { out in
                    for i in 0..<(width * height) {
                        let a = Int(src[4 * i + 3])
                        if a == 255 {
                            out[i] = UInt32(src[4 * i]) << 16 | UInt32(src[4 * i + 1]) << 8 | UInt32(src[4 * i + 2])
                            continue
                        }
                        let r = Int(src[4 * i])
                        let g = Int(src[4 * i + 1])
                        let b = Int(src[4 * i + 2])
                        if a == 0 {
                            hasTransparency = true
                        } else if let m = matte {
                            out[i] = Self.pack(
                                Self.blend(r, m.r, a), Self.blend(g, m.g, a), Self.blend(b, m.b, a))
                        } else {
                            collapsed += 1
                            if a >= threshold {
                                out[i] = Self.pack(r, g, b)
                            } else {
                                hasTransparency = true
                            }
                        }
                    }
                }
            }
            frames.append(out)
        }
        return FlattenedFrames(
            width: width, height: height, frames: frames, hasTransparency: hasTransparency,
            collapsedEdgePixels: collapsed)
    }

    /// `round((c·a + m·(255 − a)) / 255)`; with an odd divisor no exact half occurs, so adding
    /// 127 before the integer division rounds to nearest.
    static func blend(_ c: Int, _ m: Int, _ a: Int) -> Int {
        (c * a + m * (255 - a) + 127) / 255
    }

    /// A 0…1 channel as 0…255, rounded to nearest (NaN counts as 0). The value is clamped
    /// first, so adding 0.5 and truncating rounds without libm.
    static func channel(_ value: Double) -> Int {
        guard !value.isNaN else { return 0 }
        return Int(min(max(value, 0), 1) * 255 + 0.5)
    }

    /// `0x00RRGGBB`.
    static func pack(_ r: Int, _ g: Int, _ b: Int) -> UInt32 {
        UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b)
    }
}
