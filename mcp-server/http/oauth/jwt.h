/* A JWT access token (RFC 7519, RFC 9068) taken apart and judged: the
 * compact form split and decoded (size-capped before any allocation), the
 * signature checked against a set of keys whose type decides the algorithm,
 * and the claims checked (iss, aud, exp, nbf, iat with a skew, sub) into the
 * identity the endpoint uses. Pure, no I/O; the clock is a parameter. */
#ifndef MCP_SERVER_HTTP_OAUTH_JWT_H
#define MCP_SERVER_HTTP_OAUTH_JWT_H

#include "mcp-server/http/oauth/jose.h"

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>

/* The longest token looked at (bytes); longer ones are refused at once. */
#define JWT_MAX_BYTES 16384

struct jwt {
    cJSON *header, *payload;
    enum jose_alg alg;
    const char *alg_name; /* the header's alg as written (in header) */
    const char *kid;      /* in header, or NULL */
    size_t signing_len;   /* the bytes before the second dot are signed */
    unsigned char *sig;
    size_t sig_len;
};

/* 1 when token[0..len) has the shape of a JWS compact serialization (two
 * dots); 0 otherwise (an opaque token, or a JWE with four). */
int jwt_shaped(const char *token, size_t len);

/* Splits and decodes token; the alg must be one we verify. 0, or -1 with
 * a phrase in why (n bytes). Clear jwt with jwt_clear either way. */
int jwt_parse(const char *token, size_t len, struct jwt *jwt, char *why, size_t n);
void jwt_clear(struct jwt *jwt);

/* Checks the signature with key (which must allow jwt->alg). 1, 0, -1 as
 * jose_verify. */
int jwt_signature_ok(const struct jwt *jwt, const char *token, const struct jose_key *key);

/* What the claims must satisfy. */
struct jwt_rules {
    const char *issuer;
    const char *audience;
    unsigned clock_skew_seconds;
};

/* The identity a token speaks for, owned (strings malloc'd). */
struct jwt_identity {
    char *iss, *sub, *client_id;
    char **scopes; /* NULL-terminated, never NULL once filled */
    int64_t exp;
};

/* Checks the claims of a parsed token at time now (seconds since the
 * epoch) and fills id. 0, or -1 with a phrase in why. */
int jwt_check_claims(const cJSON *payload, const struct jwt_rules *r, int64_t now,
                     struct jwt_identity *id, char *why, size_t n);

/* The shared claim checks of an introspection answer (RFC 7662): iss when
 * present, aud when present, exp when present, sub required (client_id
 * stands for it when it is absent: a client_credentials token). */
int jwt_check_introspection(const cJSON *answer, const struct jwt_rules *r, int64_t now,
                            struct jwt_identity *id, char *why, size_t n);

void jwt_identity_clear(struct jwt_identity *id);
void jwt_identity_copy(struct jwt_identity *dst, const struct jwt_identity *src);

#endif
