// SPDX-License-Identifier: GPL-3.0-or-later

/// APNG frame delays as fractions (APNG specification, `fcTL`: the delay is
/// `delay_num / delay_den` seconds, each a 16-bit unsigned integer).
///
/// Frame `i` of `N` covers `[i·P/N, (i+1)·P/N)` of a loop period `P`, which is first taken to
/// whole microseconds `µ` like `FrameTiming` does. An output frame that stands for the input
/// frames `s ..< e` (identical neighbours merged) lasts `(e − s)·µ / (10⁶·N)` seconds.
///
/// - **Exact**: when every output frame's duration, reduced to lowest terms, has numerator and
///   denominator ≤ 65 535, those fractions are written (1 s at 30 fps: 1/30 each, a merged
///   pair 1/15) and the loop lasts exactly `µ` microseconds.
/// - **Grid**: otherwise every delay comes from cumulative rounding on a grid of `g` steps per
///   second, `delay = (round(g·t_e) − round(g·t_s)) / g` with halves rounded up, so the delays
///   add up to exactly `round(g·µ/10⁶)` steps. `g` is the finest of 10 000, 1 000, 100, 10
///   and 1 for which every numerator fits in 16 bits (10 000 for frames up to 6.5 s).
enum APNGTiming {
    /// Grids tried, finest first, in steps per second; each divides 10⁶.
    static let grids = [10_000, 1_000, 100, 10, 1]

    /// The delays of output frames made of `runs[j]` consecutive input frames each.
    /// - Parameters:
    ///   - period: loop period in seconds, finite, > 0 and ≤ 1 000 000.
    ///   - runs: input frames per output frame, each ≥ 1, summing to `N` ≤ 1 000 000.
    /// - Returns: one delay per run, and whether they are exact.
    /// - Throws: `EncodeError` when an argument is out of range or no grid fits.
    static func delays(period: Double, runs: [Int], exactPeriod: SecondsFraction? = nil)
        throws(EncodeError) -> (delays: [APNGDelay], exact: Bool)
    {
        guard period.isFinite, period > 0, period <= FrameTiming.maximumPeriod else {
            throw EncodeError("APNG loop period \(period) s is out of range (0 < P ≤ 1000000 s)")
        }
        guard !runs.isEmpty, runs.allSatisfy({ $0 >= 1 }) else {
            throw EncodeError("an APNG needs at least one frame")
        }
        let total = runs.reduce(0, +)
        guard total <= FrameTiming.maximumFrameCount else {
            throw EncodeError("\(total) frames are more than \(FrameTiming.maximumFrameCount)")
        }
        if let exactPeriod, let fractions = exactDelays(exactPeriod, runs: runs, total: total) {
            return (fractions, true)
        }
        // period ≤ 10⁶ s, so µ ≤ 10¹² and every product below stays under 2⁶³.
        let micros = Int(period * 1_000_000 + 0.5)
        guard micros > 0 else { throw EncodeError("APNG loop period \(period) s is under a microsecond") }
        let denominator = 1_000_000 * total
        let exact = runs.map { run -> APNGDelay in
            let numerator = run * micros
            let divisor = gcd(numerator, denominator)
            return APNGDelay(numerator: numerator / divisor, denominator: denominator / divisor)
        }
        if exact.allSatisfy({ $0.numerator <= 0xFFFF && $0.denominator <= 0xFFFF }) {
            return (exact, true)
        }
        for grid in grids {
            // boundary(i) = round(grid · i·µ / (10⁶·N)) = round(i·µ / ((10⁶/grid)·N)), half up.
            let stepDenominator = (1_000_000 / grid) * total
            func boundary(_ i: Int) -> Int { (2 * i * micros + stepDenominator) / (2 * stepDenominator) }
            var result: [APNGDelay] = []
            result.reserveCapacity(runs.count)
            var start = 0
            var previous = 0
            for run in runs {
                start += run
                let next = boundary(start)
                result.append(APNGDelay(numerator: next - previous, denominator: grid))
                previous = next
            }
            if result.allSatisfy({ $0.numerator <= 0xFFFF }) { return (result, false) }
        }
        throw EncodeError("an APNG frame lasts more than 65535 s, which a delay cannot hold")
    }

    /// Each run's `run · p / (q · N)` s in lowest terms for a period of exactly `p/q` s, or nil
    /// when a term exceeds 16 bits, `p` or `q` is below 1, or a product would overflow.
    static func exactDelays(_ period: SecondsFraction, runs: [Int], total: Int) -> [APNGDelay]? {
        let (p, q) = (period.numerator, period.denominator)
        guard p >= 1, q >= 1 else { return nil }
        let (denominator, overflow) = q.multipliedReportingOverflow(by: total)
        guard !overflow else { return nil }
        var result: [APNGDelay] = []
        result.reserveCapacity(runs.count)
        for run in runs {
            let (numerator, over) = run.multipliedReportingOverflow(by: p)
            guard !over else { return nil }
            let divisor = gcd(numerator, denominator)
            let delay = APNGDelay(numerator: numerator / divisor, denominator: denominator / divisor)
            guard delay.numerator <= 0xFFFF, delay.denominator <= 0xFFFF else { return nil }
            result.append(delay)
        }
        return result
    }

    /// Greatest common divisor of two non-negative integers, not both 0.
    static func gcd(_ a: Int, _ b: Int) -> Int {
        var (x, y) = (a, b)
        while y != 0 { (x, y) = (y, x % y) }
        return x
    }
}
