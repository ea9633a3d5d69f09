// SPDX-License-Identifier: GPL-3.0-or-later

internal import CCairo
public import Geometry
public import Timeline

/// The outline of a line of text as the renderer sets it, for writers that keep vectors (the
/// Lottie export turns text into filled shapes, since Lottie text needs fonts on the player).
public enum TextOutline {
    /// The glyph outlines of `text` in its node's coordinates (points): the same font face,
    /// size, unhinted metrics and anchor placement as `SceneRenderer` draws it with
    /// (`cairo_text_path` for unshaped text, `cairo_glyph_path` for HarfBuzz-shaped text),
    /// copied from Cairo with curves kept (`cairo_copy_path`). Fill it non-zero.
    /// - Throws: `RenderError` when fontconfig has no face for the family or Cairo fails.
    public static func path(of text: TextDrawing) throws(RenderError) -> BezierPath {
        guard let face = FontFaces.shared.face(family: text.fontFamily, weight: text.fontWeight) else {
            throw RenderError("no font for family \"\(text.fontFamily)\" (fontconfig found none)")
        }
        let canvas = try CairoCanvas(width: 1, height: 1)
        let cr = canvas.context
        SceneRenderer.configureText(cr)
        cairo_set_font_face(cr, face.face)
        cairo_set_font_size(cr, text.fontSize)
        var font = cairo_font_extents_t()
        cairo_font_extents(cr, &font)
        let height = font.ascent + font.descent
        if text.features.isEmpty {
            var extents = cairo_text_extents_t()
            cairo_text_extents(cr, text.string, &extents)
            cairo_move_to(cr, -text.anchor.x * extents.x_advance, -text.anchor.y * height + font.ascent)
            cairo_text_path(cr, text.string)
        } else {
            guard let shaped = face.shaper?.shape(text.string, size: text.fontSize, features: text.features) else {
                throw RenderError("cannot shape text in family \"\(text.fontFamily)\" with HarfBuzz")
            }
            let x = -text.anchor.x * shaped.advance
            let y = -text.anchor.y * height + font.ascent
            var glyphs = shaped.glyphs.map { cairo_glyph_t(index: $0.index, x: $0.x + x, y: $0.y + y) }
            cairo_glyph_path(cr, &glyphs, Int32(glyphs.count))
        }
        guard let copied = cairo_copy_path(cr) else { throw RenderError("copy text path: Cairo returned none") }
        defer { cairo_path_destroy(copied) }
        guard copied.pointee.status == CAIRO_STATUS_SUCCESS else {
            throw RenderError("copy text path: \(CairoCanvas.describe(copied.pointee.status))")
        }
        var path = BezierPath()
        var i = 0
        let count = Int(copied.pointee.num_data)
        guard let data = copied.pointee.data else { return path }
        while i < count {
            let header = data[i].header
            let length = Int(header.length)
            guard length >= 1, i + length <= count else { break }
            func point(_ k: Int) -> Point { Point(x: data[i + k].point.x, y: data[i + k].point.y) }
            switch header.type {
            case CAIRO_PATH_MOVE_TO where length >= 2: path.move(to: point(1))
            case CAIRO_PATH_LINE_TO where length >= 2: path.addLine(to: point(1))
            case CAIRO_PATH_CURVE_TO where length >= 4:
                path.addCubic(to: point(3), control1: point(1), control2: point(2))
            case CAIRO_PATH_CLOSE_PATH: path.close()
            default: break
            }
            i += length
        }
        return path
    }
}
