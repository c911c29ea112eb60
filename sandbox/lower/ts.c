/* TypeScript erasure in the parser: types are skipped token by token
 * (unions, functions, objects and tuples by balanced brackets, generics
 * with `>>` split), and TS-only statements (type, interface, declare,
 * import type / export type) become erased nodes; enums become N_ENUM. */
#include <string.h>

#include "sandbox/lower/internal.h"

#define P_TOK(p) ((p)->lx.tok)

int lower__ts_is_modifier(int kw)
{
    return kw == KW_PUBLIC || kw == KW_PRIVATE || kw == KW_PROTECTED || kw == KW_READONLY ||
           kw == KW_OVERRIDE;
}

/* Splits a token starting with '>' (>>, >>>, >=, >>=, >>>=) so that the
 * current token becomes a single '>' followed by the rest. */
void lower__p_split_gt(struct parser *p)
{
    struct token *t = &p->lx.tok;
    if (t->type != TK_PUNCT)
        return;
    int rest;
    switch (t->op) {
    case P_SHR: rest = P_GT; break;
    case P_USHR: rest = P_SHR; break;
    case P_GE: rest = P_ASSIGN; break;
    case P_SHR_EQ: rest = P_GE; break;
    case P_USHR_EQ: rest = P_SHR_EQ; break;
    default: return;
    }
    /* the lexer resumes after the whole token: make the current token '>'
     * and leave the remainder to be re-read by rewinding the lexer. */
    (void)rest;
    t->op = P_GT;
    t->end = t->pos + 1;
    p->lx.pos = t->pos + 1;
}

/* Skips a balanced group opened by the current token ( [ { up to and
 * including its closer; templates inside are followed. */
static void skip_balanced(struct parser *p)
{
    int open = P_TOK(p).op;
    int close = open == P_LPAREN ? P_RPAREN : open == P_LBRACKET ? P_RBRACKET : P_RBRACE;
    lower__p_enter(p);
    lower__p_next(p);
    while (!lower__p_is(p, close)) {
        const struct token *t = &P_TOK(p);
        if (t->type == TK_EOF)
            lower__p_fail(p, lower__punct_text[close]);
        if (t->type == TK_PUNCT && (t->op == P_LPAREN || t->op == P_LBRACKET || t->op == P_LBRACE)) {
            skip_balanced(p);
            continue;
        }
        if (t->type == TK_TEMPLATE && !t->tpl_tail) {
            lower__p_next(p);
            lower__ts_skip_type(p);
            for (;;) {
                if (!lower__p_is(p, P_RBRACE))
                    lower__p_fail(p, "}");
                const char *msg;
                uint32_t epos;
                if (lower__lex_template_cont(&p->lx, &msg, &epos) < 0)
                    lower__error_at(p->cx, epos, "%s", msg);
                int tail = P_TOK(p).tpl_tail;
                lower__p_next(p);
                if (tail)
                    break;
                lower__ts_skip_type(p);
            }
            continue;
        }
        lower__p_next(p);
    }
    lower__p_next(p);
    lower__p_leave(p);
}

static int skip_type_args_inner(struct parser *p)
{
    /* at '<' */
    lower__p_next(p);
    if (!lower__p_is(p, P_GT) || 1) {
        for (;;) {
            lower__ts_skip_type(p);
            if (!lower__p_eat(p, P_COMMA))
                break;
            if (lower__p_is(p, P_GT))
                break;
        }
    }
    lower__p_split_gt(p);
    lower__p_expect(p, P_GT);
    return 1;
}

static void skip_entity_name(struct parser *p)
{
    if (P_TOK(p).type != TK_NAME)
        lower__p_fail(p, NULL);
    lower__p_next(p);
    while (lower__p_is(p, P_DOT)) {
        lower__p_next(p);
        if (P_TOK(p).type != TK_NAME && P_TOK(p).type != TK_PRIVATE)
            lower__p_fail(p, NULL);
        lower__p_next(p);
    }
}

static void skip_primary_type(struct parser *p)
{
    const struct token *t = &P_TOK(p);
    switch (t->type) {
    case TK_STR:
    case TK_NUM:
        lower__p_next(p);
        return;
    case TK_TEMPLATE:
        if (t->tpl_tail) {
            lower__p_next(p);
            return;
        }
        /* template literal type: reuse the balanced skipper's logic */
        lower__p_next(p);
        lower__ts_skip_type(p);
        for (;;) {
            if (!lower__p_is(p, P_RBRACE))
                lower__p_fail(p, "}");
            const char *msg;
            uint32_t epos;
            if (lower__lex_template_cont(&p->lx, &msg, &epos) < 0)
                lower__error_at(p->cx, epos, "%s", msg);
            int tail = P_TOK(p).tpl_tail;
            lower__p_next(p);
            if (tail)
                return;
            lower__ts_skip_type(p);
        }
    case TK_PUNCT:
        switch (t->op) {
        case P_LPAREN:
            skip_balanced(p);
            if (lower__p_is(p, P_ARROW)) {
                lower__p_next(p);
                lower__ts_skip_type(p);
            }
            return;
        case P_LBRACKET:
        case P_LBRACE:
            skip_balanced(p);
            return;
        case P_LT:
            lower__ts_skip_type_params(p);
            if (!lower__p_is(p, P_LPAREN))
                lower__p_fail(p, "(");
            skip_balanced(p);
            lower__p_expect(p, P_ARROW);
            lower__ts_skip_type(p);
            return;
        case P_MINUS:
            lower__p_next(p);
            if (P_TOK(p).type != TK_NUM)
                lower__p_fail(p, NULL);
            lower__p_next(p);
            return;
        }
        lower__p_fail(p, NULL);
    case TK_NAME:
        if (!t->escaped) {
            switch (t->kw) {
            case KW_TYPEOF:
                lower__p_next(p);
                if (lower__p_is_kw(p, KW_IMPORT)) {
                    lower__p_next(p);
                    skip_balanced(p);
                    while (lower__p_eat(p, P_DOT))
                        lower__p_next(p);
                } else {
                    skip_entity_name(p);
                }
                if (lower__p_is(p, P_LT) && !P_TOK(p).nl_before)
                    skip_type_args_inner(p);
                return;
            case KW_IMPORT:
                lower__p_next(p);
                skip_balanced(p);
                while (lower__p_eat(p, P_DOT))
                    lower__p_next(p);
                if (lower__p_is(p, P_LT))
                    skip_type_args_inner(p);
                return;
            case KW_NEW:
                lower__p_next(p);
                if (lower__p_is(p, P_LT))
                    lower__ts_skip_type_params(p);
                if (!lower__p_is(p, P_LPAREN))
                    lower__p_fail(p, "(");
                skip_balanced(p);
                lower__p_expect(p, P_ARROW);
                lower__ts_skip_type(p);
                return;
            case KW_ABSTRACT:
                lower__p_next(p);
                skip_primary_type(p);
                return;
            case KW_ASSERTS: {
                struct token nx;
                lower__p_peek(p, &nx);
                if (nx.type == TK_NAME && !nx.nl_before) {
                    lower__p_next(p);
                    lower__p_next(p);
                    if (lower__p_is_kw(p, KW_IS)) {
                        lower__p_next(p);
                        lower__ts_skip_type(p);
                    }
                    return;
                }
                break;
            }
            }
        }
        skip_entity_name(p);
        if (lower__p_is(p, P_LT) && !P_TOK(p).nl_before)
            skip_type_args_inner(p);
        if (lower__p_is_kw(p, KW_IS) && !P_TOK(p).nl_before) {
            lower__p_next(p);
            lower__ts_skip_type(p);
        }
        return;
    }
    lower__p_fail(p, NULL);
}

static void skip_postfix_type(struct parser *p)
{
    skip_primary_type(p);
    while (lower__p_is(p, P_LBRACKET) && !P_TOK(p).nl_before)
        skip_balanced(p);
}

static void skip_operator_type(struct parser *p)
{
    lower__p_enter(p);
    const struct token *t = &P_TOK(p);
    if (t->type == TK_NAME && !t->escaped &&
        (t->kw == KW_KEYOF || t->kw == KW_UNIQUE || t->kw == KW_READONLY || t->kw == KW_INFER)) {
        struct token nx;
        lower__p_peek(p, &nx);
        int operand = nx.type == TK_NAME || nx.type == TK_STR || nx.type == TK_NUM ||
                      nx.type == TK_TEMPLATE ||
                      (nx.type == TK_PUNCT && (nx.op == P_LPAREN || nx.op == P_LBRACKET ||
                                               nx.op == P_LBRACE || nx.op == P_MINUS));
        if (operand) {
            int kw = t->kw;
            lower__p_next(p);
            if (kw == KW_INFER) {
                lower__p_next(p);
                if (lower__p_is_kw(p, KW_EXTENDS)) {
                    /* `infer U extends X ?` is a conditional: only take the
                     * constraint when no `?` follows */
                    struct lex_state ls;
                    lower__lex_save(&p->lx, &ls);
                    uint32_t pe = p->prev_end;
                    lower__p_next(p);
                    skip_operator_type(p);
                    if (lower__p_is(p, P_QUESTION)) {
                        lower__lex_restore(&p->lx, &ls);
                        p->prev_end = pe;
                    }
                }
            } else {
                skip_operator_type(p);
            }
            lower__p_leave(p);
            return;
        }
    }
    skip_postfix_type(p);
    lower__p_leave(p);
}

static void skip_union_type(struct parser *p)
{
    if (!lower__p_eat(p, P_PIPE))
        lower__p_eat(p, P_AMP);
    skip_operator_type(p);
    while (lower__p_is(p, P_PIPE) || lower__p_is(p, P_AMP)) {
        lower__p_next(p);
        skip_operator_type(p);
    }
}

void lower__ts_skip_type(struct parser *p)
{
    lower__p_enter(p);
    skip_union_type(p);
    if (lower__p_is_kw(p, KW_EXTENDS) && !P_TOK(p).nl_before) {
        lower__p_next(p);
        skip_union_type(p);
        lower__p_expect(p, P_QUESTION);
        lower__ts_skip_type(p);
        lower__p_expect(p, P_COLON);
        lower__ts_skip_type(p);
    }
    lower__p_leave(p);
}

int lower__ts_skip_annotation(struct parser *p)
{
    if (!lower__p_eat(p, P_COLON))
        return 0;
    lower__ts_skip_type(p);
    return 1;
}

void lower__ts_skip_type_params(struct parser *p)
{
    lower__p_expect(p, P_LT);
    while (!lower__p_is(p, P_GT)) {
        while (P_TOK(p).type == TK_NAME &&
               (P_TOK(p).kw == KW_CONST || P_TOK(p).kw == KW_IN || P_TOK(p).kw == KW_OUT)) {
            struct token nx;
            lower__p_peek(p, &nx);
            if (nx.type != TK_NAME)
                break;
            lower__p_next(p);
        }
        lower__p_ident(p);
        if (lower__p_is_kw(p, KW_EXTENDS)) {
            lower__p_next(p);
            lower__ts_skip_type(p);
        }
        if (lower__p_eat(p, P_ASSIGN))
            lower__ts_skip_type(p);
        lower__p_split_gt(p);
        if (!lower__p_eat(p, P_COMMA))
            break;
    }
    lower__p_split_gt(p);
    lower__p_expect(p, P_GT);
}

/* Speculatively skips `<types>` at the current '<'. Returns 1 when it
 * parsed as type arguments (the caller decides from the next token whether
 * to keep them), 0 with the parser rewound otherwise. */
int lower__ts_try_type_args(struct parser *p)
{
    struct lex_state ls;
    jmp_buf jb, *saved = p->cx->spec_jmp;
    int depth = p->depth, ni = p->no_in;
    uint32_t pe = p->prev_end;
    lower__lex_save(&p->lx, &ls);
    if (lower__p_is(p, P_SHL))
        return 0;
    p->cx->spec_jmp = &jb;
    p->spec_depth++;
    if (setjmp(jb) != 0) {
        lower__lex_restore(&p->lx, &ls);
        p->cx->spec_jmp = saved;
        p->spec_depth--;
        p->depth = depth;
        p->no_in = ni;
        p->prev_end = pe;
        return 0;
    }
    skip_type_args_inner(p);
    p->cx->spec_jmp = saved;
    p->spec_depth--;
    return 1;
}

/* ---- TS statements ---------------------------------------------------------- */

static struct node *erased(struct parser *p, uint32_t pos, int line)
{
    struct node *n = lower__new_node(p, N_EMPTY, pos, line);
    n->flags |= NF_ERASED;
    n->end = p->prev_end;
    return n;
}

/* Skips to the end of a statement-like construct: a balanced block or `;`. */
static void skip_declaration_body(struct parser *p)
{
    while (P_TOK(p).type != TK_EOF) {
        if (lower__p_is(p, P_LBRACE)) {
            skip_balanced(p);
            return;
        }
        if (lower__p_eat(p, P_SEMI))
            return;
        if (P_TOK(p).type == TK_PUNCT && (P_TOK(p).op == P_LPAREN || P_TOK(p).op == P_LBRACKET)) {
            skip_balanced(p);
            continue;
        }
        lower__p_next(p);
        if (P_TOK(p).nl_before && !lower__p_is(p, P_LBRACE))
            return;
    }
}

static struct node *parse_type_alias(struct parser *p, uint32_t pos, int line)
{
    lower__p_next(p); /* type */
    lower__p_ident(p);
    if (lower__p_is(p, P_LT))
        lower__ts_skip_type_params(p);
    lower__p_expect(p, P_ASSIGN);
    lower__ts_skip_type(p);
    lower__p_semicolon(p);
    return erased(p, pos, line);
}

static struct node *parse_interface(struct parser *p, uint32_t pos, int line)
{
    lower__p_next(p); /* interface */
    lower__p_ident(p);
    if (lower__p_is(p, P_LT))
        lower__ts_skip_type_params(p);
    if (lower__p_is_kw(p, KW_EXTENDS)) {
        lower__p_next(p);
        do
            lower__ts_skip_type(p);
        while (lower__p_eat(p, P_COMMA));
    }
    if (!lower__p_is(p, P_LBRACE))
        lower__p_fail(p, "{");
    skip_balanced(p);
    return erased(p, pos, line);
}

static struct node *parse_declare(struct parser *p, uint32_t pos, int line)
{
    lower__p_next(p); /* declare */
    const struct token *t = &P_TOK(p);
    if (t->type == TK_NAME && (t->kw == KW_CONST || t->kw == KW_LET || t->kw == KW_VAR ||
                               t->kw == KW_FUNCTION || t->kw == KW_CLASS || t->kw == KW_ABSTRACT ||
                               t->kw == KW_ENUM || t->kw == KW_ASYNC)) {
        p->in_declare++;
        struct node *s = lower__parse_statement(p);
        p->in_declare--;
        (void)s;
        return erased(p, pos, line);
    }
    if (t->type == TK_NAME && (t->kw == KW_TYPE || t->kw == KW_INTERFACE)) {
        struct node *s = lower__ts_statement(p);
        if (s)
            return erased(p, pos, line);
    }
    /* declare module "x" { }, declare global { }, declare namespace N { } */
    skip_declaration_body(p);
    return erased(p, pos, line);
}

static struct node *parse_import_export(struct parser *p, uint32_t pos, int line)
{
    int is_export = P_TOK(p).kw == KW_EXPORT;
    struct token nx;
    lower__p_peek(p, &nx);
    if (nx.type == TK_NAME && nx.kw == KW_TYPE) {
        lower__p_next(p);
        if (is_export) {
            struct token n2;
            lower__p_peek(p, &n2);
            if (n2.type == TK_NAME) /* export type X = ... */
                return parse_type_alias(p, pos, line);
        }
        skip_declaration_body(p); /* import type {...} from "x"; export type {...} */
        return erased(p, pos, line);
    }
    if (is_export) {
        if (nx.type == TK_NAME && (nx.kw == KW_INTERFACE || nx.kw == KW_DECLARE)) {
            lower__p_next(p);
            return lower__ts_statement(p);
        }
        if (nx.type == TK_PUNCT && nx.op == P_LBRACE) {
            lower__p_next(p);
            lower__p_next(p);
            if (lower__p_eat(p, P_RBRACE)) { /* export {} */
                lower__p_semicolon(p);
                return erased(p, pos, line);
            }
        }
        lower__error_at(p->cx, pos,
                        "Unsupported: export (there are no modules here: the program is the body "
                        "of an async function; return the result instead)");
    }
    if (nx.type == TK_PUNCT && (nx.op == P_LPAREN || nx.op == P_DOT))
        return NULL; /* import() / import.meta: reported by the expression parser */
    lower__error_at(p->cx, pos,
                    "Unsupported: import (there are no modules here: the program is one script; "
                    "call tools through the global `tools` object)");
}

/* TS-only statements starting with a contextual keyword; NULL when the
 * tokens are an ordinary statement after all. */
struct node *lower__ts_statement(struct parser *p)
{
    const struct token *t = &P_TOK(p);
    uint32_t pos = t->pos;
    int line = t->line;
    struct token nx;
    if (t->kw == KW_IMPORT || t->kw == KW_EXPORT)
        return parse_import_export(p, pos, line);
    lower__p_peek(p, &nx);
    if (nx.nl_before && t->kw != KW_DECLARE)
        return NULL;
    switch (t->kw) {
    case KW_TYPE:
        if (nx.type == TK_NAME)
            return parse_type_alias(p, pos, line);
        return NULL;
    case KW_INTERFACE:
        if (nx.type == TK_NAME)
            return parse_interface(p, pos, line);
        return NULL;
    case KW_DECLARE:
        if (nx.type == TK_NAME && !nx.nl_before)
            return parse_declare(p, pos, line);
        return NULL;
    case KW_ABSTRACT:
        if (nx.type == TK_NAME && nx.kw == KW_CLASS) {
            lower__p_next(p);
            return lower__parse_class(p, 1, pos, line);
        }
        return NULL;
    case KW_NAMESPACE:
    case KW_MODULE:
        if (nx.type == TK_NAME || nx.type == TK_STR)
            lower__error_at(p->cx, pos, "Unsupported: TypeScript namespaces (use an object)");
        return NULL;
    }
    return NULL;
}

/* At `enum` (after `const` for const enums). */
struct node *lower__ts_enum(struct parser *p, uint32_t pos, int line, int is_const)
{
    struct node *n = lower__new_node(p, N_ENUM, pos, line);
    if (is_const)
        n->flags |= NF_CONST_ENUM;
    lower__p_next(p); /* enum */
    struct node *id = lower__new_node(p, N_IDENT, P_TOK(p).pos, P_TOK(p).line);
    id->end = P_TOK(p).end;
    id->name = lower__p_ident(p);
    n->a = id;
    lower__p_expect(p, P_LBRACE);
    struct node *last = NULL;
    while (!lower__p_is(p, P_RBRACE)) {
        struct node *m = lower__new_node(p, N_ENUM_MEMBER, P_TOK(p).pos, P_TOK(p).line);
        const struct token *t = &P_TOK(p);
        if (t->type == TK_NAME) {
            m->a = lower__new_node(p, N_IDENT, t->pos, t->line);
            m->a->name = t->name;
        } else if (t->type == TK_STR) {
            m->a = lower__new_node(p, N_STR, t->pos, t->line);
        } else {
            lower__p_fail(p, NULL);
        }
        m->a->end = t->end;
        lower__p_next(p);
        if (lower__p_eat(p, P_ASSIGN))
            m->b = lower__parse_assign(p);
        m->end = p->prev_end;
        if (last)
            last->next = m;
        else
            n->b = m;
        last = m;
        if (!lower__p_eat(p, P_COMMA))
            break;
    }
    n->c = lower__new_node(p, N_EMPTY, P_TOK(p).pos, P_TOK(p).line);
    lower__p_expect(p, P_RBRACE);
    n->end = p->prev_end;
    return n;
}
