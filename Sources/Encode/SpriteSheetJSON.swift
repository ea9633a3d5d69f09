// SPDX-License-Identifier: GPL-3.0-or-later

internal import Render
internal import Spec

/// The sprite sheet's JSON data file in Aseprite's "json-array" shape (see
/// `SpriteSheetBuilder`), keys in the order Aseprite writes them.
enum SpriteSheetJSON {
    /// The whole document for laid-out `frames` on `sheet`.
    static func document(frames: [SheetFrame], sheet: RGBAImage, options: SpriteSheetOptions) -> JSONText {
        let frameList = frames.map { frame -> JSONText in
            .object([
                "filename": .string(frame.filename),
                "frame": .object([
                    "x": .integer(frame.x), "y": .integer(frame.y), "w": .integer(frame.width),
                    "h": .integer(frame.height),
                ]),
                "rotated": .bool(false),
                "trimmed": .bool(frame.trimmed),
                "spriteSourceSize": .object([
                    "x": .integer(frame.sourceX), "y": .integer(frame.sourceY), "w": .integer(frame.width),
                    "h": .integer(frame.height),
                ]),
                "sourceSize": .object(["w": .integer(frame.sourceWidth), "h": .integer(frame.sourceHeight)]),
                "duration": .integer(frame.duration),
            ])
        }
        let tag = JSONText.object([
            "name": .string(options.name),
            "from": .integer(0),
            "to": .integer(frames.count - 1),
            "direction": .string("forward"),
        ])
        let meta = JSONText.object([
            "app": .string(options.app),
            "version": .string(options.version),
            "image": .string(options.imageName),
            "format": .string("RGBA8888"),
            "size": .object(["w": .integer(sheet.width), "h": .integer(sheet.height)]),
            "scale": .string(formatNumber(options.scale)),
            "frameTags": .array([tag]),
            "frameRate": .number(options.frameRate),
            "loopSeconds": .number(options.loopSeconds),
        ])
        return .object(["frames": .array(frameList), "meta": meta])
    }
}
