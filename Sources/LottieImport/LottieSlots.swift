// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Spec

/// Lottie slots as parameters (Lottie 1.0 specification, Slots: a top-level `slots` object
/// `{ "ID": { "p": <property> } }`, and a property with `"sid": "ID"` takes the slot's
/// property; lottie-web's SlotManager merges the members of `p` over the property's own, and
/// that is what is done here).
///
/// Each slot whose `p` holds a fixed value (`a` 0, or a plain `k`) is a `Parameter` named by the
/// slot id, so `--set ID=VALUE` works on it the way it does on a preset's parameter:
/// - a colour when a fill's or stroke's `c` uses it (`k` = 3 or 4 channels 0…1; the default is
///   that colour, alpha from the 4th channel, else 1; the alpha of a set colour is written too,
///   though fills and strokes ignore it as lottie-web does: their opacity is `o`);
/// - a number for a one-number `k` (`5` or `[5]`), `0…100` when an opacity (`o`) or a trim's
///   start or end uses it, `≥ 0` for a stroke width (`w`);
/// - a vector, as a string parameter `x y` (or more numbers), for any other array of numbers;
///   `--set` must give as many decimal numbers separated by spaces (a comma would split the
///   value into a `--set` list), or by commas inside parentheses: `--set spot=(70,40)`.
///
/// Keyframed slots and slots of other values (paths, gradients) stay as they are, without a
/// parameter.
struct LottieSlots {
    /// The kind of value a slot parameter holds.
    enum Kind: Equatable {
        case color(channels: Int)
        case number(wrapped: Bool)
        case vector(count: Int)
    }

    /// One slot that is a parameter.
    struct Slot {
        var id: String
        var kind: Kind
        var parameter: Parameter
    }

    /// Every slot's `p` object by id, after `--set` values were written into them.
    private(set) var properties: [String: JSONValue] = [:]
    /// The slots that are parameters, in file order.
    private(set) var slots: [Slot] = []

    /// The parameters, in file order.
    var parameters: [Parameter] { slots.map(\.parameter) }

    /// Reads `slots` (nil: none) and where `document` uses each id.
    /// - Throws: nothing; a malformed slot is an error in `decoder` at its JSON path.
    init(_ value: JSONValue?, document: JSONValue, decoder: LottieDecoder) {
        guard let value else { return }
        guard let object = value.objectValue else {
            decoder.error("$.slots", value, "expected an object of slots {\"ID\": {\"p\": …}}, found \(value.typeName)")
            return
        }
        var uses: [String: [(parentType: String?, key: String, path: String)]] = [:]
        Self.collectUses(document, path: "$", parentType: nil, key: "", into: &uses)
        for member in object.members {
            let path = "$.slots.\(member.key)"
            guard let slot = member.value.objectValue else {
                decoder.error(path, member.value, "expected a slot object {\"p\": …}, found \(member.value.typeName)")
                continue
            }
            guard let p = slot["p"] else {
                decoder.error(path, member.value, "missing \"p\" (the slot's property value)")
                continue
            }
            guard p.objectValue != nil else {
                decoder.error("\(path).p", p, "expected a property object {\"a\", \"k\"}, found \(p.typeName)")
                continue
            }
            properties[member.key] = p
            if let parsed = Self.parameter(member.key, p, uses[member.key] ?? []) {
                slots.append(parsed)
            }
        }
    }

    /// The slot as a parameter, or nil when its value is keyframed or not numbers.
    private static func parameter(
        _ id: String, _ p: JSONValue, _ uses: [(parentType: String?, key: String, path: String)]
    ) -> Slot? {
        guard let object = p.objectValue, let k = object["k"] else { return nil }
        if let a = object["a"]?.numberValue, a != 0 { return nil }
        var numbers: [Double] = []
        var wrapped = true
        if let n = k.numberValue {
            numbers = [n]
            wrapped = false
        } else if let items = k.arrayValue, !items.isEmpty {
            for item in items {
                guard let n = item.numberValue else { return nil }
                numbers.append(n)
            }
        } else {
            return nil
        }
        let description = uses.first.map { "Lottie slot, used at \($0.path)" } ?? "Lottie slot (not used)"
        let isColor = uses.contains { $0.key == "c" && ($0.parentType == "fl" || $0.parentType == "st") }
        if isColor, numbers.count == 3 || numbers.count == 4 {
            let c = RGBAColor(
                red: numbers[0], green: numbers[1], blue: numbers[2], alpha: numbers.count == 4 ? numbers[3] : 1)
            return Slot(
                id: id, kind: .color(channels: numbers.count),
                parameter: Parameter(name: id, value: .color(c), defaultValue: .color(c), description: description))
        }
        if numbers.count == 1 {
            var minimum: Double?
            var maximum: Double?
            for use in uses {
                if use.key == "o" || (use.parentType == "tm" && (use.key == "s" || use.key == "e")) {
                    minimum = max(minimum ?? 0, 0)
                    maximum = min(maximum ?? 100, 100)
                } else if use.key == "w" && use.parentType == "st" {
                    minimum = max(minimum ?? 0, 0)
                }
            }
            return Slot(
                id: id, kind: .number(wrapped: wrapped),
                parameter: Parameter(
                    name: id, value: .number(numbers[0]), defaultValue: .number(numbers[0]), description: description,
                    minimum: minimum, maximum: maximum))
        }
        let text = vectorText(numbers)
        return Slot(
            id: id, kind: .vector(count: numbers.count),
            parameter: Parameter(name: id, value: .string(text), defaultValue: .string(text), description: description))
    }

    /// `x y` as `--set` takes a vector.
    static func vectorText(_ numbers: [Double]) -> String { numbers.map(formatNumber).joined(separator: " ") }

    /// Every `sid` in the document: the type (`ty`) of the object holding the property, the
    /// property's key, and its JSON path.
    private static func collectUses(
        _ value: JSONValue, path: String, parentType: String?, key: String,
        into uses: inout [String: [(parentType: String?, key: String, path: String)]]
    ) {
        switch value.kind {
        case .object(let object):
            if let sid = object["sid"]?.stringValue { uses[sid, default: []].append((parentType, key, path)) }
            let type = object["ty"]?.stringValue
            for member in object.members where member.key != "slots" || path != "$" {
                collectUses(
                    member.value, path: "\(path).\(member.key)", parentType: type, key: member.key, into: &uses)
            }
        case .array(let items):
            for (i, item) in items.enumerated() {
                collectUses(item, path: "\(path)[\(i)]", parentType: parentType, key: key, into: &uses)
            }
        default: break
        }
    }

    /// Applies `--set` values: checks them as presets do (`Parameter.applying`: unknown names
    /// with did-you-mean, colours, number ranges), then vectors for their count of numbers, and
    /// writes each set value into its slot's `p.k`.
    /// - Throws: `ParameterOverrideError` with the message a preset would give.
    mutating func apply(_ overrides: [String: String]) throws(ParameterOverrideError) {
        guard !overrides.isEmpty else { return }
        let applied = try Parameter.applying(overrides, to: parameters)
        for (index, parameter) in applied.enumerated() {
            slots[index].parameter = parameter
            guard let text = overrides[parameter.name] else { continue }
            let slot = slots[index]
            let location = properties[slot.id]?.location ?? SourceLocation(line: 1, column: 1)
            func number(_ n: Double) -> JSONValue { JSONValue(kind: .number(n), location: location) }
            func array(_ ns: [Double]) -> JSONValue { JSONValue(kind: .array(ns.map(number)), location: location) }
            let k: JSONValue
            switch (slot.kind, parameter.value) {
            case (.color(let channels), .color(let c)):
                k = array(channels == 4 ? [c.red, c.green, c.blue, c.alpha] : [c.red, c.green, c.blue])
            case (.number(let wrapped), .number(let n)):
                k = wrapped ? array([n]) : number(n)
            case (.vector(let count), _):
                // Spaces, or commas inside one pair of parentheses (kept whole by the `--set` list split).
                var body = Substring(text.trimmingCharacters(in: .whitespaces))
                let parenthesised = body.hasPrefix("(") && body.hasSuffix(")") && body.count >= 2
                if parenthesised { body = body.dropFirst().dropLast() }
                let parts =
                    parenthesised
                    ? body.split(separator: ",", omittingEmptySubsequences: false).map {
                        $0.trimmingCharacters(in: .whitespaces)
                    }
                    : body.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
                // Each part as a preset's number parameter reads it (decimal, finite).
                let probe = Parameter(name: parameter.name, value: .number(0), defaultValue: .number(0))
                let numbers = parts.compactMap { part -> Double? in
                    guard let read = try? Parameter.applying([probe.name: part], to: [probe]).first?.value,
                        case .number(let n) = read
                    else { return nil }
                    return n
                }
                guard parts.count == count, numbers.count == count else {
                    throw ParameterOverrideError(
                        message:
                            "--set \(parameter.name)=\(text): expected \(count) numbers separated by spaces, like the default \(parameter.defaultValue), or (x,y)"
                    )
                }
                slots[index].parameter.value = .string(Self.vectorText(numbers))
                k = array(numbers)
            default:
                continue
            }
            guard var p = properties[slot.id]?.objectValue else { continue }
            let member = JSONObject.Member(key: "k", keyLocation: location, value: k)
            if let i = p.members.firstIndex(where: { $0.key == "k" }) {
                p.members[i] = member
            } else {
                p.members.append(member)
            }
            properties[slot.id] = JSONValue(kind: .object(p), location: location)
        }
    }

    /// The values in effect, for the animation's identity: `id=value` by file order.
    var identity: String { slots.map { "\($0.id)=\($0.parameter.value)" }.joined(separator: ";") }
}
