/* JSON value helpers for the validator: instance types, deep equality by
 * JSON Schema rules (1 == 1.0, key order ignored), nesting checks that never
 * recurse, and multipleOf on doubles. */
#include "tools/schema_internal.h"
#include "common/alloc.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int is_integral(double v)
{
    return isfinite(v) && floor(v) == v;
}

unsigned schema__type_bits(const cJSON *v)
{
    switch (v->type & 0xFF) {
    case cJSON_NULL:
        return T_NULL;
    case cJSON_True:
    case cJSON_False:
        return T_BOOLEAN;
    case cJSON_Number:
        return T_NUMBER | (is_integral(v->valuedouble) ? T_INTEGER : 0);
    case cJSON_String:
    case cJSON_Raw:
        return T_STRING;
    case cJSON_Array:
        return T_ARRAY;
    case cJSON_Object:
        return T_OBJECT;
    default:
        return 0;
    }
}

static int equal_at(const cJSON *a, const cJSON *b, int depth);

static int objects_equal(const cJSON *a, const cJSON *b, int depth)
{
    int na = cJSON_GetArraySize(a), nb = cJSON_GetArraySize(b);
    if (na != nb)
        return 0;
    for (const cJSON *m = a->child; m; m = m->next) {
        const cJSON *o = cJSON_GetObjectItemCaseSensitive(b, m->string);
        if (o == NULL)
            return 0;
        int r = equal_at(m, o, depth + 1);
        if (r != 1)
            return r;
    }
    return 1;
}

static int arrays_equal(const cJSON *a, const cJSON *b, int depth)
{
    const cJSON *x = a->child, *y = b->child;
    for (; x && y; x = x->next, y = y->next) {
        int r = equal_at(x, y, depth + 1);
        if (r != 1)
            return r;
    }
    return x == NULL && y == NULL;
}

static int equal_at(const cJSON *a, const cJSON *b, int depth)
{
    if (depth > SCHEMA_CMP_MAX_DEPTH)
        return -1;
    int ta = a->type & 0xFF, tb = b->type & 0xFF;
    if (ta == cJSON_Raw)
        ta = cJSON_String;
    if (tb == cJSON_Raw)
        tb = cJSON_String;
    if (ta != tb)
        return 0;
    switch (ta) {
    case cJSON_Number:
        return a->valuedouble == b->valuedouble;
    case cJSON_String:
        return strcmp(a->valuestring, b->valuestring) == 0;
    case cJSON_Array:
        return arrays_equal(a, b, depth);
    case cJSON_Object:
        return objects_equal(a, b, depth);
    default:
        return 1; /* null, true, false */
    }
}

int schema__json_equal(const cJSON *a, const cJSON *b)
{
    return equal_at(a, b, 0);
}

static int is_container(const cJSON *v)
{
    return (v->type & 0xFF) == cJSON_Array || (v->type & 0xFF) == cJSON_Object;
}

int schema__json_deeper_than(const cJSON *v, int limit)
{
    const cJSON **stack = xmalloc(((size_t) limit + 1) * sizeof *stack);
    int d = 0, deeper = 0;
    const cJSON *cur = v;
    for (;;) {
        if (is_container(cur) && cur->child) {
            if (d >= limit) {
                deeper = 1;
                break;
            }
            stack[d++] = cur;
            cur = cur->child;
            continue;
        }
        while (d > 0 && cur->next == NULL)
            cur = stack[--d];
        if (d == 0)
            break;
        cur = cur->next;
    }
    free(stack);
    return deeper;
}

/* x multipleOf m. Integral operands are exact (fmod on the binary values);
 * otherwise the quotient must be an integer within a few ulps, so decimal
 * inputs such as 0.0075 / 0.0001 = 75.00000000000001 pass. An overflowing
 * quotient (1e308 / 0.123456789) is not a multiple. */
int schema__is_multiple(double x, double m)
{
    if (!(m > 0) || !isfinite(x))
        return 0;
    if (is_integral(x) && is_integral(m))
        return fmod(x, m) == 0;
    double q = x / m;
    if (!isfinite(q))
        return 0;
    return fabs(q - nearbyint(q)) <= 4 * DBL_EPSILON * fabs(q);
}
