/* The direct client of the proxy benchmark (tests/bench/bench_proxy.mjs): a raw
 * JSON-RPC line client that calls the echo server's `echo` tool with no proxy
 * in between, so its figures are the floor a proxied call is compared with.
 * Starts COMMAND with posix_spawn, initializes, lists the tools once, then
 * per round makes SEQ back-to-back calls {"message":"x","n":i} and BURSTS
 * bursts of PAR calls all written at once (non-blocking, reading replies as
 * they come, as a client with PAR requests in flight would). Checks every
 * reply. Prints, per round and burst:
 *   seq TOTAL_MS P50_US CLIENT_CPU_MS SERVER_CPU_MS
 *   burst TOTAL_MS CLIENT_CPU_MS SERVER_CPU_MS
 * CPU times are the client's own (CLOCK_PROCESS_CPUTIME_ID) and the server's
 * (/proc/PID/schedstat). Exit 1 when a call fails.
 * Usage: direct_client ROUNDS SEQ BURSTS PAR -- COMMAND [ARGS...] */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#define TIMEOUT_MS 20000
#define BUF_SIZE   (1 << 20)

static const char INIT[] =
    "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
    "\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"direct_client\",\"version\":"
    "\"1\"}}}\n{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n";
static const char LIST[] = "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"tools/list\"}\n";
static const char CALL_FMT[] =
    "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"tools/call\",\"params\":"
    "{\"name\":\"echo\",\"arguments\":{\"message\":\"x\",\"n\":%d}}}\n";

struct server {
    pid_t pid;
    int in, out; /* our ends: its stdin, its stdout */
    char *buf;
    size_t len;
    int next_id;
};

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double) t.tv_sec * 1e3 + (double) t.tv_nsec / 1e6;
}

static double own_cpu_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double) t.tv_sec * 1e3 + (double) t.tv_nsec / 1e6;
}

/* The server's CPU time so far, from /proc/PID/schedstat (ns); -1 if unknown. */
static double server_cpu_ms(const struct server *s)
{
    char path[64];
    unsigned long long ns = 0;
    snprintf(path, sizeof path, "/proc/%d/schedstat", (int) s->pid);
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return -1;
    int ok = fscanf(f, "%llu", &ns) == 1;
    fclose(f);
    return ok ? (double) ns / 1e6 : -1;
}

static int start(struct server *s, char **argv)
{
    int to[2], from[2];
    if (pipe2(to, O_CLOEXEC) != 0 || pipe2(from, O_CLOEXEC) != 0)
        return -1;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, to[0], 0);
    posix_spawn_file_actions_adddup2(&fa, from[1], 1);
    int rc = posix_spawnp(&s->pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(to[0]);
    close(from[1]);
    s->in = to[1];
    s->out = from[0];
    s->len = 0;
    s->buf = malloc(BUF_SIZE);
    s->next_id = 1;
    return rc == 0 && s->buf ? 0 : -1;
}

static int write_all(int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0 && errno == EAGAIN) {
            struct pollfd pw = {fd, POLLOUT, 0};
            poll(&pw, 1, TIMEOUT_MS);
            continue;
        }
        if (w <= 0)
            return -1;
        p += w;
        n -= (size_t) w;
    }
    return 0;
}

/* Reads what is there (waiting up to TIMEOUT_MS). Returns 0, or -1 on EOF,
 * timeout or a full buffer. */
static int fill(struct server *s)
{
    struct pollfd p = {s->out, POLLIN, 0};
    if (s->len == BUF_SIZE || poll(&p, 1, TIMEOUT_MS) <= 0)
        return -1;
    ssize_t r = read(s->out, s->buf + s->len, BUF_SIZE - s->len);
    if (r <= 0)
        return -1;
    s->len += (size_t) r;
    return 0;
}

/* A reply is good when it is a result (not an error) of an echo of n = want
 * (want < 0: any result). */
static int good(const char *line, int want)
{
    if (strstr(line, "\"error\":") || !strstr(line, "\"result\":"))
        return 0;
    if (want < 0)
        return 1;
    char key[32], quoted[32]; /* in structuredContent, or in the text */
    snprintf(key, sizeof key, "\"n\":%d}", want);
    snprintf(quoted, sizeof quoted, "\\\"n\\\":%d}", want);
    return strstr(line, key) || strstr(line, quoted);
}

/* Takes complete lines out of the buffer; each is passed to on_line, which
 * returns -1 to fail. Returns the number of lines taken, or -1. */
static int take_lines(struct server *s, int (*on_line)(const char *, void *), void *ud)
{
    size_t start = 0;
    int n = 0;
    char *nl;
    while ((nl = memchr(s->buf + start, '\n', s->len - start)) != NULL) {
        *nl = '\0';
        if (on_line(s->buf + start, ud) != 0)
            return -1;
        start = (size_t) (nl - s->buf) + 1;
        n++;
    }
    memmove(s->buf, s->buf + start, s->len - start);
    s->len -= start;
    return n;
}

static int check_one(const char *line, void *ud)
{
    int want = *(int *) ud;
    if (good(line, want))
        return 0;
    fprintf(stderr, "direct_client: bad reply: %.300s\n", line);
    return -1;
}

/* Sends one request line and waits for its one reply. */
static int roundtrip(struct server *s, const char *req, size_t n, int want)
{
    if (write_all(s->in, req, n) != 0)
        return -1;
    for (;;) {
        int got = take_lines(s, check_one, &want);
        if (got < 0)
            return -1;
        if (got > 0)
            return got == 1 ? 0 : -1;
        if (fill(s) != 0)
            return -1;
    }
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *) a, y = *(const double *) b;
    return (x > y) - (x < y);
}

static int sequential(struct server *s, int calls, double *lat)
{
    char req[256];
    double cpu0 = own_cpu_ms(), srv0 = server_cpu_ms(s), t0 = now_ms();
    for (int i = 0; i < calls; i++) {
        int n = snprintf(req, sizeof req, CALL_FMT, s->next_id++, i);
        double t = now_ms();
        if (roundtrip(s, req, (size_t) n, i) != 0)
            return -1;
        lat[i] = now_ms() - t;
    }
    double total = now_ms() - t0;
    qsort(lat, (size_t) calls, sizeof *lat, cmp_double);
    printf("seq %.4f %.3f %.4f %.4f\n", total, lat[calls / 2] * 1e3, own_cpu_ms() - cpu0,
           server_cpu_ms(s) - srv0);
    return 0;
}

static int count_good(const char *line, void *ud)
{
    (void) ud;
    if (good(line, -1))
        return 0;
    fprintf(stderr, "direct_client: bad reply in a burst: %.300s\n", line);
    return -1;
}

/* PAR requests in flight at once: written as the pipe takes them, replies
 * read as they come. */
static int burst(struct server *s, int par)
{
    char *reqs = malloc((size_t) par * 128);
    size_t len = 0, sent = 0;
    for (int i = 0; i < par; i++)
        len += (size_t) sprintf(reqs + len, CALL_FMT, s->next_id++, i);
    double cpu0 = own_cpu_ms(), srv0 = server_cpu_ms(s), t0 = now_ms();
    int got = 0;
    while (got < par) {
        struct pollfd p[2] = {{s->out, POLLIN, 0}, {s->in, sent < len ? POLLOUT : 0, 0}};
        if (poll(p, 2, TIMEOUT_MS) <= 0)
            break;
        if (p[1].revents & POLLOUT) {
            ssize_t w = write(s->in, reqs + sent, len - sent);
            if (w > 0)
                sent += (size_t) w;
        }
        if (p[0].revents & (POLLIN | POLLHUP)) {
            if (fill(s) != 0)
                break;
            int n = take_lines(s, count_good, NULL);
            if (n < 0)
                break;
            got += n;
        }
    }
    double total = now_ms() - t0;
    free(reqs);
    if (got < par)
        return -1;
    printf("burst %.4f %.4f %.4f\n", total, own_cpu_ms() - cpu0, server_cpu_ms(s) - srv0);
    return 0;
}

static void stop(struct server *s)
{
    close(s->in);
    for (int i = 0; i < 300; i++) {
        if (waitpid(s->pid, NULL, WNOHANG) == s->pid)
            goto done;
        usleep(10000);
    }
    kill(s->pid, SIGKILL);
    waitpid(s->pid, NULL, 0);
done:
    close(s->out);
    free(s->buf);
}

int main(int argc, char **argv)
{
    if (argc < 7 || strcmp(argv[5], "--") != 0) {
        fprintf(stderr, "usage: direct_client ROUNDS SEQ BURSTS PAR -- COMMAND [ARGS...]\n");
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    int rounds = atoi(argv[1]), seq = atoi(argv[2]), bursts = atoi(argv[3]), par = atoi(argv[4]);
    struct server s;
    if (start(&s, argv + 6) != 0) {
        fprintf(stderr, "direct_client: cannot start %s\n", argv[6]);
        return 1;
    }
    double *lat = calloc(seq > 0 ? (size_t) seq : 1, sizeof *lat);
    int rc = roundtrip(&s, INIT, sizeof INIT - 1, -1) || roundtrip(&s, LIST, sizeof LIST - 1, -1);
    fcntl(s.in, F_SETFL, fcntl(s.in, F_GETFL) | O_NONBLOCK);
    for (int r = 0; r < rounds && rc == 0; r++) {
        if (seq > 0)
            rc = sequential(&s, seq, lat);
        for (int b = 0; b < bursts && rc == 0; b++)
            rc = burst(&s, par);
        fflush(stdout);
    }
    if (rc != 0)
        fprintf(stderr, "direct_client: a call failed\n");
    stop(&s);
    free(lat);
    return rc ? 1 : 0;
}
