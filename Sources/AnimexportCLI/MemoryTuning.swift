// SPDX-License-Identifier: GPL-3.0-or-later

#if canImport(Glibc)
    internal import CMalloc
#endif

/// Process-wide allocator settings for the command-line tools. The libraries never apply
/// them: they would change the allocator of whatever process hosts them.
public enum MemoryTuning {
    /// The heap padding `applyForEncoding()` asks for, in bytes (32 MiB).
    public static let topPad = 32 << 20

    /// Asks glibc's allocator to grow every heap by `topPad` more than it needs and to keep
    /// that much free at the top instead of giving it back (`mallopt(M_TOP_PAD)`). Call once,
    /// first thing in `main`. Does nothing on other C libraries.
    ///
    /// The encoder's worker threads allocate and free frame-sized buffers for every frame.
    /// With glibc's default padding (128 KiB) each worker's heap is given back to the kernel
    /// whenever a frame's buffers are freed, and mapped and faulted in again for the next:
    /// encoding circular-progress took 190 `munmap` and 348 `mprotect` calls, serialised on
    /// the process's memory map against the other thread's page faults. With 32 MiB: 7 and 77.
    /// First encode in a process, two cores, best of three (`animexport-bench --encode-frames`):
    /// circular-progress 67.8 → 57.5 ms, arc-rotation 37.6 → 30.4 ms, twin-circle-scale
    /// 28.6 → 24.5 ms (8 MiB was not enough; 64 MiB no better). Untouched padding is never
    /// backed by memory, so the peak resident size does not grow.
    public static func applyForEncoding() {
        #if canImport(Glibc)
            _ = mallopt(M_TOP_PAD, Int32(topPad))
        #endif
    }
}
