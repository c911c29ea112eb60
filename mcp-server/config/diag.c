/* Diagnostics of the configuration loader: every error and warning reads
 * "FILE:LINE:COL: KEY.PATH: problem", with "did you mean" suggestions for
 * unknown keys and a short rendering of the offending value. */
#include "mcp-server/config/internal.h"

#include "common/alloc.h"
#include "common/buf.h"
#include "common/json.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

size_t config__at(const struct config_ctx *x, const cJSON *item, int key)
{
    if (x->file == NULL)
        return CONFIG_JSON_NOPOS;
    return config_json_pos_of(&x->pos, item, key);
}

static int plain_key(const char *k)
{
    if (*k == '\0')
        return 0;
    for (; *k; k++)
        if (!isalnum((unsigned char) *k) && *k != '_' && *k != '-')
            return 0;
    return 1;
}

void config__path(struct buf *b, const struct config_kpath *p)
{
    if (p == NULL)
        return;
    config__path(b, p->up);
    if (p->key == NULL) {
        buf_printf(b, "[%zu]", p->index);
    } else if (plain_key(p->key)) {
        if (p->up != NULL)
            buf_append_char(b, '.');
        buf_append_str(b, p->key);
    } else {
        buf_append_char(b, '[');
        json_append_string(b, p->key, strlen(p->key));
        buf_append_char(b, ']');
    }
}

static char *vformat(struct config_ctx *x, size_t off, const struct config_kpath *p,
                     const char *fmt, va_list ap)
{
    struct buf b;
    buf_init(&b, 0);
    if (x->file != NULL) {
        buf_append_str(&b, x->file);
        if (off != CONFIG_JSON_NOPOS) {
            unsigned line, col;
            config_json_pos_linecol(&x->pos, off, &line, &col);
            buf_printf(&b, ":%u:%u", line, col);
        }
        buf_append_str(&b, ": ");
    }
    if (p != NULL) {
        config__path(&b, p);
        buf_append_str(&b, ": ");
    }
    buf_vprintf(&b, fmt, ap);
    return buf_steal(&b);
}

void config__error(struct config_ctx *x, size_t off, const struct config_kpath *p, const char *fmt,
                   ...)
{
    if (x->err != NULL)
        return;
    va_list ap;
    va_start(ap, fmt);
    x->err = vformat(x, off, p, fmt, ap);
    va_end(ap);
}

static void append_warning(struct config *c, char *msg, enum config_warning_kind kind)
{
    c->warnings = xrealloc(c->warnings, (c->nwarnings + 2) * sizeof *c->warnings);
    c->warning_kinds = xrealloc(c->warning_kinds, (c->nwarnings + 1) * sizeof *c->warning_kinds);
    c->warnings[c->nwarnings] = msg;
    c->warning_kinds[c->nwarnings] = kind;
    c->warnings[++c->nwarnings] = NULL;
}

void config__warn(struct config_ctx *x, enum config_warning_kind kind, size_t off,
                  const struct config_kpath *p, const char *fmt, ...)
{
    if (x->c->nwarnings >= CONFIG_MAX_WARNINGS) {
        x->suppressed++;
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    append_warning(x->c, vformat(x, off, p, fmt, ap), kind);
    va_end(ap);
}

static void describe_string(struct buf *b, const char *s)
{
    size_t len = strlen(s), cut = len;
    if (len > 40) {
        cut = 37;
        while (cut > 0 && ((unsigned char) s[cut] & 0xC0) == 0x80)
            cut--;
    }
    json_append_string(b, s, cut);
    if (cut < len) {
        b->len--; /* reopen the closing quote */
        buf_append_str(b, "...\"");
    }
}

void config__describe(struct buf *b, const cJSON *v)
{
    if (cJSON_IsString(v))
        describe_string(b, v->valuestring);
    else if (cJSON_IsNumber(v) && floor(v->valuedouble) == v->valuedouble &&
             fabs(v->valuedouble) < 1e15)
        buf_printf(b, "%.0f", v->valuedouble);
    else if (cJSON_IsNumber(v))
        buf_printf(b, "%g", v->valuedouble);
    else if (cJSON_IsBool(v))
        buf_append_str(b, cJSON_IsTrue(v) ? "true" : "false");
    else if (cJSON_IsNull(v))
        buf_append_str(b, "null");
    else if (cJSON_IsArray(v))
        buf_append_str(b, "an array");
    else
        buf_append_str(b, "an object");
}

/* Case-insensitive Levenshtein distance of two short strings. */
static size_t distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b), row[65];
    if (la > 64 || lb > 64)
        return (size_t) -1;
    for (size_t j = 0; j <= lb; j++)
        row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j];
            size_t cost = tolower((unsigned char) a[i - 1]) != tolower((unsigned char) b[j - 1]);
            size_t best = diag + cost;
            if (up + 1 < best)
                best = up + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

static int prefix_of(const char *a, const char *b)
{
    size_t la = strlen(a);
    return la >= 4 && strncasecmp(a, b, la) == 0;
}

const char *config__suggest(const char *key, const char *const *known)
{
    const char *best = NULL;
    size_t best_d = (size_t) -1;
    for (; *known; known++) {
        size_t d = distance(key, *known);
        size_t limit = strlen(*known) <= 4 ? 1 : strlen(*known) <= 8 ? 2 : 3;
        if ((d <= limit || prefix_of(key, *known) || prefix_of(*known, key)) && d < best_d) {
            best = *known;
            best_d = d;
        }
    }
    return best;
}

static int is_known(const char *key, const char *const *known)
{
    for (; *known; known++)
        if (strcmp(key, *known) == 0)
            return 1;
    return 0;
}

void config__unknown_keys(struct config_ctx *x, const cJSON *obj, const struct config_kpath *p,
                          const char *const *known)
{
    for (const cJSON *m = obj->child; m != NULL; m = m->next) {
        if (is_known(m->string, known))
            continue;
        struct config_kpath kp = {p, m->string, 0};
        const char *hint = config__suggest(m->string, known);
        if (hint != NULL)
            config__warn(x, CONFIG_WARNING, config__at(x, m, 1), &kp,
                         "unknown key (did you mean %s?)", hint);
        else
            config__warn(x, CONFIG_WARNING, config__at(x, m, 1), &kp, "unknown key, ignored");
    }
}
