#!/usr/bin/env python3
"""lottie-web (5.8.1, its SVG renderer) in headless Chromium as a third Lottie reference.

Usage (run with the tools venv `make deps` creates, .build/tools-venv/bin/python):

    lottie_web.py --extract              write .build/lottie-web/lottie.js (from the wheel) and exit
    lottie_web.py FILE --frames 0,12,30.5 --width W --height H --out DIR

lottie-web is not on PyPI itself, but the `streamlit-lottie==0.0.5` wheel `make deps` installs
into the tools venv ships the source map
`streamlit_lottie/frontend/build/static/js/2.c2e60dd1.chunk.js.map`, whose `sourcesContent` holds
`../node_modules/lottie-web/build/player/lottie.js` (lottie-web 5.8.1, MIT) verbatim. `--extract`
(and every render, when it is missing) copies that source out to `.build/lottie-web/lottie.js`;
it is never committed.

A render writes one page with a player per frame (`renderer: 'svg'`, `autoplay: false`, each
in its own W x H box of a grid), each stopped with `goToAndStop(F - ip, true)` once loaded
(lottie-web counts frames from `ip`; it draws synchronously there). Headless Chromium is driven
over the DevTools protocol on a pipe: the page is shown at the grid's size on a transparent
default background, the script waits until every player has stopped plus two animation frames,
then takes one screenshot (`Page.captureScreenshot`). lottie-web's SVG renderer paints no
background, so the PNG is straight RGBA (Chromium un-premultiplies when encoding); it is cut into
DIR/lottie-web-<k>.png for the k-th frame number, the layout `lottie_refs.py` writes. (Plain
`--screenshot` with `--virtual-time-budget` was tried first: with a fresh `--user-data-dir` it
captured before lottie.js ran, and it has no transparent background.) Exit 3 when lottie-web does
not render the file (a script error, or no frame after 30 s), 4 when Chromium or the wheel is
missing.

`render(path, frames, w, h)` returns the frames as Pillow RGBA images, for `lottie_refs.py`.
"""
import argparse
import base64
import fcntl
import importlib.util
import io
import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
LOTTIE_JS = os.path.join(ROOT, ".build", "lottie-web", "lottie.js")
MAP_MEMBER = "streamlit_lottie/frontend/build/static/js/2.c2e60dd1.chunk.js.map"
SOURCE_NAME = "../node_modules/lottie-web/build/player/lottie.js"
CHROMIUM = os.environ.get("ANIMEXPORT_CHROMIUM", "/usr/bin/chromium")


class Unavailable(Exception):
    """lottie-web cannot run here (no wheel, no Chromium)."""


class RenderError(Exception):
    """lottie-web ran but did not render the file."""


def extract():
    """Copies lottie.js out of the installed streamlit-lottie wheel's source map; returns its path."""
    if os.path.exists(LOTTIE_JS):
        return LOTTIE_JS
    # Found, not imported: the package imports streamlit, which is not installed (--no-deps).
    spec = importlib.util.find_spec("streamlit_lottie")
    if spec is None or spec.origin is None:
        raise Unavailable("streamlit-lottie is not installed (make deps)")
    package = os.path.dirname(spec.origin)
    map_path = os.path.join(os.path.dirname(package), MAP_MEMBER)
    try:
        with open(map_path) as f:
            source_map = json.load(f)
        source = source_map["sourcesContent"][source_map["sources"].index(SOURCE_NAME)]
    except (OSError, ValueError, KeyError) as error:
        raise Unavailable(f"no {SOURCE_NAME} in {map_path}: {error}") from error
    if "version = '5.8.1'" not in source:
        raise Unavailable("the lottie.js in the source map is not lottie-web 5.8.1")
    os.makedirs(os.path.dirname(LOTTIE_JS), exist_ok=True)
    tmp = LOTTIE_JS + f".{os.getpid()}"
    with open(tmp, "w") as f:
        f.write(source)
    os.replace(tmp, LOTTIE_JS)
    return LOTTIE_JS


PAGE = """<!DOCTYPE html>
<html><head><meta charset="utf-8">
<style>html, body { margin: 0; overflow: hidden; background: transparent; }
.box { position: absolute; width: %(w)dpx; height: %(h)dpx; }</style>
<script src="lottie.js"></script></head>
<body>
<script src="data.js"></script>
<script>
const W = %(w)d, H = %(h)d, COLUMNS = %(columns)d, FRAMES = %(frames)s;
let drawn = 0;
window.onerror = (message) => { window.lottieError = String(message); };
FRAMES.forEach((f, i) => {
  const box = document.createElement('div');
  box.className = 'box';
  box.style.left = (i %% COLUMNS) * W + 'px';
  box.style.top = Math.floor(i / COLUMNS) * H + 'px';
  document.body.appendChild(box);
  // loadAnimation rewrites the data it is given, so each player gets its own copy.
  const anim = lottie.loadAnimation({container: box, renderer: 'svg', loop: false, autoplay: false,
    animationData: JSON.parse(ANIMATION), rendererSettings: {preserveAspectRatio: 'xMidYMid meet'}});
  // lottie-web catches what its renderer throws and reports it as an 'error' event
  // (renderFrameError, configError) instead, drawing nothing.
  anim.addEventListener('error', (e) => {
    window.lottieError = e.type + ': ' + String(e.nativeError && (e.nativeError.stack || e.nativeError));
  });
  const stop = () => {
    anim.goToAndStop(f - anim.firstFrame, true);
    drawn += 1;
    if (drawn === FRAMES.length) { window.lottieDone = true; }
  };
  // A file without assets to fetch is loaded before loadAnimation returns.
  if (anim.isLoaded) { stop(); } else { anim.addEventListener('DOMLoaded', stop); }
});
</script></body></html>
"""

WAIT = """new Promise(resolve => { const t0 = Date.now(); (function poll() {
  if (window.lottieDone || window.lottieError || Date.now() - t0 > 30000) {
    requestAnimationFrame(() => requestAnimationFrame(() =>
      resolve(window.lottieError || (window.lottieDone ? 'done' : 'no frame after 30 s'))));
  } else { setTimeout(poll, 10); } })(); })"""


class _DevTools:
    """Headless Chromium driven over the DevTools protocol on a pipe (`--remote-debugging-pipe`:
    JSON messages ended by NUL, commands on the child's fd 3, answers and events on its fd 4)."""

    def __init__(self, profile):
        to_chrome_r, self._to_chrome = os.pipe()
        self._from_chrome, from_chrome_w = os.pipe()

        # The child's fds 3 and 4, set between fork and exec (close_fds would close them). The
        # pipe ends are first moved above 9, so neither is overwritten before it is copied, and
        # both copies are made inheritable (os.pipe's fds close on exec).
        def child_fds():
            high = [fcntl.fcntl(to_chrome_r, fcntl.F_DUPFD, 10), fcntl.fcntl(from_chrome_w, fcntl.F_DUPFD, 10)]
            for target, fd in zip((3, 4), high):
                os.dup2(fd, target)
                os.set_inheritable(target, True)

        self.process = subprocess.Popen(
            [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars",
             "--allow-file-access-from-files", "--force-device-scale-factor=1", f"--user-data-dir={profile}",
             "--remote-debugging-pipe", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
            preexec_fn=child_fds, close_fds=False)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self._buffer = b""
        self._next = 0
        self.session = None

    def call(self, method, timeout=60, **params):
        """Sends one command (to the attached page once there is one) and returns its result."""
        self._next += 1
        message = {"id": self._next, "method": method, "params": params}
        if self.session and not method.startswith(("Target.", "Browser.")):
            message["sessionId"] = self.session
        os.write(self._to_chrome, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            while b"\0" not in self._buffer:
                ready, _, _ = select.select([self._from_chrome], [], [], max(0.0, deadline - time.monotonic()))
                if not ready:
                    raise RenderError(f"Chromium did not answer {method} in {timeout} s")
                chunk = os.read(self._from_chrome, 1 << 20)
                if not chunk:
                    raise RenderError(f"Chromium exited during {method}")
                self._buffer += chunk
            raw, self._buffer = self._buffer.split(b"\0", 1)
            answer = json.loads(raw)
            if answer.get("id") == self._next:
                if "error" in answer:
                    raise RenderError(f"{method}: {answer['error'].get('message')}")
                return answer.get("result", {})

    def evaluate(self, expression, timeout=60):
        """The value of a page expression (awaited when it is a promise)."""
        result = self.call("Runtime.evaluate", timeout=timeout, expression=expression, awaitPromise=True,
                           returnByValue=True)
        if "exceptionDetails" in result:
            details = result["exceptionDetails"]
            raise RenderError(details.get("exception", {}).get("description", details.get("text", "script error")))
        return result.get("result", {}).get("value")

    def close(self):
        try:
            self.call("Browser.close", timeout=5)
        except (RenderError, OSError):
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self._to_chrome)
        os.close(self._from_chrome)


def _grid(work, w, h, frames, columns):
    """The frames drawn by lottie-web in a grid of `columns`, captured on a transparent page."""
    from PIL import Image
    rows = (len(frames) + columns - 1) // columns
    with open(os.path.join(work, "page.html"), "w") as f:
        f.write(PAGE % {"w": w, "h": h, "columns": columns, "frames": json.dumps([float(x) for x in frames])})
    chrome = _DevTools(os.path.join(work, "profile"))
    try:
        target = chrome.call("Target.createTarget", url="about:blank")["targetId"]
        chrome.session = chrome.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        chrome.call("Emulation.setDeviceMetricsOverride", width=columns * w, height=rows * h, deviceScaleFactor=1,
                    mobile=False)
        chrome.call("Emulation.setDefaultBackgroundColorOverride", color={"r": 0, "g": 0, "b": 0, "a": 0})
        chrome.call("Page.enable")
        chrome.call("Page.navigate", url="file://" + os.path.join(work, "page.html"))
        state = chrome.evaluate(WAIT)
        if state != "done":
            raise RenderError(f"lottie-web: {state}"[:300])
        shot = chrome.call("Page.captureScreenshot", format="png",
                           clip={"x": 0, "y": 0, "width": columns * w, "height": rows * h, "scale": 1})
    finally:
        chrome.close()
    image = Image.open(io.BytesIO(base64.b64decode(shot["data"]))).convert("RGBA")
    image.load()
    return image


def render(path, frames, w, h):
    """Frames `frames` (Lottie frame numbers) of the file at `path` drawn by lottie-web at w x h,
    as straight RGBA Pillow images."""
    lottie_js = extract()
    if not os.access(CHROMIUM, os.X_OK):
        raise Unavailable(f"no Chromium at {CHROMIUM}")
    with open(path, "rb") as f:
        data = f.read()
    try:
        json.loads(data)
    except ValueError as error:
        raise RenderError(f"not JSON: {error}") from error
    columns = max(1, min(len(frames), 4096 // max(1, w)))
    work = tempfile.mkdtemp(prefix="lottie-web-")
    try:
        shutil.copyfile(lottie_js, os.path.join(work, "lottie.js"))
        with open(os.path.join(work, "data.js"), "w") as f:
            f.write("const ANIMATION = " + json.dumps(data.decode("utf-8", "replace")) + ";\n")
        grid = _grid(work, w, h, frames, columns)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    images = []
    for k in range(len(frames)):
        x, y = (k % columns) * w, (k // columns) * h
        images.append(grid.crop((x, y, x + w, y + h)))
    return images


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?")
    parser.add_argument("--extract", action="store_true")
    parser.add_argument("--frames")
    parser.add_argument("--width", type=int)
    parser.add_argument("--height", type=int)
    parser.add_argument("--out")
    args = parser.parse_args()
    try:
        if args.extract:
            print(extract())
            return
        if not (args.file and args.frames and args.width and args.height and args.out):
            parser.error("FILE, --frames, --width, --height and --out are needed to render")
        frames = [float(x) for x in args.frames.split(",") if x]
        images = render(os.path.abspath(args.file), frames, args.width, args.height)
    except Unavailable as error:
        print(f"lottie_web: {error}", file=sys.stderr)
        sys.exit(4)
    except (RenderError, subprocess.TimeoutExpired) as error:
        print(f"lottie_web: {error}", file=sys.stderr)
        sys.exit(3)
    os.makedirs(args.out, exist_ok=True)
    for k, image in enumerate(images):
        image.save(os.path.join(args.out, f"lottie-web-{k}.png"))


if __name__ == "__main__":
    main()
