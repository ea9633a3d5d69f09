// SPDX-License-Identifier: GPL-3.0-or-later

public import Encode
import OutputFiles
public import Raster
import Render
public import Spec
public import Timeline

/// The kinds of output animexport writes; each has one `OutputFormat` that owns its names, its
/// frame plan, its checks and its encoder. This enum is the registry: adding a format is a case
/// here, a type conforming to `OutputFormat`, and its `format` line below.
public enum OutputFormatKind: String, Equatable, Hashable, Sendable, CaseIterable {
    /// Animated GIF, `NAME.gif`.
    case gif
    /// Animated PNG, `NAME.apng`.
    case apng
    /// Animated WebP, `NAME.webp`.
    case webp
    /// Sprite sheet, `NAME.png` + `NAME.json`.
    case sheet
    /// Every frame as `NAME-000.png`, `NAME-001.png`, …
    case frames
    /// One frame (`--frame`/`--time`) as `NAME-030.png` or `NAME-t1.5s.png`.
    case still
    /// Lottie 1.0 JSON, `NAME.lottie.json` (`LottieFormat`).
    case lottie

    /// The format's implementation.
    public var format: any OutputFormat {
        switch self {
        case .gif: GIFFormat()
        case .apng: APNGFormat()
        case .webp: WebPFormat()
        case .sheet: SheetFormat()
        case .frames: FramesFormat()
        case .still: StillFormat()
        case .lottie: LottieFormat()
        }
    }

    /// The kinds `--format` accepts (every kind but `still`, which `--frame`/`--time` ask for).
    public static let folderKinds: [OutputFormatKind] = [.gif, .apng, .webp, .sheet, .frames, .lottie]

    /// The kind a file output `-o NAME.EXT` asks for, by its extension (any case), or nil.
    /// `.png` is a sprite sheet (and the one PNG of `--frame`/`--time`); `lottie.json` (the
    /// compound extension `OutputFormatKind.fileExtension(of:)` reads) is Lottie.
    public static func forExtension(_ ext: String) -> OutputFormatKind? {
        let lower = ext.lowercased()
        return folderKinds.first { $0.format.fileExtensions.contains(lower) }
    }

    /// The extension `forExtension` reads from a file name: `lottie.json` for `NAME.lottie.json`
    /// (any case), otherwise the name's last extension (`FilePath.pathExtension`).
    public static func fileExtension(of path: FilePath) -> String {
        let ext = path.pathExtension
        if ext.lowercased() == "json", path.deletingPathExtension.pathExtension.lowercased() == "lottie" {
            return path.deletingPathExtension.pathExtension + "." + ext
        }
        return ext
    }

    /// `path` without the extension `fileExtension(of:)` reads (`a/x.lottie.json` → `a/x`).
    public static func deletingFileExtension(of path: FilePath) -> FilePath {
        fileExtension(of: path).contains(".")
            ? path.deletingPathExtension.deletingPathExtension : path.deletingPathExtension
    }
}

/// One set of files an export writes: a format and the path of its main file.
public struct OutputTarget: Equatable, Hashable, Sendable {
    /// What is written.
    public var kind: OutputFormatKind
    /// The main file (`dir/NAME.gif`, the sheet's `dir/NAME.png`, the still's PNG), or for
    /// `.frames` the prefix `dir/NAME` that the frame numbers and `.png` are added to.
    public var path: FilePath
    /// False for a product made only to be shown (`--preview`) or measured: its files are
    /// produced in memory and never written or compared.
    public var written: Bool
    /// For `.sheet`: which data file goes beside the PNG (`--sheet-format`); it sets the data
    /// file's name (`NAME.json`, `NAME.tres`, `NAME.css`). Ignored by the other kinds.
    public var sheetData: SheetDataFormat

    /// A target; see the properties.
    public init(
        kind: OutputFormatKind, path: FilePath, written: Bool = true,
        sheetData: SheetDataFormat = .defaultFormat
    ) {
        self.kind = kind
        self.path = path
        self.written = written
        self.sheetData = sheetData
    }

    /// Every file the target writes for a loop of `frameCount` frames with the default
    /// settings, in commit order.
    public func paths(frameCount: Int) -> [FilePath] { kind.format.paths(of: self, frameCount: frameCount) }

    /// Every file the target may write for `plan`'s frames of `width`×`height` px with `settings`.
    public func paths(plan: LoopPlan, width: Int, height: Int, settings: ExportSettings) -> [FilePath] {
        kind.format.paths(of: self, plan: plan, width: width, height: height, settings: settings)
    }
}

/// One file's bytes, made before anything is written.
public struct OutputFile: Equatable, Sendable {
    /// Where it goes.
    public var path: FilePath
    /// Its contents.
    public var bytes: [UInt8]
    /// True for a file that describes an earlier file of the same target (a sheet's JSON, which
    /// names its PNG): it is removed before the files it describes are replaced and put in place
    /// after them, so a reader never sees it beside a file from another run.
    public var describesEarlier: Bool

    /// A file; see the properties.
    public init(path: FilePath, bytes: [UInt8], describesEarlier: Bool = false) {
        self.path = path
        self.bytes = bytes
        self.describesEarlier = describesEarlier
    }
}

/// Where a format's files go as they are made: staged for an atomic commit, compared with the
/// files on disk, or kept in memory. Formats hand files over one at a time, so a long loop of
/// PNG frames never sits in memory at once.
public protocol OutputSink: AnyObject, Sendable {
    /// Takes one finished file.
    /// - Throws: `WriteError` when it cannot be staged.
    func put(_ file: OutputFile) throws
}

/// Every option a format's encoder reads; one value serves all formats of a job.
public struct ExportSettings: Equatable, Sendable {
    /// GIF looping, matte, dithering, tolerance and threads (`workers` is set per job).
    public var gif = GIFOptions()
    /// How often APNG and WebP play (GIF's is `gif.loop`; the command line sets both).
    public var loop: LoopCount = .forever
    /// APNG and WebP compression effort.
    public var effort: EncodeEffort = .standard
    /// Lossy WebP quality 0…100, or nil for lossless WebP.
    public var webpQuality: Int?
    /// Sprite-sheet layout: columns (nil = about square), padding and extrusion in pixels,
    /// trimming, layout kind, and the palette limit of the sheet PNG (nil = RGBA).
    public var columns: Int?
    /// Transparent pixels between sheet cells and along the border, ≥ 0.
    public var padding = 0
    /// Pixels repeating each sheet cell's edge, 0…`SpriteSheetBuilder.maximumExtrude`.
    public var extrude = 0
    /// Cut each sheet cell to its frame's non-transparent box.
    public var trim = false
    /// Grid, one row, one column or packed.
    public var layout: SheetLayout = .grid
    /// Largest sheet page side, pixels (`--max-size`, 1…16384, default 4096); more pages when
    /// the frames do not fit one.
    public var maxSize = 4096
    /// Round sheet page sides up to powers of two (`--pot`).
    public var powerOfTwo = false
    /// Let identical frames share one sheet cell (`--merge-duplicates`).
    public var mergeDuplicates = false
    /// Colours of a palette sheet PNG (nil = RGBA).
    public var sheetColors: Int?
    /// The sheet data's frame-name template (`--frame-name`, Aseprite's `--filename-format`
    /// fields, see `SheetData.frameNames`); nil = the data format's default.
    public var frameNameTemplate: String?
    /// The tool version written into sheet metadata.
    public var version = Exporter.version

    /// The defaults (GIF forever, lossless, grid sheet).
    public init() {}
}

/// How hard APNG and WebP encoders work for size.
public enum EncodeEffort: String, Equatable, Sendable, CaseIterable {
    /// Fast, and as small as the peers' defaults.
    case standard
    /// Slowest and smallest (`--effort max`).
    case max
}

/// A warning about one file: an output, or the preset it came from.
public struct FileWarning: Equatable, Sendable, CustomStringConvertible {
    /// The file as the user named it (or as the tool derived it from the names given).
    public var file: String
    /// One sentence without the `warning: ` prefix or a final full stop; it may start with the
    /// preset's JSON path (`$.layers[0]: …`).
    public var message: String

    /// A warning about `file`.
    public init(file: String, message: String) {
        self.file = file
        self.message = message
    }

    /// `FILE: MESSAGE`, as `--report` and `--preview` list it.
    public var description: String { "\(file): \(message)" }
}

/// What encoding one target produced, beyond its files.
public struct FormatProduct: Sendable {
    /// The target it was made for.
    public var target: OutputTarget
    /// Bytes of every file, in order.
    public var byteCount = 0
    /// Facts for the summary line after the common ones (`34 colours`, `640×480 sheet + x.json`).
    public var facts: String = ""
    /// Warnings, each with the file it is about (the CLI prints `FILE: warning: MESSAGE`).
    public var warnings: [FileWarning] = []
    /// How the file is timed, when the target is animated.
    public var timing: TimingReport?
    /// The main file's bytes, kept for `--preview` (nil unless asked for).
    public var previewBytes: [UInt8]?
    /// The sheet's size, grid and frame rectangles, for `--preview`.
    public var sheet: SheetSummary?

    /// An empty product for `target`.
    public init(target: OutputTarget) { self.target = target }
}

/// What a format's encoder is given besides its frames.
public struct EncodeContext: Sendable {
    /// The composition the frames show (name and description for metadata).
    public var composition: Composition
    /// The frames' loop plan (the format's own, from `framePlan`).
    public var plan: LoopPlan
    /// Pixels per point.
    public var scale: Double
    /// Every format option.
    public var settings: ExportSettings
    /// Threads the encoder may use, ≥ 1.
    public var workers: Int
    /// Keep the main file's bytes in the product (for `--preview`).
    public var keepBytes: Bool

    /// A context; see the properties.
    public init(
        composition: Composition, plan: LoopPlan, scale: Double, settings: ExportSettings, workers: Int,
        keepBytes: Bool
    ) {
        self.composition = composition
        self.plan = plan
        self.scale = scale
        self.settings = settings
        self.workers = max(1, workers)
        self.keepBytes = keepBytes
    }
}

/// One output format: its file names, which frames it needs, what it checks before any rendering,
/// and its encoder. The CLI plans, checks and writes every format through this protocol alone
/// (`docs/architecture.md`, "Adding an output format").
public protocol OutputFormat: Sendable {
    /// Which format this is.
    var kind: OutputFormatKind { get }
    /// Extensions, lower case without the dot, that `-o NAME.EXT` picks this format by; the
    /// first is the one folder outputs get. Empty for formats only a folder or option asks for.
    var fileExtensions: [String] { get }
    /// What the format makes, in a few words for messages (`animated GIF`).
    var title: String { get }
    /// The main file's media type (`image/gif`), for `data:` URIs and `<picture>` sources.
    var mediaType: String { get }
    /// The target in folder `directory` for the file stem `stem` (`NAME-size-24@2x`).
    func target(directory: FilePath, stem: String) -> OutputTarget
    /// Every file `target` writes for a loop of `frameCount` frames, in commit order.
    func paths(of target: OutputTarget, frameCount: Int) -> [FilePath]
    /// Every file `target` may write for `plan`'s frames of `width`×`height` pixels with
    /// `settings` (a sheet's page count depends on them), in commit order.
    func paths(of target: OutputTarget, plan: LoopPlan, width: Int, height: Int, settings: ExportSettings)
        -> [FilePath]
    /// The frames this format encodes when `plan` was asked for: the same plan, or one with
    /// fewer frames where the format cannot play them (GIF above 50 fps).
    /// - Parameter duration: the period override the plan was made with, seconds, or nil.
    /// - Throws: `LoopPlanError` as `LoopPlan.make` does.
    func framePlan(for plan: LoopPlan, of composition: Composition, duration: Double?) throws(LoopPlanError)
        -> LoopPlan
    /// Problems found before rendering that stop the export (a sheet too large for PNG), each a
    /// sentence naming the option to change; empty when the target can be made.
    /// - Parameters:
    ///   - plan: this format's plan (from `framePlan`).
    ///   - width: frame width in pixels.
    ///   - height: frame height in pixels.
    func preflight(plan: LoopPlan, width: Int, height: Int, settings: ExportSettings) -> [String]
    /// False for a format that writes no pixels (Lottie): its `encode` never reads the frames.
    var readsFrames: Bool { get }
    /// True when `encode` with `settings` asks for every frame exactly once, in order, so a
    /// frame it has read is not needed again: the exporter then lets the last such reader of a
    /// cached loop drop each frame as it goes (`RenderedFrames.releaseFramesAfterReading`).
    /// Only memory depends on it (a frame asked for again is rendered again), never the bytes.
    func readsFramesOnce(settings: ExportSettings) -> Bool
    /// Encodes the frames and hands every file to `sink`.
    /// - Throws: `EncodeError`, `RenderError` or the sink's `WriteError`.
    func encode(_ frames: any FrameSource, target: OutputTarget, context: EncodeContext, sink: any OutputSink)
        throws -> FormatProduct
}

extension OutputFormat {
    /// `directory/stem.EXT` with the first extension.
    public func target(directory: FilePath, stem: String) -> OutputTarget {
        OutputTarget(kind: kind, path: directory.appending("\(stem).\(fileExtensions.first ?? kind.rawValue)"))
    }

    /// The main file alone.
    public func paths(of target: OutputTarget, frameCount: Int) -> [FilePath] { [target.path] }

    /// `paths(of:frameCount:)`: the files do not depend on the settings.
    public func paths(
        of target: OutputTarget, plan: LoopPlan, width: Int, height: Int, settings: ExportSettings
    ) -> [FilePath] {
        paths(of: target, frameCount: plan.frameCount)
    }

    /// The requested plan unchanged.
    public func framePlan(for plan: LoopPlan, of composition: Composition, duration: Double?) throws(LoopPlanError)
        -> LoopPlan
    { plan }

    /// True: the format encodes the rendered frames.
    public var readsFrames: Bool { true }

    /// False: the format may read a frame more than once (GIF's three passes).
    public func readsFramesOnce(settings: ExportSettings) -> Bool { false }

    /// `image/png`: every PNG-based format but APNG.
    public var mediaType: String { "image/png" }

    /// Nothing to refuse.
    public func preflight(plan: LoopPlan, width: Int, height: Int, settings: ExportSettings) -> [String] { [] }
}

/// A one-page sprite sheet's layout without its pixels.
public struct SheetSummary: Equatable, Sendable {
    /// Sheet width in pixels.
    public var width: Int
    /// Sheet height in pixels.
    public var height: Int
    /// Cells per row (0 for a packed sheet).
    public var columns: Int
    /// Rows of cells (0 for a packed sheet).
    public var rows: Int
    /// One record per frame, in frame order.
    public var frames: [SheetFrame]

    /// The layout of `sheet`'s first page.
    public init(_ sheet: SpriteSheet) { self.init(sheet.layout) }

    /// The first page of `layout` (0×0 when it has none).
    public init(_ layout: SheetLayoutResult) {
        width = layout.pages.first?.width ?? 0
        height = layout.pages.first?.height ?? 0
        columns = layout.columns
        rows = layout.rows
        frames = layout.frames
    }
}
