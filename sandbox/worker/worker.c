/* The worker's life: lock down, read a run message, drive the engine with
 * a poll loop (tool results from the host, timers, the deadline), stream
 * calls and console lines out, send the outcome; then exit, or, when the
 * host allowed it and the run ended normally, restore the template heap and
 * wait for the same principal's next run. Blocking I/O on one socket; a
 * 5 ms interval timer forces engine interrupts so long-running code meets
 * its deadline. */
#include "sandbox/worker/worker.h"
#include "sandbox/worker/engine.h"
#include "sandbox/worker/limits.h"
#include "sandbox/worker/seccomp.h"
#include "sandbox/worker/warm_pages.h"
#include "sandbox/worker/zone.h"
#include "sandbox/ipc.h"
#include "common/buf.h"
#include "common/utf8.h"
#include "common/json.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#define READ_LIMIT (96u << 20) /* largest message the host may send */
#define FLUSH_AT (64u << 10)
#define MAX_CALL_NAME (16u << 10) /* a call's name or query, as sent: the host allows 64 KiB */

#if defined(__SANITIZE_ADDRESS__)
#define SANITIZED 1 /* every restore is checked against the snapshot */
#else
#define SANITIZED 0
#endif

struct worker {
    struct sandbox_engine *engine;
    struct buf in, out;
    long next_id;
    unsigned calls, max_calls;
    uint64_t log_bytes, max_log_bytes, max_result_bytes;
    uint64_t max_whole_bytes; /* a cut result comes whole up to this (the host stashes it) */
    uint64_t max_call_args;   /* a host call's arguments, as the JSON sent (maxCallArgumentBytes) */
    int uncapped; /* tests only: behaves as a compromised worker would (test_uncapped) */
    unsigned logs_dropped;
    int64_t deadline_ms; /* absolute, engine clock; 0 = none */
    uint64_t timeout_ms;
    int paused; /* the host says a person is deciding on an approval */
    int eof;
    int reuse;        /* the run message allows another run after this one */
    unsigned runs;    /* programs run by this process */
    unsigned cpu_seconds; /* the RLIMIT_CPU backstop (0 = none) */
    int check_restore;    /* compare the whole zone after each restore */
    long restored_pages;  /* template pages the last restore wrote back */
};

static struct worker W;
static struct sandbox_engine *volatile ticker_engine;

/* --- output ------------------------------------------------------------------- */

static void write_all(const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(SANDBOX_IPC_FD, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            _exit(3); /* the host is gone */
        p += w;
        n -= (size_t) w;
    }
}

static void flush(void)
{
    if (W.out.len) {
        write_all(W.out.data, W.out.len);
        buf_reset(&W.out);
    }
}

static void maybe_flush(void)
{
    if (W.out.len >= FLUSH_AT)
        flush();
}

/* --- engine callbacks ------------------------------------------------------------ */

static long on_call(void *ud, const char *op, const char *name, const char *args, size_t alen,
                    char *msg, size_t msgsz)
{
    (void) ud;
    int counts = sandbox_call_counts(op);
    if (counts && W.calls >= W.max_calls) {
        if (W.max_calls == 0)
            snprintf(msg, msgsz, "tool calls are not allowed in this execution (maxToolCalls is 0)");
        else
            snprintf(msg, msgsz, "tool call limit reached: at most %u calls per execution",
                     W.max_calls);
        return -1;
    }
    size_t mark = W.out.len;
    buf_printf(&W.out, "{\"t\":\"call\",\"id\":%ld,\"op\":", W.next_id + 1);
    json_append_string(&W.out, op, strlen(op));
    buf_append_str(&W.out, ",\"name\":");
    size_t name_at = W.out.len;
    json_append_string(&W.out, name, strlen(name));
    if (W.out.len - name_at > MAX_CALL_NAME && !W.uncapped) { /* a query, or a made-up name */
        W.out.len = mark;
        W.out.data[mark] = '\0';
        snprintf(msg, msgsz, "the name or query of this call is %zu bytes, over the limit of %u bytes",
                 strlen(name), MAX_CALL_NAME);
        return -1;
    }
    buf_append_str(&W.out, ",\"args\":");
    size_t at = W.out.len;
    if (alen <= W.max_call_args || W.uncapped) /* the JSON sent is at least alen bytes */
        json_append_engine_text(&W.out, args, alen);
    size_t sent = W.out.len - at;
    if (alen > W.max_call_args || sent > W.max_call_args) {
        if (!W.uncapped) { /* the host would refuse it, and stop the worker */
            W.out.len = mark;
            W.out.data[mark] = '\0';
            snprintf(msg, msgsz,
                     "the arguments of this call are %zu bytes of JSON, over the limit of %llu "
                     "bytes (maxCallArgumentBytes)",
                     alen > sent ? alen : sent, (unsigned long long) W.max_call_args);
            return -1;
        }
    }
    unsigned long long values = json_text_values(W.out.data + at, sent);
    if (values > sandbox_call_argument_values(W.max_call_args) && !W.uncapped) {
        W.out.len = mark;
        W.out.data[mark] = '\0';
        snprintf(msg, msgsz,
                 "the arguments of this call hold %llu JSON values, over the limit of %llu "
                 "(one per 16 bytes of maxCallArgumentBytes)",
                 values, sandbox_call_argument_values(W.max_call_args));
        return -1;
    }
    if (counts)
        W.calls++;
    long id = ++W.next_id;
    buf_append_str(&W.out, "}\n");
    maybe_flush();
    return id;
}

static void on_log(void *ud, const char *level, const char *text, size_t len)
{
    (void) ud;
    if (W.log_bytes + len > W.max_log_bytes && !W.uncapped) { /* 0 keeps none */
        W.logs_dropped++;
        if ((W.logs_dropped & (W.logs_dropped - 1)) == 0) { /* 1, 2, 4...: known even after a kill */
            buf_printf(&W.out, "{\"t\":\"dropped\",\"n\":%u}\n", W.logs_dropped);
            flush();
        }
        return;
    }
    W.log_bytes += len;
    buf_append_str(&W.out, "{\"t\":\"log\",\"level\":");
    json_append_string(&W.out, level, strlen(level));
    buf_append_str(&W.out, ",\"text\":");
    json_append_string(&W.out, text, len);
    buf_append_str(&W.out, "}\n");
    flush(); /* out of the process now: a kill a moment later cannot lose it */
}

/* --- lock-down --------------------------------------------------------------------- */

/* Leaves open only the IPC socket, at SANDBOX_IPC_FD, and the template's
 * snapshot, at SANDBOX_SNAPSHOT_FD (when there is one). */
static void close_other_fds(int ipc_fd)
{
    /* Out of the way first: the snapshot may sit where the socket goes. */
    int snap = sandbox_zone_snapshot_fd();
    if (snap >= 0)
        snap = fcntl(snap, F_DUPFD_CLOEXEC, SANDBOX_SNAPSHOT_FD + 1);
    if (ipc_fd != SANDBOX_IPC_FD) {
        if (dup2(ipc_fd, SANDBOX_IPC_FD) < 0)
            _exit(4);
        close(ipc_fd);
    }
    if (snap >= 0 && dup2(snap, SANDBOX_SNAPSHOT_FD) != SANDBOX_SNAPSHOT_FD) {
        close(snap);
        snap = -1;
    }
    sandbox_zone_use_snapshot_fd(snap >= 0 ? SANDBOX_SNAPSHOT_FD : -1);
    int keep_to = snap >= 0 ? SANDBOX_SNAPSHOT_FD : SANDBOX_IPC_FD; /* the last one kept */
    for (int fd = 0; fd < keep_to; fd++)
        if (fd != SANDBOX_IPC_FD)
            close(fd);
    if (syscall(SYS_close_range, keep_to + 1, ~0U, 0) != 0) {
        long max = sysconf(_SC_OPEN_MAX);
        for (long fd = keep_to + 1; fd < (max > 0 ? max : 1024); fd++)
            close((int) fd);
    }
}

/* Sets soft and hard limit to value, or to the hard limit already there
 * when that is stricter (raising it is not allowed, and not wanted); 0 when
 * the limit is in place. */
static int set_limit(int resource, rlim_t value)
{
    struct rlimit r;
    if (getrlimit(resource, &r) == 0 && r.rlim_max != RLIM_INFINITY && r.rlim_max < value)
        value = r.rlim_max;
    r.rlim_cur = r.rlim_max = value;
    return setrlimit(resource, &r);
}

/* Tests only: MCP_CODEMODE_TEST_LOCKDOWN_FAIL=rlimit or =seccomp makes that
 * step of the lock-down fail, as a hard limit below ours or a kernel without
 * seccomp filters would. It can only make workers refuse to run. */
static int test_fails(const char *step)
{
    const char *v = getenv("MCP_CODEMODE_TEST_LOCKDOWN_FAIL");
    return v != NULL && strcmp(v, step) == 0;
}

/* Tests only: MCP_CODEMODE_TEST_WORKER_UNCAPPED=1 makes the worker send
 * console lines, call arguments and results whatever their size, as a
 * compromised worker could: the host's own limits on what it reads are
 * what stops them. */
static int test_uncapped(void)
{
    const char *v = getenv("MCP_CODEMODE_TEST_WORKER_UNCAPPED");
    return v != NULL && strcmp(v, "1") == 0;
}

/* --- the interrupt ticker ------------------------------------------------------------- */

static void on_tick(int sig)
{
    (void) sig;
    sandbox_engine_request_interrupt(ticker_engine);
}

/* Installed before the seccomp filter (sigaction is not on the allow-list). */
static void install_tick_handler(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_tick;
    sa.sa_flags = SA_RESTART;
    sigaction(SIGALRM, &sa, NULL);
}

static void start_ticker(void)
{
    struct itimerval it = {{0, 5000}, {0, 5000}};
    setitimer(ITIMER_REAL, &it, NULL);
}

/* Opens this process's pagemap at SANDBOX_PAGEMAP_FD, for the restore of
 * the template heap between runs (sandbox_zone_restore); 1 when it is open.
 * Without it the restore compares every page instead. */
static int open_pagemap(void)
{
    int fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    if (fd != SANDBOX_PAGEMAP_FD) {
        int ok = dup2(fd, SANDBOX_PAGEMAP_FD) == SANDBOX_PAGEMAP_FD;
        close(fd);
        if (!ok)
            return 0;
    }
    sandbox_zone_use_pagemap(SANDBOX_PAGEMAP_FD);
    return 1;
}

/* Fails closed: a worker without every limit or without its filter exits
 * (SANDBOX_EXIT_LOCKDOWN) before it reads a run; there is no opt-out. */
static void lock_down(const struct sandbox_worker_config *cfg)
{
    int pagemap = sandbox_zone_restorable() && open_pagemap();
    int failed = test_fails("rlimit");
    failed |= set_limit(RLIMIT_NPROC, 0);
    failed |= set_limit(RLIMIT_FSIZE, 0);
    failed |= set_limit(RLIMIT_CORE, 0);
    int last_fd = sandbox_zone_snapshot_fd() >= 0 ? SANDBOX_SNAPSHOT_FD
                  : pagemap                         ? SANDBOX_PAGEMAP_FD
                                                    : SANDBOX_IPC_FD;
    failed |= set_limit(RLIMIT_NOFILE, (rlim_t) last_fd + 1);
    if (cfg->address_space_bytes)
        failed |= set_limit(RLIMIT_AS, cfg->address_space_bytes);
    if (cfg->cpu_seconds)
        failed |= set_limit(RLIMIT_CPU, cfg->cpu_seconds);
    if (failed)
        _exit(SANDBOX_EXIT_LOCKDOWN);
    install_tick_handler();
    if (test_fails("seccomp") || sandbox_seccomp_install(SANDBOX_IPC_FD) != 0)
        _exit(SANDBOX_EXIT_LOCKDOWN);
    if (cfg->after_lockdown)
        cfg->after_lockdown();
}

/* Lets glibc's allocator sort out the free lists inherited from the zygote
 * now, while the worker waits: a large-bin request consolidates the fast bins
 * and sorts the unsorted chunks, writing to ~35 copy-on-write pages. Done
 * here it is off the caller's clock; otherwise the program's first
 * allocations pay it (~100 us measured). */
static void settle_allocator(void)
{
    void *volatile p = malloc(2048);
    free(p);
}

/* --- input ----------------------------------------------------------------------------- */

/* Reads what is available (blocking when wait_ms < 0, else polling up to
 * wait_ms). Returns 1 when bytes arrived, 0 on timeout, -1 at EOF. */
static int read_some(int wait_ms)
{
    if (wait_ms >= 0) {
        struct pollfd p = {SANDBOX_IPC_FD, POLLIN, 0};
        int r = poll(&p, 1, wait_ms);
        if (r <= 0)
            return 0; /* timeout or EINTR: the caller re-checks its clocks */
    }
    char chunk[65536];
    ssize_t n = read(SANDBOX_IPC_FD, chunk, sizeof chunk);
    if (n < 0)
        return errno == EINTR ? 0 : -1;
    if (n == 0)
        return -1;
    if (buf_append(&W.in, chunk, (size_t) n) < 0) {
        sandbox_engine_abort(W.engine, "Error", "a message from the host exceeded the size limit");
        buf_reset(&W.in);
    }
    return 1;
}

static const char *skip_int(const char *p, long *out)
{
    char *end;
    *out = strtol(p, &end, 10);
    return end == p ? NULL : end;
}

/* {"t":"result","id":N,"ok":true,"value":V} / ...,"ok":false,"error":E}: the
 * host writes exactly this shape, so the value is passed on as text, unparsed,
 * to the engine's own JSON decoder. */
static int handle_result(const char *line, size_t len)
{
    static const char head[] = "{\"t\":\"result\",\"id\":";
    if (len < sizeof head || memcmp(line, head, sizeof head - 1) != 0)
        return -1;
    long id;
    const char *p = skip_int(line + sizeof head - 1, &id);
    if (p == NULL)
        return -1;
    int ok;
    if (strncmp(p, ",\"ok\":true,\"value\":", 19) == 0)
        ok = 1, p += 19;
    else if (strncmp(p, ",\"ok\":false,\"error\":", 20) == 0)
        ok = 0, p += 20;
    else
        return -1;
    const char *end = line + len;
    if (end <= p || end[-1] != '}')
        return -1;
    sandbox_engine_settle(W.engine, id, ok, p, (size_t) (end - 1 - p));
    return 0;
}

static void handle_line(const char *line, size_t len)
{
    if (handle_result(line, len) == 0)
        return;
    if (len >= 14 && strncmp(line, "{\"t\":\"cancel\"", 13) == 0) {
        sandbox_engine_abort(W.engine, "CancelledError", "the execution was cancelled");
        return;
    }
    if (strcmp(line, "{\"t\":\"pause\"}") == 0 || strcmp(line, "{\"t\":\"resume\"}") == 0) {
        W.paused = line[6] == 'p';
        return;
    }
    sandbox_engine_abort(W.engine, "Error", "malformed message from the host");
}

static void process_lines(void)
{
    size_t start = 0;
    for (;;) {
        char *nl = memchr(W.in.data + start, '\n', W.in.len - start);
        if (nl == NULL)
            break;
        size_t len = (size_t) (nl - (W.in.data + start));
        *nl = '\0';
        handle_line(W.in.data + start, len);
        start += len + 1;
        if (sandbox_engine_state(W.engine) == SANDBOX_DONE)
            break;
    }
    buf_consume(&W.in, start);
}

/* Whether the line at p (n bytes) is left over from the last run: the
 * answer to a call the program left behind (call ids never repeat within a
 * process, so it settles nothing), or a pause or resume that crossed `done`. */
static int stale_line(const char *p, size_t n)
{
    static const char *const heads[] = {"{\"t\":\"result\",", "{\"t\":\"pause\"}",
                                        "{\"t\":\"resume\"}"};
    for (size_t i = 0; i < sizeof heads / sizeof *heads; i++)
        if (n >= strlen(heads[i]) && memcmp(p, heads[i], strlen(heads[i])) == 0)
            return 1;
    return 0;
}

/* Blocks until one whole line is buffered; returns it (NUL-terminated) or
 * NULL at EOF. Lines left over from the last run are skipped (stale_line). */
static char *read_first_line(size_t *len)
{
    for (;;) {
        char *nl = W.in.data ? memchr(W.in.data, '\n', W.in.len) : NULL;
        if (nl && stale_line(W.in.data, (size_t) (nl - W.in.data))) {
            buf_consume(&W.in, (size_t) (nl - W.in.data) + 1);
            continue;
        }
        if (nl) {
            *nl = '\0';
            *len = (size_t) (nl - W.in.data);
            return W.in.data;
        }
        if (read_some(-1) < 0)
            return NULL;
    }
}

/* --- the run --------------------------------------------------------------------------- */

static uint64_t num(const cJSON *o, const char *key, uint64_t dflt)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(v) && v->valuedouble >= 0 ? (uint64_t) v->valuedouble : dflt;
}

/* Parses, while the worker waits for its program, a run message like the
 * host's, and makes the other library calls of a run. After the fork the
 * worker's page tables hold none of the code pages of cJSON, of setitimer
 * or of the vDSO's clock: each first touch is a page fault (~2 us each
 * here), on the caller's clock without this. Not rehearsed, for the idle
 * worker's memory: libc's strtod (numbers in the message) and printf
 * (Duktape's JSON.stringify), whose first calls map 64 KB windows of libc's
 * code and locale tables, ~0.45 MiB of resident pages per idle worker
 * against ~7 faults per run. */
static void rehearse(void)
{
    static const char run[] = "{\"t\":\"run\",\"code\":\"return 1+1\"}";
    cJSON *msg = cJSON_ParseWithLength(run, sizeof run - 1);
    num(msg, "timeoutMs", 0);
    cJSON_Delete(msg);
    struct itimerval off = {{0, 0}, {0, 0}};
    setitimer(ITIMER_REAL, &off, NULL); /* disarmed already: maps the call */
    sandbox_engine_now_ms();            /* maps the vDSO's clock */
}

static void start_run(char *line, size_t len)
{
    cJSON *msg = json_parse(line, len); /* keeps \u0000 and lone surrogates in the code */
    const cJSON *code = cJSON_GetObjectItemCaseSensitive(msg, "code");
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(msg, "t");
    if (!cJSON_IsString(t) || strcmp(t->valuestring, "run") != 0 || !cJSON_IsString(code))
        _exit(6);
    struct sandbox_run_limits l;
    l.timeout_ms = num(msg, "timeoutMs", 30000);
    l.memory_bytes = num(msg, "memoryBytes", 64u << 20);
    l.max_concurrent = (unsigned) num(msg, "maxConcurrent", 256);
    W.max_calls = (unsigned) num(msg, "maxCalls", UINT32_MAX); /* 0: none allowed */
    W.max_log_bytes = num(msg, "maxLogBytes", 256u << 10);
    W.max_result_bytes = num(msg, "maxResultBytes", 1u << 20);
    W.max_whole_bytes = num(msg, "maxWholeBytes", 0);
    W.max_call_args = num(msg, "maxCallArgumentBytes", 4u << 20);
    W.uncapped = test_uncapped();
    W.timeout_ms = l.timeout_ms;
    W.reuse = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(msg, "reuse"));
    W.runs++;
    W.deadline_ms = l.timeout_ms ? sandbox_engine_now_ms() + (int64_t) l.timeout_ms : 0;
    char *catalog = NULL;
    const cJSON *cat = cJSON_GetObjectItemCaseSensitive(msg, "catalog");
    if (cJSON_IsObject(cat))
        catalog = json_print(cat);
    char *builtins = NULL;
    const cJSON *bi = cJSON_GetObjectItemCaseSensitive(msg, "builtins");
    if (cJSON_IsObject(bi))
        builtins = json_print(bi);
    sandbox_engine_set_builtins(W.engine, builtins);
    start_ticker();
    size_t code_len = utf8_decode_nul(code->valuestring, strlen(code->valuestring));
    sandbox_engine_start(W.engine, code->valuestring, code_len, catalog, &l);
    free(catalog);
    free(builtins);
    cJSON_Delete(msg);
}

/* Gives back to the program the ms the worker sat idle while the host said
 * a person was deciding on an approval: that wait does not count against
 * timeoutMs. Only idle time: a program that computes meanwhile spends its
 * own budget. */
static void credit_pause(int64_t ms)
{
    if (ms <= 0 || W.deadline_ms == 0)
        return;
    W.deadline_ms += ms;
    sandbox_engine_extend_deadline(W.engine, (uint64_t) ms);
}

/* Waits for results and timers until the program has an outcome. */
static void drive(void)
{
    while (sandbox_engine_state(W.engine) == SANDBOX_RUNNING) {
        int64_t now = sandbox_engine_now_ms();
        if (W.deadline_ms && now >= W.deadline_ms) {
            char m[128];
            snprintf(m, sizeof m, "execution timed out after %llu ms (waiting for tool calls or timers)",
                     (unsigned long long) W.timeout_ms);
            sandbox_engine_abort(W.engine, "TimeoutError", m);
            break;
        }
        int64_t timer = sandbox_engine_next_timer(W.engine);
        if (timer >= 0 && timer <= now) {
            sandbox_engine_run_timers(W.engine);
            continue;
        }
        if (timer < 0 && sandbox_engine_inflight(W.engine) == 0) {
            sandbox_engine_abort(W.engine, "Error",
                                 "the program is waiting for a promise that can never settle "
                                 "(no tool call or timer is pending)");
            break;
        }
        int64_t wait = timer >= 0 ? timer - now : -1;
        int paused = W.paused;
        if (W.deadline_ms && !paused && (wait < 0 || W.deadline_ms - now < wait))
            wait = W.deadline_ms - now;
        flush();
        int got = read_some(wait < 0 ? -1 : (int) (wait > 1000000 ? 1000000 : wait));
        if (paused)
            credit_pause(sandbox_engine_now_ms() - now);
        if (got < 0) {
            W.eof = 1;
            return;
        }
        process_lines();
    }
}

/* Decimal digits of v, without printf: its code is not mapped in a fresh
 * worker, and this is on the caller's clock. */
static void append_u64(struct buf *b, uint64_t v)
{
    char t[20];
    int n = 0;
    do
        t[n++] = (char) ('0' + v % 10);
    while ((v /= 10) != 0);
    while (n > 0)
        buf_append_char(b, t[--n]);
}

static void send_done(int again)
{
    buf_append_str(&W.out, "{\"t\":\"done\",\"outcome\":");
    sandbox_engine_outcome_whole(W.engine, W.uncapped ? 0 : W.max_result_bytes, W.max_whole_bytes,
                                 &W.out);
    buf_append_str(&W.out, ",\"stats\":{\"toolCalls\":");
    append_u64(&W.out, W.calls);
    buf_append_str(&W.out, ",\"memoryPeakBytes\":");
    append_u64(&W.out, sandbox_engine_mem_peak(W.engine));
    buf_append_str(&W.out, ",\"logBytes\":");
    append_u64(&W.out, W.log_bytes);
    buf_append_str(&W.out, ",\"logsDropped\":");
    append_u64(&W.out, W.logs_dropped);
    buf_append_str(&W.out, ",\"unhandledRejections\":");
    append_u64(&W.out, sandbox_engine_unhandled(W.engine));
    if (W.runs > 1) {
        buf_append_str(&W.out, ",\"restoredPages\":");
        append_u64(&W.out, (uint64_t) W.restored_pages);
    }
    buf_append_str(&W.out, again ? "},\"reuse\":true}\n" : "}}\n");
    flush();
}

/* Waits (briefly) for the host to shut down its side after `done`, so that
 * this process's exit, which tears down its address space, happens after the
 * host has answered the caller rather than before: on a busy 2-core machine
 * the host would otherwise wait for the CPU the exit holds. */
static void await_host_close(void)
{
    char sink[256];
    for (;;) {
        struct pollfd p = {SANDBOX_IPC_FD, POLLIN, 0};
        if (poll(&p, 1, 100) <= 0)
            return;
        ssize_t n = read(SANDBOX_IPC_FD, sink, sizeof sink);
        if (n <= 0 && !(n < 0 && errno == EINTR))
            return;
    }
}

/* CPU seconds this process has used (its RLIMIT_CPU counts them all). */
static uint64_t cpu_used_seconds(void)
{
    struct timespec ts;
    if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0)
        return UINT64_MAX;
    return (uint64_t) ts.tv_sec;
}

/* Whether this process may run the principal's next program: the host
 * allowed it, the program ended normally, and the process is well within
 * its CPU backstop (which counts every run). */
static int may_run_again(void)
{
    if (!W.reuse || !sandbox_engine_reusable(W.engine) || !sandbox_zone_restorable())
        return 0;
    return W.cpu_seconds == 0 || cpu_used_seconds() < W.cpu_seconds / 2;
}

/* Brings the process back to the state of a worker that has run nothing:
 * the template heap's bytes from the zygote's snapshot, the run's blocks
 * freed, a new Math.random seed, the run's counters cleared. Exits when the
 * heap cannot be restored (the host then sees the channel close). */
static void restore(void)
{
    if ((W.restored_pages = sandbox_zone_restore()) < 0)
        _exit(0);
    sandbox_engine_reset(W.engine);
    if (W.check_restore && !sandbox_zone_pristine())
        _exit(7);
    sandbox_limits_reseed();
    W.calls = W.max_calls = 0;
    W.log_bytes = W.max_log_bytes = W.max_result_bytes = W.max_whole_bytes = 0;
    W.logs_dropped = 0;
    W.deadline_ms = 0;
    W.timeout_ms = 0;
    W.paused = 0;
    W.reuse = 0;
}

/* Runs one program from its run message to `done`; returns 1 when the
 * process stays for another run (the heap restored), 0 when it is to exit. */
static int serve_one(char *line, size_t len)
{
    start_run(line, len);
    buf_consume(&W.in, len + 1);
    process_lines();
    drive();
    if (W.eof)
        _exit(0);
    struct itimerval off = {{0, 0}, {0, 0}};
    setitimer(ITIMER_REAL, &off, NULL);
    int again = may_run_again();
    send_done(again);
    if (again)
        restore();
    return again;
}

void sandbox_worker_main(struct sandbox_engine *e, int ipc_fd,
                         const struct sandbox_worker_config *cfg)
{
    sandbox_zone_freeze();
    sandbox_limits_reseed();
    close_other_fds(ipc_fd);
    lock_down(cfg);
    /* While it waits: copy the template-heap pages a run writes, and
     * rehearse the run's library calls (see above). */
    sandbox_warm_pages_touch();
    settle_allocator();
    rehearse();
    sandbox_limits_stack_init(6u << 20);

    memset(&W, 0, sizeof W);
    W.engine = e;
    W.cpu_seconds = cfg->cpu_seconds;
    W.check_restore = SANITIZED || getenv("MCP_CODEMODE_CHECK_RESTORE") != NULL;
    buf_init(&W.in, READ_LIMIT);
    buf_init(&W.out, 0);
    struct sandbox_engine_host host = {NULL, on_call, on_log};
    sandbox_engine_set_host(e, &host);
    ticker_engine = e;

    for (;;) {
        size_t len;
        char *line = read_first_line(&len);
        if (line == NULL)
            _exit(0); /* retired before use, or after its last run */
        if (!serve_one(line, len))
            break;
    }
    await_host_close();
    _exit(0);
}
