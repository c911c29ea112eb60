/* The tokens of one remote server, as a running mcp-codemode uses them: the
 * access token to send, read from the state database (kept there by
 * `mcp-codemode login`), and its refresh - shortly before expiry or after a
 * 401 - through the token endpoint, at most one in flight per process and
 * one across the processes sharing the database (a lease taken with
 * compare-and-set on the token row: the others wait for its result and
 * never spend the same rotating refresh token). A refresh answered
 * invalid_grant forgets the tokens: the server needs a login. */
#ifndef TOOLS_OAUTH_TOKENS_H
#define TOOLS_OAUTH_TOKENS_H

#include <cjson/cJSON.h>
#include <stdint.h>
#include <uv.h>

struct tools_oauth_config;
struct tools_server_config;
struct tools_oauth_tokens;
struct tools_state;

/* The key of a server's token row: its canonical URI (malloc'd), or NULL
 * when url is not an absolute http(s) URL. */
char *tools_oauth_token_key(const char *url);

/* The store that keeps cfg's tokens and registrations: PostgreSQL when
 * codemode.store names one (shared by the instances), else the state
 * file. Free with tools_state_free. */
struct tools_state *tools_oauth_store_new(const struct tools_oauth_config *cfg);

/* Reaches cfg's PostgreSQL store once, creating or migrating its tables
 * (the store's operations run on its pool on the loop, which expects them):
 * 0, or -1 with err (TOOLS_STATE_ERR_MAX bytes). Blocks: call it at start, before the loop serves.
 * Nothing to do (0) on the SQLite file, which is created when first used. */
int tools_oauth_store_reach(const struct tools_oauth_config *cfg, char *err);

/* Creates the token source of remote server entry s (with s->oauth; what
 * it needs is copied), its tokens in the store of tools_oauth_store_new; every
 * read and write of it runs off the loop.
 * With "grant": "client_credentials" it gets its tokens itself (discovery,
 * then the grant, again whenever one expires). Reads nothing yet. */
struct tools_oauth_tokens *tools_oauth_tokens_new(uv_loop_t *loop,
                                                  const struct tools_server_config *s);
/* Cancels a refresh in flight (its callback does not run) and frees t. */
void tools_oauth_tokens_free(struct tools_oauth_tokens *t);

/* The access token to send now (borrowed until the next call on t), or
 * NULL when none is known valid (never read yet, expired, logged out, or
 * the refresh token was refused): tools_oauth_tokens_refresh reads the
 * store then. Never touches the store. */
const char *tools_oauth_tokens_current(struct tools_oauth_tokens *t);

/* 1 when the current token is missing or expires within margin_ms (a
 * refresh is due); 0 when it can be sent. */
int tools_oauth_tokens_due(struct tools_oauth_tokens *t, uint64_t margin_ms);

/* 1 when the current token came from this process's own token request
 * (a refresh or a grant), 0 when it was read from the store. */
int tools_oauth_tokens_obtained(const struct tools_oauth_tokens *t);

/* Why there is no token (a sentence naming the login command), or NULL. */
const char *tools_oauth_tokens_problem(const struct tools_oauth_tokens *t);

typedef void tools_oauth_refreshed_cb(void *ud, int ok);

/* Gets a newer access token than `stale` (the one that expired or got a
 * 401; NULL: whatever is stored is stale only when expired): another
 * process's newer row, or a refresh. cb(ud, 1) once a token other than
 * stale is current, cb(ud, 0) when there is none (tools_oauth_tokens_problem
 * says why). Always from the loop, never inside this call; callers waiting
 * at the same time share one refresh. Returns 0. */
int tools_oauth_tokens_refresh(struct tools_oauth_tokens *t, const char *stale,
                               tools_oauth_refreshed_cb *cb, void *ud);

/* Refreshes the current token margin_ms before it expires (at half the
 * time it has left when that is sooner), then cb(ud, ok) from the loop; call again with the new
 * token to keep watching. cb NULL stops watching. A token without an
 * expiry is not watched. */
void tools_oauth_tokens_watch(struct tools_oauth_tokens *t, uint64_t margin_ms,
                              tools_oauth_refreshed_cb *cb, void *ud);

/* The server's tool list (as it last listed them) is kept beside its
 * tokens, so that while it needs a login its tools stay declared. */
void tools_oauth_tokens_keep_tools(struct tools_oauth_tokens *t, const cJSON *tools);
/* The kept list (a new array), or NULL: as last kept, or as read from the
 * store before a refresh reported that there is no token. */
cJSON *tools_oauth_tokens_kept_tools(struct tools_oauth_tokens *t);

/* A call was answered 403 insufficient_scope with the scopes it needs
 * (scope, space-separated; may be NULL): records in the token row the
 * union of the granted scopes and these, for the next login to ask for
 * (step-up authorization), and returns the sentence for the call's error
 * (malloc'd), ending "; run: mcp-codemode login NAME". When a login asked
 * for these scopes already, the sentence says they were not granted and
 * names no command: a step-up is tried once, never in a loop. */
char *tools_oauth_tokens_step_up(struct tools_oauth_tokens *t, const char *scope);

/* The step-up scopes recorded by the last tools_oauth_tokens_step_up (the
 * union a new login should ask for; borrowed until the next call on t), or
 * NULL. Known at once, before the row's write lands. */
const char *tools_oauth_tokens_step_up_scope(const struct tools_oauth_tokens *t);

/* `check`'s login line for a server: "logged in (until ...)", "needs
 * login: mcp-codemode login NAME", or the reason it cannot tell
 * (malloc'd). */
char *tools_oauth_login_state(const char *name, const char *url,
                              const struct tools_oauth_config *cfg);

/* The token row of a server: a new object, or NULL (ABSENT or unreadable,
 * with a sentence in err of TOOLS_STATE_ERR_MAX bytes; "" when absent). */
cJSON *tools_oauth_row_read(struct tools_state *s, const char *key, int64_t *version, char *err);

#endif
