/* Content blocks of execute_code's result (see content.h). Only the fields
 * each block type has in the MCP schema are copied, so what a program adds
 * to a block never reaches the client. */
#include "mcp-server/execute/content.h"
#include "common/buf.h"
#include "common/json.h"

#include <stdlib.h>
#include <string.h>

static const char *str(const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

static int opt_str(const cJSON *o, const char *k)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, k);
    return v == NULL || cJSON_IsString(v);
}

static int is_resource_contents(const cJSON *r)
{
    if (!cJSON_IsObject(r) || !str(r, "uri") || !opt_str(r, "mimeType"))
        return 0;
    return (str(r, "text") != NULL) != (str(r, "blob") != NULL);
}

static int is_block(const cJSON *b)
{
    const char *type = str(b, "type");
    if (!cJSON_IsObject(b) || type == NULL)
        return 0;
    if (!strcmp(type, "text"))
        return str(b, "text") != NULL;
    if (!strcmp(type, "image") || !strcmp(type, "audio"))
        return str(b, "data") && str(b, "mimeType");
    if (!strcmp(type, "resource"))
        return is_resource_contents(cJSON_GetObjectItemCaseSensitive(b, "resource"));
    if (!strcmp(type, "resource_link"))
        return str(b, "uri") && str(b, "name") && opt_str(b, "mimeType") &&
               opt_str(b, "description");
    return 0;
}

int mcp_content_is_content(const cJSON *value)
{
    if (!cJSON_IsArray(value))
        return is_block(value);
    if (value->child == NULL)
        return 0;
    for (const cJSON *b = value->child; b; b = b->next)
        if (!is_block(b))
            return 0;
    return 1;
}

static void copy_str(cJSON *to, const cJSON *from, const char *k)
{
    const char *s = str(from, k);
    if (s)
        cJSON_AddStringToObject(to, k, s);
}

static cJSON *text_block(const char *text)
{
    cJSON *t = cJSON_CreateObject();
    cJSON_AddStringToObject(t, "type", "text");
    cJSON_AddStringToObject(t, "text", text);
    return t;
}

cJSON *mcp_content_link(enum mcp_revision rev, const char *uri, const char *name, const char *mime,
                        double size, const char *description)
{
    if (rev < MCP_2025_06_18) {
        struct buf b;
        buf_init(&b, 0);
        buf_printf(&b, "[resource %s: %s", name, uri);
        if (mime)
            buf_printf(&b, " (%s", mime);
        if (mime && size >= 0)
            buf_printf(&b, ", %.0f bytes", size);
        buf_append_str(&b, mime ? ")" : "");
        if (description)
            buf_printf(&b, "; %s", description);
        buf_append_str(&b, "; read it with resources/read]");
        cJSON *t = text_block(b.data);
        buf_free(&b);
        return t;
    }
    cJSON *l = cJSON_CreateObject();
    cJSON_AddStringToObject(l, "type", "resource_link");
    cJSON_AddStringToObject(l, "uri", uri);
    cJSON_AddStringToObject(l, "name", name);
    if (description)
        cJSON_AddStringToObject(l, "description", description);
    if (mime)
        cJSON_AddStringToObject(l, "mimeType", mime);
    if (size >= 0)
        cJSON_AddNumberToObject(l, "size", size);
    return l;
}

static cJSON *audio_fallback(const cJSON *b)
{
    struct buf t;
    buf_init(&t, 0);
    buf_printf(&t,
               "[audio content (%s, %zu bytes of base64) left out: protocol revision "
               "2024-11-05 has no audio blocks]",
               str(b, "mimeType"), strlen(str(b, "data")));
    cJSON *out = text_block(t.data);
    buf_free(&t);
    return out;
}

static cJSON *block_for(const cJSON *b, enum mcp_revision rev)
{
    const char *type = str(b, "type");
    if (!strcmp(type, "audio") && rev < MCP_2025_03_26)
        return audio_fallback(b);
    if (!strcmp(type, "resource_link")) {
        const cJSON *size = cJSON_GetObjectItemCaseSensitive(b, "size");
        return mcp_content_link(rev, str(b, "uri"), str(b, "name"), str(b, "mimeType"),
                                cJSON_IsNumber(size) ? size->valuedouble : -1,
                                str(b, "description"));
    }
    cJSON *out = cJSON_CreateObject();
    cJSON_AddStringToObject(out, "type", type);
    if (!strcmp(type, "text")) {
        copy_str(out, b, "text");
    } else if (!strcmp(type, "resource")) {
        const cJSON *r = cJSON_GetObjectItemCaseSensitive(b, "resource");
        cJSON *rc = cJSON_AddObjectToObject(out, "resource");
        copy_str(rc, r, "uri");
        copy_str(rc, r, "mimeType");
        copy_str(rc, r, "text");
        copy_str(rc, r, "blob");
    } else {
        copy_str(out, b, "data");
        copy_str(out, b, "mimeType");
    }
    return out;
}

void mcp_content_append(cJSON *content, const cJSON *value, enum mcp_revision rev)
{
    if (!cJSON_IsArray(value)) {
        cJSON_AddItemToArray(content, block_for(value, rev));
        return;
    }
    for (const cJSON *b = value->child; b; b = b->next)
        cJSON_AddItemToArray(content, block_for(b, rev));
}

/* Bytes that base64 text of length n (no whitespace) decodes to. */
static double decoded_size(const char *data)
{
    size_t n = strlen(data), pad = 0;
    while (pad < 2 && pad < n && data[n - 1 - pad] == '=')
        pad++;
    return (double) ((n - pad) * 3 / 4);
}

/* Where a well-formed block keeps its payload: a resource block in its
 * "resource" member, the others in the block itself (whatever else a
 * program added to it). */
static const cJSON *payload_of(const cJSON *b)
{
    const char *type = str(b, "type");
    if (type && !strcmp(type, "resource"))
        return cJSON_GetObjectItemCaseSensitive(b, "resource");
    return b;
}

static cJSON *summary_of(const cJSON *b)
{
    cJSON *s = cJSON_CreateObject();
    const cJSON *src = payload_of(b);
    copy_str(s, b, "type");
    copy_str(s, src, "mimeType");
    copy_str(s, src, "uri");
    const char *data = str(src, "data") ? str(src, "data") : str(src, "blob");
    if (data)
        cJSON_AddNumberToObject(s, "bytes", decoded_size(data));
    return s;
}

cJSON *mcp_content_summary(const cJSON *value)
{
    cJSON *a = cJSON_CreateArray();
    if (!cJSON_IsArray(value)) {
        cJSON_AddItemToArray(a, summary_of(value));
        return a;
    }
    for (const cJSON *b = value->child; b; b = b->next)
        cJSON_AddItemToArray(a, summary_of(b));
    return a;
}

const char *mcp_content_stash_form(const cJSON *value, const char **mime, int *blob, char **owned)
{
    *owned = NULL;
    *blob = 0;
    if (cJSON_IsObject(value) && is_block(value) && strcmp(str(value, "type"), "text") != 0 &&
        strcmp(str(value, "type"), "resource_link") != 0) {
        const cJSON *src = payload_of(value); /* is_block checked its fields */
        const char *data = str(src, "data") ? str(src, "data") : str(src, "blob");
        *mime = str(src, "mimeType");
        if (data) {
            *blob = 1;
            *mime = *mime ? *mime : "application/octet-stream";
            return data;
        }
        *mime = *mime ? *mime : "text/plain";
        return str(src, "text");
    }
    if (cJSON_IsString(value)) {
        *mime = "text/plain";
        return value->valuestring;
    }
    *mime = "application/json";
    *owned = json_print(value);
    return *owned;
}
