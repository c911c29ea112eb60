/* Map and Set natives (see collections.h). A collection's entries live in its
 * store, a bare array [meta, next, removed, k0, v0, k1, v1, ...] (a Set has
 * no values) kept under a hidden key of the Map or Set, so that the garbage
 * collector sees every key and value. meta is a buffer: a header, one record
 * per entry (the key's identity and type, and the next entry of its hash
 * chain) and the hash buckets. A key's identity is what SameValueZero
 * compares: the heap pointer of a string (Duktape interns strings: equal
 * contents, one pointer), symbol or object; the bits of a number (-0 as +0,
 * one NaN); the value of a boolean. The collector does not move objects, and
 * a key in the table is reachable from the store, so its pointer stays valid.
 *
 * Entries are appended in insertion order; a deleted one leaves a hole (its
 * slots set to undefined) until a compaction copies the live entries into a
 * new store. The old store then points to the new one (next) with the sorted
 * list of the holes it dropped (removed), or null after clear(), so that an
 * iterator or forEach cursor holding the old store finds its place again:
 * deletes, additions and clear() during iteration behave as the
 * specification says, however the table was compacted meanwhile. */
#include "sandbox/worker/collections.h"

#include "duktape.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#define KEY_STORE DUK_HIDDEN_SYMBOL("cs") /* a collection's or an iterator's store */
#define KEY_CURSOR DUK_HIDDEN_SYMBOL("ci") /* an iterator's position */
#define KEY_MAP_ITER DUK_HIDDEN_SYMBOL("cmi") /* in the heap stash: %MapIteratorPrototype% */
#define KEY_SET_ITER DUK_HIDDEN_SYMBOL("csi")

enum { KIND_MAP = 1, KIND_SET = 2 };
enum { ITER_KEYS, ITER_VALUES, ITER_ENTRIES };
/* The methods, for the messages of receiver errors (magic = kind | op << 2). */
enum { OP_GET, OP_SET, OP_HAS, OP_DELETE, OP_CLEAR, OP_FOREACH, OP_KEYS, OP_VALUES, OP_ENTRIES,
       OP_SIZE, OP_ADD };
static const char *const op_names[] = {"get",  "set",    "has",     "delete", "clear", "forEach",
                                       "keys", "values", "entries", "size",   "add"};

/* The slots of a store. */
#define S_META 0
#define S_NEXT 1
#define S_REMOVED 2
#define S_FIRST 3

#define NO_ENTRY UINT32_MAX
#define DELETED DUK_TYPE_NONE
#define MIN_CAP 8u
#define MAX_CAP (1u << 26) /* 64 Mi entries, far above any memory limit */

struct entry {
    uint64_t id;   /* the key's identity */
    uint32_t next; /* the next entry of the hash chain, or NO_ENTRY */
    uint32_t type; /* the key's DUK_TYPE_*, DELETED for a hole */
};

struct meta {
    uintptr_t owner; /* the Map or Set (its heap pointer), 0 once replaced */
    uint32_t kind, width; /* width: slots per entry in the store (2 Map, 1 Set) */
    uint32_t used;     /* entries written, holes included */
    uint32_t live;     /* the size */
    uint32_t cap;      /* room for entries; also the number of buckets (a power of two) */
    uint32_t replaced; /* compacted or cleared: see the store's next */
    /* then struct entry entries[cap]; uint32_t buckets[cap]; */
};

struct cursor {
    uintptr_t self; /* the iterator (its heap pointer): not a Proxy of it */
    uint32_t pos; /* the next entry to look at */
    uint8_t kind; /* KIND_MAP or KIND_SET */
    uint8_t what; /* ITER_KEYS, ITER_VALUES or ITER_ENTRIES */
    uint8_t done; /* returned done once: stays done */
};

struct key {
    uint64_t id;
    uint32_t type;
};

static struct entry *entries_of(struct meta *m)
{
    return (struct entry *) (void *) (m + 1);
}

static uint32_t *buckets_of(struct meta *m)
{
    return (uint32_t *) (void *) (entries_of(m) + m->cap);
}

static size_t meta_size(uint32_t cap)
{
    return sizeof(struct meta) + (size_t) cap * (sizeof(struct entry) + sizeof(uint32_t));
}

static uint32_t bucket_of(const struct key *k, uint32_t cap)
{
    /* murmur3's finalizer: every bit of the identity reaches the low bits
     * (a number's low mantissa bits are mostly zero, a pointer's low bits
     * always are) */
    uint64_t h = k->id ^ ((uint64_t) k->type << 56);
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ull;
    h ^= h >> 33;
    return (uint32_t) h & (cap - 1);
}

/* The identity of the value at idx under SameValueZero. */
static void key_at(duk_context *ctx, duk_idx_t idx, struct key *k)
{
    k->type = (uint32_t) duk_get_type(ctx, idx);
    k->id = 0;
    switch (k->type) {
    case DUK_TYPE_BOOLEAN:
        k->id = (uint64_t) duk_get_boolean(ctx, idx);
        break;
    case DUK_TYPE_NUMBER: {
        double d = duk_get_number(ctx, idx);
        if (d == 0)
            d = 0; /* -0 is +0 */
        if (isnan(d))
            k->id = 0x7ff8000000000000ull; /* every NaN is one key */
        else
            memcpy(&k->id, &d, sizeof d);
        break;
    }
    case DUK_TYPE_STRING:
    case DUK_TYPE_OBJECT:
    case DUK_TYPE_BUFFER:
        k->id = (uint64_t) (uintptr_t) duk_get_heapptr(ctx, idx);
        break;
    case DUK_TYPE_POINTER:
        k->id = (uint64_t) (uintptr_t) duk_get_pointer(ctx, idx);
        break;
    default: /* undefined, null; lightfuncs (not built: DUK_USE_LIGHTFUNC_BUILTINS is off) */
        break;
    }
}

static struct meta *meta_at(duk_context *ctx, duk_idx_t store)
{
    duk_get_prop_index(ctx, store, S_META);
    struct meta *m = duk_get_buffer(ctx, -1, NULL);
    duk_pop(ctx); /* the store keeps it alive; buffers never move unless resized */
    return m;
}

static uint32_t find(struct meta *m, const struct key *k)
{
    if (m->cap == 0)
        return NO_ENTRY;
    struct entry *e = entries_of(m);
    for (uint32_t i = buckets_of(m)[bucket_of(k, m->cap)]; i != NO_ENTRY; i = e[i].next)
        if (e[i].id == k->id && e[i].type == k->type)
            return i;
    return NO_ENTRY;
}

static void link_entry(struct meta *m, uint32_t i)
{
    struct entry *e = entries_of(m) + i;
    uint32_t *b = buckets_of(m) + bucket_of(&(struct key){e->id, e->type}, m->cap);
    e->next = *b;
    *b = i;
}

static void relink_all(struct meta *m)
{
    uint32_t *b = buckets_of(m);
    for (uint32_t i = 0; i < m->cap; i++)
        b[i] = NO_ENTRY;
    struct entry *e = entries_of(m);
    for (uint32_t i = 0; i < m->used; i++)
        if (e[i].type != DELETED)
            link_entry(m, i);
}

/* --- errors, raised by the prelude so that they read as its other errors ----- */

/* Throws rt.collError(code, name, x) (sandbox/prelude/71_collections.js):
 * name says which method, x (a stack index) is the value at fault. */
static duk_ret_t throw_js(duk_context *ctx, const char *code, const char *name, duk_idx_t x)
{
    x = duk_normalize_index(ctx, x);
    duk_push_global_stash(ctx);
    duk_get_prop_literal(ctx, -1, "rt");
    duk_get_prop_literal(ctx, -1, "collError");
    duk_push_string(ctx, code);
    duk_push_string(ctx, name);
    duk_dup(ctx, x);
    duk_call(ctx, 3);
    return duk_throw(ctx);
}

/* --- stores ------------------------------------------------------------------- */

/* [ ... ] -> [ ... store ]: an empty store of a collection of kind. */
static void push_store(duk_context *ctx, void *owner, uint32_t kind, uint32_t cap)
{
    duk_push_bare_array(ctx);
    struct meta *m = duk_push_dynamic_buffer(ctx, meta_size(cap));
    m->owner = (uintptr_t) owner;
    m->kind = kind;
    m->width = kind == KIND_MAP ? 2 : 1;
    m->used = m->live = m->replaced = 0;
    m->cap = cap;
    relink_all(m);
    duk_put_prop_index(ctx, -2, S_META);
    duk_push_undefined(ctx);
    duk_put_prop_index(ctx, -2, S_NEXT);
    duk_push_undefined(ctx);
    duk_put_prop_index(ctx, -2, S_REMOVED);
}

/* The store of the collection at obj, when obj is a Map or Set of kind (0:
 * either): pushed, with its meta returned; else nothing pushed, NULL. */
static struct meta *push_own_store(duk_context *ctx, duk_idx_t obj, uint32_t kind)
{
    obj = duk_normalize_index(ctx, obj);
    if (!duk_is_object(ctx, obj))
        return NULL;
    duk_get_prop_literal(ctx, obj, KEY_STORE);
    if (duk_is_object(ctx, -1)) {
        struct meta *m = meta_at(ctx, -1);
        if (m != NULL && m->owner == (uintptr_t) duk_get_heapptr(ctx, obj) &&
            (kind == 0 || m->kind == kind))
            return m;
    }
    duk_pop(ctx);
    return NULL;
}

/* [ args ] -> [ args this store ]: the store of `this`, a collection of the
 * kind in magic (the natives have fixed argument counts: args is that many). */
static struct meta *push_receiver(duk_context *ctx, int magic)
{
    uint32_t kind = (uint32_t) magic & 3;
    duk_push_this(ctx);
    struct meta *m = push_own_store(ctx, -1, kind);
    if (m == NULL)
        throw_js(ctx, kind == KIND_MAP ? "Map" : "Set", op_names[magic >> 2], -1);
    return m;
}

static void set_hidden(duk_context *ctx, duk_idx_t obj, const char *key, duk_idx_t value)
{
    obj = duk_normalize_index(ctx, obj);
    duk_push_string(ctx, key);
    duk_dup(ctx, value < 0 ? value - 1 : value);
    /* only the value: a frozen collection stays frozen */
    duk_def_prop(ctx, obj, DUK_DEFPROP_HAVE_VALUE | DUK_DEFPROP_FORCE);
}

/* Makes the store on top the one of the collection at obj, in place of the
 * store at old, which then forwards to it (removed: the index of the sorted
 * list of the holes dropped, DUK_INVALID_INDEX after clear()). [ ... new ]
 * stays. */
static void replace_store(duk_context *ctx, duk_idx_t obj, duk_idx_t old, duk_idx_t removed)
{
    old = duk_normalize_index(ctx, old);
    duk_dup_top(ctx);
    duk_put_prop_index(ctx, old, S_NEXT);
    if (removed != DUK_INVALID_INDEX)
        duk_dup(ctx, removed);
    else
        duk_push_null(ctx);
    duk_put_prop_index(ctx, old, S_REMOVED);
    set_hidden(ctx, obj, KEY_STORE, -1);
    /* The old store keeps only the way forward. */
    duk_get_prop_index(ctx, old, S_META);
    struct meta *m = duk_get_buffer(ctx, -1, NULL);
    m->owner = 0;
    m->used = m->live = m->cap = 0;
    m->replaced = 1;
    duk_resize_buffer(ctx, -1, sizeof(struct meta));
    duk_pop(ctx);
    duk_set_length(ctx, old, S_FIRST);
}

/* Copies the live entries of the store at `store` into a new store with room
 * for cap and makes it the collection's; the store slot is replaced. */
static void compact(duk_context *ctx, duk_idx_t obj, duk_idx_t store, uint32_t cap)
{
    store = duk_normalize_index(ctx, store);
    struct meta *old = meta_at(ctx, store);
    uint32_t holes = old->used - old->live, w = old->width;
    /* holes > 0 (callers compact only then): a list, never taken for null */
    uint32_t *removed = duk_push_fixed_buffer(ctx, (duk_size_t) holes * sizeof(uint32_t));
    duk_idx_t removed_idx = duk_get_top_index(ctx);
    push_store(ctx, (void *) old->owner, old->kind, cap);
    struct meta *m = meta_at(ctx, -1);
    struct entry *oe = entries_of(old), *ne = entries_of(m);
    uint32_t r = 0;
    for (uint32_t j = 0; j < old->used; j++) {
        if (oe[j].type == DELETED) {
            removed[r++] = j;
            continue;
        }
        for (uint32_t s = 0; s < w; s++) {
            duk_get_prop_index(ctx, store, S_FIRST + j * w + s);
            duk_put_prop_index(ctx, -2, S_FIRST + m->used * w + s);
        }
        ne[m->used] = oe[j];
        link_entry(m, m->used);
        m->used++;
    }
    m->live = m->used;
    replace_store(ctx, obj, store, removed_idx);
    duk_replace(ctx, store);
    duk_pop(ctx); /* removed */
}

/* Room for one more entry in the store at `store` (possibly replaced). */
static struct meta *make_room(duk_context *ctx, duk_idx_t obj, duk_idx_t store)
{
    struct meta *m = meta_at(ctx, store);
    if (m->used < m->cap)
        return m;
    uint32_t holes = m->used - m->live;
    if (holes > 0 && holes * 2 >= m->used) {
        uint32_t cap = MIN_CAP;
        while (cap < m->live * 2)
            cap *= 2;
        compact(ctx, obj, store, cap);
        return meta_at(ctx, store);
    }
    if (m->cap >= MAX_CAP)
        (void) duk_range_error(ctx, "Map maximum size exceeded");
    uint32_t cap = m->cap ? m->cap * 2 : MIN_CAP;
    duk_get_prop_index(ctx, store, S_META);
    m = duk_resize_buffer(ctx, -1, meta_size(cap));
    duk_pop(ctx);
    m->cap = cap;
    relink_all(m);
    return m;
}

/* Adds key (value: for a Map) to the collection at obj whose store is at
 * `store` (possibly replaced), or sets the value of an existing key. */
static void put(duk_context *ctx, duk_idx_t obj, duk_idx_t store, duk_idx_t key, duk_idx_t value)
{
    store = duk_normalize_index(ctx, store);
    key = duk_normalize_index(ctx, key);
    value = duk_normalize_index(ctx, value);
    struct key k;
    key_at(ctx, key, &k);
    struct meta *m = meta_at(ctx, store);
    uint32_t i = find(m, &k);
    if (i != NO_ENTRY) {
        if (m->width == 2) {
            duk_dup(ctx, value);
            duk_put_prop_index(ctx, store, S_FIRST + i * 2 + 1);
        }
        return;
    }
    m = make_room(ctx, obj, store);
    i = m->used;
    uint32_t w = m->width;
    if (k.type == DUK_TYPE_NUMBER && duk_get_number(ctx, key) == 0)
        duk_push_int(ctx, 0); /* -0 is stored as +0 */
    else
        duk_dup(ctx, key);
    duk_put_prop_index(ctx, store, S_FIRST + i * w);
    if (w == 2) {
        duk_dup(ctx, value);
        duk_put_prop_index(ctx, store, S_FIRST + i * w + 1);
    }
    /* m is still good: only make_room resizes the buffer */
    entries_of(m)[i] = (struct entry){k.id, NO_ENTRY, k.type};
    link_entry(m, i);
    m->used++;
    m->live++;
}

/* Removes key; 1 if it was there. */
static int remove_key(duk_context *ctx, duk_idx_t obj, duk_idx_t store, duk_idx_t key)
{
    store = duk_normalize_index(ctx, store);
    struct key k;
    key_at(ctx, key, &k);
    struct meta *m = meta_at(ctx, store);
    if (m->cap == 0)
        return 0;
    struct entry *e = entries_of(m);
    uint32_t *link = buckets_of(m) + bucket_of(&k, m->cap);
    while (*link != NO_ENTRY && !(e[*link].id == k.id && e[*link].type == k.type))
        link = &e[*link].next;
    uint32_t i = *link;
    if (i == NO_ENTRY)
        return 0;
    *link = e[i].next;
    e[i].type = DELETED;
    m->live--;
    for (uint32_t s = 0; s < m->width; s++) {
        duk_push_undefined(ctx);
        duk_put_prop_index(ctx, store, S_FIRST + i * m->width + s);
    }
    if (m->used >= 64 && m->live * 4 <= m->used) { /* mostly holes: shrink */
        uint32_t cap = MIN_CAP;
        while (cap < m->live * 2)
            cap *= 2;
        compact(ctx, obj, store, cap);
    }
    return 1;
}

/* --- cursors -------------------------------------------------------------------- */

/* The next live entry at or after *pos in the store at `store` (replaced by
 * the current one when it was compacted or cleared; *moved set), or NO_ENTRY. */
static uint32_t advance(duk_context *ctx, duk_idx_t store, uint32_t *pos, int *moved)
{
    store = duk_normalize_index(ctx, store);
    struct meta *m = meta_at(ctx, store);
    while (m->replaced) {
        duk_get_prop_index(ctx, store, S_REMOVED);
        duk_size_t n;
        const uint32_t *removed = duk_get_buffer(ctx, -1, &n);
        if (removed == NULL) {
            *pos = 0; /* cleared */
        } else {
            /* holes before *pos: the sorted list's first index >= *pos */
            size_t lo = 0, hi = n / sizeof(uint32_t);
            while (lo < hi) {
                size_t mid = lo + (hi - lo) / 2;
                if (removed[mid] < *pos)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            *pos -= (uint32_t) lo;
        }
        duk_pop(ctx);
        duk_get_prop_index(ctx, store, S_NEXT);
        duk_replace(ctx, store);
        *moved = 1;
        m = meta_at(ctx, store);
    }
    struct entry *e = entries_of(m);
    uint32_t i = *pos;
    while (i < m->used && e[i].type == DELETED)
        i++;
    if (i >= m->used) {
        *pos = i;
        return NO_ENTRY;
    }
    *pos = i + 1;
    return i;
}

/* [ ... ] -> [ ... v ]: what an iterator of `what` gives for entry i. */
static void push_item(duk_context *ctx, duk_idx_t store, uint32_t i, int what)
{
    store = duk_normalize_index(ctx, store);
    struct meta *m = meta_at(ctx, store);
    uint32_t w = m->width, base = S_FIRST + i * w;
    if (what == ITER_ENTRIES) {
        duk_push_array(ctx);
        duk_get_prop_index(ctx, store, base);
        duk_put_prop_index(ctx, -2, 0);
        duk_get_prop_index(ctx, store, base + w - 1);
        duk_put_prop_index(ctx, -2, 1);
        return;
    }
    duk_get_prop_index(ctx, store, what == ITER_KEYS ? base : base + w - 1);
}

/* [ ... ] -> [ ... store ]: the iterator at it's store and cursor, or an
 * error when it is not an iterator of kind (0: either). */
static struct cursor *push_iterator(duk_context *ctx, duk_idx_t it, uint32_t kind)
{
    it = duk_normalize_index(ctx, it);
    struct cursor *c = NULL;
    duk_size_t n = 0;
    if (duk_is_object(ctx, it)) {
        duk_get_prop_literal(ctx, it, KEY_CURSOR);
        c = duk_get_buffer(ctx, -1, &n);
        duk_pop(ctx);
    }
    if (c == NULL || n != sizeof *c || c->self != (uintptr_t) duk_get_heapptr(ctx, it) ||
        (kind != 0 && c->kind != kind))
        throw_js(ctx, "iterator", "next", it);
    duk_get_prop_literal(ctx, it, KEY_STORE);
    return c;
}

/* The iterator at it's next entry; [ ... ] -> [ ... store ] and the entry,
 * or [ ... ] and NO_ENTRY at the end (the iterator then stays done). */
static uint32_t iterator_step(duk_context *ctx, duk_idx_t it, uint32_t kind, struct cursor **out)
{
    it = duk_normalize_index(ctx, it);
    struct cursor *c = push_iterator(ctx, it, kind);
    *out = c;
    if (c->done) {
        duk_pop(ctx);
        return NO_ENTRY;
    }
    int moved = 0;
    uint32_t i = advance(ctx, -1, &c->pos, &moved);
    if (i == NO_ENTRY) {
        c->done = 1;
        duk_pop(ctx);
        duk_push_undefined(ctx); /* lets the store go */
        set_hidden(ctx, it, KEY_STORE, -1);
        duk_pop(ctx);
        return NO_ENTRY;
    }
    if (moved)
        set_hidden(ctx, it, KEY_STORE, -1);
    return i;
}

/* --- the natives ------------------------------------------------------------------- */

/* init(obj, kind): makes obj an empty Map (kind 1) or Set (2). */
static duk_ret_t native_init(duk_context *ctx)
{
    uint32_t kind = (uint32_t) duk_require_uint(ctx, 1);
    if (!duk_is_object(ctx, 0) || (kind != KIND_MAP && kind != KIND_SET))
        return duk_type_error(ctx, "invalid collection");
    if (push_own_store(ctx, 0, 0) != NULL)
        return throw_js(ctx, "twice", kind == KIND_MAP ? "Map" : "Set", 0);
    push_store(ctx, duk_get_heapptr(ctx, 0), kind, 0);
    set_hidden(ctx, 0, KEY_STORE, -1);
    return 0;
}

/* setup(mapIteratorPrototype, setIteratorPrototype) */
static duk_ret_t native_setup(duk_context *ctx)
{
    duk_push_heap_stash(ctx);
    duk_dup(ctx, 0);
    duk_put_prop_literal(ctx, -2, KEY_MAP_ITER);
    duk_dup(ctx, 1);
    duk_put_prop_literal(ctx, -2, KEY_SET_ITER);
    return 0;
}

static duk_ret_t native_get(duk_context *ctx)
{
    struct meta *m = push_receiver(ctx, duk_get_current_magic(ctx));
    struct key k;
    key_at(ctx, 0, &k);
    uint32_t i = find(m, &k);
    if (i == NO_ENTRY)
        return 0;
    duk_get_prop_index(ctx, -1, S_FIRST + i * 2 + 1);
    return 1;
}

static duk_ret_t native_has(duk_context *ctx)
{
    struct meta *m = push_receiver(ctx, duk_get_current_magic(ctx));
    struct key k;
    key_at(ctx, 0, &k);
    duk_push_boolean(ctx, find(m, &k) != NO_ENTRY);
    return 1;
}

/* Map.prototype.set(k, v): returns this. */
static duk_ret_t native_set(duk_context *ctx)
{
    push_receiver(ctx, duk_get_current_magic(ctx));
    put(ctx, 2, 3, 0, 1);
    duk_dup(ctx, 2);
    return 1;
}

/* Set.prototype.add(v): returns this. */
static duk_ret_t native_add(duk_context *ctx)
{
    push_receiver(ctx, duk_get_current_magic(ctx));
    put(ctx, 1, 2, 0, 0);
    duk_dup(ctx, 1);
    return 1;
}

static duk_ret_t native_delete(duk_context *ctx)
{
    push_receiver(ctx, duk_get_current_magic(ctx));
    duk_push_boolean(ctx, remove_key(ctx, 1, 2, 0));
    return 1;
}

static duk_ret_t native_clear(duk_context *ctx)
{
    struct meta *m = push_receiver(ctx, duk_get_current_magic(ctx));
    if (m->used == 0)
        return 0;
    push_store(ctx, duk_get_heapptr(ctx, 0), m->kind, 0);
    replace_store(ctx, 0, 1, DUK_INVALID_INDEX);
    return 0;
}

static duk_ret_t native_size(duk_context *ctx)
{
    struct meta *m = push_receiver(ctx, duk_get_current_magic(ctx));
    duk_push_uint(ctx, m->live);
    return 1;
}

/* forEach(cb, thisArg): cb(value, key, collection) for each entry, in order;
 * cb may add, delete and clear. */
static duk_ret_t native_for_each(duk_context *ctx)
{
    push_receiver(ctx, duk_get_current_magic(ctx)); /* 2: this, 3: store */
    if (!duk_is_callable(ctx, 0))
        return throw_js(ctx, "callback", "forEach", 0);
    uint32_t pos = 0, i;
    int moved = 0;
    while ((i = advance(ctx, 3, &pos, &moved)) != NO_ENTRY) {
        duk_dup(ctx, 0);
        duk_dup(ctx, 1);
        push_item(ctx, 3, i, ITER_VALUES);
        push_item(ctx, 3, i, ITER_KEYS);
        duk_dup(ctx, 2);
        duk_call_method(ctx, 3);
        duk_pop(ctx);
    }
    return 0;
}

/* keys(), values(), entries(): magic = kind | op << 2. */
static duk_ret_t native_iterator(duk_context *ctx)
{
    int magic = duk_get_current_magic(ctx), op = magic >> 2;
    uint32_t kind = (uint32_t) magic & 3;
    push_receiver(ctx, magic); /* 0: this, 1: store */
    duk_push_object(ctx);      /* 2: the iterator */
    duk_push_heap_stash(ctx);
    if (kind == KIND_MAP) /* not one call with ?: (the macro takes the literal's sizeof) */
        duk_get_prop_literal(ctx, -1, KEY_MAP_ITER);
    else
        duk_get_prop_literal(ctx, -1, KEY_SET_ITER);
    duk_set_prototype(ctx, 2);
    duk_pop(ctx);
    duk_dup(ctx, 1);
    duk_put_prop_literal(ctx, 2, KEY_STORE);
    struct cursor *c = duk_push_fixed_buffer(ctx, sizeof *c);
    c->self = (uintptr_t) duk_get_heapptr(ctx, 2);
    c->pos = 0;
    c->kind = (uint8_t) kind;
    c->what = (uint8_t) (op == OP_KEYS ? ITER_KEYS : op == OP_VALUES ? ITER_VALUES : ITER_ENTRIES);
    c->done = 0;
    duk_put_prop_literal(ctx, 2, KEY_CURSOR);
    return 1;
}

/* %MapIteratorPrototype%.next and %SetIteratorPrototype%.next (magic: kind). */
static duk_ret_t native_next(duk_context *ctx)
{
    duk_push_this(ctx);
    struct cursor *c;
    uint32_t i = iterator_step(ctx, 0, (uint32_t) duk_get_current_magic(ctx), &c);
    duk_push_object(ctx);
    if (i == NO_ENTRY) {
        duk_push_undefined(ctx);
        duk_put_prop_literal(ctx, -2, "value");
        duk_push_true(ctx);
    } else {
        push_item(ctx, 1, i, c->what);
        duk_put_prop_literal(ctx, -2, "value");
        duk_push_false(ctx);
    }
    duk_put_prop_literal(ctx, -2, "done");
    return 1;
}

/* mapStep(it, rec) and setStep(it, rec) (magic: kind): the next value of
 * it, an iterator of that kind, into rec[0], and true; false (rec untouched)
 * when it is done. next() without its result object: the for-of loop's fast
 * path over a Map or Set. */
static duk_ret_t native_step(duk_context *ctx)
{
    struct cursor *c;
    uint32_t i = iterator_step(ctx, 0, (uint32_t) duk_get_current_magic(ctx), &c);
    if (i == NO_ENTRY) {
        duk_push_false(ctx);
        return 1;
    }
    push_item(ctx, 2, i, c->what);
    duk_put_prop_index(ctx, 1, 0);
    duk_push_true(ctx);
    return 1;
}

/* type(x): "Map", "Set" or null. */
static duk_ret_t native_type(duk_context *ctx)
{
    struct meta *m = push_own_store(ctx, 0, 0);
    if (m == NULL)
        duk_push_null(ctx);
    else
        duk_push_string(ctx, m->kind == KIND_MAP ? "Map" : "Set");
    return 1;
}

/* entries(x): [k0, v0, k1, v1, ...] of a Map or Set (a Set's v is its k). */
static duk_ret_t native_entries(duk_context *ctx)
{
    if (push_own_store(ctx, 0, 0) == NULL) /* 1 */
        return throw_js(ctx, "internal", "", 0);
    duk_push_array(ctx); /* 2 */
    uint32_t pos = 0, i, n = 0;
    int moved = 0;
    while ((i = advance(ctx, 1, &pos, &moved)) != NO_ENTRY) {
        push_item(ctx, 1, i, ITER_KEYS);
        duk_put_prop_index(ctx, 2, n++);
        push_item(ctx, 1, i, ITER_VALUES);
        duk_put_prop_index(ctx, 2, n++);
    }
    return 1;
}

/* put(x, k, v): adds to the Map or Set x without its set/add. */
static duk_ret_t native_put(duk_context *ctx)
{
    if (push_own_store(ctx, 0, 0) == NULL) /* 3 */
        return throw_js(ctx, "internal", "", 0);
    put(ctx, 0, 3, 1, 2);
    return 0;
}

/* fill(x, array): adds the elements of array, read by index as its built-in
 * iterator would (length read at each step), to the new Map or Set x: a
 * Map takes entry objects [k, v]. The constructors' fast path. */
static duk_ret_t native_fill(duk_context *ctx)
{
    for (duk_uarridx_t i = 0; i < (duk_uarridx_t) duk_get_length(ctx, 1); i++) {
        duk_get_prop_index(ctx, 1, i); /* 2 */
        struct meta *m = push_own_store(ctx, 0, 0); /* 3 */
        if (m == NULL)
            return throw_js(ctx, "internal", "", 0);
        if (m->kind == KIND_SET) {
            put(ctx, 0, 3, 2, 2);
        } else {
            if (!duk_is_object(ctx, 2))
                return throw_js(ctx, "entry", "Map", 2);
            duk_pop(ctx);
            duk_get_prop_index(ctx, 2, 0); /* 3: k */
            duk_get_prop_index(ctx, 2, 1); /* 4: v */
            if (push_own_store(ctx, 0, 0) == NULL) /* 5 */
                return throw_js(ctx, "internal", "", 0);
            put(ctx, 0, 5, 3, 4);
        }
        duk_set_top(ctx, 2);
    }
    return 0;
}

static void put_fn(duk_context *ctx, const char *name, duk_c_function fn, duk_idx_t nargs, int magic)
{
    duk_push_c_function(ctx, fn, nargs);
    duk_set_magic(ctx, -1, magic);
    duk_put_prop_string(ctx, -2, name);
}

#define MAGIC(kind, op) ((kind) | (OP_##op) << 2)

void sandbox_collections_put_natives(void *duk_ctx)
{
    duk_context *ctx = duk_ctx;
    duk_push_object(ctx);
    put_fn(ctx, "init", native_init, 2, 0);
    put_fn(ctx, "setup", native_setup, 2, 0);
    put_fn(ctx, "type", native_type, 1, 0);
    put_fn(ctx, "entries", native_entries, 1, 0);
    put_fn(ctx, "put", native_put, 3, 0);
    put_fn(ctx, "fill", native_fill, 2, 0);
    put_fn(ctx, "mapGet", native_get, 1, MAGIC(KIND_MAP, GET));
    put_fn(ctx, "mapSet", native_set, 2, MAGIC(KIND_MAP, SET));
    put_fn(ctx, "mapHas", native_has, 1, MAGIC(KIND_MAP, HAS));
    put_fn(ctx, "mapDelete", native_delete, 1, MAGIC(KIND_MAP, DELETE));
    put_fn(ctx, "mapClear", native_clear, 0, MAGIC(KIND_MAP, CLEAR));
    put_fn(ctx, "mapForEach", native_for_each, 2, MAGIC(KIND_MAP, FOREACH));
    put_fn(ctx, "mapKeys", native_iterator, 0, MAGIC(KIND_MAP, KEYS));
    put_fn(ctx, "mapValues", native_iterator, 0, MAGIC(KIND_MAP, VALUES));
    put_fn(ctx, "mapEntries", native_iterator, 0, MAGIC(KIND_MAP, ENTRIES));
    put_fn(ctx, "mapSize", native_size, 0, MAGIC(KIND_MAP, SIZE));
    put_fn(ctx, "mapNext", native_next, 0, KIND_MAP);
    put_fn(ctx, "mapStep", native_step, 2, KIND_MAP);
    put_fn(ctx, "setAdd", native_add, 1, MAGIC(KIND_SET, ADD));
    put_fn(ctx, "setHas", native_has, 1, MAGIC(KIND_SET, HAS));
    put_fn(ctx, "setDelete", native_delete, 1, MAGIC(KIND_SET, DELETE));
    put_fn(ctx, "setClear", native_clear, 0, MAGIC(KIND_SET, CLEAR));
    put_fn(ctx, "setForEach", native_for_each, 2, MAGIC(KIND_SET, FOREACH));
    put_fn(ctx, "setValues", native_iterator, 0, MAGIC(KIND_SET, VALUES));
    put_fn(ctx, "setEntries", native_iterator, 0, MAGIC(KIND_SET, ENTRIES));
    put_fn(ctx, "setSize", native_size, 0, MAGIC(KIND_SET, SIZE));
    put_fn(ctx, "setNext", native_next, 0, KIND_SET);
    put_fn(ctx, "setStep", native_step, 2, KIND_SET);
    duk_put_prop_string(ctx, -2, "coll");
}
