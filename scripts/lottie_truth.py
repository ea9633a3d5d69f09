#!/usr/bin/env python3
"""The references' own fine renders as the truth: ours, rlottie, ThorVG and lottie-web against them.

Usage (run with the tools venv `make deps` creates, .build/tools-venv/bin/python):

    lottie_truth.py --binary BIN [--scale 8] [--renderers rlottie,thorvg,lottie-web] [--json]
                    [--keep DIR] FILE...

A FILE is a Lottie file (top-level `v`, `fr`, `ip`, `op`, `layers`) or a preset. A preset is exported first
(`BIN PRESET -o NAME.lottie.json`), and "ours" is the preset's own frame (`BIN PRESET --frame F`),
at the 8 frames round(k·N/8) of `scripts/lottie_compare.py`; a Lottie file is drawn by our import
(`BIN FILE --time T`, larger side capped at 512 px with `--size` as `make bench-lottie` does) at
its 8 frames floor(ip + k·(op−ip)/8).

Each renderer draws the Lottie twice through `scripts/lottie_refs.py` (its own process, straight
RGBA): at our frame's size W × H (1×) and at W·S × H·S (S = --scale, 8 by default: a Lottie is
vector, so the renderer itself is asked for the larger size, curves flattened at its own tolerance
but S times finer in device pixels). The fine render, composited on white and on black, is
box-averaged over S × S pixels (Pillow's `reduce`, exact box mean rounded to 8 bits; compositing
commutes with the mean, so this is the fine render's premultiplied mean composited): that renderer's
truth at 1×. Ours at `--scale S` (`--size` S·W for a Lottie file), box-averaged alike, is ours@S.

Per file and instant, PSNR (dB, RGB, peak 255, composited on white and on black, the lower; 99 when
equal; `scripts/bench_lottie.py`'s `psnr_rgb`): ours against each R@S↓, each R@1× against its own
R@S↓, ours against ours@S↓, ours@S↓ against each R@S↓ (do the fine renders agree with each
other?), and ours and R@1× against each other (the numbers of `lottie_compare.py`). A renderer that
crashes or cannot load the file is reported as null. The text output prints, per file, one line per
instant and the lowest over the instants; `--json` prints everything as one JSON object.

If ours is within 45 dB of every reference's own fine render while their 1× renders are not, the
1× disagreement is their flattening, shown with their own renderers (docs/lottie.md, "The
references against their own fine renders").
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile

from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from bench_lottie import composite, psnr_rgb  # noqa: E402

BACKGROUNDS = (255, 0)


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)}: exit {p.returncode}: {p.stderr.strip()[-400:]}")
    return p


def on_backgrounds(image, scale=1):
    """The image composited on each background, box-averaged over scale × scale pixels."""
    out = []
    for grey in BACKGROUNDS:
        rgb = composite(image, grey)
        out.append(rgb.reduce(scale) if scale > 1 else rgb)
    return out


def lowest(a, b):
    """The lower PSNR over the backgrounds of two lists from on_backgrounds."""
    return min(psnr_rgb(x, y) for x, y in zip(a, b))


def references(lottie, picks, w, h, renderer, out):
    """The renderer's frames of `lottie` at w × h, or None when it crashes or refuses."""
    p = subprocess.run([sys.executable, os.path.join(HERE, "lottie_refs.py"), lottie, "--renderer", renderer,
                        "--frames", ",".join(map(str, picks)), "--width", str(w), "--height", str(h),
                        "--out", out], capture_output=True, text=True)
    if p.returncode != 0:
        return None
    return [Image.open(os.path.join(out, f"{renderer}-{k}.png")).convert("RGBA") for k in range(len(picks))]


def measure(binary, path, scale, renderers, tmp):
    name = os.path.splitext(os.path.basename(path))[0]
    work = os.path.join(tmp, name)
    os.makedirs(work, exist_ok=True)
    with open(path) as f:
        doc = json.load(f)
    ours1, ours8 = [], []
    if all(key in doc for key in ("v", "fr", "ip", "op", "layers")):
        lottie = path
        fr, ip, op = float(doc["fr"]), float(doc["ip"]), float(doc["op"])
        picks = []
        for k in range(8):
            f = math.floor(ip + (op - ip) * k / 8)
            if f not in picks:
                picks.append(f)
        side = max(float(doc["w"]), float(doc["h"]))
        px = min(512, round(side))
        for f in picks:
            for fine, images in ((False, ours1), (True, ours8)):
                png = os.path.join(work, f"ours-{f}{'-fine' if fine else ''}.png")
                if side > 512:
                    size = ["--size", str(px * (scale if fine else 1))]
                else:
                    size = ["--scale", str(scale)] if fine else []
                run([binary, path, "--time", repr((f - ip) / fr), "-o", png, "--force"] + size)
                images.append(Image.open(png).convert("RGBA"))
    else:
        lottie = os.path.join(work, name + ".lottie.json")
        run([binary, path, "-o", lottie, "--force"])
        with open(lottie) as f:
            n = int(json.load(f)["op"])
        picks = sorted(set(round(k * n / 8) % n for k in range(8)))
        for f in picks:
            for fine, images in ((False, ours1), (True, ours8)):
                png = os.path.join(work, f"ours-{f}{'-fine' if fine else ''}.png")
                run([binary, path, "--frame", str(f), "-o", png, "--force"] + (["--scale", str(scale)] if fine else []))
                images.append(Image.open(png).convert("RGBA"))
    w, h = ours1[0].size
    if ours8[0].size != (w * scale, h * scale):
        raise RuntimeError(f"{name}: ours at {scale}x is {ours8[0].size}, not {scale} x {w, h}")
    ours = [on_backgrounds(im) for im in ours1]
    ours_fine = [on_backgrounds(im, scale) for im in ours8]
    result = {"file": name, "frames": picks, "size": [w, h], "scale": scale,
              "ours-ours@S": [lowest(a, b) for a, b in zip(ours, ours_fine)]}
    for renderer in renderers:
        coarse = references(lottie, picks, w, h, renderer, os.path.join(work, renderer + "-1x"))
        fine = references(lottie, picks, w * scale, h * scale, renderer, os.path.join(work, renderer + f"-{scale}x"))
        coarse = None if coarse is None else [on_backgrounds(im) for im in coarse]
        fine = None if fine is None else [on_backgrounds(im, scale) for im in fine]

        def column(xs, ys):
            return None if xs is None or ys is None else [lowest(a, b) for a, b in zip(xs, ys)]

        result[f"ours-{renderer}"] = column(ours, coarse)
        result[f"ours-{renderer}@S"] = column(ours, fine)
        result[f"{renderer}-{renderer}@S"] = column(coarse, fine)
        result[f"ours@S-{renderer}@S"] = column(ours_fine, fine)
    result["dir"] = work
    return result


def columns(result):
    return [key for key in result if key not in ("file", "frames", "size", "scale", "dir")]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", required=True)
    parser.add_argument("--scale", type=int, default=8)
    parser.add_argument("--renderers", default="rlottie,thorvg,lottie-web")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--keep", help="folder for the files (default: a temporary one)")
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()
    if not 2 <= args.scale <= 16:
        parser.error("--scale is 2…16")
    tmp = args.keep or tempfile.mkdtemp(prefix="lottie-truth-")
    os.makedirs(tmp, exist_ok=True)
    renderers = [r for r in args.renderers.split(",") if r]
    results = [measure(os.path.abspath(args.binary), os.path.abspath(p), args.scale, renderers, tmp)
               for p in args.files]
    if args.json:
        print(json.dumps(results, indent=1))
        return
    for r in results:
        print(f"{r['file']} ({r['size'][0]}x{r['size'][1]}, S = {r['scale']}; dB, lower of white/black; "
              f"R@S = R at S x box-averaged)")
        print(f"  {'frame':24}" + "".join(f"{f:>6}" for f in r["frames"]) + "  lowest   mean")
        for key in columns(r):
            values = r[key]
            if values is None:
                print(f"  {key:24} (renderer unavailable)")
                continue
            print(f"  {key:24}" + "".join(f"{v:6.1f}" for v in values)
                  + f"  {min(values):6.1f} {sum(values) / len(values):6.1f}")

if __name__ == "__main__":
    main()
