#!/usr/bin/env python3
"""Render a Lottie file with a reference renderer (rlottie, ThorVG or lottie-web) at given frame numbers.

Usage (run with the tools venv `make deps` creates, .build/tools-venv/bin/python):

    lottie_refs.py FILE --renderer rlottie|thorvg|lottie-web --frames 0,12,30.5 --width W --height H --out DIR

Writes DIR/<renderer>-<k>.png for the k-th frame number (0-based), 8-bit straight (not
premultiplied) RGBA, W x H pixels, the whole composition scaled to fit. Frame numbers are Lottie
frames (the `ip`..`op` scale at `fr`); rlottie renders integral frames only, so it refuses a
fractional one (exit 2). Exit 3 when the renderer cannot load the file. Each run renders with one
renderer in its own process, so a renderer that crashes on a file takes only this process down:
callers treat a signal exit as "reference unavailable", never as our failure.

Both renderers give premultiplied pixels (rlottie ARGB32 in native byte order, ThorVG ABGR8888);
they are un-premultiplied here with rounding, c = round(255 * c_p / a), as Cairo's own conversion
in the project does, so the PNGs compare directly with animexport's straight-alpha frames.

lottie-web (5.8.1, SVG renderer) runs in headless Chromium through `scripts/lottie_web.py`, which
recovers straight RGBA from screenshots on white and on black; it draws fractional frames. Exit 4
when it cannot run here (no Chromium, no streamlit-lottie wheel in the venv).
"""
import argparse
import os
import sys

from PIL import Image


def unpremultiply(data: bytes) -> bytes:
    """RGBA premultiplied bytes -> straight RGBA bytes (round half up)."""
    out = bytearray(data)
    for i in range(0, len(out), 4):
        a = out[i + 3]
        if a == 0:
            out[i] = out[i + 1] = out[i + 2] = 0
        elif a != 255:
            for c in range(3):
                out[i + c] = min(255, (out[i + c] * 255 + a // 2) // a)
    return bytes(out)


def render_rlottie(path, frames, w, h):
    from rlottie_python import LottieAnimation
    anim = LottieAnimation.from_file(path)
    if anim is None:
        raise LoadError("rlottie could not load " + path)
    images = []
    for f in frames:
        if f != int(f):
            print(f"lottie_refs: rlottie renders integral frames only, not {f}", file=sys.stderr)
            sys.exit(2)
        # ARGB32 premultiplied, native (little-endian) byte order: B, G, R, A in memory.
        buf = anim.lottie_animation_render(frame_num=int(f), width=w, height=h)
        bgra = Image.frombuffer("RGBA", (w, h), buf, "raw", "BGRA")
        images.append(Image.frombytes("RGBA", (w, h), unpremultiply(bgra.tobytes())))
    return images


def render_thorvg(path, frames, w, h):
    import thorvg_python as tvg
    engine = tvg.Engine(threads=0)
    canvas = tvg.SwCanvas(engine)
    canvas.set_target(w, h, cs=tvg.Colorspace.ABGR8888)
    anim = tvg.LottieAnimation(engine)
    picture = anim.get_picture()
    if picture.load(path) != tvg.Result.SUCCESS:
        raise LoadError("ThorVG could not load " + path)
    picture.set_size(w, h)
    canvas.add(picture)
    images = []
    for f in frames:
        anim.set_frame(float(f))
        canvas.update()
        canvas.draw(True)
        canvas.sync()
        # ABGR8888 as a 32-bit word is R, G, B, A in memory on little-endian machines.
        raw = bytes(canvas.buffer_arr)
        images.append(Image.frombytes("RGBA", (w, h), unpremultiply(raw)))
    return images


def render_lottie_web(path, frames, w, h):
    import lottie_web
    try:
        return lottie_web.render(path, frames, w, h)
    except lottie_web.RenderError as error:
        raise LoadError("lottie-web did not render " + path + ": " + str(error)) from error
    except lottie_web.Unavailable as error:
        print(f"lottie_refs: {error}", file=sys.stderr)
        sys.exit(4)


RENDERERS = {"rlottie": render_rlottie, "thorvg": render_thorvg, "lottie-web": render_lottie_web}


def render(path, frames, w, h, renderer):
    """`frames` of the file at `path` drawn by `renderer` (a key of RENDERERS) at w x h, as
    straight RGBA Pillow images."""
    return RENDERERS[renderer](path, frames, w, h)


class LoadError(Exception):
    pass


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file")
    parser.add_argument("--renderer", choices=sorted(RENDERERS), required=True)
    parser.add_argument("--frames", required=True, help="comma-separated Lottie frame numbers")
    parser.add_argument("--width", type=int, required=True)
    parser.add_argument("--height", type=int, required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    frames = [float(x) for x in args.frames.split(",") if x]
    try:
        images = render(os.path.abspath(args.file), frames, args.width, args.height, args.renderer)
    except LoadError as error:
        print(f"lottie_refs: {error}", file=sys.stderr)
        sys.exit(3)
    os.makedirs(args.out, exist_ok=True)
    for k, image in enumerate(images):
        image.save(os.path.join(args.out, f"{args.renderer}-{k}.png"))


if __name__ == "__main__":
    main()
