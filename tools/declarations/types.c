/* JSON Schema to TypeScript type text. One walk serves two modes: "collect"
 * counts $ref sites (each referenced body walked once, from a worklist) and
 * "render" writes the types, naming aliased targets and inlining the rest.
 * Which subschemas are walked depends only on the schema, never on the
 * mode, so the counts describe exactly what rendering will visit. */
#include "tools/declarations/types.h"
#include "common/alloc.h"
#include "common/buf.h"
#include "common/utf8.h"
#include "tools/declarations/declarations.h"
#include "tools/declarations/doc.h"
#include "tools/declarations/map.h"
#include "tools/declarations/refs.h"
#include "tools/declarations/shapes.h"

#include <stdlib.h>
#include <string.h>

#define MAX_DEPTH     40 /* schema nesting rendered before `unknown` */
#define INLINE_WIDTH  80 /* objects up to this width stay on one line */
#define INLINE_WIDTH_COMPACT 200 /* the same at TOOLS_DECL_DOCS */
#define INLINE_WIDTH_BARE    400 /* the same without member docs (SUMMARY and below) */
#define LITERAL_DEPTH 8  /* nesting of enum/const values */

/* Precedence of a rendered type: whether it needs parentheses as an array
 * element (anything below ATOM) or an intersection operand (UNION). */
enum { P_UNION, P_INTER, P_ATOM };

struct render {
    struct tools__decl_doc *doc;
    const struct tools__decl_ctx *cx; /* NULL while collecting */
    int collect; /* count references instead of rendering */
    size_t cur;  /* the target whose body is being walked */
    int guarded; /* inside an object member, array element or tuple */
    int depth;   /* schema nesting */
};

struct part {
    struct buf text;
    int prec;
};

struct parts {
    struct part *v;
    size_t n, cap;
};

static int type_of(struct render *r, const cJSON *s, int indent, struct buf *out);

static int put(struct buf *out, const char *text, int prec)
{
    buf_append_str(out, text);
    return prec;
}

static int is_unknown(const struct buf *b)
{
    return b->len == 7 && memcmp(b->data, "unknown", 7) == 0;
}

static void append_wrapped(struct buf *out, const struct buf *t, int wrap)
{
    if (wrap)
        buf_append_char(out, '(');
    buf_append(out, t->len ? t->data : "", t->len);
    if (wrap)
        buf_append_char(out, ')');
}

static struct part *parts_push(struct parts *ps)
{
    if (ps->n == ps->cap) {
        ps->cap = ps->cap ? 2 * ps->cap : 4;
        ps->v = xrealloc(ps->v, ps->cap * sizeof *ps->v);
    }
    struct part *p = &ps->v[ps->n++];
    buf_init(&p->text, 0);
    p->prec = P_ATOM;
    return p;
}

static void parts_free(struct parts *ps)
{
    for (size_t i = 0; i < ps->n; i++)
        buf_free(&ps->v[i].text);
    free(ps->v);
    ps->v = NULL;
    ps->n = ps->cap = 0;
}

static int same_text(const struct buf *a, const struct buf *b)
{
    return a->len == b->len && (a->len == 0 || memcmp(a->data, b->data, a->len) == 0);
}

/* Unions longer than this keep their repeats (TypeScript accepts them):
 * removing them would cost quadratic time on huge enums. */
#define DEDUPE_MAX 64

/* "A | B | C" without repeats; `unknown` when any part is unknown. */
static int join_union(const struct parts *ps, struct buf *out)
{
    for (size_t i = 0; i < ps->n; i++)
        if (is_unknown(&ps->v[i].text))
            return put(out, "unknown", P_ATOM);
    if (ps->n == 0)
        return put(out, "never", P_ATOM);
    size_t kept = 0;
    int prec = ps->v[0].prec;
    for (size_t i = 0; i < ps->n; i++) {
        size_t j = 0;
        while (ps->n <= DEDUPE_MAX && j < i && !same_text(&ps->v[j].text, &ps->v[i].text))
            j++;
        if (ps->n <= DEDUPE_MAX && j < i)
            continue;
        if (kept++)
            buf_append_str(out, " | ");
        append_wrapped(out, &ps->v[i].text, 0);
    }
    return kept > 1 ? P_UNION : prec;
}

/* "A & B", union operands in parentheses. */
static int join_intersection(const struct parts *ps, struct buf *out)
{
    if (ps->n == 0)
        return put(out, "unknown", P_ATOM);
    if (ps->n == 1) {
        append_wrapped(out, &ps->v[0].text, 0);
        return ps->v[0].prec;
    }
    for (size_t i = 0; i < ps->n; i++) {
        if (i)
            buf_append_str(out, " & ");
        append_wrapped(out, &ps->v[i].text, ps->v[i].prec == P_UNION);
    }
    return P_INTER;
}

static const cJSON *item(const cJSON *s, const char *key)
{
    return cJSON_GetObjectItemCaseSensitive(s, key);
}

static const char *ref_of(const cJSON *s)
{
    const cJSON *v = item(s, "$ref");
    if (!cJSON_IsString(v))
        v = item(s, "$dynamicRef");
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

/* --- references --------------------------------------------------------- */

static int collect_ref(struct render *r, const cJSON *node, const char *ref, struct buf *out)
{
    struct tools__decl_doc *d = r->doc;
    size_t i = tools__decl_target_add(d, node, ref);
    d->t[i].refs++;
    tools__decl_edge_add(d, r->cur, i, !r->guarded);
    return put(out, "unknown", P_ATOM);
}

static int render_ref(struct render *r, const char *ref, int indent, struct buf *out)
{
    struct tools__decl_doc *d = r->doc;
    const cJSON *node = tools__decl_resolve(d, ref);
    if (node == NULL)
        return put(out, "unknown", P_ATOM);
    if (r->collect)
        return collect_ref(r, node, ref, out);
    size_t i = tools__decl_target_find(d, node);
    if (i == (size_t) -1 || !d->t[i].walked)
        return put(out, "unknown", P_ATOM);
    if (d->t[i].aliased) {
        if (d->t[i].alias == NULL || (d->t[i].poisoned && !r->guarded))
            return put(out, "unknown", P_ATOM);
        buf_printf(out, "%s.%s", TOOLS__DECL_NAMESPACE, d->t[i].alias);
        tools__decl_want(&d->t[i].want, r->cx->level);
        return P_ATOM;
    }
    if (d->t[i].rendering) /* cannot happen after analysis: a safety net */
        return put(out, "unknown", P_ATOM);
    d->t[i].rendering = 1;
    int prec = type_of(r, node, indent, out);
    d->t[i].rendering = 0;
    return prec;
}

/* --- objects ------------------------------------------------------------- */

struct member {
    struct buf doc;
    struct buf text;
};

struct members {
    struct member *v;
    size_t n, cap;
};

static struct member *members_push(struct members *ms)
{
    if (ms->n == ms->cap) {
        ms->cap = ms->cap ? 2 * ms->cap : 8;
        ms->v = xrealloc(ms->v, ms->cap * sizeof *ms->v);
    }
    struct member *m = &ms->v[ms->n++];
    buf_init(&m->doc, 0);
    buf_init(&m->text, 0);
    return m;
}

static void members_free(struct members *ms)
{
    for (size_t i = 0; i < ms->n; i++) {
        buf_free(&ms->v[i].doc);
        buf_free(&ms->v[i].text);
    }
    free(ms->v);
}

/* Members of TypeScript's Object interface: an object literal that omits
 * an optional property of that name is checked against the inherited
 * member (a function), so such a property must also accept Function. */
static int is_object_member(const char *name)
{
    static const char *const names[] = {
        "constructor",    "toString",      "toLocaleString",      "valueOf",
        "hasOwnProperty", "isPrototypeOf", "propertyIsEnumerable"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strcmp(name, names[i]) == 0)
            return 1;
    return 0;
}

/* A member's doc: its own, else that of the schema an inlined $ref names. */
static void member_doc(struct render *r, const cJSON *p, struct buf *doc)
{
    int level = r->cx->level;
    tools__decl_doc_of_schema_at(doc, p, level);
    const char *ref = ref_of(p);
    if (doc->len || ref == NULL)
        return;
    const cJSON *node = tools__decl_resolve(r->doc, ref);
    size_t i = node ? tools__decl_target_find(r->doc, node) : (size_t) -1;
    if (i != (size_t) -1 && !r->doc->t[i].aliased)
        tools__decl_doc_of_schema_at(doc, node, level);
}

/* Marks a member name as used; 0 when it was used before as written out
 * (ill-formed UTF-8 repaired: two such names may become one). Repaired
 * copies live in `owned` until the caller frees it. */
static int first_use(struct tools__decl_map *seen, struct parts *owned, const char *name)
{
    const char *key = name;
    size_t n = strlen(name);
    if (!utf8_is_valid(name, n)) {
        struct part *p = parts_push(owned);
        utf8_append_repaired(&p->text, name, n);
        key = p->text.data;
    }
    int added;
    tools__decl_map_put(seen, NULL, key, &added);
    return added;
}

/* One member per distinct property (the first of repeated keys, as cJSON
 * lookups see it), then one per required name that has no property. Sets
 * keep this linear however many properties there are. */
static void named_members(struct render *r, const cJSON *props, const cJSON *req, int indent,
                          struct members *ms)
{
    struct tools__decl_map required = {0}, seen = {0};
    struct parts owned = {0};
    for (const cJSON *q = req ? req->child : NULL; q; q = q->next)
        if (cJSON_IsString(q))
            tools__decl_map_put(&required, NULL, q->valuestring, NULL);
    for (const cJSON *p = props ? props->child : NULL; p; p = p->next) {
        if (p->string == NULL || !first_use(&seen, &owned, p->string))
            continue;
        struct member *m = members_push(ms);
        if (!r->collect)
            member_doc(r, p, &m->doc);
        int optional = tools__decl_map_find(&required, NULL, p->string) == NULL;
        tools__decl_key(&m->text, p->string);
        buf_append_str(&m->text, optional ? "?: " : ": ");
        size_t at = m->text.len;
        type_of(r, p, indent, &m->text);
        if (optional && is_object_member(p->string) && strcmp(m->text.data + at, "unknown"))
            buf_append_str(&m->text, " | Function");
    }
    for (const cJSON *q = req ? req->child : NULL; q; q = q->next) {
        if (!cJSON_IsString(q) || !first_use(&seen, &owned, q->valuestring))
            continue;
        struct member *m = members_push(ms);
        tools__decl_key(&m->text, q->valuestring);
        buf_append_str(&m->text, ": unknown");
    }
    tools__decl_map_free(&seen);
    tools__decl_map_free(&required);
    parts_free(&owned);
}

/* `[key: string]: T` for extra keys: when additionalProperties is true or a
 * schema, when patternProperties exist (T: the union of their types, and of
 * additionalProperties when that is a schema), or when the schema declares
 * none of these nor `properties` nor `required` (a free-form map). An
 * absent additionalProperties beside `properties` or `required` adds nothing:
 * such types stay closed, which is what a caller should send. T is
 * `unknown` next to named members (whose types must all be assignable to it
 * under --strict). */
static void index_signature(struct render *r, const cJSON *s, int indent, struct members *ms)
{
    const cJSON *ap = item(s, "additionalProperties");
    const cJSON *pp = item(s, "patternProperties");
    if (!cJSON_IsObject(pp) || pp->child == NULL)
        pp = NULL;
    int open =
        ap ? !cJSON_IsFalse(ap) : !item(s, "properties") && !item(s, "required") && pp == NULL;
    if (!open && pp == NULL)
        return;
    int named = ms->n > 0;
    struct member *m = members_push(ms);
    buf_append_str(&m->text, "[key: string]: ");
    if (named) {
        buf_append_str(&m->text, "unknown");
        return;
    }
    struct parts ps = {0};
    if (open)
        type_of(r, ap, indent, &parts_push(&ps)->text);
    for (const cJSON *p = pp ? pp->child : NULL; p; p = p->next) {
        struct part *pt = parts_push(&ps);
        pt->prec = type_of(r, p, indent, &pt->text);
    }
    join_union(&ps, &m->text);
    parts_free(&ps);
}

static size_t inline_width(const struct members *ms, int *fits)
{
    size_t width = 4;
    *fits = 1;
    for (size_t i = 0; i < ms->n; i++) {
        const struct member *m = &ms->v[i];
        if ((m->doc.len && !tools__decl_doc_is_one_line(m->doc.data)) ||
            memchr(m->text.data, '\n', m->text.len))
            *fits = 0;
        width += m->text.len + 2 + (m->doc.len ? m->doc.len + 7 : 0);
    }
    return width;
}

static void layout(const struct members *ms, int indent, size_t max_width, struct buf *out)
{
    if (ms->n == 0) {
        buf_append_str(out, "{}");
        return;
    }
    int fits;
    size_t width = inline_width(ms, &fits);
    int one_line = fits && width <= max_width;
    buf_append_str(out, one_line ? "{ " : "{\n");
    for (size_t i = 0; i < ms->n; i++) {
        const struct member *m = &ms->v[i];
        if (!one_line)
            tools__decl_indent(out, indent + 1);
        if (m->doc.len)
            tools__decl_doc_emit(out, m->doc.data, indent + 1, one_line);
        buf_append(out, m->text.data, m->text.len);
        if (!one_line)
            buf_append_str(out, ";\n");
        else
            buf_append_str(out, i + 1 < ms->n ? "; " : " }");
    }
    if (!one_line) {
        tools__decl_indent(out, indent);
        buf_append_char(out, '}');
    }
}

/* Objects written on one line up to this width: the more of the docs a
 * level drops, the longer the lines it can afford (fewer line breaks and
 * indents are fewer tokens). */
static size_t line_width(const struct render *r)
{
    int level = r->cx ? r->cx->level : TOOLS_DECL_FULL;
    return level == TOOLS_DECL_FULL ? INLINE_WIDTH
           : level == TOOLS_DECL_DOCS ? INLINE_WIDTH_COMPACT
                                      : INLINE_WIDTH_BARE;
}

static int render_object(struct render *r, const cJSON *s, int indent, struct buf *out)
{
    const cJSON *props = item(s, "properties");
    const cJSON *req = item(s, "required");
    struct members ms = {0};
    int saved = r->guarded;
    r->guarded = 1;
    named_members(r, cJSON_IsObject(props) ? props : NULL, cJSON_IsArray(req) ? req : NULL,
                  indent + 1, &ms);
    index_signature(r, s, indent + 1, &ms);
    r->guarded = saved;
    layout(&ms, indent, line_width(r), out);
    members_free(&ms);
    return P_ATOM;
}

/* --- arrays -------------------------------------------------------------- */

/* "[A, B?, ...R[]]": elements past minItems are optional; the rest is shown
 * only when it is a schema that says something (absent/true/false: none). */
static void tuple(struct render *r, const cJSON *s, const cJSON *elems, const cJSON *rest,
                  int indent, struct buf *out)
{
    const cJSON *mi = item(s, "minItems");
    double min = cJSON_IsNumber(mi) ? mi->valuedouble : 0;
    buf_append_char(out, '[');
    size_t i = 0;
    for (const cJSON *e = elems->child; e; e = e->next, i++) {
        struct buf t;
        buf_init(&t, 0);
        int optional = (double) i >= min;
        int prec = type_of(r, e, indent, &t);
        buf_append_str(out, i ? ", " : "");
        append_wrapped(out, &t, optional && prec < P_ATOM);
        buf_append_str(out, optional ? "?" : "");
        buf_free(&t);
    }
    if (cJSON_IsObject(rest)) {
        struct buf t;
        buf_init(&t, 0);
        int prec = type_of(r, rest, indent, &t);
        if (!is_unknown(&t)) {
            buf_append_str(out, i ? ", ..." : "...");
            append_wrapped(out, &t, prec < P_ATOM);
            buf_append_str(out, "[]");
        }
        buf_free(&t);
    }
    buf_append_char(out, ']');
}

static int render_array(struct render *r, const cJSON *s, int indent, struct buf *out)
{
    const cJSON *prefix = item(s, "prefixItems");
    const cJSON *items = item(s, "items");
    int saved = r->guarded;
    r->guarded = 1;
    if (cJSON_IsArray(prefix)) {
        tuple(r, s, prefix, items, indent, out);
    } else if (cJSON_IsArray(items)) {
        tuple(r, s, items, item(s, "additionalItems"), indent, out);
    } else if (cJSON_IsFalse(items)) {
        buf_append_str(out, "[]");
    } else {
        struct buf t;
        buf_init(&t, 0);
        int prec = type_of(r, items, indent, &t);
        append_wrapped(out, &t, prec < P_ATOM);
        buf_append_str(out, "[]");
        buf_free(&t);
    }
    r->guarded = saved;
    return P_ATOM;
}

/* --- type, enum, const, combinators -------------------------------------- */

static int named_type(struct render *r, const cJSON *s, const char *name, int indent,
                      struct buf *out)
{
    if (!strcmp(name, "string") || !strcmp(name, "boolean") || !strcmp(name, "null"))
        return put(out, name, P_ATOM);
    if (!strcmp(name, "number") || !strcmp(name, "integer"))
        return put(out, "number", P_ATOM);
    if (!strcmp(name, "object"))
        return render_object(r, s, indent, out);
    if (!strcmp(name, "array"))
        return render_array(r, s, indent, out);
    return put(out, "unknown", P_ATOM);
}

/* The type a schema without "type" implies by its keywords, or NULL. */
static const char *implied_type(const cJSON *s)
{
    if (item(s, "properties") || item(s, "required") || item(s, "additionalProperties") ||
        item(s, "patternProperties"))
        return "object";
    if (item(s, "items") || item(s, "prefixItems") || item(s, "additionalItems"))
        return "array";
    return NULL;
}

static int render_types(struct render *r, const cJSON *s, int indent, struct buf *out)
{
    const cJSON *type = item(s, "type");
    struct parts ps = {0};
    if (cJSON_IsString(type)) {
        struct part *p = parts_push(&ps);
        p->prec = named_type(r, s, type->valuestring, indent, &p->text);
    } else if (cJSON_IsArray(type)) {
        for (const cJSON *t = type->child; t; t = t->next) {
            struct part *p = parts_push(&ps);
            p->prec = cJSON_IsString(t) ? named_type(r, s, t->valuestring, indent, &p->text)
                                        : put(&p->text, "unknown", P_ATOM);
        }
    } else if (implied_type(s)) {
        struct part *p = parts_push(&ps);
        p->prec = named_type(r, s, implied_type(s), indent, &p->text);
    }
    int prec = ps.n ? join_union(&ps, out) : put(out, "unknown", P_ATOM);
    parts_free(&ps);
    return prec;
}

static int render_enum(const cJSON *values, struct buf *out)
{
    struct parts ps = {0};
    for (const cJSON *v = values->child; v; v = v->next) {
        struct part *p = parts_push(&ps);
        p->prec = tools__decl_literal(&p->text, v, LITERAL_DEPTH) ? P_INTER : P_ATOM;
    }
    int prec = join_union(&ps, out);
    parts_free(&ps);
    return prec;
}

/* const, else enum, else the "type" keyword (or the one keywords imply). */
static int render_base(struct render *r, const cJSON *s, int indent, struct buf *out)
{
    const cJSON *c = item(s, "const");
    if (c)
        return tools__decl_literal(out, c, LITERAL_DEPTH) ? P_INTER : P_ATOM;
    const cJSON *e = item(s, "enum");
    if (cJSON_IsArray(e))
        return render_enum(e, out);
    return render_types(r, s, indent, out);
}

/* A schema whose base says no more than its "type": its anyOf/allOf/oneOf
 * branches alone describe it better than "object & (A | B)". */
static int is_bare(const cJSON *s)
{
    static const char *const keys[] = {"properties",        "required", "additionalProperties",
                                       "patternProperties", "items",    "prefixItems",
                                       "additionalItems",   "enum",     "const"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
        if (item(s, keys[i]))
            return 0;
    return 1;
}

/* Appends the known parts of allOf members, and the anyOf and oneOf unions. */
static void combinators(struct render *r, const cJSON *s, int indent, struct parts *ps)
{
    static const char *const keys[] = {"allOf", "anyOf", "oneOf"};
    for (size_t k = 0; k < 3; k++) {
        const cJSON *arr = item(s, keys[k]);
        if (!cJSON_IsArray(arr) || arr->child == NULL)
            continue;
        struct parts members = {0};
        for (const cJSON *m = arr->child; m; m = m->next) {
            struct part *p = parts_push(&members);
            p->prec = type_of(r, m, indent, &p->text);
        }
        if (k == 0) {
            for (size_t i = 0; i < members.n; i++)
                if (!is_unknown(&members.v[i].text)) {
                    struct part *p = parts_push(ps);
                    p->prec = members.v[i].prec;
                    buf_append(&p->text, members.v[i].text.data, members.v[i].text.len);
                }
        } else {
            struct part *p = parts_push(ps);
            p->prec = join_union(&members, &p->text);
            if (is_unknown(&p->text))
                buf_free(&ps->v[--ps->n].text);
        }
        parts_free(&members);
    }
}

static int render_schema(struct render *r, const cJSON *s, int indent, struct buf *out)
{
    struct parts ps = {0};
    struct part *base = parts_push(&ps);
    base->prec = render_base(r, s, indent, &base->text);
    combinators(r, s, indent, &ps);
    if (ps.n > 1 && (is_unknown(&ps.v[0].text) || is_bare(s))) {
        buf_free(&ps.v[0].text);
        memmove(&ps.v[0], &ps.v[1], (ps.n - 1) * sizeof ps.v[0]);
        ps.n--;
    }
    struct buf t;
    buf_init(&t, 0);
    int prec = join_intersection(&ps, &t);
    parts_free(&ps);
    if (cJSON_IsTrue(item(s, "nullable")) && !is_unknown(&t)) {
        buf_append_str(&t, " | null");
        prec = P_UNION;
    }
    buf_append(out, t.len ? t.data : "", t.len);
    buf_free(&t);
    return prec;
}

static int type_of(struct render *r, const cJSON *s, int indent, struct buf *out)
{
    if (s == NULL || cJSON_IsTrue(s))
        return put(out, "unknown", P_ATOM);
    if (cJSON_IsFalse(s))
        return put(out, "never", P_ATOM);
    if (!cJSON_IsObject(s) || r->depth >= MAX_DEPTH)
        return put(out, "unknown", P_ATOM);
    if (!r->collect && r->cx->shapes && (const void *) s != r->cx->self) {
        struct tools__decl_shape *sh = tools__decl_shape_of(r->cx->shapes, s);
        if (sh) {
            buf_printf(out, "%s.%s", TOOLS__DECL_NAMESPACE, sh->name);
            tools__decl_want(&sh->want, r->cx->level);
            return P_ATOM;
        }
    }
    r->depth++;
    const char *ref = ref_of(s);
    int prec = ref ? render_ref(r, ref, indent, out) : render_schema(r, s, indent, out);
    r->depth--;
    return prec;
}

/* --- entry points ---------------------------------------------------------- */

void tools__decl_collect(struct tools__decl_doc *d)
{
    struct buf scratch;
    buf_init(&scratch, 0);
    for (size_t i = 0; i < d->n; i++) { /* d->n grows as targets are found */
        struct render r = {d, NULL, 1, i, 0, 0};
        d->t[i].walked = 1;
        type_of(&r, d->t[i].node, 0, &scratch);
        buf_reset(&scratch);
    }
    buf_free(&scratch);
    tools__decl_doc_analyse(d);
}

void tools__decl_root(struct tools__decl_doc *d, const struct tools__decl_ctx *cx, int indent,
                      struct buf *out)
{
    if (d->t[0].aliased && d->t[0].alias) {
        buf_printf(out, "%s.%s", TOOLS__DECL_NAMESPACE, d->t[0].alias);
        tools__decl_want(&d->t[0].want, cx->level);
        return;
    }
    struct render r = {d, cx, 0, 0, 1, 0}; /* a parameter or result: guarded */
    d->t[0].rendering = 1;
    type_of(&r, d->root, indent, out);
    d->t[0].rendering = 0;
}

void tools__decl_alias_body(struct tools__decl_doc *d, size_t i, const struct tools__decl_ctx *cx,
                            int indent, struct buf *out)
{
    struct render r = {d, cx, 0, i, 0, 0};
    d->t[i].rendering = 1;
    type_of(&r, d->t[i].node, indent, out);
    d->t[i].rendering = 0;
}

void tools__decl_node_body(struct tools__decl_doc *d, const cJSON *node,
                           const struct tools__decl_ctx *cx, int indent, struct buf *out)
{
    struct render r = {d, cx, 0, 0, 1, 0}; /* a shape holds no references: guarded */
    type_of(&r, node, indent, out);
}

/* Whether an empty object can match `type` (absent: when nothing else
 * says the value is something other than an object). */
static int allows_object(const cJSON *s)
{
    const cJSON *type = item(s, "type");
    if (type == NULL) {
        const char *implied = implied_type(s);
        return !item(s, "enum") && !item(s, "const") && (!implied || !strcmp(implied, "object"));
    }
    if (cJSON_IsString(type))
        return strcmp(type->valuestring, "object") == 0;
    for (const cJSON *t = cJSON_IsArray(type) ? type->child : NULL; t; t = t->next)
        if (cJSON_IsString(t) && strcmp(t->valuestring, "object") == 0)
            return 1;
    return 0;
}

int tools__decl_args_optional(struct tools__decl_doc *d)
{
    const cJSON *s = d->root;
    for (int hops = 0; hops < 8 && cJSON_IsObject(s) && ref_of(s); hops++)
        s = tools__decl_resolve(d, ref_of(s));
    if (s == NULL || cJSON_IsTrue(s))
        return 1;
    if (!cJSON_IsObject(s) || item(s, "anyOf") || item(s, "oneOf") || item(s, "allOf"))
        return 0;
    const cJSON *req = item(s, "required");
    if (cJSON_IsArray(req) && req->child)
        return 0;
    return allows_object(s);
}
