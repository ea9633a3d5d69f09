// SPDX-License-Identifier: GPL-3.0-or-later

extension Command {
    /// What `animexport --help` prints.
    static let helpText = """
        animexport: turn JSON animation presets into looping GIFs and PNG sprite sheets.

        USAGE
          animexport PRESET.json [-o OUT] [options]
          animexport PRESET.json... -o DIR/ [options]

        OUTPUT (-o, repeatable; the kind follows the name)
          -o NAME.gif            animated GIF
          -o NAME.png            sprite sheet PNG plus NAME.json (Aseprite/TexturePacker json-array)
          -o DIR/                DIR/PRESET.gif, DIR/PRESET.png and DIR/PRESET.json
          (no -o)                output/PRESET.gif
          --frames DIR           also write every frame as DIR/PRESET-000.png (straight alpha)

        TIMING
          --fps N                frames per second (default: the preset's, usually 30); a GIF
                                 above 50 fps is resampled to 50 (browsers slow shorter delays)
          --duration SEC         loop period (default: the preset's, or the LCM of its cycles)

        LOOK
          --scale S              pixels per point, re-rendered from vectors (2 = @2x); default 1
          --background COLOR     paint the canvas (#RRGGBB, #RRGGBBAA, a name, or transparent)
          --matte COLOR          page colour for a transparent GIF: half-transparent edges are
                                 blended onto it (default: the preset's canvas.matte); "none"
                                 thresholds edges at 50 % alpha and warns
          --set NAME=VALUE       override a preset parameter (repeatable), e.g. --set color=#FF3B30

        GIF
          --loop N|forever       total plays (default forever; 1 writes no NETSCAPE2.0 block)
          --dither MODE          none (default), ordered or fs: how a palette that had to be
                                 reduced (over 255 colours) approximates the rest

        SPRITE SHEET
          --columns N            cells per row (default: ceil(sqrt(frames)))
          --padding PX           transparent pixels around every cell (default 0)
          --extrude PX           repeat each cell's edge pixels PX times outwards (0…64)
          --trim                 cut frames to their visible pixels (JSON spriteSourceSize)
          --sheet-type TYPE      grid (default), horizontal or vertical
          --sheet-colors N       allow a palette PNG of N colours (2…256) when smaller

        OTHER
          -q, --quiet            print nothing on success
          -h, --help             this text
          --version              the version

        EXIT CODES
          0 success, 1 I/O or encoder failure, 64 usage error, 65 invalid preset
        """
}
