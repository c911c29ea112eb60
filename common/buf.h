/* A growable byte buffer with an optional hard cap (curl's dynbuf idea):
 * appends past the cap fail and leave the content as it was. */
#ifndef COMMON_BUF_H
#define COMMON_BUF_H

#include <stdarg.h>
#include <stddef.h>

struct buf {
    char *data; /* always NUL-terminated when non-NULL */
    size_t len;
    size_t cap;   /* allocated bytes */
    size_t limit; /* 0 = unlimited */
};

/* Initialises an empty buffer; limit 0 means no cap. No allocation. */
void buf_init(struct buf *b, size_t limit);
void buf_free(struct buf *b);
void buf_reset(struct buf *b);

/* Appends; returns 0, or -1 when the result would exceed the limit (the
 * buffer is then unchanged). Allocation failure aborts (xmalloc). */
int buf_append(struct buf *b, const void *data, size_t len);
int buf_append_str(struct buf *b, const char *s);
int buf_append_char(struct buf *b, char c);
int buf_printf(struct buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int buf_vprintf(struct buf *b, const char *fmt, va_list ap);

/* Removes the first n bytes. */
void buf_consume(struct buf *b, size_t n);

/* Hands the data to the caller (who frees it) and resets the buffer. Never NULL. */
char *buf_steal(struct buf *b);

#endif
