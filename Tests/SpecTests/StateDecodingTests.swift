import Foundation
import Testing

@testable import Spec

/// `state`, `events` and `bind` (docs/preset-format.md, State and events).
private func statePreset(
    events: String, bind: String = #""opacity": "$n == 1 ? 1 : 0""#, state: String = #"{ "n": 0 }"#
) -> String {
    """
    {
      "version": 1, "name": "t", "canvas": { "width": 100, "height": 80 },
      "params": { "tick": { "default": 0.5 } },
      "state": \(state),
      "events": \(events),
      "layers": [
        { "type": "circle", "center": [50, 40], "radius": 10, "fill": "red", "bind": { \(bind) } }
      ]
    }
    """
}

private func diagnostics(_ json: String) -> [Diagnostic] {
    do {
        _ = try PresetLoader.decode(bytes: Array(json.utf8), file: "t.json")
        Issue.record("expected the preset to be rejected")
        return []
    } catch let error as PresetError {
        return error.diagnostics
    } catch {
        Issue.record("unexpected error \(error)")
        return []
    }
}

@Test func stateExpressionsParseWithPrecedenceAndAreTotal() throws {
    let names = ["current"]
    func value(_ text: String, current: Double = 3, i: Int = 2) throws -> Double {
        let e = try StateExpression.parse(text) { name in
            names.firstIndex(of: name).map { .variable($0) } ?? (name == "p" ? .number(10) : nil)
        }
        return e.evaluate([current], instance: i)
    }
    #expect(try value("$current == $i + 1 ? 1 : 0") == 1)
    #expect(try value("$current == 6 ? 0 : $current + 1", current: 6) == 0)
    #expect(try value("1 + 2 * 3 % 4") == 3)  // * and % bind tighter, left to right: (2*3)%4 = 2
    #expect(try value("-1 % 7") == 6)
    #expect(try value("$p / 0") == 0)
    #expect(try value("1e300 * 1e300") == 0)
    #expect(try value("!($current > 2) || false") == 0)
    #expect(try value("$current >= 3 && $i <= 2 ? $p : -$p") == 10)
    #expect(try value("true ? 1 : 0 ? 5 : 6") == 1)
    #expect(throws: ExpressionError.self) { try value("1 < 2 < 3") }
    #expect(throws: ExpressionError.self) { try value("$nope + 1") }
    #expect(throws: ExpressionError.self) { try value("current + 1") }
    #expect(throws: ExpressionError.self) {
        try value(String(repeating: "(", count: 40) + "1" + String(repeating: ")", count: 40))
    }
}

/// `round`, `floor` and `ceil` as in number expressions: halves away from zero.
@Test func stateExpressionsRoundFloorAndCeilAsNumberExpressionsDo() throws {
    func value(_ text: String, n: Double = 0, i: Int = 0) throws -> Double {
        let e = try StateExpression.parse(text) { name in
            name == "n" ? .variable(0) : (name == "p" ? .number(2.5) : nil)
        }
        return e.evaluate([n], instance: i)
    }
    #expect(try value("round(2.5)") == 3)
    #expect(try value("round(-2.5)") == -3)
    #expect(try value("round(0.5)") == 1)
    #expect(try value("round(2.4999)") == 2)
    #expect(try value("round($p)") == 3)
    #expect(try value("floor(-0.5)") == -1)
    #expect(try value("floor(2.9)") == 2)
    #expect(try value("ceil(0.2)") == 1)
    #expect(try value("ceil(-0.2)") == 0)
    #expect(try value("ceil(3)") == 3)
    // An argument is a whole expression, conditionals and comparisons included.
    #expect(try value("round($n / 2) + floor($n / 2) + ceil($n / 2)", n: 1) == 2)
    #expect(try value("round($n > 0 ? $n * 0.25 : 7.5)", n: 2) == 1)
    #expect(try value("round($n > 0 ? $n * 0.25 : 7.5)", n: 0) == 8)
    #expect(try value("floor($i / 3) * 10", i: 7) == 20)
    #expect(try value(" ceil ( 1.1 ) * 2") == 4)
    // The same rule as `Expression`'s functions, on the same halves.
    for x in [-3.5, -2.5, -0.5, 0.5, 1.5, 2.5, 1e15 + 0.5] {
        #expect(try value("round(\(x))") == Expression.Function.round.apply(x))
    }
    #expect(try StateExpression.parse("round($i)") { _ in nil }.usesInstance)
    func failure(_ text: String) -> String? {
        do {
            _ = try StateExpression.parse(text) { _ in nil }
            return nil
        } catch {
            return error.message
        }
    }
    #expect(failure("round 2") == "expected '(' after round at offset 6, found '2'")
    #expect(failure("round(1") == "expected an operator or ')' to close round( at offset 7, found end of input")
    #expect(
        failure("sqrt(4)")
            == "expected a number, $name or '(' (a state variable is written $sqrt) at offset 0, found 's'")
    #expect(failure(String(repeating: "round(", count: 40) + "1" + String(repeating: ")", count: 40)) != nil)
}

@Test func timerScheduleFindsTheStatePeriodAndSteadyStart() throws {
    let json = statePreset(
        events: """
            [ { "every": "$tick", "set": { "n": "($n + 1) % 3" },
                "animation": { "timingFunction": "linear", "duration": 0.8 } } ]
            """)
    let c = try PresetLoader.decode(bytes: Array(json.utf8), file: "t.json").composition
    let s = try #require(c.state?.schedule)
    // Ticks at 0.5, 1, 1.5 …; n cycles 1, 2, 0: period 1.5 s, steady from the first tick
    // (0.5), then one whole period to let the 0.8 s animations settle: loop from 2 s.
    #expect(s.period == Rational(3, 2))
    #expect(s.loopStart == Rational(2))
    #expect(s.changes.first?.time == Rational(1, 2))
    #expect(s.changes.map(\.values[0]).prefix(4) == [1, 2, 0, 1])
}

/// `TimelineView(.animation)` redraws once per display frame, 1/60 s, which no decimal time
/// spells: an expression's exact value is the time (`"1 / 60"` is 1/60, not 0.016666…).
@Test func timesMayBeExactFractions() throws {
    let json = statePreset(
        events: """
            [ { "every": "1 / 60", "set": { "n": "($n + 1) % 3" } },
              { "at": "$tick / 3 + 0.1", "set": { "n": 0 } } ]
            """)
    let c = try PresetLoader.decode(bytes: Array(json.utf8), file: "t.json").composition
    let s = try #require(c.state?.schedule)
    #expect(s.changes.first?.time == Rational(1, 60))
    #expect(s.changes.contains { $0.time == Rational(4, 15) && $0.event == 1 })  // 0.5/3 + 0.1
    #expect(s.period == Rational(1, 20))
    // A fraction needs a denominator up to 10⁶ (whole microseconds or finer are refused).
    let found = diagnostics(statePreset(events: #"[ { "every": "1 / 1000003", "set": { "n": 1 } } ]"#))
    #expect(found.contains { $0.path == "$.events[0].every" && $0.message.contains("exact fraction") })
}

@Test(arguments: [
    (#"[ { "every": -1, "set": { "n": 1 } } ]"#, "$.events[0].every", "(0, 600]"),
    (#"[ { "every": 1e300, "set": { "n": 1 } } ]"#, "$.events[0].every", "(0, 600]"),
    (#"[ { "every": "1 / 0", "set": { "n": 1 } } ]"#, "$.events[0].every", "division by zero"),
    (#"[ { "at": 1, "every": 2, "set": { "n": 1 } } ]"#, "$.events[0]", "one trigger"),
    (#"[ { "every": 0.3, "set": { "n": "$n + 1" } } ]"#, "$.events[0]", "does not come back"),
    (#"[ { "every": 0.0001, "set": { "n": 1 } } ]"#, "$.events[0].every", "0.001"),
    (#"[ { "at": 0.1234567, "set": { "n": 1 } } ]"#, "$.events[0].at", "6 decimals"),
    (#"[ { "at": 1, "set": { "m": 1 } } ]"#, "$.events[0].set.m", "unknown state variable"),
    (#"[ { "at": 1, "set": { "n": "$n +" } } ]"#, "$.events[0].set.n", "offset 4"),
    (
        #"[ { "every": 1, "set": { "n": "1 - $n" }, "animation": { "timingFunction": "linear", "repeatCount": "infinity" } } ]"#,
        "$.events[0].animation", "piles up"
    ),
    (
        #"[ { "at": 1, "set": { "n": 1 }, "animation": { "timingFunction": "spring", "duration": 1 } } ]"#,
        "$.events[0].animation.duration", "does not apply to a spring"
    ),
    (#"[ { "at": 1, "set": { "n": 1 }, "animation": { "speed": 0 } } ]"#, "$.events[0].animation.speed", "speed"),
])
func brokenEventsAreReportedAtTheirPath(events: String, path: String, message: String) {
    let found = diagnostics(statePreset(events: events))
    #expect(
        found.contains { $0.path == path && $0.message.contains(message) },
        "expected \(path): …\(message)…, got \(found.map { "\($0.path): \($0.message)" })")
}

@Test func bindErrorsNameTheKeyAndColumn() throws {
    let json = statePreset(events: #"[ { "at": 1, "set": { "n": 1 } } ]"#, bind: #""opacity": "$n == ? 1 : 0""#)
    let found = diagnostics(json)
    let d = found.first { $0.path == "$.layers[0].bind.opacity" }
    #expect(d?.message.contains("offset 6") == true, "\(found)")
    // The offending '?' is 6 scalars after the string's opening quote.
    let lines = json.split(separator: "\n", omittingEmptySubsequences: false)
    let row = try #require(lines.firstIndex { $0.contains("$n == ?") })
    let quote = try #require(lines[row].range(of: "\"$n == ?"))
    let column = lines[row].distance(from: lines[row].startIndex, to: quote.lowerBound) + 1
    #expect(d?.location == SourceLocation(line: row + 1, column: column + 1 + 6), "\(String(describing: d?.location))")
    let fill = diagnostics(statePreset(events: #"[ { "at": 1, "set": { "n": 1 } } ]"#, bind: #""fillColor": "$n""#))
    #expect(fill.contains { $0.path == "$.layers[0].bind.fillColor" && $0.message.contains("cannot be bound") })
}
