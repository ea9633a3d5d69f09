import Foundation
import Raster
import Render
import Testing

/// `--preview out.html`: one self-contained page, checked in a real browser (Debian's headless
/// Chromium): its screenshot must show the animation, not a blank page.
@Suite(.serialized) struct PreviewTests {
    static let circular = packageRoot + "/presets/circular.json"
    static let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    @Test func pageIsSelfContained() throws {
        let dir = try temporaryDirectory()
        let run = try runTool(
            [Self.circular, "-o", "c.gif", "--preview", "review.html", "--set", "strokeWidth=6"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(listing(dir) == ["c.gif", "review.html"])
        let html = String(decoding: readBytes(dir + "/review.html"), as: UTF8.self)
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        // Nothing is fetched: no URL other than data: URIs.
        #expect(!html.contains("http://") && !html.contains("https://") && !html.contains("src=\"/"))
        #expect(html.contains("src=\"data:image/gif;base64,R0lGODlh"))  // "GIF89a"
        #expect(html.contains("url(data:image/png;base64,iVBORw0KGgo"))  // PNG signature
        // The GIF inlined is the GIF written.
        let written = Data(readBytes(dir + "/c.gif")).base64EncodedString()
        #expect(html.contains(written))
        // The sheet is animated with steps(): 120 cells, one keyframe per cell plus 100 %.
        #expect(html.contains("animation: steps-0 4000ms steps(1, end) infinite;"))
        #expect(html.components(separatedBy: "background-position:").count - 1 == 121)
        // Cell 1 starts after cell 0's 33 ms (the sheet's millisecond durations) of 4000 ms.
        #expect(
            html.contains(
                "@keyframes steps-0 { 0.0000% { background-position: 0px 0px; } 0.8250% { background-position: -64px 0px; }"
            ))
        // Params (with the override) and the timing report.
        #expect(html.contains("<td><code>strokeWidth</code></td><td><code>6</code></td><td><code>4</code></td>"))
        #expect(html.contains("120 frames at 30 fps, 400 cs in all, error 0 ms"))
        #expect(html.contains("some GIF players (several iOS libraries) raise those to 10 cs"))
        // The review controls: page colours (the preset's white matte among them), zoom, and a
        // scrubber per figure, the GIF's decoded in the page from its own data: URI.
        for bg in ["FFFFFF", "000000", "1C1C1E", "checker"] { #expect(html.contains("data-bg=\"\(bg)\"")) }
        #expect(html.contains("data-bg=\"FFFFFF\">matte #FFFFFF</button>"))
        #expect(html.contains("<input type=\"color\" id=\"custom-colour\""))
        for z in [1, 2, 4, 8] { #expect(html.contains("data-zoom=\"\(z)\"")) }
        #expect(html.contains("image-rendering: pixelated"))
        #expect(html.contains("<figure class=\"image\" id=\"fig-0-0\" data-type=\"image/gif\">"))
        #expect(html.contains("<canvas width=\"64\" height=\"64\""))
        #expect(html.contains("new ImageDecoder({ data: bytes, type })"))
        // GIF, APNG, WebP and the sprite, each with its scrubber.
        #expect(html.components(separatedBy: "<div class=\"scrub\">").count - 1 == 4)
        // The sprite's scrubber knows every cell: position in CSS px and duration in ms.
        #expect(html.contains("data-cells=\"0px 0px 33,-64px 0px 34,-128px 0px 33,"))
    }

    /// The page names the job's matte, and its bytes depend neither on TZ nor on the locale.
    @Test func matteButtonAndStableBytes() throws {
        let dir = try temporaryDirectory()
        let args = [Self.circular, "-o", "c.gif", "--matte", "#336699", "--preview", "a.html", "-q"]
        let first = try runTool(args, in: dir)
        #expect(first.status == 0, "\(first.stderr)")
        let second = try runTool(
            Array(args.dropLast(2)) + ["b.html", "-q"], in: dir,
            environment: ["TZ": "Pacific/Kiritimati", "LC_ALL": "de_DE.UTF-8", "LANG": "de_DE.UTF-8"])
        #expect(second.status == 0, "\(second.stderr)")
        let a = readBytes(dir + "/a.html")
        #expect(!a.isEmpty && a == readBytes(dir + "/b.html"))
        let html = String(decoding: a, as: UTF8.self)
        #expect(html.contains("<button type=\"button\" data-bg=\"336699\">matte #336699</button>"))
        #expect(!html.contains("matte #FFFFFF"))
    }

    /// `bluePixels` in the figures' rows (above y = 480 of the 800×600 shot), without the
    /// scrubbers' slider thumbs below them.
    static func figurePixels(_ image: RGBAImage) -> Set<Int> {
        bluePixels(image).filter { $0 / image.width < 480 }
    }

    /// #007AFF pixels (the ring's or the square's colour) in a screenshot.
    static func bluePixels(_ image: RGBAImage) -> Set<Int> {
        var found = Set<Int>()
        for y in 0..<image.height {
            for x in 0..<image.width {
                let p = image[x, y]
                // #007AFF is (0, 122, 255); Chromium's slider thumbs are (0, 117, 255).
                if p.r < 60, p.g >= 119, p.g < 160, p.b > 220 { found.insert(y * image.width + x) }
            }
        }
        return found
    }

    /// A headless Chromium screenshot of `page` (with `#fragment` when given) after `budget` ms
    /// of virtual time, or nil without Chromium.
    static func screenshot(
        _ page: String, fragment: String = "", budget: Int, width: Int = 800, height: Int = 600, in dir: String
    ) throws -> RGBAImage? {
        guard let chromium = Self.chromium else { return nil }
        let shot = dir + "/shot-\(budget)\(fragment.isEmpty ? "" : "-" + fragment).png"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: chromium)
        process.arguments = [
            "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
            "--user-data-dir=\(dir)/chromium-profile", "--window-size=\(width),\(height)",
            "--virtual-time-budget=\(budget)", "--screenshot=\(shot)",
            "file://\(page)" + (fragment.isEmpty ? "" : "#" + fragment),
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return try PNGCodec.decode(readBytes(shot))
    }

    /// A #007AFF square sliding across a 64 pt canvas and back, a 1 s loop.
    static let slidePreset = """
        {
          "version": 1,
          "name": "slide",
          "description": "A blue square sliding across and back.",
          "canvas": { "width": 64, "height": 64, "background": "transparent", "matte": "white" },
          "fps": 30,
          "params": {},
          "layers": [
            { "type": "rect", "center": [12, 32], "size": [20, 20], "fill": "#007AFF",
              "animations": [
                { "keyPath": "position", "fromValue": [12, 32], "toValue": [52, 32], "duration": 0.5,
                  "autoreverses": true, "repeatCount": "infinity" }
              ] }
          ]
        }
        """

    @Test func chromiumScreenshotShowsTheAnimation() throws {
        guard Self.chromium != nil else {
            Issue.record("Chromium is not installed; run 'make deps' (Debian package chromium)")
            return
        }
        let dir = try temporaryDirectory()
        // A square that slides 40 px every half second, so any two instants Chromium's virtual
        // time reaches differ (headless Chromium advances an animated image only a few frames
        // per second of budget; circular's first frames since issue 16 are a full ring that
        // barely changes).
        try Data(Self.slidePreset.utf8).write(to: URL(fileURLWithPath: dir + "/slide.json"))
        let run = try runTool(["slide.json", "--preview", "review.html", "-o", "c.gif", "-q"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        guard let early = try Self.screenshot(dir + "/review.html", budget: 700, in: dir) else { return }
        // Under a loaded machine Chromium's virtual time sometimes still shows the first frame
        // at 2.3 s (seen once in a parallel `make test`); a later budget is tried before the
        // square is declared still. A page whose animation never moves fails all three.
        var late = early
        for budget in [2300, 3100, 3900] {
            guard let shot = try Self.screenshot(dir + "/review.html", budget: budget, in: dir) else { return }
            late = shot
            if Self.figurePixels(early).symmetricDifference(Self.figurePixels(shot)).count > 40 { break }
        }
        #expect(early.width == 800 && early.height == 600)
        // Not blank: the page's default checkerboard (half its squares #E5E5EA), the figures and the
        // text stand out from white.
        let nonWhite = early.pixels.indices.filter { $0 % 4 == 0 && early.pixels[$0] < 240 }.count
        #expect(nonWhite > 4000, "only \(nonWhite) non-white pixels: a blank page?")
        // The square shows in both (the GIF and the CSS sprite) in the figures at the top of the
        // page, two by two, and it has moved between them. Only rows above 480 count: the
        // scrubbers' blue slider thumbs below each figure share its shade.
        let blueEarly = Self.figurePixels(early)
        let blueLate = Self.figurePixels(late)
        #expect(blueEarly.count > 40, "\(blueEarly.count) square pixels at 0.7 s")
        #expect(blueLate.count > 40, "\(blueLate.count) square pixels later")
        #expect(blueEarly.symmetricDifference(blueLate).count > 40, "the square did not move")
        let xs = (blueEarly.count > blueLate.count ? blueEarly : blueLate).map { $0 % 800 }
        #expect(
            (xs.min() ?? 800) < 100 && (xs.max() ?? 0) > 120,
            "one of GIF and sprite is missing: x in \(xs.min() ?? -1)…\(xs.max() ?? -1)")
    }

    /// `frame` of `gif` as Pillow decodes it, composited on `page`: `width × height` RGB triples.
    static func pillowFrame(_ gif: String, frame: Int, on page: (Int, Int, Int)) throws -> (
        frames: Int, width: Int, height: Int, rgb: [UInt8]
    ) {
        let script = """
            import sys
            from PIL import Image
            im = Image.open(sys.argv[1])
            im.seek(int(sys.argv[2]))
            frame = im.convert("RGBA")
            page = Image.new("RGBA", frame.size, tuple(int(v) for v in sys.argv[3:6]) + (255,))
            print(im.n_frames, frame.size[0], frame.size[1])
            print(Image.alpha_composite(page, frame).convert("RGB").tobytes().hex())
            """
        let run = try runPython(
            script, arguments: [gif, String(frame), String(page.0), String(page.1), String(page.2)])
        let lines = run.stdout.split(separator: "\n").map(String.init)
        let head = lines.first?.split(separator: " ").compactMap { Int($0) } ?? []
        guard run.status == 0, head.count == 3, lines.count == 2 else {
            Issue.record("Pillow: \(run.stderr)")
            return (0, 0, 0, [])
        }
        var rgb: [UInt8] = []
        var digits = lines[1].makeIterator()
        while let hi = digits.next(), let lo = digits.next(), let byte = UInt8(String([hi, lo]), radix: 16) {
            rgb.append(byte)
        }
        return (head[0], head[1], head[2], rgb)
    }

    /// The top-left corner of the first place where `screen` shows the `width × height` RGB image
    /// `rgb` with every pixel a `zoom × zoom` block, scanning rows from the top; nil if none.
    static func find(_ rgb: [UInt8], width: Int, height: Int, zoom: Int, in screen: RGBAImage) -> (x: Int, y: Int)? {
        // Pixels unlike the corner first: a wrong offset fails at once.
        let all = 0..<width * height
        let differs = { (k: Int) in (rgb[3 * k], rgb[3 * k + 1], rgb[3 * k + 2]) != (rgb[0], rgb[1], rgb[2]) }
        let order = all.filter(differs) + all.filter { !differs($0) }
        let s = screen.pixels
        guard screen.width >= width * zoom, screen.height >= height * zoom else { return nil }
        for oy in 0...(screen.height - height * zoom) {
            search: for ox in 0...(screen.width - width * zoom) {
                for k in order {
                    let at = 4 * ((oy + (k / width) * zoom) * screen.width + ox + (k % width) * zoom)
                    if s[at] != rgb[3 * k] || s[at + 1] != rgb[3 * k + 1] || s[at + 2] != rgb[3 * k + 2] {
                        continue search
                    }
                }
                return (ox, oy)
            }
        }
        return nil
    }

    /// `#bg=…&frame=N&zoom=Z` chooses the state without clicks. The page colour fills the page
    /// around the GIF figure, and the canvas shows frame N of the GIF exactly as Pillow decodes
    /// it (composited on the page colour), every pixel a Z × Z block.
    @Test(arguments: [(30, 4, "1C1C1E"), (75, 2, "FFFFFF")])
    func chromiumScrubsTheGIFOnThePageColour(frame: Int, zoom: Int, page: String) throws {
        guard Self.chromium != nil else {
            Issue.record("Chromium is not installed; run 'make deps' (Debian package chromium)")
            return
        }
        let dir = try temporaryDirectory()
        let run = try runTool([Self.circular, "-o", "c.gif", "--preview", "review.html", "-q"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        guard let value = Int(page, radix: 16) else { return }
        let colour = (value >> 16, (value >> 8) & 255, value & 255)
        let expected = try Self.pillowFrame(dir + "/c.gif", frame: frame, on: colour)
        let (w, h) = (expected.width, expected.height)
        #expect(expected.frames == 120 && w == 64 && h == 64)
        guard expected.rgb.count == 3 * w * h else { return }
        // Frame N is not frame 0: a live GIF stuck at its start cannot pass for it.
        let start = try Self.pillowFrame(dir + "/c.gif", frame: 0, on: colour)
        #expect(start.rgb != expected.rgb)
        let fragment = "bg=\(page)&frame=\(frame)&zoom=\(zoom)"
        // Headless Chromium takes the screenshot when its virtual time budget runs out, which
        // does not wait for ImageDecoder's decodes (they run on real threads): on a quiet
        // machine 4 of 30 screenshots of this page (same file, same command) still showed the
        // GIF playing or the canvas not yet drawn, at a budget of 10 s as at 3 s. So up to four
        // screenshots are taken, and the frame must be found exactly in one of them.
        var found: (shot: RGBAImage, at: (x: Int, y: Int))?
        for _ in 0..<4 where found == nil {
            guard
                let shot = try Self.screenshot(
                    dir + "/review.html", fragment: fragment, budget: 3000, width: 1000, height: 800, in: dir)
            else { return }
            if let at = Self.find(expected.rgb, width: w, height: h, zoom: zoom, in: shot) { found = (shot, at) }
        }
        guard let (shot, at) = found else {
            Issue.record(
                "frame \(frame) of the GIF at \(zoom)× is nowhere on the page in 4 screenshots (\(dir)/shot-3000-\(fragment).png)"
            )
            return
        }
        // The page colour, far from any figure (the body's corner).
        let corner = shot[2, 2]
        #expect(
            (Int(corner.r), Int(corner.g), Int(corner.b)) == colour, "corner \(corner) on #\(page)")
        guard at.x >= 3, at.y >= 3, at.x + w * zoom + 3 <= shot.width, at.y + h * zoom + 3 <= shot.height else {
            Issue.record("frame found at the screenshot's edge: \(at)")
            return
        }
        // Every device pixel of the canvas, and a 3 px band around it on the page colour.
        var wrong = 0
        var aroundWrong = 0
        for y in (at.y - 3)..<(at.y + h * zoom + 3) {
            for x in (at.x - 3)..<(at.x + w * zoom + 3) {
                let p = shot[x, y]
                let got = (Int(p.r), Int(p.g), Int(p.b))
                let (u, v) = (x - at.x, y - at.y)
                if u >= 0, v >= 0, u < w * zoom, v < h * zoom {
                    let k = 3 * ((v / zoom) * w + u / zoom)
                    let want = (Int(expected.rgb[k]), Int(expected.rgb[k + 1]), Int(expected.rgb[k + 2]))
                    if got != want { wrong += 1 }
                } else if got != colour {
                    aroundWrong += 1
                }
            }
        }
        #expect(wrong == 0, "\(wrong) canvas pixels differ from Pillow's frame \(frame)")
        #expect(aroundWrong == 0, "\(aroundWrong) pixels around the GIF figure are not #\(page)")
        // The GIF is the first figure: left of the page's middle, below the controls.
        #expect(at.x < 200 && at.y > 60, "found at \(at)")
    }

    /// The DOM Chromium holds after `budget` ms of virtual time, serialised, or nil without it.
    /// With `until`, a DOM it does not accept is dumped again with three and nine times the budget
    /// first: `ImageDecoder` decodes on a thread of its own that virtual time does not wait for,
    /// so on a busy (or, about one run in three, a quiet) machine the page could be dumped before
    /// its first decode had landed. The caller still asserts on the DOM it gets.
    static func dumpDOM(
        _ page: String, fragment: String, budget: Int, in dir: String, until done: ((String) -> Bool)? = nil
    ) throws -> String? {
        guard let chromium = Self.chromium else { return nil }
        var dom = ""
        for attempt in [budget, 3 * budget, 9 * budget] {
            let run = try runProcess(
                chromium,
                [
                    "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                    "--user-data-dir=\(dir)/chromium-profile", "--virtual-time-budget=\(attempt)", "--dump-dom",
                    "file://\(page)#\(fragment)",
                ])
            dom = run.stdout
            guard let done, !done(dom) else { break }
        }
        return dom
    }

    /// The scrubbers' read-outs for `#frame=30`: the GIF's from the decoder (frame 30 starts at
    /// 1000 ms and lasts 30 ms: delays 3, 4, 3 cs repeating), the sprite's from its cells (33, 34,
    /// 33 ms). Without `ImageDecoder` (removed before the page's script runs) the GIF keeps
    /// playing, the note says why, and the sprite still scrubs.
    @Test func scrubberReadoutsAndNoImageDecoder() throws {
        guard Self.chromium != nil else {
            Issue.record("Chromium is not installed; run 'make deps' (Debian package chromium)")
            return
        }
        let dir = try temporaryDirectory()
        let run = try runTool([Self.circular, "-o", "c.gif", "--preview", "review.html", "-q"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        let page = String(decoding: readBytes(dir + "/review.html"), as: UTF8.self)
        let sprite = "<output>frame 30 of 120 (1000 ms) · cell 30 of 120, at 1000 ms for 33 ms</output>"
        let decoded = "<output>frame 30 of 120 (1000 ms) · image frame 30 of 120, at 1000 ms for 30 ms</output>"
        guard
            let dom = try Self.dumpDOM(
                dir + "/review.html", fragment: "frame=30", budget: 2000, in: dir, until: { $0.contains(decoded) })
        else {
            return
        }
        #expect(dom.contains(decoded))
        #expect(dom.contains(sprite))
        #expect(dom.contains("<p class=\"note\" id=\"no-decoder\" hidden=\"\">"))
        // Paused: the live GIF is hidden behind the canvas (the attribute lands after src).
        let hiddenGIF = #"<img id="gif-0"[^>]* hidden="""#
        #expect(dom.range(of: hiddenGIF, options: .regularExpression) != nil)

        let without = page.replacingOccurrences(
            of: "<body class=\"checker\">", with: "<body class=\"checker\"><script>delete window.ImageDecoder;</script>"
        )
        #expect(without != page)
        try writeFile(without, to: dir + "/without.html")
        guard let bare = try Self.dumpDOM(dir + "/without.html", fragment: "frame=30", budget: 2000, in: dir) else {
            return
        }
        #expect(bare.contains("<p class=\"note\" id=\"no-decoder\">"))
        #expect(bare.contains("<output>no ImageDecoder</output>"))
        #expect(bare.contains(sprite))
        #expect(bare.contains("<img id=\"gif-0\" alt=\"GIF\""))
        #expect(bare.range(of: hiddenGIF, options: .regularExpression) == nil)
    }

    /// A square that slides out, holds for half the loop and slides back: the GIF, the APNG and
    /// the WebP merge the 15 held frames into one (16 frames, delays summed), the sheet keeps 30.
    /// The scrubbers step by time, so `#frame=25` (t = 25.5 / 30 s = 850 ms, on the way back)
    /// shows in every format the frame on screen at 850 ms: cell 25 of the sheet, frame 11 of
    /// the others; indexing by frame would show their last frame.
    @Test func scrubbersStepByTimeAcrossMergedFrames() throws {
        guard Self.chromium != nil else {
            Issue.record("Chromium is not installed; run 'make deps' (Debian package chromium)")
            return
        }
        let dir = try temporaryDirectory()
        try writeFile(
            """
            { "version": 1, "name": "hold", "canvas": { "width": 64, "height": 64, "background": "transparent" },
              "fps": 30, "params": {},
              "layers": [ { "type": "rect", "center": [12, 32], "size": [20, 20], "fill": "#007AFF",
                "animations": [ { "keyPath": "position", "values": [[12, 32], [52, 32], [52, 32], [12, 32]],
                  "keyTimes": [0, 0.25, 0.75, 1], "duration": 1, "repeatCount": "infinity" } ] } ] }
            """, to: dir + "/hold.json")
        let run = try runTool([dir + "/hold.json", "-o", "h.gif", "--preview", "review.html", "-q"], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        let page = String(decoding: readBytes(dir + "/review.html"), as: UTF8.self)
        #expect(page.contains("<div class=\"stage\" data-steps=\"30\" data-period=\"1000\">"))
        #expect(page.contains("<tr><th>GIF</th><td>16 frames at 30 fps"))
        #expect(page.contains("<tr><th>APNG</th><td>16 frames at 30 fps"))
        // Each read-out names the loop's step first (frame 25 of the 30 steps, at 833.3 ms), then
        // the format's own frame on screen.
        let pattern =
            #"<output>frame 25 of 30 \(833\.3 ms\) · (image frame|cell) ([0-9]+) of ([0-9]+), at ([0-9.]+) ms for ([0-9.]+) ms</output>"#
        let regex = try NSRegularExpression(pattern: pattern)
        // All four read-outs (GIF, APNG, WebP decoded, the sheet's cell) complete before the page
        // is judged; a dump taken while one was still being written is retried with more time.
        guard
            let dom = try Self.dumpDOM(
                dir + "/review.html", fragment: "frame=25", budget: 3000, in: dir,
                until: { regex.numberOfMatches(in: $0, range: NSRange($0.startIndex..., in: $0)) == 4 })
        else {
            return
        }
        let matches = regex.matches(in: dom, range: NSRange(dom.startIndex..., in: dom))
        let readouts = matches.map { m in
            (1...5).map { i in String(dom[Range(m.range(at: i), in: dom)!]) }
        }
        // GIF, APNG, WebP, sheet, in page order.
        let outputs = try NSRegularExpression(pattern: "<output>[^<]*</output>")
            .matches(in: dom, range: NSRange(dom.startIndex..., in: dom)).map { String(dom[Range($0.range, in: dom)!]) }
        #expect(
            readouts.map { $0[1] + "/" + $0[2] } == ["11/16", "11/16", "11/16", "25/30"], "\(readouts); \(outputs)")
        for r in readouts {
            guard let start = Double(r[3]), let length = Double(r[4]) else { continue }
            #expect(start <= 850 && 850 < start + length, "\(r): not on screen at 850 ms")
        }
        // Every scrubber has the loop's 30 steps, whatever its frame count.
        #expect(dom.components(separatedBy: #"type="range" min="0" max="29""#).count - 1 == 4)
    }
}
