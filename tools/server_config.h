/* What the config file says about one downstream MCP server: how to reach
 * it and which of its tools programs may call. The config loader
 * (mcp-server/config/config.c) fills it; tools/ uses it, so it lives down here. */
#ifndef TOOLS_SERVER_CONFIG_H
#define TOOLS_SERVER_CONFIG_H

#include <stddef.h>
#include <stdint.h>

struct tools_policy_rule;

enum tools_transport { TOOLS_TRANSPORT_STDIO, TOOLS_TRANSPORT_HTTP, TOOLS_TRANSPORT_SSE };

/* The entry's "oauth" object (docs/oauth.md): the server needs an OAuth
 * login (tools/oauth/). Strings are malloc'd, ${VAR} expanded, or NULL. */
struct tools_oauth_config {
    char *client_id;           /* a pre-registered client */
    char *client_secret;       /* its secret (confidential client) */
    char *client_metadata_url; /* a Client ID Metadata Document (HTTPS URL) */
    char **scopes;             /* NULL-terminated, or NULL: from the server */
    unsigned redirect_port;    /* the loopback redirect's port; 0: any free one */
    int send_resource;      /* 1: the RFC 8707 resource parameter is sent ("resource": false: 0) */
    char *resource;         /* "resource": "URI" instead of the server's canonical URI */
    int client_credentials; /* "grant": "client_credentials" (else authorization_code) */
    char *private_key_file; /* private_key_jwt's key (PEM) */
    char *store_path;       /* the state database that keeps the tokens (set by the loader) */
    /* codemode.store (set by the loader): with a URL the tokens are
     * PostgreSQL's, shared by the instances that name it; NULL: store_path */
    char *store_url;
    unsigned store_max_connections, store_connect_timeout_ms, store_statement_timeout_ms;
};

struct tools_server_config {
    char *name; /* the key under mcpServers */
    enum tools_transport transport;
    char *command;                 /* stdio */
    char **args;                   /* stdio; NULL-terminated (never NULL for stdio) */
    char **env;                    /* stdio; "KEY=VALUE", NULL-terminated; applied on top
                                      of HOME LOGNAME PATH SHELL TERM USER (docs/config.md) */
    char *cwd;                     /* stdio; may be NULL */
    char *url;                     /* http/sse */
    char **headers;                /* http/sse; "Name: value", NULL-terminated, or NULL */
    char **allow_tools;            /* globs; NULL = all; NULL-terminated */
    char **deny_tools;             /* globs; NULL-terminated or NULL */
    char **read_only_tools;        /* readOnlyTools globs: read-only whatever the annotations
                                      say (dry runs send them); NULL-terminated or NULL */
    uint64_t timeout_ms;           /* per call; 0 = codemode default */
    unsigned max_concurrent_calls; /* calls in flight to this server, all executions; 0 = any */
    double calls_per_second;       /* calls started per second; 0 = any */
    int disabled;
    int launches_self;                /* the entry starts mcp-codemode itself: to be skipped */
    char *approval;                   /* reserved: "approval" as written ("true"/"false" for a
                                         boolean, else the string); NULL when absent */
    struct tools_policy_rule *policy; /* "policy": per-server rules (tool globs); owned */
    size_t npolicy;
    struct tools_oauth_config *oauth; /* http/sse: "oauth", or NULL; owned */
};

/* Returns 1 when the downstream tool named `tool` (its original name) may be
 * called: no denyTools glob matches it, and allowTools is absent or one of its
 * globs matches. Globs are fnmatch(3) patterns: `*`, `?`, `[...]`, `\` escapes. */
int tools_server_config_allows(const struct tools_server_config *s, const char *tool);

/* Returns 1 when a readOnlyTools glob matches the tool's original name. */
int tools_server_config_read_only(const struct tools_server_config *s, const char *tool);

#endif
