/* Fuzz target: the HTTP server's request handling below the MCP routes.
 * Bytes are fed to the llhttp-based parser (transport/http_parser.c) in
 * fragments chosen by the input, with pipelining; each parsed request then
 * goes through the checks the routes apply (mcp-server/http/check.c: Host
 * and Origin against a loopback and a wildcard server, bearer token, Accept,
 * Content-Type, header value characters, base64 header values, query
 * parameters) and its body through JSON-RPC parsing. */
#include "fuzz.h"

#include "mcp-server/http/internal.h"
#include "transport/http_parser.h"
#include "transport/jsonrpc.h"

#include <string.h>

static char *origins[] = {"https://app.example", "http://[::1]:9000", NULL};
static struct mcp_http loopback, wildcard;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    fuzz_setup();
    loopback.listen_host = "127.0.0.1";
    loopback.port = 8080;
    loopback.cfg.allowed_origins = origins;
    wildcard.listen_host = "::";
    wildcard.port = 80;
    wildcard.wildcard = 1;
    return 0;
}

static void check_request(const struct http_server_request *r)
{
    FUZZ_CHECK(r->method && r->target && r->path && r->query, "request strings missing");
    FUZZ_CHECK(strlen(r->path) <= strlen(r->target), "path longer than target");
    for (size_t i = 0; i < r->nheaders; i++) {
        const struct http_header *h = &r->headers[i];
        FUZZ_CHECK(strlen(h->name) == h->name_len && strlen(h->value) <= h->value_len,
                   "header lengths wrong");
        /* the checks read any header value the client sends */
        mcp_http__check_host(&loopback, h->value);
        mcp_http__check_host(&wildcard, h->value);
        mcp_http__check_origin(&loopback, h->value);
        mcp_http__check_origin(&wildcard, h->value);
        mcp_http__check_token(h->value, "s3cret");
        mcp_http__accepts(h->value, "application/json");
        mcp_http__accepts(h->value, "text/event-stream");
        mcp_http__media_is(h->value, "application/json");
        if (mcp_http__field_ok(h->value))
            free(mcp_http__decode_header_value(h->value));
        free(mcp_http__query_param(r->query, h->name));
    }
    const char *host = http_parser_header(r, "host");
    if (host)
        FUZZ_CHECK(http_parser_header_count(r, "host") >= 1, "host header not counted");
    free(mcp_http__query_param(r->query, "sessionId"));
    if (r->body) {
        struct rpc_message m;
        if (rpc_is_batch(r->body, r->body_len)) {
            struct rpc_span *spans;
            if (rpc_split_batch(r->body, r->body_len, &spans) >= 0)
                free(spans);
        }
        rpc_parse(r->body, r->body_len, &m);
        rpc_message_free(&m);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    /* first byte: fragment size (0: all at once); second: small caps or not */
    size_t frag = data[0] ? data[0] : size;
    struct http_parser_limits lim = {0, 0, 0};
    if (data[1] & 1)
        lim = (struct http_parser_limits){256, 8, 64};
    data += 2;
    size -= 2;
    struct http_parser *p = http_parser_new(&lim);
    size_t off = 0;
    int requests = 0;
    while (off < size) {
        size_t n = size - off < frag ? size - off : frag;
        enum http_parse_event ev;
        size_t used = http_parser_feed(p, (const char *) data + off, n, &ev);
        FUZZ_CHECK(used <= n, "consumed more than fed");
        off += used;
        if (ev == HTTP_PARSE_ERROR) {
            int st = http_parser_error_status(p);
            FUZZ_CHECK(st == 400 || st == 413 || st == 431 || st == 501 || st == 505, "status %d",
                       st);
            FUZZ_CHECK(http_parser_error_reason(p) != NULL, "no reason");
            break;
        }
        if (ev == HTTP_PARSE_HEAD || ev == HTTP_PARSE_REQUEST) {
            const struct http_server_request *r = http_parser_request(p);
            FUZZ_CHECK(r != NULL, "no request after an event");
            check_request(r);
        }
        if (ev == HTTP_PARSE_REQUEST) {
            http_parser_next(p);
            if (++requests > 64)
                break;
        } else if (ev == HTTP_PARSE_MORE) {
            FUZZ_CHECK(used == n, "MORE without consuming everything");
        }
        /* HEAD may stop early; nothing consumed and no progress would loop */
        if (used == 0 && ev == HTTP_PARSE_MORE)
            break;
    }
    if (off >= size && http_parser_finish(p) == HTTP_PARSE_REQUEST)
        check_request(http_parser_request(p));
    http_parser_free(p);
    return 0;
}
