/* Fuzz target: the stdio transport's input path. Bytes go through the line
 * framing (transport/frame.c, a small cap so oversized lines happen) into the
 * real MCP connection (mcp-server/server.c: JSON-RPC parsing, batches, id
 * recovery, initialize/ping/tools/list...). Every reply must be one JSON-RPC
 * line, and a request's reply must echo its id byte for byte. */
#include "fuzz.h"
#include "common/json.h"

#include "common/buf.h"
#include "mcp-server/config/config.h"
#include "mcp-server/server.h"
#include "tools/registry.h"
#include "transport/frame.h"
#include "transport/json_scan.h"
#include "transport/jsonrpc.h"

#include <string.h>

struct ctx {
    struct mcp_server *s;
    char *last_id; /* raw id text of the last final reply (NULL: none or no id) */
    int finals;
};

static struct config cfg;
static struct tools_registry *tools;

/* One message we wrote: a JSON-RPC 2.0 response (an error may lack its id,
 * as MCP 2025-11-25 allows) or a notification. */
static void check_reply_line(struct ctx *c, const char *line, size_t len, int final)
{
    cJSON *j = json_parse(line, len);
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(j, "jsonrpc");
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(j, "id");
    int response = cJSON_HasObjectItem(j, "result") + cJSON_HasObjectItem(j, "error");
    int notification = cJSON_IsString(cJSON_GetObjectItemCaseSensitive(j, "method")) && !id;
    FUZZ_CHECK(cJSON_IsObject(j) && cJSON_IsString(v) && strcmp(v->valuestring, "2.0") == 0 &&
                   (response == 1 || notification) &&
                   (!id || cJSON_IsString(id) || cJSON_IsNumber(id) || cJSON_IsNull(id)),
               "reply is not JSON-RPC: %.*s", (int) len, line);
    if (final && response) {
        static const char *const id_path[] = {"id"};
        size_t n;
        const char *raw = json_scan_member(line, len, id_path, 1, &n);
        free(c->last_id);
        c->last_id = raw ? xstrndup(raw, n) : NULL;
        c->finals++;
    }
    cJSON_Delete(j);
}

static void sink(void *ud, const char *data, size_t len, int final)
{
    struct ctx *c = ud;
    FUZZ_CHECK(len > 0 && data[len - 1] == '\n', "a send is not whole lines");
    size_t start = 0;
    while (start < len) {
        const char *nl = memchr(data + start, '\n', len - start);
        size_t n = (size_t) (nl - (data + start));
        /* a batch reply is one array line: check each element */
        if (rpc_is_batch(data + start, n)) {
            struct rpc_span *spans;
            int k = rpc_split_batch(data + start, n, &spans);
            FUZZ_CHECK(k > 0, "batch reply is not a non-empty array");
            for (int i = 0; i < k; i++)
                check_reply_line(c, spans[i].start, spans[i].len, 0);
            free(spans);
        } else {
            check_reply_line(c, data + start, n, final);
        }
        start += n + 1;
    }
}

/* 1 when the message (or an element of a batch) is a tools/call: those start
 * a sandbox execution or a downstream call, which this target has not got. */
static int calls_tools(const char *text, size_t len)
{
    struct rpc_span *spans = NULL, one = {text, len};
    int k = 1;
    if (rpc_is_batch(text, len)) {
        k = rpc_split_batch(text, len, &spans);
        if (k < 0)
            return 0;
    }
    int found = 0;
    for (int i = 0; i < k && !found; i++) {
        const struct rpc_span *sp = spans ? &spans[i] : &one;
        struct rpc_message m;
        rpc_parse(sp->start, sp->len, &m);
        found = m.method && strcmp(m.method, "tools/call") == 0;
        rpc_message_free(&m);
    }
    free(spans);
    return found;
}

static void on_line(void *ud, char *line, size_t len)
{
    struct ctx *c = ud;
    if (calls_tools(line, len))
        return;
    struct rpc_message m;
    rpc_parse(line, len, &m);
    int single_request = m.kind == RPC_REQUEST && !rpc_is_batch(line, len);
    char *want = single_request ? xstrdup(m.id) : NULL;
    rpc_message_free(&m);
    int before = c->finals;
    mcp_server_handle(c->s, line, len);
    if (want) {
        FUZZ_CHECK(c->finals == before + 1, "a request got %d replies", c->finals - before);
        FUZZ_CHECK(c->last_id && strcmp(c->last_id, want) == 0, "id %s echoed as %s", want,
                   c->last_id ? c->last_id : "(none)");
    }
    free(want);
}

static void on_oversize(void *ud, const char *prefix, size_t prefix_len, size_t total)
{
    struct ctx *c = ud;
    mcp_server_handle_oversize(c->s, prefix, prefix_len, total);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    fuzz_setup();
    config_init(&cfg);
    tools = tools_registry_new(NULL, NULL);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct ctx c = {0};
    struct mcp_server_config sc = {.tools = tools, .limits = &cfg.limits};
    struct mcp_channel ch = {&c, sink, NULL};
    c.s = mcp_server_new(&sc, &ch);
    struct frame_reader r;
    frame_reader_init(&r, 2048);
    static const struct frame_events ev = {on_line, on_oversize};
    /* feed in two pieces (split where the first byte says) to cross reads */
    size_t cut = size ? data[0] % (size + 1) : 0;
    frame_reader_feed(&r, (const char *) data, cut, &ev, &c);
    frame_reader_feed(&r, (const char *) data + cut, size - cut, &ev, &c);
    frame_reader_free(&r);
    mcp_server_free(c.s);
    free(c.last_id);
    return 0;
}
