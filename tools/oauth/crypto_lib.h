/* OpenSSL's libcrypto for the signatures of private_key_jwt client
 * authentication (RFC 7523), loaded with dlopen the first time a client
 * assertion is signed: most servers never sign one, and linked at start-up
 * the library would cost every process its relocations. Compiled against
 * the OpenSSL 3 headers; found at run time as libcrypto.so.3, or at the path
 * in the environment variable MCP_CODEMODE_LIBCRYPTO. */
#ifndef TOOLS_OAUTH_CRYPTO_LIB_H
#define TOOLS_OAUTH_CRYPTO_LIB_H

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <stddef.h>

/* The functions used, named as in libcrypto. */
struct crypto_lib {
    BIO *(*BIO_new_mem_buf)(const void *buf, int len);
    int (*BIO_free)(BIO *b);
    EVP_PKEY *(*PEM_read_bio_PrivateKey)(BIO *bp, EVP_PKEY **x, pem_password_cb *cb, void *u);
    void (*EVP_PKEY_free)(EVP_PKEY *k);
    int (*EVP_PKEY_get_base_id)(const EVP_PKEY *k);
    int (*EVP_PKEY_get_bits)(const EVP_PKEY *k);
    EVP_MD_CTX *(*EVP_MD_CTX_new)(void);
    void (*EVP_MD_CTX_free)(EVP_MD_CTX *c);
    const EVP_MD *(*EVP_sha256)(void);
    int (*EVP_DigestSignInit)(EVP_MD_CTX *c, EVP_PKEY_CTX **pctx, const EVP_MD *md, ENGINE *e,
                              EVP_PKEY *k);
    int (*EVP_DigestSign)(EVP_MD_CTX *c, unsigned char *sig, size_t *siglen,
                          const unsigned char *tbs, size_t tbslen);
    ECDSA_SIG *(*d2i_ECDSA_SIG)(ECDSA_SIG **s, const unsigned char **pp, long len);
    void (*ECDSA_SIG_get0)(const ECDSA_SIG *s, const BIGNUM **r, const BIGNUM **sv);
    void (*ECDSA_SIG_free)(ECDSA_SIG *s);
    int (*BN_bn2binpad)(const BIGNUM *a, unsigned char *to, int tolen);
};

/* The library, loaded on the first call, the same table after. NULL when it
 * cannot be loaded, with a sentence in err (errlen bytes). */
const struct crypto_lib *crypto_lib_load(char *err, size_t errlen);

#endif
