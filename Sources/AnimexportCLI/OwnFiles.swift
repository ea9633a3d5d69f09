// SPDX-License-Identifier: GPL-3.0-or-later

import Export
import Foundation
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
/// - `.gif`, `.png`, `.apng`, `.webp`: a file of that image format (GIF87a/GIF89a header, the PNG
///   signature, a RIFF `WEBP` header). These encoders write no mark of the tool into the file, so
///   another program's image of the same format is taken for ours and replaced.
enum OwnFiles {
    /// Bytes read from an image or HTML file to recognise it.
    static let headLength = 4096
    /// Largest JSON file parsed to look for `meta.app` (a 72 000-frame sheet's data is ~15 MB).
    static let jsonLimit = 256 << 20

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
    static func foreign(_ paths: [FilePath]) -> [FilePath] {
        var seen = Set<FilePath>()
        var found: [FilePath] = []
        for path in paths where seen.insert(path).inserted {
            let kind = path.kind
            guard kind != .none, kind != .directory else { continue }
            if kind != .regular || !isOurs(path) { found.append(path) }
        }
        return found
    }

    /// The message for a file that `--force` is needed to replace.
    static func refusal(_ path: FilePath) -> String {
        "\(path) exists and was not written by animexport (\(expectation(path))); give --force to replace it, or write to another name or folder"
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
