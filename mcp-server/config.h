/* Configuration: Claude Desktop's `mcpServers` file format plus our
 * `codemode` block, with ${VAR} / ${VAR:-default} expansion. Loading never
 * exits: it returns an error message naming the file, position and key. */
#ifndef MCP_SERVER_CONFIG_H
#define MCP_SERVER_CONFIG_H

#include <stddef.h>
#include <stdint.h>

enum config_transport { CONFIG_TRANSPORT_STDIO, CONFIG_TRANSPORT_HTTP, CONFIG_TRANSPORT_SSE };

struct config_server {
    char *name;                      /* the key under mcpServers */
    enum config_transport transport;
    char *command;                   /* stdio */
    char **args;                     /* stdio; NULL-terminated */
    char **env;                      /* stdio; "KEY=VALUE", NULL-terminated */
    char *cwd;                       /* stdio; may be NULL */
    char *url;                       /* http/sse */
    char **headers;                  /* http/sse; "Name: value", NULL-terminated */
    char **allow_tools;              /* globs; NULL = all; NULL-terminated */
    char **deny_tools;               /* globs; NULL-terminated or NULL */
    uint64_t timeout_ms;             /* per call; 0 = codemode default */
    int disabled;
    int launches_self;               /* the entry starts mcp-codemode itself: to be skipped */
};

struct config_limits {
    unsigned pool_size;              /* pre-spawned workers (default 2) */
    uint64_t timeout_ms;             /* default execution time limit (30000) */
    uint64_t max_timeout_ms;         /* cap on a call's timeoutMs (300000) */
    uint64_t memory_bytes;           /* JS heap cap per execution (64 MiB) */
    uint64_t max_result_bytes;       /* result JSON cap (1 MiB) */
    uint64_t max_log_bytes;          /* console capture cap (256 KiB) */
    uint64_t max_message_bytes;      /* incoming protocol message cap (16 MiB) */
    unsigned max_tool_calls;         /* tool calls per execution (1000) */
    unsigned max_concurrent_calls;   /* outstanding tool calls per execution (256) */
    uint64_t call_timeout_ms;        /* default downstream call timeout (60000) */
    uint64_t declarations_budget;    /* bytes of declarations in the description (32768) */
};

struct config {
    char *path;                      /* NULL when no file was loaded */
    struct config_server *servers;
    size_t nservers;
    struct config_limits limits;
    char *log_level;                 /* NULL = default */
    char *http_listen;               /* "HOST:PORT" or NULL */
    char *http_auth_token;           /* NULL = no auth */
    char **http_allowed_origins;     /* NULL-terminated or NULL */
    char **warnings;                 /* NULL-terminated: unknown keys, skipped entries, ... */
};

/* Fills c with the defaults and no servers. */
void config_init(struct config *c);

/* Loads `path` into c (initialised with config_init first; values present in
 * the file replace defaults). Returns 0, or -1 with *err set to a malloc'd
 * message "FILE:LINE:COL: KEY: problem" (the caller frees it); on error c is
 * left valid for config_free. Warnings (unknown keys, entries that launch
 * mcp-codemode itself, ...) are appended to c->warnings, not errors. */
int config_load(struct config *c, const char *path, char **err);

/* Releases everything c owns; c may be reused after config_init. */
void config_free(struct config *c);

#endif
