/* Loop emission: for/while/do keep their shape; for(let...;;) with captured
 * bindings copies each binding into a fresh catch scope per iteration (and
 * back, in a finally, before the update); for-of is an inline loop with an
 * array fast path and the iterator protocol otherwise, closing the iterator
 * on break/return/throw; for await awaits next() in place. Labels stay on
 * the loop, inside any wrapper. No loop body is moved into a function. */
#include <stdio.h>
#include <string.h>

#include "sandbox/lower/emit.h"

#define W(s) lower__e_tok(E, 0, "" s, sizeof(s) - 1)

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

/* Does the expression create a closure (a function, arrow or class)? */
static int makes_closure(struct node *n)
{
    for (; n; n = n->next) {
        if (n->kind == N_FUNC || n->kind == N_CLASS)
            return 1;
        if (makes_closure(n->a) || makes_closure(n->b) || makes_closure(n->c) || makes_closure(n->d))
            return 1;
    }
    return 0;
}

/* try { throw i$ } catch (i) { try { BODY } finally { i$ = i } }
 * When the test or the update makes a closure, they run inside the copy too
 * (each iteration's binding is the one they capture, as the specification's
 * per-iteration environments have it): the update, skipped on the first
 * iteration (flag), then the test, then BODY. */
static void for_fresh_body(struct emit *E, struct node *n, struct lname *first)
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
    if (first) {
        W(" {");
        if (n->c) {
            W(" if (");
            lower__e_name(E, 0, first);
            W(") ");
            lower__e_expr(E, n->c);
            W("; else ");
        } else {
            W(" ");
        }
        lower__e_name(E, 0, first);
        W(" = 1;");
        if (n->b) {
            W(" if (!(");
            lower__e_expr(E, n->b);
            W(")) break;");
        }
        lower__e_stmt(E, n->d);
        W("}");
    } else if (n->d->kind == N_BLOCK) {
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
    struct lname *first = NULL;
    e_labels(E, labels, n);
    lower__e_tok(E, n->line, "for (", 5);
    if (fresh) {
        /* the head works on the copies */
        E->head_scope = n->x;
        struct scope *s = n->x;
        for (struct binding *b = s->first; b; b = b->next)
            if (b->flags & BF_FRESH)
                lower__e_tmp(E), E->fn->temps[E->fn->ntemps - 1] = b->headcopy;
        if (makes_closure(n->b) || makes_closure(n->c))
            first = lower__e_tmp(E);
    }
    /* a closure made in the initialiser keeps the bindings of the loop's first
     * environment, which no iteration's copy updates: the initialiser works on
     * its own variables, copied into the head copies after it */
    int init_closure = fresh && n->a && makes_closure(n->a);
    struct scope *hs = n->x;
    struct lname *saved[8];
    int nsaved = 0;
    if (init_closure) {
        for (struct binding *b = hs->first; b; b = b->next)
            if ((b->flags & BF_FRESH) && nsaved < 8) {
                saved[nsaved++] = b->headcopy;
                b->headcopy = lower__e_tmp(E);
            }
    }
    if (n->a) {
        if (n->a->kind == N_VAR)
            lower__e_var(E, n->a, 1);
        else
            lower__e_expr(E, n->a);
    }
    if (init_closure) {
        int i = 0;
        for (struct binding *b = hs->first; b; b = b->next)
            if ((b->flags & BF_FRESH) && i < nsaved) {
                W(", ");
                lower__e_name(E, 0, saved[i]);
                W(" = ");
                lower__e_name(E, 0, b->headcopy);
                b->headcopy = saved[i++];
            }
    }
    if (first) {
        W(", ");
        lower__e_name(E, 0, first);
        W(" = 0; ; ");
        E->head_scope = NULL;
        W(")");
        for_fresh_body(E, n, first);
        return;
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
        for_fresh_body(E, n, NULL);
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
    struct lower_guard guard;
    W(" ");
    lower__e_guard_open(E, &guard);
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
    } else if (left->kind == N_OBJPAT || left->kind == N_ARRPAT) {
        /* the pattern reads its source more than once: hold the value
         * (it may be the array fast path's $a[$i++]) */
        struct lname *t = lower__e_tmp(E);
        lower__e_name(E, 0, t);
        W(" = ");
        lower__e_name(E, 0, ia->value);
        first = 0;
        lower__e_pattern(E, left, t, 0, &first);
    } else {
        lower__e_expr(E, left);
        W(" = ");
        lower__e_name(E, 0, ia->value);
    }
    W(";");
    lower__e_guard_close(E, &guard);
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

/* for (LEFT of EXPR) BODY becomes, for sync iteration:
 *   $a = EXPR; $f = $a.__arr$ || ($a = __of($a), false);
 *   try { $L: do { for ($i = 0; $i < $a.length; ) { LEFT = $a[$i++]; BODY } }
 *         while (!$f && __more($a)); }
 *   finally { $f || __done($a); }
 * Arrays (marked by a non-enumerable Array.prototype.__arr$: a property read
 * costs Duktape a quarter of a native Array.isArray call) run as a plain
 * index loop with nothing added per iteration (an `||` in the condition
 * would cost 5% of a tight loop); __of returns array-likes (arguments) as
 * they are and wraps any other iterable in a record holding one value at a
 * time, refilled by __more when the inner loop has read it. A break that
 * leaves the loop becomes `break $L` (the label only exists then). The
 * record knows whether it may be closed (not once exhausted, nor when
 * next() threw). EXPR known to be an array (a literal, or a let/const
 * initialised with one and never assigned again) needs no test, no try:
 *   $a = [...]; for ($i = 0; $i < $a.length; ) { LEFT = $a[$i++]; BODY }
 *   for ($i = 0; $i < xs.length; ) { LEFT = xs[$i++]; BODY } */
struct of_state {
    struct iter_assign ia;
    struct lname *arr, *it, *idx, *tmp, *step, *flag;
    int is_await;
};

static void of_assign(struct emit *E, void *arg)
{
    struct of_state *o = arg;
    assign_left(E, &o->ia);
}

#define N(x) lower__e_name(E, 0, (x))

static struct lname *text_name(struct emit *E, const char *fmt, struct lname *a, struct lname *b)
{
    char buf[128];
    int k = snprintf(buf, sizeof buf, fmt, a->s, b ? b->s : "");
    struct lname *n = lower__arena_alloc(&E->cx->arena, sizeof *n + (size_t)k + 1);
    if (!n)
        lower__oom(E->cx);
    memcpy((char *)(n + 1), buf, (size_t)k);
    n->s = (char *)(n + 1);
    n->len = (uint32_t)k;
    return n;
}

/* for await: close the async iterator if it is still open */
static void of_close_await(struct emit *E, struct of_state *o, const char *await_)
{
    W(" if (");
    N(o->it);
    W(" !== null) { ");
    N(o->tmp);
    W(" = ");
    N(o->it);
    W("; ");
    N(o->it);
    W(" = null; ");
    lower__e_w(E, await_);
    W("__closeIter(");
    N(o->tmp);
    W(")); }");
}

/* for await: $it = __asyncIter(EXPR); loop while !($s = await $t.next()).done */
static void of_head_await(struct emit *E, struct node *n, struct of_state *o)
{
    N(o->it);
    W(" = __asyncIter(");
    lower__e_expr(E, n->b);
    W(");");
}

static void of_cond_await(struct emit *E, struct of_state *o, const char *await_)
{
    N(o->tmp);
    W(" = ");
    N(o->it);
    W(", ");
    N(o->it);
    W(" = null, !(");
    N(o->step);
    W(" = ");
    lower__e_w(E, await_);
    N(o->tmp);
    W(".next())).done && (");
    N(o->it);
    W(" = ");
    N(o->tmp);
    W(")");
}

static void e_forof_await(struct emit *E, struct node *n, struct node *labels)
{
    struct of_state o;
    memset(&o, 0, sizeof o);
    o.it = lower__e_tmp(E);
    o.tmp = lower__e_tmp(E);
    o.step = lower__e_tmp(E);
    o.ia.value = text_name(E, "%s.value", o.step, NULL);
    o.ia.left = n->a;
    const char *await_ = E->fn->is_agen ? "__agAwait(" : "__await(";
    lower__e_tok(E, n->line, "", 0);
    of_head_await(E, n, &o);
    W(" try { ");
    e_labels(E, labels, n);
    W("for (; ");
    of_cond_await(E, &o, await_);
    W("; ) ");
    e_body(E, n->d, of_assign, &o, n->x);
    int end = n->d->kind == N_BLOCK ? n->d->d->line : 0;
    lower__e_tok(E, end, " } finally {", 12);
    of_close_await(E, &o, await_);
    W(" }");
}

/* The binding of EXPR when it is a let/const holding the array literal it
 * was initialised with (never assigned again), else NULL. */
static struct binding *known_array_binding(struct node *expr)
{
    while (expr->kind == N_PAREN)
        expr = expr->a;
    if (expr->kind != N_IDENT || expr->op == 1 || !expr->x)
        return NULL;
    struct binding *b = expr->x;
    if ((b->flags & (BF_ARRAYINIT | BF_REASSIGNED | BF_FRESH | BF_LOOPHEAD)) != BF_ARRAYINIT)
        return NULL;
    return b->headcopy ? NULL : b;
}

static int is_array_literal(struct node *expr)
{
    while (expr->kind == N_PAREN)
        expr = expr->a;
    return expr->kind == N_ARRAY;
}

/* `for ($i = 0; $i < A.length; ) ` where A is the array's name */
static void of_index_loop(struct emit *E, struct node *n, struct node *labels, struct of_state *o,
                          struct lname *arr)
{
    e_labels(E, labels, n);
    W("for (");
    N(o->idx);
    W(" = 0; ");
    N(o->idx);
    W(" < ");
    N(arr);
    W(".length; ) ");
    o->ia.value = text_name(E, "%s[%s++]", arr, o->idx);
    o->ia.left = n->a;
    e_body(E, n->d, of_assign, o, n->x);
}

static int has_label(struct node *labels, struct node *loop, struct lname *name)
{
    for (struct node *l = labels; l && l != loop; l = l->a)
        if (l->name == name)
            return 1;
    return 0;
}

struct break_scan {
    struct node *labels, *loop;
    struct lname *brk;
    int count;
};

/* Marks (N_BREAK's y) the breaks in statement s that leave the loop:
 * unlabeled ones outside nested loops and switches, and those naming one of
 * its labels. Functions and classes are expressions here: not entered. */
static void mark_breaks(struct break_scan *bs, struct node *s, int nested)
{
    for (; s; s = NULL) {
        switch (s->kind) {
        case N_BREAK:
            if (s->name ? has_label(bs->labels, bs->loop, s->name) : !nested) {
                s->y = bs->brk;
                bs->count++;
            }
            return;
        case N_BLOCK:
            for (struct node *c = s->a; c; c = c->next)
                mark_breaks(bs, c, nested);
            return;
        case N_IF:
            mark_breaks(bs, s->b, nested);
            mark_breaks(bs, s->c, nested);
            return;
        case N_LABEL:
            mark_breaks(bs, s->a, nested);
            return;
        case N_WITH: case N_WHILE: case N_DOWHILE:
            mark_breaks(bs, s->b, nested || s->kind != N_WITH);
            return;
        case N_FOR: case N_FORIN: case N_FOROF:
            mark_breaks(bs, s->d, 1);
            return;
        case N_TRY:
            mark_breaks(bs, s->a, nested);
            mark_breaks(bs, s->c, nested);
            mark_breaks(bs, s->d, nested);
            return;
        case N_SWITCH:
            for (struct node *c = s->b; c; c = c->next)
                for (struct node *t = c->b; t; t = t->next)
                    mark_breaks(bs, t, 1);
            return;
        }
    }
}

static void e_forof(struct emit *E, struct node *n, struct node *labels)
{
    /* the loop with its set-up statements is one statement (in braces): it may be
     * the body of an if or a loop */
    if (n->flags & NF_AWAIT) {
        lower__e_tok(E, n->line, "{", 1);
        e_forof_await(E, n, labels);
        W("}");
        return;
    }
    struct of_state o;
    memset(&o, 0, sizeof o);
    o.idx = lower__e_tmp(E);
    lower__e_tok(E, n->line, "", 0);
    struct binding *known = known_array_binding(n->b);
    if (known) {
        of_index_loop(E, n, labels, &o, known->out);
        return;
    }
    o.arr = lower__e_tmp(E);
    W("{");
    N(o.arr);
    W(" = ");
    if (is_array_literal(n->b)) {
        lower__e_expr(E, n->b);
        W("; ");
        of_index_loop(E, n, labels, &o, o.arr);
        W("}");
        return;
    }
    /* a loop of the program's top level runs once: fewer tokens for Duktape
     * to compile matter more than three calls */
    int once = E->fn == E->root && E->fn->loops == 1;
    o.flag = once ? NULL : lower__e_tmp(E);
    struct break_scan bs = {labels, n, lower__e_tmp_name(E), 0};
    mark_breaks(&bs, n->d, 0);
    if (once) {
        W("__of(");
        lower__e_expr_loose(E, n->b);
        W("); try { ");
    } else {
        lower__e_expr(E, n->b);
        W("; ");
        N(o.flag);
        W(" = ");
        N(o.arr);
        W(".__arr$ || (");
        N(o.arr);
        W(" = __of(");
        N(o.arr);
        W("), false); try { ");
    }
    if (bs.count) {
        N(bs.brk);
        W(": ");
    }
    W("do { ");
    of_index_loop(E, n, labels, &o, o.arr);
    int end = n->d->kind == N_BLOCK ? n->d->d->line : 0;
    /* finally only: a catch clause costs Duktape more. A close that throws
     * during a throw completion therefore replaces the body's error (the
     * spec keeps the first). */
    if (once) {
        lower__e_tok(E, end, " } while (__more(", 17);
    } else {
        lower__e_tok(E, end, " } while (!", 11);
        N(o.flag);
        W(" && __more(");
    }
    N(o.arr);
    W(")); } finally { ");
    if (!once) {
        N(o.flag);
        W(" || ");
    }
    W("__done(");
    N(o.arr);
    W("); }}");
}

/* ---- while / do ------------------------------------------------------------------------ */

void lower__e_loop(struct emit *E, struct node *n, struct node *labels)
{
    lower__e_enter(E, n);
    E->fn->loops++;
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
    E->fn->loops--;
    lower__e_leave(E);
}
