// SPDX-License-Identifier: GPL-3.0-or-later

import Export
import Foundation
import OutputFiles
import Spec

#if canImport(Glibc)
    import Glibc
#endif

/// Tells the files this tool writes from other files, so that a run never replaces a file it
/// did not write unless `--force` is given (`docs/cli.md`, "Files the tool did not write").
///
/// What counts as ours, by the target's extension:
/// - `.json`: a JSON object whose `meta.app` is `"animexport"` (every sheet data format: Aseprite,
///   TexturePacker, Phaser multi-atlas, PixiJS) or whose `tool` is `"animexport"` (`--report`);
/// - `.css`: the sheet stylesheet, whose first comment names `animexport`;
/// - `.tres`: a Godot `SpriteFrames` resource (the format has no field for the writing tool, so
///   any `SpriteFrames` resource counts);
/// - `.html`/`.htm`: a `--preview` page (its `<title>` ends in `— animexport preview`);
/// - `.gif`, `.png`, `.apng`, `.webp` (outputs, sheet pages, `--frames` PNGs): a file that a job
///   manifest (`.FIRST.animexport.json`) in the folder of one of the run's targets lists with
///   the same size and SHA-256 (under any name) or under its file name (so an output edited
///   since is still ours and a re-run restores it), or that an interrupted run of this tool was
///   replacing (its staged `.NAME.axPID-XXXXXX` is still beside it). The manifest's HMAC is
///   not checked: ownership is not security, so a manifest made under another user's or machine's key (outputs committed with
///   their manifests and checked out on a CI runner) still counts. The encoders write no mark of
///   the tool into the images (a mark would grow GIF and WebP files), so an image that no
///   manifest lists is foreign, even one this tool wrote once, until `--force` replaces it.
///   When the run has no usable manifest key (no manifest is ever written), an image of the
///   same format is taken for ours, as no record of it can exist.
enum OwnFiles {
    /// Bytes read from an image or HTML file to recognise it.
    static let headLength = 4096
    /// Largest JSON file parsed to look for `meta.app` (a 72 000-frame sheet's data is ~15 MB).
    static let jsonLimit = 256 << 20

    /// Largest manifest parsed (one lists a job's files; 72 000 frame PNGs take ~10 MB).
    static let manifestLimit = 64 << 20
    /// Most manifests read in one folder, so a huge folder cannot hold a run up without bound.
    static let manifestsPerFolder = 100_000

    /// What the job manifests in `folders` say this tool wrote: every listed output as
    /// `SIZE\0SHA256HEX` (`hashes`; a manifest made under any key, and a staged manifest an
    /// interrupted run left, `..FIRST.animexport.json.axPID-XXXXXX`, count), the file names
    /// they list (`names`: a file of ours edited since is still ours), and the names that
    /// an interrupted run of this tool was replacing (`staged`: a leftover `.NAME.axPID-XXXXXX`
    /// beside them). Unreadable or malformed manifests are skipped; the HMAC is not checked.
    static func records(in folders: [FilePath]) -> (hashes: Set<String>, names: Set<FilePath>, staged: Set<FilePath>) {
        var hashes = Set<String>()
        var listedNames = Set<FilePath>()
        var staged = Set<FilePath>()
        var seen = Set<FilePath>()
        let suffix = Array(Manifest.suffix.utf8)
        for folder in folders where seen.insert(folder).inserted {
            guard let names = try? folder.entries() else { continue }
            var read = 0
            for name in names where name.bytes.first == UInt8(ascii: ".") {
                let bytes = name.bytes
                let stagedName = stagedOriginal(bytes)
                if let original = stagedName { staged.insert(folder.appending(FilePath(bytes: original))) }
                let candidate = stagedName ?? bytes
                guard candidate.count > suffix.count, Array(candidate.suffix(suffix.count)) == suffix,
                    read < manifestsPerFolder
                else { continue }
                read += 1
                let path = folder.appending(name)
                guard path.kind == .regular, let text = try? path.read(limit: manifestLimit),
                    let object = (try? JSONParser.parse(bytes: text))?.objectValue,
                    object[Manifest.marker] != nil, let outputs = object["outputs"]?.arrayValue
                else { continue }
                // `kept`: earlier outputs a run with fewer targets left listed (`Manifest.kept`).
                for output in outputs + (object["kept"]?.arrayValue ?? []) {
                    guard let entry = output.objectValue else { continue }
                    if let file = entry["path"]?.stringValue { listedNames.insert(FilePath(file).lastComponent) }
                    if let size = entry["bytes"]?.numberValue, let digest = entry["sha256"]?.stringValue {
                        hashes.insert(key(size: size, hex: digest))
                    }
                }
            }
        }
        return (hashes, listedNames, staged)
    }

    /// For a staged file's name `.NAME.axPID-XXXXXX` (`OutputStaging`), NAME; else nil.
    private static func stagedOriginal(_ name: [UInt8]) -> [UInt8]? {
        let marker = Array(".ax".utf8)
        guard name.count > 1 + marker.count, name.first == UInt8(ascii: ".") else { return nil }
        var i = name.count - marker.count
        while i > 1 {
            if Array(name[i..<i + marker.count]) == marker {
                let tail = name[(i + marker.count)...]
                let parts = tail.split(separator: UInt8(ascii: "-"), omittingEmptySubsequences: false)
                guard parts.count == 2, !parts[0].isEmpty, parts[0].allSatisfy({ $0 >= 48 && $0 <= 57 }),
                    !parts[1].isEmpty
                else { return nil }
                return Array(name[1..<i])
            }
            i -= 1
        }
        return nil
    }

    private static func key(size: Double, hex: String) -> String { formatNumber(size) + "\u{0}" + hex.lowercased() }

    /// Whether the image at `path` is one that `records` (`records(in:)`) vouch for: its size and
    /// SHA-256 are listed, a manifest lists a file of its name, or an interrupted run of this
    /// tool was replacing it.
    static func isRecorded(
        _ path: FilePath, in records: (hashes: Set<String>, names: Set<FilePath>, staged: Set<FilePath>)
    ) -> Bool {
        if records.names.contains(path.lastComponent) { return true }
        if records.staged.contains(path.directory.appending(path.lastComponent)) { return true }
        guard let (digest, size) = try? Digest.sha256(file: path) else { return false }
        return records.hashes.contains(key(size: Double(size), hex: Digest.hex(digest)))
    }

    /// Whether the extension is one of the image formats recognised through manifests.
    static func isImage(_ path: FilePath) -> Bool {
        ["gif", "png", "apng", "webp"].contains(path.pathExtension.lowercased())
    }

    /// Whether `path`, an existing regular file, is one this tool writes for the same extension.
    static func isOurs(_ path: FilePath) -> Bool {
        switch path.pathExtension.lowercased() {
        case "json":
            guard let bytes = try? path.read(limit: jsonLimit), let value = try? JSONParser.parse(bytes: bytes),
                let object = value.objectValue
            else { return false }
            return isOwnJSON(object)
        case "css":
            return head(path).map { starts($0, "/* ") && contains($0.prefix(1024), "(animexport ") } ?? false
        case "tres":
            return head(path).map { starts($0, "[gd_resource type=\"SpriteFrames\"") } ?? false
        case "html", "htm":
            return head(path).map { contains($0, "— animexport preview</title>") } ?? false
        case "gif":
            return head(path).map { starts($0, "GIF89a") || starts($0, "GIF87a") } ?? false
        case "png", "apng":
            return head(path).map { $0.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) } ?? false
        case "webp":
            return head(path).map { starts($0, "RIFF") && $0.count >= 12 && Array($0[8..<12]) == Array("WEBP".utf8) }
                ?? false
        default:
            return false
        }
    }

    /// A sheet data file (`meta.app`) or a report (`tool`) written by this tool.
    static func isOwnJSON(_ object: JSONObject) -> Bool {
        if object["tool"]?.stringValue == "animexport" { return true }
        // A Lottie export names its generator in `meta.g` (`animexport 0.1.0`).
        if object["meta"]?.objectValue?["g"]?.stringValue?.hasPrefix("animexport") == true { return true }
        return object["meta"]?.objectValue?["app"]?.stringValue == "animexport"
    }

    /// The files among `paths` that exist, are not folders, and were not written by this tool:
    /// what a run without `--force` must not replace. Each path is looked at once.
    /// - Parameter byManifest: whether images must be vouched for by a manifest (`records` of
    ///   the folders of `paths`) to count as ours; false when no manifest key is usable.
    static func foreign(_ paths: [FilePath], byManifest: Bool = true) -> [FilePath] {
        var seen = Set<FilePath>()
        var found: [FilePath] = []
        var recorded: (hashes: Set<String>, names: Set<FilePath>, staged: Set<FilePath>)?
        for path in paths where seen.insert(path).inserted {
            let kind = path.kind
            guard kind != .none, kind != .directory else { continue }
            guard kind == .regular, isOurs(path) else {
                found.append(path)
                continue
            }
            if byManifest, isImage(path) {
                if recorded == nil { recorded = records(in: paths.map(\.directory)) }
                if !isRecorded(path, in: recorded ?? ([], [], [])) { found.append(path) }
            }
        }
        return found
    }

    /// The message for a file that `--force` is needed to replace.
    static func refusal(_ path: FilePath) -> String {
        let why =
            isImage(path) && isOurs(path) ? "no animexport manifest beside it lists these bytes" : expectation(path)
        return
            "\(path) exists and was not written by animexport (\(why)); give --force to replace it, or write to another name or folder"
    }

    /// What this tool's own file of that kind would have shown.
    private static func expectation(_ path: FilePath) -> String {
        switch path.pathExtension.lowercased() {
        case "json": "no \"meta\": {\"app\": \"animexport\"} or \"tool\": \"animexport\" in it"
        case "css": "no animexport comment at its start"
        case "tres": "not a Godot SpriteFrames resource"
        case "html", "htm": "not an animexport preview page"
        case "gif": "not a GIF"
        case "png", "apng": "not a PNG"
        case "webp": "not a WebP"
        default: "not a file it writes"
        }
    }

    /// The first `headLength` bytes of the file (fewer when it is shorter), by its name's bytes.
    private static func head(_ path: FilePath) -> [UInt8]? {
        let fd = path.withCString { open($0, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: headLength)
        var count = 0
        while count < headLength {
            let n = buffer.withUnsafeMutableBytes { raw in
                Glibc.read(fd, raw.baseAddress.map { $0 + count }, headLength - count)
            }
            if n < 0, errno == EINTR { continue }
            if n <= 0 { break }
            count += n
        }
        return Array(buffer[..<count])
    }

    private static func starts(_ bytes: [UInt8], _ text: String) -> Bool { bytes.starts(with: Array(text.utf8)) }

    private static func contains(_ bytes: some Collection<UInt8>, _ text: String) -> Bool {
        let needle = Array(text.utf8)
        let hay = Array(bytes)
        guard hay.count >= needle.count else { return false }
        for i in 0...(hay.count - needle.count) where hay[i] == needle[0] && Array(hay[i..<i + needle.count]) == needle
        {
            return true
        }
        return false
    }
}
