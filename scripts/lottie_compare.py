#!/usr/bin/env python3
"""Check animexport's Lottie export of presets: schema and reference renders.

Usage (run with the tools venv `make deps` creates, .build/tools-venv/bin/python):

    lottie_compare.py --binary BIN [--schema-only] [--json] PRESET...

For each preset: `BIN PRESET -o TMP/NAME.lottie.json` and `--frames TMP/frames/` (our own
frames), then the exported file is validated against the official Lottie 1.0 JSON schema
(`lottie_specs/data/lottie.schema.json`, Draft 2020-12, through jsonschema) and rendered by
rlottie, ThorVG and, when it runs here, lottie-web (`scripts/lottie_refs.py`, each in its own
process; lottie-web's key is null when it cannot run or does not draw the file) at 8 instants of the loop,
frames round(k * N / 8) for k = 0..7. Each pair of images is composited on white and on black and
compared by PSNR over the RGB channels (8-bit, peak 255; identical images count as 99 dB). A
preset the export refuses (exit 65) is reported as refused with its message. One line per preset;
`--json` prints the numbers as one JSON object instead.
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


def schema_validator():
    import jsonschema
    import lottie_specs
    path = os.path.join(os.path.dirname(lottie_specs.__file__), "data", "lottie.schema.json")
    with open(path) as f:
        schema = json.load(f)
    return jsonschema.Draft202012Validator(schema)


def composite(image, background):
    base = Image.new("RGBA", image.size, background + (255,))
    return Image.alpha_composite(base, image.convert("RGBA")).convert("RGB")


def psnr(a, b):
    da, db = a.tobytes(), b.tobytes()
    if da == db:
        return 99.0
    se = sum((x - y) * (x - y) for x, y in zip(da, db))
    mse = se / len(da)
    return min(99.0, 10 * math.log10(255 * 255 / mse))


def both(a, b):
    return min(psnr(composite(a, (255, 255, 255)), composite(b, (255, 255, 255))),
               psnr(composite(a, (0, 0, 0)), composite(b, (0, 0, 0))))


def check(binary, preset, tmp, schema_only, validator):
    name = os.path.splitext(os.path.basename(preset))[0]
    out = os.path.join(tmp, name + ".lottie.json")
    run = subprocess.run([binary, preset, "-o", out, "--force"], capture_output=True, text=True)
    if run.returncode == 65:
        return {"preset": name, "refused": run.stderr.strip().splitlines()[-1]}
    if run.returncode != 0:
        return {"preset": name, "error": run.stderr.strip()}
    result = {"preset": name, "warnings": [l for l in run.stderr.splitlines() if l.startswith("warning:")]}
    with open(out) as f:
        doc = json.load(f)
    errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path))
    result["schemaErrors"] = [f"{'/'.join(map(str, e.absolute_path))}: {e.message[:200]}" for e in errors[:5]]
    if schema_only:
        return result
    frames_dir = os.path.join(tmp, name + "-frames")
    run = subprocess.run([binary, preset, "--frames", frames_dir + "/", "-o", os.path.join(tmp, name + ".gif"),
                          "--force"], capture_output=True, text=True)
    if run.returncode != 0:
        result["error"] = run.stderr.strip()
        return result
    pngs = sorted(p for p in os.listdir(frames_dir) if p.endswith(".png"))
    n = int(doc["op"])
    picks = sorted(set(round(k * n / 8) % n for k in range(8)))
    ours = [Image.open(os.path.join(frames_dir, pngs[f])).convert("RGBA") for f in picks]
    w, h = ours[0].size
    refs = {}
    for renderer in ("rlottie", "thorvg", "lottie-web"):
        rdir = os.path.join(tmp, name + "-" + renderer)
        run = subprocess.run([sys.executable, os.path.join(HERE, "lottie_refs.py"), out, "--renderer", renderer,
                              "--frames", ",".join(map(str, picks)), "--width", str(w), "--height", str(h),
                              "--out", rdir], capture_output=True, text=True)
        if run.returncode != 0:
            refs[renderer] = None
            continue
        refs[renderer] = [Image.open(os.path.join(rdir, f"{renderer}-{k}.png")).convert("RGBA")
                          for k in range(len(picks))]
    result["frames"] = picks
    for renderer, images in refs.items():
        result[renderer] = None if images is None else min(both(a, b) for a, b in zip(ours, images))
    if refs["rlottie"] and refs["thorvg"]:
        result["refs"] = min(both(a, b) for a, b in zip(refs["rlottie"], refs["thorvg"]))
    result["dir"] = tmp
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", required=True)
    parser.add_argument("--schema-only", action="store_true")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--keep", help="folder for the files (default: a temporary one)")
    parser.add_argument("presets", nargs="+")
    args = parser.parse_args()
    validator = schema_validator()
    tmp = args.keep or tempfile.mkdtemp(prefix="lottie-compare-")
    os.makedirs(tmp, exist_ok=True)
    results = [check(os.path.abspath(args.binary), p, tmp, args.schema_only, validator) for p in args.presets]
    if args.json:
        print(json.dumps(results, indent=1))
        return
    for r in results:
        if "refused" in r:
            print(f"{r['preset']:24} refused: {r['refused']}")
            continue
        if "error" in r:
            print(f"{r['preset']:24} ERROR {r['error']}")
            continue
        def db(x):
            return "crash" if x is None else f"{x:5.1f}"
        line = f"{r['preset']:24} schema {'ok' if not r['schemaErrors'] else 'FAIL ' + '; '.join(r['schemaErrors'])}"
        if "frames" in r:
            line += f"  ours-rlottie {db(r['rlottie'])} dB  ours-thorvg {db(r['thorvg'])} dB"
            line += f"  ours-lottie-web {db(r['lottie-web'])} dB"
            if "refs" in r:
                line += f"  rlottie-thorvg {db(r['refs'])} dB"
        print(line)


if __name__ == "__main__":
    main()
