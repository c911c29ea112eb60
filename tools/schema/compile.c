/* Compiles a schema document into a tree of nodes: every keyword is parsed
 * and checked once (numbers, regexes, sorted property tables), $id/$anchor
 * are indexed, and $ref is resolved to a node pointer (ref.c), so
 * validation does no parsing and no lookups by URI. */
#include "tools/schema/compile.h"
#include "tools/schema/internal.h"
#include "tools/schema/regex.h"
#include "tools/schema/uri.h"
#include "common/alloc.h"
#include "common/buf.h"
#include "common/json.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void schema__fail(struct schema__compiler *cp, const char *fmt, ...)
{
    if (cp->err)
        return;
    struct buf b;
    buf_init(&b, 0);
    buf_printf(&b, "invalid schema at %s: ", cp->path.len ? cp->path.data : "(root)");
    va_list ap;
    va_start(ap, fmt);
    buf_vprintf(&b, fmt, ap);
    va_end(ap);
    cp->err = buf_steal(&b);
}

/* --- pointer map: schema JSON value -> node -------------------------------- */

static size_t hash_ptr(const void *p, size_t cap)
{
    uintptr_t v = (uintptr_t) p;
    v ^= v >> 17;
    v *= 0x9E3779B97F4A7C15ull;
    return (size_t) (v >> 7) & (cap - 1);
}

static void map_put(struct schema__compiler *cp, const cJSON *key, struct schema__node *val);

static void map_grow(struct schema__compiler *cp)
{
    size_t old = cp->map_cap;
    const cJSON **keys = cp->map_keys;
    struct schema__node **vals = cp->map_vals;
    cp->map_cap = old ? old * 2 : 64;
    cp->map_keys = xcalloc(cp->map_cap, sizeof *cp->map_keys);
    cp->map_vals = xcalloc(cp->map_cap, sizeof *cp->map_vals);
    cp->map_n = 0;
    for (size_t i = 0; i < old; i++)
        if (keys[i])
            map_put(cp, keys[i], vals[i]);
    free(keys);
    free(vals);
}

static void map_put(struct schema__compiler *cp, const cJSON *key, struct schema__node *val)
{
    if (2 * (cp->map_n + 1) > cp->map_cap)
        map_grow(cp);
    size_t i = hash_ptr(key, cp->map_cap);
    while (cp->map_keys[i] && cp->map_keys[i] != key)
        i = (i + 1) & (cp->map_cap - 1);
    if (!cp->map_keys[i])
        cp->map_n++;
    cp->map_keys[i] = key;
    cp->map_vals[i] = val;
}

struct schema__node *schema__map_get(const struct schema__compiler *cp, const cJSON *key)
{
    if (cp->map_cap == 0)
        return NULL;
    size_t i = hash_ptr(key, cp->map_cap);
    while (cp->map_keys[i]) {
        if (cp->map_keys[i] == key)
            return cp->map_vals[i];
        i = (i + 1) & (cp->map_cap - 1);
    }
    return NULL;
}

/* --- schema path for messages ---------------------------------------------- */

size_t schema__path_push(struct schema__compiler *cp, const char *seg)
{
    size_t mark = cp->path.len;
    buf_append_char(&cp->path, '/');
    schema__pointer_append(&cp->path, seg);
    return mark;
}

static size_t path_push_index(struct schema__compiler *cp, size_t i)
{
    size_t mark = cp->path.len;
    buf_printf(&cp->path, "/%zu", i);
    return mark;
}

void schema__path_pop(struct schema__compiler *cp, size_t mark)
{
    cp->path.len = mark;
    if (cp->path.data)
        cp->path.data[mark] = '\0';
}

/* --- keyword value readers -------------------------------------------------- */

static const cJSON *kw(const cJSON *obj, const char *name)
{
    return cJSON_GetObjectItemCaseSensitive(obj, name);
}

/* A non-negative integer keyword ("minLength": 3; 3.0 is accepted). */
int schema__read_count(struct schema__compiler *cp, const cJSON *obj, const char *name, size_t *out,
                       unsigned flag, struct schema__node *n)
{
    const cJSON *v = kw(obj, name);
    if (v == NULL)
        return 0;
    double d = v->valuedouble;
    if (!cJSON_IsNumber(v) || !(d >= 0) || floor(d) != d) {
        size_t mark = schema__path_push(cp, name);
        schema__fail(cp, "\"%s\" must be a non-negative integer", name);
        schema__path_pop(cp, mark);
        return -1;
    }
    *out = d >= (double) SIZE_MAX ? SIZE_MAX : (size_t) d;
    n->flags |= flag;
    return 0;
}

static int read_number(struct schema__compiler *cp, const cJSON *obj, const char *name, double *out,
                       unsigned flag, struct schema__node *n)
{
    const cJSON *v = kw(obj, name);
    if (v == NULL)
        return 0;
    if (!cJSON_IsNumber(v)) {
        size_t mark = schema__path_push(cp, name);
        schema__fail(cp, "\"%s\" must be a number", name);
        schema__path_pop(cp, mark);
        return -1;
    }
    *out = v->valuedouble;
    n->flags |= flag;
    return 0;
}

/* Compiles the subschema obj[name] if present. */
int schema__sub(struct schema__compiler *cp, const cJSON *obj, const char *name,
                struct schema__resource *res, struct schema__node **out)
{
    const cJSON *v = kw(obj, name);
    if (v == NULL)
        return 0;
    size_t mark = schema__path_push(cp, name);
    *out = schema__compile_node(cp, v, res);
    schema__path_pop(cp, mark);
    return *out ? 0 : -1;
}

/* A non-empty array of subschemas (allOf, anyOf, oneOf, prefixItems). */
static int sub_list(struct schema__compiler *cp, const cJSON *v, const char *name,
                    struct schema__resource *res, struct schema__list *out, int allow_empty)
{
    size_t mark = schema__path_push(cp, name);
    int n = cJSON_GetArraySize(v);
    if (!cJSON_IsArray(v) || (n == 0 && !allow_empty)) {
        schema__fail(cp, "\"%s\" must be a non-empty array of schemas", name);
        schema__path_pop(cp, mark);
        return -1;
    }
    out->items = schema__alloc(cp->s, (size_t) (n ? n : 1) * sizeof *out->items);
    out->n = 0;
    for (const cJSON *it = v->child; it; it = it->next) {
        size_t m2 = path_push_index(cp, out->n);
        struct schema__node *k = schema__compile_node(cp, it, res);
        schema__path_pop(cp, m2);
        if (k == NULL)
            break;
        out->items[out->n++] = k;
    }
    schema__path_pop(cp, mark);
    return cp->err ? -1 : 0;
}

static int list_kw(struct schema__compiler *cp, const cJSON *obj, const char *name,
                   struct schema__resource *res, struct schema__list *out)
{
    const cJSON *v = kw(obj, name);
    return v ? sub_list(cp, v, name, res, out, 0) : 0;
}

/* --- the keyword groups ----------------------------------------------------- */

static const struct {
    const char *name;
    unsigned bits;
} type_names[] = {
    {"null", T_NULL},     {"boolean", T_BOOLEAN}, {"object", T_OBJECT},   {"array", T_ARRAY},
    {"number", T_NUMBER}, {"string", T_STRING},   {"integer", T_INTEGER},
};

static int type_bit(const cJSON *v, unsigned *bits)
{
    if (!cJSON_IsString(v))
        return -1;
    for (size_t i = 0; i < sizeof type_names / sizeof type_names[0]; i++)
        if (strcmp(type_names[i].name, v->valuestring) == 0) {
            *bits |= type_names[i].bits;
            return 0;
        }
    return -1;
}

static int parse_type(struct schema__compiler *cp, const cJSON *obj, struct schema__node *n)
{
    const cJSON *v = kw(obj, "type");
    if (v == NULL)
        return 0;
    int bad = 0;
    if (cJSON_IsArray(v)) {
        for (const cJSON *it = v->child; it; it = it->next)
            bad |= type_bit(it, &n->types) < 0;
    } else {
        bad = type_bit(v, &n->types) < 0;
    }
    if (bad) {
        size_t mark = schema__path_push(cp, "type");
        schema__fail(cp, "\"type\" must be one of null, boolean, object, array, number, string, "
                         "integer (or an array of them)");
        schema__path_pop(cp, mark);
        return -1;
    }
    n->groups |= G_TYPE;
    return 0;
}

static int parse_numeric(struct schema__compiler *cp, const cJSON *obj, struct schema__node *n)
{
    if (read_number(cp, obj, "minimum", &n->minimum, F_MIN, n) < 0 ||
        read_number(cp, obj, "maximum", &n->maximum, F_MAX, n) < 0)
        return -1;
    /* draft-04 booleans: "exclusiveMinimum": true turns minimum exclusive. */
    const cJSON *xmin = kw(obj, "exclusiveMinimum"), *xmax = kw(obj, "exclusiveMaximum");
    if (cJSON_IsTrue(xmin) && (n->flags & F_MIN))
        n->flags = (n->flags & ~F_MIN) | F_XMIN, n->xminimum = n->minimum;
    else if (!cJSON_IsBool(xmin) &&
             read_number(cp, obj, "exclusiveMinimum", &n->xminimum, F_XMIN, n) < 0)
        return -1;
    if (cJSON_IsTrue(xmax) && (n->flags & F_MAX))
        n->flags = (n->flags & ~F_MAX) | F_XMAX, n->xmaximum = n->maximum;
    else if (!cJSON_IsBool(xmax) &&
             read_number(cp, obj, "exclusiveMaximum", &n->xmaximum, F_XMAX, n) < 0)
        return -1;
    if (read_number(cp, obj, "multipleOf", &n->multiple_of, F_MULT, n) < 0)
        return -1;
    if ((n->flags & F_MULT) && !(n->multiple_of > 0)) {
        size_t mark = schema__path_push(cp, "multipleOf");
        schema__fail(cp, "\"multipleOf\" must be a number greater than 0");
        schema__path_pop(cp, mark);
        return -1;
    }
    if (n->flags & (F_MIN | F_MAX | F_XMIN | F_XMAX | F_MULT))
        n->groups |= G_NUM;
    return 0;
}

/* Compiles a pattern once; the schema owns the result. */
struct schema__regex *schema__compile_pattern(struct schema__compiler *cp, const char *src)
{
    char *msg = NULL;
    struct schema__regex *re = schema__regex_compile(src, &msg);
    if (re == NULL) {
        struct buf b;
        buf_init(&b, 0);
        json_append_string(&b, src, strlen(src));
        schema__fail(cp, "pattern %s does not compile as an ECMA-262 regular expression: %s",
                     b.data, msg);
        buf_free(&b);
        free(msg);
        return NULL;
    }
    struct tools_schema *s = cp->s;
    s->regex_insns += schema__regex_size(re);
    if (s->regex_insns > SCHEMA_REGEX_TOTAL) {
        schema__regex_free(re);
        schema__fail(cp,
                     "patterns too large in total (over %d steps once counted repetitions "
                     "are expanded)",
                     SCHEMA_REGEX_TOTAL);
        return NULL;
    }
    s->regexes = xrealloc(s->regexes, (s->n_regexes + 1) * sizeof *s->regexes);
    s->regexes[s->n_regexes++] = re;
    return re;
}

static int parse_string(struct schema__compiler *cp, const cJSON *obj, struct schema__node *n)
{
    if (schema__read_count(cp, obj, "minLength", &n->min_length, F_MINLEN, n) < 0 ||
        schema__read_count(cp, obj, "maxLength", &n->max_length, F_MAXLEN, n) < 0)
        return -1;
    const cJSON *p = kw(obj, "pattern");
    if (p) {
        size_t mark = schema__path_push(cp, "pattern");
        if (!cJSON_IsString(p))
            schema__fail(cp, "\"pattern\" must be a string");
        else if ((n->pattern = schema__compile_pattern(cp, p->valuestring)) != NULL)
            n->pattern_src = p->valuestring;
        schema__path_pop(cp, mark);
        if (cp->err)
            return -1;
    }
    if (n->flags & (F_MINLEN | F_MAXLEN) || n->pattern)
        n->groups |= G_STR;
    return 0;
}

static int parse_items(struct schema__compiler *cp, const cJSON *obj, struct schema__node *n,
                       struct schema__resource *res)
{
    const cJSON *items = kw(obj, "items");
    if (cJSON_IsArray(items)) { /* draft-07 tuple form (accepted leniently in 2020-12) */
        if (sub_list(cp, items, "items", res, &n->prefix, 1) < 0)
            return -1;
        return schema__sub(cp, obj, "additionalItems", res, &n->items);
    }
    if (res->draft == SCHEMA_DRAFT2020 && list_kw(cp, obj, "prefixItems", res, &n->prefix) < 0)
        return -1;
    return schema__sub(cp, obj, "items", res, &n->items);
}

static int parse_array(struct schema__compiler *cp, const cJSON *obj, struct schema__node *n,
                       struct schema__resource *res)
{
    if (parse_items(cp, obj, n, res) < 0 ||
        schema__sub(cp, obj, "contains", res, &n->contains) < 0 ||
        schema__read_count(cp, obj, "minItems", &n->min_items, F_MINITEMS, n) < 0 ||
        schema__read_count(cp, obj, "maxItems", &n->max_items, F_MAXITEMS, n) < 0)
        return -1;
    if (res->draft == SCHEMA_DRAFT2020 &&
        (schema__read_count(cp, obj, "minContains", &n->min_contains, F_MINCONT, n) < 0 ||
         schema__read_count(cp, obj, "maxContains", &n->max_contains, F_MAXCONT, n) < 0 ||
         schema__sub(cp, obj, "unevaluatedItems", res, &n->uneval_items) < 0))
        return -1;
    if (cJSON_IsTrue(kw(obj, "uniqueItems")))
        n->flags |= F_UNIQUE;
    if (n->prefix.n || n->items || n->contains || n->uneval_items ||
        (n->flags & (F_MINITEMS | F_MAXITEMS | F_UNIQUE)))
        n->groups |= G_ARR;
    if (n->uneval_items)
        n->groups |= G_UNEVAL;
    return 0;
}

static int parse_logic(struct schema__compiler *cp, const cJSON *obj, struct schema__node *n,
                       struct schema__resource *res)
{
    if (list_kw(cp, obj, "allOf", res, &n->all_of) < 0 ||
        list_kw(cp, obj, "anyOf", res, &n->any_of) < 0 ||
        list_kw(cp, obj, "oneOf", res, &n->one_of) < 0 ||
        schema__sub(cp, obj, "not", res, &n->not_) < 0 ||
        schema__sub(cp, obj, "if", res, &n->if_) < 0 ||
        schema__sub(cp, obj, "then", res, &n->then_) < 0 ||
        schema__sub(cp, obj, "else", res, &n->else_) < 0)
        return -1;
    if (n->all_of.n || n->any_of.n || n->one_of.n || n->not_ || n->if_)
        n->groups |= G_LOGIC;
    return 0;
}

static int parse_enum_const(struct schema__compiler *cp, const cJSON *obj, struct schema__node *n)
{
    const cJSON *e = kw(obj, "enum");
    if (e) {
        if (!cJSON_IsArray(e)) {
            size_t mark = schema__path_push(cp, "enum");
            schema__fail(cp, "\"enum\" must be an array");
            schema__path_pop(cp, mark);
            return -1;
        }
        n->enum_values = e;
        n->groups |= G_ENUM;
    }
    if ((n->const_value = kw(obj, "const")) != NULL)
        n->groups |= G_CONST;
    return 0;
}

/* Subschemas kept only as $ref targets ($defs, definitions) or ignored. */
static int parse_defs(struct schema__compiler *cp, const cJSON *obj, struct schema__resource *res)
{
    static const char *const names[] = {"$defs", "definitions"};
    for (size_t k = 0; k < 2; k++) {
        const cJSON *defs = kw(obj, names[k]);
        if (!cJSON_IsObject(defs))
            continue;
        size_t mark = schema__path_push(cp, names[k]);
        for (const cJSON *d = defs->child; d && !cp->err; d = d->next) {
            size_t m2 = schema__path_push(cp, d->string);
            if (schema__map_get(cp, d) == NULL)
                schema__compile_node(cp, d, res);
            schema__path_pop(cp, m2);
        }
        schema__path_pop(cp, mark);
    }
    return cp->err ? -1 : 0;
}

static int parse_refs(struct schema__compiler *cp, const cJSON *obj, struct schema__node *n)
{
    const cJSON *r = kw(obj, "$ref");
    const cJSON *d = n->res->draft == SCHEMA_DRAFT2020 ? kw(obj, "$dynamicRef") : NULL;
    if ((r && !cJSON_IsString(r)) || (d && !cJSON_IsString(d))) {
        schema__fail(cp, "\"$ref\" and \"$dynamicRef\" must be strings");
        return -1;
    }
    if (r)
        schema__ref_pending(cp, n, r->valuestring, 0);
    if (d)
        schema__ref_pending(cp, n, d->valuestring, 1);
    if (r || d)
        n->groups |= G_REF;
    return 0;
}

static struct schema__node *new_node(struct schema__compiler *cp, const cJSON *js)
{
    struct schema__node *n = schema__alloc(cp->s, sizeof *n);
    n->json = js;
    map_put(cp, js, n);
    return n;
}

static int parse_keywords(struct schema__compiler *cp, const cJSON *js, struct schema__node *n)
{
    struct schema__resource *res = n->res;
    if (res->draft == SCHEMA_DRAFT7 && kw(js, "$ref")) /* draft-07: $ref siblings are ignored */
        return parse_refs(cp, js, n) < 0 ? -1 : parse_defs(cp, js, res);
    if (parse_refs(cp, js, n) < 0 || parse_type(cp, js, n) < 0 || parse_enum_const(cp, js, n) < 0 ||
        parse_numeric(cp, js, n) < 0 || parse_string(cp, js, n) < 0 ||
        parse_array(cp, js, n, res) < 0 || schema__parse_object(cp, js, n, res) < 0 ||
        parse_logic(cp, js, n, res) < 0)
        return -1;
    return parse_defs(cp, js, res);
}

struct schema__node *schema__compile_node(struct schema__compiler *cp, const cJSON *js,
                                          struct schema__resource *res)
{
    if (cp->err)
        return NULL;
    if (cp->depth >= SCHEMA_DOC_MAX_DEPTH) {
        schema__fail(cp, "schema nested more than %d levels deep", SCHEMA_DOC_MAX_DEPTH);
        return NULL;
    }
    struct schema__node *n = new_node(cp, js);
    n->res = res;
    if (cJSON_IsBool(js)) {
        n->kind = cJSON_IsTrue(js) ? K_TRUE : K_FALSE;
        return n;
    }
    if (!cJSON_IsObject(js)) {
        schema__fail(cp, "a schema must be an object or a boolean (got %s)", schema__type_name(js));
        return NULL;
    }
    n->kind = K_OBJECT;
    cp->depth++;
    if (schema__identify(cp, js, n) == 0)
        parse_keywords(cp, js, n);
    cp->depth--;
    return cp->err ? NULL : n;
}
