/* Compiles the object keywords of a schema: properties (sorted for binary
 * search), patternProperties (regexes compiled once), additionalProperties,
 * propertyNames, required, min/maxProperties, dependentRequired,
 * dependentSchemas, draft-07 dependencies and unevaluatedProperties. */
#include "tools/schema/compile.h"
#include "common/alloc.h"

#include <stdlib.h>
#include <string.h>

static const cJSON *kw(const cJSON *obj, const char *name)
{
    return cJSON_GetObjectItemCaseSensitive(obj, name);
}

static int fail_at(struct schema__compiler *cp, const char *name, const char *msg)
{
    size_t mark = schema__path_push(cp, name);
    schema__fail(cp, "%s", msg);
    schema__path_pop(cp, mark);
    return -1;
}

static int cmp_prop(const void *a, const void *b)
{
    return strcmp(((const struct schema__prop *) a)->name, ((const struct schema__prop *) b)->name);
}

static int parse_properties(struct schema__compiler *cp, const cJSON *obj, struct schema__node *n,
                            struct schema__resource *res)
{
    const cJSON *v = kw(obj, "properties");
    if (v == NULL)
        return 0;
    if (!cJSON_IsObject(v))
        return fail_at(cp, "properties", "\"properties\" must be an object of schemas");
    size_t count = (size_t) cJSON_GetArraySize(v);
    n->props = schema__alloc(cp->s, (count ? count : 1) * sizeof *n->props);
    size_t mark = schema__path_push(cp, "properties");
    for (const cJSON *m = v->child; m && !cp->err; m = m->next) {
        size_t m2 = schema__path_push(cp, m->string);
        struct schema__node *k = schema__compile_node(cp, m, res);
        schema__path_pop(cp, m2);
        if (k)
            n->props[n->n_props++] = (struct schema__prop){m->string, k};
    }
    schema__path_pop(cp, mark);
    qsort(n->props, n->n_props, sizeof *n->props, cmp_prop);
    return cp->err ? -1 : 0;
}

static int parse_pattern_props(struct schema__compiler *cp, const cJSON *obj,
                               struct schema__node *n, struct schema__resource *res)
{
    const cJSON *v = kw(obj, "patternProperties");
    if (v == NULL)
        return 0;
    if (!cJSON_IsObject(v))
        return fail_at(cp, "patternProperties",
                       "\"patternProperties\" must be an object of schemas");
    size_t count = (size_t) cJSON_GetArraySize(v);
    n->patprops = schema__alloc(cp->s, (count ? count : 1) * sizeof *n->patprops);
    size_t mark = schema__path_push(cp, "patternProperties");
    for (const cJSON *m = v->child; m && !cp->err; m = m->next) {
        size_t m2 = schema__path_push(cp, m->string);
        struct schema__regex *re = schema__compile_pattern(cp, m->string);
        struct schema__node *k = re ? schema__compile_node(cp, m, res) : NULL;
        schema__path_pop(cp, m2);
        if (k)
            n->patprops[n->n_patprops++] = (struct schema__patprop){m->string, re, k};
    }
    schema__path_pop(cp, mark);
    return cp->err ? -1 : 0;
}

/* An array of strings (required, dependentRequired values). */
static int string_list(struct schema__compiler *cp, const cJSON *v, const char *name,
                       const char ***out, size_t *count)
{
    if (!cJSON_IsArray(v))
        return fail_at(cp, name, "must be an array of strings");
    size_t total = (size_t) cJSON_GetArraySize(v);
    *out = schema__alloc(cp->s, (total ? total : 1) * sizeof **out);
    *count = 0;
    for (const cJSON *it = v->child; it; it = it->next) {
        if (!cJSON_IsString(it))
            return fail_at(cp, name, "must be an array of strings");
        (*out)[(*count)++] = it->valuestring;
    }
    return 0;
}

static int parse_required(struct schema__compiler *cp, const cJSON *obj, struct schema__node *n)
{
    const cJSON *v = kw(obj, "required");
    if (v == NULL || cJSON_IsBool(v)) /* draft-03 "required": true on a property: ignored */
        return 0;
    return string_list(cp, v, "required", &n->required, &n->n_required);
}

static int add_dep_required(struct schema__compiler *cp, const cJSON *m, const char *kwname,
                            struct schema__node *n)
{
    size_t mark = schema__path_push(cp, kwname);
    struct schema__dep *d = &n->dep_required[n->n_dep_required++];
    d->name = m->string;
    int r = string_list(cp, m, m->string, &d->names, &d->n_names);
    schema__path_pop(cp, mark);
    return r;
}

static int add_dep_schema(struct schema__compiler *cp, const cJSON *m, const char *kwname,
                          struct schema__node *n, struct schema__resource *res)
{
    size_t mark = schema__path_push(cp, kwname), m2 = schema__path_push(cp, m->string);
    struct schema__node *k = schema__compile_node(cp, m, res);
    schema__path_pop(cp, m2);
    schema__path_pop(cp, mark);
    if (k == NULL)
        return -1;
    n->dep_schemas[n->n_dep_schemas++] = (struct schema__dep){m->string, NULL, 0, k};
    return 0;
}

/* dependentRequired, dependentSchemas and their draft-07 union "dependencies". */
static int parse_dependencies(struct schema__compiler *cp, const cJSON *obj, struct schema__node *n,
                              struct schema__resource *res)
{
    static const char *const names[] = {"dependentRequired", "dependentSchemas", "dependencies"};
    size_t total = 0;
    for (int k = 0; k < 3; k++) {
        const cJSON *v = kw(obj, names[k]);
        if (v && !cJSON_IsObject(v))
            return fail_at(cp, names[k], "must be an object");
        total += (size_t) cJSON_GetArraySize(v);
    }
    if (total == 0)
        return 0;
    n->dep_required = schema__alloc(cp->s, total * sizeof *n->dep_required);
    n->dep_schemas = schema__alloc(cp->s, total * sizeof *n->dep_schemas);
    for (int k = 0; k < 3; k++) {
        const cJSON *v = kw(obj, names[k]);
        for (const cJSON *m = v ? v->child : NULL; m; m = m->next) {
            int as_list = k == 0 || (k == 2 && cJSON_IsArray(m));
            int r = as_list ? add_dep_required(cp, m, names[k], n)
                            : add_dep_schema(cp, m, names[k], n, res);
            if (r < 0)
                return -1;
        }
    }
    return 0;
}

int schema__parse_object(struct schema__compiler *cp, const cJSON *js, struct schema__node *n,
                         struct schema__resource *res)
{
    if (parse_properties(cp, js, n, res) < 0 || parse_pattern_props(cp, js, n, res) < 0 ||
        schema__sub(cp, js, "additionalProperties", res, &n->additional) < 0 ||
        schema__sub(cp, js, "propertyNames", res, &n->names) < 0 || parse_required(cp, js, n) < 0 ||
        schema__read_count(cp, js, "minProperties", &n->min_props, F_MINPROPS, n) < 0 ||
        schema__read_count(cp, js, "maxProperties", &n->max_props, F_MAXPROPS, n) < 0 ||
        parse_dependencies(cp, js, n, res) < 0)
        return -1;
    if (res->draft == SCHEMA_DRAFT2020 &&
        schema__sub(cp, js, "unevaluatedProperties", res, &n->uneval_props) < 0)
        return -1;
    if (n->n_props || n->n_patprops || n->additional || n->names || n->n_required ||
        n->n_dep_required || n->n_dep_schemas || n->uneval_props ||
        (n->flags & (F_MINPROPS | F_MAXPROPS)))
        n->groups |= G_OBJ;
    if (n->uneval_props)
        n->groups |= G_UNEVAL;
    return 0;
}
