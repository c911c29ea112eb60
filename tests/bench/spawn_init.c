/* Spawn-to-initialize timer for the stdio benchmark: starts an MCP server
 * with posix_spawn (no fork of a large client process in the measurement,
 * unlike Node's child_process), sends initialize at once, and times the
 * initialize response and the first execute_code result from just before the
 * spawn. Prints one line per run, "init_ms first_result_ms"; exit 1 when a
 * run fails (no answer, an error, a wrong result).
 * Usage: spawn_init RUNS -- COMMAND [ARGS...] */
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

#define TIMEOUT_MS 10000

static const char INIT[] =
    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
    "\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"spawn_init\",\"version\":\"1\"}}}\n";
static const char CALL[] =
    "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n"
    "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"execute_code\","
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

/* Closes its stdin and reaps it; SIGKILL after 3 s. */
static void stop(struct server *s)
{
    close(s->in);
    for (int i = 0; i < 300; i++) {
        if (waitpid(s->pid, NULL, WNOHANG) == s->pid)
            goto done;
        usleep(10000);
    }
    fprintf(stderr, "spawn_init: the server did not exit at EOF; killing it\n");
    kill(s->pid, SIGKILL);
    waitpid(s->pid, NULL, 0);
done:
    close(s->out);
}

/* One measured run. Returns 0 and prints "init first", or -1. */
static int run_once(char **argv)
{
    static char line[1 << 16];
    struct server s;
    double t0 = now_ms();
    if (start(&s, argv) != 0) {
        fprintf(stderr, "spawn_init: cannot start %s\n", argv[0]);
        return -1;
    }
    int rc = -1;
    if (write_all(s.in, INIT, sizeof INIT - 1) != 0 || read_reply(&s, 1, line, sizeof line) != 0)
        goto out;
    double t_init = now_ms();
    if (strstr(line, "\"result\"") == NULL || write_all(s.in, CALL, sizeof CALL - 1) != 0 ||
        read_reply(&s, 2, line, sizeof line) != 0)
        goto out;
    double t_first = now_ms();
    if (strstr(line, "\"isError\":true") || !strstr(line, "\"text\":\"2\""))
        goto out;
    printf("%.4f %.4f\n", t_init - t0, t_first - t0);
    fflush(stdout);
    rc = 0;
out:
    if (rc != 0)
        fprintf(stderr, "spawn_init: run failed; last line: %.300s\n", line);
    stop(&s);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 4 || strcmp(argv[2], "--") != 0) {
        fprintf(stderr, "usage: spawn_init RUNS -- COMMAND [ARGS...]\n");
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);
    int runs = atoi(argv[1]);
    for (int i = 0; i < runs; i++) {
        if (run_once(argv + 3) != 0)
            return 1;
        usleep(20000); /* let the previous tree die away */
    }
    return 0;
}
