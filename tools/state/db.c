/* The state database itself: creating the store, opening the file lazily
 * (directory, WAL mode, busy timeout, tables), transactions, and turning
 * SQLite's failures into sentences a program can act on. */
#include "tools/state/internal.h"
#include "tools/state/pg_async.h"
#include "common/alloc.h"
#include "common/log.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MIB (1024 * 1024)

static const char schema[] =
    "PRAGMA journal_mode=WAL;"
    "PRAGMA synchronous=NORMAL;"
    "PRAGMA cache_size=-256;" /* KiB: state is small; the default 2 MiB stays resident */
    "CREATE TABLE IF NOT EXISTS state(scope TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT "
    "NULL, version INTEGER NOT NULL, bytes INTEGER NOT NULL, PRIMARY KEY(scope, key)) WITHOUT "
    "ROWID;"
    "CREATE TABLE IF NOT EXISTS skills(owner TEXT NOT NULL, name TEXT NOT NULL, description "
    "TEXT NOT NULL, input_schema TEXT NOT NULL, code TEXT NOT NULL, saved INTEGER NOT NULL, "
    "PRIMARY KEY(owner, name));"
    "CREATE TABLE IF NOT EXISTS oauth(kind TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, "
    "version INTEGER NOT NULL, updated INTEGER NOT NULL, PRIMARY KEY(kind, key)) WITHOUT ROWID;"

    "CREATE TABLE IF NOT EXISTS result_shapes(server TEXT NOT NULL, tool TEXT NOT NULL, "
    "schema_hash TEXT NOT NULL, shape TEXT NOT NULL, updated INTEGER NOT NULL, "
    "PRIMARY KEY(server, tool)) WITHOUT ROWID;";

/* Schema version 1 (PRAGMA user_version): an HTTP session's scope is the
 * digest of its whole id. Rows of the scopes that version 0 built from the
 * first 8 characters of session ids ("http-session:" and 8 characters) were
 * shared by every session whose ids began alike (with an instanceId, by
 * all of them): nobody can own them, so they are deleted, once. */
static const char migrate_v1[] =
    "BEGIN IMMEDIATE;"
    "DELETE FROM state WHERE scope LIKE 'http-session:%' AND length(scope) = 21;"
    "PRAGMA user_version=1;"
    "COMMIT;";

/* Schema version 2: skills have owners, (owner, name) is the key. A skills
 * table of version 0 or 1 (name the key, no owner) becomes the server's
 * skills (owner ""): only the CLI or an admin may replace or delete them. */
static const char migrate_v2_skills[] =
    "BEGIN IMMEDIATE;"
    "CREATE TABLE skills_v2(owner TEXT NOT NULL, name TEXT NOT NULL, description TEXT NOT NULL, "
    "input_schema TEXT NOT NULL, code TEXT NOT NULL, saved INTEGER NOT NULL, "
    "PRIMARY KEY(owner, name));"
    "INSERT INTO skills_v2 SELECT '', name, description, input_schema, code, saved FROM skills;"
    "DROP TABLE skills;"
    "ALTER TABLE skills_v2 RENAME TO skills;"
    "PRAGMA user_version=2;"
    "COMMIT;";

/* 1 when the skills table has its owner column, 0 when not, -1 on failure. */
static int skills_have_owner(const struct tools_state *s)
{
    sqlite3_stmt *st = NULL;
    int rc = -1;
    if (s->sq->prepare_v2(s->db,
                          "SELECT count(*) FROM pragma_table_info('skills') WHERE name='owner'", -1,
                          &st, NULL) == SQLITE_OK &&
        s->sq->step(st) == SQLITE_ROW)
        rc = s->sq->column_int64(st, 0) > 0;
    s->sq->finalize(st);
    return rc;
}

/* The user_version of db, or -1 on failure. */
static int schema_version(const struct tools_state *s)
{
    sqlite3_stmt *st = NULL;
    int v = -1;
    if (s->sq->prepare_v2(s->db, "PRAGMA user_version", -1, &st, NULL) == SQLITE_OK &&
        s->sq->step(st) == SQLITE_ROW)
        v = (int) s->sq->column_int64(st, 0);
    s->sq->finalize(st);
    return v;
}

/* Schema version 3: the oauth table (tools/state/oauth_db.c) and the
 * result_shapes table (types learned from tool results), created by `schema`
 * above on every open; older databases only get the new version number. */
#define SCHEMA_VERSION 3

/* Brings an older database to the current schema version (v, as read). */
static int migrate(struct tools_state *s, int v)
{
    int rc = v < 1 ? s->sq->exec(s->db, migrate_v1, NULL, NULL, NULL) : SQLITE_OK;
    if (rc == SQLITE_OK && v < 2) {
        int owned = skills_have_owner(s);
        if (owned < 0)
            return s->sq->extended_errcode(s->db);
        rc = s->sq->exec(s->db, owned ? "PRAGMA user_version=2" : migrate_v2_skills, NULL, NULL,
                         NULL);
    }
    if (rc == SQLITE_OK && v < 3)
        rc = s->sq->exec(s->db, "PRAGMA user_version=3", NULL, NULL, NULL);
    if (rc != SQLITE_OK)
        s->sq->exec(s->db, "ROLLBACK", NULL, NULL, NULL);
    return rc;
}

struct tools_state *tools_state_new(const struct tools_state_options *o)
{
    struct tools_state *s = xcalloc(1, sizeof *s);
    uv_mutex_init(&s->sqlite_lock);
    s->o = *o;
    s->path = xstrdup(o->path);
    s->o.path = s->path;
    if (s->o.max_value_bytes == 0)
        s->o.max_value_bytes = MIB;
    if (s->o.max_total_bytes == 0)
        s->o.max_total_bytes = 64 * MIB;
    if (s->o.busy_timeout_ms == 0)
        s->o.busy_timeout_ms = 1000;
    if (o->url)
        s->pg = tools__pg_new(&s->o);
    s->o.url = NULL; /* pg.c keeps its copy */
    return s;
}

static void close_db(struct tools_state *s)
{
    if (s->db)
        s->sq->close_v2(s->db);
    s->db = NULL;
}

void tools_state_free(struct tools_state *s)
{
    if (s == NULL)
        return;
    close_db(s);
    tools__pga_free(s->pga);
    tools__pg_free(s->pg);
    uv_mutex_destroy(&s->sqlite_lock);
    free(s->path);
    free(s);
}

void tools_state_lock(struct tools_state *s)
{
    uv_mutex_lock(&s->sqlite_lock);
}

void tools_state_unlock(struct tools_state *s)
{
    uv_mutex_unlock(&s->sqlite_lock);
}

void tools_state_release(struct tools_state *s)
{
    close_db(s);
    if (s->sq)
        sqlite_lib_unload();
    s->sq = NULL;
}

const char *tools_state_path(const struct tools_state *s)
{
    return s->path;
}

int tools_state_file_exists(const struct tools_state *s)
{
    return s->pg || access(s->path, F_OK) == 0;
}

int tools_state_local_file_exists(const struct tools_state *s)
{
    return access(s->path, F_OK) == 0;
}

int tools_state_is_shared(const struct tools_state *s)
{
    return s->pg != NULL;
}

int tools_state_connect(struct tools_state *s, char *err)
{
    return s->pg ? tools__pg_connect(s->pg, err) : tools__state_open(s, err);
}

unsigned tools_state_parallelism(const struct tools_state *s)
{
    return s->pg ? tools__pg_parallelism(s->pg) : 1;
}

/* mkdir -p of the file's directory (mode 0700: state may be private). */
static int make_parent(const char *path, char *err)
{
    char *dir = xstrdup(path);
    char *slash = strrchr(dir, '/');
    int rc = 0;
    if (slash && slash != dir) {
        *slash = '\0';
        for (char *p = dir + 1; *p && rc == 0; p++) {
            if (*p != '/')
                continue;
            *p = '\0';
            if (mkdir(dir, 0700) != 0 && errno != EEXIST)
                rc = -1;
            *p = '/';
        }
        if (rc == 0 && mkdir(dir, 0700) != 0 && errno != EEXIST)
            rc = -1;
        if (rc != 0)
            snprintf(err, TOOLS_STATE_ERR_MAX, "cannot create the state directory for %s: %s", path,
                     strerror(errno));
    }
    free(dir);
    return rc == 0 ? 0 : TOOLS_STATE_FAILED;
}

static const char *explain(int rc)
{
    switch (rc & 0xff) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
        return "the database is locked by another process; try again later";
    case SQLITE_READONLY:
        return "the database file is read-only";
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
        return "the file is corrupt or not a state database";
    case SQLITE_FULL:
        return "the disk is full";
    case SQLITE_CANTOPEN:
        return "the file cannot be opened";
    case SQLITE_IOERR:
        return "an I/O error occurred";
    case SQLITE_PERM:
    case SQLITE_AUTH:
        return "permission denied";
    default:
        return NULL;
    }
}

int tools__state_fail(struct tools_state *s, int rc, const char *doing, char *err)
{
    const char *why = explain(rc);
    const char *detail = s->sq->errstr(rc);
    int n = snprintf(err, TOOLS_STATE_ERR_MAX, "state database %s: %s%s%s", s->path,
                     doing ? doing : "", doing ? " (" : "", why ? why : detail);
    if (why && strcmp(why, detail) != 0 && n > 0 && n < TOOLS_STATE_ERR_MAX)
        n += snprintf(err + n, TOOLS_STATE_ERR_MAX - (size_t) n, ": %s", detail);
    if (doing && n > 0 && n < TOOLS_STATE_ERR_MAX)
        snprintf(err + n, TOOLS_STATE_ERR_MAX - (size_t) n, ")");
    int code = rc & 0xff;
    if (code == SQLITE_CORRUPT || code == SQLITE_NOTADB || code == SQLITE_CANTOPEN ||
        code == SQLITE_IOERR)
        close_db(s); /* the next operation opens the file again */
    return TOOLS_STATE_FAILED;
}

int tools__state_open(struct tools_state *s, char *err)
{
    if (s->db)
        return 0;
    if (s->sq == NULL && (s->sq = sqlite_lib_load(err, TOOLS_STATE_ERR_MAX)) == NULL)
        return TOOLS_STATE_FAILED;
    if (make_parent(s->path, err) != 0)
        return TOOLS_STATE_FAILED;
    sqlite3 *db = NULL;
    int rc = s->sq->open_v2(s->path, &db,
                            SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, NULL);
    if (rc != SQLITE_OK) {
        snprintf(err, TOOLS_STATE_ERR_MAX, "state database %s: cannot open it (%s)", s->path,
                 explain(rc) ? explain(rc) : s->sq->errstr(rc));
        if (db)
            s->sq->close_v2(db);
        return TOOLS_STATE_FAILED;
    }
    s->db = db;
    s->sq->busy_timeout(db, (int) s->o.busy_timeout_ms);
    int version = schema_version(s);
    if (version > SCHEMA_VERSION) {
        snprintf(err, TOOLS_STATE_ERR_MAX,
                 "state database %s: written by a newer mcp-codemode (schema version %d; this one "
                 "reads versions up to %d): upgrade, or use another codemode.state.path",
                 s->path, version, SCHEMA_VERSION);
        close_db(s);
        return TOOLS_STATE_FAILED;
    }
    rc = version < 0 ? s->sq->extended_errcode(db) : s->sq->exec(db, schema, NULL, NULL, NULL);
    if (rc == SQLITE_OK)
        rc = migrate(s, version);
    if (rc != SQLITE_OK) {
        tools__state_fail(s, s->sq->extended_errcode(db), "cannot open it", err);
        close_db(s);
        return TOOLS_STATE_FAILED;
    }
    return 0;
}

sqlite3_stmt *tools__state_prepare(struct tools_state *s, const char *sql, char *err)
{
    sqlite3_stmt *st = NULL;
    int rc = s->sq->prepare_v2(s->db, sql, -1, &st, NULL);
    if (rc != SQLITE_OK) {
        tools__state_fail(s, s->sq->extended_errcode(s->db), NULL, err);
        return NULL;
    }
    return st;
}

int tools__state_begin(struct tools_state *s, char *err)
{
    int rc = s->sq->exec(s->db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
    if (rc != SQLITE_OK)
        return tools__state_fail(s, s->sq->extended_errcode(s->db), "cannot write", err);
    return 0;
}

void tools__state_rollback(struct tools_state *s)
{
    if (s->db)
        s->sq->exec(s->db, "ROLLBACK", NULL, NULL, NULL);
}

int tools__state_commit(struct tools_state *s, char *err)
{
    int rc = s->sq->exec(s->db, "COMMIT", NULL, NULL, NULL);
    if (rc == SQLITE_OK)
        return 0;
    int ext = s->sq->extended_errcode(s->db);
    tools__state_rollback(s);
    return tools__state_fail(s, ext, "cannot write", err);
}

int tools_state_stash_put(struct tools_state *s, const struct tools_state_stash_entry *e, char *err)
{
    if (s->pg == NULL) {
        snprintf(err, TOOLS_STATE_ERR_MAX,
                 "the stash is shared only on PostgreSQL (codemode.store)");
        return TOOLS_STATE_INVALID;
    }
    return tools__pg_stash_put(s->pg, e, err);
}

int tools_state_stash_get(struct tools_state *s, const char *uri, const char *owner, char **data,
                          size_t *len, char **mime, int *blob, char *err)
{
    if (s->pg == NULL) {
        snprintf(err, TOOLS_STATE_ERR_MAX,
                 "the stash is shared only on PostgreSQL (codemode.store)");
        return TOOLS_STATE_INVALID;
    }
    return tools__pg_stash_get(s->pg, uri, owner, data, len, mime, blob, err);
}

int tools_state_stash_touch(struct tools_state *s, const char *uri, const char *owner, char *err)
{
    if (s->pg == NULL) {
        snprintf(err, TOOLS_STATE_ERR_MAX,
                 "the stash is shared only on PostgreSQL (codemode.store)");
        return TOOLS_STATE_INVALID;
    }
    return tools__pg_stash_touch(s->pg, uri, owner, err);
}

struct tools__pga *tools__state_pool(struct tools_state *s, uv_loop_t *loop)
{
    char err[TOOLS_STATE_ERR_MAX];
    if (s->pga || s->pg == NULL || loop == NULL)
        return s->pga;
    s->pga = tools__pga_new(s->pg, loop, err);
    if (s->pga == NULL) /* the operations then run on threads, and fail there with err */
        log_warn("state", "%s", err);
    return s->pga;
}

void tools__state_pool_close(struct tools_state *s)
{
    tools__pga_free(s->pga);
    s->pga = NULL;
}

const struct pg_lib *tools__state_pq(struct tools_state *s)
{
    return s->pg ? tools__pg_lib(s->pg) : NULL;
}

const struct tools_state_options *tools_state_options_of(const struct tools_state *s)
{
    return &s->o;
}
