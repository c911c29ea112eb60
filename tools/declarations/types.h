/* Internal to tools/declarations/: JSON Schema (2020-12 and draft-07) to
 * TypeScript type text. The same walk first runs in "collect" mode over
 * every referenced body (counting $ref sites, see refs.h),
 * then renders; anything it does not understand becomes `unknown`. */
#ifndef TOOLS_DECLARATIONS_SCHEMA_H
#define TOOLS_DECLARATIONS_SCHEMA_H

#include <cjson/cJSON.h>

struct buf;
struct tools__decl_doc;
struct tools__decl_shapes;

/* How a text renders: the level of the tool (enum tools_decl_level: which
 * docs member types carry), the shapes named once (tools/declarations/
 * shapes.h; NULL: none), and the node whose body is being defined (never
 * replaced by its own name). Naming an alias or a shape records `level` in
 * its `want`, so the caller knows which definitions to write. */
struct tools__decl_ctx {
    int level;
    struct tools__decl_shapes *shapes;
    const void *self;
};

/* Namespace that holds the generated type aliases: Types.<alias>. */
#define TOOLS__DECL_NAMESPACE "Types"

/* Walks the root and every body a local $ref reaches (a worklist: the C
 * stack stays shallow whatever the reference chains), counting references,
 * then runs tools__decl_doc_analyse. Call once per document. */
void tools__decl_collect(struct tools__decl_doc *d);

/* Appends the type of the document root: `Types.<alias>` when the root is
 * an alias, else its full type. Multi-line text is indented for a line at
 * `indent`. Requires tools__decl_collect and assigned alias names. */
void tools__decl_root(struct tools__decl_doc *d, const struct tools__decl_ctx *cx, int indent,
                      struct buf *out);

/* Appends the definition (right-hand side) of alias target `i`. */
void tools__decl_alias_body(struct tools__decl_doc *d, size_t i, const struct tools__decl_ctx *cx,
                            int indent, struct buf *out);

/* Appends the definition of `node` (inside document d; a shape's body). */
void tools__decl_node_body(struct tools__decl_doc *d, const cJSON *node,
                           const struct tools__decl_ctx *cx, int indent, struct buf *out);

/* Returns 1 when an empty object satisfies what the root declares at its
 * top (no `required`, no combinators, an object type or none that says
 * otherwise), so that the tool's `args` can be optional. */
int tools__decl_args_optional(struct tools__decl_doc *d);

#endif
