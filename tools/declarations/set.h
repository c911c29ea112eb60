/* Internal to tools/declarations/: the tools in output order (servers,
 * then tools, by sanitised id; repeated ids dropped) with their analysed
 * schema documents and the names of all type aliases, unique across the
 * whole list so that every partial output agrees with the full one. */
#ifndef TOOLS_DECLARATIONS_SET_H
#define TOOLS_DECLARATIONS_SET_H

#include <cjson/cJSON.h>
#include <stddef.h>

#include "tools/declarations/map.h"
#include "tools/declarations/shapes.h"

struct buf;
struct tools_decl_tool;
struct tools__decl_doc;

struct tools__decl_set {
    const struct tools_decl_tool *tools; /* borrowed */
    size_t count;
    size_t *order;               /* indices into tools, in output order */
    size_t n;                    /* entries in order */
    struct tools__decl_doc *in;  /* per tool index (valid when in order) */
    struct tools__decl_doc *out; /* per tool index, when has_out */
    unsigned char *has_out;      /* per tool index: 0, or where `out` comes from */
    cJSON *any_object; /* stands in for a missing inputSchema */
    char **names;      /* alias names handed out */
    size_t nnames;
    struct tools__decl_map taken; /* the same names, for lookups */
    struct tools__decl_shapes shapes; /* repeated shapes, named after the $ref aliases */
};

/* Where a tool's result type comes from (has_out). */
enum { TOOLS__DECL_OUT_SCHEMA = 1, TOOLS__DECL_OUT_OBSERVED = 2 };

/* Which tools an output covers: all, one server, or one tool. */
struct tools__decl_filter {
    const char *server_id; /* NULL: every server */
    const char *id;        /* NULL: every tool of the selected servers */
};

/* Sorted, de-duplicated indices of tools (malloc'd, *n entries; NULL when
 * count is 0). Order: server_id, id, then server, name, index (strcmp). */
size_t *tools__decl_order(const struct tools_decl_tool *tools, size_t count, size_t *n);

/* Orders the tools, collects and analyses each schema document and names
 * every alias. Release with tools__decl_set_free. */
void tools__decl_set_build(struct tools__decl_set *set, const struct tools_decl_tool *tools,
                           size_t count);
void tools__decl_set_free(struct tools__decl_set *set);

/* Appends the type aliases a text names (declare namespace Types) and the
 * tools that pass `f` as `declare const tools`, each tool at its level
 * (levels per tool index; NULL: all TOOLS_DECL_FULL). (declarations.c) */
void tools__decl_emit(struct buf *out, struct tools__decl_set *set,
                      const struct tools__decl_filter *f, const unsigned char *levels);

/* Bytes of tool i's own lines at `level` (its docs and signature, not the
 * aliases it names). */
size_t tools__decl_tool_bytes(struct tools__decl_set *set, size_t i, int level);

/* A fresh alias name from a hint (sanitised, never a type keyword, "_2",
 * "_3", ... on repeats); malloc'd, and the set remembers it. */
char *tools__decl_set_alias_name(struct tools__decl_set *set, const char *hint);

/* Returns 1 when tool index i passes the filter. */
int tools__decl_selected(const struct tools__decl_set *set, const struct tools__decl_filter *f,
                         size_t i);

#endif
