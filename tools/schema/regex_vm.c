/* The matcher for schema patterns: a backtracking machine with an explicit
 * stack. Without backreferences it memoises (instruction, position) states,
 * so a search costs at most program size x input length steps and patterns
 * like ^(a+)+$ stay linear; a step budget bounds everything else. */
#include "tools/schema/regex.h"
#include "tools/schema/regex_internal.h"
#include "common/alloc.h"
#include "common/utf8.h"

#include <stdlib.h>
#include <string.h>

#define NO_END        ((size_t) -1)
#define MAX_STACK     (1u << 20) /* frames; beyond this the search gives up like the budget */
#define MAX_MEMO      (1u << 20) /* stamped memo states (4 MB) */
#define MAX_MEMO_BITS (1u << 25) /* memo states as bits (4 MB), when there is one run */
#define SMALL_MEMO    1024
#define SMALL_TEXT    256

enum frame_kind { F_THREAD, F_CAP, F_REG };

struct frame {
    enum frame_kind kind;
    int pc;   /* F_THREAD */
    size_t a; /* F_THREAD: position; F_CAP/F_REG: slot */
    size_t b; /* F_CAP/F_REG: value to restore */
};

struct vm {
    const struct schema__regex *re;
    const uint32_t *s;
    size_t n;
    unsigned long budget;
    uint32_t *stamp; /* memo: stamp[pc * (n + 1) + pos] == generation of the run */
    uint64_t *bits;  /* memo without lookaround (a single run): one bit per state */
    uint32_t gen;
    size_t *caps; /* 2 slots per group, group 0 unused */
    size_t *regs; /* position at the start of a loop iteration */
    struct frame *stack;
    size_t top, cap;
};

static int push(struct vm *v, enum frame_kind kind, int pc, size_t a, size_t b)
{
    if (v->top == v->cap) {
        if (v->cap >= MAX_STACK)
            return -1;
        v->cap = v->cap ? v->cap * 2 : 64;
        v->stack = xrealloc(v->stack, v->cap * sizeof *v->stack);
    }
    v->stack[v->top++] = (struct frame){kind, pc, a, b};
    return 0;
}

static int run(struct vm *v, int pc, size_t sp, size_t end_at);

/* Lookaround at pc: 1 if it holds at sp, 0 if not, -1 out of budget. */
static int look(struct vm *v, int pc, size_t sp)
{
    const struct rx_insn *in = &v->re->prog[pc];
    int found = 0;
    if (!in->behind) {
        found = run(v, pc + 1, sp, NO_END);
    } else {
        for (size_t j = sp + 1; j-- > 0 && found == 0;)
            found = run(v, pc + 1, j, sp);
    }
    if (found < 0)
        return -1;
    return found != in->negate;
}

static int backref(struct vm *v, uint32_t group, size_t *sp)
{
    size_t start = v->caps[2 * group], end = v->caps[2 * group + 1];
    if (start == NO_END || end == NO_END || end < start)
        return 1; /* an unset group matches the empty string */
    size_t len = end - start;
    if (len > v->n - *sp || memcmp(v->s + start, v->s + *sp, len * sizeof *v->s) != 0)
        return 0;
    *sp += len;
    return 1;
}

static int word_boundary(const struct vm *v, size_t sp)
{
    int before = sp > 0 && schema__rx_is_word(v->s[sp - 1]);
    int after = sp < v->n && schema__rx_is_word(v->s[sp]);
    return before != after;
}

/* Consumes one code point if the instruction at pc accepts it. */
static int consume(const struct vm *v, const struct rx_insn *in, size_t sp)
{
    if (sp >= v->n)
        return 0;
    uint32_t c = v->s[sp];
    switch (in->op) {
    case RX_CHAR:
        return c == in->arg;
    case RX_ANY:
        return !schema__rx_is_line_terminator(c);
    case RX_ANYALL:
        return 1;
    default:
        return schema__rx_class_matches(&v->re->classes[in->arg], c);
    }
}

/* Memo: 1 when (pc, sp) was already explored in this run (and failed). */
static int seen(struct vm *v, int pc, size_t sp, uint32_t gen)
{
    size_t k = (size_t) pc * (v->n + 1) + sp;
    if (v->bits) {
        uint64_t mask = (uint64_t) 1 << (k % 64);
        if (v->bits[k / 64] & mask)
            return 1;
        v->bits[k / 64] |= mask;
    } else if (v->stamp) {
        if (v->stamp[k] == gen)
            return 1;
        v->stamp[k] = gen;
    }
    return 0;
}

static int memoised(const struct vm *v)
{
    return v->bits || v->stamp;
}

static int assertion_holds(const struct vm *v, int op, size_t sp)
{
    switch (op) {
    case RX_BOL:
        return sp == 0;
    case RX_EOL:
        return sp == v->n;
    case RX_WORDB:
        return word_boundary(v, sp);
    default:
        return !word_boundary(v, sp);
    }
}

/* Sets a capture or loop register so that backtracking restores it.
 * Returns 1, or -1 when the stack is full. */
static int set_slot(struct vm *v, enum frame_kind kind, size_t *slots, uint32_t slot, size_t sp)
{
    if (push(v, kind, 0, slot, slots[slot]) < 0)
        return -1;
    slots[slot] = sp;
    return 1;
}

/* Runs one thread until it fails (0), matches (1) or exhausts the budget (-1).
 * Captures matter only for backreferences, loop registers only without the
 * memo (which already stops an iteration that matched nothing). */
static int thread(struct vm *v, int pc, size_t sp, size_t end_at, uint32_t gen)
{
    for (;;) {
        const struct rx_insn *in = &v->re->prog[pc];
        int r = 1;
        if (v->budget == 0)
            return -1;
        v->budget--;
        if (seen(v, pc, sp, gen))
            return 0;
        switch (in->op) {
        case RX_CHAR:
        case RX_ANY:
        case RX_ANYALL:
        case RX_CLASS:
            r = consume(v, in, sp);
            sp += (size_t) r;
            break;
        case RX_SPLIT:
            if (push(v, F_THREAD, in->y, sp, 0) < 0)
                return -1;
            pc = in->x;
            continue;
        case RX_JMP:
            pc = in->x;
            continue;
        case RX_SAVE:
            if (v->re->has_backrefs)
                r = set_slot(v, F_CAP, v->caps, in->arg, sp);
            break;
        case RX_MARK:
            if (!memoised(v))
                r = set_slot(v, F_REG, v->regs, in->arg, sp);
            break;
        case RX_CHECK: /* an iteration that matched nothing ends the loop */
            r = memoised(v) || v->regs[in->arg] != sp;
            break;
        case RX_LOOK:
            if ((r = look(v, pc, sp)) <= 0)
                return r;
            pc = in->x;
            continue;
        case RX_BACKREF:
            r = backref(v, in->arg, &sp);
            break;
        case RX_MATCH:
            return end_at == NO_END || sp == end_at;
        default:
            r = assertion_holds(v, in->op, sp);
            break;
        }
        if (r <= 0)
            return r;
        pc++;
    }
}

/* Runs from pc at sp until a MATCH (at end_at, if given). Each run is its own
 * memo generation. On success the frames of the run are dropped, keeping the
 * captures it set (as ECMA-262 does for positive lookahead). */
static int run(struct vm *v, int pc, size_t sp, size_t end_at)
{
    size_t base = v->top;
    uint32_t gen = ++v->gen;
    if (push(v, F_THREAD, pc, sp, 0) < 0)
        return -1;
    while (v->top > base) {
        struct frame f = v->stack[--v->top];
        if (f.kind == F_CAP) {
            v->caps[f.a] = f.b;
            continue;
        }
        if (f.kind == F_REG) {
            v->regs[f.a] = f.b;
            continue;
        }
        int r = thread(v, f.pc, f.a, end_at, gen);
        if (r != 0) {
            v->top = base;
            return r;
        }
    }
    return 0;
}

size_t schema__rx_decode(const char *s, size_t len, uint32_t *out)
{
    const unsigned char *p = (const unsigned char *) s;
    size_t i = 0, k = 0;
    while (i < len) {
        size_t w = p[i] < 0x80 ? 1 : utf8_valid_prefix(p + i, len - i);
        uint32_t c = p[i];
        if (w == 0)
            c = 0xFFFD, w = 1;
        else if (w == 2)
            c = ((uint32_t) (p[i] & 0x1F) << 6) | (p[i + 1] & 0x3F);
        else if (w == 3)
            c = ((uint32_t) (p[i] & 0x0F) << 12) | ((uint32_t) (p[i + 1] & 0x3F) << 6) |
                (p[i + 2] & 0x3F);
        else if (w == 4)
            c = ((uint32_t) (p[i] & 0x07) << 18) | ((uint32_t) (p[i + 1] & 0x3F) << 12) |
                ((uint32_t) (p[i + 2] & 0x3F) << 6) | (p[i + 3] & 0x3F);
        out[k++] = c;
        i += w;
    }
    return k;
}

/* Stack room for the common case: short texts, small programs. */
struct scratch {
    uint32_t text[SMALL_TEXT];
    uint32_t stamp[SMALL_MEMO];
    uint64_t bits[SMALL_MEMO / 64];
    size_t slots[16];
};

/* Memo choice: one bit per state when there is a single run (no lookaround),
 * generation stamps when lookarounds start runs of their own, none with
 * backreferences (captures are part of the state) or past the size caps. */
static void memo_init(struct vm *v, struct scratch *sc)
{
    const struct schema__regex *re = v->re;
    size_t states = re->len * (v->n + 1);
    if (re->has_backrefs)
        return;
    if (!re->has_look && states <= MAX_MEMO_BITS) {
        size_t words = states / 64 + 1;
        v->bits = words <= SMALL_MEMO / 64 ? sc->bits : xmalloc(words * sizeof *v->bits);
        memset(v->bits, 0, words * sizeof *v->bits);
    } else if (states <= MAX_MEMO) {
        v->stamp = states <= SMALL_MEMO ? sc->stamp : xmalloc(states * sizeof *v->stamp);
        memset(v->stamp, 0, states * sizeof *v->stamp);
    }
}

static void vm_init(struct vm *v, struct scratch *sc, const struct schema__regex *re, const char *s,
                    size_t len, const unsigned long *budget)
{
    memset(v, 0, sizeof *v);
    uint32_t *text = len <= SMALL_TEXT ? sc->text : xmalloc(len * sizeof *text);
    v->re = re;
    v->s = text;
    v->n = schema__rx_decode(s, len, text);
    v->budget = budget ? *budget : SCHEMA_REGEX_BUDGET + 64 * (unsigned long) v->n;
    memo_init(v, sc);
    size_t nslots = 2 * (size_t) (re->ncaps + 1) + (size_t) re->nregs;
    v->caps = nslots <= 16 ? sc->slots : xmalloc(nslots * sizeof *v->caps);
    memset(v->caps, 0xFF, nslots * sizeof *v->caps); /* NO_END: unset */
    v->regs = v->caps + 2 * (re->ncaps + 1);
}

static void vm_free(struct vm *v, struct scratch *sc)
{
    free(v->stack);
    if (v->caps != sc->slots)
        free(v->caps);
    if (v->stamp != sc->stamp)
        free(v->stamp);
    if (v->bits != sc->bits)
        free(v->bits);
    if (v->s != sc->text)
        free((void *) v->s);
}

int schema__regex_search(const struct schema__regex *re, const char *s, size_t len,
                         unsigned long *budget)
{
    struct scratch sc;
    struct vm v;
    vm_init(&v, &sc, re, s, len, budget);
    int r = run(&v, 0, 0, NO_END);
    if (budget)
        *budget = v.budget;
    vm_free(&v, &sc);
    return r;
}
