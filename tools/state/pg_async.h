/* The PostgreSQL pool on the loop (pg_async.c) and the operations of the
 * store's tables on it (pg_skills.c, pg_stash.c, pg_oauth.c, pg_shapes.c):
 * internal to tools/state/. Nothing here ever waits: statements are sent
 * with libpq's non-blocking interface and answered on the loop, never
 * inside the call that queued them. */
#ifndef TOOLS_STATE_PG_ASYNC_H
#define TOOLS_STATE_PG_ASYNC_H

#include "tools/state/internal.h"

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>
#include <uv.h>

struct tools__pga;
struct tools__pga_req;

/* --- the pool ------------------------------------------------------------------------------
 * An operation holds one connection from its first statement to its last
 * (a transaction's statements all go to one connection). Its statements go
 * in batches: a batch is sent at once as a pipeline when libpq has pipeline
 * mode (one round trip), else one statement after the other, stopping at
 * the first failure. After each batch the operation's step gets the
 * answers; inside that call it may send the next batch (tools__pga_next),
 * else the operation ends and the connection goes back to the pool (rolled
 * back first when the operation left a transaction open). */

struct tools__pga_stmt {
    const char *sql;
    int n; /* parameters (text; NULL is SQL NULL) */
    const char *const *params;
};

/* res: the batch's answers, n of them (borrowed for the call; res[i] NULL
 * for a statement not run, or not answered because of an earlier failure);
 * err: NULL when every statement succeeded, else the sentence of the first
 * failure ("state database (PostgreSQL, codemode.store): cannot <doing>
 * (...)"), or of the server being down or the connection lost, or of the
 * pool being freed (then res is all NULL and nothing more can be sent). */
typedef void tools__pga_step(void *ud, struct tools__pga_req *op, PGresult *const *res, int n,
                             const char *err);

/* NULL with err when libpq cannot be loaded. */
struct tools__pga *tools__pga_new(struct tools__pg *p, uv_loop_t *loop, char *err);
/* Queues an operation whose first batch is stmts (copied); step gets its
 * answers on the loop. The handle is valid until step returned without
 * sending another batch. */
struct tools__pga_req *tools__pga_begin(struct tools__pga *a, const char *doing,
                                        const struct tools__pga_stmt *stmts, int n,
                                        tools__pga_step *step, void *ud);
/* Inside op's step: its next batch (copied), on the same connection,
 * answered to step (the machine's next state). */
void tools__pga_next(struct tools__pga_req *op, const struct tools__pga_stmt *stmts, int n,
                     tools__pga_step *step);

/* One statement outside any transaction; cb gets the result (borrowed for
 * the call; COMMAND_OK or TUPLES_OK) or NULL and the sentence. While every
 * connection is busy, such statements may share one connection's pipeline. */
typedef void tools__pga_cb(void *ud, PGresult *r, const char *err);
struct tools__pga_req *tools__pga_query(struct tools__pga *a, const char *sql, int n,
                                        const char *const *params, const char *doing,
                                        tools__pga_cb *cb, void *ud);
/* Neither cb nor step will be called again (what was sent still completes;
 * a transaction left open is rolled back). */
void tools__pga_cancel(struct tools__pga_req *r);

/* Closes the connections at once; the operations not answered get their
 * step (or cb) called with an error first. The pool's handles are closed
 * and freed by the loop's next run (run it before uv_loop_close). NULL is
 * fine. */
void tools__pga_free(struct tools__pga *a);

/* Whether batches go out as pipelines: libpq 14 or later, unless
 * MCP_CODEMODE_PG_PIPELINE=0 (read when the pool is created; for
 * benchmarks). */
int tools__pga_pipelining(const struct tools__pga *a);
const struct pg_lib *tools__pga_pq(const struct tools__pga *a);
const struct tools_state_options *tools__pga_options(const struct tools__pga *a);

/* The pool of s's PostgreSQL store on loop (made on first use, freed with
 * the store), or NULL (SQLite, or no libpq: logged). */
struct tools__pga *tools__state_pool(struct tools_state *s, uv_loop_t *loop);
/* Frees that pool now (tools__pga_free); the next tools__state_pool makes
 * another. */
void tools__state_pool_close(struct tools_state *s);

/* --- the tables' operations on the pool ----------------------------------------------------
 * Each answers cb once, on the loop, never inside the call: a status of
 * store.h (OK, ABSENT, or negative with err) and what it read (borrowed for
 * the call unless said otherwise). Their arguments are copied. The returned
 * handle cancels: cb is not called, the statements still run to their end
 * (a write is not torn). */
struct tools__pgo;
void tools__pgo_cancel(struct tools__pgo *o);

typedef void tools__pgo_done_cb(void *ud, int rc, const char *err);
/* rows: a new array the callee owns (skills: as tools_state_skill_load's). */
typedef void tools__pgo_rows_cb(void *ud, int rc, cJSON *rows, const char *err);

struct tools__pgo *tools__pgo_skill_load(struct tools__pga *a, tools__pgo_rows_cb *cb, void *ud);
/* Saved (and announced to the other instances) in one transaction. */
struct tools__pgo *tools__pgo_skill_save(struct tools__pga *a, const char *owner, const char *name,
                                         const char *description, const char *schema_json,
                                         const char *code, tools__pgo_done_cb *cb, void *ud);
/* OK, or ABSENT when there was none. */
struct tools__pgo *tools__pgo_skill_delete(struct tools__pga *a, const char *owner,
                                           const char *name, tools__pgo_done_cb *cb, void *ud);

struct tools__pgo *tools__pgo_stash_put(struct tools__pga *a,
                                        const struct tools_state_stash_entry *e,
                                        tools__pgo_done_cb *cb, void *ud);
/* data NULL on a touch (want_data 0) and on ABSENT. */
typedef void tools__pgo_stash_cb(void *ud, int rc, const char *data, size_t len, const char *mime,
                                 int blob, const char *err);
struct tools__pgo *tools__pgo_stash_get(struct tools__pga *a, const char *uri, const char *owner,
                                        int want_data, tools__pgo_stash_cb *cb, void *ud);

/* A read (json NULL) or a compare-and-set write of an OAuth row, as
 * tools_state_oauth_start's. */
struct tools__pgo *tools__pgo_oauth(struct tools__pga *a, const char *kind, const char *key,
                                    const char *json, int64_t if_version, tools_state_oauth_cb *cb,
                                    void *ud);

struct tools__pgo *tools__pgo_shapes_save(struct tools__pga *a,
                                          const struct tools_state_shape_row *rows, size_t n,
                                          tools__pgo_done_cb *cb, void *ud);

/* The part every operation's struct starts with. */
struct tools__pgo {
    int cancelled;
};

#endif
