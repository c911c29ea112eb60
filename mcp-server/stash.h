/* The stash: whole results kept for a while as codemode://stash/<id>
 * resources (results past maxResultBytes, and content.stash(value)). An
 * in-memory store bounded by entry count, total bytes and age, evicting the
 * least recently used first; each entry is visible only to its owner (the
 * principal that produced it: its whole name, compared in full) and named
 * by 128 random bits. */
#ifndef MCP_SERVER_STASH_H
#define MCP_SERVER_STASH_H

#include <stddef.h>
#include <stdint.h>

#define MCP_STASH_PREFIX  "codemode://stash/"
#define MCP_STASH_URI_MAX 64 /* prefix + 32 hex digits + NUL fits */

struct mcp_stash;

struct mcp_stash_limits {
    unsigned max_entries; /* 0: the stash is off (every put fails) */
    uint64_t max_bytes;   /* all entries' data together; one entry at most this */
    uint64_t ttl_ms;      /* an entry older than this is gone (0: no age bound) */
};

/* A new, empty store with these bounds (copied). Never NULL. */
struct mcp_stash *mcp_stash_new(const struct mcp_stash_limits *l);

/* Frees the store and every entry; NULL is allowed. */
void mcp_stash_free(struct mcp_stash *s);

/* Keeps a copy of data[0..len) with its MIME type (copied) for owner, at
 * time now_ms, evicting expired entries and then the least recently used
 * ones until the bounds hold. Writes the new entry's URI to uri. Returns 0,
 * or -1 when the entry alone is over max_bytes or the stash is off (nothing
 * kept, nothing evicted). blob: data is base64 of binary content (a
 * resource read answers it as "blob", else as "text"). */
int mcp_stash_put(struct mcp_stash *s, const char *owner, const char *mime, int blob, const char *data,
                  size_t len, uint64_t now_ms, char uri[MCP_STASH_URI_MAX]);

/* The same for data that the caller gives up: malloc'd, with a NUL at
 * data[len]; kept as it is (no copy), or freed when it is not kept. */
int mcp_stash_adopt(struct mcp_stash *s, const char *owner, const char *mime, int blob, char *data,
                  size_t len, uint64_t now_ms, char uri[MCP_STASH_URI_MAX]);

/* The entry behind uri, when it exists, has not expired at now_ms and
 * belongs to owner: its data (borrowed until the next call that changes the
 * store), length, MIME type and blob flag (mime and blob may be NULL); the
 * read makes it the most recently used.
 * NULL otherwise (a foreign entry looks exactly like a missing one). */
const char *mcp_stash_get(struct mcp_stash *s, const char *owner, const char *uri, uint64_t now_ms,
                          size_t *len, const char **mime, int *blob);

/* Drops every entry of owner (the connection or session ended). */
void mcp_stash_forget(struct mcp_stash *s, const char *owner);

/* Entries and bytes held now (expired ones included until the next put). */
size_t mcp_stash_count(const struct mcp_stash *s);
uint64_t mcp_stash_bytes(const struct mcp_stash *s);

#endif
