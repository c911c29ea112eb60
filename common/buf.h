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

/* Appends s as a JSON string literal (quotes included), escaping control
 * characters; the internal form's U+0000 (C0 80) and lone surrogates (ED A0..BF
 * xx) become \u0000 and \ud800-\udfff (common/utf8.h), a CESU-8 surrogate pair the
 * UTF-8 of its character, and other invalid UTF-8 U+FFFD. The output is
 * valid UTF-8 whatever s holds. */
int buf_append_json_string(struct buf *b, const char *s, size_t len);

/* Removes the first n bytes. */
void buf_consume(struct buf *b, size_t n);

/* Hands the data to the caller (who frees it) and resets the buffer. Never NULL. */
char *buf_steal(struct buf *b);

#endif
