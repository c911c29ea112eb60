/* Unit tests of execute_code's authority arguments (mcp-server/execute/authority.c):
 * maxToolCalls (0 means no tool calls, larger values are lowered to the
 * config's limit), allow patterns and dryRun, and the messages that name
 * the wrong argument. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "mcp-server/execute/internal.h"

#include <string.h>

/* Reads the JSON arguments with the config limit cap; returns the result. */
static int read_args(const char *json, unsigned cap, struct mcp_authority *a, char *msg)
{
    cJSON *args = cJSON_Parse(json);
    assert_non_null(args);
    msg[0] = '\0';
    int rc = mcp_authority_read(args, cap, a, msg, 300);
    cJSON_Delete(args);
    return rc;
}

static void test_max_calls(void **state)
{
    (void) state;
    struct mcp_authority a;
    char msg[300];
    static const struct {
        const char *json;
        unsigned cap, want;
    } ok[] = {
        {"{}", 1000, 1000},
        {"{}", 0, 0},
        {"{\"maxToolCalls\":0}", 1000, 0},
        {"{\"maxToolCalls\":7}", 1000, 7},
        {"{\"maxToolCalls\":5000}", 1000, 1000},
        {"{\"maxToolCalls\":3}", 0, 0},
    };
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
        assert_int_equal(read_args(ok[i].json, ok[i].cap, &a, msg), 0);
        assert_int_equal(a.max_calls, ok[i].want);
        mcp_authority_free(&a);
    }
    const char *bad[] = {"{\"maxToolCalls\":-1}", "{\"maxToolCalls\":1.5}",
                         "{\"maxToolCalls\":\"2\"}", "{\"maxToolCalls\":null}",
                         "{\"maxToolCalls\":1e10}"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        assert_int_equal(read_args(bad[i], 1000, &a, msg), -1);
        assert_string_equal(msg, "execute_code: maxToolCalls must be an integer from 0 (no tool "
                                 "calls) to 1000 (larger values are lowered to the server's "
                                 "limit)");
        mcp_authority_free(&a);
    }
}

static void test_allow_and_dry_run(void **state)
{
    (void) state;
    struct mcp_authority a;
    char msg[300];
    assert_int_equal(read_args("{\"allow\":[\"crm.*\",\"*\"],\"dryRun\":true}", 10, &a, msg), 0);
    assert_string_equal(a.allow[0], "crm.*");
    assert_string_equal(a.allow[1], "*");
    assert_null(a.allow[2]);
    assert_int_equal(a.dry_run, 1);
    mcp_authority_free(&a);
    static const struct {
        const char *json, *msg;
    } bad[] = {
        {"{\"allow\":\"crm.*\"}", "execute_code: allow must be an array of tool patterns "
                                  "(\"server.tool\", \"server.*\" or \"*\")"},
        {"{\"allow\":[\"crm.*\",7]}", "execute_code: allow[1] is not a tool pattern: not a string"},
        {"{\"allow\":{}}", "execute_code: allow must be an array of tool patterns "
                           "(\"server.tool\", \"server.*\" or \"*\")"},
        {"{\"dryRun\":1}", "execute_code: dryRun must be a boolean"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        assert_int_equal(read_args(bad[i].json, 10, &a, msg), -1);
        assert_string_equal(msg, bad[i].msg);
        mcp_authority_free(&a);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_max_calls),
        cmocka_unit_test(test_allow_and_dry_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
