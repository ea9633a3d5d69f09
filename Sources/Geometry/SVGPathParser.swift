// SPDX-License-Identifier: GPL-3.0-or-later

import Glibc

extension BezierPath {
    /// Reads SVG path data (the `d` attribute), the full SVG 1.1 grammar (SVG 1.1 §8.3 and its
    /// BNF in §8.3.9):
    /// - commands `M m L l H h V v C c S s Q q T t A a Z z`; lowercase is relative to the
    ///   current point;
    /// - repeated argument sets repeat the command, and extra pairs after `M`/`m` are `L`/`l`;
    /// - compact numbers (`1e-3`, `.5.5` = 0.5 0.5, `-1-2` = −1 −2) and arc flags without
    ///   separators (`a1 1 0 011 1`); whitespace is space, tab, CR and LF; a comma may separate
    ///   numbers and argument sets;
    /// - `S`/`T` reflect the previous `C`/`S` or `Q`/`T` control point, otherwise use the current
    ///   point;
    /// - quadratic curves become the exactly equal cubics;
    /// - arcs are converted from endpoint to centre form as in the SVG 1.1 implementation notes
    ///   (F.6.5), with out-of-range radii scaled up and negative radii made positive (F.6.6); an
    ///   arc with a zero radius is a straight line and one ending where it starts is dropped
    ///   (F.6.2); the result is cubic segments of at most 90°.
    ///
    /// Data that is empty or only whitespace gives an empty path. Unlike a browser, which draws
    /// up to the first error, this throws.
    ///
    /// - Throws: `SVGPathError` with the character offset and what was expected, e.g.
    ///   `expected a number after 'L' at offset 7, found 'x'`.
    public init(svgPathData: String) throws(SVGPathError) {
        var parser = SVGPathParser(bytes: Array(svgPathData.utf8))
        try parser.parse()
        self = parser.path
    }
}

/// A hand-written scanner over the UTF-8 bytes of SVG path data; see
/// `BezierPath.init(svgPathData:)` for the grammar.
struct SVGPathParser {
    let bytes: [UInt8]
    var index = 0
    var path = BezierPath()
    var current = Point.zero
    var subpathStart = Point.zero
    /// True right after `Z`: the next drawing command first gets an explicit move.
    var afterClose = false
    /// Second control point of the previous command when it was `C`/`c`/`S`/`s`.
    var lastCubicControl: Point?
    /// Control point of the previous command when it was `Q`/`q`/`T`/`t`.
    var lastQuadControl: Point?

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    // MARK: Grammar

    mutating func parse() throws(SVGPathError) {
        skipWhitespace()
        guard index < bytes.count else { return }
        guard bytes[index] == UInt8(ascii: "M") || bytes[index] == UInt8(ascii: "m") else {
            throw error("expected a moveto command ('M' or 'm')")
        }
        while true {
            skipWhitespace()
            guard index < bytes.count else { return }
            let letter = bytes[index]
            guard Self.isCommand(letter) else { throw error("expected a command letter") }
            index += 1
            try command(letter)
        }
    }

    private mutating func command(_ letter: UInt8) throws(SVGPathError) {
        let name = Character(Unicode.Scalar(letter))
        let upper = Character(Unicode.Scalar(letter & ~0x20))
        let relative = letter >= UInt8(ascii: "a")
        if upper == "Z" {
            close()
            return
        }
        skipWhitespace()
        var first = true
        while true {
            try argumentSet(upper, relative: relative, name: name, first: first)
            first = false
            let hadComma = skipCommaWhitespace()
            guard index < bytes.count, Self.startsNumber(bytes[index]) else {
                if hadComma { throw error("expected a number after ','") }
                return
            }
        }
    }

    private mutating func argumentSet(
        _ command: Character, relative: Bool, name: Character, first: Bool
    ) throws(SVGPathError) {
        let base = relative ? current : .zero
        switch command {
        case "M":
            let p = try pair(name) + base
            if first {
                moveTo(p)
            } else {
                lineTo(p)
            }
        case "L":
            lineTo(try pair(name) + base)
        case "H":
            let x = try number(name)
            lineTo(Point(x: relative ? current.x + x : x, y: current.y))
        case "V":
            let y = try number(name)
            lineTo(Point(x: current.x, y: relative ? current.y + y : y))
        case "C":
            let c1 = try pair(name) + base
            try separator()
            let c2 = try pair(name) + base
            try separator()
            let p = try pair(name) + base
            cubicTo(p, c1, c2)
        case "S":
            let c2 = try pair(name) + base
            try separator()
            let p = try pair(name) + base
            let c1 = lastCubicControl.map { current + (current - $0) } ?? current
            cubicTo(p, c1, c2)
        case "Q":
            let control = try pair(name) + base
            try separator()
            let p = try pair(name) + base
            quadTo(p, control)
        case "T":
            let p = try pair(name) + base
            let control = lastQuadControl.map { current + (current - $0) } ?? current
            quadTo(p, control)
        default:  // "A"
            let rx = try number(name)
            try separator()
            let ry = try number(name)
            try separator()
            let rotation = try number(name)
            try separator()
            let largeArc = try flag(name)
            try separator()
            let sweep = try flag(name)
            try separator()
            let p = try pair(name) + base
            arcTo(p, rx: rx, ry: ry, rotation: rotation, largeArc: largeArc, sweep: sweep)
        }
    }

    // MARK: Path building

    private mutating func beginDrawing() {
        if afterClose {
            path.elements.append(.move(to: current))
            afterClose = false
        }
    }

    private mutating func moveTo(_ p: Point) {
        path.elements.append(.move(to: p))
        current = p
        subpathStart = p
        afterClose = false
        lastCubicControl = nil
        lastQuadControl = nil
    }

    private mutating func lineTo(_ p: Point) {
        beginDrawing()
        path.elements.append(.line(to: p))
        current = p
        lastCubicControl = nil
        lastQuadControl = nil
    }

    private mutating func cubicTo(_ p: Point, _ c1: Point, _ c2: Point) {
        beginDrawing()
        path.elements.append(.cubic(to: p, control1: c1, control2: c2))
        current = p
        lastCubicControl = c2
        lastQuadControl = nil
    }

    private mutating func quadTo(_ p: Point, _ control: Point) {
        beginDrawing()
        let start = current
        path.elements.append(
            .cubic(
                to: p,
                control1: start + (control - start) * (2.0 / 3.0),
                control2: p + (control - p) * (2.0 / 3.0)))
        current = p
        lastCubicControl = nil
        lastQuadControl = control
    }

    private mutating func close() {
        if !afterClose {
            path.elements.append(.close)
        }
        current = subpathStart
        afterClose = true
        lastCubicControl = nil
        lastQuadControl = nil
    }

    /// Endpoint → centre conversion, SVG 1.1 implementation notes F.6.5 and F.6.6.
    private mutating func arcTo(
        _ end: Point, rx rawRX: Double, ry rawRY: Double, rotation: Double, largeArc: Bool, sweep: Bool
    ) {
        let start = current
        lastCubicControl = nil
        lastQuadControl = nil
        // F.6.2: identical end points omit the arc; a zero radius makes it a straight line.
        guard end != start else { return }
        var rx = abs(rawRX)
        var ry = abs(rawRY)
        guard rx > 0, ry > 0 else {
            lineTo(end)
            return
        }
        beginDrawing()
        let turn = AffineTransform.rotation(degrees: rotation)
        let (cosPhi, sinPhi) = (turn.a, turn.b)
        // Step 1: the start point in the ellipse's own axes, relative to the chord midpoint.
        let hx = (start.x - end.x) / 2
        let hy = (start.y - end.y) / 2
        let x1 = cosPhi * hx + sinPhi * hy
        let y1 = -sinPhi * hx + cosPhi * hy
        // F.6.6: scale radii that are too small to reach.
        let lambda = (x1 * x1) / (rx * rx) + (y1 * y1) / (ry * ry)
        if lambda > 1 {
            let scale = lambda.squareRoot()
            rx *= scale
            ry *= scale
        }
        // Step 2: the centre in the ellipse's axes.
        let numerator = rx * rx * ry * ry - rx * rx * y1 * y1 - ry * ry * x1 * x1
        let denominator = rx * rx * y1 * y1 + ry * ry * x1 * x1
        var coefficient = denominator > 0 ? max(0, numerator / denominator).squareRoot() : 0
        if largeArc == sweep { coefficient = -coefficient }
        let cx1 = coefficient * rx * y1 / ry
        let cy1 = -coefficient * ry * x1 / rx
        // Step 3: the centre in user space.
        let center = Point(
            x: cosPhi * cx1 - sinPhi * cy1 + (start.x + end.x) / 2,
            y: sinPhi * cx1 + cosPhi * cy1 + (start.y + end.y) / 2)
        // Step 4: start angle and sweep.
        let ux = (x1 - cx1) / rx
        let uy = (y1 - cy1) / ry
        let vx = (-x1 - cx1) / rx
        let vy = (-y1 - cy1) / ry
        let theta = atan2(uy, ux)
        var delta = atan2(ux * vy - uy * vx, ux * vx + uy * vy)
        if !sweep && delta > 0 {
            delta -= 2 * .pi
        } else if sweep && delta < 0 {
            delta += 2 * .pi
        }
        path.appendArcSegments(
            center: center, radiusX: rx, radiusY: ry, rotation: turn,
            startDegrees: DegreeTrig.degrees(theta), sweepDegrees: DegreeTrig.degrees(delta),
            exactEnd: end)
        current = end
    }

    // MARK: Tokens

    private static func isCommand(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "M"), UInt8(ascii: "m"), UInt8(ascii: "L"), UInt8(ascii: "l"),
            UInt8(ascii: "H"), UInt8(ascii: "h"), UInt8(ascii: "V"), UInt8(ascii: "v"),
            UInt8(ascii: "C"), UInt8(ascii: "c"), UInt8(ascii: "S"), UInt8(ascii: "s"),
            UInt8(ascii: "Q"), UInt8(ascii: "q"), UInt8(ascii: "T"), UInt8(ascii: "t"),
            UInt8(ascii: "A"), UInt8(ascii: "a"), UInt8(ascii: "Z"), UInt8(ascii: "z"):
            true
        default:
            false
        }
    }

    private static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private static func startsNumber(_ byte: UInt8) -> Bool {
        isDigit(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
            || byte == UInt8(ascii: "+")
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A
    }

    private mutating func skipWhitespace() {
        while index < bytes.count, Self.isWhitespace(bytes[index]) { index += 1 }
    }

    /// `comma-wsp?`; returns true when a comma was consumed.
    @discardableResult
    private mutating func skipCommaWhitespace() -> Bool {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ",") else { return false }
        index += 1
        skipWhitespace()
        return true
    }

    /// `comma-wsp?` between two numbers of one argument set: a comma there must be followed by
    /// more arguments, which the next token read checks.
    private mutating func separator() throws(SVGPathError) {
        skipCommaWhitespace()
    }

    private mutating func pair(_ command: Character) throws(SVGPathError) -> Point {
        let x = try number(command)
        try separator()
        let y = try number(command)
        return Point(x: x, y: y)
    }

    private mutating func digits() -> Int {
        let start = index
        while index < bytes.count, Self.isDigit(bytes[index]) { index += 1 }
        return index - start
    }

    /// `number ::= sign? (digits ('.' digits?)? | '.' digits) (('e'|'E') sign? digits)?`
    private mutating func number(_ command: Character) throws(SVGPathError) -> Double {
        let start = index
        if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            index += 1
        }
        var count = digits()
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            count += digits()
        }
        guard count > 0 else {
            index = start
            throw error("expected a number after '\(command)'")
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            var probe = index + 1
            if probe < bytes.count, bytes[probe] == UInt8(ascii: "+") || bytes[probe] == UInt8(ascii: "-") {
                probe += 1
            }
            if probe < bytes.count, Self.isDigit(bytes[probe]) {
                index = probe
                _ = digits()
            }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw error("number '\(text)' is out of range", at: start, showFound: false)
        }
        return value
    }

    private mutating func flag(_ command: Character) throws(SVGPathError) -> Bool {
        guard index < bytes.count,
            bytes[index] == UInt8(ascii: "0") || bytes[index] == UInt8(ascii: "1")
        else {
            throw error("expected a flag (0 or 1) after '\(command)'")
        }
        index += 1
        return bytes[index - 1] == UInt8(ascii: "1")
    }

    /// An error at `position` (default: the current index): "<what> at offset N, found 'c'".
    private func error(_ what: String, at position: Int? = nil, showFound: Bool = true)
        -> SVGPathError
    {
        let at = position ?? index
        let offset = String(decoding: bytes[..<at], as: UTF8.self).count
        guard showFound else {
            return SVGPathError(offset: offset, message: "\(what) at offset \(offset)")
        }
        let rest = String(decoding: bytes[at...], as: UTF8.self)
        let found = rest.first.map { "'\($0)'" } ?? "end of path data"
        return SVGPathError(offset: offset, message: "\(what) at offset \(offset), found \(found)")
    }
}
