/* Repeated object shapes written once: every object schema of every
 * document is keyed by its compact JSON (less its own docs, which belong to
 * the place that uses it); a key that would be rendered at two places or
 * more becomes a named alias. Occurrences nested in a shape that is already
 * named are counted once per place inside that shape, since the shape's
 * body is written once. */
#include "tools/declarations/shapes.h"
#include "common/alloc.h"
#include "common/buf.h"
#include "common/json.h"
#include "tools/declarations/declarations.h"
#include "tools/declarations/refs.h"
#include "tools/declarations/set.h"
#include "tools/declarations/types.h"

#include <stdlib.h>
#include <string.h>

#define WALK_DEPTH 24 /* schema nesting searched for shapes */

struct occ {
    const cJSON *node;
    struct tools__decl_doc *doc;
    char *key;    /* compact JSON without the node's own docs */
    char *path;   /* JSON pointer from the document root */
    char *hint;   /* name hint */
    size_t group; /* index of its key's group */
    long parent;  /* nearest enclosing occurrence, or -1 */
};

struct finder {
    struct occ *v;
    size_t n, cap;
    struct tools__decl_map groups; /* key -> group (num) */
    size_t ngroups;
};

/* Keys that document a schema where it is used, not what it is. */
static int is_annotation(const char *k)
{
    static const char *const keys[] = {"description", "title",    "default",  "examples",
                                       "deprecated",  "readOnly", "writeOnly", "$comment"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (strcmp(k, keys[i]) == 0)
            return 1;
    return 0;
}

/* Keys that do not change the type written: "additionalProperties": false
 * beside "properties" (such types are closed anyway), "$schema", "$id". */
static int is_silent(const cJSON *node, const cJSON *c)
{
    if (strcmp(c->string, "$schema") == 0 || strcmp(c->string, "$id") == 0)
        return 1;
    return strcmp(c->string, "additionalProperties") == 0 && cJSON_IsFalse(c) &&
           cJSON_GetObjectItemCaseSensitive(node, "properties") != NULL;
}

static char *shape_key(const cJSON *node)
{
    struct buf b;
    buf_init(&b, 0);
    buf_append_char(&b, '{');
    int first = 1;
    for (const cJSON *c = node->child; c; c = c->next) {
        if (c->string == NULL || is_annotation(c->string) || is_silent(node, c))
            continue;
        if (!first)
            buf_append_char(&b, ',');
        first = 0;
        json_append_string(&b, c->string, strlen(c->string));
        buf_append_char(&b, ':');
        json_append(&b, c);
    }
    buf_append_char(&b, '}');
    return buf_steal(&b);
}

static int property_count(const cJSON *node)
{
    const cJSON *p = cJSON_GetObjectItemCaseSensitive(node, "properties");
    return cJSON_IsObject(p) ? cJSON_GetArraySize(p) : 0;
}

/* Whether node may be named: an object with two properties or more, big
 * enough, holding no reference (its text would mean another thing in
 * another document), not already an alias. */
static int eligible(struct tools__decl_doc *d, const cJSON *node, const char *key)
{
    if (property_count(node) < 2 || strlen(key) < TOOLS__DECL_SHAPE_MIN_BYTES)
        return 0;
    if (strstr(key, "\"$ref\"") || strstr(key, "\"$dynamicRef\""))
        return 0;
    size_t t = tools__decl_target_find(d, node);
    return t == (size_t) -1 || !d->t[t].aliased;
}

static void add_occ(struct finder *f, struct tools__decl_doc *d, const cJSON *node, char *key,
                    const char *path, const char *hint, long parent)
{
    if (f->n == f->cap) {
        f->cap = f->cap ? 2 * f->cap : 32;
        f->v = xrealloc(f->v, f->cap * sizeof *f->v);
    }
    struct occ *o = &f->v[f->n++];
    o->node = node;
    o->doc = d;
    o->key = key;
    o->path = xstrdup(path);
    o->hint = xstrdup(hint);
    o->parent = parent;
    int added;
    struct tools__decl_slot *g = tools__decl_map_put(&f->groups, NULL, key, &added);
    if (added)
        g->num = f->ngroups++;
    o->group = g->num;
}

/* "entities" -> "Entity", "relations" -> "Relation": the hint for an item. */
static void singular(struct buf *b, const char *word)
{
    size_t n = strlen(word);
    if (n > 4 && strcmp(word + n - 3, "ies") == 0) {
        buf_append(b, word, n - 3);
        buf_append_char(b, 'y');
    } else if (n > 3 && word[n - 1] == 's' && word[n - 2] != 's') {
        buf_append(b, word, n - 1);
    } else {
        buf_append_str(b, word);
        buf_append_str(b, "Item");
    }
}

static void walk(struct finder *f, struct tools__decl_doc *d, const cJSON *node, struct buf *path,
                 const char *hint, long parent, int depth, int is_input_root);

static void walk_child(struct finder *f, struct tools__decl_doc *d, const cJSON *child,
                       struct buf *path, const char *seg, const char *hint, long parent,
                       int depth)
{
    size_t at = path->len;
    buf_append_char(path, '/');
    buf_append_str(path, seg);
    walk(f, d, child, path, hint, parent, depth + 1, 0);
    path->len = at;
    path->data[at] = '\0';
}

static void walk_members(struct finder *f, struct tools__decl_doc *d, const cJSON *obj,
                         struct buf *path, const char *seg, long parent, int depth, int items)
{
    if (!cJSON_IsObject(obj))
        return;
    for (const cJSON *c = obj->child; c; c = c->next) {
        if (c->string == NULL)
            continue;
        struct buf s, h;
        buf_init(&s, 0);
        buf_init(&h, 0);
        buf_printf(&s, "%s/%s", seg, c->string);
        if (items)
            singular(&h, c->string);
        else
            buf_append_str(&h, c->string);
        walk_child(f, d, c, path, s.data, h.data, parent, depth);
        buf_free(&h);
        buf_free(&s);
    }
}

static void walk_list(struct finder *f, struct tools__decl_doc *d, const cJSON *arr,
                      struct buf *path, const char *seg, const char *hint, long parent, int depth)
{
    if (!cJSON_IsArray(arr))
        return;
    size_t i = 0;
    for (const cJSON *c = arr->child; c; c = c->next, i++) {
        struct buf s;
        buf_init(&s, 0);
        buf_printf(&s, "%s/%zu", seg, i);
        walk_child(f, d, c, path, s.data, hint, parent, depth);
        buf_free(&s);
    }
}

static void walk(struct finder *f, struct tools__decl_doc *d, const cJSON *node, struct buf *path,
                 const char *hint, long parent, int depth, int is_input_root)
{
    if (!cJSON_IsObject(node) || depth > WALK_DEPTH)
        return;
    if (cJSON_GetObjectItemCaseSensitive(node, "$ref") ||
        cJSON_GetObjectItemCaseSensitive(node, "$dynamicRef"))
        return;
    if (!is_input_root && property_count(node) >= 2) {
        char *key = shape_key(node);
        const cJSON *title = cJSON_GetObjectItemCaseSensitive(node, "title");
        if (eligible(d, node, key)) {
            add_occ(f, d, node, key,
                    path->len ? path->data : "",
                    cJSON_IsString(title) && title->valuestring[0] ? title->valuestring : hint,
                    parent);
            parent = (long) f->n - 1;
        } else {
            free(key);
        }
    }
    walk_members(f, d, cJSON_GetObjectItemCaseSensitive(node, "properties"), path, "properties",
                 parent, depth, 0);
    walk_members(f, d, cJSON_GetObjectItemCaseSensitive(node, "patternProperties"), path,
                 "patternProperties", parent, depth, 0);
    walk_members(f, d, cJSON_GetObjectItemCaseSensitive(node, "$defs"), path, "$defs", parent,
                 depth, 0);
    walk_members(f, d, cJSON_GetObjectItemCaseSensitive(node, "definitions"), path, "definitions",
                 parent, depth, 0);
    struct buf item;
    buf_init(&item, 0);
    singular(&item, hint);
    const cJSON *items = cJSON_GetObjectItemCaseSensitive(node, "items");
    walk_child(f, d, items, path, "items", item.data, parent, depth);
    walk_list(f, d, items, path, "items", item.data, parent, depth);
    walk_list(f, d, cJSON_GetObjectItemCaseSensitive(node, "prefixItems"), path, "prefixItems",
              item.data, parent, depth);
    buf_free(&item);
    walk_child(f, d, cJSON_GetObjectItemCaseSensitive(node, "additionalProperties"), path,
               "additionalProperties", hint, parent, depth);
    static const char *const combinators[] = {"anyOf", "oneOf", "allOf"};
    for (size_t k = 0; k < 3; k++)
        walk_list(f, d, cJSON_GetObjectItemCaseSensitive(node, combinators[k]), path,
                  combinators[k], hint, parent, depth);
}

/* Bytes of the shape's type written inline without docs: a name must save
 * more than it costs. */
static size_t signature_bytes(const struct occ *o)
{
    struct tools__decl_ctx cx = {TOOLS_DECL_SIGNATURE, NULL, o->node};
    struct buf b;
    buf_init(&b, 0);
    tools__decl_node_body(o->doc, o->node, &cx, 1, &b);
    size_t n = b.len;
    buf_free(&b);
    return n;
}

struct by_length {
    size_t group, len;
};

static int cmp_length(const void *a, const void *b)
{
    const struct by_length *x = a, *y = b;
    if (x->len != y->len)
        return x->len > y->len ? -1 : 1;
    return x->group < y->group ? -1 : x->group > y->group;
}

/* Places a group's occurrences are written at, given the groups already
 * named: one per occurrence outside any named shape, one per position
 * inside each named shape. */
static size_t places(const struct finder *f, size_t g, const unsigned char *named,
                     size_t *const *members, const size_t *nmembers)
{
    struct tools__decl_map seen = {0};
    char **owned = xcalloc(nmembers[g] ? nmembers[g] : 1, sizeof *owned);
    for (size_t k = 0; k < nmembers[g]; k++) {
        const struct occ *o = &f->v[members[g][k]];
        long a = o->parent;
        while (a >= 0 && !named[f->v[a].group])
            a = f->v[a].parent;
        struct buf s;
        buf_init(&s, 0);
        if (a >= 0)
            buf_printf(&s, "g%zu|%s", f->v[a].group, o->path + strlen(f->v[a].path));
        else
            buf_printf(&s, "o%zu", members[g][k]);
        owned[k] = buf_steal(&s);
        tools__decl_map_put(&seen, NULL, owned[k], NULL);
    }
    size_t n = seen.n;
    tools__decl_map_free(&seen);
    for (size_t k = 0; k < nmembers[g]; k++)
        free(owned[k]);
    free(owned);
    return n;
}

static char *capitalised(const char *hint)
{
    char *s = xstrdup(hint[0] ? hint : "Shape");
    if (s[0] >= 'a' && s[0] <= 'z')
        s[0] = (char) (s[0] - 'a' + 'A');
    return s;
}

static void name_shapes(struct tools__decl_set *set, struct finder *f, const unsigned char *named,
                        struct tools__decl_shapes *shapes)
{
    long *index = xcalloc(f->ngroups ? f->ngroups : 1, sizeof *index);
    for (size_t g = 0; g < f->ngroups; g++)
        index[g] = -1;
    for (size_t k = 0; k < f->n; k++) {
        const struct occ *o = &f->v[k];
        if (!named[o->group])
            continue;
        if (index[o->group] < 0) {
            index[o->group] = (long) shapes->n;
            shapes->v = xrealloc(shapes->v, (shapes->n + 1) * sizeof *shapes->v);
            struct tools__decl_shape *sh = &shapes->v[shapes->n++];
            memset(sh, 0, sizeof *sh);
            sh->node = o->node;
            sh->doc = o->doc;
            char *hint = capitalised(o->hint);
            sh->name = tools__decl_set_alias_name(set, hint);
            free(hint);
        }
        tools__decl_map_put(&shapes->by_node, o->node, NULL, NULL)->num = (size_t) index[o->group];
    }
    free(index);
}

static void decide(struct tools__decl_set *set, struct finder *f, struct tools__decl_shapes *shapes)
{
    size_t ng = f->ngroups;
    size_t **members = xcalloc(ng ? ng : 1, sizeof *members);
    size_t *nmembers = xcalloc(ng ? ng : 1, sizeof *nmembers);
    struct by_length *order = xcalloc(ng ? ng : 1, sizeof *order);
    unsigned char *named = xcalloc(ng ? ng : 1, 1);
    for (size_t k = 0; k < f->n; k++) {
        size_t g = f->v[k].group;
        members[g] = xrealloc(members[g], (nmembers[g] + 1) * sizeof **members);
        members[g][nmembers[g]++] = k;
        order[g] = (struct by_length){g, strlen(f->v[k].key)};
    }
    qsort(order, ng, sizeof *order, cmp_length);
    for (size_t i = 0; i < ng; i++) {
        size_t g = order[i].group;
        if (nmembers[g] >= 2 && places(f, g, named, members, nmembers) >= 2 &&
            signature_bytes(&f->v[members[g][0]]) >= TOOLS__DECL_SHAPE_MIN_TYPE)
            named[g] = 1;
    }
    name_shapes(set, f, named, shapes);
    for (size_t g = 0; g < ng; g++)
        free(members[g]);
    free(members);
    free(nmembers);
    free(order);
    free(named);
}

void tools__decl_shapes_find(struct tools__decl_set *set, struct tools__decl_shapes *shapes)
{
    memset(shapes, 0, sizeof *shapes);
    struct finder f = {0};
    struct buf path;
    buf_init(&path, 0);
    for (size_t k = 0; k < set->n; k++) {
        size_t i = set->order[k];
        buf_reset(&path);
        walk(&f, &set->in[i], set->in[i].root, &path, set->in[i].t[0].hint, -1, 0, 1);
        if (set->has_out[i]) {
            buf_reset(&path);
            walk(&f, &set->out[i], set->out[i].root, &path, set->out[i].t[0].hint, -1, 0, 0);
        }
    }
    buf_free(&path);
    decide(set, &f, shapes);
    tools__decl_map_free(&f.groups);
    for (size_t k = 0; k < f.n; k++) {
        free(f.v[k].key);
        free(f.v[k].path);
        free(f.v[k].hint);
    }
    free(f.v);
}

void tools__decl_shapes_free(struct tools__decl_shapes *shapes)
{
    for (size_t i = 0; i < shapes->n; i++) {
        free(shapes->v[i].name);
        free(shapes->v[i].body);
    }
    free(shapes->v);
    tools__decl_map_free(&shapes->by_node);
    memset(shapes, 0, sizeof *shapes);
}

struct tools__decl_shape *tools__decl_shape_of(struct tools__decl_shapes *shapes,
                                               const cJSON *node)
{
    if (shapes->n == 0)
        return NULL;
    struct tools__decl_slot *s = tools__decl_map_find(&shapes->by_node, node, NULL);
    return s ? &shapes->v[s->num] : NULL;
}
