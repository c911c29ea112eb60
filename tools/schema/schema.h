/* JSON Schema validation on cJSON: draft 2020-12 and draft-07 (chosen by
 * "$schema"; 2020-12 when absent). The host validates every downstream tool
 * call's arguments with it before anything is sent, and structuredContent
 * against outputSchema. "format" is an annotation (not asserted); patterns
 * follow ECMA-262. Offline: remote $refs are not fetched. */
#ifndef TOOLS_SCHEMA_H
#define TOOLS_SCHEMA_H

#include <cjson/cJSON.h>
#include <stddef.h>

struct tools_schema; /* opaque: a prepared schema (owns a copy of the document) */

struct tools_schema_error {
    char *instance_path; /* JSON Pointer into the instance, "" for the root */
    char *keyword;       /* the failing keyword: "type", "required", ... */
    char *message;       /* words a model can act on: "expected string, got number" */
};

struct tools_schema_result {
    struct tools_schema_error *errors;
    size_t count; /* errors kept (capped) */
    size_t total; /* violations found; > count when the cap was hit */
};

/* Prepares a schema for validation. Does not take ownership of `schema`
 * (copies what it needs: keywords parsed, patterns compiled, $id/$anchor
 * indexed and $refs resolved once). On an unusable schema (not an
 * object/boolean, a malformed keyword, a pattern that does not compile, a
 * local $ref that leads nowhere, nesting past 512 levels) returns NULL and,
 * if err != NULL, sets *err to a malloc'd message naming the schema location
 * (and the pattern) that the caller frees. */
struct tools_schema *tools_schema_compile(const cJSON *schema, char **err);

enum tools_schema_draft { TOOLS_SCHEMA_DRAFT_2020_12 = 0, TOOLS_SCHEMA_DRAFT_07 = 7 };

/* tools_schema_compile with another dialect for documents that have no
 * "$schema" (draft-07 for the draft-07 test suite, or for servers known to
 * emit draft-07 without saying so). A "$schema" in the document wins. */
struct tools_schema *tools_schema_compile_draft(const cJSON *schema,
                                                enum tools_schema_draft default_draft, char **err);

/* Prepares the subschema `ref` of a document instead of its root: a URI
 * reference resolved against the document's base, such as "#/$defs/Tool" or
 * "#/definitions/JSONRPCRequest" of an MCP revision's schema.json. The whole
 * document is compiled (its $refs keep working). NULL with *err when the
 * document is unusable or ref leads nowhere in it. */
struct tools_schema *tools_schema_compile_entry(const cJSON *schema, const char *ref, char **err);

/* The first reference the compiled schema could not resolve offline (a $ref
 * to a remote document or metaschema, or an unknown "$schema" metaschema), or
 * NULL when everything resolved. Such a $ref validates as true (accepts
 * anything); the string belongs to s. */
const char *tools_schema_unresolved(const struct tools_schema *s);

void tools_schema_free(struct tools_schema *s);

/* Validates `instance` (borrowed, not modified). Returns 1 when valid, 0 when
 * not. When out != NULL it receives every violation (up to 32 kept, `total`
 * counts all; none when valid); release it with tools_schema_result_free.
 * With out == NULL it only decides, stopping at the first violation. Never
 * fails otherwise: nesting is bounded (256 nested evaluations), as are the
 * work (4M evaluations) and each pattern match (a step budget); hitting a
 * limit ends as a violation saying so, never a crash or a hang. `s` is not
 * modified: concurrent validations with one schema are safe. */
int tools_schema_validate(const struct tools_schema *s, const cJSON *instance,
                          struct tools_schema_result *out);
void tools_schema_result_free(struct tools_schema_result *r);

/* Formats the violations as lines "- <path or (root)>: <message> [<keyword>]",
 * one per violation, plus "- ... and N more" past the cap. Caller frees. */
char *tools_schema_result_format(const struct tools_schema_result *r);

#endif
