#!/usr/bin/env python3
"""Bench animexport's Lottie import against rlottie and ThorVG, file by file (`make bench-lottie`).

Usage (run with the tools venv `make deps` creates, .build/tools-venv/bin/python):

    bench_lottie.py [--binary BIN] [--corpus DIR] [--max-frames 300] [--max-side 512] [FILE...]

Input: every file of the corpus folder (`ANIMEXPORT_LOTTIE_CORPUS`, default `../shared/lottie/`;
skipped with a message when absent), its tier read from the README's table (the last cell of a row
whose first cell names a `.json` file, as `corpusFiles` in ReferenceRendererTests does), then the
project's own Tests/LottieImportTests/Fixtures/lottie (tier "own"). Or only the FILEs given.

Per file, one row:
- unsupported: the `[lottie-unsupported]` warnings of `BIN validate FILE` (count, feature names).
- PSNR of our frames (`BIN FILE --time T -o x.png`) against rlottie and against ThorVG
  (scripts/lottie_refs.py, each renderer in its own process) at the 8 frames floor(ip + k·(op−ip)/8),
  composited on white and on black, the lowest of the 16 (dB, RGB, peak 255; 99 when equal).
- GIF bytes, duration error and time of three exports: ours (`BIN FILE -o x.gif`), rlottie's own
  (`LottieAnimation.save_animation`, a GIF written through Pillow) and ThorVG's (its GIF saver, called
  through the C function `tvg_saver_save_animation`: thorvg-python 1.1.3's `Saver.save_animation`
  passes the animation to `tvg_saver_save_paint` and crashes). Duration error = the sum of the GIF's
  delays − (op−ip)/fr, in ms. Time: wall and CPU (user+sys of the child process), seconds.
- edge PSNR of each GIF's first frame against the same tool's straight-alpha render of frame ip
  (ours: `--time 0`; peers: lottie_refs.py), over the pixels whose alpha is strictly between 0 and
  255 in that render (the antialiased edges), both composited on white (a page; a GIF has 1-bit
  alpha, so no GIF is good on every page); "–" when that render has no such pixel. Ours without a
  matte thresholds at 50 % alpha (and warns), so a fourth export, ours with `--matte #FFFFFF`,
  shows what our edges are on the page they are made for (bytes and edge PSNR only).

Caps, printed with the table: the larger canvas side is scaled down to --max-side pixels (ours with
`--size`, the peers with the same width and height); a loop of more frames than --max-frames is
exported at the integral fps min(50, floor(max-frames / period)) by all three (so durations still
compare; 50 is the most a GIF plays, which rlottie and we would pick ourselves).
Every child process runs under a timeout; a crash (signal) or timeout prints "crash"/"timeout" in
its cells and the bench goes on.
"""
import argparse
import ctypes
import datetime
import json
import math
import os
import re
import resource
import subprocess
import sys
import tempfile
import time

from PIL import Image, ImageChops

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
FIXTURES = os.path.join(ROOT, "Tests", "LottieImportTests", "Fixtures", "lottie")
UNSUPPORTED = re.compile(r"warning: \$[^:]*: (.*) \[lottie-unsupported\]$")


class Failed(Exception):
    """A child process that did not succeed; `cell` is what the table prints."""

    def __init__(self, cell, detail=""):
        super().__init__(cell)
        self.cell = cell
        self.detail = detail


def run(cmd, timeout):
    """Run cmd; return (stdout, stderr, wall s, cpu s). Raises Failed on a signal, timeout or non-zero exit."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise Failed("timeout")
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if p.returncode < 0:
        raise Failed("crash", f"signal {-p.returncode}")
    if p.returncode != 0:
        last = (p.stderr.strip().splitlines() or [""])[-1]
        error = re.match(r"(\w+(Error|Exception))\b", last)
        cell = "load fail" if p.returncode == 3 else error.group(1) if error else f"exit {p.returncode}"
        raise Failed(cell, last)
    return p.stdout, p.stderr, wall, cpu


def corpus(folder):
    """[(path, tier)] from the README table of the corpus folder."""
    rows = []
    with open(os.path.join(folder, "README.md")) as f:
        for line in f:
            cells = [c.strip() for c in line.split("|")]
            cells = [c for c in cells if c != ""] if line.startswith("|") else cells
            if not cells or not cells[0].endswith(".json"):
                continue
            tier = cells[-1].replace("*", "")
            if re.fullmatch(r"T\d", tier) and os.path.exists(os.path.join(folder, cells[0])):
                rows.append((os.path.join(folder, cells[0]), tier))
    return rows


def composite(image, grey):
    base = Image.new("RGBA", image.size, (grey, grey, grey, 255))
    return Image.alpha_composite(base, image.convert("RGBA")).convert("RGB")


def psnr_rgb(a, b, mask=None):
    """PSNR (dB) of two RGB images, over the pixels of the L mask when given; 99 when equal."""
    hist = ImageChops.difference(a, b).histogram(mask)
    se = 0
    count = 0
    for channel in range(3):
        h = hist[256 * channel:256 * channel + 256]
        se += sum(n * v * v for v, n in enumerate(h))
        count += sum(h)
    if count == 0:
        return None
    if se == 0:
        return 99.0
    return min(99.0, 10 * math.log10(255 * 255 * count / se))


def worst(a, b, mask=None, greys=(255, 0)):
    values = [psnr_rgb(composite(a, g), composite(b, g), mask) for g in greys]
    return None if None in values else min(values)


def edge_mask(image):
    return image.convert("RGBA").getchannel("A").point(lambda v: 255 if 0 < v < 255 else 0)


def read_gif(path):
    """(bytes, frames, total delay ms, first frame RGBA)."""
    im = Image.open(path)
    first = im.convert("RGBA")
    frames = 0
    total = 0
    try:
        while True:
            total += im.info.get("duration", 0)
            frames += 1
            im.seek(im.tell() + 1)
    except EOFError:
        pass
    return os.path.getsize(path), frames, total, first


def peer_gif(renderer, path, out, w, h, fps):
    """Child-process mode: write the peer's own GIF of path at w x h (fps 0: the file's own)."""
    if renderer == "rlottie":
        from rlottie_python import LottieAnimation
        anim = LottieAnimation.from_file(path)
        anim.save_animation(out, fps=fps or None, width=w, height=h)
        return
    import thorvg_python as tvg
    engine = tvg.Engine(threads=0)
    anim = tvg.LottieAnimation(engine)
    picture = anim.get_picture()
    if picture.load(path) != tvg.Result.SUCCESS:
        sys.exit(3)
    picture.set_size(w, h)
    saver = tvg.Saver(engine)
    save = engine.thorvg_lib.tvg_saver_save_animation
    save.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_char_p, ctypes.c_uint32, ctypes.c_uint32]
    save.restype = ctypes.c_int
    result = save(ctypes.cast(saver._saver, ctypes.c_void_p), ctypes.cast(anim._animation, ctypes.c_void_p),
                  out.encode(), 100, fps)
    if result != 0:
        print(f"tvg_saver_save_animation: result {result}", file=sys.stderr)
        sys.exit(4)
    saver.sync()


def bench_file(args, path, tier, tmp):
    name = os.path.basename(path)
    row = {"file": name, "tier": tier}
    work = os.path.join(tmp, name)
    os.makedirs(work, exist_ok=True)
    try:
        with open(path) as f:
            doc = json.load(f)
        fr, ip, op = float(doc["fr"]), float(doc["ip"]), float(doc["op"])
        w, h = float(doc["w"]), float(doc["h"])
    except Exception as error:  # not a Lottie we can read the header of
        row["error"] = f"header: {error}"
        return row
    row["frames"] = op - ip
    row["fr"] = fr
    period = (op - ip) / fr
    row["expected_ms"] = 1000 * period
    size = ["--size", str(args.max_side)] if max(w, h) > args.max_side else []
    fps = 0
    if op - ip > args.max_frames:
        fps = min(50, max(1, math.floor(args.max_frames / period)))
        row["capped_fps"] = fps
    binary = args.binary

    # What we report unsupported.
    try:
        _, err, _, _ = run([binary, "validate", path], 120)
        names = []
        count = 0
        for line in err.splitlines():
            m = UNSUPPORTED.search(line)
            if m:
                count += 1
                feature = m.group(1)
                feature = feature[:-len(" is not supported")] if feature.endswith(" is not supported") else feature
                if feature not in names:
                    names.append(feature)
        row["unsupported"] = (count, names)
    except Failed as failure:
        row["unsupported"] = failure.cell + (": " + failure.detail if failure.detail else "")

    # Our frames at 8 instants.
    picks = []
    for k in range(8):
        f = math.floor(ip + (op - ip) * k / 8)
        if f not in picks:
            picks.append(f)
    ours = []
    try:
        for k, f in enumerate(picks):
            png = os.path.join(work, f"ours-{k}.png")
            run([binary, path, "--time", repr((f - ip) / fr), "-o", png, "--force"] + size, 120)
            ours.append(Image.open(png).convert("RGBA"))
        width, height = ours[0].size
    except Failed as failure:
        row["ours_frames"] = failure.cell
        ours = None
        width, height = (round(w * min(1, args.max_side / max(w, h))), round(h * min(1, args.max_side / max(w, h))))
    row["size"] = (width, height)
    refs = {}
    for renderer in ("rlottie", "thorvg"):
        rdir = os.path.join(work, renderer)
        try:
            run([sys.executable, os.path.join(HERE, "lottie_refs.py"), path, "--renderer", renderer,
                 "--frames", ",".join(map(str, picks)), "--width", str(width), "--height", str(height),
                 "--out", rdir], 300)
            refs[renderer] = [Image.open(os.path.join(rdir, f"{renderer}-{k}.png")).convert("RGBA")
                              for k in range(len(picks))]
            row["psnr_" + renderer] = None if ours is None else min(
                worst(a, b) for a, b in zip(ours, refs[renderer]))
        except Failed as failure:
            refs[renderer] = None
            row["psnr_" + renderer] = failure.cell
    if refs["rlottie"] and refs["thorvg"]:
        row["psnr_refs"] = min(worst(a, b) for a, b in zip(refs["rlottie"], refs["thorvg"]))

    # The three GIF exports.
    for tool in ("ours", "matte", "rlottie", "thorvg"):
        gif = os.path.join(work, tool + ".gif")
        if tool in ("ours", "matte"):
            cmd = [binary, path, "-o", gif, "--force"] + size + (["--fps", str(fps)] if fps else [])
            cmd += ["--matte", "#FFFFFF"] if tool == "matte" else []
        else:
            cmd = [sys.executable, os.path.abspath(__file__), "--peer-gif", tool, path, gif, str(width),
                   str(height), str(fps)]
        try:
            _, _, wall, cpu = run(cmd, args.timeout)
            nbytes, nframes, total, first = read_gif(gif)
            cell = {"bytes": nbytes, "frames": nframes, "error_ms": total - row["expected_ms"], "wall": wall,
                    "cpu": cpu}
            own = (ours[0] if ours else None) if tool in ("ours", "matte") else (refs.get(tool) or [None])[0]
            if own is not None and own.size == first.size:
                cell["edge"] = worst(first, own, edge_mask(own), (255,))
            row["gif_" + tool] = cell
        except Failed as failure:
            row["gif_" + tool] = failure.cell
        except Exception as error:  # an unreadable GIF
            row["gif_" + tool] = f"bad gif ({error})"
    return row


def db(x):
    if x is None:
        return "–"
    if isinstance(x, str):
        return x
    return f"{x:.1f}"


def gif_cells(cell):
    if isinstance(cell, str):
        return [cell] * 4
    return [f"{cell['bytes']:,}".replace(",", " "), f"{cell['error_ms']:+.0f}", db(cell.get("edge")),
            f"{cell['wall']:.2f}/{cell['cpu']:.2f}"]


def table(rows):
    head = ["file", "tier", "unsupported", "ours–rl", "ours–tvg", "rl–tvg"]
    for tool in ("ours", "rlottie", "thorvg"):
        head += [f"{tool} bytes", f"{tool} Δms", f"{tool} edge", f"{tool} s wall/cpu"]
        if tool == "ours":
            head += ["ours matte bytes", "ours matte edge"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in rows:
        if "error" in r:
            lines.append(f"| {r['file']} | {r['tier']} | {r['error']} |" + " |" * (len(head) - 3))
            continue
        u = r["unsupported"]
        uc = u if isinstance(u, str) else ("0" if u[0] == 0 else f"{u[0]}: " + "; ".join(u[1]))
        name = r["file"] + (f" (GIFs at {r['capped_fps']} fps)" if "capped_fps" in r else "")
        ours_cell = r.get("ours_frames")
        cells = [name, r["tier"], uc.replace("|", "/"), ours_cell or db(r["psnr_rlottie"]),
                 ours_cell or db(r["psnr_thorvg"]), db(r.get("psnr_refs"))]
        for tool in ("ours", "rlottie", "thorvg"):
            cells += gif_cells(r["gif_" + tool])
            if tool == "ours":
                matte = gif_cells(r["gif_matte"])
                cells += [matte[0], matte[2]]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--peer-gif":
        renderer, path, out, w, h, fps = sys.argv[2:8]
        peer_gif(renderer, path, out, int(w), int(h), int(fps))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build", "release", "animexport"))
    parser.add_argument("--corpus", default=os.environ.get("ANIMEXPORT_LOTTIE_CORPUS",
                                                           os.path.join(ROOT, "..", "shared", "lottie")))
    parser.add_argument("--max-frames", type=int, default=300)
    parser.add_argument("--max-side", type=int, default=512)
    parser.add_argument("--timeout", type=int, default=180, help="seconds per GIF export")
    parser.add_argument("--json", help="also write the rows as JSON to this file")
    parser.add_argument("--keep", help="folder for the renders (default: a temporary one)")
    parser.add_argument("files", nargs="*")
    args = parser.parse_args()
    args.binary = os.path.abspath(args.binary)
    if args.files:
        files = [(f, "–") for f in args.files]
    else:
        files = []
        if os.path.isdir(args.corpus) and os.path.exists(os.path.join(args.corpus, "README.md")):
            files = corpus(args.corpus)
        else:
            print(f"bench-lottie: no corpus at {args.corpus} (set ANIMEXPORT_LOTTIE_CORPUS); only the project's own files")
        files += [(os.path.join(FIXTURES, f), "own") for f in sorted(os.listdir(FIXTURES)) if f.endswith(".json")]
    tmp = args.keep or tempfile.mkdtemp(prefix="bench-lottie-")
    start = time.monotonic()
    rows = []
    for path, tier in files:
        t0 = time.monotonic()
        rows.append(bench_file(args, path, tier, tmp))
        print(f"  {os.path.basename(path)}: {time.monotonic() - t0:.1f} s", file=sys.stderr, flush=True)
    print(f"bench-lottie {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC, "
          f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}, {os.cpu_count()} cores; "
          f"{len(rows)} files in {time.monotonic() - start:.0f} s")
    print(f"Caps: larger side ≤ {args.max_side} px; loops over {args.max_frames} frames exported at "
          f"min(50, floor({args.max_frames}/period)) fps by all three. PSNR in dB (lowest of 8 instants × white/black); "
          f"Δms = GIF delays − (op−ip)/fr; edge = first GIF frame vs the tool's own straight render over "
          f"0<alpha<255, on white; ours matte = ours with --matte #FFFFFF; s = wall/CPU seconds of the GIF export.")
    print()
    print(table(rows))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1, default=str)


if __name__ == "__main__":
    main()
