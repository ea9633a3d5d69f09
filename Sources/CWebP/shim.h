// libwebp and libwebpmux (BSD-3-Clause) for Swift: animated WebP through WebPAnimEncoder.
#include <webp/encode.h>
#include <webp/mux.h>

// Built and tested against Debian 12's libwebp 1.2.4 (encoder ABI 0x020f, mux ABI 0x0108); older
// ABIs are refused at build time rather than trusted untested.
#if WEBP_ENCODER_ABI_VERSION < 0x020f || WEBP_MUX_ABI_VERSION < 0x0108
#error "animexport needs libwebp >= 1.2.4 (encoder ABI 0x020f, mux ABI 0x0108)"
#endif

// The ABI-checked initialisers in libwebp's headers are `static inline` functions; Swift imports
// them, but wrapping them keeps the version check in one place and gives them plain names.

/// WebPConfigInit: lossy defaults (quality 75, method 4). Returns 0 on an ABI mismatch.
static inline int aex_webp_config_init(WebPConfig *config) {
    return WebPConfigInit(config);
}

/// WebPPictureInit. Returns 0 on an ABI mismatch.
static inline int aex_webp_picture_init(WebPPicture *picture) {
    return WebPPictureInit(picture);
}

/// WebPAnimEncoderOptionsInit. Returns 0 on an ABI mismatch.
static inline int aex_webp_anim_options_init(WebPAnimEncoderOptions *options) {
    return WebPAnimEncoderOptionsInit(options);
}

/// WebPAnimEncoderNew; NULL on an ABI mismatch, a bad size or out of memory.
static inline WebPAnimEncoder *aex_webp_anim_encoder_new(int width, int height,
                                                         const WebPAnimEncoderOptions *options) {
    return WebPAnimEncoderNew(width, height, options);
}

/// WebPDataInit.
static inline void aex_webp_data_init(WebPData *data) {
    WebPDataInit(data);
}

/// WebPDataClear: frees what WebPAnimEncoderAssemble allocated.
static inline void aex_webp_data_clear(WebPData *data) {
    WebPDataClear(data);
}
