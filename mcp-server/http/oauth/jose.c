/* JOSE primitives (see jose.h): keys are built with EVP_PKEY_fromdata (RSA,
 * EC) or EVP_PKEY_new_raw_public_key (Ed25519) and signatures checked with
 * EVP_DigestVerify; ES256's raw r||s becomes the DER ECDSA-Sig-Value libcrypto
 * reads. No cryptography of our own. */
#include "mcp-server/http/oauth/jose.h"
#include "common/alloc.h"

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/rsa.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum jose_alg jose_alg_parse(const char *name)
{
    if (name == NULL)
        return JOSE_ALG_NONE;
    if (strcmp(name, "RS256") == 0)
        return JOSE_ALG_RS256;
    if (strcmp(name, "PS256") == 0)
        return JOSE_ALG_PS256;
    if (strcmp(name, "ES256") == 0)
        return JOSE_ALG_ES256;
    if (strcmp(name, "EdDSA") == 0)
        return JOSE_ALG_EDDSA;
    return JOSE_ALG_NONE;
}

const char *jose_alg_name(enum jose_alg alg)
{
    switch (alg) {
    case JOSE_ALG_RS256:
        return "RS256";
    case JOSE_ALG_PS256:
        return "PS256";
    case JOSE_ALG_ES256:
        return "ES256";
    case JOSE_ALG_EDDSA:
        return "EdDSA";
    default:
        return "none";
    }
}

/* One more than the value of each base64url digit, 0 for every other
 * byte (so that a lookup minus one is over 63 for a byte that is none). */
/* clang-format off */
static const unsigned char b64url_plus1[256] = {
    ['A'] = 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23,
    24, 25, 26,
    ['a'] = 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47,
    48, 49, 50, 51, 52,
    ['0'] = 53, 54, 55, 56, 57, 58, 59, 60, 61, 62,
    ['-'] = 63,
    ['_'] = 64,
};
/* clang-format on */

long jose_b64url_decode(const char *in, size_t n, unsigned char *out)
{
    if (n % 4 == 1)
        return -1;
    const unsigned char *u = (const unsigned char *) in;
    size_t o = 0, i = 0;
    for (; i + 4 <= n; i += 4) { /* four digits, three bytes */
        unsigned a = b64url_plus1[u[i]] - 1u, b = b64url_plus1[u[i + 1]] - 1u;
        unsigned c = b64url_plus1[u[i + 2]] - 1u, d = b64url_plus1[u[i + 3]] - 1u;
        if ((a | b | c | d) > 63)
            return -1;
        unsigned v = a << 18 | b << 12 | c << 6 | d;
        out[o++] = (unsigned char) (v >> 16);
        out[o++] = (unsigned char) (v >> 8);
        out[o++] = (unsigned char) v;
    }
    unsigned acc = 0;
    int bits = 0;
    for (; i < n; i++) { /* two or three digits left */
        unsigned d = b64url_plus1[u[i]] - 1u;
        if (d > 63)
            return -1;
        acc = (acc << 6) | d;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            out[o++] = (unsigned char) (acc >> bits);
            acc &= (1u << bits) - 1;
        }
    }
    if (acc != 0)
        return -1; /* the unused bits of the last digit must be zero */
    return (long) o;
}

/* A base64url member of jwk decoded into a malloc'd buffer; NULL when it is
 * missing or malformed. */
static unsigned char *member_bytes(const cJSON *jwk, const char *name, size_t *len)
{
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(jwk, name);
    if (!cJSON_IsString(m) || m->valuestring[0] == '\0')
        return NULL;
    size_t n = strlen(m->valuestring);
    if (n > 8192)
        return NULL; /* 6 KiB: an RSA modulus of 49152 bits */
    unsigned char *b = xmalloc(JOSE_B64URL_DECODED_MAX(n));
    long got = jose_b64url_decode(m->valuestring, n, b);
    if (got <= 0) {
        free(b);
        return NULL;
    }
    *len = (size_t) got;
    return b;
}

static const char *str_member(const cJSON *o, const char *name)
{
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(o, name);
    return cJSON_IsString(m) ? m->valuestring : NULL;
}

static EVP_PKEY *from_params(const char *type, OSSL_PARAM_BLD *bld)
{
    OSSL_PARAM *params = OSSL_PARAM_BLD_to_param(bld);
    EVP_PKEY_CTX *ctx = params ? EVP_PKEY_CTX_new_from_name(NULL, type, NULL) : NULL;
    EVP_PKEY *pkey = NULL;
    if (ctx == NULL || EVP_PKEY_fromdata_init(ctx) <= 0 ||
        EVP_PKEY_fromdata(ctx, &pkey, EVP_PKEY_PUBLIC_KEY, params) <= 0)
        pkey = NULL;
    EVP_PKEY_CTX_free(ctx);
    OSSL_PARAM_free(params);
    return pkey;
}

static EVP_PKEY *rsa_key(const cJSON *jwk, char *why, size_t n)
{
    size_t nlen = 0, elen = 0;
    unsigned char *nb = member_bytes(jwk, "n", &nlen), *eb = member_bytes(jwk, "e", &elen);
    EVP_PKEY *pkey = NULL;
    BIGNUM *bn_n = NULL, *bn_e = NULL;
    OSSL_PARAM_BLD *bld = NULL;
    if (nb == NULL || eb == NULL) {
        snprintf(why, n, "its RSA members n and e are missing or not base64url");
        goto out;
    }
    bn_n = BN_bin2bn(nb, (int) nlen, NULL);
    bn_e = BN_bin2bn(eb, (int) elen, NULL);
    if (bn_n == NULL || bn_e == NULL) {
        snprintf(why, n, "libcrypto could not read its RSA members");
        goto out;
    }
    if (BN_num_bits(bn_n) < JOSE_RSA_MIN_BITS) {
        snprintf(why, n, "its RSA modulus has %d bits (at least %d are required)",
                 BN_num_bits(bn_n), JOSE_RSA_MIN_BITS);
        goto out;
    }
    bld = OSSL_PARAM_BLD_new();
    if (bld == NULL || !OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_N, bn_n) ||
        !OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_E, bn_e) ||
        (pkey = from_params("RSA", bld)) == NULL)
        snprintf(why, n, "libcrypto refused its RSA members");
out:
    OSSL_PARAM_BLD_free(bld);
    BN_free(bn_n);
    BN_free(bn_e);
    free(nb);
    free(eb);
    return pkey;
}

static EVP_PKEY *ec_key(const cJSON *jwk, char *why, size_t n)
{
    const char *crv = str_member(jwk, "crv");
    if (crv == NULL || strcmp(crv, "P-256") != 0) {
        snprintf(why, n, "its EC curve %.40s is not supported (P-256 is)", crv ? crv : "(none)");
        return NULL;
    }
    size_t xlen = 0, ylen = 0;
    unsigned char *x = member_bytes(jwk, "x", &xlen), *y = member_bytes(jwk, "y", &ylen);
    EVP_PKEY *pkey = NULL;
    OSSL_PARAM_BLD *bld = NULL;
    if (x == NULL || y == NULL || xlen != 32 || ylen != 32) {
        snprintf(why, n, "its EC members x and y are not 32-byte base64url values");
        goto out;
    }
    unsigned char point[65];
    point[0] = 0x04; /* uncompressed */
    memcpy(point + 1, x, 32);
    memcpy(point + 33, y, 32);
    bld = OSSL_PARAM_BLD_new();
    if (bld == NULL ||
        !OSSL_PARAM_BLD_push_utf8_string(bld, OSSL_PKEY_PARAM_GROUP_NAME, "prime256v1", 0) ||
        !OSSL_PARAM_BLD_push_octet_string(bld, OSSL_PKEY_PARAM_PUB_KEY, point, sizeof point) ||
        (pkey = from_params("EC", bld)) == NULL) {
        snprintf(why, n, "its EC point is not on the P-256 curve");
        goto out;
    }
    EVP_PKEY_CTX *chk = EVP_PKEY_CTX_new_from_pkey(NULL, pkey, NULL);
    if (chk == NULL || EVP_PKEY_public_check(chk) != 1) {
        snprintf(why, n, "its EC point failed libcrypto's public key check");
        EVP_PKEY_free(pkey);
        pkey = NULL;
    }
    EVP_PKEY_CTX_free(chk);
out:
    OSSL_PARAM_BLD_free(bld);
    free(x);
    free(y);
    return pkey;
}

static EVP_PKEY *okp_key(const cJSON *jwk, char *why, size_t n)
{
    const char *crv = str_member(jwk, "crv");
    if (crv == NULL || strcmp(crv, "Ed25519") != 0) {
        snprintf(why, n, "its OKP curve %.40s is not supported (Ed25519 is)", crv ? crv : "(none)");
        return NULL;
    }
    size_t xlen = 0;
    unsigned char *x = member_bytes(jwk, "x", &xlen);
    EVP_PKEY *pkey = NULL;
    if (x == NULL || xlen != 32)
        snprintf(why, n, "its OKP member x is not a 32-byte base64url value");
    else if ((pkey = EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, NULL, x, xlen)) == NULL)
        snprintf(why, n, "libcrypto refused its Ed25519 public key");
    free(x);
    return pkey;
}

static EVP_MD_CTX *verify_ctx(EVP_PKEY *pkey, enum jose_alg alg);

static int ops_allow_verify(const cJSON *jwk)
{
    const cJSON *ops = cJSON_GetObjectItemCaseSensitive(jwk, "key_ops");
    if (ops == NULL)
        return 1;
    const cJSON *op;
    cJSON_ArrayForEach(op, ops)
    {
        if (cJSON_IsString(op) && strcmp(op->valuestring, "verify") == 0)
            return 1;
    }
    return 0;
}

int jose_key_from_jwk(const cJSON *jwk, struct jose_key *key, char *why, size_t n)
{
    memset(key, 0, sizeof *key);
    if (!cJSON_IsObject(jwk)) {
        snprintf(why, n, "it is not a JSON object");
        return -1;
    }
    const char *kty = str_member(jwk, "kty"), *use = str_member(jwk, "use");
    const char *alg = str_member(jwk, "alg"), *kid = str_member(jwk, "kid");
    if (use && strcmp(use, "sig") != 0) {
        snprintf(why, n, "its use is \"%.20s\", not \"sig\"", use);
        return -1;
    }
    if (!ops_allow_verify(jwk)) {
        snprintf(why, n, "its key_ops do not include \"verify\"");
        return -1;
    }
    if (cJSON_GetObjectItemCaseSensitive(jwk, "d") || cJSON_GetObjectItemCaseSensitive(jwk, "p")) {
        snprintf(why, n, "it holds private key members (a JWKS publishes public keys only)");
        return -1;
    }
    if (alg) {
        key->alg = jose_alg_parse(alg);
        if (key->alg == JOSE_ALG_NONE) {
            snprintf(why, n, "its alg %.40s is not one we verify (RS256, PS256, ES256, EdDSA)",
                     alg);
            return -1;
        }
    }
    if (kty && strcmp(kty, "RSA") == 0) {
        key->kty = JOSE_KTY_RSA;
        key->pkey = rsa_key(jwk, why, n);
    } else if (kty && strcmp(kty, "EC") == 0) {
        key->kty = JOSE_KTY_EC_P256;
        key->pkey = ec_key(jwk, why, n);
    } else if (kty && strcmp(kty, "OKP") == 0) {
        key->kty = JOSE_KTY_ED25519;
        key->pkey = okp_key(jwk, why, n);
    } else {
        snprintf(why, n, "its kty %.20s is not supported (RSA, EC, OKP are)", kty ? kty : "(none)");
        return -1;
    }
    if (key->pkey == NULL) {
        ERR_clear_error();
        return -1;
    }
    if (key->alg != JOSE_ALG_NONE && !jose_key_allows(key, key->alg)) {
        snprintf(why, n, "its alg %s does not fit its key type", alg);
        jose_key_clear(key);
        return -1;
    }
    key->kid = kid ? xstrdup(kid) : NULL;
    for (int a = JOSE_ALG_RS256; a <= JOSE_ALG_EDDSA; a++)
        if (jose_key_allows(key, (enum jose_alg) a))
            key->ready[a] = verify_ctx(key->pkey, (enum jose_alg) a);
    ERR_clear_error(); /* a context that could not be set up is set up per check */
    return 0;
}

void jose_key_clear(struct jose_key *key)
{
    for (size_t a = 0; a < sizeof key->ready / sizeof key->ready[0]; a++)
        EVP_MD_CTX_free(key->ready[a]);
    EVP_PKEY_free(key->pkey);
    free(key->kid);
    memset(key, 0, sizeof *key);
}

int jose_key_allows(const struct jose_key *key, enum jose_alg alg)
{
    if (alg == JOSE_ALG_NONE || key->pkey == NULL)
        return 0;
    if (key->alg != JOSE_ALG_NONE && key->alg != alg)
        return 0;
    switch (key->kty) {
    case JOSE_KTY_RSA:
        return alg == JOSE_ALG_RS256 || alg == JOSE_ALG_PS256;
    case JOSE_KTY_EC_P256:
        return alg == JOSE_ALG_ES256;
    case JOSE_KTY_ED25519:
        return alg == JOSE_ALG_EDDSA;
    default:
        return 0;
    }
}

/* JOSE's ES256 signature (r and s, 32 bytes each, big-endian) as the DER
 * ECDSA-Sig-Value libcrypto verifies. Returns the DER length, or -1. */
static int es256_der(const unsigned char *sig, size_t siglen, unsigned char **der)
{
    if (siglen != 64)
        return -1;
    ECDSA_SIG *es = ECDSA_SIG_new();
    BIGNUM *r = BN_bin2bn(sig, 32, NULL), *s = BN_bin2bn(sig + 32, 32, NULL);
    if (es == NULL || r == NULL || s == NULL || !ECDSA_SIG_set0(es, r, s)) {
        BN_free(r);
        BN_free(s);
        ECDSA_SIG_free(es);
        return -1;
    }
    *der = NULL;
    int len = i2d_ECDSA_SIG(es, der);
    ECDSA_SIG_free(es);
    return len > 0 ? len : -1;
}

/* A context ready to verify alg's signatures with pkey, or NULL. */
static EVP_MD_CTX *verify_ctx(EVP_PKEY *pkey, enum jose_alg alg)
{
    EVP_MD_CTX *md = EVP_MD_CTX_new();
    EVP_PKEY_CTX *pctx = NULL;
    if (md == NULL)
        return NULL;
    const EVP_MD *digest = alg == JOSE_ALG_EDDSA ? NULL : EVP_sha256();
    if (EVP_DigestVerifyInit(md, &pctx, digest, NULL, pkey) <= 0)
        goto fail;
    if (alg == JOSE_ALG_PS256 &&
        (EVP_PKEY_CTX_set_rsa_padding(pctx, RSA_PKCS1_PSS_PADDING) <= 0 ||
         EVP_PKEY_CTX_set_rsa_pss_saltlen(pctx, RSA_PSS_SALTLEN_DIGEST) <= 0 ||
         EVP_PKEY_CTX_set_rsa_mgf1_md(pctx, EVP_sha256()) <= 0))
        goto fail;
    if (alg == JOSE_ALG_RS256 && EVP_PKEY_CTX_set_rsa_padding(pctx, RSA_PKCS1_PADDING) <= 0)
        goto fail;
    return md;
fail:
    EVP_MD_CTX_free(md);
    return NULL;
}

/* A context for one check of alg with key: a copy of the one set up when
 * the key was built, else one set up now. */
static EVP_MD_CTX *check_ctx(const struct jose_key *key, enum jose_alg alg)
{
    const EVP_MD_CTX *ready = key->ready[alg];
    if (ready) {
        EVP_MD_CTX *md = EVP_MD_CTX_new();
        if (md && EVP_MD_CTX_copy_ex(md, ready) == 1)
            return md;
        EVP_MD_CTX_free(md);
        ERR_clear_error();
    }
    return verify_ctx(key->pkey, alg);
}

int jose_verify(const struct jose_key *key, enum jose_alg alg, const unsigned char *input,
                size_t len, const unsigned char *sig, size_t siglen)
{
    if (!jose_key_allows(key, alg))
        return 0;
    unsigned char *der = NULL;
    if (alg == JOSE_ALG_ES256) {
        int dlen = es256_der(sig, siglen, &der);
        if (dlen < 0)
            return 0;
        sig = der;
        siglen = (size_t) dlen;
    } else if (alg == JOSE_ALG_EDDSA && siglen != 64) {
        return 0;
    }
    int rc = -1;
    EVP_MD_CTX *md = check_ctx(key, alg);
    if (md) {
        /* used once: the final step need not keep it reusable (a copy less) */
        EVP_MD_CTX_set_flags(md, EVP_MD_CTX_FLAG_FINALISE);
        rc = EVP_DigestVerify(md, sig, siglen, input, len) == 1 ? 1 : 0;
    }
    EVP_MD_CTX_free(md);
    OPENSSL_free(der);
    ERR_clear_error(); /* a refusal leaves reasons on the thread's queue, where libcurl reads */
    return rc;
}

/* SHA-256 fetched from the default provider once (EVP_sha256() fetches it
 * again at every use); kept for the life of the process. */
static EVP_MD *sha256_md;
static CRYPTO_ONCE sha256_once = CRYPTO_ONCE_STATIC_INIT;

static void fetch_sha256(void)
{
    sha256_md = EVP_MD_fetch(NULL, "SHA256", NULL);
}

int jose_sha256(EVP_MD_CTX *reuse, const void *data, size_t len, unsigned char out[32])
{
    unsigned int n = 0;
    if (!CRYPTO_THREAD_run_once(&sha256_once, fetch_sha256) || sha256_md == NULL)
        return -1;
    if (reuse == NULL)
        return EVP_Digest(data, len, out, &n, sha256_md, NULL) == 1 && n == 32 ? 0 : -1;
    return EVP_DigestInit_ex(reuse, sha256_md, NULL) == 1 &&
                   EVP_DigestUpdate(reuse, data, len) == 1 &&
                   EVP_DigestFinal_ex(reuse, out, &n) == 1 && n == 32
               ? 0
               : -1;
}
