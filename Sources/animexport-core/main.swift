// SPDX-License-Identifier: GPL-3.0-or-later

import AnimexportCLI
import Assemble
import Encode
import OutputFiles

#if canImport(Glibc)
    import Glibc
#endif

MemoryTuning.applyForEncoding()
FileSizeSignal.ignore()
// Arguments as bytes: file names need not be UTF-8 (docs/cli.md, File names).
let arguments = Command.processArguments()
// `assemble` normally runs in animexport-assemble (the front execs it); run here, it is the same
// code.
if arguments.first == Array("assemble".utf8) {
    exit(AssembleCommand.run(Array(arguments.dropFirst())).rawValue)
}
exit(Command.run(bytes: arguments).rawValue)
