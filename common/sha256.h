/* SHA-256 (FIPS 180-4) for fingerprints that must not reveal their input:
 * the audit log's code and argument digests. Incremental, no allocation. */
#ifndef COMMON_SHA256_H
#define COMMON_SHA256_H

#include <stddef.h>
#include <stdint.h>

struct sha256 {
    uint32_t h[8];
    uint64_t len; /* bytes hashed so far */
    unsigned char block[64];
    size_t fill; /* bytes waiting in block */
};

void sha256_init(struct sha256 *s);
void sha256_update(struct sha256 *s, const void *data, size_t len);
/* Writes the 32-byte digest; s must be initialised again before reuse. */
void sha256_final(struct sha256 *s, unsigned char out[32]);

/* The digest of data as 64 lowercase hex digits plus NUL into hex[65]. */
void sha256_hex(const void *data, size_t len, char hex[65]);

#endif
