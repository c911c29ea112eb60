/* The expression half of the parser: precedence climbing from assignment
 * down to primary expressions, arrows (by bounded speculation), templates,
 * object and array literals re-read as patterns, optional chains, and the
 * TypeScript expression forms (as, satisfies, !, type arguments, <T>x). */
#include <string.h>

#include "sandbox/lower/internal.h"

#define P_TOK(p) ((p)->lx.tok)

static struct node *parse_unary(struct parser *p);
static struct node *parse_lhs(struct parser *p, int no_call);
static struct node *parse_primary(struct parser *p);

/* ---- arrow speculation ---------------------------------------------------- */

static int memo_has(struct parser *p, uint32_t pos)
{
    if (!p->fail_memo)
        return 0;
    uint32_t h = (pos * 2654435761u) & p->fail_mask;
    while (p->fail_memo[h]) { /* keys are pos + 1 */
        if (p->fail_memo[h] == pos + 1)
            return 1;
        h = (h + 1) & p->fail_mask;
    }
    return 0;
}

static void memo_put(uint32_t *tab, uint32_t mask, uint32_t key)
{
    uint32_t h = ((key - 1) * 2654435761u) & mask;
    while (tab[h])
        h = (h + 1) & mask;
    tab[h] = key;
}

/* Remembers that no arrow starts at pos (a growable open-addressing set). */
static void memo_add(struct parser *p, uint32_t pos)
{
    if (!p->fail_memo || (p->fail_count + 1) * 2 > p->fail_mask) {
        uint32_t ncap = p->fail_memo ? (p->fail_mask + 1) * 2 : 1024;
        uint32_t *nt = lower__arena_alloc(&p->cx->arena, ncap * sizeof(uint32_t));
        if (!nt)
            lower__oom(p->cx);
        for (uint32_t i = 0; p->fail_memo && i <= p->fail_mask; i++)
            if (p->fail_memo[i])
                memo_put(nt, ncap - 1, p->fail_memo[i]);
        p->fail_memo = nt;
        p->fail_mask = ncap - 1;
    }
    p->fail_count++;
    memo_put(p->fail_memo, p->fail_mask, pos + 1);
}

struct spec {
    struct lex_state ls;
    int depth;
    uint32_t prev_end;
    int prev_line;
    uint32_t prev_await, awaits;
    jmp_buf *saved;
    int no_in;
    int in_func, in_async, in_gen, in_params, in_static_block; /* a failed attempt may leave them set */
};

static void spec_save(struct parser *p, struct spec *s)
{
    lower__lex_save(&p->lx, &s->ls);
    s->depth = p->depth;
    s->prev_end = p->prev_end;
    s->prev_line = p->prev_line;
    s->prev_await = p->prev_await;
    s->awaits = p->awaits;
    s->saved = p->cx->spec_jmp;
    s->no_in = p->no_in;
    s->in_func = p->in_func;
    s->in_async = p->in_async;
    s->in_gen = p->in_gen;
    s->in_params = p->in_params;
    s->in_static_block = p->in_static_block;
}

static void spec_restore(struct parser *p, struct spec *s)
{
    lower__lex_restore(&p->lx, &s->ls);
    /* the arena is not rolled back: names interned meanwhile stay valid */
    p->depth = s->depth;
    p->prev_end = s->prev_end;
    p->prev_line = s->prev_line;
    p->prev_await = s->prev_await;
    p->awaits = s->awaits;
    p->cx->spec_jmp = s->saved;
    p->no_in = s->no_in;
    p->in_func = s->in_func;
    p->in_async = s->in_async;
    p->in_gen = s->in_gen;
    p->in_params = s->in_params;
    p->in_static_block = s->in_static_block;
    p->spec_depth--;
}

/* Parses an arrow's parameter list and `=>` (TS: type parameters, return
 * type). Fails (longjmp) when the tokens are not an arrow head. */
static void arrow_head(struct parser *p, struct node *fn)
{
    if (lower__p_is(p, P_LT))
        lower__ts_skip_type_params(p);
    if (P_TOK(p).type == TK_NAME && !lower__p_is(p, P_LPAREN)) {
        struct node *id = lower__new_node(p, N_IDENT, P_TOK(p).pos, P_TOK(p).line);
        id->name = lower__p_ident(p);
        fn->b = id;
    } else {
        lower__parse_params(p, fn);
        if (lower__p_is(p, P_COLON)) {
            lower__p_next(p);
            lower__ts_skip_type(p);
        }
    }
    if (!lower__p_is(p, P_ARROW) || P_TOK(p).nl_before)
        lower__p_fail(p, "=>");
    lower__p_next(p);
}

static void arrow_body(struct parser *p, struct node *fn)
{
    int sf = p->in_func, sa = p->in_async, sg = p->in_gen, sp = p->in_params;
    int ss = p->in_static_block, sarrow = p->fn_arrow;
    uint32_t sfn = p->fn_pos, sawaits = p->awaits;
    p->fn_pos = fn->pos + 1;
    p->fn_arrow = 1;
    p->in_func = 1;
    p->in_async = (fn->op & FN_ASYNC) != 0;
    p->in_gen = 0;
    p->in_params = 0;
    p->in_static_block = 0;
    if (lower__p_is(p, P_LBRACE)) {
        fn->c = lower__parse_block(p);
    } else {
        fn->flags |= NF_EXPRBODY;
        int ni = p->no_in;
        fn->c = lower__parse_assign(p);
        p->no_in = ni;
    }
    p->in_func = sf;
    p->in_async = sa;
    p->in_gen = sg;
    p->in_params = sp;
    p->in_static_block = ss;
    p->fn_pos = sfn;
    p->fn_arrow = sarrow;
    p->awaits = sawaits;
    fn->end = p->prev_end;
    lower__check_params(p, fn);
}

/* Tries to parse an arrow function starting at the current token (after
 * `async` when is_async). Returns NULL, with the parser rewound, when the
 * tokens are not an arrow head. */
static struct node *try_arrow(struct parser *p, int is_async, uint32_t pos, int line)
{
    uint32_t at = P_TOK(p).pos;
    if (memo_has(p, at) || p->spec_budget <= 0)
        return NULL;
    struct spec s;
    jmp_buf jb;
    spec_save(p, &s);
    struct node *fn = lower__new_node(p, N_FUNC, pos, line);
    fn->op = FN_ARROW | (is_async ? FN_ASYNC : 0);
    p->cx->spec_jmp = &jb;
    p->spec_depth++;
    if (setjmp(jb) != 0) {
        spec_restore(p, &s);
        memo_add(p, at);
        return NULL;
    }
    int sa = p->in_async;
    uint32_t awaits = p->awaits;
    p->in_async = is_async || sa; /* `await` in default values of async arrows */
    arrow_head(p, fn);
    p->in_async = sa;
    /* an arrow's parameters contain no await expression (one in a nested
     * function's body is that function's) */
    if (p->awaits != awaits) {
        p->cx->spec_jmp = s.saved;
        p->spec_depth--;
        lower__error_at(p->cx, fn->pos, "'await' is not allowed in an arrow function's parameters");
    }
    p->cx->spec_jmp = s.saved;
    p->spec_depth--;
    arrow_body(p, fn);
    return fn;
}

/* ---- helpers ---------------------------------------------------------------- */

static int is_assign_op(int op)
{
    switch (op) {
    case P_ASSIGN: case P_PLUS_EQ: case P_MINUS_EQ: case P_STAR_EQ: case P_SLASH_EQ:
    case P_PERCENT_EQ: case P_STARSTAR_EQ: case P_SHL_EQ: case P_SHR_EQ: case P_USHR_EQ:
    case P_AMP_EQ: case P_PIPE_EQ: case P_CARET_EQ: case P_AND_EQ: case P_OR_EQ:
    case P_NULLISH_EQ:
        return 1;
    }
    return 0;
}

static int binary_prec(struct parser *p)
{
    const struct token *t = &P_TOK(p);
    if (t->type == TK_NAME) {
        if (t->kw == KW_INSTANCEOF)
            return 7;
        if (t->kw == KW_IN && !p->no_in)
            return 7;
        if ((t->kw == KW_AS || t->kw == KW_SATISFIES) && !t->nl_before)
            return 7;
        return 0;
    }
    if (t->type != TK_PUNCT)
        return 0;
    switch (t->op) {
    case P_NULLISH: return 1;
    case P_OR: return 1;
    case P_AND: return 2;
    case P_PIPE: return 3;
    case P_CARET: return 4;
    case P_AMP: return 5;
    case P_EQ: case P_NE: case P_SEQ: case P_SNE: return 6;
    case P_LT: case P_GT: case P_LE: case P_GE: return 7;
    case P_SHL: case P_SHR: case P_USHR: return 8;
    case P_PLUS: case P_MINUS: return 9;
    case P_STAR: case P_SLASH: case P_PERCENT: return 10;
    case P_STARSTAR: return 11;
    }
    return 0;
}

static int is_valid_simple_target(struct node *n)
{
    while (n->kind == N_PAREN)
        n = n->a;
    return n->kind == N_IDENT || (n->kind == N_MEMBER && !(n->flags & NF_OPTIONAL));
}

/* ---- patterns (cover grammar) --------------------------------------------- */

struct node *lower__to_pattern(struct parser *p, struct node *n, int binding)
{
    lower__p_enter(p);
    switch (n->kind) {
    case N_IDENT:
        break;
    case N_MEMBER:
        if (binding || (n->flags & NF_OPTIONAL))
            lower__error_at(p->cx, n->pos, "Invalid destructuring target");
        break;
    case N_PAREN:
        if (binding)
            lower__error_at(p->cx, n->pos, "Invalid destructuring target");
        if (!is_valid_simple_target(n))
            lower__error_at(p->cx, n->pos, "Invalid assignment target");
        break;
    case N_ARRAY:
        n->kind = N_ARRPAT;
        for (struct node *e = n->a; e; e = e->next) {
            if (e->kind == N_SPREAD) {
                e->kind = N_REST;
                e->a = lower__to_pattern(p, e->a, binding);
                if (e->next || (e->flags & NF_COMMA_AFTER))
                    lower__error_at(p->cx, e->pos, "Rest element must be last");
                if (e->a->kind == N_ASSIGNPAT)
                    lower__error_at(p->cx, e->pos, "Rest element may not have a default initializer");
            } else if (e->kind != N_HOLE) {
                struct node *t = lower__to_pattern(p, e, binding);
                if (t != e) /* patterns are converted in place */
                    *e = *t;
            }
        }
        break;
    case N_OBJECT:
        n->kind = N_OBJPAT;
        for (struct node *e = n->a; e; e = e->next) {
            if (e->op == PK_SPREAD) {
                e->kind = N_REST;
                e->a = lower__to_pattern(p, e->a, binding);
                if (e->next || (e->flags & NF_COMMA_AFTER))
                    lower__error_at(p->cx, e->pos, "Rest element must be last");
                if (e->a->kind != N_IDENT && e->a->kind != N_MEMBER && e->a->kind != N_PAREN)
                    lower__error_at(p->cx, e->pos, "`...` must be followed by an assignable reference");
            } else if (e->op == PK_INIT) {
                e->b = lower__to_pattern(p, e->b, binding);
            } else {
                lower__error_at(p->cx, e->pos, "Invalid destructuring target");
            }
        }
        break;
    case N_ASSIGN:
        if (n->op != P_ASSIGN)
            lower__error_at(p->cx, n->pos, "Invalid destructuring target");
        n->kind = N_ASSIGNPAT;
        n->a = lower__to_pattern(p, n->a, binding);
        break;
    case N_ARRPAT: case N_OBJPAT: case N_ASSIGNPAT:
        break;
    default:
        lower__error_at(p->cx, n->pos, "Invalid destructuring target");
    }
    lower__p_leave(p);
    return n;
}

/* ---- assignment ---------------------------------------------------------- */

static struct node *parse_yield(struct parser *p)
{
    if (p->in_params) {
        if (p->cx->spec_jmp)
            longjmp(*p->cx->spec_jmp, 1);
        lower__error_at(p->cx, P_TOK(p).pos, "Yield expression not allowed in formal parameter");
    }
    struct node *n = lower__new_node(p, N_YIELD, P_TOK(p).pos, P_TOK(p).line);
    lower__p_next(p);
    if (!P_TOK(p).nl_before && lower__p_is(p, P_STAR)) {
        lower__p_next(p);
        n->flags |= NF_DELEGATE;
        n->a = lower__parse_assign(p);
    } else if (!P_TOK(p).nl_before && P_TOK(p).type != TK_EOF &&
               !(P_TOK(p).type == TK_PUNCT &&
                 (P_TOK(p).op == P_RPAREN || P_TOK(p).op == P_RBRACKET || P_TOK(p).op == P_RBRACE ||
                  P_TOK(p).op == P_COMMA || P_TOK(p).op == P_SEMI || P_TOK(p).op == P_COLON)) &&
               !(P_TOK(p).type == TK_NAME && P_TOK(p).kw == KW_IN)) {
        n->a = lower__parse_assign(p);
    }
    n->end = p->prev_end;
    return n;
}

static struct node *maybe_arrow(struct parser *p)
{
    const struct token *t = &P_TOK(p);
    uint32_t pos = t->pos;
    int line = t->line;
    if (t->type == TK_PUNCT && (t->op == P_LPAREN || t->op == P_LT))
        return try_arrow(p, 0, pos, line);
    if (t->type != TK_NAME)
        return NULL;
    struct token nx;
    lower__p_peek(p, &nx);
    if (t->kw == KW_ASYNC && !t->escaped && !nx.nl_before &&
        ((nx.type == TK_NAME && nx.kw != KW_FUNCTION) ||
         (nx.type == TK_PUNCT && (nx.op == P_LPAREN || nx.op == P_LT)))) {
        struct lex_state ls;
        lower__lex_save(&p->lx, &ls);
        uint32_t pe = p->prev_end;
        lower__p_next(p);
        struct node *fn = try_arrow(p, 1, pos, line);
        if (fn)
            return fn;
        lower__lex_restore(&p->lx, &ls);
        p->prev_end = pe;
        return NULL;
    }
    if (nx.type == TK_PUNCT && nx.op == P_ARROW && !nx.nl_before &&
        (t->kw == 0 || t->kw > KW_LAST_RESERVED))
        return try_arrow(p, 0, pos, line);
    return NULL;
}

struct node *lower__parse_assign(struct parser *p)
{
    lower__p_enter(p);
    struct node *r;
    if (p->in_gen && lower__p_is_kw(p, KW_YIELD)) {
        r = parse_yield(p);
        lower__p_leave(p);
        return r;
    }
    r = maybe_arrow(p);
    if (r) {
        lower__p_leave(p);
        return r;
    }
    uint32_t pos = P_TOK(p).pos;
    int line = P_TOK(p).line;
    struct node *left = lower__parse_cond(p);
    if (P_TOK(p).type == TK_PUNCT && is_assign_op(P_TOK(p).op)) {
        int op = P_TOK(p).op;
        if (op == P_ASSIGN && (left->kind == N_ARRAY || left->kind == N_OBJECT))
            left = lower__to_pattern(p, left, 0);
        else if (!is_valid_simple_target(left))
            lower__error_at(p->cx, left->pos, "Invalid left-hand side in assignment");
        lower__p_next(p);
        struct node *n = lower__new_node(p, N_ASSIGN, pos, line);
        n->op = (uint8_t)op;
        n->a = left;
        n->b = lower__parse_assign(p);
        n->end = p->prev_end;
        left = n;
    }
    lower__p_leave(p);
    return left;
}

struct node *lower__parse_expression(struct parser *p)
{
    uint32_t pos = P_TOK(p).pos;
    int line = P_TOK(p).line;
    struct node *first = lower__parse_assign(p);
    if (!lower__p_is(p, P_COMMA))
        return first;
    struct node *seq = lower__new_node(p, N_SEQ, pos, line);
    seq->a = first;
    struct node *last = first;
    while (lower__p_eat(p, P_COMMA)) {
        last->next = lower__parse_assign(p);
        last = last->next;
    }
    seq->end = p->prev_end;
    return seq;
}

/* ---- conditional and binary ---------------------------------------------- */

/* a ?? b || c and the like: ?? and an unparenthesised || or && operand (an early error) */
static int mixes_nullish(int op, const struct node *operand)
{
    if (operand->kind != N_LOGICAL || operand->op == op)
        return 0;
    return op == P_NULLISH || operand->op == P_NULLISH;
}

static struct node *parse_binary(struct parser *p, int minprec)
{
    lower__p_enter(p);
    uint32_t pos = P_TOK(p).pos;
    int line = P_TOK(p).line;
    struct node *left;
    if (P_TOK(p).type == TK_PRIVATE) {
        left = lower__new_node(p, N_PRIVNAME, pos, line);
        left->name = P_TOK(p).name;
        lower__p_next(p);
        if (!lower__p_is_kw(p, KW_IN))
            lower__p_fail(p, NULL);
    } else {
        left = parse_unary(p);
    }
    int depth0 = p->depth;
    for (;;) {
        int prec = binary_prec(p);
        if (!prec || prec < minprec)
            break;
        const struct token *t = &P_TOK(p);
        if (t->type == TK_NAME && (t->kw == KW_AS || t->kw == KW_SATISFIES)) {
            lower__p_next(p);
            if (lower__p_is_kw(p, KW_CONST))
                lower__p_next(p);
            else
                lower__ts_skip_type(p);
            continue;
        }
        int op = t->type == TK_NAME ? (t->kw == KW_IN ? 200 : 201) : t->op;
        lower__p_next(p);
        struct node *right = op == P_STARSTAR ? parse_binary(p, prec) : parse_binary(p, prec + 1);
        int kind = (op == P_AND || op == P_OR || op == P_NULLISH) ? N_LOGICAL : N_BINARY;
        if (kind == N_LOGICAL && (mixes_nullish(op, left) || mixes_nullish(op, right))) {
            if (p->cx->spec_jmp)
                longjmp(*p->cx->spec_jmp, 1);
            lower__error_at(p->cx, pos, "Cannot mix '?\?' with '||' or '&&' without parentheses");
        }
        struct node *n = lower__new_node(p, kind, pos, line);
        n->op = (uint8_t)op;
        n->a = left;
        n->b = right;
        n->end = p->prev_end;
        left = n;
        lower__p_enter(p); /* a left-deep chain is as deep as it is long */
    }
    p->depth = depth0;
    lower__p_leave(p);
    return left;
}

struct node *lower__parse_cond(struct parser *p)
{
    uint32_t pos = P_TOK(p).pos;
    int line = P_TOK(p).line;
    struct node *test = parse_binary(p, 1);
    if (!lower__p_is(p, P_QUESTION))
        return test;
    lower__p_next(p);
    struct node *n = lower__new_node(p, N_COND, pos, line);
    n->a = test;
    int ni = p->no_in;
    p->no_in = 0;
    n->b = lower__parse_assign(p);
    p->no_in = ni;
    lower__p_expect(p, P_COLON);
    n->c = lower__parse_assign(p);
    n->end = p->prev_end;
    return n;
}

/* ---- unary ------------------------------------------------------------------ */

static struct node *parse_unary(struct parser *p)
{
    lower__p_enter(p);
    const struct token *t = &P_TOK(p);
    uint32_t pos = t->pos;
    int line = t->line;
    struct node *n = NULL;
    if (t->type == TK_PUNCT) {
        int op = t->op;
        if (op == P_BANG || op == P_TILDE || op == P_PLUS || op == P_MINUS) {
            lower__p_next(p);
            n = lower__new_node(p, N_UNARY, pos, line);
            n->op = (uint8_t)op;
            n->a = parse_unary(p);
        } else if (op == P_INC || op == P_DEC) {
            lower__p_next(p);
            n = lower__new_node(p, N_UPDATE, pos, line);
            n->op = (uint8_t)op;
            n->flags |= NF_PREFIX;
            n->a = parse_unary(p);
            if (!is_valid_simple_target(n->a))
                lower__error_at(p->cx, n->a->pos, "Invalid left-hand side in prefix operation");
        } else if (op == P_LT) {
            /* TypeScript type assertion <T>expr */
            lower__p_next(p);
            lower__ts_skip_type(p);
            lower__p_split_gt(p);
            lower__p_expect(p, P_GT);
            n = parse_unary(p);
            lower__p_leave(p);
            return n; /* its end is that of the operand */
        }
    } else if (t->type == TK_NAME && !t->escaped) {
        int kw = t->kw;
        if (kw == KW_DELETE || kw == KW_VOID || kw == KW_TYPEOF) {
            lower__p_next(p);
            n = lower__new_node(p, N_UNARY, pos, line);
            n->op = (uint8_t)(kw == KW_DELETE ? 100 : kw == KW_VOID ? 101 : 102);
            n->a = parse_unary(p);
            if (kw == KW_DELETE) {
                struct node *d = n->a;
                while (d->kind == N_PAREN)
                    d = d->a;
                if (d->kind == N_OPTCHAIN)
                    d = d->a;
                if (d->kind == N_MEMBER && (d->flags & NF_PRIVATE))
                    lower__error_at(p->cx, d->pos, "Private fields can not be deleted");
            }
        } else if (kw == KW_AWAIT && p->in_async) {
            lower__p_next(p);
            n = lower__new_node(p, N_AWAIT, pos, line);
            p->awaits++;
            n->a = parse_unary(p);
        }
    }
    if (!n) {
        n = parse_lhs(p, 0);
        const struct token *u = &P_TOK(p);
        if (u->type == TK_PUNCT && (u->op == P_INC || u->op == P_DEC) && !u->nl_before) {
            if (!is_valid_simple_target(n))
                lower__error_at(p->cx, n->pos, "Invalid left-hand side in postfix operation");
            struct node *m = lower__new_node(p, N_UPDATE, pos, line);
            m->op = (uint8_t)u->op;
            m->a = n;
            lower__p_next(p);
            n = m;
            n->end = p->prev_end;
        }
    } else {
        /* not for parse_lhs's node: its end excludes a trailing TS `!` */
        n->end = p->prev_end;
    }
    lower__p_leave(p);
    return n;
}

/* ---- calls and members ------------------------------------------------------ */

struct node *lower__parse_args(struct parser *p)
{
    struct node *first = NULL, *last = NULL;
    lower__p_expect(p, P_LPAREN);
    int ni = p->no_in;
    p->no_in = 0;
    while (!lower__p_is(p, P_RPAREN)) {
        struct node *a;
        if (lower__p_is(p, P_ELLIPSIS)) {
            a = lower__new_node(p, N_SPREAD, P_TOK(p).pos, P_TOK(p).line);
            lower__p_next(p);
            a->a = lower__parse_assign(p);
            a->end = p->prev_end;
        } else {
            a = lower__parse_assign(p);
        }
        if (last)
            last->next = a;
        else
            first = a;
        last = a;
        if (!lower__p_eat(p, P_COMMA))
            break;
    }
    p->no_in = ni;
    lower__p_expect(p, P_RPAREN);
    return first;
}

static struct node *member_node(struct parser *p, struct node *obj, uint32_t pos, int line)
{
    struct node *m = lower__new_node(p, N_MEMBER, pos, line);
    m->a = obj;
    return m;
}

/* After `.` or `?.`: a property name (any identifier, keywords too) or #name. */
static void member_name(struct parser *p, struct node *m)
{
    const struct token *t = &P_TOK(p);
    if (t->type == TK_NAME) {
        struct node *id = lower__new_node(p, N_IDENT, t->pos, t->line);
        id->name = t->name;
        m->b = id;
    } else if (t->type == TK_PRIVATE) {
        if (m->a->kind == N_SUPER)
            lower__error_at(p->cx, t->pos, "Unexpected private field after super");
        struct node *id = lower__new_node(p, N_PRIVNAME, t->pos, t->line);
        id->name = t->name;
        m->b = id;
        m->flags |= NF_PRIVATE;
    } else {
        lower__p_fail(p, NULL);
    }
    lower__p_next(p);
}

static int can_follow_type_args(struct parser *p, int in_new)
{
    const struct token *t = &P_TOK(p);
    if (t->type == TK_TEMPLATE)
        return 1;
    if (t->type == TK_PUNCT && t->op == P_LPAREN)
        return 1;
    if (!in_new)
        return 0;
    if (t->type == TK_EOF || t->nl_before)
        return 1;
    return t->type == TK_PUNCT && (t->op == P_SEMI || t->op == P_RPAREN || t->op == P_COMMA ||
                                   t->op == P_RBRACKET || t->op == P_RBRACE || t->op == P_DOT);
}

static struct node *parse_new(struct parser *p)
{
    uint32_t pos = P_TOK(p).pos;
    int line = P_TOK(p).line;
    lower__p_next(p);
    if (lower__p_is(p, P_DOT)) {
        lower__p_next(p);
        if (!(P_TOK(p).type == TK_NAME && P_TOK(p).kw == KW_TARGET))
            lower__p_fail(p, "target");
        lower__p_next(p);
        struct node *n = lower__new_node(p, N_NEWTARGET, pos, line);
        n->end = p->prev_end;
        return n;
    }
    struct node *n = lower__new_node(p, N_NEW, pos, line);
    lower__p_enter(p);
    n->a = parse_lhs(p, 1);
    lower__p_leave(p);
    if (lower__p_is(p, P_LT))
        lower__ts_try_type_args(p);
    if (lower__p_is(p, P_LPAREN)) {
        n->b = lower__parse_args(p);
        n->flags |= NF_SHORTHAND; /* has an argument list */
    }
    n->end = p->prev_end;
    return n;
}

static struct node *parse_lhs(struct parser *p, int no_call)
{
    const struct token *t = &P_TOK(p);
    uint32_t pos = t->pos;
    int line = t->line;
    struct node *n;
    int chain = 0;
    if (t->type == TK_NAME && t->kw == KW_NEW && !t->escaped)
        n = parse_new(p);
    else
        n = parse_primary(p);
    int depth0 = p->depth;
    for (;;) {
        t = &P_TOK(p);
        lower__p_enter(p); /* a member/call chain is as deep as it is long */
        if (t->type == TK_PUNCT && t->op == P_DOT) {
            lower__p_next(p);
            n = member_node(p, n, pos, line);
            member_name(p, n);
        } else if (t->type == TK_PUNCT && t->op == P_QDOT) {
            if (no_call)
                lower__error_at(p->cx, t->pos, "Invalid optional chain from new expression");
            lower__p_next(p);
            chain = 1;
            if (lower__p_is(p, P_LPAREN)) {
                struct node *c = lower__new_node(p, N_CALL, pos, line);
                c->a = n;
                c->flags |= NF_OPTIONAL;
                c->b = lower__parse_args(p);
                n = c;
            } else if (lower__p_is(p, P_LBRACKET)) {
                lower__p_next(p);
                n = member_node(p, n, pos, line);
                n->flags |= NF_COMPUTED | NF_OPTIONAL;
                int ni = p->no_in;
                p->no_in = 0;
                n->b = lower__parse_expression(p);
                p->no_in = ni;
                lower__p_expect(p, P_RBRACKET);
            } else {
                n = member_node(p, n, pos, line);
                n->flags |= NF_OPTIONAL;
                member_name(p, n);
            }
        } else if (t->type == TK_PUNCT && t->op == P_LBRACKET) {
            lower__p_next(p);
            n = member_node(p, n, pos, line);
            n->flags |= NF_COMPUTED;
            int ni = p->no_in;
            p->no_in = 0;
            n->b = lower__parse_expression(p);
            p->no_in = ni;
            lower__p_expect(p, P_RBRACKET);
        } else if (t->type == TK_PUNCT && t->op == P_LPAREN && !no_call) {
            struct node *c = lower__new_node(p, N_CALL, pos, line);
            c->a = n;
            c->b = lower__parse_args(p);
            n = c;
        } else if (t->type == TK_TEMPLATE) {
            if (chain)
                lower__error_at(p->cx, t->pos, "Tagged template cannot be used in optional chain");
            struct node *c = lower__new_node(p, N_TAGGED, pos, line);
            c->a = n;
            c->b = lower__parse_template(p);
            n = c;
        } else if (t->type == TK_PUNCT && t->op == P_BANG && !t->nl_before) {
            lower__p_next(p); /* TypeScript non-null assertion */
            continue;
        } else if (t->type == TK_PUNCT && (t->op == P_LT || t->op == P_SHL) && !no_call) {
            struct lex_state ls;
            lower__lex_save(&p->lx, &ls);
            uint32_t pe = p->prev_end;
            if (lower__ts_try_type_args(p) && can_follow_type_args(p, 0))
                continue;
            lower__lex_restore(&p->lx, &ls);
            p->prev_end = pe;
            break;
        } else {
            break;
        }
        n->end = p->prev_end;
    }
    p->depth = depth0;
    if (chain) {
        struct node *oc = lower__new_node(p, N_OPTCHAIN, pos, line);
        oc->a = n;
        oc->end = p->prev_end;
        n = oc;
    }
    return n;
}

/* ---- primary ----------------------------------------------------------------- */

static struct node *leaf(struct parser *p, int kind)
{
    struct node *n = lower__new_node(p, kind, P_TOK(p).pos, P_TOK(p).line);
    n->end = P_TOK(p).end;
    n->name = P_TOK(p).name;
    lower__p_next(p);
    return n;
}

static struct node *parse_paren(struct parser *p)
{
    struct node *n = lower__new_node(p, N_PAREN, P_TOK(p).pos, P_TOK(p).line);
    lower__p_next(p);
    int ni = p->no_in;
    p->no_in = 0;
    n->a = lower__parse_expression(p);
    p->no_in = ni;
    lower__p_expect(p, P_RPAREN);
    n->end = p->prev_end;
    return n;
}

static struct node *parse_primary(struct parser *p)
{
    const struct token *t = &P_TOK(p);
    uint32_t pos = t->pos;
    int line = t->line;
    switch (t->type) {
    case TK_NUM:
        return leaf(p, N_NUM);
    case TK_STR:
        return leaf(p, N_STR);
    case TK_TEMPLATE:
        return lower__parse_template(p);
    case TK_PRIVATE:
        lower__p_fail(p, NULL);
    case TK_PUNCT:
        switch (t->op) {
        case P_LPAREN:
            return parse_paren(p);
        case P_LBRACKET:
            return lower__parse_array(p);
        case P_LBRACE:
            return lower__parse_object(p);
        case P_SLASH:
        case P_SLASH_EQ: {
            const char *msg;
            uint32_t epos;
            if (lower__lex_regex(&p->lx, &msg, &epos) < 0)
                lower__error_at(p->cx, epos, "%s", msg);
            return leaf(p, N_REGEX);
        }
        case P_AT:
            lower__error_at(p->cx, pos, "Unsupported: decorators");
        }
        lower__p_fail(p, NULL);
    case TK_NAME:
        if (t->escaped) {
            int kw = t->name->kw;
            if ((kw && kw <= KW_LAST_RESERVED) || (kw == KW_AWAIT && p->in_async) ||
                (kw == KW_YIELD && p->in_gen))
                lower__error_at(p->cx, t->pos, "Keyword must not contain escaped characters");
            return leaf(p, N_IDENT);
        }
        switch (t->kw) {
        case KW_THIS:
            return leaf(p, N_THIS);
        case KW_SUPER:
            return leaf(p, N_SUPER);
        case KW_NULL: case KW_TRUE: case KW_FALSE:
            return leaf(p, N_LITERAL);
        case KW_FUNCTION:
            lower__p_next(p);
            return lower__parse_function(p, 0, 0, pos, line);
        case KW_CLASS:
            return lower__parse_class(p, 0, pos, line);
        case KW_ASYNC: {
            struct token nx;
            lower__p_peek(p, &nx);
            if (nx.type == TK_NAME && nx.kw == KW_FUNCTION && !nx.nl_before) {
                lower__p_next(p);
                lower__p_next(p);
                return lower__parse_function(p, FN_ASYNC, 0, pos, line);
            }
            return leaf(p, N_IDENT);
        }
        case KW_IMPORT:
            lower__error_at(p->cx, pos,
                            "Unsupported: import (there are no modules here: the program is one "
                            "script; call tools through the global `tools` object)");
        case KW_NEW:
            return parse_new(p);
        }
        if (t->kw && t->kw <= KW_LAST_RESERVED)
            lower__p_fail(p, NULL);
        if (t->kw == KW_AWAIT && (p->in_async || p->in_static_block))
            lower__p_fail(p, NULL);
        /* a generator's yield is an operator, never an operand ("!yield x") */
        if (t->kw == KW_YIELD && p->in_gen)
            lower__p_fail(p, NULL);
        return leaf(p, N_IDENT);
    }
    lower__p_fail(p, NULL);
}

struct node *lower__parse_lhs_expr(struct parser *p)
{
    return parse_lhs(p, 0);
}
