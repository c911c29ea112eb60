/* The zygote's command line (zygote_args.h): read with no help from the
 * server's CLI, and run. */
#include "sandbox/worker/zygote_args.h"
#include "sandbox/worker/worker.h"
#include "sandbox/worker/zygote.h"
#include "common/log.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int sandbox_zygote_args_match(int argc, char **argv)
{
    return argc > 1 && strcmp(argv[1], "__zygote") == 0;
}

/* A decimal number of at most max: 0, or -1. */
static int number(const char *s, uint64_t max, uint64_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (*s < '0' || *s > '9' || *end || errno || v > max)
        return -1;
    *out = v;
    return 0;
}

static int is(const char *a, size_t n, const char *name)
{
    return n == strlen(name) && strncmp(a, name, n) == 0;
}

/* One option and its value: 0, or -1 with err. */
static int option(const char *a, size_t n, const char *v, struct sandbox_zygote_args *out,
                  char *err, size_t errsz)
{
    uint64_t num = 0;
    int rc;
    if (is(a, n, "--log-level")) {
        out->log_level = v;
        return 0;
    }
    if (is(a, n, "--worker-as")) {
        rc = number(v, UINT64_MAX, &out->worker_as);
    } else if (is(a, n, "--worker-cpu")) {
        rc = number(v, UINT32_MAX, &num);
        out->worker_cpu = (unsigned) num;
    } else if (is(a, n, "--host-pid")) {
        rc = number(v, INT32_MAX, &num);
        out->host_pid = (int) num;
    } else {
        snprintf(err, errsz, "unknown option \"%.*s\"", (int) n, a);
        return -1;
    }
    if (rc != 0)
        snprintf(err, errsz, "%.*s takes a number, not \"%s\"", (int) n, a, v);
    return rc;
}

int sandbox_zygote_args_parse(int argc, char **argv, struct sandbox_zygote_args *out, char *err,
                              size_t errsz)
{
    memset(out, 0, sizeof *out);
    if (!sandbox_zygote_args_match(argc, argv)) {
        snprintf(err, errsz, "the sandbox zygote, started by mcp-codemode only");
        return -1;
    }
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i], *eq = strchr(a, '=');
        size_t n = eq ? (size_t) (eq - a) : strlen(a);
        const char *v = eq ? eq + 1 : i + 1 < argc ? argv[++i] : NULL;
        if (v == NULL) {
            snprintf(err, errsz, "option %s needs a value", a);
            return -1;
        }
        if (option(a, n, v, out, err, errsz) != 0)
            return -1;
    }
    return 0;
}

int sandbox_zygote_run(const struct sandbox_zygote_args *a)
{
    enum log_level level = LOG_WARNING;
    if (a->log_level)
        log_level_parse(a->log_level, &level);
    log_set_level(level);
    struct sandbox_worker_config wc = {a->worker_as, a->worker_cpu, NULL};
#if defined(__SANITIZE_ADDRESS__)
    wc.address_space_bytes = 0; /* ASan reserves terabytes of address space */
#endif
    return sandbox_zygote_main(STDIN_FILENO, &wc, a->host_pid);
}
