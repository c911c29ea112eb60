/* The public face of the JSON Schema validator: compile (copy the document,
 * build the node tree), validate (one evaluation context on the stack) and
 * free. The schema's memory lives in one arena, freed at once. */
#include "tools/schema/schema.h"
#include "tools/schema/internal.h"
#include "tools/schema/regex.h"
#include "common/alloc.h"
#include "common/buf.h"

#include <stdalign.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK_SIZE 8192

struct schema__block {
    struct schema__block *next;
    size_t used, size;
    alignas(max_align_t) unsigned char data[];
};

void *schema__alloc(struct tools_schema *s, size_t size)
{
    size = (size + 15) & ~(size_t) 15;
    struct schema__block *b = s->arena;
    if (b == NULL || b->size - b->used < size) {
        size_t cap = size > BLOCK_SIZE ? size : BLOCK_SIZE;
        b = xmalloc(sizeof *b + cap);
        b->size = cap;
        b->used = 0;
        b->next = s->arena;
        s->arena = b;
    }
    void *p = b->data + b->used;
    b->used += size;
    memset(p, 0, size);
    return p;
}

char *schema__strdup(struct tools_schema *s, const char *str)
{
    size_t n = strlen(str) + 1;
    char *p = schema__alloc(s, n);
    memcpy(p, str, n);
    return p;
}

static void set_err(char **err, const char *msg)
{
    if (err)
        *err = xstrdup(msg);
}

static struct tools_schema *compile(const cJSON *schema, enum tools_schema_draft default_draft,
                                    const char *entry, char **err)
{
    if (err)
        *err = NULL;
    if (schema == NULL)
        return set_err(err, "invalid schema: no schema given"), NULL;
    if (schema__json_deeper_than(schema, SCHEMA_DOC_MAX_DEPTH))
        return set_err(err, "invalid schema: nested more than 512 levels deep"), NULL;
    struct tools_schema *s = xcalloc(1, sizeof *s);
    s->doc = cJSON_Duplicate(schema, 1);
    if (s->doc == NULL) {
        set_err(err, "invalid schema: could not copy the document");
        tools_schema_free(s);
        return NULL;
    }
    enum schema_draft d = default_draft == TOOLS_SCHEMA_DRAFT_07 ? SCHEMA_DRAFT7 : SCHEMA_DRAFT2020;
    if (schema__build(s, d, entry, err) < 0) {
        tools_schema_free(s);
        return NULL;
    }
    return s;
}

struct tools_schema *tools_schema_compile(const cJSON *schema, char **err)
{
    return compile(schema, TOOLS_SCHEMA_DRAFT_2020_12, NULL, err);
}

struct tools_schema *tools_schema_compile_draft(const cJSON *schema,
                                                enum tools_schema_draft default_draft, char **err)
{
    return compile(schema, default_draft, NULL, err);
}

struct tools_schema *tools_schema_compile_entry(const cJSON *schema, const char *ref, char **err)
{
    if (ref == NULL) {
        if (err)
            *err = xstrdup("invalid schema: no entry reference given");
        return NULL;
    }
    return compile(schema, TOOLS_SCHEMA_DRAFT_2020_12, ref, err);
}

const char *tools_schema_unresolved(const struct tools_schema *s)
{
    return s->unresolved;
}

void tools_schema_free(struct tools_schema *s)
{
    if (s == NULL)
        return;
    for (size_t i = 0; i < s->n_regexes; i++)
        schema__regex_free(s->regexes[i]);
    free(s->regexes);
    while (s->arena) {
        struct schema__block *next = s->arena->next;
        free(s->arena);
        s->arena = next;
    }
    free(s->unresolved);
    cJSON_Delete(s->doc);
    free(s);
}

/* The limit error goes last and is always kept (replacing the last kept
 * error when the list is full): it explains why the verdict is final. */
static void add_abort_error(struct schema__ctx *c)
{
    if (c->abort_err.message == NULL)
        return;
    if (c->count == SCHEMA_MAX_ERRORS)
        schema__errors_free(&c->errors[--c->count], 1);
    if (c->errors == NULL)
        c->errors = xcalloc(SCHEMA_MAX_ERRORS, sizeof *c->errors);
    c->errors[c->count++] = c->abort_err;
    c->total++;
    memset(&c->abort_err, 0, sizeof c->abort_err);
}

int tools_schema_validate(const struct tools_schema *s, const cJSON *instance,
                          struct tools_schema_result *out)
{
    struct schema__ctx c;
    memset(&c, 0, offsetof(struct schema__ctx, path));
    c.s = s;
    c.quiet = out == NULL;
    c.want_errors = out != NULL;
    c.budget = SCHEMA_EVAL_BUDGET;
    c.regex_budget = SCHEMA_REGEX_STEPS;
    int ok = instance != NULL && schema__eval(&c, s->root, instance, NULL);
    if (c.aborted)
        ok = 0;
    if (out == NULL) {
        schema__errors_free(c.errors, c.count);
        free(c.errors);
        schema__errors_free(&c.abort_err, 1);
        return ok;
    }
    add_abort_error(&c);
    if (!ok && c.total == 0)
        schema__error(&c, "schema", instance ? "does not match the schema" : "no value given");
    out->errors = c.errors;
    out->count = c.count;
    out->total = c.total;
    return ok;
}

void tools_schema_result_free(struct tools_schema_result *r)
{
    if (r == NULL)
        return;
    schema__errors_free(r->errors, r->count);
    free(r->errors);
    r->errors = NULL;
    r->count = r->total = 0;
}

char *tools_schema_result_format(const struct tools_schema_result *r)
{
    struct buf b;
    buf_init(&b, 0);
    for (size_t i = 0; i < r->count; i++) {
        const struct tools_schema_error *e = &r->errors[i];
        buf_printf(&b, "- %s: %s [%s]\n", e->instance_path[0] ? e->instance_path : "(root)",
                   e->message, e->keyword);
    }
    if (r->total > r->count)
        buf_printf(&b, "- ... and %zu more\n", r->total - r->count);
    return buf_steal(&b);
}
