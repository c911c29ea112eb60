/* Configuration: Claude Desktop's `mcpServers` file format plus our
 * `codemode` block, with ${VAR} / ${VAR:-default} expansion. Loading never
 * exits: it returns an error message naming the file, position and key.
 * The user documentation of the format is docs/config.md. */
#ifndef MCP_SERVER_CONFIG_H
#define MCP_SERVER_CONFIG_H

#include "tools/policy/policy.h"
#include "tools/server_config.h"

#include <stddef.h>
#include <stdint.h>

struct config_limits {
    unsigned pool_size;              /* pre-spawned workers (default 2) */
    uint64_t timeout_ms;             /* default execution time limit (30000) */
    uint64_t max_timeout_ms;         /* cap on a call's timeoutMs (300000) */
    uint64_t memory_bytes;           /* JS heap cap per execution (64 MiB) */
    uint64_t max_result_bytes;       /* result JSON cap (1 MiB) */
    uint64_t max_log_bytes;          /* console capture cap (256 KiB) */
    uint64_t max_call_argument_bytes; /* a host call's arguments as JSON (4 MiB) */
    uint64_t max_message_bytes;      /* incoming protocol message cap (16 MiB) */
    unsigned max_tool_calls;         /* tool calls per execution (1000) */
    unsigned max_concurrent_calls;   /* outstanding tool calls per execution (256) */
    uint64_t call_timeout_ms;        /* default downstream call timeout (60000) */
    uint64_t declarations_budget;    /* tokens of declarations in the description
                                        (declarations.budget, TOOLS_DECLARATIONS_BUDGET_DEFAULT) */
    int sandbox_reuse;               /* sandbox.reuse: 1 "principal" (default), 0 "never" */
    unsigned max_runs_per_worker;    /* sandbox.maxRunsPerWorker (1000) */
    uint64_t worker_idle_ms;         /* sandbox.workerIdleMs (60000) */
    int colocate_calls;              /* sandbox.colocateCalls (1): common/colocate.h */
    unsigned max_workers;            /* sandbox.maxWorkers (0: from the CPUs and memory, app.c) */
    unsigned max_concurrent_per_principal; /* sandbox.maxConcurrentPerPrincipal (4) */
    unsigned stash_max_entries;      /* stash.maxEntries (64; 0: no stash) */
    uint64_t stash_max_bytes;        /* stash.maxBytes (64 MiB) */
    uint64_t stash_ttl_ms;           /* stash.ttlMs (900000) */
};

/* How a warning should be shown. CONFIG_WARNING_IGNORED marks a top-level key
 * that is not ours (Claude Desktop's "globalShortcut", "preferences", ...):
 * expected in a shared file, so the caller may print it quietly. Everything
 * else (unknown keys inside mcpServers or codemode, unset variables, skipped
 * entries, duplicate keys) is CONFIG_WARNING. */
enum config_warning_kind { CONFIG_WARNING, CONFIG_WARNING_IGNORED };

#define CONFIG_INSTANCE_ID_MAX 32 /* codemode.http.instanceId: letters and digits */
#define CONFIG_MAX_WORKERS     4096 /* the most sandbox.maxWorkers, maxConcurrentPerPrincipal */

struct config {
    char *path;                      /* NULL when no file was loaded */
    struct tools_server_config *servers;   /* disabled and self-launching entries included */
    size_t nservers;
    struct config_limits limits;
    char *log_level;                 /* canonical level name; NULL = default */
    char *http_listen;               /* "HOST:PORT" (port 0: any free port) or NULL */
    char *http_auth_token;           /* NULL = no auth */
    char *http_public_url;           /* publicUrl: the URL clients reach /mcp at, or NULL */
    struct config_http_oauth {       /* oauth: a token per user (http_oauth.c) */
        int enabled;                 /* the block is present */
        char *issuer;                /* the authorization server */
        char *audience;              /* NULL: publicUrl (else the bound URL's /mcp) */
        char *jwks_uri;              /* NULL: from the issuer's metadata */
        char *introspection_url;     /* NULL: opaque tokens are refused */
        char *introspection_client_id, *introspection_client_secret; /* or NULL */
        char **required_scopes;      /* NULL-terminated, or NULL */
        char **scopes_supported;     /* NULL-terminated, or NULL */
        unsigned clock_skew_seconds; /* leeway on exp, nbf, iat (default 60) */
    } http_oauth;
    char **http_allowed_origins;     /* NULL-terminated or NULL */
    char *http_instance_id;          /* instanceId: prefix of minted session ids, or NULL */
    unsigned http_max_connections;   /* maxConnections: open at once; 0 = the default (4096) */
    struct config_http_timeouts {    /* milliseconds; 0 = the built-in default */
        uint64_t session;            /* sessionTimeoutMs: idle sessions end (30 min) */
        uint64_t idle;               /* idleTimeoutMs: keep-alive connections close (60 s) */
        uint64_t headers;            /* headersTimeoutMs: a request head must arrive (10 s) */
        uint64_t request;            /* requestTimeoutMs: a whole request must arrive (60 s) */
        uint64_t drain;              /* drainTimeoutMs: SIGTERM waits for requests (5 s) */
    } http_timeouts;
    char **declarations_preferred;   /* declarations.preferred: "server.tool" patterns
                                        (NULL-terminated), or NULL */
    int learn_result_types;          /* declarations.learnResultTypes (default 1) */
    struct tools_policy policy;      /* codemode.policy (docs/policy.md) */
    struct config_state {            /* codemode.state and codemode.skills (state.c) */
        int state;                   /* state.enabled (default 1) */
        int skills;                  /* skills.enabled (default 1) */
        int per_principal;           /* state.scope: 1 "principal" (default), 0 "server" */
        int expose_skills;           /* skills.exposeAsTools (default 0) */
        int skills_per_principal;    /* skills.scope: 1 "principal" (default), 0 "server" */
        char **skill_admins;         /* skills.admins: principals that may replace or delete
                                        any skill (NULL-terminated, or NULL) */
        char *path;                  /* state.path, or NULL: config_state_path's default */
        uint64_t max_value_bytes;    /* state.maxValueBytes (1 MiB) */
        uint64_t max_total_bytes;    /* state.maxTotalBytes (64 MiB) */
        uint64_t busy_timeout_ms;    /* state.busyTimeoutMs (1000) */
        char *store_url;             /* codemode.store.url (${VAR}s expanded), or NULL: SQLite */
        uint64_t store_max_connections;      /* store.maxConnections (4) */
        uint64_t store_connect_timeout_ms;   /* store.connectTimeoutMs (5000) */
        uint64_t store_statement_timeout_ms; /* store.statementTimeoutMs (10000) */
    } state;
    char *audit_path;                /* codemode.audit.path, or NULL: no audit log */
    int audit_arguments;             /* enum tools_audit_arguments (default: hash) */
    char **warnings;                 /* NULL-terminated: unknown keys, skipped entries, ... */
    enum config_warning_kind *warning_kinds; /* one per warning */
    size_t nwarnings;
};

/* Fills c with the defaults and no servers. */
void config_init(struct config *c);

/* Loads `path` into c (initialised with config_init first; values present in
 * the file replace defaults). Returns 0, or -1 with *err set to a malloc'd
 * message "FILE:LINE:COL: KEY: problem" (the caller frees it; file-level
 * problems such as a missing file are "FILE: problem"); on error c is
 * left valid for config_free. Warnings (unknown keys, entries that launch
 * mcp-codemode itself, ...) are appended to c->warnings, not errors, each
 * formatted like an error. Reads the environment (getenv) for ${VAR}. */
int config_load(struct config *c, const char *path, char **err);

/* Applies one codemode setting given as text, for command-line flags that
 * override the file. key is the file's key: "poolSize", "timeoutMs",
 * "maxTimeoutMs", "memoryLimitMb", "maxResultBytes", "maxLogBytes",
 * "maxCallArgumentBytes",
 * "maxMessageBytes", "maxToolCalls", "maxConcurrentCalls", "callTimeoutMs",
 * "declarationsBudget" (bytes, deprecated), "declarations.budget" (tokens),
 * "logLevel", "http.listen", "http.authToken",
 * "audit.path".
 * Integers are decimal digits only. The same ranges and checks as the file
 * apply (including timeoutMs <= maxTimeoutMs). No ${VAR} expansion (the
 * shell did it). Returns 0, or -1 with *err set to a malloc'd message
 * "KEY: problem" (the caller frees it); c is unchanged on error. */
int config_override(struct config *c, const char *key, const char *value, char **err);


/* The state database file: codemode.state.path, else
 * $XDG_STATE_HOME/mcp-codemode/state.db, else
 * $HOME/.local/state/mcp-codemode/state.db (else under /tmp). malloc'd. */
char *config_state_path(const struct config *c);

struct tools_state_options;
/* The state store's options from codemode.state and codemode.store into *o
 * (every member): the SQLite file at path (config_state_path's, borrowed by
 * *o, as is the store's URL) or the PostgreSQL database of codemode.store. */
void config_state_store(const struct config *c, const char *path, struct tools_state_options *o);

/* Releases everything c owns; c may be reused after config_init. */
void config_free(struct config *c);

#endif
