/* The evaluation core: one node against one instance, with the limits
 * (nesting depth, evaluation budget), the instance path, the dynamic scope
 * for $dynamicRef, and the annotations unevaluatedProperties/Items need
 * (collected only where such a keyword can see them). */
#include "tools/schema/internal.h"
#include "tools/schema/regex.h"
#include "common/alloc.h"

#include <stdlib.h>
#include <string.h>

/* --- annotations: a bitset over the members or items of the instance ------- */

void schema__annot_init(struct schema__annot *a, size_t n)
{
    size_t words = (n + 63) / 64;
    a->n = n;
    a->bits = words <= 2 ? a->inline_bits : xcalloc(words, sizeof *a->bits);
    a->inline_bits[0] = a->inline_bits[1] = 0;
}

void schema__annot_free(struct schema__annot *a)
{
    if (a->bits != a->inline_bits)
        free(a->bits);
    a->bits = NULL;
}

void schema__annot_set(struct schema__annot *a, size_t i)
{
    if (a && i < a->n)
        a->bits[i / 64] |= (uint64_t) 1 << (i % 64);
}

int schema__annot_get(const struct schema__annot *a, size_t i)
{
    return i < a->n && ((a->bits[i / 64] >> (i % 64)) & 1);
}

void schema__annot_merge(struct schema__annot *into, const struct schema__annot *from)
{
    size_t words = (into->n + 63) / 64;
    for (size_t w = 0; w < words && into->n == from->n; w++)
        into->bits[w] |= from->bits[w];
}

/* --- $ref and $dynamicRef ---------------------------------------------------- */

/* $dynamicRef: the outermost resource in the dynamic scope that has a
 * $dynamicAnchor of the name wins; otherwise the static target. */
static const struct schema__node *dynamic_target(const struct schema__ctx *c,
                                                 const struct schema__node *n)
{
    if (n->dyn_name == NULL)
        return n->dyn_ref;
    for (int i = 0; i < c->scope_len; i++)
        for (const struct schema__anchor *a = c->scope[i]->anchors; a; a = a->next)
            if (a->dynamic && strcmp(a->name, n->dyn_name) == 0)
                return a->node;
    return n->dyn_ref;
}

static int eval_refs(struct schema__ctx *c, const struct schema__node *n, const cJSON *inst,
                     struct schema__annot *a)
{
    int ok = 1;
    if (n->ref)
        ok = schema__eval(c, n->ref, inst, a);
    if ((ok || !c->quiet) && n->dyn_ref)
        ok &= schema__eval(c, dynamic_target(c, n), inst, a);
    return ok;
}

/* --- one schema object ----------------------------------------------------------- */

static size_t child_count(const cJSON *inst)
{
    size_t n = 0;
    for (const cJSON *k = inst->child; k; k = k->next)
        n++;
    return n;
}

#define STEP(expr)                                                                                 \
    do {                                                                                           \
        ok &= (expr);                                                                              \
        if (!ok && c->quiet)                                                                       \
            goto out;                                                                              \
    } while (0)

static int eval_keywords(struct schema__ctx *c, const struct schema__node *n, const cJSON *inst,
                         struct schema__annot *annot)
{
    struct schema__annot local, *la = NULL;
    int ok = 1, container = cJSON_IsObject(inst) || cJSON_IsArray(inst);
    unsigned g = n->groups;
    if (container && (annot || (g & G_UNEVAL))) {
        schema__annot_init(&local, child_count(inst));
        la = &local;
    }
    if (g & G_REF)
        STEP(eval_refs(c, n, inst, la));
    if (g & (G_TYPE | G_ENUM | G_CONST | G_NUM | G_STR))
        STEP(schema__kw_scalar(c, n, inst));
    if ((g & G_ARR) && cJSON_IsArray(inst))
        STEP(schema__kw_array(c, n, inst, la));
    if ((g & G_OBJ) && cJSON_IsObject(inst))
        STEP(schema__kw_object(c, n, inst, la));
    if (g & G_LOGIC)
        STEP(schema__kw_logic(c, n, inst, la));
    if ((g & G_UNEVAL) && la)
        STEP(schema__kw_uneval(c, n, inst, la));
out:
    if (la) {
        if (ok && annot)
            schema__annot_merge(annot, la);
        schema__annot_free(la);
    }
    return ok && !c->aborted;
}

int schema__eval(struct schema__ctx *c, const struct schema__node *n, const cJSON *inst,
                 struct schema__annot *annot)
{
    if (c->aborted)
        return 0;
    if (n->kind == K_TRUE)
        return 1;
    if (n->kind == K_FALSE) {
        schema__error(c, "false", "no value is allowed here (the schema is false)");
        return 0;
    }
    if (--c->budget < 0) {
        schema__abort(c, "schema",
                      "validation stopped: over %ld schema evaluations (a schema "
                      "this expensive is likely recursive)",
                      SCHEMA_EVAL_BUDGET);
        return 0;
    }
    if (c->depth >= SCHEMA_MAX_DEPTH) {
        schema__abort(c, "$ref",
                      "validation stopped: schema evaluation nested more than %d "
                      "levels (a recursive $ref, or a value nested too deeply)",
                      SCHEMA_MAX_DEPTH);
        return 0;
    }
    int pushed = c->scope_len == 0 || c->scope[c->scope_len - 1] != n->res;
    if (pushed)
        c->scope[c->scope_len++] = n->res;
    c->depth++;
    int ok = eval_keywords(c, n, inst, annot);
    c->depth--;
    if (pushed)
        c->scope_len--;
    return ok;
}

int schema__eval_member(struct schema__ctx *c, const struct schema__node *n, const cJSON *inst,
                        const char *name)
{
    c->path[c->path_len].name = name;
    c->path_len++;
    int ok = schema__eval(c, n, inst, NULL);
    c->path_len--;
    return ok;
}

int schema__eval_item(struct schema__ctx *c, const struct schema__node *n, const cJSON *inst,
                      size_t index)
{
    c->path[c->path_len].name = NULL;
    c->path[c->path_len].index = index;
    c->path_len++;
    int ok = schema__eval(c, n, inst, NULL);
    c->path_len--;
    return ok;
}

int schema__pattern_test(struct schema__ctx *c, const struct schema__regex *re, const char *src,
                         const char *str)
{
    /* Every search may take 64 steps per byte (linear patterns never need
     * more); the superlinear excess is drawn from one budget per validation,
     * and no single search takes more than SCHEMA_REGEX_BUDGET of it. */
    size_t len = strlen(str);
    unsigned long linear = 64 * (unsigned long) len;
    unsigned long extra =
        c->regex_budget < SCHEMA_REGEX_BUDGET ? c->regex_budget : SCHEMA_REGEX_BUDGET;
    unsigned long left = linear + extra;
    int r = schema__regex_search(re, str, len, &left);
    unsigned long used = linear + extra - left;
    c->regex_budget -= used > linear ? used - linear : 0;
    if (r < 0) {
        char *p = NULL;
        cJSON tmp;
        memset(&tmp, 0, sizeof tmp);
        tmp.type = cJSON_String | cJSON_IsReference;
        tmp.valuestring = (char *) src;
        p = schema__value_text(&tmp);
        schema__abort(c, "pattern",
                      "validation stopped: pattern %s is too expensive to match "
                      "against this value (regex step budget exhausted)",
                      p);
        free(p);
    }
    return r;
}
