/* Internal to tools/declarations/: local $ref resolution and the analysis
 * that decides which referenced schemas become named type aliases (those on
 * a cycle, and those used more than once) and which aliases may only be
 * named behind an object, array or tuple (TypeScript rejects aliases that
 * reach themselves through unions or intersections alone). */
#ifndef TOOLS_DECLARATIONS_REFS_H
#define TOOLS_DECLARATIONS_REFS_H

#include <cjson/cJSON.h>
#include <stddef.h>

#include "tools/declarations/map.h"

/* A reference from one target's body to another. */
struct tools__decl_edge {
    size_t to;
    int unguarded; /* some site is outside any object, array or tuple */
};

/* A schema some $ref resolves to, or the document root (target 0). */
struct tools__decl_target {
    const cJSON *node; /* borrowed from the document */
    char *hint;        /* name hint: the last meaningful pointer segment */
    char *alias;       /* the type alias name once assigned, else NULL */
    unsigned refs;     /* ref sites, counted over every walked body */
    unsigned char walked, aliased, poisoned, rendering;
    unsigned char want; /* 0, or 1 + the most detailed level of a text naming the alias */
    unsigned char have; /* 0, or 1 + the level `body` was rendered at */
    char *body;         /* the alias's rendered definition (one output's), or NULL */
    struct tools__decl_edge *edges;
    size_t nedges, capedges;
};

/* The targets of one schema document (an inputSchema or an outputSchema),
 * and the caches that keep resolution linear in the document's size. */
struct tools__decl_doc {
    const cJSON *root;
    struct tools__decl_target *t; /* t[0] is the root */
    size_t n, cap;
    struct tools__decl_map targets; /* node -> target index (num) */
    struct tools__decl_map refs;    /* ref text -> node (ptr), once resolved */
    struct tools__decl_map members; /* (object, key) -> member, for big objects */
    struct tools__decl_map indexed; /* objects whose members are in `members` */
    struct tools__decl_map anchors; /* anchor name -> node */
    int anchors_built;
};

/* Starts a document whose root target gets `root_hint` (copied). */
void tools__decl_doc_init(struct tools__decl_doc *d, const cJSON *root, const char *root_hint);
void tools__decl_doc_free(struct tools__decl_doc *d);

/* Resolves a local reference: "#", "#/json/pointer" (with ~0 ~1 and %XX
 * unescaped), or "#name" (a "$anchor", a "$dynamicAnchor", or a draft-07
 * "$id": "#name"; the first in document order). Returns the node inside
 * the document, or NULL for remote, relative or dangling references.
 * `ref` must live as long as the document (it is cached). */
const cJSON *tools__decl_resolve(struct tools__decl_doc *d, const char *ref);

/* Index of the target for `node`, or (size_t)-1 when there is none. */
size_t tools__decl_target_find(const struct tools__decl_doc *d, const cJSON *node);

/* Index of the target for `node`, added (with a hint derived from `ref`)
 * when new. */
size_t tools__decl_target_add(struct tools__decl_doc *d, const cJSON *node, const char *ref);

/* Records that the body of target `from` names target `to`; `unguarded`
 * when the site is outside any object, array or tuple. One edge per pair. */
void tools__decl_edge_add(struct tools__decl_doc *d, size_t from, size_t to, int unguarded);

/* After every body was walked: marks `aliased` (on a cycle, referenced
 * twice or more) and `poisoned` (an alias that reaches itself through
 * unguarded references only: such references must be rendered `unknown`,
 * since TypeScript rejects `type A = A | B`). Iterative: no deep C stack. */
void tools__decl_doc_analyse(struct tools__decl_doc *d);

#endif
