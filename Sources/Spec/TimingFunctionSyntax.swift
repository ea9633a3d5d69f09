// SPDX-License-Identifier: GPL-3.0-or-later

import Glibc

/// Reads a timing function written the SwiftUI way, as a name or a call with labelled numbers:
///
/// | text | meaning |
/// | --- | --- |
/// | `linear`, `easeIn`, `easeOut`, `easeInOut` (`easeInEaseOut`), `default` | Bézier curves (`TimingFunction`) |
/// | `cubicBezier(x1, y1, x2, y2)`, `timingCurve(x1, y1, x2, y2)` | a custom Bézier; x1, x2 in 0…1 |
/// | `spring`, `spring(response: 0.5, dampingFraction: 0.825)` | SwiftUI defaults 0.5 and 0.825 |
/// | `spring(duration: 0.5, bounce: 0)` | response = duration, ζ from bounce |
/// | `smooth`, `snappy`, `bouncy`, each with optional `(duration:, extraBounce:)` | base bounce 0, 0.15, 0.3; duration 0.5 |
/// | `interactiveSpring`, `interactiveSpring(response:, dampingFraction:)` | defaults 0.15, 0.86 |
/// | `interpolatingSpring(mass:, stiffness:, damping:, initialVelocity:)` | stiffness and damping required; mass 1, velocity 0 |
/// | `interpolatingSpring(duration:, bounce:, initialVelocity:)` | defaults 0.5, 0, 0 |
///
/// Defaults follow semantics.md §2.1 (Apple's documentation and OpenSwiftUI). `blendDuration`
/// only matters when a running animation is retargeted, so it is accepted and ignored.
enum TimingFunctionSyntax {
    /// The names accepted, for suggestions.
    static let names =
        TimingFunction.named.map(\.name) + [
            "cubicBezier", "timingCurve", "spring", "smooth", "snappy", "bouncy", "interactiveSpring",
            "interpolatingSpring",
        ]

    /// Parses `text`; on failure returns a message saying what was expected.
    static func parse(_ text: String) -> Result<TimingFunction, SyntaxProblem> {
        let trimmed = text.trimmingWhitespace()
        var name = trimmed
        var arguments: [(label: String?, value: Double)] = []
        if let open = trimmed.firstIndex(of: "(") {
            guard trimmed.hasSuffix(")") else { return .failure(SyntaxProblem("missing ')' in \"\(text)\"")) }
            name = String(trimmed[..<open]).trimmingWhitespace()
            let inner = trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)]
            if !inner.trimmingWhitespace().isEmpty {
                for part in inner.split(separator: ",", omittingEmptySubsequences: false) {
                    var label: String?
                    var number = Substring(part)
                    if let colon = part.firstIndex(of: ":") {
                        label = part[..<colon].trimmingWhitespace()
                        number = part[part.index(after: colon)...]
                    }
                    guard let value = Double(number.trimmingWhitespace()), value.isFinite else {
                        return .failure(
                            SyntaxProblem(
                                "expected a number in \"\(part.trimmingWhitespace())\" of \"\(text)\""))
                    }
                    arguments.append((label, value))
                }
            }
        }
        if arguments.isEmpty, let named = TimingFunction.named.first(where: { $0.name == name }) {
            return .success(named.function)
        }
        switch name {
        case "cubicBezier", "timingCurve":
            guard arguments.count == 4, arguments.allSatisfy({ $0.label == nil }) else {
                return .failure(SyntaxProblem("expected \(name)(x1, y1, x2, y2) with four numbers, found \"\(text)\""))
            }
            let v = arguments.map(\.value)
            guard (0...1).contains(v[0]), (0...1).contains(v[2]) else {
                return .failure(
                    SyntaxProblem("\(name) x1 and x2 must lie in 0…1 (time cannot run backwards), found \"\(text)\""))
            }
            return .success(.cubicBezier(x1: v[0], y1: v[1], x2: v[2], y2: v[3]))
        case "spring":
            let labels = Set(arguments.compactMap(\.label))
            if labels.contains("duration") || labels.contains("bounce") {
                return labelled(arguments, text, allowed: ["duration": 0.5, "bounce": 0, "blendDuration": 0]) { a in
                    spring(duration: a["duration"] ?? 0.5, bounce: a["bounce"] ?? 0, text)
                }
            }
            return labelled(arguments, text, allowed: ["response": 0.5, "dampingFraction": 0.825, "blendDuration": 0]) {
                a in
                spring(response: a["response"] ?? 0.5, damping: a["dampingFraction"] ?? 0.825, text)
            }
        case "interactiveSpring":
            return labelled(
                arguments, text, allowed: ["response": 0.15, "dampingFraction": 0.86, "blendDuration": 0.25]
            ) { a in
                spring(response: a["response"] ?? 0.15, damping: a["dampingFraction"] ?? 0.86, text)
            }
        case "smooth", "snappy", "bouncy":
            let base: Double = ["smooth": 0.0, "snappy": 0.15, "bouncy": 0.3][name] ?? 0
            return labelled(arguments, text, allowed: ["duration": 0.5, "extraBounce": 0]) { a in
                spring(duration: a["duration"] ?? 0.5, bounce: base + (a["extraBounce"] ?? 0), text)
            }
        case "interpolatingSpring":
            let labels = Set(arguments.compactMap(\.label))
            if labels.contains("stiffness") || labels.contains("damping") || labels.contains("mass") {
                return labelled(
                    arguments, text, allowed: ["mass": 1, "stiffness": .nan, "damping": .nan, "initialVelocity": 0]
                ) { a in
                    guard let k = a["stiffness"], let c = a["damping"] else {
                        return .failure(
                            SyntaxProblem("interpolatingSpring needs stiffness: and damping: in \"\(text)\""))
                    }
                    let m = a["mass"] ?? 1
                    guard m > 0, k > 0, c >= 0 else {
                        return .failure(
                            SyntaxProblem(
                                "interpolatingSpring needs mass > 0, stiffness > 0 and damping ≥ 0 in \"\(text)\""))
                    }
                    return .success(
                        .spring(Spring(mass: m, stiffness: k, damping: c, initialVelocity: a["initialVelocity"] ?? 0)))
                }
            }
            return labelled(arguments, text, allowed: ["duration": 0.5, "bounce": 0, "initialVelocity": 0]) { a in
                spring(duration: a["duration"] ?? 0.5, bounce: a["bounce"] ?? 0, text).map { f in
                    guard case .spring(var s) = f else { return f }
                    s.initialVelocity = a["initialVelocity"] ?? 0
                    return .spring(s)
                }
            }
        default:
            var message =
                "unknown timing function \"\(text)\"; expected \(TimingFunction.named.map(\.name).quotedList), cubicBezier(x1, y1, x2, y2) or a spring (spring, smooth, snappy, bouncy, …)"
            if let near = spellingHint(name) { message += "; did you mean \"\(near)\"?" }
            return .failure(SyntaxProblem(message))
        }
    }

    /// The accepted name `name` most likely means: the same words in CSS's kebab case or snake
    /// case (`ease-in-out` is `easeInOut`), CSS's `ease` (its `cubic-bezier(0.25, 0.1, 0.25, 1)` is
    /// Core Animation's `default`), or a near spelling.
    static func spellingHint(_ name: String) -> String? {
        let folded = name.lowercased().filter { $0 != "-" && $0 != "_" && $0 != " " }
        if folded == "ease" { return "default" }
        if let same = names.first(where: { $0.lowercased() == folded }) { return same }
        return suggestion(for: name, among: names)
    }

    /// Checks labels against `allowed` (label → default) and hands the values to `build`.
    private static func labelled(
        _ arguments: [(label: String?, value: Double)], _ text: String, allowed: [String: Double],
        build: ([String: Double]) -> Result<TimingFunction, SyntaxProblem>
    ) -> Result<TimingFunction, SyntaxProblem> {
        var values: [String: Double] = [:]
        for argument in arguments {
            guard let label = argument.label, allowed[label] != nil else {
                let labels = allowed.keys.sorted().map { "\($0):" }.joined(separator: ", ")
                return .failure(SyntaxProblem("expected labelled arguments (\(labels)) in \"\(text)\""))
            }
            values[label] = argument.value
        }
        return build(values)
    }

    private static func spring(response: Double, damping: Double, _ text: String) -> Result<
        TimingFunction, SyntaxProblem
    > {
        // Above 60 s (the longest loop a preset's animations may compute) a spring could not
        // settle inside any loop, and 1e300 made Spring's ω0 underflow to a jump.
        guard response > 0, response <= 60, damping > 0 else {
            return .failure(
                SyntaxProblem("a spring needs response in (0, 60] s and dampingFraction > 0, found \"\(text)\""))
        }
        return .success(.spring(Spring(response: response, dampingFraction: damping)))
    }

    private static func spring(duration: Double, bounce: Double, _ text: String) -> Result<
        TimingFunction, SyntaxProblem
    > {
        guard duration > 0, duration <= 60, bounce > -1, bounce < 1 else {
            return .failure(
                SyntaxProblem("a spring needs duration in (0, 60] s and bounce in (−1, 1), found \"\(text)\""))
        }
        return .success(.spring(Spring(duration: duration, bounce: bounce)))
    }
}
