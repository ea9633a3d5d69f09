// SPDX-License-Identifier: GPL-3.0-or-later
//
// The `animexport` front (issue 20, docs/architecture.md "Start-up"): a process that loads
// neither Foundation nor the C libraries (Cairo with X11/xcb/pixman/fontconfig/FreeType, libpng,
// libwebp, OpenSSL...). It answers `animexport --version` and `animexport --help` (the whole
// argument list being that one word) from `ToolInfo`, the same strings `animexport-core` prints,
// and for anything else replaces itself with `animexport-core` from the directory of
// `/proc/self/exe` through execv(2) (`animexport-assemble` instead for `animexport assemble …`): the
// arguments go over byte for byte (argv[0] too), and the
// exit code, signals, stdin/stdout/stderr and the environment are the core's own. When the core
// cannot be executed, the front says which file it tried and why, and exits with 1 (I/O).

import ToolInfo

#if canImport(Glibc)
    import Glibc
#endif

/// Writes all of `text` to `fd`; false when the write fails (a closed pipe, a full disk).
func writeAll(_ text: String, to fd: Int32) -> Bool {
    var text = text
    return text.withUTF8 { buffer in
        var done = 0
        while done < buffer.count {
            let n = write(fd, buffer.baseAddress.map { $0 + done }, buffer.count - done)
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return false }
            done += n
        }
        return true
    }
}

/// Prints `text` and a newline on stdout and exits 0, or exits 1 when stdout cannot take it.
func answer(_ text: String) -> Never {
    guard writeAll(text + "\n", to: STDOUT_FILENO) else {
        let reason = String(cString: strerror(errno))
        _ = writeAll("error: cannot write to standard output: \(reason)\n", to: STDERR_FILENO)
        exit(1)
    }
    exit(0)
}

let argc = Int(CommandLine.argc)
if argc == 2, let word = CommandLine.unsafeArgv[1] {
    switch String(cString: word) {
    case "--version": answer("animexport \(ToolInfo.version)")
    case "--help", "-h": answer(ToolInfo.help)
    default: break
    }
}

// `assemble` (PNG frames -> GIF/APNG/WebP) runs in animexport-assemble, which links the encoders
// but not the renderer; everything else in animexport-core.
let target =
    argc >= 2 && CommandLine.unsafeArgv[1].map({ String(cString: $0) }) == "assemble"
    ? "animexport-assemble" : "animexport-core"

// The executable beside this one: dirname(readlink("/proc/self/exe")) + "/" + target.
var exe = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
let length = readlink("/proc/self/exe", &exe, Int(PATH_MAX))
var core: [CChar] = []
if length > 0, length < Int(PATH_MAX), let slash = exe[0..<length].lastIndex(of: 0x2F) {
    core = Array(exe[0...slash]) + target.utf8.map { CChar(bitPattern: $0) } + [0]
    execv(core, CommandLine.unsafeArgv)
} else if length >= Int(PATH_MAX) {
    errno = ENAMETOOLONG
}
let reason = String(cString: strerror(errno))
let tried =
    core.isEmpty
    ? "/proc/self/exe (cannot find this executable's directory)"
    : String(decoding: core.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
_ = writeAll(
    "error: cannot run \(tried): \(reason); \(target) must be installed beside animexport\n",
    to: STDERR_FILENO)
exit(1)
