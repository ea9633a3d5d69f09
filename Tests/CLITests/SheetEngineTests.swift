import Encode
import Foundation
import Raster
import Render
import Testing

/// The sheet data formats as the engines read them: a real Godot 3 (Debian's `godot3-server`)
/// loads the `.tres`; Phaser's and PixiJS's parsers, which cannot be installed here, are
/// re-implemented from their source; headless Chromium plays the CSS. Every frame an engine
/// builds from sheet + data must equal the `--frames` PNG of the same export.
@Suite struct SheetEngineTests {
    /// circular's 4 s loop at 7.5 fps: 30 frames of 133 and 134 ms by cumulative rounding.
    static let timing = ["--fps", "7.5"]
    static let durations = FrameTiming.millisecondDurations(period: 4, frameCount: 30)

    /// Exports `circular` as a sheet with `--sheet-format format` and as `--frames`, in a fresh
    /// folder; returns the folder and the frames.
    static func export(_ format: String, _ extra: [String] = [], folder: String = "sheet") throws -> (
        dir: String, frames: [RGBAImage]
    ) {
        let dir = try temporaryDirectory()
        try FileManager.default.createDirectory(atPath: "\(dir)/\(folder)", withIntermediateDirectories: true)
        let run = try runTool(
            [
                packageRoot + "/presets/circular.json", "-o", "\(dir)/\(folder)/", "--format", "sheet",
                "--sheet-format", format, "--frames", "\(dir)/frames", "-q",
            ] + timing + extra, in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        let names = listing(dir + "/frames").filter { $0.hasSuffix(".png") }.sorted()
        let frames = try names.map { try PNGCodec.decode(readBytes("\(dir)/frames/\($0)")) }
        #expect(frames.count == 30)
        return (dir, frames)
    }

    static func json(_ path: String) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(readBytes(path)))
        return try #require(object as? [String: Any])
    }

    /// The `w`×`h` image with `sheet`'s rectangle (x, y, cw, ch) drawn at (dx, dy), transparent
    /// elsewhere: a trimmed frame put back in its source box.
    static func place(
        _ sheet: RGBAImage, x: Int, y: Int, cw: Int, ch: Int, in w: Int, _ h: Int, at dx: Int, _ dy: Int
    ) -> RGBAImage {
        var out = RGBAImage(width: w, height: h)
        for row in 0..<ch {
            for col in 0..<cw {
                let s = ((y + row) * sheet.width + x + col) * 4
                let d = ((dy + row) * w + dx + col) * 4
                for c in 0..<4 { out.pixels[d + c] = sheet.pixels[s + c] }
            }
        }
        return out
    }

    /// Premultiplied RGBA, rounded: equal for pixels that look the same whatever colour a fully
    /// transparent pixel carries.
    static func premultiplied(_ image: RGBAImage) -> [UInt8] {
        var out = image.pixels
        for i in stride(from: 0, to: out.count, by: 4) {
            let a = Int(out[i + 3])
            for c in 0..<3 { out[i + c] = UInt8((Int(out[i + c]) * a + 127) / 255) }
        }
        return out
    }

    static func same(_ a: RGBAImage, _ b: RGBAImage) -> Bool {
        a.width == b.width && a.height == b.height && premultiplied(a) == premultiplied(b)
    }

    /// Equal alpha everywhere, and equal premultiplied colour where alpha ≥ 20: Godot 3's importer
    /// (`process/fix_alpha_border`, on by default; `Image::fix_alpha_edges` in `core/image.cpp`)
    /// gives pixels under that alpha the colour of their opaque neighbours, so that filtering
    /// does not darken edges. Below alpha 20 a colour change moves a premultiplied channel by
    /// at most 19 levels of 255.
    static func sameAfterGodotImport(_ a: RGBAImage, _ b: RGBAImage) -> Bool {
        guard a.width == b.width, a.height == b.height else { return false }
        let (pa, pb) = (premultiplied(a), premultiplied(b))
        for i in stride(from: 0, to: pa.count, by: 4) {
            if pa[i + 3] != pb[i + 3] { return false }
            if pa[i + 3] < 20 { continue }
            if pa[i] != pb[i] || pa[i + 1] != pb[i + 1] || pa[i + 2] != pb[i + 2] { return false }
        }
        return true
    }

    /// Premultiplied channels within `tolerance` levels (a browser's colour path rounds some
    /// half-transparent pixels by one level).
    static func close(_ a: RGBAImage, _ b: RGBAImage, tolerance: Int) -> Bool {
        guard a.width == b.width, a.height == b.height else { return false }
        return zip(premultiplied(a), premultiplied(b)).allSatisfy { abs(Int($0) - Int($1)) <= tolerance }
    }

    static func int(_ any: Any?) -> Int? { (any as? NSNumber)?.intValue }
    static func rect(_ any: Any?) -> (x: Int, y: Int, w: Int, h: Int)? {
        guard let d = any as? [String: Any], let w = int(d["w"]), let h = int(d["h"]) else { return nil }
        return (int(d["x"]) ?? 0, int(d["y"]) ?? 0, w, h)
    }

    // MARK: Phaser 3

    /// Phaser 3's texture parsers (read in the 3.60 source) (`src/textures/parsers/JSONHash.js`, `JSONArray.js`): each
    /// frame is cut at `frame`; when `trimmed` is true, `setTrim(sourceSize.w, sourceSize.h,
    /// spriteSourceSize.x, .y, .w, .h)` puts the cut at (x, y) of a `sourceSize` box. The hash's
    /// keys, or the array's `filename`s, name the frames; a `textures[]` document
    /// (`MultiAtlasFile`) gives each texture's frames on its own source image.
    static func phaserFrames(_ data: [String: Any], pages: [String: RGBAImage]) throws -> [String: RGBAImage] {
        var entries: [(String, [String: Any], RGBAImage)] = []
        if let textures = data["textures"] as? [[String: Any]] {
            for texture in textures {
                let image = try #require(pages[texture["image"] as? String ?? ""])
                for src in texture["frames"] as? [[String: Any]] ?? [] {
                    entries.append((src["filename"] as? String ?? "", src, image))
                }
            }
        } else {
            let meta = try #require(data["meta"] as? [String: Any])
            let image = try #require(pages[meta["image"] as? String ?? ""])
            if let array = data["frames"] as? [[String: Any]] {
                for src in array { entries.append((src["filename"] as? String ?? "", src, image)) }
            } else {
                let hash = try #require(data["frames"] as? [String: [String: Any]])
                for (key, src) in hash { entries.append((key, src, image)) }
            }
        }
        var out: [String: RGBAImage] = [:]
        for (name, src, image) in entries {
            let cut = try #require(rect(src["frame"]))
            if src["trimmed"] as? Bool == true {
                let size = try #require(rect(src["sourceSize"]))
                let trim = try #require(rect(src["spriteSourceSize"]))
                #expect(trim.w == cut.w && trim.h == cut.h, "\(name): Phaser would scale the cut")
                out[name] = place(
                    image, x: cut.x, y: cut.y, cw: cut.w, ch: cut.h, in: size.w, size.h, at: trim.x, trim.y)
            } else {
                out[name] = place(image, x: cut.x, y: cut.y, cw: cut.w, ch: cut.h, in: cut.w, cut.h, at: 0, 0)
            }
        }
        return out
    }

    /// Phaser 3 (3.60 source) `AnimationManager.createFromAseprite` (`src/animations/AnimationManager.js`):
    /// for every `meta.frameTags` entry, frames `from`…`to` are looked up as `frames[i.toString()]`
    /// (a hash key, or an array index) and played as texture frames named `i.toString()`, each
    /// with its `duration`. Returns, per tag, the (frame name, duration) list.
    static func phaserAsepriteAnimations(_ data: [String: Any]) throws -> [String: [(String, Int)]] {
        let meta = try #require(data["meta"] as? [String: Any])
        var out: [String: [(String, Int)]] = [:]
        for tag in meta["frameTags"] as? [[String: Any]] ?? [] {
            let name = try #require(tag["name"] as? String)
            var frames: [(String, Int)] = []
            for i in (int(tag["from"]) ?? 0)...(int(tag["to"]) ?? 0) {
                let key = String(i)
                let frame: [String: Any]? =
                    if let hash = data["frames"] as? [String: [String: Any]] {
                        hash[key]
                    } else if let array =
                        data["frames"] as? [[String: Any]], i < array.count
                    { array[i] } else { nil }
                if let frame { frames.append((key, int(frame["duration"]) ?? Int.max)) }
            }
            if tag["direction"] as? String == "reverse" { frames.reverse() }
            out[name] = frames
        }
        return out
    }

    func checkPhaserAtlas(_ format: String, _ extra: [String] = []) throws {
        let (dir, frames) = try Self.export(format, extra)
        let data = try Self.json("\(dir)/sheet/circular.json")
        let page = try PNGCodec.decode(readBytes("\(dir)/sheet/circular.png"))
        let built = try Self.phaserFrames(data, pages: ["circular.png": page])
        #expect(built.count == 30)
        // Frame names "0"…"29" (Aseprite formats) are what createFromAseprite plays.
        let animations = try Self.phaserAsepriteAnimations(data)
        let circular = try #require(animations["circular"])
        #expect(circular.map(\.0) == (0..<30).map(String.init))
        #expect(circular.map(\.1) == Self.durations)
        for (i, (name, _)) in circular.enumerated() {
            let frame = try #require(built[name], "texture frame \(name) is missing")
            #expect(Self.same(frame, frames[i]), "\(format) \(extra) frame \(i)")
        }
    }

    @Test func phaserReadsTheAsepriteHashAndPlaysItsTags() throws {
        try checkPhaserAtlas("aseprite")
        try checkPhaserAtlas("aseprite", ["--trim", "--padding", "2", "--extrude", "1"])
    }

    @Test func phaserReadsTheAsepriteArrayAndPlaysItsTags() throws {
        try checkPhaserAtlas("aseprite-array", ["--trim"])
    }

    /// Phaser `load.multiatlas` + `anims.generateFrameNames(key, { prefix: "circular-",
    /// start: 0, end: 29, zeroPad: 3, suffix: ".png" })`: the names TexturePacker's Phaser 3
    /// exporter would give (`src/animations/AnimationManager.js` `generateFrameNames` pads with
    /// `Pad(i, zeroPad, "0", 1)`).
    @Test func phaserMultiatlasResolvesGeneratedFrameNames() throws {
        let (dir, frames) = try Self.export("phaser-multiatlas", ["--trim"])
        let data = try Self.json("\(dir)/sheet/circular.json")
        let textures = try #require(data["textures"] as? [[String: Any]])
        #expect(textures.count == 1)
        #expect(Self.int(textures[0]["scale"]) == 1)
        let page = try PNGCodec.decode(readBytes("\(dir)/sheet/circular.png"))
        let built = try Self.phaserFrames(data, pages: ["circular.png": page])
        for i in 0..<30 {
            let name = "circular-" + String(repeating: "0", count: 3 - String(i).count) + String(i) + ".png"
            let frame = try #require(built[name], "\(name) is missing")
            #expect(Self.same(frame, frames[i]), "frame \(i)")
        }
    }

    @Test func texturepackerShapesCutTheSameFrames() throws {
        for format in ["texturepacker", "texturepacker-array"] {
            let (dir, frames) = try Self.export(format, ["--trim"])
            let data = try Self.json("\(dir)/sheet/circular.json")
            let page = try PNGCodec.decode(readBytes("\(dir)/sheet/circular.png"))
            let built = try Self.phaserFrames(data, pages: ["circular.png": page])
            for i in 0..<30 {
                let name = String(format: "circular-%03d.png", i)
                let frame = try #require(built[name], "\(format): \(name) is missing")
                #expect(Self.same(frame, frames[i]), "\(format) frame \(i)")
            }
        }
    }

    // MARK: PixiJS

    /// PixiJS 8's `Spritesheet` (pixijs/pixijs `src/spritesheet/Spritesheet.ts`): `resolution` is
    /// `parseFloat(meta.scale)`; for every key of `frames`, `orig` is `sourceSize` (or `frame`
    /// when `trimmed === false`), the texture cuts `frame` and, unless `trimmed === false`, puts
    /// it at `spriteSourceSize.x, .y` of `orig` (all `Math.floor`ed, ÷ resolution). Back in
    /// pixels, each texture is the image below. `animations[name]` maps names to textures.
    static func pixiSheet(_ data: [String: Any], page: RGBAImage) throws -> (
        resolution: Double, textures: [String: RGBAImage], animations: [String: [RGBAImage?]]
    ) {
        let meta = try #require(data["meta"] as? [String: Any])
        let resolution = Double(meta["scale"] as? String ?? "") ?? 1
        let frames = try #require(data["frames"] as? [String: [String: Any]])
        var textures: [String: RGBAImage] = [:]
        for (key, src) in frames {
            let cut = try #require(rect(src["frame"]))
            let trimmedFalse = src["trimmed"] as? Bool == false
            let orig = !trimmedFalse ? rect(src["sourceSize"]) ?? cut : cut
            let trim = !trimmedFalse ? rect(src["spriteSourceSize"]) : nil
            textures[key] = place(
                page, x: cut.x, y: cut.y, cw: cut.w, ch: cut.h, in: orig.w, orig.h, at: trim?.x ?? 0, trim?.y ?? 0)
        }
        var animations: [String: [RGBAImage?]] = [:]
        for (name, list) in data["animations"] as? [String: [String]] ?? [:] {
            animations[name] = list.map { textures[$0] }
        }
        return (resolution, textures, animations)
    }

    @Test func pixiSpritesheetBuildsTexturesAndTheAnimation() throws {
        for extra in [["--trim"], ["--scale", "2", "--trim", "--padding", "1"]] {
            let (dir, frames) = try Self.export("pixi", extra)
            let stem = extra.contains("2") ? "circular@2x" : "circular"
            let data = try Self.json("\(dir)/sheet/\(stem).json")
            let page = try PNGCodec.decode(readBytes("\(dir)/sheet/\(stem).png"))
            let sheet = try Self.pixiSheet(data, page: page)
            #expect(sheet.resolution == (extra.contains("2") ? 2 : 1))
            let animation = try #require(sheet.animations["circular"])
            #expect(animation.count == 30)
            for (i, texture) in animation.enumerated() {
                let texture = try #require(texture, "animation frame \(i) names no texture")
                #expect(Self.same(texture, frames[i]), "\(extra) frame \(i)")
            }
        }
    }

    @Test func pixiReadsTheDefaultAsepriteHashToo() throws {
        let (dir, frames) = try Self.export("aseprite", ["--trim"])
        let data = try Self.json("\(dir)/sheet/circular.json")
        let page = try PNGCodec.decode(readBytes("\(dir)/sheet/circular.png"))
        let sheet = try Self.pixiSheet(data, page: page)
        for i in 0..<30 {
            let texture = try #require(sheet.textures[String(i)])
            #expect(Self.same(texture, frames[i]), "frame \(i)")
        }
    }

    // MARK: Godot

    static let godot = ["/usr/bin/godot3-server", "/usr/games/godot3-server"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// Writes every frame of every animation of `res://sheet/circular.tres` as Godot sees it:
    /// an image of the texture's size (region + margin) with the atlas region drawn at the
    /// margin's position, as `AtlasTexture::draw` does; and one line per animation.
    static let dumpScript = """
        extends SceneTree

        func _init():
        \tvar frames = load("res://sheet/circular.tres")
        \tvar report = File.new()
        \treport.open("res://out/report.txt", File.WRITE)
        \tif frames == null:
        \t\treport.store_line("load failed")
        \t\treport.close()
        \t\tquit(3)
        \t\treturn
        \tfor anim in frames.get_animation_names():
        \t\tvar n = frames.get_frame_count(anim)
        \t\treport.store_line("%s %d %s %s" % [anim, n, frames.get_animation_speed(anim), frames.get_animation_loop(anim)])
        \t\tfor i in range(n):
        \t\t\tvar tex = frames.get_frame(anim, i)
        \t\t\tvar atlas = tex.atlas.get_data()
        \t\t\tatlas.convert(Image.FORMAT_RGBA8)
        \t\t\tvar img = Image.new()
        \t\t\timg.create(tex.get_width(), tex.get_height(), false, Image.FORMAT_RGBA8)
        \t\t\timg.blit_rect(atlas, tex.region, tex.margin.position)
        \t\t\timg.save_png("res://out/%s-%03d.png" % [anim, i])
        \treport.close()
        \tquit(0)

        """

    @Test func godotLoadsTheSpriteFramesResource() throws {
        guard let godot = Self.godot else {
            Issue.record("godot3-server is not installed; run 'make deps' (Debian package godot3-server)")
            return
        }
        let (dir, frames) = try Self.export(
            "godot", ["--trim", "--padding", "2", "--extrude", "1"], folder: "project/sheet")
        let project = dir + "/project"
        try writeFile(
            "config_version=4\n\n[application]\n\nconfig/name=\"sheet test\"\n", to: project + "/project.godot")
        try writeFile(Self.dumpScript, to: project + "/dump.gd")
        try FileManager.default.createDirectory(atPath: project + "/out", withIntermediateDirectories: true)
        // Godot keeps its settings and editor caches under HOME / XDG folders.
        let env = [
            "HOME": dir, "XDG_DATA_HOME": dir + "/xdg", "XDG_CONFIG_HOME": dir + "/xdg", "XDG_CACHE_HOME": dir + "/xdg",
        ]
        // `--editor --quit` may quit before its first scan has imported the PNG (seen with a fresh
        // HOME); run it again until the import file is there.
        for _ in 0..<4 where !FileManager.default.fileExists(atPath: project + "/sheet/circular.png.import") {
            let imported = try runProcess(
                godot, ["--path", project, "--editor", "--quit"], in: project, environment: env)
            #expect(imported.status == 0, "\(imported.stderr)")
        }
        #expect(FileManager.default.fileExists(atPath: project + "/sheet/circular.png.import"))
        let dumped = try runProcess(godot, ["--path", project, "-s", "res://dump.gd"], in: project, environment: env)
        #expect(dumped.status == 0, "\(dumped.stdout) \(dumped.stderr)")
        let report = String(decoding: readBytes(project + "/out/report.txt"), as: UTF8.self)
        #expect(report == "circular 30 7.5 True\n")
        for i in 0..<30 {
            let path = project + "/out/" + String(format: "circular-%03d.png", i)
            let frame = try PNGCodec.decode(readBytes(path))
            #expect(Self.sameAfterGodotImport(frame, frames[i]), "Godot frame \(i)")
            if i > 0 { #expect(!Self.sameAfterGodotImport(frame, frames[i - 1]), "Godot frame \(i) is frame \(i - 1)") }
        }
    }

    // MARK: CSS

    /// Chromium plays the stylesheet: with the animation paused at a negative delay, the
    /// screenshot shows the frame of that time. At `--scale 2` on a 2× screen the CSS box is
    /// 64 CSS px and shows the 128 px frame pixel for pixel.
    @Test(arguments: [1, 2]) func chromiumPlaysTheCSSSprite(scale: Int) throws {
        guard PreviewTests.chromium != nil else {
            Issue.record("Chromium is not installed; run 'make deps' (Debian package chromium)")
            return
        }
        let extra = ["--trim", "--padding", "1"] + (scale == 1 ? [] : ["--scale", String(scale)])
        let (dir, frames) = try Self.export("css", extra)
        let stem = scale == 1 ? "circular" : "circular@\(scale)x"
        let side = 64 * scale
        var start = 0
        var starts: [Int] = []
        for d in Self.durations {
            starts.append(start)
            start += d
        }
        for i in [0, 1, 7, 15, 29] {
            let middle = Double(starts[i]) + Double(Self.durations[i]) / 2
            let page = """
                <!doctype html><html><head><link rel="stylesheet" href="\(stem).css"><style>
                html, body { margin: 0; background: transparent; }
                .circular::before { animation-play-state: paused !important; animation-delay: -\(middle / 1000)s !important; }
                </style></head><body><span class="circular"></span></body></html>
                """
            try writeFile(page, to: "\(dir)/sheet/page-\(i).html")
            let shot = try #require(
                try Self.transparentScreenshot("\(dir)/sheet/page-\(i).html", deviceScale: scale, in: dir))
            let box = Self.place(shot, x: 0, y: 0, cw: side, ch: side, in: side, side, at: 0, 0)
            #expect(Self.close(box, frames[i], tolerance: 1), "CSS frame \(i) at \(middle) ms")
            #expect(!Self.close(box, frames[i == 0 ? 1 : 0], tolerance: 1), "frame \(i) looks like another")
            // Nothing is drawn outside the frame's box.
            let outside = (0..<shot.height).contains { y in
                (0..<shot.width).contains { x in
                    (x >= side || y >= side) && shot.pixels[(y * shot.width + x) * 4 + 3] != 0
                }
            }
            #expect(!outside, "frame \(i) draws outside its box")
        }
    }

    /// A 400×300 CSS px screenshot on a transparent page at `deviceScale` device pixels per CSS
    /// pixel (a window much smaller cuts the screenshot's lower part off in Debian 12's
    /// headless Chromium).
    static func transparentScreenshot(_ page: String, deviceScale: Int = 1, in dir: String) throws -> RGBAImage? {
        guard let chromium = PreviewTests.chromium else { return nil }
        let shot = page + ".png"
        let run = try runProcess(
            chromium,
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
                "--user-data-dir=\(dir)/chromium-profile", "--window-size=400,300", "--virtual-time-budget=500",
                "--default-background-color=00000000", "--force-color-profile=srgb", "--screenshot=\(shot)",
                "--force-device-scale-factor=\(deviceScale)",
                "file://\(page)",
            ])
        #expect(run.status == 0, "\(run.stderr)")
        return try PNGCodec.decode(readBytes(shot))
    }
}
