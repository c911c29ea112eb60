/* MCP over HTTP: Streamable HTTP at /mcp (2025-03-26 to 2025-11-25 with
 * sessions; 2026-07-28 stateless requests with header rules and
 * subscriptions/listen) and the legacy HTTP+SSE transport (2024-11-05) at
 * /sse with its POST endpoint /message. Host, Origin and bearer-token checks
 * on every request; sessions expire when idle; a drain for SIGTERM. The
 * HTTP mechanics are transport/http_server.h; see docs/protocol.md. */
#ifndef MCP_SERVER_HTTP_H
#define MCP_SERVER_HTTP_H

#include "mcp-server/server.h"

#include <stddef.h>
#include <stdint.h>
#include <uv.h>

struct mcp_http;
struct http_oauth_settings;

struct mcp_http_config {
    struct mcp_server_config server; /* loop, pool, tools, limits of every MCP server made */
    const char *listen;              /* "HOST:PORT" ("[::1]:PORT" for IPv6); port 0: any free one */
    const char *auth_token;          /* required as "Authorization: Bearer TOKEN"; NULL: none */
    /* An OAuth 2.1 protected resource (excludes auth_token): a token per
     * user, checked by mcp-server/http/oauth/verifier.h; borrowed, must
     * outlive the server. audience NULL: public_url, else the bound URL's /mcp. */
    const struct http_oauth_settings *oauth;
    const char *public_url;       /* the URL clients reach /mcp at (resource metadata); NULL:
                                   * the bound URL's /mcp. Borrowed like oauth. */
    char *const *allowed_origins; /* NULL-terminated extra Origins (and their Hosts), or NULL */
    const char *instance_id;      /* every minted session id starts "ID."; NULL: none.
                                   * At most 32 letters and digits (longer is cut). */
    size_t max_body_bytes;        /* 413 above (0: 16 MiB) */
    uint64_t session_timeout_ms;  /* idle sessions are ended after this (0: 30 min) */
    uint64_t idle_timeout_ms;     /* keep-alive connections (0: 60 s) */
    uint64_t headers_timeout_ms;  /* slow request heads get 408 (0: 10 s) */
    uint64_t request_timeout_ms;  /* slow request bodies get 408 (0: 60 s) */
    uint64_t keepalive_ms;        /* comment lines on quiet SSE streams (0: 15 s) */
    unsigned max_sessions;        /* new sessions get 503 past it (0: 10000) */
    unsigned max_connections;     /* open at once (0: 4096): transport/http_server.h */
};

/* The principal an OAuth token's (iss, sub) speaks for: "oauth:ISS#SUB"
 * (digested when long or unprintable). malloc'd. */
char *mcp_http_principal_name(const char *iss, const char *sub);

/* Listens on cfg->listen (strings are copied). Returns 0 and *out, or -1
 * with a malloc'd message in *err (the caller frees it). */
int mcp_http_start(const struct mcp_http_config *cfg, struct mcp_http **out, char **err);

/* The bound port, and the base URL ("http://127.0.0.1:8080", IPv6 in brackets). */
int mcp_http_port(const struct mcp_http *h);
const char *mcp_http_url(const struct mcp_http *h);

/* Open sessions (Streamable HTTP and legacy SSE). */
unsigned mcp_http_sessions(const struct mcp_http *h);

/* Tells every session (GET streams, legacy SSE streams) and every 2026
 * subscriptions/listen stream that the tool list changed. */
void mcp_http_tools_changed(struct mcp_http *h);

/* Graceful stop: stops accepting connections and requests, ends GET and
 * listen streams, lets requests in progress finish, and calls done(ud) once
 * none is left or after deadline_ms (then what is left is cancelled). Call
 * mcp_http_close afterwards. */
void mcp_http_drain(struct mcp_http *h, uint64_t deadline_ms, void (*done)(void *ud), void *ud);

/* Cancels all work, ends every session and closes every connection; h is
 * freed once the last handle is closed (the loop must keep running). */
void mcp_http_close(struct mcp_http *h);

#endif
