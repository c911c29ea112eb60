/* Internals shared by the files of mcp-server/ that serve requests: the
 * request and the connection (server.c), and what the other files call of
 * each other (execute/, resources.c, describe.c, skill_tools.c). What
 * execute/ shares only within itself is in execute/internal.h. */
#ifndef MCP_SERVER_SERVER_INTERNAL_H
#define MCP_SERVER_SERVER_INTERNAL_H

#include "mcp-server/protocol.h"
#include "mcp-server/request.h"
#include "mcp-server/server.h"

#include "tools/policy/policy.h"

#include <cjson/cJSON.h>

struct mcp_batch;
struct mcp_execution;
struct mcp_approval;
struct mcp_login_wait;
struct mcp_login_park;
struct mcp_park;
struct rpc_message;


struct mcp_server {
    struct mcp_server_config cfg;
    struct mcp_channel session;
    int worker_stats;           /* MCP_CODEMODE_TEST_WORKER_STATS (tests of worker reuse):
                                   stats name the worker; read once, when the server is made */
    int legacy;                 /* initialize received */
    enum mcp_revision legacy_rev;
    int initialized;            /* notifications/initialized received */
    int log_level;              /* legacy logging/setLevel threshold, -1 = not set */
    struct mcp_request *inflight;
    unsigned ninflight;
    struct mcp_request *deferred, *deferred_tail; /* waiting for downstream servers to settle */
    int waiting;                                  /* a registry waiter is registered */
    char *principal;            /* for the audit log; NULL: "stdio" */
    char *state_principal;      /* codemode.state.scope "principal"; NULL: principal */
    int can_elicit;             /* the client declared elicitation (form mode) at initialize */
    int can_elicit_url;         /* the client declared URL-mode elicitation at initialize */
    struct mcp_login_wait *login_waits; /* calls waiting for a login (execute/login_ask.c) */
    struct mcp_login_park *login_parks; /* 2026-07-28 calls waiting for a login
                                           (execute/login_park.c) */
    struct mcp_approval *approvals; /* elicitation requests waiting for an answer */
    unsigned next_approval;
    char **session_approved;    /* "server\ntool" approved for the session */
    size_t nsession_approved;
    struct mcp_park *parks;     /* 2026-07-28 executions waiting for a retry (approval.c) */
    struct mcp_request *resuming; /* a retry delivering its answers: no parking inside */
    uint64_t worker_principal; /* whose executions may share a worker (sandbox_pool_lease_for) */
    uint64_t admission_principal; /* whose rate limits an execution counts against (0: the
                                     worker principal); an OAuth subject's, across sessions */
    char **scopes;              /* the OAuth token's scopes (NULL-terminated), or NULL: none */
    char *stash_owner;          /* whose in-memory stash entries this connection reads and
                                   writes: "connection N", or "principal " and its OAuth
                                   subject's whole principal */
    int stash_shared;           /* the entries outlive the connection (an OAuth subject's) */
};


/* Whose state a connection's programs see under codemode.state.scope
 * "principal" (docs/config.md): the state principal when set, else the
 * audit principal ("stdio", "cli", "http-token", "http-stateless",
 * "http-session:<id>"). Borrowed. */
const char *mcp_state_principal(const struct mcp_server *s);


/* skill_tools.c: saved skills as tools of this server (exposeAsTools):
 * appends them to a tools/list answer; the execute_code program a call of
 * one runs (malloc'd), or NULL when `name` is not an exposed skill; runs a
 * call of one (returns 1), or returns 0 when `name` is not an exposed skill. */
void mcp_skill_tools_list(struct mcp_server *s, cJSON *tools);
char *mcp_skill_tools_code(const struct mcp_server *s, const char *name, const cJSON *arguments);
int mcp_skill_tools_call(struct mcp_request *r, const char *name, const cJSON *arguments);

/* execute/execute.c: execute_code; cancelling an execution. */
void mcp_execute(struct mcp_request *r, const cJSON *arguments);
void mcp_execute_cancel(struct mcp_execution *e);

/* execute/approval.c: the answer to one of the server's elicitation
 * requests (returns 1 when m was one); the session's approvals, freed with
 * the server. */
int mcp_approval_response(struct mcp_server *s, const struct rpc_message *m);
/* execute/login_ask.c: the answer to one of the server's URL-mode
 * elicitation requests (a login, docs/oauth.md); returns 1 when m was one. */
int mcp_login_response(struct mcp_server *s, const struct rpc_message *m);
/* execute/login_ask.c: the session ends: the logins its programs' clients
 * were sent to that are still running tell it nothing more. */
void mcp_login_free_session(struct mcp_server *s);
void mcp_approval_free_session(struct mcp_server *s);
/* execute/park.c: the 2026-07-28 input_required flow. The retry (params
 * with requestState and inputResponses) resumes a parked execution; r is
 * answered in every case. Parks left when the server is freed. */
/* code: the program the retried call stands for (execute_code's
 * arguments.code, or a skill tool's program), which must be the parked one. */
void mcp_park_resume(struct mcp_request *r, const cJSON *params, const char *code);
void mcp_park_free_all(struct mcp_server *s);


/* describe.c: the execute_code tool object for tools/list (caller frees). */
cJSON *mcp_describe_execute_code(struct mcp_server *s, enum mcp_revision rev);
const char *mcp_describe_instructions(void);

/* resources.c */
void mcp_resources_list(struct mcp_request *r);
void mcp_resources_read(struct mcp_request *r, const cJSON *params);

#endif
