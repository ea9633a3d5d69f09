#!/usr/bin/env python3
"""Render a Lottie file with ours, rlottie, ThorVG and lottie-web at given frames; print PSNR on white
and black; write one labelled contact sheet (ours | rlottie | ThorVG | lottie-web) for one frame.

Usage (the tools venv `make deps` creates):

    .build/tools-venv/bin/python scripts/lottie_side_by_side.py FILE --frames 0,23,45 \
        --sheet-frame 0 --out DIR [--scale 0.6] [--mark X:Y,...] [--note TEXT] [--sheet PNG] \
        [--black] [--before BINARY]

Frames are Lottie frame numbers. Ours is `.build/release/animexport FILE --frame N` (set
ANIMEXPORT to use another binary); the references come from scripts/lottie_refs.py at the file's
own w×h (lottie-web's through scripts/lottie_web.py); a renderer that crashes or cannot run here is
left out. Each render is composited on white and on black; PSNR = 10·log10(255²/MSE) over RGB, per
frame and pair, as "white/black". `--black` adds a second row to the sheet, composited on black;
`--before BINARY` adds "ours before" (another animexport build, for a fix's before/after) as a
first column. `--mark` draws blue crosses at canvas points (for example where the spec puts a
trim end).
Used for docs/images/lottie-disagree/ (docs/lottie.md, "Where the two references disagree with
each other").
"""
import argparse
import json
import math
import os
import subprocess
import sys

from PIL import Image, ImageChops, ImageDraw, ImageFont, ImageStat

HERE = os.path.dirname(os.path.abspath(__file__))
NAMES = (("ours", "ours (animexport)"), ("rlottie", "rlottie 1.3.8"), ("thorvg", "ThorVG 1.1.3"),
         ("lottie-web", "lottie-web 5.8.1 (SVG)"))


def on_white(path, background=(255, 255, 255)):
    """Straight-alpha PNG -> RGB composited on white (or `background`)."""
    im = Image.open(path).convert("RGBA")
    return Image.alpha_composite(Image.new("RGBA", im.size, background + (255,)), im).convert("RGB")


def psnr(a, b):
    """PSNR in dB of two RGB images of one size (inf when equal)."""
    st = ImageStat.Stat(ImageChops.difference(a, b))
    mse = sum(st.sum2) / (3 * a.size[0] * a.size[1])
    return math.inf if mse == 0 else 10 * math.log10(255 ** 2 / mse)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file")
    ap.add_argument("--frames", required=True)
    ap.add_argument("--sheet-frame", type=int, default=None, help="frame (one of --frames) for the sheet")
    ap.add_argument("--out", required=True)
    ap.add_argument("--sheet", default=None, help="sheet PNG path (default OUT/sheet.png)")
    ap.add_argument("--scale", type=float, default=1.0)
    ap.add_argument("--mark", default="", help="X:Y,... canvas points to cross in blue")
    ap.add_argument("--note", default="")
    ap.add_argument("--black", action="store_true", help="a second sheet row composited on black")
    ap.add_argument("--before", default=None, help="another animexport binary, shown as 'ours before'")
    a = ap.parse_args()
    doc = json.load(open(a.file))
    w, h = int(doc["w"]), int(doc["h"])
    frames = [int(f) for f in a.frames.split(",")]
    os.makedirs(a.out, exist_ok=True)
    for r in ("rlottie", "thorvg", "lottie-web"):
        run = subprocess.run([sys.executable, os.path.join(HERE, "lottie_refs.py"), a.file, "--renderer", r,
                              "--frames", a.frames, "--width", str(w), "--height", str(h), "--out", a.out])
        if run.returncode != 0:
            # A crash or a refusal leaves the renderer out (rlottie crashes on some corpus files).
            print(f"{r}: exit {run.returncode} on {a.file}, left out", file=sys.stderr)
            for k in range(len(frames)):
                if os.path.exists(f"{a.out}/{r}-{k}.png"):
                    os.remove(f"{a.out}/{r}-{k}.png")
    binary = os.environ.get("ANIMEXPORT", os.path.join(HERE, "..", ".build", "release", "animexport"))
    for k, f in enumerate(frames):
        subprocess.run([binary, a.file, "--frame", str(f), "-o", f"{a.out}/ours-{k}.png", "--force"],
                       check=True, stdout=subprocess.DEVNULL)
    if a.before:
        for k, f in enumerate(frames):
            subprocess.run([a.before, a.file, "--frame", str(f), "-o", f"{a.out}/ours-before-{k}.png", "--force"],
                           check=True, stdout=subprocess.DEVNULL)
    known = ((("ours-before", "ours before"),) if a.before else ()) + NAMES
    names = [(n, label) for n, label in known if os.path.exists(f"{a.out}/{n}-0.png")]
    for k, f in enumerate(frames):
        cells = []
        for i, (x, _) in enumerate(names):
            for y, _ in names[i + 1:]:
                values = [psnr(on_white(f"{a.out}/{x}-{k}.png", bg), on_white(f"{a.out}/{y}-{k}.png", bg))
                          for bg in ((255, 255, 255), (0, 0, 0))]
                cells.append(f"{x}-{y} {values[0]:.1f}/{values[1]:.1f}")
        print(f"frame {f} (dB, white/black): " + ", ".join(cells))
    if a.sheet_frame is None:
        return
    k = frames.index(a.sheet_frame)
    marks = [tuple(float(v) for v in m.split(":")) for m in a.mark.split(",") if m]
    backgrounds = ((255, 255, 255), (0, 0, 0)) if a.black else ((255, 255, 255),)
    rows = []
    for bg in backgrounds:
        panels = []
        for n, label in names:
            im = on_white(f"{a.out}/{n}-{k}.png", bg)
            if a.scale != 1:
                im = im.resize((round(w * a.scale), round(h * a.scale)),
                               Image.NEAREST if a.scale > 1 else Image.LANCZOS)
            d = ImageDraw.Draw(im)
            for x, y in marks:
                x, y = x * a.scale, y * a.scale
                d.line((x - 6, y, x + 6, y), fill=(0, 0, 255), width=2)
                d.line((x, y - 6, x, y + 6), fill=(0, 0, 255), width=2)
            panels.append((label, im))
        rows.append(panels)
    pw, ph = rows[0][0][1].size
    n_rows = len(rows)
    sheet = Image.new("RGB", (len(names) * pw + 10 * (len(names) + 1),
                              n_rows * (ph + 10) + 40 + (20 if a.note else 0)), (200, 200, 200))
    d = ImageDraw.Draw(sheet)
    try:
        font = ImageFont.truetype("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", 14)
    except OSError:
        font = ImageFont.load_default()
    on = "on white and (below) on black" if a.black else "on white"
    d.text((10, 2), f"{os.path.basename(a.file)} frame {a.sheet_frame}, {on}, {w}x{h} shown at "
           f"{a.scale:g}x", fill=(0, 0, 0), font=font)
    for r, panels in enumerate(rows):
        for i, (label, im) in enumerate(panels):
            x = 10 + i * (pw + 10)
            sheet.paste(im, (x, 40 + r * (ph + 10)))
            if r == 0:
                d.text((x, 22), label, fill=(0, 0, 0), font=font)
    if a.note:
        d.text((10, 40 + n_rows * (ph + 10)), a.note, fill=(0, 0, 0), font=font)
    sheet.save(a.sheet or os.path.join(a.out, "sheet.png"), optimize=True)


if __name__ == "__main__":
    main()
