/* Typed readers for configuration values: strict types with messages that
 * say what was expected and what was found, ${VAR} expansion of strings with
 * unset-variable diagnostics, and duplicate-key removal in objects. */
#include "mcp-server/config/internal.h"

#include "common/alloc.h"
#include "common/buf.h"
#include "mcp-server/config/expand.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Reports "expected WHAT, got VALUE" at v. */
static int expected(struct config_ctx *x, const cJSON *v, const struct config_kpath *p,
                    const char *what)
{
    struct buf got;
    buf_init(&got, 0);
    config__describe(&got, v);
    config__error(x, config__at(x, v, 0), p, "expected %s, got %s", what, got.data);
    buf_free(&got);
    return -1;
}

struct unset_report {
    struct config_ctx *x;
    const cJSON *v;
    const struct config_kpath *p;
    enum config_vars vars;
    int failed;
};

static size_t offset_in(const struct config_ctx *x, const cJSON *v, size_t decoded)
{
    size_t val = config__at(x, v, 0);
    return val == CONFIG_JSON_NOPOS ? val : config_json_pos_in_string(&x->pos, val, decoded);
}

static void on_unset(void *ud, const char *name, size_t off)
{
    struct unset_report *r = ud;
    if (r->x->quiet_unset)
        return;
    size_t at = offset_in(r->x, r->v, off);
    if (r->vars == CONFIG_VARS_REQUIRED) {
        config__error(r->x, at, r->p, "${%s} is not set and has no default", name);
        r->failed = 1;
    } else
        config__warn(r->x, CONFIG_WARNING, at, r->p, "${%s} is not set; using an empty string",
                     name);
}

int config__string(struct config_ctx *x, const cJSON *v, const struct config_kpath *p,
                   enum config_vars vars, char **out)
{
    if (!cJSON_IsString(v))
        return expected(x, v, p, "a string");
    if (x->no_expand) {
        *out = xstrdup(v->valuestring);
        return 0;
    }
    struct unset_report r = {x, v, p, vars, 0};
    const char *why;
    size_t off;
    char *s = config_expand(v->valuestring, on_unset, &r, &why, &off);
    if (s == NULL) {
        config__error(x, offset_in(x, v, off), p, "%s", why);
        return -1;
    }
    if (r.failed) { /* a required variable was unset */
        free(s);
        return -1;
    }
    *out = s;
    return 0;
}

int config__int(struct config_ctx *x, const cJSON *v, const struct config_kpath *p, int64_t min,
                int64_t max, int64_t *out)
{
    const char *what = min == 1   ? "a positive integer"
                       : min == 0 ? "a non-negative integer"
                                  : "an integer";
    if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) || floor(v->valuedouble) != v->valuedouble)
        return expected(x, v, p, what);
    double d = v->valuedouble;
    if (d < (double) min || d > (double) max) {
        char range[80];
        snprintf(range, sizeof range, "an integer from %lld to %lld", (long long) min,
                 (long long) max);
        return expected(x, v, p, range);
    }
    *out = (int64_t) d;
    return 0;
}

int config__enum(struct config_ctx *x, const cJSON *v, const struct config_kpath *p,
                 const char *const *names, int *out)
{
    char *s;
    if (config__string(x, v, p, CONFIG_VARS_WARN, &s) < 0)
        return -1;
    for (int i = 0; names[i] != NULL; i++) {
        if (strcmp(s, names[i]) == 0) {
            free(s);
            *out = i;
            return 0;
        }
    }
    struct buf want;
    buf_init(&want, 0);
    for (int i = 0; names[i] != NULL; i++)
        buf_printf(&want, "%s\"%s\"", i == 0 ? "" : names[i + 1] ? ", " : " or ", names[i]);
    config__error(x, config__at(x, v, 0), p, "unknown value \"%s\" (expected %s)", s,
                  want.data ? want.data : "");
    buf_free(&want);
    free(s);
    return -1;
}

int config__member_uint(struct config_ctx *x, const cJSON *block, const struct config_kpath *p,
                        const char *key, int64_t min, int64_t max, uint64_t *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(block, key);
    struct config_kpath kp = {p, key, 0};
    int64_t n;
    if (v == NULL)
        return 0;
    if (config__int(x, v, &kp, min, max, &n) < 0)
        return -1;
    *out = (uint64_t) n;
    return 0;
}

int config__bool(struct config_ctx *x, const cJSON *v, const struct config_kpath *p, int *out)
{
    if (!cJSON_IsBool(v))
        return expected(x, v, p, "true or false");
    *out = cJSON_IsTrue(v);
    return 0;
}

void config__free_list(char **list)
{
    if (list == NULL)
        return;
    for (char **q = list; *q; q++)
        free(*q);
    free(list);
}

int config__string_list(struct config_ctx *x, const cJSON *v, const struct config_kpath *p,
                        char ***out)
{
    if (!cJSON_IsArray(v))
        return expected(x, v, p, "an array of strings");
    size_t n = (size_t) cJSON_GetArraySize(v), i = 0;
    char **list = xcalloc(n + 1, sizeof *list);
    for (const cJSON *e = v->child; e != NULL; e = e->next, i++) {
        struct config_kpath kp = {p, NULL, i};
        if (config__string(x, e, &kp, CONFIG_VARS_WARN, &list[i]) < 0) {
            config__free_list(list);
            return -1;
        }
    }
    *out = list;
    return 0;
}

int config__checked_list(struct config_ctx *x, const cJSON *v, const struct config_kpath *p,
                         config__item_check *check, char ***out)
{
    char **list;
    if (config__string_list(x, v, p, &list) < 0)
        return -1;
    size_t i = 0;
    for (const cJSON *e = v->child; e != NULL; e = e->next, i++) {
        struct config_kpath kp = {p, NULL, i};
        if (check(x, e, &kp, list[i]) < 0) {
            config__free_list(list);
            return -1;
        }
    }
    config__free_list(*out);
    *out = list;
    return 0;
}

int config__scope_ok(const char *s)
{
    int ok = s[0] != '\0';
    for (const unsigned char *q = (const unsigned char *) s; ok && *q; q++)
        ok = *q > 0x20 && *q < 0x7f && *q != '"' && *q != '\\';
    return ok;
}

struct member {
    const char *key;
    size_t idx;
};

static int by_key(const void *a, const void *b)
{
    const struct member *x = a, *y = b;
    int r = strcmp(x->key, y->key);
    return r ? r : (x->idx > y->idx) - (x->idx < y->idx);
}

/* winner[i] = index of the member that replaces member i (i itself if kept). */
static void find_winners(struct member *m, size_t n, size_t *winner)
{
    qsort(m, n, sizeof *m, by_key);
    for (size_t k = 0; k < n;) {
        size_t j = k;
        while (j + 1 < n && strcmp(m[j + 1].key, m[k].key) == 0)
            j++;
        for (size_t t = k; t <= j; t++)
            winner[m[t].idx] = m[j].idx;
        k = j + 1;
    }
}

static void drop_duplicate(struct config_ctx *x, cJSON *obj, cJSON *gone, const cJSON *kept,
                           const struct config_kpath *p)
{
    struct config_kpath kp = {p, gone->string, 0};
    size_t at = config__at(x, kept, 1);
    unsigned line = 0, col = 0;
    if (at != CONFIG_JSON_NOPOS)
        config_json_pos_linecol(&x->pos, at, &line, &col);
    config__warn(x, CONFIG_WARNING, config__at(x, gone, 1), &kp,
                 "duplicate key, ignored (the later one on line %u is used)", line);
    cJSON_Delete(cJSON_DetachItemViaPointer(obj, gone));
}

static void dedupe(struct config_ctx *x, cJSON *obj, const struct config_kpath *p)
{
    size_t n = (size_t) cJSON_GetArraySize(obj), i = 0;
    if (n < 2)
        return;
    cJSON **items = xmalloc(n * sizeof *items);
    struct member *m = xmalloc(n * sizeof *m);
    size_t *winner = xmalloc(n * sizeof *winner);
    for (cJSON *e = obj->child; e != NULL; e = e->next, i++) {
        items[i] = e;
        m[i] = (struct member){e->string, i};
    }
    find_winners(m, n, winner);
    for (i = 0; i < n; i++)
        if (winner[i] != i)
            drop_duplicate(x, obj, items[i], items[winner[i]], p);
    free(items);
    free(m);
    free(winner);
}

int config__object(struct config_ctx *x, cJSON *v, const struct config_kpath *p)
{
    if (!cJSON_IsObject(v))
        return expected(x, v, p, "an object");
    dedupe(x, v, p);
    return 0;
}
