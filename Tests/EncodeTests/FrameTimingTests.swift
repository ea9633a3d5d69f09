// SPDX-License-Identifier: GPL-3.0-or-later

import Testing

@testable import Encode

// Reference sequences from semantics.md §7.3 and §7.4.

@Test func centisecondDelaysAt30FPSFollowCumulativeRounding() {
    let delays = FrameTiming.centisecondDelays(period: 1, frameCount: 30)
    #expect(delays.count == 30)
    #expect(Array(delays.prefix(6)) == [3, 4, 3, 3, 4, 3])
    #expect(delays.reduce(0, +) == 100)
}

@Test func centisecondDelaysAt24FPSRoundHalvesUp() {
    // Boundary 3 is exactly 12.5 cs and rounds up, giving 4, 4, 5, 4.
    let delays = FrameTiming.centisecondDelays(period: 1, frameCount: 24)
    #expect(delays.count == 24)
    #expect(Array(delays.prefix(6)) == [4, 4, 5, 4, 4, 4])
    #expect(delays.reduce(0, +) == 100)
}

@Test func centisecondDelaysAt12FPS() {
    let delays = FrameTiming.centisecondDelays(period: 1, frameCount: 12)
    #expect(Array(delays.prefix(6)) == [8, 9, 8, 8, 9, 8])
    #expect(delays.reduce(0, +) == 100)
}

@Test func fourSecondLoopAt30FPSSumsTo400() {
    let delays = FrameTiming.centisecondDelays(period: 4, frameCount: 120)
    #expect(delays.count == 120)
    #expect(delays.reduce(0, +) == 400)
    #expect(Set(delays) == [3, 4])
}

@Test func sixtyFPSProducesOneCentisecondFrames() {
    // semantics.md §7.4: the reason output is capped at 50 fps.
    let delays = FrameTiming.centisecondDelays(period: 1, frameCount: 60)
    #expect(Array(delays.prefix(6)) == [2, 1, 2, 2, 1, 2])
    #expect(delays.reduce(0, +) == 100)
}

@Test func millisecondDurationsSumToThePeriod() {
    let durations = FrameTiming.millisecondDurations(period: 4, frameCount: 120)
    #expect(durations.count == 120)
    #expect(durations.reduce(0, +) == 4000)
    #expect(Array(durations.prefix(3)) == [33, 34, 33])
    let odd = FrameTiming.millisecondDurations(period: 0.3, frameCount: 7)
    #expect(odd.reduce(0, +) == 300)
    #expect(odd == [43, 43, 43, 42, 43, 43, 43])
}

@Test func periodsThatAreNotWholeCentisecondsRoundTheSum() {
    // 1.234 s: the sum is round(123.4) = 123.
    let delays = FrameTiming.centisecondDelays(period: 1.234, frameCount: 10)
    #expect(delays.reduce(0, +) == 123)
    #expect(delays == [12, 13, 12, 12, 13, 12, 12, 13, 12, 12])
}

@Test func invalidTimingArgumentsGiveNoDelays() {
    #expect(FrameTiming.centisecondDelays(period: 0, frameCount: 10).isEmpty)
    #expect(FrameTiming.centisecondDelays(period: -1, frameCount: 10).isEmpty)
    #expect(FrameTiming.centisecondDelays(period: .nan, frameCount: 10).isEmpty)
    #expect(FrameTiming.centisecondDelays(period: .infinity, frameCount: 10).isEmpty)
    #expect(FrameTiming.centisecondDelays(period: 1, frameCount: 0).isEmpty)
    #expect(FrameTiming.millisecondDurations(period: 1, frameCount: -3).isEmpty)
}
