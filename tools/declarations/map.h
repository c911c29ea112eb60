/* Internal to tools/declarations/: an open-addressing hash map whose key
 * is a pair (pointer, string), either part optional, both borrowed (they
 * must outlive the map). It keeps the generator linear on huge schemas:
 * targets by node, refs by text, object members by key, alias names. */
#ifndef TOOLS_DECLARATIONS_MAP_H
#define TOOLS_DECLARATIONS_MAP_H

#include <stddef.h>

struct tools__decl_slot {
    const void *obj; /* key part, may be NULL */
    const char *str; /* key part, may be NULL */
    const void *ptr; /* value */
    size_t num;      /* value */
    unsigned char used;
};

struct tools__decl_map {
    struct tools__decl_slot *slots;
    size_t cap, n;
};

/* An empty map needs no initialisation beyond zeroing ({0}). */
void tools__decl_map_free(struct tools__decl_map *m);

/* The slot holding (obj, str), or NULL. */
struct tools__decl_slot *tools__decl_map_find(const struct tools__decl_map *m, const void *obj,
                                              const char *str);

/* The slot holding (obj, str), added with ptr NULL and num 0 when absent;
 * *added tells which (added may be NULL). The slot stays valid until the
 * next put. Allocation failure aborts. */
struct tools__decl_slot *tools__decl_map_put(struct tools__decl_map *m, const void *obj,
                                             const char *str, int *added);

#endif
