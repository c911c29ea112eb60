/* Object keywords: properties, patternProperties, additionalProperties and
 * propertyNames in one pass over the members, then required,
 * min/maxProperties, dependentRequired and dependentSchemas. */
#include "tools/schema/internal.h"
#include "common/alloc.h"
#include "common/buf.h"
#include "common/json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ALLOWED_SHOWN 12 /* names listed after "allowed:" */

static const struct schema__node *find_prop(const struct schema__node *n, const char *name)
{
    size_t lo = 0, hi = n->n_props;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int r = strcmp(name, n->props[mid].name);
        if (r == 0)
            return n->props[mid].node;
        if (r < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return NULL;
}

/* " (allowed: "a", "b", or names matching "^x-")" for additionalProperties. */
static void allowed_text(struct buf *b, const struct schema__node *n)
{
    size_t shown = 0;
    buf_append_str(b, " (allowed: ");
    for (; shown < n->n_props && shown < ALLOWED_SHOWN; shown++) {
        buf_append_str(b, shown ? ", " : "");
        json_append_string(b, n->props[shown].name, strlen(n->props[shown].name));
    }
    if (n->n_props > ALLOWED_SHOWN)
        buf_printf(b, ", ... (%zu names)", n->n_props);
    if (n->n_patprops)
        buf_append_str(b, shown ? ", or names matching " : "names matching ");
    for (size_t i = 0; i < n->n_patprops && i < 4; i++) {
        buf_append_str(b, i ? ", " : "");
        json_append_string(b, n->patprops[i].source, strlen(n->patprops[i].source));
    }
    if (shown == 0 && n->n_patprops == 0)
        buf_append_str(b, "none");
    buf_append_char(b, ')');
}

static void not_allowed(struct schema__ctx *c, const char *keyword, const struct schema__node *n,
                        const char *name)
{
    if (!schema__error_kept(c))
        return;
    struct buf q, allowed;
    buf_init(&q, 0);
    buf_init(&allowed, 0);
    json_append_string(&q, name, strlen(name));
    if (strcmp(keyword, "additionalProperties") == 0)
        allowed_text(&allowed, n);
    schema__error(c, keyword, "property %s is not allowed%s", q.data,
                  allowed.data ? allowed.data : "");
    buf_free(&q);
    buf_free(&allowed);
}

/* propertyNames: the name is validated as a string; its errors are reported
 * at the object, prefixed with the name. */
static int check_name(struct schema__ctx *c, const struct schema__node *n, const char *name)
{
    cJSON tmp;
    memset(&tmp, 0, sizeof tmp);
    tmp.type = cJSON_String | cJSON_IsReference;
    tmp.valuestring = (char *) name;
    size_t mark = c->count;
    if (schema__eval(c, n->names, &tmp, NULL))
        return 1;
    for (size_t i = mark; i < c->count; i++) {
        struct buf b;
        buf_init(&b, 0);
        buf_append_str(&b, "property name ");
        json_append_string(&b, name, strlen(name));
        buf_printf(&b, ": %s", c->errors[i].message);
        free(c->errors[i].message);
        c->errors[i].message = buf_steal(&b);
    }
    return 0;
}

/* One member: the schemas that apply to it by name. Returns 1 valid, 0 not;
 * *evaluated tells whether any schema (even false) looked at it. */
static int check_member(struct schema__ctx *c, const struct schema__node *n, const cJSON *m,
                        int *evaluated)
{
    int ok = 1;
    const struct schema__node *k = n->n_props ? find_prop(n, m->string) : NULL;
    *evaluated = 0;
    if (k) {
        *evaluated = 1;
        if (k->kind == K_FALSE)
            not_allowed(c, "properties", n, m->string), ok = 0;
        else if (!schema__eval_member(c, k, m, m->string) && (ok = 0, c->quiet))
            return 0;
    }
    for (size_t i = 0; i < n->n_patprops; i++) {
        const struct schema__patprop *pp = &n->patprops[i];
        int r = schema__pattern_test(c, pp->re, pp->source, m->string);
        if (r < 0)
            return 0;
        if (r == 0)
            continue;
        *evaluated = 1;
        if (!schema__eval_member(c, pp->node, m, m->string) && (ok = 0, c->quiet))
            return 0;
    }
    if (*evaluated || n->additional == NULL)
        return ok;
    *evaluated = 1;
    if (n->additional->kind == K_FALSE) {
        not_allowed(c, "additionalProperties", n, m->string);
        return 0;
    }
    return schema__eval_member(c, n->additional, m, m->string) && ok;
}

static int check_members(struct schema__ctx *c, const struct schema__node *n, const cJSON *inst,
                         struct schema__annot *a)
{
    int ok = 1, evaluated;
    size_t i = 0;
    for (const cJSON *m = inst->child; m && !c->aborted; m = m->next, i++) {
        if (!check_member(c, n, m, &evaluated) && (ok = 0, c->quiet))
            return 0;
        if (evaluated)
            schema__annot_set(a, i);
        if (n->names && !check_name(c, n, m->string) && (ok = 0, c->quiet))
            return 0;
    }
    return ok && !c->aborted;
}

static int has(const cJSON *inst, const char *name)
{
    return cJSON_GetObjectItemCaseSensitive(inst, name) != NULL;
}

static int check_required(struct schema__ctx *c, const struct schema__node *n, const cJSON *inst)
{
    int ok = 1;
    for (size_t i = 0; i < n->n_required; i++) {
        if (has(inst, n->required[i]))
            continue;
        ok = 0;
        if (c->quiet)
            return 0;
        schema__error(c, "required", "missing required property \"%s\"", n->required[i]);
    }
    for (size_t d = 0; d < n->n_dep_required; d++) {
        const struct schema__dep *dep = &n->dep_required[d];
        if (!has(inst, dep->name))
            continue;
        for (size_t i = 0; i < dep->n_names; i++) {
            if (has(inst, dep->names[i]))
                continue;
            ok = 0;
            if (c->quiet)
                return 0;
            schema__error(c, "dependentRequired",
                          "property \"%s\" is required when \"%s\" is present", dep->names[i],
                          dep->name);
        }
    }
    return ok;
}

static int check_count(struct schema__ctx *c, const struct schema__node *n, const cJSON *inst)
{
    size_t count = 0;
    int ok = 1;
    for (const cJSON *m = inst->child; m; m = m->next)
        count++;
    if ((n->flags & F_MINPROPS) && count < n->min_props && (ok = 0, !c->quiet))
        schema__error(c, "minProperties", "must have at least %zu propert%s (got %zu)",
                      n->min_props, n->min_props == 1 ? "y" : "ies", count);
    if ((n->flags & F_MAXPROPS) && count > n->max_props && (ok = 0, !c->quiet))
        schema__error(c, "maxProperties", "must have at most %zu propert%s (got %zu)", n->max_props,
                      n->max_props == 1 ? "y" : "ies", count);
    return ok;
}

int schema__kw_object(struct schema__ctx *c, const struct schema__node *n, const cJSON *inst,
                      struct schema__annot *a)
{
    int ok = 1;
    if ((n->n_props || n->n_patprops || n->additional || n->names) &&
        !check_members(c, n, inst, a) && (ok = 0, c->quiet))
        return 0;
    if ((n->n_required || n->n_dep_required) && !check_required(c, n, inst) && (ok = 0, c->quiet))
        return 0;
    if ((n->flags & (F_MINPROPS | F_MAXPROPS)) && !check_count(c, n, inst) && (ok = 0, c->quiet))
        return 0;
    for (size_t d = 0; d < n->n_dep_schemas; d++) {
        const struct schema__dep *dep = &n->dep_schemas[d];
        if (has(inst, dep->name) && !schema__eval(c, dep->node, inst, a) && (ok = 0, c->quiet))
            return 0;
    }
    return ok;
}
