/* Memory and names for the lowering pass: a capped bump arena (the AST,
 * scopes and tables are released at once; chunks past 1 MB are mapped with
 * huge pages) and the interned-name table (every identifier is one struct
 * lname, pre-seeded with the keywords). */
#include <stdio.h>
#include <stdlib.h>
#include <pthread.h>
#include <string.h>
#include <sys/mman.h>

#include "sandbox/lower/internal.h"

struct arena_chunk {
    struct arena_chunk *next;
    size_t used, cap;
    size_t dirty;  /* bytes [dirty, cap) are known to be zero */
    size_t mapped; /* bytes of the mapping (0: from malloc) */
    char data[];
};

#define SMALL_CHUNK (32u << 10)   /* first chunk: small programs stay in the malloc heap */
#define MALLOC_CHUNK_MAX (1u << 20)
#define HUGE_PAGE ((size_t)2 << 20)
#define MAP_CHUNK_MAX ((size_t)8 << 20)

/* A chunk of `bytes` (header included) mapped on its own, aligned to 2 MB and
 * advised to use transparent huge pages: a large program touches tens of MB
 * of arena, and one fault per 2 MB instead of per 4 KB is most of the
 * difference in speed between lowering 10 KB and 1 MB. Fresh pages are zero.
 * Returns NULL on failure. */
static struct arena_chunk *chunk_map(size_t bytes)
{
    size_t span = bytes + HUGE_PAGE;
    char *raw = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (raw == MAP_FAILED)
        return NULL;
    char *start = (char *)(((uintptr_t)raw + HUGE_PAGE - 1) & ~(uintptr_t)(HUGE_PAGE - 1));
    if (start > raw)
        munmap(raw, (size_t)(start - raw));
    if (raw + span > start + bytes)
        munmap(start + bytes, (size_t)(raw + span - (start + bytes)));
#ifdef MADV_HUGEPAGE
    madvise(start, bytes, MADV_HUGEPAGE); /* advice only: failure changes nothing */
#endif
    struct arena_chunk *c = (struct arena_chunk *)start;
    c->mapped = bytes;
    c->cap = bytes - sizeof *c;
    c->dirty = 0;
    return c;
}

static struct arena_chunk *chunk_new(size_t cap)
{
    if (cap >= HUGE_PAGE - sizeof(struct arena_chunk))
        return chunk_map((cap + sizeof(struct arena_chunk) + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1));
    struct arena_chunk *c = malloc(sizeof *c + cap);
    if (c) {
        c->mapped = 0;
        c->cap = cap;
        c->dirty = cap; /* malloc memory may hold anything */
    }
    return c;
}

static void chunk_free(struct arena_chunk *c)
{
    if (c->mapped)
        munmap(c, c->mapped);
    else
        free(c);
}

/* The capacity of the chunk after c (NULL: the first) for a request of n bytes:
 * doubling from 32 KB to 1 MB in the malloc heap, then mapped chunks doubling
 * from 2 MB to 8 MB. */
static size_t next_cap(const struct arena_chunk *c, size_t n)
{
    size_t cap = SMALL_CHUNK;
    if (c && c->mapped)
        cap = c->mapped * 2 > MAP_CHUNK_MAX ? MAP_CHUNK_MAX : c->mapped * 2;
    else if (c)
        cap = c->cap >= MALLOC_CHUNK_MAX ? HUGE_PAGE : c->cap * 2;
    return cap < n ? n : cap;
}

/* Pushes a new chunk with room for n bytes; NULL (failed set) past the cap.
 * Out of line: the caller is the hottest function of the pass. */
static __attribute__((noinline)) struct arena_chunk *arena_grow(struct arena *a, size_t n)
{
    size_t cap = next_cap(a->head, n);
    struct arena_chunk *c;
    if (a->total + cap > LOWER_MAX_ARENA || !(c = chunk_new(cap))) {
        a->failed = 1;
        return NULL;
    }
    c->next = a->head;
    c->used = 0;
    a->head = c;
    a->total += c->cap;
    return c;
}

void *lower__arena_alloc(struct arena *a, size_t n)
{
    n = (n + 15) & ~(size_t)15;
    struct arena_chunk *c = a->head;
    if ((!c || c->cap - c->used < n) && !(c = arena_grow(a, n)))
        return NULL;
    char *p = c->data + c->used;
    c->used += n;
    if (p < c->data + c->dirty) /* (zeroing a little clean memory too is harmless) */
        memset(p, 0, n);
    else
        c->dirty = c->used;
    return p;
}

void lower__arena_free(struct arena *a)
{
    struct arena_chunk *c = a->head;
    while (c) {
        struct arena_chunk *n = c->next;
        chunk_free(c);
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
        chunk_free(a->head);
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

/* The keyword entries, hashed once per process (kw_template_build); every
 * lowering copies them into its own arena, since resolution writes `top` and
 * `next` of its names. */
static struct lname kw_template[KW_COUNT];
static pthread_once_t kw_template_once = PTHREAD_ONCE_INIT;

static void kw_template_build(void)
{
    for (int k = 1; k < KW_COUNT; k++) {
        struct lname *e = &kw_template[k];
        e->s = keywords[k];
        e->len = (uint32_t)strlen(keywords[k]);
        e->hash = hash_bytes(e->s, e->len);
        e->id = (uint32_t)k;
        e->kw = (int16_t)k;
    }
}

/* Seeds the table with the keywords (ids 1..KW_COUNT-1, in the order and
 * bucket chains that interning them one by one would give) without hashing
 * or comparing: ~1 us instead of ~20 us on every lowering. */
int lower__names_init(struct names *t, struct arena *a)
{
    pthread_once(&kw_template_once, kw_template_build);
    t->arena = a;
    t->mask = 255; /* grows by doubling (names_grow): small programs zero less */
    t->count = KW_COUNT - 1;
    t->tab = lower__arena_alloc(a, 256 * sizeof *t->tab);
    struct lname *kw = lower__arena_alloc(a, sizeof kw_template);
    if (!t->tab || !kw)
        return -1;
    memcpy(kw, kw_template, sizeof kw_template);
    for (int k = 1; k < KW_COUNT; k++) {
        struct lname *e = &kw[k];
        e->next = t->tab[e->hash & t->mask];
        t->tab[e->hash & t->mask] = e;
    }
    return 0;
}
