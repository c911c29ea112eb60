/* Line framing with a hard per-line cap (see frame.h). */
#include "transport/frame.h"

#include <string.h>

void frame_reader_init(struct frame_reader *r, size_t max)
{
    memset(r, 0, sizeof *r);
    buf_init(&r->line, 0);
    r->max = max;
}

void frame_reader_free(struct frame_reader *r)
{
    buf_free(&r->line);
}

size_t frame_reader_pending(const struct frame_reader *r)
{
    return r->skipping ? r->skipped : r->line.len;
}

static void emit(struct frame_reader *r, const struct frame_events *ev, void *ud)
{
    size_t len = r->line.len;
    if (len && r->line.data[len - 1] == '\r')
        len--;
    if (len > r->max) {
        size_t keep = len < FRAME_OVERSIZE_PREFIX ? len : FRAME_OVERSIZE_PREFIX;
        ev->oversize(ud, r->line.data, keep, len);
    } else if (len > 0) {
        r->line.data[len] = '\0';
        ev->line(ud, r->line.data, len);
    }
    buf_reset(&r->line);
}

static void start_skipping(struct frame_reader *r)
{
    r->skipping = 1;
    r->skipped = r->line.len;
    r->prefix_len = r->line.len < FRAME_OVERSIZE_PREFIX ? r->line.len : FRAME_OVERSIZE_PREFIX;
    memcpy(r->prefix, r->line.data, r->prefix_len);
    buf_free(&r->line);
}

void frame_reader_feed(struct frame_reader *r, const char *data, size_t len,
                       const struct frame_events *ev, void *ud)
{
    while (len > 0) {
        const char *nl = memchr(data, '\n', len);
        size_t chunk = nl ? (size_t) (nl - data) : len;
        if (r->skipping) {
            size_t room = FRAME_OVERSIZE_PREFIX - r->prefix_len;
            size_t take = chunk < room ? chunk : room;
            memcpy(r->prefix + r->prefix_len, data, take);
            r->prefix_len += take;
            r->skipped += chunk;
        } else if (r->line.len + chunk > r->max + 1) { /* +1: a trailing '\r' is not content */
            size_t before = r->line.len;
            size_t take = before < FRAME_OVERSIZE_PREFIX ? FRAME_OVERSIZE_PREFIX - before : 0;
            buf_append(&r->line, data, take < chunk ? take : chunk);
            start_skipping(r);
            r->skipped = before + chunk;
        } else {
            buf_append(&r->line, data, chunk);
        }
        if (nl == NULL)
            return;
        if (r->skipping) {
            r->skipping = 0;
            ev->oversize(ud, r->prefix, r->prefix_len, r->skipped);
            r->skipped = 0;
        } else {
            emit(r, ev, ud);
        }
        data = nl + 1;
        len -= chunk + 1;
    }
}
