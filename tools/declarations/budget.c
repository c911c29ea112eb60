/* The reducer: fits the declarations the model reads into a token budget,
 * tool by tool. Every tool starts with compact docs; while the text is over
 * budget the tool of lowest priority that still has the most detail loses
 * one level (docs, then summary, then signature, then name), so that all
 * tools keep their signatures as long as any can, and no server falls off a
 * cliff at once. Per-tool sizes steer the steps; the real text decides. */
#include "common/alloc.h"
#include "common/buf.h"
#include "tools/declarations/declarations.h"
#include "tools/declarations/set.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

size_t tools_declarations_tokens(size_t bytes)
{
    return (bytes + 3) / 4;
}

const char *tools_declarations_level_name(enum tools_decl_level level)
{
    static const char *const names[] = {"full", "docs", "summary", "signature", "name"};
    return (unsigned) level < TOOLS_DECL_LEVELS ? names[level] : "?";
}

struct victim {
    size_t index, rank, position;
};

/* Lowest priority first: highest rank, then last in output order. */
static int cmp_victims(const void *a, const void *b)
{
    const struct victim *x = a, *y = b;
    if (x->rank != y->rank)
        return x->rank > y->rank ? -1 : 1;
    return x->position > y->position ? -1 : x->position < y->position;
}

struct fitting {
    struct tools__decl_set *set;
    unsigned char *levels;
    size_t budget;
    size_t runtime; /* bytes of the runtime globals */
    struct buf text;
};

/* Renders the text at the current levels; 1 when it fits. */
static int render(struct fitting *fx)
{
    struct tools__decl_filter all = {NULL, NULL};
    buf_reset(&fx->text);
    tools_declarations_runtime(&fx->text);
    tools__decl_emit(&fx->text, fx->set, &all, fx->levels);
    return tools_declarations_tokens(fx->text.len) <= fx->budget;
}

/* Reduces tools one level at a time until the text fits; returns with
 * fx->text holding the last text rendered. */
static void reduce(struct fitting *fx)
{
    struct tools__decl_set *set = fx->set;
    struct victim *v = xcalloc(set->n ? set->n : 1, sizeof *v);
    for (size_t k = 0; k < set->n; k++)
        v[k] = (struct victim){set->order[k], set->tools[set->order[k]].rank, k};
    qsort(v, set->n, sizeof *v, cmp_victims);
    size_t *cost = xcalloc(set->count ? set->count : 1, TOOLS_DECL_LEVELS * sizeof *cost);
    for (size_t k = 0; k < set->n; k++)
        for (int l = TOOLS_DECL_DOCS; l < TOOLS_DECL_LEVELS; l++)
            cost[v[k].index * TOOLS_DECL_LEVELS + l] = tools__decl_tool_bytes(set, v[k].index, l);
    size_t estimate = fx->text.len;
    int fits = 0;
    for (int level = TOOLS_DECL_SUMMARY; level < TOOLS_DECL_LEVELS && !fits; level++) {
        for (size_t k = 0; k < set->n && !fits; k++) {
            size_t i = v[k].index;
            if (fx->levels[i] >= level || set->tools[i].login_only)
                continue; /* a login_only server's line is the same at every level */
            size_t was = cost[i * TOOLS_DECL_LEVELS + fx->levels[i]];
            size_t now = cost[i * TOOLS_DECL_LEVELS + level];
            estimate -= was > now && estimate > was - now ? was - now : 0;
            fx->levels[i] = (unsigned char) level;
            if (tools_declarations_tokens(estimate) <= fx->budget) {
                fits = render(fx);
                estimate = fx->text.len;
            }
        }
    }
    if (!fits)
        render(fx);
    free(cost);
    free(v);
}

int tools_declarations_budgeted(const struct tools_decl_tool *tools, size_t count, size_t budget,
                                struct buf *out, struct tools_decl_report *report)
{
    struct fitting fx = {0};
    struct tools__decl_set set;
    tools__decl_set_build(&set, tools, count);
    fx.set = &set;
    fx.budget = budget;
    fx.levels = xcalloc(count ? count : 1, 1);
    memset(fx.levels, TOOLS_DECL_NAME, count);
    for (size_t k = 0; k < set.n; k++)
        fx.levels[set.order[k]] = TOOLS_DECL_DOCS;
    buf_init(&fx.text, 0);
    if (!render(&fx))
        reduce(&fx);
    int reduced = 0;
    size_t per_level[TOOLS_DECL_LEVELS] = {0};
    for (size_t k = 0; k < set.n; k++) {
        per_level[fx.levels[set.order[k]]]++;
        reduced += fx.levels[set.order[k]] > TOOLS_DECL_DOCS;
    }
    if (report) {
        memset(report, 0, sizeof *report);
        report->bytes = fx.text.len;
        report->tokens = tools_declarations_tokens(fx.text.len);
        report->budget = budget;
        memcpy(report->per_level, per_level, sizeof per_level);
        report->levels = fx.levels;
    } else {
        free(fx.levels);
    }
    tools__decl_set_free(&set);
    int rc = buf_append(out, fx.text.len ? fx.text.data : "", fx.text.len) < 0 ? -ENOSPC : reduced;
    buf_free(&fx.text);
    if (rc < 0 && report) {
        free(report->levels);
        report->levels = NULL;
    }
    return rc;
}
