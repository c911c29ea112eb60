/* An HTTP client on the libuv loop: libcurl's multi interface driven by
 * curl_multi_socket_action, its sockets watched with uv_poll and its timer
 * mapped to a uv_timer. Requests with headers and a body; response bodies
 * streamed as they arrive (SSE streams never end); connect, total and idle
 * timeouts; a cap on the body; redirects followed only within the same
 * origin; TLS as libcurl does it (the system's CA store, or the PEM file
 * named by CURL_CA_BUNDLE or SSL_CERT_FILE; proxies from the environment).
 * Never blocks; never calls back from inside a call into it, nor from
 * inside libcurl. */
#ifndef TRANSPORT_HTTP_CLIENT_H
#define TRANSPORT_HTTP_CLIENT_H

#include <stddef.h>
#include <stdint.h>
#include <uv.h>

struct http_client;
struct http_request;

/* How an exchange ended. */
enum http_error {
    HTTP_OK = 0,        /* a complete response arrived (whatever its status) */
    HTTP_ERR_CONNECT,   /* the name did not resolve or the connection was refused */
    HTTP_ERR_NO_FD,     /* no socket: this process is at its limit on open files */
    HTTP_ERR_TLS,       /* the TLS handshake or the certificate check failed */
    HTTP_ERR_TIMEOUT,   /* the connect, total or idle timeout passed */
    HTTP_ERR_TOO_LARGE, /* the body went over max_body_bytes (the exchange was cut) */
    HTTP_ERR_REDIRECT,  /* too many redirects, or one to another origin */
    HTTP_ERR_BROKEN,    /* the connection failed during the exchange */
    HTTP_ERR_OTHER      /* anything else libcurl reports */
};

struct http_request_options {
    const char *method;   /* "GET" (NULL), "POST", "DELETE", ... */
    const char *url;      /* http:// or https:// */
    char *const *headers; /* "Name: value", NULL-terminated; may be NULL */
    const char *body;     /* copied; may be NULL */
    size_t body_len;
    uint64_t connect_timeout_ms; /* resolve + connect + TLS [10000] */
    uint64_t timeout_ms;         /* the whole exchange; 0: none (streams) */
    uint64_t idle_timeout_ms;    /* no byte received for this long; 0: none.
                                    Whole seconds (rounded up): libcurl's low-speed check */
    size_t max_body_bytes;       /* 0: no cap */
    unsigned max_redirects;      /* same-origin redirects followed; 0: 3xx answers are returned */
};

struct http_request_events {
    /* The final response's status line and headers are in (after any
     * redirect followed). Runs once, before any data. May be NULL. */
    void (*response)(void *ud, struct http_request *r, int status);
    /* Body bytes in order (chunked and compressed encodings already undone).
     * May be NULL: the body is read and dropped. */
    void (*data)(void *ud, struct http_request *r, const char *data, size_t len);
    /* The exchange is over: err is HTTP_OK or the reason, message a sentence
     * for logs ("" for HTTP_OK). Last event; r is freed when this returns.
     * A request that fails before any response gets done without response. */
    void (*done)(void *ud, struct http_request *r, enum http_error err, const char *message);
};

/* Creates a client on loop. user_agent (copied; may be NULL) is sent with
 * every request. NULL, with a sentence in err (errlen bytes), when libcurl
 * cannot be loaded (transport/curl_lib.h); allocation failure aborts. */
struct http_client *http_client_new(uv_loop_t *loop, const char *user_agent, char *err,
                                    size_t errlen);

/* Cancels every request (no callback follows) and frees the client once its
 * libuv handles are closed (run the loop). Safe inside a callback of one of
 * its requests. */
void http_client_free(struct http_client *hc);

/* Starts a request. Returns its handle, or NULL when libcurl refuses the
 * options (a malformed URL); no callback is made then. Callbacks run from
 * the loop, never inside this call. The handle is valid until done returns
 * or the request is cancelled. */
struct http_request *http_request_start(struct http_client *hc,
                                        const struct http_request_options *o,
                                        const struct http_request_events *ev, void *ud);

/* Stops a request; no callback follows. Safe inside any callback, its own
 * included (except done, after which the handle is gone). */
void http_request_cancel(struct http_request *r);

/* The final response's status (0 before the response event). */
int http_request_status(const struct http_request *r);

/* A header of the final response by name (case-insensitive): its first
 * value, without surrounding spaces, or NULL. Valid until the request ends. */
const char *http_request_header(const struct http_request *r, const char *name);

/* The URL the response came from (after redirects). */
const char *http_request_url(const struct http_request *r);

/* Requests started and not yet done or cancelled. */
size_t http_client_active(const struct http_client *hc);

/* The origin ("scheme://host:port", lower case, default ports made
 * explicit) of an absolute http(s) URL, malloc'd; NULL when the URL is not
 * one. */
char *http_url_origin(const char *url);

/* Resolves ref (absolute, or relative as in an HTML link) against base;
 * malloc'd, or NULL when either is malformed. */
char *http_url_resolve(const char *base, const char *ref);

#endif
