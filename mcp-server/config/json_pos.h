/* Positions in the configuration's JSON text. cJSON keeps none, so a strict
 * RFC 8259 scanner walks the raw text alongside the parsed tree and records
 * where each item's key and value start; it also explains syntax errors
 * better than cJSON's bare error pointer. Internal to mcp-server/config/. */
#ifndef MCP_SERVER_CONFIG_JSON_POS_H
#define MCP_SERVER_CONFIG_JSON_POS_H

#include <stddef.h>

struct cJSON;

#define CONFIG_JSON_NOPOS     ((size_t) -1)
#define CONFIG_JSON_MAX_DEPTH 512

struct config_json_item_pos;

struct config_json_pos {
    const char *text; /* borrowed */
    size_t len;
    struct config_json_item_pos *items; /* sorted by item pointer after build */
    size_t nitems, cap;
    size_t *lines; /* byte offset of each line start, built on first use */
    size_t nlines;
    char msg[128]; /* the syntax error of the last failed build */
};

/* Decides whether the members of a top-level key are recorded (1) or only
 * checked (0): ignored subtrees of a big shared file cost no memory. */
typedef int config_json_keep_fn(const char *top_level_key);

/* Checks text[0..len) as strict JSON (one value, then only whitespace) and,
 * when root is the tree cJSON parsed from the same text, records the offsets
 * of every item (members under top-level keys that keep rejects excepted;
 * keep may be NULL to record all). root may be NULL to check only. Returns 0,
 * or -1 with *err_off set and p->msg describing the problem. p borrows text
 * and must be released with config_json_pos_free either way. */
int config_json_pos_build(struct config_json_pos *p, const char *text, size_t len,
                          const struct cJSON *root, config_json_keep_fn *keep, size_t *err_off);

/* Byte offset of item's value, or of its key when key is nonzero (an array
 * element or the root has no key: its value is returned). CONFIG_JSON_NOPOS
 * when item was not recorded. */
size_t config_json_pos_of(const struct config_json_pos *p, const struct cJSON *item, int key);

/* Converts a byte offset to a 1-based line and a 1-based column counted in
 * characters (UTF-8 code points; a tab is one). */
void config_json_pos_linecol(struct config_json_pos *p, size_t off, unsigned *line, unsigned *col);

/* Offset in the text of byte `decoded` of the string literal starting (at its
 * opening quote) at val_off, accounting for escapes; clamps to the literal. */
size_t config_json_pos_in_string(const struct config_json_pos *p, size_t val_off, size_t decoded);

void config_json_pos_free(struct config_json_pos *p);

#endif
