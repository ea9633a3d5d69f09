// SPDX-License-Identifier: GPL-3.0-or-later

internal import CCairo
internal import CHarfBuzz

/// OpenType shaping of one line of text with HarfBuzz, for text layers that list `features`
/// (`tnum`, `-kern`, …): the glyphs and their positions as the font's GSUB and GPOS tables say.
///
/// The HarfBuzz font reads the same file fontconfig matched for Cairo, at its units-per-em
/// scale, so glyph ids are the ids Cairo's FreeType face draws and positions are exact font
/// units scaled by `size / unitsPerEm` (no hinting, like the rest of the text). The direction
/// is left to right and the language fixed (`en`), so the result does not depend on the
/// process locale; the script is found from the text.
final class TextShaper: @unchecked Sendable {
    private let font: OpaquePointer
    private let unitsPerEm: Double

    /// A shaper over face `faceIndex` of the font file at `file`; nil when HarfBuzz finds no
    /// glyphs in it.
    init?(file: String, faceIndex: Int32) {
        guard let blob = hb_blob_create_from_file(file) else { return nil }
        defer { hb_blob_destroy(blob) }
        guard hb_blob_get_length(blob) > 0, let face = hb_face_create(blob, UInt32(max(0, faceIndex))) else {
            return nil
        }
        defer { hb_face_destroy(face) }
        let upem = hb_face_get_upem(face)
        guard upem > 0, hb_face_get_glyph_count(face) > 0, let font = hb_font_create(face) else { return nil }
        hb_font_set_scale(font, Int32(upem), Int32(upem))
        hb_font_make_immutable(font)  // shared by the rendering threads
        self.font = font
        self.unitsPerEm = Double(upem)
    }

    deinit { hb_font_destroy(font) }

    /// `string` shaped at `size` points with `features` (HarfBuzz's feature syntax: `"tnum"`,
    /// `"-kern"`): the glyphs with pen positions in points from the start of the baseline (y
    /// down, as Cairo's), and the total advance width in points.
    func shape(_ string: String, size: Double, features: [String]) -> (glyphs: [cairo_glyph_t], advance: Double)? {
        let utf8 = Array(string.utf8)
        guard utf8.count < Int(Int32.max), let buffer = hb_buffer_create() else { return nil }
        defer { hb_buffer_destroy(buffer) }
        utf8.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) {
                hb_buffer_add_utf8(buffer, $0.baseAddress, Int32($0.count), 0, Int32($0.count))
            }
        }
        hb_buffer_set_direction(buffer, HB_DIRECTION_LTR)
        hb_buffer_set_language(buffer, hb_language_from_string("en", -1))
        hb_buffer_guess_segment_properties(buffer)
        var settings: [hb_feature_t] = features.compactMap { text in
            var feature = hb_feature_t()
            let ok = text.withCString { hb_feature_from_string($0, -1, &feature) }
            return ok != 0 ? feature : nil
        }
        guard settings.count == features.count else { return nil }
        hb_shape(font, buffer, &settings, UInt32(settings.count))
        var count: UInt32 = 0
        guard let infos = hb_buffer_get_glyph_infos(buffer, &count) else { return ([], 0) }
        var positionCount: UInt32 = 0
        guard let positions = hb_buffer_get_glyph_positions(buffer, &positionCount), positionCount == count else {
            return nil
        }
        let k = size / unitsPerEm
        var pen = 0.0
        var glyphs: [cairo_glyph_t] = []
        glyphs.reserveCapacity(Int(count))
        for i in 0..<Int(count) {
            let p = positions[i]
            glyphs.append(
                cairo_glyph_t(
                    index: UInt(infos[i].codepoint), x: pen + Double(p.x_offset) * k, y: -Double(p.y_offset) * k))
            pen += Double(p.x_advance) * k
        }
        return (glyphs, pen)
    }
}
