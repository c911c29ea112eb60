/* The shape of tool results, learned from the results themselves (for
 * tools without an outputSchema): which kinds of value were seen (null,
 * boolean, number, string, object, array), for objects the property names
 * with their shapes (a key missing from some results is optional), for
 * arrays the merged shape of their elements. Never a value: no string,
 * number or boolean is kept, only property names, and objects whose keys
 * look like data (ids, numbers, dates, more than TOOLS_SHAPE_MAX_KEYS
 * keys) keep no keys at all (Record<string, unknown>). Bounded in depth,
 * keys and bytes; past a bound a part collapses to unknown. Rendered as a
 * JSON Schema for the declarations generator, stored as canonical JSON. */
#ifndef TOOLS_RESULT_SHAPE_H
#define TOOLS_RESULT_SHAPE_H

#include <cjson/cJSON.h>
#include <stddef.h>

#define TOOLS_SHAPE_MAX_DEPTH     6    /* objects/arrays nested deeper are unknown */
#define TOOLS_SHAPE_MAX_KEYS      40   /* more keys in one object: Record<string, unknown> */
#define TOOLS_SHAPE_MAX_KEY_BYTES 48   /* a longer key is data: Record<string, unknown> */
#define TOOLS_SHAPE_MAX_BYTES     6144 /* of the canonical JSON; past it, the deepest level goes */
#define TOOLS_SHAPE_MAX_NODES     4096 /* values one observation may visit, else it is skipped */
#define TOOLS_SHAPE_SAMPLE        24   /* elements of each array that are looked at */

struct tools_shape;

/* A shape that has seen nothing yet. */
struct tools_shape *tools_shape_new(void);
void tools_shape_free(struct tools_shape *s);
/* 1 when s has seen nothing. */
int tools_shape_empty(const struct tools_shape *s);

/* Merges what `value` looks like into s: 1 when s changed, 0 when it did
 * not (a result like the ones before), -1 when the value has more than
 * TOOLS_SHAPE_MAX_NODES parts within the sampled elements (s is left as it
 * was). Visits at most TOOLS_SHAPE_MAX_NODES values, whatever the size. */
int tools_shape_observe(struct tools_shape *s, const cJSON *value);

/* 1 when observing value would leave s as it is (a result like the ones
 * before): the walk tools_shape_observe makes first, allocating nothing.
 * (It marks the keys it finds, hence not const.) */
int tools_shape_covers(struct tools_shape *s, const cJSON *value);

/* Merges `from` into `into`: 1 when `into` changed. Commutative and
 * associative up to the byte bound. */
int tools_shape_merge(struct tools_shape *into, const struct tools_shape *from);

/* 1 when a and b describe the same type. */
int tools_shape_equal(const struct tools_shape *a, const struct tools_shape *b);

/* The canonical JSON text of s (the same for equal shapes), malloc'd:
 * {"t":"nbdsoa"|"u"|"", "r":1 (keys not kept), "p":{name: child, ...}
 * (sorted by name; "?":1 in a child: the key is optional), "i": elements}. */
char *tools_shape_to_json(const struct tools_shape *s);

/* The shape of that JSON, checked (kinds, keys, bounds): NULL when it is
 * not one (a damaged or foreign row). */
struct tools_shape *tools_shape_from_json(const char *text);

/* A JSON Schema of the type (type, properties, required, items, anyOf):
 * {} for unknown; NULL when s has seen nothing. The caller deletes it. */
cJSON *tools_shape_schema(const struct tools_shape *s);

/* 1 when an object key reads like a name rather than data (used for every
 * key kept). */
int tools_shape_key_is_name(const char *key, size_t len);

#endif
