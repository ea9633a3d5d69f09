// libpng 1.6 for Swift: PNG frames and sprite sheets with straight alpha and a chosen zlib level.
#include <png.h>
#include <zlib.h>
#include <setjmp.h>
#include <string.h>

// libpng reports errors by longjmp, which Swift cannot catch. The adapters below are the only
// places that call libpng functions able to fail: each one arms setjmp, runs one phase, and
// returns 1 on success or 0 after an error whose text `aex_png_on_error` copied into the
// caller's message buffer (the png struct's error pointer, AEX_PNG_MESSAGE_SIZE bytes).

#define AEX_PNG_MESSAGE_SIZE 256

static inline void aex_png_on_error(png_structp png, png_const_charp message) {
    char *buffer = (char *)png_get_error_ptr(png);
    if (buffer != NULL) {
        strncpy(buffer, message != NULL ? message : "unknown error", AEX_PNG_MESSAGE_SIZE - 1);
        buffer[AEX_PNG_MESSAGE_SIZE - 1] = '\0';
    }
    png_longjmp(png, 1);
}

static inline void aex_png_on_warning(png_structp png, png_const_charp message) {
    (void)png;
    (void)message;
}

/// A write struct whose errors land in `message` (AEX_PNG_MESSAGE_SIZE bytes, outliving it).
static inline png_structp aex_png_create_write(char *message) {
    return png_create_write_struct(PNG_LIBPNG_VER_STRING, message, aex_png_on_error,
                                   aex_png_on_warning);
}

/// A read struct whose errors land in `message` (AEX_PNG_MESSAGE_SIZE bytes, outliving it).
static inline png_structp aex_png_create_read(char *message) {
    return png_create_read_struct(PNG_LIBPNG_VER_STRING, message, aex_png_on_error,
                                  aex_png_on_warning);
}

/// Writes an 8-bit RGBA, non-interlaced image through the write function already set on `png`:
/// zlib `level` (0...9), adaptive filtering (all five filters), no ancillary chunks.
static inline int aex_png_write_rgba8(png_structp png, png_infop info, png_uint_32 width,
                                      png_uint_32 height, int level, png_bytepp rows) {
    if (setjmp(png_jmpbuf(png))) {
        return 0;
    }
    png_set_IHDR(png, info, width, height, 8, PNG_COLOR_TYPE_RGB_ALPHA, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_set_compression_level(png, level);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_ALL_FILTERS);
    png_write_info(png, info);
    png_write_image(png, rows);
    png_write_end(png, info);
    return 1;
}

/// Writes a non-interlaced image with every compression choice explicit: colour type
/// (PNG_COLOR_TYPE_RGB_ALPHA or PNG_COLOR_TYPE_PALETTE), bit depth (8, or 1/2/4/8 for a
/// palette), zlib `level` 0...9 and `strategy` (Z_DEFAULT_STRATEGY, Z_FILTERED, Z_RLE, ...),
/// libpng row `filters` (a PNG_FILTER_* mask; libpng picks per row among them by the sum of
/// absolute differences). For a palette image, `palette` holds `paletteSize` RGB triples and
/// `alpha` the first `alphaSize` alpha values (tRNS; 0 for none). Rows are packed at
/// `bitDepth` already. No ancillary chunks.
static inline int aex_png_write(png_structp png, png_infop info, png_uint_32 width,
                                png_uint_32 height, int colorType, int bitDepth, int level,
                                int strategy, int filters, const png_color *palette,
                                int paletteSize, const png_byte *alpha, int alphaSize,
                                png_bytepp rows) {
    if (setjmp(png_jmpbuf(png))) {
        return 0;
    }
    png_set_IHDR(png, info, width, height, bitDepth, colorType, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    if (colorType == PNG_COLOR_TYPE_PALETTE) {
        png_set_PLTE(png, info, palette, paletteSize);
        if (alphaSize > 0) {
            png_set_tRNS(png, info, alpha, alphaSize, NULL);
        }
    }
    png_set_compression_level(png, level);
    png_set_compression_strategy(png, strategy);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, filters);
    png_write_info(png, info);
    png_write_image(png, rows);
    png_write_end(png, info);
    return 1;
}

/// In-memory PNG input: `bytes[offset..<count]` is still unread.
typedef struct aex_png_source {
    const unsigned char *bytes;
    size_t count;
    size_t offset;
} aex_png_source;

static inline void aex_png_read_source(png_structp png, png_bytep out, size_t length) {
    aex_png_source *source = (aex_png_source *)png_get_io_ptr(png);
    if (source == NULL || length > source->count - source->offset) {
        png_error(png, "unexpected end of PNG data");
    }
    memcpy(out, source->bytes + source->offset, length);
    source->offset += length;
}

/// Reads the header from `source` and sets up the transforms that turn any colour type and bit
/// depth into 8-bit straight RGBA (palette and low-bit grey expanded, tRNS to alpha, 16-bit
/// scaled with rounding, grey to RGB, opaque alpha added, interlacing undone). Gamma is not
/// touched: samples come out as stored. Returns the output size and row length in bytes.
static inline int aex_png_read_header_rgba8(png_structp png, png_infop info, aex_png_source *source,
                                            png_uint_32 *width, png_uint_32 *height,
                                            size_t *rowBytes) {
    if (setjmp(png_jmpbuf(png))) {
        return 0;
    }
    png_set_read_fn(png, source, aex_png_read_source);
    png_read_info(png, info);
    png_byte colorType = png_get_color_type(png, info);
    png_byte bitDepth = png_get_bit_depth(png, info);
    int hasTRNS = png_get_valid(png, info, PNG_INFO_tRNS) != 0;
    png_set_expand(png);
    if (bitDepth == 16) {
        png_set_scale_16(png);
    }
    if (colorType == PNG_COLOR_TYPE_GRAY || colorType == PNG_COLOR_TYPE_GRAY_ALPHA) {
        png_set_gray_to_rgb(png);
    }
    if ((colorType & PNG_COLOR_MASK_ALPHA) == 0 && !hasTRNS) {
        png_set_add_alpha(png, 0xff, PNG_FILLER_AFTER);
    }
    (void)png_set_interlace_handling(png);
    png_read_update_info(png, info);
    *width = png_get_image_width(png, info);
    *height = png_get_image_height(png, info);
    *rowBytes = png_get_rowbytes(png, info);
    return 1;
}

/// Reads every row (all interlace passes) into `rows`, then the trailing chunks.
static inline int aex_png_read_rows(png_structp png, png_bytepp rows) {
    if (setjmp(png_jmpbuf(png))) {
        return 0;
    }
    png_read_image(png, rows);
    png_read_end(png, NULL);
    return 1;
}
