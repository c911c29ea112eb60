/* The inbound access token of the HTTP endpoint when codemode.http.oauth is
 * set (an OAuth 2.1 protected resource): a JWT verified on the host against
 * the authorization server's JWKS (RS256, PS256, ES256, EdDSA through
 * OpenSSL's libcrypto; the algorithm taken from the key, never from the token
 * alone), or an opaque token introspected (RFC 7662) when introspection is
 * configured. The issuer's metadata (RFC 8414 / OpenID discovery) names the
 * JWKS when jwksUri is not set. Keys are cached with their HTTP caching
 * headers and refreshed on an unknown kid, rate-limited; when a refresh
 * fails, the last good keys stay in use for a bounded time past their
 * lifetime (stale-if-error; an unknown kid is still refused). A JWT once
 * verified is remembered by its SHA-256 until it expires or the key set
 * changes; introspection answers likewise, for a bounded time. Runs on the
 * libuv loop and never blocks it. The verifier does not check
 * required_scopes: the endpoint does (http_token_scopes_cover), to answer
 * 403 insufficient_scope rather than 401. */
#ifndef MCP_SERVER_HTTP_OAUTH_VERIFIER_H
#define MCP_SERVER_HTTP_OAUTH_VERIFIER_H

#include <stddef.h>
#include <stdint.h>
#include <uv.h>

struct http_client;

/* codemode.http.oauth, as the config gives it (strings borrowed for the life
 * of the verifier). */
struct http_oauth_settings {
    const char *issuer;   /* required: the authorization server */
    const char *audience; /* required here: the config defaults it to codemode.http.publicUrl */
    const char *jwks_uri; /* NULL: jwks_uri of the issuer's metadata */
    const char *introspection_url; /* NULL: opaque tokens are refused */
    const char *introspection_client_id;
    const char *introspection_client_secret;
    char *const *required_scopes;  /* NULL-terminated, or NULL: every request needs them */
    char *const *scopes_supported; /* NULL-terminated, or NULL: for the resource metadata */
    unsigned clock_skew_seconds;   /* leeway on exp, nbf, iat */
};

/* Who a valid token speaks for. Borrowed for the callback only. */
struct http_token_identity {
    const char *iss;       /* the issuer, as in the token (or introspection answer) */
    const char *sub;       /* the subject */
    char *const *scopes;   /* NULL-terminated granted scopes (may be empty) */
    int64_t exp;           /* expiry, seconds since the epoch (0: none given) */
    const char *client_id; /* the client the token was issued to, or NULL */
};

enum http_token_status {
    HTTP_TOKEN_VALID = 0,
    HTTP_TOKEN_INVALID,    /* 401 error="invalid_token": reason says why (logged, not sent) */
    HTTP_TOKEN_UNAVAILABLE /* keys or introspection unreachable: fail closed (503 or 401) */
};

typedef void http_token_cb(void *ud, enum http_token_status status,
                           const struct http_token_identity *id, const char *reason);

struct http_token_verifier;
struct http_token_check;

/* Creates a verifier (copies nothing it does not need to keep; settings must
 * outlive it). hc makes its JWKS, metadata and introspection requests.
 * NULL with a sentence in err (errlen bytes) when libcrypto cannot be used
 * or the settings are unusable. */
struct http_token_verifier *http_token_verifier_new(uv_loop_t *loop, struct http_client *hc,
                                                    const struct http_oauth_settings *s, char *err,
                                                    size_t errlen);

/* Cancels every pending check (no callback follows) and frees v (its
 * memory once the loop has run again). Free it before its http_client. */
void http_token_verifier_free(struct http_token_verifier *v);

/* The fast path: a JWT whose key is cached, checked at once. Returns
 * HTTP_TOKEN_VALID (id filled, valid until the next call into v),
 * HTTP_TOKEN_INVALID (reason set), or -1 when the answer needs the network
 * (an unknown kid, no keys yet, an opaque token): then call
 * http_token_verify. */
int http_token_verify_cached(struct http_token_verifier *v, const char *token, size_t len,
                             struct http_token_identity *id, const char **reason);

/* The full check, fetching keys or introspecting as needed. cb runs once,
 * from the loop, never inside this call. Returns a handle to cancel with
 * http_token_check_cancel (no callback follows). */
struct http_token_check *http_token_verify(struct http_token_verifier *v, const char *token,
                                           size_t len, http_token_cb *cb, void *ud);
void http_token_check_cancel(struct http_token_check *c);

/* Tuning of the caches and of the rate limit (seconds; 0 keeps the
 * default). For tests and for the config's future knobs. */
struct http_token_limits {
    unsigned jwks_min_seconds;       /* floor on a JWKS's Cache-Control max-age [60] */
    unsigned jwks_max_seconds;       /* ceiling [86400] */
    unsigned jwks_default_seconds;   /* without a usable Cache-Control [300] */
    unsigned refetch_seconds;        /* an unknown kid refetches the JWKS at most this often [30] */
    unsigned failure_retry_seconds;  /* after a failed JWKS fetch, refuse without fetching [5] */
    unsigned stale_if_error_seconds; /* keys past their lifetime whose refresh failed stay in
                                        use this long past it [600]; HTTP_TOKEN_LIMIT_NONE:
                                        not at all (refused as soon as they expire) */
    unsigned introspection_seconds;  /* an active answer is kept at most this long [300] */
    unsigned introspection_negative_seconds; /* an inactive one [30] */
    unsigned introspection_entries;          /* answers kept [1024] */
    unsigned verified_entries;               /* JWTs kept once verified (by SHA-256) [1024];
                                                HTTP_TOKEN_LIMIT_NONE: none, every check verifies */
};
#define HTTP_TOKEN_LIMIT_NONE 0xffffffffu
void http_token_verifier_set_limits(struct http_token_verifier *v,
                                    const struct http_token_limits *l);

/* What the verifier did so far (for tests, benchmarks and logs). */
struct http_token_stats {
    uint64_t metadata_fetches;   /* authorization server metadata requests */
    uint64_t jwks_fetches;       /* JWKS requests */
    uint64_t jwks_failures;      /* of which failed */
    uint64_t stale_key_checks;   /* tokens checked with keys past their lifetime whose
                                    refresh failed (stale-if-error) */
    uint64_t introspections;     /* introspection requests */
    uint64_t introspection_hits; /* answers taken from the cache */
    uint64_t verified_hits;      /* JWTs found already verified */
};
void http_token_verifier_stats(const struct http_token_verifier *v, struct http_token_stats *s);

/* 1 when id's scopes include every scope of required (NULL-terminated; NULL
 * or empty: 1). Else 0, with the first missing scope in *missing when
 * missing is not NULL. The endpoint answers 403 insufficient_scope then;
 * the verifier itself does not check required_scopes. */
int http_token_scopes_cover(const struct http_token_identity *id, char *const *required,
                            const char **missing);

/* The longest token accepted (bytes): longer ones are refused at once. */
#define HTTP_TOKEN_MAX_BYTES 16384

#endif
