/* Names of downstream servers and tools as the sandboxed program sees them:
 * sanitising to plain ASCII JavaScript identifiers, stable collision
 * suffixes, "did you mean" suggestions for unknown names, and the
 * "server.tool" split used by callTool(). Pure functions, no global state. */
#ifndef TOOLS_NAMES_H
#define TOOLS_NAMES_H

#include <stddef.h>

struct buf;

/* Returns 1 when s[0..len) is an ASCII identifier: [A-Za-z_$][A-Za-z0-9_$]*.
 * Reserved words count as identifiers here (see tools_names_is_reserved). */
int tools_names_is_identifier(const char *s, size_t len);

/* Returns 1 when the NUL-terminated s must not be used bare as a tool or
 * server identifier: an ECMAScript reserved word (ES5 keywords, future and
 * strict-mode reserved words, null/true/false, await, arguments, eval) or a
 * name that would shadow something awkward on the tools objects
 * (__proto__, constructor, prototype, toString, valueOf, hasOwnProperty,
 * then - a thenable! -, toJSON, ...). Case-sensitive, like JavaScript. */
int tools_names_is_reserved(const char *s);

/* Sanitises one original name into an identifier. Rules, in order:
 * every code point outside [A-Za-z0-9_$] (including '-', '.', spaces and all
 * non-ASCII) becomes one '_' (an ill-formed UTF-8 byte counts as one code
 * point); a leading digit gets a '_' prefix; a reserved word (see
 * tools_names_is_reserved) gets a '_' suffix; the empty name becomes "_".
 * `name` may be NULL (treated as ""). Returns a malloc'd string the caller
 * frees; never NULL (allocation failure aborts). */
char *tools_names_sanitize(const char *name);

/* Assigns a unique identifier to each of `count` original names (a server
 * list, or the tools of one server). The result depends only on the set of
 * names, never on their order: names are grouped by sanitised form; in a
 * group the name that is already its own sanitised form (if any) keeps it,
 * else the first in byte order (strcmp); the others, in byte order, get "_2",
 * "_3", ... appended, skipping any identifier that is some name's plain
 * sanitised form or already assigned. Equal originals get equal identifiers.
 * Returns a malloc'd array of `count` malloc'd strings (NULL when count is
 * 0); free it with tools_names_free. NULL entries in `names` count as "". */
char **tools_names_assign(const char *const *names, size_t count);

/* Frees an array returned by tools_names_assign. NULL is a no-op. */
void tools_names_free(char **ids, size_t count);

/* Finds the candidates nearest to the unknown `name`, for "did you mean"
 * messages. Comparison is case-insensitive with '-', '.', ' ' and '_'
 * treated alike; a candidate qualifies when its edit distance (optimal
 * string alignment: insert, delete, substitute, swap neighbours) is at most
 * max(1, longer length / 3), or when one contains the other and the shorter
 * has at least 3 characters. Writes up to `max` candidate indices into `out`,
 * best first (distance, then substring matches, then byte order), and
 * returns how many. NULL candidates are skipped. No allocation escapes. */
size_t tools_names_suggest(const char *name, const char *const *candidates, size_t count,
                           size_t *out, size_t max);

/* Appends " Did you mean: a, b?" to `out` when tools_names_suggest finds up
 * to `max` candidates for `name`; appends nothing otherwise. Returns 0, or
 * -1 when `out`'s limit was reached (out is then unchanged). */
int tools_names_append_suggestions(struct buf *out, const char *name, const char *const *candidates,
                                   size_t count, size_t max);

/* Splits "server.tool" at the FIRST dot (tool names may contain dots, server
 * names given to callTool may not). Returns a pointer to the tool part inside
 * `qualified` and stores the server part's length in *server_len; returns
 * NULL when there is no dot. Either part may be empty; the caller decides. */
const char *tools_names_split(const char *qualified, size_t *server_len);

#endif
