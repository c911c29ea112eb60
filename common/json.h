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

/* Appends s as a JSON string literal (quotes included), escaping control
 * characters; the internal form's U+0000 (C0 80) and lone surrogates (ED A0..BF
 * xx) become \u0000 and \ud800-\udfff (common/utf8.h), a CESU-8 surrogate pair the
 * UTF-8 of its character, and other invalid UTF-8 U+FFFD. The output is
 * valid UTF-8 whatever s holds. */
int json_append_string(struct buf *b, const char *s, size_t len);

/* Appends the shortest decimal form of d that reads back as exactly d
 * (integers without a fraction or exponent; NaN and infinities as null). */
int json_append_number(struct buf *out, double d);

/* Parses one JSON text (whitespace around it allowed, nothing else) into a
 * tree the caller owns; NULL when it is not valid JSON. Unlike cJSON's
 * parser it keeps every string whole: \u0000 and lone surrogate escapes
 * (valid JSON, which cJSON cuts at or rejects) are held in the internal
 * form of common/utf8.h (C0 80, ED A0..BF xx), and the printers here and
 * json_append_string turn them back into the same escapes. Use it for
 * every text that comes from outside (workers, clients, downstream servers). */
cJSON *json_parse(const char *text, size_t len);

/* Appends JSON text made by the JS engine (its JSON.stringify) with its
 * strings made valid UTF-8: a CESU-8 surrogate pair becomes the UTF-8 of its
 * character, a lone surrogate an escape in \ud800-\udfff (JSON allows it, and the
 * reader sees the same lone surrogate), other ill-formed bytes U+FFFD.
 * Bytes >= 0x80 occur only inside strings in JSON text, so the escapes land
 * in strings. Returns 0, or -1 when out's limit was reached. */
int json_append_engine_text(struct buf *out, const char *s, size_t n);

/* The number of JSON values in valid JSON text (objects, arrays and
 * scalars, the outermost included; object keys are not values): one, plus
 * one per comma outside strings, plus one per container that is not empty.
 * 0 for text with no value. One pass, no allocation. */
unsigned long long json_text_values(const char *s, size_t n);

#endif
