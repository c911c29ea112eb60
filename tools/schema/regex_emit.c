/* Code generation for schema patterns: the parse tree becomes a program for
 * a backtracking matcher (Thompson/Pike instruction set: split, jump, save).
 * Counted repetitions {n,m} are expanded into copies of their body. */
#include "tools/schema/regex_internal.h"
#include "common/alloc.h"

#include <stdlib.h>

struct emitter {
    struct schema__regex *re;
    size_t cap;
    int overflow;
};

static int emit(struct emitter *e, enum rx_op op, uint32_t arg)
{
    struct schema__regex *re = e->re;
    if (re->len >= RX_MAX_PROG) {
        e->overflow = 1;
        return (int) re->len - 1;
    }
    if (re->len == e->cap) {
        e->cap = e->cap ? e->cap * 2 : 32;
        re->prog = xrealloc(re->prog, e->cap * sizeof *re->prog);
    }
    struct rx_insn *in = &re->prog[re->len];
    in->op = (uint8_t) op;
    in->behind = in->negate = 0;
    in->arg = arg;
    in->x = in->y = 0;
    return (int) re->len++;
}

static int here(const struct emitter *e)
{
    return (int) e->re->len;
}

static void set_xy(struct emitter *e, int pc, int x, int y)
{
    if (e->overflow)
        return;
    e->re->prog[pc].x = x;
    e->re->prog[pc].y = y;
}

/* Whether the subtree can match the empty string (loops over such bodies get
 * an empty-iteration check, as ECMA-262 RepeatMatcher requires). */
static int nullable(const struct rx_node *nd)
{
    const struct rx_node *k;
    switch (nd->kind) {
    case RXN_CHAR:
    case RXN_ANY:
    case RXN_CLASS:
        return 0;
    case RXN_CAT:
        for (k = nd->kids; k; k = k->next)
            if (!nullable(k))
                return 0;
        return 1;
    case RXN_ALT:
        for (k = nd->kids; k; k = k->next)
            if (nullable(k))
                return 1;
        return 0;
    case RXN_GROUP:
        return nd->kids == NULL || nullable(nd->kids);
    case RXN_REPEAT:
        return nd->min == 0 || nullable(nd->kids);
    default:
        return 1;
    }
}

static void emit_node(struct emitter *e, const struct rx_node *nd);

static void emit_alt(struct emitter *e, const struct rx_node *nd)
{
    size_t n = 0, cap = 0;
    int *jumps = NULL;
    for (const struct rx_node *k = nd->kids; k; k = k->next) {
        if (k->next == NULL) {
            emit_node(e, k);
            break;
        }
        int split = emit(e, RX_SPLIT, 0);
        emit_node(e, k);
        if (n == cap) {
            cap = cap ? cap * 2 : 8;
            jumps = xrealloc(jumps, cap * sizeof *jumps);
        }
        jumps[n++] = emit(e, RX_JMP, 0);
        set_xy(e, split, split + 1, here(e));
    }
    for (size_t i = 0; i < n; i++)
        set_xy(e, jumps[i], here(e), 0);
    free(jumps);
}

/* x{min,max}: min copies, then either a loop or (max - min) optional copies. */
static void emit_repeat(struct emitter *e, const struct rx_node *nd)
{
    for (unsigned i = 0; i < nd->min && !e->overflow; i++)
        emit_node(e, nd->kids);
    if (nd->max == RX_INF) {
        int check = nullable(nd->kids), reg = check ? e->re->nregs++ : 0;
        int split = emit(e, RX_SPLIT, 0);
        if (check)
            emit(e, RX_MARK, (uint32_t) reg);
        emit_node(e, nd->kids);
        if (check)
            emit(e, RX_CHECK, (uint32_t) reg);
        int j = emit(e, RX_JMP, 0);
        set_xy(e, j, split, 0);
        int out = here(e);
        set_xy(e, split, nd->greedy ? split + 1 : out, nd->greedy ? out : split + 1);
        return;
    }
    int first = here(e);
    unsigned optional = nd->max - nd->min;
    for (unsigned i = 0; i < optional && !e->overflow; i++) {
        emit(e, RX_SPLIT, 0);
        emit_node(e, nd->kids);
    }
    /* Every optional copy's split skips to the end of all of them. */
    int out = here(e);
    for (int pc = first; pc < out && !e->overflow; pc++) {
        struct rx_insn *in = &e->re->prog[pc];
        if (in->op == RX_SPLIT && in->x == 0 && in->y == 0)
            set_xy(e, pc, nd->greedy ? pc + 1 : out, nd->greedy ? out : pc + 1);
    }
}

static void emit_look(struct emitter *e, const struct rx_node *nd)
{
    int look = emit(e, RX_LOOK, 0);
    e->re->has_look = 1;
    if (!e->overflow) {
        e->re->prog[look].behind = (uint8_t) nd->behind;
        e->re->prog[look].negate = (uint8_t) nd->negate;
    }
    if (nd->kids)
        emit_node(e, nd->kids);
    emit(e, RX_MATCH, 0);
    set_xy(e, look, here(e), 0);
}

static void emit_node(struct emitter *e, const struct rx_node *nd)
{
    if (e->overflow || nd == NULL)
        return;
    switch (nd->kind) {
    case RXN_EMPTY:
        break;
    case RXN_CHAR:
        emit(e, RX_CHAR, nd->c);
        break;
    case RXN_ANY:
        emit(e, RX_ANY, 0);
        break;
    case RXN_CLASS:
        emit(e, RX_CLASS, (uint32_t) nd->index);
        break;
    case RXN_BOL:
        emit(e, RX_BOL, 0);
        break;
    case RXN_EOL:
        emit(e, RX_EOL, 0);
        break;
    case RXN_WORDB:
        emit(e, RX_WORDB, 0);
        break;
    case RXN_NWORDB:
        emit(e, RX_NWORDB, 0);
        break;
    case RXN_BACKREF:
        emit(e, RX_BACKREF, (uint32_t) nd->index);
        break;
    case RXN_CAT:
        for (const struct rx_node *k = nd->kids; k; k = k->next)
            emit_node(e, k);
        break;
    case RXN_ALT:
        emit_alt(e, nd);
        break;
    case RXN_REPEAT:
        emit_repeat(e, nd);
        break;
    case RXN_LOOK:
        emit_look(e, nd);
        break;
    case RXN_GROUP:
        if (nd->index)
            emit(e, RX_SAVE, (uint32_t) (2 * nd->index));
        emit_node(e, nd->kids);
        if (nd->index)
            emit(e, RX_SAVE, (uint32_t) (2 * nd->index + 1));
        break;
    }
}

int schema__rx_emit(struct schema__regex *re, const struct rx_node *root)
{
    struct emitter e = {re, 0, 0};
    /* Unanchored search: a lazy "any code point" loop before the pattern. */
    int split = emit(&e, RX_SPLIT, 0);
    emit(&e, RX_ANYALL, 0);
    int j = emit(&e, RX_JMP, 0);
    set_xy(&e, j, split, 0);
    set_xy(&e, split, here(&e), split + 1);
    emit_node(&e, root);
    emit(&e, RX_MATCH, 0);
    return e.overflow ? -1 : 0;
}
