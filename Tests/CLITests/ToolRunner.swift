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
    var stdout: String
    var stderr: String
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

/// Runs the binary with `arguments` in `directory` and waits for it.
func runTool(_ arguments: [String], in directory: String, environment: [String: String] = [:]) throws -> ToolRun {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: toolPath)
    process.arguments = arguments
    process.currentDirectoryURL = URL(fileURLWithPath: directory)
    var env = ProcessInfo.processInfo.environment
    for (k, v) in environment { env[k] = v }
    process.environment = env
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return ToolRun(
        status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
        stderr: String(decoding: errData, as: UTF8.self))
}

/// A fresh empty directory under the system temporary directory.
func temporaryDirectory() throws -> String {
    let path = NSTemporaryDirectory() + "animexport-test-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// Every file name in `directory` (hidden ones included), sorted.
func listing(_ directory: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
}

/// Runs `/usr/bin/python3` (Debian's, which has Pillow from python3-pil) with a script.
func runPython(_ script: String, arguments: [String] = []) throws -> ToolRun {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    process.arguments = ["-c", script] + arguments
    let out = Pipe()
    let err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return ToolRun(
        status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
        stderr: String(decoding: errData, as: UTF8.self))
}
