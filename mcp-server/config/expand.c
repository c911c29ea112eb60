/* ${VAR} / ${VAR:-default} expansion: a left-to-right scan; a default is
 * found by brace matching (as the shell does: "${X:-{a}}" gives "{a}") and
 * expanded recursively, or only checked when it is not used. */
#include "mcp-server/config/expand.h"

#include "common/alloc.h"
#include "common/buf.h"

#include <stdlib.h>
#include <string.h>

static const char unterminated[] = "unterminated \"${\" (write \"$${\" for a literal \"${\")";

struct expand {
    const char *s;
    config_expand_unset_fn *unset;
    void *ud;
    const char *err;
    size_t err_off;
};

static int expand_range(struct expand *e, size_t i, size_t end, struct buf *out, unsigned depth);

static int fail(struct expand *e, size_t off, const char *msg)
{
    e->err = msg;
    e->err_off = off;
    return -1;
}

static int name_start(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}

static int name_char(char c)
{
    return name_start(c) || (c >= '0' && c <= '9');
}

static int escaped_brace(const char *s, size_t i, size_t end)
{
    return i + 2 < end && s[i] == '$' && s[i + 1] == '$' && s[i + 2] == '{';
}

/* The '}' that closes a default starting at i, skipping nested braces. */
static int find_close(const char *s, size_t i, size_t end, size_t *close)
{
    unsigned depth = 0;
    while (i < end) {
        if (escaped_brace(s, i, end)) {
            i += 3;
            continue;
        }
        if (s[i] == '{') {
            depth++;
        } else if (s[i] == '}') {
            if (depth == 0) {
                *close = i;
                return 0;
            }
            depth--;
        }
        i++;
    }
    return -1;
}

/* ${NAME:-default}: i is at the ':'. */
static int expand_default(struct expand *e, size_t dollar, size_t i, size_t end, const char *val,
                          struct buf *out, unsigned depth, size_t *next)
{
    size_t close;
    if (find_close(e->s, i + 2, end, &close) < 0)
        return fail(e, dollar, unterminated);
    int use = val == NULL || *val == '\0';
    if (out != NULL && !use)
        buf_append_str(out, val);
    *next = close + 1;
    return expand_range(e, i + 2, close, use ? out : NULL, depth + 1);
}

/* Checks the name after "${" at dollar; sets *name_end past it. */
static int scan_name(struct expand *e, size_t dollar, size_t end, size_t *name_end)
{
    const char *s = e->s;
    size_t i = dollar + 2;
    if (i < end && s[i] == '}')
        return fail(e, dollar, "empty variable name in \"${}\"");
    if (i >= end)
        return fail(e, dollar, unterminated);
    if (!name_start(s[i]))
        return fail(e, dollar,
                    "invalid variable name after \"${\" (expected a letter or '_', "
                    "then letters, digits or '_')");
    while (i < end && name_char(s[i]))
        i++;
    *name_end = i;
    return 0;
}

/* ${NAME} or ${NAME:-default} at dollar; *next is set past its '}'. */
static int expand_ref(struct expand *e, size_t dollar, size_t end, struct buf *out, unsigned depth,
                      size_t *next)
{
    const char *s = e->s;
    size_t i;
    if (scan_name(e, dollar, end, &i) < 0)
        return -1;
    char *name = xstrndup(s + dollar + 2, i - dollar - 2);
    const char *val = getenv(name);
    int r = 0;
    if (i < end && s[i] == '}') {
        if (out != NULL && val != NULL)
            buf_append_str(out, val);
        else if (out != NULL && e->unset != NULL)
            e->unset(e->ud, name, dollar);
        *next = i + 1;
    } else if (i + 1 < end && s[i] == ':' && s[i + 1] == '-') {
        r = expand_default(e, dollar, i, end, val, out, depth, next);
    } else {
        r = fail(e, dollar,
                 i >= end ? unterminated
                          : "invalid reference: expected ${NAME} or ${NAME:-default}");
    }
    free(name);
    return r;
}

/* Expands s[i..end) into out, or only checks it when out is NULL. */
static int expand_range(struct expand *e, size_t i, size_t end, struct buf *out, unsigned depth)
{
    if (depth > CONFIG_EXPAND_MAX_NESTING)
        return fail(e, i, "defaults nested too deeply");
    const char *s = e->s;
    while (i < end) {
        if (escaped_brace(s, i, end)) {
            if (out != NULL)
                buf_append(out, "${", 2);
            i += 3;
        } else if (s[i] == '$' && i + 1 < end && s[i + 1] == '{') {
            if (expand_ref(e, i, end, out, depth, &i) < 0)
                return -1;
        } else {
            if (out != NULL)
                buf_append_char(out, s[i]);
            i++;
        }
    }
    return 0;
}

char *config_expand(const char *s, config_expand_unset_fn *unset, void *ud, const char **err,
                    size_t *err_off)
{
    struct expand e = {.s = s, .unset = unset, .ud = ud};
    struct buf out;
    buf_init(&out, 0);
    if (expand_range(&e, 0, strlen(s), &out, 0) < 0) {
        buf_free(&out);
        *err = e.err;
        *err_off = e.err_off;
        return NULL;
    }
    return buf_steal(&out);
}
