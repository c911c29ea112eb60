/* Expression emission: identifiers through their bindings, this/arguments
 * captures, literals (numeric separators, U+2028 in strings, templates
 * split per line), spread in calls/arrays/new, object spread, optional
 * chains with temporaries, ??, logical assignment, await and yield. */
#include <stdio.h>
#include <string.h>

#include "sandbox/lower/emit.h"

#define W(s) lower__e_tok(E, 0, "" s, sizeof(s) - 1)

static struct subst *find_subst(struct emit *E, struct node *n);
static void e_optchain(struct emit *E, struct node *oc, int is_delete, struct lname *this_out,
                       int loose);

/* Arguments, or the operands of a comma sequence. */
static void e_list(struct emit *E, struct node *first)
{
    for (struct node *a = first; a; a = a->next) {
        if (a != first)
            W(", ");
        lower__e_expr_loose(E, a);
    }
}

/* ---- names ------------------------------------------------------------------- */

void lower__e_ident(struct emit *E, struct node *n)
{
    struct binding *b = n->x;
    if (E->enum_node && lower__e_enum_member_ref(E, n))
        return;
    if (b && n->kind == N_IDENT && n->op == 1) {
        lower__e_tok(E, n->line, "__tdz(\"", 7);
        lower__e_tok(E, 0, n->name->s, n->name->len);
        W("\")");
        return;
    }
    if (b && n->op == 2 && lower__e_tdz_checked(b)) {
        /* (x === __TDZ ? __tdz("x") : x) */
        lower__e_tok(E, n->line, "(", 1);
        lower__e_name(E, 0, b->out);
        W(" === __TDZ ? __tdz(\"");
        lower__e_tok(E, 0, n->name->s, n->name->len);
        W("\") : ");
        lower__e_name(E, 0, b->out);
        W(")");
        return;
    }
    if (b) {
        if (b->headcopy && E->head_scope == b->scope)
            lower__e_name(E, n->line, b->headcopy);
        else
            lower__e_name(E, n->line, b->out);
        return;
    }
    struct funcinfo *o = n->y;
    /* once captured, every use reads the capture: inside an async or
     * generator body the native `arguments` is a copy */
    if (o && n->name->kw == KW_ARGUMENTS && o->args_name) {
        lower__e_name(E, n->line, o->args_name);
        return;
    }
    lower__e_name(E, n->line, n->name);
}

void lower__e_this(struct emit *E, struct node *n)
{
    struct funcinfo *o = n->y;
    if (o && (o->flags & FI_DERIVED_CTOR) && o->this_name) {
        /* before the constructor's first super() statement: a ReferenceError
         * while this is not bound */
        int checked = n->pos < o->this_ok_pos;
        if (checked)
            lower__e_tok(E, n->line, "__thisInit(", 11);
        lower__e_name(E, n->line, o->this_name);
        if (checked)
            W(")");
        return;
    }
    if (!o || o == E->fn->owner || !o->this_name) {
        lower__e_tok(E, n->line, "this", 4);
        return;
    }
    lower__e_name(E, n->line, o->this_name);
}

static void e_newtarget(struct emit *E, struct node *n)
{
    struct funcinfo *o = n->y;
    if (o && o != E->fn->owner && o->nt_name)
        lower__e_name(E, n->line, o->nt_name);
    else
        lower__e_tok(E, n->line, "new.target", 10);
}

/* ---- members and calls --------------------------------------------------------------- */

static struct subst *find_subst(struct emit *E, struct node *n)
{
    for (int i = E->nsubst - 1; i >= 0; i--)
        if (E->subst[i].n == n)
            return &E->subst[i];
    return NULL;
}

static struct lname *private_name(struct emit *E, struct node *privname)
{
    struct node *m = privname->y;
    if (!m && E->cx->mode == LOWER_MODE_EVAL)
        return lower__e_eval_private(E, privname->name);
    if (!m || !m->x)
        lower__e_error(E, privname, "Internal error: private name without a class");
    return m->x;
}

void lower__e_member_suffix(struct emit *E, struct node *m)
{
    if (m->flags & NF_PRIVATE) {
        W("[");
        lower__e_name(E, m->b->line, private_name(E, m->b));
        W("]");
    } else if (m->flags & NF_COMPUTED) {
        W("[");
        lower__e_expr_loose(E, m->b);
        W("]");
    } else {
        lower__e_dot(E, m->b->line, m->b->name);
    }
}

static void e_member(struct emit *E, struct node *n)
{
    struct subst *s = find_subst(E, n);
    if (s && s->kind == SUB_TEMP) {
        lower__e_name(E, n->line, s->t);
        return;
    }
    if (n->a->kind == N_SUPER) {
        lower__e_super_member(E, n, 0);
        return;
    }
    E->raw_target = 0;
    if (n->flags & NF_PRIVATE) {
        /* o.#x: the element must be o's own (its class installed it), for any use:
         * read, write, call (this is o), update, destructuring target */
        lower__e_tok(E, n->line, "__pchk(", 7);
        lower__e_expr(E, n->a);
        W(", ");
        lower__e_name(E, 0, private_name(E, n->b));
        W(")");
        lower__e_member_suffix(E, n);
        return;
    }
    lower__e_expr(E, n->a);
    lower__e_member_suffix(E, n);
}

void lower__e_private_set_open(struct emit *E, struct node *m)
{
    lower__e_tok(E, m->line, "__pset(", 7);
    lower__e_expr(E, m->a);
    W(", ");
    lower__e_name(E, 0, private_name(E, m->b));
    W(", ");
}

/* The object of member m, checked (__pchk) when m is o.#x; the caller writes the suffix. */
static void e_private_base(struct emit *E, struct node *m)
{
    if (!(m->flags & NF_PRIVATE)) {
        lower__e_expr(E, m->a);
        return;
    }
    lower__e_tok(E, m->line, "__pchk(", 7);
    lower__e_expr(E, m->a);
    W(", ");
    lower__e_name(E, 0, private_name(E, m->b));
    W(")");
}

static void e_call_args(struct emit *E, struct node *first, int with_comma)
{
    if (first && with_comma)
        W(", ");
    e_list(E, first);
}

static void e_super_call(struct emit *E, struct node *n)
{
    struct eclass *c = E->cls;
    struct funcinfo *o = n->a->y;
    if (!c || !c->super || !o || !(o->flags & FI_DERIVED_CTOR))
        lower__e_error(E, n, "'super' keyword unexpected here");
    /* when an arrow may call super(), or it is called in two places, a second
     * call throws (after it ran) */
    int checked = ((o->flags & FI_USES_THIS) && o->raw_this_name) || o->super_calls > 1;
    lower__e_tok(E, n->line, "(", 1);
    lower__e_name(E, 0, o->this_name);
    W(" = ");
    if (checked) {
        W("__superOnce(");
        lower__e_name(E, 0, o->this_name);
        W(", ");
    } else {
        W("__super(");
    }
    lower__e_name(E, 0, c->super);
    W(", ");
    if (o == E->fn->owner || !o->raw_this_name)
        W("this");
    else
        lower__e_name(E, 0, o->raw_this_name);
    W(", ");
    lower__e_args_array(E, n->b, n->line);
    W(")");
    for (struct node *prm = c->ctor ? c->ctor->b : NULL; prm; prm = prm->next) {
        if (!(prm->flags & NF_PARAMPROP))
            continue;
        struct node *id = prm->kind == N_ASSIGNPAT ? prm->a : prm;
        W(", ");
        lower__e_name(E, 0, o->this_name);
        lower__e_dot(E, 0, id->name);
        W(" = ");
        lower__e_name(E, 0, id->x ? ((struct binding *)id->x)->out : id->name);
    }
    if (c->init) {
        W(", ");
        lower__e_name(E, 0, c->init);
        W(".call(");
        lower__e_name(E, 0, o->this_name);
        W(")");
    }
    W(", ");
    lower__e_name(E, 0, o->this_name);
    W(")");
}

/* eval(code, ...) where eval is not a binding of the program: the global
 * eval, called directly (its code sees the caller's scope). */
static int is_direct_eval(const struct node *call)
{
    const struct node *c = call->a;
    return c->kind == N_IDENT && !c->x && call->b && c->name->len == 4 &&
           memcmp(c->name->s, "eval", 4) == 0;
}

static void e_call(struct emit *E, struct node *n)
{
    struct subst *s = find_subst(E, n);
    struct node *callee = n->a;
    int spread = lower__has_spread(n->b);
    if (s && s->kind == SUB_CALLTHIS) {
        lower__e_name(E, n->line, s->t);
        if (spread) {
            W(".apply(");
            lower__e_name(E, 0, s->o);
            W(", ");
            lower__e_args_array(E, n->b, n->line);
        } else {
            W(".call(");
            lower__e_name(E, 0, s->o);
            e_call_args(E, n->b, 1);
        }
        W(")");
        return;
    }
    if (callee->kind == N_SUPER) {
        e_super_call(E, n);
        return;
    }
    if (callee->kind == N_MEMBER && !find_subst(E, callee) && callee->a->kind == N_SUPER) {
        lower__e_super_member(E, callee, 1);
        lower__e_w(E, spread ? ".apply(" : ".call(");
        {
            struct node t = *callee->a;
            t.kind = N_THIS;
            lower__e_this(E, &t);
        }
        if (spread) {
            W(", ");
            lower__e_args_array(E, n->b, n->line);
        } else {
            e_call_args(E, n->b, 1);
        }
        W(")");
        return;
    }
    struct node *inner = callee;
    while (inner->kind == N_PAREN)
        inner = inner->a;
    if (inner != callee && inner->kind == N_OPTCHAIN && inner->a->kind == N_MEMBER) {
        struct lname *t = lower__e_tmp(E);
        e_optchain(E, inner, 0, t, 0);
        lower__e_w(E, spread ? ".apply(" : ".call(");
        lower__e_name(E, 0, t);
        if (spread) {
            W(", ");
            lower__e_args_array(E, n->b, n->line);
        } else {
            e_call_args(E, n->b, 1);
        }
        W(")");
        return;
    }
    if (!spread) {
        lower__e_expr(E, callee);
        W("(");
        if (is_direct_eval(n)) {
            /* the code is lowered at run time; the call stays a direct eval */
            struct eval_info *info = n->y;
            /* eval((__evalSuper = S, __evalCode(code, ..., "s"))) */
            int super_ok = info && lower__e_eval_super(E, info->owner);
            int paren = super_ok;
            /* the #names of the classes around it: (__evalPriv_m = $3, ...) */
            int npriv = 0, cap = 0;
            for (struct eclass *k = E->cls; k; k = k->parent)
                for (struct node *m = k->node->c; m; m = m->next)
                    cap += (m->flags & NF_PRIVATE) != 0;
            struct node **privs = cap ? lower__arena_alloc(&E->cx->arena, sizeof *privs * (size_t)cap) : NULL;
            if (cap && !privs)
                lower__oom(E->cx);
            for (struct eclass *k = E->cls; k; k = k->parent) {
                for (struct node *m = k->node->c; m; m = m->next) {
                    if (!(m->flags & NF_PRIVATE) || !m->x)
                        continue;
                    /* an inner class's #name hides an outer one's */
                    int seen = 0;
                    for (int q = 0; q < npriv && !seen; q++)
                        seen = privs[q]->a->name == m->a->name;
                    if (seen)
                        continue;
                    privs[npriv++] = m;
                    if (!paren) {
                        W("(");
                        paren = 1;
                    }
                    lower__e_name(E, 0, lower__e_eval_private(E, m->a->name));
                    W(" = ");
                    lower__e_name(E, 0, m->x);
                    W(", ");
                    /* declared in the caller, so the code sees it */
                    lower__e_tmp(E);
                    E->fn->temps[E->fn->ntemps - 1] = lower__e_eval_private(E, m->a->name);
                }
            }
            W("__evalCode(");
            lower__e_expr_loose(E, n->b);
            /* the names its vars must not redeclare; what it may use: "s" super.x,
             * "a" no arguments (a class field initialiser or static block), then
             * the #names it may use */
            int no_args = info && info->owner && (info->owner->flags & FI_CLASS_INIT);
            if (info && (info->lexicals || paren || no_args || npriv)) {
                const char *sep = ", [\"";
                for (struct name_link *l = info->lexicals; l; l = l->next) {
                    lower__e_w(E, sep);
                    lower__e_tok(E, 0, l->name->s, l->name->len);
                    sep = "\", \"";
                }
                if (info->lexicals)
                    W("\"]");
                else
                    W(", null");
                if (super_ok && no_args)
                    W(", \"sa");
                else if (super_ok)
                    W(", \"s");
                else if (no_args)
                    W(", \"a");
                else
                    W(", \"-");
                for (int q = 0; q < npriv; q++) {
                    W(" #");
                    lower__e_tok(E, 0, privs[q]->a->name->s, privs[q]->a->name->len);
                }
                W("\"");
            }
            W(")");
            if (paren)
                W(")");
            e_call_args(E, n->b->next, 1);
        } else {
            e_call_args(E, n->b, 0);
        }
        W(")");
        return;
    }
    if (callee->kind == N_MEMBER && !find_subst(E, callee)) {
        struct lname *t = lower__e_tmp(E);
        lower__e_tok(E, n->line, "(", 1);
        lower__e_name(E, 0, t);
        W(" = ");
        e_private_base(E, callee);
        W(")");
        lower__e_member_suffix(E, callee);
        W(".apply(");
        lower__e_name(E, 0, t);
        W(", ");
    } else {
        lower__e_expr(E, callee);
        W(".apply(void 0, ");
    }
    lower__e_args_array(E, n->b, n->line);
    W(")");
}

static void e_new(struct emit *E, struct node *n)
{
    if (lower__has_spread(n->b)) {
        lower__e_tok(E, n->line, "__construct(", 12);
        lower__e_expr(E, n->a);
        W(", ");
        lower__e_args_array(E, n->b, n->line);
        W(")");
        return;
    }
    lower__e_tok(E, n->line, "new", 3);
    W(" ");
    lower__e_expr(E, n->a);
    W("(");
    e_call_args(E, n->b, 0);
    W(")");
}

/* ---- optional chains ------------------------------------------------------------------- */

/* A declared name (not a global: reading one twice has no effect). */
static int is_simple_ref(struct node *n)
{
    return n->kind == N_IDENT && n->x != NULL;
}

static void push_subst(struct emit *E, struct node *n, int kind, struct lname *t, struct lname *o)
{
    if (E->nsubst >= 64)
        lower__e_error(E, n, "Optional chain too long");
    struct subst *s = &E->subst[E->nsubst++];
    s->n = n;
    s->kind = kind;
    s->t = t;
    s->o = o;
}

static void e_optchain(struct emit *E, struct node *oc, int is_delete, struct lname *this_out,
                       int loose)
{
    struct node *ops[64];
    int k = 0;
    for (struct node *n = oc->a; n->kind == N_MEMBER || n->kind == N_CALL; n = n->a) {
        if (k >= 64)
            lower__e_error(E, oc, "Optional chain too long");
        ops[k++] = n;
    }
    int saved = E->nsubst;
    lower__e_tok(E, oc->line, "(", loose ? 0 : 1);
    for (int i = k - 1; i >= 0; i--) {
        struct node *op = ops[i];
        if (!(op->flags & NF_OPTIONAL))
            continue;
        struct node *prev = op->a;
        /* (a.b)?.(): a parenthesised member keeps its reference, so this is a */
        struct node *callee = prev;
        while (op->kind == N_CALL && callee->kind == N_PAREN)
            callee = callee->a;
        if (op->kind == N_CALL && callee->kind == N_MEMBER && callee->a->kind != N_SUPER) {
            prev = callee;
            struct lname *to = lower__e_tmp(E), *tf = lower__e_tmp(E);
            W("(");
            lower__e_name(E, 0, to);
            W(" = ");
            lower__e_expr(E, prev->a);
            W(", ");
            lower__e_name(E, 0, tf);
            W(" = ");
            if (prev->flags & NF_PRIVATE) {
                /* o.#m?.(): the checked read (a method is the function itself) */
                push_subst(E, prev->a, SUB_TEMP, to, NULL);
                lower__e_expr(E, prev);
            } else {
                lower__e_name(E, 0, to);
                lower__e_member_suffix(E, prev);
            }
            W(") == null ? ");
            lower__e_w(E, is_delete ? "true" : "void 0");
            W(" : ");
            push_subst(E, op, SUB_CALLTHIS, tf, to);
        } else if (op->kind == N_CALL && callee->kind == N_MEMBER) {
            /* super.m?.(): called with this */
            struct lname *to = lower__e_tmp(E), *tf = lower__e_tmp(E);
            struct node th = *callee->a;
            th.kind = N_THIS;
            W("(");
            lower__e_name(E, 0, to);
            W(" = ");
            lower__e_this(E, &th);
            W(", ");
            lower__e_name(E, 0, tf);
            W(" = ");
            lower__e_expr(E, callee);
            W(") == null ? ");
            lower__e_w(E, is_delete ? "true" : "void 0");
            W(" : ");
            push_subst(E, op, SUB_CALLTHIS, tf, to);
        } else if (op->kind == N_CALL && callee->kind == N_OPTCHAIN &&
                   callee->a->kind == N_MEMBER && callee->a->a->kind != N_SUPER) {
            /* (a?.b)?.(): the inner chain's object is this too */
            struct lname *to = lower__e_tmp(E), *tf = lower__e_tmp(E);
            W("(");
            lower__e_name(E, 0, tf);
            W(" = ");
            e_optchain(E, callee, 0, to, 0);
            W(") == null ? ");
            lower__e_w(E, is_delete ? "true" : "void 0");
            W(" : ");
            push_subst(E, op, SUB_CALLTHIS, tf, to);
        } else if (is_simple_ref(prev)) {
            /* a declared name reads the same twice: no temporary */
            lower__e_expr(E, prev);
            W(" == null ? ");
            lower__e_w(E, is_delete ? "true" : "void 0");
            W(" : ");
        } else {
            struct lname *t = lower__e_tmp(E);
            W("(");
            lower__e_name(E, 0, t);
            W(" = ");
            lower__e_expr_loose(E, prev);
            W(") == null ? ");
            lower__e_w(E, is_delete ? "true" : "void 0");
            W(" : ");
            push_subst(E, prev, SUB_TEMP, t, NULL);
        }
    }
    if (is_delete)
        W("delete ");
    if (this_out && oc->a->kind == N_MEMBER) {
        /* (a?.b)(): the call keeps a as this */
        W("(");
        lower__e_name(E, 0, this_out);
        W(" = ");
        e_private_base(E, oc->a);
        W(")");
        lower__e_member_suffix(E, oc->a);
    } else {
        lower__e_expr(E, oc->a);
    }
    if (!loose)
        W(")");
    E->nsubst = saved;
}

/* ---- operators ------------------------------------------------------------------------------ */

static const char *binop_text(int op)
{
    if (op == 200)
        return "in";
    if (op == 201)
        return "instanceof";
    return lower__punct_text[op];
}

static void e_nullish(struct emit *E, struct node *n, int loose)
{
    lower__e_tok(E, n->line, "(", loose ? 0 : 1);
    if (is_simple_ref(n->a)) {
        lower__e_expr(E, n->a);
        W(" != null ? ");
        lower__e_expr(E, n->a);
    } else {
        struct lname *t = lower__e_tmp(E);
        W("(");
        lower__e_name(E, 0, t);
        W(" = ");
        lower__e_expr_loose(E, n->a);
        W(") != null ? ");
        lower__e_name(E, 0, t);
    }
    W(" : ");
    lower__e_expr(E, n->b);
    if (!loose)
        W(")");
}

static void e_const_error(struct emit *E, struct node *target)
{
    W(", __constErr(\"");
    lower__e_name(E, 0, target->name);
    W("\"))");
}

static int is_const_target(struct node *t)
{
    while (t->kind == N_PAREN)
        t = t->a;
    return t->kind == N_IDENT && lower__e_is_const_binding(t->x);
}

/* a ??= b, a ||= b, a &&= b: assign only when needed. */
struct la_target {
    struct node *t;
    struct lname *obj, *key; /* temporaries, or NULL when the expression reads the same twice */
};

/* The member a logical assignment reads and writes: obj[key], obj.name */
static void e_la_member(struct emit *E, const struct la_target *lt)
{
    if (lt->t->flags & NF_PRIVATE)
        W("__pchk(");
    if (lt->obj)
        lower__e_name(E, 0, lt->obj);
    else
        lower__e_expr(E, lt->t->a);
    if (lt->t->flags & NF_PRIVATE) {
        W(", ");
        lower__e_name(E, 0, private_name(E, lt->t->b));
        W(")");
    }
    if (lt->key) {
        W("[");
        lower__e_name(E, 0, lt->key);
        W("]");
    } else {
        lower__e_member_suffix(E, lt->t);
    }
}

static int reads_same_twice(struct node *n)
{
    return is_simple_ref(n) || n->kind == N_THIS || n->kind == N_STR || n->kind == N_NUM;
}

/* `($o = obj, $k = key, $c = $o[$k])`; the temporaries for obj and key only
 * when they are not plain names (both read once, as the spec has it). */
static void e_la_head(struct emit *E, struct la_target *lt, struct lname *cur)
{
    struct node *t = lt->t;
    W("(");
    if (!reads_same_twice(t->a)) {
        lt->obj = lower__e_tmp(E);
        lower__e_name(E, 0, lt->obj);
        W(" = ");
        lower__e_expr_loose(E, t->a);
        W(", ");
    }
    if ((t->flags & NF_COMPUTED) && !reads_same_twice(t->b)) {
        lt->key = lower__e_tmp(E);
        lower__e_name(E, 0, lt->key);
        W(" = ");
        lower__e_expr_loose(E, t->b);
        W(", ");
    }
    lower__e_name(E, 0, cur);
    W(" = ");
    e_la_member(E, lt);
    W(")");
}

static void e_logical_assign(struct emit *E, struct node *n, int loose)
{
    struct node *t = n->a;
    while (t->kind == N_PAREN)
        t = t->a;
    lower__e_tok(E, n->line, "(", loose ? 0 : 1);
    struct la_target lt = {t, NULL, NULL};
    struct lname *cur = NULL;
    if (t->kind == N_MEMBER) {
        cur = lower__e_tmp(E);
        e_la_head(E, &lt, cur);
    } else {
        lower__e_expr(E, t);
    }
    if (n->op == P_NULLISH_EQ)
        W(" != null ? ");
    else
        W(" ? ");
    int assign_first = n->op == P_AND_EQ;
    if (!assign_first) {
        if (cur)
            lower__e_name(E, 0, cur);
        else
            lower__e_expr(E, t);
        W(" : ");
    }
    W("(");
    if (cur)
        e_la_member(E, &lt);
    else
        lower__e_expr(E, t);
    if (is_const_target(t)) {
        W(", ");
        lower__e_expr(E, n->b);
        e_const_error(E, t);
    } else {
        W(" = ");
        lower__e_expr_loose(E, n->b);
        W(")");
    }
    if (assign_first) {
        W(" : ");
        if (cur)
            lower__e_name(E, 0, cur);
        else
            lower__e_expr(E, t);
    }
    if (!loose)
        W(")");
}

/* An expression the append rewrite below may emit twice (only one copy
 * runs): no function, class, spread, direct eval, super or private name. */
static int dup_safe(const struct node *x, int depth)
{
    if (depth > 16)
        return 0;
    switch (x->kind) {
    case N_IDENT:
    case N_STR:
    case N_NUM:
    case N_LITERAL:
    case N_THIS:
        return 1;
    case N_PAREN:
    case N_UNARY:
        return dup_safe(x->a, depth + 1);
    case N_BINARY:
        return dup_safe(x->a, depth + 1) && dup_safe(x->b, depth + 1);
    case N_MEMBER:
        return !(x->flags & (NF_PRIVATE | NF_OPTIONAL)) && dup_safe(x->a, depth + 1) &&
               (!x->b || dup_safe(x->b, depth + 1));
    case N_TEMPLATE:
        for (const struct node *q = x->a; q; q = q->next)
            if (q->kind != N_TPL_PART && !dup_safe(q, depth + 1))
                return 0;
        return 1;
    case N_CALL:
        if (x->y || (x->flags & NF_OPTIONAL) || !dup_safe(x->a, depth + 1))
            return 0;
        for (const struct node *q = x->b; q; q = q->next)
            if (!dup_safe(q, depth + 1))
                return 0;
        return 1;
    }
    return 0;
}

static int same_ident(const struct node *a, const struct node *b)
{
    return a->kind == N_IDENT && b->kind == N_IDENT && a->x == b->x &&
           a->name->len == b->name->len && memcmp(a->name->s, b->name->s, a->name->len) == 0;
}

/* The statement `x = x + a + b ...` (two or more appends): each `+` would
 * copy the whole of x before the engine could append in place, so when x is
 * a string it becomes `x += "" + a + b ...` (the same concatenation, the
 * same conversions in the same order, the pieces joined first), else stays
 * as it was: `if (typeof x === "string") x += "" + a + b; else x = x + a + b`.
 * Returns 0 (nothing emitted) for any other statement. */
static int e_append_chain(struct emit *E, struct node *n)
{
    struct node *t = n->a, *x = n->b, *ops[64];
    int nops = 0;
    if (!E->stmt_start || E->cx->mode == LOWER_MODE_EVAL || n->op != P_ASSIGN ||
        t->kind != N_IDENT || (t->op == 3 && t->x && lower__e_tdz_checked(t->x)))
        return 0;
    while (x->kind == N_BINARY && x->op == P_PLUS && nops < 64) {
        if (!dup_safe(x->b, 0))
            return 0;
        ops[nops++] = x->b;
        x = x->a;
    }
    if (nops < 2 || !same_ident(x, t))
        return 0;
    lower__e_tok(E, n->line, "if (typeof ", 11);
    lower__e_expr(E, t);
    W(" === \"string\") ");
    lower__e_expr(E, t);
    W(" += \"\"");
    for (int i = nops - 1; i >= 0; i--) {
        W(" + ");
        lower__e_expr(E, ops[i]);
    }
    W("; else ");
    lower__e_expr(E, t);
    W(" = ");
    lower__e_expr_loose(E, n->b);
    return 1;
}

static void e_assign(struct emit *E, struct node *n, int loose)
{
    if (n->a->kind == N_ARRPAT || n->a->kind == N_OBJPAT) {
        lower__e_destructure_assign(E, n, 1);
        return;
    }
    if (n->op == P_NULLISH_EQ || n->op == P_OR_EQ || n->op == P_AND_EQ) {
        e_logical_assign(E, n, loose);
        return;
    }
    if (is_const_target(n->a)) {
        struct node *t = n->a;
        while (t->kind == N_PAREN)
            t = t->a;
        lower__e_tok(E, n->line, "(", 1);
        lower__e_expr(E, n->b);
        e_const_error(E, t);
        return;
    }
    struct node *t = n->a;
    if (n->op == P_ASSIGN && t->kind == N_MEMBER && (t->flags & NF_PRIVATE) && !find_subst(E, t)) {
        lower__e_private_set_open(E, t);
        lower__e_expr(E, n->b);
        W(")");
        return;
    }
    if (n->op == P_ASSIGN && t->kind == N_MEMBER && t->a->kind == N_SUPER && !find_subst(E, t)) {
        lower__e_super_set(E, t, n->b);
        return;
    }
    if (e_append_chain(E, n))
        return;
    if (t->kind == N_MEMBER && t->a->kind == N_SUPER) {
        /* super.x op= v assigns on this */
        struct node th = *t->a;
        th.kind = N_THIS;
        lower__e_this(E, &th);
        lower__e_member_suffix(E, t);
    } else {
        E->raw_target = t->kind == N_MEMBER;
        lower__e_expr(E, t);
        E->raw_target = 0;
    }
    W(" ");
    lower__e_w(E, lower__punct_text[n->op]);
    W(" ");
    if (n->op == P_ASSIGN && t->kind == N_IDENT)
        E->name_hint = t->name;
    /* x = v from a closure that may run before x is declared: __tdzSet(x, v, "x") */
    int tdz = t->kind == N_IDENT && t->op == 3 && t->x && lower__e_tdz_checked(t->x);
    if (tdz) {
        W("__tdzSet(");
        lower__e_name(E, 0, ((struct binding *)t->x)->out);
        W(", ");
    }
    lower__e_expr_loose(E, n->b);
    if (tdz) {
        W(", \"");
        lower__e_tok(E, 0, t->name->s, t->name->len);
        W("\")");
    }
    E->name_hint = NULL;
}

static void e_unary(struct emit *E, struct node *n)
{
    if (n->op == 100 && n->a->kind == N_OPTCHAIN) {
        e_optchain(E, n->a, 1, NULL, 0);
        return;
    }
    switch (n->op) {
    case 100: lower__e_tok(E, n->line, "delete ", 7); break;
    case 101: lower__e_tok(E, n->line, "void ", 5); break;
    case 102: lower__e_tok(E, n->line, "typeof ", 7); break;
    default: lower__e_tok(E, n->line, lower__punct_text[n->op], strlen(lower__punct_text[n->op]));
    }
    lower__e_expr(E, n->a);
}

static void e_update(struct emit *E, struct node *n)
{
    const char *op = lower__punct_text[n->op];
    if (is_const_target(n->a)) {
        struct node *t = n->a;
        while (t->kind == N_PAREN)
            t = t->a;
        lower__e_tok(E, n->line, "(", 1);
        lower__e_expr(E, t);
        e_const_error(E, t);
        return;
    }
    if (n->flags & NF_PREFIX) {
        lower__e_tok(E, n->line, op, 2);
        E->raw_target = 1;
        lower__e_expr(E, n->a);
    } else {
        E->raw_target = 1;
        lower__e_expr(E, n->a);
        lower__e_w(E, op);
    }
    E->raw_target = 0;
}

static void e_binary(struct emit *E, struct node *n)
{
    if (n->a->kind == N_PRIVNAME) {
        lower__e_tok(E, n->line, "__privIn(", 9);
        lower__e_expr(E, n->b);
        W(", ");
        lower__e_name(E, 0, private_name(E, n->a));
        W(")");
        return;
    }
    /* `in` is always parenthesised: Duktape rejects an unparenthesised `in`
     * anywhere inside a for-initialiser, even within an array or object
     * literal or a function's arguments, where the language allows it. */
    int paren = n->op == 200;
    if (paren)
        W("(");
    lower__e_expr(E, n->a);
    W(" ");
    lower__e_w(E, binop_text(n->op));
    W(" ");
    lower__e_expr(E, n->b);
    if (paren)
        W(")");
}

static void e_yield(struct emit *E, struct node *n)
{
    const char *fn;
    if (E->fn->is_agen)
        fn = (n->flags & NF_DELEGATE) ? "__agYieldStar(" : "__agYield(";
    else
        fn = (n->flags & NF_DELEGATE) ? "__yieldStar(" : "__yield(";
    lower__e_tok(E, n->line, fn, strlen(fn));
    if (n->a)
        lower__e_expr(E, n->a);
    W(")");
}

static void e_await(struct emit *E, struct node *n)
{
    const char *fn = E->fn->is_agen ? "__agAwait(" : "__await(";
    lower__e_tok(E, n->line, fn, strlen(fn));
    lower__e_expr(E, n->a);
    W(")");
}

void lower__e_expr_loose(struct emit *E, struct node *n)
{
    E->loose = 1;
    lower__e_expr(E, n);
}

void lower__e_expr(struct emit *E, struct node *n)
{
    int loose = E->loose;
    E->loose = 0;
    if (E->nsubst) {
        struct subst *s = find_subst(E, n);
        if (s && s->kind == SUB_TEMP) {
            lower__e_name(E, n->line, s->t);
            return;
        }
    }
    lower__e_enter(E, n);
    struct lname *hint = E->name_hint;
    E->name_hint = NULL;
    if (n->kind != N_MEMBER && n->kind != N_PAREN)
        E->raw_target = 0;
    if (hint && (n->kind == N_PAREN || n->kind == N_FUNC || n->kind == N_CLASS))
        E->name_hint = hint; /* parentheses are transparent to name inference */
    switch (n->kind) {
    case N_IDENT: lower__e_ident(E, n); break;
    case N_THIS: lower__e_this(E, n); break;
    case N_NEWTARGET: e_newtarget(E, n); break;
    case N_NUM: lower__e_number(E, n); break;
    case N_STR: lower__e_string(E, n); break;
    case N_LITERAL: lower__e_src(E, n); break;
    case N_REGEX: {
        struct buf *b = &E->cx->scratch;
        buf_reset(b);
        lower__regex(E->cx, E->src + n->pos, n->end - n->pos, n->pos, b);
        lower__e_tok(E, n->line, b->data, b->len);
        break;
    }
    case N_TEMPLATE: lower__e_template(E, n, loose); break;
    case N_TAGGED: lower__e_tagged(E, n); break;
    case N_ARRAY: lower__e_array(E, n); break;
    case N_OBJECT: lower__e_object(E, n); break;
    case N_FUNC: lower__e_function(E, n, NULL); break;
    case N_CLASS: lower__e_class(E, n); break;
    case N_UNARY: e_unary(E, n); break;
    case N_UPDATE: e_update(E, n); break;
    case N_BINARY: e_binary(E, n); break;
    case N_LOGICAL:
        if (n->op == P_NULLISH) {
            e_nullish(E, n, loose);
        } else {
            lower__e_expr(E, n->a);
            lower__e_w(E, n->op == P_AND ? " && " : " || ");
            lower__e_expr(E, n->b);
        }
        break;
    case N_ASSIGN: e_assign(E, n, loose); break;
    case N_COND:
        lower__e_expr(E, n->a);
        W(" ? ");
        lower__e_expr_loose(E, n->b);
        W(" : ");
        lower__e_expr_loose(E, n->c);
        break;
    case N_CALL: e_call(E, n); break;
    case N_NEW: e_new(E, n); break;
    case N_MEMBER: e_member(E, n); break;
    case N_OPTCHAIN: e_optchain(E, n, 0, NULL, loose); break;
    case N_SEQ: e_list(E, n->a); break;
    case N_YIELD: e_yield(E, n); break;
    case N_AWAIT: e_await(E, n); break;
    case N_PAREN:
        lower__e_tok(E, n->line, "(", 1);
        lower__e_expr_loose(E, n->a);
        W(")");
        break;
    case N_SUPER:
        lower__e_error(E, n, "'super' keyword unexpected here");
    default:
        lower__e_error(E, n, "Internal error: unexpected expression");
    }
    lower__e_leave(E);
}
