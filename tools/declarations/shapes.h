/* Internal to tools/declarations/: object shapes that repeat, across tools
 * or within one (the entity a knowledge graph returns seven times), found
 * by their schema text and written once as named type aliases
 * (Types.Entity). Names come from where a shape first appears: its title,
 * else the property that holds it (singular for array items). The same
 * table can hold shapes that come from elsewhere (types learned from
 * results) once they have a schema node. */
#ifndef TOOLS_DECLARATIONS_SHAPES_H
#define TOOLS_DECLARATIONS_SHAPES_H

#include <cjson/cJSON.h>
#include <stddef.h>

#include "tools/declarations/map.h"

struct tools__decl_doc;
struct tools__decl_set;

struct tools__decl_shape {
    const cJSON *node;           /* the first occurrence (borrowed) */
    struct tools__decl_doc *doc; /* the document holding it */
    char *name;                  /* the alias name (Types.<name>) */
    unsigned char want, have;    /* as in struct tools__decl_target */
    char *body;                  /* the rendered definition of one output, or NULL */
};

struct tools__decl_shapes {
    struct tools__decl_shape *v; /* in order of first appearance in the output */
    size_t n;
    struct tools__decl_map by_node; /* every occurrence node -> index in v (num) */
};

/* Objects smaller than this (as compact JSON without their own docs), or
 * with fewer than two properties, or whose type is shorter than
 * TOOLS__DECL_SHAPE_MIN_TYPE bytes written without docs, are never worth a
 * name. */
#define TOOLS__DECL_SHAPE_MIN_BYTES 100
#define TOOLS__DECL_SHAPE_MIN_TYPE  40

/* Finds the shapes that would be written at least twice across the
 * documents of `set` (its tools in output order, then each tool's input and
 * output) and names them (tools__decl_set_alias_name). Objects holding a
 * $ref, the root of an inputSchema (its properties are the signature) and
 * aliased $ref targets are left alone. */
void tools__decl_shapes_find(struct tools__decl_set *set, struct tools__decl_shapes *shapes);
void tools__decl_shapes_free(struct tools__decl_shapes *shapes);

/* The shape `node` is an occurrence of, or NULL. */
struct tools__decl_shape *tools__decl_shape_of(struct tools__decl_shapes *shapes,
                                               const cJSON *node);

/* Records that a text at `level` names an alias: keeps the most detailed. */
static inline void tools__decl_want(unsigned char *want, int level)
{
    if (*want == 0 || *want > level + 1)
        *want = (unsigned char) (level + 1);
}

#endif
