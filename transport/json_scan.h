/* A minimal JSON scanner over raw text: skip a value, find a member's raw
 * value text by path. Used where the exact bytes matter (JSON-RPC ids are
 * echoed verbatim: "a\"b", integers beyond 2^53) or where the text may be
 * truncated (recovering an id from the head of an oversized message). */
#ifndef TRANSPORT_JSON_SCAN_H
#define TRANSPORT_JSON_SCAN_H

#include <stddef.h>

/* Skips whitespace. */
const char *json_scan_ws(const char *p, const char *end);

/* Returns the end of the JSON value starting at p (after leading
 * whitespace), or NULL when it is malformed or truncated. Nesting is capped
 * at 512 levels (NULL past it). */
const char *json_scan_value(const char *p, const char *end);

/* Finds the raw text of the member at `path` (object keys, depth levels)
 * inside the object in text[0..len). Returns a pointer to the value's first
 * byte and stores its length, or NULL. Works on a truncated text as long as
 * the member itself is complete and comes before the cut. */
const char *json_scan_member(const char *text, size_t len, const char *const *path, size_t depth,
                             size_t *vlen);

#endif
