/* A minimal C client for the stdio benchmark. Starts an MCP server with
 * posix_spawn (no fork of a large client process in the measurement, unlike
 * Node's child_process), sends initialize at once, times the initialize
 * response and the first execute_code result from just before the spawn,
 * then makes CALLS more back-to-back `return 1+1` calls, closes stdin and
 * reaps the server with wait4 to get the CPU time of its whole tree (the
 * server, and the zygote and workers it reaped). Per run it prints
 *   run INIT_MS FIRST_RESULT_MS CPU_MS
 *   calls MS MS ...            (when CALLS > 0)
 * Exit 1 when a run fails (no answer, an error, a wrong result).
 * Usage: stdio_client RUNS CALLS -- COMMAND [ARGS...] */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

#define TIMEOUT_MS 10000

static const char INIT[] =
    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
    "\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"spawn_init\",\"version\":\"1\"}}"
    "}\n";
static const char INITIALIZED[] =
    "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n";
static const char CALL_FMT[] = "{\"jsonrpc\":\"2.0\",\"id\":%d,\"method\":\"tools/"
                               "call\",\"params\":{\"name\":\"execute_code\","
                               "\"arguments\":{\"code\":\"return 1+1\"}}}\n";

struct server {
    pid_t pid;
    int in, out; /* our ends: its stdin, its stdout */
    char buf[1 << 16];
    size_t len;
};

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double) t.tv_sec * 1e3 + (double) t.tv_nsec / 1e6;
}

/* Starts argv with piped stdin and stdout. Returns 0 or -1. */
static int start(struct server *s, char **argv)
{
    int to[2], from[2];
    if (pipe2(to, O_CLOEXEC) != 0)
        return -1;
    if (pipe2(from, O_CLOEXEC) != 0) {
        close(to[0]);
        close(to[1]);
        return -1;
    }
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
    return rc == 0 ? 0 : -1;
}

static int write_all(int fd, const char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        p += w;
        n -= (size_t) w;
    }
    return 0;
}

/* Reads until a line with `"id":ID` arrives; copies it into line (NUL-ended).
 * Returns 0, or -1 on EOF, timeout or overflow. */
static int read_reply(struct server *s, int id, char *line, size_t size)
{
    char key1[32], key2[32];
    snprintf(key1, sizeof key1, "\"id\":%d,", id);
    snprintf(key2, sizeof key2, "\"id\":%d}", id);
    for (;;) {
        char *nl;
        while ((nl = memchr(s->buf, '\n', s->len)) != NULL) {
            size_t n = (size_t) (nl - s->buf);
            *nl = '\0';
            int hit = strstr(s->buf, key1) || strstr(s->buf, key2);
            if (hit)
                snprintf(line, size, "%s", s->buf);
            memmove(s->buf, nl + 1, s->len - n - 1);
            s->len -= n + 1;
            if (hit)
                return 0;
        }
        struct pollfd p = {s->out, POLLIN, 0};
        if (s->len == sizeof s->buf || poll(&p, 1, TIMEOUT_MS) <= 0)
            return -1;
        ssize_t r = read(s->out, s->buf + s->len, sizeof s->buf - s->len);
        if (r <= 0)
            return -1;
        s->len += (size_t) r;
    }
}

/* Closes its stdin and reaps it (SIGKILL after 3 s); returns the CPU time in
 * ms of the server and every descendant it waited for. */
static double stop(struct server *s)
{
    struct rusage ru;
    memset(&ru, 0, sizeof ru);
    close(s->in);
    for (int i = 0; i < 300; i++) {
        if (wait4(s->pid, NULL, WNOHANG, &ru) == s->pid)
            goto done;
        usleep(10000);
    }
    fprintf(stderr, "stdio_client: the server did not exit at EOF; killing it\n");
    kill(s->pid, SIGKILL);
    wait4(s->pid, NULL, 0, &ru);
done:
    close(s->out);
    return (double) (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
           (double) (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
}

/* One execute_code call with request id `id`; 0 when it answered 2. */
static int call(struct server *s, int id, char *line, size_t size)
{
    char req[sizeof CALL_FMT + 16];
    int n = snprintf(req, sizeof req, CALL_FMT, id);
    if (write_all(s->in, req, (size_t) n) != 0 || read_reply(s, id, line, size) != 0)
        return -1;
    return strstr(line, "\"isError\":true") || !strstr(line, "\"text\":\"2\"") ? -1 : 0;
}

/* Times `calls` back-to-back calls into ms[]. */
static int timed_calls(struct server *s, int calls, double *ms, char *line, size_t size)
{
    for (int i = 0; i < calls; i++) {
        double t = now_ms();
        if (call(s, 3 + i, line, size) != 0)
            return -1;
        ms[i] = now_ms() - t;
    }
    return 0;
}

static void print_run(double init, double first, double cpu, const double *ms, int calls)
{
    printf("run %.4f %.4f %.4f\n", init, first, cpu);
    if (calls > 0) {
        printf("calls");
        for (int i = 0; i < calls; i++)
            printf(" %.4f", ms[i]);
        printf("\n");
    }
    fflush(stdout);
}

/* One measured run. Returns 0 and prints its figures, or -1. */
static int run_once(char **argv, int calls, double *ms)
{
    static char line[1 << 16];
    struct server s;
    double t0 = now_ms();
    if (start(&s, argv) != 0) {
        fprintf(stderr, "stdio_client: cannot start %s\n", argv[0]);
        return -1;
    }
    int rc = -1;
    double t_init = 0, t_first = 0;
    if (write_all(s.in, INIT, sizeof INIT - 1) != 0 || read_reply(&s, 1, line, sizeof line) != 0 ||
        strstr(line, "\"result\"") == NULL)
        goto out;
    t_init = now_ms();
    if (write_all(s.in, INITIALIZED, sizeof INITIALIZED - 1) != 0 ||
        call(&s, 2, line, sizeof line) != 0)
        goto out;
    t_first = now_ms();
    rc = timed_calls(&s, calls, ms, line, sizeof line);
out:
    if (rc != 0)
        fprintf(stderr, "stdio_client: run failed; last line: %.300s\n", line);
    double cpu = stop(&s);
    if (rc == 0)
        print_run(t_init - t0, t_first - t0, cpu, ms, calls);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 5 || strcmp(argv[3], "--") != 0) {
        fprintf(stderr, "usage: stdio_client RUNS CALLS -- COMMAND [ARGS...]\n");
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    int runs = atoi(argv[1]), calls = atoi(argv[2]);
    double *ms = calloc(calls > 0 ? (size_t) calls : 1, sizeof *ms);
    int rc = 0;
    for (int i = 0; i < runs && rc == 0; i++) {
        rc = run_once(argv + 4, calls, ms) == 0 ? 0 : 1;
        usleep(20000); /* let the previous tree die away */
    }
    free(ms);
    return rc;
}
