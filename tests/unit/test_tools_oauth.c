/* Unit tests of tools/oauth/: WWW-Authenticate parsing (several challenges,
 * quoted strings with escapes, token68, malformed and oversized headers),
 * the discovery URL orders (RFC 9728 paths, RFC 8414/OIDC path insertion of
 * MCP 2025-11-25), the metadata checks (issuer identity, S256, HTTPS except
 * loopback), PKCE S256 (RFC 7636 appendix B), the OAuth rows of the
 * state store (compare-and-set, delete, mode 0600), the token source of a
 * running server (the stored token read off the loop, its answer never
 * inside the call, freed with a read in flight), and client
 * authentication at the token endpoint (method choice, RFC 6749 2.3.1
 * encoding of client_secret_basic, client_secret_post, key file errors). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tools/oauth/challenge.h"
#include "tools/oauth/client_auth.h"
#include "common/buf.h"
#include "tools/oauth/metadata.h"
#include "tools/oauth/pkce.h"
#include "tools/oauth/tokens.h"
#include "tools/server_config.h"
#include "tools/state/store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <uv.h>

static void test_challenge_bearer(void **state)
{
    (void) state;
    struct tools_oauth_challenge c;
    assert_int_equal(tools_oauth_challenge_parse(
                         "Basic realm=\"x\", Bearer realm=\"mcp\", error=\"invalid_token\", "
                         "resource_metadata=\"https://a.example/.well-known/oauth-protected-"
                         "resource\", scope=\"files:read files:write\"",
                         &c),
                     0);
    assert_true(c.bearer);
    assert_string_equal(c.resource_metadata,
                        "https://a.example/.well-known/oauth-protected-resource");
    assert_string_equal(c.scope, "files:read files:write");
    assert_string_equal(c.error, "invalid_token");
    tools_oauth_challenge_free(&c);
    /* escapes, token values, case-insensitive names, another scheme after */
    assert_int_equal(tools_oauth_challenge_parse("bearer SCOPE=a, error_description=\"say "
                                                 "\\\"no\\\"\", Negotiate abc==",
                                                 &c),
                     0);
    assert_string_equal(c.scope, "a");
    assert_string_equal(c.error_description, "say \"no\"");
    tools_oauth_challenge_free(&c);
    /* the parameters of other schemes are not taken */
    assert_int_equal(tools_oauth_challenge_parse("DPoP scope=\"x\", Bearer", &c), 0);
    assert_true(c.bearer);
    assert_null(c.scope);
    tools_oauth_challenge_free(&c);
}

static void test_challenge_bad(void **state)
{
    (void) state;
    struct tools_oauth_challenge c;
    assert_int_equal(tools_oauth_challenge_parse("Bearer scope=\"unterminated", &c), -1);
    assert_null(c.scope);
    assert_int_equal(tools_oauth_challenge_parse("Bearer scope=\"a\" junk", &c), -1);
    char *big = malloc(TOOLS_OAUTH_CHALLENGE_MAX + 10);
    memset(big, 'a', TOOLS_OAUTH_CHALLENGE_MAX + 9);
    big[TOOLS_OAUTH_CHALLENGE_MAX + 9] = '\0';
    assert_int_equal(tools_oauth_challenge_parse(big, &c), -1);
    free(big);
    assert_int_equal(tools_oauth_challenge_parse(NULL, &c), 0);
    assert_false(c.bearer);
}

static void expect_vector(char **v, const char *const *want)
{
    assert_non_null(v);
    size_t i = 0;
    for (; want[i]; i++) {
        assert_non_null(v[i]);
        assert_string_equal(v[i], want[i]);
    }
    assert_null(v[i]);
    tools_oauth_free_vector(v);
}

static void test_urls(void **state)
{
    (void) state;
    const char *prm[] = {"https://example.com/.well-known/oauth-protected-resource/public/mcp",
                         "https://example.com/.well-known/oauth-protected-resource", NULL};
    expect_vector(tools_oauth_prm_urls("HTTPS://Example.com/public/mcp?x=1"), prm);
    const char *root[] = {"http://127.0.0.1:8080/.well-known/oauth-protected-resource", NULL};
    expect_vector(tools_oauth_prm_urls("http://127.0.0.1:8080/"), root);
    const char *tenant[] = {
        "https://auth.example.com/.well-known/oauth-authorization-server/tenant1",
        "https://auth.example.com/.well-known/openid-configuration/tenant1",
        "https://auth.example.com/tenant1/.well-known/openid-configuration", NULL};
    expect_vector(tools_oauth_as_urls("https://auth.example.com/tenant1"), tenant);
    const char *plain[] = {"https://auth.example.com/.well-known/oauth-authorization-server",
                           "https://auth.example.com/.well-known/openid-configuration", NULL};
    expect_vector(tools_oauth_as_urls("https://auth.example.com"), plain);
    assert_null(tools_oauth_as_urls("https://auth.example.com/?q"));
    assert_null(tools_oauth_as_urls("ftp://auth.example.com"));
    assert_null(tools_oauth_prm_urls("https://user@evil.example/"));
    char *c = tools_oauth_canonical_uri("HTTPS://MCP.Example.com/");
    assert_string_equal(c, "https://mcp.example.com");
    free(c);
    c = tools_oauth_canonical_uri("https://mcp.example.com/Server/mcp#frag");
    assert_string_equal(c, "https://mcp.example.com/Server/mcp");
    free(c);
}

static void test_url_ok(void **state)
{
    (void) state;
    char why[300];
    assert_true(tools_oauth_url_ok("https://a.example/token", why, sizeof why));
    assert_true(tools_oauth_url_ok("http://127.0.0.1:9000/token", why, sizeof why));
    assert_true(tools_oauth_url_ok("http://localhost/token", why, sizeof why));
    assert_true(tools_oauth_url_ok("http://[::1]:80/token", why, sizeof why));
    assert_false(tools_oauth_url_ok("http://a.example/token", why, sizeof why));
    assert_non_null(strstr(why, "HTTPS is required"));
    assert_false(tools_oauth_url_ok("http://127.0.0.1.evil.example/", why, sizeof why));
    assert_false(tools_oauth_url_ok("javascript:alert(1)", why, sizeof why));
}

static cJSON *meta(const char *issuer, const char *methods)
{
    char text[1024];
    snprintf(text, sizeof text,
             "{\"issuer\":\"%s\",\"authorization_endpoint\":\"https://as.example/auth\","
             "\"token_endpoint\":\"https://as.example/token\"%s%s}",
             issuer, methods ? ",\"code_challenge_methods_supported\":" : "",
             methods ? methods : "");
    return cJSON_Parse(text);
}

static void test_as_check(void **state)
{
    (void) state;
    char why[512];
    cJSON *m = meta("https://as.example", "[\"plain\",\"S256\"]");
    assert_int_equal(tools_oauth_as_check(m, "https://as.example", why, sizeof why), 0);
    assert_int_equal(tools_oauth_as_check(m, "https://as.example/", why, sizeof why), -1);
    assert_non_null(strstr(why, "must be identical"));
    cJSON_Delete(m);
    m = meta("https://as.example", "[\"plain\"]");
    assert_int_equal(tools_oauth_as_check(m, "https://as.example", why, sizeof why), -1);
    assert_non_null(strstr(why, "S256"));
    cJSON_Delete(m);
    m = meta("https://as.example", NULL);
    assert_int_equal(tools_oauth_as_check(m, "https://as.example", why, sizeof why), -1);
    cJSON_Delete(m);
    m = cJSON_Parse("{\"issuer\":\"https://as.example\",\"authorization_endpoint\":\"http://"
                    "as.example/auth\",\"token_endpoint\":\"https://as.example/t\","
                    "\"code_challenge_methods_supported\":[\"S256\"]}");
    assert_int_equal(tools_oauth_as_check(m, "https://as.example", why, sizeof why), -1);
    assert_non_null(strstr(why, "authorization_endpoint"));
    cJSON_Delete(m);
}

static void test_prm_check(void **state)
{
    (void) state;
    char why[512];
    cJSON *p = cJSON_Parse("{\"resource\":\"https://mcp.example/mcp\",\"authorization_servers\":"
                           "[\"https://as.example\"]}");
    assert_int_equal(tools_oauth_prm_check(p, "https://mcp.example/mcp", why, sizeof why), 0);
    assert_int_equal(tools_oauth_prm_check(p, "https://other.example/mcp", why, sizeof why), -1);
    cJSON_Delete(p);
    p = cJSON_Parse("{\"authorization_servers\":[]}");
    assert_int_equal(tools_oauth_prm_check(p, "https://mcp.example/mcp", why, sizeof why), -1);
    cJSON_Delete(p);
}

static void test_pkce(void **state)
{
    (void) state;
    char out[TOOLS_OAUTH_CHALLENGE_LEN + 1];
    /* RFC 7636 appendix B */
    tools_oauth_pkce_challenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk", out);
    assert_string_equal(out, "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM");
    struct tools_oauth_pkce a, b;
    tools_oauth_pkce_new(&a);
    tools_oauth_pkce_new(&b);
    assert_int_equal(strlen(a.verifier), TOOLS_OAUTH_VERIFIER_LEN);
    assert_string_not_equal(a.verifier, b.verifier);
    assert_string_not_equal(a.state, b.state);
    assert_int_equal(strspn(a.verifier, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                        "0123456789-_"),
                     TOOLS_OAUTH_VERIFIER_LEN);
    tools_oauth_pkce_challenge(a.verifier, out);
    assert_string_equal(out, a.challenge);
}

static void test_store_rows(void **state)
{
    (void) state;
    char dir[] = "/tmp/oauth-store-XXXXXX", path[128], err[TOOLS_STATE_ERR_MAX];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/state.db", dir);
    struct tools_state_options o = {.path = path};
    struct tools_state *s = tools_state_new(&o), *t = tools_state_new(&o);
    int64_t v = 0, v2 = 0;
    char *json = NULL;
    assert_int_equal(tools_state_oauth_get(s, "token", "https://x", &json, &v, err),
                     TOOLS_STATE_ABSENT);
    assert_int_equal(tools_state_oauth_put(s, "token", "https://x", "{\"a\":1}", 0, &v, err), 0);
    assert_int_equal(v, 1);
    /* two writers that read version 1: the second loses and must re-read */
    assert_int_equal(tools_state_oauth_put(s, "token", "https://x", "{\"a\":2}", 1, &v, err), 0);
    assert_int_equal(tools_state_oauth_put(t, "token", "https://x", "{\"a\":3}", 1, &v2, err),
                     TOOLS_STATE_CONFLICT);
    assert_int_equal(tools_state_oauth_get(t, "token", "https://x", &json, &v2, err), 0);
    assert_string_equal(json, "{\"a\":2}");
    assert_int_equal(v2, 2);
    free(json);
    /* programs' keys do not see the row */
    assert_int_equal(tools_state_get(s, "", "https://x", &json, &v, err), TOOLS_STATE_ABSENT);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0600);
    assert_int_equal(tools_state_oauth_delete(s, "token", "https://x", err), 0);
    assert_int_equal(tools_state_oauth_delete(s, "token", "https://x", err), TOOLS_STATE_ABSENT);
    assert_int_equal(tools_state_oauth_put(s, "", "k", "{}", -1, &v, err), TOOLS_STATE_INVALID);
    tools_state_free(s);
    tools_state_free(t);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

struct answered {
    int calls, ok;
};

static void on_refreshed(void *ud, int ok)
{
    struct answered *a = ud;
    a->calls++;
    a->ok = ok;
}

static void test_token_source(void **state)
{
    (void) state;
    char dir[] = "/tmp/oauth-tokens-XXXXXX", path[128], err[TOOLS_STATE_ERR_MAX];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/state.db", dir);
    struct tools_state_options o = {.path = path};
    struct tools_state *s = tools_state_new(&o);
    char row[256];
    int64_t v;
    snprintf(row, sizeof row, "{\"access_token\":\"at-1\",\"expires_at\":%lld}",
             (long long) time(NULL) + 3600);
    char *key = tools_oauth_token_key("https://mcp.example/mcp");
    assert_int_equal(tools_state_oauth_put(s, "token", key, row, -1, &v, err), 0);
    tools_state_free(s);

    uv_loop_t loop;
    uv_loop_init(&loop);
    struct tools_oauth_config cfg = {.store_path = path, .send_resource = 1};
    struct tools_server_config srv = {.name = "notes",
                                      .url = "https://mcp.example/mcp",
                                      .transport = TOOLS_TRANSPORT_HTTP,
                                      .oauth = &cfg};
    struct tools_oauth_tokens *t = tools_oauth_tokens_new(&loop, &srv);
    /* nothing read yet: the store is read by a refresh, off the loop */
    assert_null(tools_oauth_tokens_current(t));
    struct answered a = {0}, b = {0};
    tools_oauth_tokens_refresh(t, NULL, on_refreshed, &a);
    tools_oauth_tokens_refresh(t, NULL, on_refreshed, &b); /* shares the running one */
    assert_int_equal(a.calls, 0);                          /* never inside the call */
    uv_run(&loop, UV_RUN_DEFAULT);
    assert_int_equal(a.calls, 1);
    assert_int_equal(b.calls, 1);
    assert_true(a.ok);
    assert_string_equal(tools_oauth_tokens_current(t), "at-1");
    assert_false(tools_oauth_tokens_due(t, 60000));
    /* freed with a read in flight: its answer is dropped, nothing leaks */
    struct answered c = {0};
    tools_oauth_tokens_refresh(t, "at-1", on_refreshed, &c);
    uv_run(&loop, UV_RUN_NOWAIT);
    tools_oauth_tokens_free(t);
    uv_run(&loop, UV_RUN_DEFAULT);
    assert_int_equal(c.calls, 0);

    /* a server never logged in to: no token, the reason names the login */
    struct tools_server_config other = srv;
    other.url = "https://other.example/mcp";
    t = tools_oauth_tokens_new(&loop, &other);
    tools_oauth_tokens_refresh(t, NULL, on_refreshed, &a);
    uv_run(&loop, UV_RUN_DEFAULT);
    assert_int_equal(a.calls, 2);
    assert_false(a.ok);
    assert_non_null(strstr(tools_oauth_tokens_problem(t), "run: mcp-codemode login notes"));
    tools_oauth_tokens_free(t);
    uv_run(&loop, UV_RUN_DEFAULT);
    assert_int_equal(uv_loop_close(&loop), 0);
    free(key);
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

static void test_client_auth(void **state)
{
    (void) state;
    cJSON *both = cJSON_Parse("{\"token_endpoint_auth_methods_supported\":"
                              "[\"client_secret_post\",\"client_secret_basic\"]}");
    cJSON *post = cJSON_Parse("{\"token_endpoint_auth_methods_supported\":"
                              "[\"client_secret_post\",\"private_key_jwt\"]}");
    assert_string_equal(tools_oauth_auth_method(both, 1, 0), "client_secret_basic");
    assert_string_equal(tools_oauth_auth_method(post, 1, 0), "client_secret_post");
    assert_string_equal(tools_oauth_auth_method(NULL, 1, 0), "client_secret_basic");
    assert_string_equal(tools_oauth_auth_method(both, 0, 0), "none");
    assert_string_equal(tools_oauth_auth_method(both, 1, 1), "private_key_jwt");
    cJSON_Delete(both);
    cJSON_Delete(post);

    struct buf form;
    char *authz = NULL, why[256];
    buf_init(&form, 0);
    /* RFC 6749 2.3.1: form-encoded id and secret, then base64 of "id:secret" */
    assert_int_equal(tools_oauth_client_auth("client_secret_basic", "my id", "s:c/r", NULL,
                                             "https://as", &form, &authz, why, sizeof why),
                     0);
    assert_string_equal(authz, "Basic bXklMjBpZDpzJTNBYyUyRnI="); /* my%20id:s%3Ac%2Fr */
    assert_int_equal(form.len, 0);
    free(authz);
    assert_int_equal(tools_oauth_client_auth("client_secret_post", "my id", "sec", NULL,
                                             "https://as", &form, &authz, why, sizeof why),
                     0);
    assert_null(authz);
    assert_string_equal(form.data, "client_id=my%20id&client_secret=sec");
    buf_reset(&form);
    assert_int_equal(tools_oauth_client_auth("none", "pub", NULL, NULL, "https://as", &form, &authz,
                                             why, sizeof why),
                     0);
    assert_string_equal(form.data, "client_id=pub");
    buf_reset(&form);
    /* a key file that is missing, then one that holds no key */
    assert_int_equal(tools_oauth_client_auth("private_key_jwt", "c", NULL, "/nonexistent/key.pem",
                                             "https://as", &form, &authz, why, sizeof why),
                     -1);
    assert_non_null(strstr(why, "cannot read its privateKeyFile /nonexistent/key.pem"));
    char path[] = "/tmp/test-oauth-key-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, "not a key\n", 10), 10);
    close(fd);
    buf_reset(&form);
    assert_int_equal(tools_oauth_client_auth("private_key_jwt", "c", NULL, path, "https://as",
                                             &form, &authz, why, sizeof why),
                     -1);
    assert_non_null(strstr(why, "holds no unencrypted PEM private key"));
    unlink(path);
    buf_free(&form);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_challenge_bearer),
        cmocka_unit_test(test_challenge_bad),
        cmocka_unit_test(test_urls),
        cmocka_unit_test(test_url_ok),
        cmocka_unit_test(test_as_check),
        cmocka_unit_test(test_prm_check),
        cmocka_unit_test(test_pkce),
        cmocka_unit_test(test_store_rows),
        cmocka_unit_test(test_token_source),
        cmocka_unit_test(test_client_auth),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
