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
struct tools_audit;
struct tools_state_service;
struct config_limits;
struct mcp_prompt;
struct mcp_stash;

/* Who approves `ask` tools (docs/policy.md). */
enum mcp_approve {
    MCP_APPROVE_CLIENT = 0, /* the client, through elicitation, when it declared it */
    MCP_APPROVE_NONE,       /* nobody: refused (run --approve none) */
    MCP_APPROVE_ALL,        /* everything approved (run --approve all) */
    MCP_APPROVE_TERMINAL    /* a person at the terminal (run on a terminal) */
};

struct mcp_server_config {
    uv_loop_t *loop;
    struct sandbox_pool *pool;
    struct tools_registry *tools;
    const struct config_limits *limits;
    struct tools_audit *audit;  /* may be NULL: no audit log */
    enum mcp_approve approve;
    struct mcp_prompt *prompt;  /* MCP_APPROVE_TERMINAL: the terminal, borrowed */
    int login_here;             /* run with a person at the terminal: a login a call
                                   waits for opens the browser here (docs/oauth.md) */
    struct tools_state_service *state; /* saved skills, for exposeAsTools; may be NULL */
    int expose_skills;          /* codemode.skills.exposeAsTools */
    const char *instance_id;    /* codemode.http.instanceId, borrowed: 2026-07-28
                                 * requestStates start "ID." (park.c); NULL: none */
    struct mcp_stash *stash;    /* whole results kept as resources; may be NULL (none) */
};

/* Where outgoing messages go. A connection has a session channel (stdio's
 * stdout; an HTTP session's GET stream) for its own notifications; each
 * handled message may bring its own channel (an HTTP POST's response) for
 * its reply and the notifications tied to it (progress, logs). */
struct mcp_channel {
    void *ud;
    /* One or more complete lines, written as one unit. final is 1 for the
     * reply that ends the exchange (a response, a batch's array, the error
     * for an invalid message): exactly once per exchange that has one. */
    void (*send)(void *ud, const char *data, size_t len, int final);
    /* The server holds no further reference to ud: called once per handled
     * message that returned 1, after its final send, or without one when the
     * request was cancelled. May be NULL. */
    void (*release)(void *ud);
};

/* Creates a connection; `session` is copied (its release is never called). */
struct mcp_server *mcp_server_new(const struct mcp_server_config *cfg,
                                  const struct mcp_channel *session);

/* Handles one incoming message (a line: an object, or a batch array) whose
 * reply goes to the session channel. */
void mcp_server_handle(struct mcp_server *s, const char *text, size_t len);

/* Handles one message whose reply and request-scoped notifications go to
 * `ch` (copied). Returns 1 when a reply will come on ch (its final send may
 * already have happened inside this call; release follows it), or 0 when
 * the message needs none (notifications, responses): ch is then unused. */
int mcp_server_handle_on(struct mcp_server *s, const char *text, size_t len,
                         const struct mcp_channel *ch);

/* Cancels, without replies, every request whose channel has this ud (an
 * HTTP client that disconnected where that means cancellation). */
void mcp_server_cancel_channel(struct mcp_server *s, void *ud);

/* Reports a message that exceeded the size cap: an error reply when its id
 * can be recovered from its head, else a message on stderr. */
void mcp_server_handle_oversize(struct mcp_server *s, const char *head, size_t head_len,
                                size_t total);

/* Stops all in-flight work (workers killed, downstream calls cancelled)
 * without replying: for EOF and SIGTERM. */
void mcp_server_cancel_all(struct mcp_server *s);

/* Requests still being processed. */
unsigned mcp_server_inflight(const struct mcp_server *s);

/* 1 while the server holds work: requests in flight, or 2026-07-28
 * executions parked for an approval (their requestState still good). */
int mcp_server_busy(const struct mcp_server *s);

/* Tells clients the tool list (declarations) changed. */
void mcp_server_tools_changed(struct mcp_server *s);

/* Names who this connection serves in the audit log ("stdio", "cli",
 * "http-session:1a2b3c4d", ...); copied. The default is "stdio". */
void mcp_server_set_principal(struct mcp_server *s, const char *principal);

/* Whose state the connection's programs see under codemode.state.scope
 * "principal" when it differs from the audit principal (an HTTP session
 * that authenticated with the bearer token: "http-token"). Copied. */
void mcp_server_set_state_principal(struct mcp_server *s, const char *principal);

/* Counts this connection's executions against the rate limits
 * (maxConcurrentPerPrincipal) of `id`, shared with other connections of the
 * same principal (an OAuth subject's sessions). 0: its own. */
void mcp_server_set_admission_principal(struct mcp_server *s, uint64_t id);

/* The in-memory stash entries of this connection belong to its principal
 * (mcp_server_set_principal: an OAuth subject) rather than to the
 * connection: the subject's other sessions read them, and they stay when
 * this connection ends (until their age or the stash's bounds end them). */
void mcp_server_share_stash(struct mcp_server *s);

/* The scopes of the access token the connection's latest request came with
 * (NULL-terminated, copied; NULL: none). Policy rules that require a scope
 * deny without it; each execution keeps the scopes it started with. */
void mcp_server_set_scopes(struct mcp_server *s, char *const *scopes);

/* The pool is about to close while the server lives on: ends the workers
 * kept for this connection now, and the server never uses the pool again. */
void mcp_server_detach_pool(struct mcp_server *s);

/* Frees the server; in-flight work is cancelled first, and the workers kept
 * for this connection end. */
void mcp_server_free(struct mcp_server *s);

#endif
