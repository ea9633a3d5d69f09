// SPDX-License-Identifier: GPL-3.0-or-later

#if canImport(Glibc)
    import Glibc
#endif

/// What the command-line tools do when a write runs into the file size limit.
public enum FileSizeSignal {
    /// Ignores `SIGXFSZ` for the whole process. Call once, first thing in `main`; the
    /// libraries never change signal dispositions.
    ///
    /// A write past the process's file size limit (`ulimit -f`, `RLIMIT_FSIZE`) raises
    /// `SIGXFSZ`, whose default action kills the process at once: the tool died with exit
    /// status 153 and left its temporary `.NAME.gif.XXXXXX` beside the output. Ignored, the
    /// write fails with `EFBIG` ("File too large") like any other write error, so `AtomicFile`
    /// removes the temporary file and the tool reports the output it could not write and exits 1.
    public static func ignore() {
        #if canImport(Glibc)
            signal(SIGXFSZ, SIG_IGN)
        #endif
    }
}
