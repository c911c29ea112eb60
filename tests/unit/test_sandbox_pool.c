/* Unit tests of the host side of the sandbox (pool.c, execution.c) with real
 * processes: this test binary re-executes itself as the zygote. Covers leasing,
 * runs, host calls, kills at the hard deadline, crashes, the seccomp filter,
 * hostile worker output, and a clean shutdown (uv_loop_close == 0). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "sandbox/execution.h"
#include "sandbox/pool.h"
#include "sandbox/zygote.h"
#include "common/alloc.h"
#include "common/buf.h"

#include <sys/socket.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char exe[PATH_MAX];

/* --- zygote modes of this binary ------------------------------------------------ */

static void probe_forbidden_syscall(void)
{
    /* Never on the allow-list, not even in sanitizer builds: SIGSYS. */
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    (void) fd;
    _exit(42);
}

static int zygote_mode(int argc, char **argv)
{
    struct sandbox_worker_config wc = {0, 0, 1, NULL};
    if (argc > 2 && strcmp(argv[2], "seccomp-probe") == 0)
        wc.after_lockdown = probe_forbidden_syscall;
    return sandbox_zygote_main(STDIN_FILENO, &wc, 0);
}

/* --- harness ---------------------------------------------------------------------- */

struct run {
    uv_loop_t loop;
    struct sandbox_pool *pool;
    char *outcome;
    struct buf logs;
    int calls;
    int gone_signal;
};

static void on_call(void *ud, struct sandbox_exec *x, long id, const char *op, const char *name,
                    const cJSON *args)
{
    struct run *r = ud;
    r->calls++;
    char *a = cJSON_PrintUnformatted(args);
    struct buf b;
    buf_init(&b, 0);
    buf_printf(&b, "{\"op\":\"%s\",\"name\":\"%s\",\"args\":%s}", op, name, a);
    sandbox_exec_reply(x, id, 1, b.data, b.len);
    buf_free(&b);
    free(a);
}

static void on_log(void *ud, struct sandbox_exec *x, const char *level, const char *text)
{
    struct run *r = ud;
    (void) x;
    buf_printf(&r->logs, "%s:%s\n", level, text);
}

static void on_done(void *ud, struct sandbox_exec *x, const struct sandbox_exec_result *res)
{
    struct run *r = ud;
    (void) x;
    r->outcome = cJSON_PrintUnformatted(res->outcome);
    sandbox_pool_close(r->pool, NULL, NULL);
}

static const struct sandbox_exec_events events = {on_call, on_log, on_done};

static char *run_program(const char *mode, const char *code, uint64_t timeout_ms)
{
    struct run r;
    memset(&r, 0, sizeof r);
    buf_init(&r.logs, 0);
    uv_loop_init(&r.loop);
    char exe_and_mode[PATH_MAX + 64];
    snprintf(exe_and_mode, sizeof exe_and_mode, "%s", exe);
    struct sandbox_pool_config pc = {exe, 1, 0, 0, 1u << 20, mode};
    r.pool = sandbox_pool_new(&r.loop, &pc);
    struct sandbox_exec_request rq = {
        .code = code, .code_len = strlen(code), .timeout_ms = timeout_ms, .grace_ms = 300,
        .memory_bytes = 32u << 20, .max_result_bytes = 1u << 20, .max_log_bytes = 1u << 16,
        .max_calls = 100, .max_concurrent = 16};
    sandbox_exec_start(r.pool, &rq, &events, &r);
    uv_run(&r.loop, UV_RUN_DEFAULT);
    assert_int_equal(uv_loop_close(&r.loop), 0);
    buf_free(&r.logs);
    return r.outcome;
}

/* --- tests -------------------------------------------------------------------------- */

static void test_run_in_worker(void **state)
{
    char *o = run_program("warning", "console.log('x'); return 40 + 2;", 5000);
    assert_string_equal(o, "{\"ok\":true,\"value\":42}");
    free(o);
}

static void test_host_calls_over_ipc(void **state)
{
    char *o = run_program("warning",
                          "var a = __await(Promise.all([callTool('s.t', {n: 1}), "
                          "searchTools('q')]));\n"
                          "return [a[0].name, a[0].args.n, a[1].op];",
                          5000);
    assert_string_equal(o, "{\"ok\":true,\"value\":[\"s.t\",1,\"search\"]}");
    free(o);
}

static void test_hard_deadline_kills_native_loop(void **state)
{
    /* One native call that never reaches a bytecode interrupt. */
    char *o = run_program("warning", "return new Array(3e8).join('x').length;", 200);
    assert_non_null(strstr(o, "\"name\":\"TimeoutError\""));
    free(o);
}

static void test_seccomp_kills_forbidden_syscall(void **state)
{
    char *o = run_program("warning seccomp-probe", "return 1;", 5000);
    assert_string_equal(o, "{\"ok\":false,\"error\":{\"name\":\"SandboxError\",\"message\":\"the "
                           "sandbox stopped the program: it attempted a forbidden system call\"}}");
    free(o);
}

static void test_stall_detected(void **state)
{
    char *o = run_program("warning", "__await(new Promise(function () {}));", 5000);
    assert_non_null(strstr(o, "can never settle"));
    free(o);
}

static void test_wait_deadline_while_waiting_on_timer(void **state)
{
    char *o = run_program("warning", "__await(sleep(100000));", 150);
    assert_non_null(strstr(o, "\"name\":\"TimeoutError\""));
    free(o);
}

/* Workers the zygote forked for a pool that is already closing arrive late:
 * they must be closed, not queued as idle (ASan caught a use-after-free). */
static void test_close_while_forking(void **state)
{
    for (int i = 0; i < 5; i++) {
        uv_loop_t loop;
        uv_loop_init(&loop);
        struct sandbox_pool_config pc = {exe, 8, 0, 0, 1u << 20, "warning"};
        struct sandbox_pool *p = sandbox_pool_new(&loop, &pc);
        /* close once the first worker is idle and the others are still forking */
        while (sandbox_pool_idle(p) < 1)
            uv_run(&loop, UV_RUN_ONCE);
        usleep(20000); /* more workers are forked and announced, still unread */
        sandbox_pool_close(p, NULL, NULL);
        uv_run(&loop, UV_RUN_DEFAULT);
        assert_int_equal(uv_loop_close(&loop), 0);
    }
}

static void test_random_reseeded_per_worker(void **state)
{
    /* Workers are forked from one template heap: without a reseed after the
     * fork they would all produce the same sequence. */
    char *a = run_program("warning", "return [Math.random(), Math.random()];", 5000);
    char *b = run_program("warning", "return [Math.random(), Math.random()];", 5000);
    assert_non_null(strstr(a, "\"ok\":true"));
    assert_string_not_equal(a, b);
    free(a);
    free(b);
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "__zygote") == 0) {
        /* argv: exe __zygote --log-level LEVEL [MODE] ...: the pool passes the
         * log level; the tests smuggle the mode in after it. */
        char *mode = argc > 3 ? strchr(argv[3], ' ') : NULL;
        char *fake[3] = {argv[0], argv[1], mode ? mode + 1 : (char *) ""};
        return zygote_mode(3, fake);
    }
    signal(SIGPIPE, SIG_IGN); /* as mcp-codemode's main does: see pool.h */
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return 1;
    exe[n] = '\0';
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_run_in_worker),
        cmocka_unit_test(test_host_calls_over_ipc),
        cmocka_unit_test(test_hard_deadline_kills_native_loop),
        cmocka_unit_test(test_seccomp_kills_forbidden_syscall),
        cmocka_unit_test(test_stall_detected),
        cmocka_unit_test(test_wait_deadline_while_waiting_on_timer),
        cmocka_unit_test(test_random_reseeded_per_worker),
        cmocka_unit_test(test_close_while_forking),
    };
    return cmocka_run_group_tests_name("sandbox_pool", tests, NULL, NULL);
}
