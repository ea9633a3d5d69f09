// SPDX-License-Identifier: GPL-3.0-or-later

internal import Spec

/// Which data file a sprite sheet gets beside its PNG page(s) (`--sheet-format NAME`). Every
/// writer is a pure function of the pages, the frames and the animation's metadata
/// (`SheetData.files`), so packed, multipack and aliased layouts need nothing of their own.
/// `docs/sheets.md` names the reference each format matches and who reads it.
public enum SheetDataFormat: String, Equatable, Hashable, Sendable, CaseIterable {
    /// Aseprite `--format json-hash --list-tags`: `frames` keyed by frame name, `meta.frameTags`.
    /// The default: Phaser (`load.atlas`, `load.aseprite` + `anims.createFromAseprite`) and PixiJS
    /// `Spritesheet` all read it unchanged.
    case aseprite
    /// Aseprite `--format json-array --list-tags`: `frames` as a list with `filename`.
    case asepriteArray = "aseprite-array"
    /// TexturePacker "JSON (Hash)".
    case texturepacker
    /// TexturePacker "JSON (Array)".
    case texturepackerArray = "texturepacker-array"
    /// Phaser 3 multi-atlas (TexturePacker's "Phaser 3" exporter): top-level `textures[]`, one
    /// per page, for `this.load.multiatlas`.
    case phaserMultiatlas = "phaser-multiatlas"
    /// PixiJS `Spritesheet`: TexturePacker JSON hash plus an `animations` map of frame names, and
    /// `meta.related_multi_packs` for a multipack.
    case pixi
    /// A Godot 3 `SpriteFrames` text resource (`.tres`, `format=2`): one `ExtResource` per page,
    /// one `AtlasTexture` per frame; `load()` reads it without a plugin.
    case godot
    /// A CSS stylesheet animating the sheet with `steps()` keyframes, no script.
    case css

    /// `aseprite`: the format most engines read unchanged (see `docs/sheets.md`).
    public static let defaultFormat = SheetDataFormat.aseprite

    /// The data file's extension, without the dot: `json`, `tres` or `css`.
    public var fileExtension: String {
        switch self {
        case .godot: "tres"
        case .css: "css"
        default: "json"
        }
    }

    /// Whether each page gets its own data file named after its image (`NAME-1.png` →
    /// `NAME-1.json`), as Aseprite and TexturePacker write one data file per texture; false for
    /// the formats whose one file lists every page (`phaser-multiatlas`, `godot`, `css`).
    public var filePerPage: Bool {
        switch self {
        case .phaserMultiatlas, .godot, .css: false
        default: true
        }
    }

    /// Whether the format names its frames (the godot and css formats do not).
    public var namesFrames: Bool { self != .godot && self != .css }

    /// The frame-name template used when `--frame-name` is not given:
    /// `{frame}` ("0", "1", …) for the Aseprite formats, since Phaser's
    /// `AnimationManager.createFromAseprite` looks frames up by `String(i)`; the `--frames` file
    /// names (`{title}-{frame000}.png`, "circular-000.png") for the TexturePacker shapes, as
    /// TexturePacker names sprites after their files.
    public var defaultFrameNameTemplate: String {
        switch self {
        case .aseprite, .asepriteArray: "{frame}"
        default: "{title}-{frame000}.png"
        }
    }
}

/// One Aseprite-style frame tag: an animation over frames `from`…`to` (inclusive, 0-based).
public struct SheetTag: Equatable, Sendable {
    /// Animation name.
    public var name: String
    /// First frame index, ≥ 0.
    public var from: Int
    /// Last frame index, ≥ `from`.
    public var to: Int
    /// Aseprite's `direction`: `forward`, `reverse` or `pingpong`.
    public var direction: String

    /// A tag; see the properties.
    public init(name: String, from: Int, to: Int, direction: String = "forward") {
        self.name = name
        self.from = from
        self.to = to
        self.direction = direction
    }
}

/// What a data file says about the animation besides the rectangles.
public struct SheetAnimation: Equatable, Sendable {
    /// The preset's name: `{title}` in frame names, the CSS class, the Godot animation.
    public var title: String
    /// How long each frame shows, milliseconds (> 0), one per frame.
    public var durations: [Int]
    /// Frames per second (Godot's `speed`), finite and > 0.
    public var frameRate: Double
    /// How often the animation plays (Godot `loop`, CSS `animation-iteration-count`).
    public var loop: LoopCount
    /// Pixels per point the frames were rendered at (`meta.scale`, CSS pixel sizes), > 0.
    public var scale: Double
    /// The frame tags (`meta.frameTags`, PixiJS `animations`); usually one over every frame.
    public var tags: [SheetTag]
    /// `meta.app`.
    public var app: String
    /// `meta.version`.
    public var version: String
    /// `meta.format`: `RGBA8888`, or `I8` for a palette PNG (as Aseprite writes for an indexed
    /// sheet).
    public var pixelFormat: String

    /// Metadata with the given values; by default one forward tag named `title` over every
    /// frame, looping forever, RGBA.
    public init(
        title: String, durations: [Int], frameRate: Double, loop: LoopCount = .forever, scale: Double = 1,
        tags: [SheetTag]? = nil, app: String = "animexport", version: String = "0.1.0",
        pixelFormat: String = "RGBA8888"
    ) {
        self.title = title
        self.durations = durations
        self.frameRate = frameRate
        self.loop = loop
        self.scale = scale
        self.tags = tags ?? [SheetTag(name: title, from: 0, to: max(0, durations.count - 1))]
        self.app = app
        self.version = version
        self.pixelFormat = pixelFormat
    }
}

/// One data file made by `SheetData.files`.
public struct SheetDataFile: Equatable, Sendable {
    /// File name without a folder (`circular.json`); it goes beside the page images.
    public var name: String
    /// The contents: UTF-8 text with a final newline.
    public var bytes: [UInt8]

    /// A file; see the properties.
    public init(name: String, bytes: [UInt8]) {
        self.name = name
        self.bytes = bytes
    }
}

/// A bad `--frame-name` template or bad sheet data input; the message says what was expected.
public struct SheetDataError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The problem, in a sentence without the option name.
    public var message: String
    /// An error with `message`.
    public init(_ message: String) { self.message = message }
    /// `message`.
    public var description: String { message }
}

/// The sprite-sheet data writers (`docs/sheets.md`).
public enum SheetData {
    /// The data files for `format`.
    ///
    /// - Parameters:
    ///   - format: which data format.
    ///   - stem: the name the single-file formats use (`circular` → `circular.tres`); the
    ///     per-page formats name each file after its page image instead.
    ///   - pages: the sheet images, at least one; `SheetFrame.page` indexes them.
    ///   - frames: one per animation frame, in order (aliased frames share a rectangle).
    ///   - names: one name per frame (`frameNames(template:…)`), distinct.
    ///   - animation: durations (one per frame), rate, loop, scale, tags.
    /// - Returns: the files in commit order (page 0's first).
    /// - Throws: `SheetDataError` when the counts disagree, a frame's page or rectangle lies
    ///   outside its page, names repeat, or a tag lies outside the frames.
    public static func files(
        format: SheetDataFormat, stem: String, pages: [SheetPage], frames: [SheetFrame], names: [String],
        animation: SheetAnimation
    ) throws(SheetDataError) -> [SheetDataFile] {
        try check(pages: pages, frames: frames, names: names, animation: animation)
        let sheet = SheetDataInput(pages: pages, frames: frames, names: names, animation: animation)
        switch format {
        case .aseprite, .asepriteArray, .texturepacker, .texturepackerArray, .pixi:
            return pages.indices.map { page in
                let doc = SheetDataJSON.perPage(format, page: page, of: sheet)
                return SheetDataFile(
                    name: replacingExtension(pages[page].imageName, with: format.fileExtension),
                    bytes: Array(doc.rendered().utf8))
            }
        case .phaserMultiatlas:
            return [
                SheetDataFile(
                    name: stem + ".json", bytes: Array(SheetDataJSON.multiatlas(sheet).rendered().utf8))
            ]
        case .godot:
            return [SheetDataFile(name: stem + ".tres", bytes: Array(SheetDataGodot.resource(sheet).utf8))]
        case .css:
            return [SheetDataFile(name: stem + ".css", bytes: Array(SheetDataCSS.stylesheet(sheet).utf8))]
        }
    }

    /// The file names `files` gives, in order, for a sheet of `pageImages` (page image file
    /// names) and data stem `stem`, without building anything.
    public static func fileNames(format: SheetDataFormat, stem: String, pageImages: [String]) -> [String] {
        format.filePerPage
            ? pageImages.map { replacingExtension($0, with: format.fileExtension) }
            : [stem + "." + format.fileExtension]
    }

    /// `name` with its extension (after the last `.`, if any) replaced by `ext`.
    static func replacingExtension(_ name: String, with ext: String) -> String {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return name + "." + ext }
        return String(name[..<dot]) + "." + ext
    }

    /// Checks a template before any work: known fields, at least one frame number.
    /// - Throws: `SheetDataError` naming the field or the missing frame number.
    public static func checkTemplate(_ template: String) throws(SheetDataError) {
        let pieces = try parse(template)
        guard pieces.contains(where: { if case .frame = $0 { true } else { false } }) else {
            throw SheetDataError(
                "\"\(template)\" has no frame number; put {frame} (or {frame000} for 000, 001, …) in it so every frame gets its own name"
            )
        }
    }

    /// Frame names from an Aseprite filename template (Aseprite's `--filename-format`, its
    /// `filename_formatter.cpp`): `{title}` (the preset name), `{tag}` (the frame's first tag,
    /// else the title), `{extension}` (`png`), `{frame}` (the 0-based frame number) and
    /// `{tagframe}` (the number within the tag). A number written after `frame`/`tagframe` sets
    /// both the width and the start, as in Aseprite: `{frame000}` gives `000`, `001`, …;
    /// `{frame01}` gives `01`, `02`, ….
    /// - Throws: `SheetDataError` for an unknown field, an unclosed `{`, a template without a
    ///   frame number, or names that repeat.
    public static func frameNames(template: String, title: String, tags: [SheetTag], count: Int)
        throws(SheetDataError) -> [String]
    {
        try checkTemplate(template)
        let pieces = try parse(template)
        var names: [String] = []
        names.reserveCapacity(count)
        var seen = Set<String>()
        for i in 0..<count {
            let tag = tags.first { $0.from <= i && i <= $0.to }
            var name = ""
            for piece in pieces {
                switch piece {
                case .text(let s): name += s
                case .title: name += title
                case .tag: name += tag?.name ?? title
                case .frame(let inTag, let width, let start):
                    let n = (inTag ? i - (tag?.from ?? 0) : i) + start
                    let digits = String(n)
                    name += String(repeating: "0", count: max(0, width - digits.count)) + digits
                }
            }
            guard seen.insert(name).inserted else {
                throw SheetDataError("\"\(template)\" names two frames \"\(name)\"; use {frame} to number them")
            }
            names.append(name)
        }
        return names
    }

    private enum Piece {
        case text(String)
        case title
        case tag
        /// `{frame…}` or `{tagframe…}`: zero-padded to `width`, counting from `start`.
        case frame(inTag: Bool, width: Int, start: Int)
    }

    private static func parse(_ template: String) throws(SheetDataError) -> [Piece] {
        var pieces: [Piece] = []
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{") {
            if open > rest.startIndex { pieces.append(.text(String(rest[..<open]))) }
            guard let close = rest[open...].firstIndex(of: "}") else {
                throw SheetDataError("\"\(template)\" has a { without its }")
            }
            let field = String(rest[rest.index(after: open)..<close])
            switch field {
            case "title": pieces.append(.title)
            case "tag": pieces.append(.tag)
            case "extension": pieces.append(.text("png"))
            default:
                let inTag = field.hasPrefix("tagframe")
                let prefix = inTag ? "tagframe" : "frame"
                let number = field.hasPrefix(prefix) ? field.dropFirst(prefix.count) : ""
                guard field.hasPrefix(prefix), number.count <= 6, number.allSatisfy({ $0.isASCII && $0.isNumber }),
                    let start = number.isEmpty ? 0 : Int(number)
                else {
                    throw SheetDataError(
                        "\"\(template)\" has the unknown field {\(field)}; expected {title}, {tag}, {extension}, {frame}, {frame000}, {tagframe} or {tagframe000}"
                    )
                }
                pieces.append(.frame(inTag: inTag, width: number.count, start: start))
            }
            rest = rest[rest.index(after: close)...]
        }
        if !rest.isEmpty { pieces.append(.text(String(rest))) }
        return pieces
    }

    private static func check(pages: [SheetPage], frames: [SheetFrame], names: [String], animation: SheetAnimation)
        throws(SheetDataError)
    {
        guard !pages.isEmpty else { throw SheetDataError("a sprite sheet needs at least one page") }
        guard !frames.isEmpty else { throw SheetDataError("a sprite sheet needs at least one frame") }
        guard names.count == frames.count, animation.durations.count == frames.count else {
            throw SheetDataError(
                "\(frames.count) frames with \(names.count) names and \(animation.durations.count) durations")
        }
        guard Set(names).count == names.count else { throw SheetDataError("frame names repeat") }
        for (i, f) in frames.enumerated() {
            guard pages.indices.contains(f.page) else {
                throw SheetDataError("frame \(i) is on page \(f.page) of \(pages.count)")
            }
            let page = pages[f.page]
            guard f.x >= 0, f.y >= 0, f.width >= 1, f.height >= 1, f.x <= page.width - f.width,
                f.y <= page.height - f.height, f.sourceX >= 0, f.sourceY >= 0,
                f.sourceX <= f.sourceWidth - f.width, f.sourceY <= f.sourceHeight - f.height
            else {
                throw SheetDataError("frame \(i)'s rectangle lies outside its page or its source frame")
            }
        }
        if let bad = animation.durations.first(where: { $0 <= 0 }) {
            throw SheetDataError("a frame duration of \(bad) ms; durations must be > 0")
        }
        guard animation.frameRate.isFinite, animation.frameRate > 0, animation.scale.isFinite, animation.scale > 0
        else { throw SheetDataError("frame rate and scale must be finite and > 0") }
        for tag in animation.tags where tag.from < 0 || tag.to < tag.from || tag.to >= frames.count {
            throw SheetDataError("tag \(tag.name) covers frames \(tag.from)…\(tag.to) of \(frames.count)")
        }
    }
}

/// Everything a writer reads, checked by `SheetData.files`.
struct SheetDataInput {
    var pages: [SheetPage]
    var frames: [SheetFrame]
    var names: [String]
    var animation: SheetAnimation

    /// `meta.scale` as Aseprite and TexturePacker write it: a string, `"1"`, `"2"`, `"1.5"`.
    var scaleText: String { formatNumber(animation.scale) }
    /// Milliseconds from the start to frame `i`'s start.
    func startTime(_ i: Int) -> Int { animation.durations.prefix(i).reduce(0, +) }
}
