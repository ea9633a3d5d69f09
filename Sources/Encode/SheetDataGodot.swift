// SPDX-License-Identifier: GPL-3.0-or-later

internal import Spec

/// A Godot 3 `SpriteFrames` resource in the text format (`.tres`, `format=2`), as Godot 3's
/// `ResourceFormatSaverText` writes it (`scene/resources/resource_format_text.cpp`):
///
/// ```
/// [gd_resource type="SpriteFrames" load_steps=N format=2]
///
/// [ext_resource path="circular.png" type="Texture" id=1]
///
/// [sub_resource type="AtlasTexture" id=1]
/// atlas = ExtResource( 1 )
/// region = Rect2( 0, 0, 64, 64 )
/// margin = Rect2( 3, 2, 5, 4 )      (only for a trimmed frame)
/// filter_clip = true
///
/// [resource]
/// animations = [ {
/// "frames": [ SubResource( 1 ), … ],
/// "loop": true,
/// "name": "circular",
/// "speed": 20.0
/// } ]
/// ```
///
/// One `ExtResource` per page, one `AtlasTexture` per distinct rectangle (aliased frames share
/// one). The page paths are relative, which Godot 3's text loader resolves against the
/// resource's own folder, so the `.tres` and its PNGs can go anywhere in a project. An
/// `AtlasTexture`'s `margin` gives the trimmed-away border (position = where the region sits in
/// the frame, size = frame size − region size), so every frame texture is the untrimmed size.
/// `filter_clip` stops filtering from reading neighbouring cells (Godot ≥ 3.1). Godot 3 has no
/// per-frame durations: `speed` is the frames per second.
enum SheetDataGodot {
    static func resource(_ sheet: SheetDataInput) -> String {
        var regionIDs: [Int] = []  // sub-resource id of each frame
        var subResources: [(page: Int, frame: SheetFrame)] = []
        var byRect: [[Int]: Int] = [:]
        for f in sheet.frames {
            let key = [f.page, f.x, f.y, f.width, f.height, f.sourceX, f.sourceY, f.sourceWidth, f.sourceHeight]
            if let id = byRect[key] {
                regionIDs.append(id)
            } else {
                subResources.append((f.page, f))
                byRect[key] = subResources.count
                regionIDs.append(subResources.count)
            }
        }
        var out =
            "[gd_resource type=\"SpriteFrames\" load_steps=\(sheet.pages.count + subResources.count + 1) format=2]\n\n"
        for (i, page) in sheet.pages.enumerated() {
            out += "[ext_resource path=\(quoted(page.imageName)) type=\"Texture\" id=\(i + 1)]\n"
        }
        out += "\n"
        for (i, entry) in subResources.enumerated() {
            let f = entry.frame
            out += "[sub_resource type=\"AtlasTexture\" id=\(i + 1)]\n"
            out += "atlas = ExtResource( \(entry.page + 1) )\n"
            out += "region = Rect2( \(f.x), \(f.y), \(f.width), \(f.height) )\n"
            if f.trimmed || f.sourceX != 0 || f.sourceY != 0 {
                out +=
                    "margin = Rect2( \(f.sourceX), \(f.sourceY), \(f.sourceWidth - f.width), \(f.sourceHeight - f.height) )\n"
            }
            out += "filter_clip = true\n\n"
        }
        let loops: Bool = if case .forever = sheet.animation.loop { true } else { false }
        out += "[resource]\nanimations = [ "
        let tags = sheet.animation.tags
        for (t, tag) in tags.enumerated() {
            let ids = SheetDataJSON.tagOrder(tag).map { "SubResource( \(regionIDs[$0]) )" }
            out += "{\n\"frames\": [ \(ids.joined(separator: ", ")) ],\n\"loop\": \(loops),\n"
            out += "\"name\": \(quoted(tag.name)),\n\"speed\": \(real(sheet.animation.frameRate))\n}"
            out += t + 1 < tags.count ? ", " : " ]\n"
        }
        return out
    }

    /// A Godot string literal: `"` and `\` escaped (Godot's `c_escape`), other text as is.
    static func quoted(_ s: String) -> String {
        var out = "\""
        for c in s.unicodeScalars {
            switch c {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default: out.unicodeScalars.append(c)
            }
        }
        return out + "\""
    }

    /// A real as Godot 3's `VariantWriter` prints it: shortest digits, `.0` added to a whole
    /// number.
    static func real(_ x: Double) -> String {
        let s = formatNumber(x)
        return s.contains(".") ? s : s + ".0"
    }
}
