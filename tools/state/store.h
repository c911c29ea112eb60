/* The state store: keeps programs' key/value state (`state.*`) and saved
 * skills (`skills.*`) across executions and restarts, in one of two
 * backends with the same semantics: one SQLite database file (WAL mode;
 * db.c, kv.c, skills_db.c), or a PostgreSQL database shared by several
 * instances (codemode.store; pg.c). Opened lazily on first use (the library
 * itself is loaded then); every operation is one transaction, so a failure
 * never leaves half a value. The functions below are synchronous (the CLI,
 * start-up, tests); the server does the same operations without waiting:
 * on SQLite on libuv's thread pool (tools/state/jobs.c; a locked file waits
 * at most the busy timeout), on PostgreSQL on the store's pool of
 * connections on the loop (pg_async.h; a statement waits at most the
 * statement timeout). They may run on any one thread at a time per SQLite
 * store, and on up to max_connections threads at once for PostgreSQL. Errors
 * come back as a
 * class and a sentence naming the file or codemode.store. */
#ifndef TOOLS_STATE_STORE_H
#define TOOLS_STATE_STORE_H

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>
#include <uv.h>

struct tools_state;

struct tools_state_options {
    const char *path;         /* the database file (copied); its directory is created */
    uint64_t max_value_bytes; /* JSON text of one value (0: 1 MiB) */
    uint64_t max_total_bytes; /* keys + values of one scope (0: 64 MiB) */
    unsigned busy_timeout_ms; /* wait for another process's lock (0: 1000) */
    /* codemode.store: a PostgreSQL connection URI (copied; ${VAR}s already
     * expanded), or NULL for the SQLite file at path */
    const char *url;
    unsigned max_connections;      /* the pool's size (0: 4) */
    unsigned connect_timeout_ms;   /* a connection attempt (0: 5000) */
    unsigned statement_timeout_ms; /* one statement, lock waits included (0: 10000) */
};

/* What went wrong, beyond the sentence. */
enum tools_state_status {
    TOOLS_STATE_OK = 0,
    TOOLS_STATE_ABSENT = 1,    /* no such key or skill (not an error) */
    TOOLS_STATE_FAILED = -1,   /* the database: missing, read-only, corrupt, locked, full */
    TOOLS_STATE_CONFLICT = -2, /* ifVersion did not match */
    TOOLS_STATE_QUOTA = -3,    /* over maxValueBytes or maxTotalBytes */
    TOOLS_STATE_INVALID = -4   /* bad key, name, value or schema from the caller */
};

#define TOOLS_STATE_ERR_MAX 512
#define TOOLS_STATE_KEY_MAX 1024 /* bytes of a key */

/* Creates the store; nothing is opened until the first operation. */
struct tools_state *tools_state_new(const struct tools_state_options *o);
/* One operation at a time on the SQLite connection, which the service runs
 * on libuv's thread pool (tools/state/jobs.c) while OAuth rows and learned
 * result types are read and written from the loop: each takes this lock
 * around a whole operation (a transaction included). */
void tools_state_lock(struct tools_state *s);
void tools_state_unlock(struct tools_state *s);

/* Closes the database (when open) and frees s. NULL is fine. On
 * PostgreSQL its pool on the loop (made by the first operation started
 * with a loop) is closed too: its operations not answered yet are answered
 * with an error first, and its handles are freed by the loop's next run
 * (run the loop before uv_loop_close). May be called inside a callback of
 * the loop, even one of the store's own operations. */
void tools_state_free(struct tools_state *s);
/* The database file's path (borrowed). */
const char *tools_state_path(const struct tools_state *s);
/* Closes the database and unloads SQLite until the next operation (a server
 * that read its skills at start-up and does not use state keeps ~1.5 MiB
 * less resident). No other store may be open. */
void tools_state_release(struct tools_state *s);

/* 1 when the database file exists (without opening it); always 1 on
 * PostgreSQL. */
int tools_state_file_exists(const struct tools_state *s);
/* 1 when the local SQLite file exists, whatever the backend: OAuth rows and
 * learned result types live there even with PostgreSQL. */
int tools_state_local_file_exists(const struct tools_state *s);

/* 1 when the store is PostgreSQL (shared by the instances that name it). */
int tools_state_is_shared(const struct tools_state *s);

/* PostgreSQL: cb(ud) is called on loop whenever a skill was saved or
 * deleted, by this instance or another (LISTEN/NOTIFY), and after the
 * listening connection was lost and opened again; never inside this call.
 * NULL on SQLite. Stopped (after the loop ended) by tools_state_listen_stop
 * (NULL is fine), before tools_state_free. Its handles never keep the loop
 * alive. */
struct tools_state_listener;
struct tools_state_listener *tools_state_listen_skills(struct tools_state *s, uv_loop_t *loop,
                                                       void (*cb)(void *ud), void *ud);
void tools_state_listen_stop(struct tools_state_listener *l);

/* Opens the database now (PostgreSQL: connects, creates or migrates the
 * tables): OK, or FAILED with err (for the check at start-up). */
int tools_state_connect(struct tools_state *s, char *err);

/* How many operations may run at once (on as many threads): 1 for SQLite,
 * max_connections for PostgreSQL. */
unsigned tools_state_parallelism(const struct tools_state *s);

/* Each operation below returns a tools_state_status; on a negative one,
 * err (TOOLS_STATE_ERR_MAX bytes) holds the sentence for the program. The
 * scope names whose keys they are ("" for the whole server). */

/* The value (JSON text, malloc'd, *json) and version of key, or ABSENT. */
int tools_state_get(struct tools_state *s, const char *scope, const char *key, char **json,
                    int64_t *version, char *err);

/* Stores the JSON text `json` under key. if_version < 0: unconditional; 0:
 * only when the key does not exist; n: only when its version is n
 * (else CONFLICT). *version gets the new version (the old one + 1, 1 for a
 * new key). */
int tools_state_set(struct tools_state *s, const char *scope, const char *key, const char *json,
                    int64_t if_version, int64_t *version, char *err);

/* Deletes key: OK, or ABSENT when there was none. */
int tools_state_delete(struct tools_state *s, const char *scope, const char *key, char *err);

/* The keys that start with prefix, sorted (bytewise): *keys gets a new
 * array of strings (the caller deletes it). */
int tools_state_list(struct tools_state *s, const char *scope, const char *prefix, cJSON **keys,
                     char *err);

/* The same with what `mcp-codemode state list` shows of each key: *entries
 * gets a new array of {key, version, bytes} (bytes: the value's JSON text). */
int tools_state_list_entries(struct tools_state *s, const char *scope, const char *prefix,
                             cJSON **entries, char *err);

/* --- skills (tools/state/skills_db.c) ---------------------------------------
 * Rows of saved skills; (owner, name) is the key. The owner is the principal
 * that saved the skill, or "" for the server's own (saved by the CLI or an
 * admin). The caller checks the fields and who may write. */

/* Saves (or replaces) owner's skill; schema_json is the JSON text of its inputSchema. */
int tools_state_skill_save(struct tools_state *s, const char *owner, const char *name,
                           const char *description, const char *schema_json, const char *code,
                           char *err);
/* Deletes owner's skill: OK, or ABSENT when there was none. */
int tools_state_skill_delete(struct tools_state *s, const char *owner, const char *name, char *err);
/* Every skill, sorted by name then owner: *out gets a new array of {owner,
 * name, description, inputSchema, code} (the caller deletes it; a row whose
 * schema no longer parses gets inputSchema {}). */
int tools_state_skill_load(struct tools_state *s, cJSON **out, char *err);

/* --- OAuth (tools/state/oauth_db.c) -----------------------------------------
 * Client registrations and tokens of remote servers that need OAuth
 * (tools/oauth/), apart from the programs' keys: no state.* call reaches
 * them. A row is (kind, key) -> a JSON document and its version; kind is
 * "client" (key: issuer and redirect) or "token" (key: the server). A
 * backend keeps them private to the user (SQLite: files of mode 0600). On
 * a store created with a URL (codemode.store) they are PostgreSQL's, shared
 * by the instances: compare-and-set there locks the row, so of two
 * instances writing at one version exactly one succeeds. */

/* The row's JSON text (malloc'd, *json) and version, or ABSENT. */
int tools_state_oauth_get(struct tools_state *s, const char *kind, const char *key, char **json,
                          int64_t *version, char *err);
/* Writes the row: if_version < 0 unconditionally, 0 only when absent, n
 * only at version n (else CONFLICT: another process wrote it first, read
 * it again). *version gets the new version. */
int tools_state_oauth_put(struct tools_state *s, const char *kind, const char *key,
                          const char *json, int64_t if_version, int64_t *version, char *err);
/* Deletes the row: OK, or ABSENT when there was none. */
int tools_state_oauth_delete(struct tools_state *s, const char *kind, const char *key, char *err);

/* The same without waiting: a read (json NULL) or a write (json,
 * if_version as tools_state_oauth_put's) on libuv's thread pool (SQLite)
 * or on the store's pool of connections on loop (PostgreSQL). cb gets, on the
 * loop and never inside this call, the status, the row read (borrowed for
 * the call; NULL unless a read found one), the version (read or written)
 * and, on a negative status, the sentence. The store must outlive the
 * operation; cancel stops cb (a write in flight still completes). */
typedef void tools_state_oauth_cb(void *ud, int rc, const char *json, int64_t version,
                                  const char *err);
struct tools_state_oauth_op;
struct tools_state_oauth_op *tools_state_oauth_start(struct tools_state *s, uv_loop_t *loop,
                                                     const char *kind, const char *key,
                                                     const char *json, int64_t if_version,
                                                     tools_state_oauth_cb *cb, void *ud);
void tools_state_oauth_cancel(struct tools_state_oauth_op *op);

/* --- learned result types (tools/state/shapes_db.c) -------------------------
 * One row per downstream tool, (server, tool) the key: the shape learned
 * from its results (tools/result_shape.h's canonical JSON, never a value)
 * under the hash of the tool's schema. The caller checks what it reads. */

struct tools_state_shape_row {
    const char *server, *tool, *schema_hash, *shape;
};

#define TOOLS_STATE_SHAPES_MAX 4096 /* rows read back */

/* Writes (inserts or replaces) n rows in one transaction. */
int tools_state_shapes_save(struct tools_state *s, const struct tools_state_shape_row *rows,
                            size_t n, char *err);
/* At most TOOLS_STATE_SHAPES_MAX rows, sorted by server then tool: *out
 * gets a new array of {server, tool, schemaHash, shape} (the caller
 * deletes it). */
int tools_state_shapes_load(struct tools_state *s, cJSON **out, char *err);
/* tools_state_shapes_save without waiting (rows copied; SQLite: on
 * libuv's thread pool, PostgreSQL: on the store's pool on loop): cb(ud, rc,
 * err) on the loop afterwards (err NULL when rc is 0), never inside this
 * call. Cancelling (on the loop, before cb ran) keeps cb from being called;
 * the write itself still completes. */
typedef void tools_state_shapes_cb(void *ud, int rc, const char *err);
struct tools_state_shapes_op;
struct tools_state_shapes_op *
tools_state_shapes_save_start(struct tools_state *s, uv_loop_t *loop,
                              const struct tools_state_shape_row *rows, size_t n,
                              tools_state_shapes_cb *cb, void *ud);
void tools_state_shapes_cancel(struct tools_state_shapes_op *op);

/* --- the shared stash (PostgreSQL only; pg.c) ----------------------------------
 * What mcp-server/stash.c keeps in memory, shared by the instances: entries
 * named by their URI, readable only by their owner (a principal), gone after
 * ttl_ms, the least recently used evicted first so that at most max_entries entries and
 * max_bytes bytes of data are kept in all. On SQLite the stash stays in
 * each instance's memory: both functions fail with INVALID. */
struct tools_state_stash_entry {
    const char *uri, *owner, *mime;
    int blob; /* data is base64 */
    const char *data;
    size_t len;
    uint64_t ttl_ms; /* 0: no age bound */
    unsigned max_entries;
    uint64_t max_bytes;
};
int tools_state_stash_put(struct tools_state *s, const struct tools_state_stash_entry *e,
                          char *err);
/* The entry's data (malloc'd, *len bytes, NUL after), MIME type (malloc'd)
 * and blob flag, or ABSENT (never was, expired, evicted, another owner's).
 * A read makes the entry the most recently used (eviction is least
 * recently used first); so does stash_touch, for a read an instance
 * answered from its memory: OK, or ABSENT. */
int tools_state_stash_get(struct tools_state *s, const char *uri, const char *owner, char **data,
                          size_t *len, char **mime, int *blob, char *err);
int tools_state_stash_touch(struct tools_state *s, const char *uri, const char *owner, char *err);

#endif
