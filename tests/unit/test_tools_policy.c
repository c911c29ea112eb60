/* Unit tests of tools/policy/policy.c: pattern checks (every malformed
 * shape), glob matching, original and sanitised names, the specificity
 * order (named server over any server, exact over glob, more literal
 * characters, stricter on a tie, file order irrelevant), per-server rules,
 * annotation defaults and the configured default, and grants. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tools/policy/policy.h"
#include "tools/server_config.h"

#include <stdlib.h>
#include <string.h>

static const struct tools_policy_names CRM_DELETE = {"my-crm", "my_crm", "delete-user",
                                                     "delete_user"};

static void test_pattern_problems(void **state)
{
    (void) state;
    assert_null(tools_policy_pattern_problem("*", 0));
    assert_null(tools_policy_pattern_problem("crm.*", 0));
    assert_null(tools_policy_pattern_problem("crm.delete_*", 0));
    assert_null(tools_policy_pattern_problem("*.delete_*", 0));
    assert_null(
        tools_policy_pattern_problem("my-crm.a.b", 0)); /* the server ends at the first dot */
    assert_null(tools_policy_pattern_problem("delete_*", 1));
    assert_string_equal(tools_policy_pattern_problem("", 0),
                        "empty pattern (expected \"server.tool\", \"server.*\" or \"*\")");
    assert_string_equal(tools_policy_pattern_problem("crm", 0),
                        "no server part (expected \"server.tool\", \"server.*\" or \"*\")");
    assert_string_equal(tools_policy_pattern_problem(".x", 0),
                        "the server part is empty (write \"*.tool\" for any server)");
    assert_string_equal(tools_policy_pattern_problem("crm.", 0),
                        "the tool part is empty (write \"*\" for every tool)");
    assert_string_equal(tools_policy_pattern_problem("cr*.x", 0),
                        "a server is named exactly or with \"*\" alone, not with a partial glob");
    assert_string_equal(tools_policy_pattern_problem(" crm.x", 0), "leading or trailing space");
    assert_string_equal(tools_policy_pattern_problem("crm.a\tb", 0),
                        "contains a control character");
    assert_string_equal(tools_policy_pattern_problem("", 1),
                        "empty pattern (expected \"server.tool\", \"server.*\" or \"*\")");
}

static void test_glob(void **state)
{
    (void) state;
    assert_true(tools_policy_glob("*", ""));
    assert_true(tools_policy_glob("*", "anything"));
    assert_true(tools_policy_glob("delete_*", "delete_user"));
    assert_false(tools_policy_glob("delete_*", "undelete_user"));
    assert_true(tools_policy_glob("*_user", "delete_user"));
    assert_true(tools_policy_glob("a*b*c", "aXXbYYc"));
    assert_false(tools_policy_glob("a*b*c", "aXXbYY"));
    assert_true(tools_policy_glob("a**", "a"));
    assert_false(tools_policy_glob("get", "get_item"));
    assert_true(tools_policy_glob("get?", "get?")); /* '?' is literal */
    assert_false(tools_policy_glob("get?", "getx"));
}

static void test_names_either_spelling(void **state)
{
    (void) state;
    assert_true(tools_policy_pattern_matches("my-crm.delete-user", &CRM_DELETE));
    assert_true(tools_policy_pattern_matches("my_crm.delete_user", &CRM_DELETE));
    assert_true(tools_policy_pattern_matches("my-crm.delete_*", &CRM_DELETE));
    assert_true(tools_policy_pattern_matches("my_crm.delete-*", &CRM_DELETE));
    assert_true(tools_policy_pattern_matches("*.delete-user", &CRM_DELETE));
    assert_true(tools_policy_pattern_matches("*", &CRM_DELETE));
    assert_false(tools_policy_pattern_matches("crm.*", &CRM_DELETE));
    assert_false(tools_policy_pattern_matches("my-crm.delete", &CRM_DELETE));
    assert_false(tools_policy_pattern_matches("my-crm", &CRM_DELETE));
}

/* Decides with the rules given as pattern, decision pairs (NULL-terminated). */
static enum tools_policy_decision decide_with(const struct tools_policy_names *n, const cJSON *tool,
                                              char **source, ...)
{
    struct tools_policy p;
    tools_policy_init(&p);
    va_list ap;
    va_start(ap, source);
    const char *pat;
    while ((pat = va_arg(ap, const char *)) != NULL) {
        p.rules = realloc(p.rules, (p.nrules + 1) * sizeof *p.rules);
        p.rules[p.nrules].pattern = strdup(pat);
        p.rules[p.nrules].scope = NULL;
        assert_int_equal(
            tools_policy_decision_parse(va_arg(ap, const char *), &p.rules[p.nrules].decision), 0);
        p.nrules++;
    }
    va_end(ap);
    enum tools_policy_decision d = tools_policy_decide(&p, NULL, n, tool, source);
    tools_policy_free(&p);
    return d;
}

/* source is read here, after the decision was computed (argument order is unspecified). */
static void expect(const char *want_decision, const char *want_source, enum tools_policy_decision d,
                   char **source)
{
    assert_string_equal(tools_policy_decision_name(d), want_decision);
    assert_string_equal(*source, want_source);
    free(*source);
}

static void test_specificity(void **state)
{
    (void) state;
    char *src;
    /* the example: crm.search allow, crm.* ask, crm.delete_* deny */
    struct tools_policy_names search = {"crm", "crm", "search", "search"};
    struct tools_policy_names del = {"crm", "crm", "delete_x", "delete_x"};
    struct tools_policy_names other = {"crm", "crm", "update", "update"};
    enum tools_policy_decision d = decide_with(&search, NULL, &src, "crm.delete_*", "deny", "crm.*",
                                               "ask", "crm.search", "allow", NULL);
    expect("allow", "rule \"crm.search\"", d, &src);
    d = decide_with(&del, NULL, &src, "crm.delete_*", "deny", "crm.*", "ask", "crm.search", "allow",
                    NULL);
    expect("deny", "rule \"crm.delete_*\"", d, &src);
    d = decide_with(&other, NULL, &src, "crm.delete_*", "deny", "crm.*", "ask", "crm.search",
                    "allow", NULL);
    expect("ask", "rule \"crm.*\"", d, &src);
    /* the order of the rules does not matter */
    d = decide_with(&del, NULL, &src, "crm.search", "allow", "crm.*", "ask", "crm.delete_*", "deny",
                    NULL);
    expect("deny", "rule \"crm.delete_*\"", d, &src);
    /* a named server beats any server, whatever the literal length */
    d = decide_with(&del, NULL, &src, "*.delete_x", "deny", "crm.*", "allow", NULL);
    expect("allow", "rule \"crm.*\"", d, &src);
    /* "*.x" beats "*" */
    d = decide_with(&del, NULL, &src, "*", "deny", "*.delete_*", "allow", NULL);
    expect("allow", "rule \"*.delete_*\"", d, &src);
    /* exact beats a longer glob */
    d = decide_with(&del, NULL, &src, "crm.delete_x*", "deny", "crm.delete_x", "ask", NULL);
    expect("ask", "rule \"crm.delete_x\"", d, &src);
    /* a tie in literal characters: the stricter decision */
    d = decide_with(&del, NULL, &src, "crm.delete*", "allow", "crm.*lete_x", "deny", NULL);
    expect("deny", "rule \"crm.*lete_x\"", d, &src);
    d = decide_with(&del, NULL, &src, "crm.*lete_x", "deny", "crm.delete*", "allow", NULL);
    expect("deny", "rule \"crm.*lete_x\"", d, &src);
}

static void test_defaults_from_annotations(void **state)
{
    (void) state;
    char *src;
    cJSON *ro = cJSON_Parse("{\"annotations\":{\"readOnlyHint\":true,\"destructiveHint\":true}}");
    cJSON *destr = cJSON_Parse("{\"annotations\":{\"destructiveHint\":true}}");
    cJSON *plain = cJSON_Parse("{\"annotations\":{\"readOnlyHint\":false}}");
    expect("allow", "annotation readOnlyHint", decide_with(&CRM_DELETE, ro, &src, NULL), &src);
    expect("ask", "annotation destructiveHint", decide_with(&CRM_DELETE, destr, &src, NULL), &src);
    expect("allow", "codemode.policy.default", decide_with(&CRM_DELETE, plain, &src, NULL), &src);
    expect("allow", "codemode.policy.default", decide_with(&CRM_DELETE, NULL, &src, NULL), &src);
    /* a rule beats the annotations */
    expect("deny", "rule \"*\"", decide_with(&CRM_DELETE, ro, &src, "*", "deny", NULL), &src);
    /* the configured default */
    struct tools_policy p;
    tools_policy_init(&p);
    p.default_decision = TOOLS_POLICY_ASK;
    expect("ask", "codemode.policy.default",
           tools_policy_decide(&p, NULL, &CRM_DELETE, plain, &src), &src);
    expect("allow", "annotation readOnlyHint", tools_policy_decide(&p, NULL, &CRM_DELETE, ro, &src),
           &src);
    /* no policy at all: the defaults */
    expect("ask", "annotation destructiveHint",
           tools_policy_decide(NULL, NULL, &CRM_DELETE, destr, &src), &src);
    assert_true(tools_policy_read_only(ro));
    assert_false(tools_policy_read_only(plain));
    cJSON_Delete(ro);
    cJSON_Delete(destr);
    cJSON_Delete(plain);
}

static void test_server_rules(void **state)
{
    (void) state;
    struct tools_policy_rule rules[] = {{(char *) "delete-*", TOOLS_POLICY_DENY, NULL},
                                        {(char *) "*", TOOLS_POLICY_ASK, NULL}};
    struct tools_server_config srv;
    memset(&srv, 0, sizeof srv);
    srv.name = (char *) "my-crm";
    srv.policy = rules;
    srv.npolicy = 2;
    char *src;
    expect("deny", "rule \"delete-*\" of mcpServers.my-crm.policy",
           tools_policy_decide(NULL, &srv, &CRM_DELETE, NULL, &src), &src);
    struct tools_policy_names get = {"my-crm", "my_crm", "get", "get"};
    expect("ask", "rule \"*\" of mcpServers.my-crm.policy",
           tools_policy_decide(NULL, &srv, &get, NULL, &src), &src);
    /* per-server rules rank as "my-crm.<glob>": "delete-*" has more literal
     * characters than the global "my-crm.*" */
    struct tools_policy p;
    tools_policy_init(&p);
    struct tools_policy_rule global[] = {{(char *) "my-crm.*", TOOLS_POLICY_ALLOW, NULL},
                                         {(char *) "my-crm.get", TOOLS_POLICY_ALLOW, NULL}};
    p.rules = global;
    p.nrules = 2;
    expect("deny", "rule \"delete-*\" of mcpServers.my-crm.policy",
           tools_policy_decide(&p, &srv, &CRM_DELETE, NULL, &src), &src);
    /* the same rank ("my-crm.*" and the per-server "*"): the stricter one */
    struct tools_policy_names put = {"my-crm", "my_crm", "put", "put"};
    expect("ask", "rule \"*\" of mcpServers.my-crm.policy",
           tools_policy_decide(&p, &srv, &put, NULL, &src), &src);
    /* the exact global rule is more specific than the per-server "*" */
    expect("allow", "rule \"my-crm.get\"", tools_policy_decide(&p, &srv, &get, NULL, &src), &src);
    /* another server's entry rules do not apply to a global-only lookup */
    struct tools_policy_names elsewhere = {"other", "other", "delete-x", "delete_x"};
    expect("allow", "codemode.policy.default",
           tools_policy_decide(NULL, NULL, &elsewhere, NULL, &src), &src);
}

static void test_decision_names(void **state)
{
    (void) state;
    enum tools_policy_decision d;
    assert_int_equal(tools_policy_decision_parse("allow", &d), 0);
    assert_int_equal(d, TOOLS_POLICY_ALLOW);
    assert_int_equal(tools_policy_decision_parse("ask", &d), 0);
    assert_int_equal(d, TOOLS_POLICY_ASK);
    assert_int_equal(tools_policy_decision_parse("deny", &d), 0);
    assert_int_equal(d, TOOLS_POLICY_DENY);
    assert_int_equal(tools_policy_decision_parse("Deny", &d), -1);
    assert_int_equal(tools_policy_decision_parse("block", &d), -1);
    assert_int_equal(tools_policy_decision_parse("", &d), -1);
    assert_string_equal(tools_policy_decision_name(TOOLS_POLICY_ASK), "ask");
}

static void test_grants(void **state)
{
    (void) state;
    char *grant[] = {(char *) "my-crm.get*", (char *) "*.delete_user", NULL};
    char *none[] = {NULL};
    struct tools_policy_names get = {"my-crm", "my_crm", "get-item", "get_item"};
    struct tools_policy_names put = {"my-crm", "my_crm", "put-item", "put_item"};
    assert_true(tools_policy_granted(grant, &get));
    assert_true(tools_policy_granted(grant, &CRM_DELETE));
    assert_false(tools_policy_granted(grant, &put));
    assert_false(tools_policy_granted(none, &get)); /* an empty grant grants nothing */
}

/* The rule that lets an ask tool through when nobody can approve: added to
 * codemode.policy.rules (it then decides allow), per server for a name with
 * a dot, or the equally specific rule that asks, changed. */
static void expect_advice(const char *want, struct tools_policy *p, struct tools_server_config *srv,
                          const struct tools_policy_names *n, const cJSON *tool)
{
    char *a = tools_policy_allow_advice(p, srv, n, tool);
    assert_string_equal(a, want);
    free(a);
}

/* A rule that requires an OAuth scope: its decision for a caller holding
 * the scope, deny for one without it; a more specific rule without a
 * scope wins as before. */
static void test_scope_rules(void **state)
{
    (void) state;
    struct tools_policy_rule rules[] = {
        {(char *) "crm.*", TOOLS_POLICY_ALLOW, (char *) "crm:write"},
        {(char *) "crm.search", TOOLS_POLICY_ALLOW, NULL},
        {(char *) "crm.purge", TOOLS_POLICY_DENY, (char *) "crm:admin"},
    };
    struct tools_policy p;
    tools_policy_init(&p);
    p.rules = rules;
    p.nrules = 3;
    struct tools_policy_names del = {"crm", "crm", "delete", "delete"};
    struct tools_policy_names search = {"crm", "crm", "search", "search"};
    struct tools_policy_names purge = {"crm", "crm", "purge", "purge"};
    char *with[] = {(char *) "mcp:tools", (char *) "crm:write", NULL};
    char *without[] = {(char *) "mcp:tools", NULL};
    char *src = NULL;
    assert_string_equal(tools_policy_scope(&p, NULL, &del), "crm:write");
    assert_null(tools_policy_scope(&p, NULL, &search));
    assert_true(tools_policy_has_scope(with, "crm:write"));
    assert_false(tools_policy_has_scope(without, "crm:write"));
    assert_false(tools_policy_has_scope(NULL, "crm:write"));
    expect("allow", "rule \"crm.*\"", tools_policy_decide_scoped(&p, NULL, &del, NULL, with, &src),
           &src);
    expect("deny", "rule \"crm.*\", which needs scope \"crm:write\"",
           tools_policy_decide_scoped(&p, NULL, &del, NULL, without, &src), &src);
    expect("deny", "rule \"crm.*\", which needs scope \"crm:write\"",
           tools_policy_decide_scoped(&p, NULL, &del, NULL, NULL, &src), &src);
    expect("allow", "rule \"crm.search\"",
           tools_policy_decide_scoped(&p, NULL, &search, NULL, without, &src), &src);
    /* deny stays deny with the scope */
    char *admin[] = {(char *) "crm:admin", NULL};
    expect("deny", "rule \"crm.purge\"",
           tools_policy_decide_scoped(&p, NULL, &purge, NULL, admin, &src), &src);
}

/* The rules alone (a server whose tools are not known yet): a matching
 * rule decides, with its scope; no rule leaves UNSET (the default and the
 * annotations wait for the tool) and no source. */
static void test_rules_alone(void **state)
{
    (void) state;
    struct tools_policy_rule rules[] = {
        {(char *) "crm.*", TOOLS_POLICY_ALLOW, (char *) "crm:write"},
        {(char *) "crm.purge*", TOOLS_POLICY_DENY, NULL},
    };
    struct tools_policy p;
    tools_policy_init(&p);
    p.default_decision = TOOLS_POLICY_DENY;
    p.rules = rules;
    p.nrules = 2;
    struct tools_policy_names purge = {"crm", "crm", "purge_all", "purge_all"};
    struct tools_policy_names del = {"crm", "crm", "delete", "delete"};
    struct tools_policy_names other = {"notes", "notes", "x", "x"};
    char *with[] = {(char *) "crm:write", NULL};
    char *src = NULL;
    expect("deny", "rule \"crm.purge*\"", tools_policy_rules_decide(&p, NULL, &purge, with, &src),
           &src);
    expect("allow", "rule \"crm.*\"", tools_policy_rules_decide(&p, NULL, &del, with, &src), &src);
    expect("deny", "rule \"crm.*\", which needs scope \"crm:write\"",
           tools_policy_rules_decide(&p, NULL, &del, NULL, &src), &src);
    src = NULL;
    assert_int_equal(tools_policy_rules_decide(&p, NULL, &other, with, &src), TOOLS_POLICY_UNSET);
    assert_null(src);
}

static void test_allow_advice(void **state)
{
    (void) state;
    cJSON *destr = cJSON_Parse("{\"annotations\": {\"destructiveHint\": true}}");
    struct tools_policy_names wf = {"files", "files", "write_file", "write_file"};
    expect_advice("add \"files.write_file\": \"allow\" to codemode.policy.rules", NULL, NULL, &wf,
                  destr);
    /* a broader ask rule loses to the exact allow */
    struct tools_policy p;
    tools_policy_init(&p);
    struct tools_policy_rule global[] = {{(char *) "files.*", TOOLS_POLICY_ASK, NULL},
                                         {(char *) "*", TOOLS_POLICY_ASK, NULL}};
    p.rules = global;
    p.nrules = 2;
    expect_advice("add \"files.write_file\": \"allow\" to codemode.policy.rules", &p, NULL, &wf,
                  NULL);
    /* an exact ask rule ties with it and wins: change it */
    struct tools_policy_rule exact[] = {{(char *) "files.write_file", TOOLS_POLICY_ASK, NULL}};
    p.rules = exact;
    p.nrules = 1;
    expect_advice("change rule \"files.write_file\" to \"allow\"", &p, NULL, &wf, NULL);
    struct tools_policy_rule per[] = {{(char *) "write_file", TOOLS_POLICY_ASK, NULL}};
    struct tools_server_config srv;
    memset(&srv, 0, sizeof srv);
    srv.name = (char *) "files";
    srv.policy = per;
    srv.npolicy = 1;
    expect_advice("change rule \"write_file\" of mcpServers.files.policy to \"allow\"", NULL, &srv,
                  &wf, NULL);
    /* a server name with a dot cannot be named in codemode.policy.rules */
    struct tools_policy_names dotted = {"a.b", "a_b", "rm \"x\"", "rm__x_"};
    expect_advice("add \"rm \\\"x\\\"\": \"allow\" to mcpServers[\"a.b\"].policy", NULL, NULL,
                  &dotted, destr);
    /* the advice holds: with the rule added, the tool is allowed */
    struct tools_policy_rule added[] = {{(char *) "files.write_file", TOOLS_POLICY_ALLOW, NULL},
                                        {(char *) "files.*", TOOLS_POLICY_ASK, NULL}};
    p.rules = added;
    p.nrules = 2;
    assert_int_equal(tools_policy_decide(&p, NULL, &wf, destr, NULL), TOOLS_POLICY_ALLOW);
    cJSON_Delete(destr);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pattern_problems),
        cmocka_unit_test(test_glob),
        cmocka_unit_test(test_names_either_spelling),
        cmocka_unit_test(test_specificity),
        cmocka_unit_test(test_defaults_from_annotations),
        cmocka_unit_test(test_server_rules),
        cmocka_unit_test(test_decision_names),
        cmocka_unit_test(test_grants),
        cmocka_unit_test(test_allow_advice),
        cmocka_unit_test(test_scope_rules),
        cmocka_unit_test(test_rules_alone),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
