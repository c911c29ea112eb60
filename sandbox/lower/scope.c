/* Scope and closure analysis for the lowering pass. One walk over the AST
 * declares bindings scope by scope (vars hoisted to their function, let/
 * const/class per block), resolves every identifier through per-name
 * binding stacks, and records what the emitter needs: captured bindings in
 * loops (fresh per-iteration bindings), names to rename when a block binding
 * becomes a function-level var, and this/arguments captured by arrows. */
#include <stdio.h>
#include <string.h>

#include "sandbox/lower/internal.h"

struct an {
    struct lower_ctx *cx;
    struct funcinfo *fn;  /* current function */
    struct scope *sc;     /* current scope */
    int loop_depth;       /* loops entered in the current function */
    int catch_depth;
    struct node *cls;     /* innermost class being walked */
    struct node *cls_stack[64];
    int ncls;
    struct binding *initialising; /* let/const whose initialiser is being walked */
    struct scope *tdz_scope;      /* a for-in/of head scope while its expression is walked */
    struct node *param;           /* the parameter of A->fn being walked (its default) */
};

static void walk(struct an *A, struct node *n);
static void walk_list(struct an *A, struct node *n)
{
    for (; n; n = n->next)
        walk(A, n);
}

static void *alloc(struct an *A, size_t n)
{
    void *p = lower__arena_alloc(&A->cx->arena, n);
    if (!p)
        lower__oom(A->cx);
    return p;
}

/* ---- (function, name) key set --------------------------------------------- */

static int keyset_add(struct lower_ctx *cx, uint64_t key)
{
    if (!cx->keyset || cx->keyset_count * 2 >= cx->keyset_mask) {
        uint32_t ncap = cx->keyset ? (cx->keyset_mask + 1) * 2 : 1024;
        uint64_t *nk = lower__arena_alloc(&cx->arena, ncap * sizeof *nk);
        if (!nk)
            lower__oom(cx);
        if (cx->keyset)
            for (uint32_t i = 0; i <= cx->keyset_mask; i++)
                if (cx->keyset[i]) {
                    uint32_t h = (uint32_t)((cx->keyset[i] * 0x9e3779b97f4a7c15ull) >> 40) & (ncap - 1);
                    while (nk[h])
                        h = (h + 1) & (ncap - 1);
                    nk[h] = cx->keyset[i];
                }
        cx->keyset = nk;
        cx->keyset_mask = ncap - 1;
    }
    uint32_t h = (uint32_t)((key * 0x9e3779b97f4a7c15ull) >> 40) & cx->keyset_mask;
    while (cx->keyset[h]) {
        if (cx->keyset[h] == key)
            return 0;
        h = (h + 1) & cx->keyset_mask;
    }
    cx->keyset[h] = key;
    cx->keyset_count++;
    return 1;
}

static int keyset_has(struct lower_ctx *cx, uint64_t key)
{
    if (!cx->keyset)
        return 0;
    uint32_t h = (uint32_t)((key * 0x9e3779b97f4a7c15ull) >> 40) & cx->keyset_mask;
    while (cx->keyset[h]) {
        if (cx->keyset[h] == key)
            return 1;
        h = (h + 1) & cx->keyset_mask;
    }
    return 0;
}

#define KEY_FOREIGN(fid, nid) (((uint64_t)(fid) << 33) | ((uint64_t)(nid) << 1) | 1)
#define KEY_DECL1(fid, nid) (((uint64_t)(fid) << 33) | ((uint64_t)(nid) << 1))
/* a second declaration of a name in one function: stored with a marker bit */
#define KEY_DECL2(fid, nid) (((uint64_t)(fid) << 33) | ((uint64_t)(nid) << 1) | (1ull << 32))

/* ---- scopes and bindings ------------------------------------------------- */

static struct scope *push_scope(struct an *A, int kind, struct node *node)
{
    struct scope *s = alloc(A, sizeof *s);
    s->all_next = A->cx->scopes;
    A->cx->scopes = s;
    s->kind = (uint8_t)kind;
    s->parent = A->sc;
    s->fn = A->fn;
    s->node = node;
    s->in_loop = A->loop_depth > 0;
    s->in_catch = A->catch_depth > 0;
    A->sc = s;
    return s;
}

static void pop_scope(struct an *A)
{
    struct scope *s = A->sc;
    for (struct binding *b = s->first; b; b = b->next)
        b->name->top = b->shadow;
    A->sc = s->parent;
}

/* Declarations go to the innermost scope being set up, so the name's
 * visible binding tells whether s already has it. */
static struct binding *find_in_scope(struct scope *s, struct lname *name)
{
    struct binding *b = name->top;
    return b && b->scope == s ? b : NULL;
}

static int is_lexical(int kind)
{
    return kind == BK_LET || kind == BK_CONST || kind == BK_CLASS;
}

static struct binding *declare(struct an *A, struct scope *s, struct lname *name, int kind,
                               struct node *decl)
{
    struct binding *b = find_in_scope(s, name);
    if (b && b->decl != decl && (is_lexical(kind) || is_lexical(b->kind)) &&
        !(decl && b->decl && decl->kind == N_ENUM && b->decl->kind == N_ENUM)) {
        /* let x; let x / a parameter and a let / a let and a function: an early
         * error (TypeScript's enum declarations merge) */
        lower__error_at(A->cx, decl ? decl->pos : 0, "Identifier '%.*s' has already been declared",
                        (int)name->len, name->s);
    }
    if (is_lexical(kind) && name->kw == KW_LET)
        lower__error_at(A->cx, decl ? decl->pos : 0, "let is disallowed as a lexically bound name");
    if (b) {
        if (kind == BK_FUNC || kind == BK_BLOCKFN)
            b->decl = decl; /* the last function declaration wins */
        return b;
    }
    b = alloc(A, sizeof *b);
    b->name = name;
    b->out = name;
    b->kind = (uint8_t)kind;
    b->scope = s;
    b->decl = decl;
    if (s->last)
        s->last->next = b;
    else
        s->first = b;
    s->last = b;
    b->shadow = name->top;
    name->top = b;
    if (s->fn && kind != BK_FNAME) {
        if (!keyset_add(A->cx, KEY_DECL1(s->fn->id, name->id)))
            keyset_add(A->cx, KEY_DECL2(s->fn->id, name->id));
    }
    return b;
}

/* Declares every name bound by a pattern. */
static void declare_pattern(struct an *A, struct scope *s, struct node *pat, int kind)
{
    if (!pat)
        return;
    switch (pat->kind) {
    case N_IDENT:
        declare(A, s, pat->name, kind, pat);
        break;
    case N_ASSIGNPAT:
    case N_REST:
        declare_pattern(A, s, pat->a, kind);
        break;
    case N_ARRPAT:
        for (struct node *e = pat->a; e; e = e->next)
            declare_pattern(A, s, e, kind);
        break;
    case N_OBJPAT:
        for (struct node *e = pat->a; e; e = e->next)
            declare_pattern(A, s, e->kind == N_REST ? e->a : e->b, kind);
        break;
    }
}

/* Hoists the var declarations of a function body (not of nested functions). */
static void hoist_vars(struct an *A, struct scope *fs, struct node *n)
{
    for (; n; n = n->next) {
        switch (n->kind) {
        case N_VAR:
            if (n->op == VK_VAR)
                for (struct node *d = n->a; d; d = d->next)
                    declare_pattern(A, fs, d->a, BK_VAR);
            break;
        case N_IF:
            hoist_vars(A, fs, n->b);
            hoist_vars(A, fs, n->c);
            break;
        case N_FOR: case N_FORIN: case N_FOROF:
            if (n->a && n->a->kind == N_VAR)
                hoist_vars(A, fs, n->a);
            hoist_vars(A, fs, n->d);
            break;
        case N_WHILE: case N_DOWHILE: case N_WITH:
            hoist_vars(A, fs, n->b);
            break;
        case N_LABEL:
            hoist_vars(A, fs, n->a);
            break;
        case N_BLOCK:
            hoist_vars(A, fs, n->a);
            break;
        case N_TRY:
            hoist_vars(A, fs, n->a);
            if (n->c)
                hoist_vars(A, fs, n->c);
            if (n->d)
                hoist_vars(A, fs, n->d);
            break;
        case N_SWITCH:
            for (struct node *c = n->b; c; c = c->next)
                hoist_vars(A, fs, c->b);
            break;
        }
    }
}

/* hoist_vars walks lists; single statements (if/loop bodies) are lists of
 * one, since the parser leaves their next pointer NULL. */

/* Declares the lexical declarations made directly in a statement list. */
static void declare_lexical(struct an *A, struct scope *s, struct node *n, int fn_top)
{
    for (; n; n = n->next) {
        if (n->kind == N_VAR && n->op != VK_VAR) {
            for (struct node *d = n->a; d; d = d->next)
                declare_pattern(A, s, d->a, n->op == VK_CONST ? BK_CONST : BK_LET);
        } else if (n->kind == N_FUNC && (n->flags & NF_DECL) && !(n->flags & NF_ERASED)) {
            struct binding *b = declare(A, s, n->a->name, fn_top ? BK_FUNC : BK_BLOCKFN, n);
            if (fn_top)
                n->a->x = b; /* its emitted name (renamed: BF_PARAMSHADOW) */
        } else if (n->kind == N_CLASS && (n->flags & NF_DECL)) {
            declare(A, s, n->a->name, BK_CLASS, n);
        } else if (n->kind == N_ENUM) {
            declare(A, s, n->a->name, BK_LET, n);
        }
    }
}

/* ---- references ------------------------------------------------------------ */

static struct funcinfo *this_owner(struct funcinfo *f)
{
    while (f && (f->node && f->node->kind == N_FUNC && (f->node->op & FN_ARROW)))
        f = f->parent;
    return f;
}

static void mark_foreign(struct an *A, struct lname *name, struct funcinfo *from,
                         struct funcinfo *until)
{
    for (struct funcinfo *f = from; f && f != until; f = f->parent) {
        if (!keyset_add(A->cx, KEY_FOREIGN(f->id, name->id)) && f != from)
            break;
    }
}

/* Is the code being walked inside the parameter list of fn (directly, or in
 * a function defined there)? */
static int in_params_of(struct an *A, struct funcinfo *fn)
{
    struct funcinfo *x = A->fn;
    if (x == fn)
        return A->param != NULL;
    while (x && x->parent != fn)
        x = x->parent;
    return x && x->in_params;
}

/* A parameter default runs before the body's declarations exist: it does not
 * see a var, function, let, const or class of the body (ES2015 separate
 * environments when there are parameter expressions), but what is outside. */
static struct binding *skip_body_decls(struct an *A, struct binding *b)
{
    while (b && b->scope->kind == SC_FUNC && b->kind != BK_PARAM && b->kind != BK_FNAME &&
           b->name->kw != KW_ARGUMENTS && !(b->scope->fn->flags & FI_PROGRAM) &&
           in_params_of(A, b->scope->fn)) {
        b->flags |= BF_PARAMSHADOW;
        b = b->shadow;
    }
    return b;
}

static int simple_params(const struct node *prm)
{
    for (; prm; prm = prm->next)
        if (prm->kind != N_IDENT)
            return 0;
    return 1;
}

static void reference(struct an *A, struct node *id)
{
    struct binding *b = skip_body_decls(A, id->name->top);
    id->x = b;
    if (!b) {
        if (id->name->kw == KW_ARGUMENTS) {
            struct funcinfo *o = this_owner(A->fn);
            if (o && (o->flags & FI_CLASS_INIT))
                lower__error_at(A->cx, id->pos, "'arguments' is not allowed in class field initializer or static initialization block");
            id->y = o;
            if (o && (o->flags & FI_PROGRAM))
                o->flags |= FI_ARGS_AT_TOP;
            /* an async or generator body runs in an inner function: it reads the
             * outer function's arguments (mapped to simple parameters) through a
             * capture; with other parameters, its own copy is the unmapped object */
            if (o && (o != A->fn || (o->node && o->node->kind == N_FUNC &&
                                     (o->node->op & (FN_ASYNC | FN_GEN)) &&
                                     simple_params(o->node->b))))
                o->flags |= FI_USES_ARGS;
            if (o)
                o->flags |= FI_OWN_THIS;
        } else if (id->name->len == 4 && memcmp(id->name->s, "eval", 4) == 0) {
            struct funcinfo *o = this_owner(A->fn);
            if (o)
                o->flags |= FI_OWN_THIS;
        }
        mark_foreign(A, id->name, A->fn, NULL);
        return;
    }
    struct funcinfo *bf = b->scope->fn;
    if (bf != A->fn) {
        b->flags |= BF_CAPTURED;
        mark_foreign(A, id->name, A->fn, bf);
    }
}

static void ref_this(struct an *A, struct node *n)
{
    struct funcinfo *o = this_owner(A->fn);
    n->y = o;
    if (o)
        o->flags |= FI_OWN_THIS;
    if (o && o != A->fn) {
        if (n->kind == N_NEWTARGET)
            o->flags |= FI_USES_NT;
        else
            o->flags |= FI_USES_THIS;
    }
}

/* Is n (resolved) a let/const/class of an enclosing function, written before
 * its declaration? Then its binding holds __TDZ until declared (BF_TDZ). */
static int tdz_through_closure(struct an *A, struct node *n)
{
    struct binding *b = n->x;
    if (!b || !is_lexical(b->kind) || b->scope->fn == A->fn || !b->decl || n->pos >= b->decl->pos)
        return 0;
    b->flags |= BF_TDZ;
    return 1;
}

/* Assignment targets: identifiers in patterns are references. */
static void walk_target(struct an *A, struct node *t)
{
    if (!t)
        return;
    switch (t->kind) {
    case N_IDENT:
        reference(A, t);
        /* written from a closure before its declaration: checked (__tdzSet) */
        if (tdz_through_closure(A, t))
            t->op = 3;
        if (t->x)
            ((struct binding *)t->x)->flags |= BF_ASSIGNED;
        break;
    case N_ASSIGNPAT:
        walk_target(A, t->a);
        walk(A, t->b);
        break;
    case N_REST:
        walk_target(A, t->a);
        break;
    case N_ARRPAT:
        for (struct node *e = t->a; e; e = e->next)
            walk_target(A, e);
        break;
    case N_OBJPAT:
        for (struct node *e = t->a; e; e = e->next) {
            if (e->kind == N_REST) {
                walk_target(A, e->a);
            } else {
                if (e->flags & NF_COMPUTED)
                    walk(A, e->a);
                walk_target(A, e->b);
            }
        }
        break;
    case N_PAREN:
        walk_target(A, t->a);
        break;
    default:
        walk(A, t);
    }
}

/* Marks the bindings an assignment, update or for-in/of head writes (after
 * walk_target resolved them): they may change after their declaration. */
static void mark_reassigned(struct node *t)
{
    if (!t)
        return;
    switch (t->kind) {
    case N_IDENT:
        if (t->x)
            ((struct binding *)t->x)->flags |= BF_REASSIGNED;
        break;
    case N_PAREN:
    case N_ASSIGNPAT:
    case N_REST:
        mark_reassigned(t->a);
        break;
    case N_ARRPAT:
        for (struct node *e = t->a; e; e = e->next)
            mark_reassigned(e);
        break;
    case N_OBJPAT:
        for (struct node *e = t->a; e; e = e->next)
            mark_reassigned(e->kind == N_REST ? e->a : e->b);
        break;
    }
}

/* ---- functions ----------------------------------------------------------------- */

static struct funcinfo *new_func(struct an *A, struct node *node)
{
    struct funcinfo *f = alloc(A, sizeof *f);
    f->parent = A->fn;
    f->node = node;
    f->id = ++A->cx->next_fn_id;
    f->cls = A->cls;
    f->in_params = A->param != NULL;
    return f;
}

static void walk_params(struct an *A, struct node *prm)
{
    for (; prm; prm = prm->next) {
        A->param = prm;
        walk_target(A, prm);
    }
    A->param = NULL;
}

static void walk_function(struct an *A, struct node *fn)
{
    struct funcinfo *f = new_func(A, fn);
    fn->x = f;
    struct scope *saved_sc = A->sc;
    struct funcinfo *saved_fn = A->fn;
    struct node *saved_param = A->param;
    int saved_loop = A->loop_depth, saved_catch = A->catch_depth;
    int is_expr_named = fn->a && !(fn->flags & NF_DECL) && !(fn->op & FN_METHOD);
    if (is_expr_named) {
        struct scope *ns = push_scope(A, SC_FNAME, fn);
        declare(A, ns, fn->a->name, BK_FNAME, fn);
        fn->a->x = ns->first;
    }
    A->fn = f;
    A->loop_depth = 0;
    A->catch_depth = 0;
    struct scope *fs = push_scope(A, SC_FUNC, fn);
    f->scope = fs;
    if ((fn->op & FN_CTOR) && A->cls && A->cls->b)
        f->flags |= FI_DERIVED_CTOR;
    for (struct node *prm = fn->b; prm; prm = prm->next)
        declare_pattern(A, fs, prm, BK_PARAM);
    if (fn->c && !(fn->flags & NF_EXPRBODY)) {
        hoist_vars(A, fs, fn->c->a);
        declare_lexical(A, fs, fn->c->a, 1);
    }
    walk_params(A, fn->b);
    if (fn->c) {
        if (fn->flags & NF_EXPRBODY) {
            walk(A, fn->c);
        } else {
            fn->c->x = fs;
            walk_list(A, fn->c->a);
        }
    }
    pop_scope(A);
    if (is_expr_named)
        pop_scope(A);
    A->sc = saved_sc;
    A->fn = saved_fn;
    A->param = saved_param;
    A->loop_depth = saved_loop;
    A->catch_depth = saved_catch;
}

/* ---- classes ---------------------------------------------------------------------- */

static struct node *find_private(struct an *A, struct lname *name)
{
    for (int i = A->ncls - 1; i >= 0; i--)
        for (struct node *m = A->cls_stack[i]->c; m; m = m->next)
            if ((m->flags & NF_PRIVATE) && m->a->name == name)
                return m;
    return NULL;
}

static void walk_in_init(struct an *A, struct node *holder, struct node *expr)
{
    struct funcinfo *f = holder->x;
    struct funcinfo *saved = A->fn;
    struct scope *saved_sc = A->sc;
    int saved_loop = A->loop_depth;
    A->fn = f;
    A->loop_depth = 0;
    if (!f->scope) {
        f->scope = push_scope(A, SC_FUNC, holder);
    } else {
        f->scope->parent = A->sc;
        A->sc = f->scope;
    }
    walk(A, expr);
    A->sc = saved_sc;
    A->fn = saved;
    A->loop_depth = saved_loop;
}

static void walk_class(struct an *A, struct node *c)
{
    struct scope *cs = push_scope(A, SC_CLASS, c);
    c->x = cs;
    if (c->a) {
        struct binding *b = declare(A, cs, c->a->name, BK_CLASS, c);
        (void)b;
    }
    if (c->b)
        walk(A, c->b);
    if (A->ncls >= 64)
        lower__error_at(A->cx, c->pos, "Nesting too deep (classes)");
    struct node *saved_cls = A->cls;
    A->cls_stack[A->ncls++] = c;
    A->cls = c;
    c->d->x = new_func(A, c->d);
    c->d->next->x = new_func(A, c->d->next);
    ((struct funcinfo *)c->d->x)->flags |= FI_CLASS_INIT;
    ((struct funcinfo *)c->d->next->x)->flags |= FI_CLASS_INIT;
    for (struct node *m = c->c; m; m = m->next) {
        if (m->flags & NF_COMPUTED)
            walk(A, m->a);
        if (m->op == PK_FIELD) {
            if (m->b)
                walk_in_init(A, (m->flags & NF_STATIC) ? c->d->next : c->d, m->b);
        } else if (m->op == PK_STATIC_BLOCK) {
            struct funcinfo *f = c->d->next->x;
            struct funcinfo *saved = A->fn;
            struct scope *saved_sc = A->sc;
            A->fn = f;
            if (!f->scope)
                f->scope = push_scope(A, SC_FUNC, c->d->next);
            else
                A->sc = f->scope;
            struct scope *bs = push_scope(A, SC_BLOCK, m->b);
            m->b->x = bs;
            hoist_vars(A, bs, m->b->a);
            declare_lexical(A, bs, m->b->a, 0);
            walk_list(A, m->b->a);
            pop_scope(A);
            A->sc = saved_sc;
            A->fn = saved;
        } else {
            walk(A, m->b);
        }
    }
    A->ncls--;
    A->cls = saved_cls;
    pop_scope(A);
}

/* ---- statements with scopes --------------------------------------------------- */

static void walk_block(struct an *A, struct node *b)
{
    struct scope *s = push_scope(A, SC_BLOCK, b);
    b->x = s;
    declare_lexical(A, s, b->a, 0);
    walk_list(A, b->a);
    pop_scope(A);
}

static void walk_loop_body(struct an *A, struct node *body)
{
    A->loop_depth++;
    walk(A, body);
    A->loop_depth--;
}

static void walk_for(struct an *A, struct node *n)
{
    struct scope *s = NULL;
    if (n->a && n->a->kind == N_VAR && n->a->op != VK_VAR) {
        A->loop_depth++; /* the head scope is renewed per iteration */
        s = push_scope(A, SC_BLOCK, n);
        A->loop_depth--;
        n->x = s;
        for (struct node *d = n->a->a; d; d = d->next)
            declare_pattern(A, s, d->a, n->a->op == VK_CONST ? BK_CONST : BK_LET);
        for (struct binding *b = s->first; b; b = b->next)
            b->flags |= BF_LOOPHEAD;
    }
    if (n->kind == N_FOR) {
        if (n->a)
            walk(A, n->a);
        if (n->b)
            walk(A, n->b);
        if (n->c)
            walk(A, n->c);
    } else {
        /* the iterated expression: the head's let/const are in their TDZ there */
        struct scope *saved_tdz = A->tdz_scope;
        A->tdz_scope = s;
        walk(A, n->b);
        A->tdz_scope = saved_tdz;
        if (n->a->kind == N_VAR) {
            walk(A, n->a);
        } else {
            walk_target(A, n->a);
            mark_reassigned(n->a);
        }
    }
    walk_loop_body(A, n->d);
    if (s)
        pop_scope(A);
}

static void walk_try(struct an *A, struct node *n)
{
    walk(A, n->a);
    if (n->c) {
        struct scope *s = push_scope(A, SC_CATCH, n);
        n->x = s;
        if (n->b) {
            if (n->b->kind == N_IDENT)
                declare(A, s, n->b->name, BK_CATCH, n->b);
            else
                declare_pattern(A, s, n->b, BK_LET);
            walk_target(A, n->b);
        }
        A->catch_depth++;
        walk(A, n->c);
        A->catch_depth--;
        pop_scope(A);
    }
    if (n->d)
        walk(A, n->d);
}

static void walk_switch(struct an *A, struct node *n)
{
    walk(A, n->a);
    struct scope *s = push_scope(A, SC_BLOCK, n);
    n->x = s;
    for (struct node *c = n->b; c; c = c->next)
        declare_lexical(A, s, c->b, 0);
    for (struct node *c = n->b; c; c = c->next) {
        if (c->a)
            walk(A, c->a);
        walk_list(A, c->b);
    }
    pop_scope(A);
}

/* var x where a let/const/class x of the same function is visible: an early error */
static void check_var_names(struct an *A, struct node *pat)
{
    if (!pat)
        return;
    switch (pat->kind) {
    case N_IDENT: {
        struct binding *b = pat->name->top;
        if (b && is_lexical(b->kind) && b->scope->fn == A->fn)
            lower__error_at(A->cx, pat->pos, "Identifier '%.*s' has already been declared",
                            (int)pat->name->len, pat->name->s);
        break;
    }
    case N_ASSIGNPAT:
    case N_REST:
        check_var_names(A, pat->a);
        break;
    case N_ARRPAT:
        for (struct node *e = pat->a; e; e = e->next)
            check_var_names(A, e);
        break;
    case N_OBJPAT:
        for (struct node *e = pat->a; e; e = e->next)
            check_var_names(A, e->kind == N_REST ? e->a : e->b);
        break;
    }
}

static void walk_var(struct an *A, struct node *n)
{
    if (n->op == VK_VAR)
        for (struct node *d = n->a; d; d = d->next)
            check_var_names(A, d->a);
    for (struct node *d = n->a; d; d = d->next) {
        if (d->b) {
            struct binding *saved = A->initialising;
            if (n->op != VK_VAR && d->a->kind == N_IDENT)
                A->initialising = d->a->name->top;
            walk(A, d->b);
            A->initialising = saved;
        }
        walk_target(A, d->a);
        if (n->op != VK_VAR && d->a->kind == N_IDENT && d->a->x && d->b &&
            d->b->kind == N_ARRAY)
            ((struct binding *)d->a->x)->flags |= BF_ARRAYINIT;
    }
}

static void check_object_literal(struct an *A, struct node *n)
{
    for (struct node *p = n->a; p; p = p->next) {
        if (p->op == PK_SPREAD) {
            walk(A, p->a);
            continue;
        }
        if ((p->flags & NF_SHORTHAND) && p->b && p->b->kind == N_ASSIGN)
            lower__error_at(A->cx, p->b->pos, "Invalid shorthand property initializer");
        if (p->flags & NF_COMPUTED)
            walk(A, p->a);
        walk(A, p->b);
    }
}

/* The names a var declared by a direct eval here would clash with: the
 * let/const/class of the scopes up to the function's, and its parameters when
 * the eval is in a parameter default (EvalDeclarationInstantiation). */
static struct eval_info *eval_lexicals(struct an *A)
{
    struct eval_info *info = alloc(A, sizeof *info);
    struct name_link *list = NULL;
    info->owner = this_owner(A->fn);
    for (struct scope *s = A->sc; s; s = s->parent) {
        int top = s->kind == SC_FUNC && s->fn == A->fn;
        for (struct binding *b = s->first; b; b = b->next) {
            if (!(is_lexical(b->kind) || (top && A->param && b->kind == BK_PARAM)))
                continue;
            struct name_link *l = alloc(A, sizeof *l);
            l->name = b->name;
            l->next = list;
            list = l;
        }
        if (top || s->kind == SC_FUNC)
            break;
    }
    info->lexicals = list;
    return info;
}

static void walk(struct an *A, struct node *n)
{
    if (!n)
        return;
    switch (n->kind) {
    case N_IDENT: {
        reference(A, n);
        /* temporal dead zone, where it is static: a read that comes before
         * its let/const/class declaration in the same function always throws */
        struct binding *b = n->x;
        if (b && (b->kind == BK_LET || b->kind == BK_CONST || b->kind == BK_CLASS) &&
            b->scope->fn == A->fn && b->decl &&
            (n->pos < b->decl->pos || b == A->initialising || (A->tdz_scope && b->scope == A->tdz_scope)))
            n->op = 1;
        /* and a parameter read in the default of itself or of an earlier parameter */
        if (b && b->kind == BK_PARAM && A->param && b->scope->fn == A->fn && b->decl &&
            b->decl->pos >= A->param->pos)
            n->op = 1;
        /* a read in a closure written before the declaration may run before it
         * (a hoisted function called early): checked at run time */
        if (tdz_through_closure(A, n))
            n->op = 2;
        return;
    }
    case N_THIS:
    case N_NEWTARGET:
        ref_this(A, n);
        return;
    case N_SUPER: {
        struct funcinfo *o = this_owner(A->fn);
        n->y = o;
        if (o)
            o->flags |= FI_OWN_THIS | FI_USES_SUPER;
        if (o && o != A->fn)
            o->flags |= FI_USES_THIS;
        return;
    }
    case N_PRIVNAME: {
        struct node *m = find_private(A, n->name);
        if (!m && A->cx->mode == LOWER_MODE_EVAL) {
            /* eval code: a #name of the caller's class (__evalCode checks it is one) */
            struct name_link *l = A->cx->eval_privates;
            while (l && l->name != n->name)
                l = l->next;
            if (!l) {
                l = alloc(A, sizeof *l);
                l->name = n->name;
                l->next = A->cx->eval_privates;
                A->cx->eval_privates = l;
            }
            n->y = NULL;
            return;
        }
        if (!m)
            lower__error_at(A->cx, n->pos, "Private field '#%s' must be declared in an enclosing class",
                            n->name->s);
        n->y = m;
        return;
    }
    case N_MEMBER:
        walk(A, n->a);
        if (n->flags & (NF_COMPUTED | NF_PRIVATE))
            walk(A, n->b);
        return;
    case N_PROGRAM:
        return;
    case N_FUNC:
        if (!(n->flags & NF_ERASED))
            walk_function(A, n);
        return;
    case N_CLASS:
        if (n->flags & NF_DECL)
            reference(A, n->a);
        walk_class(A, n);
        return;
    case N_BLOCK:
        walk_block(A, n);
        return;
    case N_FOR: case N_FORIN: case N_FOROF:
        walk_for(A, n);
        return;
    case N_WHILE:
        walk(A, n->a);
        walk_loop_body(A, n->b);
        return;
    case N_DOWHILE:
        walk_loop_body(A, n->b);
        walk(A, n->a);
        return;
    case N_TRY:
        walk_try(A, n);
        return;
    case N_SWITCH:
        walk_switch(A, n);
        return;
    case N_VAR:
        walk_var(A, n);
        return;
    case N_LABEL:
        walk(A, n->a);
        return;
    case N_RETURN:
        if (A->fn == A->cx->root_fn)
            A->fn->flags |= FI_TOP_RETURN;
        walk(A, n->a);
        return;
    case N_ASSIGN:
        if (n->a->kind == N_ARRPAT || n->a->kind == N_OBJPAT || n->a->kind == N_IDENT ||
            n->a->kind == N_PAREN) {
            walk_target(A, n->a);
            mark_reassigned(n->a);
        } else
            walk(A, n->a);
        walk(A, n->b);
        return;
    case N_UPDATE:
        walk_target(A, n->a);
        mark_reassigned(n->a);
        return;
    case N_AWAIT:
        A->fn->flags |= FI_HAS_AWAIT;
        walk(A, n->a);
        return;
    case N_YIELD:
        A->fn->flags |= FI_HAS_YIELD;
        walk(A, n->a);
        return;
    case N_OBJECT:
        check_object_literal(A, n);
        return;
    case N_PROP:
        if (n->flags & NF_COMPUTED)
            walk(A, n->a);
        walk(A, n->b);
        return;
    case N_ENUM:
        reference(A, n->a);
        for (struct node *m = n->b; m; m = m->next)
            walk(A, m->b);
        return;
    case N_NUM: case N_STR: case N_REGEX: case N_LITERAL: case N_HOLE: case N_EMPTY:
    case N_DEBUGGER: case N_BREAK: case N_CONTINUE: case N_TPL_PART:
        return;
    }
    walk(A, n->a);
    walk(A, n->b);
    walk(A, n->c);
    walk(A, n->d);
    /* lists: arguments, elements, sequence items, template parts */
    if (n->kind == N_CALL || n->kind == N_NEW)
        for (struct node *e = n->b ? n->b->next : NULL; e; e = e->next)
            walk(A, e);
    if (n->kind == N_CALL && n->a->kind == N_SUPER) {
        struct funcinfo *o = this_owner(A->fn);
        if (o)
            o->super_calls++;
    }
    if (n->kind == N_CALL && n->a->kind == N_IDENT && !n->a->x && n->b && n->a->name->len == 4 &&
        memcmp(n->a->name->s, "eval", 4) == 0)
        n->y = eval_lexicals(A);
    if (n->kind == N_ARRAY || n->kind == N_SEQ || n->kind == N_TEMPLATE)
        for (struct node *e = n->a ? n->a->next : NULL; e; e = e->next)
            walk(A, e);
}

/* ---- decisions ------------------------------------------------------------------ */

static struct lname *fresh_name(struct lower_ctx *cx, struct lname *base)
{
    struct lname *n = lower__gen_name(&cx->names, base->s, base->len, &cx->tmp_counter);
    if (!n)
        lower__oom(cx);
    return n;
}

static int is_block_kind(int k)
{
    return k == BK_LET || k == BK_CONST || k == BK_CLASS || k == BK_BLOCKFN;
}

static int is_ascii(const struct lname *n)
{
    for (uint32_t i = 0; i < n->len; i++)
        if ((unsigned char)n->s[i] >= 0x80)
            return 0;
    return 1;
}

static void decide_scope(struct lower_ctx *cx, struct scope *s)
{
    static struct lname u = { "u", 1, 0, 0, 0, NULL, NULL };
    for (struct binding *b = s->first; b; b = b->next) {
        int block = is_block_kind(b->kind) && s->kind != SC_FUNC && s->kind != SC_CLASS;
        if (block && (b->flags & BF_CAPTURED) && s->in_loop && b->kind != BK_BLOCKFN) {
            b->flags |= BF_FRESH;
            s->has_fresh = 1;
            if (b->flags & BF_LOOPHEAD)
                b->headcopy = fresh_name(cx, is_ascii(b->name) ? b->name : &u);
        }
        if (b->flags & BF_PARAMSHADOW) {
            /* the body's declaration must not shadow what a parameter default reads */
            b->out = fresh_name(cx, is_ascii(b->name) ? b->name : &u);
            b->flags |= BF_RENAMED;
            continue;
        }
        if (!is_ascii(b->name)) {
            /* Duktape's ES5 tokenizer refuses some identifier characters */
            b->out = fresh_name(cx, &u);
            b->flags |= BF_RENAMED;
            continue;
        }
        if (!block || (b->flags & BF_FRESH))
            continue;
        uint32_t fid = s->fn->id, nid = b->name->id;
        if (keyset_has(cx, KEY_FOREIGN(fid, nid)) || keyset_has(cx, KEY_DECL2(fid, nid))) {
            b->out = fresh_name(cx, b->name);
            b->flags |= BF_RENAMED;
        }
    }
}

int lower__is_foreign(struct lower_ctx *cx, struct funcinfo *fi, struct lname *name)
{
    return !name->id || keyset_has(cx, KEY_FOREIGN(fi->id, name->id));
}

void lower__analyse(struct lower_ctx *cx)
{
    struct an A;
    memset(&A, 0, sizeof A);
    A.cx = cx;
    struct node *prog = cx->program;
    struct funcinfo *root = new_func(&A, prog);
    root->flags |= FI_PROGRAM;
    cx->root_fn = root;
    A.fn = root;
    struct scope *fs = push_scope(&A, SC_FUNC, prog);
    root->scope = fs;
    prog->x = root;
    hoist_vars(&A, fs, prog->a);
    declare_lexical(&A, fs, prog->a, 1);
    walk_list(&A, prog->a);
    pop_scope(&A);
    for (struct scope *sc = cx->scopes; sc; sc = sc->all_next)
        decide_scope(cx, sc);
}
