/* An HTTP/1.1 server on libuv: listening, connections, request parsing with
 * caps (transport/http_parser.h), keep-alive and pipelining (requests of one
 * connection are answered in order, one at a time), whole or streamed
 * responses (chunked on HTTP/1.1, close-delimited on HTTP/1.0), timeouts for
 * slow and idle clients, and a drain for graceful shutdown. It knows nothing
 * of MCP: the application answers each request through its exchange. */
#ifndef TRANSPORT_HTTP_SERVER_H
#define TRANSPORT_HTTP_SERVER_H

#include "transport/http_parser.h"

#include <stddef.h>
#include <stdint.h>
#include <uv.h>

struct http_server;
struct http_exchange; /* one request and its response */

struct http_server_config {
    const char *host;                 /* an address or a name ("127.0.0.1", "::1", "localhost") */
    int port;                         /* 0: any free port (see http_server_port) */
    struct http_parser_limits limits; /* head, header count, body caps (0: defaults) */
    uint64_t headers_timeout_ms;      /* a request's first byte to the end of its head; for a
                                       * connection's first request, from its accept: one that
                                       * sends nothing is closed then (0: 10 s) */
    uint64_t request_timeout_ms;      /* a request's first byte to the end of its body (0: 60 s) */
    uint64_t idle_timeout_ms;         /* a connection waiting for its next request (0: 60 s) */
    unsigned max_connections;         /* open at once (0: 4096; at most half the open-file
                                       * limit). Past it a newcomer closes the oldest connection
                                       * with nothing under way (sent nothing yet, or between
                                       * requests), else the oldest still sending a request;
                                       * when all are answering, it gets 503 and is closed. */
    size_t max_write_queue;           /* bytes queued to a client that does not read (0: 64 MiB) */
};

/* A complete request (head and body). `req` and its strings are valid
 * during the call only. The application must end the exchange with
 * http_respond or http_stream_begin ... http_stream_end, now or later; if it
 * keeps x past this call it must set an abort callback. */
typedef void http_server_request_cb(void *ud, struct http_exchange *x,
                                    const struct http_server_request *req);

/* The connection of an unfinished exchange is gone (client closed it, a
 * timeout, a write error, the server closing): x is invalid from now on.
 * Never called from inside a call the application made into this module. */
typedef void http_server_abort_cb(void *ud);

/* Binds and listens. Returns 0 and *out, or a negative libuv error with a
 * malloc'd message in *err (the caller frees it); on error nothing is left
 * open and no callback is ever made. */
int http_server_start(uv_loop_t *loop, const struct http_server_config *cfg,
                      http_server_request_cb *on_request, void *ud, struct http_server **out,
                      char **err);

/* The port actually bound (useful after port 0). */
int http_server_port(const struct http_server *s);

/* Open connections (for tests and diagnostics). */
unsigned http_server_connections(const struct http_server *s);

/* Graceful stop, first step: closes the listening socket, closes every
 * connection that has no exchange in progress, and makes the others close
 * once their response has ended (responses say "Connection: close"). */
void http_server_drain(struct http_server *s);

/* Closes the listener and every connection (unfinished exchanges get their
 * abort callback), then calls done(ud) once every handle is closed and frees
 * s. The loop must keep running until then. */
void http_server_close(struct http_server *s, void (*done)(void *ud), void *ud);

/* Sets (or, with cb NULL, clears) the abort callback of an exchange. */
void http_exchange_on_abort(struct http_exchange *x, http_server_abort_cb *cb, void *ud);

/* The request's HTTP minor version (0 or 1). */
int http_exchange_minor(const struct http_exchange *x);

/* Ends the exchange with a whole response. `headers` are extra header lines,
 * each ending in "\r\n" (NULL for none); Date, Content-Length and Connection
 * are added here; content_type may be NULL (no Content-Type). The body is
 * copied (not sent for HEAD requests). x is invalid afterwards. */
void http_respond(struct http_exchange *x, int status, const char *headers,
                  const char *content_type, const char *body, size_t len);

/* Starts a streamed response with the same header rules. */
void http_stream_begin(struct http_exchange *x, int status, const char *headers,
                       const char *content_type);

/* Sends part of a streamed body (copied; one write per call). Returns 0, or
 * -1 when the connection is gone or the client has stopped reading (more
 * than max_write_queue bytes waiting): the connection is then being closed
 * and the abort callback will follow. */
int http_stream_write(struct http_exchange *x, const char *data, size_t len);

/* Ends a streamed response. x is invalid afterwards. */
void http_stream_end(struct http_exchange *x);

/* The standard reason phrase of a status ("Not Found"), or "Unknown". */
const char *http_status_reason(int status);

#endif
