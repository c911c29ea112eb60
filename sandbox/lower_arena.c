/* Memory and names for the lowering pass: a capped bump arena (the AST,
 * scopes and tables are released at once) and the interned-name table
 * (every identifier is one struct lname, pre-seeded with the keywords). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sandbox/lower_int.h"

struct arena_chunk {
    struct arena_chunk *next;
    size_t used, cap;
    char data[];
};

void *lower__arena_alloc(struct arena *a, size_t n)
{
    n = (n + 15) & ~(size_t)15;
    struct arena_chunk *c = a->head;
    if (!c || c->cap - c->used < n) {
        /* chunks grow from 32 KB (small programs stay in the malloc heap,
         * with no page faults) to 1 MB */
        size_t cap = c ? c->cap * 2 : (32u << 10);
        if (cap > (1u << 20))
            cap = 1u << 20;
        if (cap < n)
            cap = n;
        if (a->total + cap > LOWER_MAX_ARENA) {
            a->failed = 1;
            return NULL;
        }
        c = malloc(sizeof *c + cap);
        if (!c) {
            a->failed = 1;
            return NULL;
        }
        c->next = a->head;
        c->used = 0;
        c->cap = cap;
        a->head = c;
        a->total += cap;
    }
    void *p = c->data + c->used;
    c->used += n;
    memset(p, 0, n);
    return p;
}

void lower__arena_free(struct arena *a)
{
    struct arena_chunk *c = a->head;
    while (c) {
        struct arena_chunk *n = c->next;
        free(c);
        c = n;
    }
    a->head = NULL;
    a->total = 0;
}

struct arena_mark lower__arena_mark(struct arena *a)
{
    struct arena_mark m = { a->head, a->head ? a->head->used : 0 };
    return m;
}

/* Drops everything allocated after m (whole chunks are kept for reuse only
 * when they are the mark's own chunk). */
void lower__arena_release(struct arena *a, struct arena_mark m)
{
    while (a->head && a->head != m.chunk) {
        struct arena_chunk *n = a->head->next;
        a->total -= a->head->cap;
        free(a->head);
        a->head = n;
    }
    if (a->head)
        a->head->used = m.used;
}

/* ---- names ----------------------------------------------------------------- */

static const char *const keywords[KW_COUNT] = {
    [KW_BREAK] = "break", [KW_CASE] = "case", [KW_CATCH] = "catch", [KW_CLASS] = "class",
    [KW_CONST] = "const", [KW_CONTINUE] = "continue", [KW_DEBUGGER] = "debugger",
    [KW_DEFAULT] = "default", [KW_DELETE] = "delete", [KW_DO] = "do", [KW_ELSE] = "else",
    [KW_ENUM] = "enum", [KW_EXPORT] = "export", [KW_EXTENDS] = "extends", [KW_FALSE] = "false",
    [KW_FINALLY] = "finally", [KW_FOR] = "for", [KW_FUNCTION] = "function", [KW_IF] = "if",
    [KW_IMPORT] = "import", [KW_IN] = "in", [KW_INSTANCEOF] = "instanceof", [KW_NEW] = "new",
    [KW_NULL] = "null", [KW_RETURN] = "return", [KW_SUPER] = "super", [KW_SWITCH] = "switch",
    [KW_THIS] = "this", [KW_THROW] = "throw", [KW_TRUE] = "true", [KW_TRY] = "try",
    [KW_TYPEOF] = "typeof", [KW_VAR] = "var", [KW_VOID] = "void", [KW_WHILE] = "while",
    [KW_WITH] = "with", [KW_LET] = "let", [KW_STATIC] = "static", [KW_YIELD] = "yield",
    [KW_AWAIT] = "await", [KW_ASYNC] = "async", [KW_OF] = "of", [KW_GET] = "get",
    [KW_SET] = "set", [KW_FROM] = "from", [KW_AS] = "as", [KW_SATISFIES] = "satisfies",
    [KW_TYPE] = "type", [KW_INTERFACE] = "interface", [KW_DECLARE] = "declare",
    [KW_ABSTRACT] = "abstract", [KW_PUBLIC] = "public", [KW_PRIVATE] = "private",
    [KW_PROTECTED] = "protected", [KW_READONLY] = "readonly", [KW_OVERRIDE] = "override",
    [KW_IMPLEMENTS] = "implements", [KW_NAMESPACE] = "namespace", [KW_MODULE] = "module",
    [KW_KEYOF] = "keyof", [KW_INFER] = "infer", [KW_IS] = "is", [KW_ASSERTS] = "asserts",
    [KW_UNIQUE] = "unique", [KW_GLOBAL] = "global", [KW_CONSTRUCTOR] = "constructor",
    [KW_ARGUMENTS] = "arguments", [KW_UNDEFINED] = "undefined", [KW_ACCESSOR] = "accessor",
    [KW_TARGET] = "target", [KW_OUT] = "out",
};

static uint32_t hash_bytes(const char *s, size_t n)
{
    uint32_t h = LOWER_HASH_INIT;
    for (size_t i = 0; i < n; i++)
        h = LOWER_HASH_STEP(h, s[i]);
    return h;
}

static int names_grow(struct names *t)
{
    uint32_t ncap = (t->mask + 1) * 2;
    struct lname **nt = lower__arena_alloc(t->arena, ncap * sizeof *nt);
    if (!nt)
        return -1;
    for (uint32_t i = 0; i <= t->mask; i++) {
        struct lname *e = t->tab[i];
        while (e) {
            struct lname *nx = e->next;
            e->next = nt[e->hash & (ncap - 1)];
            nt[e->hash & (ncap - 1)] = e;
            e = nx;
        }
    }
    t->tab = nt;
    t->mask = ncap - 1;
    return 0;
}

struct lname *lower__lookup(struct names *t, const char *s, size_t n)
{
    uint32_t h = hash_bytes(s, n);
    for (struct lname *e = t->tab[h & t->mask]; e; e = e->next)
        if (e->hash == h && e->len == n && memcmp(e->s, s, n) == 0)
            return e;
    return NULL;
}

struct lname *lower__intern(struct names *t, const char *s, size_t n)
{
    return lower__intern_hashed(t, s, n, hash_bytes(s, n));
}

struct lname *lower__intern_hashed(struct names *t, const char *s, size_t n, uint32_t h)
{
    for (struct lname *e = t->tab[h & t->mask]; e; e = e->next)
        if (e->hash == h && e->len == n && memcmp(e->s, s, n) == 0)
            return e;
    if (t->count >= t->mask && names_grow(t) < 0)
        return NULL;
    struct lname *e = lower__arena_alloc(t->arena, sizeof *e + n + 1);
    if (!e)
        return NULL;
    char *copy = (char *)(e + 1);
    memcpy(copy, s, n);
    e->s = copy;
    e->len = (uint32_t)n;
    e->hash = h;
    e->id = ++t->count;
    e->next = t->tab[h & t->mask];
    t->tab[h & t->mask] = e;
    return e;
}

struct lname *lower__gen_name(struct names *t, const char *prefix, size_t plen, uint32_t *counter)
{
    char buf[300];
    if (plen > 200)
        plen = 200;
    for (;;) {
        /* prefix + sep + counter, without printf (hot: every temporary) */
        char digits[12];
        int nd = 0;
        uint32_t v = ++*counter;
        do
            digits[nd++] = (char)('0' + v % 10);
        while ((v /= 10) && nd < 11);
        int k = (int)plen;
        memcpy(buf, prefix, plen);
        for (const char *c = t->sep ? t->sep : "$"; *c; c++)
            buf[k++] = *c;
        while (nd)
            buf[k++] = digits[--nd];
        buf[k] = 0;
        if (t->has_dollar) {
            if (lower__lookup(t, buf, (size_t)k))
                continue;
            return lower__intern(t, buf, (size_t)k);
        }
        /* no source name has a '$': no collision possible, no interning */
        struct lname *e = lower__arena_alloc(t->arena, sizeof *e + (size_t)k + 1);
        if (!e)
            return NULL;
        memcpy((char *)(e + 1), buf, (size_t)k);
        e->s = (char *)(e + 1);
        e->len = (uint32_t)k;
        return e;
    }
}

int lower__names_init(struct names *t, struct arena *a)
{
    t->arena = a;
    t->mask = 1023;
    t->count = 0;
    t->tab = lower__arena_alloc(a, 1024 * sizeof *t->tab);
    if (!t->tab)
        return -1;
    for (int k = 1; k < KW_COUNT; k++) {
        struct lname *e = lower__intern(t, keywords[k], strlen(keywords[k]));
        if (!e)
            return -1;
        e->kw = (int16_t)k;
    }
    return 0;
}
