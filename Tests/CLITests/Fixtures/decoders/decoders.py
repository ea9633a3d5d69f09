# SPDX-License-Identifier: GPL-3.0-or-later
"""Independent decoders for IndependentDecoderTests.swift: ImageMagick and headless Chromium.

Every subcommand prints one JSON document on stdout. A frame is given as the SHA-256 (hex) of
its straight RGBA bytes, row by row, with every alpha-0 pixel written as 0, 0, 0, 0 (a
transparent pixel's colour is meaningless, so decoders may differ there); the Swift test
compares these digests with the rendered `--format frames` PNGs' (subcommand `digests`).

    digests FRAME.png ...        rendered frames, read by Pillow
    imagemagick-webp FILE        ImageMagick's frames of an animated WebP, assembled (below)
    imagemagick-apng FILE        ImageMagick's frames of an APNG (through its ffmpeg delegate)
                                 and its default image (its own PNG reader)
    chromium PAGE PROFILE        runs PAGE in headless Chromium and prints what the page's
                                 `window.decoding` promise resolves to

Run with Debian's /usr/bin/python3 (python3-pil). Errors go to stderr with exit status 1.
"""

import fcntl
import hashlib
import json
import os
import select
import struct
import subprocess
import sys
import time

from PIL import Image


def fail(message):
    sys.stderr.write(message + "\n")
    sys.exit(1)


def digest(image):
    """SHA-256 of `image` (RGBA) with every alpha-0 pixel made 0, 0, 0, 0."""
    image = image.convert("RGBA")
    visible = image.getchannel("A").point(lambda a: 255 if a else 0)
    clear = Image.new("RGBA", image.size, (0, 0, 0, 0))
    return hashlib.sha256(Image.composite(image, clear, visible).tobytes()).hexdigest()


def run(args):
    """Runs a program; its stdout as bytes. Anything on stderr or a non-zero exit is a failure."""
    done = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if done.returncode != 0 or done.stderr:
        fail("%s: exit %d: %s" % (" ".join(args), done.returncode, done.stderr.decode(errors="replace")))
    return done.stdout


def raw_frames(data, width, height, what):
    """Splits ImageMagick's `rgba:-` output into width x height RGBA images."""
    size = width * height * 4
    if size == 0 or len(data) % size:
        fail("%s: %d bytes are not whole %dx%d RGBA frames" % (what, len(data), width, height))
    return [Image.frombytes("RGBA", (width, height), data[i:i + size]) for i in range(0, len(data), size)]


def digests(paths):
    return [digest(Image.open(p)) for p in paths]


def webpmux_frames(path):
    """`webpmux -info`'s frame table (libwebpmux): the ANMF fields ImageMagick does not report."""
    text = run(["/usr/bin/webpmux", "-info", path]).decode()
    header = {}
    frames = []
    for line in text.splitlines():
        if line.startswith("Background color"):
            # "Background color : 0x00000000  Loop Count : 0"
            parts = line.replace(":", " ").split()
            header["background"] = parts[2]
            header["loop"] = int(parts[5])
        fields = line.replace(":", " ").split()
        if len(fields) == 11 and fields[0].isdigit():
            frames.append({
                "width": int(fields[1]), "height": int(fields[2]), "x": int(fields[4]), "y": int(fields[5]),
                "duration": int(fields[6]), "dispose": fields[7], "blend": fields[8] == "yes",
            })
    return header, frames


def imagemagick_webp(path):
    """ImageMagick 6's reading of an animated WebP, frame by frame.

    ImageMagick's `-coalesce` cannot be held to the file: its WebP reader composites every
    frame "over" the canvas, ignoring the ANMF "do not blend" bit (libwebp writes translucent
    changes unblended), and a frame without alpha makes its whole coalesced canvas opaque. So
    ImageMagick decodes each frame's bitstream and reports its rectangle, offset, delay and
    disposal, the blend bit comes from `webpmux -info`, and the frames are assembled here as
    the WebP container specification's "Canvas Assembly from Frames" says: the canvas starts
    transparent; a frame's rectangle is alpha-blended (blend bit set) or replaces the canvas
    (not set); after it is shown, "dispose to background" clears the rectangle. The file's
    background colour must be transparent black (the caller checks), so the specification's
    background colour and the transparent canvas every browser uses agree.

    Delays: ImageMagick keeps them in ticks of 1/100 s and truncates the WebP milliseconds
    (33 and 34 ms are both 3; 233 ms is 23).
    """
    geometry = run(["/usr/bin/identify", "-format", "%w %h %X %Y %W %H %T %D\n", path]).decode().split("\n")
    rows = [line.split() for line in geometry if line.strip()]
    pixels = run(["/usr/bin/convert", path, "-depth", "8", "rgba:-"])
    verbose = run(["/usr/bin/identify", "-verbose", path + "[0]"]).decode()
    iterations = [line.split(":")[1].strip() for line in verbose.splitlines() if line.strip().startswith("Iterations:")]
    header, mux = webpmux_frames(path)
    if len(mux) != len(rows):
        fail("%s: ImageMagick reads %d frames, webpmux lists %d" % (path, len(rows), len(mux)))
    canvas_size = (int(rows[0][4]), int(rows[0][5]))
    canvas = Image.new("RGBA", canvas_size, (0, 0, 0, 0))
    offset = 0
    frames = []
    previous = None
    for k, (row, m) in enumerate(zip(rows, mux)):
        w, h, x, y, cw, ch, delay, dispose = int(row[0]), int(row[1]), int(row[2]), int(row[3]), int(row[4]), \
            int(row[5]), int(row[6]), row[7]
        if (cw, ch) != canvas_size:
            fail("%s frame %d: canvas %dx%d, frame 0 said %dx%d" % (path, k, cw, ch, *canvas_size))
        first_padded = k == 0 and (w, h, x, y) == (cw, ch, 0, 0)
        if (w, h, x, y) != (m["width"], m["height"], m["x"], m["y"]) and not first_padded:
            fail("%s frame %d: ImageMagick's rectangle %dx%d+%d+%d, webpmux's %dx%d+%d+%d"
                 % (path, k, w, h, x, y, m["width"], m["height"], m["x"], m["y"]))
        if x < 0 or y < 0 or x + w > cw or y + h > ch:
            fail("%s frame %d: rectangle %dx%d+%d+%d outside the %dx%d canvas" % (path, k, w, h, x, y, cw, ch))
        size = w * h * 4
        if offset + size > len(pixels):
            fail("%s frame %d: ImageMagick returned too few pixels" % (path, k))
        rect = Image.frombytes("RGBA", (w, h), pixels[offset:offset + size])
        offset += size
        if first_padded:
            # ImageMagick returns the first frame canvas-sized, its rectangle padded (opaque
            # black when the frame has no alpha: flipping-square), so only the rectangle counts.
            w, h, x, y = m["width"], m["height"], m["x"], m["y"]
            rect = rect.crop((x, y, x + w, y + h))
        if previous is not None and previous[0] == "Background":
            px, py, pw, ph = previous[1]
            canvas.paste((0, 0, 0, 0), (px, py, px + pw, py + ph))
        translucent = 0
        if m["blend"]:
            alpha = rect.getchannel("A")
            translucent = sum(alpha.histogram()[1:255])
            if translucent:
                # The specification's blend is real-valued; decoders round it differently, so
                # a translucent pixel blended over the canvas has no one exact answer.
                region = canvas.crop((x, y, x + w, y + h))
                canvas.paste(Image.alpha_composite(region, rect), (x, y))
            else:
                canvas.paste(rect, (x, y), alpha)
        else:
            canvas.paste(rect, (x, y))
        frames.append({
            "digest": digest(canvas), "delay": delay, "dispose": dispose, "blend": m["blend"],
            "webpmuxDispose": m["dispose"], "webpmuxDuration": m["duration"], "translucentBlended": translucent,
        })
        previous = (dispose, (x, y, w, h))
    if offset != len(pixels):
        fail("%s: ImageMagick returned %d bytes more than the frames' rectangles" % (path, len(pixels) - offset))
    return {
        "width": canvas_size[0], "height": canvas_size[1], "background": header.get("background"),
        "loop": header.get("loop"), "iterations": iterations[0] if iterations else None, "frames": frames,
    }


def imagemagick_apng(path):
    """ImageMagick 6's readings of an APNG.

    `apng:FILE` goes through ImageMagick's "video" coder, which runs its ffmpeg delegate
    (`convert -list delegate`: `video:decode`) to PAM frames: ffmpeg composites the frames and
    writes them at a constant rate, its guess of the stream's frame rate, repeating a frame
    that lasts several steps. ImageMagick reports every delay as 0, so the timing shows only as
    which frame falls in which step. Its own PNG reader (`png:FILE`) ignores the APNG chunks and
    returns the default image.
    """
    geometry = run(["/usr/bin/identify", "-format", "%W %H %T\n", "png:" + path]).decode().split()
    width, height = int(geometry[0]), int(geometry[1])
    default = raw_frames(run(["/usr/bin/convert", "png:" + path, "-depth", "8", "rgba:-"]), width, height,
                         path + " (png:)")
    delays = run(["/usr/bin/identify", "-format", "%T\n", "apng:" + path]).decode().split()
    frames = raw_frames(run(["/usr/bin/convert", "apng:" + path, "-depth", "8", "rgba:-"]), width, height,
                        path + " (apng:)")
    return {
        "width": width, "height": height, "default": [digest(f) for f in default],
        "delays": [int(d) for d in delays], "frames": [digest(f) for f in frames],
    }


class DevTools:
    """Chromium's DevTools protocol over `--remote-debugging-pipe` (fd 3 in, fd 4 out, messages
    ended by NUL): no port, no network, and the page's promise is awaited however long the
    decoding takes (`--dump-dom` with a virtual-time budget returns before WebCodecs' decoding,
    which runs outside the virtual clock, has finished)."""

    def __init__(self, profile, limit):
        to_child, self.commands = os.pipe()
        self.events, from_child = os.pipe()

        def pipes():
            # Move both ends above 9 first: one of them may itself be fd 3 or 4.
            high_in = fcntl.fcntl(to_child, fcntl.F_DUPFD, 10)
            high_out = fcntl.fcntl(from_child, fcntl.F_DUPFD, 10)
            os.dup2(high_in, 3)
            os.dup2(high_out, 4)

        self.deadline = time.monotonic() + limit
        self.process = subprocess.Popen(
            ["/usr/bin/chromium", "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
             "--user-data-dir=" + profile, "--remote-debugging-pipe", "about:blank"],
            pass_fds=(3, 4), preexec_fn=pipes,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(to_child)
        os.close(from_child)
        self.buffer = b""
        self.next_id = 0

    def send(self, method, params=None, session=None):
        self.next_id += 1
        message = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self.commands, json.dumps(message).encode() + b"\0")
        return self.next_id

    def wait(self, reply=None, event=None):
        while True:
            while b"\0" in self.buffer:
                raw, self.buffer = self.buffer.split(b"\0", 1)
                message = json.loads(raw)
                if reply is not None and message.get("id") == reply:
                    if "error" in message:
                        fail("Chromium: %s" % json.dumps(message["error"]))
                    return message.get("result", {})
                if event is not None and message.get("method") == event:
                    return message.get("params", {})
            left = self.deadline - time.monotonic()
            ready, _, _ = select.select([self.events], [], [], max(0.0, left))
            if not ready:
                self.process.kill()
                fail("Chromium gave no answer in time (a safety limit, not a timing assertion)")
            chunk = os.read(self.events, 1 << 20)
            if not chunk:
                fail("Chromium closed its DevTools pipe (exit %s)" % self.process.poll())
            self.buffer += chunk

    def call(self, method, params=None, session=None):
        return self.wait(reply=self.send(method, params, session))

    def close(self):
        try:
            self.send("Browser.close")
            self.process.wait(timeout=30)
        except Exception:
            self.process.kill()
            self.process.wait()


def chromium(page, profile, limit=900):
    tools = DevTools(profile, limit)
    try:
        target = tools.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = tools.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        tools.call("Page.enable", session=session)
        tools.send("Page.navigate", {"url": "file://" + page}, session=session)
        tools.wait(event="Page.loadEventFired")
        result = tools.call("Runtime.evaluate", {
            "expression": "window.decoding", "awaitPromise": True, "returnByValue": True}, session=session)
        if "exceptionDetails" in result:
            fail("the page threw: %s" % json.dumps(result["exceptionDetails"]))
        value = result.get("result", {}).get("value")
        if not isinstance(value, str):
            fail("window.decoding gave no JSON text: %s" % json.dumps(result))
        return json.loads(value)
    finally:
        tools.close()


def main(argv):
    if len(argv) < 2:
        fail(__doc__)
    command, args = argv[1], argv[2:]
    if command == "digests":
        out = digests(args)
    elif command == "imagemagick-webp" and len(args) == 1:
        out = imagemagick_webp(args[0])
    elif command == "imagemagick-apng" and len(args) == 1:
        out = imagemagick_apng(args[0])
    elif command == "chromium" and len(args) == 2:
        out = chromium(args[0], args[1])
    else:
        fail(__doc__)
    json.dump(out, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(sys.argv)
