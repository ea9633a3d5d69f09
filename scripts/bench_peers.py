#!/usr/bin/python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""make bench-peers: animexport's GIF, APNG and WebP encoders against the tools users reach for.

Usage: scripts/bench_peers.py [--formats gif,apng,webp] [--presets NAME,NAME] [--runs N]
(default: every format, every preset in presets/, RUNS runs). The GIF rows are described here;
the APNG and WebP rows above bench_animated().

For every preset in presets/, the frames are rendered once to PNG by animexport itself
(`animexport PRESET --frames DIR`, straight alpha), then the same files are encoded by:

  (a)  animexport   `animexport-bench --encode-frames DIR PRESET` (the preset's matte, exact palette)
  (a') animexport   the same with `--matte none`: edges thresholded at 50 % alpha like the peers
  (a'') animexport  (a) with `--lossy LOSSY` (every pixel within LOSSY levels per channel of (a))
  (a''') animexport (a') with `--lossy 1`: the peers' 1-bit edges, every opaque pixel within one
                    level per channel of its thresholded colour (ffmpeg's palette may move a
                    colour much further)
  (b)  ffmpeg       two passes: palettegen, then paletteuse (its defaults: sierra2_4a dither,
                    alpha threshold 128)
  (c)  (b) + gifsicle -O3
  (b') ffmpeg       (b) on matted frames: a copy of every frame with animexport's alpha policy
                    for the page colour m already applied (alpha 0 stays transparent, written
                    as (0,0,0,0); any other alpha a becomes opaque with round((c·a + m·(255−a))/255)
                    per channel), so ffmpeg gets what (a) encodes: the same input and the same
                    smooth edges. Matting runs here in Pillow and is not counted in (b')'s time.
  (c') (b') + gifsicle -O3
  (d)  ImageMagick  convert -delay 1xFPS -loop 0 FRAMES -layers Optimize

and each GIF is decoded by Pillow. Per tool: wall ms of the encoding processes (best of RUNS
runs, process start included; (a) and (b)'s two ffmpeg passes take turns, round by round, so
a slow spell of the machine falls on both sides of the time ratio; for (a) the in-process PNG
decode and encode times, best of RUNS, are printed too, and the encode time on one thread,
whose GIF must be the same), bytes,
total duration in cs (and its error against the loop period), PSNR in dB over all frames of the
decoded GIF against the source frames, both composited on the same page colour (the preset's
matte, else white), and the ratios ours/theirs: (a) against (c') is the fair byte comparison
(equal input, equal edge quality); (b) and (c) show what a user gets feeding the RGBA frames
straight to ffmpeg, whose paletteuse thresholds the soft edges at 50 % alpha. A GIF frame is
matched to source frame i by time: the frame shown at (i + 1/2)/N of the GIF's own total
duration, so a wrong delay costs duration error, not PSNR. Last: what `gifsicle -O3` saves on
our own output.

Needs Debian's python3 with Pillow (python3-pil), ffmpeg, gifsicle and imagemagick, and for
the APNG and WebP rows apngasm and webp (img2webp, gif2webp) (`make deps`) and the release binaries (`make bench-peers` builds them).
"""

import argparse
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from fractions import Fraction

from PIL import Image, ImageChops, ImageStat

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ANIMEXPORT = os.path.join(ROOT, ".build/release/animexport")
BENCH = os.path.join(ROOT, ".build/release/animexport-bench")
CONVERT = "/usr/bin/convert"  # the real ImageMagick, not a wrapper earlier on PATH
LOSSY = 8  # the (a'') row's --lossy tolerance, levels per channel


# Runs of every timed command; its best time counts, the same for every tool. The machines this
# runs on are shared virtual ones whose timings jump by 20-30 % between consecutive processes
# (docs/encoding.md, "Time").
RUNS = 5

# The standard output of each of the RUNS runs of the last command.
LAST_OUTPUTS = []


def run(arguments):
    """Runs a command; returns its wall time in ms (best of RUNS runs, the machine is shared).
    Any failure stops the benchmark."""
    best = math.inf
    LAST_OUTPUTS.clear()
    for _ in range(RUNS):
        start = time.perf_counter()
        result = subprocess.run(arguments, capture_output=True)
        best = min(best, (time.perf_counter() - start) * 1000)
        if result.returncode != 0:
            sys.exit("bench-peers: %s failed (%d): %s" % (arguments[0], result.returncode, result.stderr.decode()))
        LAST_OUTPUTS.append(result.stdout.decode())
    return best


def run_together(commands):
    """Runs the commands in turn, RUNS rounds of all of them, so a slow spell of the shared
    machine falls on every command alike instead of on one; returns each command's best wall
    time in ms and its outputs. Any failure stops the benchmark."""
    best = [math.inf] * len(commands)
    outputs = [[] for _ in commands]
    for _ in range(RUNS):
        for i, arguments in enumerate(commands):
            start = time.perf_counter()
            result = subprocess.run(arguments, capture_output=True)
            best[i] = min(best[i], (time.perf_counter() - start) * 1000)
            if result.returncode != 0:
                sys.exit("bench-peers: %s failed (%d): %s"
                         % (arguments[0], result.returncode, result.stderr.decode()))
            outputs[i].append(result.stdout.decode())
    return best, outputs


def in_process_ms(outputs=None):
    """`animexport-bench --encode-frames` prints "png-decode-ms X encode-ms Y": the best of the
    given outputs (else the last command's RUNS runs), per field."""
    best = {}
    for output in (LAST_OUTPUTS if outputs is None else outputs):
        words = output.split()
        for key, value in zip(words[::2], words[1::2]):
            best[key] = min(best.get(key, math.inf), float(value))
    return best


def gif_delays(path):
    """Centisecond delays of every image, read from the Graphic Control Extensions."""
    data = open(path, "rb").read()
    position = 13
    if data[10] & 0x80:
        position += 3 * (2 << (data[10] & 7))
    delays, pending = [], 0
    while position < len(data):
        block = data[position]
        if block == 0x21:
            label = data[position + 1]
            if label == 0xF9:
                pending = data[position + 4] | data[position + 5] << 8
            position += 2
            while data[position]:
                position += data[position] + 1
            position += 1
        elif block == 0x2C:
            flags = data[position + 9]
            position += 10
            if flags & 0x80:
                position += 3 * (2 << (flags & 7))
            position += 1
            while data[position]:
                position += data[position] + 1
            position += 1
            delays.append(pending)
            pending = 0
        else:
            break
    return delays


def composite(image, page):
    """Straight-alpha RGBA over an opaque page colour, as RGB."""
    background = Image.new("RGBA", image.size, page + (255,))
    return Image.alpha_composite(background, image.convert("RGBA")).convert("RGB")


def apply_matte(image, page):
    """animexport's alpha policy with matte `page`, as RGBA: alpha 0 becomes (0,0,0,0), any
    other alpha is opaque with round((c·a + m·(255−a))/255). Pillow's alpha_composite onto an
    opaque page rounds exactly so (check_matte), so only the alpha-0 pixels need putting back."""
    image = image.convert("RGBA")
    matted = Image.alpha_composite(Image.new("RGBA", image.size, page + (255,)), image)
    clear = image.getchannel("A").point(lambda a: 255 if a == 0 else 0)
    matted.paste((0, 0, 0, 0), None, clear)
    return matted


def check_matte():
    """apply_matte() against the integer formula for every straight channel c and alpha a, and
    pages with every channel value in some channel: stops the benchmark if Pillow rounds
    differently (the (b')/(c') rows would not get animexport's input)."""
    source = Image.new("RGBA", (256, 256))
    source.putdata([(c, 255 - c, c * 7 % 256, a) for a in range(256) for c in range(256)])
    pixels = list(source.getdata())
    for page in ((255, 255, 255), (0, 0, 0), (0x1F, 0x4E, 0x79), (128, 64, 191)):
        for (r, g, b, a), got in zip(pixels, apply_matte(source, page).getdata()):
            want = (0, 0, 0, 0) if a == 0 else tuple(
                (c * a + m * (255 - a) + 127) // 255 for c, m in zip((r, g, b), page)) + (255,)
            if got != want:
                sys.exit("bench-peers: apply_matte() gives %s for %s on %s, want %s"
                         % (got, (r, g, b, a), page, want))


def psnr(gif_path, sources, page):
    """PSNR (dB) over all frames; GIF frames matched to source frames by time."""
    delays = gif_delays(gif_path)
    total = sum(delays) or len(delays)
    gif = Image.open(gif_path)
    frames = []
    for i in range(gif.n_frames):
        gif.seek(i)
        frames.append(composite(gif, page))
    squared, count = 0.0, 0
    for i, source in enumerate(sources):
        moment = (i + 0.5) * total / len(sources)
        elapsed, shown = 0, len(frames) - 1
        for k, delay in enumerate(delays):
            elapsed += delay if sum(delays) else 1
            if moment < elapsed:
                shown = k
                break
        difference = ImageChops.difference(frames[shown], source)
        squared += sum(ImageStat.Stat(difference).sum2)
        count += source.size[0] * source.size[1] * 3
    if squared == 0:
        return math.inf
    return 10 * math.log10(255 * 255 / (squared / count))


def decibels(quality):
    """A PSNR for printing: inf, or one decimal."""
    return "inf" if quality == math.inf else "%.1f" % quality


def parse_colour(text):
    """#RRGGBB, or white for anything else (named mattes are looked up by animexport)."""
    named = {"white": (255, 255, 255), "black": (0, 0, 0)}
    if isinstance(text, str) and text.startswith("#") and len(text) in (7, 9):
        return tuple(int(text[i:i + 2], 16) for i in (1, 3, 5))
    return named.get(text, (255, 255, 255))


def loop_of(preset):
    """(fps, loop seconds) as `animexport list PRESET` prints them ("30 fps, 4 s loop"): the
    sheet's data file no longer carries them (its default format is TexturePacker's hash)."""
    listing = subprocess.run([ANIMEXPORT, "list", preset], capture_output=True, text=True, check=True).stdout
    found = re.search(r"([0-9.]+) fps, ([0-9.]+) s loop", listing)
    if not found:
        sys.exit("bench-peers: `animexport list %s` printed no fps and loop" % preset)
    return float(found.group(1)), float(found.group(2))


def bench(preset, work):
    name = os.path.splitext(os.path.basename(preset))[0]
    frames_dir = os.path.join(work, name + "-frames")
    sheet = os.path.join(work, name + "-sheet.png")
    run([ANIMEXPORT, preset, "--frames", frames_dir, "-o", sheet, "-q"])
    fps, period = loop_of(preset)
    if fps > 50:  # GIF plays at most 50 fps; animexport resamples, so give everyone 50 fps frames
        shutil.rmtree(frames_dir)
        fps = 50
        run([ANIMEXPORT, preset, "--fps", "50", "--frames", frames_dir, "-o", sheet, "-q"])
    files = sorted(f for f in os.listdir(frames_dir) if f.endswith(".png"))
    digits = len(files[0]) - len(files[0].rsplit("-", 1)[0]) - 5
    pattern = os.path.join(frames_dir, "%s-%%0%dd.png" % (files[0].rsplit("-", 1)[0], digits))
    paths = [os.path.join(frames_dir, f) for f in files]
    preset_json = json.load(open(preset))
    matte = preset_json.get("canvas", {}).get("matte")
    page = parse_colour(matte) if matte and matte != "none" else (255, 255, 255)
    sources = [composite(Image.open(p), page) for p in paths]
    # The same frames with the alpha policy of (a) applied, for (b') and (c'): same file names,
    # so ffmpeg reads them with the same pattern in the second folder. A preset without a matte
    # (airplane: opaque, so nothing changes) is matted on white, where (a) thresholds instead.
    matted_dir = os.path.join(work, name + "-matted")
    os.mkdir(matted_dir)
    for path in paths:
        apply_matte(Image.open(path), page).save(os.path.join(matted_dir, os.path.basename(path)))
    matted_pattern = os.path.join(matted_dir, os.path.basename(pattern))
    colours = set()
    for source in sources:
        found = source.getcolors(1 << 16)
        colours.update(c for _, c in (found or []))
        if found is None or len(colours) > 65535:
            break
    period_cs = round(100 * period)

    out = {}
    a = os.path.join(work, name + "-a.gif")
    palette = os.path.join(work, name + "-palette.png")
    b = os.path.join(work, name + "-b.gif")
    # Ours and ffmpeg's two passes take turns, so the time ratio compares like with like.
    (ms_a, ms_palettegen, ms_paletteuse), outputs = run_together([
        [BENCH, "--encode-frames", frames_dir, preset, "-o", a],
        ["ffmpeg", "-v", "error", "-y", "-framerate", str(fps), "-i", pattern, "-vf", "palettegen", palette],
        ["ffmpeg", "-v", "error", "-y", "-framerate", str(fps), "-i", pattern, "-i", palette,
         "-lavfi", "paletteuse", b]])
    out["(a) animexport"] = (ms_a, a)
    inside = in_process_ms(outputs[0])
    a1 = os.path.join(work, name + "-a-1thread.gif")
    run([BENCH, "--encode-frames", frames_dir, preset, "-o", a1, "--workers", "1"])
    inside_one_thread = in_process_ms()
    a2 = os.path.join(work, name + "-a-threshold.gif")
    out["(a') animexport --matte none"] = (
        run([BENCH, "--encode-frames", frames_dir, preset, "-o", a2, "--matte", "none"]), a2)
    a3 = os.path.join(work, name + "-a-lossy.gif")
    out["(a'') animexport --lossy %d" % LOSSY] = (
        run([BENCH, "--encode-frames", frames_dir, preset, "-o", a3, "--lossy", str(LOSSY)]), a3)
    a4 = os.path.join(work, name + "-a-threshold-lossy.gif")
    out["(a''') --matte none --lossy 1"] = (
        run([BENCH, "--encode-frames", frames_dir, preset, "-o", a4, "--matte", "none", "--lossy", "1"]), a4)
    ms_b = ms_palettegen + ms_paletteuse
    out["(b) ffmpeg 2-pass"] = (ms_b, b)
    c = os.path.join(work, name + "-c.gif")
    out["(c) ffmpeg + gifsicle -O3"] = (ms_b + run(["gifsicle", "-O3", b, "-o", c]), c)
    matted_palette = os.path.join(work, name + "-matted-palette.png")
    b2 = os.path.join(work, name + "-b-matted.gif")
    ms_b2 = run(["ffmpeg", "-v", "error", "-y", "-framerate", str(fps), "-i", matted_pattern,
                 "-vf", "palettegen", matted_palette])
    ms_b2 += run(["ffmpeg", "-v", "error", "-y", "-framerate", str(fps), "-i", matted_pattern,
                  "-i", matted_palette, "-lavfi", "paletteuse", b2])
    out["(b') ffmpeg 2-pass, matted frames"] = (ms_b2, b2)
    c2 = os.path.join(work, name + "-c-matted.gif")
    out["(c') (b') + gifsicle -O3"] = (ms_b2 + run(["gifsicle", "-O3", b2, "-o", c2]), c2)
    d = os.path.join(work, name + "-d.gif")
    out["(d) ImageMagick Optimize"] = (
        run([CONVERT, "-delay", "1x%g" % fps, "-loop", "0"] + paths + ["-layers", "Optimize", d]), d)

    print("\n%s: %d frames, %dx%d, %g fps, %.3f s loop (%d cs), %s colours on the page"
          % (name, len(paths), sources[0].size[0], sources[0].size[1], fps, period, period_cs,
             len(colours) if len(colours) < 65535 else ">65535"))
    print("  %-33s %9s %9s %12s %9s" % ("tool", "wall ms", "bytes", "duration cs", "PSNR dB"))
    results = {}
    for tool, (ms, path) in out.items():
        size = os.path.getsize(path)
        duration = sum(gif_delays(path))
        quality = psnr(path, sources, page)
        results[tool] = (ms, size, duration, quality)
        error = duration - period_cs
        print("  %-33s %9.0f %9d %6d (%+d) %9s" % (tool, ms, size, duration, error, decibels(quality)))
    print("  (a) in process: PNG decode %.2f ms, GIF encode %.2f ms on every core, %.2f ms on one"
          " (best of %d; the rest of its wall time is process start)"
          % (inside["png-decode-ms"], inside["encode-ms"], inside_one_thread["encode-ms"], RUNS))
    if open(a1, "rb").read() != open(a, "rb").read():
        sys.exit("bench-peers: %s: the one-thread GIF differs from the every-core GIF" % name)
    print("  our encode / ffmpeg 2-pass wall  %.3f on every core, %.3f on one"
          % (inside["encode-ms"] / out["(b) ffmpeg 2-pass"][0], inside_one_thread["encode-ms"] / out["(b) ffmpeg 2-pass"][0]))
    ours = results["(a) animexport"]
    for tool in ("(b) ffmpeg 2-pass", "(c) ffmpeg + gifsicle -O3", "(d) ImageMagick Optimize"):
        theirs = results[tool]
        print("  ours/%-25s time %.3f  bytes %.3f" % (tool.split(" ", 1)[1], ours[0] / theirs[0], ours[1] / theirs[1]))
    threshold = results["(a') animexport --matte none"]
    print("  ours --matte none / (c)        bytes %.3f  (same 1-bit edges as the peers; PSNR %.3f vs %.3f dB)"
          % (threshold[1] / results["(c) ffmpeg + gifsicle -O3"][1], threshold[3],
             results["(c) ffmpeg + gifsicle -O3"][3]))
    near = results["(a''') --matte none --lossy 1"]
    print("  ours --matte none --lossy 1 / (c) bytes %.3f  (PSNR %.3f vs %.3f dB)"
          % (near[1] / results["(c) ffmpeg + gifsicle -O3"][1], near[3],
             results["(c) ffmpeg + gifsicle -O3"][3]))
    lossy = results["(a'') animexport --lossy %d" % LOSSY]
    print("  ours --lossy %d / (c)           bytes %.3f  (PSNR %.1f vs %.1f dB)"
          % (LOSSY, lossy[1] / results["(c) ffmpeg + gifsicle -O3"][1], lossy[3],
             results["(c) ffmpeg + gifsicle -O3"][3]))
    matted = results["(c') (b') + gifsicle -O3"]
    print("  ours/(c') same matted input    bytes %.3f  (PSNR %s vs %s dB)"
          % (ours[1] / matted[1], decibels(ours[3]), decibels(matted[3])))
    for tool, path in (("(a)", a), ("(a')", a2)):
        optimised = os.path.join(work, name + "-reopt.gif")
        run(["gifsicle", "-O3", path, "-o", optimised])
        before, after = os.path.getsize(path), os.path.getsize(optimised)
        print("  gifsicle -O3 on %-5s %d -> %d bytes: saves %.2f %%" % (tool, before, after, 100 * (before - after) / before))


# ---- APNG and animated WebP rows (--formats apng,webp) ----
#
# Per preset, the frames are rendered at the preset's own frame rate (`animexport PRESET --frames
# DIR`, straight-alpha RGBA PNG) and fed to the peers; ours is the whole `animexport PRESET -o
# NAME.apng|.webp --force` process, so our wall time includes rendering the frames, which the
# peers get for free (`--force`, since a repeated run is otherwise skipped as up to date). Rows:
#
#   ours on the PNG frames: `animexport-bench --encode-frames DIR PRESET -o OUT.apng|.webp` (default
#         and `--effort max`), the same frames the peers read, decoded and encoded in one process;
#         its wall time includes process start and PNG decoding like the peers', and the in-process
#         PNG-decode and encode times (best of the runs) are printed below the table. Its file
#         must be byte-identical to the CLI's (checked).
#   ours assemble: `animexport assemble DIR --fps FPS -o OUT.apng|.webp` (default and `--effort
#         max`), what a user runs on frames made elsewhere: the front execs animexport-assemble,
#         which links the encoders but not the renderer. Its file must equal the CLI's (checked).
#   APNG  ours (default), ours `--effort max`; `apngasm OUT FRAMES 1 FPS` (Debian's apngasm 2.91:
#         7-Zip deflate) and with `-z2` (Zopfli); `ffmpeg -framerate FPS -i FRAMES -plays 0 -f apng`
#   WebP  ours (default, lossless), ours `--effort max`; `img2webp -loop 0 -lossless -d MS FRAME …`
#         with the frames' cumulatively rounded millisecond durations (the same ones ours writes),
#         and with `-min_size`; `gif2webp` on the preset's GIF as animexport writes it (white matte,
#         1-bit alpha, at most 256 colours: not the render, so it cannot match the frames)
#
# Columns: wall ms (best of RUNS runs, or of fewer when one run takes longer than SLOW_MS: the
# Zopfli and -min_size rows take minutes on the large presets), bytes, the total duration the
# file itself says (APNG: the sum of the fcTL delay_num/delay_den fractions, exact; WebP: the sum
# of the ANMF durations in ms) with its error against the loop period, and whether every decoded
# frame equals the rendered frame: Pillow decodes the file (compositing the dispose and blend
# operations), source frame i is compared with the frame shown at (i + 1/2)/N of the file's own
# total (so merged identical frames and wrong delays are not confused), as RGBA. "exact" means
# every pixel is equal; "alpha0" equal except the colour under fully transparent pixels (which
# no page shows); otherwise the number of frames that differ and the largest channel difference.

SLOW_MS = 3000  # a command slower than this is run once, not RUNS times


def run_adaptive(arguments, runs=None):
    """run() for the APNG/WebP rows: `runs` (default RUNS) runs, but only one when the first
    takes over SLOW_MS; returns the best wall time in ms (the standard outputs land in
    LAST_OUTPUTS). Any failure stops the benchmark."""
    best = math.inf
    LAST_OUTPUTS.clear()
    for _ in range(RUNS if runs is None else runs):
        start = time.perf_counter()
        result = subprocess.run(arguments, capture_output=True)
        best = min(best, (time.perf_counter() - start) * 1000)
        if result.returncode != 0:
            sys.exit("bench-peers: %s failed (%d): %s"
                     % (arguments[0], result.returncode, result.stderr.decode()))
        LAST_OUTPUTS.append(result.stdout.decode())
        if best > SLOW_MS:
            break
    return best


def png_chunks(data):
    """(type, body) of every chunk of a PNG/APNG file."""
    position = 8
    while position + 8 <= len(data):
        length = int.from_bytes(data[position:position + 4], "big")
        kind = data[position + 4:position + 8].decode("latin-1")
        yield kind, data[position + 8:position + 8 + length]
        position += 12 + length


def apng_timing(path):
    """(delays as Fractions of a second, num_plays) from the fcTL and acTL chunks (APNG
    specification: a delay_den of 0 means 100)."""
    delays, plays = [], None
    for kind, body in png_chunks(open(path, "rb").read()):
        if kind == "acTL":
            plays = int.from_bytes(body[4:8], "big")
        elif kind == "fcTL":
            numerator = int.from_bytes(body[20:22], "big")
            denominator = int.from_bytes(body[22:24], "big") or 100
            delays.append(Fraction(numerator, denominator))
    return delays, plays


def webp_timing(path):
    """(durations in ms from the ANMF chunks, loop count from ANIM), per the WebP container
    specification (chunk bodies padded to even length; ANMF duration is 24 bits at offset 12)."""
    data = open(path, "rb").read()
    position, durations, loops = 12, [], None
    while position + 8 <= len(data):
        kind = data[position:position + 4]
        length = int.from_bytes(data[position + 4:position + 8], "little")
        body = data[position + 8:position + 8 + length]
        if kind == b"ANIM":
            loops = int.from_bytes(body[4:6], "little")
        elif kind == b"ANMF":
            durations.append(int.from_bytes(body[12:15], "little"))
        position += 8 + length + (length & 1)
    return durations, loops


def without_hidden_colour(image):
    """RGBA with every alpha-0 pixel made (0,0,0,0)."""
    image = image.copy()
    clear = image.getchannel("A").point(lambda a: 255 if a == 0 else 0)
    image.paste((0, 0, 0, 0), None, clear)
    return image


def largest_difference(first, second):
    """The largest difference of any channel of any pixel of two RGBA images of one size."""
    return max(high for _, high in ImageChops.difference(first, second).getextrema())


def frames_equal(path, delays, sources):
    """Compares the decoded frames with the source frames (RGBA), each source frame with the
    frame the file shows at (i + 1/2)/N of its own total duration: "exact", "alpha0" or
    "no (F frames, max D)"."""
    decoded = Image.open(path)
    count = getattr(decoded, "n_frames", 1)
    if count != len(delays):
        return "no (%d frames decoded, %d delays)" % (count, len(delays))
    total = sum(delays)
    frames = []
    for k in range(count):
        decoded.seek(k)
        frames.append(decoded.convert("RGBA"))
    strict, loose, largest = True, 0, 0
    for i, source in enumerate(sources):
        moment = (Fraction(2 * i + 1, 2 * len(sources)) * total) if total else i
        elapsed, shown = 0, len(frames) - 1
        for k, delay in enumerate(delays):
            elapsed += delay if total else 1
            if moment < elapsed:
                shown = k
                break
        frame = frames[shown]
        if frame.size != source.size:
            return "no (size %dx%d)" % frame.size
        # Not getbbox(): on RGBA it looks at the alpha channel only, and would miss colour.
        if largest_difference(frame, source) == 0:
            continue
        strict = False
        hidden = largest_difference(without_hidden_colour(frame), without_hidden_colour(source))
        if hidden:
            loose += 1
            largest = max(largest, hidden)
    if strict:
        return "exact"
    return "alpha0" if loose == 0 else "no (%d frames, max %d)" % (loose, largest)


def bench_animated(preset, work, formats):
    name = os.path.splitext(os.path.basename(preset))[0]
    frames_dir = os.path.join(work, name + "-rgba-frames")
    sheet = os.path.join(work, name + "-rgba-sheet.png")
    run_adaptive([ANIMEXPORT, preset, "--frames", frames_dir, "-o", sheet, "-q"], runs=1)
    fps, period = loop_of(preset)
    files = sorted(f for f in os.listdir(frames_dir) if f.endswith(".png"))
    stem = files[0].rsplit("-", 1)[0]
    digits = len(files[0]) - len(stem) - 5
    pattern = os.path.join(frames_dir, "%s-%%0%dd.png" % (stem, digits))
    paths = [os.path.join(frames_dir, f) for f in files]
    sources = [Image.open(p).convert("RGBA") for p in paths]
    count = len(paths)
    # The loop period as an exact fraction: N frames at the preset's whole-number rate when that
    # is what the sheet's loopSeconds says, else loopSeconds to the microsecond.
    period_exact = Fraction(count, int(fps)) if float(fps).is_integer() and \
        abs(count / fps - period) < 1e-6 else Fraction(round(period * 1e6), 10 ** 6)
    period_ms = math.floor(period_exact * 1000 + Fraction(1, 2))
    print("\n%s: %d frames, %dx%d, %g fps, %s s loop (%d ms); our wall times include rendering"
          % (name, count, sources[0].size[0], sources[0].size[1], fps, period_exact, period_ms))

    OURS_ROWS = ("ours", "ours --effort max", "ours on PNG frames", "ours on PNG frames, max", "ours assemble",
                 "ours assemble, max")

    def ours_on_frames(rows, extension, inside):
        """Adds the `animexport-bench --encode-frames` rows (default and --effort max) and checks
        each file equals the CLI's."""
        for label, extra in (("ours on PNG frames", []), ("ours on PNG frames, max", ["--effort", "max"])):
            out = os.path.join(work, "%s-frames-%s.%s" % (name, "max" if extra else "default", extension))
            # WebP: --stream decodes the PNGs a batch at a time inside the encode, as img2webp
            # reads its files: whole process against whole process on the same PNG frames.
            stream = ["--stream"] if extension == "webp" else []
            ms = run_adaptive([BENCH, "--encode-frames", frames_dir, preset, "-o", out] + extra + stream)
            inside[label] = in_process_ms()
            cli = rows["ours --effort max" if extra else "ours"][1]
            if open(out, "rb").read() != open(cli, "rb").read():
                sys.exit("bench-peers: %s: --encode-frames wrote other bytes than the CLI (%s)" % (name, label))
            rows[label] = (ms, out)
        # The user's command for frames made elsewhere: `animexport assemble DIR --fps F -o OUT`
        # (the front execs animexport-assemble, which links the encoders but not the renderer).
        for label, extra in (("ours assemble", []), ("ours assemble, max", ["--effort", "max"])):
            out = os.path.join(work, "%s-assemble-%s.%s" % (name, "max" if extra else "default", extension))
            ms = run_adaptive([ANIMEXPORT, "assemble", frames_dir, "--fps", "%r" % float(fps), "-o", out,
                               "--force", "-q"] + extra)
            cli = rows["ours --effort max" if extra else "ours"][1]
            if open(out, "rb").read() != open(cli, "rb").read():
                sys.exit("bench-peers: %s: assemble wrote other bytes than the CLI (%s)" % (name, label))
            rows[label] = (ms, out)

    def report(rows, timing, ours_keys, inside):
        print("  %-28s %9s %9s %24s  %s" % ("tool", "wall ms", "bytes", "duration (error)", "frames = input"))
        results = {}
        for tool, (ms, path) in rows.items():
            delays, loops = timing(path)
            total = sum(delays)
            if isinstance(total, Fraction):
                error_ms = float(total - period_exact) * 1000
                duration = "%s s %+.3f ms" % (total, error_ms)
            else:
                duration = "%d ms %+d ms" % (total, total - period_ms)
            equal = frames_equal(path, delays, sources)
            size = os.path.getsize(path)
            results[tool] = (ms, size)
            print("  %-28s %9.0f %9d %24s  %s%s"
                  % (tool, ms, size, duration, equal, "" if loops == 0 else "  loops %s" % loops))
        for label, times in inside.items():
            if "decode-and-encode-ms" in times:
                print("  %-28s in process: PNG decode and encode %.0f ms" % (label, times["decode-and-encode-ms"]))
                continue
            print("  %-28s in process: PNG decode %.0f ms, encode %.0f ms"
                  % (label, times.get("png-decode-ms", math.nan), times.get("encode-ms", math.nan)))
        for ours in ours_keys:
            for tool, (ms, size) in results.items():
                if tool in ours_keys:
                    continue
                print("  %-42s time %7.3f  bytes %.3f"
                      % ("%s / %s" % (ours, tool), results[ours][0] / ms, results[ours][1] / size))

    if "apng" in formats:
        rows = {}
        for label, extra in (("ours", []), ("ours --effort max", ["--effort", "max"])):
            out = os.path.join(work, "%s-%s.apng" % (name, label.replace(" ", "")))
            # --force: without it every run after the first is skipped as up to date (the
            # job's manifest), and the best of the runs timed that skip, not the export.
            rows[label] = (run_adaptive([ANIMEXPORT, preset, "-o", out, "-q", "--force"] + extra), out)
        for label, extra in (("apngasm", []), ("apngasm -z2", ["-z2"])):
            out = os.path.join(work, "%s-%s.png" % (name, label.replace(" ", "")))
            rows[label] = (run_adaptive(["apngasm", out] + paths + ["1", "%g" % fps] + extra), out)
        out = os.path.join(work, name + "-ffmpeg.apng")
        rows["ffmpeg -f apng"] = (run_adaptive(
            ["ffmpeg", "-v", "error", "-y", "-framerate", "%g" % fps, "-i", pattern,
             "-plays", "0", "-f", "apng", out]), out)
        inside = {}
        ours_on_frames(rows, "apng", inside)
        print(" APNG")
        report(rows, apng_timing, OURS_ROWS,
               inside)

    if "webp" in formats:
        rows = {}
        for label, extra in (("ours", []), ("ours --effort max", ["--effort", "max"])):
            out = os.path.join(work, "%s-%s.webp" % (name, label.replace(" ", "")))
            # --force: without it every run after the first is skipped as up to date (the
            # job's manifest), and the best of the runs timed that skip, not the export.
            rows[label] = (run_adaptive([ANIMEXPORT, preset, "-o", out, "-q", "--force"] + extra), out)
        # Frame i lasts round(1000·(i+1)·P/N) − round(1000·i·P/N) ms, halves up.
        edges = [math.floor(Fraction(1000 * i, count) * period_exact + Fraction(1, 2))
                 for i in range(count + 1)]
        timed = []
        for i, path in enumerate(paths):
            timed += ["-d", str(edges[i + 1] - edges[i]), path]
        for label, extra in (("img2webp -lossless", []), ("img2webp -min_size", ["-min_size"])):
            out = os.path.join(work, "%s-%s.webp" % (name, label.split()[-1].strip("-")))
            rows[label] = (run_adaptive(["img2webp", "-loop", "0"] + extra + ["-lossless"] + timed
                                        + ["-o", out]), out)
        gif = os.path.join(work, name + "-for-gif2webp.gif")
        run_adaptive([ANIMEXPORT, preset, "-o", gif, "-q"], runs=1)
        out = os.path.join(work, name + "-gif2webp.webp")
        rows["gif2webp (our GIF)"] = (run_adaptive(["gif2webp", "-quiet", gif, "-o", out]), out)
        inside = {}
        ours_on_frames(rows, "webp", inside)
        print(" WebP")
        report(rows, webp_timing, OURS_ROWS,
               inside)


def main():
    global RUNS
    parser = argparse.ArgumentParser(description="animexport against its peers (see the module docstring)")
    parser.add_argument("--formats", default="gif,apng,webp",
                        help="comma-separated rows to run: gif, apng, webp (default all)")
    parser.add_argument("--presets", default="",
                        help="comma-separated preset names (file stems in presets/); default every preset")
    parser.add_argument("--runs", type=int, default=RUNS, help="runs per timed command (best counts)")
    options = parser.parse_args()
    formats = set(f for f in options.formats.split(",") if f)
    if not formats or formats - {"gif", "apng", "webp"}:
        sys.exit("bench-peers: --formats takes gif, apng, webp")
    RUNS = max(1, options.runs)
    tools = [ANIMEXPORT, BENCH]
    if "gif" in formats:
        tools += [CONVERT, shutil.which("ffmpeg"), shutil.which("gifsicle")]
    if "apng" in formats:
        tools += [shutil.which("apngasm"), shutil.which("ffmpeg")]
    if "webp" in formats:
        tools += [shutil.which("img2webp"), shutil.which("gif2webp")]
    for tool in tools:
        if not tool or not os.access(tool, os.X_OK):
            sys.exit("bench-peers: missing %s (run make deps and make bench-peers)" % tool)
    if "gif" in formats:
        check_matte()
    presets = sorted(os.path.join(ROOT, "presets", f) for f in os.listdir(os.path.join(ROOT, "presets"))
                     if f.endswith(".json"))
    if options.presets:
        wanted = options.presets.split(",")
        unknown = set(wanted) - set(os.path.basename(p)[:-5] for p in presets)
        if unknown:
            sys.exit("bench-peers: no preset %s in presets/" % ", ".join(sorted(unknown)))
        presets = [p for p in presets if os.path.basename(p)[:-5] in wanted]
    work = tempfile.mkdtemp(prefix="animexport-bench-peers-")
    try:
        for preset in presets:
            if "gif" in formats:
                bench(preset, work)
            if formats & {"apng", "webp"}:
                bench_animated(preset, work, formats)
    finally:
        shutil.rmtree(work)

if __name__ == "__main__":
    main()
