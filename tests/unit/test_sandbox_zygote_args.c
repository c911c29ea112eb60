/* Unit tests of sandbox/worker/zygote_args.c: the zygote's own reader of
 * the command line the pool writes (both spellings of a value), and clear
 * errors for an unknown option, a missing or malformed value, and a
 * command line that is not the zygote's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "sandbox/worker/zygote_args.h"

#include <string.h>

static int parse(char **argv, struct sandbox_zygote_args *a, char *err)
{
    int argc = 0;
    while (argv[argc])
        argc++;
    return sandbox_zygote_args_parse(argc, argv, a, err, 200);
}

static void test_reads_what_the_pool_writes(void **state)
{
    (void) state;
    char *argv[] = {"exe",          "__zygote",   "--log-level", "debug", "--worker-as",
                    "1140850688",   "--worker-cpu", "620",       "--host-pid=4613", NULL};
    struct sandbox_zygote_args a;
    char err[200];
    assert_true(sandbox_zygote_args_match(9, argv));
    assert_int_equal(parse(argv, &a, err), 0);
    assert_string_equal(a.log_level, "debug");
    assert_int_equal(a.worker_as, 1140850688);
    assert_int_equal(a.worker_cpu, 620);
    assert_int_equal(a.host_pid, 4613);
}

static void expect_error(char **argv, const char *want)
{
    struct sandbox_zygote_args a;
    char err[200] = "";
    assert_int_equal(parse(argv, &a, err), -1);
    if (strstr(err, want) == NULL)
        fail_msg("error \"%s\" does not say \"%s\"", err, want);
}

static void test_errors(void **state)
{
    (void) state;
    expect_error((char *[]){"exe", "serve", NULL}, "started by mcp-codemode only");
    expect_error((char *[]){"exe", NULL}, "started by mcp-codemode only");
    expect_error((char *[]){"exe", "__zygote", "--config", "x", NULL}, "unknown option \"--config\"");
    expect_error((char *[]){"exe", "__zygote", "--worker-as", NULL}, "needs a value");
    expect_error((char *[]){"exe", "__zygote", "--worker-cpu", "-1", NULL},
                 "--worker-cpu takes a number, not \"-1\"");
    expect_error((char *[]){"exe", "__zygote", "--host-pid=99999999999", NULL}, "takes a number");
    expect_error((char *[]){"exe", "__zygote", "--worker-as", "12x", NULL}, "takes a number");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reads_what_the_pool_writes),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
