// Zopfli (Debian libzopfli-dev) for Swift: zlib streams compressed harder than zlib level 9,
// for `APNGEncoder`'s `effort: .max`. Zopfli has no pkg-config file; the header and library
// are in the default search paths.
#include <stdlib.h>
#include <zopfli/zopfli.h>

/// Compresses `size` bytes at `input` into a zlib stream (RFC 1950) with `iterations` Zopfli
/// iterations and block splitting on. `*output` is malloc'd by Zopfli (NULL and 0 on failure);
/// release it with `aex_zopfli_free`.
static inline void aex_zopfli_zlib(const unsigned char *input, size_t size, int iterations,
                                   unsigned char **output, size_t *outputSize) {
    ZopfliOptions options;
    ZopfliInitOptions(&options);
    options.numiterations = iterations;
    *output = NULL;
    *outputSize = 0;
    ZopfliZlibCompress(&options, input, size, output, outputSize);
}

/// Frees a buffer `aex_zopfli_zlib` returned.
static inline void aex_zopfli_free(unsigned char *buffer) { free(buffer); }
