#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Batch throughput and one small preset against ffmpeg (issue 20), for `make bench`.

1. The issue's 81-file batch: the 9 presets that existed when issue 20 was filed (ISSUE_PRESETS),
   copied into a fresh folder, `DIR/ -o OUT/ --scale 1,2,3` (GIF + sheet) into an empty folder
   with a fresh manifest key, at `--jobs 1` and `--jobs 2`: wall, CPU (user + system) and peak
   RSS from wait4's rusage, and the speed-up of the wall times (goal >= 1.8x on 2 cores; a
   loaded machine lowers it, so the CPU columns are the ones to compare across builds).
   Then the whole presets/ folder the same way at the default --jobs.
2. One small preset's whole process (`PRESET -o F.gif`, start-up included) next to ffmpeg's
   two passes (palettegen, then paletteuse) on the same preset's PNG frames: median wall and
   CPU of RUNS runs, taking turns, and the ratio ours / ffmpeg (goal <= 0.10).
Usage: bench_batch.py [--small-only] [ANIMEXPORT] (default .build/release/animexport)
"""
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ISSUE_PRESETS = [
    "airplane", "arc-rotation", "blink-dots", "circular", "circular-progress", "flipping-square",
    "loading-dots", "triangle-dots", "twin-circle-scale",
]
SMALL = "presets/circular.json"
RUNS = 15


def timed(argv, env=None):
    """(wall s, cpu s, peak RSS KB) of one process; exits on failure."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{' '.join(argv)} exited with {status}: {proc.stderr.read().decode()}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss


def batch(tool, folder, jobs, work):
    out = tempfile.mkdtemp(dir=work)
    env = dict(os.environ, XDG_CACHE_HOME=tempfile.mkdtemp(dir=work))
    argv = [tool, folder + "/", "-o", out + "/", "--scale", "1,2,3", "-q"]
    if jobs:
        argv += ["--jobs", str(jobs)]
    result = timed(argv, env)
    files = sum(1 for f in os.listdir(out) if not f.endswith(".manifest") and not f.startswith("."))
    shutil.rmtree(out)
    return result + (files,)


def load():
    return open("/proc/loadavg").read().split()[0]


def main():
    args = [a for a in sys.argv[1:] if a != "--small-only"]
    tool = args[0] if args else ".build/release/animexport"
    work = tempfile.mkdtemp()
    try:
        if "--small-only" not in sys.argv:
            batches(tool, work)
        small(tool, work)
    finally:
        shutil.rmtree(work)


def batches(tool, work):
    issue = os.path.join(work, "issue20-presets")
    os.mkdir(issue)
    for name in ISSUE_PRESETS:
        shutil.copy(os.path.join("presets", name + ".json"), issue)
    print("| batch | jobs | files | wall s | CPU s | peak MB | load (1 min) |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    walls = {}
    for jobs in (1, 2):
        wall, cpu, rss, files = batch(tool, issue, jobs, work)
        walls[jobs] = wall
        print(f"| 9 presets x 1,2,3 | {jobs} | {files} | {wall:.2f} | {cpu:.2f} | {rss / 1024:.0f} | {load()} |")
    wall, cpu, rss, files = batch(tool, "presets", None, work)
    print(f"| presets/ x 1,2,3 | default | {files} | {wall:.2f} | {cpu:.2f} | {rss / 1024:.0f} | {load()} |")
    print(f"speed-up --jobs 2 against --jobs 1 (wall): {walls[1] / walls[2]:.2f}x (goal >= 1.8x)")


def small(tool, work):

    frames = os.path.join(work, "frames")
    subprocess.run([tool, SMALL, "--frames", frames, "-o", os.path.join(work, "sheet.png"), "-q"],
                   check=True)
    names = sorted(f for f in os.listdir(frames) if f.endswith(".png"))
    stem = names[0].rsplit("-", 1)[0]
    digits = len(names[0]) - len(stem) - 5
    pattern = os.path.join(frames, "%s-%%0%dd.png" % (stem, digits))
    fps = "50"  # the rate only labels ffmpeg's input; the frames and work are the same
    palette = os.path.join(work, "palette.png")
    ours_argv = [tool, SMALL, "-o", os.path.join(work, "ours.gif"), "-q"]
    gen = ["ffmpeg", "-v", "error", "-y", "-framerate", fps, "-i", pattern, "-vf", "palettegen", palette]
    use = ["ffmpeg", "-v", "error", "-y", "-framerate", fps, "-i", pattern, "-i", palette,
           "-lavfi", "paletteuse", os.path.join(work, "ffmpeg.gif")]
    ours, theirs = [], []
    for _ in range(RUNS):
        env = dict(os.environ, XDG_CACHE_HOME=os.path.join(work, "cache"))
        ours.append(timed(ours_argv, env)[:2])
        a, b = timed(gen), timed(use)
        theirs.append((a[0] + b[0], a[1] + b[1]))
    ow = statistics.median(w for w, _ in ours)
    oc = statistics.median(c for _, c in ours)
    tw = statistics.median(w for w, _ in theirs)
    tc = statistics.median(c for _, c in theirs)
    print(f"{SMALL} ({len(names)} frames) whole process -o F.gif against ffmpeg palettegen + paletteuse "
          f"on its PNG frames, median of {RUNS}:")
    print(f"  animexport {ow * 1000:.1f} ms wall, {oc * 1000:.1f} ms CPU; ffmpeg {tw * 1000:.1f} ms wall, "
          f"{tc * 1000:.1f} ms CPU; ratio {ow / tw:.3f} wall, {oc / tc:.3f} CPU (goal <= 0.10)")


if __name__ == "__main__":
    main()
