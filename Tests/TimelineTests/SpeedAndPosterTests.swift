import Spec
import Testing
import ToolOptions

@testable import Timeline

/// `--speed` as a root time scale and `--poster` as a rotation of the loop's frames
/// (`LoopPlan.speed`, `LoopPlan.posterPhase`): the file's period divides by the speed, while
/// every sample stays an exact fraction of the composition's own loop.
struct SpeedAndPosterTests {
    /// A 4 s loop (a 2 s autoreversing leg) at 30 fps, starting at 0.
    static func composition() throws -> Composition {
        let json = """
            { "version": 1, "name": "t", "canvas": { "width": 8, "height": 8 },
              "layers": [ { "type": "rect", "center": [4, 4], "size": [2, 2], "fill": "red",
                "animations": [ { "keyPath": "rotation", "fromValue": 0, "toValue": 90, "duration": 2,
                                  "autoreverses": true, "repeatCount": "infinity" } ] } ] }
            """
        return try PresetLoader.decode(bytes: Array(json.utf8), file: "t.json").composition
    }

    @Test func speedThreeCutsAThirdOfTheFramesAtExactInstants() throws {
        let plan = try LoopPlan.make(for: Self.composition(), fps: 30, duration: nil, fpsIsOption: false, speed: 3)
        #expect(plan.clockPeriod == 4)
        #expect(plan.period == 4.0 / 3)
        #expect(plan.frameCount == 40)
        #expect(plan.speed == 3)
        // Frame i is i/40 of the 4 s loop on the composition's clock: i/10 s, exactly.
        for i in [0, 1, 3, 39] {
            #expect(plan.sampleTime(ofFrame: i).exact == Rational(Int64(i), 10))
        }
        let normal = try LoopPlan.make(for: Self.composition(), fps: 30)
        #expect(normal.frameCount == 120 && normal.clockPeriod == 4 && normal.speed == 1)
        #expect(plan.sampleTime(ofFrame: 13) == normal.sampleTime(ofFrame: 39))
    }

    @Test func theDurationOptionIsTheFilesPeriod() throws {
        let plan = try LoopPlan.make(for: Self.composition(), fps: 30, duration: 1.5, fpsIsOption: false, speed: 0.3)
        // 1.5 s of file at 0.3× covers 0.45 s of the composition, kept as the decimal 0.45.
        #expect(plan.clockPeriod == 0.45)
        #expect(plan.period == 1.5)
        #expect(plan.frameCount == 45)
        #expect(plan.sampleTime(ofFrame: 1).exact == Rational(1, 100))
    }

    @Test func aSpeedLeavingLessThanOneGIFFrameBlamesTheOption() throws {
        let composition = try Self.composition()
        do {
            _ = try LoopPlan.make(for: composition, fps: 30, duration: nil, fpsIsOption: false, speed: 400)
            Issue.record("a 0.01 s file period was accepted")
        } catch {
            #expect(error.violation?.isUsageError == true)
            #expect(error.message.hasPrefix("--speed"), "\(error.message)")
        }
    }

    @Test func thePosterRotatesTheSameInstants() throws {
        var plan = try LoopPlan.make(for: Self.composition(), fps: 30)
        plan.posterPhase = 0.25
        #expect(plan.posterOffset == 30)
        #expect(plan.sampleTime(ofFrame: 0).exact == Rational(1, 1))
        #expect(plan.sampleTime(ofFrame: 89).exact == Rational(119, 30))
        // Past the end it wraps to the loop's start, never beyond the period.
        #expect(plan.sampleTime(ofFrame: 90).exact == Rational(0, 1))
        let all = Set((0..<120).map { plan.sampleTime(ofFrame: $0).exact })
        #expect(all == Set((0..<120).map { Rational(Int64($0), 30) }))
        // A phase that rounds to a whole loop is no rotation.
        plan.posterPhase = 0.999
        #expect(plan.posterOffset == 0)
    }
}
