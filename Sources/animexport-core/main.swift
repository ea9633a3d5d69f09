// SPDX-License-Identifier: GPL-3.0-or-later

import AnimexportCLI
import Export

#if canImport(Glibc)
    import Glibc
#endif

MemoryTuning.applyForEncoding()
FileSizeSignal.ignore()
// Arguments as bytes: file names need not be UTF-8 (docs/cli.md, File names).
exit(Command.run(bytes: Command.processArguments()).rawValue)
