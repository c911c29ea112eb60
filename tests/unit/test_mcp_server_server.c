/* Unit tests of mcp-server/server.c: JSON-RPC validation, exact ids, version
 * negotiation, the two eras, batches and oversize handling, observed through
 * a sink that captures every line the server writes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "mcp-server/config/config.h"
#include "mcp-server/server.h"
#include "tools/registry.h"
#include "common/buf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct fixture {
    struct config cfg;
    struct tools_registry *tools;
    struct mcp_server *s;
    struct buf out;
    int writes;
};

static void sink(void *ud, const char *data, size_t len, int final)
{
    (void) final;
    struct fixture *f = ud;
    buf_append(&f->out, data, len);
    f->writes++;
}

static int setup(void **state)
{
    struct fixture *f = calloc(1, sizeof *f);
    config_init(&f->cfg);
    f->tools = tools_registry_new(NULL, NULL);
    struct mcp_server_config sc = {.tools = f->tools, .limits = &f->cfg.limits};
    struct mcp_channel sk = {f, sink, NULL};
    f->s = mcp_server_new(&sc, &sk);
    buf_init(&f->out, 0);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    struct fixture *f = *state;
    mcp_server_free(f->s);
    tools_registry_free(f->tools);
    config_free(&f->cfg);
    buf_free(&f->out);
    free(f);
    return 0;
}

/* Sends one line and returns what the server wrote (reset before). */
static const char *ask(struct fixture *f, const char *line)
{
    buf_reset(&f->out);
    f->writes = 0;
    mcp_server_handle(f->s, line, strlen(line));
    return f->out.data ? f->out.data : "";
}

#define INIT(f, ver)                                                                               \
    ask(f, "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{"                \
            "\"protocolVersion\":\"" ver "\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\","   \
            "\"version\":\"1\"}}}")

static void test_ids_echoed_exactly(void **state)
{
    struct fixture *f = *state;
    INIT(f, "2025-06-18");
    assert_string_equal(ask(f, "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\"}"),
                        "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}\n");
    assert_string_equal(ask(f, "{\"jsonrpc\":\"2.0\",\"id\":\"a\\\"b\",\"method\":\"ping\"}"),
                        "{\"jsonrpc\":\"2.0\",\"id\":\"a\\\"b\",\"result\":{}}\n");
    assert_string_equal(ask(f, "{\"id\":9007199254740993,\"jsonrpc\":\"2.0\",\"method\":\"ping\"}"),
                        "{\"jsonrpc\":\"2.0\",\"id\":9007199254740993,\"result\":{}}\n");
    assert_string_equal(ask(f, "{\"jsonrpc\":\"2.0\",\"id\":-0.5e3,\"method\":\"ping\"}"),
                        "{\"jsonrpc\":\"2.0\",\"id\":-0.5e3,\"result\":{}}\n");
    /* an id that is not UTF-8 cannot be echoed exactly: refused, without
     * an id (found by tests/fuzz/fuzz_stdio) */
    assert_string_equal(ask(f, "{\"jsonrpc\":\"2.0\",\"id\":\"a\x96\",\"method\":\"ping\"}"),
                        "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32600,\"message\":"
                        "\"Invalid Request: \\\"id\\\" must be a string (of UTF-8) or an integer\"}}\n");
}

static void test_notifications_never_answered(void **state)
{
    struct fixture *f = *state;
    INIT(f, "2025-11-25");
    assert_string_equal(ask(f, "{\"jsonrpc\":\"2.0\",\"method\":\"ping\"}"), "");
    assert_string_equal(ask(f, "{\"jsonrpc\":\"2.0\",\"method\":\"nope\"}"), "");
    assert_string_equal(ask(f, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\","
                                "\"params\":{\"requestId\":99}}"),
                        "");
}

static void test_error_codes(void **state)
{
    struct fixture *f = *state;
    /* Before a session: an error without an id has no "id" member. */
    assert_string_equal(ask(f, "{nope"), "{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32700,"
                                          "\"message\":\"Parse error: the message is not valid "
                                          "JSON\"}}\n");
    INIT(f, "2025-06-18");
    /* In a 2025-06-18 session: JSON-RPC 2.0's "id":null. */
    assert_non_null(strstr(ask(f, "[1,"), "\"id\":null,\"error\":{\"code\":-32700"));
    assert_non_null(strstr(ask(f, "{\"jsonrpc\":\"1.0\",\"id\":1,\"method\":\"ping\"}"),
                           "\"id\":1,\"error\":{\"code\":-32600"));
    assert_non_null(strstr(ask(f, "{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"ping\"}"),
                           "\"id\":null,\"error\":{\"code\":-32600"));
    assert_non_null(strstr(ask(f, "{\"jsonrpc\":\"2.0\",\"id\":true,\"method\":\"ping\"}"),
                           "\"error\":{\"code\":-32600"));
    assert_non_null(strstr(ask(f, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":5}"),
                           "\"id\":2,\"error\":{\"code\":-32600"));
    assert_non_null(strstr(ask(f, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"nope\"}"),
                           "\"id\":3,\"error\":{\"code\":-32601"));
    assert_non_null(strstr(ask(f, "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\","
                                   "\"params\":{}}"),
                           "\"id\":4,\"error\":{\"code\":-32602"));
    assert_non_null(strstr(ask(f, "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\","
                                   "\"params\":{\"name\":\"other\"}}"),
                           "\"id\":5,\"error\":{\"code\":-32602,\"message\":\"Unknown tool: other"));
    assert_non_null(strstr(ask(f, "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"logging/setLevel\","
                                   "\"params\":{\"level\":\"loud\"}}"),
                           "\"id\":6,\"error\":{\"code\":-32602"));
    /* and it still serves */
    assert_string_equal(ask(f, "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"ping\"}"),
                        "{\"jsonrpc\":\"2.0\",\"id\":8,\"result\":{}}\n");
}

static void test_negotiation(void **state)
{
    struct fixture *f = *state;
    assert_non_null(strstr(INIT(f, "2024-11-05"), "\"protocolVersion\":\"2024-11-05\""));
    assert_non_null(strstr(ask(f, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\","
                                   "\"params\":{\"protocolVersion\":\"2024-11-05\"}}"),
                           "\"code\":-32600"));
}

static void test_negotiation_unknown_and_modern(void **state)
{
    struct fixture *f = *state;
    assert_non_null(strstr(INIT(f, "1999-01-01"), "\"protocolVersion\":\"2025-11-25\""));
    teardown(state);
    setup(state);
    f = *state;
    assert_non_null(strstr(INIT(f, "2026-07-28"), "\"protocolVersion\":\"2025-11-25\""));
}

static void test_before_initialize(void **state)
{
    struct fixture *f = *state;
    assert_string_equal(ask(f, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}"),
                        "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n");
    assert_non_null(strstr(ask(f, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}"),
                           "\"id\":2,\"error\":{\"code\":-32602"));
}

#define MODERN_META                                                                                \
    "\"_meta\":{\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\","                       \
    "\"io.modelcontextprotocol/clientCapabilities\":{}}"

static void test_modern_era(void **state)
{
    struct fixture *f = *state;
    const char *r = ask(f, "{\"jsonrpc\":\"2.0\",\"id\":\"d\",\"method\":\"server/discover\","
                            "\"params\":{" MODERN_META "}}");
    assert_non_null(strstr(r, "\"supportedVersions\":[\"2026-07-28\"]"));
    assert_non_null(strstr(r, "\"resultType\":\"complete\""));
    assert_non_null(strstr(r, "\"ttlMs\":"));
    assert_non_null(strstr(r, "\"io.modelcontextprotocol/serverInfo\":{\"name\":\"mcp-codemode\""));
    r = ask(f, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\",\"params\":{" MODERN_META
                "}}");
    assert_non_null(strstr(r, "\"name\":\"execute_code\""));
    assert_non_null(strstr(r, "\"cacheScope\":\"private\""));
    r = ask(f, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\",\"params\":{" MODERN_META "}}");
    assert_non_null(strstr(r, "\"id\":3,\"error\":{\"code\":-32601"));
    r = ask(f, "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/list\",\"params\":{\"_meta\":{"
                "\"io.modelcontextprotocol/protocolVersion\":\"2099-01-01\","
                "\"io.modelcontextprotocol/clientCapabilities\":{}}}}");
    assert_string_equal(r, "{\"jsonrpc\":\"2.0\",\"id\":4,\"error\":{\"code\":-32022,\"message\":"
                           "\"Unsupported protocol version\",\"data\":{\"supported\":[\"2026-07-"
                           "28\"],\"requested\":\"2099-01-01\"}}}\n");
    r = ask(f, "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/list\",\"params\":{\"_meta\":{"
                "\"io.modelcontextprotocol/protocolVersion\":\"2026-07-28\"}}}");
    assert_non_null(strstr(r, "\"id\":5,\"error\":{\"code\":-32602"));
    /* Modern requests are served even after a legacy initialize on the same process. */
    INIT(f, "2025-03-26");
    r = ask(f, "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"server/discover\",\"params\":{" MODERN_META
                "}}");
    assert_non_null(strstr(r, "\"supportedVersions\""));
}

static void test_tool_fields_by_revision(void **state)
{
    struct fixture *f = *state;
    INIT(f, "2024-11-05");
    const char *r = ask(f, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}");
    assert_null(strstr(r, "outputSchema"));
    assert_null(strstr(r, "annotations"));
    assert_null(strstr(r, "\"title\""));
    assert_non_null(strstr(r, "\"inputSchema\":{\"type\":\"object\""));
    teardown(state);
    setup(state);
    f = *state;
    INIT(f, "2025-06-18");
    r = ask(f, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}");
    assert_non_null(strstr(r, "\"outputSchema\":{\"type\":\"object\""));
    assert_non_null(strstr(r, "\"title\":\"Execute code\""));
    assert_non_null(strstr(ask(f, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\","
                                   "\"params\":{\"cursor\":\"x\"}}"),
                           "\"code\":-32602"));
}

static void test_batches(void **state)
{
    struct fixture *f = *state;
    INIT(f, "2025-03-26");
    const char *r = ask(f, "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"},"
                            "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"},"
                            "{\"jsonrpc\":\"2.0\",\"id\":\"x\",\"method\":\"nope\"}, 5]");
    assert_string_equal(r, "[{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}},"
                           "{\"jsonrpc\":\"2.0\",\"id\":\"x\",\"error\":{\"code\":-32601,"
                           "\"message\":\"Method not found: nope\"}},"
                           "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32600,"
                           "\"message\":\"Invalid Request: a message must be a JSON object\"}}]\n");
    assert_int_equal(f->writes, 1);
    assert_string_equal(ask(f, "[{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}]"),
                        "");
    assert_non_null(strstr(ask(f, "[]"), "\"code\":-32600"));
}

static void test_batches_refused_elsewhere(void **state)
{
    struct fixture *f = *state;
    INIT(f, "2025-11-25");
    const char *r = ask(f, "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]");
    assert_string_equal(r, "{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32600,\"message\":\"Invalid "
                           "Request: JSON-RPC batches are not supported in this protocol revision "
                           "(only 2025-03-26 has them)\"}}\n");
}

static void test_oversize(void **state)
{
    struct fixture *f = *state;
    INIT(f, "2025-11-25");
    buf_reset(&f->out);
    const char head[] = "{\"jsonrpc\":\"2.0\",\"id\":42,\"method\":\"tools/call\",\"params\":{\"x\":\"";
    mcp_server_handle_oversize(f->s, head, sizeof head - 1, 20000000);
    assert_non_null(strstr(f->out.data, "\"id\":42,\"error\":{\"code\":-32600"));
    buf_reset(&f->out);
    mcp_server_handle_oversize(f->s, "{\"params\":{\"x\":\"", 16, 20000000);
    assert_null(f->out.data && f->out.len ? f->out.data : NULL);
}

static void test_invalid_utf8_repaired(void **state)
{
    struct fixture *f = *state;
    INIT(f, "2025-11-25");
    const char *r = ask(f, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"no\xff\"}");
    assert_non_null(strstr(r, "Method not found: no\xEF\xBF\xBD"));
}

static void test_resources(void **state)
{
    struct fixture *f = *state;
    INIT(f, "2025-11-25");
    assert_non_null(strstr(ask(f, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"resources/list\"}"),
                           "\"uri\":\"codemode://declarations.d.ts\""));
    const char *r = ask(f, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"resources/read\","
                           "\"params\":{\"uri\":\"codemode://declarations.d.ts\"}}");
    assert_non_null(strstr(r, "\"mimeType\":\"application/typescript\",\"text\":\""));
    assert_non_null(strstr(r, "declare class ToolError extends Error"));
    assert_non_null(strstr(r, "declare const tools: {"));
    assert_non_null(strstr(ask(f, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"resources/read\","
                                   "\"params\":{\"uri\":\"codemode://nope\"}}"),
                           "\"code\":-32002"));
}

struct rec {
    int sends, finals, releases;
    struct buf out;
};

static void rec_send(void *ud, const char *data, size_t len, int final)
{
    struct rec *r = ud;
    assert_int_equal(r->releases, 0); /* nothing after the release */
    r->sends++;
    r->finals += final;
    buf_append(&r->out, data, len);
}

static void rec_release(void *ud)
{
    struct rec *r = ud;
    r->releases++;
}

static int on_channel(struct fixture *f, const char *msg, struct rec *r)
{
    memset(r, 0, sizeof *r);
    buf_init(&r->out, 0);
    struct mcp_channel ch = {r, rec_send, rec_release};
    return mcp_server_handle_on(f->s, msg, strlen(msg), &ch);
}

static void test_channels(void **state)
{
    struct fixture *f = *state;
    struct rec r;
    INIT(f, "2025-03-26");
    /* a request: one final reply, then one release; nothing on the session */
    buf_reset(&f->out);
    assert_int_equal(on_channel(f, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}", &r), 1);
    assert_int_equal(r.finals, 1);
    assert_int_equal(r.releases, 1);
    assert_string_equal(r.out.data, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n");
    assert_int_equal(f->out.len, 0);
    buf_free(&r.out);
    /* a notification: no reply, no release */
    assert_int_equal(on_channel(f, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}", &r), 0);
    assert_int_equal(r.sends + r.releases, 0);
    buf_free(&r.out);
    /* an invalid message: the error is the final reply */
    assert_int_equal(on_channel(f, "{oops", &r), 1);
    assert_int_equal(r.finals, 1);
    assert_int_equal(r.releases, 1);
    buf_free(&r.out);
    /* a batch: one final array, one release */
    assert_int_equal(on_channel(f, "[{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"},"
                                   "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}]", &r), 1);
    assert_int_equal(r.sends, 1);
    assert_int_equal(r.finals, 1);
    assert_int_equal(r.releases, 1);
    buf_free(&r.out);
    /* a batch of notifications only */
    assert_int_equal(on_channel(f, "[{\"jsonrpc\":\"2.0\",\"method\":\"notifications/x\"}]", &r), 0);
    assert_int_equal(r.sends + r.releases, 0);
    buf_free(&r.out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_ids_echoed_exactly, setup, teardown),
        cmocka_unit_test_setup_teardown(test_notifications_never_answered, setup, teardown),
        cmocka_unit_test_setup_teardown(test_error_codes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_negotiation, setup, teardown),
        cmocka_unit_test_setup_teardown(test_negotiation_unknown_and_modern, setup, teardown),
        cmocka_unit_test_setup_teardown(test_before_initialize, setup, teardown),
        cmocka_unit_test_setup_teardown(test_modern_era, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tool_fields_by_revision, setup, teardown),
        cmocka_unit_test_setup_teardown(test_batches, setup, teardown),
        cmocka_unit_test_setup_teardown(test_batches_refused_elsewhere, setup, teardown),
        cmocka_unit_test_setup_teardown(test_oversize, setup, teardown),
        cmocka_unit_test_setup_teardown(test_invalid_utf8_repaired, setup, teardown),
        cmocka_unit_test_setup_teardown(test_resources, setup, teardown),
        cmocka_unit_test_setup_teardown(test_channels, setup, teardown),
    };
    return cmocka_run_group_tests_name("mcp_server_server", tests, NULL, NULL);
}
