// SPDX-License-Identifier: GPL-3.0-or-later

internal import Spec

/// A CSS stylesheet that plays the sheet with no script: the element `.NAME` is the frame's box
/// (the untrimmed frame size in CSS pixels, sheet pixels ÷ scale), and its `::before` shows
/// one cell of the sheet as its background. `@keyframes NAME-frames` holds one keyframe per frame, at
/// the frame's start as a percentage of the loop (CSS Animations Level 1), and
/// `animation-timing-function: steps(1, end)` (CSS Easing Functions Level 1) holds each
/// keyframe's value until the next, so frame *i* shows exactly from its start to the next
/// frame's start; the `100%` keyframe repeats the last frame. Only the properties that change
/// between frames are animated: `background-position` always, `left`/`top`/`width`/`height`
/// for trimmed or packed cells, `background-image` for a multipack. Under
/// `prefers-reduced-motion: reduce` the animation is paused on frame 0.
///
/// HTML: `<link rel="stylesheet" href="NAME.css">` and `<span class="NAME"></span>` (any
/// element; `display: inline-block` is set), with the PNG(s) beside the stylesheet.
enum SheetDataCSS {
    static func stylesheet(_ sheet: SheetDataInput) -> String {
        let a = sheet.animation
        let s = a.scale
        let ident = identifier(a.title)
        func px(_ v: Int) -> String { v == 0 ? "0" : formatNumber(Double(v) / s) + "px" }
        let frames = sheet.frames
        let first = frames[0]
        let sameBox = frames.allSatisfy {
            $0.width == first.width && $0.height == first.height && $0.sourceX == first.sourceX
                && $0.sourceY == first.sourceY
        }
        let samePage = frames.allSatisfy { $0.page == first.page }
        let pages = sheet.pages
        func url(_ page: Int) -> String { "url(\(string(pages[page].imageName)))" }
        func box(_ f: SheetFrame) -> String {
            "left: \(px(f.sourceX)); top: \(px(f.sourceY)); width: \(px(f.width)); height: \(px(f.height));"
        }
        func step(_ f: SheetFrame) -> String {
            var parts: [String] = []
            if !samePage { parts.append("background-image: \(url(f.page));") }
            if !sameBox { parts.append(box(f)) }
            parts.append("background-position: \(px(-f.x)) \(px(-f.y));")
            return parts.joined(separator: " ")
        }
        let total = a.durations.reduce(0, +)
        let count: String = if case .plays(let n) = a.loop { String(n) } else { "infinite" }
        var out = "/* \(comment(a.title)): \(frames.count) frames, \(formatNumber(Double(total) / 1000)) s"
        out +=
            ", from \(comment(pages.map(\.imageName).joined(separator: ", "))) (\(comment(a.app)) \(comment(a.version))).\n"
        out += "   HTML: <link rel=\"stylesheet\" href=\"THIS.css\"> and <span class=\"\(comment(ident))\"></span> */\n"
        out += ".\(ident) {\n  display: inline-block;\n  position: relative;\n  overflow: hidden;\n"
        out += "  width: \(px(first.sourceWidth));\n  height: \(px(first.sourceHeight));\n}\n"
        out += ".\(ident)::before {\n  content: \"\";\n  position: absolute;\n  \(box(first))\n"
        out += "  background: \(url(first.page)) no-repeat;\n"
        if samePage {
            out += "  background-size: \(px(pages[first.page].width)) \(px(pages[first.page].height));\n"
        } else {
            out += "  background-size: auto;\n"
        }
        out += "  background-position: \(px(-first.x)) \(px(-first.y));\n"
        // Longhands, so that a preset named like a keyword (`linear`, `both`) cannot be taken
        // for one; the keyframes get `-frames` so that `none` is a valid name too.
        out += "  animation-name: \(ident)-frames;\n"
        out += "  animation-duration: \(formatNumber(Double(total) / 1000))s;\n"
        out += "  animation-timing-function: steps(1, end);\n"
        out += "  animation-iteration-count: \(count);\n  animation-fill-mode: both;\n}\n"
        out += "@keyframes \(ident)-frames {\n"
        var start = 0
        for (i, f) in frames.enumerated() {
            let percent = formatNumber(Double(start) * 100 / Double(total))
            var text = step(f)
            if !samePage { text += " background-size: \(px(pages[f.page].width)) \(px(pages[f.page].height));" }
            out += "  \(percent)% { \(text) }\n"
            start += a.durations[i]
        }
        if let last = frames.last {
            var text = step(last)
            if !samePage {
                text += " background-size: \(px(pages[last.page].width)) \(px(pages[last.page].height));"
            }
            out += "  100% { \(text) }\n"
        }
        out += "}\n"
        out += "@media (prefers-reduced-motion: reduce) {\n  .\(ident)::before { animation-play-state: paused; }\n}\n"
        return out
    }

    /// `name` as a CSS identifier (CSSOM "serialize an identifier"): letters, digits, `-`, `_`
    /// and non-ASCII kept; a leading digit (or `-` digit) and control characters as `\HEX `;
    /// other ASCII backslash-escaped. An empty name becomes `sheet`.
    static func identifier(_ name: String) -> String {
        if name.isEmpty { return "sheet" }
        var out = ""
        let scalars = Array(name.unicodeScalars)
        for (i, c) in scalars.enumerated() {
            let v = c.value
            let digit = (0x30...0x39).contains(v)
            if v == 0 {
                out += "\u{FFFD}"
            } else if (0x01...0x1F).contains(v) || v == 0x7F || (digit && (i == 0 || (i == 1 && scalars[0] == "-"))) {
                out += "\\" + String(v, radix: 16) + " "
            } else if i == 0, c == "-", scalars.count == 1 {
                out += "\\-"
            } else if v >= 0x80 || digit || c == "-" || c == "_" || (0x41...0x5A).contains(v)
                || (0x61...0x7A).contains(v)
            {
                out.unicodeScalars.append(c)
            } else {
                out += "\\"
                out.unicodeScalars.append(c)
            }
        }
        return out
    }

    /// A CSS double-quoted string (CSSOM "serialize a string").
    static func string(_ s: String) -> String {
        var out = "\""
        for c in s.unicodeScalars {
            if c.value == 0 {
                out += "\u{FFFD}"
            } else if (0x01...0x1F).contains(c.value) || c.value == 0x7F {
                out += "\\" + String(c.value, radix: 16) + " "
            } else if c == "\"" || c == "\\" {
                out += "\\"
                out.unicodeScalars.append(c)
            } else {
                out.unicodeScalars.append(c)
            }
        }
        return out + "\""
    }

    /// Text safe inside a `/* */` comment.
    static func comment(_ s: String) -> String { s.replacingOccurrences(of: "*/", with: "* /") }
}

extension String {
    fileprivate func replacingOccurrences(of target: String, with replacement: String) -> String {
        var out = ""
        var rest = Substring(self)
        while let range = rest.firstRange(of: target) {
            out += rest[..<range.lowerBound] + replacement
            rest = rest[range.upperBound...]
        }
        return out + rest
    }
}
