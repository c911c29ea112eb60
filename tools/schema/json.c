/* JSON value helpers for the validator: instance types, deep equality by
 * JSON Schema rules (1 == 1.0, key order ignored), nesting checks that never
 * recurse, and multipleOf on doubles. */
#include "tools/schema/internal.h"
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

#define SMALL_OBJECT 16 /* members compared by lookup; larger objects are sorted first */

static int cmp_member(const void *x, const void *y)
{
    return strcmp((*(const cJSON *const *) x)->string, (*(const cJSON *const *) y)->string);
}

static const cJSON **sorted_members(const cJSON *o, int n)
{
    const cJSON **m = xmalloc((size_t) n * sizeof *m);
    int i = 0;
    for (const cJSON *k = o->child; k; k = k->next)
        m[i++] = k;
    qsort(m, (size_t) n, sizeof *m, cmp_member);
    return m;
}

/* Large objects: sort both member lists by key, then compare in step, so
 * equal objects of n members cost n log n, not n^2. */
static int large_objects_equal(const cJSON *a, const cJSON *b, int n, int depth)
{
    const cJSON **x = sorted_members(a, n), **y = sorted_members(b, n);
    int r = 1;
    for (int i = 0; i < n && r == 1; i++)
        r = strcmp(x[i]->string, y[i]->string) == 0 ? equal_at(x[i], y[i], depth + 1) : 0;
    free(x);
    free(y);
    return r;
}

static int objects_equal(const cJSON *a, const cJSON *b, int depth)
{
    int na = cJSON_GetArraySize(a), nb = cJSON_GetArraySize(b);
    if (na != nb)
        return 0;
    if (na > SMALL_OBJECT)
        return large_objects_equal(a, b, na, depth);
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

static uint64_t mix(uint64_t h)
{
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return h;
}

static uint64_t string_hash(const char *s)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (; *s; s++)
        h = (h ^ (unsigned char) *s) * 0x100000001b3ULL;
    return h;
}

static uint64_t hash_at(const cJSON *v, int depth)
{
    uint64_t h;
    double d;
    if (depth > SCHEMA_CMP_MAX_DEPTH)
        return 1; /* equality will report the depth */
    switch (v->type & 0xFF) {
    case cJSON_Number:
        d = v->valuedouble == 0 ? 0 : v->valuedouble; /* -0 == 0 */
        memcpy(&h, &d, sizeof h);
        return mix(h ^ 0x11);
    case cJSON_String:
    case cJSON_Raw:
        return mix(string_hash(v->valuestring ? v->valuestring : "") ^ 0x22);
    case cJSON_Array:
        h = 0x33;
        for (const cJSON *k = v->child; k; k = k->next)
            h = mix(h * 31 + hash_at(k, depth + 1));
        return h;
    case cJSON_Object:
        h = 0x44; /* a sum: member order does not matter */
        for (const cJSON *k = v->child; k; k = k->next)
            h += mix(string_hash(k->string) * 0x9E3779B97F4A7C15ULL + hash_at(k, depth + 1));
        return mix(h);
    default:
        return mix((uint64_t) (v->type & 0xFF) + 0x55);
    }
}

uint64_t schema__json_hash(const cJSON *v)
{
    return hash_at(v, 0);
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
