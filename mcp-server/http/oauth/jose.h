/* JOSE primitives for verifying access tokens, all cryptography through
 * OpenSSL's libcrypto: strict base64url (RFC 7515 section 2, no padding),
 * a public JWK (RFC 7517/7518/8037: RSA, EC P-256, OKP Ed25519) turned into
 * an EVP_PKEY together with the one signature family it may verify, and a
 * JWS signature check (RS256, PS256, ES256 with JOSE's raw r||s form, EdDSA).
 * Pure, no I/O. */
#ifndef MCP_SERVER_HTTP_OAUTH_JOSE_H
#define MCP_SERVER_HTTP_OAUTH_JOSE_H

#include <cjson/cJSON.h>
#include <openssl/types.h>
#include <stddef.h>

/* The signature algorithms accepted (RFC 7518 names). */
enum jose_alg {
    JOSE_ALG_NONE = 0, /* unknown or refused ("none", HMAC, anything else) */
    JOSE_ALG_RS256,
    JOSE_ALG_PS256,
    JOSE_ALG_ES256,
    JOSE_ALG_EDDSA
};

/* The algorithm named by a JWS header's alg, or JOSE_ALG_NONE. */
enum jose_alg jose_alg_parse(const char *name);
const char *jose_alg_name(enum jose_alg alg);

/* Decodes base64url text in[0..n) into out (room for n * 3 / 4 + 1 bytes).
 * Strict: the URL-safe alphabet only, no padding or whitespace, no lone
 * final digit, unused bits zero. Returns the number of bytes, or -1. */
long jose_b64url_decode(const char *in, size_t n, unsigned char *out);

/* Room jose_b64url_decode needs for n characters. */
#define JOSE_B64URL_DECODED_MAX(n) ((n) *3 / 4 + 1)

/* A verification key of a JWKS. */
struct jose_key {
    char *kid;         /* malloc'd, or NULL when the JWK has none */
    enum jose_alg alg; /* the JWK's alg when it names one, else JOSE_ALG_NONE */
    int kty;           /* JOSE_KTY_* */
    EVP_PKEY *pkey;
    /* Per algorithm the key allows: a verification context set up once
     * (EVP_DigestVerifyInit with pkey, the digest and the padding), copied
     * for every check instead of set up again, which costs OpenSSL 3 about
     * as much as the RSA operation itself. NULL: set up afresh per check. */
    EVP_MD_CTX *ready[JOSE_ALG_EDDSA + 1];
};

enum { JOSE_KTY_RSA = 1, JOSE_KTY_EC_P256, JOSE_KTY_ED25519 };

#define JOSE_RSA_MIN_BITS 2048

/* Builds key from a public JWK. 0, or -1 with a sentence in why (n bytes):
 * an unsupported kty or curve, a use other than "sig", key_ops without
 * "verify", an alg we do not verify, private members, an RSA modulus under
 * JOSE_RSA_MIN_BITS, a point not on the curve. */
int jose_key_from_jwk(const cJSON *jwk, struct jose_key *key, char *why, size_t n);
void jose_key_clear(struct jose_key *key);

/* 1 when a token signed with alg may be checked with key: the family of the
 * key's type (RSA: RS256 or PS256; EC P-256: ES256; Ed25519: EdDSA), and
 * the key's own alg when it names one. The token's header alone never
 * chooses the algorithm. */
int jose_key_allows(const struct jose_key *key, enum jose_alg alg);

/* Checks the JWS signature sig[0..siglen) over input[0..len) with key for
 * alg (which jose_key_allows). 1 valid, 0 invalid (a malformed signature
 * included), -1 when libcrypto failed otherwise. */
int jose_verify(const struct jose_key *key, enum jose_alg alg, const unsigned char *input,
                size_t len, const unsigned char *sig, size_t siglen);

/* SHA-256 of data through libcrypto into out[32]. reuse: a context
 * (EVP_MD_CTX_new) kept by the caller for many digests, which spares
 * setting one up each time; NULL: a context of its own. 0, or -1. */
int jose_sha256(EVP_MD_CTX *reuse, const void *data, size_t len, unsigned char out[32]);

#endif
