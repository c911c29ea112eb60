/* A JSON Web Key Set (RFC 7517 section 5) as verification keys: the
 * usable keys of a document (keys we cannot use are skipped and counted,
 * not fatal), found by kid, and how long the document may be kept by its
 * Cache-Control. Pure, no I/O. */
#ifndef MCP_SERVER_HTTP_OAUTH_JWKS_H
#define MCP_SERVER_HTTP_OAUTH_JWKS_H

#include "mcp-server/http/oauth/jose.h"

#include <cjson/cJSON.h>
#include <stddef.h>

#define JWKS_MAX_KEYS 64 /* keys kept from one document */

struct jwks {
    struct jose_key *keys;
    size_t n;
    size_t skipped; /* keys of the document we could not use */
};

/* Reads a JWKS document into set. 0 (with at least one usable key), or -1
 * with a sentence in why (n bytes): not an object with a keys array, or no
 * key we can use (the first reason given). */
int jwks_parse(const cJSON *doc, struct jwks *set, char *why, size_t n);
void jwks_clear(struct jwks *set);

/* The key for kid (NULL kid: the i-th key allowing alg, for tokens without
 * a kid), or NULL. */
const struct jose_key *jwks_find(const struct jwks *set, const char *kid, enum jose_alg alg,
                                 size_t i);

/* The lifetime Cache-Control grants in seconds: max-age (s-maxage is for
 * shared caches), 0 for no-store or no-cache, -1 when the header says
 * nothing usable. */
long jwks_cache_max_age(const char *cache_control);

#endif
