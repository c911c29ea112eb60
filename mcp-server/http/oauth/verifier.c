/* The inbound token verifier (see verifier.h). A check is evaluated against
 * what is cached (the JWKS, introspection answers); when that is not enough
 * it waits on the one JWKS fetch in flight (every check that needs keys
 * shares it) or on the one introspection of its token, and is evaluated
 * again when that ends. Every answer reaches its callback through the
 * next-turn queue. A JWKS refetch for an unknown kid happens at most once
 * per refetch_seconds; a failed fetch is not retried for
 * failure_retry_seconds, and tokens needing keys that are not held are
 * refused (fail closed) meanwhile. Keys past their lifetime whose refresh
 * failed stay in use for stale_if_error_seconds more (stale-if-error),
 * refreshed in the background every failure_retry_seconds; a kid they lack
 * is refused all the same. */
#include "mcp-server/http/oauth/verifier.h"
#include "mcp-server/http/oauth/jose.h"
#include "mcp-server/http/oauth/jwks.h"
#include "mcp-server/http/oauth/jwt.h"
#include "tools/oauth/fetch.h"
#include "tools/oauth/metadata.h"
#include "common/alloc.h"
#include "common/base64.h"
#include "common/buf.h"
#include "common/log.h"
#include "common/next_turn.h"

#include <openssl/evp.h>

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define LOG_COMP           "http-oauth"
#define MAX_INTROSPECTIONS 64 /* introspection requests in flight */

/* What the cache says about a token. */
enum eval {
    EV_VALID,
    EV_INVALID,
    EV_UNAVAILABLE,
    EV_NEED_KEYS,   /* no keys yet, or they expired */
    EV_UNKNOWN_KID, /* no cached key fits the token */
    EV_INTROSPECT   /* an opaque token without a cached answer */
};

enum wait_on { WAIT_NONE, WAIT_KEYS, WAIT_INTROSPECTION };

struct introspection;

struct http_token_check {
    struct http_token_verifier *v;
    struct http_token_check *prev, *next; /* v->checks */
    enum wait_on wait;
    struct introspection *intro;
    struct next_turn_item item;
    char *token;
    size_t len;
    http_token_cb *cb;
    void *ud;
    enum http_token_status status;
    struct jwt_identity id;
    char reason[480];
};

/* A cached introspection answer, keyed by the SHA-256 of the token. */
struct intro_entry {
    unsigned char digest[32];
    uint64_t expires_ms; /* uv_now; 0: free slot */
    int active;
    struct jwt_identity id;
    char reason[200];
};

/* A JWT already verified, keyed by the SHA-256 of the whole token (its
 * signature included): a client sends the same token with every request
 * for its lifetime, and a signature check costs 20-100 us. Valid while the
 * key set it was checked against is the current one and the token has not
 * expired. */
struct seen_entry {
    unsigned char digest[32];
    uint64_t keys_gen; /* 0: free slot */
    struct jwt_identity id;
};

/* An introspection request in flight, shared by the checks of one token. */
struct introspection {
    struct http_token_verifier *v;
    struct introspection *next;
    unsigned char digest[32];
    struct tools_oauth_fetch *fetch;
};

struct http_token_verifier {
    uv_loop_t *loop;
    struct http_client *hc;
    const struct http_oauth_settings *s;
    struct http_token_limits lim;
    struct http_token_stats stats;
    struct jwt_rules rules;
    struct next_turn q;
    struct http_token_check checks; /* list head (circular) */

    /* keys */
    struct jwks keys;
    int have_keys;
    uint64_t keys_gen;       /* bumped with every key set taken */
    struct seen_entry *seen; /* direct-mapped, seen_cap slots */
    EVP_MD_CTX *sha;         /* the tokens' SHA-256, one context for all */
    size_t seen_cap;
    uint64_t keys_expire_ms;
    uint64_t last_fetch_ms; /* when the last JWKS fetch started */
    uint64_t fail_ms;       /* when the last fetch failed, 0: it did not */
    int refresh_failed;     /* fetching the held keys again failed (until a fetch succeeds) */
    char fail_reason[300];
    char *discovered_jwks_uri;
    char **metadata_urls; /* discovery in progress: the URLs to try */
    size_t metadata_next;
    struct tools_oauth_fetch *fetch; /* metadata or JWKS request in flight */

    /* introspection */
    struct intro_entry *intro_cache;
    size_t intro_cap;
    struct introspection *intros;
    size_t intros_n;

    /* verify_cached's answer, kept until the next call */
    struct jwt_identity last;
    char last_why[320];
};

static const struct http_token_limits default_limits = {
    .jwks_min_seconds = 60,
    .jwks_max_seconds = 86400,
    .jwks_default_seconds = 300,
    .refetch_seconds = 30,
    .failure_retry_seconds = 5,
    .stale_if_error_seconds = 600,
    .introspection_seconds = 300,
    .introspection_negative_seconds = 30,
    .introspection_entries = 1024,
    .verified_entries = 1024,
};

static uint64_t now_ms(const struct http_token_verifier *v)
{
    return uv_now(v->loop);
}

static int64_t wall_now(void)
{
    return (int64_t) time(NULL);
}

static uint64_t stale_ms(const struct http_token_verifier *v)
{
    unsigned s = v->lim.stale_if_error_seconds;
    return s == HTTP_TOKEN_LIMIT_NONE ? 0 : (uint64_t) s * 1000;
}

/* 1 when the held keys may check a token: within their lifetime, or past it
 * by less than stale_if_error_seconds once fetching them again failed
 * (*stale set then). */
static int keys_usable(const struct http_token_verifier *v, int *stale)
{
    uint64_t now = now_ms(v);
    *stale = 0;
    if (!v->have_keys)
        return 0;
    if (now < v->keys_expire_ms)
        return 1;
    if (!v->refresh_failed || now >= v->keys_expire_ms + stale_ms(v))
        return 0;
    *stale = 1;
    return 1;
}

/* --- evaluation against the caches --------------------------------------------------------- */

/* RFC 6750's b64token: what an Authorization: Bearer value may hold. */
static int b64token(const char *t, size_t len)
{
    size_t i = 0;
    for (; i < len; i++) {
        unsigned char c = (unsigned char) t[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '-' || c == '.' || c == '_' || c == '~' || c == '+' || c == '/'))
            break;
    }
    while (i < len && t[i] == '=')
        i++;
    return i == len && len > 0;
}

static struct intro_entry *intro_lookup(struct http_token_verifier *v,
                                        const unsigned char digest[32])
{
    uint64_t now = now_ms(v);
    for (size_t i = 0; i < v->intro_cap; i++) {
        struct intro_entry *e = &v->intro_cache[i];
        if (e->expires_ms && e->expires_ms > now && memcmp(e->digest, digest, 32) == 0)
            return e;
    }
    return NULL;
}

static enum eval eval_opaque(struct http_token_verifier *v, const char *token, size_t len,
                             struct jwt_identity *id, char *why, size_t n)
{
    if (v->s->introspection_url == NULL) {
        snprintf(why, n,
                 "it is not a JWT, and opaque tokens need introspection, which is not "
                 "configured");
        return EV_INVALID;
    }
    unsigned char digest[32];
    if (jose_sha256(v->sha, token, len, digest) != 0) {
        snprintf(why, n, "libcrypto could not hash it");
        return EV_UNAVAILABLE;
    }
    struct intro_entry *e = intro_lookup(v, digest);
    if (e == NULL)
        return EV_INTROSPECT;
    v->stats.introspection_hits++;
    if (!e->active) {
        snprintf(why, n, "%s", e->reason);
        return EV_INVALID;
    }
    if (e->id.exp && wall_now() >= e->id.exp + (int64_t) v->s->clock_skew_seconds) {
        snprintf(why, n, "it expired %lld s ago", (long long) (wall_now() - e->id.exp));
        return EV_INVALID;
    }
    jwt_identity_copy(id, &e->id);
    return EV_VALID;
}

static enum eval eval_jwt(struct http_token_verifier *v, const char *token, size_t len,
                          struct jwt_identity *id, char *why, size_t n)
{
    struct jwt jwt;
    enum eval ev = EV_INVALID;
    unsigned char digest[32];
    struct seen_entry *slot = NULL;
    int stale;
    int fresh = keys_usable(v, &stale);
    if (fresh && v->seen_cap && jose_sha256(v->sha, token, len, digest) == 0) {
        uint64_t h;
        memcpy(&h, digest, sizeof h);
        slot = &v->seen[h % v->seen_cap];
        if (slot->keys_gen == v->keys_gen && memcmp(slot->digest, digest, 32) == 0) {
            int64_t now = wall_now();
            if (now < slot->id.exp + (int64_t) v->rules.clock_skew_seconds) {
                v->stats.verified_hits++;
                v->stats.stale_key_checks += (uint64_t) stale;
                jwt_identity_copy(id, &slot->id);
                return EV_VALID;
            }
            slot->keys_gen = 0; /* expired: checked in full below, and refused */
            jwt_identity_clear(&slot->id);
        }
    }
    if (jwt_parse(token, len, &jwt, why, n) != 0)
        goto out;
    if (!fresh) {
        snprintf(why, n, "the keys of %.200s are %s", v->s->issuer,
                 v->have_keys ? "past their lifetime" : "not fetched yet");
        ev = EV_NEED_KEYS;
        goto out;
    }
    const struct jose_key *key = NULL;
    int ok = 0;
    if (jwt.kid) {
        key = jwks_find(&v->keys, jwt.kid, jwt.alg, 0);
        if (key == NULL) {
            snprintf(why, n, "no key of the JWKS has its kid \"%.80s\"", jwt.kid);
            ev = EV_UNKNOWN_KID;
            goto out;
        }
        if (!jose_key_allows(key, jwt.alg)) {
            snprintf(why, n, "its alg %s does not fit key \"%.80s\" (the key decides)",
                     jose_alg_name(jwt.alg), jwt.kid);
            goto out;
        }
        ok = jwt_signature_ok(&jwt, token, key);
    } else {
        for (size_t i = 0; (key = jwks_find(&v->keys, NULL, jwt.alg, i)) != NULL && ok != 1; i++)
            ok = jwt_signature_ok(&jwt, token, key);
        if (jwks_find(&v->keys, NULL, jwt.alg, 0) == NULL) {
            snprintf(why, n, "it names no kid and no key of the JWKS is for %s",
                     jose_alg_name(jwt.alg));
            ev = EV_UNKNOWN_KID;
            goto out;
        }
    }
    if (ok < 0) {
        snprintf(why, n, "libcrypto failed to check its signature");
        goto out;
    }
    if (ok == 0) {
        snprintf(why, n, "its signature does not verify");
        goto out;
    }
    if (jwt_check_claims(jwt.payload, &v->rules, wall_now(), id, why, n) == 0) {
        ev = EV_VALID;
        v->stats.stale_key_checks += (uint64_t) stale;
        if (slot) {
            jwt_identity_clear(&slot->id);
            memcpy(slot->digest, digest, 32);
            slot->keys_gen = v->keys_gen;
            jwt_identity_copy(&slot->id, id);
        }
    }
out:
    jwt_clear(&jwt);
    return ev;
}

static enum eval evaluate(struct http_token_verifier *v, const char *token, size_t len,
                          struct jwt_identity *id, char *why, size_t n)
{
    memset(id, 0, sizeof *id);
    if (token == NULL || len == 0) {
        snprintf(why, n, "the token is empty");
        return EV_INVALID;
    }
    if (len > HTTP_TOKEN_MAX_BYTES) {
        snprintf(why, n, "the token is %zu bytes long (at most %d are accepted)", len,
                 HTTP_TOKEN_MAX_BYTES);
        return EV_INVALID;
    }
    if (!b64token(token, len)) {
        snprintf(why, n, "the token holds characters a bearer token cannot (RFC 6750)");
        return EV_INVALID;
    }
    if (jwt_shaped(token, len))
        return eval_jwt(v, token, len, id, why, n);
    return eval_opaque(v, token, len, id, why, n);
}

static void start_keys_fetch(struct http_token_verifier *v);

/* Keys in use past their lifetime (stale-if-error) are fetched again every
 * failure_retry_seconds, in the background: no check waits for it. */
static void refresh_stale(struct http_token_verifier *v)
{
    int stale;
    uint64_t now = now_ms(v);
    if (v->fetch == NULL && keys_usable(v, &stale) && stale &&
        now - v->fail_ms >= (uint64_t) v->lim.failure_retry_seconds * 1000)
        start_keys_fetch(v);
}

/* --- the fast path ----------------------------------------------------------------------- */

static void fill_identity(struct http_token_identity *out, const struct jwt_identity *id)
{
    out->iss = id->iss;
    out->sub = id->sub;
    out->scopes = id->scopes;
    out->exp = id->exp;
    out->client_id = id->client_id;
}

int http_token_verify_cached(struct http_token_verifier *v, const char *token, size_t len,
                             struct http_token_identity *id, const char **reason)
{
    char *why = v->last_why;
    refresh_stale(v);
    jwt_identity_clear(&v->last);
    enum eval ev = evaluate(v, token, len, &v->last, why, sizeof v->last_why);
    if (ev == EV_VALID) {
        fill_identity(id, &v->last);
        return HTTP_TOKEN_VALID;
    }
    if (ev == EV_INVALID) {
        *reason = why;
        return HTTP_TOKEN_INVALID;
    }
    return -1;
}

/* --- answers ----------------------------------------------------------------------------- */

static void check_unlink(struct http_token_check *c)
{
    c->prev->next = c->next;
    c->next->prev = c->prev;
    c->prev = c->next = c;
}

static void check_free(struct http_token_check *c)
{
    jwt_identity_clear(&c->id);
    free(c->token);
    free(c);
}

static void deliver(struct next_turn_item *it)
{
    struct http_token_check *c =
        (struct http_token_check *) ((char *) it - offsetof(struct http_token_check, item));
    struct http_token_identity id = {0};
    check_unlink(c);
    if (c->status == HTTP_TOKEN_VALID)
        fill_identity(&id, &c->id);
    c->cb(c->ud, c->status, c->status == HTTP_TOKEN_VALID ? &id : NULL,
          c->status == HTTP_TOKEN_VALID ? NULL : c->reason);
    check_free(c);
}

static void answer(struct http_token_check *c, enum http_token_status status)
{
    c->status = status;
    c->wait = WAIT_NONE;
    c->intro = NULL;
    next_turn_push(&c->v->q, &c->item, deliver);
}

static void start_introspection(struct http_token_check *c);

/* Evaluates c again (after a fetch ended, or at first) and answers it or
 * makes it wait. first: the check is new (it may start a fetch). */
static void settle(struct http_token_check *c, int first)
{
    struct http_token_verifier *v = c->v;
    jwt_identity_clear(&c->id);
    enum eval ev = evaluate(v, c->token, c->len, &c->id, c->reason, sizeof c->reason);
    uint64_t now = now_ms(v);
    switch (ev) {
    case EV_VALID:
        answer(c, HTTP_TOKEN_VALID);
        return;
    case EV_INVALID:
        answer(c, HTTP_TOKEN_INVALID);
        return;
    case EV_UNAVAILABLE:
        answer(c, HTTP_TOKEN_UNAVAILABLE);
        return;
    case EV_INTROSPECT:
        if (!first) { /* the introspection just ended without a cacheable answer */
            snprintf(c->reason, sizeof c->reason, "the introspection answer could not be kept");
            answer(c, HTTP_TOKEN_UNAVAILABLE);
            return;
        }
        start_introspection(c);
        return;
    case EV_NEED_KEYS:
    case EV_UNKNOWN_KID:
        break;
    }
    if (v->fetch) { /* share the fetch in flight */
        c->wait = WAIT_KEYS;
        return;
    }
    if (!first) {
        if (ev == EV_NEED_KEYS) {
            snprintf(c->reason, sizeof c->reason, "the keys of %.100s are unavailable: %s",
                     v->s->issuer, v->fail_reason);
            answer(c, HTTP_TOKEN_UNAVAILABLE);
        } else if (v->fail_ms >= v->last_fetch_ms) { /* the refetch failed */
            size_t l = strlen(c->reason);
            snprintf(c->reason + l, sizeof c->reason - l,
                     ", and fetching the JWKS again failed: %s", v->fail_reason);
            answer(c, HTTP_TOKEN_UNAVAILABLE);
        } else {
            size_t l = strlen(c->reason);
            snprintf(c->reason + l, sizeof c->reason - l, " (the JWKS was fetched again)");
            answer(c, HTTP_TOKEN_INVALID);
        }
        return;
    }
    int can_fetch = 1;
    if (v->fail_ms && now - v->fail_ms < (uint64_t) v->lim.failure_retry_seconds * 1000) {
        if (ev == EV_NEED_KEYS) {
            snprintf(c->reason, sizeof c->reason,
                     "the keys of %.100s are unavailable (retried within %u s): %s", v->s->issuer,
                     v->lim.failure_retry_seconds, v->fail_reason);
            answer(c, HTTP_TOKEN_UNAVAILABLE);
            return;
        }
        can_fetch = 0;
    }
    if (ev == EV_UNKNOWN_KID && v->last_fetch_ms &&
        now - v->last_fetch_ms < (uint64_t) v->lim.refetch_seconds * 1000)
        can_fetch = 0;
    if (!can_fetch && v->fail_ms && v->fail_ms >= v->last_fetch_ms) {
        size_t l = strlen(c->reason); /* the last refetch failed: it cannot be checked */
        snprintf(c->reason + l, sizeof c->reason - l,
                 ", and the JWKS could not be fetched again: %s", v->fail_reason);
        answer(c, HTTP_TOKEN_UNAVAILABLE);
        return;
    }
    if (!can_fetch) {
        size_t l = strlen(c->reason);
        snprintf(c->reason + l, sizeof c->reason - l,
                 " (the JWKS was fetched %llu s ago; it is fetched again at most every %u s)",
                 (unsigned long long) ((now - v->last_fetch_ms) / 1000), v->lim.refetch_seconds);
        answer(c, HTTP_TOKEN_INVALID);
        return;
    }
    c->wait = WAIT_KEYS;
    start_keys_fetch(v);
}

/* The keys fetch ended (keys replaced, or fail_reason set): every check
 * waiting on keys is evaluated again. */
static void keys_settled(struct http_token_verifier *v)
{
    for (struct http_token_check *c = v->checks.next, *nx; c != &v->checks; c = nx) {
        nx = c->next;
        if (c->wait == WAIT_KEYS) {
            c->wait = WAIT_NONE;
            settle(c, 0);
        }
    }
}

/* --- fetching the JWKS ------------------------------------------------------------------- */

static void keys_failed(struct http_token_verifier *v, const char *fmt, const char *url,
                        const char *detail)
{
    char what[300];
    snprintf(what, sizeof what, fmt, url, detail);
    snprintf(v->fail_reason, sizeof v->fail_reason, "%s", what);
    v->fail_ms = now_ms(v);
    if (v->fail_ms == 0)
        v->fail_ms = 1;
    v->stats.jwks_failures++;
    uint64_t now = v->fail_ms, until = v->keys_expire_ms + stale_ms(v);
    if (v->have_keys) /* the keys held stay usable for a while: stale-if-error */
        v->refresh_failed = 1;
    if (v->have_keys && now < until && stale_ms(v)) {
        char left[120];
        if (now < v->keys_expire_ms)
            snprintf(left, sizeof left,
                     "for the %llu s left of their lifetime and up to %u s past it",
                     (unsigned long long) ((v->keys_expire_ms - now) / 1000),
                     v->lim.stale_if_error_seconds);
        else
            snprintf(left, sizeof left, "for %llu s more, past their lifetime",
                     (unsigned long long) ((until - now) / 1000));
        log_error(LOG_COMP,
                  "cannot fetch the keys of %s again: %s; the keys fetched before stay in use "
                  "%s (stale-if-error), and a token with a kid they lack is refused (fail "
                  "closed)",
                  v->s->issuer, what, left);
    } else
        log_error(LOG_COMP,
                  "cannot verify access tokens of %s: %s; every token needing its keys is "
                  "refused (fail closed) until they can be fetched",
                  v->s->issuer, what);
    free(v->discovered_jwks_uri); /* discover again next time */
    v->discovered_jwks_uri = NULL;
    keys_settled(v);
}

static const char *jwks_uri(const struct http_token_verifier *v)
{
    return v->s->jwks_uri ? v->s->jwks_uri : v->discovered_jwks_uri;
}

static void on_jwks(void *ud, const struct tools_oauth_answer *a)
{
    struct http_token_verifier *v = ud;
    const char *url = jwks_uri(v);
    char why[300], status[32];
    v->fetch = NULL;
    if (a->error) {
        keys_failed(v, "the JWKS at %.200s %s", url, a->error);
        return;
    }
    if (a->status != 200) {
        snprintf(status, sizeof status, "%d", a->status);
        keys_failed(v, "the JWKS at %.200s answered HTTP %s", url, status);
        return;
    }
    struct jwks set;
    if (jwks_parse(a->json, &set, why, sizeof why) != 0) {
        keys_failed(v, "the JWKS at %.200s is unusable: %s", url, why);
        return;
    }
    if (set.skipped)
        log_warn(LOG_COMP, "the JWKS at %s has %zu key(s) we cannot use (kept %zu)", url,
                 set.skipped, set.n);
    long age = jwks_cache_max_age(a->cache_control);
    if (age < 0)
        age = v->lim.jwks_default_seconds;
    if (age < (long) v->lim.jwks_min_seconds)
        age = v->lim.jwks_min_seconds;
    if (age > (long) v->lim.jwks_max_seconds)
        age = v->lim.jwks_max_seconds;
    jwks_clear(&v->keys);
    v->keys = set;
    v->have_keys = 1;
    v->keys_gen++; /* tokens verified with the old set are checked again */
    v->keys_expire_ms = now_ms(v) + (uint64_t) age * 1000;
    v->fail_ms = 0;
    v->refresh_failed = 0;
    log_info(LOG_COMP, "fetched %zu key(s) from %s, kept for %ld s", set.n, url, age);
    keys_settled(v);
}

static void fetch_jwks(struct http_token_verifier *v)
{
    struct tools_oauth_request rq = {.method = "GET", .url = jwks_uri(v), .max_redirects = 3};
    v->stats.jwks_fetches++;
    v->fetch = tools_oauth_fetch_start(v->hc, &rq, on_jwks, v);
    if (v->fetch == NULL)
        keys_failed(v, "the JWKS URL %.200s %s", rq.url, "is malformed");
}

static void try_metadata(struct http_token_verifier *v);

static void on_metadata(void *ud, const struct tools_oauth_answer *a)
{
    struct http_token_verifier *v = ud;
    const char *url = v->metadata_urls[v->metadata_next - 1];
    v->fetch = NULL;
    const char *iss = tools_oauth_str(a->json, "issuer");
    const char *uri = tools_oauth_str(a->json, "jwks_uri");
    char why[200];
    if (a->error == NULL && a->status == 200 && cJSON_IsObject(a->json)) {
        if (iss == NULL || strcmp(iss, v->s->issuer) != 0) {
            log_warn(LOG_COMP, "the metadata at %s names issuer %s, not %s: ignored", url,
                     iss ? iss : "(none)", v->s->issuer);
        } else if (uri == NULL) {
            log_warn(LOG_COMP, "the metadata at %s names no jwks_uri", url);
        } else if (!tools_oauth_url_ok(uri, why, sizeof why)) {
            log_warn(LOG_COMP, "the jwks_uri %s of %s: %s", uri, url, why);
        } else {
            v->discovered_jwks_uri = xstrdup(uri);
            tools_oauth_free_vector(v->metadata_urls);
            v->metadata_urls = NULL;
            fetch_jwks(v);
            return;
        }
    }
    try_metadata(v);
}

static void try_metadata(struct http_token_verifier *v)
{
    const char *url = v->metadata_urls[v->metadata_next];
    if (url == NULL) {
        tools_oauth_free_vector(v->metadata_urls);
        v->metadata_urls = NULL;
        keys_failed(v, "%.200s %s", v->s->issuer,
                    "publishes no usable metadata with a jwks_uri (RFC 8414 or OpenID "
                    "discovery); set jwksUri");
        return;
    }
    v->metadata_next++;
    struct tools_oauth_request rq = {.method = "GET", .url = url, .max_redirects = 3};
    v->stats.metadata_fetches++;
    v->fetch = tools_oauth_fetch_start(v->hc, &rq, on_metadata, v);
    if (v->fetch == NULL)
        try_metadata(v);
}

static void start_keys_fetch(struct http_token_verifier *v)
{
    v->last_fetch_ms = now_ms(v);
    if (v->last_fetch_ms == 0)
        v->last_fetch_ms = 1;
    if (jwks_uri(v)) {
        fetch_jwks(v);
        return;
    }
    v->metadata_urls = tools_oauth_as_urls(v->s->issuer);
    v->metadata_next = 0;
    if (v->metadata_urls == NULL) {
        keys_failed(v, "%.200s %s", v->s->issuer, "is not an absolute http(s) URL");
        return;
    }
    try_metadata(v);
}

/* --- introspection ----------------------------------------------------------------------- */

static void intro_store(struct http_token_verifier *v, const unsigned char digest[32], int active,
                        const struct jwt_identity *id, const char *reason, uint64_t ttl_ms)
{
    if (ttl_ms == 0)
        return;
    uint64_t now = now_ms(v);
    struct intro_entry *slot = NULL;
    for (size_t i = 0; i < v->intro_cap; i++) {
        struct intro_entry *e = &v->intro_cache[i];
        if (e->expires_ms <= now || memcmp(e->digest, digest, 32) == 0) {
            slot = e;
            break;
        }
        if (slot == NULL || e->expires_ms < slot->expires_ms)
            slot = e; /* full: the one that expires first goes */
    }
    if (slot == NULL)
        return;
    jwt_identity_clear(&slot->id);
    memcpy(slot->digest, digest, 32);
    slot->expires_ms = now + ttl_ms;
    slot->active = active;
    if (active)
        jwt_identity_copy(&slot->id, id);
    snprintf(slot->reason, sizeof slot->reason, "%s", reason ? reason : "");
}

static void intro_unlink(struct http_token_verifier *v, struct introspection *in)
{
    for (struct introspection **p = &v->intros; *p; p = &(*p)->next)
        if (*p == in) {
            *p = in->next;
            v->intros_n--;
            return;
        }
}

/* The waiters of in get their answer: from the cache when the answer was
 * cached, else status with why. */
static void intro_settled(struct introspection *in, enum http_token_status status, const char *why)
{
    struct http_token_verifier *v = in->v;
    intro_unlink(v, in);
    for (struct http_token_check *c = v->checks.next, *nx; c != &v->checks; c = nx) {
        nx = c->next;
        if (c->wait != WAIT_INTROSPECTION || c->intro != in)
            continue;
        c->wait = WAIT_NONE;
        c->intro = NULL;
        if (status == HTTP_TOKEN_VALID) {
            settle(c, 0);
        } else {
            snprintf(c->reason, sizeof c->reason, "%s", why);
            answer(c, status);
        }
    }
    free(in);
}

static void on_introspection(void *ud, const struct tools_oauth_answer *a)
{
    struct introspection *in = ud;
    struct http_token_verifier *v = in->v;
    const char *url = v->s->introspection_url;
    char why[300];
    in->fetch = NULL;
    if (a->error || a->status != 200 || !cJSON_IsObject(a->json)) {
        if (a->error)
            snprintf(why, sizeof why, "the introspection endpoint %.200s %s", url, a->error);
        else if (a->status != 200)
            snprintf(why, sizeof why, "the introspection endpoint %.200s answered HTTP %d", url,
                     a->status);
        else
            snprintf(why, sizeof why, "the introspection endpoint %.200s answered no JSON object",
                     url);
        log_error(LOG_COMP, "cannot introspect an access token: %s; it is refused (fail closed)",
                  why);
        intro_settled(in, HTTP_TOKEN_UNAVAILABLE, why);
        return;
    }
    struct jwt_identity id = {0};
    const cJSON *active = cJSON_GetObjectItemCaseSensitive(a->json, "active");
    int64_t now = wall_now();
    uint64_t neg_ms = (uint64_t) v->lim.introspection_negative_seconds * 1000;
    if (!cJSON_IsTrue(active)) {
        snprintf(why, sizeof why, "the authorization server says it is not active");
        intro_store(v, in->digest, 0, NULL, why, neg_ms);
    } else if (jwt_check_introspection(a->json, &v->rules, now, &id, why, sizeof why) != 0) {
        intro_store(v, in->digest, 0, NULL, why, neg_ms);
    } else {
        uint64_t ttl = (uint64_t) v->lim.introspection_seconds * 1000;
        if (id.exp) { /* kept no longer than the token lives (with the skew) */
            int64_t left = id.exp + (int64_t) v->rules.clock_skew_seconds - now;
            if (left < 0)
                left = 0;
            if ((uint64_t) left * 1000 < ttl)
                ttl = (uint64_t) left * 1000;
        }
        /* a token about to expire is still answered once */
        intro_store(v, in->digest, 1, &id, NULL, ttl ? ttl : 1);
    }
    jwt_identity_clear(&id);
    /* settle from the cache (a cache too small to hold it answers unavailable) */
    intro_settled(in, HTTP_TOKEN_VALID, NULL);
}

static char *basic_auth(const char *id, const char *secret)
{
    struct buf plain, out;
    buf_init(&plain, 0);
    tools_oauth_url_encode(&plain, id ? id : "");
    buf_append_char(&plain, ':');
    tools_oauth_url_encode(&plain, secret ? secret : "");
    buf_init(&out, 0);
    buf_append_str(&out, "Basic ");
    char *enc = xmalloc((plain.len + 2) / 3 * 4 + 1);
    size_t n = base64_encode((const unsigned char *) plain.data, plain.len, enc);
    buf_append(&out, enc, n);
    free(enc);
    buf_free(&plain);
    return buf_steal(&out);
}

static void start_introspection(struct http_token_check *c)
{
    struct http_token_verifier *v = c->v;
    unsigned char digest[32];
    if (jose_sha256(v->sha, c->token, c->len, digest) != 0) {
        snprintf(c->reason, sizeof c->reason, "libcrypto could not hash the token");
        answer(c, HTTP_TOKEN_UNAVAILABLE);
        return;
    }
    for (struct introspection *in = v->intros; in; in = in->next)
        if (memcmp(in->digest, digest, 32) == 0) {
            c->wait = WAIT_INTROSPECTION;
            c->intro = in;
            return;
        }
    if (v->intros_n >= MAX_INTROSPECTIONS) {
        snprintf(c->reason, sizeof c->reason,
                 "%d introspection requests are already in flight; try again", MAX_INTROSPECTIONS);
        answer(c, HTTP_TOKEN_UNAVAILABLE);
        return;
    }
    struct introspection *in = xcalloc(1, sizeof *in);
    in->v = v;
    memcpy(in->digest, digest, 32);
    struct buf body;
    buf_init(&body, 0);
    char *tok = xstrndup(c->token, c->len);
    tools_oauth_form_add(&body, "token", tok);
    tools_oauth_form_add(&body, "token_type_hint", "access_token");
    free(tok);
    char *auth = basic_auth(v->s->introspection_client_id, v->s->introspection_client_secret);
    struct tools_oauth_request rq = {.method = "POST",
                                     .url = v->s->introspection_url,
                                     .content_type = "application/x-www-form-urlencoded",
                                     .body = body.data,
                                     .authorization = auth};
    v->stats.introspections++;
    in->fetch = tools_oauth_fetch_start(v->hc, &rq, on_introspection, in);
    free(auth);
    buf_free(&body);
    if (in->fetch == NULL) {
        free(in);
        snprintf(c->reason, sizeof c->reason, "the introspection URL %.200s is malformed",
                 v->s->introspection_url);
        answer(c, HTTP_TOKEN_UNAVAILABLE);
        return;
    }
    in->next = v->intros;
    v->intros = in;
    v->intros_n++;
    c->wait = WAIT_INTROSPECTION;
    c->intro = in;
}

/* --- the full check ---------------------------------------------------------------------- */

struct http_token_check *http_token_verify(struct http_token_verifier *v, const char *token,
                                           size_t len, http_token_cb *cb, void *ud)
{
    refresh_stale(v);
    struct http_token_check *c = xcalloc(1, sizeof *c);
    c->v = v;
    c->cb = cb;
    c->ud = ud;
    /* a token over the cap is refused without being copied */
    c->len = len;
    c->token = len <= HTTP_TOKEN_MAX_BYTES && token ? xstrndup(token, len) : NULL;
    c->next = &v->checks;
    c->prev = v->checks.prev;
    v->checks.prev->next = c;
    v->checks.prev = c;
    if (c->token == NULL) {
        if (token == NULL || len == 0)
            snprintf(c->reason, sizeof c->reason, "the token is empty");
        else
            snprintf(c->reason, sizeof c->reason,
                     "the token is %zu bytes long (at most %d are accepted)", len,
                     HTTP_TOKEN_MAX_BYTES);
        answer(c, HTTP_TOKEN_INVALID);
        return c;
    }
    settle(c, 1);
    return c;
}

void http_token_check_cancel(struct http_token_check *c)
{
    if (c == NULL)
        return;
    struct http_token_verifier *v = c->v;
    next_turn_cancel(&v->q, &c->item);
    check_unlink(c);
    struct introspection *in = c->intro;
    check_free(c);
    if (in == NULL)
        return;
    for (struct http_token_check *o = v->checks.next; o != &v->checks; o = o->next)
        if (o->intro == in)
            return; /* others still wait on it */
    tools_oauth_fetch_cancel(in->fetch);
    intro_unlink(v, in);
    free(in);
}

/* --- life ---------------------------------------------------------------------------------- */

struct http_token_verifier *http_token_verifier_new(uv_loop_t *loop, struct http_client *hc,
                                                    const struct http_oauth_settings *s, char *err,
                                                    size_t errlen)
{
    char why[200];
    if (s == NULL || s->issuer == NULL || s->issuer[0] == '\0') {
        snprintf(err, errlen, "codemode.http.oauth needs an issuer (the authorization server)");
        return NULL;
    }
    if (!tools_oauth_url_ok(s->issuer, why, sizeof why)) {
        snprintf(err, errlen, "codemode.http.oauth.issuer %s: %s", s->issuer, why);
        return NULL;
    }
    if (s->audience == NULL || s->audience[0] == '\0') {
        snprintf(err, errlen,
                 "codemode.http.oauth needs an audience (this server's URL, "
                 "codemode.http.publicUrl by default)");
        return NULL;
    }
    if (s->jwks_uri && !tools_oauth_url_ok(s->jwks_uri, why, sizeof why)) {
        snprintf(err, errlen, "codemode.http.oauth.jwksUri %s: %s", s->jwks_uri, why);
        return NULL;
    }
    if (s->introspection_url) {
        if (!tools_oauth_url_ok(s->introspection_url, why, sizeof why)) {
            snprintf(err, errlen, "codemode.http.oauth.introspection.url %s: %s",
                     s->introspection_url, why);
            return NULL;
        }
        if (s->introspection_client_id == NULL) {
            snprintf(err, errlen, "codemode.http.oauth.introspection needs a clientId");
            return NULL;
        }
    }
    unsigned char probe[32];
    if (jose_sha256(NULL, "", 0, probe) != 0 || EVP_sha256() == NULL) {
        snprintf(err, errlen, "OpenSSL's libcrypto cannot compute SHA-256 here");
        return NULL;
    }
    struct http_token_verifier *v = xcalloc(1, sizeof *v);
    v->loop = loop;
    v->hc = hc;
    v->s = s;
    v->lim = default_limits;
    v->rules.issuer = s->issuer;
    v->rules.audience = s->audience;
    v->rules.clock_skew_seconds = s->clock_skew_seconds;
    v->checks.next = v->checks.prev = &v->checks;
    next_turn_init(loop, &v->q);
    v->intro_cap = v->lim.introspection_entries;
    v->intro_cache = xcalloc(v->intro_cap, sizeof *v->intro_cache);
    v->seen_cap = v->lim.verified_entries;
    v->seen = xcalloc(v->seen_cap, sizeof *v->seen);
    v->sha = EVP_MD_CTX_new(); /* NULL: jose_sha256 makes its own */
    return v;
}

static void free_seen(struct http_token_verifier *v)
{
    for (size_t i = 0; i < v->seen_cap; i++)
        jwt_identity_clear(&v->seen[i].id);
    free(v->seen);
    v->seen = NULL;
}

void http_token_verifier_set_limits(struct http_token_verifier *v,
                                    const struct http_token_limits *l)
{
    const unsigned *src = (const unsigned *) l, *def = (const unsigned *) &default_limits;
    unsigned *dst = (unsigned *) &v->lim;
    for (size_t i = 0; i < sizeof *l / sizeof(unsigned); i++)
        dst[i] = src[i] ? src[i] : def[i];
    if (v->lim.introspection_entries != v->intro_cap) {
        for (size_t i = 0; i < v->intro_cap; i++)
            jwt_identity_clear(&v->intro_cache[i].id);
        free(v->intro_cache);
        v->intro_cap = v->lim.introspection_entries;
        v->intro_cache = xcalloc(v->intro_cap, sizeof *v->intro_cache);
    }
    size_t seen = v->lim.verified_entries == HTTP_TOKEN_LIMIT_NONE ? 0 : v->lim.verified_entries;
    if (seen != v->seen_cap) {
        free_seen(v);
        v->seen_cap = seen;
        v->seen = seen ? xcalloc(seen, sizeof *v->seen) : NULL;
    }
}

void http_token_verifier_stats(const struct http_token_verifier *v, struct http_token_stats *s)
{
    *s = v->stats;
}

int http_token_scopes_cover(const struct http_token_identity *id, char *const *required,
                            const char **missing)
{
    for (size_t i = 0; required && required[i]; i++) {
        int found = 0;
        for (size_t k = 0; id && id->scopes && id->scopes[k] && !found; k++)
            found = strcmp(id->scopes[k], required[i]) == 0;
        if (!found) {
            if (missing)
                *missing = required[i];
            return 0;
        }
    }
    return 1;
}

static void on_closed(uv_handle_t *h)
{
    struct http_token_verifier *v =
        (struct http_token_verifier *) ((char *) h - offsetof(struct http_token_verifier, q.idle));
    free(v);
}

void http_token_verifier_free(struct http_token_verifier *v)
{
    if (v == NULL)
        return;
    while (v->checks.next != &v->checks) {
        struct http_token_check *c = v->checks.next;
        next_turn_cancel(&v->q, &c->item);
        check_unlink(c);
        check_free(c);
    }
    while (v->intros) {
        struct introspection *in = v->intros;
        v->intros = in->next;
        tools_oauth_fetch_cancel(in->fetch);
        free(in);
    }
    tools_oauth_fetch_cancel(v->fetch);
    tools_oauth_free_vector(v->metadata_urls);
    free(v->discovered_jwks_uri);
    jwks_clear(&v->keys);
    jwt_identity_clear(&v->last);
    for (size_t i = 0; i < v->intro_cap; i++)
        jwt_identity_clear(&v->intro_cache[i].id);
    free(v->intro_cache);
    free_seen(v);
    EVP_MD_CTX_free(v->sha);
    next_turn_close(&v->q, on_closed);
}
