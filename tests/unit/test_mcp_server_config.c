/* Unit tests of the configuration loader (mcp-server/config/): real Claude
 * Desktop files, every error path with its exact message and position,
 * ${VAR} expansion, transport inference, self-launch detection, tool globs,
 * defaults and overrides. Fixtures: tests/fixtures/config/. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "mcp-server/config/config.h"
#include "tools/declarations/declarations.h"
#include "mcp-server/config/expand.h"

#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define FIX "tests/fixtures/config/"

static char tmpdir[] = "/tmp/mcp-config-test-XXXXXX";
static char cfg_path[PATH_MAX];

/* --- helpers ------------------------------------------------------------------ */

static void write_bytes(const char *path, const char *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(data, 1, len, f), len);
    assert_int_equal(fclose(f), 0);
}

/* Messages about the temporary file read "config.json:..." in the tests. */
static const char *rel(const char *msg)
{
    size_t n = strlen(tmpdir);
    if (msg != NULL && strncmp(msg, tmpdir, n) == 0 && msg[n] == '/')
        return msg + n + 1;
    return msg;
}

static int load(struct config *c, const char *json, char **err)
{
    write_bytes(cfg_path, json, strlen(json));
    config_init(c);
    *err = NULL;
    return config_load(c, cfg_path, err);
}

static void expect_error(const char *json, const char *want)
{
    struct config c;
    char *err;
    int r = load(&c, json, &err);
    if (r != -1 || err == NULL || strcmp(rel(err), want) != 0)
        print_error("json: %s\nwant: %s\ngot:  %s (r=%d)\n", json, want, err ? rel(err) : "(null)",
                    r);
    assert_int_equal(r, -1);
    assert_non_null(err);
    assert_string_equal(rel(err), want);
    free(err);
    config_free(&c);
}

/* Loads json successfully and checks the list of warnings exactly. */
static void expect_warnings(const char *json, const char *const *want)
{
    struct config c;
    char *err;
    int r = load(&c, json, &err);
    if (r != 0)
        print_error("unexpected error: %s\n", rel(err));
    assert_int_equal(r, 0);
    size_t n = 0;
    for (; want[n]; n++) {
        if (n >= c.nwarnings)
            print_error("missing warning: %s\n", want[n]);
        assert_true(n < c.nwarnings);
        assert_string_equal(rel(c.warnings[n]), want[n]);
    }
    for (size_t k = n; k < c.nwarnings; k++)
        print_error("extra warning: %s\n", rel(c.warnings[k]));
    assert_int_equal(c.nwarnings, n);
    assert_null(c.warnings ? c.warnings[n] : NULL);
    config_free(&c);
}

static struct tools_server_config *server(struct config *c, const char *name)
{
    for (size_t i = 0; i < c->nservers; i++)
        if (strcmp(c->servers[i].name, name) == 0)
            return &c->servers[i];
    fail_msg("no server %s", name);
    return NULL;
}

static size_t count(char **list)
{
    size_t n = 0;
    while (list && list[n])
        n++;
    return n;
}

/* --- defaults and real files ------------------------------------------------ */

static void test_defaults(void **state)
{
    struct config c;
    config_init(&c);
    assert_null(c.path);
    assert_int_equal(c.nservers, 0);
    assert_int_equal(c.limits.pool_size, 2);
    assert_int_equal(c.limits.timeout_ms, 30000);
    assert_int_equal(c.limits.max_timeout_ms, 300000);
    assert_int_equal(c.limits.memory_bytes, 64 * 1024 * 1024);
    assert_int_equal(c.limits.max_result_bytes, 1048576);
    assert_int_equal(c.limits.max_log_bytes, 262144);
    assert_int_equal(c.limits.max_message_bytes, 16777216);
    assert_int_equal(c.limits.max_tool_calls, 1000);
    assert_int_equal(c.limits.max_concurrent_calls, 256);
    assert_int_equal(c.limits.call_timeout_ms, 60000);
    assert_int_equal(c.limits.declarations_budget, TOOLS_DECLARATIONS_BUDGET_DEFAULT);
    assert_null(c.declarations_preferred);
    assert_null(c.log_level);
    assert_null(c.http_listen);
    assert_null(c.http_auth_token);
    assert_null(c.http_allowed_origins);
    assert_null(c.warnings);
    assert_int_equal(c.nwarnings, 0);
    config_free(&c);
}

static void test_claude_desktop_file(void **state)
{
    struct config c;
    char *err = NULL;
    config_init(&c);
    assert_int_equal(config_load(&c, FIX "claude_desktop.json", &err), 0);
    assert_null(err);
    assert_string_equal(c.path, FIX "claude_desktop.json");
    assert_int_equal(c.nservers, 4);
    struct tools_server_config *fs = server(&c, "filesystem");
    assert_int_equal(fs->transport, TOOLS_TRANSPORT_STDIO);
    assert_string_equal(fs->command, "npx");
    assert_int_equal(count(fs->args), 4);
    assert_string_equal(fs->args[3], "/Users/alice/Downloads");
    assert_null(fs->env);
    assert_null(fs->cwd);
    assert_null(fs->allow_tools);
    assert_int_equal(fs->launches_self, 0);
    assert_string_equal(server(&c, "github")->env[0], "GITHUB_PERSONAL_ACCESS_TOKEN=<YOUR_TOKEN>");
    struct tools_server_config *w = server(&c, "weather");
    assert_string_equal(w->cwd, "C:/Users/alice/weather");
    assert_string_equal(w->env[0], "API_KEY=pa$$word-$HOME"); /* a lone $ is literal */
    assert_int_equal(c.nwarnings, 3);
    assert_string_equal(c.warnings[0], FIX "claude_desktop.json:2:3: globalShortcut: not an "
                                           "mcp-codemode setting, ignored");
    assert_string_equal(c.warnings[2], FIX "claude_desktop.json:32:3: preferences: not an "
                                           "mcp-codemode setting, ignored");
    for (size_t i = 0; i < c.nwarnings; i++)
        assert_int_equal(c.warning_kinds[i], CONFIG_WARNING_IGNORED);
    assert_int_equal(c.limits.pool_size, 2);
    config_free(&c);
}

static void test_full_example(void **state)
{
    struct config c;
    char *err = NULL;
    setenv("GITHUB_TOKEN", "ghp_123", 1);
    setenv("TOKEN", "abc", 1);
    setenv("CODEMODE_TOKEN", "s3cret", 1);
    config_init(&c);
    assert_int_equal(config_load(&c, FIX "full.json", &err), 0);
    assert_int_equal(c.nwarnings, 0);
    assert_int_equal(c.nservers, 3);
    struct tools_server_config *gh = &c.servers[0], *remote = &c.servers[1], *legacy = &c.servers[2];
    assert_string_equal(gh->name, "github");
    assert_string_equal(gh->env[0], "GITHUB_TOKEN=ghp_123");
    assert_string_equal(gh->cwd, "/tmp");
    assert_int_equal(count(gh->allow_tools), 2);
    assert_string_equal(gh->deny_tools[0], "delete_*");
    assert_int_equal(gh->timeout_ms, 20000);
    assert_int_equal(gh->disabled, 0);
    assert_int_equal(remote->transport, TOOLS_TRANSPORT_HTTP);
    assert_string_equal(remote->url, "https://example.com/mcp");
    assert_string_equal(remote->headers[0], "Authorization: Bearer abc");
    assert_null(remote->headers[1]);
    assert_null(remote->command);
    assert_int_equal(legacy->transport, TOOLS_TRANSPORT_SSE);
    assert_null(legacy->headers);
    assert_string_equal(c.log_level, "warning");
    assert_string_equal(c.http_listen, "127.0.0.1:8080");
    assert_string_equal(c.http_auth_token, "s3cret");
    assert_string_equal(c.http_allowed_origins[0], "http://localhost:6274");
    assert_null(c.http_allowed_origins[1]);
    config_free(&c);
    unsetenv("GITHUB_TOKEN");
    unsetenv("TOKEN");
    unsetenv("CODEMODE_TOKEN");
}

static void test_codemode_values(void **state)
{
    struct config c;
    char *err = NULL;
    config_init(&c);
    assert_int_equal(config_load(&c, FIX "overrides.json", &err), 0);
    assert_int_equal(c.limits.pool_size, 8);
    assert_int_equal(c.limits.timeout_ms, 5000);
    assert_int_equal(c.limits.max_timeout_ms, 60000);
    assert_int_equal(c.limits.memory_bytes, 256u * 1024 * 1024);
    assert_int_equal(c.limits.max_result_bytes, 2048);
    assert_int_equal(c.limits.max_log_bytes, 0);
    assert_int_equal(c.limits.max_message_bytes, 65536);
    assert_int_equal(c.limits.max_tool_calls, 0);
    assert_int_equal(c.limits.max_concurrent_calls, 1);
    assert_int_equal(c.limits.call_timeout_ms, 1);
    assert_int_equal(c.limits.declarations_budget, 0);
    assert_string_equal(c.log_level, "debug"); /* names are case-insensitive, stored canonical */
    config_free(&c);
}


static void test_declarations_block(void **state)
{
    (void) state;
    struct config c;
    char *err;
    /* tokens, and the preferred patterns */
    assert_int_equal(load(&c, "{\"codemode\": {\"declarations\": {\"budget\": 5000, \"preferred\": "
                              "[\"github.*\", \"files.read_file\"]}}}", &err), 0);
    assert_int_equal(c.limits.declarations_budget, 5000);
    assert_string_equal(c.declarations_preferred[0], "github.*");
    assert_string_equal(c.declarations_preferred[1], "files.read_file");
    assert_null(c.declarations_preferred[2]);
    config_free(&c);
    /* the deprecated byte form: bytes / 4, rounded up; the token form wins over it */
    assert_int_equal(load(&c, "{\"codemode\": {\"declarationsBudget\": 32766}}", &err), 0);
    assert_int_equal(c.limits.declarations_budget, 8192);
    config_free(&c);
    assert_int_equal(load(&c, "{\"codemode\": {\"declarationsBudget\": 100, \"declarations\": "
                              "{\"budget\": 7}}}", &err), 0);
    assert_int_equal(c.limits.declarations_budget, 7);
    config_free(&c);
    expect_error("{\"codemode\": {\"declarations\": {\"budget\": -1}}}",
                 "config.json:1:42: codemode.declarations.budget: expected an integer from 0 to "
                 "4194304, got -1");
    expect_error("{\"codemode\": {\"declarations\": {\"preferred\": [\"x\"]}}}",
                 "config.json:1:46: codemode.declarations.preferred[0]: no server part (expected "
                 "\"server.tool\", \"server.*\" or \"*\")");
    /* command-line flags */
    config_init(&c);
    assert_int_equal(config_override(&c, "declarations.budget", "300", &err), 0);
    assert_int_equal(c.limits.declarations_budget, 300);
    assert_int_equal(config_override(&c, "declarationsBudget", "400", &err), 0);
    assert_int_equal(c.limits.declarations_budget, 100);
    assert_int_equal(config_override(&c, "declarations.budget", "x", &err), -1);
    free(err);
    config_free(&c);
}

static void test_no_servers(void **state)
{
    static const char *const none[] = {NULL};
    struct config c;
    char *err;
    expect_warnings("{}", none);
    assert_int_equal(load(&c, "{\"mcpServers\": {}}", &err), 0);
    assert_int_equal(c.nservers, 0);
    config_free(&c);
}

static void test_bom(void **state)
{
    struct config c;
    char *err = NULL;
    config_init(&c);
    assert_int_equal(config_load(&c, FIX "bom.json", &err), 0);
    assert_int_equal(c.nservers, 1);
    assert_string_equal(c.servers[0].args[2], "/tmp");
    config_free(&c);
    /* positions count from the first character after the BOM */
    expect_error("\xEF\xBB\xBF{\"mcpServers\": 5}", "config.json:1:16: mcpServers: expected an "
                                                    "object, got 5");
}

static void test_vscode_servers_key(void **state)
{
    struct config c;
    char *err = NULL;
    config_init(&c);
    assert_int_equal(config_load(&c, FIX "vscode.json", &err), 0);
    assert_int_equal(c.nservers, 0);
    assert_int_equal(c.nwarnings, 2);
    assert_string_equal(c.warnings[1], FIX "vscode.json:3:3: servers: ignored: servers are read "
                                           "from \"mcpServers\" (Claude Desktop's format)");
    assert_int_equal(c.warning_kinds[1], CONFIG_WARNING);
    config_free(&c);
}

/* --- file-level errors -------------------------------------------------------- */

static void expect_file_error(const char *path, const char *want)
{
    struct config c;
    char *err = NULL;
    config_init(&c);
    assert_int_equal(config_load(&c, path, &err), -1);
    assert_string_equal(rel(err), want);
    free(err);
    config_free(&c);
}

static void test_file_errors(void **state)
{
    expect_file_error(FIX "missing.json",
                      FIX "missing.json: cannot open: No such file or directory");
    expect_file_error("tests/fixtures/config", "tests/fixtures/config: is a directory, expected a "
                                               "JSON file");
    expect_file_error(FIX "full.json/x", FIX "full.json/x: cannot open: Not a directory");
    expect_file_error(FIX "empty.json", FIX "empty.json: empty file: expected a JSON object");
    expect_file_error("/dev/null", "/dev/null: empty file: expected a JSON object");
    /* not a regular file: the cap is enforced while reading */
    expect_file_error("/dev/zero", "/dev/zero: file too large (the limit is 16 MiB)");
    expect_file_error(FIX "whitespace.json", FIX "whitespace.json: empty file: expected a JSON "
                                                 "object");
    expect_file_error(FIX "array.json", FIX "array.json:1:1: expected a JSON object at the top "
                                            "level, got an array");
    expect_file_error(FIX "trailing_comma.json", FIX "trailing_comma.json:3:88: invalid JSON: "
                                                     "trailing comma (not allowed in JSON)");
}

static void test_huge_file(void **state)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/huge.json", tmpdir);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    assert_true(fd >= 0);
    assert_int_equal(ftruncate(fd, 16 * 1024 * 1024 + 1), 0); /* sparse: cheap */
    close(fd);
    expect_file_error(path, "huge.json: file too large (the limit is 16 MiB)");
    unlink(path);
}

static void test_unreadable_file(void **state)
{
    if (geteuid() == 0)
        skip(); /* root reads anything */
    chmod(cfg_path, 0);
    expect_file_error(cfg_path, "config.json: cannot open: Permission denied");
    chmod(cfg_path, 0600);
}

/* --- JSON syntax -------------------------------------------------------------- */

static void test_syntax_errors(void **state)
{
    expect_error("{\n  \"mcpServers\": {},\n}",
                 "config.json:2:19: invalid JSON: trailing comma (not allowed in JSON)");
    expect_error("{\"a\": [1, 2,]}", "config.json:1:12: invalid JSON: trailing comma (not allowed "
                                     "in JSON)");
    expect_error("{\n  \"a\": 1\n  \"b\": 2\n}",
                 "config.json:3:3: invalid JSON: expected ',' or '}' (missing comma?)");
    expect_error("{\n  // servers\n}", "config.json:2:3: invalid JSON: comments are not allowed "
                                       "in JSON");
    expect_error("{\"a\": \"x}", "config.json:1:7: invalid JSON: unterminated string");
    expect_error("{\"a\": \"x\n\"}", "config.json:1:7: invalid JSON: unterminated string (a string "
                                     "cannot span lines)");
    expect_error("{\"a\": \"C:\\Users\"}", "config.json:1:10: invalid JSON: invalid escape \\U "
                                           "(write \\\\ for a backslash)");
    expect_error("{'a': 1}", "config.json:1:2: invalid JSON: keys must be in double quotes");
    expect_error("{\"a\": 'x'}", "config.json:1:7: invalid JSON: strings must be in double quotes");
    expect_error("{\"a\": True}", "config.json:1:7: invalid JSON: unexpected 'T' (strings need "
                                  "double quotes; literals are true, false, null)");
    expect_error("{\"a\": 1} {}", "config.json:1:10: invalid JSON: unexpected text after the JSON "
                                  "value");
    expect_error("{\"a\": \"x\ty\"}", "config.json:1:9: invalid JSON: control character U+0009 in "
                                      "a string (escape it)");
    expect_error("{\"a\": \"x\\u0000\"}", "config.json:1:9: invalid JSON: \\u0000 is not allowed "
                                          "in a string");
    expect_error("{\"a\": \"\\ud800x\"}", "config.json:1:8: invalid JSON: unpaired surrogate in "
                                          "a \\u escape");
    expect_error("{\"a\": \"\\u12\"}", "config.json:1:8: invalid JSON: invalid \\u escape "
                                       "(expected 4 hex digits)");
    expect_error("{\"a\": \"\xff\"}", "config.json:1:8: invalid JSON: invalid UTF-8 in a string");
    expect_error("{\"a\": 01}", "config.json:1:7: invalid JSON: invalid number (no leading zeros, "
                                "one '.', one exponent)");
    expect_error("{\"a\": 1.}", "config.json:1:7: invalid JSON: invalid number");
    expect_error("{\"a\": -}", "config.json:1:7: invalid JSON: invalid number");
    expect_error("{\"a\" 1}", "config.json:1:6: invalid JSON: expected ':' after the key");
    expect_error("{\"a\": }", "config.json:1:7: invalid JSON: expected a value, found '}'");
    expect_error("{\"a\": [1", "config.json:1:9: invalid JSON: unexpected end of file, expected "
                               "',' or ']'");
    expect_error("{\"a\":", "config.json:1:6: invalid JSON: unexpected end of file, expected a "
                            "value");
    expect_error("{\"a\": 1,",
                 "config.json:1:9: invalid JSON: unexpected end of file in an object");
    expect_error("{\x0b}", "config.json:1:2: invalid JSON: unexpected byte 0x0b");
    expect_error("{\"a\": #}", "config.json:1:7: invalid JSON: unexpected character '#'");
    expect_error("\"just a string\"", "config.json:1:1: expected a JSON object at the top level, "
                                      "got \"just a string\"");
    expect_error("null", "config.json:1:1: expected a JSON object at the top level, got null");
}

static void test_columns_count_characters(void **state)
{
    /* é (2 bytes), € (3), 😀 (4): the comma is the 10th character */
    expect_error("{\"é€😀\": 1,}", "config.json:1:10: invalid JSON: trailing comma (not allowed "
                                  "in JSON)");
    /* CRLF line ends: the \r does not shift columns of the next line */
    expect_error("{\r\n  \"mcpServers\": [],\r\n  \"x\": 1\r\n}",
                 "config.json:2:17: mcpServers: expected an object, got an array");
    /* a tab is one column */
    expect_error("{\n\t\"codemode\": {\"poolSize\": 0}}",
                 "config.json:2:27: codemode.poolSize: expected an integer from 1 to 64, got 0");
}

static void test_nesting_limit(void **state)
{
    char json[2200];
    size_t n = 0;
    json[n++] = '{';
    memcpy(json + n, "\"p\":", 4);
    n += 4;
    for (int i = 0; i < 600; i++)
        json[n++] = '[';
    for (int i = 0; i < 600; i++)
        json[n++] = ']';
    json[n++] = '}';
    json[n] = '\0';
    expect_error(json, "config.json:1:517: invalid JSON: nested more than 512 levels deep");
}

/* --- types and ranges --------------------------------------------------------- */

static void test_codemode_types(void **state)
{
    expect_error("{\"codemode\": {\"poolSize\": \"two\"}}",
                 "config.json:1:27: codemode.poolSize: expected a positive integer, got \"two\"");
    expect_error("{\"codemode\": {\"poolSize\": 100}}",
                 "config.json:1:27: codemode.poolSize: expected an integer from 1 to 64, got 100");
    expect_error("{\"codemode\": {\"poolSize\": 1.5}}",
                 "config.json:1:27: codemode.poolSize: expected a positive integer, got 1.5");
    expect_error("{\"codemode\": {\"poolSize\": 2e0, \"memoryLimitMb\": 4}}",
                 "config.json:1:49: codemode.memoryLimitMb: expected an integer from 8 to 4096, "
                 "got 4");
    expect_error("{\"codemode\": {\"maxLogBytes\": -1}}",
                 "config.json:1:30: codemode.maxLogBytes: expected an integer from 0 to 67108864, "
                 "got -1");
    expect_error("{\"codemode\": {\"maxLogBytes\": null}}",
                 "config.json:1:30: codemode.maxLogBytes: expected a non-negative integer, got "
                 "null");
    expect_error("{\"codemode\": {\"timeoutMs\": 1e300}}",
                 "config.json:1:28: codemode.timeoutMs: expected an integer from 1 to 86400000, "
                 "got 1e+300");
    expect_error("{\"codemode\": {\"timeoutMs\": 400000}}",
                 "config.json:1:28: codemode.timeoutMs: 400000 is more than maxTimeoutMs (300000)");
    expect_error("{\"codemode\": {\"maxTimeoutMs\": 10000}}",
                 "config.json:1:31: codemode.maxTimeoutMs: 10000 is less than timeoutMs (30000)");
    expect_error("{\"codemode\": {\"logLevel\": \"verbose\"}}",
                 "config.json:1:27: codemode.logLevel: unknown log level \"verbose\" (expected "
                 "debug, info, notice, warning, error, critical, alert, emergency or off)");
    expect_error("{\"codemode\": {\"logLevel\": 3}}",
                 "config.json:1:27: codemode.logLevel: expected a string, got 3");
    expect_error("{\"codemode\": []}", "config.json:1:14: codemode: expected an object, got an "
                                       "array");
    expect_error(
        "{\"codemode\": {\"poolSize\": \"this is a very long string that goes on and on\"}}",
        "config.json:1:27: codemode.poolSize: expected a positive integer, got \"this is "
        "a very long string that goes ...\"");
}

static void test_codemode_http(void **state)
{
    expect_error("{\"codemode\": {\"http\": {\"listen\": \"8080\"}}}",
                 "config.json:1:34: codemode.http.listen: expected HOST:PORT, for example "
                 "127.0.0.1:8080");
    expect_error("{\"codemode\": {\"http\": {\"listen\": \"localhost:65536\"}}}",
                 "config.json:1:34: codemode.http.listen: the port must be a number from 0 to "
                 "65535 (0: any free port)");
    expect_error("{\"codemode\": {\"http\": {\"sessionTimeoutMs\": 10}}}",
                 "config.json:1:44: codemode.http.sessionTimeoutMs: expected an integer from 1000 "
                 "to 604800000, got 10");
    expect_error("{\"codemode\": {\"http\": {\"listen\": \"::1:8080\"}}}",
                 "config.json:1:34: codemode.http.listen: write an IPv6 host in brackets, for "
                 "example [::1]:8080");
    expect_error("{\"codemode\": {\"http\": {\"listen\": \"[::1]\"}}}",
                 "config.json:1:34: codemode.http.listen: expected [IPV6]:PORT, for example "
                 "[::1]:8080");
    expect_error("{\"codemode\": {\"http\": {\"authToken\": \"\"}}}",
                 "config.json:1:37: codemode.http.authToken: empty token (remove the key to serve "
                 "without authentication)");
    unsetenv("CMT_UNSET");
    expect_error("{\"codemode\": {\"http\": {\"authToken\": \"${CMT_UNSET}\"}}}",
                 "config.json:1:38: codemode.http.authToken: ${CMT_UNSET} is not set and has no "
                 "default");
    expect_error(
        "{\"codemode\": {\"http\": {\"allowedOrigins\": [\"http://a:1\", \"http://b/\"]}}}",
        "config.json:1:57: codemode.http.allowedOrigins[1]: expected an origin such as "
        "http://localhost:6274 (scheme://host[:port], no path or trailing slash)");
    expect_error(
        "{\"codemode\": {\"http\": {\"allowedOrigins\": \"http://a\"}}}",
        "config.json:1:42: codemode.http.allowedOrigins: expected an array of strings, got "
        "\"http://a\"");

    struct config c;
    char *err;
    assert_int_equal(load(&c, "{\"codemode\": {\"http\": {\"listen\": \"[::1]:9000\"}}}", &err), 0);
    assert_string_equal(c.http_listen, "[::1]:9000");
    config_free(&c);
    assert_int_equal(load(&c, "{\"codemode\": {\"http\": {\"listen\": \"127.0.0.1:0\", "
                              "\"headersTimeoutMs\": 500, \"drainTimeoutMs\": 2000}}}",
                          &err),
                     0);
    assert_string_equal(c.http_listen, "127.0.0.1:0");
    assert_int_equal(c.http_timeouts.headers, 500);
    assert_int_equal(c.http_timeouts.drain, 2000);
    assert_int_equal(c.http_timeouts.session, 0);
    assert_null(c.http_instance_id);
    assert_int_equal(c.http_max_connections, 0);
    config_free(&c);
    assert_int_equal(load(&c, "{\"codemode\": {\"http\": {\"maxConnections\": 64}}}", &err), 0);
    assert_int_equal(c.http_max_connections, 64);
    config_free(&c);
    expect_error("{\"codemode\": {\"http\": {\"maxConnections\": 0}}}",
                 "config.json:1:42: codemode.http.maxConnections: expected an integer from 1 to "
                 "1048576, got 0");
}

/* codemode.http.instanceId: letters and digits only (it starts session ids
 * that a proxy routes on), 1 to 32 of them. */
static void test_http_instance_id(void **state)
{
    expect_error("{\"codemode\": {\"http\": {\"instanceId\": \"a.b\"}}}",
                 "config.json:1:38: codemode.http.instanceId: \"a.b\" is not 1 to 32 ASCII "
                 "letters and digits");
    expect_error("{\"codemode\": {\"http\": {\"instanceId\": \"\"}}}",
                 "config.json:1:38: codemode.http.instanceId: \"\" is not 1 to 32 ASCII letters "
                 "and digits");
    expect_error("{\"codemode\": {\"http\": {\"instanceId\": "
                 "\"a23456789012345678901234567890123\"}}}",
                 "config.json:1:38: codemode.http.instanceId: "
                 "\"a23456789012345678901234567890123\" is not 1 to 32 ASCII letters and digits");
    expect_error("{\"codemode\": {\"http\": {\"instanceId\": 7}}}",
                 "config.json:1:38: codemode.http.instanceId: expected a string, got 7");
    struct config c;
    char *err;
    setenv("CMT_INSTANCE", "node2", 1);
    assert_int_equal(
        load(&c, "{\"codemode\": {\"http\": {\"instanceId\": \"${CMT_INSTANCE}\"}}}", &err), 0);
    assert_string_equal(c.http_instance_id, "node2");
    config_free(&c);
    unsetenv("CMT_INSTANCE");
}

static void test_codemode_sandbox(void **state)
{
    expect_error("{\"codemode\": {\"sandbox\": {\"reuse\": \"always\"}}}",
                 "config.json:1:36: codemode.sandbox.reuse: unknown value \"always\" (expected \"principal\" or \"never\")");
    expect_error("{\"codemode\": {\"sandbox\": {\"reuse\": true}}}",
                 "config.json:1:36: codemode.sandbox.reuse: expected a string, got true");
    expect_error("{\"codemode\": {\"sandbox\": {\"maxRunsPerWorker\": 0}}}",
                 "config.json:1:47: codemode.sandbox.maxRunsPerWorker: expected an integer from 1 to 1000000, got 0");
    expect_error("{\"codemode\": {\"sandbox\": {\"workerIdleMs\": 5}}}",
                 "config.json:1:43: codemode.sandbox.workerIdleMs: expected an integer from 100 to 86400000, got 5");
    expect_error("{\"codemode\": {\"sandbox\": {\"colocateCalls\": \"yes\"}}}",
                 "config.json:1:44: codemode.sandbox.colocateCalls: expected true or false, got \"yes\"");
    expect_error("{\"codemode\": {\"sandbox\": \"never\"}}",
                 "config.json:1:26: codemode.sandbox: expected an object, got \"never\"");
    expect_warnings("{\"codemode\": {\"sandbox\": {\"reuse\": \"never\", \"idleMs\": 1}}}",
                    (const char *const[]){"config.json:1:45: codemode.sandbox.idleMs: unknown key, ignored",
                                          NULL});

    struct config c;
    char *err;
    config_init(&c);
    assert_int_equal(c.limits.sandbox_reuse, 1);
    assert_int_equal(c.limits.max_runs_per_worker, 1000);
    assert_int_equal(c.limits.worker_idle_ms, 60000);
    assert_int_equal(c.limits.colocate_calls, 1);
    config_free(&c);
    assert_int_equal(load(&c, "{\"codemode\": {\"sandbox\": {\"reuse\": \"never\", "
                              "\"maxRunsPerWorker\": 5, \"workerIdleMs\": 250, "
                              "\"colocateCalls\": false}}}",
                          &err),
                     0);
    assert_int_equal(c.limits.sandbox_reuse, 0);
    assert_int_equal(c.limits.max_runs_per_worker, 5);
    assert_int_equal(c.limits.worker_idle_ms, 250);
    assert_int_equal(c.limits.colocate_calls, 0);
    config_free(&c);
    assert_int_equal(load(&c, "{\"codemode\": {\"sandbox\": {\"reuse\": \"principal\"}}}", &err), 0);
    assert_int_equal(c.limits.sandbox_reuse, 1);
    config_free(&c);
    /* the caps: maxWorkers 0 means "from the CPUs and memory" (app.c) */
    expect_error("{\"codemode\": {\"sandbox\": {\"maxWorkers\": 0}}}",
                 "config.json:1:41: codemode.sandbox.maxWorkers: expected an integer from 1 to 4096, got 0");
    expect_error("{\"codemode\": {\"sandbox\": {\"maxConcurrentPerPrincipal\": 1.5}}}",
                 "config.json:1:56: codemode.sandbox.maxConcurrentPerPrincipal: expected a positive integer, got 1.5");
    config_init(&c);
    assert_int_equal(c.limits.max_workers, 0);
    assert_int_equal(c.limits.max_concurrent_per_principal, 4);
    config_free(&c);
    assert_int_equal(load(&c, "{\"codemode\": {\"sandbox\": {\"maxWorkers\": 3, "
                              "\"maxConcurrentPerPrincipal\": 1}}}",
                          &err),
                     0);
    assert_int_equal(c.limits.max_workers, 3);
    assert_int_equal(c.limits.max_concurrent_per_principal, 1);
    config_free(&c);
}

static void test_server_errors(void **state)
{
    expect_error("{\"mcpServers\": []}", "config.json:1:16: mcpServers: expected an object, got "
                                         "an array");
    expect_error("{\"mcpServers\": {\"a\": \"npx\"}}",
                 "config.json:1:22: mcpServers.a: expected an object, got \"npx\"");
    expect_error("{\"mcpServers\": {\"a\": {\"command\": \"x\", \"url\": \"http://h\"}}}",
                 "config.json:1:17: mcpServers.a: has both \"command\" and \"url\"; use "
                 "\"command\" for a local (stdio) server or \"url\" for a remote one");
    expect_error("{\"mcpServers\": {\"a\": {\"args\": []}}}",
                 "config.json:1:17: mcpServers.a: needs \"command\" (a local stdio server) or "
                 "\"url\" (a remote http or sse server)");
    expect_error("{\"mcpServers\": {\"\": {\"command\": \"x\"}}}",
                 "config.json:1:17: mcpServers[\"\"]: a server name must not be empty");
    expect_error("{\"mcpServers\": {\"my server\": {\"command\": 5}}}",
                 "config.json:1:42: mcpServers[\"my server\"].command: expected a string, got 5");
    expect_error("{\"mcpServers\": {\"a\": {\"command\": \"\"}}}",
                 "config.json:1:34: mcpServers.a.command: must not be empty");
    expect_error("{\"mcpServers\": {\"a\": {\"command\": \"x\", \"args\": \"-y pkg\"}}}",
                 "config.json:1:47: mcpServers.a.args: expected an array of strings, got \"-y "
                 "pkg\"");
    expect_error("{\"mcpServers\": {\"a\": {\"command\": \"x\", \"args\": [\"-p\", 8080]}}}",
                 "config.json:1:54: mcpServers.a.args[1]: expected a string, got 8080");
    expect_error("{\"mcpServers\": {\"a\": {\"command\": \"x\", \"env\": [\"A=1\"]}}}",
                 "config.json:1:46: mcpServers.a.env: expected an object, got an array");
    expect_error("{\"mcpServers\": {\"a\": {\"command\": \"x\", \"env\": {\"PORT\": 8080}}}}",
                 "config.json:1:55: mcpServers.a.env.PORT: expected a string, got 8080");
    expect_error("{\"mcpServers\": {\"a\": {\"command\": \"x\", \"env\": {\"A=B\": \"1\"}}}}",
                 "config.json:1:47: mcpServers.a.env[\"A=B\"]: invalid variable name (empty or "
                 "containing '=')");
    expect_error("{\"mcpServers\": {\"a\": {\"command\": \"x\", \"cwd\": true}}}",
                 "config.json:1:46: mcpServers.a.cwd: expected a string, got true");
    expect_error("{\"mcpServers\": {\"a\": {\"command\": \"x\", \"timeoutMs\": 0}}}",
                 "config.json:1:52: mcpServers.a.timeoutMs: expected an integer from 1 to "
                 "86400000, got 0");
    expect_error("{\"mcpServers\": {\"a\": {\"command\": \"x\", \"disabled\": \"yes\"}}}",
                 "config.json:1:51: mcpServers.a.disabled: expected true or false, got \"yes\"");
    expect_error("{\"mcpServers\": {\"a\": {\"command\": \"x\", \"approval\": 5}}}",
                 "config.json:1:51: mcpServers.a.approval: expected a string or a boolean, got 5");
    expect_error("{\"mcpServers\": {\"a\": {\"command\": \"x\", \"allowTools\": \"get_*\"}}}",
                 "config.json:1:53: mcpServers.a.allowTools: expected an array of strings, got "
                 "\"get_*\"");
    expect_error("{\"mcpServers\": {\"a\": {\"command\": \"x\", \"denyTools\": [null]}}}",
                 "config.json:1:53: mcpServers.a.denyTools[0]: expected a string, got null");
}

static void test_remote_errors(void **state)
{
    expect_error("{\"mcpServers\": {\"r\": {\"url\": \"ftp://h/x\"}}}",
                 "config.json:1:30: mcpServers.r.url: expected an http:// or https:// URL");
    expect_error("{\"mcpServers\": {\"r\": {\"url\": \"https:///mcp\"}}}",
                 "config.json:1:30: mcpServers.r.url: the URL has no host");
    expect_error("{\"mcpServers\": {\"r\": {\"url\": \"http://h/a b\"}}}",
                 "config.json:1:30: mcpServers.r.url: the URL contains a space or control "
                 "character (percent-encode it)");
    expect_error("{\"mcpServers\": {\"r\": {\"url\": \"http://h\", \"headers\": [\"A: b\"]}}}",
                 "config.json:1:53: mcpServers.r.headers: expected an object, got an array");
    expect_error("{\"mcpServers\": {\"r\": {\"url\": \"http://h\", \"headers\": {\"X-N\": 1}}}}",
                 "config.json:1:61: mcpServers.r.headers.X-N: expected a string, got 1");
    expect_error("{\"mcpServers\": {\"r\": {\"url\": \"http://h\", \"headers\": {\"Bad Name\": "
                 "\"1\"}}}}",
                 "config.json:1:54: mcpServers.r.headers[\"Bad Name\"]: invalid header name");
    expect_error("{\"mcpServers\": {\"r\": {\"url\": \"http://h\", \"headers\": {\"X\": "
                 "\"a\\r\\nInjected: 1\"}}}}",
                 "config.json:1:59: mcpServers.r.headers.X: header value contains a line break");
    expect_error("{\"mcpServers\": {\"r\": {\"type\": \"websocket\", \"url\": \"ws://h\"}}}",
                 "config.json:1:31: mcpServers.r.type: unknown transport \"websocket\" (expected "
                 "stdio, http, sse or streamable-http)");
    expect_error("{\"mcpServers\": {\"r\": {\"type\": \"http\", \"command\": \"npx\"}}}",
                 "config.json:1:31: mcpServers.r.type: type \"http\" needs \"url\"");
    expect_error("{\"mcpServers\": {\"r\": {\"type\": \"stdio\", \"url\": \"http://h\"}}}",
                 "config.json:1:31: mcpServers.r.type: type \"stdio\" needs \"command\"");
    expect_error("{\"mcpServers\": {\"r\": {\"type\": 1, \"url\": \"http://h\"}}}",
                 "config.json:1:31: mcpServers.r.type: expected a string, got 1");
}

/* --- warnings ----------------------------------------------------------------- */

static void test_unknown_keys(void **state)
{
    static const char *const brief[] = {
        "config.json:4:7: mcpServers.github.allowtool: unknown key (did you mean allowTools?)",
        NULL};
    expect_warnings("{\n  \"mcpServers\": {\n    \"github\": {\n      \"allowtool\": [\"x\"],\n"
                    "      \"command\": \"npx\"\n    }\n  }\n}",
                    brief);
    static const char *const many[] = {
        "config.json:1:2: mcpServer: unknown key (did you mean mcpServers?)",
        "config.json:1:32: codemode.pool_size: unknown key (did you mean poolSize?)",
        "config.json:1:57: codemode.http.origins: unknown key, ignored",
        "config.json:1:111: mcpServers.a.timeout: unknown key (did you mean timeoutMs?)",
        "config.json:1:126: mcpServers.a.autoApprove: unknown key, ignored",
        NULL};
    expect_warnings(
        "{\"codemode\": {\"mcpServer\": 1}}",
        (const char *const[]){"config.json:1:15: codemode.mcpServer: unknown key, ignored", NULL});
    expect_warnings("{\"mcpServer\": {}, \"codemode\": {\"pool_size\": 1, \"http\": {\"origins\": "
                    "[]}}, \"mcpServers\": {\"a\": {\"command\": \"x\", \"timeout\": 60, "
                    "\"autoApprove\": []}}}",
                    many);
}

static void test_inapplicable_keys(void **state)
{
    static const char *const want[] = {
        "config.json:1:39: mcpServers.s.headers: ignored for a stdio server (it applies to "
        "\"url\" servers)",
        "config.json:1:80: mcpServers.r.env: ignored for a remote server (it applies to "
        "\"command\" servers)",
        NULL};
    expect_warnings(
        "{\"mcpServers\": {\"s\": {\"command\": \"x\", \"headers\": {}}, \"r\": {\"url\": "
        "\"http://h\", \"env\": {}}}}",
        want);
}

static void test_duplicate_keys(void **state)
{
    static const char *const want[] = {
        "config.json:2:3: mcpServers.a: duplicate key, ignored (the later one on line 3 is used)",
        "config.json:3:9: mcpServers.a.command: duplicate key, ignored (the later one on line 3 "
        "is used)",
        NULL};
    const char *json = "{\"mcpServers\": {\n  \"a\": {\"command\": \"first\"},\n"
                       "  \"a\": {\"command\": \"x\", \"command\": \"second\"}}}";
    expect_warnings(json, want);
    struct config c;
    char *err;
    assert_int_equal(load(&c, json, &err), 0);
    assert_int_equal(c.nservers, 1);
    assert_string_equal(c.servers[0].command, "second"); /* as JSON.parse: the last one wins */
    config_free(&c);
}

static void test_empty_allow_list(void **state)
{
    static const char *const want[] = {
        "config.json:1:53: mcpServers.a.allowTools: empty list: no tool of this server can be "
        "called",
        NULL};
    expect_warnings("{\"mcpServers\": {\"a\": {\"command\": \"x\", \"allowTools\": []}}}", want);
}

static void test_warning_cap(void **state)
{
    char json[16384];
    size_t n = (size_t) snprintf(json, sizeof json, "{");
    for (int i = 0; i < 250; i++)
        n += (size_t) snprintf(json + n, sizeof json - n, "%s\"k%d\": 1", i ? "," : "", i);
    snprintf(json + n, sizeof json - n, "}");
    struct config c;
    char *err;
    assert_int_equal(load(&c, json, &err), 0);
    assert_int_equal(c.nwarnings, 200);
    assert_string_equal(rel(c.warnings[0]), "config.json:1:2: k0: not an mcp-codemode setting, "
                                            "ignored");
    assert_string_equal(rel(c.warnings[199]), "config.json: 51 more warnings not shown");
    config_free(&c);
}

/* --- ${VAR} expansion -------------------------------------------------------- */

struct unset_log {
    char names[8][32];
    size_t offs[8];
    int n;
};

static void log_unset(void *ud, const char *name, size_t off)
{
    struct unset_log *l = ud;
    snprintf(l->names[l->n], sizeof l->names[0], "%s", name);
    l->offs[l->n++] = off;
}

static void expect_expand(const char *in, const char *want, int nunset)
{
    struct unset_log log = {.n = 0};
    const char *why = NULL;
    size_t off = 0;
    char *out = config_expand(in, log_unset, &log, &why, &off);
    if (out == NULL || strcmp(out, want) != 0)
        print_error("in: %s\nwant: %s\ngot: %s (%s)\n", in, want, out ? out : "NULL",
                    why ? why : "");
    assert_non_null(out);
    assert_string_equal(out, want);
    assert_int_equal(log.n, nunset);
    free(out);
}

static void expect_expand_error(const char *in, const char *want, size_t want_off)
{
    const char *why = NULL;
    size_t off = 99;
    char *out = config_expand(in, NULL, NULL, &why, &off);
    assert_null(out);
    assert_string_equal(why, want);
    assert_int_equal(off, want_off);
}

static void test_expand(void **state)
{
    setenv("CMT_SET", "value", 1);
    setenv("CMT_EMPTY", "", 1);
    setenv("CMT_BRACE", "{x}", 1);
    unsetenv("CMT_UNSET");
    expect_expand("plain", "plain", 0);
    expect_expand("", "", 0);
    expect_expand("${CMT_SET}", "value", 0);
    expect_expand("a-${CMT_SET}-b-${CMT_SET}", "a-value-b-value", 0);
    expect_expand("${CMT_UNSET}", "", 1);
    expect_expand("x${CMT_UNSET}y${CMT_UNSET}", "xy", 2);
    expect_expand("${CMT_EMPTY}", "", 0); /* set but empty: no report */
    expect_expand("${CMT_UNSET:-dflt}", "dflt", 0);
    expect_expand("${CMT_EMPTY:-dflt}", "dflt", 0); /* :- also covers empty */
    expect_expand("${CMT_SET:-dflt}", "value", 0);
    expect_expand("${CMT_UNSET:-}", "", 0);
    expect_expand("${CMT_UNSET:-a b:c-d}", "a b:c-d", 0);
    expect_expand("$${CMT_SET}", "${CMT_SET}", 0);   /* the escape */
    expect_expand("$$${CMT_SET}", "$${CMT_SET}", 0); /* `$` then the escape */
    expect_expand("pa$$word $HOME $ $$ $(x) $", "pa$$word $HOME $ $$ $(x) $", 0);
    expect_expand("${CMT_UNSET:-{\"k\":{\"n\":1}}}", "{\"k\":{\"n\":1}}", 0); /* nested braces */
    expect_expand("${CMT_UNSET:-${CMT_SET}}", "value", 0);
    expect_expand("${CMT_UNSET:-${CMT_UNSET:-deep}}!", "deep!", 0);
    expect_expand("${CMT_UNSET:-${CMT_UNSET}}", "", 1);    /* used default reports */
    expect_expand("${CMT_SET:-${CMT_UNSET}}", "value", 0); /* unused default does not */
    expect_expand("${CMT_UNSET:-$${lit}}", "${lit}", 0);
    expect_expand("${CMT_BRACE}", "{x}", 0); /* values are not re-expanded */
    setenv("CMT_REF", "${CMT_SET}", 1);
    expect_expand("${CMT_REF}", "${CMT_SET}", 0);
    unsetenv("CMT_REF");

    struct unset_log log = {.n = 0};
    const char *why;
    size_t off;
    free(config_expand("ab${CMT_UNSET}", log_unset, &log, &why, &off));
    assert_string_equal(log.names[0], "CMT_UNSET");
    assert_int_equal(log.offs[0], 2);
}

static void test_expand_errors(void **state)
{
    const char *unterminated = "unterminated \"${\" (write \"$${\" for a literal \"${\")";
    expect_expand_error("${CMT_SET", unterminated, 0);
    expect_expand_error("ab ${", unterminated, 3);
    expect_expand_error("${CMT_SET:-x", unterminated, 0);
    expect_expand_error("${CMT_SET:-{x}", unterminated, 0);
    expect_expand_error("x${A:-${B}", unterminated, 1);
    expect_expand_error("${}", "empty variable name in \"${}\"", 0);
    expect_expand_error("${1A}",
                        "invalid variable name after \"${\" (expected a letter or '_', "
                        "then letters, digits or '_')",
                        0);
    expect_expand_error("${A B}", "invalid reference: expected ${NAME} or ${NAME:-default}", 0);
    expect_expand_error("${A-x}", "invalid reference: expected ${NAME} or ${NAME:-default}", 0);
    expect_expand_error("${CMT_SET:-${1}}",
                        "invalid variable name after \"${\" (expected a "
                        "letter or '_', then letters, digits or '_')",
                        11);
    char deep[400] = "";
    for (int i = 0; i < 20; i++)
        strcat(deep, "${A:-");
    for (int i = 0; i < 20; i++)
        strcat(deep, "}");
    expect_expand_error(deep, "defaults nested too deeply", 85);
}

static void test_expand_in_file(void **state)
{
    setenv("CMT_SET", "value", 1);
    unsetenv("CMT_UNSET");
    static const char *const want[] = {
        "config.json:1:66: mcpServers.a.args[0]: ${CMT_UNSET} is not set; using an empty string",
        "config.json:1:96: mcpServers.a.env.K: ${CMT_UNSET} is not set; using an empty string",
        NULL};
    const char *json = "{\"mcpServers\": {\"a\": {\"command\": \"${CMT_SET}\", \"args\": "
                       "[\"\\u00e9\\t${CMT_UNSET}\"], \"env\": {\"K\": \"${CMT_UNSET}\", "
                       "\"${CMT_SET}\": \"${CMT_UNSET:-d}\"}}}}";
    expect_warnings(json, want);
    struct config c;
    char *err;
    assert_int_equal(load(&c, json, &err), 0);
    assert_string_equal(c.servers[0].command, "value");
    assert_string_equal(c.servers[0].args[0], "\xc3\xa9\t");
    assert_string_equal(c.servers[0].env[0], "K=");
    assert_string_equal(c.servers[0].env[1], "${CMT_SET}=d"); /* keys are not expanded */
    config_free(&c);

    expect_error("{\"mcpServers\": {\"a\": {\"command\": \"/opt/${CMT_UNSET}/bin\"}}}",
                 "config.json:1:40: mcpServers.a.command: ${CMT_UNSET} is not set and has no "
                 "default");
    expect_error("{\"mcpServers\": {\"r\": {\"url\": \"${CMT_UNSET}\"}}}",
                 "config.json:1:31: mcpServers.r.url: ${CMT_UNSET} is not set and has no default");
    expect_error("{\"mcpServers\": {\"a\": {\"command\": \"x\", \"cwd\": \"${CMT_SET\"}}}",
                 "config.json:1:47: mcpServers.a.cwd: unterminated \"${\" (write \"$${\" for a "
                 "literal \"${\")");
    /* the server name is a key: never expanded */
    assert_int_equal(load(&c, "{\"mcpServers\": {\"${CMT_SET}\": {\"command\": \"x\"}}}", &err), 0);
    assert_string_equal(c.servers[0].name, "${CMT_SET}");
    config_free(&c);
}

static void test_disabled_entry_quiet(void **state)
{
    static const char *const none[] = {NULL};
    unsetenv("CMT_UNSET");
    const char *json =
        "{\"mcpServers\": {\"a\": {\"disabled\": true, \"command\": \"${CMT_UNSET}\", "
        "\"env\": {\"T\": \"${CMT_UNSET}\"}}, \"r\": {\"url\": \"${CMT_UNSET}\", "
        "\"disabled\": true}}}";
    expect_warnings(json, none);
    struct config c;
    char *err;
    assert_int_equal(load(&c, json, &err), 0);
    assert_int_equal(c.servers[0].disabled, 1);
    assert_string_equal(c.servers[0].command, "");
    assert_int_equal(c.servers[1].disabled, 1);
    config_free(&c);
    /* types are still checked */
    expect_error("{\"mcpServers\": {\"a\": {\"disabled\": true, \"command\": \"x\", \"args\": 1}}}",
                 "config.json:1:65: mcpServers.a.args: expected an array of strings, got 1");
}

/* --- transports --------------------------------------------------------------- */

static enum tools_transport transport_of(const char *entry)
{
    char json[512];
    struct config c;
    char *err;
    snprintf(json, sizeof json, "{\"mcpServers\": {\"s\": %s}}", entry);
    if (load(&c, json, &err) != 0)
        fail_msg("%s: %s", entry, rel(err));
    enum tools_transport t = c.servers[0].transport;
    config_free(&c);
    return t;
}

static void test_transport_types(void **state)
{
    assert_int_equal(transport_of("{\"command\": \"x\"}"), TOOLS_TRANSPORT_STDIO);
    assert_int_equal(transport_of("{\"type\": \"stdio\", \"command\": \"x\"}"),
                     TOOLS_TRANSPORT_STDIO);
    const char *http[] = {"http", "HTTP", "streamable-http", "streamableHttp", "streamable_http"};
    for (size_t i = 0; i < 5; i++) {
        char e[128];
        snprintf(e, sizeof e, "{\"type\": \"%s\", \"url\": \"http://h/sse\"}", http[i]);
        assert_int_equal(transport_of(e), TOOLS_TRANSPORT_HTTP); /* explicit type wins */
    }
    assert_int_equal(transport_of("{\"type\": \"sse\", \"url\": \"http://h/events\"}"),
                     TOOLS_TRANSPORT_SSE);
}

static void test_transport_inference(void **state)
{
    assert_int_equal(transport_of("{\"url\": \"http://localhost:3001/sse\"}"),
                     TOOLS_TRANSPORT_SSE);
    assert_int_equal(transport_of("{\"url\": \"https://h/v1/sse/\"}"), TOOLS_TRANSPORT_SSE);
    assert_int_equal(transport_of("{\"url\": \"https://h/SSE?key=1#f\"}"), TOOLS_TRANSPORT_SSE);
    assert_int_equal(transport_of("{\"url\": \"https://h/mcp\"}"), TOOLS_TRANSPORT_HTTP);
    assert_int_equal(transport_of("{\"url\": \"https://h/sse-mcp\"}"), TOOLS_TRANSPORT_HTTP);
    assert_int_equal(transport_of("{\"url\": \"https://h/mcp?x=/sse\"}"), TOOLS_TRANSPORT_HTTP);
    assert_int_equal(transport_of("{\"url\": \"https://sse\"}"), TOOLS_TRANSPORT_HTTP);
    assert_int_equal(transport_of("{\"url\": \"http://h?x=/sse\"}"), TOOLS_TRANSPORT_HTTP);
    assert_int_equal(transport_of("{\"url\": \"http://h#/sse\"}"), TOOLS_TRANSPORT_HTTP);
    assert_int_equal(transport_of("{\"url\": \"HTTPS://h\"}"), TOOLS_TRANSPORT_HTTP);
}

static void test_approval_and_headers(void **state)
{
    struct config c;
    char *err;
    setenv("CMT_SET", "value", 1);
    assert_int_equal(load(&c,
                          "{\"mcpServers\": {\"a\": {\"command\": \"x\", \"approval\": true}, "
                          "\"b\": {\"url\": \"http://h\", \"approval\": \"${CMT_SET}\", "
                          "\"headers\": {\"X-A\": \"1\", \"X-B\": \"${CMT_SET}\"}}}}",
                          &err),
                     0);
    assert_string_equal(c.servers[0].approval, "true");
    assert_int_equal(count(c.servers[0].args), 0);
    assert_non_null(c.servers[0].args);
    assert_string_equal(c.servers[1].approval, "value");
    assert_string_equal(c.servers[1].headers[1], "X-B: value");
    assert_null(c.servers[1].args);
    config_free(&c);
}

/* --- self-launch -------------------------------------------------------------- */

static int launches_self(const char *entry_fmt, const char *arg)
{
    char entry[PATH_MAX * 2], json[PATH_MAX * 3];
    struct config c;
    char *err;
    snprintf(entry, sizeof entry, entry_fmt, arg, arg);
    snprintf(json, sizeof json, "{\"mcpServers\": {\"me\": %s}}", entry);
    if (load(&c, json, &err) != 0)
        fail_msg("%s: %s", json, rel(err));
    int self = c.servers[0].launches_self;
    if (self) {
        assert_int_equal(c.nwarnings, 1);
        assert_non_null(strstr(c.warnings[0], "mcpServers.me: skipped: launches mcp-codemode "
                                              "itself"));
    } else {
        assert_int_equal(c.nwarnings, 0);
    }
    config_free(&c);
    return self;
}

static void test_self_launch(void **state)
{
    char exe[PATH_MAX], link[PATH_MAX + 16];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    assert_true(n > 0);
    exe[n] = '\0';
    snprintf(link, sizeof link, "%s/codemode-link", tmpdir);
    unlink(link);
    assert_int_equal(symlink(exe, link), 0);

    assert_true(launches_self("{\"command\": \"mcp-codemode\", \"args\": [\"--stdio\"]}", ""));
    assert_true(launches_self("{\"command\": \"/usr/local/bin/mcp-codemode\"}", ""));
    assert_true(launches_self("{\"command\": \"%s\"}", exe));  /* the running executable */
    assert_true(launches_self("{\"command\": \"%s\"}", link)); /* through a symlink */
    assert_true(launches_self("{\"command\": \"./codemode-link\", \"cwd\": \"%s\"}", tmpdir));
    assert_true(launches_self(
        "{\"command\": \"codemode-link\", \"env\": {\"PATH\": \"/nonexistent:%s\"}}", tmpdir));
    assert_false(launches_self("{\"command\": \"npx\", \"args\": [\"mcp-codemode\"]}", ""));
    assert_false(launches_self("{\"command\": \"mcp-codemode-helper\"}", ""));
    assert_false(launches_self(
        "{\"command\": \"codemode-link\", \"env\": {\"PATH\": \"/nonexistent\"}}", ""));
    assert_false(launches_self("{\"command\": \"/bin/sh\"}", ""));
    unlink(link);
}

/* --- tool globs --------------------------------------------------------------- */

static void test_tool_globs(void **state)
{
    char *allow[] = {"create_*", "get_?", "list_[abc]*", NULL};
    char *deny[] = {"*_secret", "get_x", NULL};
    struct tools_server_config s = {.name = "gh"};
    assert_true(tools_server_config_allows(&s, "anything")); /* no lists: all */
    s.deny_tools = deny;
    assert_true(tools_server_config_allows(&s, "anything"));
    assert_false(tools_server_config_allows(&s, "read_secret"));
    s.allow_tools = allow;
    assert_true(tools_server_config_allows(&s, "create_issue"));
    assert_false(tools_server_config_allows(&s, "create_secret")); /* deny wins over allow */
    assert_true(tools_server_config_allows(&s, "get_a"));
    assert_false(tools_server_config_allows(&s, "get_x"));
    assert_false(tools_server_config_allows(&s, "get_ab"));
    assert_true(tools_server_config_allows(&s, "list_branches"));
    assert_false(tools_server_config_allows(&s, "list_issues"));
    assert_false(tools_server_config_allows(&s, "delete_repo"));
    assert_false(tools_server_config_allows(&s, "Create_issue")); /* case-sensitive */
    char *none[] = {NULL};
    s.allow_tools = none;
    s.deny_tools = NULL;
    assert_false(tools_server_config_allows(&s, "create_issue"));
    char *neg[] = {"[!d]*", NULL};
    s.allow_tools = neg;
    assert_true(tools_server_config_allows(&s, "create"));
    assert_false(tools_server_config_allows(&s, "delete"));
}

static void test_tool_globs_from_file(void **state)
{
    struct config c;
    char *err = NULL;
    config_init(&c);
    assert_int_equal(config_load(&c, FIX "full.json", &err), -1); /* CODEMODE_TOKEN unset */
    free(err);
    config_free(&c);
    setenv("CODEMODE_TOKEN", "t", 1);
    config_init(&c);
    assert_int_equal(config_load(&c, FIX "full.json", &err), 0);
    assert_true(tools_server_config_allows(&c.servers[0], "create_issue"));
    assert_true(tools_server_config_allows(&c.servers[0], "get_me"));
    assert_false(tools_server_config_allows(&c.servers[0], "delete_repo"));
    assert_false(tools_server_config_allows(&c.servers[0], "merge_pr"));
    assert_true(tools_server_config_allows(&c.servers[1], "anything"));
    config_free(&c);
    unsetenv("CODEMODE_TOKEN");
}

/* --- overrides ---------------------------------------------------------------- */

static void expect_override_error(struct config *c, const char *key, const char *value,
                                  const char *want)
{
    struct config before = *c;
    char *err = NULL;
    assert_int_equal(config_override(c, key, value, &err), -1);
    assert_string_equal(err, want);
    assert_memory_equal(&before.limits, &c->limits, sizeof c->limits);
    free(err);
}

static void test_overrides(void **state)
{
    struct config c;
    char *err = NULL;
    config_init(&c);
    assert_int_equal(config_load(&c, FIX "overrides.json", &err), 0);
    assert_int_equal(config_override(&c, "poolSize", "4", &err), 0);
    assert_int_equal(c.limits.pool_size, 4);
    assert_int_equal(config_override(&c, "memoryLimitMb", "128", &err), 0);
    assert_int_equal(c.limits.memory_bytes, 128u * 1024 * 1024);
    assert_int_equal(config_override(&c, "maxTimeoutMs", "600000", &err), 0);
    assert_int_equal(config_override(&c, "timeoutMs", "500000", &err), 0);
    assert_int_equal(c.limits.timeout_ms, 500000);
    assert_int_equal(config_override(&c, "logLevel", "warn", &err), 0);
    assert_string_equal(c.log_level, "warning");
    assert_int_equal(config_override(&c, "http.listen", "0.0.0.0:9000", &err), 0);
    assert_string_equal(c.http_listen, "0.0.0.0:9000");
    assert_int_equal(config_override(&c, "http.authToken", "${NOT_EXPANDED}", &err), 0);
    assert_string_equal(c.http_auth_token, "${NOT_EXPANDED}");

    expect_override_error(&c, "poolSize", "two",
                          "poolSize: expected a positive integer, got "
                          "\"two\"");
    expect_override_error(&c, "poolSize", "0", "poolSize: expected an integer from 1 to 64, got 0");
    expect_override_error(&c, "poolSize", "-1",
                          "poolSize: expected a positive integer, got "
                          "\"-1\"");
    expect_override_error(&c, "poolSize", "", "poolSize: expected a positive integer, got \"\"");
    expect_override_error(&c, "poolSize", "99999999999999999999",
                          "poolSize: expected a positive integer, got \"99999999999999999999\"");
    expect_override_error(&c, "timeoutMs", "700000",
                          "timeoutMs: 700000 is more than maxTimeoutMs (600000)");
    expect_override_error(&c, "maxTimeoutMs", "1000",
                          "maxTimeoutMs: 1000 is less than timeoutMs (500000)");
    expect_override_error(&c, "logLevel", "loud",
                          "logLevel: unknown log level \"loud\" (expected "
                          "debug, info, notice, warning, error, critical, "
                          "alert, emergency or off)");
    expect_override_error(&c, "http.listen", "nope",
                          "http.listen: expected HOST:PORT, for "
                          "example 127.0.0.1:8080");
    expect_override_error(&c, "http.authToken", "",
                          "http.authToken: empty token (remove the key "
                          "to serve without authentication)");
    expect_override_error(&c, "pool", "1", "pool: not a setting that can be overridden");
    assert_string_equal(c.http_listen, "0.0.0.0:9000");
    assert_string_equal(c.log_level, "warning");
    config_free(&c);
}

/* --- reuse -------------------------------------------------------------------- */

static void test_reuse_after_error(void **state)
{
    struct config c;
    char *err;
    /* an error mid-way leaves c valid for config_free (checked by ASan) */
    assert_int_equal(load(&c,
                          "{\"mcpServers\": {\"a\": {\"command\": \"x\", \"args\": [\"a\", "
                          "\"b\"], \"env\": {\"A\": \"1\"}}, \"b\": {\"url\": \"http://h\", "
                          "\"headers\": {\"A\": \"1\", \"B\": 2}}}, \"zz\": 1}",
                          &err),
                     -1);
    assert_string_equal(rel(err), "config.json:1:131: mcpServers.b.headers.B: expected a string, "
                                  "got 2");
    assert_int_equal(c.nservers, 2);
    free(err);
    config_free(&c);
    config_init(&c);
    assert_int_equal(config_load(&c, FIX "claude_desktop.json", &err), 0);
    config_free(&c);
}

/* --- main --------------------------------------------------------------------- */

/* Runs from the repository root (fixtures are relative to it), found from the
 * test binary's path (B/tests/test_x) when started elsewhere. */
static void chdir_to_root(void)
{
    char exe[PATH_MAX];
    ssize_t n;
    if (access(FIX "full.json", R_OK) == 0)
        return;
    n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return;
    exe[n] = '\0';
    char *dir = dirname(dirname(dirname(exe)));
    if (chdir(dir) != 0)
        perror("chdir");
}

static int setup(void **state)
{
    chdir_to_root();
    if (mkdtemp(tmpdir) == NULL)
        return -1;
    snprintf(cfg_path, sizeof cfg_path, "%s/config.json", tmpdir);
    return 0;
}

static int teardown(void **state)
{
    unlink(cfg_path);
    return rmdir(tmpdir);
}

/* Relative command (with a slash) and cwd paths are resolved against the
 * config file's folder, so a file works from any working directory; bare
 * commands, absolute and Windows paths are kept; with a cwd the command is
 * found from the cwd. */
static void test_paths_relative_to_the_file(void **state)
{
    (void) state;
    struct config c;
    char *err, want[PATH_MAX + 64];
    assert_int_equal(load(&c,
                          "{\"mcpServers\": {"
                          "\"a\": {\"command\": \"../build/srv\"},"
                          "\"b\": {\"command\": \"./srv\"},"
                          "\"c\": {\"command\": \"node\", \"cwd\": \"work\"},"
                          "\"d\": {\"command\": \"bin/srv\", \"cwd\": \"./w/x\"},"
                          "\"e\": {\"command\": \"/usr/bin/srv\", \"cwd\": \"/tmp\"},"
                          "\"f\": {\"command\": \"npx\", \"cwd\": \"C:/Users/me\"}}}",
                          &err),
                     0);
    snprintf(want, sizeof want, "%s/../build/srv", tmpdir);
    assert_string_equal(c.servers[0].command, want);
    snprintf(want, sizeof want, "%s/srv", tmpdir);
    assert_string_equal(c.servers[1].command, want);
    assert_string_equal(c.servers[2].command, "node");
    snprintf(want, sizeof want, "%s/work", tmpdir);
    assert_string_equal(c.servers[2].cwd, want);
    assert_string_equal(c.servers[3].command, "bin/srv"); /* found from its cwd */
    snprintf(want, sizeof want, "%s/w/x", tmpdir);
    assert_string_equal(c.servers[3].cwd, want);
    assert_string_equal(c.servers[4].command, "/usr/bin/srv");
    assert_string_equal(c.servers[4].cwd, "/tmp");
    assert_string_equal(c.servers[5].cwd, "C:/Users/me");
    config_free(&c);
    /* a config path relative to the working directory */
    char cwd[PATH_MAX];
    assert_non_null(getcwd(cwd, sizeof cwd));
    assert_int_equal(chdir(tmpdir), 0);
    config_init(&c);
    assert_int_equal(config_load(&c, "config.json", &err), 0);
    snprintf(want, sizeof want, "%s/../build/srv", tmpdir);
    assert_string_equal(c.servers[0].command, want);
    config_free(&c);
    assert_int_equal(chdir(cwd), 0);
}

static void test_misspelt_command(void **state)
{
    (void) state;
    expect_error("{\"mcpServers\": {\"x\": {\"comand\": \"node\", \"args\": []}}}",
                 "config.json:1:17: mcpServers.x: needs \"command\" (a local stdio server) or "
                 "\"url\" (a remote http or sse server); \"comand\" is not a key (did you mean "
                 "\"command\"?)");
    expect_error("{\"mcpServers\": {\"x\": {\"URL\": \"http://h/mcp\"}}}",
                 "config.json:1:17: mcpServers.x: needs \"command\" (a local stdio server) or "
                 "\"url\" (a remote http or sse server); \"URL\" is not a key (did you mean "
                 "\"url\"?)");
    expect_error("{\"mcpServers\": {\"x\": {\"args\": []}}}",
                 "config.json:1:17: mcpServers.x: needs \"command\" (a local stdio server) or "
                 "\"url\" (a remote http or sse server)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_claude_desktop_file),
        cmocka_unit_test(test_full_example),
        cmocka_unit_test(test_codemode_values),
        cmocka_unit_test(test_declarations_block),
        cmocka_unit_test(test_no_servers),
        cmocka_unit_test(test_bom),
        cmocka_unit_test(test_vscode_servers_key),
        cmocka_unit_test(test_file_errors),
        cmocka_unit_test(test_huge_file),
        cmocka_unit_test(test_unreadable_file),
        cmocka_unit_test(test_syntax_errors),
        cmocka_unit_test(test_columns_count_characters),
        cmocka_unit_test(test_nesting_limit),
        cmocka_unit_test(test_codemode_types),
        cmocka_unit_test(test_codemode_http),
        cmocka_unit_test(test_http_instance_id),
        cmocka_unit_test(test_codemode_sandbox),
        cmocka_unit_test(test_server_errors),
        cmocka_unit_test(test_remote_errors),
        cmocka_unit_test(test_unknown_keys),
        cmocka_unit_test(test_inapplicable_keys),
        cmocka_unit_test(test_duplicate_keys),
        cmocka_unit_test(test_empty_allow_list),
        cmocka_unit_test(test_warning_cap),
        cmocka_unit_test(test_expand),
        cmocka_unit_test(test_expand_errors),
        cmocka_unit_test(test_expand_in_file),
        cmocka_unit_test(test_disabled_entry_quiet),
        cmocka_unit_test(test_transport_types),
        cmocka_unit_test(test_transport_inference),
        cmocka_unit_test(test_approval_and_headers),
        cmocka_unit_test(test_self_launch),
        cmocka_unit_test(test_tool_globs),
        cmocka_unit_test(test_tool_globs_from_file),
        cmocka_unit_test(test_overrides),
        cmocka_unit_test(test_reuse_after_error),
        cmocka_unit_test(test_paths_relative_to_the_file),
        cmocka_unit_test(test_misspelt_command),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
