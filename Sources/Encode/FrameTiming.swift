// SPDX-License-Identifier: GPL-3.0-or-later

/// Frame durations on a fixed time grid by cumulative rounding (semantics.md §7.3).
///
/// Frame `i` of `N` covers `[i·P/N, (i+1)·P/N)` of a loop period `P`. Rounding every boundary
/// to the grid and taking differences makes the durations add up to exactly the rounded
/// period, so a loop never drifts: `duration_i = round(g·t_{i+1}) − round(g·t_i)` with
/// `g` grid steps per second. Halves round up (`12.5 cs → 13`).
///
/// The period is first taken to whole microseconds and the rest is integer arithmetic, so a
/// boundary that falls exactly on a half step (1 s at 24 fps: 12.5 cs) rounds the same way
/// every time, free of floating-point noise.
public enum FrameTiming {
    /// GIF delays in centiseconds: frame `i` covers `[i·P/N, (i+1)·P/N)`;
    /// `delay_i = round(100·t_{i+1}) − round(100·t_i)`; the sum is exactly `round(100·P)`.
    ///
    /// Examples (semantics.md §7.3): 1 s at 30 fps gives 3, 4, 3, 3, 4, 3, …; at 24 fps
    /// 4, 4, 5, 4, …; at 12 fps 8, 9, 8, …; each sums to 100.
    ///
    /// - Parameters:
    ///   - period: loop period `P` in seconds, finite, > 0 and ≤ 1 000 000.
    ///   - frameCount: `N`, 1 … 1 000 000.
    /// - Returns: `N` delays in centiseconds (some may be 0 or 1 when `N/P > 50`: the caller
    ///   caps the frame rate, see semantics.md §7.4); empty when an argument is out of range.
    public static func centisecondDelays(period: Double, frameCount: Int) -> [Int] {
        durations(period: period, frameCount: frameCount, stepsPerSecond: 100)
    }

    /// The same rule on a 1 ms grid, for the sprite-sheet JSON `duration` field:
    /// `duration_i = round(1000·t_{i+1}) − round(1000·t_i)`; the sum is `round(1000·P)`.
    ///
    /// - Parameters:
    ///   - period: loop period in seconds, finite, > 0 and ≤ 1 000 000.
    ///   - frameCount: 1 … 1 000 000.
    /// - Returns: `frameCount` durations in milliseconds; empty when an argument is out of range.
    public static func millisecondDurations(period: Double, frameCount: Int) -> [Int] {
        durations(period: period, frameCount: frameCount, stepsPerSecond: 1000)
    }

    /// Largest accepted period in seconds (keeps every product below 2^63).
    static let maximumPeriod: Double = 1_000_000
    /// Largest accepted frame count.
    static let maximumFrameCount = 1_000_000

    private static func durations(period: Double, frameCount: Int, stepsPerSecond: Int) -> [Int] {
        guard period.isFinite, period > 0, period <= maximumPeriod,
            frameCount > 0, frameCount <= maximumFrameCount
        else { return [] }
        // period > 0, so adding 0.5 and truncating rounds to nearest without libm.
        let microseconds = Int(period * 1_000_000 + 0.5)
        // Boundary i in grid steps is i·µs·steps / (10^6·N); microsPerStep = 10^6 / steps.
        let microsPerStep = 1_000_000 / stepsPerSecond
        let denominator = microsPerStep * frameCount
        func boundary(_ i: Int) -> Int {
            let numerator = i * microseconds
            // round half up of numerator / denominator, both non-negative
            return (2 * numerator + denominator) / (2 * denominator)
        }
        var result: [Int] = []
        result.reserveCapacity(frameCount)
        var previous = boundary(0)
        for i in 1...frameCount {
            let next = boundary(i)
            result.append(next - previous)
            previous = next
        }
        return result
    }
}
