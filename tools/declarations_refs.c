/* Local $ref resolution for the declarations generator and the analysis of
 * referenced schemas: which ones become type aliases (cycles, reuse) and
 * which aliases may only be named behind an object, array or tuple. */
#include "tools/declarations_refs.h"
#include "common/alloc.h"
#include "common/buf.h"

#include <stdlib.h>
#include <string.h>

void tools__decl_doc_init(struct tools__decl_doc *d, const cJSON *root, const char *root_hint)
{
    d->root = root;
    d->n = 1;
    d->cap = 4;
    d->t = xcalloc(d->cap, sizeof *d->t);
    d->t[0].node = root;
    d->t[0].hint = xstrdup(root_hint);
}

void tools__decl_doc_free(struct tools__decl_doc *d)
{
    for (size_t i = 0; i < d->n; i++) {
        free(d->t[i].hint);
        free(d->t[i].alias);
        free(d->t[i].edges);
    }
    free(d->t);
    d->t = NULL;
    d->n = d->cap = 0;
}

static int hex_value(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* One pointer segment [p, p+n): %XX decoded, then ~1 -> '/', ~0 -> '~'. */
static char *segment(const char *p, size_t n)
{
    struct buf pct, out;
    buf_init(&pct, 0);
    buf_init(&out, 0);
    for (size_t i = 0; i < n; i++) {
        int hi, lo;
        if (p[i] == '%' && i + 2 < n && (hi = hex_value(p[i + 1])) >= 0 &&
            (lo = hex_value(p[i + 2])) >= 0) {
            buf_append_char(&pct, (char) (hi * 16 + lo));
            i += 2;
        } else {
            buf_append_char(&pct, p[i]);
        }
    }
    for (size_t i = 0; i < pct.len; i++) {
        char c = pct.data[i];
        if (c == '~' && i + 1 < pct.len && (pct.data[i + 1] == '0' || pct.data[i + 1] == '1'))
            c = pct.data[++i] == '0' ? '~' : '/';
        buf_append_char(&out, c);
    }
    buf_free(&pct);
    return buf_steal(&out);
}

static const cJSON *step(const cJSON *node, const char *seg)
{
    if (cJSON_IsObject(node))
        return cJSON_GetObjectItemCaseSensitive(node, seg);
    if (!cJSON_IsArray(node) || seg[0] == '\0' || (seg[0] == '0' && seg[1] != '\0'))
        return NULL;
    for (const char *p = seg; *p; p++)
        if (*p < '0' || *p > '9' || p - seg > 9)
            return NULL;
    return cJSON_GetArrayItem(node, atoi(seg));
}

static const cJSON *resolve_pointer(const cJSON *root, const char *p)
{
    const cJSON *node = root;
    while (node && *p == '/') {
        p++;
        size_t n = strcspn(p, "/");
        char *seg = segment(p, n);
        node = step(node, seg);
        free(seg);
        p += n;
    }
    return *p == '\0' ? node : NULL;
}

static int is_anchor_of(const cJSON *node, const char *name)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(node, "$anchor");
    if (cJSON_IsString(a) && strcmp(a->valuestring, name) == 0)
        return 1;
    a = cJSON_GetObjectItemCaseSensitive(node, "$dynamicAnchor");
    if (cJSON_IsString(a) && strcmp(a->valuestring, name) == 0)
        return 1;
    a = cJSON_GetObjectItemCaseSensitive(node, "$id");
    return cJSON_IsString(a) && a->valuestring[0] == '#' && strcmp(a->valuestring + 1, name) == 0;
}

static const cJSON *find_anchor(const cJSON *node, const char *name, int depth)
{
    if (depth > 64 || !(cJSON_IsObject(node) || cJSON_IsArray(node)))
        return NULL;
    if (cJSON_IsObject(node) && is_anchor_of(node, name))
        return node;
    for (const cJSON *c = node->child; c; c = c->next) {
        /* "enum", "const", "default" and "examples" hold data, not schemas */
        if (c->string && (!strcmp(c->string, "enum") || !strcmp(c->string, "const") ||
                          !strcmp(c->string, "default") || !strcmp(c->string, "examples")))
            continue;
        const cJSON *hit = find_anchor(c, name, depth + 1);
        if (hit)
            return hit;
    }
    return NULL;
}

const cJSON *tools__decl_resolve(const cJSON *root, const char *ref)
{
    if (ref == NULL || ref[0] != '#')
        return NULL;
    if (ref[1] == '\0')
        return root;
    if (ref[1] == '/')
        return resolve_pointer(root, ref + 1);
    char *name = segment(ref + 1, strlen(ref + 1));
    const cJSON *hit = find_anchor(root, name, 0);
    free(name);
    return hit;
}

static int is_schema_keyword(const char *s)
{
    static const char *const words[] = {
        "properties", "patternProperties", "additionalProperties", "items", "prefixItems",
        "additionalItems", "$defs", "definitions", "anyOf", "oneOf", "allOf", "not", "if",
        "then", "else", "contains", "dependentSchemas", "propertyNames", "unevaluatedItems",
        "unevaluatedProperties"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strcmp(s, words[i]) == 0)
            return 1;
    return strspn(s, "0123456789") == strlen(s);
}

/* The last pointer segment that is neither a keyword nor an index. */
static char *hint_of(const char *ref)
{
    if (ref == NULL || ref[0] != '#' || ref[1] == '\0')
        return xstrdup("Type");
    if (ref[1] != '/')
        return segment(ref + 1, strlen(ref + 1));
    char *best = NULL;
    for (const char *p = ref + 1; *p == '/';) {
        p++;
        size_t n = strcspn(p, "/");
        char *seg = segment(p, n);
        if (!is_schema_keyword(seg)) {
            free(best);
            best = seg;
        } else {
            free(seg);
        }
        p += n;
    }
    return best ? best : xstrdup("Type");
}

size_t tools__decl_target_find(const struct tools__decl_doc *d, const cJSON *node)
{
    for (size_t i = 0; i < d->n; i++)
        if (d->t[i].node == node)
            return i;
    return (size_t) -1;
}

size_t tools__decl_target_add(struct tools__decl_doc *d, const cJSON *node, const char *ref)
{
    size_t i = tools__decl_target_find(d, node);
    if (i != (size_t) -1)
        return i;
    if (d->n == d->cap) {
        d->cap *= 2;
        d->t = xrealloc(d->t, d->cap * sizeof *d->t);
    }
    memset(&d->t[d->n], 0, sizeof d->t[d->n]);
    d->t[d->n].node = node;
    d->t[d->n].hint = hint_of(ref);
    return d->n++;
}

void tools__decl_edge_add(struct tools__decl_doc *d, size_t from, size_t to, int unguarded)
{
    struct tools__decl_target *t = &d->t[from];
    for (size_t i = 0; i < t->nedges; i++)
        if (t->edges[i].to == to) {
            t->edges[i].unguarded |= unguarded;
            return;
        }
    if (t->nedges == t->capedges) {
        t->capedges = t->capedges ? 2 * t->capedges : 4;
        t->edges = xrealloc(t->edges, t->capedges * sizeof *t->edges);
    }
    t->edges[t->nedges++] = (struct tools__decl_edge){to, unguarded};
}

/* Whether `start` reaches itself along one or more edges (only unguarded
 * ones when `unguarded_only`). Iterative depth-first search. */
static int on_cycle(const struct tools__decl_doc *d, size_t start, int unguarded_only,
                    unsigned char *seen, size_t *stack)
{
    size_t top = 0;
    memset(seen, 0, d->n);
    stack[top++] = start;
    while (top > 0) {
        const struct tools__decl_target *t = &d->t[stack[--top]];
        for (size_t i = 0; i < t->nedges; i++) {
            size_t to = t->edges[i].to;
            if (unguarded_only && !t->edges[i].unguarded)
                continue;
            if (to == start)
                return 1;
            if (!seen[to]) {
                seen[to] = 1;
                stack[top++] = to;
            }
        }
    }
    return 0;
}

void tools__decl_doc_analyse(struct tools__decl_doc *d)
{
    unsigned char *seen = xmalloc(d->n);
    size_t *stack = xmalloc(d->n * sizeof *stack);
    for (size_t i = 0; i < d->n; i++) {
        struct tools__decl_target *t = &d->t[i];
        t->aliased = t->refs >= 2 || (t->refs >= 1 && on_cycle(d, i, 0, seen, stack));
        t->poisoned = t->aliased && on_cycle(d, i, 1, seen, stack);
    }
    free(stack);
    free(seen);
}
