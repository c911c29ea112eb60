/* ECMA-262 regular expressions for JSON Schema "pattern" and
 * "patternProperties": our own small backtracking matcher over code points
 * (POSIX regex.h has other escapes, no lazy quantifiers and no lookaround).
 * Unicode-mode syntax, unanchored search, bounded work per match. */
#ifndef TOOLS_SCHEMA_REGEX_H
#define TOOLS_SCHEMA_REGEX_H

#include <stddef.h>

struct schema__regex;

/* Default step budget of one search: enough for any linear-time pattern on
 * long strings, small enough that catastrophic backtracking ends in ms. */
#define SCHEMA_REGEX_BUDGET 1000000UL

/* Compiles an ECMA-262 pattern (UTF-8, no flags). Returns NULL on a syntax
 * error or an unsupported construct and, if err != NULL, sets *err to a
 * malloc'd message (without the pattern itself; the caller names it). */
struct schema__regex *schema__regex_compile(const char *pattern, char **err);

/* Searches s[0..len) (UTF-8; ill-formed bytes read as U+FFFD) for a match
 * anywhere. budget == NULL allows SCHEMA_REGEX_BUDGET steps plus 64 per
 * input code point; otherwise *budget steps are allowed and *budget is left
 * with the steps not used. Returns 1 (match), 0 (no match) or -1 (budget
 * exhausted: the answer is unknown). */
int schema__regex_search(const struct schema__regex *re, const char *s, size_t len,
                         unsigned long *budget);

/* Instructions of the compiled program (a measure of its memory, 16 bytes each). */
size_t schema__regex_size(const struct schema__regex *re);

void schema__regex_free(struct schema__regex *re);

#endif
