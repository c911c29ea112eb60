/* state.get / set / delete / list on the state database: JSON text values
 * with a version per key, compare-and-set inside one IMMEDIATE transaction,
 * and the per-value and per-scope quotas. */
#include "tools/state/internal.h"
#include "common/alloc.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int tools__state_check_key(const char *key, char *err)
{
    size_t n = key ? strlen(key) : 0;
    if (n == 0 || n > TOOLS_STATE_KEY_MAX) {
        snprintf(err, TOOLS_STATE_ERR_MAX, "a state key must be a string of 1 to %d bytes",
                 TOOLS_STATE_KEY_MAX);
        return TOOLS_STATE_INVALID;
    }
    return 0;
}

int tools__state_over_total(const struct tools_state_options *o, const char *key, int64_t total,
                            char *err)
{
    if ((uint64_t) total <= o->max_total_bytes)
        return 0;
    snprintf(err, TOOLS_STATE_ERR_MAX,
             "state quota exceeded: storing \"%.200s\" would bring the state to %" PRId64
             " bytes, over the limit of %llu (codemode.state.maxTotalBytes); delete keys first",
             key, total, (unsigned long long) o->max_total_bytes);
    return TOOLS_STATE_QUOTA;
}

int tools__state_over_value(const struct tools_state_options *o, const char *key,
                            const char *json, char *err)
{
    if (strlen(json) <= o->max_value_bytes)
        return 0;
    snprintf(err, TOOLS_STATE_ERR_MAX,
             "state value of \"%.200s\" is %zu bytes of JSON, over the limit of %llu "
             "(codemode.state.maxValueBytes)",
             key, strlen(json), (unsigned long long) o->max_value_bytes);
    return TOOLS_STATE_QUOTA;
}

/* Binds (scope, key) as parameters 1 and 2. */
static int bind2(struct tools_state *s, sqlite3_stmt *st, const char *scope, const char *key)
{
    s->sq->bind_text(st, 1, scope, -1, SQLITE_STATIC);
    return s->sq->bind_text(st, 2, key, -1, SQLITE_STATIC);
}

int tools_state_get(struct tools_state *s, const char *scope, const char *key, char **json,
                    int64_t *version, char *err)
{
    int rc = tools__state_check_key(key, err);
    if (rc == 0 && s->pg)
        return tools__pg_get(s->pg, scope, key, json, version, err);
    if (rc != 0 || (rc = tools__state_open(s, err)) != 0)
        return rc;
    sqlite3_stmt *st =
        tools__state_prepare(s, "SELECT value, version FROM state WHERE scope=?1 AND key=?2", err);
    if (st == NULL)
        return TOOLS_STATE_FAILED;
    bind2(s, st, scope, key);
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

/* The current version of key (0: none) and the scope's bytes without it. */
static int current(struct tools_state *s, const char *scope, const char *key, int64_t *version,
                   int64_t *others, char *err)
{
    sqlite3_stmt *st = tools__state_prepare(
        s,
        "SELECT (SELECT version FROM state WHERE scope=?1 AND key=?2), "
        "(SELECT COALESCE(SUM(bytes), 0) FROM state WHERE scope=?1 AND key<>?2)",
        err);
    if (st == NULL)
        return TOOLS_STATE_FAILED;
    bind2(s, st, scope, key);
    int rc = 0;
    if (s->sq->step(st) == SQLITE_ROW) {
        *version = s->sq->column_int64(st, 0); /* NULL reads as 0 */
        *others = s->sq->column_int64(st, 1);
    } else {
        rc = tools__state_fail(s, s->sq->extended_errcode(s->db), "cannot read", err);
    }
    s->sq->finalize(st);
    return rc;
}

int tools__state_conflict(const char *key, int64_t want, int64_t have, char *err)
{
    if (want == 0)
        snprintf(err, TOOLS_STATE_ERR_MAX,
                 "state key \"%.200s\" already exists (version %" PRId64
                 "); ifVersion 0 means it must not",
                 key, have);
    else if (have == 0)
        snprintf(err, TOOLS_STATE_ERR_MAX,
                 "state key \"%.200s\" does not exist; ifVersion %" PRId64 " expected it", key,
                 want);
    else
        snprintf(err, TOOLS_STATE_ERR_MAX,
                 "state key \"%.200s\" is at version %" PRId64 ", not %" PRId64
                 " (another execution changed it): read it again and retry",
                 key, have, want);
    return TOOLS_STATE_CONFLICT;
}

static int write_row(struct tools_state *s, const char *scope, const char *key, const char *json,
                     int64_t version, int64_t bytes, char *err)
{
    sqlite3_stmt *st = tools__state_prepare(
        s, "INSERT OR REPLACE INTO state(scope, key, value, version, bytes) VALUES(?1,?2,?3,?4,?5)",
        err);
    if (st == NULL)
        return TOOLS_STATE_FAILED;
    bind2(s, st, scope, key);
    s->sq->bind_text(st, 3, json, -1, SQLITE_STATIC);
    s->sq->bind_int64(st, 4, version);
    s->sq->bind_int64(st, 5, bytes);
    int rc = s->sq->step(st) == SQLITE_DONE
                 ? 0
                 : tools__state_fail(s, s->sq->extended_errcode(s->db), "cannot write", err);
    s->sq->finalize(st);
    return rc;
}

/* Inside the transaction: the checks, then the row. */
static int set_locked(struct tools_state *s, const char *scope, const char *key, const char *json,
                      int64_t if_version, int64_t *version, char *err)
{
    int64_t have = 0, others = 0, bytes = (int64_t) (strlen(key) + strlen(json));
    int rc = current(s, scope, key, &have, &others, err);
    if (rc != 0)
        return rc;
    if (if_version >= 0 && if_version != have)
        return tools__state_conflict(key, if_version, have, err);
    if ((rc = tools__state_over_total(&s->o, key, others + bytes, err)) != 0)
        return rc;
    *version = have + 1;
    return write_row(s, scope, key, json, *version, bytes, err);
}

int tools_state_set(struct tools_state *s, const char *scope, const char *key, const char *json,
                    int64_t if_version, int64_t *version, char *err)
{
    int rc = tools__state_check_key(key, err);
    if (rc != 0)
        return rc;
    if ((rc = tools__state_over_value(&s->o, key, json, err)) != 0)
        return rc;
    if (s->pg)
        return tools__pg_set(s->pg, scope, key, json, if_version, version, err);
    if ((rc = tools__state_open(s, err)) != 0 || (rc = tools__state_begin(s, err)) != 0)
        return rc;
    rc = set_locked(s, scope, key, json, if_version, version, err);
    if (rc != 0) {
        tools__state_rollback(s);
        return rc;
    }
    return tools__state_commit(s, err);
}

int tools_state_delete(struct tools_state *s, const char *scope, const char *key, char *err)
{
    int rc = tools__state_check_key(key, err);
    if (rc == 0 && s->pg)
        return tools__pg_delete(s->pg, scope, key, err);
    if (rc != 0 || (rc = tools__state_open(s, err)) != 0)
        return rc;
    sqlite3_stmt *st = tools__state_prepare(s, "DELETE FROM state WHERE scope=?1 AND key=?2", err);
    if (st == NULL)
        return TOOLS_STATE_FAILED;
    bind2(s, st, scope, key);
    if (s->sq->step(st) == SQLITE_DONE)
        rc = s->sq->changes(s->db) > 0 ? TOOLS_STATE_OK : TOOLS_STATE_ABSENT;
    else
        rc = tools__state_fail(s, s->sq->extended_errcode(s->db), "cannot delete", err);
    s->sq->finalize(st);
    return rc;
}

/* The keys of scope that start with prefix, sorted: strings, or (sizes)
 * objects {key, version, bytes}. */
static int list_keys(struct tools_state *s, const char *scope, const char *prefix, int sizes,
                     cJSON **keys, char *err)
{
    if (s->pg)
        return tools__pg_list(s->pg, scope, prefix ? prefix : "", sizes, keys, err);
    int rc = tools__state_open(s, err);
    if (rc != 0)
        return rc;
    /* bytes counts the key and the value (the quota's measure): the value's is the rest */
    sqlite3_stmt *st = tools__state_prepare(
        s,
        "SELECT key, version, bytes - length(CAST(key AS BLOB)) FROM state WHERE scope=?1 AND "
        "key>=?2 ORDER BY key",
        err);
    if (st == NULL)
        return TOOLS_STATE_FAILED;
    bind2(s, st, scope, prefix ? prefix : "");
    size_t plen = prefix ? strlen(prefix) : 0;
    cJSON *out = cJSON_CreateArray();
    int step;
    while ((step = s->sq->step(st)) == SQLITE_ROW) {
        const char *k = (const char *) s->sq->column_text(st, 0);
        if (k == NULL || strncmp(k, prefix ? prefix : "", plen) != 0)
            break; /* sorted bytewise: past the prefix's range */
        if (!sizes) {
            cJSON_AddItemToArray(out, cJSON_CreateString(k));
            continue;
        }
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "key", k);
        cJSON_AddNumberToObject(e, "version", (double) s->sq->column_int64(st, 1));
        cJSON_AddNumberToObject(e, "bytes", (double) s->sq->column_int64(st, 2));
        cJSON_AddItemToArray(out, e);
    }
    if (step != SQLITE_ROW && step != SQLITE_DONE) {
        cJSON_Delete(out);
        rc = tools__state_fail(s, s->sq->extended_errcode(s->db), "cannot list", err);
    } else {
        *keys = out;
    }
    s->sq->finalize(st);
    return rc;
}

int tools_state_list(struct tools_state *s, const char *scope, const char *prefix, cJSON **keys,
                     char *err)
{
    return list_keys(s, scope, prefix, 0, keys, err);
}

int tools_state_list_entries(struct tools_state *s, const char *scope, const char *prefix,
                             cJSON **entries, char *err)
{
    return list_keys(s, scope, prefix, 1, entries, err);
}
