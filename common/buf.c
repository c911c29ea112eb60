/* Growable capped byte buffer. */
#include "common/buf.h"
#include "common/alloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void buf_init(struct buf *b, size_t limit)
{
    b->data = NULL;
    b->len = 0;
    b->cap = 0;
    b->limit = limit;
}

void buf_free(struct buf *b)
{
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}

void buf_reset(struct buf *b)
{
    b->len = 0;
    if (b->data)
        b->data[0] = '\0';
}

static int reserve(struct buf *b, size_t extra)
{
    if (b->limit && (extra > b->limit || b->len > b->limit - extra))
        return -1;
    size_t need = b->len + extra + 1;
    if (need <= b->cap)
        return 0;
    size_t cap = b->cap ? b->cap : 64;
    while (cap < need)
        cap *= 2;
    b->data = xrealloc(b->data, cap);
    b->cap = cap;
    return 0;
}

int buf_append(struct buf *b, const void *data, size_t len)
{
    if (reserve(b, len) < 0)
        return -1;
    if (len)
        memcpy(b->data + b->len, data, len);
    b->len += len;
    b->data[b->len] = '\0';
    return 0;
}

int buf_append_str(struct buf *b, const char *s)
{
    return buf_append(b, s, strlen(s));
}

int buf_append_char(struct buf *b, char c)
{
    if (b->cap > b->len + 1 && !b->limit) { /* room for c and the NUL */
        b->data[b->len++] = c;
        b->data[b->len] = '\0';
        return 0;
    }
    return buf_append(b, &c, 1);
}

/* One vsnprintf when the text fits in the room left (most calls: short
 * texts into a buffer that has grown), else a second one after growing. */
int buf_vprintf(struct buf *b, const char *fmt, va_list ap)
{
    va_list copy;
    va_copy(copy, ap);
    size_t room = b->cap > b->len ? b->cap - b->len : 0;
    int n = vsnprintf(room ? b->data + b->len : NULL, room, fmt, copy);
    va_end(copy);
    if (n < 0)
        goto fail;
    if ((size_t) n < room && !(b->limit && b->len + (size_t) n > b->limit)) {
        b->len += (size_t) n;
        return 0;
    }
    if (reserve(b, (size_t) n) < 0)
        goto fail;
    vsnprintf(b->data + b->len, (size_t) n + 1, fmt, ap);
    b->len += (size_t) n;
    return 0;
fail:
    if (b->data)
        b->data[b->len] = '\0'; /* a partial write into the room is undone */
    return -1;
}

int buf_printf(struct buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = buf_vprintf(b, fmt, ap);
    va_end(ap);
    return r;
}

void buf_consume(struct buf *b, size_t n)
{
    if (n >= b->len) {
        buf_reset(b);
        return;
    }
    memmove(b->data, b->data + n, b->len - n);
    b->len -= n;
    b->data[b->len] = '\0';
}

char *buf_steal(struct buf *b)
{
    char *d = b->data ? b->data : xstrdup("");
    buf_init(b, b->limit);
    return d;
}
