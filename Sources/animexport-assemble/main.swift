// SPDX-License-Identifier: GPL-3.0-or-later
//
// `animexport assemble` (docs/cli.md): the `animexport` front execs this executable for that
// command, so encoding frames made elsewhere maps only the encoders' libraries, not the
// renderer's (Cairo, HarfBuzz, fontconfig, FreeType, X11); docs/architecture.md "Start-up".
// argv is the front's, byte for byte: `animexport assemble ARGS…`.

import Assemble
import Encode
import OutputFiles

#if canImport(Glibc)
    import Glibc
#endif

MemoryTuning.applyForEncoding()
FileSizeSignal.ignore()
let words = (0..<Int(CommandLine.argc)).map { i in
    CommandLine.unsafeArgv[i].map { FilePath(cString: $0).bytes } ?? []
}
// Run directly (`animexport-assemble ARGS…`), argv[1] is already an argument.
let start = words.count > 1 && words[1] == Array("assemble".utf8) ? 2 : 1
exit(AssembleCommand.run(Array(words.dropFirst(start))).rawValue)
