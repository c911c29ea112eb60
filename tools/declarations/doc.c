/* Lexical pieces of the generated TypeScript: cleaned JSDoc comments that
 * cannot be closed early by their text, property keys, JSON literal types.
 * Writes into internal unlimited buffers (appends cannot fail). */
#include "tools/declarations/doc.h"
#include "common/alloc.h"
#include "common/buf.h"
#include "common/utf8.h"
#include "tools/declarations/declarations.h"
#include "tools/names.h"
#include "common/json.h"

#include <stdlib.h>
#include <string.h>

void tools__decl_indent(struct buf *out, int n)
{
    for (int i = 0; i < n; i++)
        buf_append(out, "  ", 2);
}

/* Replaces control characters and the JS line terminators U+2028/U+2029
 * (which would end a // comment) by spaces; CR LF and CR become LF. */
static void normalise(struct buf *out, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char) s[i];
        if (c == '\r') {
            buf_append_char(out, '\n');
            if (i + 1 < n && s[i + 1] == '\n')
                i++;
        } else if (c == 0xE2 && i + 2 < n && (unsigned char) s[i + 1] == 0x80 &&
                   ((unsigned char) s[i + 2] == 0xA8 || (unsigned char) s[i + 2] == 0xA9)) {
            buf_append_char(out, ' ');
            i += 2;
        } else if ((c < 0x20 && c != '\n') || c == 0x7F) {
            buf_append_char(out, ' ');
        } else {
            buf_append_char(out, (char) c);
        }
    }
}

/* Appends one line without its trailing blanks (and, for the first line of
 * the text, without its leading blanks). Returns 1 if the line was blank. */
static int append_line(struct buf *out, const char *p, size_t n, int first)
{
    while (n > 0 && p[n - 1] == ' ')
        n--;
    if (first)
        while (n > 0 && *p == ' ')
            p++, n--;
    buf_append(out, p, n);
    return n == 0;
}

void tools__decl_doc_clean(struct buf *out, const char *s)
{
    if (s == NULL)
        return;
    struct buf rep, norm;
    buf_init(&rep, 0);
    buf_init(&norm, 0);
    utf8_append_repaired(&rep, s, strlen(s));
    normalise(&norm, rep.len ? rep.data : "", rep.len);
    const char *p = norm.len ? norm.data : "";
    int started = 0, pending_blank = 0;
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t) (nl - p) : strlen(p);
        struct buf line;
        buf_init(&line, 0);
        int blank = append_line(&line, p, n, !started);
        if (blank) {
            pending_blank = started;
        } else {
            if (started)
                buf_append_str(out, pending_blank ? "\n\n" : "\n");
            buf_append(out, line.data, line.len);
            started = 1;
            pending_blank = 0;
        }
        buf_free(&line);
        p += n + (nl != NULL);
    }
    buf_free(&norm);
    buf_free(&rep);
}

/* Appends " @tag <compact JSON of v>" when that stays within max bytes. */
static void json_tag(struct buf *text, const char *tag, const cJSON *v, size_t max)
{
    char *json = json_print(v);
    if (json && strlen(json) <= max)
        buf_printf(text, " @%s %s", tag, json);
    cJSON_free(json);
}

static void number_tags(struct buf *text, const cJSON *s)
{
    static const char *const keys[] = {"minimum",          "maximum",    "exclusiveMinimum",
                                       "exclusiveMaximum", "multipleOf", "minLength",
                                       "maxLength",        "minItems",   "maxItems"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(s, keys[i]);
        if (cJSON_IsNumber(v))
            json_tag(text, keys[i], v, 40);
    }
}

/* Appends the tags of s, each as " @name value". */
static void schema_tags(struct buf *tags, const cJSON *s)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(s, "default");
    if (v)
        json_tag(tags, "default", v, 60);
    v = cJSON_GetObjectItemCaseSensitive(s, "format");
    if (cJSON_IsString(v) && strlen(v->valuestring) <= 40)
        buf_printf(tags, " @format %s", v->valuestring);
    number_tags(tags, s);
    v = cJSON_GetObjectItemCaseSensitive(s, "pattern");
    if (cJSON_IsString(v) && strlen(v->valuestring) <= 80)
        buf_printf(tags, " @pattern %s", v->valuestring);
    if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(s, "uniqueItems")))
        buf_append_str(tags, " @uniqueItems");
    v = cJSON_GetObjectItemCaseSensitive(s, "examples");
    if (cJSON_IsArray(v) && v->child)
        json_tag(tags, "example", v->child, 60);
    if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(s, "deprecated")))
        buf_append_str(tags, " @deprecated");
}

/* The compact tags: short defaults, formats, bounds, deprecation. */
/* false, null, "", [] and {}: what leaving an optional argument out means
 * anyway. */
static int is_empty_default(const cJSON *v)
{
    return cJSON_IsFalse(v) || cJSON_IsNull(v) ||
           (cJSON_IsString(v) && v->valuestring[0] == '\0') ||
           ((cJSON_IsArray(v) || cJSON_IsObject(v)) && v->child == NULL);
}

static void compact_tags(struct buf *tags, const cJSON *s)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(s, "default");
    if (v && !is_empty_default(v))
        json_tag(tags, "default", v, 24);
    v = cJSON_GetObjectItemCaseSensitive(s, "format");
    if (cJSON_IsString(v) && strlen(v->valuestring) <= 20)
        buf_printf(tags, " @format %s", v->valuestring);
    static const char *const keys[] = {"minimum", "maximum"};
    for (size_t i = 0; i < 2; i++) {
        v = cJSON_GetObjectItemCaseSensitive(s, keys[i]);
        /* +-(2^53 - 1), what zod writes for .int(): no bound worth reading */
        if (cJSON_IsNumber(v) && v->valuedouble > -9007199254740991.0 &&
            v->valuedouble < 9007199254740991.0)
            json_tag(tags, keys[i], v, 16);
    }
    if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(s, "deprecated")))
        buf_append_str(tags, " @deprecated");
}

void tools__decl_doc_of_schema_at(struct buf *text, const cJSON *s, int level)
{
    if (level == TOOLS_DECL_FULL) {
        tools__decl_doc_of_schema(text, s);
        return;
    }
    if (level != TOOLS_DECL_DOCS || !cJSON_IsObject(s))
        return;
    const cJSON *d = cJSON_GetObjectItemCaseSensitive(s, "description");
    if (!cJSON_IsString(d) || d->valuestring[0] == '\0')
        d = cJSON_GetObjectItemCaseSensitive(s, "title");
    char *few = tools_declarations_summary(cJSON_IsString(d) ? d->valuestring : NULL, NULL,
                                           TOOLS__DECL_ARG_DOC_MAX);
    struct buf raw;
    buf_init(&raw, 0);
    buf_append_str(&raw, few);
    free(few);
    compact_tags(&raw, s);
    tools__decl_doc_clean(text, raw.len ? raw.data : NULL);
    buf_free(&raw);
}

void tools__decl_doc_of_schema(struct buf *text, const cJSON *s)
{
    if (!cJSON_IsObject(s))
        return;
    struct buf raw, tags;
    buf_init(&raw, 0);
    buf_init(&tags, 0);
    const cJSON *d = cJSON_GetObjectItemCaseSensitive(s, "description");
    if (!cJSON_IsString(d) || d->valuestring[0] == '\0')
        d = cJSON_GetObjectItemCaseSensitive(s, "title");
    if (cJSON_IsString(d))
        tools__decl_doc_clean(&raw, d->valuestring);
    schema_tags(&tags, s);
    if (tags.len) {
        /* tags follow a one-line description, or start a line of their own */
        if (raw.len && strchr(raw.data, '\n'))
            buf_append_char(&raw, '\n');
        buf_append_str(&raw, tags.data + (raw.len == 0 || raw.data[raw.len - 1] == '\n'));
    }
    tools__decl_doc_clean(text, raw.len ? raw.data : NULL);
    buf_free(&tags);
    buf_free(&raw);
}

int tools__decl_doc_is_one_line(const char *text)
{
    return strchr(text, '\n') == NULL;
}

/* Appends n bytes of comment text with every "*" "/" broken as "*\/". */
static void append_escaped(struct buf *out, const char *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        buf_append_char(out, p[i]);
        if (p[i] == '*' && i + 1 < n && p[i + 1] == '/')
            buf_append_char(out, '\\');
    }
}

void tools__decl_doc_emit(struct buf *out, const char *text, int indent, int inline_ok)
{
    if (text == NULL || text[0] == '\0')
        return;
    if (tools__decl_doc_is_one_line(text)) {
        buf_append_str(out, "/** ");
        append_escaped(out, text, strlen(text));
        buf_append_str(out, " */");
        if (inline_ok) {
            buf_append_char(out, ' ');
        } else {
            buf_append_char(out, '\n');
            tools__decl_indent(out, indent);
        }
        return;
    }
    buf_append_str(out, "/**\n");
    for (const char *p = text; *p;) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t) (nl - p) : strlen(p);
        tools__decl_indent(out, indent);
        buf_append_str(out, n ? " * " : " *");
        append_escaped(out, p, n);
        buf_append_char(out, '\n');
        p += n + (nl != NULL);
    }
    tools__decl_indent(out, indent);
    buf_append_str(out, " */\n");
    tools__decl_indent(out, indent);
}

void tools__decl_string(struct buf *out, const char *s, size_t n)
{
    struct buf q;
    buf_init(&q, 0);
    json_append_string(&q, s, n);
    for (size_t i = 0; i < q.len; i++) {
        const unsigned char *p = (const unsigned char *) q.data + i;
        if (p[0] == 0xE2 && i + 2 < q.len && p[1] == 0x80 && (p[2] == 0xA8 || p[2] == 0xA9)) {
            buf_append_str(out, p[2] == 0xA8 ? "\\u2028" : "\\u2029");
            i += 2;
        } else {
            buf_append_char(out, (char) p[0]);
        }
    }
    buf_free(&q);
}

void tools__decl_key(struct buf *out, const char *key)
{
    size_t n = strlen(key);
    if (tools_names_is_identifier(key, n) && !tools_names_is_reserved(key))
        buf_append(out, key, n);
    else
        tools__decl_string(out, key, n);
}

static void literal_object(struct buf *out, const cJSON *v, int depth)
{
    if (v->child == NULL) {
        buf_append_str(out, "{ [key: string]: never }");
        return;
    }
    buf_append_str(out, "{ ");
    for (const cJSON *c = v->child; c; c = c->next) {
        const char *k = c->string ? c->string : "";
        tools__decl_string(out, k, strlen(k));
        buf_append_str(out, ": ");
        tools__decl_literal(out, c, depth - 1);
        buf_append_str(out, c->next ? "; " : " }");
    }
}

int tools__decl_literal(struct buf *out, const cJSON *v, int depth)
{
    if (cJSON_IsString(v)) {
        tools__decl_string(out, v->valuestring, strlen(v->valuestring));
    } else if (cJSON_IsNumber(v) || cJSON_IsBool(v) || cJSON_IsNull(v)) {
        char *t = json_print(v);
        buf_append_str(out, t ? t : "unknown");
        int negative = t && t[0] == '-';
        cJSON_free(t);
        return negative;
    } else if (depth <= 0) {
        buf_append_str(out, "unknown");
    } else if (cJSON_IsArray(v)) {
        buf_append_char(out, '[');
        for (const cJSON *c = v->child; c; c = c->next) {
            tools__decl_literal(out, c, depth - 1);
            if (c->next)
                buf_append_str(out, ", ");
        }
        buf_append_char(out, ']');
    } else if (cJSON_IsObject(v)) {
        literal_object(out, v, depth);
    } else {
        buf_append_str(out, "unknown");
    }
    return 0;
}
