/* Internals of the JSON Schema validator shared by the files of tools/schema/: the
 * compiled node tree, the evaluation context and the error list. Not for use
 * outside tools/schema/ (and its unit tests). */
#ifndef TOOLS_SCHEMA_INTERNAL_H
#define TOOLS_SCHEMA_INTERNAL_H

#include "tools/schema/schema.h"

#include <cjson/cJSON.h>
#include <stddef.h>
#include <stdint.h>

struct buf;

#define SCHEMA_MAX_DEPTH     256        /* nested evaluations (schema x instance) */
#define SCHEMA_MAX_ERRORS    32         /* violations kept in a result */
#define SCHEMA_EVAL_BUDGET   4000000L   /* schema evaluations per validation */
#define SCHEMA_DOC_MAX_DEPTH 512        /* nesting of a schema document */
#define SCHEMA_CMP_MAX_DEPTH 1000       /* nesting compared by enum/const/uniqueItems */
#define SCHEMA_REGEX_TOTAL   1000000    /* pattern instructions per schema (16 MB) */
#define SCHEMA_REGEX_STEPS   16000000UL /* superlinear pattern steps per validation */

enum schema_draft { SCHEMA_DRAFT7 = 7, SCHEMA_DRAFT2020 = 2020 };

/* Instance types, as bits ("integer" is a number with no fraction). */
enum {
    T_NULL = 1,
    T_BOOLEAN = 2,
    T_OBJECT = 4,
    T_ARRAY = 8,
    T_NUMBER = 16,
    T_STRING = 32,
    T_INTEGER = 64
};

/* Which keyword groups a node has, so evaluation skips the rest quickly. */
enum {
    G_TYPE = 1,
    G_ENUM = 2,
    G_CONST = 4,
    G_NUM = 8,
    G_STR = 16,
    G_ARR = 32,
    G_OBJ = 64,
    G_LOGIC = 128,
    G_REF = 256,
    G_UNEVAL = 512
};

/* Bounds present on a node. */
enum {
    F_MIN = 1,
    F_MAX = 2,
    F_XMIN = 4,
    F_XMAX = 8,
    F_MULT = 16,
    F_MINLEN = 32,
    F_MAXLEN = 64,
    F_MINITEMS = 128,
    F_MAXITEMS = 256,
    F_MINCONT = 512,
    F_MAXCONT = 1024,
    F_MINPROPS = 2048,
    F_MAXPROPS = 4096,
    F_UNIQUE = 8192
};

enum schema_kind { K_TRUE, K_FALSE, K_OBJECT };

struct schema__node;
struct schema__regex;

struct schema__anchor {
    const char *name;
    struct schema__node *node;
    int dynamic; /* $dynamicAnchor */
    struct schema__anchor *next;
};

/* A schema resource: the root or a subschema with its own $id. */
struct schema__resource {
    char *uri; /* absolute, without fragment */
    enum schema_draft draft;
    struct schema__node *root;
    struct schema__anchor *anchors;
    struct schema__resource *next;
};

struct schema__prop {
    const char *name;
    struct schema__node *node;
};

struct schema__patprop {
    const char *source;
    struct schema__regex *re;
    struct schema__node *node;
};

/* dependentRequired (names) or dependentSchemas (node) for one property. */
struct schema__dep {
    const char *name;
    const char **names;
    size_t n_names;
    struct schema__node *node;
};

struct schema__list {
    struct schema__node **items;
    size_t n;
};

struct schema__node {
    const cJSON *json; /* this schema in the owned copy */
    struct schema__resource *res;
    enum schema_kind kind;
    unsigned groups, flags, types;
    const cJSON *enum_values, *const_value;
    double minimum, maximum, xminimum, xmaximum, multiple_of;
    size_t min_length, max_length;
    struct schema__regex *pattern;
    const char *pattern_src;
    size_t min_items, max_items, min_contains, max_contains, min_props, max_props;
    struct schema__list prefix; /* prefixItems, or draft-07 array-form items */
    struct schema__node *items; /* items past the prefix */
    struct schema__node *contains, *uneval_items;
    struct schema__prop *props; /* sorted by name */
    size_t n_props;
    struct schema__patprop *patprops;
    size_t n_patprops;
    struct schema__node *additional, *names, *uneval_props;
    const char **required;
    size_t n_required;
    struct schema__dep *dep_required, *dep_schemas;
    size_t n_dep_required, n_dep_schemas;
    struct schema__list all_of, any_of, one_of;
    struct schema__node *not_, *if_, *then_, *else_;
    struct schema__node *ref;     /* $ref target */
    struct schema__node *dyn_ref; /* $dynamicRef static target */
    const char *dyn_name;         /* $dynamicRef anchor searched in the dynamic scope */
    int ref_unresolved;           /* $ref/$dynamicRef to a document we do not have */
};

struct schema__block;

struct tools_schema {
    cJSON *doc; /* owned copy of the schema document */
    struct schema__node *root;
    struct schema__block *arena;
    struct schema__resource *resources;
    struct schema__regex **regexes; /* owned, freed with the schema */
    size_t n_regexes;
    size_t regex_insns; /* their total size, capped by SCHEMA_REGEX_TOTAL */
    char *unresolved;   /* first reference we could not resolve offline, or NULL */
    int has_dynamic;    /* any $dynamicRef with a dynamic anchor */
};

/* Arena allocation of zeroed memory owned by the schema (schema.c). */
void *schema__alloc(struct tools_schema *s, size_t size);
char *schema__strdup(struct tools_schema *s, const char *str);

/* Builds the node tree for s->doc (ref.c); s->root is the document
 * root, or the target of the reference `entry` when not NULL. Returns 0, or
 * -1 with a malloc'd message in *err. */
int schema__build(struct tools_schema *s, enum schema_draft draft, const char *entry, char **err);

/* --- evaluation (eval.c) ------------------------------------------ */

/* Evaluated object members or array items of the current instance, for
 * unevaluatedProperties/unevaluatedItems. Bit i = i-th member or item. */
struct schema__annot {
    size_t n;
    uint64_t *bits;
    uint64_t inline_bits[2];
};

/* One step of the instance path: a member name or an array index. */
struct schema__seg {
    const char *name; /* NULL for an index */
    size_t index;
};

struct schema__ctx {
    const struct tools_schema *s;
    int quiet;       /* only the verdict matters here: stop at the first failure */
    int want_errors; /* the caller asked for a result */
    int aborted;     /* a limit was hit: the verdict is "invalid", whatever a "not" says */
    int depth;
    long budget;
    unsigned long regex_budget; /* SCHEMA_REGEX_STEPS, drawn by schema__pattern_test */
    int path_len;
    int scope_len;
    struct tools_schema_error *errors; /* room for SCHEMA_MAX_ERRORS, allocated on first use */
    size_t count, total;
    struct tools_schema_error abort_err; /* why the evaluation was stopped */
    /* Large arrays last: validation zeroes only the fields above. */
    struct schema__seg path[SCHEMA_MAX_DEPTH + 2];
    const struct schema__resource *scope[SCHEMA_MAX_DEPTH + 2]; /* dynamic scope */
};

/* Evaluates node n against inst. annot != NULL collects the members/items
 * evaluated by n (merged only when n holds). Returns 1 valid, 0 invalid. */
int schema__eval(struct schema__ctx *c, const struct schema__node *n, const cJSON *inst,
                 struct schema__annot *annot);

/* Evaluates a child instance (member `name` or item `index`) in place of the
 * current one, with the path extended. */
int schema__eval_member(struct schema__ctx *c, const struct schema__node *n, const cJSON *inst,
                        const char *name);
int schema__eval_item(struct schema__ctx *c, const struct schema__node *n, const cJSON *inst,
                      size_t index);

void schema__annot_init(struct schema__annot *a, size_t n);
void schema__annot_free(struct schema__annot *a);
void schema__annot_set(struct schema__annot *a, size_t i);
int schema__annot_get(const struct schema__annot *a, size_t i);
void schema__annot_merge(struct schema__annot *into, const struct schema__annot *from);

/* Stops the validation as invalid (depth, budget, regex budget, comparison
 * depth), recording why. */
void schema__abort(struct schema__ctx *c, const char *keyword, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Keyword groups (schema_kw_*.c): each returns 1 valid, 0 invalid. */
int schema__kw_scalar(struct schema__ctx *c, const struct schema__node *n, const cJSON *inst);
int schema__kw_array(struct schema__ctx *c, const struct schema__node *n, const cJSON *inst,
                     struct schema__annot *a);
int schema__kw_object(struct schema__ctx *c, const struct schema__node *n, const cJSON *inst,
                      struct schema__annot *a);
int schema__kw_logic(struct schema__ctx *c, const struct schema__node *n, const cJSON *inst,
                     struct schema__annot *a);
int schema__kw_uneval(struct schema__ctx *c, const struct schema__node *n, const cJSON *inst,
                      struct schema__annot *a);

/* Pattern test for keywords: 1 match, 0 no match, -1 aborted (budget). */
int schema__pattern_test(struct schema__ctx *c, const struct schema__regex *re, const char *src,
                         const char *str);

/* --- errors (errors.c) --------------------------------------------- */

/* Whether a violation recorded now would be kept (not quiet, below the cap).
 * When it would not, a non-quiet violation is only counted here: callers
 * that build costly messages check this first and skip schema__error. */
int schema__error_kept(struct schema__ctx *c);
/* Records a violation at the current instance path (nothing in quiet mode). */
void schema__error(struct schema__ctx *c, const char *keyword, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The current instance path as a JSON Pointer ("" for the root). Caller frees. */
char *schema__render_path(const struct schema__ctx *c);
/* Drops errors recorded after `mark` (count) and restores `total`. */
void schema__errors_truncate(struct schema__ctx *c, size_t mark, size_t total);
/* Frees the strings of n errors (not the array). */
void schema__errors_free(struct tools_schema_error *errs, size_t n);

/* A short rendering of a value for messages: strings quoted and truncated,
 * objects and arrays abbreviated. Caller frees. */
char *schema__value_text(const cJSON *v);
/* The shortest decimal that reads back as d. */
void schema__number_text(struct buf *b, double d);
/* "string", "string or null", "string, number or null" for type bits. */
void schema__types_text(struct buf *b, unsigned types);
/* "string", "integer", "object", ... for the type of a value. */
const char *schema__type_name(const cJSON *v);
/* Appends a JSON-Pointer-escaped segment. */
void schema__pointer_append(struct buf *b, const char *name);

/* --- JSON helpers (json.c) ----------------------------------------- */

unsigned schema__type_bits(const cJSON *v);
/* Deep equality with numbers compared by value: 1 equal, 0 not, -1 too deep. */
int schema__json_equal(const cJSON *a, const cJSON *b);
/* A hash consistent with schema__json_equal (equal values, equal hashes). */
uint64_t schema__json_hash(const cJSON *v);
/* Whether v nests deeper than limit (iterative: safe on any depth). */
int schema__json_deeper_than(const cJSON *v, int limit);
int schema__is_multiple(double x, double m);

#endif
