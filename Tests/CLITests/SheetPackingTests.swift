// SPDX-License-Identifier: GPL-3.0-or-later

import AnimexportCLI
import Export
import Foundation
import Raster
import Render
import Spec
import Testing

@testable import Encode

/// Checks a laid-out sheet against the frames it came from, independently of the layout code:
/// every rectangle inside its page, no two cells overlapping (merged frames share theirs), each
/// frame cut from its page and put back at its trim offset equal to the rendered frame, and every
/// page pixel outside the cells' stored rectangles either the cell's extrusion (the nearest edge
/// pixel of its cell) or fully transparent padding.
func checkSheet(
    _ sheet: SpriteSheet, frames: [RGBAImage], extrude e: Int, maxSize: Int? = nil,
    sourceLocation: Testing.SourceLocation = #_sourceLocation
) {
    let layout = sheet.layout
    #expect(sheet.pages.count == layout.pages.count, sourceLocation: sourceLocation)
    for (k, page) in layout.pages.enumerated() where k < sheet.pages.count {
        #expect(
            sheet.pages[k].width == page.width && sheet.pages[k].height == page.height, sourceLocation: sourceLocation)
        if let maxSize { #expect(page.width <= maxSize && page.height <= maxSize, sourceLocation: sourceLocation) }
    }
    // Distinct cells: merged frames must share the whole record's rectangle.
    var cells: [String: SheetFrame] = [:]
    for f in layout.frames {
        cells["\(f.page):\(f.x):\(f.y)"] = f
    }
    for f in layout.frames {
        let c = cells["\(f.page):\(f.x):\(f.y)"]
        #expect(c?.width == f.width && c?.height == f.height, "two cells at one corner", sourceLocation: sourceLocation)
    }
    let distinct = Array(cells.values).sorted { ($0.page, $0.y, $0.x) < ($1.page, $1.y, $1.x) }
    for (a, c1) in distinct.enumerated() {
        #expect(c1.page >= 0 && c1.page < layout.pages.count, sourceLocation: sourceLocation)
        guard c1.page >= 0, c1.page < layout.pages.count else { return }
        let page = layout.pages[c1.page]
        // The cell with its extrusion lies inside the page.
        #expect(
            c1.x - e >= 0 && c1.y - e >= 0 && c1.x + c1.width + e <= page.width
                && c1.y + c1.height + e <= page.height, "cell outside its page", sourceLocation: sourceLocation)
        for c2 in distinct[(a + 1)...] where c2.page == c1.page {
            let apart =
                c1.x + c1.width + e <= c2.x - e || c2.x + c2.width + e <= c1.x - e
                || c1.y + c1.height + e <= c2.y - e || c2.y + c2.height + e <= c1.y - e
            #expect(apart, "cells overlap", sourceLocation: sourceLocation)
        }
    }
    // Frames cut back out.
    for (i, f) in layout.frames.enumerated() where f.page < sheet.pages.count {
        let page = sheet.pages[f.page]
        var rebuilt = RGBAImage(width: f.sourceWidth, height: f.sourceHeight)
        for v in 0..<f.height {
            for u in 0..<f.width {
                let s = page.offset(x: f.x + u, y: f.y + v)
                let d = rebuilt.offset(x: f.sourceX + u, y: f.sourceY + v)
                for c in 0..<4 { rebuilt.pixels[d + c] = page.pixels[s + c] }
            }
        }
        #expect(rebuilt == frames[i], "frame \(i) differs when cut from page \(f.page)", sourceLocation: sourceLocation)
    }
    // Every page pixel: a cell's pixel, its extrusion (nearest edge pixel), or transparent.
    for (k, page) in sheet.pages.enumerated() {
        var expected = RGBAImage(width: page.width, height: page.height)
        for c in distinct where c.page == k {
            for y in (c.y - e)..<(c.y + c.height + e) {
                for x in (c.x - e)..<(c.x + c.width + e) {
                    let sx = min(max(x, c.x), c.x + c.width - 1)
                    let sy = min(max(y, c.y), c.y + c.height - 1)
                    let s = page.offset(x: sx, y: sy)
                    let d = expected.offset(x: x, y: y)
                    for ch in 0..<4 { expected.pixels[d + ch] = page.pixels[s + ch] }
                }
            }
        }
        #expect(expected == page, "page \(k): extrusion or padding differs", sourceLocation: sourceLocation)
    }
}

/// Packing on every bundled preset, at 1× through the library and through the CLI.
@Suite(.serialized) struct SheetPackingTests {
    static let circularProgress = packageRoot + "/presets/circular-progress.json"

    static func area(_ sheet: SpriteSheet) -> Int { sheet.layout.pages.map { $0.width * $0.height }.reduce(0, +) }

    @Test(arguments: PresetCatalogTests.presetFiles)
    func packedIsNoLargerThanTheGridAndGivesTheFramesBack(path: String) throws {
        let composition = try PresetLoader.load(contentsOf: path, measureText: Exporter.measureText).composition
        let animation = try Exporter.render(composition, fps: composition.fps)
        for (trim, merge) in [(false, false), (true, false), (true, true)] {
            let grid = try Exporter.sheet(
                animation, imageName: "s.png", columns: nil, padding: 0, trim: trim, layout: .grid,
                mergeDuplicates: merge)
            let packed = try Exporter.sheet(
                animation, imageName: "s.png", columns: nil, padding: 0, trim: trim, layout: .packed,
                mergeDuplicates: merge)
            #expect(packed.pages.count == 1 && grid.pages.count == 1)
            #expect(Self.area(packed) <= Self.area(grid), "trim \(trim) merge \(merge)")
            checkSheet(packed, frames: animation.frames, extrude: 0, maxSize: 4096)
            if trim && merge {
                checkSheet(grid, frames: animation.frames, extrude: 0, maxSize: 4096)
                // Merged frames are exactly the repeated ones: one cell per distinct (pixels, offset).
                var seen = Set<[UInt8]>()
                for (i, f) in packed.frames.enumerated() {
                    var key = DuplicateFinder.crop(
                        animation.frames[i], Box(x: f.sourceX, y: f.sourceY, w: f.width, h: f.height))
                    key += [
                        UInt8(truncatingIfNeeded: f.sourceX), UInt8(truncatingIfNeeded: f.sourceY),
                        UInt8(truncatingIfNeeded: f.width),
                    ]
                    seen.insert(key)
                }
                let cells = Set(packed.frames.map { "\($0.page):\($0.x):\($0.y)" })
                #expect(cells.count == seen.count)
            }
        }
    }

    @Test func paddingExtrudeAndTrimWorkWithEveryLayout() throws {
        let composition = try PresetLoader.load(contentsOf: Self.circularProgress).composition
        let animation = try Exporter.render(composition, fps: 4)
        for layout in SheetLayout.allCases {
            for (padding, extrude, trim) in [(2, 0, true), (0, 2, false), (3, 1, true)] {
                for maxSize in [4096, 600] {
                    let sheet = try Exporter.sheet(
                        animation, imageName: "s.png", columns: nil, padding: padding, extrude: extrude, trim: trim,
                        layout: layout, maxSize: maxSize, mergeDuplicates: true)
                    checkSheet(sheet, frames: animation.frames, extrude: extrude, maxSize: maxSize)
                    // The border: `padding` transparent pixels along the top and left edges.
                    for page in sheet.pages {
                        for k in 0..<(page.width * padding) { #expect(page.pixels[4 * k + 3] == 0) }
                    }
                }
            }
        }
    }

    @Test func smallMaxSizeMakesSeveralPagesWithinItAndPowerOfTwoSides() throws {
        let composition = try PresetLoader.load(contentsOf: Self.circularProgress).composition
        let animation = try Exporter.render(composition, fps: 10)
        for layout in SheetLayout.allCases {
            for pot in [false, true] {
                let sheet = try Exporter.sheet(
                    animation, imageName: "s.png", columns: nil, padding: 1, extrude: 1, trim: true, layout: layout,
                    maxSize: 600, powerOfTwo: pot, mergeDuplicates: true)
                #expect(sheet.pages.count > 1, "\(layout)")
                checkSheet(sheet, frames: animation.frames, extrude: 1, maxSize: pot ? 512 : 600)
                #expect(sheet.layout.pages.map(\.imageName) == (0..<sheet.pages.count).map { "s-\($0).png" })
                if pot {
                    for page in sheet.layout.pages {
                        #expect(page.width & (page.width - 1) == 0 && page.height & (page.height - 1) == 0)
                    }
                }
                // Never more pages than the untrimmed count the planner gives before rendering.
                let bound = SpriteSheetBuilder.pageCountBound(
                    frameCount: animation.frames.count, width: animation.frames[0].width,
                    height: animation.frames[0].height,
                    options: SpriteSheetOptions(
                        name: "s", imageName: "s.png", padding: 1, extrude: 1, trim: true, layout: layout,
                        maxSize: 600, powerOfTwo: pot, mergeDuplicates: true, frameRate: 1, loopSeconds: 1))
                #expect(sheet.pages.count <= bound)
            }
        }
    }

    /// The CLI's multipack: page files and one JSON per page, cut frames equal to `--frames`,
    /// the same bytes with one thread and two.
    @Test func cliMultipackMatchesTheFramesAndDoesNotDependOnJobs() throws {
        let dir = try temporaryDirectory()
        let common = [
            Self.circularProgress, "--fps", "10", "--sheet-type", "packed", "--trim", "--merge-duplicates",
            "--max-size", "512", "--extrude", "1", "--padding", "1",
        ]
        let one = try runTool(common + ["-o", "a.png", "--frames", "f", "--jobs", "1"], in: dir)
        #expect(one.status == 0, "stderr: \(one.stderr)")
        let two = try runTool(common + ["-o", "b.png", "--jobs", "2"], in: dir)
        #expect(two.status == 0, "stderr: \(two.stderr)")
        let names = listing(dir).filter { $0.hasPrefix("a-") }
        let pages = names.filter { $0.hasSuffix(".png") }.count
        #expect(pages > 1)
        #expect(names.count == 2 * pages)
        for k in 0..<pages {
            #expect(readBytes(dir + "/a-\(k).png") == readBytes(dir + "/b-\(k).png"))
            let a = String(decoding: readBytes(dir + "/a-\(k).json"), as: UTF8.self)
            let b = String(decoding: readBytes(dir + "/b-\(k).json"), as: UTF8.self)
            #expect(a == b.replacingOccurrences(of: "\"b-\(k).png\"", with: "\"a-\(k).png\""))
            // The JSON names its own page.
            let json = try JSONSerialization.jsonObject(with: Data(readBytes(dir + "/a-\(k).json"))) as? [String: Any]
            #expect((json?["meta"] as? [String: Any])?["image"] as? String == "a-\(k).png")
        }
        // Every frame cut from its page equals the --frames PNG.
        var images: [String: RGBAImage] = [:]
        var frames: [(SheetFrame, Int)] = []
        for k in 0..<pages {
            images["\(k)"] = try PNGCodec.decode(readBytes(dir + "/a-\(k).png"))
            let json = try JSONSerialization.jsonObject(with: Data(readBytes(dir + "/a-\(k).json"))) as? [String: Any]
            // The default data format, Aseprite json-hash: frames keyed by their number
            // ("{frame}"), each page's file holding that page's frames.
            for (name, value) in json?["frames"] as? [String: Any] ?? [:] {
                let entry = value as? [String: Any] ?? [:]
                let r = entry["frame"] as? [String: Int] ?? [:]
                let s = entry["spriteSourceSize"] as? [String: Int] ?? [:]
                let size = entry["sourceSize"] as? [String: Int] ?? [:]
                let index = Int(name) ?? -1
                frames.append(
                    (
                        SheetFrame(
                            filename: name, x: r["x"] ?? 0, y: r["y"] ?? 0, width: r["w"] ?? 0, height: r["h"] ?? 0,
                            duration: 1, sourceX: s["x"] ?? 0, sourceY: s["y"] ?? 0, sourceWidth: size["w"],
                            sourceHeight: size["h"],
                            page: k), index
                    ))
            }
        }
        #expect(frames.count == 60)
        for (f, index) in frames {
            let path =
                dir + "/f/circular-progress-\(String(repeating: "0", count: 3 - String(index).count))\(index).png"
            let expected = try PNGCodec.decode(readBytes(path))
            guard let page = images["\(f.page)"] else { continue }
            var rebuilt = RGBAImage(width: f.sourceWidth, height: f.sourceHeight)
            for v in 0..<f.height {
                for u in 0..<f.width {
                    let s = page.offset(x: f.x + u, y: f.y + v)
                    let d = rebuilt.offset(x: f.sourceX + u, y: f.sourceY + v)
                    for c in 0..<4 { rebuilt.pixels[d + c] = page.pixels[s + c] }
                }
            }
            #expect(rebuilt == expected, "frame \(index)")
        }
    }

    @Test(arguments: [
        (["--max-size", "0"], "--max-size 0: expected a page size of 1…16384 pixels"),
        (["--max-size", "16385"], "--max-size 16385: expected a page size of 1…16384 pixels"),
        (["--max-size", "big"], "--max-size big: expected a page size of 1…16384 pixels"),
        (["--pot=yes"], "--pot takes no value"),
        (["--merge-duplicates=1"], "--merge-duplicates takes no value"),
        (["--sheet-type", "maxrects"], "--sheet-type maxrects: expected grid, horizontal, vertical or packed"),
        (["--columns", "3", "--sheet-type", "packed"], "--columns applies to --sheet-type grid only"),
        (["--max-size", "100"], "does not fit a page of 100×100 px (--max-size 100)"),
        (["--max-size", "255", "--pot"], "does not fit a page of 128×128 px (--max-size 255, --pot)"),
    ])
    func badLayoutOptionsExit64(arguments: [String], message: String) throws {
        let dir = try temporaryDirectory()
        let run = try runTool([Self.circularProgress, "-o", "x.png"] + arguments, in: dir)
        #expect(run.status == 64)
        #expect(run.stderr.contains(message), "stderr: \(run.stderr)")
        #expect(listing(dir).isEmpty)
    }

    @Test func pagesAboveEightThousandPixelsWarn() throws {
        let dir = try temporaryDirectory()
        let run = try runTool(
            [Self.circularProgress, "-o", "w.png", "--fps", "10", "--max-size", "9000", "--columns", "36"], in: dir)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        // 60 frames of 248 px in 36 columns: 8928×496, over 8192.
        #expect(run.stderr.contains("w.png: warning: the page is 8928×496 px; many mobile GPUs stop at 4096 or 8192"))
        let small = try runTool([Self.circularProgress, "-o", "v.png", "--fps", "10", "--max-size", "9000"], in: dir)
        #expect(small.status == 0 && !small.stderr.contains("warning"), "stderr: \(small.stderr)")
    }
}
