/* The statement half of the parser: token helpers (expect, ASI, depth
 * bound), statements, declarations, functions and parameters, classes and
 * the program. TypeScript-only declarations are delegated to ts.c. */
#include <stdio.h>
#include <string.h>

#include "sandbox/lower/internal.h"

#define P_TOK(p) ((p)->lx.tok)


/* ---- token helpers -------------------------------------------------------- */

void lower__p_next(struct parser *p)
{
    const char *msg;
    uint32_t epos;
    p->prev_end = P_TOK(p).end;
    p->prev_line = p->lx.line;
    p->prev_await = P_TOK(p).type == TK_NAME && P_TOK(p).kw == KW_AWAIT && !P_TOK(p).escaped
                        ? P_TOK(p).pos + 1 : 0;
    if (p->spec_depth && --p->spec_budget <= 0)
        lower__p_fail(p, NULL);
    if (lower__lex_next(&p->lx, &msg, &epos) < 0)
        lower__error_at(p->cx, epos, "%s", msg);
}

void lower__p_peek(struct parser *p, struct token *out)
{
    struct lex_state s;
    const char *msg;
    uint32_t epos;
    lower__lex_save(&p->lx, &s);
    if (lower__lex_next(&p->lx, &msg, &epos) < 0)
        memset(&p->lx.tok, 0, sizeof p->lx.tok);
    *out = p->lx.tok;
    lower__lex_restore(&p->lx, &s);
}

int lower__p_is(struct parser *p, int op)
{
    return P_TOK(p).type == TK_PUNCT && P_TOK(p).op == op;
}

int lower__p_eat(struct parser *p, int op)
{
    if (!lower__p_is(p, op))
        return 0;
    lower__p_next(p);
    return 1;
}

int lower__p_is_kw(struct parser *p, int kw)
{
    return P_TOK(p).type == TK_NAME && P_TOK(p).kw == kw && !P_TOK(p).escaped;
}

void lower__p_await_outside_async(struct parser *p, uint32_t pos)
{
    if (p->cx->spec_jmp)
        longjmp(*p->cx->spec_jmp, 1);
    if (!p->fn_pos)
        lower__error_at(p->cx, pos, "'await' is only valid in async functions and at the top "
                        "level of the program, not in this script");
    int line, col;
    lower__line_col(p->cx, p->fn_pos - 1, &line, &col);
    lower__error_at(p->cx, pos, "'await' is only valid in async functions: the enclosing %s at "
                    "line %d, column %d is not async (mark it `async`)",
                    p->fn_arrow ? "arrow function" : "function", line, col);
}

void lower__p_fail(struct parser *p, const char *what)
{
    const struct token *t = &P_TOK(p);
    if (p->cx->spec_jmp)
        longjmp(*p->cx->spec_jmp, 1);
    /* `await x` where await is a plain name: the name is not the mistake */
    if (p->prev_await && !p->in_async && !p->in_static_block && t->type != TK_EOF &&
        !t->nl_before && (t->type != TK_PUNCT || t->op == P_LBRACE))
        lower__p_await_outside_async(p, p->prev_await - 1);
    if (t->type == TK_EOF)
        lower__error_at(p->cx, t->pos, "Unexpected end of input%s%s%s", what ? " (expected '" : "",
                        what ? what : "", what ? "')" : "");
    int n = (int)(t->end - t->pos);
    if (n > 40)
        n = 40;
    if (what)
        lower__error_at(p->cx, t->pos, "Unexpected token '%.*s' (expected '%s')", n,
                        p->cx->src + t->pos, what);
    lower__error_at(p->cx, t->pos, "Unexpected token '%.*s'", n, p->cx->src + t->pos);
}

void lower__p_expect(struct parser *p, int op)
{
    if (!lower__p_eat(p, op))
        lower__p_fail(p, lower__punct_text[op]);
}

void lower__p_semicolon(struct parser *p)
{
    if (lower__p_eat(p, P_SEMI))
        return;
    if (lower__p_is(p, P_RBRACE) || P_TOK(p).type == TK_EOF || P_TOK(p).nl_before)
        return;
    lower__p_fail(p, ";");
}

void lower__p_enter(struct parser *p)
{
    if (++p->depth > LOWER_MAX_DEPTH) {
        if (p->cx->spec_jmp)
            longjmp(*p->cx->spec_jmp, 1);
        lower__error_at(p->cx, P_TOK(p).pos, "Nesting too deep (more than %d levels)",
                        LOWER_MAX_DEPTH);
    }
}

void lower__p_leave(struct parser *p)
{
    p->depth--;
}

struct lname *lower__p_ident(struct parser *p)
{
    const struct token *t = &P_TOK(p);
    if (t->type != TK_NAME)
        lower__p_fail(p, NULL);
    /* escaped keywords are not identifiers either */
    int kw = t->name->kw;
    if (kw && kw <= KW_LAST_RESERVED)
        lower__p_fail(p, NULL);
    if ((kw == KW_AWAIT && (p->in_async || p->in_static_block)) || (kw == KW_YIELD && p->in_gen))
        lower__p_fail(p, NULL);
    struct lname *n = t->name;
    lower__p_next(p);
    return n;
}

struct node *lower__new_node(struct parser *p, int kind, uint32_t pos, int line)
{
    struct node *n = lower__arena_alloc(&p->cx->arena, sizeof *n);
    if (!n)
        lower__oom(p->cx);
    n->kind = (uint8_t)kind;
    n->pos = pos;
    n->end = pos;
    n->line = line;
    return n;
}

static struct node *ident_node(struct parser *p)
{
    struct node *id = lower__new_node(p, N_IDENT, P_TOK(p).pos, P_TOK(p).line);
    id->end = P_TOK(p).end;
    id->name = lower__p_ident(p);
    return id;
}

/* ---- patterns ------------------------------------------------------------ */

static struct node *parse_binding_element(struct parser *p);

static struct node *parse_obj_pattern(struct parser *p)
{
    struct node *n = lower__new_node(p, N_OBJPAT, P_TOK(p).pos, P_TOK(p).line);
    struct node *last = NULL;
    lower__p_next(p);
    while (!lower__p_is(p, P_RBRACE)) {
        struct node *e;
        if (lower__p_is(p, P_ELLIPSIS)) {
            e = lower__new_node(p, N_REST, P_TOK(p).pos, P_TOK(p).line);
            lower__p_next(p);
            e->a = ident_node(p);
            if (!lower__p_is(p, P_RBRACE))
                lower__error_at(p->cx, P_TOK(p).pos, "Rest element must be last element");
        } else {
            e = lower__new_node(p, N_PROP, P_TOK(p).pos, P_TOK(p).line);
            e->a = lower__parse_prop_key(p, e, 0);
            if (lower__p_eat(p, P_COLON)) {
                e->b = parse_binding_element(p);
            } else {
                if (e->a->kind != N_IDENT || (e->flags & NF_COMPUTED))
                    lower__p_fail(p, ":");
                if (e->a->name->kw && e->a->name->kw <= KW_LAST_RESERVED)
                    lower__error_at(p->cx, e->a->pos, "Unexpected reserved word");
                e->flags |= NF_SHORTHAND;
                struct node *v = lower__new_node(p, N_IDENT, e->a->pos, e->a->line);
                v->name = e->a->name;
                v->end = e->a->end;
                if (lower__p_eat(p, P_ASSIGN)) {
                    struct node *as = lower__new_node(p, N_ASSIGNPAT, v->pos, v->line);
                    as->a = v;
                    as->b = lower__parse_assign(p);
                    v = as;
                }
                e->b = v;
            }
        }
        e->end = p->prev_end;
        if (last)
            last->next = e;
        else
            n->a = e;
        last = e;
        if (!lower__p_eat(p, P_COMMA))
            break;
    }
    lower__p_expect(p, P_RBRACE);
    n->end = p->prev_end;
    return n;
}

static struct node *parse_arr_pattern(struct parser *p)
{
    struct node *n = lower__new_node(p, N_ARRPAT, P_TOK(p).pos, P_TOK(p).line);
    struct node *last = NULL;
    lower__p_next(p);
    while (!lower__p_is(p, P_RBRACKET)) {
        struct node *e;
        if (lower__p_is(p, P_COMMA)) {
            e = lower__new_node(p, N_HOLE, P_TOK(p).pos, P_TOK(p).line);
        } else if (lower__p_is(p, P_ELLIPSIS)) {
            e = lower__new_node(p, N_REST, P_TOK(p).pos, P_TOK(p).line);
            lower__p_next(p);
            e->a = lower__parse_binding_target(p);
            if (!lower__p_is(p, P_RBRACKET))
                lower__error_at(p->cx, P_TOK(p).pos, "Rest element must be last element");
        } else {
            e = parse_binding_element(p);
        }
        if (last)
            last->next = e;
        else
            n->a = e;
        last = e;
        if (!lower__p_eat(p, P_COMMA))
            break;
    }
    lower__p_expect(p, P_RBRACKET);
    n->end = p->prev_end;
    return n;
}

struct node *lower__parse_binding_target(struct parser *p)
{
    struct node *n;
    /* Inside a pattern's brackets `in` is an operator again, also in a
     * for-initialiser: `for (let [a = "k" in o] = []; ;)`. */
    int ni = p->no_in;
    lower__p_enter(p);
    if (lower__p_is(p, P_LBRACE) || lower__p_is(p, P_LBRACKET)) {
        p->no_in = 0;
        n = lower__p_is(p, P_LBRACE) ? parse_obj_pattern(p) : parse_arr_pattern(p);
        p->no_in = ni;
    } else {
        n = ident_node(p);
    }
    lower__p_leave(p);
    return n;
}

static struct node *parse_binding_element(struct parser *p)
{
    struct node *t = lower__parse_binding_target(p);
    if (!lower__p_is(p, P_ASSIGN))
        return t;
    struct node *as = lower__new_node(p, N_ASSIGNPAT, t->pos, t->line);
    lower__p_next(p);
    as->a = t;
    as->b = lower__parse_assign(p);
    as->end = p->prev_end;
    return as;
}

/* ---- functions ------------------------------------------------------------ */

static struct node *parse_param(struct parser *p, int is_ctor)
{
    int paramprop = 0;
    while (P_TOK(p).type == TK_NAME && lower__ts_is_modifier(P_TOK(p).kw)) {
        struct token nx;
        lower__p_peek(p, &nx);
        if (!(nx.type == TK_NAME || (nx.type == TK_PUNCT && (nx.op == P_LBRACE || nx.op == P_LBRACKET))))
            break;
        if (!is_ctor)
            lower__error_at(p->cx, P_TOK(p).pos, "A parameter property is only allowed in a constructor");
        paramprop = 1;
        lower__p_next(p);
    }
    if (lower__p_is(p, P_AT))
        lower__error_at(p->cx, P_TOK(p).pos, "Unsupported: decorators");
    if (lower__p_is(p, P_ELLIPSIS)) {
        struct node *r = lower__new_node(p, N_REST, P_TOK(p).pos, P_TOK(p).line);
        lower__p_next(p);
        r->a = lower__parse_binding_target(p);
        lower__p_eat(p, P_QUESTION);
        lower__ts_skip_annotation(p);
        r->end = p->prev_end;
        return r;
    }
    struct node *t = lower__parse_binding_target(p);
    lower__p_eat(p, P_QUESTION);
    lower__ts_skip_annotation(p);
    if (lower__p_is(p, P_ASSIGN)) {
        struct node *as = lower__new_node(p, N_ASSIGNPAT, t->pos, t->line);
        lower__p_next(p);
        as->a = t;
        as->b = lower__parse_assign(p);
        as->end = p->prev_end;
        t = as;
    }
    if (paramprop) {
        struct node *id = t->kind == N_ASSIGNPAT ? t->a : t;
        if (id->kind != N_IDENT)
            lower__error_at(p->cx, id->pos, "A parameter property may not be a binding pattern");
        t->flags |= NF_PARAMPROP;
    }
    return t;
}

struct node *lower__parse_params(struct parser *p, struct node *fn)
{
    struct node *last = NULL;
    int is_ctor = (fn->op & FN_CTOR) != 0;
    lower__p_expect(p, P_LPAREN);
    int ni = p->no_in, sp = p->in_params;
    p->no_in = 0;
    p->in_params = 1;
    while (!lower__p_is(p, P_RPAREN)) {
        if (lower__p_is_kw(p, KW_THIS)) { /* TS `this` parameter */
            lower__p_next(p);
            lower__ts_skip_annotation(p);
            if (!lower__p_eat(p, P_COMMA))
                break;
            continue;
        }
        struct node *prm = parse_param(p, is_ctor);
        if (last)
            last->next = prm;
        else
            fn->b = prm;
        last = prm;
        if (prm->kind == N_REST && !lower__p_is(p, P_RPAREN))
            lower__p_fail(p, ")");
        if (!lower__p_eat(p, P_COMMA))
            break;
    }
    p->no_in = ni;
    p->in_params = sp;
    lower__p_expect(p, P_RPAREN);
    return fn->b;
}

static struct node *parse_statement_list(struct parser *p, struct node **first, int until_brace)
{
    struct node *last = NULL;
    while (P_TOK(p).type != TK_EOF && !(until_brace && lower__p_is(p, P_RBRACE))) {
        struct node *s = lower__parse_statement(p);
        if (last)
            last->next = s;
        else
            *first = s;
        last = s;
    }
    return last;
}

struct node *lower__parse_block(struct parser *p)
{
    struct node *b = lower__new_node(p, N_BLOCK, P_TOK(p).pos, P_TOK(p).line);
    lower__p_enter(p);
    lower__p_expect(p, P_LBRACE);
    parse_statement_list(p, &b->a, 1);
    b->d = lower__new_node(p, N_EMPTY, P_TOK(p).pos, P_TOK(p).line); /* the closing brace */
    lower__p_expect(p, P_RBRACE);
    b->end = p->prev_end;
    lower__p_leave(p);
    return b;
}

static void collect_names(struct parser *p, struct node *pat, struct lname **names, int *n, int cap)
{
    if (!pat)
        return;
    lower__p_enter(p);
    switch (pat->kind) {
    case N_IDENT:
        for (int i = 0; i < *n; i++)
            if (names[i] == pat->name)
                lower__error_at(p->cx, pat->pos, "Duplicate parameter name not allowed in this context");
        if (*n < cap)
            names[(*n)++] = pat->name;
        break;
    case N_ASSIGNPAT:
    case N_REST:
        collect_names(p, pat->a, names, n, cap);
        break;
    case N_ARRPAT:
        for (struct node *e = pat->a; e; e = e->next)
            collect_names(p, e, names, n, cap);
        break;
    case N_OBJPAT:
        for (struct node *e = pat->a; e; e = e->next)
            collect_names(p, e->kind == N_REST ? e->a : e->b, names, n, cap);
        break;
    }
    lower__p_leave(p);
}

static int is_use_strict(struct parser *p, struct node *first)
{
    for (struct node *s = first; s && s->kind == N_EXPRSTMT && s->a->kind == N_STR; s = s->next)
        if (s->a->end - s->a->pos == 12 && memcmp(p->cx->src + s->a->pos + 1, "use strict", 10) == 0)
            return 1;
    return 0;
}

/* Early errors of parameter lists: duplicates (arrows, methods, non-simple
 * lists), "use strict" with non-simple parameters, accessor arity. */
void lower__check_params(struct parser *p, struct node *fn)
{
    int simple = 1, count = 0;
    for (struct node *prm = fn->b; prm; prm = prm->next, count++)
        if (prm->kind != N_IDENT)
            simple = 0;
    if ((fn->op & FN_GETTER) && count)
        lower__error_at(p->cx, fn->b->pos, "Getter must not have any formal parameters");
    if ((fn->op & FN_SETTER) && (count != 1 || fn->b->kind == N_REST))
        lower__error_at(p->cx, fn->pos, "Setter must have exactly one formal parameter");
    if (!simple && fn->c && !(fn->flags & NF_EXPRBODY) && is_use_strict(p, fn->c->a))
        lower__error_at(p->cx, fn->c->pos, "Illegal 'use strict' directive in function with non-simple parameter list");
    if (simple && !(fn->op & (FN_ARROW | FN_METHOD)))
        return; /* sloppy functions may repeat simple parameter names */
    struct lname *names[64];
    int n = 0;
    for (struct node *prm = fn->b; prm; prm = prm->next)
        collect_names(p, prm, names, &n, 64);
}

/* After `function` (and `async`), or at a method's parameter list. */
struct node *lower__parse_function(struct parser *p, int flags, int is_decl, uint32_t pos, int line)
{
    struct node *fn = lower__new_node(p, N_FUNC, pos, line);
    lower__p_enter(p);
    if (!(flags & FN_METHOD) && lower__p_eat(p, P_STAR))
        flags |= FN_GEN;
    fn->op = (uint8_t)flags;
    if (is_decl)
        fn->flags |= NF_DECL;
    int sf = p->in_func, sa = p->in_async, sg = p->in_gen, sarrow = p->fn_arrow;
    uint32_t sfn = p->fn_pos, sawaits = p->awaits;
    p->fn_pos = pos + 1;
    p->fn_arrow = 0;
    if (!(flags & FN_METHOD) && P_TOK(p).type == TK_NAME && !lower__p_is(p, P_LPAREN)) {
        /* the name of a generator/async expression follows its own rules */
        fn->a = ident_node(p);
    } else if (is_decl) {
        lower__p_fail(p, NULL);
    }
    p->in_func = 1;
    p->in_async = (flags & FN_ASYNC) != 0;
    p->in_gen = (flags & FN_GEN) != 0;
    int ss = p->in_static_block, sp = p->in_params;
    p->in_static_block = 0;
    if (lower__p_is(p, P_LT))
        lower__ts_skip_type_params(p);
    lower__parse_params(p, fn);
    if (p->awaits != sawaits)
        lower__error_at(p->cx, pos, "'await' is not allowed in a function's parameters");
    if (lower__p_is(p, P_COLON)) {
        lower__p_next(p);
        lower__ts_skip_type(p);
    }
    p->in_params = 0;
    if (!lower__p_is(p, P_LBRACE) && (is_decl || (flags & FN_METHOD))) {
        /* TypeScript overload or abstract signature */
        lower__p_semicolon(p);
        fn->flags |= NF_ERASED;
    } else {
        fn->c = lower__parse_block(p);
    }
    p->in_params = sp;
    p->in_func = sf;
    p->in_async = sa;
    p->in_gen = sg;
    p->in_static_block = ss;
    p->fn_pos = sfn;
    p->fn_arrow = sarrow;
    p->awaits = sawaits;
    fn->end = p->prev_end;
    lower__check_params(p, fn);
    lower__p_leave(p);
    return fn;
}

/* ---- statements ---------------------------------------------------------- */

static int let_is_decl(struct parser *p);
static struct node *parse_expr_statement(struct parser *p);

/* The body of if/else/loops/labels/with: not a declaration (a plain
 * function stays allowed after if/else (allow_function 1) and labels (2), as in
 * sloppy code). */
static struct node *parse_substatement_ex(struct parser *p, int allow_function)
{
    const struct token *t = &P_TOK(p);
    if (t->type == TK_NAME && !t->escaped && t->kw == KW_LET) {
        /* `let` then a line break (not `[`): the identifier let, and ASI */
        struct token nx;
        lower__p_peek(p, &nx);
        if (nx.nl_before && !(nx.type == TK_PUNCT && nx.op == P_LBRACKET))
            return parse_expr_statement(p);
    }
    if (t->type == TK_NAME && !t->escaped &&
        (t->kw == KW_CONST || t->kw == KW_CLASS || (t->kw == KW_LET && let_is_decl(p))))
        lower__error_at(p->cx, t->pos, "Lexical declaration cannot appear in a single-statement context");
    if (t->type == TK_NAME && !t->escaped && (t->kw == KW_FUNCTION || t->kw == KW_ASYNC)) {
        struct token nx;
        lower__p_peek(p, &nx);
        int is_async_fn = t->kw == KW_ASYNC && nx.type == TK_NAME && nx.kw == KW_FUNCTION && !nx.nl_before;
        int is_gen = t->kw == KW_FUNCTION && nx.type == TK_PUNCT && nx.op == P_STAR;
        if (is_async_fn || is_gen || (t->kw == KW_FUNCTION && !allow_function))
            lower__error_at(p->cx, t->pos, "Function declarations are not allowed in this statement position");
    }
    struct node *n = lower__parse_statement(p);
    /* nor a labelled one (l: function f() {}), except as the body of a label */
    struct node *l = n;
    while (allow_function != 2 && l->kind == N_LABEL)
        l = l->a;
    if (l != n && l->kind == N_FUNC)
        lower__error_at(p->cx, l->pos, "Function declarations are not allowed in this statement position");
    /* an erased TypeScript declaration ("if (x) type T = 1;") still needs a
     * statement there, or the next one would become the body */
    if (n->kind == N_EMPTY)
        n->flags &= ~NF_ERASED;
    return n;
}

static struct node *parse_substatement(struct parser *p)
{
    return parse_substatement_ex(p, 0);
}

static struct node *parse_var(struct parser *p, int kind, int in_for)
{
    struct node *v = lower__new_node(p, N_VAR, P_TOK(p).pos, P_TOK(p).line);
    v->op = (uint8_t)kind;
    lower__p_next(p);
    struct node *last = NULL;
    do {
        struct node *d = lower__new_node(p, N_DECLARATOR, P_TOK(p).pos, P_TOK(p).line);
        d->a = lower__parse_binding_target(p);
        lower__p_eat(p, P_BANG); /* TS definite assignment */
        lower__ts_skip_annotation(p);
        if (lower__p_eat(p, P_ASSIGN))
            d->b = lower__parse_assign(p);
        else if (!in_for && (d->a->kind != N_IDENT))
            lower__error_at(p->cx, d->pos, "Missing initializer in destructuring declaration");
        else if (!in_for && kind == VK_CONST && !p->in_declare)
            lower__error_at(p->cx, d->pos, "Missing initializer in const declaration");
        d->end = p->prev_end;
        if (last)
            last->next = d;
        else
            v->a = d;
        last = d;
    } while (lower__p_eat(p, P_COMMA));
    v->end = p->prev_end;
    return v;
}

static int let_is_decl(struct parser *p)
{
    struct token nx;
    lower__p_peek(p, &nx);
    return (nx.type == TK_NAME && !(nx.kw == KW_IN || nx.kw == KW_INSTANCEOF || nx.kw == KW_OF)) ||
           (nx.type == TK_PUNCT && (nx.op == P_LBRACKET || nx.op == P_LBRACE));
}

static struct node *parse_for(struct parser *p)
{
    uint32_t pos = P_TOK(p).pos;
    int line = P_TOK(p).line;
    struct node *n = lower__new_node(p, N_FOR, pos, line);
    lower__p_next(p);
    if (lower__p_is_kw(p, KW_AWAIT)) {
        if (!p->in_async && !p->in_static_block)
            lower__p_await_outside_async(p, P_TOK(p).pos);
        if (!p->in_async)
            lower__p_fail(p, NULL);
        n->flags |= NF_AWAIT;
        lower__p_next(p);
    }
    lower__p_expect(p, P_LPAREN);
    struct node *init = NULL;
    p->no_in = 1;
    if (lower__p_is_kw(p, KW_VAR))
        init = parse_var(p, VK_VAR, 1);
    else if ((lower__p_is_kw(p, KW_LET) && let_is_decl(p)) || lower__p_is_kw(p, KW_CONST))
        init = parse_var(p, lower__p_is_kw(p, KW_CONST) ? VK_CONST : VK_LET, 1);
    else if (!lower__p_is(p, P_SEMI))
        init = lower__parse_expression(p);
    p->no_in = 0;
    int is_of = lower__p_is_kw(p, KW_OF), is_in = lower__p_is_kw(p, KW_IN);
    if (is_of || is_in) {
        n->kind = is_of ? N_FOROF : N_FORIN;
        if (init->kind == N_VAR) {
            if (init->a->next || init->a->b)
                lower__error_at(p->cx, init->pos, "Invalid left-hand side in for-%s loop",
                                is_of ? "of" : "in");
        } else if (init->kind == N_ARRAY || init->kind == N_OBJECT) {
            init = lower__to_pattern(p, init, 0);
        } else {
            struct node *t = init;
            while (t->kind == N_PAREN)
                t = t->a;
            if (!(t->kind == N_IDENT || t->kind == N_MEMBER))
                lower__error_at(p->cx, init->pos, "Invalid left-hand side in for loop");
            /* for (let of ...) and for (async of ...) are not for-of loops (an
             * escaped \u0061sync is a name) */
            if (is_of && init->kind == N_IDENT && p->cx->src[init->pos] != '\\' &&
                ((init->name->len == 3 && memcmp(init->name->s, "let", 3) == 0) ||
                 (init->name->len == 5 && memcmp(init->name->s, "async", 5) == 0)))
                lower__error_at(p->cx, init->pos, "The left-hand side of a for-of loop may not be '%s'",
                                init->name->s);
        }
        lower__p_next(p);
        n->a = init;
        n->b = is_of ? lower__parse_assign(p) : lower__parse_expression(p);
    } else {
        if (n->flags & NF_AWAIT)
            lower__p_fail(p, "of");
        if (init && init->kind == N_VAR) {
            for (struct node *d = init->a; d; d = d->next)
                if (!d->b && (d->a->kind != N_IDENT || init->op == VK_CONST))
                    lower__error_at(p->cx, d->pos, "Missing initializer in declaration");
        }
        n->a = init;
        lower__p_expect(p, P_SEMI);
        if (!lower__p_is(p, P_SEMI))
            n->b = lower__parse_expression(p);
        lower__p_expect(p, P_SEMI);
        if (!lower__p_is(p, P_RPAREN))
            n->c = lower__parse_expression(p);
    }
    lower__p_expect(p, P_RPAREN);
    n->d = parse_substatement(p);
    n->end = p->prev_end;
    return n;
}

static struct node *parse_try(struct parser *p)
{
    struct node *n = lower__new_node(p, N_TRY, P_TOK(p).pos, P_TOK(p).line);
    lower__p_next(p);
    n->a = lower__parse_block(p);
    if (lower__p_is_kw(p, KW_CATCH)) {
        lower__p_next(p);
        if (lower__p_eat(p, P_LPAREN)) {
            n->b = lower__parse_binding_target(p);
            lower__ts_skip_annotation(p);
            lower__p_expect(p, P_RPAREN);
        }
        n->c = lower__parse_block(p);
        n->c->flags |= NF_SHORTHAND; /* marks a catch body */
    }
    if (lower__p_is_kw(p, KW_FINALLY)) {
        lower__p_next(p);
        n->d = lower__parse_block(p);
    }
    if (!n->c && !n->d)
        lower__p_fail(p, "catch");
    n->end = p->prev_end;
    return n;
}

static struct node *parse_switch(struct parser *p)
{
    struct node *n = lower__new_node(p, N_SWITCH, P_TOK(p).pos, P_TOK(p).line);
    lower__p_next(p);
    lower__p_expect(p, P_LPAREN);
    n->a = lower__parse_expression(p);
    lower__p_expect(p, P_RPAREN);
    lower__p_expect(p, P_LBRACE);
    struct node *last = NULL;
    while (!lower__p_is(p, P_RBRACE)) {
        struct node *c = lower__new_node(p, N_CASE, P_TOK(p).pos, P_TOK(p).line);
        if (lower__p_is_kw(p, KW_CASE)) {
            lower__p_next(p);
            c->a = lower__parse_expression(p);
        } else if (lower__p_is_kw(p, KW_DEFAULT)) {
            lower__p_next(p);
        } else {
            lower__p_fail(p, "case");
        }
        lower__p_expect(p, P_COLON);
        struct node *sl = NULL;
        while (!lower__p_is(p, P_RBRACE) && !lower__p_is_kw(p, KW_CASE) &&
               !lower__p_is_kw(p, KW_DEFAULT) && P_TOK(p).type != TK_EOF) {
            struct node *s = lower__parse_statement(p);
            if (sl)
                sl->next = s;
            else
                c->b = s;
            sl = s;
        }
        if (last)
            last->next = c;
        else
            n->b = c;
        last = c;
    }
    n->c = lower__new_node(p, N_EMPTY, P_TOK(p).pos, P_TOK(p).line);
    lower__p_expect(p, P_RBRACE);
    n->end = p->prev_end;
    return n;
}

static struct node *parse_jump(struct parser *p, int kind)
{
    struct node *n = lower__new_node(p, kind, P_TOK(p).pos, P_TOK(p).line);
    lower__p_next(p);
    const struct token *t = &P_TOK(p);
    if (kind == N_BREAK || kind == N_CONTINUE) {
        if (t->type == TK_NAME && !t->nl_before && !(t->kw && t->kw <= KW_LAST_RESERVED)) {
            n->name = t->name;
            lower__p_next(p);
        }
    } else if (kind == N_THROW) {
        if (t->nl_before)
            lower__error_at(p->cx, t->pos, "Illegal newline after throw");
        n->a = lower__parse_expression(p);
    } else if (!t->nl_before && t->type != TK_EOF && !lower__p_is(p, P_SEMI) &&
               !lower__p_is(p, P_RBRACE)) {
        n->a = lower__parse_expression(p);
    }
    lower__p_semicolon(p);
    n->end = p->prev_end;
    return n;
}

static struct node *parse_cond_stmt(struct parser *p, int kind)
{
    struct node *n = lower__new_node(p, kind, P_TOK(p).pos, P_TOK(p).line);
    lower__p_next(p);
    if (kind == N_DOWHILE) {
        n->b = parse_substatement(p);
        if (!lower__p_is_kw(p, KW_WHILE))
            lower__p_fail(p, "while");
        lower__p_next(p);
    }
    lower__p_expect(p, P_LPAREN);
    n->a = lower__parse_expression(p);
    lower__p_expect(p, P_RPAREN);
    if (kind == N_DOWHILE) {
        lower__p_eat(p, P_SEMI);
    } else {
        n->b = parse_substatement_ex(p, kind == N_IF);
        if (kind == N_IF && lower__p_is_kw(p, KW_ELSE)) {
            lower__p_next(p);
            n->c = parse_substatement_ex(p, 1);
        }
    }
    n->end = p->prev_end;
    return n;
}

static struct node *parse_expr_statement(struct parser *p)
{
    struct node *n = lower__new_node(p, N_EXPRSTMT, P_TOK(p).pos, P_TOK(p).line);
    n->a = lower__parse_expression(p);
    lower__p_semicolon(p);
    n->end = p->prev_end;
    return n;
}

static struct node *parse_keyword_statement(struct parser *p)
{
    const struct token *t = &P_TOK(p);
    uint32_t pos = t->pos;
    int line = t->line;
    struct node *n;
    switch (t->kw) {
    case KW_VAR:
        n = parse_var(p, VK_VAR, 0);
        lower__p_semicolon(p);
        return n;
    case KW_CONST: {
        struct token nx;
        lower__p_peek(p, &nx);
        if (nx.type == TK_NAME && nx.kw == KW_ENUM) {
            lower__p_next(p);
            return lower__ts_enum(p, pos, line, 1);
        }
        n = parse_var(p, VK_CONST, 0);
        lower__p_semicolon(p);
        return n;
    }
    case KW_FUNCTION:
        lower__p_next(p);
        return lower__parse_function(p, 0, 1, pos, line);
    case KW_CLASS:
        return lower__parse_class(p, 1, pos, line);
    case KW_IF:
        return parse_cond_stmt(p, N_IF);
    case KW_WHILE:
        return parse_cond_stmt(p, N_WHILE);
    case KW_DO:
        return parse_cond_stmt(p, N_DOWHILE);
    case KW_FOR:
        return parse_for(p);
    case KW_RETURN:
        if ((!p->in_func && p->cx->mode != LOWER_MODE_MAIN) || p->in_static_block)
            lower__error_at(p->cx, pos, "Illegal return statement");
        return parse_jump(p, N_RETURN);
    case KW_BREAK:
        return parse_jump(p, N_BREAK);
    case KW_CONTINUE:
        return parse_jump(p, N_CONTINUE);
    case KW_THROW:
        return parse_jump(p, N_THROW);
    case KW_TRY:
        return parse_try(p);
    case KW_SWITCH:
        return parse_switch(p);
    case KW_WITH:
        /* a class body is strict code */
        if (p->in_class_body)
            lower__error_at(p->cx, pos, "Strict mode code may not include a with statement");
        return parse_cond_stmt(p, N_WITH);
    case KW_DEBUGGER:
        n = lower__new_node(p, N_DEBUGGER, pos, line);
        lower__p_next(p);
        lower__p_semicolon(p);
        return n;
    case KW_ENUM:
        return lower__ts_enum(p, pos, line, 0);
    case KW_IMPORT:
    case KW_EXPORT:
        return lower__ts_statement(p);
    }
    return NULL;
}

struct node *lower__parse_statement(struct parser *p)
{
    lower__p_enter(p);
    const struct token *t = &P_TOK(p);
    uint32_t pos = t->pos;
    int line = t->line;
    struct node *n = NULL;
    if (t->type == TK_PUNCT && t->op == P_LBRACE) {
        n = lower__parse_block(p);
    } else if (t->type == TK_PUNCT && t->op == P_SEMI) {
        n = lower__new_node(p, N_EMPTY, pos, line);
        lower__p_next(p);
    } else if (t->type == TK_NAME && !t->escaped) {
        if (t->kw && t->kw <= KW_LAST_RESERVED)
            n = parse_keyword_statement(p);
        if (!n && t->kw == KW_LET && let_is_decl(p)) {
            n = parse_var(p, VK_LET, 0);
            lower__p_semicolon(p);
        }
        if (!n && t->kw == KW_ASYNC) {
            struct token nx;
            lower__p_peek(p, &nx);
            if (nx.type == TK_NAME && nx.kw == KW_FUNCTION && !nx.nl_before) {
                lower__p_next(p);
                lower__p_next(p);
                n = lower__parse_function(p, FN_ASYNC, 1, pos, line);
            }
        }
        if (!n && t->kw > KW_LAST_RESERVED)
            n = lower__ts_statement(p);
        if (!n) {
            struct token nx;
            lower__p_peek(p, &nx);
            int lkw = t->name->kw;
            if (nx.type == TK_PUNCT && nx.op == P_COLON && !(lkw && lkw <= KW_LAST_RESERVED) &&
                !(lkw == KW_AWAIT && p->in_async) && !(lkw == KW_YIELD && p->in_gen)) {
                n = lower__new_node(p, N_LABEL, pos, line);
                n->name = t->name;
                lower__p_next(p);
                lower__p_next(p);
                n->a = parse_substatement_ex(p, 2);
            }
        }
    } else if (t->type == TK_PUNCT && t->op == P_AT) {
        lower__error_at(p->cx, pos, "Unsupported: decorators");
    }
    if (!n)
        n = parse_expr_statement(p);
    n->end = p->prev_end;
    lower__p_leave(p);
    return n;
}

struct node *lower__parse_program(struct parser *p)
{
    struct node *prog = lower__new_node(p, N_PROGRAM, 0, 1);
    lower__p_next(p);
    parse_statement_list(p, &prog->a, 0);
    prog->end = p->lx.len;
    prog->d = lower__new_node(p, N_EMPTY, P_TOK(p).pos, P_TOK(p).line);
    return prog;
}
