import Foundation
import Testing

/// The package's root directory, found from this file's path.
let packageRoot: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<3 { url.deleteLastPathComponent() }
    return url.path
}()

/// What one run of the real `animexport` binary did.
struct ToolRun {
    var status: Int32
    /// Standard output as raw bytes (for programs that write images).
    var output: Data
    var stderr: String

    /// Standard output as text, decoded on demand: decoding megabytes of binary frames as UTF-8
    /// would cost a debug build seconds for nothing.
    var stdout: String { String(decoding: output, as: UTF8.self) }

    init(status: Int32, output: Data, stderr: String) {
        self.status = status
        self.output = output
        self.stderr = stderr
    }

    init(status: Int32, stdout: String, stderr: String) {
        self.init(status: status, output: Data(stdout.utf8), stderr: stderr)
    }
}

/// The built `animexport` binary: `$ANIMEXPORT_BIN`, or the one beside the test bundle (SwiftPM
/// builds every product into the same directory).
let toolPath: String = {
    if let path = ProcessInfo.processInfo.environment["ANIMEXPORT_BIN"] { return path }
    let bundleDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    let besideBundle = bundleDirectory.appendingPathComponent("animexport").path
    if FileManager.default.isExecutableFile(atPath: besideBundle) { return besideBundle }
    return packageRoot + "/.build/debug/animexport"
}()

/// `animexport-core` beside `toolPath`: the executable the front execs for everything but
/// `--version` and `--help`, the one that renders and whose build ID the manifests carry.
let corePath: String = {
    let url = URL(fileURLWithPath: toolPath).deletingLastPathComponent().appendingPathComponent("animexport-core")
    return url.path
}()

/// Runs the binary with `arguments` in `directory` and waits for it.
func runTool(_ arguments: [String], in directory: String, environment: [String: String] = [:]) throws -> ToolRun {
    var env = ProcessInfo.processInfo.environment
    for (k, v) in environment { env[k] = v }
    return try runProcess(toolPath, arguments, in: directory, environment: env)
}

/// Runs an executable and collects its exit status and output. Both streams go to temporary
/// files rather than pipes: no pipe can fill up and stall the child, and reading tens of
/// megabytes of decoded frames from a Foundation pipe on Linux took seconds per call.
func runProcess(
    _ executable: String, _ arguments: [String], in directory: String? = nil, environment: [String: String]? = nil
) throws -> ToolRun {
    let stem = NSTemporaryDirectory() + "animexport-run-" + UUID().uuidString
    let outPath = stem + ".out"
    let errPath = stem + ".err"
    _ = FileManager.default.createFile(atPath: outPath, contents: nil)
    _ = FileManager.default.createFile(atPath: errPath, contents: nil)
    defer {
        try? FileManager.default.removeItem(atPath: outPath)
        try? FileManager.default.removeItem(atPath: errPath)
    }
    let outHandle = try FileHandle(forWritingTo: URL(fileURLWithPath: outPath))
    let errHandle = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    if let environment { process.environment = environment }
    process.standardOutput = outHandle
    process.standardError = errHandle
    try process.run()
    process.waitUntilExit()
    try outHandle.close()
    try errHandle.close()
    let outData = FileManager.default.contents(atPath: outPath) ?? Data()
    let errData = FileManager.default.contents(atPath: errPath) ?? Data()
    return ToolRun(status: process.terminationStatus, output: outData, stderr: String(decoding: errData, as: UTF8.self))
}

/// The folder under the system temporary directory that holds every `temporaryDirectory()`
/// of this test process; it is removed when the process exits, so `make test` leaves nothing
/// behind in /tmp (a test that crashes the process leaves its folder for inspection).
let scratchRoot: String = {
    let path = NSTemporaryDirectory() + "animexport-cli-tests-\(getpid())-" + UUID().uuidString
    try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    atexit { removeScratchRoot() }
    return path
}()

/// Deletes `scratchRoot` and everything in it (at process exit).
private func removeScratchRoot() {
    try? FileManager.default.removeItem(atPath: scratchRoot)
}

/// A fresh empty directory inside `scratchRoot`.
func temporaryDirectory() throws -> String {
    let path = scratchRoot + "/test-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// Every file name in `directory` (hidden ones included, so staging leftovers show), sorted;
/// the manifests of incremental runs (`.OUTPUT.animexport.json`, `manifests(in:)`) left out.
func listing(_ directory: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { !isManifestName($0) }.sorted()
}

/// The manifests in `directory`, sorted.
func manifests(in directory: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter(isManifestName).sorted()
}

/// A manifest's name: hidden and ending in `.animexport.json` (a staged one still has its
/// `.axPID-XXXXXX` suffix, so it counts as a leftover).
func isManifestName(_ name: String) -> Bool { name.hasPrefix(".") && name.hasSuffix(".animexport.json") }

/// Runs `/usr/bin/python3` (Debian's, which has Pillow from python3-pil) with a script.
func runPython(_ script: String, arguments: [String] = []) throws -> ToolRun {
    try runProcess("/usr/bin/python3", ["-c", script] + arguments)
}

/// Writes `text` to `path` (UTF-8).
func writeFile(_ text: String, to path: String) throws {
    try Data(text.utf8).write(to: URL(fileURLWithPath: path))
}

/// The bytes of a file, or an empty array when it cannot be read.
func readBytes(_ path: String) -> [UInt8] {
    FileManager.default.contents(atPath: path).map { [UInt8]($0) } ?? []
}

/// SHA-256 of every regular file under `directory`, by path relative to it, from coreutils'
/// `sha256sum` (an implementation independent of ours).
func sha256Sums(_ directory: String) throws -> [String: String] {
    let names = listing(directory).filter { !$0.hasPrefix(".") }
    guard !names.isEmpty else { return [:] }
    let data = try runProcess("/usr/bin/sha256sum", names, in: directory).output
    var sums: [String: String] = [:]
    for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
        let parts = line.split(separator: " ", maxSplits: 1)
        guard parts.count == 2 else { continue }
        sums[String(parts[1].drop { $0 == " " || $0 == "*" })] = String(parts[0])
    }
    return sums
}

/// A small preset with a number param `size` (canvas and square), a colour param `color`, and a
/// square that turns 90° per second, at 10 fps: 10 frames per 1 s loop.
func squarePreset(name: String = "square", extra: String = "") -> String {
    """
    {
      "version": 1,
      "name": "\(name)",
      "description": "A square that turns.",
      "canvas": { "width": "$size", "height": "$size", "background": "#FFFFFF" },
      "fps": 10,
      "params": {
        "color": { "default": "#FF0000", "description": "fill colour" },
        "size": { "default": 20, "min": 4, "max": 200, "description": "canvas side in points" }
      },
      "layers": [
        { "type": "rect", "center": ["$size / 2", "$size / 2"], "size": ["$size / 2", "$size / 2"],
          "fill": "$color"\(extra),
          "animations": [
            { "keyPath": "rotation", "fromValue": 0, "toValue": 90, "duration": 1, "repeatCount": "infinity" }
          ] }
      ]
    }
    """
}

/// A process started in the background whose stdout and stderr are collected as they arrive.
final class LiveProcess: @unchecked Sendable {
    private let process = Process()
    private let lock = NSLock()
    private var outText = ""
    private var errText = ""

    init(_ arguments: [String], in directory: String) throws {
        process.executableURL = URL(fileURLWithPath: toolPath)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        out.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            self?.append(data, toErr: false)
        }
        err.fileHandleForReading.readabilityHandler = { [weak self] handle in
            let data = handle.availableData
            self?.append(data, toErr: true)
        }
        try process.run()
    }

    private func append(_ data: Data, toErr: Bool) {
        lock.lock()
        if toErr {
            errText += String(decoding: data, as: UTF8.self)
        } else {
            outText += String(decoding: data, as: UTF8.self)
        }
        lock.unlock()
    }

    /// What the process printed so far.
    var stdout: String {
        lock.lock()
        defer { lock.unlock() }
        return outText
    }

    var stderr: String {
        lock.lock()
        defer { lock.unlock() }
        return errText
    }

    /// Polls until `condition` holds on (stdout, stderr), up to `limit` seconds (a safety net for
    /// a hung process, not a timing assertion). Returns whether it held.
    func wait(upTo limit: Double = 60, until condition: (String, String) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(limit)
        while Date() < deadline {
            if condition(stdout, stderr) { return true }
            usleep(50_000)
        }
        return condition(stdout, stderr)
    }

    /// Sends SIGTERM and waits for the exit status.
    func terminate() -> Int32 {
        process.terminate()
        process.waitUntilExit()
        return process.terminationStatus
    }

    deinit {
        if process.isRunning { process.terminate() }
    }
}
