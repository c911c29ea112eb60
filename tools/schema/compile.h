/* Internals of schema compilation shared by compile.c (nodes and
 * keywords), compile_object.c (object keywords) and ref.c
 * ($id, $anchor, $ref resolution). */
#ifndef TOOLS_SCHEMA_COMPILE_H
#define TOOLS_SCHEMA_COMPILE_H

#include "tools/schema/internal.h"
#include "common/buf.h"

struct schema__pending {
    struct schema__node *node;
    const char *ref; /* in the owned document */
    int dynamic;     /* $dynamicRef */
    char *where;     /* schema path, for messages */
};

struct schema__compiler {
    struct tools_schema *s;
    const cJSON **map_keys; /* open addressing: schema value -> node */
    struct schema__node **map_vals;
    size_t map_cap, map_n;
    struct schema__pending *pend;
    size_t npend, cap_pend;
    struct buf path; /* JSON Pointer of the schema being compiled */
    char *err;       /* first error, malloc'd */
    int depth;
};

/* Records the first compile error, prefixed with the current schema path. */
void schema__fail(struct schema__compiler *cp, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

struct schema__node *schema__map_get(const struct schema__compiler *cp, const cJSON *key);

/* Compiles the schema value js (not yet compiled) in resource res. Returns
 * the node, or NULL after schema__fail. */
struct schema__node *schema__compile_node(struct schema__compiler *cp, const cJSON *js,
                                          struct schema__resource *res);

/* Compiles a pattern; the schema owns it. NULL after schema__fail. */
struct schema__regex *schema__compile_pattern(struct schema__compiler *cp, const char *src);

/* Schema path for messages: push a segment (returns a mark), pop to a mark. */
size_t schema__path_push(struct schema__compiler *cp, const char *seg);
void schema__path_pop(struct schema__compiler *cp, size_t mark);

/* Reads obj[name] as a non-negative integer into *out and sets flag on n.
 * Absent: 0 and nothing set. Wrong: -1 after schema__fail. */
int schema__read_count(struct schema__compiler *cp, const cJSON *obj, const char *name, size_t *out,
                       unsigned flag, struct schema__node *n);

/* Compiles the subschema obj[name] into *out if present. Returns 0 or -1. */
int schema__sub(struct schema__compiler *cp, const cJSON *obj, const char *name,
                struct schema__resource *res, struct schema__node **out);

/* Object keywords of node n (compile_object.c). Returns 0 or -1. */
int schema__parse_object(struct schema__compiler *cp, const cJSON *js, struct schema__node *n,
                         struct schema__resource *res);

/* $schema, $id, $anchor and $dynamicAnchor of node n: sets n->res (a new
 * resource for a new $id) and registers anchors. Returns 0 or -1. */
int schema__identify(struct schema__compiler *cp, const cJSON *js, struct schema__node *n);

/* Queues a $ref ($dynamicRef if dynamic) of node n for resolution. */
void schema__ref_pending(struct schema__compiler *cp, struct schema__node *n, const char *ref,
                         int dynamic);

/* Resolves every queued reference (compiling JSON Pointer targets on demand).
 * Returns 0 or -1. */
int schema__ref_resolve_all(struct schema__compiler *cp);

/* A new resource for the absolute URI (copied). */
struct schema__resource *schema__resource_new(struct schema__compiler *cp, const char *uri,
                                              enum schema_draft draft);

#endif
