// OpenSSL 3's libcrypto (Debian libssl-dev, Apache-2.0) for Swift: SHA-256 (FIPS 180-4) and
// HMAC-SHA-256 (RFC 2104) for the incremental-run manifest, and its random bytes for the
// manifest key. Only the EVP digest, HMAC and RAND entry points are used.
#include <stddef.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

/// A SHA-256 context, or NULL when memory ran out. Free with `aex_sha256_free`.
static inline EVP_MD_CTX *aex_sha256_new(void) {
    EVP_MD_CTX *context = EVP_MD_CTX_new();
    if (context == NULL) {
        return NULL;
    }
    if (EVP_DigestInit_ex(context, EVP_sha256(), NULL) != 1) {
        EVP_MD_CTX_free(context);
        return NULL;
    }
    return context;
}

/// Adds `size` bytes at `data`; returns 1 on success.
static inline int aex_sha256_update(EVP_MD_CTX *context, const void *data, size_t size) {
    return EVP_DigestUpdate(context, data, size);
}

/// Writes the 32-byte digest to `out`; returns 1 on success.
static inline int aex_sha256_final(EVP_MD_CTX *context, unsigned char *out) {
    unsigned int length = 0;
    return EVP_DigestFinal_ex(context, out, &length) == 1 && length == 32;
}

static inline void aex_sha256_free(EVP_MD_CTX *context) { EVP_MD_CTX_free(context); }

/// HMAC-SHA-256 of `size` bytes at `data` under `key` into the 32 bytes at `out`; 1 on success.
static inline int aex_hmac_sha256(const void *key, int keySize, const unsigned char *data, size_t size,
                                  unsigned char *out) {
    unsigned int length = 0;
    return HMAC(EVP_sha256(), key, keySize, data, size, out, &length) != NULL && length == 32;
}

/// Fills `size` bytes at `out` from OpenSSL's CSPRNG; 1 on success.
static inline int aex_random_bytes(unsigned char *out, int size) { return RAND_bytes(out, size); }
