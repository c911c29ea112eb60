/* OAuth rows of the state database: client registrations and tokens for
 * remote servers that need authorization (tools/oauth/). Apart from the
 * programs' state table, so no state.* call reaches them. Each row is a
 * JSON document with a version; writes are compare-and-set, so processes
 * sharing the database never both spend a rotating refresh token. Writing
 * one makes the database files private (mode 0600). On a store opened with
 * codemode.store's URL the rows are PostgreSQL's (pg.c), shared by every
 * instance; oauth_async.c runs these operations off the loop. */
#include "tools/state/internal.h"
#include "common/alloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

int tools__state_oauth_check(const char *kind, const char *key, const char *json, char *err)
{
    size_t k = kind ? strlen(kind) : 0, n = key ? strlen(key) : 0;
    if (k == 0 || k > 64 || n == 0 || n > TOOLS_STATE_KEY_MAX ||
        (json && strlen(json) > 256 * 1024)) {
        snprintf(err, TOOLS_STATE_ERR_MAX,
                 "an OAuth row needs a kind, a key of 1 to %d bytes "
                 "and a value of at most 256 KiB",
                 TOOLS_STATE_KEY_MAX);
        return TOOLS_STATE_INVALID;
    }
    return 0;
}

/* chmod 0600 of the database and its WAL and shared-memory files. */
static void make_private(const char *path)
{
    static const char *const suffixes[] = {"", "-wal", "-shm"};
    for (size_t i = 0; i < 3; i++) {
        size_t n = strlen(path) + 5;
        char *p = xmalloc(n);
        snprintf(p, n, "%s%s", path, suffixes[i]);
        chmod(p, 0600); /* a file that is not there is fine */
        free(p);
    }
}

static int oauth_get_unlocked(struct tools_state *s, const char *kind, const char *key, char **json,
                              int64_t *version, char *err)
{
    int rc = tools__state_oauth_check(kind, key, NULL, err);
    if (rc != 0 || (rc = tools__state_open(s, err)) != 0)
        return rc;
    sqlite3_stmt *st =
        tools__state_prepare(s, "SELECT value, version FROM oauth WHERE kind=?1 AND key=?2", err);
    if (st == NULL)
        return TOOLS_STATE_FAILED;
    s->sq->bind_text(st, 1, kind, -1, SQLITE_STATIC);
    s->sq->bind_text(st, 2, key, -1, SQLITE_STATIC);
    int step = s->sq->step(st);
    if (step == SQLITE_ROW) {
        const char *v = (const char *) s->sq->column_text(st, 0);
        *json = xstrndup(v ? v : "null", v ? (size_t) s->sq->column_bytes(st, 0) : 4);
        *version = s->sq->column_int64(st, 1);
        rc = TOOLS_STATE_OK;
    } else if (step == SQLITE_DONE) {
        rc = TOOLS_STATE_ABSENT;
    } else {
        rc = tools__state_fail(s, s->sq->extended_errcode(s->db), "cannot read", err);
    }
    s->sq->finalize(st);
    return rc;
}

/* The row's version inside the transaction (0: none), or -1 on failure. */
static int64_t row_version(struct tools_state *s, const char *kind, const char *key, char *err)
{
    sqlite3_stmt *st =
        tools__state_prepare(s, "SELECT version FROM oauth WHERE kind=?1 AND key=?2", err);
    if (st == NULL)
        return -1;
    s->sq->bind_text(st, 1, kind, -1, SQLITE_STATIC);
    s->sq->bind_text(st, 2, key, -1, SQLITE_STATIC);
    int step = s->sq->step(st);
    int64_t v = step == SQLITE_ROW ? s->sq->column_int64(st, 0) : step == SQLITE_DONE ? 0 : -1;
    if (v < 0)
        tools__state_fail(s, s->sq->extended_errcode(s->db), "cannot read", err);
    s->sq->finalize(st);
    return v;
}

static int write_row(struct tools_state *s, const char *kind, const char *key, const char *json,
                     int64_t version, char *err)
{
    sqlite3_stmt *st = tools__state_prepare(
        s,
        "INSERT OR REPLACE INTO oauth(kind, key, value, version, updated) VALUES(?1,?2,?3,?4,?5)",
        err);
    if (st == NULL)
        return TOOLS_STATE_FAILED;
    s->sq->bind_text(st, 1, kind, -1, SQLITE_STATIC);
    s->sq->bind_text(st, 2, key, -1, SQLITE_STATIC);
    s->sq->bind_text(st, 3, json, -1, SQLITE_STATIC);
    s->sq->bind_int64(st, 4, version);
    s->sq->bind_int64(st, 5, (int64_t) time(NULL));
    int rc = s->sq->step(st) == SQLITE_DONE
                 ? 0
                 : tools__state_fail(s, s->sq->extended_errcode(s->db), "cannot write", err);
    s->sq->finalize(st);
    return rc;
}

static int oauth_put_unlocked(struct tools_state *s, const char *kind, const char *key,
                              const char *json, int64_t if_version, int64_t *version, char *err)
{
    int rc = tools__state_oauth_check(kind, key, json, err);
    if (rc != 0 || (rc = tools__state_open(s, err)) != 0 || (rc = tools__state_begin(s, err)) != 0)
        return rc;
    int64_t have = row_version(s, kind, key, err);
    if (have < 0) {
        rc = TOOLS_STATE_FAILED;
    } else if (if_version >= 0 && have != if_version) {
        snprintf(err, TOOLS_STATE_ERR_MAX,
                 "the OAuth %s row was written by another instance or process first (version "
                 "%lld, expected %lld): read it again",
                 kind, (long long) have, (long long) if_version);
        rc = TOOLS_STATE_CONFLICT;
    } else {
        rc = write_row(s, kind, key, json, have + 1, err);
    }
    if (rc == 0)
        rc = tools__state_commit(s, err);
    else
        tools__state_rollback(s);
    if (rc == 0) {
        *version = have + 1;
        make_private(s->path);
    }
    return rc;
}

static int oauth_delete_unlocked(struct tools_state *s, const char *kind, const char *key,
                                 char *err)
{
    int rc = tools__state_oauth_check(kind, key, NULL, err);
    if (rc != 0 || (rc = tools__state_open(s, err)) != 0)
        return rc;
    sqlite3_stmt *st = tools__state_prepare(s, "DELETE FROM oauth WHERE kind=?1 AND key=?2", err);
    if (st == NULL)
        return TOOLS_STATE_FAILED;
    s->sq->bind_text(st, 1, kind, -1, SQLITE_STATIC);
    s->sq->bind_text(st, 2, key, -1, SQLITE_STATIC);
    if (s->sq->step(st) != SQLITE_DONE)
        rc = tools__state_fail(s, s->sq->extended_errcode(s->db), "cannot write", err);
    else
        rc = s->sq->changes(s->db) > 0 ? TOOLS_STATE_OK : TOOLS_STATE_ABSENT;
    s->sq->finalize(st);
    return rc;
}

/* --- the public operations, each under the connection's lock ------------------------------ */

int tools_state_oauth_get(struct tools_state *s, const char *kind, const char *key, char **json,
                          int64_t *version, char *err)
{
    int rc = tools__state_oauth_check(kind, key, NULL, err);
    if (rc != 0 || s->pg)
        return rc ? rc : tools__pg_oauth_get(s->pg, kind, key, json, version, err);
    tools_state_lock(s);
    rc = oauth_get_unlocked(s, kind, key, json, version, err);
    tools_state_unlock(s);
    return rc;
}

int tools_state_oauth_put(struct tools_state *s, const char *kind, const char *key,
                          const char *json, int64_t if_version, int64_t *version, char *err)
{
    int rc = tools__state_oauth_check(kind, key, json, err);
    if (rc != 0 || s->pg)
        return rc ? rc : tools__pg_oauth_put(s->pg, kind, key, json, if_version, version, err);
    tools_state_lock(s);
    rc = oauth_put_unlocked(s, kind, key, json, if_version, version, err);
    tools_state_unlock(s);
    return rc;
}

int tools_state_oauth_delete(struct tools_state *s, const char *kind, const char *key, char *err)
{
    int rc = tools__state_oauth_check(kind, key, NULL, err);
    if (rc != 0 || s->pg)
        return rc ? rc : tools__pg_oauth_delete(s->pg, kind, key, err);
    tools_state_lock(s);
    rc = oauth_delete_unlocked(s, kind, key, err);
    tools_state_unlock(s);
    return rc;
}
