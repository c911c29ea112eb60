/* A child process on libuv pipes (see child.h): spawn in its own process
 * group, line framing of stdout with the tail of oversized lines kept, stderr
 * logged line by line, exit reported after the last stdout line, and the
 * stdin-EOF / SIGTERM / SIGKILL stop. Freed only from close callbacks. */
#include "transport/child.h"
#include "transport/frame.h"
#include "common/alloc.h"
#include "common/buf.h"
#include "common/colocate.h"
#include "common/fd_limit.h"
#include "common/inherit.h"
#include "common/log.h"
#include "common/stream_write.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TAIL_BYTES      4096
#define STDERR_LINE_MAX 4096
#define DRAIN_MS        500  /* after exit: how long stdout/stderr may stay open */
#define EOF_KILL_MS     1000 /* stdout closed but the child runs on: kill it after this */

struct transport_child {
    uv_loop_t *loop;
    char *name;
    const struct transport_child_events *ev; /* NULL once released */
    void *ud;
    uv_process_t proc;
    uv_pipe_t in, out, err;
    uv_shutdown_t shutdown;
    uv_timer_t timer;
    struct frame_reader out_frame, err_frame;
    char tail[TAIL_BYTES]; /* last bytes of the current stdout line */
    size_t tail_len;
    char last_err[512];
    int stderr_level;
    int pid;
    int64_t status;
    int signal;
    int exited, released, exit_sent, kill_stage;
    int eof_wait;       /* stdout closed: waiting EOF_KILL_MS for the exit */
    int stopped_silent; /* it closed stdout but ran on, so it was stopped */
    int in_open, out_open, err_open, timer_open, proc_open, in_closing;
    int open_handles;
    uint64_t grace_ms;
    size_t write_queue;
    struct buf later;   /* written to stdin before the loop next waits (flush) */
    uv_prepare_t flush; /* active while `later` holds bytes */
    int flush_open;
    char slab[65536];
};

static void maybe_finish(struct transport_child *c);

/* --- handles ---------------------------------------------------------------------------------- */

static void handle_closed(uv_handle_t *h)
{
    struct transport_child *c = h->data;
    if (--c->open_handles > 0 || !c->released)
        return;
    frame_reader_free(&c->out_frame);
    frame_reader_free(&c->err_frame);
    buf_free(&c->later);
    free(c->name);
    free(c);
}

static void close_handle(struct transport_child *c, uv_handle_t *h, int *open)
{
    if (!*open)
        return;
    *open = 0;
    uv_close(h, handle_closed);
}

static void write_later(struct transport_child *c);

static void close_stdin(struct transport_child *c)
{
    write_later(c); /* what was sent before the close goes first */
    close_handle(c, (uv_handle_t *) &c->flush, &c->flush_open);
    if (c->in_open && !c->in_closing) {
        c->in_closing = 1;
        uv_read_stop((uv_stream_t *) &c->in);
        close_handle(c, (uv_handle_t *) &c->in, &c->in_open);
    }
}

static void kill_group(struct transport_child *c, int signum)
{
    if (c->exited || c->pid <= 0)
        return;
    if (kill(-c->pid, signum) != 0)
        uv_process_kill(&c->proc, signum);
}

/* --- exit ------------------------------------------------------------------------------------- */

static void timer_fired(uv_timer_t *t)
{
    struct transport_child *c = t->data;
    if (c->exited) { /* drain time is over: a grandchild holds the pipes; end the group */
        if (c->pid > 0)
            kill(-c->pid, SIGKILL);
        close_handle(c, (uv_handle_t *) &c->out, &c->out_open);
        close_handle(c, (uv_handle_t *) &c->err, &c->err_open);
        maybe_finish(c);
        return;
    }
    if (c->kill_stage == 0) {
        c->kill_stage = 1;
        kill_group(c, SIGTERM);
        uv_timer_start(&c->timer, timer_fired, c->grace_ms ? c->grace_ms : 1, 0);
    } else {
        c->kill_stage = 2;
        c->stopped_silent = c->eof_wait;
        kill_group(c, SIGKILL);
    }
}

static void maybe_finish(struct transport_child *c)
{
    if (!c->exited || c->out_open || c->err_open)
        return;
    if (!c->exit_sent && c->ev) {
        c->exit_sent = 1;
        c->ev->exit(c->ud, c->status, c->signal); /* may release c */
    }
    if (!c->released)
        return;
    close_stdin(c);
    close_handle(c, (uv_handle_t *) &c->timer, &c->timer_open);
}

static void proc_exited(uv_process_t *p, int64_t status, int sig)
{
    struct transport_child *c = p->data;
    colocate_forget(p->pid);
    c->exited = 1;
    c->status = sig ? -1 : status;
    c->signal = sig;
    close_handle(c, (uv_handle_t *) &c->proc, &c->proc_open);
    close_stdin(c);
    if (c->out_open || c->err_open)
        uv_timer_start(&c->timer, timer_fired, DRAIN_MS, 0);
    maybe_finish(c);
}

/* --- stdout ----------------------------------------------------------------------------------- */

static void out_line(void *ud, char *line, size_t len)
{
    struct transport_child *c = ud;
    if (c->ev)
        c->ev->line(c->ud, line, len);
}

static void out_oversize(void *ud, const char *prefix, size_t prefix_len, size_t total)
{
    struct transport_child *c = ud;
    if (c->ev)
        c->ev->oversize(c->ud, prefix, prefix_len, c->tail, c->tail_len, total);
}

static void tail_add(struct transport_child *c, const char *p, size_t n)
{
    if (n >= TAIL_BYTES) {
        memcpy(c->tail, p + n - TAIL_BYTES, TAIL_BYTES);
        c->tail_len = TAIL_BYTES;
        return;
    }
    if (c->tail_len + n > TAIL_BYTES) {
        size_t drop = c->tail_len + n - TAIL_BYTES;
        memmove(c->tail, c->tail + drop, c->tail_len - drop);
        c->tail_len -= drop;
    }
    memcpy(c->tail + c->tail_len, p, n);
    c->tail_len += n;
}

/* Feeds line by line so that the tail is the oversized line's own end. */
static void out_feed(struct transport_child *c, const char *p, size_t n)
{
    static const struct frame_events fe = {out_line, out_oversize};
    while (n > 0 && c->ev) {
        const char *nl = memchr(p, '\n', n);
        size_t seg = nl ? (size_t) (nl - p) + 1 : n;
        tail_add(c, p, nl ? seg - 1 : seg);
        frame_reader_feed(&c->out_frame, p, seg, &fe, c);
        if (nl)
            c->tail_len = 0;
        p += seg;
        n -= seg;
    }
}

static void alloc_cb(uv_handle_t *h, size_t suggested, uv_buf_t *b)
{
    struct transport_child *c = h->data;
    (void) suggested;
    *b = uv_buf_init(c->slab, sizeof c->slab);
}

static void out_read(uv_stream_t *s, ssize_t n, const uv_buf_t *b)
{
    struct transport_child *c = s->data;
    if (n > 0) {
        out_feed(c, b->base, (size_t) n);
        return;
    }
    if (n == 0)
        return;
    if (frame_reader_pending(&c->out_frame) > 0)
        out_feed(c, "\n", 1); /* an unterminated last line still counts */
    close_handle(c, (uv_handle_t *) &c->out, &c->out_open);
    if (!c->exited && !c->released) {
        /* A server that closes stdout is done talking; make sure it goes. */
        c->kill_stage = 1;
        c->eof_wait = 1;
        uv_timer_start(&c->timer, timer_fired, EOF_KILL_MS, 0);
    }
    maybe_finish(c);
}

/* --- stderr ----------------------------------------------------------------------------------- */

static void keep_last(struct transport_child *c, const char *line, size_t len)
{
    size_t n = len < sizeof c->last_err - 1 ? len : sizeof c->last_err - 1;
    memcpy(c->last_err, line, n);
    c->last_err[n] = '\0';
}

static void err_line(void *ud, char *line, size_t len)
{
    struct transport_child *c = ud;
    keep_last(c, line, len);
    log_msg((enum log_level) c->stderr_level, c->name, "%s", line);
}

static void err_oversize(void *ud, const char *prefix, size_t prefix_len, size_t total)
{
    struct transport_child *c = ud;
    keep_last(c, prefix, prefix_len);
    log_msg((enum log_level) c->stderr_level, c->name, "%.*s... [%zu bytes]", (int) prefix_len,
            prefix, total);
}

static void err_read(uv_stream_t *s, ssize_t n, const uv_buf_t *b)
{
    struct transport_child *c = s->data;
    static const struct frame_events fe = {err_line, err_oversize};
    if (n > 0) {
        frame_reader_feed(&c->err_frame, b->base, (size_t) n, &fe, c);
        return;
    }
    if (n == 0)
        return;
    if (frame_reader_pending(&c->err_frame) > 0)
        frame_reader_feed(&c->err_frame, "\n", 1, &fe, c);
    close_handle(c, (uv_handle_t *) &c->err, &c->err_open);
    maybe_finish(c);
}

/* --- stdin ------------------------------------------------------------------------------------ */

static void written(void *ud, size_t queued, int status)
{
    struct transport_child *c = ud;
    c->write_queue -= queued;
    if (status < 0 && status != UV_ECANCELED)
        log_debug(c->name, "write to stdin failed: %s", uv_strerror(status));
}

/* Writes the bytes kept by transport_child_write: what the pipe takes at
 * once goes without a copy; the rest is queued, and counted in write_queue.
 * A refusal (the child is gone) is told as a failed queued write is: the
 * requests fail when its exit is reported. */
static void write_later(struct transport_child *c)
{
    if (c->flush_open)
        uv_prepare_stop(&c->flush);
    if (c->later.len == 0)
        return;
    if (c->in_open && !c->in_closing) {
        long n = stream_write((uv_stream_t *) &c->in, c->later.data, c->later.len, 0, written, c);
        if (n < 0)
            log_debug(c->name, "write to stdin failed: %s", uv_strerror((int) n));
        else
            c->write_queue += (size_t) n;
    }
    buf_reset(&c->later);
}

static void flush_fired(uv_prepare_t *h)
{
    write_later(h->data);
}

int transport_child_write(struct transport_child *c, const char *data, size_t len)
{
    if (!c->in_open || c->in_closing || c->exited || !c->flush_open)
        return UV_EPIPE;
    /* kept until the loop is about to wait: the requests of a burst (a
     * Promise.all in a program) go in one write, and wake the child once */
    if (c->later.len == 0)
        uv_prepare_start(&c->flush, flush_fired);
    buf_append(&c->later, data, len);
    return 0;
}

size_t transport_child_write_queue(const struct transport_child *c)
{
    return c->write_queue + c->later.len;
}

/* --- spawn ------------------------------------------------------------------------------------ */

static void init_pipe(struct transport_child *c, uv_pipe_t *p, int *open)
{
    uv_pipe_init(c->loop, p, 0);
    p->data = c;
    *open = 1;
    c->open_handles++;
}

static struct transport_child *child_alloc(uv_loop_t *loop, const struct transport_child_options *o)
{
    struct transport_child *c = xcalloc(1, sizeof *c);
    c->loop = loop;
    c->name = xstrdup(o->name ? o->name : o->file);
    c->stderr_level = o->stderr_level;
    frame_reader_init(&c->out_frame, o->max_line);
    frame_reader_init(&c->err_frame, STDERR_LINE_MAX);
    init_pipe(c, &c->in, &c->in_open);
    init_pipe(c, &c->out, &c->out_open);
    init_pipe(c, &c->err, &c->err_open);
    uv_timer_init(loop, &c->timer);
    c->timer.data = c;
    c->timer_open = 1;
    c->open_handles++;
    uv_prepare_init(loop, &c->flush);
    c->flush.data = c;
    c->flush_open = 1;
    c->open_handles++;
    c->proc.data = c;
    return c;
}

static char **build_argv(const char *file, char *const *args)
{
    size_t n = 0;
    while (args && args[n])
        n++;
    char **argv = xcalloc(n + 2, sizeof *argv);
    argv[0] = (char *) file;
    for (size_t i = 0; i < n; i++)
        argv[i + 1] = args[i];
    return argv;
}

static void spawn_failed(struct transport_child *c)
{
    c->released = 1;
    c->exited = 1;
    c->ev = NULL;
    close_handle(c, (uv_handle_t *) &c->proc, &c->proc_open);
    close_handle(c, (uv_handle_t *) &c->in, &c->in_open);
    close_handle(c, (uv_handle_t *) &c->out, &c->out_open);
    close_handle(c, (uv_handle_t *) &c->err, &c->err_open);
    close_handle(c, (uv_handle_t *) &c->timer, &c->timer_open);
    close_handle(c, (uv_handle_t *) &c->flush, &c->flush_open);
}

int transport_child_spawn(uv_loop_t *loop, const struct transport_child_options *o,
                          const struct transport_child_events *ev, void *ud,
                          struct transport_child **out)
{
    struct transport_child *c = child_alloc(loop, o);
    uv_stdio_container_t stdio[3] = {
        {UV_CREATE_PIPE | UV_READABLE_PIPE, {(uv_stream_t *) &c->in}},
        {UV_CREATE_PIPE | UV_WRITABLE_PIPE, {(uv_stream_t *) &c->out}},
        {UV_CREATE_PIPE | UV_WRITABLE_PIPE, {(uv_stream_t *) &c->err}},
    };
    char **argv = build_argv(o->file, o->args);
    uv_process_options_t po;
    memset(&po, 0, sizeof po);
    po.file = o->file;
    po.args = argv;
    po.env = (char **) o->env;
    po.cwd = o->cwd;
    po.exit_cb = proc_exited;
    po.stdio = stdio;
    po.stdio_count = 3;
    po.flags = UV_PROCESS_DETACHED; /* own process group: a stop reaches grandchildren */
    colocate_release(); /* the child would inherit the host's pin */
    inherit_nothing();
    int rc = uv_spawn(loop, &c->proc, &po);
    free(argv);
    c->proc_open = 1;
    c->open_handles++;
    *out = NULL;
    if (rc != 0) {
        spawn_failed(c);
        return rc;
    }
    c->pid = c->proc.pid;
    fd_limit_give_back(c->pid); /* the limit on open files it would have had without us */
    c->ev = ev;
    c->ud = ud;
    uv_read_start((uv_stream_t *) &c->out, alloc_cb, out_read);
    uv_read_start((uv_stream_t *) &c->err, alloc_cb, err_read);
    *out = c;
    return 0;
}

/* --- stop ------------------------------------------------------------------------------------- */

void transport_child_kill(struct transport_child *c, int signum)
{
    kill_group(c, signum);
}

void transport_child_close(struct transport_child *c, uint64_t grace_ms)
{
    c->released = 1;
    c->ev = NULL;
    c->grace_ms = grace_ms;
    if (!c->exited) {
        close_stdin(c);
        if (grace_ms == 0) {
            c->kill_stage = 2;
            kill_group(c, SIGKILL);
        } else if (c->kill_stage == 0 || !uv_is_active((uv_handle_t *) &c->timer)) {
            c->kill_stage = 0;
            uv_timer_start(&c->timer, timer_fired, grace_ms, 0);
        }
        return;
    }
    maybe_finish(c);
}

int transport_child_pid(const struct transport_child *c)
{
    return c->pid;
}

const char *transport_child_last_stderr(const struct transport_child *c)
{
    return c->last_err;
}

int transport_child_closed_output(const struct transport_child *c)
{
    return c->stopped_silent;
}

/* --- environment ------------------------------------------------------------------------------ */

static size_t name_len(const char *kv)
{
    const char *eq = strchr(kv, '=');
    return eq ? (size_t) (eq - kv) : strlen(kv);
}

static void env_put(char ***env, size_t *n, const char *kv)
{
    size_t klen = name_len(kv);
    for (size_t i = 0; i < *n; i++) {
        if (name_len((*env)[i]) == klen && strncmp((*env)[i], kv, klen) == 0) {
            free((*env)[i]);
            (*env)[i] = xstrdup(kv);
            return;
        }
    }
    *env = xrealloc(*env, (*n + 2) * sizeof **env);
    (*env)[(*n)++] = xstrdup(kv);
    (*env)[*n] = NULL;
}

char **transport_child_env(const char *const *keep, char *const *extra)
{
    char **env = xcalloc(1, sizeof *env);
    size_t n = 0;
    for (size_t i = 0; keep && keep[i]; i++) {
        const char *v = getenv(keep[i]);
        if (v == NULL || strncmp(v, "()", 2) == 0)
            continue;
        char *kv = xmalloc(strlen(keep[i]) + strlen(v) + 2);
        sprintf(kv, "%s=%s", keep[i], v);
        env_put(&env, &n, kv);
        free(kv);
    }
    for (size_t i = 0; extra && extra[i]; i++)
        env_put(&env, &n, extra[i]);
    return env;
}

void transport_child_env_free(char **env)
{
    for (size_t i = 0; env && env[i]; i++)
        free(env[i]);
    free(env);
}
