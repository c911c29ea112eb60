/* Test helper (header-only, static functions): starts a local server
 * process (node scripts, server-everything, supergateway) in its own process
 * group on a free 127.0.0.1 port, waits until the port accepts connections,
 * and stops it. Blocking: call it outside the libuv loop. */
#ifndef TESTS_UNIT_NODE_SERVER_H
#define TESTS_UNIT_NODE_SERVER_H

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct node_server {
    pid_t pid;
    int port;
};

/* A port that was free a moment ago. */
static int node_server_free_port(void)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t len = sizeof a;
    if (fd < 0 || bind(fd, (struct sockaddr *) &a, sizeof a) != 0 ||
        getsockname(fd, (struct sockaddr *) &a, &len) != 0) {
        if (fd >= 0)
            close(fd);
        return -1;
    }
    close(fd);
    return ntohs(a.sin_port);
}

static int node_server_accepts(int port)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET,
                            .sin_port = htons((uint16_t) port),
                            .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    int ok = fd >= 0 && connect(fd, (struct sockaddr *) &a, sizeof a) == 0;
    if (fd >= 0)
        close(fd);
    return ok;
}

static void node_server_sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

/* Starts argv (argv[0] looked up in PATH) with PORT=<port> added to the
 * environment, every "@PORT@" in argv replaced by the port, stdout and
 * stderr to /dev/null unless NODE_SERVER_LOG is set. port 0 picks a free
 * one. Returns 0 once the port accepts connections, -1 after wait_ms. */
static int node_server_start(struct node_server *s, int port, const char *const *argv, long wait_ms)
{
    char portstr[16], *args[32];
    s->port = port ? port : node_server_free_port();
    snprintf(portstr, sizeof portstr, "%d", s->port);
    int n = 0;
    for (; argv[n] && n < 31; n++) {
        const char *at = strstr(argv[n], "@PORT@");
        if (at == NULL) {
            args[n] = strdup(argv[n]);
            continue;
        }
        size_t len = strlen(argv[n]) + sizeof portstr;
        args[n] = malloc(len);
        snprintf(args[n], len, "%.*s%s%s", (int) (at - argv[n]), argv[n], portstr, at + 6);
    }
    args[n] = NULL;
    extern char **environ;
    size_t ne = 0;
    while (environ[ne])
        ne++;
    char **env = calloc(ne + 2, sizeof *env), portvar[32];
    snprintf(portvar, sizeof portvar, "PORT=%s", portstr);
    size_t k = 0;
    for (size_t i = 0; i < ne; i++)
        if (strncmp(environ[i], "PORT=", 5) != 0)
            env[k++] = environ[i];
    env[k++] = portvar;
    int quiet = getenv("NODE_SERVER_LOG") == NULL;
    s->pid = fork();
    if (s->pid == 0) { /* async-signal-safe calls only from here */
        setpgid(0, 0);
        if (quiet) {
            int null = open("/dev/null", O_RDWR);
            dup2(null, 1);
            dup2(null, 2);
        }
        execvpe(args[0], args, env);
        _exit(127);
    }
    free(env);
    for (int i = 0; i < n; i++)
        free(args[i]);
    for (long waited = 0; waited < wait_ms; waited += 25) {
        if (node_server_accepts(s->port))
            return 0;
        if (waitpid(s->pid, NULL, WNOHANG) == s->pid) {
            s->pid = 0;
            return -1;
        }
        node_server_sleep_ms(25);
    }
    return -1;
}

/* Sends sig to the server's process group (SIGKILL: a crash). */
__attribute__((unused)) static void node_server_signal(struct node_server *s, int sig)
{
    if (s->pid > 0)
        kill(-s->pid, sig);
}

/* Stops the server and its children: SIGTERM, then SIGKILL after 2 s. */
static void node_server_stop(struct node_server *s)
{
    if (s->pid <= 0)
        return;
    kill(-s->pid, SIGTERM);
    for (int i = 0; i < 80; i++) {
        if (waitpid(s->pid, NULL, WNOHANG) == s->pid) {
            kill(-s->pid, SIGKILL); /* children left behind */
            s->pid = 0;
            return;
        }
        node_server_sleep_ms(25);
    }
    kill(-s->pid, SIGKILL);
    waitpid(s->pid, NULL, 0);
    s->pid = 0;
}

/* Waits until the killed server is gone (after node_server_signal(SIGKILL)). */
__attribute__((unused)) static void node_server_reap(struct node_server *s)
{
    if (s->pid > 0 && waitpid(s->pid, NULL, 0) == s->pid)
        s->pid = 0;
}

#endif
