/* Violations as a model can act on them: the instance path as a JSON
 * Pointer, the keyword, and a message with short renderings of the values
 * involved. Errors are capped; the total keeps counting past the cap. */
#include "tools/schema/internal.h"
#include "common/alloc.h"
#include "common/buf.h"
#include "common/json.h"
#include "common/utf8.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TEXT_MAX_CHARS 40 /* code points of a string shown in a message */
#define TEXT_MAX_BYTES 80 /* beyond this, objects and arrays are cut with "..." */

void schema__pointer_append(struct buf *b, const char *name)
{
    for (const char *p = name; *p; p++) {
        if (*p == '~')
            buf_append_str(b, "~0");
        else if (*p == '/')
            buf_append_str(b, "~1");
        else
            buf_append_char(b, *p);
    }
}

char *schema__render_path(const struct schema__ctx *c)
{
    struct buf b;
    buf_init(&b, 0);
    buf_append_str(&b, ""); /* never NULL, even for the root */
    for (int i = 0; i < c->path_len; i++) {
        buf_append_char(&b, '/');
        if (c->path[i].name)
            schema__pointer_append(&b, c->path[i].name);
        else
            buf_printf(&b, "%zu", c->path[i].index);
    }
    return buf_steal(&b);
}

static void fill_error(struct schema__ctx *c, struct tools_schema_error *e, const char *keyword,
                       const char *fmt, va_list ap)
{
    struct buf b;
    buf_init(&b, 0);
    buf_vprintf(&b, fmt, ap);
    e->instance_path = schema__render_path(c);
    e->keyword = xstrdup(keyword);
    e->message = buf_steal(&b);
}

int schema__error_kept(struct schema__ctx *c)
{
    if (c->quiet)
        return 0;
    if (c->count < SCHEMA_MAX_ERRORS)
        return 1;
    c->total++;
    return 0;
}

void schema__error(struct schema__ctx *c, const char *keyword, const char *fmt, ...)
{
    if (c->quiet)
        return;
    c->total++;
    if (c->count >= SCHEMA_MAX_ERRORS)
        return;
    if (c->errors == NULL)
        c->errors = xcalloc(SCHEMA_MAX_ERRORS, sizeof *c->errors);
    va_list ap;
    va_start(ap, fmt);
    fill_error(c, &c->errors[c->count++], keyword, fmt, ap);
    va_end(ap);
}

void schema__abort(struct schema__ctx *c, const char *keyword, const char *fmt, ...)
{
    if (c->aborted)
        return;
    c->aborted = 1;
    if (!c->want_errors)
        return;
    va_list ap;
    va_start(ap, fmt);
    fill_error(c, &c->abort_err, keyword, fmt, ap);
    va_end(ap);
}

void schema__errors_free(struct tools_schema_error *errs, size_t n)
{
    for (size_t i = 0; errs && i < n; i++) {
        free(errs[i].instance_path);
        free(errs[i].keyword);
        free(errs[i].message);
        memset(&errs[i], 0, sizeof errs[i]);
    }
}

void schema__errors_truncate(struct schema__ctx *c, size_t mark, size_t total)
{
    if (c->count > mark)
        schema__errors_free(c->errors + mark, c->count - mark);
    if (c->count > mark)
        c->count = mark;
    c->total = total;
}

const char *schema__type_name(const cJSON *v)
{
    unsigned t = schema__type_bits(v);
    if (t & T_INTEGER)
        return "integer";
    if (t & T_NUMBER)
        return "number";
    if (t & T_STRING)
        return "string";
    if (t & T_OBJECT)
        return "object";
    if (t & T_ARRAY)
        return "array";
    if (t & T_BOOLEAN)
        return "boolean";
    return "null";
}

/* The shortest decimal form that reads back as the same double. */
void schema__number_text(struct buf *b, double d)
{
    char tmp[40];
    if (!isfinite(d)) {
        buf_append_str(b, "null");
        return;
    }
    if (floor(d) == d && fabs(d) < 1e15) {
        buf_printf(b, "%.0f", d);
        return;
    }
    for (int prec = 15; prec <= 17; prec++) {
        snprintf(tmp, sizeof tmp, "%.*g", prec, d);
        if (strtod(tmp, NULL) == d)
            break;
    }
    buf_append_str(b, tmp);
}

/* A string literal cut after TEXT_MAX_CHARS code points. */
static void string_text(struct buf *b, const char *s)
{
    size_t len = strlen(s), cut = 0, chars = 0;
    while (cut < len && chars < TEXT_MAX_CHARS) {
        size_t k = (unsigned char) s[cut] < 0x80
                       ? 1
                       : utf8_valid_prefix((const unsigned char *) s + cut, len - cut);
        cut += k ? k : 1;
        chars++;
    }
    json_append_string(b, s, cut);
    if (cut < len) {
        b->len--; /* reopen the literal to mark the cut inside it */
        buf_append_str(b, "...\"");
    }
}

static void value_text(struct buf *b, const cJSON *v, int depth)
{
    int is_obj = cJSON_IsObject(v);
    if (cJSON_IsString(v) || cJSON_IsRaw(v)) {
        string_text(b, v->valuestring ? v->valuestring : "");
    } else if (cJSON_IsNumber(v)) {
        schema__number_text(b, v->valuedouble);
    } else if (cJSON_IsBool(v) || cJSON_IsNull(v)) {
        buf_append_str(b, cJSON_IsTrue(v) ? "true" : cJSON_IsFalse(v) ? "false" : "null");
    } else if (v->child == NULL) {
        buf_append_str(b, is_obj ? "{}" : "[]");
    } else if (depth >= 2) {
        buf_append_str(b, is_obj ? "{...}" : "[...]");
    } else {
        buf_append_char(b, is_obj ? '{' : '[');
        for (const cJSON *k = v->child; k; k = k->next) {
            if (b->len > TEXT_MAX_BYTES) {
                buf_append_str(b, "...");
                break;
            }
            if (is_obj) {
                string_text(b, k->string ? k->string : "");
                buf_append_char(b, ':');
            }
            value_text(b, k, depth + 1);
            if (k->next)
                buf_append_char(b, ',');
        }
        buf_append_char(b, is_obj ? '}' : ']');
    }
}

char *schema__value_text(const cJSON *v)
{
    struct buf b;
    buf_init(&b, 0);
    value_text(&b, v, 0);
    return buf_steal(&b);
}
