/* Function emission: arrows become function expressions (this/arguments
 * through captures), parameters with defaults, patterns and rest become
 * statements at the top of the body, async functions run their body in a
 * coroutine (__spawn), generators in __gen, async generators in __agen;
 * the awaits and yields stay in place inside the body. */
#include <stdio.h>
#include <string.h>

#include "sandbox/lower/emit.h"

#define W(s) lower__e_tok(E, 0, "" s, sizeof(s) - 1)

static struct lname *param_formal(struct emit *E, struct node *prm)
{
    struct node *t = prm->kind == N_ASSIGNPAT ? prm->a : prm;
    if (t->kind == N_IDENT && t->x)
        return ((struct binding *)t->x)->out;
    if (t->kind == N_IDENT)
        return t->name;
    if (!prm->x)
        prm->x = lower__e_tmp_name(E);
    return prm->x;
}

void lower__e_params(struct emit *E, struct node *fn)
{
    W("(");
    int first = 1;
    for (struct node *prm = fn->b; prm; prm = prm->next) {
        if (prm->kind == N_REST)
            break;
        if (!first)
            W(", ");
        first = 0;
        struct node *t = prm->kind == N_ASSIGNPAT ? prm->a : prm;
        if (t->kind == N_IDENT)
            lower__e_name(E, t->line, param_formal(E, prm));
        else
            lower__e_name(E, t->line, param_formal(E, prm));
    }
    W(")");
}

/* Defaults, patterns and rest, in parameter order. */
void lower__e_param_init(struct emit *E, struct node *fn)
{
    int index = 0;
    for (struct node *prm = fn->b; prm; prm = prm->next, index++) {
        if (prm->kind == N_REST) {
            char tmp[64];
            struct node *t = prm->a;
            struct lname *dst = t->kind == N_IDENT && t->x ? ((struct binding *)t->x)->out : NULL;
            if (!dst)
                dst = lower__e_tmp(E);
            W(" var ");
            lower__e_name(E, prm->line, dst);
            snprintf(tmp, sizeof tmp, " = Array.prototype.slice.call(arguments, %d);", index);
            lower__e_w(E, tmp);
            if (t->kind != N_IDENT) {
                int first = 1;
                struct lower_guard guard;
                lower__e_guard_open(E, &guard);
                W(" var ");
                lower__e_pattern(E, t, dst, 1, &first);
                W(";");
                lower__e_guard_close(E, &guard);
            }
            continue;
        }
        struct node *t = prm->kind == N_ASSIGNPAT ? prm->a : prm;
        struct lname *formal = param_formal(E, prm);
        if (prm->kind == N_ASSIGNPAT) {
            W(" if (");
            lower__e_name(E, 0, formal);
            W(" === void 0) ");
            lower__e_name(E, 0, formal);
            W(" = ");
            if (t->kind == N_IDENT)
                E->name_hint = t->name;
            lower__e_expr_loose(E, prm->b);
            E->name_hint = NULL;
            W(";");
        }
        if (t->kind != N_IDENT) {
            int first = 1;
            struct lower_guard guard;
            lower__e_guard_open(E, &guard);
            W(" var ");
            lower__e_pattern(E, t, formal, 1, &first);
            W(";");
            lower__e_guard_close(E, &guard);
        }
    }
}

static void e_body(struct emit *E, struct node *fn)
{
    if (fn->flags & NF_EXPRBODY) {
        lower__e_tok(E, fn->c->line, " return ", 8);
        lower__e_expr_loose(E, fn->c);
        W(";");
    } else {
        lower__e_tdz_init(E, fn->c->x);
        lower__e_stmts(E, fn->c->a);
    }
}

static int body_end_line(struct node *fn)
{
    if (fn->flags & NF_EXPRBODY)
        return 0;
    return fn->c->d ? fn->c->d->line : 0;
}

/* Does a body start with a "use strict" directive? */
int lower__e_is_strict_body(struct emit *E, struct node *first)
{
    for (struct node *s = first; s && s->kind == N_EXPRSTMT && s->a->kind == N_STR; s = s->next) {
        size_t n = s->a->end - s->a->pos;
        if (n == 12 && memcmp(E->src + s->a->pos + 1, "use strict", 10) == 0)
            return 1;
    }
    return 0;
}

/* The ES2015 .length of fn (parameters before the first default or rest) when it
 * differs from the formals the lowered function has (a default before the last
 * parameter), else -1. */
static int es_length_fix(struct node *fn)
{
    int n = 0, formals = 0, seen_default = 0;
    for (struct node *prm = fn->b; prm; prm = prm->next) {
        if (prm->kind == N_REST)
            break;
        formals++;
        if (prm->kind == N_ASSIGNPAT)
            seen_default = 1;
        if (!seen_default)
            n++;
    }
    return n != formals ? n : -1;
}

static void e_func(struct emit *E, struct node *fn, struct lname *name, int no_keyword, int inferred)
{
    /* function expressions get their ES .length through __fnlen (declarations: e_function_decl) */
    int fixlen = no_keyword || (fn->flags & NF_DECL) ? -1 : es_length_fix(fn);
    if (fixlen >= 0)
        lower__e_tok(E, fn->line, "__fnlen(", 8);
    struct funcinfo *fi = fn->x;
    int arrow = (fn->op & FN_ARROW) != 0, async = (fn->op & FN_ASYNC) != 0,
        gen = (fn->op & FN_GEN) != 0;
    /* an arrow is an operand of nothing tighter than `,` and `=`: parentheses
     * only where `function` would start a declaration */
    int paren = arrow && E->stmt_start;
    if (paren)
        lower__e_tok(E, fn->line, "(", 1);
    if (!no_keyword) {
        lower__e_tok(E, fn->line, "function", 8);
        W(" ");
    }
    if (name)
        lower__e_name(E, fn->line, name);
    lower__e_params(E, fn);
    lower__e_tok(E, (fn->flags & NF_EXPRBODY) ? 0 : fn->c->line, " {", 2);
    struct efn outer, inner;
    lower__e_push_fn(E, &outer, arrow ? NULL : fi, fi);
    if (!(fn->flags & NF_EXPRBODY) && lower__e_is_strict_body(E, fn->c->a)) {
        outer.strict = 1;
        W(" \"use strict\";");
    }
    /* Directives of our Duktape build (sandbox/duktape/patches/0020-directives.patch):
     * arrows, async functions, generators and methods are not constructors (no .prototype
     * object per closure, `new` throws as in ES2015), and a name that only came from
     * inference binds nothing inside the function. */
    if (arrow || async || gen || ((fn->op & FN_METHOD) && !(fn->op & (FN_CTOR | FN_FIELD))))
        W(" \"use duk noctor\";");
    if (inferred)
        W(" \"use duk nobind\";");
    lower__e_prologue(E, fi);
    if (!async && !gen) {
        lower__e_param_init(E, fn);
        e_body(E, fn);
    } else {
        if (gen)
            lower__e_param_init(E, fn);
        lower__e_w(E, gen ? (async ? " return __agen(function () { \"use duk noctor\";"
                                   : " return __gen(function () { \"use duk noctor\";")
                           : " return __spawn(function () { \"use duk noctor\";");
        lower__e_push_fn(E, &inner, arrow ? NULL : fi, fi);
        inner.is_gen = gen && !async;
        inner.is_agen = gen && async;
        inner.is_async = async && !gen;
        if (!gen)
            lower__e_param_init(E, fn);
        e_body(E, fn);
        lower__e_tok(E, body_end_line(fn), "", 0);
        lower__e_declare_temps(E, &inner);
        lower__e_pop_fn(E);
        /* an arrow's body reads this and arguments through captures; a
         * function's body that reads neither needs neither */
        lower__e_w(E, arrow || !(fi->flags & FI_OWN_THIS) ? " });" : " }, this, arguments);");
    }
    lower__e_tok(E, body_end_line(fn), " ", 1);
    lower__e_declare_temps(E, &outer);
    lower__e_pop_fn(E);
    W("}");
    if (paren)
        W(")");
    if (fixlen >= 0) {
        char tmp[32];
        snprintf(tmp, sizeof tmp, ", %d)", fixlen);
        lower__e_w(E, tmp);
    }
}

/* `__fnlen(name, n);` after a declaration whose .length the lowering changed. */
static void e_decl_length(struct emit *E, struct node *fn, struct lname *name)
{
    int n = es_length_fix(fn);
    if (n < 0)
        return;
    char tmp[32];
    W(" __fnlen(");
    lower__e_name(E, 0, name);
    snprintf(tmp, sizeof tmp, ", %d);", n);
    lower__e_w(E, tmp);
}

static int usable_name(struct lname *n)
{
    if (!n || !n->len || (n->kw && n->kw <= KW_LAST_RESERVED) || n->kw == KW_ARGUMENTS ||
        n->kw == KW_LET || n->kw == KW_STATIC || n->kw == KW_YIELD || n->kw == KW_AWAIT ||
        n->kw == KW_UNDEFINED)
        return 0;
    if (n->len == 4 && memcmp(n->s, "eval", 4) == 0)
        return 0;
    /* reserved in strict code (class bodies) */
    static const char *const strict_reserved[] = {"implements", "interface", "package",
                                                  "private", "protected", "public"};
    for (size_t i = 0; i < sizeof strict_reserved / sizeof strict_reserved[0]; i++)
        if (n->len == strlen(strict_reserved[i]) && memcmp(n->s, strict_reserved[i], n->len) == 0)
            return 0;
    /* Duktape's ES5 tokenizer refuses some identifier characters */
    for (uint32_t i = 0; i < n->len; i++)
        if ((unsigned char)n->s[i] >= 0x80)
            return 0;
    return 1;
}

void lower__e_function(struct emit *E, struct node *fn, struct lname *name_override)
{
    struct lname *name = name_override;
    struct lname *hint = E->name_hint;
    E->name_hint = NULL;
    if (!name && fn->a && !(fn->op & FN_METHOD))
        name = fn->a->x ? ((struct binding *)fn->a->x)->out : fn->a->name;
    /* ES name inference (`const f = () => {}` has f.name "f"): a named
     * function expression whose "use duk nobind" directive keeps the name
     * from binding inside it, so the body still sees an outer f */
    int inferred = 0;
    if (!name && !fn->a && hint && usable_name(hint) && !(fn->op & (FN_GETTER | FN_SETTER)) &&
        fn->x && hint->id) {
        name = hint;
        inferred = 1;
    }
    int accessor_syntax = (fn->op & (FN_GETTER | FN_SETTER)) && E->fn && !name_override &&
                          (fn->op & FN_METHOD) && !fn->y;
    e_func(E, fn, accessor_syntax ? NULL : name, accessor_syntax, inferred && !accessor_syntax);
}

void lower__e_function_decl(struct emit *E, struct node *fn)
{
    struct binding *b = fn->a->x;
    struct lname *name = b ? b->out : fn->a->name;
    if (b && b->kind == BK_BLOCKFN && (E->fn->catch_depth > 0 || E->fn->strict)) {
        lower__e_tok(E, fn->line, "var", 3);
        W(" ");
        lower__e_name(E, 0, name);
        W(" = ");
        e_func(E, fn, name, 0, 0);
        W(";");
        e_decl_length(E, fn, name);
        return;
    }
    e_func(E, fn, name, 0, 0);
    e_decl_length(E, fn, name);
}
