#!/usr/bin/env python3
"""Edge coverage of a wide stroke: ours, rlottie and ThorVG against the exact stroke.

Usage (the tools venv `make deps` creates, .build/tools-venv/bin/python):

    lottie_stroke_exact.py [--binary BIN] [--corpus DIR] [--fine S]

Why: skia-sample_2.json frame 100 is a known deviation of ReferenceRendererTests (ours 39.6 dB
against rlottie, 39.8 against ThorVG; they agree at 52.2). At that frame every property is at a
keyframe's value, and the same path filled instead of stroked agrees with both at 56-57 dB, so
the difference is in how the stroke's edges are drawn. This script measures who is right.

What it does: writes a static copy of the file (the path of the keyframe at t 100, stroke width
50, layer scale 200 %, no rotation, red stroke), renders it at 512 x 384 with ours
(`BIN FILE --time 0 --size 512`) and both references (scripts/lottie_refs.py, frame 0), and for
every pixel whose alpha is strictly between 0 and 255 in any of the three, computes the exact
coverage of the stroke by 6 x 6 supersampling of "distance to the path <= half the width" (the
stroke of a smooth curve is exactly that set wherever the nearest point of the path is not a
corner; pixels within 8 px of a miter or whose nearest path point is within 6 px of a vertex are
left out). The path is sampled at 3000 points per cubic for the distance. Prints, per renderer,
the number of pixels compared and the RMS, mean (signed: renderer - exact) and largest alpha
error on the 0..1 scale. The supersampling itself is exact to about 1/72 (half a sample).

With --fine S, each renderer (ours too) also draws the file at S times the size, its alpha
box-averaged over S x S pixels (Pillow's `reduce`), compared alike as "NAME@S": an error that
stays at S is not how the renderer flattens curves (that shrinks S times) but the outline it
strokes (scripts/lottie_truth.py does the same for whole frames).
"""
import argparse
import copy
import json
import math
import os
import subprocess
import sys
import tempfile

from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SCALE = 0.64  # 800 x 600 drawn at 512 x 384


def static_copy(source, target):
    with open(source) as f:
        doc = json.load(f)
    doc = copy.deepcopy(doc)
    layer = doc["layers"][0]
    items = layer["shapes"][0]["it"]
    path = items[0]["ks"]
    path["a"] = 0
    path["k"] = [k for k in path["k"] if k["t"] == 100][0]["s"]
    items[1]["w"] = {"a": 0, "k": 50}
    items[1]["c"] = {"a": 0, "k": [1, 0, 0]}
    layer["ks"]["s"] = {"a": 0, "k": [200, 200]}
    layer["ks"]["r"] = {"a": 0, "k": 0}
    with open(target, "w") as f:
        json.dump(doc, f)
    return path["k"]


def device(p):
    """Shape point -> device pixel: anchor (100, 100), position (300, 300), scale 2, then 0.64."""
    return ((300 + 2 * (p[0] - 100)) * SCALE, (300 + 2 * (p[1] - 100)) * SCALE)


def samples(shape, per_cubic=3000):
    v, ins, outs = shape["v"], shape["i"], shape["o"]
    points = []
    for k in range(len(v)):
        j = (k + 1) % len(v)
        p0 = device(v[k])
        p1 = device((v[k][0] + outs[k][0], v[k][1] + outs[k][1]))
        p2 = device((v[j][0] + ins[j][0], v[j][1] + ins[j][1]))
        p3 = device(v[j])
        for n in range(per_cubic):
            t = n / per_cubic
            u = 1 - t
            points.append(tuple(u * u * u * p0[c] + 3 * u * u * t * p1[c] + 3 * u * t * t * p2[c] + t * t * t * p3[c]
                                for c in range(2)))
    return points, [device(p) for p in v]


def nearest(points, x, y, around=None, window=40):
    best, index = float("inf"), 0
    indices = range(len(points)) if around is None else (
        (around + o) % len(points) for o in range(-window, window + 1))
    for i in indices:
        px, py = points[i]
        d = (px - x) ** 2 + (py - y) ** 2
        if d < best:
            best, index = d, i
    return index, math.sqrt(best)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build/release/animexport"))
    parser.add_argument("--corpus", default=os.environ.get(
        "ANIMEXPORT_LOTTIE_CORPUS", os.path.join(os.path.dirname(ROOT), "shared/lottie")))
    parser.add_argument("--fine", type=int, default=0, help="also render at this many times the size")
    args = parser.parse_args()
    tmp = tempfile.mkdtemp(prefix="stroke-exact-")
    file = os.path.join(tmp, "sample_2-static.json")
    shape = static_copy(os.path.join(args.corpus, "skia-sample_2.json"), file)
    subprocess.run([args.binary, file, "--time", "0", "--size", "512", "-o", os.path.join(tmp, "ours.png"),
                    "--force"], check=True, capture_output=True)
    renders = {"ours": os.path.join(tmp, "ours.png")}
    for renderer in ("rlottie", "thorvg"):
        subprocess.run([sys.executable, os.path.join(HERE, "lottie_refs.py"), file, "--renderer", renderer,
                        "--frames", "0", "--width", "512", "--height", "384", "--out", tmp], check=True)
        renders[renderer] = os.path.join(tmp, f"{renderer}-0.png")
    images = {name: Image.open(path).convert("RGBA") for name, path in renders.items()}
    if args.fine > 1:
        s = args.fine
        fine = os.path.join(tmp, "fine")
        subprocess.run([args.binary, file, "--time", "0", "--size", str(512 * s), "-o",
                        os.path.join(fine, "ours-0.png"), "--force"], check=True, capture_output=True)
        for renderer in ("rlottie", "thorvg"):
            subprocess.run([sys.executable, os.path.join(HERE, "lottie_refs.py"), file, "--renderer", renderer,
                            "--frames", "0", "--width", str(512 * s), "--height", str(384 * s), "--out", fine],
                           check=True)
        for name in ("ours", "rlottie", "thorvg"):
            # Only the alpha channel is compared: its box mean is the fine render's coverage.
            alpha = Image.open(os.path.join(fine, f"{name}-0.png")).convert("RGBA").getchannel("A").reduce(s)
            images[f"{name}@{s}"] = Image.merge("RGBA", (alpha, alpha, alpha, alpha))
    pixels = {name: image.load() for name, image in images.items()}
    width, height = images["ours"].size
    points, corners = samples(shape)
    half = 25 * 2 * SCALE
    sub = 6
    errors = {name: [] for name in pixels}
    for y in range(height):
        for x in range(width):
            if not any(0 < p[x, y][3] < 255 for p in pixels.values()):
                continue
            if min(math.hypot(x + 0.5 - cx, y + 0.5 - cy) for cx, cy in corners) < half + 8:
                continue
            index, _ = nearest(points, x + 0.5, y + 0.5)
            px, py = points[index]
            if min(math.hypot(px - cx, py - cy) for cx, cy in corners) < 6:
                continue
            inside = 0
            for sy in range(sub):
                for sx in range(sub):
                    _, d = nearest(points, x + (sx + 0.5) / sub, y + (sy + 0.5) / sub, index)
                    inside += d <= half
            exact = inside / (sub * sub)
            for name, p in pixels.items():
                errors[name].append(p[x, y][3] / 255 - exact)
    for name, e in errors.items():
        print(f"{name}: {len(e)} edge pixels, alpha error RMS {math.sqrt(sum(v * v for v in e) / len(e)):.4f}, "
              f"mean {sum(e) / len(e):+.4f}, largest {max(e, key=abs):+.3f}")


if __name__ == "__main__":
    main()
