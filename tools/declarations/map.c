/* A small open-addressing hash map (linear probing, at most half full)
 * keyed by a borrowed (pointer, string) pair, for the declarations
 * generator's lookups. */
#include "tools/declarations/map.h"
#include "common/alloc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static size_t hash(const void *obj, const char *str)
{
    uint64_t h = 1469598103934665603ULL; /* FNV-1a */
    for (const unsigned char *p = (const unsigned char *) str; p && *p; p++)
        h = (h ^ *p) * 1099511628211ULL;
    h ^= (uint64_t) (uintptr_t) obj * 0x9E3779B97F4A7C15ULL;
    return (size_t) (h ^ (h >> 29));
}

static int same_key(const struct tools__decl_slot *s, const void *obj, const char *str)
{
    if (s->obj != obj || (s->str == NULL) != (str == NULL))
        return 0;
    return str == NULL || strcmp(s->str, str) == 0;
}

void tools__decl_map_free(struct tools__decl_map *m)
{
    free(m->slots);
    m->slots = NULL;
    m->cap = m->n = 0;
}

static struct tools__decl_slot *probe(const struct tools__decl_map *m, const void *obj,
                                      const char *str)
{
    size_t i = hash(obj, str) & (m->cap - 1);
    while (m->slots[i].used && !same_key(&m->slots[i], obj, str))
        i = (i + 1) & (m->cap - 1);
    return &m->slots[i];
}

struct tools__decl_slot *tools__decl_map_find(const struct tools__decl_map *m, const void *obj,
                                              const char *str)
{
    if (m->cap == 0)
        return NULL;
    struct tools__decl_slot *s = probe(m, obj, str);
    return s->used ? s : NULL;
}

static void grow(struct tools__decl_map *m)
{
    struct tools__decl_map bigger = {xcalloc(m->cap ? 2 * m->cap : 16, sizeof *m->slots),
                                     m->cap ? 2 * m->cap : 16, m->n};
    for (size_t i = 0; i < m->cap; i++)
        if (m->slots[i].used)
            *probe(&bigger, m->slots[i].obj, m->slots[i].str) = m->slots[i];
    free(m->slots);
    *m = bigger;
}

struct tools__decl_slot *tools__decl_map_put(struct tools__decl_map *m, const void *obj,
                                             const char *str, int *added)
{
    if (2 * (m->n + 1) > m->cap)
        grow(m);
    struct tools__decl_slot *s = probe(m, obj, str);
    if (added)
        *added = !s->used;
    if (!s->used) {
        *s = (struct tools__decl_slot){obj, str, NULL, 0, 1};
        m->n++;
    }
    return s;
}
