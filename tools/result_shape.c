/* Learned result shapes (see result_shape.h): observing a value, merging
 * shapes, the bounds, the canonical JSON and the JSON Schema of a shape. */
#include "tools/result_shape.h"
#include "common/alloc.h"
#include "common/buf.h"
#include "common/json.h"

#include <stdlib.h>
#include <string.h>

enum {
    K_NULL = 1,
    K_BOOLEAN = 2,
    K_NUMBER = 4,
    K_STRING = 8,
    K_OBJECT = 16,
    K_ARRAY = 32,
    K_UNKNOWN = 64,
};

/* Kinds in canonical order, with their letters and JSON Schema types. */
static const struct {
    unsigned bit;
    char letter;
    const char *type;
} kinds[] = {
    {K_UNKNOWN, 'u', NULL},    {K_NULL, 'n', "null"},     {K_BOOLEAN, 'b', "boolean"},
    {K_NUMBER, 'd', "number"}, {K_STRING, 's', "string"}, {K_OBJECT, 'o', "object"},
    {K_ARRAY, 'a', "array"},
};
#define NKINDS (sizeof kinds / sizeof kinds[0])

struct prop {
    char *name;
    struct tools_shape *shape;
    int optional;
    unsigned seen; /* tools_shape_covers: the visit that last found this key */
};

struct tools_shape {
    unsigned kinds;
    int record;         /* K_OBJECT: keys not kept */
    struct prop *props; /* K_OBJECT, not record: sorted by name (strcmp) */
    size_t nprops;
    struct tools_shape *items; /* K_ARRAY: the elements' shape; NULL: only empty arrays */
    unsigned visits;           /* the root's count of object visits (tools_shape_covers) */
};

struct tools_shape *tools_shape_new(void)
{
    return xcalloc(1, sizeof(struct tools_shape));
}

static void clear_object(struct tools_shape *s)
{
    for (size_t i = 0; i < s->nprops; i++) {
        free(s->props[i].name);
        tools_shape_free(s->props[i].shape);
    }
    free(s->props);
    s->props = NULL;
    s->nprops = 0;
}

void tools_shape_free(struct tools_shape *s)
{
    if (s == NULL)
        return;
    clear_object(s);
    tools_shape_free(s->items);
    free(s);
}

int tools_shape_empty(const struct tools_shape *s)
{
    return s == NULL || s->kinds == 0;
}

static void make_unknown(struct tools_shape *s)
{
    clear_object(s);
    tools_shape_free(s->items);
    s->items = NULL;
    s->record = 0;
    s->kinds = K_UNKNOWN;
}

static void make_record(struct tools_shape *s)
{
    clear_object(s);
    s->record = 1;
}

/* --- keys -------------------------------------------------------------------------------- */

static int is_alpha(int c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static int is_digit(int c)
{
    return c >= '0' && c <= '9';
}

static int is_hex(int c)
{
    return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* Names are short words: a letter, '_', '$' or '@' first, then letters,
 * digits, '_', '$' or '-'; never four digits in a row, never an id made of
 * hex digits and dashes. Anything else (numbers, dates, emails, paths,
 * URLs, uuids, phrases) is taken for data. */
int tools_shape_key_is_name(const char *key, size_t len)
{
    if (len == 0 || len > TOOLS_SHAPE_MAX_KEY_BYTES)
        return 0;
    unsigned char c0 = (unsigned char) key[0];
    if (!is_alpha(c0) && c0 != '_' && c0 != '$' && c0 != '@')
        return 0;
    size_t digits = 0, hexish = 0;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char) key[i];
        if (i > 0 && !is_alpha(c) && !is_digit(c) && c != '_' && c != '$' && c != '-')
            return 0;
        digits = is_digit(c) ? digits + 1 : 0;
        if (digits >= 4)
            return 0;
        if (is_hex(c) || c == '-')
            hexish++;
    }
    return !(len >= 8 && hexish == len);
}

/* --- properties ------------------------------------------------------------------------- */

/* Index of name in s->props, or -(insertion point) - 1. */
static long find_prop(const struct tools_shape *s, const char *name)
{
    size_t lo = 0, hi = s->nprops;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(s->props[mid].name, name);
        if (c == 0)
            return (long) mid;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -(long) lo - 1;
}

static struct prop *insert_prop(struct tools_shape *s, size_t at, const char *name)
{
    s->props = xrealloc(s->props, (s->nprops + 1) * sizeof *s->props);
    memmove(&s->props[at + 1], &s->props[at], (s->nprops - at) * sizeof *s->props);
    s->nprops++;
    struct prop *p = &s->props[at];
    p->name = xstrdup(name);
    p->shape = tools_shape_new();
    p->optional = 0;
    return p;
}

/* --- observing ---------------------------------------------------------------------------- */

static int merge(struct tools_shape *a, const struct tools_shape *b);

/* The shape of v (at depth `depth`) into s (new); -1 when *budget ran out. */
static int shape_of(struct tools_shape *s, const cJSON *v, int depth, long *budget)
{
    if (--*budget < 0)
        return -1;
    if (cJSON_IsNull(v))
        s->kinds = K_NULL;
    else if (cJSON_IsBool(v))
        s->kinds = K_BOOLEAN;
    else if (cJSON_IsNumber(v))
        s->kinds = K_NUMBER;
    else if (cJSON_IsString(v))
        s->kinds = K_STRING;
    else if ((!cJSON_IsObject(v) && !cJSON_IsArray(v)) || depth >= TOOLS_SHAPE_MAX_DEPTH)
        s->kinds = K_UNKNOWN;
    else if (cJSON_IsArray(v)) {
        s->kinds = K_ARRAY;
        int n = 0;
        for (const cJSON *e = v->child; e && n < TOOLS_SHAPE_SAMPLE; e = e->next, n++) {
            struct tools_shape one = {0};
            int rc = shape_of(&one, e, depth + 1, budget);
            if (rc == 0) {
                if (s->items == NULL)
                    s->items = tools_shape_new();
                merge(s->items, &one);
            }
            clear_object(&one);
            tools_shape_free(one.items);
            if (rc < 0)
                return -1;
        }
    } else {
        s->kinds = K_OBJECT;
        size_t n = 0;
        for (const cJSON *e = v->child; e; e = e->next, n++)
            if (e->string == NULL || n >= TOOLS_SHAPE_MAX_KEYS ||
                !tools_shape_key_is_name(e->string, strlen(e->string))) {
                s->record = 1;
                return 0; /* no key kept, no value looked at */
            }
        for (const cJSON *e = v->child; e; e = e->next) {
            long at = find_prop(s, e->string);
            struct tools_shape one = {0};
            int rc = shape_of(&one, e, depth + 1, budget);
            if (rc == 0) {
                struct prop *p =
                    at >= 0 ? &s->props[at] : insert_prop(s, (size_t) (-at - 1), e->string);
                merge(p->shape, &one); /* a repeated key: both values */
            }
            clear_object(&one);
            tools_shape_free(one.items);
            if (rc < 0)
                return -1;
        }
    }
    return 0;
}

/* --- merging ------------------------------------------------------------------------------ */

static struct tools_shape *copy(const struct tools_shape *s)
{
    struct tools_shape *c = tools_shape_new();
    merge(c, s);
    return c;
}

static int merge_object(struct tools_shape *a, const struct tools_shape *b, int first)
{
    if (first) {
        a->record = b->record;
        a->props = b->nprops ? xcalloc(b->nprops, sizeof *a->props) : NULL;
        for (size_t i = 0; i < b->nprops; i++) {
            a->props[i].name = xstrdup(b->props[i].name);
            a->props[i].shape = copy(b->props[i].shape);
            a->props[i].optional = b->props[i].optional;
        }
        a->nprops = b->nprops;
        return 1;
    }
    if (a->record)
        return 0;
    if (b->record) {
        make_record(a);
        return 1;
    }
    int changed = 0;
    size_t i = 0, j = 0;
    while (i < a->nprops || j < b->nprops) {
        int c = i == a->nprops   ? 1
                : j == b->nprops ? -1
                                 : strcmp(a->props[i].name, b->props[j].name);
        if (c < 0) { /* only in a: optional now */
            changed |= !a->props[i].optional;
            a->props[i++].optional = 1;
        } else if (c > 0) { /* only in b */
            struct prop *p = insert_prop(a, i++, b->props[j].name);
            merge(p->shape, b->props[j++].shape);
            p->optional = 1;
            changed = 1;
        } else {
            changed |= merge(a->props[i].shape, b->props[j].shape);
            if (b->props[j].optional && !a->props[i].optional) {
                a->props[i].optional = 1;
                changed = 1;
            }
            i++;
            j++;
        }
    }
    if (a->nprops > TOOLS_SHAPE_MAX_KEYS)
        make_record(a);
    return changed;
}

static int merge(struct tools_shape *a, const struct tools_shape *b)
{
    if (b->kinds == 0 || a->kinds == K_UNKNOWN)
        return 0;
    if (b->kinds & K_UNKNOWN) {
        make_unknown(a);
        return 1;
    }
    unsigned before = a->kinds;
    int changed = (b->kinds & ~before) != 0;
    a->kinds |= b->kinds;
    if (b->kinds & K_OBJECT)
        changed |= merge_object(a, b, !(before & K_OBJECT));
    if ((b->kinds & K_ARRAY) && b->items) {
        if (a->items == NULL) {
            a->items = copy(b->items);
            changed = 1;
        } else {
            changed |= merge(a->items, b->items);
        }
    }
    return changed;
}

/* --- the byte bound -------------------------------------------------------------------------- */

static void write_json(const struct tools_shape *s, int optional, struct buf *out);

static size_t json_bytes(const struct tools_shape *s)
{
    struct buf b;
    buf_init(&b, 0);
    write_json(s, 0, &b);
    size_t n = b.len;
    buf_free(&b);
    return n;
}

static int depth_of(const struct tools_shape *s)
{
    int d = 0;
    for (size_t i = 0; i < s->nprops; i++) {
        int c = depth_of(s->props[i].shape) + 1;
        d = c > d ? c : d;
    }
    if (s->items) {
        int c = depth_of(s->items) + 1;
        d = c > d ? c : d;
    }
    return d;
}

/* Objects and arrays at `limit` levels down become unknown. */
static void cut(struct tools_shape *s, int limit)
{
    if (limit == 0) {
        if (s->kinds & (K_OBJECT | K_ARRAY))
            make_unknown(s);
        return;
    }
    for (size_t i = 0; i < s->nprops; i++)
        cut(s->props[i].shape, limit - 1);
    if (s->items)
        cut(s->items, limit - 1);
}

/* Drops the deepest level until the JSON fits TOOLS_SHAPE_MAX_BYTES. */
static void bound(struct tools_shape *s)
{
    while (json_bytes(s) > TOOLS_SHAPE_MAX_BYTES)
        cut(s, depth_of(s) - 1 > 0 ? depth_of(s) - 1 : 0);
}

/* --- the fast path: a value the shape already covers ---------------------------------------- */

struct cover {
    long budget;
    unsigned *visits;
};

/* 1 when the value's shape (as shape_of would make it) merged into s
 * changes nothing, or when shape_of would run out of budget; 0 when it
 * may change s. Allocates nothing. */
static int covers(struct tools_shape *s, const cJSON *v, int depth, struct cover *c)
{
    if (--c->budget < 0)
        return 1; /* the observation is skipped */
    if (s->kinds == K_UNKNOWN)
        return 1;
    if (cJSON_IsNull(v))
        return (s->kinds & K_NULL) != 0;
    if (cJSON_IsBool(v))
        return (s->kinds & K_BOOLEAN) != 0;
    if (cJSON_IsNumber(v))
        return (s->kinds & K_NUMBER) != 0;
    if (cJSON_IsString(v))
        return (s->kinds & K_STRING) != 0;
    if ((!cJSON_IsObject(v) && !cJSON_IsArray(v)) || depth >= TOOLS_SHAPE_MAX_DEPTH)
        return 0;
    if (cJSON_IsArray(v)) {
        if (!(s->kinds & K_ARRAY))
            return 0;
        int n = 0;
        for (const cJSON *e = v->child; e && n < TOOLS_SHAPE_SAMPLE; e = e->next, n++)
            if (s->items == NULL || !covers(s->items, e, depth + 1, c))
                return 0;
        return 1;
    }
    if (!(s->kinds & K_OBJECT))
        return 0;
    if (s->record)
        return 1;
    unsigned visit = ++*c->visits;
    size_t n = 0, required = 0, found = 0;
    for (size_t i = 0; i < s->nprops; i++)
        required += !s->props[i].optional;
    for (const cJSON *e = v->child; e; e = e->next, n++) {
        if (e->string == NULL || n >= TOOLS_SHAPE_MAX_KEYS)
            return 0;
        long at = find_prop(s, e->string);
        if (at < 0) /* a new key, or data (no key kept): a change either way */
            return 0;
        struct prop *p = &s->props[at];
        if (!covers(p->shape, e, depth + 1, c))
            return 0;
        if (p->seen != visit && !p->optional)
            found++;
        p->seen = visit;
    }
    return found == required;
}

int tools_shape_covers(struct tools_shape *s, const cJSON *value)
{
    struct cover c = {TOOLS_SHAPE_MAX_NODES, &s->visits};
    return s->kinds != 0 && covers(s, value, 0, &c);
}

int tools_shape_observe(struct tools_shape *s, const cJSON *value)
{
    if (tools_shape_covers(s, value))
        return 0;
    struct tools_shape one = {0};
    long budget = TOOLS_SHAPE_MAX_NODES;
    int rc = shape_of(&one, value, 0, &budget);
    if (rc == 0) {
        rc = merge(s, &one);
        if (rc)
            bound(s);
    }
    clear_object(&one);
    tools_shape_free(one.items);
    return rc;
}

int tools_shape_merge(struct tools_shape *into, const struct tools_shape *from)
{
    int rc = merge(into, from);
    if (rc)
        bound(into);
    return rc;
}

int tools_shape_equal(const struct tools_shape *a, const struct tools_shape *b)
{
    char *x = tools_shape_to_json(a), *y = tools_shape_to_json(b);
    int eq = strcmp(x, y) == 0;
    free(x);
    free(y);
    return eq;
}

/* --- canonical JSON -----------------------------------------------------------------------------
 */

static void write_json(const struct tools_shape *s, int optional, struct buf *out)
{
    buf_append_str(out, "{\"t\":\"");
    for (size_t k = 0; k < NKINDS; k++)
        if (s->kinds & kinds[k].bit)
            buf_append_char(out, kinds[k].letter);
    buf_append_char(out, '"');
    if (optional)
        buf_append_str(out, ",\"?\":1");
    if ((s->kinds & K_OBJECT) && s->record)
        buf_append_str(out, ",\"r\":1");
    if ((s->kinds & K_OBJECT) && !s->record) {
        buf_append_str(out, ",\"p\":{");
        for (size_t i = 0; i < s->nprops; i++) {
            if (i)
                buf_append_char(out, ',');
            json_append_string(out, s->props[i].name, strlen(s->props[i].name));
            buf_append_char(out, ':');
            write_json(s->props[i].shape, s->props[i].optional, out);
        }
        buf_append_char(out, '}');
    }
    if (s->items) {
        buf_append_str(out, ",\"i\":");
        write_json(s->items, 0, out);
    }
    buf_append_char(out, '}');
}

char *tools_shape_to_json(const struct tools_shape *s)
{
    struct buf b;
    buf_init(&b, 0);
    write_json(s, 0, &b);
    return buf_steal(&b);
}

static unsigned kinds_of(const char *t)
{
    unsigned bits = 0;
    for (; *t; t++) {
        size_t k = 0;
        while (k < NKINDS && kinds[k].letter != *t)
            k++;
        if (k == NKINDS || (bits & kinds[k].bit))
            return ~0u;
        bits |= kinds[k].bit;
    }
    if ((bits & K_UNKNOWN) && bits != K_UNKNOWN)
        return ~0u;
    return bits;
}

/* Reads j into s (new); 0, or -1 when it is not a shape. */
static int read_json(struct tools_shape *s, const cJSON *j, int depth)
{
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(j, "t");
    if (!cJSON_IsObject(j) || !cJSON_IsString(t) || depth > TOOLS_SHAPE_MAX_DEPTH)
        return -1;
    unsigned bits = kinds_of(t->valuestring);
    if (bits == ~0u || (depth > 0 && bits == 0) ||
        (depth >= TOOLS_SHAPE_MAX_DEPTH && (bits & (K_OBJECT | K_ARRAY))))
        return -1;
    s->kinds = bits;
    const cJSON *r = cJSON_GetObjectItemCaseSensitive(j, "r");
    const cJSON *p = cJSON_GetObjectItemCaseSensitive(j, "p");
    const cJSON *i = cJSON_GetObjectItemCaseSensitive(j, "i");
    for (const cJSON *m = j->child; m; m = m->next)
        if (strcmp(m->string, "t") && strcmp(m->string, "r") && strcmp(m->string, "p") &&
            strcmp(m->string, "i") && strcmp(m->string, "?"))
            return -1;
    if (bits & K_OBJECT) {
        if (r ? (!cJSON_IsNumber(r) || r->valuedouble != 1 || p) : !cJSON_IsObject(p))
            return -1;
        s->record = r != NULL;
        if (cJSON_GetArraySize(p) > TOOLS_SHAPE_MAX_KEYS)
            return -1;
        for (const cJSON *e = p ? p->child : NULL; e; e = e->next) {
            const cJSON *q = cJSON_GetObjectItemCaseSensitive(e, "?");
            if (!tools_shape_key_is_name(e->string, strlen(e->string)) ||
                (q && (!cJSON_IsNumber(q) || q->valuedouble != 1)))
                return -1;
            long at = find_prop(s, e->string);
            if (at >= 0)
                return -1;
            struct prop *pr = insert_prop(s, (size_t) (-at - 1), e->string);
            pr->optional = q != NULL;
            if (read_json(pr->shape, e, depth + 1) < 0)
                return -1;
        }
    } else if (r || p) {
        return -1;
    }
    if (i) {
        if (!(bits & K_ARRAY))
            return -1;
        s->items = tools_shape_new();
        if (read_json(s->items, i, depth + 1) < 0)
            return -1;
    }
    return 0;
}

struct tools_shape *tools_shape_from_json(const char *text)
{
    cJSON *j = text ? json_parse(text, strlen(text)) : NULL;
    struct tools_shape *s = tools_shape_new();
    int rc = j && cJSON_GetObjectItemCaseSensitive(j, "?") == NULL ? read_json(s, j, 0) : -1;
    cJSON_Delete(j);
    if (rc < 0) {
        tools_shape_free(s);
        return NULL;
    }
    bound(s);
    return s;
}

/* --- JSON Schema
 * ---------------------------------------------------------------------------------- */

static cJSON *schema_of(const struct tools_shape *s);

static cJSON *object_schema(const struct tools_shape *s)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "type", "object");
    if (s->record)
        return o;
    cJSON *props = cJSON_AddObjectToObject(o, "properties");
    cJSON *req = cJSON_CreateArray();
    for (size_t i = 0; i < s->nprops; i++) {
        cJSON_AddItemToObject(props, s->props[i].name, schema_of(s->props[i].shape));
        if (!s->props[i].optional)
            cJSON_AddItemToArray(req, cJSON_CreateString(s->props[i].name));
    }
    if (cJSON_GetArraySize(req) > 0)
        cJSON_AddItemToObject(o, "required", req);
    else
        cJSON_Delete(req);
    return o; /* closed: properties without additionalProperties */
}

static cJSON *array_schema(const struct tools_shape *s)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "type", "array");
    if (s->items)
        cJSON_AddItemToObject(o, "items", schema_of(s->items));
    return o;
}

static cJSON *schema_of(const struct tools_shape *s)
{
    if (s->kinds == 0 || (s->kinds & K_UNKNOWN))
        return cJSON_CreateObject();
    unsigned prim = s->kinds & (K_NULL | K_BOOLEAN | K_NUMBER | K_STRING);
    cJSON *parts = cJSON_CreateArray();
    if (s->kinds & K_OBJECT)
        cJSON_AddItemToArray(parts, object_schema(s));
    if (s->kinds & K_ARRAY)
        cJSON_AddItemToArray(parts, array_schema(s));
    if (prim) {
        cJSON *types = cJSON_CreateArray();
        for (size_t k = 0; k < NKINDS; k++)
            if (prim & kinds[k].bit)
                cJSON_AddItemToArray(types, cJSON_CreateString(kinds[k].type));
        cJSON *p = cJSON_CreateObject();
        if (cJSON_GetArraySize(types) == 1) {
            cJSON_AddItemToObject(p, "type", cJSON_DetachItemFromArray(types, 0));
            cJSON_Delete(types);
        } else {
            cJSON_AddItemToObject(p, "type", types);
        }
        cJSON_AddItemToArray(parts, p);
    }
    if (cJSON_GetArraySize(parts) == 1) {
        cJSON *only = cJSON_DetachItemFromArray(parts, 0);
        cJSON_Delete(parts);
        return only;
    }
    cJSON *any = cJSON_CreateObject();
    cJSON_AddItemToObject(any, "anyOf", parts);
    return any;
}

cJSON *tools_shape_schema(const struct tools_shape *s)
{
    return tools_shape_empty(s) ? NULL : schema_of(s);
}
