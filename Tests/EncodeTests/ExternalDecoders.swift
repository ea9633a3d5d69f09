// SPDX-License-Identifier: GPL-3.0-or-later

import Foundation
import Raster
import Testing

@testable import Encode

/// What a program printed and how it exited.
struct ProgramRun {
    var status: Int32
    var stdout: Data
    var stderr: String
}

/// Runs `executable` with `arguments` and waits for it; stdout is read as bytes, stderr goes
/// through a temporary file so a chatty program cannot block on a full pipe.
func runProgram(_ executable: String, _ arguments: [String]) throws -> ProgramRun {
    let errorPath = NSTemporaryDirectory() + "animexport-stderr-\(UUID().uuidString)"
    _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
    defer { try? FileManager.default.removeItem(atPath: errorPath) }
    let errorHandle = try FileHandle(forWritingTo: URL(fileURLWithPath: errorPath))
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let out = Pipe()
    process.standardOutput = out
    process.standardError = errorHandle
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    try errorHandle.close()
    let errors = (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
    return ProgramRun(status: process.terminationStatus, stdout: data, stderr: errors)
}

/// The four independent GIF readers the tests hold our files against (giflib is `GIFDecoder`).
/// All come from Debian packages that `make deps` installs.
enum ExternalDecoder: String, CaseIterable, CustomStringConvertible {
    case pillow, imageMagick, ffmpeg, gifsicle

    var description: String { rawValue }

    /// The program this reader runs.
    var executable: String {
        switch self {
        case .pillow: "/usr/bin/python3"
        case .imageMagick: "/usr/bin/convert"
        case .ffmpeg: "/usr/bin/ffmpeg"
        case .gifsicle: "/usr/bin/gifsicle"
        }
    }

    /// Every composited frame as straight RGBA, in file order; for gifsicle (which only
    /// reports) the frames are empty and `info` is checked instead.
    /// - Throws: when the program fails or prints anything on stderr.
    func frames(of path: String, width: Int, height: Int) throws -> [RGBAImage] {
        let run: ProgramRun
        switch self {
        case .pillow:
            let script = """
                import sys
                from PIL import Image
                im = Image.open(sys.argv[1])
                out = sys.stdout.buffer
                for i in range(im.n_frames):
                    im.seek(i)
                    out.write(im.convert("RGBA").tobytes())
                """
            run = try runProgram(executable, ["-c", script, path])
        case .imageMagick:
            run = try runProgram(executable, [path, "-coalesce", "-depth", "8", "rgba:-"])
        case .ffmpeg:
            run = try runProgram(
                executable,
                ["-v", "error", "-i", path, "-fps_mode", "passthrough", "-f", "rawvideo", "-pix_fmt", "rgba", "-"])
        case .gifsicle:
            run = try runProgram(executable, ["--info", path])
        }
        guard run.status == 0, run.stderr.isEmpty else {
            throw EncodeError("\(self) on \(path): exit \(run.status), stderr: \(run.stderr)")
        }
        guard self != .gifsicle else { return [] }
        let bytes = [UInt8](run.stdout)
        let frameBytes = width * height * 4
        guard bytes.count % frameBytes == 0 else {
            throw EncodeError("\(self) returned \(bytes.count) bytes, not whole \(width)×\(height) frames")
        }
        return stride(from: 0, to: bytes.count, by: frameBytes).compactMap {
            RGBAImage(width: width, height: height, pixels: Array(bytes[$0..<($0 + frameBytes)]))
        }
    }
}

/// Whether two straight-alpha frames show the same thing: equal alpha everywhere, equal colour
/// wherever the pixel is opaque (a transparent pixel's colour is meaningless). Returns the
/// number of pixels that differ.
func visibleDifferences(_ a: RGBAImage, _ b: RGBAImage) -> Int {
    guard a.width == b.width, a.height == b.height else { return max(a.pixels.count, b.pixels.count) / 4 }
    var count = 0
    for i in stride(from: 0, to: a.pixels.count, by: 4) {
        if a.pixels[i + 3] != b.pixels[i + 3] {
            count += 1
        } else if a.pixels[i + 3] != 0
            && (a.pixels[i] != b.pixels[i] || a.pixels[i + 1] != b.pixels[i + 1] || a.pixels[i + 2] != b.pixels[i + 2])
        {
            count += 1
        }
    }
    return count
}

/// Consecutive equal frames collapsed, as the encoder merges them.
func collapsingRepeats(_ frames: [RGBAImage]) -> [RGBAImage] {
    var out: [RGBAImage] = []
    for frame in frames where out.last.map({ visibleDifferences($0, frame) != 0 }) ?? true {
        out.append(frame)
    }
    return out
}

/// The folder under the system temporary directory that holds every `temporaryFile` of this
/// test process; it is removed when the process exits, so `make test` leaves nothing behind
/// in /tmp (a test that crashes the process leaves its folder for inspection).
let scratchRoot: URL = {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("animexport-encode-tests-\(getpid())-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    atexit { removeScratchRoot() }
    return url
}()

/// Deletes `scratchRoot` and everything in it (at process exit).
private func removeScratchRoot() {
    try? FileManager.default.removeItem(at: scratchRoot)
}

/// Writes `bytes` to a new file inside `scratchRoot` and returns its path.
func temporaryFile(_ bytes: [UInt8], named name: String) throws -> String {
    let directory = scratchRoot.appendingPathComponent("file-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let url = directory.appendingPathComponent(name)
    try Data(bytes).write(to: url)
    return url.path
}
