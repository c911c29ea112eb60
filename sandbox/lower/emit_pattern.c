/* Destructuring emission: a pattern bound to a value held in a temporary
 * becomes a comma list of assignments (declarators when decl), defaults
 * tested against undefined lazily and in order, array patterns through
 * __adi (arrays read by index, other iterables one value per element as
 * the targets are assigned, closed when left open), rest elements by slice
 * or __adr, rest properties by __rest. No callbacks: an await in a default
 * stays in the async body. */
#include <stdio.h>
#include <string.h>

#include "sandbox/lower/emit.h"

#define W(s) lower__e_tok(E, 0, "" s, sizeof(s) - 1)

enum { V_MEMBER, V_INDEX, V_SLICE, V_REST };
struct valref {
    int kind;
    struct lname *src;
    struct node *key;     /* V_MEMBER */
    int computed;
    struct lname *keytmp; /* V_MEMBER: computed key already evaluated */
    int index;            /* V_INDEX, V_SLICE */
    struct lname *fast;   /* V_INDEX, V_SLICE: true when src is the array itself */
    struct node *restpat; /* V_REST: the object pattern */
};

static void sep(struct emit *E, int *first)
{
    if (!*first)
        W(", ");
    *first = 0;
}

static void e_value(struct emit *E, const struct valref *v)
{
    char tmp[48];
    switch (v->kind) {
    case V_MEMBER:
        lower__e_name(E, 0, v->src);
        if (v->keytmp) {
            W("[");
            lower__e_name(E, 0, v->keytmp);
            W("]");
        } else if (v->computed) {
            W("[");
            lower__e_expr(E, v->key);
            W("]");
        } else if (v->key->kind == N_IDENT) {
            lower__e_dot(E, v->key->line, v->key->name);
        } else {
            W("[");
            lower__e_prop_key_string(E, v->key, 0);
            W("]");
        }
        return;
    case V_INDEX: /* $k ? $r[i] : __adv($r) */
    case V_SLICE: /* $k ? $r.slice(i) : __adr($r) */
        lower__e_name(E, 0, v->fast);
        W(" ? ");
        lower__e_name(E, 0, v->src);
        snprintf(tmp, sizeof tmp, v->kind == V_INDEX ? "[%d]" : ".slice(%d)", v->index);
        lower__e_w(E, tmp);
        if (v->kind == V_INDEX)
            W(" : __adv(");
        else
            W(" : __adr(");
        lower__e_name(E, 0, v->src);
        W(")");
        return;
    case V_REST: {
        W("__rest(");
        lower__e_name(E, 0, v->src);
        W(", [");
        int first = 1;
        for (struct node *e = v->restpat->a; e; e = e->next) {
            if (e->kind == N_REST)
                continue;
            if (!first)
                W(", ");
            first = 0;
            if (e->x)
                lower__e_name(E, 0, e->x);
            else
                lower__e_prop_key_string(E, e->a, 0);
        }
        W("])");
        return;
    }
    }
}

/* Emits the target side `name` or a member expression. */
void lower__e_bind_target(struct emit *E, struct node *target, int decl)
{
    (void)decl;
    if (target->kind == N_IDENT)
        lower__e_ident(E, target);
    else
        lower__e_expr(E, target);
}

static void bind_element(struct emit *E, struct node *elem, const struct valref *v, int decl,
                         int *first)
{
    struct node *target = elem, *def = NULL;
    if (elem->kind == N_ASSIGNPAT || (elem->kind == N_ASSIGN && elem->op == P_ASSIGN)) {
        target = elem->a;
        def = elem->b;
    }
    while (target->kind == N_PAREN)
        target = target->a;
    /* [c] = v where c is a const: the value is read, then the TypeError */
    int cst = !decl && target->kind == N_IDENT && target->x &&
              lower__e_is_const_binding(target->x);
    int simple = (target->kind == N_IDENT && !cst) || target->kind == N_MEMBER;
    int priv = target->kind == N_MEMBER && (target->flags & NF_PRIVATE);
    struct lname *hold = simple ? NULL : lower__e_tmp(E);
    sep(E, first);
    if (priv)
        lower__e_private_set_open(E, target); /* checked when the value is put */
    else if (hold)
        lower__e_name(E, 0, hold);
    else
        lower__e_bind_target(E, target, decl);
    if (!priv)
        W(" = ");
    /* written from a closure before its declaration: __tdzSet(x, value, "x") */
    int tdz = !decl && !priv && !hold && target->kind == N_IDENT && target->op == 3 && target->x &&
              lower__e_tdz_checked(target->x);
    if (tdz) {
        W("__tdzSet(");
        lower__e_name(E, 0, ((struct binding *)target->x)->out);
        W(", ");
    }
    if (def) {
        struct lname *t = lower__e_tmp(E);
        W("(");
        lower__e_name(E, 0, t);
        W(" = ");
        e_value(E, v);
        W(") === void 0 ? ");
        if (target->kind == N_IDENT)
            E->name_hint = target->name;
        lower__e_expr(E, def);
        E->name_hint = NULL;
        W(" : ");
        lower__e_name(E, 0, t);
    } else {
        e_value(E, v);
    }
    if (tdz) {
        W(", \"");
        lower__e_tok(E, 0, target->name->s, target->name->len);
        W("\")");
    }
    if (priv)
        W(")");
    if (cst) {
        sep(E, first);
        W("__constErr(\"");
        lower__e_name(E, 0, target->name);
        W("\")");
    } else if (hold) {
        lower__e_pattern(E, target, hold, decl, first);
    }
}

static void object_pattern(struct emit *E, struct node *pat, struct lname *src, int decl, int *first)
{
    if (!pat->a) {
        /* {} = v still requires an object-coercible v */
        sep(E, first);
        lower__e_name(E, 0, lower__e_tmp(E));
        W(" = __oc(");
        lower__e_name(E, 0, src);
        W(")");
        return;
    }
    int has_rest = 0;
    for (struct node *e = pat->a; e; e = e->next)
        has_rest |= e->kind == N_REST;
    for (struct node *e = pat->a; e; e = e->next) {
        struct valref v;
        memset(&v, 0, sizeof v);
        v.src = src;
        if (e->kind == N_REST) {
            v.kind = V_REST;
            v.restpat = pat;
            bind_element(E, e->a, &v, decl, first);
            continue;
        }
        v.kind = V_MEMBER;
        v.key = e->a;
        v.computed = (e->flags & NF_COMPUTED) != 0;
        struct node *t = e->b;
        if (t->kind == N_ASSIGNPAT || (t->kind == N_ASSIGN && t->op == P_ASSIGN))
            t = t->a;
        while (t->kind == N_PAREN)
            t = t->a;
        if (v.computed && (has_rest || t->kind == N_MEMBER)) {
            /* the key (and before a member target, its ToPropertyKey) comes
             * before the target's reference */
            e->x = lower__e_tmp(E);
            sep(E, first);
            lower__e_name(E, 0, e->x);
            if (t->kind == N_MEMBER) {
                W(" = __pk(");
                lower__e_expr_loose(E, e->a);
                W(")");
            } else {
                W(" = ");
                lower__e_expr(E, e->a);
            }
            v.keytmp = e->x;
        } else {
            e->x = NULL;
        }
        bind_element(E, e->b, &v, decl, first);
    }
}

/* Can binding this element throw once its value is read (so the iterator
 * must be closed)? A default, a nested pattern, a member or an unknown or
 * constant name may; a declared name or a hole cannot. */
static int elem_may_throw(struct node *e, int decl)
{
    if (e->kind == N_HOLE)
        return 0;
    if (e->kind == N_REST)
        e = e->a;
    while (e->kind == N_PAREN)
        e = e->a;
    if (e->kind != N_IDENT)
        return 1;
    if (decl)
        return 0;
    return !e->x || lower__e_is_const_binding(e->x);
}

/* A statement-level expression the pattern discards: `$t = X` in a
 * declaration, X elsewhere. */
static void discard_open(struct emit *E, int decl, int *first)
{
    sep(E, first);
    if (decl) {
        lower__e_name(E, 0, lower__e_tmp(E));
        W(" = ");
    }
}

static void guard_add(struct emit *E, struct lname *rec)
{
    if (E->nguard_recs < (int)(sizeof E->guard_recs / sizeof E->guard_recs[0])) {
        E->guard_recs[E->nguard_recs].rec = rec;
        E->guard_recs[E->nguard_recs].fn = E->fn;
        E->nguard_recs++;
    }
}

/* `$k = ($r = __adi(SRC)) === SRC`, then each element from $r: by index when
 * $k (an array), else through __adv/__adr, and `$k || __adc($r)` closing an
 * iterator the pattern left open. SRC is the temporary src or, when src is
 * NULL, a temporary holding expr. */
static void array_pattern(struct emit *E, struct node *pat, struct lname *src, struct node *expr,
                          int decl, int *first)
{
    int rest = 0, risky = 0;
    for (struct node *e = pat->a; e; e = e->next) {
        rest |= e->kind == N_REST;
        risky |= elem_may_throw(e, decl);
    }
    if (!src) {
        src = lower__e_tmp(E);
        sep(E, first);
        lower__e_name(E, 0, src);
        W(" = ");
        lower__e_expr_loose(E, expr);
    }
    struct lname *rec = lower__e_tmp(E), *fast = lower__e_tmp(E);
    sep(E, first);
    lower__e_name(E, 0, fast);
    W(" = (");
    lower__e_name(E, 0, rec);
    W(" = __adi(");
    lower__e_name(E, 0, src);
    W(")) === ");
    lower__e_name(E, 0, src);
    if (risky)
        guard_add(E, rec);
    int i = 0;
    for (struct node *e = pat->a; e; e = e->next, i++) {
        struct valref v;
        memset(&v, 0, sizeof v);
        v.src = rec;
        v.fast = fast;
        v.index = i;
        if (e->kind == N_HOLE) {
            discard_open(E, decl, first);
            lower__e_name(E, 0, fast);
            W(" || __adv(");
            lower__e_name(E, 0, rec);
            W(")");
            continue;
        }
        if (e->kind == N_REST) {
            v.kind = V_SLICE;
            bind_element(E, e->a, &v, decl, first);
            continue;
        }
        v.kind = V_INDEX;
        bind_element(E, e, &v, decl, first);
    }
    if (!rest) {
        discard_open(E, decl, first);
        lower__e_name(E, 0, fast);
        W(" || __adc(");
        lower__e_name(E, 0, rec);
        W(")");
    }
}

void lower__e_guard_open(struct emit *E, struct lower_guard *g)
{
    g->off = E->out->len;
    g->base = E->nguard_recs;
    g->fn = E->fn;
}

void lower__e_guard_close(struct emit *E, struct lower_guard *g)
{
    int n = 0;
    for (int i = g->base; i < E->nguard_recs; i++)
        if (E->guard_recs[i].fn == g->fn)
            E->guard_recs[g->base + n++].rec = E->guard_recs[i].rec;
    E->nguard_recs = g->base;
    if (!n)
        return;
    lower__e_insert(E, g->off, " try { ");
    struct lname *err = lower__e_tmp_name(E);
    W(" } catch (");
    lower__e_name(E, 0, err);
    W(") { __adx(");
    lower__e_name(E, 0, err);
    for (int i = 0; i < n; i++) {
        W(", ");
        lower__e_name(E, 0, E->guard_recs[g->base + i].rec);
    }
    W("); }");
}

void lower__e_pattern(struct emit *E, struct node *pat, struct lname *src, int decl, int *first)
{
    lower__e_enter(E, pat);
    while (pat->kind == N_PAREN)
        pat = pat->a;
    switch (pat->kind) {
    case N_IDENT:
    case N_MEMBER:
        sep(E, first);
        lower__e_bind_target(E, pat, decl);
        W(" = ");
        lower__e_name(E, 0, src);
        break;
    case N_OBJPAT:
        object_pattern(E, pat, src, decl, first);
        break;
    case N_ARRPAT:
        array_pattern(E, pat, src, NULL, decl, first);
        break;
    case N_ASSIGNPAT: {
        struct lname *t = lower__e_tmp(E);
        sep(E, first);
        lower__e_name(E, 0, t);
        W(" = ");
        lower__e_name(E, 0, src);
        W(" === void 0 ? ");
        lower__e_expr(E, pat->b);
        W(" : ");
        lower__e_name(E, 0, src);
        lower__e_pattern(E, pat->a, t, decl, first);
        break;
    }
    default:
        lower__e_error(E, pat, "Invalid destructuring target");
    }
    lower__e_leave(E);
}

/* Does pattern pat bind (or assign) the name of binding b? */
static int pattern_names(struct node *pat, struct binding *b)
{
    if (!pat)
        return 0;
    switch (pat->kind) {
    case N_IDENT:
        return pat->x == b;
    case N_PAREN: case N_ASSIGNPAT: case N_REST:
        return pattern_names(pat->a, b);
    case N_ASSIGN:
        return pattern_names(pat->a, b);
    case N_ARRPAT:
        for (struct node *e = pat->a; e; e = e->next)
            if (pattern_names(e, b))
                return 1;
        return 0;
    case N_OBJPAT:
        for (struct node *e = pat->a; e; e = e->next)
            if (pattern_names(e->kind == N_REST ? e->a : e->b, b))
                return 1;
        return 0;
    }
    return 0;
}

/* The name an object pattern can read its properties from directly: a
 * declared name never assigned after its declaration, and not bound by the
 * pattern itself (`var {a, b} = a`). */
static struct lname *stable_source(struct node *expr, struct node *pat)
{
    while (expr->kind == N_PAREN)
        expr = expr->a;
    if (expr->kind != N_IDENT || expr->op == 1 || !expr->x)
        return NULL;
    struct binding *b = expr->x;
    if ((b->flags & (BF_REASSIGNED | BF_FRESH | BF_LOOPHEAD)) || b->headcopy ||
        pattern_names(pat, b))
        return NULL;
    return b->out;
}

void lower__e_pattern_from(struct emit *E, struct node *pat, struct node *expr, int decl,
                           int *first)
{
    while (pat->kind == N_PAREN)
        pat = pat->a;
    if (pat->kind == N_ARRPAT) {
        lower__e_enter(E, pat);
        array_pattern(E, pat, stable_source(expr, pat), expr, decl, first);
        lower__e_leave(E);
        return;
    }
    struct lname *src = pat->kind == N_OBJPAT ? stable_source(expr, pat) : NULL;
    if (!src) {
        src = lower__e_tmp(E);
        sep(E, first);
        lower__e_name(E, 0, src);
        W(" = ");
        lower__e_expr_loose(E, expr);
    }
    lower__e_pattern(E, pat, src, decl, first);
}

void lower__e_destructure_assign(struct emit *E, struct node *assign, int want_value)
{
    if (!want_value) {
        int first = 1;
        lower__e_tok(E, assign->line, "", 0);
        lower__e_pattern_from(E, assign->a, assign->b, 0, &first);
        return;
    }
    struct lname *t = lower__e_tmp(E);
    int first = 0;
    if (want_value)
        lower__e_tok(E, assign->line, "(", 1);
    lower__e_name(E, assign->line, t);
    W(" = ");
    lower__e_expr(E, assign->b);
    lower__e_pattern(E, assign->a, t, 0, &first);
    if (want_value) {
        W(", ");
        lower__e_name(E, 0, t);
        W(")");
    }
}
