// SPDX-License-Identifier: GPL-3.0-or-later

/// The JSON sprite-sheet formats, keys in the order their reference writes them
/// (`docs/sheets.md`):
/// - Aseprite json-hash / json-array: Aseprite's `DocExporter::createDataFile`
///   (`src/app/doc_exporter.cpp`), with `--list-tags` (`meta.frameTags`) and without layers and
///   slices: per frame `frame`, `rotated`, `trimmed`, `spriteSourceSize`, `sourceSize`,
///   `duration`; `meta` `app`, `version`, `image`, `format`, `size`, `scale`, `frameTags`.
/// - TexturePacker JSON (Hash) / (Array): the same frame fields without `duration` and with
///   `pivot` {0.5, 0.5} (TexturePacker's default pivot); `meta` without tags.
/// - PixiJS: TexturePacker's hash without `pivot`, plus `animations` {tag: [frame names]} as
///   PixiJS `Spritesheet._processAnimations` reads it, and `meta.related_multi_packs` (the other
///   pages' data files) on the first page of a multipack, which PixiJS's spritesheet loader
///   follows.
/// - Phaser 3 multi-atlas: `textures[]` {image, format, size, scale (a number), frames[]
///   {filename, rotated, trimmed, sourceSize, spriteSourceSize, frame}}, `meta` {app, version},
///   as TexturePacker's Phaser 3 exporter writes and Phaser's `MultiAtlasFile` and `JSONArray`
///   parser read.
enum SheetDataJSON {
    static func rect(_ f: SheetFrame) -> JSONText {
        .object(["x": .integer(f.x), "y": .integer(f.y), "w": .integer(f.width), "h": .integer(f.height)])
    }

    static func spriteSourceSize(_ f: SheetFrame) -> JSONText {
        .object(["x": .integer(f.sourceX), "y": .integer(f.sourceY), "w": .integer(f.width), "h": .integer(f.height)])
    }

    static func sourceSize(_ f: SheetFrame) -> JSONText {
        .object(["w": .integer(f.sourceWidth), "h": .integer(f.sourceHeight)])
    }

    static func size(_ page: SheetPage) -> JSONText {
        .object(["w": .integer(page.width), "h": .integer(page.height)])
    }

    /// One page's data file in a per-page format.
    static func perPage(_ format: SheetDataFormat, page: Int, of sheet: SheetDataInput) -> JSONText {
        let a = sheet.animation
        let onPage = sheet.frames.indices.filter { sheet.frames[$0].page == page }
        let aseprite = format == .aseprite || format == .asepriteArray
        let array = format == .asepriteArray || format == .texturepackerArray
        let pivot = format == .texturepacker || format == .texturepackerArray
        let entries: [(String, [JSONText.Member])] = onPage.map { i in
            let f = sheet.frames[i]
            var members: [JSONText.Member] = [
                .init(key: "frame", value: rect(f)),
                .init(key: "rotated", value: .bool(false)),
                .init(key: "trimmed", value: .bool(f.trimmed)),
                .init(key: "spriteSourceSize", value: spriteSourceSize(f)),
                .init(key: "sourceSize", value: sourceSize(f)),
            ]
            if aseprite { members.append(.init(key: "duration", value: .integer(a.durations[i]))) }
            if pivot {
                members.append(.init(key: "pivot", value: .object(["x": .number(0.5), "y": .number(0.5)])))
            }
            return (sheet.names[i], members)
        }
        let frames: JSONText =
            array
            ? .array(entries.map { .object([.init(key: "filename", value: .string($0.0))] + $0.1) })
            : .object(entries.map { .init(key: $0.0, value: .object($0.1)) })
        let p = sheet.pages[page]
        var meta: [JSONText.Member] = [
            .init(key: "app", value: .string(a.app)),
            .init(key: "version", value: .string(a.version)),
            .init(key: "image", value: .string(p.imageName)),
            .init(key: "format", value: .string(aseprite ? a.pixelFormat : "RGBA8888")),
            .init(key: "size", value: size(p)),
            .init(key: "scale", value: .string(sheet.scaleText)),
        ]
        if aseprite {
            meta.append(
                .init(
                    key: "frameTags",
                    value: .array(
                        a.tags.map {
                            .object([
                                "name": .string($0.name), "from": .integer($0.from), "to": .integer($0.to),
                                "direction": .string($0.direction),
                            ])
                        })))
        }
        if format == .pixi, page == 0, sheet.pages.count > 1 {
            let others = sheet.pages.dropFirst().map { SheetData.replacingExtension($0.imageName, with: "json") }
            meta.append(.init(key: "related_multi_packs", value: .array(others.map { .string($0) })))
        }
        var top: [JSONText.Member] = [.init(key: "frames", value: frames), .init(key: "meta", value: .object(meta))]
        if format == .pixi, page == 0 {
            // PixiJS resolves each name among the textures of the sheet that carries the map;
            // on a multipack, frames of the other pages resolve through `linkedSheets`.
            top.append(
                .init(
                    key: "animations",
                    value: .object(
                        a.tags.map { tag in
                            .init(key: tag.name, value: .array(tagOrder(tag).map { .string(sheet.names[$0]) }))
                        })))
        }
        return .object(top)
    }

    /// Frame indices in the order a tag plays them once (`pingpong` forward then back without
    /// repeating the ends).
    static func tagOrder(_ tag: SheetTag) -> [Int] {
        let forward = Array(tag.from...tag.to)
        switch tag.direction {
        case "reverse": return forward.reversed()
        case "pingpong": return forward + forward.dropFirst().dropLast().reversed()
        default: return forward
        }
    }

    /// The Phaser 3 multi-atlas document over every page.
    static func multiatlas(_ sheet: SheetDataInput) -> JSONText {
        let textures = sheet.pages.indices.map { page -> JSONText in
            let p = sheet.pages[page]
            let frames = sheet.frames.indices.filter { sheet.frames[$0].page == page }.map { i -> JSONText in
                let f = sheet.frames[i]
                return .object([
                    "filename": .string(sheet.names[i]),
                    "rotated": .bool(false),
                    "trimmed": .bool(f.trimmed),
                    "sourceSize": sourceSize(f),
                    "spriteSourceSize": spriteSourceSize(f),
                    "frame": rect(f),
                ])
            }
            return .object([
                "image": .string(p.imageName),
                "format": .string("RGBA8888"),
                "size": size(p),
                "scale": .number(sheet.animation.scale),
                "frames": .array(frames),
            ])
        }
        return .object([
            "textures": .array(textures),
            "meta": .object(["app": .string(sheet.animation.app), "version": .string(sheet.animation.version)]),
        ])
    }
}
