/* Applicators that combine schemas on the same value: allOf, anyOf, oneOf,
 * not, if/then/else. When anyOf/oneOf match nothing, the errors of the
 * closest alternative are reported (or one merged type message when every
 * alternative wants another type); alternatives are otherwise evaluated for
 * their verdict only, so error reporting costs no more than the verdict. */
#include "tools/schema/internal.h"
#include "common/alloc.h"
#include "common/buf.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_HOPS 8 /* $ref/allOf levels the closeness estimate looks through */

/* Whether v fails the node's own enum/const (not its subschemas). */
static int value_mismatch(const struct schema__node *k, const cJSON *v)
{
    if (k->kind != K_OBJECT)
        return k->kind == K_FALSE;
    if ((k->groups & G_CONST) && schema__json_equal(k->const_value, v) != 1)
        return 1;
    if (k->groups & G_ENUM) {
        for (const cJSON *e = k->enum_values->child; e; e = e->next)
            if (schema__json_equal(e, v) == 1)
                return 0;
        return 1;
    }
    return 0;
}

static const struct schema__node *find_prop(const struct schema__node *k, const char *name)
{
    for (size_t i = 0; i < k->n_props; i++)
        if (strcmp(k->props[i].name, name) == 0)
            return k->props[i].node;
    return NULL;
}

/* Object-level closeness: missing required members, members with the wrong
 * discriminator (const/enum), members additionalProperties forbids. */
static long object_distance(const struct schema__node *k, const cJSON *inst)
{
    long d = 0;
    for (size_t i = 0; i < k->n_required; i++)
        if (!cJSON_GetObjectItemCaseSensitive(inst, k->required[i]))
            d += 10;
    for (const cJSON *m = inst->child; m; m = m->next) {
        const struct schema__node *p = find_prop(k, m->string);
        if (p && value_mismatch(p, m))
            d += 500;
        else if (!p && k->additional && k->additional->kind == K_FALSE && k->n_patprops == 0)
            d += 10;
    }
    return d;
}

/* A cheap estimate of how far a failed alternative is from the value, from
 * its own keywords (no evaluation): lower is closer. Alternatives meant for
 * another type or another discriminator value are far. */
static long distance(const struct schema__node *k, const cJSON *inst, int hops)
{
    long d = 0;
    if (k->kind != K_OBJECT)
        return k->kind == K_FALSE ? 1000 : 0;
    if (hops > MAX_HOPS)
        return 0;
    if ((k->groups & G_TYPE) && !(k->types & schema__type_bits(inst)))
        d += 1000;
    if ((k->groups & (G_ENUM | G_CONST)) && value_mismatch(k, inst))
        d += 500;
    if (k->ref)
        d += distance(k->ref, inst, hops + 1);
    for (size_t i = 0; i < k->all_of.n; i++)
        d += distance(k->all_of.items[i], inst, hops + 1);
    if (cJSON_IsObject(inst) && (k->groups & G_OBJ))
        d += object_distance(k, inst);
    return d;
}

/* The types an alternative wants (through $ref), 0 when it does not say. */
static unsigned wanted_types(const struct schema__node *k, int hops)
{
    if (k->kind != K_OBJECT || hops > MAX_HOPS)
        return 0;
    if (k->groups & G_TYPE)
        return k->types;
    return k->ref ? wanted_types(k->ref, hops + 1) : 0;
}

struct branches {
    size_t matched, first, second;
};

/* Evaluates the alternatives for the verdict only (quietly), until stop_at
 * of them matched. Errors are explained afterwards, from one alternative:
 * exploring every failed alternative with errors on would multiply the work
 * at each nesting level. */
static void run_branches(struct schema__ctx *c, const struct schema__list *l, const cJSON *inst,
                         struct schema__annot *a, struct branches *br, size_t stop_at)
{
    int quiet = c->quiet;
    c->quiet = 1;
    for (size_t i = 0; i < l->n && !c->aborted; i++) {
        if (!schema__eval(c, l->items[i], inst, a))
            continue;
        if (br->matched++ == 0)
            br->first = i;
        else if (br->matched == 2)
            br->second = i;
        if (br->matched >= stop_at)
            break;
    }
    c->quiet = quiet;
}

/* No alternative matched: one merged type message when every alternative
 * wants another type, else the errors of the closest alternative. */
static void explain_none(struct schema__ctx *c, const char *keyword, const char *words,
                         const struct schema__list *l, const cJSON *inst)
{
    unsigned types = 0, have = schema__type_bits(inst);
    size_t best = 0;
    long best_d = -1;
    int type_only = 1;
    if (c->quiet || c->aborted)
        return;
    for (size_t i = 0; i < l->n; i++) {
        unsigned w = wanted_types(l->items[i], 0);
        if (w == 0 || (w & have))
            type_only = 0;
        types |= w;
        long d = distance(l->items[i], inst, 0);
        if (best_d < 0 || d < best_d)
            best_d = d, best = i;
    }
    if (type_only) {
        struct buf b;
        buf_init(&b, 0);
        schema__types_text(&b, types);
        char *v = schema__value_text(inst);
        schema__error(c, keyword, "expected %s, got %s %s", b.data, schema__type_name(inst), v);
        free(v);
        buf_free(&b);
        return;
    }
    schema__error(c, keyword,
                  "must match %s of %zu schemas (matched 0); closest is %s[%zu], "
                  "whose errors follow",
                  words, l->n, keyword, best);
    schema__eval(c, l->items[best], inst, NULL);
}

static int any_of(struct schema__ctx *c, const struct schema__node *n, const cJSON *inst,
                  struct schema__annot *a)
{
    struct branches br;
    memset(&br, 0, sizeof br);
    /* With annotations wanted, every alternative counts: no short cut. */
    run_branches(c, &n->any_of, inst, a, &br, a ? SIZE_MAX : 1);
    if (br.matched)
        return 1;
    explain_none(c, "anyOf", "at least one", &n->any_of, inst);
    return 0;
}

static int one_of(struct schema__ctx *c, const struct schema__node *n, const cJSON *inst,
                  struct schema__annot *a)
{
    struct branches br;
    memset(&br, 0, sizeof br);
    run_branches(c, &n->one_of, inst, a, &br, 2);
    if (br.matched == 1)
        return 1;
    if (br.matched == 0) {
        explain_none(c, "oneOf", "exactly one", &n->one_of, inst);
        return 0;
    }
    schema__error(c, "oneOf",
                  "must match exactly one of %zu schemas (matched more than one: "
                  "oneOf[%zu] and oneOf[%zu])",
                  n->one_of.n, br.first, br.second);
    return 0;
}

static int not_(struct schema__ctx *c, const struct schema__node *n, const cJSON *inst)
{
    int quiet = c->quiet;
    c->quiet = 1;
    int r = schema__eval(c, n->not_, inst, NULL);
    c->quiet = quiet;
    if (c->aborted)
        return 0;
    if (!r)
        return 1;
    const struct schema__node *k = n->not_;
    if (k->kind == K_OBJECT && k->groups == G_TYPE) {
        struct buf b;
        buf_init(&b, 0);
        schema__types_text(&b, k->types);
        schema__error(c, "not", "must not be of type %s", b.data);
        buf_free(&b);
    } else {
        schema__error(c, "not", "must not match the schema in \"not\"");
    }
    return 0;
}

static int if_then_else(struct schema__ctx *c, const struct schema__node *n, const cJSON *inst,
                        struct schema__annot *a)
{
    int quiet = c->quiet;
    c->quiet = 1;
    int r = schema__eval(c, n->if_, inst, a);
    c->quiet = quiet;
    if (c->aborted)
        return 0;
    const struct schema__node *k = r ? n->then_ : n->else_;
    return k ? schema__eval(c, k, inst, a) : 1;
}

int schema__kw_logic(struct schema__ctx *c, const struct schema__node *n, const cJSON *inst,
                     struct schema__annot *a)
{
    int ok = 1;
    for (size_t i = 0; i < n->all_of.n; i++)
        if (!schema__eval(c, n->all_of.items[i], inst, a) && (ok = 0, c->quiet))
            return 0;
    if (n->any_of.n && !any_of(c, n, inst, a) && (ok = 0, c->quiet))
        return 0;
    if (n->one_of.n && !one_of(c, n, inst, a) && (ok = 0, c->quiet))
        return 0;
    if (n->not_ && !not_(c, n, inst) && (ok = 0, c->quiet))
        return 0;
    if (n->if_ && !if_then_else(c, n, inst, a))
        ok = 0;
    return ok;
}
