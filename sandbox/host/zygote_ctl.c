/* The sandbox zygote, seen from the host: started with a control socket
 * (this binary in hidden mode, or the slim image: image.h), its messages
 * read (ready, a new worker, a worker's exit, an error), restarted with
 * backoff when it dies; what it reports of workers goes to pool.c. */
#include "sandbox/host/pool_internal.h"
#include "common/alloc.h"
#include "common/colocate.h"
#include "common/inherit.h"
#include "common/json.h"
#include "common/log.h"
#include "common/stream_write.h"

#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void sandbox__zygote_send(struct sandbox_pool *p, const char *cmd)
{
    if (p->ctl_open && p->zygote_running)
        stream_write((uv_stream_t *) &p->ctl, (char *) cmd, strlen(cmd), 0, NULL, NULL);
}

static void set_error(struct sandbox_pool *p, const char *msg)
{
    free(p->last_error);
    p->last_error = xstrdup(msg);
}

static void zygote_message(struct sandbox_pool *p, const char *line)
{
    int pid, code, sig;
    if (strcmp(line, "{\"t\":\"ready\"}") == 0) {
        p->zygote_ready = 1;
        p->zygote_ready_at = uv_now(p->loop);
        if (p->cfg.on_first_ready && !p->was_ready)
            p->cfg.on_first_ready();
        p->was_ready = 1;
        sandbox__refill(p);
    } else if (sscanf(line, "{\"t\":\"worker\",\"pid\":%d}", &pid) == 1) {
        sandbox__worker_arrived(p, pid);
    } else if (sscanf(line, "{\"t\":\"exit\",\"pid\":%d,\"code\":%d,\"signal\":%d}", &pid, &code,
                      &sig) == 3) {
        struct sandbox_proc *w = sandbox__find_worker(p, pid);
        colocate_forget(pid);
        if (w) {
            w->exited = 1;
            w->code = code;
            w->signal = sig;
            sandbox__worker_settle(w);
            if (p->cfg.max_workers)
                sandbox__refill(p); /* a place under the cap is free again */
        }
    } else if (strncmp(line, "{\"t\":\"error\"", 12) == 0) {
        cJSON *m = json_parse(line, strlen(line));
        const cJSON *text = cJSON_GetObjectItemCaseSensitive(m, "message");
        log_error("sandbox", "zygote: %s", cJSON_IsString(text) ? text->valuestring : line);
        set_error(p, cJSON_IsString(text) ? text->valuestring : line);
        cJSON_Delete(m);
        if (!p->zygote_ready)
            p->zygote_said_error = 1; /* why it will exit: the reason leases get */
        else if (p->spawning)
            p->spawning--;
    }
}

static void zygote_lost(struct sandbox_pool *p);

static void ctl_read(uv_stream_t *s, ssize_t n, const uv_buf_t *b)
{
    struct sandbox_pool *p = s->data;
    if (n < 0) {
        uv_read_stop(s);
        zygote_lost(p); /* its exit report (SIGCHLD) may come after the next lease */
        return;
    }
    if (buf_append(&p->ctl_in, b->base, (size_t) n) < 0) {
        buf_reset(&p->ctl_in);
        return;
    }
    size_t start = 0;
    char *nl;
    while ((nl = memchr(p->ctl_in.data + start, '\n', p->ctl_in.len - start)) != NULL) {
        *nl = '\0';
        zygote_message(p, p->ctl_in.data + start);
        start = (size_t) (nl - p->ctl_in.data) + 1;
    }
    buf_consume(&p->ctl_in, start);
}

static void restart_timeout(uv_timer_t *t)
{
    sandbox__zygote_start(t->data);
}

/* A zygote that served for a while and died is restarted at once (the
 * leases waiting for it are served ~50 ms later); one that keeps dying, with
 * backoff from 100 ms up to 6.4 s. */
#define SANDBOX_ZYGOTE_STABLE_MS 1000

void sandbox__ctl_closed(uv_handle_t *h)
{
    struct sandbox_pool *p = h->data;
    p->ctl_open = 0;
    p->open_handles--;
    if (!p->closing && !p->zygote_running) {
        unsigned n = p->zygote_failures > 0 ? p->zygote_failures - 1 : 0;
        uint64_t delay = n == 0 ? 0 : 100u << (n < 7 ? n - 1 : 6);
        uv_timer_start(&p->restart, restart_timeout, delay, 0);
    }
    sandbox__maybe_finish_close(p);
}

/* The zygote is gone: its control socket ended, or its exit was reported,
 * whichever comes first. Its workers die with it (PR_SET_PDEATHSIG) and no
 * exit status can be reported for them any more: idle and kept ones are
 * ended and never handed out; leased ones end their run at their EOF. */
static void zygote_lost(struct sandbox_pool *p)
{
    if (p->zygote_lost)
        return;
    p->zygote_lost = 1;
    p->zygote_ready = 0;
    p->spawning = 0;
    for (struct sandbox_proc *w = p->workers, *next; w; w = next) {
        next = w->next; /* sandbox__worker_settle may free w */
        if (!w->exited) {
            w->exited = 1;
            w->code = -1;
            w->orphaned = 1;
        }
        if (!w->leased && !p->closing) { /* idle or kept: closing our end ends it if it still runs */
            sandbox__retire(w);
            continue;
        }
        sandbox__worker_settle(w);
    }
    uv_timer_start(&p->deliver, sandbox__deliver, 0, 0);
}

static void zygote_exited(uv_process_t *proc, int64_t status, int sig)
{
    struct sandbox_pool *p = proc->data;
    p->zygote_running = 0;
    if (!p->closing) {
        if (p->zygote_ready && uv_now(p->loop) - p->zygote_ready_at >= SANDBOX_ZYGOTE_STABLE_MS)
            p->zygote_failures = 0;
        p->zygote_failures++;
        char msg[128];
        snprintf(msg, sizeof msg, "the sandbox zygote exited (status %lld, signal %d)",
                 (long long) status, sig);
        log_error("sandbox", "%s; restarting", msg);
        if (!p->zygote_said_error)
            set_error(p, msg);
    }
    zygote_lost(p);
    uv_close((uv_handle_t *) proc, sandbox__handle_closed);
    if (p->ctl_open)
        uv_close((uv_handle_t *) &p->ctl, sandbox__ctl_closed);
    uv_timer_start(&p->deliver, sandbox__deliver, 0, 0);
}

void sandbox__zygote_start(struct sandbox_pool *p)
{
    if (p->closing)
        return;
    p->zygote_lost = 0;
    p->zygote_said_error = 0;
    buf_reset(&p->ctl_in); /* a line the last zygote did not finish is not this one's */
    char as[32], cpu[32], host[32];
    snprintf(as, sizeof as, "%llu", (unsigned long long) p->cfg.address_space_bytes);
    snprintf(cpu, sizeof cpu, "%u", p->cfg.cpu_seconds);
    snprintf(host, sizeof host, "%d", (int) getpid());
    char *args[] = {p->exe,         "__zygote", "--log-level", p->log_level, "--worker-as", as,
                    "--worker-cpu", cpu,        "--host-pid",  host,         NULL};
    uv_pipe_init(p->loop, &p->ctl, 1);
    p->ctl.data = p;
    p->ctl_open = 1;
    p->open_handles++;
    uv_stdio_container_t stdio[3];
    stdio[0].flags = UV_CREATE_PIPE | UV_READABLE_PIPE | UV_WRITABLE_PIPE;
    stdio[0].data.stream = (uv_stream_t *) &p->ctl;
    stdio[1].flags = UV_IGNORE;
    stdio[2].flags = UV_INHERIT_FD;
    stdio[2].data.fd = 2;
    uv_process_options_t o;
    memset(&o, 0, sizeof o);
    o.file = p->exe;
    o.args = args;
    o.exit_cb = zygote_exited;
    o.stdio = stdio;
    o.stdio_count = 3;
    p->zygote.data = p;
    colocate_release(); /* the zygote and its workers would inherit the host's pin */
    inherit_nothing();
    int rc = uv_spawn(p->loop, &p->zygote, &o);
    if (rc != 0) {
        char msg[256];
        snprintf(msg, sizeof msg, "cannot start the sandbox zygote %s: %s", p->exe,
                 uv_strerror(rc));
        set_error(p, msg);
        log_error("sandbox", "%s", msg);
        p->zygote_failures++;
        p->open_handles++;
        uv_close((uv_handle_t *) &p->zygote, sandbox__handle_closed);
        uv_close((uv_handle_t *) &p->ctl, sandbox__ctl_closed);
        uv_timer_start(&p->deliver, sandbox__deliver, 0, 0);
        return;
    }
    p->open_handles++;
    p->zygote_running = 1;
    uv_read_start((uv_stream_t *) &p->ctl, sandbox__alloc_cb, ctl_read);
}

