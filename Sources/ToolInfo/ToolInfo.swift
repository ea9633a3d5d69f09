// SPDX-License-Identifier: GPL-3.0-or-later

/// The words the tool says about itself, in one place for both executables: the `animexport`
/// front answers `--version` and `--help` from here without loading Foundation or the C
/// libraries, and `animexport-core` (everything else, and `--help` after other arguments) prints
/// the same strings (`docs/architecture.md`, start-up). No Foundation and no dependencies here.
public enum ToolInfo {
    /// The tool's version (semantic versioning), printed by `--version` as `animexport VERSION`
    /// and written into sheet metadata and reports (`Exporter.version`).
    public static let version = "0.1.0"

    /// What `animexport --help` prints, without the final newline (a tested golden:
    /// Tests/CLITests/Fixtures/help.txt).
    public static let help = """
        animexport: turn JSON animation presets into looping GIF, APNG and WebP files and sprite sheets.

        USAGE
          animexport PRESET.json [-o OUT] [options]       export one preset
          animexport PRESET.json|DIR... -o DIR/ [options] export many (a DIR in = its *.json)
          animexport list [DIR|PRESET...]                 presets with canvas, loop and params
          animexport validate PRESET... [--strict] [options] check, no rendering
          animexport check PRESET|DIR... -o DIR/ [options] compare with the files in DIR
          animexport assemble FRAMES... -o OUT.webp [opts] PNG frames (files or folders) to one
                                                          GIF, APNG or WebP; assemble --help
          (a bare NAME without .json is presets/NAME.json when that file exists)

        OUTPUT (-o, repeatable; the kind follows the name)
          -o NAME.gif            animated GIF (1-bit alpha: edges matted onto one page colour)
          -o NAME.apng           animated PNG (real alpha, lossless; frame 0 where APNG is unknown)
          -o NAME.webp           animated WebP (real alpha, lossless unless --quality)
          -o NAME.png            sprite sheet PNG plus its data file (NAME.json: Aseprite json-hash)
          -o NAME.lottie.json    Lottie 1.0 (baked vectors for lottie-ios/-android/-web)
          -o DIR/                DIR/PRESET.gif, DIR/PRESET.png and DIR/PRESET.json (DIR is created)
          (no -o)                output/PRESET.gif (output/ is created)
          --format LIST          what -o DIR/ receives: gif, apng, webp, sheet, frames, lottie
                                 (default gif,sheet)
          --frames DIR           also write every frame as DIR/PRESET-000.png (straight alpha;
                                 the scale suffix last: PRESET-000@2x.png)
          --frame N              write only frame N of the loop as one PNG (-o NAME.png or DIR/)
          --time SEC             write only the instant SEC (preset clock) as one PNG
          --preview FILE.html    one self-contained page: every animated format side by side on a
                                 page-colour switch, frame scrubber, zoom, params, timing
          --report FILE.json     per frame the intended time and the encoded delay, warnings
          --force                replace existing files that animexport did not write
                                 (without it such a file stops the run before anything is
                                 written), and render every job even when its manifest says
                                 it is up to date

        TIMING
          --fps N                frames per second (default: the preset's, usually 30); a GIF
                                 above 50 fps is resampled to 50 (browsers slow shorter delays)
          --duration SEC         loop period (default: the preset's, or the LCM of its cycles)
          --speed X              play X times as fast (0.01…100), like CAMediaTiming speed on the
                                 root layer: the loop lasts period / X, timers and events too
          --poster TIME          start the file TIME s (or P%) into the loop: frame 0, the one
                                 mail and thumbnails show; the same frames, rotated

        LOOK
          --scale S[,S...]       pixels per point, re-rendered from vectors; default 1. Each scale
                                 other than 1 adds @Sx to generated names: NAME@2x.gif
          --background COLOR     paint the canvas (#RRGGBB, rgb(), hsl(), a SwiftUI, UIKit or CSS name)
          --matte COLOR          page colour for a transparent GIF: half-transparent edges are
                                 blended onto it (default: the preset's canvas.matte); "none"
                                 thresholds edges at 50 % alpha and warns
          --set NAME=VALUE       override a preset parameter (repeatable), e.g. --set color=#FF3B30;
                                 a list (--set size=24,32) makes one output each: NAME-size-24.gif;
                                 several lists make every combination (two lists of 2: 4 outputs)
          --zip                  take the lists (--set, --size, --scale) row by row instead: the
                                 i-th values go together, so size=24,32 with strokeWidth=2,3 is
                                 2 outputs, not 4; every list needs the same length
          --size PX[,PX...]      scale so the larger canvas side is PX pixels: NAME-32.gif (not
                                 with --scale)
          --name TEMPLATE        stem of the names in -o DIR/: {preset} {scale} {px} {fps}
                                 {speed} and any parameter, e.g. --name '{preset}-{size}'

        GIF
          --loop N|forever       total plays (default forever; 1 writes no NETSCAPE2.0 block)
          --dither MODE          none (default), ordered or fs: how a palette that had to be
                                 reduced (over 255 colours) approximates the rest
          --lossy N              let each pixel be up to N levels per channel off its
                                 palette colour (0…255; default 0, lossless); transparency
                                 stays exact, and the file is never larger than lossless

        APNG AND WEBP
          --loop N|forever       as for GIF: total plays (default forever)
          --quality N            lossy WebP at quality N (0…100; default: lossless)
          --effort standard|max  max: smallest APNG and WebP, many times slower (default standard)

        SPRITE SHEET
          --columns N            cells per row (default: ceil(sqrt(frames)))
          --padding PX           transparent pixels around every cell (default 0)
          --extrude PX           repeat each cell's edge pixels PX times outwards (0…64)
          --trim                 cut frames to their visible pixels (JSON spriteSourceSize)
          --sheet-type TYPE      grid (default), horizontal, vertical, or packed (MaxRects:
                                 trimmed cells of their own sizes on the smallest page)
          --merge-duplicates     identical frames share one cell (same rectangle in the JSON)
          --max-size PX          largest page side (default 4096; 1…16384, a warning above
                                 8192); more pages NAME-0.png, NAME-1.png… when frames overflow
          --pot                  page sides rounded up to powers of two
          --sheet-colors N       allow a palette PNG of N colours (2…256) when smaller
          --sheet-format NAME    the data file: aseprite (default; json-hash, read by Phaser
                                 atlas/aseprite and PixiJS), aseprite-array, texturepacker,
                                 texturepacker-array, phaser-multiatlas, pixi (with animations),
                                 godot (NAME.tres SpriteFrames, Godot 3), css (NAME.css, no script)
          --frame-name TEMPLATE  frame names, Aseprite fields {title} {tag} {frame} {frame000}
                                 {tagframe} {extension} (default {frame}, or
                                 {title}-{frame000}.png for the TexturePacker and pixi shapes)

        RUNNING
          --exclude GLOB         a DIR in leaves out the *.json whose file name matches (fnmatch;
                                 repeatable); JSON files that are not presets are skipped anyway
          -j, --jobs N           threads that render and encode (default: the number of cores);
                                 the bytes written are the same for every N
          --shard K/N            only the K-th of N slices of the batch (1 ≤ K ≤ N), for CI
                                 matrices; the N shards together write the whole batch
          --watch                re-render when a preset or a file it uses changes, and render
                                 presets added to a watched DIR; one line per render; Ctrl-C stops
          --strict               validate: lints (warnings) count as errors; the GIF-only ones
                                 (period-off-grid, fps-above-50) only with --format gif
          -q, --quiet            print nothing on success (no progress line either)
          -h, --help             this text
          --version              the version

        EXIT CODES
          0 success, 1 I/O or encoder failure, 2 check found missing or different files,
          64 usage error, 65 invalid preset (or a lint under validate --strict)
        """
}
