// SPDX-License-Identifier: GPL-3.0-or-later

internal import CCairo
import Foundation
import Spec

/// Fonts for text layers, found through fontconfig and kept for the life of the process.
///
/// Text must look the same on every machine that ran `make deps`, so hinting is switched off and
/// antialiasing set to greyscale in every matched pattern, overriding whatever the system's
/// fontconfig files say. The pinned default family is Inter (Debian package fonts-inter).
public enum FontLibrary {
    /// The family fontconfig would really use for `family`, or nil when it is not installed
    /// (fontconfig substitutes another family in that case).
    public static func installedFamily(_ family: String) -> String? {
        guard let face = FontFaces.shared.face(family: family, weight: .regular) else { return nil }
        return face.matchedFamily.caseInsensitiveCompare(family) == .orderedSame ? face.matchedFamily : nil
    }

    /// The box `SceneRenderer` sets `string` in, in points: Cairo's `x_advance` of the string and
    /// the font's ascent + descent at `size` points, with the renderer's font options (hinting
    /// and hinted metrics off, so the numbers scale linearly and do not depend on `--scale`).
    /// nil when fontconfig yields no face or Cairo fails.
    ///
    /// With `features`, the width is the advance of the string as `TextShaper` shapes it
    /// (HarfBuzz, the font's default features plus these), which is how it is then drawn.
    public static func measure(
        _ string: String, family: String, size: Double, weight: FontWeight, features: [String] = []
    ) -> TextMeasurement? {
        guard let face = FontFaces.shared.face(family: family, weight: weight),
            let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1)
        else { return nil }
        defer { cairo_surface_destroy(surface) }
        guard let cr = cairo_create(surface) else { return nil }
        defer { cairo_destroy(cr) }
        if let options = cairo_font_options_create() {
            cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
            cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
            cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
            cairo_set_font_options(cr, options)
            cairo_font_options_destroy(options)
        }
        cairo_set_font_face(cr, face.face)
        cairo_set_font_size(cr, size)
        var font = cairo_font_extents_t()
        cairo_font_extents(cr, &font)
        var extents = cairo_text_extents_t()
        cairo_text_extents(cr, string, &extents)
        guard cairo_status(cr) == CAIRO_STATUS_SUCCESS, extents.x_advance.isFinite, font.ascent.isFinite,
            font.descent.isFinite
        else { return nil }
        var width = extents.x_advance
        if !features.isEmpty {
            guard let shaped = face.shaper?.shape(string, size: size, features: features) else { return nil }
            width = shaped.advance
        }
        return TextMeasurement(width: max(0, width), height: max(0, font.ascent + font.descent))
    }
}

/// One matched font: the Cairo face, the family fontconfig chose, and a HarfBuzz shaper over
/// the same font file (nil when the file cannot be read by HarfBuzz).
final class FontFace: @unchecked Sendable {
    let face: OpaquePointer
    let matchedFamily: String
    let shaper: TextShaper?

    init(face: OpaquePointer, matchedFamily: String, shaper: TextShaper?) {
        self.face = face
        self.matchedFamily = matchedFamily
        self.shaper = shaper
    }

    deinit { cairo_font_face_destroy(face) }
}

/// Process-wide cache of matched faces by (family, weight); safe to use from several threads.
final class FontFaces: @unchecked Sendable {
    static let shared = FontFaces()
    private let lock = NSLock()
    private var faces: [String: FontFace] = [:]

    func face(family: String, weight: FontWeight) -> FontFace? {
        let key = "\(family)|\(weight.weightClass)"
        lock.lock()
        defer { lock.unlock() }
        if let cached = faces[key] { return cached }
        guard let made = Self.match(family: family, weight: weight) else { return nil }
        faces[key] = made
        return made
    }

    private static func match(family: String, weight: FontWeight) -> FontFace? {
        guard let pattern = FcPatternCreate() else { return nil }
        defer { FcPatternDestroy(pattern) }
        _ = family.withCString { name in
            name.withMemoryRebound(to: FcChar8.self, capacity: family.utf8.count + 1) {
                FcPatternAddString(pattern, FC_FAMILY, $0)
            }
        }
        FcPatternAddInteger(pattern, FC_WEIGHT, FcWeightFromOpenType(Int32(weight.weightClass)))
        FcPatternAddInteger(pattern, FC_SLANT, FC_SLANT_ROMAN)
        FcConfigSubstitute(nil, pattern, FcMatchPattern)
        FcDefaultSubstitute(pattern)
        var result = FcResultNoMatch
        guard let matched = FcFontMatch(nil, pattern, &result) else { return nil }
        // Same pixels everywhere: no hinting, greyscale antialiasing, no embedded bitmaps.
        for (property, value) in [
            (FC_HINTING, FcFalse), (FC_AUTOHINT, FcFalse), (FC_ANTIALIAS, FcTrue), (FC_EMBEDDED_BITMAP, FcFalse),
        ] {
            FcPatternDel(matched, property)
            FcPatternAddBool(matched, property, value)
        }
        FcPatternDel(matched, FC_HINT_STYLE)
        FcPatternAddInteger(matched, FC_HINT_STYLE, FC_HINT_NONE)
        FcPatternDel(matched, FC_RGBA)
        FcPatternAddInteger(matched, FC_RGBA, FC_RGBA_NONE)
        var familyName: UnsafeMutablePointer<FcChar8>?
        var matchedFamily = family
        if FcPatternGetString(matched, FC_FAMILY, 0, &familyName) == FcResultMatch, let familyName {
            matchedFamily = String(cString: UnsafeRawPointer(familyName).assumingMemoryBound(to: CChar.self))
        }
        var file: UnsafeMutablePointer<FcChar8>?
        var index: Int32 = 0
        var shaper: TextShaper?
        if FcPatternGetString(matched, FC_FILE, 0, &file) == FcResultMatch, let file {
            _ = FcPatternGetInteger(matched, FC_INDEX, 0, &index)
            let path = String(cString: UnsafeRawPointer(file).assumingMemoryBound(to: CChar.self))
            shaper = TextShaper(file: path, faceIndex: index)
        }
        guard let face = cairo_ft_font_face_create_for_pattern(matched) else {
            FcPatternDestroy(matched)
            return nil
        }
        FcPatternDestroy(matched)  // the face keeps its own reference
        guard cairo_font_face_status(face) == CAIRO_STATUS_SUCCESS else {
            cairo_font_face_destroy(face)
            return nil
        }
        return FontFace(face: face, matchedFamily: matchedFamily, shaper: shaper)
    }
}
