/* Server-Sent Events framing: events split into data lines, comments. */
#include "transport/sse.h"
#include "common/buf.h"

#include <string.h>

/* Length of the line starting at p (up to the first CR or LF) and the
 * length of its terminator (0 at the end of the data). */
static size_t line_at(const char *p, const char *end, size_t *term)
{
    const char *q = p;
    while (q < end && *q != '\n' && *q != '\r')
        q++;
    *term = 0;
    if (q < end)
        *term = (*q == '\r' && q + 1 < end && q[1] == '\n') ? 2 : 1;
    return (size_t) (q - p);
}

void sse_append_event(struct buf *out, const char *type, const char *data, size_t len)
{
    if (type) {
        buf_append_str(out, "event: ");
        buf_append_str(out, type);
        buf_append_char(out, '\n');
    }
    const char *p = data, *end = data + len;
    do {
        size_t term, n = line_at(p, end, &term);
        buf_append(out, "data: ", 6);
        buf_append(out, p, n);
        buf_append_char(out, '\n');
        p += n + term;
    } while (p < end);
    buf_append_char(out, '\n');
}

int sse_append_lines(struct buf *out, const char *type, const char *lines, size_t len)
{
    const char *p = lines, *end = lines + len;
    int events = 0;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t) (end - p));
        size_t n = nl ? (size_t) (nl - p) : (size_t) (end - p);
        if (n > 0 && p[n - 1] == '\r')
            n--;
        if (n > 0) {
            sse_append_event(out, type, p, n);
            events++;
        }
        p = nl ? nl + 1 : end;
    }
    return events;
}

void sse_append_comment(struct buf *out, const char *text)
{
    buf_append_char(out, ':');
    if (text) {
        buf_append_char(out, ' ');
        buf_append_str(out, text);
    }
    buf_append_str(out, "\n\n");
}
