// libdeflate 1.14 (Debian libdeflate-dev, MIT licence; Eric Biggers,
// https://github.com/ebiggers/libdeflate) for Swift: zlib streams (RFC 1950) for the APNG
// encoder's frames, at levels up to 12, which zlib does not have; zlib's own deflate, which
// wins on some frames; and libdeflate's inflate and CRC-32 for decoding common PNGs, about three
// times faster than libpng with zlib.
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <libdeflate.h>
#include <zlib.h>

/// Compresses `size` bytes at `input` into a zlib stream at libdeflate `level` (0...12) into
/// `output`, which holds `capacity` bytes. Returns the stream's length, or 0 when the level is
/// invalid, memory ran out, or the stream did not fit (size `capacity` from
/// `aex_deflate_zlib_bound`, and it always fits).
static inline size_t aex_deflate_zlib(int level, const void *input, size_t size, void *output,
                                      size_t capacity) {
    struct libdeflate_compressor *compressor = libdeflate_alloc_compressor(level);
    if (compressor == NULL) {
        return 0;
    }
    size_t written = libdeflate_zlib_compress(compressor, input, size, output, capacity);
    libdeflate_free_compressor(compressor);
    return written;
}

/// The largest zlib stream libdeflate can write for `size` input bytes, at any level.
static inline size_t aex_deflate_zlib_bound(size_t size) {
    return libdeflate_zlib_compress_bound(NULL, size);
}

/// Compresses `size` bytes at `input` into a zlib stream with zlib's deflate at `level` (0...9)
/// and `strategy` (Z_DEFAULT_STRATEGY, Z_FILTERED, ...), window 2^15, memory level 9, into
/// `output` of `capacity` bytes (from `aex_deflate_zlib_bound`). Returns the stream's length, or
/// 0 on any zlib error.
static inline size_t aex_zlib_compress(int level, int strategy, const void *input, size_t size,
                                       void *output, size_t capacity) {
    z_stream stream;
    memset(&stream, 0, sizeof stream);
    if (deflateInit2(&stream, level, Z_DEFLATED, 15, 9, strategy) != Z_OK) {
        return 0;
    }
    stream.next_in = (Bytef *)input;
    stream.avail_in = (uInt)size;
    stream.next_out = (Bytef *)output;
    stream.avail_out = (uInt)capacity;
    int result = deflate(&stream, Z_FINISH);
    size_t written = stream.total_out;
    deflateEnd(&stream);
    return result == Z_STREAM_END ? written : 0;
}

/// Inflates the zlib stream (RFC 1950) of exactly `size` bytes at `input` into exactly `expected`
/// bytes at `output` with libdeflate. Returns 1 when the stream is valid (its Adler-32 included),
/// ends where the input ends and fills `output` exactly; 0 for anything else: bad data, a stream
/// that inflates to fewer or more than `expected` bytes, bytes after the stream, or no memory.
static inline int aex_inflate_zlib_exact(const void *input, size_t size, void *output, size_t expected) {
    struct libdeflate_decompressor *decompressor = libdeflate_alloc_decompressor();
    if (decompressor == NULL) {
        return 0;
    }
    size_t consumed = 0;
    size_t produced = 0;
    enum libdeflate_result result =
        libdeflate_zlib_decompress_ex(decompressor, input, size, output, expected, &consumed, &produced);
    libdeflate_free_decompressor(decompressor);
    return result == LIBDEFLATE_SUCCESS && consumed == size && produced == expected;
}

/// The CRC-32 of `size` bytes at `bytes` (ISO 3309 / ITU-T V.42, as PNG chunks use it), through
/// libdeflate's table-free folding code.
static inline uint32_t aex_crc32(const void *bytes, size_t size) {
    return libdeflate_crc32(0, bytes, size);
}
