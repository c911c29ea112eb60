/* Array keywords: prefixItems/items (draft-07 array items and
 * additionalItems), contains with minContains/maxContains, minItems,
 * maxItems, uniqueItems, and unevaluatedItems (with the annotations of the
 * in-place applicators). */
#include "tools/schema/internal.h"

#include "common/alloc.h"

#include <stdlib.h>

static const char *items_keyword(const struct schema__node *n)
{
    return n->res->draft == SCHEMA_DRAFT7 && n->prefix.n ? "additionalItems" : "items";
}

static int check_items(struct schema__ctx *c, const struct schema__node *n, const cJSON *inst,
                       size_t size, struct schema__annot *a)
{
    int ok = 1;
    size_t i = 0;
    if (n->items && n->items->kind == K_FALSE && size > n->prefix.n) {
        ok = 0;
        if (n->prefix.n == 0)
            schema__error(c, items_keyword(n), "must be an empty array (got %zu items)", size);
        else
            schema__error(c, items_keyword(n), "must have at most %zu items (got %zu)", n->prefix.n,
                          size);
        if (c->quiet)
            return 0;
    }
    for (const cJSON *it = inst->child; it; it = it->next, i++) {
        const struct schema__node *k = i < n->prefix.n ? n->prefix.items[i] : n->items;
        if (k == NULL)
            break;
        if (k->kind == K_FALSE && i >= n->prefix.n)
            break; /* reported above */
        if (!schema__eval_item(c, k, it, i) && (ok = 0, c->quiet))
            return 0;
        schema__annot_set(a, i);
    }
    return ok;
}

static int check_contains(struct schema__ctx *c, const struct schema__node *n, const cJSON *inst,
                          struct schema__annot *a)
{
    size_t found = 0, i = 0;
    size_t min = (n->flags & F_MINCONT) ? n->min_contains : 1;
    int quiet = c->quiet;
    c->quiet = 1;
    for (const cJSON *it = inst->child; it && !c->aborted; it = it->next, i++) {
        if (schema__eval_item(c, n->contains, it, i)) {
            found++;
            schema__annot_set(a, i);
        }
    }
    c->quiet = quiet;
    if (c->aborted)
        return 0;
    if (found < min) {
        schema__error(
            c, (n->flags & F_MINCONT) ? "minContains" : "contains",
            "must contain at least %zu item%s matching the \"contains\" schema (found %zu)", min,
            min == 1 ? "" : "s", found);
        return 0;
    }
    if ((n->flags & F_MAXCONT) && found > n->max_contains) {
        schema__error(
            c, "maxContains",
            "must contain at most %zu item%s matching the \"contains\" schema (found %zu)",
            n->max_contains, n->max_contains == 1 ? "" : "s", found);
        return 0;
    }
    return 1;
}

#define SMALL_ARRAY 16 /* items compared pairwise; larger arrays are hashed first */

struct hashed {
    uint64_t hash;
    size_t index;
    const cJSON *item;
};

static int cmp_hashed(const void *x, const void *y)
{
    const struct hashed *a = x, *b = y;
    if (a->hash != b->hash)
        return a->hash < b->hash ? -1 : 1;
    return a->index < b->index ? -1 : a->index > b->index;
}

/* Compares x and y; 1 and a recorded error when equal, -1 (aborted) when too deep. */
static int duplicate(struct schema__ctx *c, const cJSON *x, const cJSON *y, size_t i, size_t j)
{
    int r = schema__json_equal(x, y);
    if (r < 0) {
        schema__abort(c, "uniqueItems", "validation stopped: items nested too deeply to compare");
        return -1;
    }
    if (r)
        schema__error(c, "uniqueItems", "items must be unique (items %zu and %zu are equal)", i, j);
    return r;
}

static int unique_small(struct schema__ctx *c, const cJSON *inst)
{
    size_t i = 0;
    for (const cJSON *x = inst->child; x; x = x->next, i++) {
        size_t j = i + 1;
        for (const cJSON *y = x->next; y; y = y->next, j++)
            if (duplicate(c, x, y, i, j))
                return 0;
    }
    return 1;
}

/* Large arrays: sort by hash, compare only items whose hashes are equal. */
static int unique_large(struct schema__ctx *c, const cJSON *inst, size_t size)
{
    struct hashed *h = xmalloc(size * sizeof *h);
    size_t n = 0, i, j;
    for (const cJSON *x = inst->child; x; x = x->next, n++)
        h[n] = (struct hashed){schema__json_hash(x), n, x};
    qsort(h, n, sizeof *h, cmp_hashed);
    int ok = 1;
    for (i = 0; i < n && ok; i++)
        for (j = i + 1; j < n && h[j].hash == h[i].hash && ok; j++)
            ok = !duplicate(c, h[i].item, h[j].item, h[i].index, h[j].index);
    free(h);
    return ok;
}

/* uniqueItems: stops at the first equal pair. */
static int check_unique(struct schema__ctx *c, const cJSON *inst, size_t size)
{
    return size <= SMALL_ARRAY ? unique_small(c, inst) : unique_large(c, inst, size);
}

static int check_size(struct schema__ctx *c, const struct schema__node *n, size_t size)
{
    int ok = 1;
    if ((n->flags & F_MINITEMS) && size < n->min_items && (ok = 0, !c->quiet))
        schema__error(c, "minItems", "must have at least %zu item%s (got %zu)", n->min_items,
                      n->min_items == 1 ? "" : "s", size);
    if ((n->flags & F_MAXITEMS) && size > n->max_items && (ok = 0, !c->quiet))
        schema__error(c, "maxItems", "must have at most %zu item%s (got %zu)", n->max_items,
                      n->max_items == 1 ? "" : "s", size);
    return ok;
}

int schema__kw_array(struct schema__ctx *c, const struct schema__node *n, const cJSON *inst,
                     struct schema__annot *a)
{
    size_t size = 0;
    for (const cJSON *it = inst->child; it; it = it->next)
        size++;
    int ok = check_size(c, n, size);
    if (!ok && c->quiet)
        return 0;
    if ((n->prefix.n || n->items) && !check_items(c, n, inst, size, a) && (ok = 0, c->quiet))
        return 0;
    if (n->contains && !check_contains(c, n, inst, a) && (ok = 0, c->quiet))
        return 0;
    if ((n->flags & F_UNIQUE) && !check_unique(c, inst, size))
        ok = 0;
    return ok;
}

/* unevaluatedItems / unevaluatedProperties: whatever no keyword of this
 * schema or its in-place subschemas evaluated (a holds their annotations). */
int schema__kw_uneval(struct schema__ctx *c, const struct schema__node *n, const cJSON *inst,
                      struct schema__annot *a)
{
    const struct schema__node *k = cJSON_IsArray(inst) ? n->uneval_items : n->uneval_props;
    int ok = 1;
    size_t i = 0;
    if (k == NULL)
        return 1;
    for (const cJSON *it = inst->child; it; it = it->next, i++) {
        if (schema__annot_get(a, i))
            continue;
        int r;
        if (k->kind == K_FALSE && cJSON_IsObject(inst)) {
            schema__error(c, "unevaluatedProperties", "property \"%s\" is not allowed here",
                          it->string);
            r = 0;
        } else if (k->kind == K_FALSE) {
            schema__error(c, "unevaluatedItems",
                          "item %zu is not allowed here (no schema "
                          "evaluates it)",
                          i);
            r = 0;
        } else {
            r = cJSON_IsArray(inst) ? schema__eval_item(c, k, it, i)
                                    : schema__eval_member(c, k, it, it->string);
        }
        if (!r && (ok = 0, c->quiet))
            return 0;
        schema__annot_set(a, i);
    }
    return ok;
}
