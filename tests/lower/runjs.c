/* Test driver: runs each program in the sandbox engine in-process (the
 * engine lowers it, LOWER_MODE_MAIN), printing console lines and then the
 * outcome JSON ("RESULT {...}"); with -l, prints the lowered text.
 *   runjs [-l] FILE...    -l: print the lowered text instead of running */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/buf.h"
#include "common/json.h"
#include "sandbox/worker/engine.h"
#include "sandbox/lower/lower.h"

static long host_call(void *ud, const char *op, const char *name, const char *args, size_t len,
                      char *msg, size_t msg_size)
{
    (void)ud; (void)op; (void)name; (void)args; (void)len;
    snprintf(msg, msg_size, "no tools in runjs");
    return -1;
}

static void host_log(void *ud, const char *level, const char *text, size_t len)
{
    (void)ud;
    if (strcmp(level, "log") == 0 || strcmp(level, "info") == 0)
        printf("%.*s\n", (int)len, text);
    else
        printf("[%s] %.*s\n", level, (int)len, text);
}

static int run_file(const char *path, int print_only)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return 2;
    }
    struct buf in, low;
    buf_init(&in, 0);
    buf_init(&low, 0);
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        buf_append(&in, chunk, n);
    fclose(f);
    struct lower_error err;
    if (sandbox_lower(in.data ? in.data : "", in.len, LOWER_MODE_MAIN, &low, &err) < 0) {
        struct buf msg; /* the message as a JSON string (it may hold quotes or backslashes) */
        buf_init(&msg, 0);
        json_append_string(&msg, err.message, strlen(err.message));
        printf("RESULT {\"ok\":false,\"error\":{\"name\":\"SyntaxError\",\"message\":%s,\"line\":%d}}\n",
               msg.data ? msg.data : "\"\"", err.line);
        buf_free(&msg);
        buf_free(&in);
        return 0;
    }
    if (print_only) {
        printf("%s\n", low.data);
        buf_free(&in);
        buf_free(&low);
        return 0;
    }
    struct sandbox_engine_host eh = {NULL, host_call, host_log};
    char *cerr = NULL;
    struct sandbox_engine *e = sandbox_engine_create(&eh, &cerr);
    if (!e) {
        fprintf(stderr, "create: %s\n", cerr);
        return 2;
    }
    struct sandbox_run_limits l = {5000, 256u << 20, 256};
    sandbox_engine_start(e, in.data ? in.data : "", in.len, NULL, &l);
    while (sandbox_engine_state(e) == SANDBOX_RUNNING) {
        int64_t t = sandbox_engine_next_timer(e);
        if (t < 0) {
            sandbox_engine_abort(e, "Error", "stalled");
            break;
        }
        int64_t now = sandbox_engine_now_ms();
        if (t > now)
            usleep((useconds_t)(t - now) * 1000);
        sandbox_engine_run_timers(e);
    }
    struct buf out;
    buf_init(&out, 0);
    sandbox_engine_outcome(e, 1 << 20, &out);
    printf("RESULT %s\n", out.data ? out.data : "");
    buf_free(&out);
    sandbox_engine_destroy(e);
    buf_free(&in);
    buf_free(&low);
    return 0;
}

int main(int argc, char **argv)
{
    int print_only = 0, rc = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-l") == 0) {
            print_only = 1;
            continue;
        }
        if (argc > 2 + print_only)
            printf("=== %s\n", argv[i]);
        rc |= run_file(argv[i], print_only);
        fflush(stdout);
    }
    return rc;
}
