# animexport: JSON animation presets -> looping GIFs and PNG sprite sheets.
#
# Targets:
#   make deps    install the C libraries and test tools with apt-get (as root, or via sudo);
#                does nothing when everything is already installed
#   make build   release build of the tool: .build/release/animexport (the front, which answers
#                --version/--help), .build/release/animexport-assemble (`animexport assemble`:
#                PNG frames to GIF/APNG/WebP, without the renderer's libraries) and
#                .build/release/animexport-core (everything else), both exec'd by the front from
#                its own directory; install the three side by side
#   make demo    render every preset in presets/ into output/ (GIF, sheet PNG, sheet JSON) in
#                one batch run (the folder in, -o output/ out, --jobs = the core count)
#   make test    run every test (runs deps first), then `make fuzz-short`
#   make fuzz    mutation fuzzer over presets/*.json, Lottie files and PNG frames (assemble) for
#                FUZZ_SECONDS (default 1800) with seed
#                FUZZ_SEED (default 1): validate + export of each input under a 2 GiB address-space,
#                CPU limit of 20 s + 0.4 s per million pixels x frames (at most 120 s) and a wall backstop; failing inputs go to Tests/CLITests/Fixtures/fuzz/
#                (scripts/fuzz.py); exits non-zero on any failure
#   make fuzz-short  the same for 60 s (what `make test`, and so CI, runs)
#   make bench   start-up of --version/--help against gifsicle (scripts/bench_startup.py); the
#                81-file batch at --jobs 1/2 and a small preset against ffmpeg (scripts/bench_batch.py); time
#                and memory of the circular preset at 1x and 4x, and peak memory of whole
#                exports: circular-progress GIF at 1x, 4x, 8x, 16x (and GIF + sheet at 1x, 4x),
#                and a 600 s loop at 50 fps on 256x256 as GIF, APNG and WebP (release build;
#                the 600 s rows take several minutes each); then the whole presets/ batch at
#                --scale 1,2,3, the same batch again with every job up to date, and its check
#   make bench-peers  every preset's frames encoded by animexport, ffmpeg, ffmpeg + gifsicle -O3
#                and ImageMagick: time, bytes, duration, PSNR and ratios (scripts/bench_peers.py)
#   make bench-lottie  every Lottie file of ../shared/lottie/ (or ANIMEXPORT_LOTTIE_CORPUS; skipped
#                with a message when absent) and of Tests/LottieImportTests/Fixtures/lottie: tier,
#                what we report unsupported, PSNR against rlottie and ThorVG, GIF bytes, duration
#                error, edge PSNR and time of our GIF beside rlottie's and ThorVG's own
#                (scripts/bench_lottie.py; larger side capped at 512 px, GIFs at most 300 frames)
#   make lint    check formatting and doc comments with swift format (strict)
#   make clean   remove build products and everything rendered into output/

SHELL := /bin/sh
SWIFT ?= swift
SWIFT_FLAGS := -Xswiftc -warnings-as-errors
# Release builds link the Swift runtime and Foundation statically: the dynamic loader then binds
# about 3 300 symbols at start instead of 23 000 (25.4 M instructions for `--version` under
# callgrind before, 8.3 M after), and the binary runs without the toolchain's libraries. Every
# release build uses the same flags so that switching products never rebuilds the package.
# --disable-local-rpath drops SwiftPM's RUNPATH $ORIGIN, which no product needs (every library
# comes from the system's paths) and which made the dynamic loader try each library in 10
# folders beside the binary first: 22 failed openat calls per `animexport assemble`.
RELEASE_FLAGS := -c release --static-swift-stdlib --disable-local-rpath $(SWIFT_FLAGS)

# Debian packages: the C libraries we link (Cairo with fontconfig, HarfBuzz for text layers
# with OpenType features, giflib, libimagequant, libpng,
# libwebp + libwebpmux for animated WebP);
# the pinned text font (Inter, fonts-inter); for the tests Pillow, the independent GIF decoder
# (Debian's python3 at /usr/bin/python3), jsonschema for the schema tests, ImageMagick, ffmpeg and
# gifsicle (the other decoders every GIF is checked against, and the peers `make bench-peers`
# measures), webp (webpinfo for the WebP structure tests; img2webp and gif2webp, the WebP peers),
# Chromium, whose headless screenshot of a --preview page a test checks, and strace, which kills
# an export at each rename in the commit test. Zopfli (libzopfli-dev) backs the APNG encoder's
# effort .max and libdeflate (libdeflate-dev) compresses its frames at level 12, close to
# 7-Zip's deflate and much faster; apngdis splits our APNGs into frames for a structural check in the tests, and
# apngasm is the APNG peer bench-peers measures.
DEB_PACKAGES := pkg-config libcairo2-dev libharfbuzz-dev libgif-dev libimagequant-dev libpng-dev libwebp-dev \
	libzopfli-dev libdeflate-dev libssl-dev fonts-inter webp python3 python3-pil python3-jsonschema imagemagick gifsicle ffmpeg \
	chromium strace apngdis apngasm godot3-server python3-venv
# godot3-server: headless Godot 3 that SheetEngineTests uses to load the --sheet-format godot
# SpriteFrames resource and its PNG as a game would.

# PyPI tools, pinned, in a virtual environment that also sees Debian's Python packages (Pillow,
# jsonschema): the two Lottie reference renderers (rlottie-python and thorvg-python ship their
# native libraries in the wheels) and lottie-specs, which ships the official Lottie JSON schema
# (lottie_specs/data/lottie.schema.json). streamlit-lottie is there only for the lottie-web 5.8.1
# (MIT) its source map carries verbatim, the third reference: scripts/lottie_web.py copies it out
# to .build/lottie-web/lottie.js (never committed) and runs it in headless Chromium. Tests find
# the interpreter at $(TOOLS_VENV)/bin/python and skip, saying so, when it is absent.
TOOLS_VENV := .build/tools-venv
TOOLS_PIP := rlottie-python==1.3.8 thorvg-python==1.1.3 lottie-specs==0.5.2
TOOLS_PIP_NODEPS := streamlit-lottie==0.0.5

.PHONY: deps build demo test bench bench-peers bench-lottie lint clean fuzz fuzz-short

FUZZ_SECONDS ?= 1800
FUZZ_SEED ?= 1

deps:
	@missing=""; \
	for p in $(DEB_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -z "$$missing" ]; then echo "deps: all installed"; exit 0; fi; \
	echo "deps: installing$$missing"; \
	if [ "$$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi; \
	$$sudo apt-get update -qq && \
	DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq --no-install-recommends $$missing
	@if $(TOOLS_VENV)/bin/python -c "import rlottie_python, thorvg_python, lottie_specs, importlib.util as u; assert u.find_spec('streamlit_lottie')" 2>/dev/null; then \
	  echo "deps: $(TOOLS_VENV) ready"; \
	else \
	  echo "deps: pip install $(TOOLS_PIP) into $(TOOLS_VENV)"; \
	  rm -rf $(TOOLS_VENV) && /usr/bin/python3 -m venv --system-site-packages $(TOOLS_VENV) && \
	  $(TOOLS_VENV)/bin/pip install -q --disable-pip-version-check $(TOOLS_PIP) && \
	  $(TOOLS_VENV)/bin/pip install -q --disable-pip-version-check --no-deps $(TOOLS_PIP_NODEPS); \
	fi
	@$(TOOLS_VENV)/bin/python scripts/lottie_web.py --extract >/dev/null

build: deps
	$(SWIFT) build $(RELEASE_FLAGS) --product animexport-core
	$(SWIFT) build $(RELEASE_FLAGS) --product animexport-assemble
	$(SWIFT) build $(RELEASE_FLAGS) --product animexport

demo: build
	mkdir -p output
	.build/release/animexport presets/ -o output/ --format gif,sheet

test: deps
	$(SWIFT) build --build-tests $(SWIFT_FLAGS)
	$(SWIFT) test --skip-build
	$(MAKE) fuzz-short

fuzz: build
	/usr/bin/python3 scripts/fuzz.py --seconds $(FUZZ_SECONDS) --seed $(FUZZ_SEED)

fuzz-short:
	$(MAKE) fuzz FUZZ_SECONDS=60

bench: deps
	$(SWIFT) build $(RELEASE_FLAGS) --product animexport-bench
	$(SWIFT) build $(RELEASE_FLAGS) --product animexport-core
	$(SWIFT) build $(RELEASE_FLAGS) --product animexport-assemble
	$(SWIFT) build $(RELEASE_FLAGS) --product animexport
	@echo "Start-up (issue 20): median wall and CPU time of --version and --help against gifsicle:"
	/usr/bin/python3 scripts/bench_startup.py .build/release/animexport
	.build/release/animexport-bench --header presets/circular.json --scale 1
	.build/release/animexport-bench presets/circular.json --scale 4
	@echo "Peak memory of whole exports (frames streamed through the encoders; one process per row;"
	@echo "the 600 s rows are 30 000 frames each and take minutes):"
	.build/release/animexport-bench --export presets/circular-progress.json --scale 1 --header
	.build/release/animexport-bench --export presets/circular-progress.json --scale 4
	.build/release/animexport-bench --export presets/circular-progress.json --scale 1 --formats gif
	.build/release/animexport-bench --export presets/circular-progress.json --scale 4 --formats gif
	.build/release/animexport-bench --export presets/circular-progress.json --scale 8 --formats gif
	.build/release/animexport-bench --export presets/circular-progress.json --scale 16 --formats gif
	.build/release/animexport-bench --export presets/circular.json --scale 4 --fps 50 --duration 600 --formats gif
	.build/release/animexport-bench --export presets/circular.json --scale 4 --fps 50 --duration 600 --formats apng
	.build/release/animexport-bench --export presets/circular.json --scale 4 --fps 50 --duration 600 --formats webp
	@echo "Batch throughput (issue 20): the 81-file batch at --jobs 1 and 2, the whole presets/ folder,"
	@echo "and one small preset's whole process against ffmpeg two-pass on its frames:"
	/usr/bin/python3 scripts/bench_batch.py .build/release/animexport
	@echo "Incremental runs: presets/ -o DIR/ --scale 1,2,3 into a fresh folder, then the same again"
	@echo "(every job up to date) and check (answered from the manifests):"
	@d=$$(mktemp -d) && mkdir "$$d/out" && export XDG_CACHE_HOME="$$d/cache" && \
	for row in "full batch:" "no-op batch:" "no-op check:check"; do \
	  label=$${row%%:*}; sub=$${row#*:}; \
	  /usr/bin/time -f "$$label: %e s wall, %U s user, %S s system, %M KB peak" \
	    .build/release/animexport $$sub presets/ -o "$$d/out/" --scale 1,2,3 -q || exit 1; \
	done; rm -rf "$$d"

bench-peers: deps
	$(SWIFT) build $(RELEASE_FLAGS) --product animexport-core
	$(SWIFT) build $(RELEASE_FLAGS) --product animexport-assemble
	$(SWIFT) build $(RELEASE_FLAGS) --product animexport
	$(SWIFT) build $(RELEASE_FLAGS) --product animexport-bench
	/usr/bin/python3 scripts/bench_peers.py

bench-lottie: deps
	$(SWIFT) build $(RELEASE_FLAGS) --product animexport-core
	$(SWIFT) build $(RELEASE_FLAGS) --product animexport-assemble
	$(SWIFT) build $(RELEASE_FLAGS) --product animexport
	$(TOOLS_VENV)/bin/python scripts/bench_lottie.py --binary .build/release/animexport

lint:
	$(SWIFT) format lint --strict --recursive Sources Tests Package.swift

clean:
	$(SWIFT) package clean
	rm -rf .build
	find output -mindepth 1 ! -name README.md -exec rm -rf {} +
