// swift-tools-version:6.0
// animexport: JSON animation presets to looping GIFs and PNG sprite sheets.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// No outside Swift packages: C libraries come in through system-library targets
// (module.modulemap + pkg-config), installed by `make deps`.

import PackageDescription

let package = Package(
    name: "animexport",
    products: [
        // `animexport` is a small front (no Foundation, no C libraries) that answers --version and
        // --help itself, execs `animexport-assemble` beside it for `assemble` and `animexport-core`
        // for everything else; all three are installed.
        .executable(name: "animexport", targets: ["animexport"]),
        .executable(name: "animexport-core", targets: ["animexport-core"]),
        .executable(name: "animexport-assemble", targets: ["animexport-assemble"]),
        .library(
            name: "AnimexportKit",
            targets: [
                "Geometry", "Spec", "Timeline", "Raster", "Render", "Encode", "OutputFiles", "Export", "LottieImport",
                "Assemble",
            ]),
    ],
    targets: [
        // C libraries.
        .systemLibrary(
            name: "CCairo", path: "Sources/CCairo", pkgConfig: "cairo-ft",
            providers: [.apt(["libcairo2-dev"])]),
        .systemLibrary(
            name: "CHarfBuzz", path: "Sources/CHarfBuzz", pkgConfig: "harfbuzz",
            providers: [.apt(["libharfbuzz-dev"])]),
        .systemLibrary(
            name: "CGif", path: "Sources/CGif",
            providers: [.apt(["libgif-dev"])]),
        .systemLibrary(
            name: "CImageQuant", path: "Sources/CImageQuant", pkgConfig: "imagequant",
            providers: [.apt(["libimagequant-dev"])]),
        .systemLibrary(
            name: "CPNG", path: "Sources/CPNG", pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"])]),
        .systemLibrary(
            name: "CWebP", path: "Sources/CWebP", pkgConfig: "libwebpmux",
            providers: [.apt(["libwebp-dev"])]),
        // libdeflate (MIT, Debian libdeflate-dev 1.14), APNGEncoder's compressor at level 12.
        .systemLibrary(
            name: "CDeflate", path: "Sources/CDeflate", pkgConfig: "libdeflate",
            providers: [.apt(["libdeflate-dev"])]),
        // Zopfli, for APNGEncoder's effort .max (no pkg-config file in Debian).
        .systemLibrary(
            name: "CZopfli", path: "Sources/CZopfli",
            providers: [.apt(["libzopfli-dev"])]),
        // OpenSSL's libcrypto (Debian libssl-dev): SHA-256 and HMAC-SHA-256 for the manifest
        // of incremental runs (Manifest, ManifestKey).
        .systemLibrary(
            name: "CCrypto", path: "Sources/CCrypto", pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]),
        // glibc's mallopt, which Swift's Glibc module does not expose (MemoryTuning).
        .systemLibrary(name: "CMalloc", path: "Sources/CMalloc"),

        // The pipeline: preset JSON -> Composition -> FrameScene -> RGBAImage -> files.
        .target(name: "Geometry"),
        // The version and help text, shared by the front and the core (no dependencies).
        .target(name: "ToolInfo"),
        .target(name: "Spec", dependencies: ["Geometry"]),
        .target(name: "Timeline", dependencies: ["Spec", "Geometry"]),
        // Files written whole or not at all (AtomicFile) and byte-exact paths (FilePath).
        .target(name: "OutputFiles"),
        // Exit codes, usage errors and checked option values, shared by the CLI and `assemble`.
        .target(name: "ToolOptions", dependencies: ["Spec", "OutputFiles"]),
        // Straight-alpha RGBA images, frame sources and PNG files: what the encoders need from the
        // pipeline, without the renderer's Cairo, HarfBuzz, fontconfig and X11 (issue 22: a process
        // that only encodes frames does not map them).
        .target(name: "Raster", dependencies: ["CPNG", "CDeflate"]),
        .target(name: "Render", dependencies: ["Raster", "Timeline", "Spec", "Geometry", "CCairo", "CHarfBuzz"]),
        .target(
            name: "Encode",
            dependencies: ["Raster", "Spec", "CGif", "CImageQuant", "CWebP", "CDeflate", "CZopfli", "CMalloc"]),
        // Preset -> files in one call: the output formats, frame sources, atomic commits, timing
        // reports and loop lints, shared by the CLI, the benchmark and Swift callers.
        // Lottie (bodymovin) files as a second input: a model that draws FrameScenes itself.
        .target(name: "LottieImport", dependencies: ["Spec", "Timeline", "Geometry"]),
        .target(
            name: "Export",
            dependencies: ["Spec", "Timeline", "OutputFiles", "Raster", "Render", "Encode", "CMalloc", "ToolInfo"]),
        .target(
            name: "AnimexportCLI",
            dependencies: [
                "Geometry", "Spec", "Timeline", "OutputFiles", "ToolOptions", "Raster", "Render", "Encode", "Export",
                "LottieImport", "CMalloc",
                "CCrypto",
                "ToolInfo",
            ]),
        // `animexport assemble`: PNG frames from any tool -> GIF, APNG or WebP, without the renderer.
        .target(
            name: "Assemble", dependencies: ["Encode", "Raster", "Spec", "Timeline", "OutputFiles", "ToolOptions"]),
        // The front parses no input (argv[1] only) and execs the others, so it is linked fully
        // static (no dynamic loader, no relocations to apply: 0.45 ms to start instead of 1.1):
        // docs/architecture.md, "Start-up".
        .executableTarget(
            name: "animexport", dependencies: ["ToolInfo"], linkerSettings: [.unsafeFlags(["-static-executable"])]),
        // What the front execs for `assemble`: Encode's libraries only (libpng, libwebp, giflib,
        // libimagequant, libdeflate, Zopfli), none of Cairo's or HarfBuzz's (issue 22).
        .executableTarget(name: "animexport-assemble", dependencies: ["Assemble", "Encode", "OutputFiles"]),
        .executableTarget(
            name: "animexport-core",
            dependencies: ["AnimexportCLI", "Assemble", "Encode", "OutputFiles", "ToolOptions"]),
        .executableTarget(
            name: "animexport-bench", dependencies: ["Export", "Encode", "Raster", "Render", "Spec", "Timeline"]),

        .testTarget(name: "GeometryTests", dependencies: ["Geometry"]),
        .testTarget(name: "SpecTests", dependencies: ["Spec"]),
        .testTarget(name: "TimelineTests", dependencies: ["Timeline", "Spec", "Geometry", "Raster", "Render"]),
        .testTarget(name: "RenderTests", dependencies: ["Raster", "Render", "CCairo"]),
        .testTarget(name: "EncodeTests", dependencies: ["Encode", "Raster", "CDeflate"]),
        .testTarget(
            name: "LottieImportTests",
            dependencies: ["LottieImport", "Timeline", "Raster", "Render", "Spec", "Geometry"],
            resources: [.copy("Fixtures")]),
        .testTarget(
            name: "CLITests",
            dependencies: [
                "AnimexportCLI", "Export", "OutputFiles", "ToolOptions", "Encode", "Raster", "Render", "Spec",
                "Timeline",
            ],
            resources: [.copy("Fixtures")]),
    ]
)
