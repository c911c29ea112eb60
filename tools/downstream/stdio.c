/* The stdio transport of a downstream server: the server is a child process
 * (transport/child.c) spoken to with one JSON-RPC message per line; its
 * exit ends the attempt, described with its status and last stderr line. */
#include "tools/downstream/internal.h"
#include "transport/child.h"
#include "common/buf.h"
#include "common/json.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void describe_exit(struct tools_downstream *d, int64_t status, int sig, struct buf *b)
{
    if (d->tp && transport_child_closed_output(d->tp))
        buf_append_str(b, "closed its output (stdout) but kept running, so it was stopped");
    else if (sig)
        buf_printf(b, "was killed by signal %d (%s)", sig, strsignal(sig));
    else
        buf_printf(b, "exited with status %lld", (long long) status);
    if (d->state == TOOLS_DOWNSTREAM_CONNECTING)
        buf_append_str(b, " while connecting");
    const char *err = d->tp ? transport_child_last_stderr(d->tp) : "";
    if (*err) {
        buf_append_str(b, "; its last stderr line: ");
        json_append_string(b, err, strlen(err));
    }
}

static void child_line(void *ud, char *line, size_t len)
{
    tools__downstream_line(ud, line, len);
}

static void child_oversize(void *ud, const char *head, size_t head_len, const char *tail,
                           size_t tail_len, size_t total)
{
    tools__downstream_oversize(ud, head, head_len, tail, tail_len, total);
}

static void child_exit(void *ud, int64_t status, int sig)
{
    struct tools_downstream *d = ud;
    struct buf b;
    buf_init(&b, 0);
    describe_exit(d, status, sig, &b);
    tools__downstream_lost(d, b.data, 0);
    buf_free(&b);
}

static const struct transport_child_events child_events = {child_line, child_oversize, child_exit};

static int stdio_open(struct tools_downstream *d, char *err, size_t errlen)
{
    struct transport_child *child = NULL;
    if (d->cwd && access(d->cwd, X_OK) != 0) {
        snprintf(err, errlen, "cannot use its working directory \"%s\": %s", d->cwd,
                 strerror(errno));
        return -1;
    }
    struct transport_child_options o = {.name = d->label,
                                        .file = d->command,
                                        .args = d->args,
                                        .env = d->env,
                                        .cwd = d->cwd,
                                        .max_line = d->opt.max_message_bytes,
                                        .stderr_level = d->opt.stderr_level};
    int rc = transport_child_spawn(d->loop, &o, &child_events, d, &child);
    if (rc == UV_ENOENT && strchr(d->command, '/') == NULL)
        snprintf(err, errlen, "cannot start \"%s\": command not found in PATH", d->command);
    else if (rc != 0)
        snprintf(err, errlen, "cannot start \"%s\": %s", d->command, uv_strerror(rc));
    if (rc != 0)
        return -1;
    d->tp = child;
    return 1;
}

static int stdio_send(struct tools_downstream *d, const char *data, size_t len,
                      const struct rpc_client_msg *m)
{
    (void) m;
    return transport_child_write(d->tp, data, len);
}

static void stdio_close(struct tools_downstream *d, uint64_t grace_ms)
{
    transport_child_close(d->tp, grace_ms);
    d->tp = NULL;
}

static size_t stdio_backlog(const struct tools_downstream *d)
{
    return transport_child_write_queue(d->tp);
}

static int stdio_pid(const struct tools_downstream *d)
{
    return transport_child_pid(d->tp);
}

const struct ds_transport_ops tools__downstream_stdio = {
    .kind = "stdio",
    .restart = "restarting",
    .closed = "its stdin is closed",
    .probe = 1,
    .open = stdio_open,
    .send = stdio_send,
    .close = stdio_close,
    .backlog = stdio_backlog,
    .pid = stdio_pid,
};
