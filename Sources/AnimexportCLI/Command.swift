// SPDX-License-Identifier: GPL-3.0-or-later

import Encode
import Foundation
import Render
import Spec
import Timeline

/// The `animexport` command: parses arguments, renders each preset once per frame rate, writes
/// every requested output atomically, and reports with `error:`/`warning:` lines on stderr.
public enum Command {
    /// The tool's version, printed by `--version` and written into sprite-sheet metadata.
    public static let version = "0.1.0"

    /// Runs the command.
    /// - Parameter arguments: the arguments after the program name.
    /// - Returns: the exit code (see `ExitCode`).
    public static func run(_ arguments: [String]) -> ExitCode {
        let console = Console()
        let options: Options
        do {
            options = try Options.parse(arguments)
        } catch {
            console.error(error.message)
            console.note("run 'animexport --help' for usage")
            return .usage
        }
        if options.help {
            console.out(helpText)
            return .success
        }
        if options.version {
            console.out("animexport \(version)")
            return .success
        }
        guard !options.presets.isEmpty else {
            console.error("no preset given")
            console.note(
                "usage: animexport PRESET.json [-o OUT.gif|OUT.png|DIR/] [options]; run 'animexport --help' for more")
            return .usage
        }
        do {
            try OutputPlan.validate(options.outputs, presetCount: options.presets.count)
            if options.framesDirectory != nil, options.presets.count > 1 {
                throw UsageError(message: "--frames takes one preset at a time")
            }
            if options.columns != nil, options.sheetType != .grid {
                throw UsageError(message: "--columns applies to --sheet-type grid only")
            }
        } catch let error as UsageError {
            console.error(error.message)
            return .usage
        } catch {
            console.error("\(error)")
            return .usage
        }

        var worst = ExitCode.success
        for preset in options.presets {
            let code = export(preset, options: options, console: console)
            if code != .success && (worst == .success || code == .usage) { worst = code }
            if code == .usage { break }
        }
        return worst
    }

    /// Exports one preset; returns its exit code.
    static func export(_ presetPath: String, options: Options, console: Console) -> ExitCode {
        // 1. Read and validate.
        let loaded: LoadedPreset
        do {
            loaded = try PresetLoader.load(contentsOf: presetPath, overrides: options.overrides)
        } catch let error as PresetError {
            for d in error.diagnostics { console.diagnostic(d) }
            let count = error.diagnostics.filter { $0.severity == .error }.count
            console.note("\(presetPath): \(count) error\(count == 1 ? "" : "s"); nothing written")
            return .badPreset
        } catch let error as ParameterOverrideError {
            console.error(error.message)
            return .usage
        } catch {
            console.error("\(error)")
            return .failure
        }
        for w in loaded.warnings { console.diagnostic(w) }

        var composition = loaded.composition
        if let background = options.background { composition.canvas.background = background }
        let matte = options.matte ?? composition.canvas.matte
        let fps = options.fps ?? composition.fps
        let targets = OutputPlan.targets(for: composition.name, outputs: options.outputs)
        if options.outputs.isEmpty {
            try? FileManager.default.createDirectory(
                atPath: OutputPlan.defaultDirectory, withIntermediateDirectories: true)
        }

        let pixels = SceneRenderer.pixelSize(
            width: composition.canvas.width, height: composition.canvas.height, scale: options.scale)
        guard pixels.width <= 16384, pixels.height <= 16384 else {
            console.error(
                "\(presetPath): \(pixels.width)×\(pixels.height) pixels at --scale \(formatNumber(options.scale)) is too large (limit 16384 per side)"
            )
            return .usage
        }

        // 2. Render: once at the preset's rate, and once more at 50 fps when a GIF needs fewer.
        let wantsGIF = targets.contains { if case .gif = $0 { true } else { false } }
        let wantsFullRate =
            targets.contains { if case .sheet = $0 { true } else { false } } || options.framesDirectory != nil
        let gifFPS = min(fps, Exporter.maximumGIFFrameRate)
        if wantsGIF && fps > Exporter.maximumGIFFrameRate {
            console.warning(
                "\(presetPath): \(formatNumber(fps)) fps is above what GIF can play (delays under 2 cs play as 10 cs in browsers); the GIF is resampled to \(formatNumber(gifFPS)) fps"
            )
        }
        var full: RenderedAnimation?
        var forGIF: RenderedAnimation?
        do {
            if wantsFullRate || gifFPS == fps {
                full = try Exporter.render(composition, fps: fps, duration: options.duration, scale: options.scale)
            }
            if wantsGIF {
                forGIF =
                    gifFPS == fps
                    ? full
                    : try Exporter.render(composition, fps: gifFPS, duration: options.duration, scale: options.scale)
            }
        } catch let error as LoopPlanError {
            console.error("\(presetPath): \(error.message)")
            return .badPreset
        } catch {
            console.error("\(presetPath): render failed: \(error)")
            return .failure
        }

        // 3. Encode everything in memory, then write (so an encoder failure leaves no file).
        var files: [(path: String, bytes: [UInt8])] = []
        var summaries: [String] = []
        do {
            for target in targets {
                switch target {
                case .gif(let path):
                    guard let animation = forGIF else { continue }
                    var gifOptions = GIFOptions()
                    gifOptions.loop = options.loop
                    gifOptions.matte = matte
                    gifOptions.dither = options.dither
                    let encoded = try Exporter.gif(animation, options: gifOptions)
                    if encoded.collapsedEdgePixels > 0 {
                        console.warning(
                            "\(path): \(encoded.collapsedEdgePixels) half-transparent edge pixels were made fully opaque or transparent (GIF has 1-bit alpha); pass --matte COLOR (the page colour) for smooth edges"
                        )
                    }
                    files.append((path, encoded.bytes))
                    summaries.append(
                        summary(
                            path, animation, bytes: encoded.bytes.count,
                            extra: "\(encoded.paletteSize) colours\(encoded.quantized ? " (quantised)" : "")"))
                case .sheet(let png, let json):
                    guard let animation = full else { continue }
                    let sheet = try Exporter.sheet(
                        animation, imageName: (png as NSString).lastPathComponent,
                        columns: options.columns, padding: options.padding, extrude: options.extrude,
                        trim: options.trim, layout: options.sheetType)
                    let pngBytes = try SheetPNGEncoder.encode(sheet.image, maximumColors: options.sheetColors).bytes
                    files.append((png, pngBytes))
                    files.append((json, sheet.json))
                    summaries.append(
                        summary(
                            png, animation, bytes: pngBytes.count,
                            extra:
                                "\(sheet.image.width)×\(sheet.image.height) sheet + \((json as NSString).lastPathComponent)"
                        ))
                }
            }
            if let directory = options.framesDirectory, let animation = full {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
                let digits = max(3, String(animation.frames.count - 1).count)
                for (i, frame) in animation.frames.enumerated() {
                    let number = String(repeating: "0", count: max(0, digits - String(i).count)) + String(i)
                    files.append(("\(directory)/\(composition.name)-\(number).png", try PNGCodec.encode(frame)))
                }
                summaries.append("\(directory)/: \(animation.frames.count) PNG frames")
            }
        } catch {
            console.error("\(presetPath): encoding failed: \(error)")
            return .failure
        }
        for file in files {
            do {
                try AtomicFile.write(file.bytes, to: file.path)
            } catch {
                console.error(error.message)
                return .failure
            }
        }
        if !options.quiet {
            for s in summaries { console.out(s) }
        }
        return .success
    }

    static func summary(_ path: String, _ animation: RenderedAnimation, bytes: Int, extra: String) -> String {
        let plan = animation.plan
        let size = animation.frames.first.map { "\($0.width)×\($0.height)" } ?? "0×0"
        return
            "\(path): \(plan.frameCount) frames, \(formatNumber(plan.period)) s loop, \(size) px, \(formatBytes(bytes)), \(extra)"
    }

    static func formatBytes(_ n: Int) -> String {
        n < 10_000 ? "\(n) bytes" : String(format: "%.1f KB", locale: nil, Double(n) / 1000)
    }
}

/// Where the command's words go: results on stdout, problems on stderr.
struct Console {
    func out(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }
    func error(_ message: String) { err("error: \(message)") }
    func warning(_ message: String) { err("warning: \(message)") }
    func note(_ message: String) { err("note: \(message)") }
    func diagnostic(_ d: Diagnostic) { err(d.description) }
    private func err(_ line: String) { FileHandle.standardError.write(Data((line + "\n").utf8)) }
}
