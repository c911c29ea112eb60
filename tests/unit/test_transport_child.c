/* Unit tests of child processes on pipes (transport/child.c) with real
 * processes (sh, cat, sleep): line framing of stdout, stderr capture, exit
 * after the last line, spawn failures, signals, the stdin-EOF / SIGTERM /
 * SIGKILL stop with its timing, oversized lines with head and tail, a
 * grandchild that keeps the pipes open, and the environment builder. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "transport/child.h"
#include "common/alloc.h"
#include "common/log.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uv_loop_t loop;

struct seen {
    char lines[16][64];
    int nlines;
    size_t over_total, head_len, tail_len;
    char head[16], tail[16];
    int exited, sig, order_ok;
    int64_t status;
    uint64_t exit_at;
    size_t bytes;
    struct transport_child *child;
    int close_on_line;
};

static void on_line(void *ud, char *line, size_t len)
{
    struct seen *s = ud;
    s->bytes += len;
    if (s->nlines < 16)
        snprintf(s->lines[s->nlines], sizeof s->lines[0], "%s", line);
    s->nlines++;
    if (s->close_on_line)
        transport_child_close(s->child, 0); /* no more events, even from this read */
}

static void on_oversize(void *ud, const char *head, size_t hl, const char *tail, size_t tl,
                        size_t total)
{
    struct seen *s = ud;
    s->over_total = total;
    s->head_len = hl;
    s->tail_len = tl;
    snprintf(s->head, sizeof s->head, "%.*s", (int) (hl < 15 ? hl : 15), head);
    snprintf(s->tail, sizeof s->tail, "%.*s", (int) (tl < 15 ? tl : 15),
             tail + tl - (tl < 15 ? tl : 15));
}

static void on_exit_(void *ud, int64_t status, int sig)
{
    struct seen *s = ud;
    s->exited++;
    s->status = status;
    s->sig = sig;
    s->exit_at = uv_now(&loop);
}

static const struct transport_child_events events = {on_line, on_oversize, on_exit_};

static char **test_env(void)
{
    return transport_child_env((const char *const[]){"PATH", NULL}, NULL);
}

static int spawn_sh(struct seen *s, const char *script, size_t max_line)
{
    char *args[] = {"-c", (char *) script, NULL};
    char **env = test_env();
    struct transport_child_options o = {.name = "sh",
                                        .file = "sh",
                                        .args = args,
                                        .env = env,
                                        .max_line = max_line,
                                        .stderr_level = LOG_INFO};
    memset(s, 0, sizeof *s);
    int rc = transport_child_spawn(&loop, &o, &events, s, &s->child);
    transport_child_env_free(env);
    return rc;
}

static void run_until_exit(struct seen *s)
{
    while (!s->exited)
        uv_run(&loop, UV_RUN_ONCE);
}

static int setup(void **state)
{
    (void) state;
    return uv_loop_init(&loop);
}

/* After a failed assertion, handles the test could not close. */
static void close_left_over(uv_handle_t *h, void *arg)
{
    (void) arg;
    if (!uv_is_closing(h))
        uv_close(h, NULL);
}

static int teardown(void **state)
{
    (void) state;
    uv_run(&loop, UV_RUN_DEFAULT);
    if (uv_loop_close(&loop) != 0) {
        uv_walk(&loop, close_left_over, NULL);
        uv_run(&loop, UV_RUN_DEFAULT);
        assert_int_equal(uv_loop_close(&loop), 0);
        fail_msg("handles were left open");
    }
    return 0;
}

/* ============================================================================================== */

static void test_lines_stderr_and_exit(void **state)
{
    (void) state;
    struct seen s;
    assert_int_equal(spawn_sh(&s,
                              "printf 'a\\nbb\\r\\n\\n'; echo oops >&2; echo 'last words' >&2;"
                              " printf 'c'; exit 7",
                              1024),
                     0);
    assert_true(transport_child_pid(s.child) > 0);
    run_until_exit(&s);
    assert_int_equal(s.nlines, 3); /* the empty line is not reported; the unterminated one is */
    assert_string_equal(s.lines[0], "a");
    assert_string_equal(s.lines[1], "bb");
    assert_string_equal(s.lines[2], "c");
    assert_int_equal(s.status, 7);
    assert_int_equal(s.sig, 0);
    assert_string_equal(transport_child_last_stderr(s.child), "last words");
    transport_child_close(s.child, 1000);
    uv_run(&loop, UV_RUN_DEFAULT);
    assert_int_equal(s.exited, 1);
}

static void test_spawn_failures(void **state)
{
    (void) state;
    struct seen s;
    char **env = test_env();
    struct transport_child *c = (void *) 1;
    struct transport_child_options o = {
        .file = "no-such-program-for-mcp-codemode", .env = env, .max_line = 100};
    assert_int_equal(transport_child_spawn(&loop, &o, &events, &s, &c), UV_ENOENT);
    assert_null(c);
    o.file = "sh";
    o.cwd = "/nonexistent/directory";
    assert_int_equal(transport_child_spawn(&loop, &o, &events, &s, &c), UV_ENOENT);
    o.file = "/etc/passwd"; /* not executable */
    o.cwd = NULL;
    assert_int_equal(transport_child_spawn(&loop, &o, &events, &s, &c), UV_EACCES);
    transport_child_env_free(env);
    memset(&s, 0, sizeof s);
    uv_run(&loop, UV_RUN_DEFAULT); /* handles close; no event ever came */
    assert_int_equal(s.exited, 0);
}

static void test_killed_by_signal(void **state)
{
    (void) state;
    struct seen s;
    assert_int_equal(spawn_sh(&s, "exec sleep 10", 100), 0);
    transport_child_kill(s.child, SIGKILL);
    run_until_exit(&s);
    assert_int_equal(s.sig, SIGKILL);
    assert_int_equal(s.status, -1);
    transport_child_close(s.child, 1000);
}

static void test_stop_exits_on_eof(void **state)
{
    (void) state;
    struct seen s;
    assert_int_equal(spawn_sh(&s, "cat >/dev/null; echo bye >&2", 100), 0);
    uv_update_time(&loop);
    uint64_t t0 = uv_now(&loop);
    transport_child_close(s.child, 2000); /* stdin EOF is enough */
    uv_run(&loop, UV_RUN_DEFAULT);
    uv_update_time(&loop);
    assert_true(uv_now(&loop) - t0 < 1000);
    assert_int_equal(s.exited, 0); /* released: no events */
}

static void test_stop_escalates(void **state)
{
    (void) state;
    struct seen s;
    /* Ignores stdin EOF and SIGTERM (the sleep inherits the ignored TERM). */
    assert_int_equal(spawn_sh(&s, "trap '' TERM; sleep 30 </dev/null; sleep 30", 100), 0);
    uv_run(&loop, UV_RUN_NOWAIT);
    uv_update_time(&loop);
    uint64_t t0 = uv_now(&loop);
    transport_child_close(s.child, 150); /* TERM at 150 ms (ignored), KILL at 300 ms */
    uv_run(&loop, UV_RUN_DEFAULT);
    uv_update_time(&loop);
    assert_in_range(uv_now(&loop) - t0, 290, 1500);
}

static void test_write_and_read_back(void **state)
{
    (void) state;
    struct seen s;
    assert_int_equal(spawn_sh(&s, "exec cat", 1 << 20), 0);
    char line[1001];
    memset(line, 'y', 1000);
    line[1000] = '\n';
    for (int i = 0; i < 1000; i++)
        assert_int_equal(transport_child_write(s.child, line, sizeof line), 0);
    assert_true(transport_child_write_queue(s.child) > 0);
    while (s.nlines < 1000)
        uv_run(&loop, UV_RUN_ONCE);
    assert_int_equal(s.bytes, 1000 * 1000);
    assert_int_equal(transport_child_write_queue(s.child), 0);
    transport_child_close(s.child, 1000);
}

static void test_close_from_line_callback(void **state)
{
    (void) state;
    struct seen s;
    assert_int_equal(spawn_sh(&s, "printf '1\\n2\\n3\\n'; sleep 30", 100), 0);
    s.close_on_line = 1;
    while (s.nlines == 0)
        uv_run(&loop, UV_RUN_ONCE);
    uv_run(&loop, UV_RUN_DEFAULT);
    assert_int_equal(s.nlines, 1);
    assert_int_equal(s.exited, 0);
}

static void test_oversized_line(void **state)
{
    (void) state;
    struct seen s;
    assert_int_equal(spawn_sh(&s,
                              "printf HEAD; head -c 100000 /dev/zero | tr '\\0' x;"
                              " printf 'TAIL\\nok\\n'",
                              1000),
                     0);
    run_until_exit(&s);
    assert_int_equal(s.over_total, 100008);
    assert_int_equal(s.head_len, 4096);
    assert_int_equal(s.tail_len, 4096);
    assert_string_equal(s.head, "HEADxxxxxxxxxxx");
    assert_string_equal(s.tail, "xxxxxxxxxxxTAIL");
    assert_int_equal(s.nlines, 1); /* the next line still arrives */
    assert_string_equal(s.lines[0], "ok");
    transport_child_close(s.child, 1000);
}

static void test_grandchild_keeps_pipes(void **state)
{
    (void) state;
    struct seen s;
    assert_int_equal(spawn_sh(&s, "sleep 30 & echo started; exit 0", 100), 0);
    uv_update_time(&loop);
    uint64_t t0 = uv_now(&loop);
    run_until_exit(&s); /* reported after the drain time, not after 30 s */
    assert_in_range(s.exit_at - t0, 0, 3000);
    assert_int_equal(s.nlines, 1);
    transport_child_close(s.child, 1000);
    uv_run(&loop, UV_RUN_DEFAULT);
}

static void test_environment(void **state)
{
    (void) state;
    setenv("CHILD_TEST_A", "1", 1);
    setenv("CHILD_TEST_FN", "() { echo hi; }", 1);
    unsetenv("CHILD_TEST_UNSET");
    char *extra[] = {"CHILD_TEST_A=2", "NEW=x=y", "EMPTY=", NULL};
    char **env = transport_child_env(
        (const char *const[]){"CHILD_TEST_A", "CHILD_TEST_FN", "CHILD_TEST_UNSET", NULL}, extra);
    assert_string_equal(env[0], "CHILD_TEST_A=2");
    assert_string_equal(env[1], "NEW=x=y");
    assert_string_equal(env[2], "EMPTY=");
    assert_null(env[3]);
    transport_child_env_free(env);
    env = transport_child_env(NULL, NULL);
    assert_null(env[0]);
    transport_child_env_free(env);
    /* The child sees exactly that. */
    struct seen s;
    char *args[] = {"-c", "echo \"[$CHILD_TEST_A][$NEW][${HOME-unset}]\"", NULL};
    char *vars[] = {"CHILD_TEST_A=2", "NEW=x=y", NULL};
    env = transport_child_env((const char *const[]){"PATH", NULL}, vars);
    struct transport_child_options o = {.file = "sh", .args = args, .env = env, .max_line = 100};
    memset(&s, 0, sizeof s);
    assert_int_equal(transport_child_spawn(&loop, &o, &events, &s, &s.child), 0);
    transport_child_env_free(env);
    run_until_exit(&s);
    assert_string_equal(s.lines[0], "[2][x=y][unset]");
    transport_child_close(s.child, 1000);
}

int main(void)
{
    signal(SIGPIPE, SIG_IGN);
    log_set_level(getenv("CHILD_TEST_LOG") ? LOG_DEBUG : LOG_OFF);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_lines_stderr_and_exit, setup, teardown),
        cmocka_unit_test_setup_teardown(test_spawn_failures, setup, teardown),
        cmocka_unit_test_setup_teardown(test_killed_by_signal, setup, teardown),
        cmocka_unit_test_setup_teardown(test_stop_exits_on_eof, setup, teardown),
        cmocka_unit_test_setup_teardown(test_stop_escalates, setup, teardown),
        cmocka_unit_test_setup_teardown(test_write_and_read_back, setup, teardown),
        cmocka_unit_test_setup_teardown(test_close_from_line_callback, setup, teardown),
        cmocka_unit_test_setup_teardown(test_oversized_line, setup, teardown),
        cmocka_unit_test_setup_teardown(test_grandchild_keeps_pipes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_environment, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
