/* stdio transport on libuv: stdin as a stream (pipe, tty) or read through
 * the thread pool (regular file); stdout as a stream, or blocking writes when
 * it is a regular file. */
#include "transport/stdio.h"
#include "transport/frame.h"
#include "common/alloc.h"
#include "common/log.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct transport_stdio {
    uv_loop_t *loop;
    const struct transport_stdio_events *ev;
    void *ud;
    struct frame_reader frame;
    union {
        uv_pipe_t pipe;
        uv_tty_t tty;
    } in, out;
    int in_stream, out_stream; /* 1: libuv stream; 0: file */
    uv_fs_t in_req;
    char in_buf[65536];
    int reading, eof_sent, closing, open_handles, fs_busy;
    size_t pending_writes;
    void (*flush_cb)(void *);
    void *flush_ud;
};

struct write_req {
    uv_write_t req;
    struct transport_stdio *t;
    uv_buf_t buf;
    char data[];
};

static void maybe_free(struct transport_stdio *t)
{
    if (t->closing && t->open_handles == 0 && !t->fs_busy) {
        frame_reader_free(&t->frame);
        free(t);
    }
}

static void handle_closed(uv_handle_t *h)
{
    struct transport_stdio *t = h->data;
    t->open_handles--;
    maybe_free(t);
}

static void send_eof(struct transport_stdio *t)
{
    if (t->eof_sent || t->closing)
        return;
    t->eof_sent = 1;
    size_t pending = frame_reader_pending(&t->frame);
    if (pending)
        frame_reader_feed(&t->frame, "\n", 1,
                          &(struct frame_events){t->ev->line, t->ev->oversize}, t->ud);
    t->ev->eof(t->ud);
}

static void feed(struct transport_stdio *t, const char *data, size_t len)
{
    struct frame_events fe = {t->ev->line, t->ev->oversize};
    frame_reader_feed(&t->frame, data, len, &fe, t->ud);
}

/* --- stdin as a stream -------------------------------------------------------------- */

static void alloc_cb(uv_handle_t *h, size_t suggested, uv_buf_t *b)
{
    struct transport_stdio *t = h->data;
    (void) suggested;
    *b = uv_buf_init(t->in_buf, sizeof t->in_buf);
}

static void read_cb(uv_stream_t *s, ssize_t n, const uv_buf_t *b)
{
    struct transport_stdio *t = s->data;
    if (n > 0) {
        feed(t, b->base, (size_t) n);
    } else if (n < 0) {
        uv_read_stop(s);
        send_eof(t);
    }
}

/* --- stdin as a regular file ------------------------------------------------------------ */

static void file_read_cb(uv_fs_t *req);

static void file_read_next(struct transport_stdio *t)
{
    uv_buf_t b = uv_buf_init(t->in_buf, sizeof t->in_buf);
    t->fs_busy = 1;
    if (uv_fs_read(t->loop, &t->in_req, 0, &b, 1, -1, file_read_cb) != 0) {
        t->fs_busy = 0;
        send_eof(t);
    }
}

static void file_read_cb(uv_fs_t *req)
{
    struct transport_stdio *t = req->data;
    ssize_t n = req->result;
    uv_fs_req_cleanup(req);
    t->fs_busy = 0;
    if (t->closing) {
        maybe_free(t);
        return;
    }
    if (n > 0) {
        feed(t, t->in_buf, (size_t) n);
        if (!t->closing)
            file_read_next(t);
    } else {
        send_eof(t);
    }
}

/* --- stdout ------------------------------------------------------------------------------- */

static void write_done(uv_write_t *req, int status)
{
    struct write_req *w = (struct write_req *) req;
    struct transport_stdio *t = w->t;
    if (status < 0 && status != UV_ECANCELED)
        log_debug("stdio", "write to stdout failed: %s", uv_strerror(status));
    free(w);
    t->pending_writes--;
    if (t->pending_writes == 0 && t->flush_cb) {
        void (*cb)(void *) = t->flush_cb;
        t->flush_cb = NULL;
        cb(t->flush_ud);
    }
}

static int write_blocking(const char *data, size_t len)
{
    while (len > 0) {
        ssize_t n = write(STDOUT_FILENO, data, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return UV_EPIPE;
        data += n;
        len -= (size_t) n;
    }
    return 0;
}

int transport_stdio_write(struct transport_stdio *t, const char *data, size_t len)
{
    if (!t->out_stream)
        return write_blocking(data, len);
    struct write_req *w = xmalloc(sizeof *w + len);
    memcpy(w->data, data, len);
    w->t = t;
    w->buf = uv_buf_init(w->data, (unsigned) len);
    int rc = uv_write(&w->req, (uv_stream_t *) &t->out, &w->buf, 1, write_done);
    if (rc < 0) {
        free(w);
        return rc;
    }
    t->pending_writes++;
    return 0;
}

void transport_stdio_flush(struct transport_stdio *t, void (*cb)(void *ud), void *ud)
{
    if (t->pending_writes == 0) {
        cb(ud);
        return;
    }
    t->flush_cb = cb;
    t->flush_ud = ud;
}

/* --- set-up ---------------------------------------------------------------------------------- */

static int open_stream(struct transport_stdio *t, int fd, uv_pipe_t *pipe, uv_tty_t *tty,
                       int readable)
{
    uv_handle_type type = uv_guess_handle(fd);
    int rc;
    if (type == UV_TTY) {
        rc = uv_tty_init(t->loop, tty, fd, readable);
        tty->data = t;
    } else if (type == UV_NAMED_PIPE || type == UV_TCP) {
        rc = uv_pipe_init(t->loop, pipe, 0);
        if (rc == 0)
            rc = uv_pipe_open(pipe, fd);
        pipe->data = t;
    } else {
        return 0; /* a file (or unknown): no stream */
    }
    if (rc != 0)
        return rc;
    t->open_handles++;
    return 1;
}

struct transport_stdio *transport_stdio_start(uv_loop_t *loop, size_t max_line,
                                              const struct transport_stdio_events *ev, void *ud,
                                              char **err)
{
    struct transport_stdio *t = xcalloc(1, sizeof *t);
    t->loop = loop;
    t->ev = ev;
    t->ud = ud;
    t->in_req.data = t;
    frame_reader_init(&t->frame, max_line);
    int in = open_stream(t, STDIN_FILENO, &t->in.pipe, &t->in.tty, 1);
    int out = open_stream(t, STDOUT_FILENO, &t->out.pipe, &t->out.tty, 0);
    if (in < 0 || out < 0) {
        char msg[160];
        snprintf(msg, sizeof msg, "cannot use %s: %s", in < 0 ? "stdin" : "stdout",
                 uv_strerror(in < 0 ? in : out));
        *err = xstrdup(msg);
        t->closing = 1;
        if (in > 0)
            uv_close((uv_handle_t *) &t->in, handle_closed);
        if (out > 0)
            uv_close((uv_handle_t *) &t->out, handle_closed);
        maybe_free(t);
        return NULL;
    }
    t->in_stream = in;
    t->out_stream = out;
    if (in)
        uv_read_start((uv_stream_t *) &t->in, alloc_cb, read_cb);
    else
        file_read_next(t);
    return t;
}

void transport_stdio_close(struct transport_stdio *t)
{
    t->closing = 1;
    if (t->in_stream) {
        uv_read_stop((uv_stream_t *) &t->in);
        uv_close((uv_handle_t *) &t->in, handle_closed);
    } else if (t->fs_busy) {
        uv_cancel((uv_req_t *) &t->in_req);
    }
    if (t->out_stream)
        uv_close((uv_handle_t *) &t->out, handle_closed);
    maybe_free(t);
}
