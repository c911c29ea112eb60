/* Applicators that combine schemas on the same value: allOf, anyOf, oneOf,
 * not, if/then/else. When anyOf/oneOf match nothing, the errors of the
 * closest alternative are reported (or one merged type message when every
 * alternative only wanted another type). */
#include "tools/schema_internal.h"
#include "common/alloc.h"
#include "common/buf.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The errors of the closest failed alternative, moved out of the list. */
struct best {
    struct tools_schema_error *errs;
    size_t n, total, index;
    long score;
    int have;
};

struct branches {
    size_t matched, first, second;
    struct best best;
    int type_only;  /* every failure so far was one type mismatch of the value itself */
    unsigned types; /* the types those alternatives wanted */
};

static void best_free(struct best *b)
{
    schema__errors_free(b->errs, b->n);
    free(b->errs);
    memset(b, 0, sizeof *b);
}

/* Lower is closer: fewer violations, and none saying the alternative was
 * meant for another type of value or another discriminator value. */
static long branch_score(const struct schema__ctx *c, size_t mark, size_t tmark, const char *here)
{
    long score = (long) (c->total - tmark);
    size_t here_len = strlen(here);
    for (size_t i = mark; i < c->count; i++) {
        const struct tools_schema_error *e = &c->errors[i];
        int at_value = strcmp(e->instance_path, here) == 0;
        int at_member = strncmp(e->instance_path, here, here_len) == 0 &&
                        e->instance_path[here_len] == '/' &&
                        strchr(e->instance_path + here_len + 1, '/') == NULL;
        if (at_value && strcmp(e->keyword, "type") == 0)
            score += 1000;
        else if ((at_value || at_member) &&
                 (strcmp(e->keyword, "const") == 0 || strcmp(e->keyword, "enum") == 0))
            score += 500;
    }
    return score;
}

static void keep_best(struct schema__ctx *c, struct best *b, size_t mark, size_t tmark,
                      size_t index, const char *here)
{
    long score = branch_score(c, mark, tmark, here);
    if (b->have && score >= b->score) {
        schema__errors_truncate(c, mark, tmark);
        return;
    }
    best_free(b);
    size_t n = c->count > mark ? c->count - mark : 0;
    b->errs = xmalloc((n ? n : 1) * sizeof *b->errs);
    if (n) {
        memcpy(b->errs, c->errors + mark, n * sizeof *b->errs);
        memset(c->errors + mark, 0, n * sizeof *b->errs);
    }
    b->n = n;
    b->total = c->total - tmark;
    b->index = index;
    b->score = score;
    b->have = 1;
    c->count = mark;
    c->total = tmark;
}

static void restore_best(struct schema__ctx *c, struct best *b)
{
    for (size_t i = 0; i < b->n; i++) {
        if (c->count < SCHEMA_MAX_ERRORS) {
            c->errors[c->count++] = b->errs[i];
            memset(&b->errs[i], 0, sizeof b->errs[i]);
        }
    }
    c->total += b->total;
    best_free(b);
}

static void note_type_only(const struct schema__ctx *c, struct branches *br,
                           const struct schema__node *k, size_t mark, size_t tmark, const char *here)
{
    const struct tools_schema_error *e = c->count == mark + 1 ? &c->errors[mark] : NULL;
    if (c->total - tmark == 1 && e && strcmp(e->keyword, "type") == 0 &&
        strcmp(e->instance_path, here) == 0 && k->kind == K_OBJECT && (k->groups & G_TYPE))
        br->types |= k->types;
    else
        br->type_only = 0;
}

/* Evaluates alternatives until stop_at of them matched. Failed ones leave
 * no errors in the list; the closest one's are kept in br->best. */
static void run_branches(struct schema__ctx *c, const struct schema__list *l, const cJSON *inst,
                         struct schema__annot *a, struct branches *br, size_t stop_at)
{
    char *here = c->quiet ? NULL : schema__render_path(c);
    br->type_only = 1;
    for (size_t i = 0; i < l->n && !c->aborted; i++) {
        size_t mark = c->count, tmark = c->total;
        if (schema__eval(c, l->items[i], inst, a)) {
            if (br->matched++ == 0)
                br->first = i;
            else if (br->matched == 2)
                br->second = i;
            if (br->matched >= stop_at)
                break;
            continue;
        }
        if (here == NULL)
            continue;
        note_type_only(c, br, l->items[i], mark, tmark, here);
        keep_best(c, &br->best, mark, tmark, i, here);
    }
    free(here);
}

static void report_none(struct schema__ctx *c, const char *keyword, const char *words,
                        struct branches *br, const cJSON *inst, size_t n)
{
    if (c->quiet || c->aborted) {
        best_free(&br->best);
        return;
    }
    if (br->type_only && br->types) {
        struct buf b;
        buf_init(&b, 0);
        schema__types_text(&b, br->types);
        char *v = schema__value_text(inst);
        schema__error(c, keyword, "expected %s, got %s %s", b.data, schema__type_name(inst), v);
        free(v);
        buf_free(&b);
        best_free(&br->best);
        return;
    }
    schema__error(c, keyword, "must match %s of %zu schemas (matched 0); closest is %s[%zu], "
                              "whose errors follow", words, n, keyword, br->best.index);
    restore_best(c, &br->best);
}

static int any_of(struct schema__ctx *c, const struct schema__node *n, const cJSON *inst,
                  struct schema__annot *a)
{
    struct branches br;
    memset(&br, 0, sizeof br);
    /* With annotations wanted, every alternative counts: no short cut. */
    run_branches(c, &n->any_of, inst, a, &br, a ? SIZE_MAX : 1);
    if (br.matched) {
        best_free(&br.best);
        return 1;
    }
    report_none(c, "anyOf", "at least one", &br, inst, n->any_of.n);
    return 0;
}

static int one_of(struct schema__ctx *c, const struct schema__node *n, const cJSON *inst,
                  struct schema__annot *a)
{
    struct branches br;
    memset(&br, 0, sizeof br);
    run_branches(c, &n->one_of, inst, a, &br, 2);
    if (br.matched == 1) {
        best_free(&br.best);
        return 1;
    }
    if (br.matched == 0) {
        report_none(c, "oneOf", "exactly one", &br, inst, n->one_of.n);
        return 0;
    }
    best_free(&br.best);
    schema__error(c, "oneOf", "must match exactly one of %zu schemas (matched more than one: "
                              "oneOf[%zu] and oneOf[%zu])", n->one_of.n, br.first, br.second);
    return 0;
}

static int not_(struct schema__ctx *c, const struct schema__node *n, const cJSON *inst)
{
    int quiet = c->quiet;
    c->quiet = 1;
    int r = schema__eval(c, n->not_, inst, NULL);
    c->quiet = quiet;
    if (c->aborted)
        return 0;
    if (!r)
        return 1;
    const struct schema__node *k = n->not_;
    if (k->kind == K_OBJECT && k->groups == G_TYPE) {
        struct buf b;
        buf_init(&b, 0);
        schema__types_text(&b, k->types);
        schema__error(c, "not", "must not be of type %s", b.data);
        buf_free(&b);
    } else {
        schema__error(c, "not", "must not match the schema in \"not\"");
    }
    return 0;
}

static int if_then_else(struct schema__ctx *c, const struct schema__node *n, const cJSON *inst,
                        struct schema__annot *a)
{
    int quiet = c->quiet;
    c->quiet = 1;
    int r = schema__eval(c, n->if_, inst, a);
    c->quiet = quiet;
    if (c->aborted)
        return 0;
    const struct schema__node *k = r ? n->then_ : n->else_;
    return k ? schema__eval(c, k, inst, a) : 1;
}

int schema__kw_logic(struct schema__ctx *c, const struct schema__node *n, const cJSON *inst,
                     struct schema__annot *a)
{
    int ok = 1;
    for (size_t i = 0; i < n->all_of.n; i++)
        if (!schema__eval(c, n->all_of.items[i], inst, a) && (ok = 0, c->quiet))
            return 0;
    if (n->any_of.n && !any_of(c, n, inst, a) && (ok = 0, c->quiet))
        return 0;
    if (n->one_of.n && !one_of(c, n, inst, a) && (ok = 0, c->quiet))
        return 0;
    if (n->not_ && !not_(c, n, inst) && (ok = 0, c->quiet))
        return 0;
    if (n->if_ && !if_then_else(c, n, inst, a))
        ok = 0;
    return ok;
}
