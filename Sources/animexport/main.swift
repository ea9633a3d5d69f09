// SPDX-License-Identifier: GPL-3.0-or-later

import AnimexportCLI
import Export

#if canImport(Glibc)
    import Glibc
#endif

MemoryTuning.applyForEncoding()
FileSizeSignal.ignore()
exit(Command.run(Array(CommandLine.arguments.dropFirst())).rawValue)
