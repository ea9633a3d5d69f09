// SPDX-License-Identifier: GPL-3.0-or-later

import CDeflate
import Testing

@testable import Encode

@Suite("Deflate squeeze (optimal parse)")
struct DeflateSqueezeTests {
    /// The inputs the recoder's tests use, plus data with long-distance structure: each through
    /// libdeflate 12 and zlib 9, then squeezed. zlib's inflater (independent of ours) gives back
    /// the input, the header and Adler-32 are the stream's, and the result is never longer than
    /// the recoder's for the same stream.
    @Test(arguments: [
        "empty", "one byte", "runs of 258", "random", "low entropy", "disc rows", "long disc", "far repeats",
    ])
    func squeezedStreamsInflateToTheInput(sample: String) throws {
        let input = deflateSample(sample)
        for stream in [try PNGChunks.deflate(input, level: 12), try PNGChunks.zlib(input, filtered: false)] {
            let recoded = DeflateRecoder.recode(zlib: stream) ?? stream
            let squeezed = DeflateSqueeze.squeeze(zlib: stream, passes: 3)
            if let squeezed {
                #expect(squeezed.count < stream.count, "\(sample): only shorter streams are returned")
                #expect(squeezed.count <= recoded.count, "\(sample): never longer than the recoder's")
                #expect(zlibInflate(squeezed, size: input.count) == input, "\(sample)")
                #expect(Array(squeezed.prefix(2)) == Array(stream.prefix(2)))
                #expect(Array(squeezed.suffix(4)) == Array(stream.suffix(4)))
            } else {
                #expect(DeflateRecoder.recode(zlib: stream) == nil, "\(sample): nil only when the recoder wins nothing")
            }
        }
    }

    /// On data where libdeflate 12 leaves bits behind (the same sprite rows at several far
    /// distances, with near-misses in between), the optimal parse is strictly shorter than
    /// libdeflate 12 re-split by the recoder. Reference sizes from this build (round 20); a
    /// parse that only copied its input's tokens would fail the first expectation.
    @Test func beatsTheRecoderOnDiscRows() throws {
        let input = deflateSample("long disc")
        let stream = try PNGChunks.deflate(input, level: 12)
        let recoded = DeflateRecoder.recode(zlib: stream) ?? stream
        let squeezed = try #require(DeflateSqueeze.squeeze(zlib: stream, passes: 4))
        #expect(squeezed.count < recoded.count, "squeezed \(squeezed.count), recoded \(recoded.count)")
        #expect(zlibInflate(squeezed, size: input.count) == input)
        // Passes 0 is the recoder alone.
        #expect(DeflateSqueeze.squeeze(zlib: stream, passes: 0) == DeflateRecoder.recode(zlib: stream))
        print("long disc: libdeflate 12 \(stream.count), recoded \(recoded.count), squeezed \(squeezed.count)")
    }

    /// The match table lists, for each position, matches of increasing length whose bytes
    /// really repeat at that distance, and none at positions a 258-byte match covered.
    @Test func matchTableHoldsRealMatches() {
        let input = deflateSample("far repeats")
        let table = DeflateSqueeze.MatchTable(input, depth: 256)
        #expect(table.starts.count == input.count + 1)
        var checked = 0
        for i in 0..<input.count {
            var previous = 2
            for k in Int(table.starts[i])..<Int(table.starts[i + 1]) {
                let length = Int(table.lengths[k])
                let distance = Int(table.distances[k])
                #expect(length > previous && length <= 258 && i + length <= input.count)
                #expect(distance >= 1 && distance <= i && distance < 32768)
                if input[(i - distance)..<(i - distance + length)] != input[i..<(i + length)] {
                    Issue.record("position \(i): \(length) bytes at distance \(distance) do not repeat")
                }
                previous = length
                checked += 1
            }
        }
        #expect(checked > 1000)
        // The repeat of the first 4 000 bytes at 20 000 is found there at its full reach.
        let at = Int(table.starts[20_000])..<Int(table.starts[20_001])
        #expect(at.contains { table.lengths[$0] == 258 && table.distances[$0] == 20_000 })
    }

    /// Runs (round 21): `runLengths` counts the equal bytes from each position (at most 258);
    /// inside a run the table's first match is the run's own length at distance 1, and a
    /// position 40 bytes before the end of a 100-byte run of zeros finds the nearest earlier
    /// row whose run ends the same way, over the run, the whole tail and on, though that row's
    /// run positions sit in the tree of their own run length, not the zero triple's.
    @Test func runsHaveTheirOwnTrees() {
        var random = Sequence64(state: 4)
        let tail = (0..<30).map { _ in UInt8(1 + random.next() % 200) }
        var input: [UInt8] = []
        var rowStarts: [Int] = []
        for run in [100, 70, 300, 100, 5] {
            rowStarts.append(input.count)
            input += [UInt8](repeating: 0, count: run) + tail
        }
        let runs = DeflateSqueeze.runLengths(input)
        for i in input.indices {
            var count = 1
            while i + count < input.count && input[i + count] == input[i] && count < 258 { count += 1 }
            if Int(runs[i]) != count { Issue.record("run at \(i): \(runs[i]), expected \(count)") }
        }
        let table = DeflateSqueeze.MatchTable(input, depth: 256)
        let at = rowStarts[3] + 60
        let kept = Int(table.starts[at])..<Int(table.starts[at + 1])
        #expect(kept.first.map { (table.lengths[$0], table.distances[$0]) } ?? (0, 0) == (40, 1))
        // The nearest such row is the 300-byte run's (40 bytes before its end), and the match
        // goes on over the next row's 5 zeros (the rows after both start with zeros).
        let nearest = at - (rowStarts[2] + 260)
        #expect(kept.contains { table.lengths[$0] == 75 && table.distances[$0] == nearest })
        for i in 0..<input.count {
            for k in Int(table.starts[i])..<Int(table.starts[i + 1]) {
                let (length, distance) = (Int(table.lengths[k]), Int(table.distances[k]))
                if input[(i - distance)..<(i - distance + length)] != input[i..<(i + length)] {
                    Issue.record("position \(i): \(length) bytes at distance \(distance) do not repeat")
                }
            }
        }
    }

    /// Crafted data where one position has a match of every length 3…60, each farther than
    /// the last (prefixes of one string, longest first): the table keeps the longest
    /// `maximumMatches` of them, its longest is the 60-byte one, and the parse still inflates.
    @Test func matchesPerPositionAreCapped() throws {
        var random = Sequence64(state: 9)
        let word = (0..<60).map { _ in UInt8(random.next() % 200) }
        var input: [UInt8] = []
        for k in stride(from: 60, through: 3, by: -1) { input += word.prefix(k) + [255, 254] }
        let at = input.count
        input += word
        let table = DeflateSqueeze.MatchTable(input, depth: 256)
        let kept = Int(table.starts[at])..<Int(table.starts[at + 1])
        #expect(kept.count == DeflateSqueeze.maximumMatches)
        #expect(kept.last.map { table.lengths[$0] } == 60)
        for i in 0..<input.count {
            #expect(Int(table.starts[i + 1] - table.starts[i]) <= DeflateSqueeze.maximumMatches)
        }
        let stream = try PNGChunks.zlib(input, filtered: false)
        let squeezed = DeflateSqueeze.squeeze(zlib: stream) ?? stream
        #expect(zlibInflate(squeezed, size: input.count) == input)
    }

    /// Corrupt, truncated or dictionary streams are refused (nil), never a crash.
    @Test func invalidStreamsAreRefused() throws {
        let good = try PNGChunks.deflate(discRows(side: 32, phase: 1), level: 12)
        #expect(DeflateSqueeze.squeeze(zlib: Array(good.prefix(good.count / 2))) == nil)
        #expect(DeflateSqueeze.squeeze(zlib: [0x78, 0x01, 0xFF, 0xFF, 0xFF, 0, 0, 0, 1]) == nil)
        var dictionary = good
        dictionary[1] |= 0x20
        #expect(DeflateSqueeze.squeeze(zlib: dictionary) == nil)
        #expect(DeflateSqueeze.squeeze(zlib: []) == nil)
    }
}
