/* JSON-RPC 2.0 parsing and writing (see jsonrpc.h). */
#include "transport/jsonrpc.h"
#include "transport/json_scan.h"
#include "common/alloc.h"
#include "common/buf.h"
#include "common/json.h"
#include "common/utf8.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void invalid(struct rpc_message *m, int code, const char *reason)
{
    m->kind = RPC_INVALID;
    m->invalid_code = code;
    snprintf(m->invalid_reason, sizeof m->invalid_reason, "%s", reason);
}

/* The id's exact text when it is a string or a number. Not for a string
 * of bytes that are not UTF-8: it could not be echoed as it came (what we
 * write is valid UTF-8), and a reply with another id answers nothing. */
static char *raw_id(const char *text, size_t len)
{
    static const char *const path[] = {"id"};
    size_t n;
    const char *v = json_scan_member(text, len, path, 1, &n);
    if (v == NULL || n == 0 || !utf8_is_valid(v, n))
        return NULL;
    if (*v != '"' && *v != '-' && (*v < '0' || *v > '9'))
        return NULL;
    return xstrndup(v, n);
}

void rpc_parse(const char *text, size_t len, struct rpc_message *m)
{
    rpc_parse_tree(text, len, json_parse(text, len), m); /* NULL too with bytes after the value */
}

void rpc_parse_tree(const char *text, size_t len, cJSON *tree, struct rpc_message *m)
{
    memset(m, 0, sizeof *m);
    m->json = tree;
    if (m->json == NULL) {
        invalid(m, RPC_PARSE_ERROR, "Parse error: the message is not valid JSON");
        return;
    }
    if (!cJSON_IsObject(m->json)) {
        invalid(m, RPC_INVALID_REQUEST, "Invalid Request: a message must be a JSON object");
        return;
    }
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(m->json, "id");
    if (id && (cJSON_IsString(id) || cJSON_IsNumber(id)))
        m->id = raw_id(text, len);
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(m->json, "jsonrpc");
    if (!cJSON_IsString(v) || strcmp(v->valuestring, "2.0") != 0) {
        invalid(m, RPC_INVALID_REQUEST, "Invalid Request: \"jsonrpc\" must be \"2.0\"");
        return;
    }
    if (id && m->id == NULL) {
        invalid(m, RPC_INVALID_REQUEST,
                "Invalid Request: \"id\" must be a string (of UTF-8) or an integer");
        return;
    }
    const cJSON *method = cJSON_GetObjectItemCaseSensitive(m->json, "method");
    if (method) {
        if (!cJSON_IsString(method)) {
            invalid(m, RPC_INVALID_REQUEST, "Invalid Request: \"method\" must be a string");
            return;
        }
        m->method = method->valuestring;
        m->params = cJSON_GetObjectItemCaseSensitive(m->json, "params");
        if (m->params && !cJSON_IsObject(m->params) && !cJSON_IsArray(m->params)) {
            invalid(m, RPC_INVALID_REQUEST, "Invalid Request: \"params\" must be an object");
            return;
        }
        m->kind = id ? RPC_REQUEST : RPC_NOTIFICATION;
        return;
    }
    m->result = cJSON_GetObjectItemCaseSensitive(m->json, "result");
    m->error = cJSON_GetObjectItemCaseSensitive(m->json, "error");
    if (m->id && ((m->result != NULL) != (m->error != NULL))) {
        m->kind = RPC_RESPONSE;
        return;
    }
    invalid(m, RPC_INVALID_REQUEST, "Invalid Request: no \"method\", and not a response");
}

void rpc_message_free(struct rpc_message *m)
{
    cJSON_Delete(m->json);
    free(m->id);
    memset(m, 0, sizeof *m);
}

int rpc_is_batch(const char *text, size_t len)
{
    const char *p = json_scan_ws(text, text + len);
    return p < text + len && *p == '[';
}

int rpc_split_batch(const char *text, size_t len, struct rpc_span **spans)
{
    const char *p = json_scan_ws(text, text + len), *end = text + len;
    *spans = NULL;
    if (p >= end || *p != '[' || json_scan_value(p, end) == NULL)
        return -1;
    if (json_scan_ws(json_scan_value(p, end), end) != end)
        return -1;
    int n = 0, cap = 0;
    p = json_scan_ws(p + 1, end);
    if (*p == ']')
        return 0;
    for (;;) {
        const char *s = json_scan_ws(p, end);
        const char *e = json_scan_value(s, end);
        if (n == cap) {
            cap = cap ? 2 * cap : 8;
            *spans = xrealloc(*spans, (size_t) cap * sizeof **spans);
        }
        (*spans)[n].start = s;
        (*spans)[n].len = (size_t) (e - s);
        n++;
        p = json_scan_ws(e, end);
        if (*p == ']')
            return n;
        p++; /* ',' (the whole array was validated above) */
    }
}

char *rpc_recover_id(const char *text, size_t len)
{
    return raw_id(text, len);
}

char *rpc_id_key_of(const cJSON *id)
{
    if (cJSON_IsString(id) || cJSON_IsNumber(id))
        return json_print(id);
    return NULL;
}

void rpc_write_result(struct buf *out, const char *id, const char *result_json)
{
    buf_append_str(out, "{\"jsonrpc\":\"2.0\",\"id\":");
    buf_append_str(out, id);
    buf_append_str(out, ",\"result\":");
    buf_append_str(out, result_json);
    buf_append_str(out, "}\n");
}

void rpc_write_error(struct buf *out, const char *id, int null_id, int code, const char *message,
                     const cJSON *data)
{
    buf_append_str(out, "{\"jsonrpc\":\"2.0\"");
    if (id)
        buf_printf(out, ",\"id\":%s", id);
    else if (null_id)
        buf_append_str(out, ",\"id\":null");
    buf_printf(out, ",\"error\":{\"code\":%d,\"message\":", code);
    json_append_string(out, message, strlen(message));
    if (data) {
        char *d = json_print(data);
        buf_append_str(out, ",\"data\":");
        buf_append_str(out, d);
        free(d);
    }
    buf_append_str(out, "}}\n");
}

void rpc_write_notification(struct buf *out, const char *method, const char *params_json)
{
    buf_append_str(out, "{\"jsonrpc\":\"2.0\",\"method\":");
    json_append_string(out, method, strlen(method));
    if (params_json) {
        buf_append_str(out, ",\"params\":");
        buf_append_str(out, params_json);
    }
    buf_append_str(out, "}\n");
}

void rpc_write_request(struct buf *out, const char *id, const char *method, const char *params_json)
{
    buf_append_str(out, "{\"jsonrpc\":\"2.0\",\"id\":");
    buf_append_str(out, id);
    buf_append_str(out, ",\"method\":");
    json_append_string(out, method, strlen(method));
    if (params_json) {
        buf_append_str(out, ",\"params\":");
        buf_append_str(out, params_json);
    }
    buf_append_str(out, "}\n");
}
