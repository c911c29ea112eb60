/* Keywords on a single value: type, enum, const, the numeric bounds and
 * multipleOf, minLength/maxLength (in code points) and pattern. */
#include "tools/schema/internal.h"
#include "common/alloc.h"
#include "common/buf.h"
#include "common/utf8.h"

#include <stdlib.h>
#include <string.h>

#define ENUM_SHOWN 10  /* enum values listed in a message */
#define ENUM_BYTES 200 /* ... or fewer, when they are long */

/* Display order: the usual types first, null last ("string or null"). */
static const struct {
    unsigned bit;
    const char *word;
} type_words[] = {
    {T_STRING, "string"}, {T_NUMBER, "number"}, {T_INTEGER, "integer"}, {T_BOOLEAN, "boolean"},
    {T_OBJECT, "object"}, {T_ARRAY, "array"},   {T_NULL, "null"},
};

/* "string", "string or null", "string, number or null". */
void schema__types_text(struct buf *b, unsigned types)
{
    int total = 0, seen = 0;
    if ((types & T_NUMBER) && (types & T_INTEGER))
        types &= ~(unsigned) T_INTEGER;
    for (int i = 0; i < 7; i++)
        total += (types & type_words[i].bit) != 0;
    for (int i = 0; i < 7; i++) {
        if (!(types & type_words[i].bit))
            continue;
        if (seen)
            buf_append_str(b, seen == total - 1 ? " or " : ", ");
        buf_append_str(b, type_words[i].word);
        seen++;
    }
    if (total == 0)
        buf_append_str(b, "nothing (an empty type list)");
}

static int check_type(struct schema__ctx *c, const struct schema__node *n, const cJSON *inst)
{
    if (n->types & schema__type_bits(inst))
        return 1;
    if (schema__error_kept(c)) {
        struct buf b;
        buf_init(&b, 0);
        schema__types_text(&b, n->types);
        char *v = schema__value_text(inst);
        schema__error(c, "type", "expected %s, got %s %s", b.data, schema__type_name(inst), v);
        free(v);
        buf_free(&b);
    }
    return 0;
}

/* 1 when inst equals one of the values, 0 when none, -1 (aborted) too deep. */
static int find_equal(struct schema__ctx *c, const cJSON *values, const cJSON *inst)
{
    for (const cJSON *v = values->child; v; v = v->next) {
        int r = schema__json_equal(v, inst);
        if (r < 0) {
            schema__abort(c, "enum", "validation stopped: value nested too deeply to compare");
            return -1;
        }
        if (r)
            return 1;
    }
    return 0;
}

static void enum_error(struct schema__ctx *c, const cJSON *values, const cJSON *inst)
{
    struct buf b;
    buf_init(&b, 0);
    int shown = 0, total = cJSON_GetArraySize(values);
    for (const cJSON *v = values->child; v; v = v->next) {
        if (shown == ENUM_SHOWN || b.len > ENUM_BYTES) {
            buf_printf(&b, ", ... (%d values)", total);
            break;
        }
        char *t = schema__value_text(v);
        buf_printf(&b, "%s%s", shown++ ? ", " : "", t);
        free(t);
    }
    char *got = schema__value_text(inst);
    if (total == 1)
        schema__error(c, "enum", "must be %s (got %s)", b.data, got);
    else if (total == 0)
        schema__error(c, "enum", "no value is allowed (empty enum; got %s)", got);
    else
        schema__error(c, "enum", "must be one of %s (got %s)", b.data, got);
    free(got);
    buf_free(&b);
}

static int check_enum_const(struct schema__ctx *c, const struct schema__node *n, const cJSON *inst)
{
    int ok = 1, r;
    if (n->groups & G_ENUM) {
        if ((r = find_equal(c, n->enum_values, inst)) < 0)
            return 0;
        if (r == 0 && (ok = 0, schema__error_kept(c)))
            enum_error(c, n->enum_values, inst);
    }
    if ((n->groups & G_CONST) && (ok || !c->quiet)) {
        if ((r = schema__json_equal(n->const_value, inst)) < 0) {
            schema__abort(c, "const", "validation stopped: value nested too deeply to compare");
            return 0;
        }
        if (r == 0 && (ok = 0, schema__error_kept(c))) {
            char *want = schema__value_text(n->const_value), *got = schema__value_text(inst);
            schema__error(c, "const", "must be %s (got %s)", want, got);
            free(want);
            free(got);
        }
    }
    return ok;
}

static int bound_error(struct schema__ctx *c, const char *keyword, const char *op, double limit,
                       double got)
{
    if (!schema__error_kept(c))
        return 0;
    struct buf a, b;
    buf_init(&a, 0);
    buf_init(&b, 0);
    schema__number_text(&a, limit);
    schema__number_text(&b, got);
    schema__error(c, keyword, "must be %s %s (got %s)", op, a.data, b.data);
    buf_free(&a);
    buf_free(&b);
    return 0;
}

static int check_number(struct schema__ctx *c, const struct schema__node *n, double x)
{
    int ok = 1;
    unsigned f = n->flags;
    if ((f & F_MIN) && !(x >= n->minimum))
        ok &= bound_error(c, "minimum", ">=", n->minimum, x);
    if ((f & F_XMIN) && !(x > n->xminimum))
        ok &= bound_error(c, "exclusiveMinimum", ">", n->xminimum, x);
    if ((f & F_MAX) && !(x <= n->maximum))
        ok &= bound_error(c, "maximum", "<=", n->maximum, x);
    if ((f & F_XMAX) && !(x < n->xmaximum))
        ok &= bound_error(c, "exclusiveMaximum", "<", n->xmaximum, x);
    if ((f & F_MULT) && !schema__is_multiple(x, n->multiple_of))
        ok &= bound_error(c, "multipleOf", "a multiple of", n->multiple_of, x);
    return ok;
}

static int check_string(struct schema__ctx *c, const struct schema__node *n, const char *s)
{
    int ok = 1;
    if (n->flags & (F_MINLEN | F_MAXLEN)) {
        size_t len = utf8_length(s, strlen(s));
        if ((n->flags & F_MINLEN) && len < n->min_length && (ok = 0, !c->quiet))
            schema__error(c, "minLength", "must be at least %zu character%s (got %zu)",
                          n->min_length, n->min_length == 1 ? "" : "s", len);
        if ((n->flags & F_MAXLEN) && len > n->max_length && (ok = 0, !c->quiet))
            schema__error(c, "maxLength", "must be at most %zu character%s (got %zu)",
                          n->max_length, n->max_length == 1 ? "" : "s", len);
        if (!ok && c->quiet)
            return 0;
    }
    if (n->pattern) {
        int r = schema__pattern_test(c, n->pattern, n->pattern_src, s);
        if (r < 0)
            return 0;
        if (r == 0 && (ok = 0, schema__error_kept(c))) {
            cJSON tmp;
            memset(&tmp, 0, sizeof tmp);
            tmp.type = cJSON_String | cJSON_IsReference;
            tmp.valuestring = (char *) n->pattern_src;
            char *p = schema__value_text(&tmp);
            tmp.valuestring = (char *) s;
            char *got = schema__value_text(&tmp);
            schema__error(c, "pattern", "must match the pattern %s (got %s)", p, got);
            free(p);
            free(got);
        }
    }
    return ok;
}

int schema__kw_scalar(struct schema__ctx *c, const struct schema__node *n, const cJSON *inst)
{
    int ok = 1;
    unsigned g = n->groups;
    if ((g & G_TYPE) && !check_type(c, n, inst) && (ok = 0, c->quiet))
        return 0;
    if ((g & (G_ENUM | G_CONST)) && !check_enum_const(c, n, inst) && (ok = 0, c->quiet))
        return 0;
    if ((g & G_NUM) && cJSON_IsNumber(inst))
        ok &= check_number(c, n, inst->valuedouble);
    if ((g & G_STR) && cJSON_IsString(inst) && (ok || !c->quiet))
        ok &= check_string(c, n, inst->valuestring);
    return ok;
}
