// SPDX-License-Identifier: GPL-3.0-or-later

#if canImport(Glibc)
    internal import CMalloc
#endif

/// Process-wide allocator settings for the command-line tools. The libraries never apply
/// them: they would change the allocator of whatever process hosts them.
public enum MemoryTuning {
    /// The heap padding `applyForEncoding()` asks for, in bytes (32 MiB).
    public static let topPad = 32 << 20
    /// The size from which `applyForEncoding()` lets glibc map a block by itself, in bytes
    /// (32 MiB, the most glibc's own sliding threshold reaches).
    public static let mmapThreshold = 32 << 20

    /// Asks glibc's allocator to grow every heap by `topPad` more than it needs and to keep
    /// that much free at the top instead of giving it back (`mallopt(M_TOP_PAD)`), and to map
    /// blocks by themselves only from `mmapThreshold` up (`mallopt(M_MMAP_THRESHOLD)`). Call
    /// once, first thing in `main`. Does nothing on other C libraries.
    ///
    /// The encoder's worker threads allocate and free frame-sized buffers for every frame.
    /// With glibc's default padding (128 KiB) each worker's heap is given back to the kernel
    /// whenever a frame's buffers are freed, and mapped and faulted in again for the next:
    /// encoding circular-progress took 190 `munmap` and 348 `mprotect` calls, serialised on
    /// the process's memory map against the other thread's page faults; with 32 MiB, 7 and 73.
    /// First encode in a process, two cores, best of three (`animexport-bench --encode-frames`):
    /// circular-progress 67.6 → 56.6 ms, arc-rotation 37.6 → 29.0 ms, twin-circle-scale
    /// 27.9 → 24.2 ms (8 MiB was not enough; 64 MiB no better).
    ///
    /// Setting the padding also stops glibc from raising its mmap threshold (128 KiB) as large
    /// blocks are freed, so at 4× (a 992×992 frame is 3.9 MB) every frame buffer was mapped and
    /// unmapped again: 652 `munmap` calls for circular-progress. With the threshold at 32 MiB,
    /// 10; its 4× encode took 593 ms without either setting, 538 with the padding alone and
    /// 511 with both. Peak resident memory: +1 to +3.5 MB at 1×, +28 MB (3 %) at 4×.
    public static func applyForEncoding() {
        #if canImport(Glibc)
            _ = mallopt(M_TOP_PAD, Int32(topPad))
            _ = mallopt(M_MMAP_THRESHOLD, Int32(mmapThreshold))
            trimsAfterRelease = true
        #endif
    }

    /// Set by `applyForEncoding()`, before any other thread runs; read by
    /// `returnFreedMemory()`.
    nonisolated(unsafe) private static var trimsAfterRelease = false

    /// Bytes of cached frames dropped (`RenderedFrames`) after which the freed heap is given
    /// back to the kernel (16 MiB).
    public static let trimStep = 16 << 20

    /// After `applyForEncoding()`: gives the free memory of every glibc heap back to the
    /// kernel (`malloc_trim(0)`, which also releases whole free pages inside a heap). Called
    /// by `RenderedFrames` when it drops `trimStep` bytes of cached frames or more, and by the
    /// CLI after each job. Frames (under `mmapThreshold`) live on the render threads' heaps,
    /// and the padding above keeps freed ones resident: dropping circular-progress 2×'s 177 MB
    /// RGBA loop as its sheet read it raised the batch's peak (339 → 359 MB, the next job's
    /// frames going to other heaps); with the trims it was 315 MB. Does nothing
    /// when `applyForEncoding()` was not called (a library's host keeps its allocator) or on
    /// other C libraries.
    public static func returnFreedMemory() {
        #if canImport(Glibc)
            if trimsAfterRelease { _ = malloc_trim(0) }
        #endif
    }
}
