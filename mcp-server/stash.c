/* The stash store (see stash.h): a doubly linked list in recency order
 * (head = most recently used). Entries are few (tens), so lookups walk the
 * list; a URI is compared in full, in constant time per entry. */
#include "mcp-server/stash.h"
#include "common/alloc.h"
#include "common/random.h"

#include <stdlib.h>
#include <string.h>

#define ID_BYTES 16

struct entry {
    char uri[MCP_STASH_URI_MAX];
    char *owner; /* the whole owner string, compared in full */
    uint64_t created_ms;
    int blob;
    char *mime, *data;
    size_t len;
    struct entry *prev, *next;
};

struct mcp_stash {
    struct mcp_stash_limits lim;
    struct entry *head, *tail;
    size_t count;
    uint64_t bytes;
};

struct mcp_stash *mcp_stash_new(const struct mcp_stash_limits *l)
{
    struct mcp_stash *s = xcalloc(1, sizeof *s);
    s->lim = *l;
    return s;
}

static void unlink_entry(struct mcp_stash *s, struct entry *e)
{
    if (e->prev)
        e->prev->next = e->next;
    else
        s->head = e->next;
    if (e->next)
        e->next->prev = e->prev;
    else
        s->tail = e->prev;
    e->prev = e->next = NULL;
}

static void push_front(struct mcp_stash *s, struct entry *e)
{
    e->prev = NULL;
    e->next = s->head;
    if (s->head)
        s->head->prev = e;
    else
        s->tail = e;
    s->head = e;
}

static void drop(struct mcp_stash *s, struct entry *e)
{
    unlink_entry(s, e);
    s->count--;
    s->bytes -= e->len;
    free(e->owner);
    free(e->mime);
    free(e->data);
    free(e);
}

void mcp_stash_free(struct mcp_stash *s)
{
    if (s == NULL)
        return;
    while (s->head)
        drop(s, s->head);
    free(s);
}

static int expired(const struct mcp_stash *s, const struct entry *e, uint64_t now_ms)
{
    return s->lim.ttl_ms && now_ms >= e->created_ms && now_ms - e->created_ms >= s->lim.ttl_ms;
}

static void drop_expired(struct mcp_stash *s, uint64_t now_ms)
{
    struct entry *e = s->head;
    while (e) {
        struct entry *next = e->next;
        if (expired(s, e, now_ms))
            drop(s, e);
        e = next;
    }
}

int mcp_stash_adopt(struct mcp_stash *s, const char *owner, const char *mime, int blob, char *data,
                    size_t len, uint64_t now_ms, char uri[MCP_STASH_URI_MAX])
{
    if (s->lim.max_entries == 0 || len > s->lim.max_bytes) {
        free(data);
        return -1;
    }
    drop_expired(s, now_ms);
    while (s->tail && (s->count + 1 > s->lim.max_entries || s->bytes + len > s->lim.max_bytes))
        drop(s, s->tail);
    struct entry *e = xcalloc(1, sizeof *e);
    char hex[2 * ID_BYTES + 1];
    random_hex(hex, ID_BYTES);
    memcpy(e->uri, MCP_STASH_PREFIX, sizeof MCP_STASH_PREFIX - 1);
    memcpy(e->uri + sizeof MCP_STASH_PREFIX - 1, hex, sizeof hex);
    e->owner = xstrdup(owner);
    e->created_ms = now_ms;
    e->blob = blob;
    e->mime = xstrdup(mime ? mime : "application/octet-stream");
    e->data = data;
    e->len = len;
    push_front(s, e);
    s->count++;
    s->bytes += len;
    memcpy(uri, e->uri, MCP_STASH_URI_MAX);
    return 0;
}

int mcp_stash_put(struct mcp_stash *s, const char *owner, const char *mime, int blob, const char *data,
                  size_t len, uint64_t now_ms, char uri[MCP_STASH_URI_MAX])
{
    if (s->lim.max_entries == 0 || len > s->lim.max_bytes)
        return -1;
    return mcp_stash_adopt(s, owner, mime, blob, xstrndup(data, len), len, now_ms, uri);
}

/* Compares up to the end of the shorter string without stopping at the
 * first difference, so the time taken does not tell how much matched. */
static int same_uri(const char *a, const char *b)
{
    unsigned char diff = 0;
    for (size_t i = 0; i < MCP_STASH_URI_MAX; i++) {
        diff |= (unsigned char) (a[i] ^ b[i]);
        if (a[i] == '\0' || b[i] == '\0')
            break;
    }
    return diff == 0;
}

const char *mcp_stash_get(struct mcp_stash *s, const char *owner, const char *uri, uint64_t now_ms,
                          size_t *len, const char **mime, int *blob)
{
    if (strlen(uri) >= MCP_STASH_URI_MAX)
        return NULL;
    for (struct entry *e = s->head; e; e = e->next) {
        if (!same_uri(e->uri, uri))
            continue;
        if (strcmp(e->owner, owner) != 0 || expired(s, e, now_ms))
            return NULL;
        unlink_entry(s, e);
        push_front(s, e);
        *len = e->len;
        if (mime)
            *mime = e->mime;
        if (blob)
            *blob = e->blob;
        return e->data;
    }
    return NULL;
}

void mcp_stash_forget(struct mcp_stash *s, const char *owner)
{
    struct entry *e = s->head;
    while (e) {
        struct entry *next = e->next;
        if (strcmp(e->owner, owner) == 0)
            drop(s, e);
        e = next;
    }
}

size_t mcp_stash_count(const struct mcp_stash *s)
{
    return s->count;
}

uint64_t mcp_stash_bytes(const struct mcp_stash *s)
{
    return s->bytes;
}
