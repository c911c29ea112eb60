/* Loads libcrypto on first use (tools/oauth/crypto_lib.h): dlopen of
 * libcrypto.so.3 (or of $MCP_CODEMODE_LIBCRYPTO), one dlsym per function. */
#include "tools/oauth/crypto_lib.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CRYPTO_SONAME "libcrypto.so.3"

static struct crypto_lib lib;
static int loaded;

#define SLOT(field)                                                                                \
    {                                                                                              \
#field, offsetof(struct crypto_lib, field)                                                 \
    }
static const struct {
    const char *symbol;
    size_t offset;
} slots[] = {
    SLOT(BIO_new_mem_buf),
    SLOT(BIO_free),
    SLOT(PEM_read_bio_PrivateKey),
    SLOT(EVP_PKEY_free),
    SLOT(EVP_PKEY_get_base_id),
    SLOT(EVP_PKEY_get_bits),
    SLOT(EVP_MD_CTX_new),
    SLOT(EVP_MD_CTX_free),
    SLOT(EVP_sha256),
    SLOT(EVP_DigestSignInit),
    SLOT(EVP_DigestSign),
    SLOT(d2i_ECDSA_SIG),
    SLOT(ECDSA_SIG_get0),
    SLOT(ECDSA_SIG_free),
    SLOT(BN_bn2binpad),
};

static const char *library(void)
{
    const char *env = getenv("MCP_CODEMODE_LIBCRYPTO");
    return env && *env ? env : CRYPTO_SONAME;
}

const struct crypto_lib *crypto_lib_load(char *err, size_t errlen)
{
    if (loaded)
        return &lib;
    void *h = dlopen(library(), RTLD_NOW | RTLD_LOCAL);
    if (h == NULL) {
        snprintf(err, errlen, "cannot load %s (needed to sign private_key_jwt assertions): %s",
                 library(), dlerror());
        return NULL;
    }
    struct crypto_lib l;
    for (size_t i = 0; i < sizeof slots / sizeof slots[0]; i++) {
        void *sym = dlsym(h, slots[i].symbol);
        if (sym == NULL) {
            snprintf(err, errlen, "cannot load %s: missing symbol %s", library(), slots[i].symbol);
            dlclose(h);
            return NULL;
        }
        memcpy((char *) &l + slots[i].offset, &sym, sizeof sym);
    }
    lib = l;
    loaded = 1; /* never unloaded */
    return &lib;
}
