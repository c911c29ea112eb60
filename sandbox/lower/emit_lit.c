/* Literal emission: numbers (separators removed), strings (raw U+2028
 * escaped), templates split per source line, tagged templates with one
 * strings object per site, arrays and objects with spread (__sp, __os,
 * __ol) and accessors with computed keys (__oacc). */
#include <stdio.h>
#include <string.h>

#include "sandbox/lower/emit.h"

#define W(s) lower__e_tok(E, 0, "" s, sizeof(s) - 1)

/* ---- literals ------------------------------------------------------------------- */

void lower__e_number(struct emit *E, struct node *n)
{
    char tmp[128];
    const char *s = E->src + n->pos;
    size_t len = n->end - n->pos, k = 0;
    int plain = 1;
    for (size_t i = 0; i < len; i++)
        if (s[i] == '_')
            plain = 0;
    if (plain && len < sizeof tmp) {
        memcpy(tmp, s, len);
        k = len;
    } else {
        struct buf *b = &E->cx->scratch;
        buf_reset(b);
        for (size_t i = 0; i < len; i++)
            if (s[i] != '_')
                buf_append_char(b, s[i]);
        lower__e_tok(E, n->line, b->data, b->len);
        goto done;
    }
    lower__e_tok(E, n->line, tmp, k);
done:;
    int dotted = 0;
    for (size_t i = 0; i < len; i++)
        if (s[i] == '.' || s[i] == 'e' || s[i] == 'E' || s[i] == 'x' || s[i] == 'X')
            dotted = 1;
    E->last_num = !dotted;
}

/* String literal: the source text, with raw U+2028/U+2029 escaped. */
void lower__e_string(struct emit *E, struct node *n)
{
    const char *s = E->src + n->pos;
    size_t len = n->end - n->pos;
    if (!memmem(s, len, "\xe2\x80", 2)) {
        lower__e_src(E, n);
        return;
    }
    struct buf *b = &E->cx->scratch;
    buf_reset(b);
    for (size_t i = 0; i < len; i++) {
        if (i + 2 < len && (unsigned char)s[i] == 0xe2 && (unsigned char)s[i + 1] == 0x80 &&
            ((unsigned char)s[i + 2] == 0xa8 || (unsigned char)s[i + 2] == 0xa9)) {
            buf_append_str(b, (unsigned char)s[i + 2] == 0xa8 ? "\\u2028" : "\\u2029");
            i += 2;
        } else {
            buf_append_char(b, s[i]);
        }
    }
    lower__e_text(E, n->line, b->data, b->len);
}

/* One template part as a string literal (cooked, or raw for tagged
 * templates), split at source line breaks into "..." + "..." pieces so
 * every piece stays on its line. */
void lower__e_template_string(struct emit *E, struct node *part, int raw)
{
    const char *s = E->src + part->pos + 1;
    const char *end = E->src + part->end - ((part->flags & NF_TPL_TAIL) ? 1 : 2);
    int line = part->line;
    struct buf *b = &E->cx->scratch2;
    buf_reset(b);
    buf_append_char(b, '"');
    while (s < end) {
        unsigned char c = (unsigned char)*s;
        if (c == '\r' || c == '\n') {
            s += (c == '\r' && s + 1 < end && s[1] == '\n') ? 2 : 1;
            buf_append_str(b, "\\n\"");
            lower__e_tok(E, line, b->data, b->len);
            W(" +");
            line++;
            buf_reset(b);
            buf_append_char(b, '"');
            continue;
        }
        if (c == '\\') {
            if (raw) {
                buf_append_str(b, "\\\\");
                s++;
                continue;
            }
            if (s + 1 < end && (s[1] == '\n' || s[1] == '\r')) {
                /* line continuation: nothing in the value, keep the line */
                s += (s[1] == '\r' && s + 2 < end && s[2] == '\n') ? 3 : 2;
                buf_append_char(b, '"');
                lower__e_tok(E, line, b->data, b->len);
                W(" +");
                line++;
                buf_reset(b);
                buf_append_char(b, '"');
                continue;
            }
            buf_append_char(b, '\\');
            if (s + 1 < end)
                buf_append_char(b, s[1]);
            s += 2;
            continue;
        }
        if (c == '"') {
            buf_append_str(b, "\\\"");
            s++;
            continue;
        }
        if (c == 0xe2 && s + 2 < end && (unsigned char)s[1] == 0x80 &&
            ((unsigned char)s[2] == 0xa8 || (unsigned char)s[2] == 0xa9)) {
            buf_append_str(b, (unsigned char)s[2] == 0xa8 ? "\\u2028" : "\\u2029");
            s += 3;
            continue;
        }
        buf_append_char(b, (char)c);
        s++;
    }
    buf_append_char(b, '"');
    lower__e_tok(E, line, b->data, b->len);
}

static int hexd(char c)
{
    return (c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f');
}

/* The first escape of a template part that has no cooked value (\1-\9, \0
 * before a digit, a bad \x or \u), or NULL. */
static const char *tpl_bad_escape(struct emit *E, const struct node *part)
{
    const char *s = E->src + part->pos + 1;
    const char *end = E->src + part->end - ((part->flags & NF_TPL_TAIL) ? 1 : 2);
    for (; s < end; s++) {
        if (*s != '\\' || s + 1 >= end)
            continue;
        char c = s[1];
        if ((c >= '1' && c <= '9') || (c == '0' && s + 2 < end && s[2] >= '0' && s[2] <= '9'))
            return s;
        if (c == 'x' && !(s + 3 < end && hexd(s[2]) && hexd(s[3])))
            return s;
        if (c == 'u') {
            if (s + 2 < end && s[2] == '{') {
                const char *q = s + 3;
                unsigned long v = 0;
                while (q < end && hexd(*q) && v <= 0x10ffff)
                    v = v * 16 + (unsigned long)((*q <= '9') ? *q - '0' : (*q | 0x20) - 'a' + 10), q++;
                if (q == s + 3 || q >= end || *q != '}' || v > 0x10ffff)
                    return s;
            } else if (!(s + 5 < end && hexd(s[2]) && hexd(s[3]) && hexd(s[4]) && hexd(s[5]))) {
                return s;
            }
        }
        s++; /* the escaped character */
    }
    return NULL;
}

static int tpl_part_empty(struct emit *E, const struct node *part)
{
    return part->end - part->pos == ((part->flags & NF_TPL_TAIL) ? 2u : 3u);
}

/* Substitutions that bind tighter than `+` as emitted (primaries, members,
 * calls, unary operators, and lowered forms that parenthesise themselves)
 * need no parentheses in the concatenation. */
static int tpl_operand_tight(const struct node *x)
{
    switch (x->kind) {
    case N_IDENT: case N_THIS: case N_NUM: case N_STR: case N_LITERAL: case N_TEMPLATE:
    case N_TAGGED: case N_REGEX: case N_ARRAY: case N_OBJECT: case N_CALL: case N_NEW:
    case N_MEMBER: case N_OPTCHAIN: case N_AWAIT: case N_PAREN: case N_UNARY:
        return 1;
    }
    return 0;
}

/* Substitutions whose value is a primitive whatever their operands are
 * (numbers, strings, literals, nested templates, unary, update and binary
 * operators): `+` converts them as a template does. */
static int tpl_operand_primitive(const struct node *x)
{
    switch (x->kind) {
    case N_NUM: case N_STR: case N_LITERAL: case N_TEMPLATE: case N_UNARY: case N_UPDATE: case N_BINARY:
        return 1;
    }
    return 0;
}

/* A substitution converts with ToString (an object's toString first),
 * where `+` would call its valueOf first: any other value is kept in a
 * temporary and an object or function goes through __ts (String). */
static void tpl_operand(struct emit *E, struct node *p, struct lname **t)
{
    if (tpl_operand_primitive(p)) {
        if (tpl_operand_tight(p)) {
            lower__e_expr(E, p);
        } else {
            W("(");
            lower__e_expr_loose(E, p);
            W(")");
        }
        return;
    }
    if (!*t)
        *t = lower__e_tmp(E);
    W("(typeof (");
    lower__e_name(E, 0, *t);
    W(" = ");
    lower__e_expr_loose(E, p);
    W(") === \"object\" || typeof ");
    lower__e_name(E, 0, *t);
    W(" === \"function\" ? __ts(");
    lower__e_name(E, 0, *t);
    W(") : ");
    lower__e_name(E, 0, *t);
    W(")");
}

/* `a${x}b${y}` as ("a" + x + "b" + y): empty parts dropped, a leading ""
 * only when the first two operands are not a string (`${x}${y}`, `${x}`);
 * each substitution as tpl_operand converts it. */
void lower__e_template(struct emit *E, struct node *n, int loose)
{
    struct node *first = NULL, *second = NULL;
    struct lname *t = NULL;
    for (struct node *p = n->a; p && !second; p = p->next)
        if (p->kind != N_TPL_PART || !tpl_part_empty(E, p)) {
            if (first)
                second = p;
            else
                first = p;
        }
    if (!first) {
        lower__e_tok(E, n->line, "\"\"", 2);
        return;
    }
    /* a plain string must not become a directive ("use strict") */
    int plain = first->kind == N_TPL_PART && !second && !E->stmt_start;
    int paren = !plain && !loose;
    lower__e_tok(E, n->line, paren ? "(" : "", paren ? 1 : 0);
    int any = 0;
    if (first->kind != N_TPL_PART && (!second || second->kind != N_TPL_PART)) {
        W("\"\"");
        any = 1;
    }
    for (struct node *p = n->a; p; p = p->next) {
        if (p->kind == N_TPL_PART && tpl_part_empty(E, p))
            continue;
        if (any)
            W(" + ");
        any = 1;
        if (p->kind == N_TPL_PART) {
            const char *bad = tpl_bad_escape(E, p);
            if (bad)
                lower__error_at(E->cx, (uint32_t)(bad - E->src),
                                "Invalid escape sequence in a template (octal, \\8, \\9 or a bad \\x/\\u)");
            lower__e_template_string(E, p, 0);
        } else {
            tpl_operand(E, p, &t);
        }
    }
    if (paren)
        W(")");
}

void lower__e_tagged(struct emit *E, struct node *n)
{
    struct lname *cache = lower__e_root_tmp(E);
    lower__e_expr(E, n->a);
    W("(");
    lower__e_name(E, 0, cache);
    W(" || (");
    lower__e_name(E, 0, cache);
    W(" = __tpl([");
    int first = 1;
    for (struct node *p = n->b->a; p; p = p->next) {
        if (p->kind != N_TPL_PART)
            continue;
        if (!first)
            W(", ");
        first = 0;
        if (tpl_bad_escape(E, p))
            W("void 0"); /* a tagged template's cooked string of a bad escape */
        else
            lower__e_template_string(E, p, 0);
    }
    W("], [");
    first = 1;
    for (struct node *p = n->b->a; p; p = p->next) {
        if (p->kind != N_TPL_PART)
            continue;
        if (!first)
            W(", ");
        first = 0;
        lower__e_template_string(E, p, 1);
    }
    W("]))");
    for (struct node *p = n->b->a; p; p = p->next) {
        if (p->kind == N_TPL_PART)
            continue;
        W(", ");
        lower__e_expr(E, p);
    }
    W(")");
}

/* ---- spread ------------------------------------------------------------------------ */

int lower__has_spread(struct node *first)
{
    for (struct node *a = first; a; a = a->next)
        if (a->kind == N_SPREAD)
            return 1;
    return 0;
}

/* Emits an array expression holding the elements (spreads expanded):
 * __sp(__sp([a, b], xs), [c]). Holes become undefined only inside
 * spread segments (as the spec says for array literals, holes stay). */
void lower__e_args_array(struct emit *E, struct node *first, int line)
{
    int nspread = 0;
    for (struct node *a = first; a; a = a->next)
        nspread += a->kind == N_SPREAD;
    for (int i = 0; i < nspread; i++)
        lower__e_tok(E, line, "__sp(", 5);
    lower__e_tok(E, line, "[", 1);
    struct node *a = first;
    int count = 0;
    for (; a && a->kind != N_SPREAD; a = a->next) {
        if (count++)
            W(", ");
        if (a->kind != N_HOLE)
            lower__e_expr_loose(E, a);
    }
    W("]");
    while (a) {
        W(", ");
        lower__e_expr(E, a->a);
        W(")");
        a = a->next;
        if (a && a->kind != N_SPREAD) {
            /* plain elements between spreads: appended with concat */
            W(".concat([");
            int c = 0;
            for (; a && a->kind != N_SPREAD; a = a->next) {
                if (c++)
                    W(", ");
                if (a->kind == N_HOLE)
                    W("void 0");
                else
                    lower__e_expr_loose(E, a);
            }
            W("])");
        }
    }
}

void lower__e_array(struct emit *E, struct node *n)
{
    if (lower__has_spread(n->a)) {
        lower__e_args_array(E, n->a, n->line);
        return;
    }
    lower__e_tok(E, n->line, "[", 1);
    struct node *last = NULL;
    for (struct node *a = n->a; a; a = a->next) {
        if (a != n->a)
            W(", ");
        if (a->kind != N_HOLE)
            lower__e_expr_loose(E, a);
        last = a;
    }
    if (last && last->kind == N_HOLE)
        W(",");
    W("]");
}

/* ---- objects ------------------------------------------------------------------------ */

/* Does a computed key's property take its function's name from the key (an
 * anonymous function, arrow or class, or a method)? */
static int names_by_key(const struct node *p)
{
    if (!p->b || !((p->flags & NF_COMPUTED) || p->a->kind == N_STR || p->a->kind == N_NUM))
        return 0;
    if (p->op == PK_METHOD)
        return 1;
    if (p->op != PK_INIT || (p->flags & NF_SHORTHAND))
        return 0;
    const struct node *v = p->b;
    while (v->kind == N_PAREN)
        v = v->a;
    return (v->kind == N_FUNC && !v->a) || (v->kind == N_CLASS && !v->a);
}

/* A computed key is a property key before the value is evaluated (Duktape
 * converts it after): an object key goes through __pk first, inline-tested so
 * that string and number keys cost no call; [$t = __pk(k)] when the value is
 * named by it; literal keys as they are. */
static void e_prop_key(struct emit *E, struct node *p, struct lname *keep)
{
    if (p->flags & NF_COMPUTED) {
        W("[");
        if (p->a->kind == N_STR || p->a->kind == N_NUM) {
            lower__e_expr(E, p->a);
        } else if (!keep) {
            /* typeof ($t = k) === "object" && $t !== null ? __pk($t) : $t */
            struct lname *t = lower__e_tmp(E);
            W("typeof (");
            lower__e_name(E, 0, t);
            W(" = ");
            lower__e_expr_loose(E, p->a);
            W(") === \"object\" && ");
            lower__e_name(E, 0, t);
            W(" !== null ? __pk(");
            lower__e_name(E, 0, t);
            W(") : ");
            lower__e_name(E, 0, t);
        } else {
            if (keep) {
                lower__e_name(E, 0, keep);
                W(" = ");
            }
            W("__pk(");
            lower__e_expr_loose(E, p->a);
            W(")");
        }
        W("]");
    } else if (p->a->kind == N_IDENT) {
        lower__e_key(E, p->a->line, p->a->name);
    } else if (p->a->kind == N_NUM) {
        lower__e_number(E, p->a);
    } else {
        lower__e_string(E, p->a);
    }
}

/* The key as a string expression (for helpers): "name", "str", or expr. */
void lower__e_prop_key_string(struct emit *E, struct node *key, int computed)
{
    if (computed) {
        lower__e_expr(E, key);
    } else if (key->kind == N_IDENT) {
        char tmp[8];
        lower__e_tok(E, key->line, "\"", 1);
        lower__e_tok(E, 0, key->name->s, key->name->len);
        snprintf(tmp, sizeof tmp, "\"");
        lower__e_w(E, tmp);
    } else if (key->kind == N_NUM) {
        W("\"\" + ");
        lower__e_number(E, key);
    } else {
        lower__e_string(E, key);
    }
}

/* An object-literal method or accessor whose body uses super. */
static int uses_super(const struct node *p)
{
    return (p->op == PK_METHOD || p->op == PK_GET || p->op == PK_SET) && p->b && p->b->x &&
           (((struct funcinfo *)p->b->x)->flags & FI_USES_SUPER);
}

/* __needHome(function $h() {...}): the function refers to itself by a name of
 * its own to find its object (__homeProto), which __setHome gives it, with its
 * name, once the literal is made. */
static void e_home_method(struct emit *E, struct node *fn)
{
    struct lname *self = lower__e_tmp_name(E);
    struct eclass *cls = E->cls;
    struct lname *home = E->obj_home;
    lower__e_tok(E, fn->line, "__needHome(", 11);
    E->cls = NULL;
    E->obj_home = self;
    lower__e_function(E, fn, self);
    E->cls = cls;
    E->obj_home = home;
    W(")");
}

static void e_prop(struct emit *E, struct node *p)
{
    if (p->op == PK_GET || p->op == PK_SET) {
        lower__e_tok(E, p->line, p->op == PK_GET ? "get" : "set", 3);
        W(" ");
        e_prop_key(E, p, NULL);
        lower__e_function(E, p->b, NULL);
        return;
    }
    int by_key = names_by_key(p);
    int literal_key = p->a->kind == N_STR || p->a->kind == N_NUM;
    struct lname *key = by_key && !literal_key ? lower__e_tmp(E) : NULL;
    e_prop_key(E, p, key);
    W(": ");
    if (by_key) {
        /* [k]: function () {} is named by k */
        W("__fnameKey(");
        if (p->op == PK_METHOD && uses_super(p))
            e_home_method(E, p->b);
        else if (p->op == PK_METHOD)
            lower__e_function(E, p->b, NULL);
        else
            lower__e_expr_loose(E, p->b);
        W(", ");
        if (key)
            lower__e_name(E, 0, key);
        else
            lower__e_prop_key_string(E, p->a, 0);
        W(")");
        return;
    }
    struct lname *hint = !(p->flags & NF_COMPUTED) && p->a->kind == N_IDENT ? p->a->name : NULL;
    if (p->flags & NF_SHORTHAND) {
        lower__e_ident(E, p->b);
    } else {
        E->name_hint = hint;
        if (p->op == PK_METHOD && uses_super(p))
            e_home_method(E, p->b);
        else if (p->op == PK_METHOD)
            lower__e_function(E, p->b, NULL);
        else
            lower__e_expr_loose(E, p->b);
        E->name_hint = NULL;
    }
}

static void e_object_literal(struct emit *E, struct node *first, struct node *stop, int line)
{
    lower__e_tok(E, line, "{", 1);
    for (struct node *p = first; p != stop; p = p->next) {
        if (p != first)
            W(", ");
        e_prop(E, p);
    }
    W("}");
}

/* `k: v` with a key that can be assigned (`$t.k = v`) with the effect of
 * defining it on a fresh object: no accessor, method or `__proto__`. */
static int is_plain_prop(const struct node *p)
{
    if (p->op != PK_INIT || (p->flags & NF_COMPUTED))
        return 0;
    const struct node *k = p->a;
    if (k->kind == N_IDENT)
        return !(k->name->len == 9 && memcmp(k->name->s, "__proto__", 9) == 0);
    return k->kind == N_NUM;
}

static int plain_run(struct node *first, struct node *stop)
{
    for (struct node *p = first; p != stop; p = p->next)
        if (!is_plain_prop(p))
            return 0;
    return 1;
}

/* The last literal run of a spread object as assignments to its temporary:
 * `, $t.k = v, $t[1] = w, $t)` (a fresh object has no setter to run). */
static void e_assigned_run(struct emit *E, struct node *first, struct lname *t)
{
    for (struct node *p = first; p; p = p->next) {
        W(", ");
        lower__e_name(E, 0, t);
        if (p->a->kind == N_IDENT) {
            lower__e_dot(E, p->line, p->a->name);
        } else {
            lower__e_tok(E, p->line, "[", 1);
            lower__e_number(E, p->a);
            W("]");
        }
        W(" = ");
        if (p->flags & NF_SHORTHAND) {
            lower__e_ident(E, p->b);
        } else {
            E->name_hint = p->a->kind == N_IDENT ? p->a->name : NULL;
            lower__e_expr_loose(E, p->b);
            E->name_hint = NULL;
        }
    }
    W(", ");
    lower__e_name(E, 0, t);
    W(")");
}

static int is_computed_accessor(struct node *p)
{
    /* (an accessor using super goes the same way: it needs the function keyword) */
    return (p->op == PK_GET || p->op == PK_SET) && ((p->flags & NF_COMPUTED) || uses_super(p));
}

/* A property that cannot sit in an ES5 literal: a spread, or an accessor
 * with a computed key (Duktape's parser has no `get [k]() {}`). */
static int is_segment_break(struct node *p)
{
    return p->op == PK_SPREAD || is_computed_accessor(p);
}

/* `__proto__: v` (not computed, not shorthand, not a method) sets the prototype. */
static int is_proto_setter(struct emit *E, const struct node *q)
{
    if (q->op != PK_INIT || (q->flags & (NF_COMPUTED | NF_SHORTHAND)) || !q->a)
        return 0;
    if (q->a->kind == N_IDENT)
        return q->a->name->len == 9 && memcmp(q->a->name->s, "__proto__", 9) == 0;
    if (q->a->kind == N_STR)
        return q->a->end - q->a->pos == 11 && memcmp(E->src + q->a->pos + 1, "__proto__", 9) == 0;
    return 0;
}

static void e_object_parts(struct emit *E, struct node *n);

void lower__e_object(struct emit *E, struct node *n)
{
    struct node *proto = NULL;
    int home = 0;
    for (struct node *q = n->a; q; q = q->next) {
        home |= uses_super(q);
        if (!is_proto_setter(E, q))
            continue;
        if (proto)
            lower__e_error(E, q, "Duplicate __proto__ fields are not allowed in object literals");
        proto = q;
    }
    /* the literal defines an own __proto__; __protoLit makes it the prototype.
     * __setHome gives the methods using super their object. */
    if (home)
        lower__e_tok(E, n->line, "__setHome(", 10);
    if (proto)
        lower__e_tok(E, n->line, "__protoLit(", 11);
    e_object_parts(E, n);
    if (proto)
        W(")");
    if (home)
        W(")");
}

static void e_object_parts(struct emit *E, struct node *n)
{
    int nk = 0;
    struct node *prev = NULL;
    for (struct node *q = n->a; q; prev = q, q = q->next)
        if (is_segment_break(q) || (prev && is_segment_break(prev)))
            nk++;
    if (!nk) {
        e_object_literal(E, n->a, NULL, n->line);
        return;
    }
    /* {a: 1, ...x, b: 2} -> __ol(__os({a: 1}, x), {b: 2}): spreads copy own
     * enumerable properties, later literal runs define theirs (copied as
     * assignments, __os, when they hold plain `k: v` only), computed
     * accessors go through __oacc; helpers nest, the last applied outermost.
     * A plain last run is assigned: ($t = __os({a: 1}, x), $t.b = 2, $t). */
    char *kinds = lower__arena_alloc(&E->cx->arena, (size_t)nk + 1);
    if (!kinds)
        lower__oom(E->cx);
    nk = 0;
    prev = NULL;
    struct node *last_run = NULL;
    for (struct node *q = n->a; q; prev = q, q = q->next) {
        if (q->op == PK_SPREAD) {
            kinds[nk++] = 's';
        } else if (is_computed_accessor(q)) {
            kinds[nk++] = 'a';
        } else if (prev && is_segment_break(prev)) {
            struct node *r = q;
            while (r && !is_segment_break(r))
                r = r->next;
            kinds[nk++] = plain_run(q, r) ? 'p' : 'l';
            last_run = r ? NULL : q;
        }
    }
    struct lname *assigned = NULL;
    if (last_run && kinds[nk - 1] == 'p') {
        assigned = lower__e_tmp(E);
        lower__e_tok(E, n->line, "(", 1);
        lower__e_name(E, 0, assigned);
        W(" = ");
        nk--;
    }
    for (int i = nk - 1; i >= 0; i--)
        lower__e_tok(E, n->line, kinds[i] == 's' ? "__os(" : kinds[i] == 'a' ? "__oacc(" : kinds[i] == 'p' ? "__os(" : "__ol(", kinds[i] == 'a' ? 7 : 5);
    struct node *q = n->a;
    while (q && !is_segment_break(q))
        q = q->next;
    e_object_literal(E, n->a, q, n->line);
    while (q) {
        if (q->op == PK_SPREAD) {
            W(", ");
            lower__e_expr(E, q->a);
            W(")");
            q = q->next;
        } else if (is_computed_accessor(q)) {
            W(", ");
            if (q->flags & NF_COMPUTED)
                lower__e_expr(E, q->a);
            else
                lower__e_prop_key_string(E, q->a, 0);
            W(", ");
            q->b->y = q; /* the function keyword */
            if (uses_super(q))
                e_home_method(E, q->b);
            else
                lower__e_function(E, q->b, NULL);
            lower__e_w(E, q->op == PK_GET ? ", 1)" : ", 2)");
            q = q->next;
        } else if (q == last_run && assigned) {
            e_assigned_run(E, q, assigned);
            q = NULL;
        } else {
            struct node *r = q;
            while (r && !is_segment_break(r))
                r = r->next;
            W(", ");
            e_object_literal(E, q, r, q->line);
            W(")");
            q = r;
        }
    }
}

