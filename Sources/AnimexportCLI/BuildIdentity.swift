// SPDX-License-Identifier: GPL-3.0-or-later

import Export
import OutputFiles

#if canImport(Glibc)
    import Glibc
#endif

/// Which build of the tool is running, for the manifests of incremental runs: a rebuilt binary
/// of the same version must not vouch for files an older build wrote.
///
/// The linker's GNU build ID (`.note.gnu.build-id`, a hash of the linked output that `ld` and
/// `gold` write with `--build-id`) identifies a build in a few bytes, read from the executable's
/// ELF program headers (ELF-64, System V gABI "Program Header" and "Note Section"): the ELF
/// header gives `e_phoff`/`e_phentsize`/`e_phnum`, every `PT_NOTE` segment holds notes of
/// `namesz`, `descsz`, `type`, then the name and descriptor each padded to 4 bytes, and the
/// build ID is type 3 (`NT_GNU_BUILD_ID`) with the name `"GNU\0"`. Reading it costs a few kB of
/// I/O where hashing the 80 MB static executable cost a fifth of a second on every run. Without
/// a build ID the SHA-256 of the executable stands in.
enum BuildIdentity {
    /// The running build's identity (`"gnu:"` + hex build ID, or `"sha256:"` + hex digest of
    /// `/proc/self/exe`); nil when the executable cannot be read.
    static let current: String? = {
        let exe = FilePath("/proc/self/exe")
        if let id = gnuBuildID(of: exe) { return "gnu:" + Digest.hex(id) }
        return (try? Digest.sha256(file: exe)).map { "sha256:" + Digest.hex($0.digest) }
    }()

    /// The GNU build ID of the ELF-64 little-endian file at `path`, nil when it has none or is
    /// not such a file. Reads at most 64 program headers and 64 KiB of notes.
    static func gnuBuildID(of path: FilePath) -> [UInt8]? {
        let fd = path.withCString { open($0, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        func bytes(at offset: Int, count: Int) -> [UInt8]? {
            guard offset >= 0, count >= 0, count <= 1 << 16 else { return nil }
            var out = [UInt8](repeating: 0, count: count)
            var done = 0
            while done < count {
                let n = out.withUnsafeMutableBytes {
                    $0.baseAddress.map { pread(fd, $0 + done, count - done, off_t(offset + done)) } ?? -1
                }
                if n < 0, errno == EINTR { continue }
                guard n > 0 else { return nil }
                done += n
            }
            return out
        }
        func integer(_ b: [UInt8], _ at: Int, _ width: Int) -> Int? {
            guard at >= 0, at + width <= b.count else { return nil }
            var v: UInt64 = 0
            for k in (0..<width).reversed() { v = v << 8 | UInt64(b[at + k]) }
            return v <= UInt64(Int.max) ? Int(v) : nil
        }
        // e_ident: "\x7FELF", class 2 (64-bit), data 1 (little-endian).
        guard let header = bytes(at: 0, count: 64), header[0..<4] == [0x7F, 0x45, 0x4C, 0x46], header[4] == 2,
            header[5] == 1, let phoff = integer(header, 0x20, 8), let phentsize = integer(header, 0x36, 2),
            let phnum = integer(header, 0x38, 2), phentsize >= 56, phnum <= 64,
            let table = bytes(at: phoff, count: phentsize * phnum)
        else { return nil }
        for i in 0..<phnum {
            let entry = i * phentsize
            // p_type 4 = PT_NOTE; p_offset at +8, p_filesz at +32.
            guard integer(table, entry, 4) == 4, let offset = integer(table, entry + 8, 8),
                let size = integer(table, entry + 32, 8), size <= 1 << 16, let notes = bytes(at: offset, count: size)
            else { continue }
            var p = 0
            while p + 12 <= notes.count {
                guard let namesz = integer(notes, p, 4), let descsz = integer(notes, p + 4, 4),
                    let type = integer(notes, p + 8, 4)
                else { break }
                let name = p + 12
                let desc = name + (namesz + 3) / 4 * 4
                let next = desc + (descsz + 3) / 4 * 4
                guard next <= notes.count else { break }
                if type == 3, namesz == 4, notes[name..<name + 4] == [0x47, 0x4E, 0x55, 0], descsz > 0 {
                    return Array(notes[desc..<desc + descsz])
                }
                p = next
            }
        }
        return nil
    }
}
