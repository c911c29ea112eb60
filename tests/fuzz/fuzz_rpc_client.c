/* Fuzz target: what a downstream server writes back. Each input line is a
 * line from the server, fed to the JSON-RPC client (transport/rpc_client.c)
 * with three requests pending; a line starting with 0x01 is reported as an
 * oversized line instead (its head and tail). Results are mapped to program
 * values (tools/result_map.c) and must be JSON; every request is answered
 * exactly once; what the client writes back (answers to the server's own
 * requests) must be JSON-RPC; json_scan must agree on value ends. */
#include "fuzz.h"
#include "common/json.h"

#include "common/buf.h"
#include "tools/catalog.h"
#include "tools/result_map.h"
#include "transport/json_scan.h"
#include "transport/jsonrpc.h"
#include "transport/rpc_client.h"

#include <string.h>

static uv_loop_t loop;
static cJSON *tool_json;

struct pending {
    int replies;
};

static int on_write(void *ud, const char *data, size_t len)
{
    (void) ud;
    FUZZ_CHECK(len > 0 && data[len - 1] == '\n' && memchr(data, '\n', len) == data + len - 1,
               "a write is not one line");
    cJSON *j = json_parse(data, len - 1);
    FUZZ_CHECK(cJSON_IsObject(j), "client wrote something not JSON: %.*s", (int) len, data);
    cJSON_Delete(j);
    return 0;
}

static void on_note(void *ud, const char *method, const cJSON *params)
{
    (void) ud;
    FUZZ_CHECK(method != NULL, "notification without a method");
    (void) params;
}

static void on_reply(void *ud, const struct rpc_client_reply *r)
{
    struct pending *p = ud;
    p->replies++;
    FUZZ_CHECK(p->replies == 1, "a request answered twice");
    FUZZ_CHECK(r->message || r->status == RPC_CLIENT_OK, "error reply without a message");
    if (r->status == RPC_CLIENT_OK) {
        struct tools_catalog_tool t = {
            .server = "srv", .server_id = "srv", .name = "t", .id = "t", .tool = tool_json};
        struct buf out;
        buf_init(&out, 0);
        tools_result_map(&t, r->result, &out);
        cJSON *j = json_parse(out.data, out.len);
        FUZZ_CHECK(j != NULL, "mapped result is not JSON: %.*s", (int) out.len, out.data);
        cJSON_Delete(j);
        buf_free(&out);
    }
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    fuzz_setup();
    uv_loop_init(&loop);
    tool_json = cJSON_Parse("{\"name\":\"t\",\"inputSchema\":{\"type\":\"object\"}}");
    return 0;
}

static void scan_check(const char *line, size_t len)
{
    const char *end = json_scan_value(line, line + len);
    if (end)
        FUZZ_CHECK(end > line && end <= line + len, "scan ended outside the text");
    static const char *const id_path[] = {"id"}, *const err_path[] = {"error", "code"};
    size_t n;
    const char *v = json_scan_member(line, len, id_path, 1, &n);
    if (v)
        FUZZ_CHECK(v >= line && v + n <= line + len, "member outside the text");
    v = json_scan_member(line, len, err_path, 2, &n);
    if (v)
        FUZZ_CHECK(v >= line && v + n <= line + len, "member outside the text");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const struct rpc_client_events ev = {on_write, on_note};
    struct rpc_client *rc = rpc_client_new(&loop, "fuzz", &ev, NULL);
    struct pending p[3] = {{0}};
    rpc_client_call(rc, "initialize", NULL, 0, RPC_CLIENT_NO_CANCEL, on_reply, &p[0]);
    rpc_client_call(rc, "tools/list", cJSON_CreateObject(), 0, 0, on_reply, &p[1]);
    rpc_client_call(rc, "tools/call", NULL, 0, 0, on_reply, &p[2]);
    const char *s = (const char *) data, *end = s + size;
    while (s < end) {
        const char *nl = memchr(s, '\n', (size_t) (end - s));
        size_t len = nl ? (size_t) (nl - s) : (size_t) (end - s);
        if (len > 0 && s[0] == 1) {
            size_t half = (len - 1) / 2;
            rpc_client_oversize(rc, s + 1, half, s + 1 + half, len - 1 - half, 1u << 24, 1u << 20);
        } else {
            scan_check(s, len);
            rpc_client_line(rc, s, len);
        }
        s += len + 1;
    }
    size_t left = rpc_client_pending(rc);
    FUZZ_CHECK(left <= 3, "%zu pending", left);
    rpc_client_fail_all(rc, "fuzz: end of input");
    for (int i = 0; i < 3; i++)
        FUZZ_CHECK(p[i].replies == 1, "request %d answered %d times", i + 1, p[i].replies);
    rpc_client_free(rc);
    uv_run(&loop, UV_RUN_NOWAIT);
    return 0;
}
