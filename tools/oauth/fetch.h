/* One exchange with an authorization server or a metadata endpoint, on the
 * libuv loop through transport/http_client: a GET, or a POST of a form or
 * of JSON; the answer is size-capped (TOOLS_OAUTH_METADATA_MAX), bounded in
 * time, follows no redirect to another origin, and is parsed as JSON when
 * it is JSON. Never blocks. */
#ifndef TOOLS_OAUTH_FETCH_H
#define TOOLS_OAUTH_FETCH_H

#include <cjson/cJSON.h>
#include <stdint.h>

struct http_client;
struct tools_oauth_fetch;

struct tools_oauth_answer {
    int status;                /* HTTP status, 0 when the exchange failed */
    const cJSON *json;         /* the body parsed as JSON, or NULL (borrowed for the callback) */
    const char *www;           /* WWW-Authenticate, or NULL */
    const char *error;         /* a phrase when the exchange failed ("timed out ..."), else NULL */
    const char *cache_control; /* Cache-Control, or NULL (for JWKS caching) */
    const char *url;           /* the URL requested (for messages), or NULL */
};

typedef void tools_oauth_fetch_cb(void *ud, const struct tools_oauth_answer *a);

struct tools_oauth_request {
    const char *method; /* "GET" or "POST" */
    const char *url;
    const char *content_type;  /* POST: "application/x-www-form-urlencoded" or JSON */
    const char *body;          /* POST, NUL-terminated */
    const char *authorization; /* an Authorization header value, or NULL */
    const char *accept;        /* the Accept header; NULL: application/json */
    uint64_t timeout_ms;       /* 0: 15000 */
    unsigned max_redirects;    /* same-origin redirects followed */
};

/* Starts the exchange; cb runs once from the loop (never inside this
 * call). NULL when the request cannot start (a malformed URL): no callback
 * then. Cancel with tools_oauth_fetch_cancel (no callback follows). */
struct tools_oauth_fetch *tools_oauth_fetch_start(struct http_client *hc,
                                                  const struct tools_oauth_request *rq,
                                                  tools_oauth_fetch_cb *cb, void *ud);
void tools_oauth_fetch_cancel(struct tools_oauth_fetch *f);

/* Appends "name=value" to a form body, percent-encoding the value (and a
 * leading '&' when the body is not empty). */
struct buf;
void tools_oauth_form_add(struct buf *b, const char *name, const char *value);

/* Percent-encodes s (RFC 3986 unreserved kept) onto b. */
void tools_oauth_url_encode(struct buf *b, const char *s);

#endif
