/* Class parsing for the lowering pass: members (methods, accessors,
 * fields, static blocks, private names), TypeScript member modifiers and
 * index signatures (erased), and the early errors of class bodies. */
#include <string.h>

#include "sandbox/lower/internal.h"

#define P_TOK(p) ((p)->lx.tok)

static struct node *ident_node(struct parser *p)
{
    struct node *id = lower__new_node(p, N_IDENT, P_TOK(p).pos, P_TOK(p).line);
    id->end = P_TOK(p).end;
    id->name = lower__p_ident(p);
    return id;
}

/* ---- classes --------------------------------------------------------------- */

static int is_member_modifier(int kw)
{
    return kw == KW_STATIC || kw == KW_PUBLIC || kw == KW_PRIVATE || kw == KW_PROTECTED ||
           kw == KW_READONLY || kw == KW_OVERRIDE || kw == KW_ABSTRACT || kw == KW_DECLARE ||
           kw == KW_ACCESSOR;
}

/* `[name: type]: type;` index signature (TS) at the current '['. */
static int skip_index_signature(struct parser *p)
{
    struct token a, b;
    struct lex_state s;
    const char *msg;
    uint32_t epos;
    lower__lex_save(&p->lx, &s);
    if (lower__lex_next(&p->lx, &msg, &epos) < 0) {
        lower__lex_restore(&p->lx, &s);
        return 0;
    }
    a = p->lx.tok;
    if (lower__lex_next(&p->lx, &msg, &epos) < 0) {
        lower__lex_restore(&p->lx, &s);
        return 0;
    }
    b = p->lx.tok;
    lower__lex_restore(&p->lx, &s);
    if (!(a.type == TK_NAME && b.type == TK_PUNCT && b.op == P_COLON))
        return 0;
    lower__p_next(p);
    lower__p_next(p);
    lower__p_next(p);
    lower__ts_skip_type(p);
    lower__p_expect(p, P_RBRACKET);
    lower__p_eat(p, P_QUESTION);
    lower__ts_skip_annotation(p);
    lower__p_semicolon(p);
    return 1;
}

static int key_is_constructor(struct node *k)
{
    if (k->kind == N_IDENT)
        return k->name->kw == KW_CONSTRUCTOR;
    return 0;
}

static struct node *parse_field_init(struct parser *p)
{
    int sf = p->in_func, sa = p->in_async, sg = p->in_gen;
    p->in_func = 1;
    p->in_async = 0;
    p->in_gen = 0;
    struct node *v = lower__parse_assign(p);
    p->in_func = sf;
    p->in_async = sa;
    p->in_gen = sg;
    return v;
}

static struct node *parse_class_member(struct parser *p, int *erased)
{
    const struct token *t = &P_TOK(p);
    struct node *m = lower__new_node(p, N_CLASS_MEMBER, t->pos, t->line);
    uint32_t pos = t->pos;
    int line = t->line;
    int is_abstract = 0, is_declare = 0;
    *erased = 0;
    if (lower__p_is(p, P_AT))
        lower__error_at(p->cx, t->pos, "Unsupported: decorators");
    while (t->type == TK_NAME && !t->escaped && is_member_modifier(t->kw)) {
        struct token nx;
        lower__p_peek(p, &nx);
        int key_next = nx.type == TK_NAME || nx.type == TK_STR || nx.type == TK_NUM ||
                       nx.type == TK_PRIVATE ||
                       (nx.type == TK_PUNCT && (nx.op == P_LBRACKET || nx.op == P_STAR ||
                                                (nx.op == P_LBRACE && t->kw == KW_STATIC)));
        if (!key_next)
            break;
        if (t->kw == KW_STATIC) {
            if (nx.type == TK_PUNCT && nx.op == P_LBRACE) {
                lower__p_next(p);
                m->op = PK_STATIC_BLOCK;
                m->flags |= NF_STATIC;
                int sf = p->in_func, sa = p->in_async, sg = p->in_gen;
                p->in_func = 1;
                p->in_async = 0;
                p->in_gen = 0;
                int ss = p->in_static_block;
                p->in_static_block = 1;
                m->b = lower__parse_block(p);
                p->in_static_block = ss;
                p->in_func = sf;
                p->in_async = sa;
                p->in_gen = sg;
                m->end = p->prev_end;
                return m;
            }
            m->flags |= NF_STATIC;
        } else if (t->kw == KW_ABSTRACT) {
            is_abstract = 1;
        } else if (t->kw == KW_DECLARE) {
            is_declare = 1;
        } else if (t->kw == KW_ACCESSOR) {
            lower__error_at(p->cx, t->pos, "Unsupported: auto-accessor fields");
        }
        lower__p_next(p);
    }
    if (lower__p_is(p, P_LBRACKET) && skip_index_signature(p)) {
        *erased = 1;
        return NULL;
    }
    int fnflags = 0, kind = PK_FIELD;
    if (t->type == TK_NAME && !t->escaped && (t->kw == KW_GET || t->kw == KW_SET || t->kw == KW_ASYNC)) {
        struct token nx;
        lower__p_peek(p, &nx);
        int key_next = nx.type == TK_NAME || nx.type == TK_STR || nx.type == TK_NUM ||
                       nx.type == TK_PRIVATE ||
                       (nx.type == TK_PUNCT && (nx.op == P_LBRACKET || nx.op == P_STAR));
        if (key_next && !(t->kw == KW_ASYNC && nx.nl_before)) {
            kind = t->kw == KW_GET ? PK_GET : t->kw == KW_SET ? PK_SET : PK_METHOD;
            if (t->kw == KW_ASYNC)
                fnflags |= FN_ASYNC;
            lower__p_next(p);
        }
    }
    if (lower__p_eat(p, P_STAR)) {
        fnflags |= FN_GEN;
        kind = PK_METHOD;
    }
    m->a = lower__parse_prop_key(p, m, 1);
    if (lower__p_is(p, P_QUESTION) || lower__p_is(p, P_BANG))
        lower__p_next(p);
    if (kind == PK_FIELD && (lower__p_is(p, P_LPAREN) || lower__p_is(p, P_LT)))
        kind = PK_METHOD;
    m->op = (uint8_t)kind;
    if (kind != PK_FIELD) {
        if (kind == PK_GET)
            fnflags |= FN_GETTER;
        else if (kind == PK_SET)
            fnflags |= FN_SETTER;
        if (kind == PK_METHOD && !(m->flags & (NF_STATIC | NF_COMPUTED)) && key_is_constructor(m->a))
            fnflags |= FN_CTOR;
        m->b = lower__parse_function(p, fnflags | FN_METHOD, 0, pos, line);
        if ((m->b->flags & NF_ERASED) || is_abstract)
            *erased = 1;
    } else {
        lower__ts_skip_annotation(p);
        if (lower__p_eat(p, P_ASSIGN))
            m->b = parse_field_init(p);
        lower__p_semicolon(p);
        if (is_declare || is_abstract)
            *erased = 1;
    }
    m->end = p->prev_end;
    return *erased ? NULL : m;
}

static int key_is(struct parser *p, struct node *m, const char *word)
{
    struct node *k = m->a;
    size_t n = strlen(word);
    if (m->flags & NF_COMPUTED)
        return 0;
    if (k->kind == N_IDENT || k->kind == N_PRIVNAME)
        return k->name->len == n && memcmp(k->name->s, word, n) == 0;
    if (k->kind == N_STR)
        return k->end - k->pos == n + 2 && memcmp(p->cx->src + k->pos + 1, word, n) == 0;
    return 0;
}

/* Early errors of class bodies (ES2022 15.7.1). */
static void check_class(struct parser *p, struct node *c)
{
    int ctors = 0;
    for (struct node *m = c->c; m; m = m->next) {
        int st = (m->flags & NF_STATIC) != 0, priv = (m->flags & NF_PRIVATE) != 0;
        if (m->op == PK_STATIC_BLOCK)
            continue;
        if (priv && key_is(p, m, "constructor"))
            lower__error_at(p->cx, m->a->pos, "Classes may not have a private field named '#constructor'");
        if (!priv && !st && key_is(p, m, "constructor")) {
            if (m->op == PK_FIELD)
                lower__error_at(p->cx, m->a->pos, "Classes may not have a field named 'constructor'");
            if (m->op != PK_METHOD || (m->b->op & (FN_GEN | FN_ASYNC)))
                lower__error_at(p->cx, m->a->pos, "Class constructor may not be an accessor, generator or async");
            if (++ctors > 1)
                lower__error_at(p->cx, m->a->pos, "A class may only have one constructor");
        }
        if (!priv && st && key_is(p, m, "prototype"))
            lower__error_at(p->cx, m->a->pos, "Classes may not have a static property named 'prototype'");
        if (!priv && m->op == PK_FIELD && key_is(p, m, "constructor"))
            lower__error_at(p->cx, m->a->pos, "Classes may not have a field named 'constructor'");
        if (!priv)
            continue;
        for (struct node *o = c->c; o != m; o = o->next) {
            if (!(o->flags & NF_PRIVATE) || o->a->name != m->a->name)
                continue;
            int pair = ((o->op == PK_GET && m->op == PK_SET) || (o->op == PK_SET && m->op == PK_GET)) &&
                       ((o->flags & NF_STATIC) == (m->flags & NF_STATIC));
            if (!pair)
                lower__error_at(p->cx, m->a->pos, "Identifier '#%s' has already been declared",
                                m->a->name->s);
        }
    }
}

/* At `class`. */
struct node *lower__parse_class(struct parser *p, int is_decl, uint32_t pos, int line)
{
    struct node *c = lower__new_node(p, N_CLASS, pos, line);
    lower__p_enter(p);
    lower__p_next(p);
    if (is_decl)
        c->flags |= NF_DECL;
    if (P_TOK(p).type == TK_NAME && !lower__p_is_kw(p, KW_EXTENDS) && !lower__p_is_kw(p, KW_IMPLEMENTS))
        c->a = ident_node(p);
    else if (is_decl)
        lower__p_fail(p, NULL);
    if (lower__p_is(p, P_LT))
        lower__ts_skip_type_params(p);
    /* the heritage is strict code too */
    int sc = p->in_class_body;
    p->in_class_body = 1;
    if (lower__p_is_kw(p, KW_EXTENDS)) {
        lower__p_next(p);
        c->b = lower__parse_lhs_expr(p);
        if (lower__p_is(p, P_LT))
            lower__ts_try_type_args(p);
    }
    if (lower__p_is_kw(p, KW_IMPLEMENTS)) {
        lower__p_next(p);
        do
            lower__ts_skip_type(p);
        while (lower__p_eat(p, P_COMMA));
    }
    lower__p_expect(p, P_LBRACE);
    struct node *last = NULL;
    while (!lower__p_is(p, P_RBRACE)) {
        if (lower__p_eat(p, P_SEMI))
            continue;
        if (P_TOK(p).type == TK_EOF)
            lower__p_fail(p, "}");
        int erased;
        struct node *m = parse_class_member(p, &erased);
        if (!m)
            continue;
        if (last)
            last->next = m;
        else
            c->c = m;
        last = m;
    }
    p->in_class_body = sc;
    check_class(p, c);
    c->d = lower__new_node(p, N_FUNC, P_TOK(p).pos, P_TOK(p).line); /* instance field init */
    c->d->op = FN_FIELD | FN_METHOD;
    c->d->next = lower__new_node(p, N_FUNC, P_TOK(p).pos, P_TOK(p).line); /* static init */
    c->d->next->op = FN_FIELD | FN_METHOD;
    lower__p_expect(p, P_RBRACE);
    c->end = p->prev_end;
    lower__p_leave(p);
    return c;
}

