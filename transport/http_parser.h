/* Incremental HTTP/1.x request parsing on llhttp, with hard caps: bytes of
 * the request head (request line and headers), number of headers, body
 * bytes. Bytes may arrive in any fragmentation (one at a time included);
 * the parser stops after each request head and after each complete request
 * so the server can answer in order (pipelining) and reject early. */
#ifndef TRANSPORT_HTTP_PARSER_H
#define TRANSPORT_HTTP_PARSER_H

#include <stddef.h>

struct http_parser;

struct http_header {
    const char *name;  /* as sent (compare case-insensitively); NUL-terminated */
    const char *value; /* surrounding spaces and tabs removed; NUL-terminated */
    size_t name_len, value_len;
};

/* A parsed request. Strings are NUL-terminated and owned by the parser;
 * valid until http_parser_next or http_parser_free. */
struct http_server_request {
    const char *method;                /* "GET", "POST", ... */
    const char *target;                /* the request-target as sent: "/mcp?x=1" */
    const char *path;                  /* target up to '?' or '#' */
    const char *query;                 /* after '?' (without the fragment); "" when none */
    int version_minor;                 /* HTTP/1.<minor> */
    int keep_alive;                    /* the connection may carry another request after this one */
    int upgrade;                       /* an Upgrade or CONNECT request: close after answering */
    int expect_continue;               /* "Expect: 100-continue" */
    int has_body;                      /* Content-Length or chunked */
    unsigned long long content_length; /* when known from Content-Length, else 0 */
    const struct http_header *headers;
    size_t nheaders;
    const char *body; /* NUL-terminated; set once the request is complete */
    size_t body_len;
};

struct http_parser_limits {
    size_t max_head_bytes; /* request line + headers, and trailers (0: 32 KiB) */
    size_t max_headers;    /* (0: 100) */
    size_t max_body_bytes; /* decoded body (0: 16 MiB) */
};

enum http_parse_event {
    HTTP_PARSE_MORE,    /* everything consumed; the request is not complete yet */
    HTTP_PARSE_HEAD,    /* a request head is complete (body not yet): see http_parser_request */
    HTTP_PARSE_REQUEST, /* a whole request is complete; later bytes were not consumed */
    HTTP_PARSE_ERROR,   /* malformed or over a cap: answer http_parser_error_status, then close */
};

/* A parser for the requests of one connection (limits copied; 0 fields
 * take the defaults). Never NULL (allocation failure aborts). */
struct http_parser *http_parser_new(const struct http_parser_limits *limits);

/* Frees the parser and every request string it handed out; NULL is a no-op. */
void http_parser_free(struct http_parser *p);

/* Feeds bytes; returns how many were consumed and stores what happened in
 * *ev. After HTTP_PARSE_HEAD feed the rest again; after HTTP_PARSE_REQUEST
 * call http_parser_next before feeding the next request's bytes. After
 * HTTP_PARSE_ERROR every later feed reports the same error. */
size_t http_parser_feed(struct http_parser *p, const char *data, size_t len,
                        enum http_parse_event *ev);

/* Reports the end of the input (the client closed its side). Returns
 * HTTP_PARSE_REQUEST when that completed a request (a body delimited by
 * the end of the connection cannot happen in a request, so in practice
 * HTTP_PARSE_MORE when nothing was pending), or HTTP_PARSE_ERROR when a
 * request was cut short. */
enum http_parse_event http_parser_finish(struct http_parser *p);

/* The request whose head (or whole) was reported; NULL before. */
const struct http_server_request *http_parser_request(const struct http_parser *p);

/* 1 while a request has begun (a first byte of it arrived) and is not complete. */
int http_parser_in_request(const struct http_parser *p);

/* The status to answer after HTTP_PARSE_ERROR: 400, 413 (body over the
 * cap), 431 (head over the cap or too many headers), 501 (unsupported
 * transfer coding) or 505 (not HTTP/1.x); and a short reason. */
int http_parser_error_status(const struct http_parser *p);
const char *http_parser_error_reason(const struct http_parser *p);

/* Forgets the completed request and gets ready for the next one on the
 * same connection. */
void http_parser_next(struct http_parser *p);

/* The first header named `name` (case-insensitive), or NULL. */
const char *http_parser_header(const struct http_server_request *r, const char *name);

/* How many headers are named `name`. */
size_t http_parser_header_count(const struct http_server_request *r, const char *name);

#endif
