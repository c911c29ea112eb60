/* The downstream server of the proxy benchmark (tests/bench/bench_proxy.mjs): a
 * minimal, fast stdio MCP server in C. Newline-delimited JSON-RPC on
 * stdin/stdout: initialize, ping, tools/list with one tool `echo` (arguments
 * {message: string, n?: integer}) and tools/call, which answers the arguments
 * back as structuredContent plus a text copy (or only the text with --text).
 * Every complete line of a read() is answered, and the answers of one read
 * leave in one write(), so a burst of requests costs few system calls.
 * Build: cc -O2 -o echo_server echo_server.c -lcjson
 * Usage: echo_server [--text]   (exit at EOF on stdin) */
#define _GNU_SOURCE
#include <cjson/cJSON.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_LINE (16u << 20)

static const char TOOLS[] =
    "{\"tools\":[{\"name\":\"echo\",\"description\":\"Returns its arguments.\","
    "\"inputSchema\":{\"type\":\"object\",\"properties\":{\"message\":{\"type\":\"string\"},"
    "\"n\":{\"type\":\"integer\"}},\"required\":[\"message\"],\"additionalProperties\":false}}]}";

static const char *const VERSIONS[] = {"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"};

struct text {
    char *data;
    size_t len, cap;
};

static int text_only;
static struct text in, out;

static void put(struct text *t, const char *p, size_t n)
{
    if (t->len + n > t->cap) {
        size_t cap = t->cap ? t->cap : 65536;
        while (cap < t->len + n)
            cap *= 2;
        t->data = realloc(t->data, cap);
        if (t->data == NULL)
            abort();
        t->cap = cap;
    }
    memcpy(t->data + t->len, p, n);
    t->len += n;
}

static void puts_text(struct text *t, const char *s)
{
    put(t, s, strlen(s));
}

/* Appends v as compact JSON (cJSON prints, we copy). */
static void put_json(struct text *t, const cJSON *v)
{
    char *s = cJSON_PrintUnformatted(v);
    if (s == NULL)
        abort();
    puts_text(t, s);
    free(s);
}

/* {"jsonrpc":"2.0","id":ID,"result":RESULT}\n with RESULT already JSON text. */
static void reply(const cJSON *id, const char *result)
{
    puts_text(&out, "{\"jsonrpc\":\"2.0\",\"id\":");
    put_json(&out, id);
    puts_text(&out, ",\"result\":");
    puts_text(&out, result);
    puts_text(&out, "}\n");
}

static void reply_error(const cJSON *id, int code, const char *message)
{
    char tail[300];
    puts_text(&out, "{\"jsonrpc\":\"2.0\",\"id\":");
    if (id)
        put_json(&out, id);
    else
        puts_text(&out, "null");
    snprintf(tail, sizeof tail, ",\"error\":{\"code\":%d,\"message\":\"%s\"}}\n", code, message);
    puts_text(&out, tail);
}

static void initialize(const cJSON *id, const cJSON *params)
{
    const char *asked =
        cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(params, "protocolVersion"));
    const char *v = VERSIONS[0];
    for (size_t i = 0; asked && i < sizeof VERSIONS / sizeof *VERSIONS; i++)
        if (strcmp(asked, VERSIONS[i]) == 0)
            v = VERSIONS[i];
    char result[300];
    snprintf(result, sizeof result,
             "{\"protocolVersion\":\"%s\",\"capabilities\":{\"tools\":{}},"
             "\"serverInfo\":{\"name\":\"echo-server\",\"version\":\"1.0.0\"}}",
             v);
    reply(id, result);
}

/* tools/call echo: the arguments back, as structuredContent and as text. */
static void call(const cJSON *id, const cJSON *params)
{
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(params, "name");
    const cJSON *args = cJSON_GetObjectItemCaseSensitive(params, "arguments");
    if (!cJSON_IsString(name) || strcmp(name->valuestring, "echo") != 0) {
        reply_error(id, -32602, "Unknown tool");
        return;
    }
    char *text = args ? cJSON_PrintUnformatted(args) : strdup("{}");
    cJSON *quoted = cJSON_CreateString(text);
    puts_text(&out, "{\"jsonrpc\":\"2.0\",\"id\":");
    put_json(&out, id);
    puts_text(&out, ",\"result\":{\"content\":[{\"type\":\"text\",\"text\":");
    put_json(&out, quoted);
    puts_text(&out, "}]");
    if (!text_only) {
        puts_text(&out, ",\"structuredContent\":");
        puts_text(&out, text);
    }
    puts_text(&out, "}}\n");
    cJSON_Delete(quoted);
    free(text);
}

static void handle(const char *line, size_t len)
{
    cJSON *m = cJSON_ParseWithLength(line, len);
    if (m == NULL) {
        reply_error(NULL, -32700, "Parse error");
        return;
    }
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(m, "id");
    const char *method = cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(m, "method"));
    const cJSON *params = cJSON_GetObjectItemCaseSensitive(m, "params");
    if (id == NULL || method == NULL) /* a notification, or a response to nothing we sent */
        ;
    else if (strcmp(method, "tools/call") == 0)
        call(id, params);
    else if (strcmp(method, "initialize") == 0)
        initialize(id, params);
    else if (strcmp(method, "tools/list") == 0)
        reply(id, TOOLS);
    else if (strcmp(method, "ping") == 0)
        reply(id, "{}");
    else
        reply_error(id, -32601, "Method not found");
    cJSON_Delete(m);
}

static int flush_out(void)
{
    size_t off = 0;
    while (off < out.len) {
        ssize_t w = write(1, out.data + off, out.len - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        off += (size_t) w;
    }
    out.len = 0;
    return 0;
}

/* Answers every complete line in `in` and keeps the partial tail. */
static void handle_lines(void)
{
    size_t start = 0;
    char *nl;
    while ((nl = memchr(in.data + start, '\n', in.len - start)) != NULL) {
        size_t n = (size_t) (nl - (in.data + start));
        if (n > 0)
            handle(in.data + start, n);
        start += n + 1;
    }
    memmove(in.data, in.data + start, in.len - start);
    in.len -= start;
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--text") == 0)
            text_only = 1;
    char chunk[65536];
    for (;;) {
        ssize_t n = read(0, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return 0;
        put(&in, chunk, (size_t) n);
        handle_lines();
        if (in.len > MAX_LINE) {
            reply_error(NULL, -32600, "Request too large");
            in.len = 0;
        }
        if (flush_out() != 0)
            return 1;
    }
}
