/* The matcher for schema patterns: a backtracking machine with an explicit
 * stack. Without backreferences it memoises (instruction, position) states,
 * so a search costs at most program size x input length steps and patterns
 * like ^(a+)+$ stay linear; a step budget bounds everything else. */
#include "tools/schema_regex.h"
#include "tools/schema_regex_int.h"
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

/* Runs one thread until it fails (0), matches (1) or exhausts the budget (-1). */
static int thread(struct vm *v, int pc, size_t sp, size_t end_at, uint32_t gen)
{
    for (;;) {
        const struct rx_insn *in = &v->re->prog[pc];
        int r;
        if (v->budget == 0)
            return -1;
        v->budget--;
        if (v->bits) {
            size_t k = (size_t) pc * (v->n + 1) + sp;
            uint64_t mask = (uint64_t) 1 << (k % 64);
            if (v->bits[k / 64] & mask)
                return 0;
            v->bits[k / 64] |= mask;
        } else if (v->stamp) {
            uint32_t *st = &v->stamp[(size_t) pc * (v->n + 1) + sp];
            if (*st == gen)
                return 0;
            *st = gen;
        }
        switch (in->op) {
        case RX_CHAR:
        case RX_ANY:
        case RX_ANYALL:
        case RX_CLASS:
            if (!consume(v, in, sp))
                return 0;
            sp++, pc++;
            break;
        case RX_SPLIT:
            if (push(v, F_THREAD, in->y, sp, 0) < 0)
                return -1;
            pc = in->x;
            break;
        case RX_JMP:
            pc = in->x;
            break;
        case RX_SAVE:
            if (v->re->has_backrefs) {
                if (push(v, F_CAP, 0, in->arg, v->caps[in->arg]) < 0)
                    return -1;
                v->caps[in->arg] = sp;
            }
            pc++;
            break;
        case RX_BOL:
            if (sp != 0)
                return 0;
            pc++;
            break;
        case RX_EOL:
            if (sp != v->n)
                return 0;
            pc++;
            break;
        case RX_WORDB:
            if (!word_boundary(v, sp))
                return 0;
            pc++;
            break;
        case RX_NWORDB:
            if (word_boundary(v, sp))
                return 0;
            pc++;
            break;
        case RX_LOOK:
            if ((r = look(v, pc, sp)) <= 0)
                return r;
            pc = in->x;
            break;
        case RX_BACKREF:
            if (!backref(v, in->arg, &sp))
                return 0;
            pc++;
            break;
        case RX_MARK:
            if (!v->stamp && !v->bits) {
                if (push(v, F_REG, 0, in->arg, v->regs[in->arg]) < 0)
                    return -1;
                v->regs[in->arg] = sp;
            }
            pc++;
            break;
        case RX_CHECK:
            if (!v->stamp && !v->bits && v->regs[in->arg] == sp)
                return 0; /* an iteration that matched nothing ends the loop */
            pc++;
            break;
        case RX_MATCH:
            return end_at == NO_END || sp == end_at;
        }
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

int schema__regex_search(const struct schema__regex *re, const char *s, size_t len,
                         unsigned long budget)
{
    uint32_t small_text[SMALL_TEXT], small_memo[SMALL_MEMO];
    uint64_t small_bits[SMALL_MEMO / 64];
    size_t small_slots[16];
    struct vm v = {0};
    uint32_t *text = len <= SMALL_TEXT ? small_text : xmalloc(len * sizeof *text);
    v.re = re;
    v.s = text;
    v.n = schema__rx_decode(s, len, text);
    v.budget = (budget ? budget : SCHEMA_REGEX_BUDGET) + 64 * (unsigned long) v.n;
    size_t states = re->len * (v.n + 1);
    if (!re->has_backrefs && !re->has_look && states <= MAX_MEMO_BITS) {
        size_t words = states / 64 + 1;
        v.bits = words <= SMALL_MEMO / 64 ? small_bits : xmalloc(words * sizeof *v.bits);
        memset(v.bits, 0, words * sizeof *v.bits);
    } else if (!re->has_backrefs && states <= MAX_MEMO) {
        v.stamp = states <= SMALL_MEMO ? small_memo : xmalloc(states * sizeof *v.stamp);
        memset(v.stamp, 0, states * sizeof *v.stamp);
    }
    size_t nslots = 2 * (size_t) (re->ncaps + 1) + (size_t) re->nregs;
    size_t *slots = nslots <= 16 ? small_slots : xmalloc(nslots * sizeof *slots);
    memset(slots, 0xFF, nslots * sizeof *slots); /* NO_END: unset */
    v.caps = slots;
    v.regs = slots + 2 * (re->ncaps + 1);
    int r = run(&v, 0, 0, NO_END);
    free(v.stack);
    if (slots != small_slots)
        free(slots);
    if (v.stamp != small_memo)
        free(v.stamp);
    if (v.bits != small_bits)
        free(v.bits);
    if (text != small_text)
        free(text);
    return r;
}
