// SPDX-License-Identifier: GPL-3.0-or-later

import Encode
import Export
import Foundation
import OutputFiles
import Spec

/// The manifest of one job: a small JSON file beside the job's first output,
/// `DIR/.FIRST-OUTPUT-NAME.animexport.json` (hidden, so folder batches never take it for a
/// preset; its top-level `"animexportManifest": 1` marks it too), that records what the job's
/// files were made from and what they hold:
///
/// - `version`: the tool's version; `build`: the running executable's GNU build ID (`BuildIdentity`), so a
///   rebuilt binary re-renders even at the same version;
/// - `preset`: its path and SHA-256; `reads`: every file it uses (image layers: each string in
///   the preset naming an existing file, as `--watch` finds them), path and SHA-256. Fonts
///   resolved through fontconfig are not hashed (`docs/cli.md`, Incremental runs);
/// - `options`: the SHA-256 of every setting that can change the bytes (the job's targets,
///   frame plans, scale, `--set` values and format settings, and every other command-line
///   option except `-o`, `--jobs`, `--quiet`, `--watch`, `--report`, `--preview` (and the
///   preview-only targets it adds), `--force`, `--shard`, `--exclude` and how the presets were
///   named (a folder or its files), which do not);
/// - `outputs`: every file, sorted by path, with its size in bytes and SHA-256;
/// - `kept` (only when not empty): files an earlier run with more targets wrote under this
///   manifest that this run did not touch, still on disk with these sizes and SHA-256s
///   (`Manifest.kept`), so the tool still knows them as its own;
/// - `hmac`: HMAC-SHA-256 (RFC 2104) of the document without this member, under the per-user
///   `ManifestKey`.
///
/// A job is up to date when its manifest's bytes equal, exactly, the manifest this run would
/// write for the current inputs and the files now on disk. A manifest another key made, an
/// edited one, one for other inputs or one whose outputs changed can therefore never pass.
enum Manifest {
    /// The top-level member that marks a manifest.
    static let marker = "animexportManifest"
    /// The manifest format's version (the marker's value).
    static let formatVersion = 1
    /// The file name's ending.
    static let suffix = ".animexport.json"

    /// Where `job`'s manifest lives, or nil for a job without files.
    static func path(of job: ExportJob) -> FilePath? {
        guard let first = job.paths.first else { return nil }
        return first.directory.appending(FilePath(bytes: [UInt8(ascii: ".")] + first.lastComponent.bytes) + suffix)
    }

    /// One file with its size and SHA-256.
    struct Entry: Equatable, Sendable {
        var path: FilePath
        var size: Int
        var digest: [UInt8]
    }

    /// What a job was made from.
    struct Inputs: Equatable, Sendable {
        var preset: Entry
        var reads: [Entry]
        /// SHA-256 of `Manifest.optionText`.
        var options: [UInt8]
    }

    /// The document without `hmac` (RFC 8259 JSON, `JSONText`'s layout).
    /// - Parameter kept: `kept`, files an earlier run of this manifest wrote that this run did
    ///   not touch (see `kept(from:job:excluding:)`); the member is left out when empty, so a
    ///   manifest without such files is as before.
    static func body(job: ExportJob, build: String, inputs: Inputs, outputs: [Entry], kept: [Entry] = []) -> JSONText {
        func file(_ e: Entry, size: Bool) -> JSONText {
            var members = [JSONText.Member(key: "path", value: .string(spelling(of: e.path)))]
            if size { members.append(JSONText.Member(key: "bytes", value: .integer(e.size))) }
            members.append(JSONText.Member(key: "sha256", value: .string(Digest.hex(e.digest))))
            return .object(members)
        }
        var members: [JSONText.Member] = [
            JSONText.Member(key: marker, value: .integer(formatVersion)),
            JSONText.Member(key: "version", value: .string(Exporter.version)),
            JSONText.Member(key: "build", value: .string(build)),
            JSONText.Member(key: "job", value: .string(job.stem)),
            JSONText.Member(key: "preset", value: file(inputs.preset, size: false)),
            JSONText.Member(key: "reads", value: .array(inputs.reads.map { file($0, size: false) })),
            JSONText.Member(key: "options", value: .string(Digest.hex(inputs.options))),
            JSONText.Member(key: "outputs", value: .array(outputs.map { file($0, size: true) })),
        ]
        if !kept.isEmpty {
            members.append(JSONText.Member(key: "kept", value: .array(kept.map { file($0, size: true) })))
        }
        return .object(members)
    }

    /// The files a stored manifest (`stored`, the bytes of the manifest at `Manifest.path(of:)`)
    /// lists, in `outputs` or `kept`, that `job` does not write and that are still on disk with
    /// the recorded size and SHA-256, sorted by path: what a run with fewer targets (`-o`,
    /// `--format`) keeps listed, so the tool still knows them as its own (`OwnFiles`). A file
    /// gone or changed since is dropped, and so are the paths in `excluding` (stale frames this
    /// run removes). A listed path is taken as spelled (`spelling(of:)`): relative to the
    /// current folder, so a run from another folder drops the relative ones. Unparsable
    /// manifests keep nothing. A kept file is no part of the job: `check` and the incremental
    /// skip compare only the job's own files, and a job that writes a kept file again lists it
    /// in `outputs` (its manifest then differs from the stored one, so it is rendered).
    static func kept(from stored: [UInt8], job: ExportJob, excluding: Set<FilePath> = []) -> [Entry] {
        guard let object = (try? JSONParser.parse(bytes: stored))?.objectValue, object[marker] != nil else { return [] }
        let skipped = Set(job.paths.map { spelling(of: $0) } + excluding.map { spelling(of: $0) })
        var seen = Set<String>()
        var kept: [Entry] = []
        for member in ["outputs", "kept"] {
            for item in object[member]?.arrayValue ?? [] {
                guard let entry = item.objectValue, let name = entry["path"]?.stringValue,
                    let bytes = entry["bytes"]?.numberValue, let hex = entry["sha256"]?.stringValue,
                    !skipped.contains(name), seen.insert(name).inserted
                else { continue }
                let path = FilePath(name)
                guard path.kind == .regular, let d = try? Digest.sha256(file: path), Double(d.size) == bytes,
                    Digest.hex(d.digest) == hex.lowercased()
                else { continue }
                kept.append(Entry(path: path, size: d.size, digest: d.digest))
            }
        }
        return kept.sorted { $0.path < $1.path }
    }

    /// How a manifest names a file: one spelling per file, whatever the command line wrote, so
    /// that `check ./presets/p.json`, `check /abs/presets/p.json` and a batch run on `presets/`
    /// agree about the same job (the path as typed made each a "manifest stale"). It is the
    /// canonical name (`FilePath.canonical`: absolute, links resolved), relative to the current
    /// folder when inside it, which for the usual `presets/p.json` is the name as typed.
    static func spelling(of path: FilePath) -> String {
        let full = path.canonical.bytes
        let base = currentFolder.bytes + [UInt8(ascii: "/")]
        if full.count > base.count, full.starts(with: base) {
            return FilePath(bytes: full.dropFirst(base.count)).description
        }
        return FilePath(bytes: full).description
    }

    /// The current folder, canonical, read once (the tool never changes it).
    private static let currentFolder: FilePath = FilePath(".").canonical

    /// The whole manifest: `body` with its `hmac` member last.
    static func document(_ body: JSONText, key: [UInt8]) throws(Digest.Failure) -> [UInt8] {
        guard case .object(var members) = body else { return [] }
        let mac = try Digest.hmacSHA256(key: key, Array(body.rendered().utf8))
        members.append(JSONText.Member(key: "hmac", value: .string(Digest.hex(mac))))
        return Array(JSONText.object(members).rendered().utf8)
    }

    /// Whether a stored manifest verifies under `key`: its `hmac` member (the last) is the
    /// HMAC of the rest of the document.
    static func isAuthentic(_ stored: [UInt8], key: [UInt8]) -> Bool {
        let marker = Array(",\n  \"hmac\": \"".utf8)
        let tail = Array("\"\n}\n".utf8)
        let hexLength = 64
        guard stored.count > marker.count + hexLength + tail.count,
            stored.suffix(tail.count).elementsEqual(tail)
        else { return false }
        let start = stored.count - tail.count - hexLength - marker.count
        guard stored[start..<(start + marker.count)].elementsEqual(marker) else { return false }
        let body = Array(stored[..<start]) + Array("\n}\n".utf8)
        let mac = Array(stored[(start + marker.count)..<(stored.count - tail.count)])
        guard let expected = try? Digest.hmacSHA256(key: key, body) else { return false }
        return Array(Digest.hex(expected).utf8) == mac
    }

    /// The text hashed into `options`: every setting of `job` and `options` that can change
    /// the job's bytes, in a fixed order (Swift's `String(reflecting:)` of value types; the
    /// one dictionary, the `--set` overrides, sorted first).
    static func optionText(job: ExportJob, options: Options) -> String {
        var shared = options
        // Covered per job below (scale, variant, targets), or not affecting bytes.
        shared.command = .export
        shared.presets = []
        shared.outputs = []
        shared.scales = []
        shared.settings = []
        shared.jobs = nil
        shared.quiet = false
        shared.watch = false
        shared.previewPath = nil
        shared.reportPath = nil
        shared.force = false
        shared.shard = nil
        // Which folder entries are presets decides which jobs exist, not any job's bytes.
        shared.excludes = []
        // `--format` decides the job's targets, hashed below: `--format gif,sheet` and the
        // default that means the same are the same job (make demo then check found every
        // manifest "options differ").
        shared.formats = nil
        var settings = job.request.settings
        settings.gif.workers = nil
        // The preview-only targets (`OutputTarget.written` false) are made in memory for
        // `--preview` and never written: they are no part of the job's files.
        let written = zip(job.request.targets, job.framePlans).filter { $0.0.written }
        let overrides = job.variant.overrides.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        return [
            "stem: \(job.stem)", "scale: \(job.scale)", "set: \(overrides)",
            "duration: \(String(describing: job.request.duration))",
            "still: \(String(describing: job.request.stillTime))",
            "targets: \(String(reflecting: written.map(\.0)))",
            "plans: \(String(reflecting: written.map(\.1)))",
            "settings: \(String(reflecting: settings))",
            "options: \(String(reflecting: shared))",
        ].joined(separator: "\n")
    }
}

/// What one run needs to read and write manifests: the key, the executable's digest, and the
/// digests of presets and the files they read, each computed once per run (a preset at three
/// scales is hashed once).
final class ManifestRun: @unchecked Sendable {
    /// Why a job was rendered although manifests are in use.
    enum Verdict: Equatable, Sendable {
        case upToDate
        case missing
        case notTrusted
        case otherVersion
        case stale
        /// The manifest is for these files and inputs but other options (`optionText`).
        case optionsDiffer
        /// No key, or the inputs or outputs could not be hashed: render.
        case unavailable

        /// For `check`'s note: why the job was rendered.
        var reason: String {
            switch self {
            case .upToDate: "up to date"
            case .missing: "no manifest"
            case .notTrusted: "manifest not trusted (made under another key)"
            case .otherVersion: "manifest from another animexport build"
            case .stale: "manifest stale"
            case .optionsDiffer: "options differ"
            case .unavailable: "manifest unusable"
            }
        }
    }

    let options: Options
    /// Whether jobs may be answered from their manifests (false for `--force`, `--watch`,
    /// `--report` and `--preview`, which need every job's products).
    let skipping: Bool
    private let lock = NSLock()
    private var inputCache: [FilePath: (preset: Manifest.Entry, reads: [Manifest.Entry])?] = [:]

    /// The running build's identity (`BuildIdentity`), once per process; nil when unreadable.
    static let build: String? = BuildIdentity.current

    init(options: Options) {
        self.options = options
        skipping = !options.force && !options.watch && options.previewPath == nil && options.reportPath == nil
    }

    /// The key, when usable.
    var key: [UInt8]? {
        if case .key(let k) = ManifestKey.current { return k }
        return nil
    }

    /// The preset's and its files' digests (cached per preset path).
    private func presetInputs(_ path: FilePath) -> (preset: Manifest.Entry, reads: [Manifest.Entry])? {
        lock.lock()
        if let cached = inputCache[path] {
            lock.unlock()
            return cached
        }
        lock.unlock()
        var result: (preset: Manifest.Entry, reads: [Manifest.Entry])?
        if let preset = try? Digest.sha256(file: path), let files = FileStamp.referencedFiles(ofPreset: path) {
            var reads: [Manifest.Entry] = []
            for file in files {
                guard let d = try? Digest.sha256(file: file) else {
                    reads = []
                    break
                }
                reads.append(Manifest.Entry(path: file, size: d.size, digest: d.digest))
            }
            if reads.count == files.count {
                result = (Manifest.Entry(path: path, size: preset.size, digest: preset.digest), reads)
            }
        }
        lock.lock()
        inputCache[path] = result
        lock.unlock()
        return result
    }

    /// What `job` is made from now, or nil when something cannot be read (the render reports it).
    func inputs(of job: ExportJob) -> Manifest.Inputs? {
        guard let files = presetInputs(job.presetPath),
            let options = try? Digest.sha256(Array(Manifest.optionText(job: job, options: self.options).utf8))
        else { return nil }
        return Manifest.Inputs(preset: files.preset, reads: files.reads, options: options)
    }

    /// Whether `job`'s files on disk are what its manifest vouches for (see `Manifest`).
    func verdict(for job: ExportJob) -> Verdict {
        guard let key, let build = Self.build, let path = Manifest.path(of: job) else { return .unavailable }
        guard let stored = try? path.read(limit: 1 << 24) else { return .missing }
        guard Manifest.isAuthentic(stored, key: key) else { return .notTrusted }
        let versionLine = Array("\n  \"version\": \(JSONText.string(Exporter.version).rendered().dropLast()),\n".utf8)
        let buildLine = Array("\n  \"build\": \"\(build)\",\n".utf8)
        guard contains(stored, versionLine), contains(stored, buildLine) else { return .otherVersion }
        guard let inputs = inputs(of: job) else { return .unavailable }
        var outputs: [Manifest.Entry] = []
        for file in job.paths.sorted() {
            guard let d = try? Digest.sha256(file: file) else { return .stale }
            outputs.append(Manifest.Entry(path: file, size: d.size, digest: d.digest))
        }
        let kept = Manifest.kept(from: stored, job: job)
        let body = Manifest.body(job: job, build: build, inputs: inputs, outputs: outputs, kept: kept)
        guard let expected = try? Manifest.document(body, key: key) else { return .unavailable }
        if expected == stored { return .upToDate }
        let optionsLine = Array("\n  \"options\": \"\(Digest.hex(inputs.options))\",\n".utf8)
        return contains(stored, optionsLine) ? .stale : .optionsDiffer
    }

    /// The manifest for `job` whose files were `outputs` (as staged), or nil when no manifest
    /// can vouch for them (no key, an input unreadable, or files other than the job's planned
    /// ones). The manifest already at its path (read now, before the commit removes it) passes
    /// on its other files still on disk as they were (`Manifest.kept`), except `removing`.
    func manifest(for job: ExportJob, outputs: [Manifest.Entry], removing: Set<FilePath> = []) -> OutputFile? {
        guard let key, let build = Self.build, let path = Manifest.path(of: job),
            let inputs = inputs(of: job)
        else { return nil }
        let sorted = outputs.sorted { $0.path < $1.path }
        guard sorted.map(\.path) == job.paths.sorted() else { return nil }
        let kept =
            (try? path.read(limit: OwnFiles.manifestLimit)).map {
                Manifest.kept(from: $0, job: job, excluding: removing)
            } ?? []
        let body = Manifest.body(job: job, build: build, inputs: inputs, outputs: sorted, kept: kept)
        guard let bytes = try? Manifest.document(body, key: key) else { return nil }
        // Committed last; the old manifest is removed before any output is renamed, so no kill
        // leaves it beside files of this run.
        return OutputFile(path: path, bytes: bytes, describesEarlier: true)
    }

    private func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard needle.count <= haystack.count else { return false }
        var i = 0
        while i + needle.count <= haystack.count {
            if haystack[i] == needle[0], haystack[i..<(i + needle.count)].elementsEqual(needle) { return true }
            i += 1
        }
        return false
    }
}

/// Passes files on to a sink and records each one's size and SHA-256 for the job's manifest.
final class RecordingSink: OutputSink, @unchecked Sendable {
    private let inner: any OutputSink
    private let lock = NSLock()
    private var recorded: [Manifest.Entry] = []
    private var failed = false

    init(_ inner: any OutputSink) { self.inner = inner }

    func put(_ file: OutputFile) throws {
        try inner.put(file)
        let digest = try? Digest.sha256(file.bytes)
        lock.lock()
        defer { lock.unlock() }
        if let digest {
            recorded.append(Manifest.Entry(path: file.path, size: file.bytes.count, digest: digest))
        } else {
            failed = true
        }
    }

    /// Every file handed over, or nil when one could not be hashed.
    var entries: [Manifest.Entry]? {
        lock.lock()
        defer { lock.unlock() }
        return failed ? nil : recorded
    }
}
