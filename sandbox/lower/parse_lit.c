/* Literal parsing for the lowering pass: template literals (with the
 * lexer's template continuation), array literals, and object literals with
 * shorthand, computed keys, methods, accessors, spread and the cover
 * grammar of patterns ({a = 1} becomes valid once re-read as a pattern). */
#include <string.h>

#include "sandbox/lower/internal.h"

#define P_TOK(p) ((p)->lx.tok)

struct node *lower__parse_template(struct parser *p)
{
    struct node *n = lower__new_node(p, N_TEMPLATE, P_TOK(p).pos, P_TOK(p).line);
    struct node *last = NULL;
    for (;;) {
        if (P_TOK(p).type != TK_TEMPLATE)
            lower__p_fail(p, NULL);
        struct node *part = lower__new_node(p, N_TPL_PART, P_TOK(p).pos, P_TOK(p).line);
        part->end = P_TOK(p).end;
        int tail = P_TOK(p).tpl_tail;
        if (tail)
            part->flags |= NF_TPL_TAIL;
        if (last)
            last->next = part;
        else
            n->a = part;
        last = part;
        if (tail) {
            lower__p_next(p);
            break;
        }
        lower__p_next(p);
        int ni = p->no_in;
        p->no_in = 0;
        struct node *e = lower__parse_expression(p);
        p->no_in = ni;
        last->next = e;
        last = e;
        if (!lower__p_is(p, P_RBRACE))
            lower__p_fail(p, "}");
        const char *msg;
        uint32_t epos;
        if (lower__lex_template_cont(&p->lx, &msg, &epos) < 0)
            lower__error_at(p->cx, epos, "%s", msg);
    }
    n->end = p->prev_end;
    return n;
}

struct node *lower__parse_array(struct parser *p)
{
    struct node *n = lower__new_node(p, N_ARRAY, P_TOK(p).pos, P_TOK(p).line);
    struct node *last = NULL;
    lower__p_next(p);
    int ni = p->no_in;
    p->no_in = 0;
    while (!lower__p_is(p, P_RBRACKET)) {
        struct node *e;
        if (lower__p_is(p, P_COMMA)) {
            e = lower__new_node(p, N_HOLE, P_TOK(p).pos, P_TOK(p).line);
        } else if (lower__p_is(p, P_ELLIPSIS)) {
            e = lower__new_node(p, N_SPREAD, P_TOK(p).pos, P_TOK(p).line);
            lower__p_next(p);
            e->a = lower__parse_assign(p);
        } else {
            e = lower__parse_assign(p);
        }
        if (last)
            last->next = e;
        else
            n->a = e;
        last = e;
        if (!lower__p_eat(p, P_COMMA))
            break;
        if (e->kind == N_SPREAD || (e->kind == N_PROP && e->op == PK_SPREAD))
            e->flags |= NF_COMMA_AFTER;
    }
    p->no_in = ni;
    lower__p_expect(p, P_RBRACKET);
    n->end = p->prev_end;
    return n;
}

/* Property key: name, string, number, [computed] or #private. */
struct node *lower__parse_prop_key(struct parser *p, struct node *prop, int allow_private)
{
    const struct token *t = &P_TOK(p);
    struct node *k;
    if (t->type == TK_PUNCT && t->op == P_LBRACKET) {
        lower__p_next(p);
        prop->flags |= NF_COMPUTED;
        int ni = p->no_in;
        p->no_in = 0;
        k = lower__parse_assign(p);
        p->no_in = ni;
        lower__p_expect(p, P_RBRACKET);
        return k;
    }
    if (t->type == TK_NAME) {
        k = lower__new_node(p, N_IDENT, t->pos, t->line);
        k->name = t->name;
    } else if (t->type == TK_STR) {
        k = lower__new_node(p, N_STR, t->pos, t->line);
    } else if (t->type == TK_NUM) {
        k = lower__new_node(p, N_NUM, t->pos, t->line);
    } else if (t->type == TK_PRIVATE && allow_private) {
        k = lower__new_node(p, N_PRIVNAME, t->pos, t->line);
        k->name = t->name;
        prop->flags |= NF_PRIVATE;
    } else {
        lower__p_fail(p, NULL);
    }
    k->end = t->end;
    lower__p_next(p);
    return k;
}

/* Is the current token the start of a property key (after get/set/async/static)? */
int lower__is_key_start(struct parser *p)
{
    const struct token *t = &P_TOK(p);
    return t->type == TK_NAME || t->type == TK_STR || t->type == TK_NUM || t->type == TK_PRIVATE ||
           (t->type == TK_PUNCT && (t->op == P_LBRACKET || t->op == P_STAR));
}

static struct node *method_value(struct parser *p, int fnflags, uint32_t pos, int line)
{
    if (!lower__p_is(p, P_LPAREN) && !lower__p_is(p, P_LT))
        lower__p_fail(p, "(");
    struct node *fn = lower__parse_function(p, fnflags | FN_METHOD, 0, pos, line);
    if (fn->flags & NF_ERASED)
        lower__error_at(p->cx, fn->end, "Unexpected token (expected '{')");
    return fn;
}

static struct node *parse_property(struct parser *p)
{
    const struct token *t = &P_TOK(p);
    struct node *prop = lower__new_node(p, N_PROP, t->pos, t->line);
    uint32_t pos = t->pos;
    int line = t->line;
    if (t->type == TK_PUNCT && t->op == P_ELLIPSIS) {
        lower__p_next(p);
        prop->op = PK_SPREAD;
        prop->a = lower__parse_assign(p);
        prop->end = p->prev_end;
        return prop;
    }
    int fnflags = 0;
    int kind = PK_INIT;
    if (t->type == TK_NAME && !t->escaped &&
        (t->kw == KW_GET || t->kw == KW_SET || t->kw == KW_ASYNC)) {
        struct token nx;
        lower__p_peek(p, &nx);
        int key_follows = nx.type == TK_NAME || nx.type == TK_STR || nx.type == TK_NUM ||
                          (nx.type == TK_PUNCT && (nx.op == P_LBRACKET || nx.op == P_STAR));
        if (key_follows && !(t->kw == KW_ASYNC && nx.nl_before)) {
            if (t->kw == KW_GET)
                kind = PK_GET;
            else if (t->kw == KW_SET)
                kind = PK_SET;
            else
                fnflags |= FN_ASYNC, kind = PK_METHOD;
            lower__p_next(p);
        }
    }
    if (lower__p_is(p, P_STAR)) {
        lower__p_next(p);
        fnflags |= FN_GEN;
        kind = PK_METHOD;
    }
    prop->a = lower__parse_prop_key(p, prop, 0);
    if (kind == PK_GET || kind == PK_SET) {
        prop->op = (uint8_t)kind;
        prop->b = method_value(p, kind == PK_GET ? FN_GETTER : FN_SETTER, pos, line);
    } else if (kind == PK_METHOD || lower__p_is(p, P_LPAREN) || lower__p_is(p, P_LT)) {
        prop->op = PK_METHOD;
        prop->b = method_value(p, fnflags, pos, line);
    } else if (lower__p_eat(p, P_COLON)) {
        prop->op = PK_INIT;
        prop->b = lower__parse_assign(p);
    } else if (prop->a->kind == N_IDENT && !(prop->flags & NF_COMPUTED)) {
        prop->op = PK_INIT;
        prop->flags |= NF_SHORTHAND;
        struct node *v = lower__new_node(p, N_IDENT, prop->a->pos, prop->a->line);
        v->name = prop->a->name;
        v->end = prop->a->end;
        if (v->name->kw && v->name->kw <= KW_LAST_RESERVED)
            lower__error_at(p->cx, v->pos, "Unexpected reserved word '%s'", v->name->s);
        /* { yield } in a generator, { await } in an async function or static block */
        if ((v->name->kw == KW_YIELD && p->in_gen) ||
            (v->name->kw == KW_AWAIT && (p->in_async || p->in_static_block)))
            lower__error_at(p->cx, v->pos, "Unexpected reserved word '%s'", v->name->s);
        if (lower__p_is(p, P_ASSIGN)) {
            /* cover grammar: only valid once the object becomes a pattern */
            lower__p_next(p);
            struct node *as = lower__new_node(p, N_ASSIGN, v->pos, v->line);
            as->op = P_ASSIGN;
            as->a = v;
            as->b = lower__parse_assign(p);
            as->end = p->prev_end;
            v = as;
        }
        prop->b = v;
    } else {
        lower__p_fail(p, ":");
    }
    prop->end = p->prev_end;
    return prop;
}

struct node *lower__parse_object(struct parser *p)
{
    struct node *n = lower__new_node(p, N_OBJECT, P_TOK(p).pos, P_TOK(p).line);
    struct node *last = NULL;
    lower__p_next(p);
    int ni = p->no_in;
    p->no_in = 0;
    while (!lower__p_is(p, P_RBRACE)) {
        struct node *e = parse_property(p);
        if (last)
            last->next = e;
        else
            n->a = e;
        last = e;
        if (!lower__p_eat(p, P_COMMA))
            break;
        if (e->kind == N_SPREAD || (e->kind == N_PROP && e->op == PK_SPREAD))
            e->flags |= NF_COMMA_AFTER;
    }
    p->no_in = ni;
    lower__p_expect(p, P_RBRACE);
    n->end = p->prev_end;
    return n;
}

