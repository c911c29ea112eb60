/* Internal to tools/declarations/: the lexical pieces of the generated
 * TypeScript - JSDoc comments (cleaned, with `*` `/` never closing them
 * early), property keys (bare or quoted) and JSON values as literal types. */
#ifndef TOOLS_DECLARATIONS_DOC_H
#define TOOLS_DECLARATIONS_DOC_H

#include <cjson/cJSON.h>

struct buf;

/* Appends `n` levels of indentation (two spaces each). */
void tools__decl_indent(struct buf *out, int n);

/* Appends `s` cleaned for a comment: ill-formed UTF-8 repaired, CR LF and CR
 * turned into LF, other control characters into spaces, trailing blanks of
 * each line dropped, leading and trailing blank lines dropped, and runs of
 * blank lines collapsed into one. NULL appends nothing. */
void tools__decl_doc_clean(struct buf *out, const char *s);

/* Appends the documentation of schema `s` to `text`: its cleaned description
 * (or title), then tags " @default <json>", " @format f", " @minimum n", ...
 * (defaults longer than 60 bytes are left out). Nothing for non-objects. */
void tools__decl_doc_of_schema(struct buf *text, const cJSON *s);

/* Bytes of an argument's doc at TOOLS_DECL_DOCS, "..." included. */
#define TOOLS__DECL_ARG_DOC_MAX 50

/* The documentation of schema `s` for a tool shown at `level` (enum
 * tools_decl_level): all of it at FULL (tools__decl_doc_of_schema); at DOCS
 * the first sentence cut to TOOLS__DECL_ARG_DOC_MAX bytes with the short
 * tags (@default unless false, null or empty, @format, @minimum, @maximum
 * unless +-(2^53 - 1), @deprecated); nothing below. */
void tools__decl_doc_of_schema_at(struct buf *text, const cJSON *s, int level);

/* Appends `text` as a JSDoc comment, escaping every "*" "/" pair, for a
 * member about to be written. One line of text: "/" "** text *" "/" then a
 * space (`inline_ok`) or a newline and `indent`. Several lines: a block at
 * `indent`, each line " * ...", then a newline and `indent`. The caller has
 * already written the indentation of the comment's first line. Empty text
 * appends nothing. */
void tools__decl_doc_emit(struct buf *out, const char *text, int indent, int inline_ok);

/* Returns 1 when `text` fits the inline form (no newline). */
int tools__decl_doc_is_one_line(const char *text);

/* Appends a property key: bare when it is an ASCII identifier and not a
 * reserved word, else a double-quoted string literal (JSON escapes). */
void tools__decl_key(struct buf *out, const char *key);

/* A string literal: JSON escapes, and U+2028/U+2029 as \u2028/\u2029 (legal
 * raw in TypeScript, but older JavaScript tools end a line there). */
void tools__decl_string(struct buf *out, const char *s, size_t n);

/* Appends the JSON value `v` as a TypeScript literal type: strings quoted,
 * numbers as printed by cJSON, true/false/null, arrays as tuples, objects as
 * object types with quoted keys ({} as an object type with no keys). Past
 * `depth` 0 nested values become `unknown`. Returns 1 when the text needs
 * parentheses as an array element (negative numbers), else 0. */
int tools__decl_literal(struct buf *out, const cJSON *v, int depth);

#endif
