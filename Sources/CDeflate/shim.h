// libdeflate 1.14 (Debian libdeflate-dev, MIT licence; Eric Biggers,
// https://github.com/ebiggers/libdeflate) for Swift: zlib streams (RFC 1950) for the APNG
// encoder's frames, at levels up to 12, which zlib does not have; and zlib's own deflate, which
// wins on some frames.
#include <stddef.h>
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
