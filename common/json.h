/* Compact JSON text of a cJSON tree, with numbers printed exactly. cJSON's
 * own printer keeps a 15-digit form when an approximate comparison says it
 * round-trips, so 9007199254740991 comes out as 9007199254740990: every
 * value that crosses the host (tool arguments, results, replies) is printed
 * here instead. Strings are repaired to valid UTF-8. */
#ifndef COMMON_JSON_H
#define COMMON_JSON_H

#include <cjson/cJSON.h>

struct buf;

/* Appends the JSON of item to out; NULL prints as null. Returns 0, or -1
 * when out's limit was reached. Nesting beyond 10000 levels prints null. */
int json_append(struct buf *out, const cJSON *item);

/* The JSON of item as a malloc'd string (never NULL). */
char *json_print(const cJSON *item);

/* Appends the shortest decimal form of d that reads back as exactly d
 * (integers without a fraction or exponent; NaN and infinities as null). */
int json_append_number(struct buf *out, double d);

#endif
