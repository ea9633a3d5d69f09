#!/usr/bin/env python3
"""Antialiased edges against the exact coverage: ours, rlottie and ThorVG (issue 21).

Usage (needs numpy and Pillow; the reference renderers run in the tools venv through
scripts/lottie_refs.py):

    edge_truth.py --binary BIN [--venv-python PY] [--keep DIR] [--json] [--no-refs] [CASE...]
    edge_truth.py --binary AFTER --before BEFORE --presets PRESET... [--keep DIR] [--json]

Each case is one geometry, written as a one-frame Lottie file (and, for the ring cases, as a
preset too), drawn by ours (`BIN FILE --frame 0 -o X.png`, straight alpha), by rlottie and by
ThorVG (`lottie_refs.py`, un-premultiplied), and compared on the alpha channel with the exact
coverage of the same geometry in device pixels (pixel (i, j) is the square [i, i+1] x [j, j+1]):

- rectangles: the product of the overlaps, exact;
- discs and rings (disc minus disc): the area of each edge pixel integrated exactly along y and
  by the midpoint rule over 1024 columns per pixel in x (error far below 1/255);
- a trimmed ring with round caps (the union of a half annulus and two discs): 256 x 256
  samples per edge pixel.

Truth alpha = 255 x coverage (opaque paint), not rounded. For each renderer: PSNR of the alpha
channel (peak 255) over the frame, and per edge class (ring: inner, outer, cap; rectangle: left,
right, top, bottom) the mean signed error over the class's pixels (renderer - truth, alpha
units), the summed error as an area in px^2, and, where the edge length L is known, that area /
L: how far the renderer's edge sits outward of the true one, in px (positive = too much
coverage). A pixel is an edge pixel of a class when truth or renderer is neither 0 nor 255 there.

With --presets: for each preset at 0, 25, 50 and 75 % of its loop, the PSNR (RGB on white and on
black, the lower) of BEFORE's and AFTER's 1x frame against AFTER's frame at --scale 8 averaged
over 8 x 8 pixel boxes (curves flattened 8 times finer, every edge pixel exact-area), and whether
the two 1x frames differ: how a renderer change moves the presets' pixels relative to the truth.
Cases: ring, ring-offset, arc-caps, ring-polygon, disc-polygon, disc, rect, rect-stroke.
Measured 2026-12-03: docs/lottie.md, "Where the references disagree with the exact coverage".
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile

import numpy as np
from PIL import Image

HERE = os.path.dirname(os.path.abspath(__file__))
SIZE = 64


# ---------------------------------------------------------------- geometry and exact coverage

def rect_coverage(x0, y0, x1, y1, w=SIZE, h=SIZE):
    xs = np.arange(w, dtype=float)
    ys = np.arange(h, dtype=float)
    ox = np.clip(np.minimum(xs + 1, x1) - np.maximum(xs, x0), 0, 1)
    oy = np.clip(np.minimum(ys + 1, y1) - np.maximum(ys, y0), 0, 1)
    return oy[:, None] * ox[None, :]


def disc_coverage(cx, cy, r, w=SIZE, h=SIZE, columns=1024):
    """Area of each pixel inside the disc: exact in y, midpoint rule over `columns` per pixel in x."""
    cov = np.zeros((h, w))
    ys = np.arange(h, dtype=float)
    for i in range(w):
        if i + 1 < cx - r or i > cx + r:
            continue
        x = i + (np.arange(columns) + 0.5) / columns
        d2 = r * r - (x - cx) ** 2
        half = np.sqrt(np.clip(d2, 0, None))
        lo = np.where(d2 > 0, cy - half, np.inf)
        hi = np.where(d2 > 0, cy + half, -np.inf)
        # overlap of [lo, hi] with each pixel row [j, j+1], averaged over the columns
        ov = np.clip(np.minimum(hi[None, :], ys[:, None] + 1) - np.maximum(lo[None, :], ys[:, None]), 0, 1)
        cov[:, i] = ov.mean(axis=1)
    return cov


def sampled_coverage(inside, edge_mask, n=256, w=SIZE, h=SIZE):
    """Coverage by n x n samples in the pixels of `edge_mask`; elsewhere inside(pixel centre)."""
    cov = np.zeros((h, w))
    jj, ii = np.mgrid[0:h, 0:w]
    centres = inside(ii + 0.5, jj + 0.5).astype(float)
    cov[:] = centres
    sub = (np.arange(n) + 0.5) / n
    sx, sy = np.meshgrid(sub, sub)
    for j, i in zip(*np.nonzero(edge_mask)):
        cov[j, i] = inside(i + sx, j + sy).mean()
    return cov


def arc_with_caps(cx, cy, r, width, a0, a1):
    """Inside test for the stroke of the clockwise arc (y down) from angle a0 to a1 (degrees,
    0 = 3 o'clock, 90 = 6 o'clock) of radius r, width `width`, round caps."""
    half = width / 2
    c0 = (cx + r * math.cos(math.radians(a0)), cy + r * math.sin(math.radians(a0)))
    c1 = (cx + r * math.cos(math.radians(a1)), cy + r * math.sin(math.radians(a1)))
    span = (a1 - a0) % 360

    def inside(x, y):
        dx, dy = x - cx, y - cy
        d = np.hypot(dx, dy)
        ang = (np.degrees(np.arctan2(dy, dx)) - a0) % 360
        band = (d >= r - half) & (d <= r + half) & (ang <= span)
        cap0 = (x - c0[0]) ** 2 + (y - c0[1]) ** 2 <= half * half
        cap1 = (x - c1[0]) ** 2 + (y - c1[1]) ** 2 <= half * half
        return band | cap0 | cap1

    return inside, (c0, c1)


# ---------------------------------------------------------------- the cases

def lottie_doc(shapes, w=SIZE, h=SIZE):
    tr = {"ty": "tr", "p": {"a": 0, "k": [0, 0]}, "a": {"a": 0, "k": [0, 0]}, "s": {"a": 0, "k": [100, 100]},
          "r": {"a": 0, "k": 0}, "o": {"a": 0, "k": 100}}
    return {"v": "5.7.4", "fr": 30, "ip": 0, "op": 2, "w": w, "h": h, "nm": "edge", "ddd": 0, "assets": [],
            "layers": [{"ddd": 0, "ind": 1, "ty": 4, "nm": "l", "ip": 0, "op": 2, "st": 0, "sr": 1,
                        "ks": {"a": {"a": 0, "k": [0, 0]}, "p": {"a": 0, "k": [0, 0]},
                               "s": {"a": 0, "k": [100, 100]}, "r": {"a": 0, "k": 0}, "o": {"a": 0, "k": 100}},
                        "shapes": [{"ty": "gr", "it": shapes + [tr]}]}]}


FILL = {"ty": "fl", "c": {"a": 0, "k": [0, 0.478, 1, 1]}, "o": {"a": 0, "k": 100}, "r": 1}


def stroke(width, cap=2, join=1):
    return {"ty": "st", "c": {"a": 0, "k": [0, 0.478, 1, 1]}, "o": {"a": 0, "k": 100}, "w": {"a": 0, "k": width},
            "lc": cap, "lj": join, "ml": 4}


def ellipse(cx, cy, d):
    return {"ty": "el", "d": 1, "p": {"a": 0, "k": [cx, cy]}, "s": {"a": 0, "k": [d, d]}}


def polygon(cx, cy, r, n):
    """A closed path of n straight edges through points on the circle (no curve to flatten)."""
    pts = [[cx + r * math.sin(2 * math.pi * k / n), cy - r * math.cos(2 * math.pi * k / n)] for k in range(n)]
    zero = [[0, 0]] * n
    return {"ty": "sh", "ks": {"a": 0, "k": {"c": True, "v": pts, "i": zero, "o": zero}}}


def rect(x0, y0, x1, y1):
    return {"ty": "rc", "d": 1, "p": {"a": 0, "k": [(x0 + x1) / 2, (y0 + y1) / 2]},
            "s": {"a": 0, "k": [x1 - x0, y1 - y0]}, "r": {"a": 0, "k": 0}}


def preset_ring(cx, cy, r, width, start=0, end=1, rotation=0, cap="round"):
    return {"version": 1, "name": "edge", "canvas": {"width": SIZE, "height": SIZE, "background": "transparent"},
            "fps": 30, "layers": [{"type": "circle", "name": "ring", "center": [cx, cy], "radius": r,
                                   "stroke": {"color": "#007AFF", "width": width, "lineCap": cap},
                                   "strokeStart": start, "strokeEnd": end, "rotation": rotation}]}


def ring_classes(cx, cy, r, caps=(), cap_radius=0):
    jj, ii = np.mgrid[0:SIZE, 0:SIZE]
    px, py = ii + 0.5, jj + 0.5
    d = np.hypot(px - cx, py - cy)
    classes = {"inner": d < r, "outer": d >= r}
    if caps:
        near = np.zeros_like(d, dtype=bool)
        for c in caps:
            near |= np.hypot(px - c[0], py - c[1]) < cap_radius
        classes = {k: v & ~near for k, v in classes.items()}
        classes["cap"] = near
    return classes


def cases():
    out = {}
    # A full ring: circular's geometry (64 px canvas, radius 25, 4 pt stroke), centred, and off
    # the pixel grid.
    for name, (cx, cy) in {"ring": (32, 32), "ring-offset": (32.3, 31.65)}.items():
        r, w = 25, 4
        truth = disc_coverage(cx, cy, r + w / 2) - disc_coverage(cx, cy, r - w / 2)
        out[name] = {"lottie": lottie_doc([ellipse(cx, cy, 2 * r), stroke(w)]),
                     "preset": preset_ring(cx, cy, r, w),
                     "truth": truth, "classes": ring_classes(cx, cy, r),
                     "lengths": {"inner": 2 * math.pi * (r - w / 2), "outer": 2 * math.pi * (r + w / 2)}}
    # The ring trimmed to half (path 0..50 %, exactly two of the four curves) with round caps,
    # turned 37 degrees: circular's layer at a still instant. Lottie's ellipse starts at 12 o'clock,
    # the preset circle at 3 o'clock (turned -90 to match, as circular does).
    cx, cy, r, w, turn = 32, 32, 25, 4, 37
    a0, a1 = -90 + turn, 90 + turn
    inside, caps = arc_with_caps(cx, cy, r, w, a0, a1)
    jj, ii = np.mgrid[0:SIZE, 0:SIZE]
    d = np.hypot(ii + 0.5 - cx, jj + 0.5 - cy)
    near_caps = np.zeros_like(d, dtype=bool)
    for c in caps:
        near_caps |= np.hypot(ii + 0.5 - c[0], jj + 0.5 - c[1]) < w / 2 + 1
    edge = (np.abs(d - (r - w / 2)) < 0.75) | (np.abs(d - (r + w / 2)) < 0.75) | near_caps
    truth = sampled_coverage(inside, edge)
    trim = {"ty": "tm", "s": {"a": 0, "k": 0}, "e": {"a": 0, "k": 50}, "o": {"a": 0, "k": 0}, "m": 1}
    doc = lottie_doc([ellipse(0, 0, 2 * r), trim, stroke(w)])
    # turn the group about the ring's centre
    tr_rot = doc["layers"][0]["shapes"][0]["it"][-1]
    tr_rot["p"]["k"] = [cx, cy]
    tr_rot["r"]["k"] = turn
    out["arc-caps"] = {"lottie": doc, "preset": preset_ring(cx, cy, r, w, 0, 0.5, -90 + turn),
                       "truth": truth, "classes": ring_classes(cx, cy, r, caps, w / 2 + 1.5),
                       "lengths": {"inner": math.pi * (r - w / 2), "outer": math.pi * (r + w / 2)}}
    # The same ring and disc as 1440-gons (sagitta 0.00006 px, area 0.002 % under the circle's):
    # the same coverage without a curve for the renderer to flatten.
    for name, (cx, cy) in {"ring-polygon": (32.3, 31.65)}.items():
        r, w = 25, 4
        truth = disc_coverage(cx, cy, r + w / 2) - disc_coverage(cx, cy, r - w / 2)
        out[name] = {"lottie": lottie_doc([polygon(cx, cy, r, 1440), stroke(w)]),
                     "truth": truth, "classes": ring_classes(cx, cy, r),
                     "lengths": {"inner": 2 * math.pi * (r - w / 2), "outer": 2 * math.pi * (r + w / 2)}}
    cx, cy, r = 32.3, 31.65, 25
    out["disc-polygon"] = {"lottie": lottie_doc([polygon(cx, cy, r, 1440), FILL]), "truth": disc_coverage(cx, cy, r),
                           "classes": {"edge": np.ones((SIZE, SIZE), dtype=bool)},
                           "lengths": {"edge": 2 * math.pi * r}}
    # A filled disc off the grid (fill only: curve flattening and fill rasterisation).
    cx, cy, r = 32.3, 31.65, 25
    out["disc"] = {"lottie": lottie_doc([ellipse(cx, cy, 2 * r), FILL]), "truth": disc_coverage(cx, cy, r),
                   "classes": {"edge": np.ones((SIZE, SIZE), dtype=bool)}, "lengths": {"edge": 2 * math.pi * r}}
    # A filled rectangle at fractional offsets (fill rasterisation alone).
    x0, y0, x1, y1 = 10.3, 12.7, 40.55, 50.1
    out["rect"] = {"lottie": lottie_doc([rect(x0, y0, x1, y1), FILL]), "truth": rect_coverage(x0, y0, x1, y1),
                   "classes": rect_classes(x0, y0, x1, y1),
                   "lengths": {k: v for k, v in zip(("left", "right", "top", "bottom"),
                                                    (y1 - y0, y1 - y0, x1 - x0, x1 - x0))}}
    # A stroked rectangle (straight edges, miter joins): the stroker without curves.
    x0, y0, x1, y1, w = 10.3, 12.7, 40.55, 50.1, 4
    truth = rect_coverage(x0 - w / 2, y0 - w / 2, x1 + w / 2, y1 + w / 2) - rect_coverage(
        x0 + w / 2, y0 + w / 2, x1 - w / 2, y1 - w / 2)
    jj, ii = np.mgrid[0:SIZE, 0:SIZE]
    px, py = ii + 0.5, jj + 0.5
    inside_inner = (px > x0 + w / 2) & (px < x1 - w / 2) & (py > y0 + w / 2) & (py < y1 - w / 2)
    out["rect-stroke"] = {"lottie": lottie_doc([rect(x0, y0, x1, y1), stroke(w, cap=1, join=1)]), "truth": truth,
                          "classes": {"inner": inside_inner, "outer": ~inside_inner},
                          "lengths": {"inner": 2 * ((x1 - x0 - w) + (y1 - y0 - w)),
                                      "outer": 2 * ((x1 - x0 + w) + (y1 - y0 + w))}}
    return out


def rect_classes(x0, y0, x1, y1):
    jj, ii = np.mgrid[0:SIZE, 0:SIZE]
    px, py = ii + 0.5, jj + 0.5
    # each pixel to the side its centre is nearest to
    dl, dr, dt, db = abs(px - x0), abs(px - x1), abs(py - y0), abs(py - y1)
    m = np.minimum(np.minimum(dl, dr), np.minimum(dt, db))
    return {"left": dl == m, "right": (dr == m) & (dl != m), "top": (dt == m) & (dl != m) & (dr != m),
            "bottom": (db == m) & (dl != m) & (dr != m) & (dt != m)}


# ---------------------------------------------------------------- renderers and measures

def render_ours(binary, path, out):
    run = subprocess.run([binary, path, "--frame", "0", "-o", out, "--force"], capture_output=True, text=True)
    if run.returncode != 0:
        raise RuntimeError(run.stderr)
    return alpha_of(out)


def render_ref(python, renderer, path, tmp):
    rdir = os.path.join(tmp, renderer)
    run = subprocess.run([python, os.path.join(HERE, "lottie_refs.py"), path, "--renderer", renderer, "--frames",
                          "0", "--width", str(SIZE), "--height", str(SIZE), "--out", rdir],
                         capture_output=True, text=True)
    if run.returncode != 0:
        raise RuntimeError(run.stderr)
    return alpha_of(os.path.join(rdir, f"{renderer}-0.png"))


def alpha_of(png):
    return np.asarray(Image.open(png).convert("RGBA"), dtype=float)[:, :, 3]


def measure(alpha, case):
    truth = case["truth"] * 255
    err = alpha - truth
    mse = float((err ** 2).mean())
    result = {"psnr": 99.0 if mse == 0 else min(99.0, 10 * math.log10(255 * 255 / mse)),
              "mean_alpha": float(alpha.mean()), "truth_mean_alpha": float(truth.mean())}
    soft = ((truth > 0) & (truth < 255)) | ((alpha > 0) & (alpha < 255))
    for name, mask in case["classes"].items():
        m = mask & soft
        area = float(err[m].sum() / 255)
        row = {"pixels": int(m.sum()), "mean_err": float(err[m].mean()) if m.any() else 0.0, "area": area}
        if name in case.get("lengths", {}):
            row["offset_px"] = area / case["lengths"][name]
        result[name] = row
    return result


# ---------------------------------------------------------------- presets: before and after

def premultiplied(png):
    a = np.asarray(Image.open(png).convert("RGBA"), dtype=float) / 255
    return np.concatenate([a[:, :, :3] * a[:, :, 3:], a[:, :, 3:]], axis=2)


def box(image, k):
    h, w = image.shape[0] // k, image.shape[1] // k
    return image[:h * k, :w * k].reshape(h, k, w, k, 4).mean(axis=(1, 3))


def psnr_on(a, b):
    """Lowest PSNR (RGB, 8-bit) of two premultiplied images composited on white and on black."""
    worst = 99.0
    for bg in (1.0, 0.0):
        ca = (a[:, :, :3] + bg * (1 - a[:, :, 3:])) * 255
        cb = (b[:, :, :3] + bg * (1 - b[:, :, 3:])) * 255
        mse = float(((ca - cb) ** 2).mean())
        worst = min(worst, 99.0 if mse == 0 else 10 * math.log10(255 * 255 / mse))
    return worst


def preset_rows(before, after, presets, tmp, k=8):
    """Per preset and instant (0, 25, 50, 75 % of the loop, the goldens' instants): PSNR of the
    1x frame of `before` and of `after` against the box average of `after`'s frame at --scale k
    (its curves flattened k times finer, edges averaged over k x k exact-area pixels)."""
    rows = []
    for preset in presets:
        name = os.path.splitext(os.path.basename(preset))[0]
        fdir = os.path.join(tmp, name + "-frames")
        run = subprocess.run([before, preset, "--frames", fdir + "/", "-o", os.path.join(tmp, name + ".gif"),
                              "--force"], capture_output=True, text=True)
        if run.returncode != 0:
            rows.append({"preset": name, "error": run.stderr.strip()})
            continue
        n = len([p for p in os.listdir(fdir) if p.endswith(".png")])
        for q in (0, 25, 50, 75):
            f = q * n // 100
            out = {}
            for who, binary, scale in (("before", before, 1), ("after", after, 1), ("truth", after, k)):
                png = os.path.join(tmp, f"{name}-{f}-{who}.png")
                run = subprocess.run([binary, preset, "--frame", str(f), "--scale", str(scale), "-o", png, "--force"],
                                     capture_output=True, text=True)
                if run.returncode != 0:
                    raise RuntimeError(run.stderr)
                out[who] = premultiplied(png)
            truth = box(out["truth"], k)
            same = bool((out["before"] == out["after"]).all())
            rows.append({"preset": name, "frame": f, "changed": not same,
                         "before": psnr_on(out["before"], truth), "after": psnr_on(out["after"], truth)})
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", required=True, help="animexport to measure as 'ours'")
    parser.add_argument("--venv-python", default=os.path.join(HERE, "..", ".build", "tools-venv", "bin", "python"))
    parser.add_argument("--keep", help="folder for the files (default: a temporary one)")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--no-refs", action="store_true", help="measure ours only")
    parser.add_argument("--before", help="with --presets: the build to compare against (reference main)")
    parser.add_argument("--presets", nargs="+", help="measure these presets' frames before/after instead")
    parser.add_argument("cases", nargs="*")
    args = parser.parse_args()
    if args.presets:
        tmp = args.keep or tempfile.mkdtemp(prefix="edge-truth-")
        os.makedirs(tmp, exist_ok=True)
        rows = preset_rows(os.path.abspath(args.before), os.path.abspath(args.binary), args.presets, tmp)
        if args.json:
            print(json.dumps(rows, indent=1))
            return
        for r in rows:
            if "error" in r:
                print(f"{r['preset']:24} ERROR {r['error']}")
                continue
            print(f"{r['preset']:24} frame {r['frame']:4}  {'changed' if r['changed'] else 'same   '}"
                  f"  before {r['before']:5.1f} dB  after {r['after']:5.1f} dB")
        return
    tmp = args.keep or tempfile.mkdtemp(prefix="edge-truth-")
    os.makedirs(tmp, exist_ok=True)
    binary = os.path.abspath(args.binary)
    results = {}
    for name, case in cases().items():
        if args.cases and name not in args.cases:
            continue
        cdir = os.path.join(tmp, name)
        os.makedirs(cdir, exist_ok=True)
        lottie = os.path.join(cdir, name + ".json")
        with open(lottie, "w") as f:
            json.dump(case["lottie"], f)
        np.save(os.path.join(cdir, "truth.npy"), case["truth"])
        renders = {"ours": render_ours(binary, lottie, os.path.join(cdir, "ours.png"))}
        if "preset" in case:
            preset = os.path.join(cdir, name + "-preset.json")
            with open(preset, "w") as f:
                json.dump(case["preset"], f)
            renders["ours-preset"] = render_ours(binary, preset, os.path.join(cdir, "ours-preset.png"))
        if not args.no_refs:
            for renderer in ("rlottie", "thorvg"):
                try:
                    renders[renderer] = render_ref(args.venv_python, renderer, lottie, cdir)
                except RuntimeError as error:
                    print(f"{name}: {renderer}: {error}", file=sys.stderr)
        results[name] = {who: measure(a, case) for who, a in renders.items()}
    if args.json:
        print(json.dumps(results, indent=1))
        return
    for name, rows in results.items():
        print(f"== {name}")
        for who, r in rows.items():
            parts = [f"{who:12} PSNR {r['psnr']:5.1f} dB  mean alpha {r['mean_alpha']:6.3f} (truth {r['truth_mean_alpha']:6.3f})"]
            for k, v in r.items():
                if isinstance(v, dict):
                    s = f"{k} {v['mean_err']:+6.2f}/px area {v['area']:+6.3f}"
                    if "offset_px" in v:
                        s += f" ({v['offset_px']:+.4f} px)"
                    parts.append(s)
            print("   " + "  ".join(parts))


if __name__ == "__main__":
    main()
