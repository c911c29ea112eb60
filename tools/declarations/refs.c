/* Local $ref resolution for the declarations generator and the analysis of
 * referenced schemas: which ones become type aliases (cycles, reuse) and
 * which aliases may only be named behind an object, array or tuple. */
#include "tools/declarations/refs.h"
#include "common/alloc.h"
#include "common/buf.h"

#include <stdlib.h>
#include <string.h>

void tools__decl_doc_init(struct tools__decl_doc *d, const cJSON *root, const char *root_hint)
{
    memset(d, 0, sizeof *d);
    d->root = root;
    d->n = 1;
    d->cap = 4;
    d->t = xcalloc(d->cap, sizeof *d->t);
    d->t[0].node = root;
    d->t[0].hint = xstrdup(root_hint);
    tools__decl_map_put(&d->targets, root, NULL, NULL)->num = 0;
}

void tools__decl_doc_free(struct tools__decl_doc *d)
{
    for (size_t i = 0; i < d->n; i++) {
        free(d->t[i].hint);
        free(d->t[i].alias);
        free(d->t[i].body);
        free(d->t[i].edges);
    }
    free(d->t);
    tools__decl_map_free(&d->targets);
    tools__decl_map_free(&d->refs);
    tools__decl_map_free(&d->members);
    tools__decl_map_free(&d->indexed);
    tools__decl_map_free(&d->anchors);
    memset(d, 0, sizeof *d);
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

/* Objects with more members than this get an index on first lookup. */
#define INDEX_FROM 16

/* The member `key` of object `obj` (the first one, as cJSON finds it). */
static const cJSON *member(struct tools__decl_doc *d, const cJSON *obj, const char *key)
{
    if (!tools__decl_map_find(&d->indexed, obj, NULL)) {
        size_t n = 0;
        for (const cJSON *c = obj->child; c && n <= INDEX_FROM; c = c->next)
            n++;
        if (n <= INDEX_FROM)
            return cJSON_GetObjectItemCaseSensitive(obj, key);
        for (const cJSON *c = obj->child; c; c = c->next) {
            int added;
            struct tools__decl_slot *s = tools__decl_map_put(&d->members, obj, c->string, &added);
            if (added && c->string)
                s->ptr = c;
        }
        tools__decl_map_put(&d->indexed, obj, NULL, NULL);
    }
    const struct tools__decl_slot *s = tools__decl_map_find(&d->members, obj, key);
    return s ? s->ptr : NULL;
}

static const cJSON *step(struct tools__decl_doc *d, const cJSON *node, const char *seg)
{
    if (cJSON_IsObject(node))
        return member(d, node, seg);
    if (!cJSON_IsArray(node) || seg[0] == '\0' || (seg[0] == '0' && seg[1] != '\0'))
        return NULL;
    for (const char *p = seg; *p; p++)
        if (*p < '0' || *p > '9' || p - seg > 9)
            return NULL;
    return cJSON_GetArrayItem(node, atoi(seg));
}

static const cJSON *resolve_pointer(struct tools__decl_doc *d, const char *p)
{
    const cJSON *node = d->root;
    while (node && *p == '/') {
        p++;
        size_t n = strcspn(p, "/");
        char *seg = segment(p, n);
        node = step(d, node, seg);
        free(seg);
        p += n;
    }
    return *p == '\0' ? node : NULL;
}

/* The anchor name a schema object declares, or NULL. */
static const char *anchor_of(const cJSON *node, const char *key)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(node, key);
    if (!cJSON_IsString(a))
        return NULL;
    if (strcmp(key, "$id") == 0)
        return a->valuestring[0] == '#' ? a->valuestring + 1 : NULL;
    return a->valuestring;
}

/* Records every anchor in document order (the first of a name wins). */
static void collect_anchors(struct tools__decl_doc *d, const cJSON *node, int depth)
{
    static const char *const keys[] = {"$anchor", "$dynamicAnchor", "$id"};
    if (depth > 64 || !(cJSON_IsObject(node) || cJSON_IsArray(node)))
        return;
    for (size_t k = 0; k < 3 && cJSON_IsObject(node); k++) {
        const char *name = anchor_of(node, keys[k]);
        int added;
        struct tools__decl_slot *s =
            name ? tools__decl_map_put(&d->anchors, NULL, name, &added) : NULL;
        if (s && added)
            s->ptr = node;
    }
    for (const cJSON *c = node->child; c; c = c->next) {
        /* "enum", "const", "default" and "examples" hold data, not schemas */
        if (c->string && (!strcmp(c->string, "enum") || !strcmp(c->string, "const") ||
                          !strcmp(c->string, "default") || !strcmp(c->string, "examples")))
            continue;
        collect_anchors(d, c, depth + 1);
    }
}

static const cJSON *resolve_uncached(struct tools__decl_doc *d, const char *ref)
{
    if (ref[0] != '#')
        return NULL;
    if (ref[1] == '\0')
        return d->root;
    if (ref[1] == '/')
        return resolve_pointer(d, ref + 1);
    if (!d->anchors_built) {
        collect_anchors(d, d->root, 0);
        d->anchors_built = 1;
    }
    char *name = segment(ref + 1, strlen(ref + 1));
    const struct tools__decl_slot *s = tools__decl_map_find(&d->anchors, NULL, name);
    free(name);
    return s ? s->ptr : NULL;
}

const cJSON *tools__decl_resolve(struct tools__decl_doc *d, const char *ref)
{
    if (ref == NULL)
        return NULL;
    int added;
    struct tools__decl_slot *s = tools__decl_map_put(&d->refs, NULL, ref, &added);
    if (added) {
        const cJSON *node = resolve_uncached(d, ref);
        s = tools__decl_map_find(&d->refs, NULL, ref); /* still valid: no put since */
        s->ptr = node;
    }
    return s->ptr;
}

static int is_schema_keyword(const char *s)
{
    static const char *const words[] = {"properties",
                                        "patternProperties",
                                        "additionalProperties",
                                        "items",
                                        "prefixItems",
                                        "additionalItems",
                                        "$defs",
                                        "definitions",
                                        "anyOf",
                                        "oneOf",
                                        "allOf",
                                        "not",
                                        "if",
                                        "then",
                                        "else",
                                        "contains",
                                        "dependentSchemas",
                                        "propertyNames",
                                        "unevaluatedItems",
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
    const struct tools__decl_slot *s = tools__decl_map_find(&d->targets, node, NULL);
    return s ? s->num : (size_t) -1;
}

size_t tools__decl_target_add(struct tools__decl_doc *d, const cJSON *node, const char *ref)
{
    int added;
    struct tools__decl_slot *s = tools__decl_map_put(&d->targets, node, NULL, &added);
    if (!added)
        return s->num;
    s->num = d->n;
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

struct tarjan {
    const struct tools__decl_doc *d;
    int unguarded_only;
    size_t *index, *low, *stack, *frame_v, *frame_e;
    unsigned char *on_stack;
    size_t next, top, frames;
};

#define UNSEEN ((size_t) -1)

static int edge_counts(const struct tarjan *tj, const struct tools__decl_edge *e)
{
    return !tj->unguarded_only || e->unguarded;
}

static int self_loop(const struct tarjan *tj, size_t v)
{
    const struct tools__decl_target *t = &tj->d->t[v];
    for (size_t i = 0; i < t->nedges; i++)
        if (t->edges[i].to == v && edge_counts(tj, &t->edges[i]))
            return 1;
    return 0;
}

static void visit(struct tarjan *tj, size_t v)
{
    tj->index[v] = tj->low[v] = tj->next++;
    tj->stack[tj->top++] = v;
    tj->on_stack[v] = 1;
    tj->frame_v[tj->frames] = v;
    tj->frame_e[tj->frames++] = 0;
}

/* Pops the component rooted at v; marks its members when it is a cycle. */
static void pop_component(struct tarjan *tj, size_t v, unsigned char *cyclic)
{
    size_t first = tj->top;
    do
        tj->on_stack[tj->stack[--first]] = 0;
    while (tj->stack[first] != v);
    int cycle = tj->top - first > 1 || self_loop(tj, v);
    for (size_t i = first; i < tj->top; i++)
        cyclic[tj->stack[i]] = (unsigned char) cycle;
    tj->top = first;
}

/* One step of the iterative depth-first search at the top frame. */
static void step_frame(struct tarjan *tj, unsigned char *cyclic)
{
    size_t v = tj->frame_v[tj->frames - 1];
    const struct tools__decl_target *t = &tj->d->t[v];
    size_t *ei = &tj->frame_e[tj->frames - 1];
    if (*ei < t->nedges) {
        const struct tools__decl_edge *e = &t->edges[(*ei)++];
        if (!edge_counts(tj, e))
            return;
        if (tj->index[e->to] == UNSEEN)
            visit(tj, e->to);
        else if (tj->on_stack[e->to] && tj->index[e->to] < tj->low[v])
            tj->low[v] = tj->index[e->to];
        return;
    }
    tj->frames--;
    if (tj->frames > 0) {
        size_t u = tj->frame_v[tj->frames - 1];
        if (tj->low[v] < tj->low[u])
            tj->low[u] = tj->low[v];
    }
    if (tj->low[v] == tj->index[v])
        pop_component(tj, v, cyclic);
}

/* cyclic[v] = 1 when v lies on a cycle of the (unguarded) reference graph:
 * Tarjan's strongly connected components, without recursion. */
static void mark_cycles(const struct tools__decl_doc *d, int unguarded_only, unsigned char *cyclic)
{
    size_t n = d->n;
    struct tarjan tj = {d, unguarded_only, NULL, NULL, NULL, NULL, NULL, NULL, 0, 0, 0};
    tj.index = xmalloc(n * sizeof *tj.index);
    tj.low = xmalloc(n * sizeof *tj.low);
    tj.stack = xmalloc(n * sizeof *tj.stack);
    tj.frame_v = xmalloc(n * sizeof *tj.frame_v);
    tj.frame_e = xmalloc(n * sizeof *tj.frame_e);
    tj.on_stack = xcalloc(n, 1);
    for (size_t v = 0; v < n; v++)
        tj.index[v] = UNSEEN;
    memset(cyclic, 0, n);
    for (size_t v = 0; v < n; v++) {
        if (tj.index[v] != UNSEEN)
            continue;
        visit(&tj, v);
        while (tj.frames > 0)
            step_frame(&tj, cyclic);
    }
    free(tj.on_stack);
    free(tj.frame_e);
    free(tj.frame_v);
    free(tj.stack);
    free(tj.low);
    free(tj.index);
}

void tools__decl_doc_analyse(struct tools__decl_doc *d)
{
    unsigned char *cyclic = xmalloc(d->n), *unguarded = xmalloc(d->n);
    mark_cycles(d, 0, cyclic);
    mark_cycles(d, 1, unguarded);
    for (size_t i = 0; i < d->n; i++) {
        struct tools__decl_target *t = &d->t[i];
        t->aliased = t->refs >= 2 || (t->refs >= 1 && cyclic[i]);
        t->poisoned = t->aliased && unguarded[i];
    }
    free(unguarded);
    free(cyclic);
}
