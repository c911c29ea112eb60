/* Unit tests of the authority settings of the config loader
 * (mcp-server/config/policy.c): codemode.policy (default, noApprover,
 * approvalTimeoutMs, rules), codemode.audit, an entry's "policy" object;
 * malformed patterns and unknown decisions with their file positions, and
 * the --audit-log override. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "mcp-server/config/config.h"
#include "support/config_file.h"
#include "tools/policy/audit.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void test_defaults(void **state)
{
    (void) state;
    struct config c;
    config_init(&c);
    assert_int_equal(c.policy.default_decision, TOOLS_POLICY_ALLOW);
    assert_int_equal(c.policy.no_approver, TOOLS_POLICY_DENY);
    assert_int_equal(c.policy.approval_timeout_ms, 600000);
    assert_int_equal(c.policy.nrules, 0);
    assert_null(c.audit_path);
    assert_int_equal(c.audit_arguments, TOOLS_AUDIT_ARGS_HASH);
    config_free(&c);
}

static void test_the_issue_example(void **state)
{
    (void) state;
    struct config c;
    char *err;
    int r = config_file_load(
        &c,
        "{\"codemode\": {\"policy\": {\"default\": \"ask\", \"noApprover\": \"allow\", "
        "\"approvalTimeoutMs\": 60000, \"rules\": {\"crm.delete_*\": \"deny\", \"crm.*\": "
        "\"ask\", \"crm.search\": \"allow\"}}, \"audit\": {\"path\": "
        "\"/var/log/mcp-codemode/audit.jsonl\", \"arguments\": \"full\"}},"
        " \"mcpServers\": {\"crm\": {\"command\": \"crm-server\", \"policy\": "
        "{\"purge_*\": \"deny\", \"get\": \"allow\"}}}}",
        &err);
    if (r != 0)
        print_error("%s\n", err);
    assert_int_equal(r, 0);
    assert_int_equal(c.policy.default_decision, TOOLS_POLICY_ASK);
    assert_int_equal(c.policy.no_approver, TOOLS_POLICY_ALLOW);
    assert_int_equal(c.policy.approval_timeout_ms, 60000);
    assert_int_equal(c.policy.nrules, 3);
    assert_string_equal(c.policy.rules[0].pattern, "crm.delete_*");
    assert_int_equal(c.policy.rules[0].decision, TOOLS_POLICY_DENY);
    assert_string_equal(c.policy.rules[2].pattern, "crm.search");
    assert_int_equal(c.policy.rules[2].decision, TOOLS_POLICY_ALLOW);
    assert_string_equal(c.audit_path, "/var/log/mcp-codemode/audit.jsonl");
    assert_int_equal(c.audit_arguments, TOOLS_AUDIT_ARGS_FULL);
    assert_int_equal(c.servers[0].npolicy, 2);
    assert_string_equal(c.servers[0].policy[0].pattern, "purge_*");
    assert_int_equal(c.servers[0].policy[1].decision, TOOLS_POLICY_ALLOW);
    assert_int_equal(c.nwarnings, 0);
    config_free(&c);
}

static void test_bad_patterns(void **state)
{
    (void) state;
    config_file_expect_error(
        "{\"codemode\": {\"policy\": {\"rules\": {\"crm\": \"deny\"}}}}",
        "config.json:1:36: codemode.policy.rules.crm: malformed pattern: no server part "
        "(expected \"server.tool\", \"server.*\" or \"*\")");
    config_file_expect_error(
        "{\"codemode\": {\"policy\": {\"rules\": {\"a.b\": \"allow\",\n \"\": \"deny\"}}}}",
        "config.json:2:2: codemode.policy.rules[\"\"]: malformed pattern: empty pattern "
        "(expected \"server.tool\", \"server.*\" or \"*\")");
    config_file_expect_error(
        "{\"codemode\": {\"policy\": {\"rules\": {\"cr*.x\": \"deny\"}}}}",
        "config.json:1:36: codemode.policy.rules[\"cr*.x\"]: malformed pattern: a server "
        "is named exactly or with \"*\" alone, not with a partial glob");
    config_file_expect_error(
        "{\"codemode\": {\"policy\": {\"rules\": {\"crm.\": \"deny\"}}}}",
        "config.json:1:36: codemode.policy.rules[\"crm.\"]: malformed pattern: the tool "
        "part is empty (write \"*\" for every tool)");
    config_file_expect_error(
        "{\"mcpServers\": {\"crm\": {\"command\": \"x\", \"policy\": {\"\": \"deny\"}}}}",
        "config.json:1:52: mcpServers.crm.policy[\"\"]: malformed pattern: empty pattern "
        "(expected \"server.tool\", \"server.*\" or \"*\")");
}

static void test_bad_decisions(void **state)
{
    (void) state;
    config_file_expect_error(
        "{\"codemode\": {\"policy\": {\"rules\": {\"crm.*\": \"block\"}}}}",
        "config.json:1:45: codemode.policy.rules[\"crm.*\"]: unknown decision \"block\" "
        "(expected allow, ask or deny)");
    config_file_expect_error(
        "{\"codemode\": {\"policy\": {\"rules\": {\"crm.*\": true}}}}",
        "config.json:1:45: codemode.policy.rules[\"crm.*\"]: expected a string, got true");
    config_file_expect_error(
        "{\"codemode\": {\"policy\": {\"default\": \"Allow\"}}}",
        "config.json:1:37: codemode.policy.default: unknown decision \"Allow\" (expected "
        "allow, ask or deny)");
    config_file_expect_error(
        "{\"codemode\": {\"policy\": {\"noApprover\": \"ask\"}}}",
        "config.json:1:40: codemode.policy.noApprover: unknown decision \"ask\" (expected "
        "allow or deny)");
    config_file_expect_error(
        "{\"codemode\": {\"policy\": {\"approvalTimeoutMs\": 0}}}",
        "config.json:1:47: codemode.policy.approvalTimeoutMs: expected an integer from 1 "
        "to 86400000, got 0");
    config_file_expect_error(
        "{\"codemode\": {\"policy\": {\"rules\": [\"crm.*\"]}}}",
        "config.json:1:35: codemode.policy.rules: expected an object, got an array");
    config_file_expect_error(
        "{\"mcpServers\": {\"crm\": {\"command\": \"x\", \"policy\": {\"get\": \"maybe\"}}}}",
        "config.json:1:59: mcpServers.crm.policy.get: unknown decision \"maybe\" "
        "(expected allow, ask or deny)");
}

static void test_audit(void **state)
{
    (void) state;
    config_file_expect_error(
        "{\"codemode\": {\"audit\": {\"arguments\": \"some\"}}}",
        "config.json:1:38: codemode.audit.arguments: unknown value \"some\" (expected "
        "full, hash or none)");
    config_file_expect_error(
        "{\"codemode\": {\"audit\": {\"path\": \"\"}}}",
        "config.json:1:33: codemode.audit.path: empty path (remove \"audit\" to write no "
        "audit log)");
    config_file_expect_error(
        "{\"codemode\": {\"audit\": \"/tmp/x\"}}",
        "config.json:1:24: codemode.audit: expected an object, got \"/tmp/x\"");
    struct config c;
    char *err;
    assert_int_equal(config_file_load(&c,
                                      "{\"codemode\": {\"audit\": {\"path\": \"/tmp/a.jsonl\", "
                                      "\"arguments\": \"none\", \"extra\": 1}}}",
                                      &err),
                     0);
    assert_int_equal(c.audit_arguments, TOOLS_AUDIT_ARGS_NONE);
    assert_int_equal(c.nwarnings, 1);
    assert_non_null(strstr(c.warnings[0], "codemode.audit.extra"));
    /* --audit-log */
    assert_int_equal(config_override(&c, "audit.path", "/tmp/b.jsonl", &err), 0);
    assert_string_equal(c.audit_path, "/tmp/b.jsonl");
    assert_int_equal(config_override(&c, "audit.path", "", &err), -1);
    assert_string_equal(err, "audit.path: empty path (remove \"audit\" to write no audit log)");
    free(err);
    config_free(&c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults),     cmocka_unit_test(test_the_issue_example),
        cmocka_unit_test(test_bad_patterns), cmocka_unit_test(test_bad_decisions),
        cmocka_unit_test(test_audit),
    };
    return cmocka_run_group_tests(tests, config_file_setup, config_file_teardown);
}
