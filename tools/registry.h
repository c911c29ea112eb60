/* The host's view of downstream tools: one connection per configured
 * server, the current catalog (rebuilt when a tool list changes), and the
 * sending of the calls the gate lets through (tools/gate/gate.h: the host
 * calls programs make), their results mapped. Gives workers the catalog of
 * callable names and models the declarations, and reports when those
 * change. */
#ifndef TOOLS_REGISTRY_H
#define TOOLS_REGISTRY_H

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>
#include <uv.h>

struct tools_registry;
struct tools_server_config;
struct tools_policy;
struct tools_approver;
struct tools_audit;
struct tools_state_service;

/* The answer to a host call: ok with the JSON text of the value, or failed
 * with the JSON text of {"name","message",...} (ToolError, ToolArgumentError,
 * Error). The text is valid during the callback. */
typedef void tools_reply_cb(void *ud, int ok, const char *json, size_t len);

struct tools_registry_options {
    const struct tools_server_config *servers; /* borrowed; must outlive the registry */
    size_t nservers;
    uint64_t call_timeout_ms;      /* default per downstream call (0: 60000) */
    size_t declarations_budget;    /* tokens of declarations in the description (0: names only) */
    char *const *declarations_preferred; /* patterns of tools that keep their docs longest
                                            (NULL-terminated, borrowed), or NULL */
    const char *client_version;    /* clientInfo.version sent downstream */
    unsigned max_attempts;         /* connection attempts before giving up (0: never) */
    const struct tools_policy *policy; /* codemode.policy, borrowed; NULL: the defaults */
    struct tools_audit *audit;     /* borrowed; NULL: no audit log */
    struct tools_state_service *state; /* state.* and skills.* (borrowed); NULL: off */
    int learn_result_types;        /* type the results of tools without outputSchema from
                                      the results received (kept in state's store, when
                                      there is one) */
    /* Called (from the loop) when the catalog or the declarations changed. */
    void (*changed)(void *ud);
    void *changed_ud;
};

/* Creates the registry and starts connecting every enabled server (stdio,
 * http or sse)
 * (the connections start on the next loop iteration). loop may be NULL for
 * offline use (no servers are started: `types` without connecting). */
struct tools_registry *tools_registry_new(uv_loop_t *loop, const struct tools_registry_options *o);

/* Stops every server (their processes get stdin EOF, then signals) and frees
 * the registry; calls still pending are cancelled without a reply (their
 * programs are gone by then). Run the loop until it ends afterwards so the
 * handles close. */
void tools_registry_free(struct tools_registry *r);

/* 1 when no server is still making its first connection (each is ready,
 * restarting, failed, not started, or reconnecting after a failure or a
 * first connection: those do not hold up requests that need the catalog). */
int tools_registry_settled(const struct tools_registry *r);

/* Calls cb once the registry is settled or max_ms passed, whichever comes
 * first; on the loop's next turn when it already is (never inside this
 * call; a registry made without a loop calls it at once). Freeing the
 * registry fires the waiters still pending. */
void tools_registry_when_settled(struct tools_registry *r, uint64_t max_ms, void (*cb)(void *ud),
                                 void *ud);

/* Forgets a pending waiter registered with exactly (cb, ud); no call follows. */
void tools_registry_cancel_wait(struct tools_registry *r, void (*cb)(void *ud), void *ud);


/* The catalog for workers: {"jsServer":{"name":"server","tools":{"jsTool":"tool"}}},
 * malloc'd. */
char *tools_registry_catalog(struct tools_registry *r);


/* TypeScript declarations for the execute_code description (full while
 * within the budget, else the compact index), with the skills `principal`
 * sees (NULL: every skill), malloc'd. */
char *tools_registry_declarations(struct tools_registry *r, const char *principal);

/* The full declarations (resources, `mcp-codemode types`), malloc'd. */
char *tools_registry_declarations_full(struct tools_registry *r, const char *principal);

/* The servers whose tools programs can call now, as resource names: for
 * each, its sanitised id (the resource codemode://servers/<id>.d.ts) and
 * original name. Returns the count; *ids and *names are malloc'd arrays of
 * malloc'd strings (free with tools_registry_free_names). */
size_t tools_registry_servers(struct tools_registry *r, char ***ids, char ***names);
void tools_registry_free_names(char **list, size_t n);

/* The declarations of one server by its sanitised id, or NULL. malloc'd. */
char *tools_registry_declarations_server(struct tools_registry *r, const char *server_id);

/* Writes one line per server with its state, protocol and tool count, then
 * its tools with their policy decision and what decided it (for
 * `mcp-codemode check`). malloc'd. */
char *tools_registry_report(struct tools_registry *r);

/* The same for a caller holding these OAuth scopes (NULL-terminated; NULL:
 * none): decisions of rules that require a scope the caller lacks are deny. */
char *tools_registry_report_scoped(struct tools_registry *r, char *const *scopes);

/* The servers that offer `capability` ("resources", "prompts": declared in
 * their last handshake), in config order: up to max of their names
 * (borrowed, valid while r lives) into names; returns how many there are. */
size_t tools_registry_offering(const struct tools_registry *r, const char *capability,
                               const char **names, size_t max);

/* Logins while calls wait (docs/oauth.md): the redirect URI of the
 * server's own /oauth/callback (from codemode.http.publicUrl; copied), or
 * NULL for a loopback listener per login (the default). */
void tools_registry_set_oauth_redirect(struct tools_registry *r, const char *uri);

/* The redirect of a login that waits for it, on /oauth/callback: its
 * query (borrowed). Returns the sentence for the browser (static), or
 * NULL when no login expects this state (unknown, used, or expired). */
const char *tools_registry_oauth_callback(struct tools_registry *r, const char *query);

/* 1 when every server that is meant to run is ready (for `check`'s exit
 * status): disabled entries and entries launching mcp-codemode itself do not count. */
int tools_registry_all_ready(const struct tools_registry *r);

#endif
