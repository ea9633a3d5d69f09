// SPDX-License-Identifier: GPL-3.0-or-later

import Encode
import Export
import Foundation
import Spec

/// The `--preview` page: one self-contained HTML file (no outside requests) where a designer
/// reviews every animated product of every job before shipping it.
///
/// - Every product with `previewBytes` and a timing report is shown side by side, chosen by data,
///   not by format: a product with a sheet layout is a CSS `steps()` sprite, every other one an
///   `<img>` of its main file under its `mediaType` (GIF today; APNG and WebP the moment their
///   formats keep bytes).
/// - A page-colour switch (white, black, `#1C1C1E`, each job's GIF matte, a checkerboard, any
///   colour) and a zoom (1×, 2×, 4×, 8×, pixelated) apply to every figure at once.
/// - A frame scrubber per figure: images are decoded in the page by WebCodecs' `ImageDecoder`
///   from the same base64 bytes and drawn on a canvas; sprites step their background position.
///   Without `ImageDecoder` the images play and a note says why they cannot be scrubbed.
///   The scrubbers step by time, not by frame index: every figure of a job has the loop's
///   frame count of steps (`data-steps` and `data-period`, ms, on its stage), and step k shows,
///   in each format, the frame on screen at t = (k + ½) × period ÷ steps, found from that
///   format's own frame durations (the decoder's, or the sheet's cells). A format that merges
///   identical frames and sums their delays (APNG, WebP, a packed sheet) has fewer frames, and
///   its scrubber still shows the instant the others show; the middle of a step keeps the
///   pick clear of the few milliseconds each container rounds its delays by. A paused figure's
///   read-out names the loop's step first, then its own frame: `frame 25 of 30 (833.3 ms) ·
///   image frame 11 of 16, at 833.3 ms for 33.3 ms` (`cell …` for a sheet).
/// - The state can be chosen by URL fragment, `#bg=1C1C1E&zoom=4&frame=30` (`bg` is six hex
///   digits, `white`, `black` or `checker`, any case; `zoom` 1, 2, 4 or 8; `frame` pauses every
///   figure at that step of the loop, clamped to its job's steps), and the page keeps the
///   fragment up to date.
///
/// Images are inlined as base64 `data:` URIs; each sheet is inlined once and shared by its two
/// uses through a CSS class. The bytes depend only on the products (no dates, no locale).
enum PreviewPage {
    /// The page colours offered before the mattes and the custom colour: label and hex digits.
    static let pageColours: [(label: String, hex: String)] = [
        ("white", "FFFFFF"), ("black", "000000"), ("#1C1C1E", "1C1C1E"),
    ]

    static func html(_ products: [JobProduct]) -> String {
        let title = products.map(\.job.stem).joined(separator: ", ")
        var css = baseCSS
        var body = "<h1>animexport preview</h1>\n" + controls(mattes: mattes(products))
        body += """
            <p class="note" id="no-decoder" hidden>This browser has no <code>ImageDecoder</code> \
            (WebCodecs), so only the sprite sheets can be scrubbed frame by frame; the images still \
            play. Chromium-based browsers have it.</p>

            """
        for (n, product) in products.enumerated() {
            let section = self.section(product, index: n)
            css += section.css
            body += section.html
        }
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <title>\(escape(title)) — animexport preview</title>
            <style>
            \(css)</style>
            </head>
            <body class="checker">
            \(body)<script>
            \(script)</script>
            </body>
            </html>

            """
    }

    /// Every job's GIF matte as `RRGGBB`, first appearance first, without repeats.
    static func mattes(_ products: [JobProduct]) -> [String] {
        var out: [String] = []
        for product in products {
            guard let m = product.job.request.settings.gif.matte else { continue }
            // The matte's alpha is ignored: a page is opaque (GIFOptions.matte).
            let hex = String(RGBAColor(red: m.red, green: m.green, blue: m.blue).hexString.dropFirst())
            if !out.contains(hex) { out.append(hex) }
        }
        return out
    }

    private static let baseCSS = """
        :root { --page: #ffffff; --ink: #1c1c1e; --ink2: #6e6e73; --zoom: 1; }
        body { font: 14px/1.4 system-ui, sans-serif; margin: 24px; background: var(--page); color: var(--ink); }
        body.checker { background: repeating-conic-gradient(#e5e5ea 0% 25%, #ffffff 0% 50%) 0 0 / 16px 16px; }
        h1 { font-size: 18px; margin: 0 0 16px; }
        h2 { font-size: 16px; margin: 32px 0 8px; }
        .controls { display: flex; flex-wrap: wrap; gap: 8px 24px; align-items: center; margin: 0 0 8px; }
        .controls span { color: var(--ink2); }
        button { font: inherit; font-size: 12px; }
        button[aria-pressed="true"] { font-weight: bold; }
        .stage { display: flex; flex-wrap: wrap; gap: 32px; align-items: flex-start; }
        figure { margin: 0; }
        figcaption, .scrub output { font-size: 12px; color: var(--ink2); }
        figcaption { margin-top: 4px; }
        .media { zoom: var(--zoom); line-height: 0; }
        .media img, .media canvas, .media div { image-rendering: pixelated; }
        .scrub { display: flex; gap: 6px; align-items: center; margin-top: 4px; }
        .scrub input { width: 120px; }
        table { border-collapse: collapse; margin: 8px 0; }
        td, th { text-align: left; padding: 2px 12px 2px 0; vertical-align: top; }
        th { color: var(--ink2); font-weight: normal; }
        .warn { color: #b25000; }
        .note { color: var(--ink2); font-size: 12px; }
        code { font: 12px ui-monospace, monospace; }

        """

    /// The page-colour and zoom switches.
    private static func controls(mattes: [String]) -> String {
        var html = "<div class=\"controls\">\n<div id=\"page-colours\"><span>page</span>\n"
        for (label, hex) in pageColours {
            html += "<button type=\"button\" data-bg=\"\(hex)\">\(escape(label))</button>\n"
        }
        for hex in mattes {
            html += "<button type=\"button\" data-bg=\"\(hex)\">matte #\(hex)</button>\n"
        }
        html += """
            <button type="button" data-bg="checker" aria-pressed="true">checkerboard</button>
            <label><input type="color" id="custom-colour" value="#1c1c1e"> custom</label>
            </div>
            <div id="zooms"><span>zoom</span>

            """
        for z in [1, 2, 4, 8] {
            html +=
                "<button type=\"button\" data-zoom=\"\(z)\"\(z == 1 ? " aria-pressed=\"true\"" : "")>\(z)×</button>\n"
        }
        return html + "</div>\n</div>\n"
    }

    /// The name of a product in captions and the timing table: `sheet` for a sprite sheet, else
    /// its media subtype in capitals (`image/gif` → `GIF`).
    private static func label(_ product: FormatProduct) -> String {
        if product.sheet != nil { return "sheet" }
        let type = product.target.kind.format.mediaType
        return String(type.split(separator: "/").last ?? Substring(type)).uppercased()
    }

    /// The products shown as figures: animated (with a timing report), with bytes kept, the
    /// first of each kind (`-o a.gif -o dir/` makes the same GIF twice).
    private static func shown(_ product: JobProduct) -> [FormatProduct] {
        var kinds: Set<OutputFormatKind> = []
        return product.products.filter {
            $0.previewBytes != nil && $0.timing != nil && kinds.insert($0.target.kind).inserted
        }
    }

    /// CSS and HTML for one job.
    private static func section(_ product: JobProduct, index n: Int) -> (css: String, html: String) {
        let job = product.job
        var css = ""
        var html =
            "<section id=\"job-\(n)\">\n<h2>\(escape(job.stem)) <small><code>\(escape(job.presetPath.description))</code></small></h2>\n"
        if !job.composition.description.isEmpty { html += "<p>\(escape(job.composition.description))</p>\n" }
        // The scrubbers' time grid: the loop's frames, and its period in ms.
        html +=
            "<div class=\"stage\" data-steps=\"\(max(1, job.plan.frameCount))\" data-period=\"\(formatNumber(job.plan.period * 1000))\">\n"
        let size = job.request.pixelSize
        let scale = job.scale
        for (m, format) in shown(product).enumerated() {
            guard let bytes = format.previewBytes else { continue }
            let id = "\(n)-\(m)"
            let scrub = """
                <div class="scrub"><button type="button" class="play" aria-pressed="true">pause</button>\
                <input type="range" min="0" max="0" value="0" aria-label="frame"><output></output></div>
                """
            if let sheet = format.sheet, let first = sheet.frames.first {
                css += """
                    .sheet-\(n) { background-image: url(data:image/png;base64,\(Data(bytes).base64EncodedString())); \
                    background-repeat: no-repeat; \
                    background-size: \(cssPixels(sheet.width, scale))px \(cssPixels(sheet.height, scale))px; }
                    .sprite-\(n) { width: \(cssPixels(first.width, scale))px; height: \(cssPixels(first.height, scale))px; \
                    animation: steps-\(n) \(sheet.frames.map(\.duration).reduce(0, +))ms steps(1, end) infinite; }
                    \(keyframes(sheet, name: "steps-\(n)", scale: scale))

                    """
                // Each cell's position in CSS pixels and its duration in ms, for the scrubber.
                let cells = sheet.frames.map {
                    "\(cssPixels(-$0.x, scale))px \(cssPixels(-$0.y, scale))px \($0.duration)"
                }
                html += """
                    <figure class="sprite" id="fig-\(id)" data-cells="\(cells.joined(separator: ","))">\
                    <div class="media"><div id="sprite-\(n)" class="sheet-\(n) sprite-\(n)"></div></div>\
                    <figcaption>sprite sheet, CSS steps(), \(Command.formatBytes(bytes.count))</figcaption>
                    \(scrub)</figure>

                    """
            } else {
                let (w, h) = (cssPixels(size.width, scale), cssPixels(size.height, scale))
                let type = format.target.kind.format.mediaType
                let name = label(format)
                html += """
                    <figure class="image" id="fig-\(id)" data-type="\(escape(type))"><div class="media">\
                    <img id="\(escape(format.target.kind.rawValue))-\(n)" alt="\(escape(name))" width="\(w)" height="\(h)" \
                    src="data:\(escape(type));base64,\(Data(bytes).base64EncodedString())">\
                    <canvas width="\(size.width)" height="\(size.height)" style="width: \(w)px; height: \(h)px" hidden></canvas>\
                    </div><figcaption>\(escape(name)), \(Command.formatBytes(bytes.count))</figcaption>
                    \(scrub)</figure>

                    """
            }
        }
        html += "</div>\n"
        html += paramsTable(job.composition.parameters)
        html += timingBlock(product)
        if let sheet = shown(product).first(where: { $0.sheet != nil })?.sheet {
            html += """
                <details><summary>whole sheet: \(sheet.columns > 0 ? "\(sheet.columns)×\(sheet.rows) cells" : "packed"), \(sheet.width)×\(sheet.height) px</summary>
                <div class="sheet-\(n)" style="width: \(cssPixels(sheet.width, job.scale))px; \
                height: \(cssPixels(sheet.height, job.scale))px"></div></details>

                """
        }
        html += "</section>\n"
        return (css, html)
    }

    /// One keyframe per cell at its start time as a percentage of the loop, held by `steps(1, end)`.
    private static func keyframes(_ sheet: SheetSummary, name: String, scale: Double) -> String {
        let total = max(1, sheet.frames.map(\.duration).reduce(0, +))
        var out = "@keyframes \(name) {"
        var elapsed = 0
        for frame in sheet.frames + [sheet.frames.last].compactMap({ $0 }) {
            let position = "\(cssPixels(-frame.x, scale))px \(cssPixels(-frame.y, scale))px"
            out += " \(percent(elapsed, of: total)) { background-position: \(position); }"
            elapsed = min(total, elapsed + frame.duration)
        }
        return out + " }"
    }

    /// `12.3456%` from integers, so the text never depends on the locale.
    static func percent(_ part: Int, of total: Int) -> String {
        let scaled = part * 1_000_000 / total
        let fraction = String(scaled % 10_000)
        return "\(scaled / 10_000).\(String(repeating: "0", count: 4 - fraction.count))\(fraction)%"
    }

    /// Image pixels as CSS pixels at `scale` pixels per point.
    private static func cssPixels(_ pixels: Int, _ scale: Double) -> String {
        formatNumber(Double(pixels) / scale)
    }

    private static func paramsTable(_ parameters: [Parameter]) -> String {
        guard !parameters.isEmpty else { return "<p>No params.</p>\n" }
        var html = "<table class=\"params\"><tr><th>param</th><th>value</th><th>default</th><th>about</th></tr>\n"
        for p in parameters {
            html +=
                "<tr><td><code>\(escape(p.name))</code></td><td><code>\(escape(p.value.description))</code></td><td><code>\(escape(p.defaultValue.description))</code></td><td>\(escape(p.description))</td></tr>\n"
        }
        return html + "</table>\n"
    }

    /// `cs`, `ms`, or `1/N s` for a grid of N steps per second.
    private static func unit(_ grid: TimingReport.Grid) -> String { grid.unit }

    private static func timingBlock(_ product: JobProduct) -> String {
        var html = "<table class=\"timing\">\n"
        let plan = product.job.plan
        html += "<tr><th>loop</th><td>\(formatNumber(plan.period)) s from t = \(formatNumber(plan.start)) s</td></tr>\n"
        let timed = shown(product).compactMap { format in format.timing.map { (label(format), $0) } }
        for (label, report) in timed {
            let total = report.frames.map(\.delay).reduce(0, +)
            html +=
                "<tr><th>\(escape(label))</th><td>\(report.frames.count) frames at \(formatNumber(report.fps)) fps, \(total) \(unit(report.grid)) in all, error \(formatNumber(report.durationError * 1000)) ms</td></tr>\n"
            for warning in report.warnings {
                html += "<tr><th></th><td class=\"warn\">\(escape(warning))</td></tr>\n"
            }
        }
        html += "</table>\n"
        for (label, report) in timed {
            html += "<details><summary>\(escape(label)) frames</summary><table><tr><th>frame</th><th>meant at</th>"
            html += "<th>shown at</th><th>delay</th></tr>\n"
            for f in report.frames {
                html +=
                    "<tr><td>\(f.index)</td><td>\(formatNumber(f.time * 1000)) ms</td><td>\(formatNumber(f.encodedTime * 1000)) ms</td><td>\(f.delay) \(unit(report.grid))</td></tr>\n"
            }
            html += "</table></details>\n"
        }
        return html
    }

    /// Text made safe inside HTML elements and attribute values.
    static func escape(_ text: String) -> String {
        var out = ""
        for c in text {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(c)
            }
        }
        return out
    }

    /// The page's behaviour: page colour, zoom, the URL fragment and one scrubber per figure.
    /// Numbers are printed with `Number.prototype.toString`, which ignores the locale.
    private static let script = #"""
        "use strict";
        (() => {
          const root = document.documentElement;
          const state = { bg: "checker", zoom: "1", frame: null };
          const figures = [];

          // Rec. 709 luma of the sRGB channels: light pages get dark text, dark ones light text.
          function isLight(hex) {
            const v = parseInt(hex, 16);
            return 0.2126 * ((v >> 16) & 255) + 0.7152 * ((v >> 8) & 255) + 0.0722 * (v & 255) > 140;
          }
          function setPage(bg) {
            const checker = bg === "checker";
            if (!checker && !/^[0-9A-F]{6}$/.test(bg)) return;
            state.bg = bg;
            document.body.classList.toggle("checker", checker);
            const light = checker || isLight(bg);
            root.style.setProperty("--page", checker ? "#ffffff" : "#" + bg);
            root.style.setProperty("--ink", light ? "#1c1c1e" : "#f2f2f7");
            root.style.setProperty("--ink2", light ? "#6e6e73" : "#aeaeb2");
            for (const b of document.querySelectorAll("[data-bg]")) {
              b.setAttribute("aria-pressed", String(b.dataset.bg === bg));
            }
            if (!checker) document.getElementById("custom-colour").value = "#" + bg.toLowerCase();
          }
          function setZoom(z) {
            if (!["1", "2", "4", "8"].includes(z)) return;
            state.zoom = z;
            root.style.setProperty("--zoom", z);
            for (const b of document.querySelectorAll("[data-zoom]")) {
              b.setAttribute("aria-pressed", String(b.dataset.zoom === z));
            }
          }
          function writeHash() {
            const parts = ["bg=" + state.bg, "zoom=" + state.zoom];
            if (state.frame !== null) parts.push("frame=" + state.frame);
            history.replaceState(null, "", "#" + parts.join("&"));
          }
          function readHash() {
            for (const part of location.hash.slice(1).split("&")) {
              const [key, value] = part.split("=");
              // The buttons' names (white, black) work like their hex digits.
              const named = { CHECKER: "checker", WHITE: "FFFFFF", BLACK: "000000" };
              if (key === "bg" && value) setPage(named[value.toUpperCase()] || value.toUpperCase());
              if (key === "zoom" && value) setZoom(value);
              if (key === "frame" && /^[0-9]+$/.test(value || "")) state.frame = Number(value);
            }
            if (state.frame !== null) for (const f of figures) if (f.count > 0) f.pause(state.frame);
          }
          const ms = (us) => String(Math.round(us / 100) / 10);

          // The controls every figure shares; `f.draw(i)` and `f.live(on)` come from its kind.
          // The range steps through the job's loop by time: step k is the instant
          // (k + 1/2) * period / steps, and each format draws its frame on screen then, found
          // from its own durations (`f.ready`), however many frames it merged.
          function scrubber(fig) {
            const button = fig.querySelector(".play");
            const range = fig.querySelector("input[type=range]");
            const output = fig.querySelector("output");
            const stage = fig.closest(".stage");
            const steps = Math.max(1, Number(stage.dataset.steps) || 1);
            const period = Number(stage.dataset.period) || 0;
            const f = { count: 0, steps, step: "", playing: true, output, starts: [], draw: () => {}, live: () => {} };
            button.disabled = range.disabled = true;
            // `durations` in ms, one per frame of this format.
            f.ready = (durations) => {
              f.count = durations.length;
              let t = 0;
              f.starts = durations.map((d) => ((t += d), t - d));
              range.max = String(steps - 1);
              button.disabled = range.disabled = false;
              output.textContent = f.count + " frames";
              if (state.frame !== null) f.pause(state.frame);
            };
            // The frame on screen at `t` ms: the last that starts at or before it.
            f.frameAt = (t) => {
              let i = 0;
              while (i + 1 < f.count && f.starts[i + 1] <= t) i++;
              return i;
            };
            f.pause = (step) => {
              const k = Math.max(0, Math.min(steps - 1, step));
              f.playing = false;
              button.textContent = "play";
              button.setAttribute("aria-pressed", "false");
              range.value = String(k);
              f.live(false);
              // The read-out names the loop's frame k (and its time), as the range counts them,
              // then the format's own frame or cell on screen then.
              f.step = "frame " + k + " of " + steps + " (" + ms((k * period * 1000) / steps) + " ms)";
              f.draw(f.frameAt(((k + 0.5) * period) / steps));
            };
            f.play = () => {
              f.playing = true;
              button.textContent = "pause";
              button.setAttribute("aria-pressed", "true");
              f.live(true);
              output.textContent = f.count + " frames";
            };
            button.addEventListener("click", () => (f.playing ? f.pause(Number(range.value)) : f.play()));
            range.addEventListener("input", () => f.pause(Number(range.value)));
            figures.push(f);
            return f;
          }

          // A sprite: the cell's background position, held while paused.
          function sprite(fig) {
            const f = scrubber(fig);
            const el = fig.querySelector(".media div");
            const cells = fig.dataset.cells.split(",").map((c) => c.split(" "));
            f.draw = (i) => {
              el.style.animation = "none";
              el.style.backgroundPosition = cells[i][0] + " " + cells[i][1];
              f.output.textContent = f.step + " · cell " + i + " of " + cells.length + ", at " + f.starts[i] + " ms for " + cells[i][2] + " ms";
            };
            f.live = (on) => {
              if (on) el.style.animation = el.style.backgroundPosition = "";
            };
            f.ready(cells.map((c) => Number(c[2])));
          }

          // An image: decoded by WebCodecs from its own data: URI, one frame drawn on the canvas.
          async function image(fig) {
            const f = scrubber(fig);
            const img = fig.querySelector("img");
            const canvas = fig.querySelector("canvas");
            const type = fig.dataset.type;
            if (!("ImageDecoder" in window)) {
              f.output.textContent = "no ImageDecoder";
              document.getElementById("no-decoder").hidden = false;
              return;
            }
            try {
              if (!(await ImageDecoder.isTypeSupported(type))) {
                f.output.textContent = "this browser cannot decode " + type;
                return;
              }
              const text = atob(img.src.slice(img.src.indexOf(",") + 1));
              const bytes = new Uint8Array(text.length);
              for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
              const decoder = new ImageDecoder({ data: bytes, type });
              await decoder.tracks.ready;
              await decoder.completed;
              const count = decoder.tracks.selectedTrack.frameCount;
              // Every frame's duration as the browser decodes it (µs), for the time steps.
              // Asked for all at once: one by one, each await costs a turn of the event loop.
              const durations = await Promise.all(
                Array.from({ length: count }, (_, i) =>
                  decoder.decode({ frameIndex: i }).then(({ image }) => {
                    const d = (image.duration || 0) / 1000;
                    image.close();
                    return d;
                  }),
                ),
              );
              const context = canvas.getContext("2d");
              let latest = 0;
              f.draw = async (i) => {
                const mine = ++latest;
                const { image } = await decoder.decode({ frameIndex: i });
                if (mine === latest && !f.playing) {
                  context.clearRect(0, 0, canvas.width, canvas.height);
                  context.drawImage(image, 0, 0);
                  canvas.hidden = false;
                  img.hidden = true;
                  f.output.textContent = f.step + " · image frame " + i + " of " + count + ", at " + ms(image.timestamp) + " ms for " + ms(image.duration) + " ms";
                }
                image.close();
              };
              f.live = (on) => {
                if (on) {
                  latest++;
                  canvas.hidden = true;
                  img.hidden = false;
                }
              };
              f.ready(durations);
            } catch (e) {
              f.output.textContent = "cannot decode: " + e.message;
            }
          }

          for (const b of document.querySelectorAll("[data-bg]")) {
            b.addEventListener("click", () => (setPage(b.dataset.bg), writeHash()));
          }
          document.getElementById("custom-colour").addEventListener("input", (e) => {
            setPage(e.target.value.slice(1).toUpperCase());
            writeHash();
          });
          for (const b of document.querySelectorAll("[data-zoom]")) {
            b.addEventListener("click", () => (setZoom(b.dataset.zoom), writeHash()));
          }
          window.addEventListener("hashchange", readHash);
          readHash();
          for (const fig of document.querySelectorAll("figure.sprite")) sprite(fig);
          for (const fig of document.querySelectorAll("figure.image")) image(fig);
        })();

        """#
}
