/* Unit tests of the state settings of the config loader
 * (mcp-server/config/state.c): the defaults, codemode.state and
 * codemode.skills as objects and as false, ranges and unknown values with
 * their file positions, and the database's default path under
 * $XDG_STATE_HOME or ~/.local/state. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "mcp-server/config/config.h"
#include "support/config_file.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void expect_error(const char *json, const char *want)
{
    struct config c;
    char *err;
    int r = config_file_load(&c, json, &err);
    assert_int_equal(r, -1);
    assert_non_null(err);
    if (strstr(err, want) == NULL)
        fail_msg("json: %s\nwant: %s\ngot:  %s", json, want, err);
    free(err);
    config_free(&c);
}

static void test_defaults(void **state)
{
    (void) state;
    struct config c;
    config_init(&c);
    assert_int_equal(c.state.state, 1);
    assert_int_equal(c.state.skills, 1);
    assert_int_equal(c.state.per_principal, 1);
    assert_int_equal(c.state.expose_skills, 0);
    assert_int_equal(c.state.skills_per_principal, 1);
    assert_null(c.state.skill_admins);
    assert_null(c.state.path);
    assert_int_equal(c.state.max_value_bytes, 1024 * 1024);
    assert_int_equal(c.state.max_total_bytes, 64u * 1024 * 1024);
    assert_int_equal(c.state.busy_timeout_ms, 1000);
    config_free(&c);
}

static void test_values(void **state)
{
    (void) state;
    struct config c;
    char *err;
    assert_int_equal(
        config_file_load(&c,
                         "{\"codemode\":{\"state\":{\"path\":\"/x/s.db\",\"scope\":\"server\","
                         "\"maxValueBytes\":100,\"maxTotalBytes\":4096,\"busyTimeoutMs\":50},"
                         "\"skills\":{\"exposeAsTools\":true,\"scope\":\"server\","
                         "\"admins\":[\"stdio\",\"http-token\"]}}}",
                         &err),
        0);
    assert_int_equal(c.state.skills_per_principal, 0);
    assert_string_equal(c.state.skill_admins[0], "stdio");
    assert_string_equal(c.state.skill_admins[1], "http-token");
    assert_null(c.state.skill_admins[2]);
    assert_string_equal(c.state.path, "/x/s.db");
    assert_int_equal(c.state.per_principal, 0);
    assert_int_equal(c.state.max_value_bytes, 100);
    assert_int_equal(c.state.max_total_bytes, 4096);
    assert_int_equal(c.state.busy_timeout_ms, 50);
    assert_int_equal(c.state.expose_skills, 1);
    assert_int_equal(c.state.skills, 1);
    char *p = config_state_path(&c);
    assert_string_equal(p, "/x/s.db");
    free(p);
    config_free(&c);
    assert_int_equal(
        config_file_load(&c, "{\"codemode\":{\"state\":false,\"skills\":{\"enabled\":false}}}",
                         &err),
        0);
    assert_int_equal(c.state.state, 0);
    assert_int_equal(c.state.skills, 0);
    config_free(&c);
}

static void test_errors(void **state)
{
    (void) state;
    expect_error("{\"codemode\":{\"state\":{\"scope\":\"everyone\"}}}",
                 "codemode.state.scope: unknown value \"everyone\" (expected \"principal\" or "
                 "\"server\")");
    expect_error("{\"codemode\":{\"state\":{\"maxValueBytes\":1}}}",
                 "codemode.state.maxValueBytes");
    expect_error("{\"codemode\":{\"state\":{\"path\":3}}}", "codemode.state.path");
    expect_error("{\"codemode\":{\"skills\":3}}", "codemode.skills: expected an object, got 3");
    expect_error("{\"codemode\":{\"skills\":{\"exposeAsTools\":\"yes\"}}}",
                 "codemode.skills.exposeAsTools");
    expect_error("{\"codemode\":{\"skills\":{\"scope\":\"world\"}}}",
                 "codemode.skills.scope: unknown value \"world\"");
    expect_error("{\"codemode\":{\"skills\":{\"admins\":\"stdio\"}}}", "codemode.skills.admins");
    expect_error("{\"codemode\":{\"skills\":{\"admins\":[7]}}}", "codemode.skills.admins[0]");
}

static void test_default_path(void **state)
{
    (void) state;
    struct config c;
    config_init(&c);
    setenv("XDG_STATE_HOME", "/xdg", 1);
    char *p = config_state_path(&c);
    assert_string_equal(p, "/xdg/mcp-codemode/state.db");
    free(p);
    unsetenv("XDG_STATE_HOME");
    setenv("HOME", "/home/u", 1);
    p = config_state_path(&c);
    assert_string_equal(p, "/home/u/.local/state/mcp-codemode/state.db");
    free(p);
    config_free(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_values),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_default_path),
    };
    return cmocka_run_group_tests(tests, config_file_setup, config_file_teardown);
}
