/* The PostgreSQL backend of the state store (codemode.store): the same
 * operations and sentences as the SQLite file (kv.c, skills_db.c) on tables
 * shared by every instance that names the database. A small pool of
 * connections (max_connections), each used by one thread at a time; a
 * connection attempt is bounded by connect_timeout_ms (non-blocking connect
 * polled against a deadline), a statement by statement_timeout_ms (set on
 * the session). A lost server fails the operations with FAILED ("storage")
 * at once while it stays down, retrying the connection with a backoff of
 * 100 ms doubling to 5 s. A write is acknowledged only after its COMMIT
 * answered. Writes of one scope are serialised by an advisory lock, so that
 * compare-and-set and the scope's quota hold across instances. The schema is
 * versioned (codemode_meta); a newer one is refused. This file holds the
 * pool, the statements, the migrations and the state rows; the other tables'
 * operations are in pg_skills.c, pg_stash.c, pg_oauth.c and pg_shapes.c.
 * These synchronous operations serve the CLI, the server's start and end,
 * and the tests; the server's operations go through the pool on the loop
 * (pg_async.c), on the same tables. */
#include "tools/state/pg_internal.h"
#include "common/alloc.h"
#include "common/json.h"

#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PG_SCHEMA_VERSION 3
#define BACKOFF_MIN_MS    100
#define BACKOFF_MAX_MS    5000
#define SCHEMA_LOCK       "7243021900501" /* pg_advisory_xact_lock key of migrations */

/* The migrations, one per version: migrations[i] brings version i to i + 1. */
static const char *const migrations[PG_SCHEMA_VERSION] = {
    "CREATE TABLE IF NOT EXISTS codemode_state(scope TEXT COLLATE \"C\" NOT NULL, "
    "key TEXT COLLATE \"C\" NOT NULL, value TEXT NOT NULL, version BIGINT NOT NULL, "
    "bytes BIGINT NOT NULL, PRIMARY KEY(scope, key));"
    "CREATE TABLE IF NOT EXISTS codemode_skills(owner TEXT COLLATE \"C\" NOT NULL, "
    "name TEXT COLLATE \"C\" NOT NULL, description TEXT NOT NULL, input_schema TEXT NOT NULL, "
    "code TEXT NOT NULL, saved BIGINT NOT NULL, PRIMARY KEY(owner, name));",
    /* 2: the shared stash; created orders eviction (oldest first; from 3 on,
     * a read moves it to the sequence's next value: least recently used first) */
    "CREATE TABLE IF NOT EXISTS codemode_stash(uri TEXT COLLATE \"C\" PRIMARY KEY, "
    "owner TEXT NOT NULL, mime TEXT NOT NULL, blob BOOLEAN NOT NULL, data TEXT NOT NULL, "
    "bytes BIGINT NOT NULL, created BIGSERIAL, expires TIMESTAMPTZ);"
    "CREATE INDEX IF NOT EXISTS codemode_stash_created ON codemode_stash(created);"
    /* and the OAuth rows of remote servers (oauth_db.c), shared like the rest */
    "CREATE TABLE IF NOT EXISTS codemode_oauth(kind TEXT COLLATE \"C\" NOT NULL, "
    "key TEXT COLLATE \"C\" NOT NULL, value TEXT NOT NULL, version BIGINT NOT NULL, "
    "PRIMARY KEY(kind, key));"
    /* a write of state.set as one statement, for the pool on the loop
     * (pg_async.c): the scope's lock, the version check, the quota, the row.
     * status 0: written (version: the new one); 1: ifVersion did not match
     * (version: the key's); 2: over the quota (total: what it would be) */
    "CREATE OR REPLACE FUNCTION codemode_state_set(p_scope TEXT, p_key TEXT, p_value TEXT, "
    "p_if BIGINT, p_max_total BIGINT) RETURNS TABLE(status INT, version BIGINT, total BIGINT) "
    "LANGUAGE plpgsql AS $f$ DECLARE v_have BIGINT; v_others BIGINT; v_bytes BIGINT; BEGIN "
    "PERFORM pg_advisory_xact_lock(hashtextextended(p_scope, 7243)); "
    "SELECT s.version INTO v_have FROM codemode_state s WHERE s.scope = p_scope AND s.key = "
    "p_key; v_have := COALESCE(v_have, 0); "
    "IF p_if >= 0 AND p_if <> v_have THEN RETURN QUERY SELECT 1, v_have, 0::BIGINT; RETURN; "
    "END IF; "
    "SELECT COALESCE(SUM(s.bytes), 0) INTO v_others FROM codemode_state s WHERE s.scope = "
    "p_scope AND s.key <> p_key; "
    "v_bytes := octet_length(p_key) + octet_length(p_value); "
    "IF v_others + v_bytes > p_max_total THEN RETURN QUERY SELECT 2, v_have, v_others + "
    "v_bytes; RETURN; END IF; "
    "INSERT INTO codemode_state AS s(scope, key, value, version, bytes) VALUES(p_scope, p_key, "
    "p_value, v_have + 1, v_bytes) ON CONFLICT(scope, key) DO UPDATE SET value = "
    "EXCLUDED.value, version = EXCLUDED.version, bytes = EXCLUDED.bytes; "
    "RETURN QUERY SELECT 0, v_have + 1, v_others + v_bytes; END $f$;",
    /* 3: the learned result types (shapes_db.c), shared like the rest */
    "CREATE TABLE IF NOT EXISTS codemode_result_shapes(server TEXT COLLATE \"C\" NOT NULL, "
    "tool TEXT COLLATE \"C\" NOT NULL, schema_hash TEXT NOT NULL, shape TEXT NOT NULL, "
    "updated BIGINT NOT NULL, PRIMARY KEY(server, tool));",
};

static uint64_t now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t) t.tv_sec * 1000 + (uint64_t) t.tv_nsec / 1000000;
}

struct tools__pg *tools__pg_new(const struct tools_state_options *o)
{
    struct tools__pg *p = xcalloc(1, sizeof *p);
    p->url = xstrdup(o->url);
    p->o = *o;
    p->o.url = NULL;
    p->n = o->max_connections ? o->max_connections : 4;
    if (p->o.connect_timeout_ms == 0)
        p->o.connect_timeout_ms = 5000;
    if (p->o.statement_timeout_ms == 0)
        p->o.statement_timeout_ms = 10000;
    p->conns = xcalloc(p->n, sizeof *p->conns);
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->freed, NULL);
    return p;
}

void tools__pg_free(struct tools__pg *p)
{
    if (p == NULL)
        return;
    for (unsigned i = 0; i < p->n; i++)
        if (p->conns[i].pg)
            p->pq->finish(p->conns[i].pg);
    pthread_mutex_destroy(&p->lock);
    pthread_cond_destroy(&p->freed);
    free(p->conns);
    free(p->url);
    free(p);
}

unsigned tools__pg_parallelism(const struct tools__pg *p)
{
    return p->n;
}

/* The first line of libpq's message (they end with a newline, some have a
 * DETAIL line after). */
static void first_line(const char *msg, char *out, size_t size)
{
    size_t n = strcspn(msg ? msg : "", "\n");
    if (n >= size)
        n = size - 1;
    memcpy(out, msg ? msg : "", n);
    out[n] = '\0';
}

/* --- connections ---------------------------------------------------------------------------- */

void tools__pg_start_params(const struct tools__pg *p, char *options, size_t size,
                            const char *values[4])
{
    snprintf(options, size,
             "-c statement_timeout=%u -c lock_timeout=%u -c client_min_messages=warning",
             p->o.statement_timeout_ms, p->o.statement_timeout_ms);
    values[0] = p->url;
    values[1] = options;
    values[2] = "mcp-codemode";
    values[3] = NULL;
}

const char *const tools__pg_start_keys[4] = {"dbname", "options", "application_name", NULL};

const struct tools_state_options *tools__pg_options(const struct tools__pg *p)
{
    return &p->o;
}

const struct pg_lib *tools__pg_load(struct tools__pg *p, char *err)
{
    if (p->pq == NULL)
        p->pq = pg_lib_load(err, TOOLS_STATE_ERR_MAX);
    return p->pq;
}

void tools__pg_failure(const struct tools__pg *p, PGconn *c, PGresult *r, const char *doing,
                       char *err)
{
    char why[300];
    const char *state = r ? p->pq->resultErrorField(r, PG_DIAG_SQLSTATE) : NULL;
    first_line(r ? p->pq->resultErrorMessage(r) : p->pq->errorMessage(c), why, sizeof why);
    if (why[0] == '\0')
        first_line(p->pq->errorMessage(c), why, sizeof why);
    const char *hint = state && strcmp(state, "57014") == 0 ? " (codemode.store.statementTimeoutMs)"
                       : state && strcmp(state, "55P03") == 0 ? " (a lock held too long)"
                                                              : "";
    snprintf(err, TOOLS_STATE_ERR_MAX,
             "state database (PostgreSQL, codemode.store): cannot %s (%s)%s", doing,
             why[0] ? why : "the connection was lost", hint);
}

void tools__pg_cannot_connect(const struct tools__pg *p, PGconn *c, int timed_out, char *err)
{
    char why[300];
    if (timed_out)
        snprintf(why, sizeof why, "no answer within %u ms (codemode.store.connectTimeoutMs)",
                 p->o.connect_timeout_ms);
    else
        first_line(c ? p->pq->errorMessage(c) : "out of memory", why, sizeof why);
    snprintf(err, TOOLS_STATE_ERR_MAX,
             "state database (PostgreSQL, codemode.store.url): cannot connect (%s)", why);
}

/* Connects within connect_timeout_ms: the connection, or NULL with err. */
static PGconn *connect_now(struct tools__pg *p, char *err)
{
    char timeout[128];
    const char *values[4];
    tools__pg_start_params(p, timeout, sizeof timeout, values);
    PGconn *c = p->pq->connectStartParams(tools__pg_start_keys, values, 1);
    uint64_t deadline = now_ms() + p->o.connect_timeout_ms;
    PostgresPollingStatusType st = PGRES_POLLING_WRITING;
    char why[300] = "";
    while (c && p->pq->status(c) != CONNECTION_BAD && st != PGRES_POLLING_OK &&
           st != PGRES_POLLING_FAILED) {
        uint64_t t = now_ms();
        if (t >= deadline) {
            snprintf(why, sizeof why, "no answer within %u ms (codemode.store.connectTimeoutMs)",
                     p->o.connect_timeout_ms);
            break;
        }
        struct pollfd pf = {p->pq->socket(c), st == PGRES_POLLING_READING ? POLLIN : POLLOUT, 0};
        int r = poll(&pf, 1, (int) (deadline - t));
        if (r < 0)
            continue;
        if (r > 0)
            st = p->pq->connectPoll(c);
    }
    if (c && st == PGRES_POLLING_OK && p->pq->status(c) == CONNECTION_OK)
        return c;
    if (why[0] == '\0')
        first_line(c ? p->pq->errorMessage(c) : "out of memory", why, sizeof why);
    snprintf(err, TOOLS_STATE_ERR_MAX,
             "state database (PostgreSQL, codemode.store.url): cannot connect (%s)", why);
    if (c)
        p->pq->finish(c);
    return NULL;
}

static int run_migrations(struct tools__pg *p, PGconn *c, char *err);

/* A connection for one operation: NULL with err (FAILED) while the server
 * cannot be reached. Waits for a free one when every one is taken. */
static struct tools__pg_conn *take(struct tools__pg *p, char *err)
{
    if (p->pq == NULL && (p->pq = pg_lib_load(err, TOOLS_STATE_ERR_MAX)) == NULL)
        return NULL;
    pthread_mutex_lock(&p->lock);
    struct tools__pg_conn *k = NULL;
    for (;;) {
        for (unsigned i = 0; i < p->n && k == NULL; i++) /* an open one first */
            if (!p->conns[i].busy && p->conns[i].pg)
                k = &p->conns[i];
        for (unsigned i = 0; i < p->n && k == NULL; i++)
            if (!p->conns[i].busy)
                k = &p->conns[i];
        if (k)
            break;
        pthread_cond_wait(&p->freed, &p->lock);
    }
    k->busy = 1;
    k->broken = 0;
    if (k->pg) {
        pthread_mutex_unlock(&p->lock);
        return k;
    }
    uint64_t t = now_ms();
    if (t < p->retry_at) { /* down: fail at once until the next attempt */
        snprintf(err, TOOLS_STATE_ERR_MAX, "%s; retrying in %llu ms", p->down,
                 (unsigned long long) (p->retry_at - t));
        k->busy = 0;
        pthread_mutex_unlock(&p->lock);
        return NULL;
    }
    int need_schema = !p->schema_ok;
    pthread_mutex_unlock(&p->lock);
    PGconn *c = connect_now(p, err);
    if (c && need_schema && run_migrations(p, c, err) != 0) {
        p->pq->finish(c);
        c = NULL;
        pthread_mutex_lock(&p->lock);
        k->busy = 0;
        pthread_cond_signal(&p->freed);
        pthread_mutex_unlock(&p->lock);
        return NULL; /* a schema problem is not an outage: no backoff */
    }
    pthread_mutex_lock(&p->lock);
    if (c == NULL) {
        p->backoff_ms = p->backoff_ms ? p->backoff_ms * 2 : BACKOFF_MIN_MS;
        if (p->backoff_ms > BACKOFF_MAX_MS)
            p->backoff_ms = BACKOFF_MAX_MS;
        p->retry_at = now_ms() + p->backoff_ms;
        snprintf(p->down, sizeof p->down, "%.*s", (int) sizeof p->down - 1, err);
        k->busy = 0;
        pthread_cond_signal(&p->freed);
    } else {
        p->backoff_ms = 0;
        p->retry_at = 0;
        p->schema_ok = 1;
        k->pg = c;
        k->reused = 0;
    }
    pthread_mutex_unlock(&p->lock);
    return c ? k : NULL;
}

/* Gives the connection back (closed when it was lost). */
static void give(struct tools__pg *p, struct tools__pg_conn *k)
{
    if (k->broken || p->pq->status(k->pg) != CONNECTION_OK) {
        p->pq->finish(k->pg);
        k->pg = NULL;
    }
    pthread_mutex_lock(&p->lock);
    k->busy = 0;
    k->reused = 1;
    pthread_cond_signal(&p->freed);
    pthread_mutex_unlock(&p->lock);
}

const struct pg_lib *tools__pg_lib(const struct tools__pg *p)
{
    return p->pq;
}

PGconn *tools__pg_open_listener(struct tools__pg *p, const char *channel, char *err)
{
    if (p->pq == NULL && (p->pq = pg_lib_load(err, TOOLS_STATE_ERR_MAX)) == NULL)
        return NULL;
    PGconn *c = connect_now(p, err);
    if (c == NULL)
        return NULL;
    char sql[96];
    snprintf(sql, sizeof sql, "LISTEN %s", channel);
    struct tools__pg_conn k = {c, 1, 0, 0};
    if (tools__pg_run(p, &k, sql, 0, NULL, "listen for skill changes", err) != 0) {
        p->pq->finish(c);
        return NULL;
    }
    return c;
}

void tools__pg_close_conn(struct tools__pg *p, PGconn *c)
{
    if (c)
        p->pq->finish(c);
}

int tools__pg_connect(struct tools__pg *p, char *err)
{
    struct tools__pg_conn *k = take(p, err);
    if (k == NULL)
        return TOOLS_STATE_FAILED;
    give(p, k);
    return TOOLS_STATE_OK;
}

/* --- statements ------------------------------------------------------------------------------ */

/* Runs sql with text parameters: the result (COMMAND_OK or TUPLES_OK), or
 * NULL with err ("... cannot <doing> (...)") and the connection marked lost
 * when it was. */
PGresult *tools__pg_q(struct tools__pg *p, struct tools__pg_conn *k, const char *sql, int n,
                      const char *const *params, const char *doing, char *err)
{
    PGresult *r = n ? p->pq->execParams(k->pg, sql, n, NULL, params, NULL, NULL, 0)
                    : p->pq->exec(k->pg, sql); /* several commands: the migrations */
    ExecStatusType st = r ? p->pq->resultStatus(r) : PGRES_FATAL_ERROR;
    if (st == PGRES_COMMAND_OK || st == PGRES_TUPLES_OK)
        return r;
    char why[300];
    const char *state = r ? p->pq->resultErrorField(r, PG_DIAG_SQLSTATE) : NULL;
    first_line(r ? p->pq->resultErrorMessage(r) : p->pq->errorMessage(k->pg), why, sizeof why);
    if (why[0] == '\0')
        first_line(p->pq->errorMessage(k->pg), why, sizeof why);
    if (p->pq->status(k->pg) != CONNECTION_OK)
        k->broken = 1;
    const char *hint = state && strcmp(state, "57014") == 0 ? " (codemode.store.statementTimeoutMs)"
                       : state && strcmp(state, "55P03") == 0 ? " (a lock held too long)"
                                                              : "";
    snprintf(err, TOOLS_STATE_ERR_MAX,
             "state database (PostgreSQL, codemode.store): cannot %s (%s)%s", doing,
             why[0] ? why : "the connection was lost", hint);
    if (r)
        p->pq->clear(r);
    return NULL;
}

/* A statement whose result is not needed: 0, or FAILED with err. */
int tools__pg_run(struct tools__pg *p, struct tools__pg_conn *k, const char *sql, int n,
                  const char *const *params, const char *doing, char *err)
{
    PGresult *r = tools__pg_q(p, k, sql, n, params, doing, err);
    if (r == NULL)
        return TOOLS_STATE_FAILED;
    p->pq->clear(r);
    return 0;
}

void tools__pg_rollback(struct tools__pg *p, struct tools__pg_conn *k)
{
    if (!k->broken) {
        PGresult *r = p->pq->exec(k->pg, "ROLLBACK");
        if (r)
            p->pq->clear(r);
    }
}

static int run_migrations(struct tools__pg *p, PGconn *c, char *err)
{
    struct tools__pg_conn k = {c, 1, 0, 0};
    if (tools__pg_run(p, &k, "BEGIN", 0, NULL, "open the tables", err) != 0)
        return TOOLS_STATE_FAILED;
    PGresult *r = NULL;
    int rc = tools__pg_run(p, &k, "SELECT pg_advisory_xact_lock(" SCHEMA_LOCK ")", 0, NULL,
                           "open the tables", err);
    if (rc == 0)
        rc = tools__pg_run(
            p, &k,
            "CREATE TABLE IF NOT EXISTS codemode_meta(name TEXT PRIMARY KEY, value BIGINT "
            "NOT NULL)",
            0, NULL, "create the tables", err);
    if (rc == 0 && (r = tools__pg_q(p, &k, "SELECT value FROM codemode_meta WHERE name='schema'", 0,
                                    NULL, "read the schema version", err)) == NULL)
        rc = TOOLS_STATE_FAILED;
    long long version = 0;
    if (rc == 0 && p->pq->ntuples(r) == 1)
        version = strtoll(p->pq->getvalue(r, 0, 0), NULL, 10);
    if (r)
        p->pq->clear(r);
    if (rc == 0 && version > PG_SCHEMA_VERSION) {
        snprintf(err, TOOLS_STATE_ERR_MAX,
                 "state database (PostgreSQL, codemode.store.url): written by a newer "
                 "mcp-codemode (schema version %lld; this one reads versions up to %d): upgrade "
                 "every instance, or use another database",
                 version, PG_SCHEMA_VERSION);
        rc = TOOLS_STATE_FAILED;
    }
    for (long long v = version; rc == 0 && v < PG_SCHEMA_VERSION; v++)
        rc = tools__pg_run(p, &k, migrations[v], 0, NULL, "create the tables", err);
    if (rc == 0 && version < PG_SCHEMA_VERSION) {
        char vs[24];
        snprintf(vs, sizeof vs, "%d", PG_SCHEMA_VERSION);
        const char *params[] = {vs};
        rc = tools__pg_run(
            p, &k,
            "INSERT INTO codemode_meta(name, value) VALUES('schema', $1) ON CONFLICT(name) "
            "DO UPDATE SET value = EXCLUDED.value",
            1, params, "record the schema version", err);
    }
    if (rc == 0)
        rc = tools__pg_run(p, &k, "COMMIT", 0, NULL, "create the tables", err);
    else
        tools__pg_rollback(p, &k);
    return rc;
}

/* Runs op on a connection; once more on a new connection when a reused one
 * turned out lost before the operation did anything (its first statement
 * failed with the connection: nothing was written). */
int tools__pg_with_conn(struct tools__pg *p, tools__pg_op *op, void *args, char *err)
{
    for (int attempt = 0;; attempt++) {
        struct tools__pg_conn *k = take(p, err);
        if (k == NULL)
            return TOOLS_STATE_FAILED;
        int started = 0, reused = k->reused;
        int rc = op(p, k, args, &started, err);
        int retry = rc == TOOLS_STATE_FAILED && k->broken && reused && !started && attempt == 0;
        give(p, k);
        if (!retry)
            return rc;
    }
}

/* --- state ------------------------------------------------------------------------------------ */

struct kv_args {
    const char *scope, *key, *json, *prefix;
    int64_t if_version;
    int sizes;
    char **out_json;
    int64_t *version;
    cJSON **out;
};

int tools__pg_read_versioned(struct tools__pg *p, struct tools__pg_conn *k, const char *sql,
                             const char *const params[2], const char *doing, int *started,
                             char **json, int64_t *version, char *err)
{
    PGresult *r = tools__pg_q(p, k, sql, 2, params, doing, err);
    if (r == NULL)
        return TOOLS_STATE_FAILED;
    *started = 1;
    int rc = TOOLS_STATE_ABSENT;
    if (p->pq->ntuples(r) == 1) {
        *json = xstrndup(p->pq->getvalue(r, 0, 0), (size_t) p->pq->getlength(r, 0, 0));
        *version = strtoll(p->pq->getvalue(r, 0, 1), NULL, 10);
        rc = TOOLS_STATE_OK;
    }
    p->pq->clear(r);
    return rc;
}

static int get_op(struct tools__pg *p, struct tools__pg_conn *k, void *ud, int *started, char *err)
{
    struct kv_args *a = ud;
    const char *params[] = {a->scope, a->key};
    return tools__pg_read_versioned(
        p, k, "SELECT value, version FROM codemode_state WHERE scope=$1 AND key=$2", params, "read",
        started, a->out_json, a->version, err);
}

int tools__pg_get(struct tools__pg *p, const char *scope, const char *key, char **json,
                  int64_t *version, char *err)
{
    struct kv_args a = {.scope = scope, .key = key, .out_json = json, .version = version};
    return tools__pg_with_conn(p, get_op, &a, err);
}

/* Inside the transaction, the scope locked: the checks, then the row. */
static int set_locked(struct tools__pg *p, struct tools__pg_conn *k, struct kv_args *a, char *err)
{
    const char *params[5] = {a->scope, a->key};
    PGresult *r =
        tools__pg_q(p, k,
                    "SELECT (SELECT version FROM codemode_state WHERE scope=$1 AND key=$2), "
                    "(SELECT COALESCE(SUM(bytes), 0) FROM codemode_state WHERE scope=$1 AND "
                    "key<>$2)",
                    2, params, "read", err);
    if (r == NULL)
        return TOOLS_STATE_FAILED;
    int64_t have = p->pq->getisnull(r, 0, 0) ? 0 : strtoll(p->pq->getvalue(r, 0, 0), NULL, 10);
    int64_t others = strtoll(p->pq->getvalue(r, 0, 1), NULL, 10);
    p->pq->clear(r);
    int64_t bytes = (int64_t) (strlen(a->key) + strlen(a->json));
    if (a->if_version >= 0 && a->if_version != have)
        return tools__state_conflict(a->key, a->if_version, have, err);
    int rc = tools__state_over_total(&p->o, a->key, others + bytes, err);
    if (rc != 0)
        return rc;
    char vs[24], bs[24];
    snprintf(vs, sizeof vs, "%" PRId64, have + 1);
    snprintf(bs, sizeof bs, "%" PRId64, bytes);
    params[2] = a->json;
    params[3] = vs;
    params[4] = bs;
    rc = tools__pg_run(
        p, k,
        "INSERT INTO codemode_state(scope, key, value, version, bytes) VALUES($1,$2,$3,$4,$5) "
        "ON CONFLICT(scope, key) DO UPDATE SET value=EXCLUDED.value, "
        "version=EXCLUDED.version, bytes=EXCLUDED.bytes",
        5, params, "write", err);
    if (rc == 0)
        *a->version = have + 1;
    return rc;
}

static int set_op(struct tools__pg *p, struct tools__pg_conn *k, void *ud, int *started, char *err)
{
    struct kv_args *a = ud;
    if (tools__pg_run(p, k, "BEGIN", 0, NULL, "write", err) != 0)
        return TOOLS_STATE_FAILED;
    *started = 1;
    const char *params[] = {a->scope};
    int rc = tools__pg_run(p, k, "SELECT pg_advisory_xact_lock(hashtextextended($1, 7243))", 1,
                           params, "write", err);
    if (rc == 0)
        rc = set_locked(p, k, a, err);
    if (rc != 0) {
        tools__pg_rollback(p, k);
        return rc;
    }
    return tools__pg_run(p, k, "COMMIT", 0, NULL, "write", err);
}

int tools__pg_set(struct tools__pg *p, const char *scope, const char *key, const char *json,
                  int64_t if_version, int64_t *version, char *err)
{
    struct kv_args a = {
        .scope = scope, .key = key, .json = json, .if_version = if_version, .version = version};
    return tools__pg_with_conn(p, set_op, &a, err);
}

int tools__pg_deleted(struct tools__pg *p, PGresult *r)
{
    const char *n = p->pq->cmdTuples(r);
    return n && atoi(n) > 0;
}

static int delete_op(struct tools__pg *p, struct tools__pg_conn *k, void *ud, int *started,
                     char *err)
{
    struct kv_args *a = ud;
    const char *params[] = {a->scope, a->key};
    PGresult *r = tools__pg_q(p, k, "DELETE FROM codemode_state WHERE scope=$1 AND key=$2", 2,
                              params, "delete", err);
    if (r == NULL)
        return TOOLS_STATE_FAILED;
    *started = 1;
    int rc = tools__pg_deleted(p, r) ? TOOLS_STATE_OK : TOOLS_STATE_ABSENT;
    p->pq->clear(r);
    return rc;
}

int tools__pg_delete(struct tools__pg *p, const char *scope, const char *key, char *err)
{
    struct kv_args a = {.scope = scope, .key = key};
    return tools__pg_with_conn(p, delete_op, &a, err);
}

static int list_op(struct tools__pg *p, struct tools__pg_conn *k, void *ud, int *started, char *err)
{
    struct kv_args *a = ud;
    const char *params[] = {a->scope, a->prefix};
    /* bytes counts the key and the value (the quota's measure): the value's is the rest */
    PGresult *r =
        tools__pg_q(p, k,
                    "SELECT key, version, bytes - octet_length(key) FROM codemode_state WHERE "
                    "scope=$1 AND key>=$2 AND starts_with(key, $2) ORDER BY key",
                    2, params, "list", err);
    if (r == NULL)
        return TOOLS_STATE_FAILED;
    *started = 1;
    cJSON *out = cJSON_CreateArray();
    for (int i = 0; i < p->pq->ntuples(r); i++) {
        const char *key = p->pq->getvalue(r, i, 0);
        if (!a->sizes) {
            cJSON_AddItemToArray(out, cJSON_CreateString(key));
            continue;
        }
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "key", key);
        cJSON_AddNumberToObject(e, "version", (double) strtoll(p->pq->getvalue(r, i, 1), NULL, 10));
        cJSON_AddNumberToObject(e, "bytes", (double) strtoll(p->pq->getvalue(r, i, 2), NULL, 10));
        cJSON_AddItemToArray(out, e);
    }
    p->pq->clear(r);
    *a->out = out;
    return TOOLS_STATE_OK;
}

int tools__pg_list(struct tools__pg *p, const char *scope, const char *prefix, int sizes,
                   cJSON **keys, char *err)
{
    struct kv_args a = {.scope = scope, .prefix = prefix, .sizes = sizes, .out = keys};
    return tools__pg_with_conn(p, list_op, &a, err);
}
