/* Try-write-then-queue on a libuv stream (stream_write.h). */
#include "common/stream_write.h"
#include "common/alloc.h"

#include <stdlib.h>
#include <string.h>

struct queued {
    uv_write_t req;
    uv_buf_t buf;
    char *owned; /* the caller's block, or NULL when the bytes follow this struct */
    stream_write_done *done;
    void *ud;
    char copy[];
};

static void written(uv_write_t *req, int status)
{
    struct queued *q = (struct queued *) req;
    if (q->done)
        q->done(q->ud, q->buf.len, status);
    free(q->owned);
    free(q);
}

long stream_write(uv_stream_t *s, char *data, size_t len, int own, stream_write_done *done,
                  void *ud)
{
    uv_buf_t now = uv_buf_init(data, (unsigned) len);
    int n = uv_try_write(s, &now, 1);
    if (n == (int) len) {
        if (own)
            free(data);
        return 0;
    }
    if (n < 0 && n != UV_EAGAIN && n != UV_ENOSYS) {
        if (own)
            free(data);
        return n; /* the peer is gone (UV_EPIPE): said now, not in a callback */
    }
    size_t off = n > 0 ? (size_t) n : 0, rest = len - off;
    struct queued *q = xmalloc(sizeof *q + (own ? 0 : rest));
    q->owned = own ? data : NULL;
    if (!own)
        memcpy(q->copy, data + off, rest);
    q->buf = uv_buf_init(own ? data + off : q->copy, (unsigned) rest);
    q->done = done;
    q->ud = ud;
    int rc = uv_write(&q->req, s, &q->buf, 1, written);
    if (rc < 0) {
        free(q->owned);
        free(q);
        return rc;
    }
    return (long) rest;
}
