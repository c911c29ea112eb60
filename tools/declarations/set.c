/* The ordered, analysed tool list behind every declarations output, and
 * the naming of type aliases (sanitised pointer hints, never a TypeScript
 * type keyword, "_2", "_3", ... on repeats, in output order). */
#include "tools/declarations/set.h"
#include "common/alloc.h"
#include "common/buf.h"
#include "tools/declarations/declarations.h"
#include "tools/declarations/refs.h"
#include "tools/declarations/types.h"
#include "tools/names.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct keyed {
    const struct tools_decl_tool *t;
    size_t index;
};

static const char *str(const char *s)
{
    return s ? s : "";
}

static int cmp_keyed(const void *a, const void *b)
{
    const struct keyed *x = a, *y = b;
    int c = strcmp(str(x->t->server_id), str(y->t->server_id));
    if (c == 0)
        c = strcmp(str(x->t->id), str(y->t->id));
    if (c == 0)
        c = strcmp(str(x->t->server), str(y->t->server));
    if (c == 0)
        c = strcmp(str(x->t->name), str(y->t->name));
    if (c == 0)
        c = x->index < y->index ? -1 : x->index > y->index;
    return c;
}

static int same_ids(const struct tools_decl_tool *a, const struct tools_decl_tool *b)
{
    return strcmp(str(a->server_id), str(b->server_id)) == 0 && strcmp(str(a->id), str(b->id)) == 0;
}

size_t *tools__decl_order(const struct tools_decl_tool *tools, size_t count, size_t *n)
{
    *n = 0;
    if (count == 0)
        return NULL;
    struct keyed *k = xcalloc(count, sizeof *k);
    for (size_t i = 0; i < count; i++)
        k[i] = (struct keyed){&tools[i], i};
    qsort(k, count, sizeof *k, cmp_keyed);
    size_t *order = xcalloc(count, sizeof *order);
    for (size_t i = 0; i < count; i++)
        if (*n == 0 || !same_ids(&tools[order[*n - 1]], k[i].t))
            order[(*n)++] = k[i].index;
    free(k);
    return order;
}

/* TypeScript refuses these as type alias names. */
static int is_type_keyword(const char *s)
{
    static const char *const words[] = {"any",       "asserts",  "bigint", "boolean", "global",
                                        "infer",     "is",       "keyof",  "never",   "number",
                                        "object",    "readonly", "string", "symbol",  "type",
                                        "undefined", "unique",   "unknown"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strcmp(s, words[i]) == 0)
            return 1;
    return 0;
}

static int name_taken(const struct tools__decl_set *set, const char *name)
{
    return tools__decl_map_find(&set->taken, NULL, name) != NULL;
}

char *tools__decl_set_alias_name(struct tools__decl_set *set, const char *hint)
{
    struct buf b;
    buf_init(&b, 0);
    char *base = tools_names_sanitize(hint);
    buf_append_str(&b, base);
    if (is_type_keyword(base))
        buf_append_char(&b, '_');
    for (unsigned long k = 2; name_taken(set, b.data); k++) {
        buf_reset(&b);
        buf_printf(&b, "%s%s_%lu", base, is_type_keyword(base) ? "_" : "", k);
    }
    free(base);
    if (set->nnames % 64 == 0)
        set->names = xrealloc(set->names, (set->nnames + 64) * sizeof *set->names);
    set->names[set->nnames] = xstrdup(b.data);
    tools__decl_map_put(&set->taken, NULL, set->names[set->nnames++], NULL);
    return buf_steal(&b);
}

static void prepare_doc(struct tools__decl_doc *d, const cJSON *root, const char *id,
                        const char *suffix)
{
    struct buf hint;
    buf_init(&hint, 0);
    buf_printf(&hint, "%s%s", str(id), suffix);
    tools__decl_doc_init(d, root, hint.data);
    buf_free(&hint);
    tools__decl_collect(d);
}

static void name_aliases(struct tools__decl_set *set, struct tools__decl_doc *d)
{
    for (size_t j = 0; j < d->n; j++)
        if (d->t[j].aliased)
            d->t[j].alias = tools__decl_set_alias_name(set, d->t[j].hint);
}

void tools__decl_set_build(struct tools__decl_set *set, const struct tools_decl_tool *tools,
                           size_t count)
{
    memset(set, 0, sizeof *set);
    set->tools = tools;
    set->count = count;
    set->order = tools__decl_order(tools, count, &set->n);
    set->in = xcalloc(count ? count : 1, sizeof *set->in);
    set->out = xcalloc(count ? count : 1, sizeof *set->out);
    set->has_out = xcalloc(count ? count : 1, 1);
    set->any_object = cJSON_CreateObject();
    cJSON_AddStringToObject(set->any_object, "type", "object");
    for (size_t k = 0; k < set->n; k++) {
        size_t i = set->order[k];
        const cJSON *in = tools[i].input_schema ? tools[i].input_schema : set->any_object;
        prepare_doc(&set->in[i], in, tools[i].id, "_args");
        name_aliases(set, &set->in[i]);
        const cJSON *out =
            tools[i].output_schema ? tools[i].output_schema : tools[i].observed_output;
        if (out) {
            set->has_out[i] =
                tools[i].output_schema ? TOOLS__DECL_OUT_SCHEMA : TOOLS__DECL_OUT_OBSERVED;
            prepare_doc(&set->out[i], out, tools[i].id, "_result");
            name_aliases(set, &set->out[i]);
        }
    }
    tools__decl_shapes_find(set, &set->shapes);
}

void tools__decl_set_free(struct tools__decl_set *set)
{
    for (size_t k = 0; k < set->n; k++) {
        size_t i = set->order[k];
        tools__decl_doc_free(&set->in[i]);
        if (set->has_out[i])
            tools__decl_doc_free(&set->out[i]);
    }
    tools__decl_shapes_free(&set->shapes);
    tools__decl_map_free(&set->taken);
    for (size_t i = 0; i < set->nnames; i++)
        free(set->names[i]);
    free(set->names);
    cJSON_Delete(set->any_object);
    free(set->has_out);
    free(set->out);
    free(set->in);
    free(set->order);
    memset(set, 0, sizeof *set);
}

int tools__decl_selected(const struct tools__decl_set *set, const struct tools__decl_filter *f,
                         size_t i)
{
    const struct tools_decl_tool *t = &set->tools[i];
    if (f->id != NULL && strcmp(f->id, str(t->id)) != 0)
        return 0;
    return f->server_id == NULL || strcmp(f->server_id, str(t->server_id)) == 0;
}
