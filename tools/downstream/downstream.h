/* One downstream MCP server, reached over stdio (a child process), Streamable
 * HTTP or legacy HTTP+SSE: starts or connects to it, negotiates the protocol
 * (probe with server/discover, fall back to initialize), keeps its tool list
 * current (pagination, list_changed), forwards tool calls with per-call
 * timeouts and cancellation, runs taskSupport:"required" tools as tasks, and
 * restarts a crashed server (reconnects to a lost remote one) with
 * exponential backoff while calls to it fail fast. Runs on the host's libuv
 * loop and never blocks. */
#ifndef TOOLS_DOWNSTREAM_H
#define TOOLS_DOWNSTREAM_H

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>
#include <uv.h>

struct tools_downstream;
struct tools_downstream_call;
struct tools_server_config;

/* The protocol revisions we speak as a client, newest first. */
#define TOOLS_DOWNSTREAM_MODERN_VERSION "2026-07-28"
#define TOOLS_DOWNSTREAM_LEGACY_VERSION "2025-11-25" /* requested in initialize */

/* The variables a server inherits from our environment (the official SDK's
 * stdio client list); the entry's `env` is added on top. NULL-terminated. */
extern const char *const tools_downstream_inherited_env[];

enum tools_downstream_state {
    TOOLS_DOWNSTREAM_CONNECTING, /* starting, negotiating, listing tools; calls wait */
    TOOLS_DOWNSTREAM_READY,      /* calls are forwarded */
    TOOLS_DOWNSTREAM_RESTARTING, /* down; next attempt after a backoff; calls fail fast */
    TOOLS_DOWNSTREAM_FAILED      /* given up (see reason); calls fail fast */
};

/* A snapshot for `mcp-codemode check` and logs. Strings are borrowed from
 * the server object and valid until the next event or call on it; NULL when
 * unknown. */
struct tools_downstream_status {
    enum tools_downstream_state state;
    const char *reason;           /* why it is or was last down ("exited with status 1 ...") */
    uint64_t retry_in_ms;         /* RESTARTING: time left before the next attempt */
    const char *protocol_version; /* negotiated */
    const char *server_name;      /* serverInfo.name */
    const char *server_version;   /* serverInfo.version */
    const char *instructions;     /* from initialize / server/discover */
    unsigned attempts;            /* processes started so far */
    unsigned failures;            /* consecutive failed or crashed attempts */
    uint64_t connect_ms;          /* spawn to first tool list, last successful attempt */
    int pid;                      /* 0 when no process runs (always 0 for http and sse) */
    size_t tools;                 /* tools in tools_downstream_tools() */
    size_t calls_in_flight;
    const char *transport;        /* "stdio", "http" or "sse" */
    const char *url;              /* http and sse: the configured URL; else NULL */
};

struct tools_downstream_events {
    /* The state or its reason changed (read it with tools_downstream_status). */
    void (*state_changed)(void *ud, struct tools_downstream *d);
    /* tools_downstream_tools() changed (first list included). */
    void (*tools_changed)(void *ud, struct tools_downstream *d);
};

/* Knobs; 0 means the default given in brackets. */
struct tools_downstream_options {
    uint64_t call_timeout_ms;    /* used when neither the call nor the entry sets one [60000] */
    uint64_t request_timeout_ms; /* initialize, each tools/list page [30000] */
    uint64_t probe_timeout_ms;   /* server/discover before falling back to initialize [3000] */
    uint64_t backoff_initial_ms; /* first restart delay, doubled per failure [500] */
    uint64_t backoff_max_ms;     /* [30000] */
    uint64_t stable_ms;          /* up this long: the failure count starts again [10000] */
    unsigned max_attempts;       /* consecutive failures before FAILED; 0: never give up [0] */
    uint64_t close_grace_ms;     /* stdin EOF to SIGTERM, and SIGTERM to SIGKILL; for http,
                                    the longest wait for the session's DELETE [2000] */
    size_t max_message_bytes;    /* largest message accepted from the server [32 MiB]: a
                                    line, a JSON body or one SSE event */
    const char *client_version;  /* clientInfo.version ["unknown"] */
    int stderr_level;            /* enum log_level of the server's stderr lines [LOG_INFO];
                                    -1 for LOG_DEBUG */
};

/* Creates the connection to an entry (stdio, http or sse) and starts it:
 * the process is spawned, or the first request sent, on the next loop
 * iteration, so every event comes from the loop, never from this call. s
 * and o are copied (o may be NULL); ev and ud must outlive the object.
 * Never fails: a server that cannot start goes to RESTARTING with the
 * reason; an entry without command (stdio) or url (http, sse) is FAILED. */
struct tools_downstream *tools_downstream_new(uv_loop_t *loop, const struct tools_server_config *s,
                                              const struct tools_downstream_options *o,
                                              const struct tools_downstream_events *ev, void *ud);

/* Stops the server (stdin EOF, then SIGTERM and SIGKILL after the grace
 * time; for http, DELETE of its session and every request cancelled) and
 * releases the object. Calls still pending are answered with
 * TOOLS_DOWNSTREAM_DOWN ("shutting down") before this returns; no other
 * event follows. Run the loop until it ends to let the handles close. */
void tools_downstream_free(struct tools_downstream *d);

const char *tools_downstream_name(const struct tools_downstream *d);
void tools_downstream_status(const struct tools_downstream *d, struct tools_downstream_status *st);
const char *tools_downstream_state_name(enum tools_downstream_state s);

/* The server's process id (0: no process runs, or http and sse). */
int tools_downstream_pid(const struct tools_downstream *d);

/* The tools that can be called, as the server sent them (name, title,
 * description, inputSchema, outputSchema, annotations, execution, ...), in
 * its order; an array, empty before the first list. Tools that need tasks
 * the server does not offer are left out (see tools_downstream_excluded).
 * The list survives restarts until a new one arrives. Borrowed: valid
 * until tools_changed or tools_downstream_free. */
const cJSON *tools_downstream_tools(const struct tools_downstream *d);

/* Tools left out of the list: [{"name": ..., "reason": ...}]. Borrowed like
 * tools_downstream_tools. */
const cJSON *tools_downstream_excluded(const struct tools_downstream *d);

enum tools_downstream_outcome {
    TOOLS_DOWNSTREAM_RESULT,    /* the server's CallToolResult (isError may be true) */
    TOOLS_DOWNSTREAM_TIMEOUT,   /* no result in time; the server was told to cancel */
    TOOLS_DOWNSTREAM_DOWN,      /* not running, crashed during the call, or shutting down */
    TOOLS_DOWNSTREAM_RPC_ERROR, /* a JSON-RPC error response */
    TOOLS_DOWNSTREAM_TOO_LARGE, /* the result was over max_message_bytes */
    TOOLS_DOWNSTREAM_BAD_RESULT, /* the result is not a CallToolResult we can use */
    TOOLS_DOWNSTREAM_AUTH        /* the server needs a login (`mcp-codemode login NAME`) */
};

struct tools_downstream_reply {
    enum tools_downstream_outcome outcome;
    const cJSON *result;     /* RESULT: borrowed, valid during the callback */
    const char *message;     /* not RESULT: one sentence naming the server (and the
                                time, for a timeout), for the program to read */
    int code;                /* RPC_ERROR: error.code */
    const char *rpc_message; /* RPC_ERROR: error.message as the server wrote it */
    const cJSON *data;       /* RPC_ERROR: error.data or NULL */
    uint64_t elapsed_ms;
};

typedef void tools_downstream_reply_cb(void *ud, const struct tools_downstream_reply *r);

/* Calls `tool` with `args` (an object, or NULL for none; borrowed, copied).
 * timeout_ms 0 takes the entry's timeoutMs, else options.call_timeout_ms;
 * the clock runs from this call, through a wait for the server to connect
 * (calls made while CONNECTING wait; while RESTARTING or FAILED they fail
 * fast). A task-only tool runs as a task (tools/call with `task`, then
 * tasks/result). cb runs exactly once unless the call is cancelled first,
 * and never before this returns: a call the server cannot take now (down,
 * shutting down, an excluded tool) is answered on the loop's next turn.
 * The handle (never NULL) is valid until cb returns or it is cancelled. */
struct tools_downstream_call *tools_downstream_call(struct tools_downstream *d, const char *tool,
                                                    const cJSON *args, uint64_t timeout_ms,
                                                    tools_downstream_reply_cb *cb, void *ud);

/* Another request to the server (resources/list, resources/read,
 * resources/templates/list, prompts/list, prompts/get): method with params
 * (an object or NULL; borrowed, copied), with the timeouts, queueing,
 * failing fast and cancelling of tools_downstream_call (same contract; the
 * reply's result is the request's result object, unchecked beyond being an
 * object, and its messages name the method). Cancel it with
 * tools_downstream_call_cancel. */
struct tools_downstream_call *tools_downstream_request(struct tools_downstream *d,
                                                       const char *method, const cJSON *params,
                                                       uint64_t timeout_ms,
                                                       tools_downstream_reply_cb *cb, void *ud);

/* 1 when the server declared `capability` ("resources", "prompts") in the
 * answer to its last handshake (initialize or server/discover); 0 before
 * the first. */
int tools_downstream_offers(const struct tools_downstream *d, const char *capability);

/* The stored tokens changed (a login, docs/oauth.md): a server that is down
 * (waiting to retry, or given up) tries again now, its state CONNECTING
 * before this returns, so that calls made now wait for the attempt; one
 * connecting tries again at once if this attempt is lost before it is
 * ready (it may have read the store before the tokens were there). A
 * server that is connected reads the new tokens (a step-up login) and
 * sends the calls made meanwhile with them. */
void tools_downstream_reconnect(struct tools_downstream *d);

/* An OAuth server's scopes a call was refused for (403 insufficient_scope),
 * for the next login to ask for (borrowed, until the next event), or NULL. */
const char *tools_downstream_step_up_scope(const struct tools_downstream *d);

/* 1 when an OAuth server has no token: it needs a login before it can
 * connect (its calls fail with TOOLS_DOWNSTREAM_AUTH meanwhile). */
int tools_downstream_needs_login(const struct tools_downstream *d);

/* Cancels a call whose cb has not run: the server gets
 * notifications/cancelled (tasks/cancel for a task) with the reason (may
 * be NULL), and cb is never called. */
void tools_downstream_call_cancel(struct tools_downstream_call *c, const char *reason);

#endif
