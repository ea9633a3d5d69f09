// SPDX-License-Identifier: GPL-3.0-or-later

import Encode
import Export
import Foundation
import Spec

/// The `--preview` page: one self-contained HTML file (no outside requests) with, for every job,
/// the GIF and the sprite sheet animated by CSS `steps()`, side by side on a checkerboard, the
/// params in effect, the timing report and the whole sheet. Images are inlined as base64 `data:`
/// URIs; each sheet is inlined once and shared by its two uses through a CSS class.
enum PreviewPage {
    static func html(_ products: [JobProduct]) -> String {
        let title = products.map(\.job.stem).joined(separator: ", ")
        var css = """
            body { font: 14px/1.4 system-ui, sans-serif; margin: 24px; background: #fff; color: #1c1c1e; }
            h1 { font-size: 18px; margin: 0 0 16px; }
            h2 { font-size: 16px; margin: 32px 0 8px; }
            .stage { display: flex; flex-wrap: wrap; gap: 32px; align-items: flex-start; }
            figure { margin: 0; }
            figcaption { font-size: 12px; color: #6e6e73; margin-top: 4px; }
            .checker { display: inline-block; line-height: 0;
              background: repeating-conic-gradient(#e5e5ea 0% 25%, #ffffff 0% 50%) 0 0 / 16px 16px; }
            table { border-collapse: collapse; margin: 8px 0; }
            td, th { text-align: left; padding: 2px 12px 2px 0; vertical-align: top; }
            th { color: #6e6e73; font-weight: normal; }
            .warn { color: #b25000; }
            code { font: 12px ui-monospace, monospace; }

            """
        var body = "<h1>animexport preview</h1>\n"
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
            <body>
            \(body)</body>
            </html>

            """
    }

    /// CSS and HTML for one job.
    private static func section(_ product: JobProduct, index n: Int) -> (css: String, html: String) {
        let job = product.job
        var css = ""
        var html =
            "<section id=\"job-\(n)\">\n<h2>\(escape(job.stem)) <small><code>\(escape(job.presetPath))</code></small></h2>\n"
        if !job.composition.description.isEmpty { html += "<p>\(escape(job.composition.description))</p>\n" }
        html += "<div class=\"stage\">\n"
        let size = job.request.pixelSize
        if let gif = product.product(.gif)?.previewBytes {
            let (w, h) = (cssPixels(size.width, job.scale), cssPixels(size.height, job.scale))
            html += """
                <figure><div class="checker"><img id="gif-\(n)" alt="GIF" width="\(w)" height="\(h)" \
                src="data:image/gif;base64,\(Data(gif).base64EncodedString())"></div>\
                <figcaption>GIF, \(Command.formatBytes(gif.count))</figcaption></figure>

                """
        }
        if let sheetProduct = product.product(.sheet), let sheet = sheetProduct.sheet,
            let png = sheetProduct.previewBytes, let first = sheet.frames.first
        {
            let scale = job.scale
            css += """
                .sheet-\(n) { background-image: url(data:image/png;base64,\(Data(png).base64EncodedString())); \
                background-repeat: no-repeat; \
                background-size: \(cssPixels(sheet.width, scale))px \(cssPixels(sheet.height, scale))px; }
                .sprite-\(n) { width: \(cssPixels(first.width, scale))px; height: \(cssPixels(first.height, scale))px; \
                animation: steps-\(n) \(sheet.frames.map(\.duration).reduce(0, +))ms steps(1, end) infinite; }
                \(keyframes(sheet, name: "steps-\(n)", scale: scale))

                """
            html += """
                <figure><div class="checker"><div id="sprite-\(n)" class="sheet-\(n) sprite-\(n)"></div></div>\
                <figcaption>sprite sheet, CSS steps()</figcaption></figure>

                """
        }
        html += "</div>\n"
        html += paramsTable(job.composition.parameters)
        html += timingBlock(product)
        if let sheet = product.product(.sheet)?.sheet {
            html += """
                <details><summary>whole sheet: \(sheet.columns)×\(sheet.rows) cells, \(sheet.width)×\(sheet.height) px</summary>
                <div class="checker"><div class="sheet-\(n)" style="width: \(cssPixels(sheet.width, job.scale))px; \
                height: \(cssPixels(sheet.height, job.scale))px"></div></div></details>

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

    private static func timingBlock(_ product: JobProduct) -> String {
        var html = "<table class=\"timing\">\n"
        let plan = product.job.plan
        html += "<tr><th>loop</th><td>\(formatNumber(plan.period)) s from t = \(formatNumber(plan.start)) s</td></tr>\n"
        for (label, report) in [("GIF", product.product(.gif)?.timing), ("sheet", product.product(.sheet)?.timing)] {
            guard let report else { continue }
            let unit = report.grid.unit
            let total = report.frames.map(\.delay).reduce(0, +)
            html +=
                "<tr><th>\(label)</th><td>\(report.frames.count) frames at \(formatNumber(report.fps)) fps, \(total) \(unit) in all, error \(formatNumber(report.durationError * 1000)) ms</td></tr>\n"
            for warning in report.warnings {
                html += "<tr><th></th><td class=\"warn\">\(escape(warning))</td></tr>\n"
            }
        }
        html += "</table>\n"
        if let gif = product.product(.gif)?.timing {
            html += "<details><summary>GIF frames</summary><table><tr><th>frame</th><th>meant at</th>"
            html += "<th>shown at</th><th>delay</th></tr>\n"
            for f in gif.frames {
                html +=
                    "<tr><td>\(f.index)</td><td>\(formatNumber(f.time * 1000)) ms</td><td>\(formatNumber(f.encodedTime * 1000)) ms</td><td>\(f.delay) cs</td></tr>\n"
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
}
