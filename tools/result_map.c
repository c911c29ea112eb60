/* Mapping of downstream results and errors to program values (see result_map.h). */
#include "tools/result_map.h"
#include "tools/catalog.h"
#include "tools/schema/schema.h"
#include "common/alloc.h"
#include "common/buf.h"
#include "common/json.h"

#include <stdlib.h>
#include <string.h>

static void qualified(const struct tools_catalog_tool *t, struct buf *b)
{
    buf_printf(b, "%s.%s", t->server, t->name);
}

void tools_result_error(const char *name, const char *message, const char *tool, struct buf *out)
{
    buf_append_str(out, "{\"name\":");
    json_append_string(out, name, strlen(name));
    buf_append_str(out, ",\"message\":");
    json_append_string(out, message, strlen(message));
    if (tool) {
        buf_append_str(out, ",\"tool\":");
        json_append_string(out, tool, strlen(tool));
    }
    buf_append_char(out, '}');
}

/* The text items of a content array joined by newlines, or NULL. */
static char *joined_text(const cJSON *content)
{
    struct buf b;
    buf_init(&b, 0);
    const cJSON *item;
    cJSON_ArrayForEach(item, content)
    {
        const cJSON *type = cJSON_GetObjectItemCaseSensitive(item, "type");
        const cJSON *text = cJSON_GetObjectItemCaseSensitive(item, "text");
        if (cJSON_IsString(type) && !strcmp(type->valuestring, "text") && cJSON_IsString(text)) {
            if (b.len)
                buf_append_char(&b, '\n');
            buf_append_str(&b, text->valuestring);
        }
    }
    if (b.len == 0) {
        buf_free(&b);
        return NULL;
    }
    return buf_steal(&b);
}

static int tool_error(const struct tools_catalog_tool *t, const cJSON *result, struct buf *out)
{
    struct buf name;
    buf_init(&name, 0);
    qualified(t, &name);
    char *text = joined_text(cJSON_GetObjectItemCaseSensitive(result, "content"));
    struct buf msg;
    buf_init(&msg, 0);
    if (text)
        buf_append_str(&msg, text);
    else
        buf_printf(&msg, "%s reported an error", name.data);
    free(text);
    buf_append_str(out, "{\"name\":\"ToolError\",\"message\":");
    json_append_string(out, msg.data, msg.len);
    buf_append_str(out, ",\"tool\":");
    json_append_string(out, name.data, name.len);
    char *raw = json_print(result);
    buf_append_str(out, ",\"result\":");
    buf_append_str(out, raw);
    buf_append_char(out, '}');
    free(raw);
    buf_free(&msg);
    buf_free(&name);
    return 0;
}

static void append_json(struct buf *out, const cJSON *v)
{
    char *s = json_print(v);
    buf_append_str(out, s);
    free(s);
}

static int structured(const struct tools_catalog_tool *t, const cJSON *sc, struct buf *out)
{
    if (t->output) {
        struct tools_schema_result r;
        if (!tools_schema_validate(t->output, sc, &r)) {
            char *lines = tools_schema_result_format(&r);
            struct buf name, msg;
            buf_init(&name, 0);
            buf_init(&msg, 0);
            qualified(t, &name);
            buf_printf(&msg, "%s returned structuredContent that does not match its outputSchema:\n%s",
                       name.data, lines);
            tools_result_error("Error", msg.data, name.data, out);
            free(lines);
            buf_free(&name);
            buf_free(&msg);
            tools_schema_result_free(&r);
            return 0;
        }
        tools_schema_result_free(&r);
    }
    append_json(out, sc);
    return 1;
}

int tools_result_map(const struct tools_catalog_tool *t, const cJSON *result, struct buf *out)
{
    return tools_result_map_seen(t, result, out, NULL, NULL);
}

int tools_result_map_seen(const struct tools_catalog_tool *t, const cJSON *result, struct buf *out,
                          tools_result_seen_cb *seen, void *ud)
{
    if (!cJSON_IsObject(result)) {
        struct buf name;
        buf_init(&name, 0);
        qualified(t, &name);
        tools_result_error("Error", "the tool returned a malformed result", name.data, out);
        buf_free(&name);
        return 0;
    }
    if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(result, "isError")))
        return tool_error(t, result, out);
    const cJSON *sc = cJSON_GetObjectItemCaseSensitive(result, "structuredContent");
    if (sc && !cJSON_IsNull(sc)) {
        int ok = structured(t, sc, out);
        if (ok && seen)
            seen(ud, sc);
        return ok;
    }
    const cJSON *content = cJSON_GetObjectItemCaseSensitive(result, "content");
    if (!cJSON_IsArray(content)) {
        if (seen) {
            cJSON null = {.type = cJSON_NULL};
            seen(ud, &null);
        }
        buf_append_str(out, "null");
        return 1;
    }
    const cJSON *only = cJSON_GetArraySize(content) == 1 ? content->child : NULL;
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(only, "type");
    const cJSON *text = cJSON_GetObjectItemCaseSensitive(only, "text");
    if (cJSON_IsString(type) && !strcmp(type->valuestring, "text") && cJSON_IsString(text)) {
        cJSON *parsed = json_parse(text->valuestring, strlen(text->valuestring));
        if (seen)
            seen(ud, parsed ? parsed : text);
        if (parsed) {
            append_json(out, parsed);
            cJSON_Delete(parsed);
        } else {
            json_append_string(out, text->valuestring, strlen(text->valuestring));
        }
        return 1;
    }
    if (seen)
        seen(ud, content);
    append_json(out, content);
    return 1;
}

void tools_result_argument_error(const struct tools_catalog_tool *t,
                                 const struct tools_schema_result *r, struct buf *out)
{
    struct buf name, msg;
    buf_init(&name, 0);
    buf_init(&msg, 0);
    qualified(t, &name);
    char *lines = tools_schema_result_format(r);
    buf_printf(&msg, "Invalid arguments for %s (nothing was sent):\n%s", name.data, lines);
    free(lines);
    buf_append_str(out, "{\"name\":\"ToolArgumentError\",\"message\":");
    json_append_string(out, msg.data, msg.len);
    buf_append_str(out, ",\"tool\":");
    json_append_string(out, name.data, name.len);
    buf_append_str(out, ",\"violations\":[");
    for (size_t i = 0; i < r->count; i++) {
        const struct tools_schema_error *e = &r->errors[i];
        buf_append_str(out, i ? ",{\"path\":" : "{\"path\":");
        json_append_string(out, e->instance_path, strlen(e->instance_path));
        buf_append_str(out, ",\"keyword\":");
        json_append_string(out, e->keyword, strlen(e->keyword));
        buf_append_str(out, ",\"message\":");
        json_append_string(out, e->message, strlen(e->message));
        buf_append_char(out, '}');
    }
    buf_append_str(out, "]}");
    buf_free(&name);
    buf_free(&msg);
}
