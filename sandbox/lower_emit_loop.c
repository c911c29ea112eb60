/* Loop emission: for/while/do keep their shape; for(let...;;) with captured
 * bindings copies each binding into a fresh catch scope per iteration (and
 * back, in a finally, before the update); for-of is an inline loop with an
 * array fast path and the iterator protocol otherwise, closing the iterator
 * on break/return/throw; for await awaits next() in place. Labels stay on
 * the loop, inside any wrapper. No loop body is moved into a function. */
#include <string.h>

#include "sandbox/lower_emit.h"

#define W(s) lower__e_w(E, (s))

static void e_labels(struct emit *E, struct node *labels, struct node *loop)
{
    for (struct node *l = labels; l && l != loop; l = l->a) {
        lower__e_name(E, l->line, l->name);
        W(": ");
    }
}

/* The body of a loop; a block keeps its braces and fresh scopes. */
static void e_body(struct emit *E, struct node *body, void (*pre)(struct emit *, void *), void *arg,
                   struct scope *iter_scope)
{
    int line = body->line;
    lower__e_tok(E, line, "{", 1);
    lower__e_fresh_open(E, iter_scope, line);
    if (pre)
        pre(E, arg);
    if (body->kind == N_BLOCK) {
        lower__e_block_body(E, body, NULL);
        lower__e_fresh_close(E, iter_scope, body->d->line);
        lower__e_tok(E, body->d->line, "}", 1);
    } else {
        lower__e_stmt(E, body);
        lower__e_fresh_close(E, iter_scope, 0);
        W("}");
    }
}

/* ---- for (;;) -------------------------------------------------------------------- */

static int head_has_fresh(struct node *n)
{
    struct scope *s = n->x;
    return s && s->has_fresh;
}

struct copyback {
    struct scope *s;
};

/* try { throw i$ } catch (i) { try { BODY } finally { i$ = i } } */
static void for_fresh_body(struct emit *E, struct node *n)
{
    struct scope *s = n->x;
    int line = n->d->line;
    lower__e_tok(E, line, "{", 1);
    for (struct binding *b = s->first; b; b = b->next) {
        if (!(b->flags & BF_FRESH))
            continue;
        W(" try { throw ");
        lower__e_name(E, 0, b->headcopy);
        W("; } catch (");
        lower__e_name(E, 0, b->out);
        W(") {");
    }
    E->fn->catch_depth++;
    W(" try");
    if (n->d->kind == N_BLOCK) {
        lower__e_tok(E, n->d->line, "{", 1);
        lower__e_block_body(E, n->d, NULL);
        lower__e_tok(E, n->d->d->line, "}", 1);
    } else {
        W(" {");
        lower__e_stmt(E, n->d);
        W("}");
    }
    W(" finally {");
    for (struct binding *b = s->first; b; b = b->next) {
        if (!(b->flags & BF_FRESH))
            continue;
        W(" ");
        lower__e_name(E, 0, b->headcopy);
        W(" = ");
        lower__e_name(E, 0, b->out);
        W(";");
    }
    W(" }");
    for (struct binding *b = s->first; b; b = b->next)
        if (b->flags & BF_FRESH)
            W(" }");
    E->fn->catch_depth--;
    W(" }");
}

static void e_for(struct emit *E, struct node *n, struct node *labels)
{
    int fresh = head_has_fresh(n);
    e_labels(E, labels, n);
    lower__e_tok(E, n->line, "for (", 5);
    if (fresh) {
        /* the head works on the copies */
        E->head_scope = n->x;
        struct scope *s = n->x;
        for (struct binding *b = s->first; b; b = b->next)
            if (b->flags & BF_FRESH)
                lower__e_tmp(E), E->fn->temps[E->fn->ntemps - 1] = b->headcopy;
    }
    if (n->a) {
        if (n->a->kind == N_VAR)
            lower__e_var(E, n->a, 1);
        else
            lower__e_expr(E, n->a);
    }
    W("; ");
    if (n->b)
        lower__e_expr(E, n->b);
    W("; ");
    if (n->c)
        lower__e_expr(E, n->c);
    W(")");
    if (fresh) {
        E->head_scope = NULL;
        for_fresh_body(E, n);
        return;
    }
    lower__e_stmt(E, n->d);
}

/* ---- for-in ------------------------------------------------------------------------ */

struct iter_assign {
    struct node *left;
    struct lname *value; /* temp holding the iteration value */
    struct node *valexpr_it; /* unused */
};

/* `left = value` at the top of each iteration (declaration or target). */
static void assign_left(struct emit *E, void *arg)
{
    struct iter_assign *ia = arg;
    struct node *left = ia->left;
    int first = 1;
    W(" ");
    if (left->kind == N_VAR) {
        /* a one-declarator declaration initialised from the temp */
        struct node var = *left, decl = *left->a, val;
        memset(&val, 0, sizeof val);
        val.kind = N_IDENT;
        val.name = ia->value;
        decl.b = &val;
        decl.next = NULL;
        var.a = &decl;
        lower__e_var(E, &var, 1);
    } else if (left->kind == N_ARRPAT || left->kind == N_OBJPAT) {
        lower__e_pattern(E, left, ia->value, 0, &first);
    } else {
        lower__e_expr(E, left);
        W(" = ");
        lower__e_name(E, 0, ia->value);
    }
    W(";");
}

static int simple_var_head(struct node *left)
{
    if (left->kind != N_VAR || left->a->a->kind != N_IDENT)
        return 0;
    struct binding *b = left->a->a->x;
    return !b || !(b->flags & BF_FRESH);
}

static void e_forin(struct emit *E, struct node *n, struct node *labels)
{
    e_labels(E, labels, n);
    lower__e_tok(E, n->line, "for (", 5);
    if (simple_var_head(n->a)) {
        struct node *t = n->a->a->a;
        struct binding *b = t->x;
        W("var ");
        lower__e_name(E, t->line, b ? b->out : t->name);
        W(" in ");
        lower__e_expr(E, n->b);
        W(")");
        lower__e_stmt(E, n->d);
        return;
    }
    if (n->a->kind == N_IDENT || n->a->kind == N_MEMBER || n->a->kind == N_PAREN) {
        lower__e_expr(E, n->a);
        W(" in ");
        lower__e_expr(E, n->b);
        W(")");
        lower__e_stmt(E, n->d);
        return;
    }
    struct iter_assign ia = { n->a, lower__e_tmp(E), NULL };
    lower__e_name(E, 0, ia.value);
    W(" in ");
    lower__e_expr(E, n->b);
    W(")");
    e_body(E, n->d, assign_left, &ia, n->x);
}

/* ---- for-of ------------------------------------------------------------------------- */

struct of_state {
    struct iter_assign ia;
    struct lname *arr, *it, *idx, *step, *st;
    int is_await;
};

static void of_assign(struct emit *E, void *arg)
{
    struct of_state *o = arg;
    W(" ");
    lower__e_name(E, 0, o->ia.value);
    W(" = ");
    if (o->is_await) {
        lower__e_name(E, 0, o->step);
        W(".value;");
    } else {
        lower__e_name(E, 0, o->it);
        W(" ? ");
        lower__e_name(E, 0, o->step);
        W(".value : ");
        lower__e_name(E, 0, o->arr);
        W("[");
        lower__e_name(E, 0, o->idx);
        W("++];");
    }
    assign_left(E, &o->ia);
}

#define N(x) lower__e_name(E, 0, (x))

static void e_forof(struct emit *E, struct node *n, struct node *labels)
{
    struct of_state o;
    memset(&o, 0, sizeof o);
    o.is_await = (n->flags & NF_AWAIT) != 0;
    o.ia.left = n->a;
    o.ia.value = lower__e_tmp(E);
    o.arr = lower__e_tmp(E);
    o.it = lower__e_tmp(E);
    o.idx = lower__e_tmp(E);
    o.step = lower__e_tmp(E);
    o.st = lower__e_tmp(E);
    struct lname *exc = lower__e_tmp(E);
    const char *await_ = E->fn->is_agen ? "__agAwait(" : "__await(";
    /* $arr = EXPR; $it = __iter($arr) (null for arrays); $st: 0 while a
     * value is being processed (the iterator must be closed on exit) */
    lower__e_tok(E, n->line, "", 0);
    N(o.arr);
    W(" = ");
    lower__e_expr(E, n->b);
    W("; ");
    N(o.it);
    W(o.is_await ? " = __asyncIter(" : " = __iter(");
    N(o.arr);
    W("); ");
    N(o.idx);
    W(" = 0; ");
    N(o.st);
    W(" = 1; try { ");
    e_labels(E, labels, n);
    W("for (; ");
    if (o.is_await) {
        W("(");
        N(o.st);
        W(" = 1, !(");
        N(o.step);
        W(" = ");
        W(await_);
        N(o.it);
        W(".next())).done && !(");
        N(o.st);
        W(" = 0)); ) ");
    } else {
        N(o.it);
        W(" ? (");
        N(o.st);
        W(" = 1, !(");
        N(o.step);
        W(" = ");
        N(o.it);
        W(".next()).done && !(");
        N(o.st);
        W(" = 0)) : ");
        N(o.idx);
        W(" < ");
        N(o.arr);
        W(".length; ) ");
    }
    e_body(E, n->d, of_assign, &o, n->x);
    int end = n->d->kind == N_BLOCK ? n->d->d->line : 0;
    lower__e_tok(E, end, " } catch (", 10);
    N(exc);
    W(") { if (");
    N(o.st);
    W(" === 0 && ");
    N(o.it);
    W(") { ");
    N(o.st);
    W(" = 1; ");
    if (o.is_await) {
        W("try { ");
        W(await_);
        W("__closeIter(");
        N(o.it);
        W(")); } catch (");
        N(o.idx);
        W(") {} ");
    } else {
        W("__closeIterQuiet(");
        N(o.it);
        W("); ");
    }
    W("} throw ");
    N(exc);
    W("; } finally { if (");
    N(o.st);
    W(" === 0 && ");
    N(o.it);
    W(") { ");
    N(o.st);
    W(" = 1; ");
    if (o.is_await) {
        W(await_);
        W("__closeIter(");
        N(o.it);
        W("));");
    } else {
        W("__closeIter(");
        N(o.it);
        W(");");
    }
    W(" } }");
}

/* ---- while / do ------------------------------------------------------------------------ */

void lower__e_loop(struct emit *E, struct node *n, struct node *labels)
{
    lower__e_enter(E, n);
    switch (n->kind) {
    case N_FOR:
        e_for(E, n, labels);
        break;
    case N_FORIN:
        e_forin(E, n, labels);
        break;
    case N_FOROF:
        e_forof(E, n, labels);
        break;
    case N_WHILE:
        e_labels(E, labels, n);
        lower__e_tok(E, n->line, "while (", 7);
        lower__e_expr(E, n->a);
        W(")");
        lower__e_stmt(E, n->b);
        break;
    case N_DOWHILE:
        e_labels(E, labels, n);
        lower__e_tok(E, n->line, "do", 2);
        lower__e_stmt(E, n->b);
        W(" while (");
        lower__e_expr(E, n->a);
        W(");");
        break;
    }
    lower__e_leave(E);
}
