/* One MCP connection (a stdio process, later an HTTP session): JSON-RPC
 * validation, dual-era dispatch (legacy sessions opened by initialize,
 * 2026-07-28 stateless requests with per-request _meta), batches where the
 * revision has them, cancellation, progress and log notifications. The only
 * place that builds replies to clients. */
#ifndef MCP_SERVER_SERVER_H
#define MCP_SERVER_SERVER_H

#include <stddef.h>
#include <stdint.h>
#include <uv.h>

struct mcp_server;
struct sandbox_pool;
struct tools_registry;
struct config_limits;

struct mcp_server_config {
    uv_loop_t *loop;
    struct sandbox_pool *pool;
    struct tools_registry *tools;
    const struct config_limits *limits;
};

/* Where the connection's outgoing messages go: each call is one or more
 * complete lines, to be written as one unit (never merged with another). */
struct mcp_sink {
    void *ud;
    void (*send)(void *ud, const char *data, size_t len);
};

struct mcp_server *mcp_server_new(const struct mcp_server_config *cfg, const struct mcp_sink *sink);

/* Handles one incoming message (a line: an object, or a batch array). */
void mcp_server_handle(struct mcp_server *s, const char *text, size_t len);

/* Reports a message that exceeded the size cap: an error reply when its id
 * can be recovered from its head, else a message on stderr. */
void mcp_server_handle_oversize(struct mcp_server *s, const char *head, size_t head_len,
                                size_t total);

/* Stops all in-flight work (workers killed, downstream calls cancelled)
 * without replying: for EOF and SIGTERM. */
void mcp_server_cancel_all(struct mcp_server *s);

/* Requests still being processed. */
unsigned mcp_server_inflight(const struct mcp_server *s);

/* Tells clients the tool list (declarations) changed. */
void mcp_server_tools_changed(struct mcp_server *s);

/* Frees the server; in-flight work is cancelled first. */
void mcp_server_free(struct mcp_server *s);

#endif
