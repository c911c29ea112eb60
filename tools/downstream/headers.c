/* The request headers 2026-07-28 Streamable HTTP mirrors from the body:
 * value encoding (plain ASCII, else "=?base64?...?="), the x-mcp-header
 * annotations of a tool's inputSchema (checked when the tool list arrives:
 * a tool with an invalid one is left out, as the spec requires of HTTP
 * clients), and the Mcp-Param-* headers of one tools/call. */
#include "tools/downstream/internal.h"
#include "common/alloc.h"
#include "common/buf.h"
#include "common/json.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_SAFE_INTEGER 9007199254740991.0
#define MAX_ANNOTATIONS  64

/* --- values ----------------------------------------------------------------------------------- */

static void base64(struct buf *b, const unsigned char *s, size_t n)
{
    static const char al[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (size_t i = 0; i < n; i += 3) {
        unsigned v = (unsigned) s[i] << 16 | (i + 1 < n ? (unsigned) s[i + 1] << 8 : 0) |
                     (i + 2 < n ? s[i + 2] : 0);
        char q[4] = {al[v >> 18 & 63], al[v >> 12 & 63], i + 1 < n ? al[v >> 6 & 63] : '=',
                     i + 2 < n ? al[v & 63] : '='};
        buf_append(b, q, 4);
    }
}

static int plain(const char *v, size_t len)
{
    if (len && (v[0] == ' ' || v[0] == '\t' || v[len - 1] == ' ' || v[len - 1] == '\t'))
        return 0;
    for (size_t i = 0; i < len; i++)
        if ((unsigned char) v[i] < 0x20 || (unsigned char) v[i] > 0x7e)
            return 0;
    return !(len >= 11 && strncmp(v, "=?base64?", 9) == 0 && strncmp(v + len - 2, "?=", 2) == 0);
}

char *tools__downstream_header_value(const char *v, size_t len)
{
    struct buf b;
    buf_init(&b, 0);
    if (plain(v, len)) {
        buf_append(&b, v, len);
    } else {
        buf_append_str(&b, "=?base64?");
        base64(&b, (const unsigned char *) v, len);
        buf_append_str(&b, "?=");
    }
    buf_append(&b, "", 0);
    return buf_steal(&b);
}

/* --- annotations ------------------------------------------------------------------------------ */

struct annotation {
    const char *header;   /* the x-mcp-header value */
    const char *path[16]; /* the properties keys leading to it */
    size_t depth;
};

struct walk {
    struct annotation found[MAX_ANNOTATIONS];
    size_t n;
    const char *problem;
};

static int tchar_token(const char *s)
{
    if (*s == '\0')
        return 0;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
              strchr("!#$%&'*+-.^_`|~", *s)))
            return 0;
    return 1;
}

static const char *check_one(struct walk *w, const cJSON *schema, const cJSON *x)
{
    const cJSON *type = cJSON_GetObjectItemCaseSensitive(schema, "type");
    if (!cJSON_IsString(x) || !tchar_token(x->valuestring))
        return "x-mcp-header must be a non-empty HTTP token";
    if (!cJSON_IsString(type) ||
        (strcmp(type->valuestring, "string") != 0 && strcmp(type->valuestring, "integer") != 0 &&
         strcmp(type->valuestring, "boolean") != 0))
        return "x-mcp-header is only allowed on string, integer and boolean properties";
    for (size_t i = 0; i < w->n; i++)
        if (strcasecmp(w->found[i].header, x->valuestring) == 0)
            return "two x-mcp-header annotations have the same name";
    if (w->n >= MAX_ANNOTATIONS)
        return "too many x-mcp-header annotations";
    return NULL;
}

static int data_keyword(const char *k)
{
    return k && (strcmp(k, "enum") == 0 || strcmp(k, "const") == 0 || strcmp(k, "default") == 0 ||
                 strcmp(k, "examples") == 0);
}

/* Walks a schema: `path` (depth entries) is the properties chain from the
 * root when the node is statically reachable, depth < 0 when it is not. */
static void walk(struct walk *w, const cJSON *node, const char **path, int depth)
{
    if (w->problem || !(cJSON_IsObject(node) || cJSON_IsArray(node)))
        return;
    const cJSON *x =
        cJSON_IsObject(node) ? cJSON_GetObjectItemCaseSensitive(node, "x-mcp-header") : NULL;
    if (x && (depth <= 0 || depth > 16)) {
        w->problem = "x-mcp-header is only allowed on properties reached through \"properties\"";
        return;
    }
    if (x && (w->problem = check_one(w, node, x)) == NULL) {
        struct annotation *a = &w->found[w->n++];
        a->header = x->valuestring;
        a->depth = (size_t) depth;
        memcpy(a->path, path, (size_t) depth * sizeof *path);
    }
    const cJSON *c;
    cJSON_ArrayForEach(c, node)
    {
        if (data_keyword(c->string) || cJSON_IsArray(node))
            continue; /* values, not schemas; arrays of schemas are never reachable */
        if (strcmp(c->string, "properties") == 0 && depth >= 0 && depth < 16) {
            const cJSON *p;
            cJSON_ArrayForEach(p, c)
            {
                path[depth] = p->string;
                walk(w, p, path, depth + 1);
            }
        } else {
            walk(w, c, path, -1);
        }
    }
    if (cJSON_IsArray(node))
        cJSON_ArrayForEach(c, node) walk(w, c, path, -1);
}

static void collect(struct walk *w, const cJSON *tool)
{
    const char *path[17];
    memset(w, 0, sizeof *w);
    walk(w, cJSON_GetObjectItemCaseSensitive(tool, "inputSchema"), path, 0);
}

const char *tools__downstream_header_problem(const cJSON *tool, char *buf, size_t n)
{
    struct walk w;
    collect(&w, tool);
    if (w.problem == NULL)
        return NULL;
    snprintf(buf, n, "its inputSchema has an invalid x-mcp-header annotation (%s)", w.problem);
    return buf;
}

/* --- Mcp-Param-* ------------------------------------------------------------------------------ */

static const cJSON *at_path(const cJSON *args, const struct annotation *a)
{
    const cJSON *v = args;
    for (size_t i = 0; v && i < a->depth; i++)
        v = cJSON_IsObject(v) ? cJSON_GetObjectItemCaseSensitive(v, a->path[i]) : NULL;
    return v;
}

/* The header text of a value, or NULL when the value gives none. */
static char *param_text(const cJSON *v)
{
    char num[32];
    if (cJSON_IsString(v))
        return tools__downstream_header_value(v->valuestring, strlen(v->valuestring));
    if (cJSON_IsBool(v))
        return xstrdup(cJSON_IsTrue(v) ? "true" : "false");
    if (cJSON_IsNumber(v) && v->valuedouble == floor(v->valuedouble) &&
        fabs(v->valuedouble) <= MAX_SAFE_INTEGER) {
        snprintf(num, sizeof num, "%.0f", v->valuedouble);
        return xstrdup(num);
    }
    return NULL;
}

void tools__downstream_param_headers(const cJSON *tool, const cJSON *args, char ***hdrs, size_t *n)
{
    struct walk w;
    collect(&w, tool);
    cJSON *parsed = NULL; /* arguments kept as text (a call's) are read as a tree here */
    if (cJSON_IsRaw(args) && w.problem == NULL && w.n > 0)
        args = parsed = json_parse(args->valuestring, strlen(args->valuestring));
    for (size_t i = 0; w.problem == NULL && i < w.n; i++) {
        char *text = param_text(at_path(args, &w.found[i]));
        if (text == NULL)
            continue;
        struct buf b;
        buf_init(&b, 0);
        buf_printf(&b, "Mcp-Param-%s: %s", w.found[i].header, text);
        free(text);
        *hdrs = xrealloc(*hdrs, (*n + 2) * sizeof **hdrs);
        (*hdrs)[(*n)++] = buf_steal(&b);
        (*hdrs)[*n] = NULL;
    }
    cJSON_Delete(parsed);
}
