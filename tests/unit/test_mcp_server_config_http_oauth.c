/* Unit tests of codemode.http.oauth and codemode.http.publicUrl
 * (mcp-server/config/http_oauth.c) and of policy rules that require a
 * scope (mcp-server/config/policy.c): every member read, ${VAR} in the
 * introspection secret, the defaults, and the errors with their positions
 * (no issuer, bad URLs and scopes, half the introspection credentials,
 * authToken and oauth together, in the file and through the override). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "mcp-server/config/config.h"
#include "support/config_file.h"

#include <stdlib.h>
#include <string.h>

static void test_every_member(void **state)
{
    (void) state;
    setenv("OAUTH_TEST_SECRET", "s3cret", 1);
    struct config c;
    char *err = NULL;
    int r = config_file_load(
        &c,
        "{\"codemode\": {\"http\": {\"publicUrl\": \"https://mcp.example.com/mcp\", \"oauth\": {"
        "\"issuer\": \"https://auth.example.com/realms/team\", \"audience\": \"api://codemode\", "
        "\"jwksUri\": \"https://auth.example.com/certs\", \"introspection\": {\"url\": "
        "\"https://auth.example.com/introspect\", \"clientId\": \"codemode\", \"clientSecret\": "
        "\"${OAUTH_TEST_SECRET}\"}, \"requiredScopes\": [\"mcp:tools\"], \"scopesSupported\": "
        "[\"mcp:tools\", \"crm:write\"], \"clockSkewSeconds\": 30}}}}",
        &err);
    if (r != 0)
        print_error("%s\n", err);
    assert_int_equal(r, 0);
    const struct config_http_oauth *o = &c.http_oauth;
    assert_true(o->enabled);
    assert_string_equal(c.http_public_url, "https://mcp.example.com/mcp");
    assert_string_equal(o->issuer, "https://auth.example.com/realms/team");
    assert_string_equal(o->audience, "api://codemode");
    assert_string_equal(o->jwks_uri, "https://auth.example.com/certs");
    assert_string_equal(o->introspection_url, "https://auth.example.com/introspect");
    assert_string_equal(o->introspection_client_id, "codemode");
    assert_string_equal(o->introspection_client_secret, "s3cret");
    assert_string_equal(o->required_scopes[0], "mcp:tools");
    assert_null(o->required_scopes[1]);
    assert_string_equal(o->scopes_supported[1], "crm:write");
    assert_int_equal(o->clock_skew_seconds, 30);
    assert_int_equal(c.nwarnings, 0);
    config_free(&c);
    unsetenv("OAUTH_TEST_SECRET");
}

static void test_defaults(void **state)
{
    (void) state;
    struct config c;
    char *err = NULL;
    assert_int_equal(config_file_load(&c,
                                      "{\"codemode\": {\"http\": {\"oauth\": {\"issuer\": "
                                      "\"http://127.0.0.1:8080\"}}}}",
                                      &err),
                     0);
    assert_true(c.http_oauth.enabled);
    assert_null(c.http_oauth.audience); /* publicUrl, else the bound URL's /mcp */
    assert_null(c.http_oauth.jwks_uri); /* from the issuer's metadata */
    assert_null(c.http_oauth.introspection_url);
    assert_null(c.http_oauth.required_scopes);
    assert_int_equal(c.http_oauth.clock_skew_seconds, 60);
    assert_null(c.http_public_url);
    config_free(&c);
    config_init(&c);
    assert_false(c.http_oauth.enabled);
    config_free(&c);
}

static void test_errors(void **state)
{
    (void) state;
    config_file_expect_error("{\"codemode\": {\"http\": {\"oauth\": {}}}}",
                             "config.json:1:33: codemode.http.oauth: \"issuer\" is required: the "
                             "authorization server whose tokens this server accepts, such as "
                             "https://auth.example.com/realms/team");
    config_file_expect_error(
        "{\"codemode\": {\"http\": {\"oauth\": {\"issuer\": \"auth.example.com\"}}}}",
        "config.json:1:44: codemode.http.oauth.issuer: \"auth.example.com\" is not an "
        "http(s) URL such as https://auth.example.com/realms/team (no fragment or "
        "query, no spaces)");
    config_file_expect_error(
        "{\"codemode\": {\"http\": {\"publicUrl\": \"https://x/mcp#f\"}}}",
        "config.json:1:37: codemode.http.publicUrl: \"https://x/mcp#f\" is not an "
        "http(s) URL such as https://mcp.example.com/mcp (no fragment or query, no "
        "spaces)");
    config_file_expect_error(
        "{\"codemode\": {\"http\": {\"oauth\": {\"issuer\": \"https://a\", "
        "\"requiredScopes\": [\"mcp tools\"]}}}}",
        "config.json:1:76: codemode.http.oauth.requiredScopes[0]: \"mcp tools\" is not "
        "a scope (printable ASCII without spaces, quotes or backslashes, such as "
        "\"mcp:tools\")");
    config_file_expect_error(
        "{\"codemode\": {\"http\": {\"oauth\": {\"issuer\": \"https://a\", "
        "\"introspection\": {\"url\": \"https://a/i\", \"clientId\": \"x\"}}}}}",
        "config.json:1:74: codemode.http.oauth.introspection: clientId and clientSecret "
        "go together: the credentials this server presents to the introspection "
        "endpoint");
    config_file_expect_error(
        "{\"codemode\": {\"http\": {\"oauth\": {\"issuer\": \"https://a\", "
        "\"clockSkewSeconds\": 3600}}}}",
        "config.json:1:77: codemode.http.oauth.clockSkewSeconds: expected an integer "
        "from 0 to 600, got 3600");
    config_file_expect_error(
        "{\"codemode\": {\"http\": {\"authToken\": \"t\", \"oauth\": {\"issuer\": "
        "\"https://a\"}}}}",
        "config.json:1:42: codemode.http: authToken and oauth exclude each other: one "
        "shared token, or a token per user from the authorization server; remove one "
        "of them");
}

static void test_override_token_with_oauth(void **state)
{
    (void) state;
    struct config c;
    char *err = NULL;
    assert_int_equal(
        config_file_load(&c, "{\"codemode\": {\"http\": {\"oauth\": {\"issuer\": \"https://a\"}}}}",
                         &err),
        0);
    assert_int_equal(config_override(&c, "http.authToken", "t", &err), -1);
    assert_string_equal(err, "http.authToken: authToken and oauth exclude each other: one shared "
                             "token, or a token per user from the authorization server; remove "
                             "one of them");
    assert_null(c.http_auth_token); /* unchanged on error */
    free(err);
    config_free(&c);
}

static void test_scoped_rules(void **state)
{
    (void) state;
    struct config c;
    char *err = NULL;
    int r = config_file_load(
        &c,
        "{\"codemode\": {\"policy\": {\"rules\": {\"crm.*\": {\"decision\": \"allow\", \"scope\": "
        "\"crm:write\"}, \"crm.search\": \"allow\"}}}, \"mcpServers\": {\"crm\": {\"command\": "
        "\"x\", \"policy\": {\"purge\": {\"decision\": \"ask\", \"scope\": \"crm:admin\"}}}}}",
        &err);
    if (r != 0)
        print_error("%s\n", err);
    assert_int_equal(r, 0);
    assert_int_equal(c.policy.nrules, 2);
    assert_string_equal(c.policy.rules[0].scope, "crm:write");
    assert_int_equal(c.policy.rules[0].decision, TOOLS_POLICY_ALLOW);
    assert_null(c.policy.rules[1].scope);
    assert_string_equal(c.servers[0].policy[0].scope, "crm:admin");
    assert_int_equal(c.servers[0].policy[0].decision, TOOLS_POLICY_ASK);
    config_free(&c);
    config_file_expect_error(
        "{\"codemode\": {\"policy\": {\"rules\": {\"crm.*\": {\"scope\": \"x\"}}}}}",
        "config.json:1:45: codemode.policy.rules[\"crm.*\"]: \"decision\" is required "
        "(allow, ask or deny), as in {\"decision\": \"allow\", \"scope\": \"crm:write\"}");
    config_file_expect_error(
        "{\"codemode\": {\"policy\": {\"rules\": {\"crm.*\": {\"decision\": \"allow\", "
        "\"scope\": \"a b\"}}}}}",
        "config.json:1:76: codemode.policy.rules[\"crm.*\"].scope: \"a b\" is not an "
        "OAuth scope (printable ASCII without spaces, quotes or backslashes, such as "
        "\"crm:write\")");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_member), cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_errors),       cmocka_unit_test(test_override_token_with_oauth),
        cmocka_unit_test(test_scoped_rules),
    };
    return cmocka_run_group_tests(tests, config_file_setup, config_file_teardown);
}
